"""EPP leaderboards from a Bayesian Bradley–Terry / Plackett–Luce fit, computed per draw."""

from __future__ import annotations

import arviz as az
import numpy as np
import pandas as pd
import xarray as xr
from scipy.special import expit, xlogy

from .draws import hdi_prob_or_default, stacked_draws
from .epp import LOG10_ELO
from .scores import win_matrices


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
    prob = hdi_prob_or_default(hdi_prob)
    epp = _epp(idata)
    draws = stacked_draws(idata, "epp")
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
    draws = stacked_draws(idata, "epp")
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


def _observed_pairs(idata):
    """Unordered pairs (i < j) with matches n and wins w of i, and for Plackett–Luce fits the
    players x rounds presence mask (None for the pairwise model), from the fit's own data."""
    const = idata.constant_data
    if "pair_i" in const:
        observed = idata.observed_data
        wins = (observed["wins"].values if "wins" in observed else
                (observed["outcomes"].values * [1.0, 0.0, 0.5]).sum(axis=-1))  # Davidson
        return (const["pair_i"].values, const["pair_j"].values, const["matches"].values,
                wins, None)
    order, mask = const["ranking"].values, const["position_mask"].values.astype(bool)
    n_players = idata.posterior.sizes["player"]
    # best first; tied players share their group's start, so -start orders them with ties
    surrogate = np.full((n_players, order.shape[0]), np.nan)
    rounds, positions = np.nonzero(mask)
    surrogate[order[rounds, positions], rounds] = -const["group_start"].values[rounds, positions]
    wins, matches, _ = win_matrices(surrogate)
    i, j = np.triu_indices(n_players, k=1)
    met = matches[i, j] > 0
    return i[met], j[met], matches[i, j][met], wins[i, j][met], ~np.isnan(surrogate)


def _deviance(w, n, p):
    """Binomial deviance against the saturated model, summed over pairs (last axis)."""
    return 2 * (xlogy(w, w / (n * p)) + xlogy(n - w, (n - w) / (n * (1 - p)))).sum(axis=-1)


def goodness_of_fit(idata, *, n_draws=200, random_seed=0, hdi_prob=None) -> pd.DataFrame:
    """Posterior predictive check of the pair win counts.

    For ``n_draws`` posterior draws, data are replicated from the fitted likelihood
    (Plackett–Luce: score = strength + Gumbel noise for the players present in each round;
    pairwise: wins ~ Binomial(n, p); Davidson: win/loss/tie counts ~ Multinomial) and counted
    per pair, ties as half wins. One row per pair: ``matches``,
    observed ``wins`` (ties 1/2), ``predicted`` (posterior mean of n p), the replicated
    interval ``rep_lower``/``rep_upper`` and ``p_value`` (two-sided posterior predictive
    p-value of the pair's wins). ``attrs``: ``deviance_obs`` and ``deviance_rep`` (means over
    draws of the deviance against the saturated model) and ``ppp_deviance`` =
    P(D(replicated) >= D(observed)); values near 0 say the model misfits.
    """
    prob = hdi_prob_or_default(hdi_prob)
    post = idata.posterior.stack(sample=("chain", "draw"))
    rng = np.random.default_rng(random_seed)
    keep = rng.choice(post.sizes["sample"], min(n_draws, post.sizes["sample"]), replace=False)
    strength = post["strength"].transpose("sample", "player").values[keep]
    i, j, n, w, present = _observed_pairs(idata)
    diff = strength[:, i] - strength[:, j]  # (draws, pairs)
    if "log_nu" in post:  # Davidson: win / loss / tie, expected score P(win) + P(tie) / 2
        logits = np.stack([diff / 2, -diff / 2,
                           np.broadcast_to(post["log_nu"].values[keep, None], diff.shape)], -1)
        probs = np.exp(logits - logits.max(axis=-1, keepdims=True))
        probs /= probs.sum(axis=-1, keepdims=True)
        p = probs[..., 0] + probs[..., 2] / 2
        w_rep = (rng.multinomial(n.astype(np.int64), probs) * [1.0, 0.0, 0.5]).sum(axis=-1)
    else:
        p = expit(diff)
    if present is None and "log_nu" not in post:
        w_rep = rng.binomial(n.astype(np.int64), p).astype(float)
    elif present is not None:
        w_rep = np.empty_like(p)
        for s, beta in enumerate(strength):
            noisy = np.where(present, beta[:, None] + rng.gumbel(size=present.shape), np.nan)
            w_rep[s] = win_matrices(noisy)[0][i, j]
    players = _epp(idata)["player"].values
    upper_tail = (w_rep >= w).mean(axis=0)
    lower_tail = (w_rep <= w).mean(axis=0)
    table = pd.DataFrame({
        "player_i": players[i], "player_j": players[j], "matches": n, "wins": w,
        "predicted": (n * p).mean(axis=0),
        "rep_lower": np.quantile(w_rep, (1 - prob) / 2, axis=0),
        "rep_upper": np.quantile(w_rep, (1 + prob) / 2, axis=0),
        "p_value": np.minimum(1, 2 * np.minimum(upper_tail, lower_tail)),
    })
    d_obs, d_rep = _deviance(w, n, p), _deviance(w_rep, n, p)
    table.attrs.update({"deviance_obs": float(d_obs.mean()), "deviance_rep": float(d_rep.mean()),
                        "ppp_deviance": float((d_rep >= d_obs).mean()), "hdi_prob": prob})
    return table
