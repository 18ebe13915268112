"""EPP leaderboards from a Bayesian Bradley–Terry / Plackett–Luce fit, computed per draw."""

from __future__ import annotations

import arviz as az
import numpy as np
import pandas as pd
import xarray as xr
from scipy.special import expit

from .difficulty import _hdi_prob
from .epp import LOG10_ELO


def _epp(idata) -> xr.DataArray:
    if not hasattr(idata, "posterior") or "epp" not in idata.posterior:
        raise ValueError("idata has no posterior 'epp'; pass the result of "
                         "irteval.fit(irteval.models.bradley_terry(scores))")
    return idata.posterior["epp"]


def leaderboard(idata, *, hdi_prob=None) -> pd.DataFrame:
    """One row per player, best first: EPP posterior ``mean``, ``sd``, ``hdi_lower``,
    ``hdi_upper``, ``elo`` (1500 + mean * 400 / ln 10), ``p_best`` (share of draws in which
    the player has the highest EPP), ``expected_rank`` (1 = best) and ``rank_lower`` /
    ``rank_upper`` (equal-tailed interval of the rank with mass ``hdi_prob``)."""
    prob = _hdi_prob(hdi_prob)
    epp = _epp(idata)
    draws = epp.stack(sample=("chain", "draw")).transpose("sample", "player").values
    rank = (-draws).argsort(axis=1).argsort(axis=1) + 1
    hdi = az.hdi(epp, hdi_prob=prob)["epp"].values
    mean = draws.mean(axis=0)
    table = pd.DataFrame({
        "mean": mean, "sd": draws.std(axis=0), "hdi_lower": hdi[:, 0], "hdi_upper": hdi[:, 1],
        "elo": 1500 + mean * LOG10_ELO,
        "p_best": np.bincount(draws.argmax(axis=1), minlength=draws.shape[1]) / len(draws),
        "expected_rank": rank.mean(axis=0),
        "rank_lower": np.quantile(rank, (1 - prob) / 2, axis=0, method="lower"),
        "rank_upper": np.quantile(rank, (1 + prob) / 2, axis=0, method="higher"),
    }, index=pd.Index(epp["player"].values, name=idata.attrs.get("player_name", "player")))
    table.attrs["hdi_prob"] = prob
    return table.sort_values("mean", ascending=False)


def win_probability(idata, a, b) -> xr.DataArray:
    """Posterior draws of P(a beats b in a new round) = logistic(epp_a - epp_b);
    ``.mean()`` is the posterior predictive probability."""
    epp = _epp(idata)
    for player in (a, b):
        if player not in epp["player"].values:
            raise ValueError(f"unknown player {player!r}; players are e.g. "
                             f"{list(epp['player'].values[:5])}")
    diff = epp.sel(player=a) - epp.sel(player=b)
    return xr.apply_ufunc(expit, diff.drop_vars("player", errors="ignore")).rename("p_win")


def pairwise_probabilities(idata, *, rope=0.0):
    """Two players x players DataFrames: ``win`` = P(row beats column in a new round)
    (posterior mean of logistic(epp_i - epp_j)), and ``superior`` = P(epp_i - epp_j > rope),
    the posterior probability that the row is better by more than the region of practical
    equivalence ``rope`` (on the EPP scale)."""
    epp = _epp(idata)
    draws = epp.stack(sample=("chain", "draw")).transpose("sample", "player").values
    labels = pd.Index(epp["player"].values, name=idata.attrs.get("player_name", "player"))
    win = np.zeros((len(labels), len(labels)))
    superior = np.zeros_like(win)
    for k in range(len(labels)):  # one row at a time keeps memory at draws x players
        diff = draws[:, [k]] - draws
        win[k] = expit(diff).mean(axis=0)
        superior[k] = (diff > rope).mean(axis=0)
    np.fill_diagonal(win, np.nan)
    np.fill_diagonal(superior, np.nan)
    return (pd.DataFrame(win, index=labels, columns=labels),
            pd.DataFrame(superior, index=labels, columns=labels))
