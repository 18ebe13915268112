"""EPP leaderboards from a Bayesian Bradley–Terry / Plackett–Luce fit, computed per draw."""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd
import xarray as xr
from scipy import sparse
from scipy.special import expit

from .. import _intervals
from .._compat import UnpacksWithWarning, renamed
from .._docs import fill_doc
from .._draws import stacked_draws, thin
from .._fits import check_idata, label_name, warn_if_point
from .._repr import ShortRepr
from .._validation import count, plain, seeded_rng, spelling_hint
from ..data.scores import OUTCOME_SCORE, fractional, player_totals, win_matrices
from ..models.bradley_terry import (davidson_probabilities, half_win_replicates,
                                     plackett_luce_random)
from .mle import binomial_deviance, check_two_players, elo

FAMILY = "bradley_terry"


def _epp(idata, caller) -> xr.DataArray:
    """The EPP draws of a Bradley-Terry fit; a fit of one draw (MAP) is said to be one."""
    check_idata(idata, FAMILY, caller)
    warn_if_point(idata, caller)
    return idata.posterior["epp"]


def ranks(draws):
    """Rank of every player in every draw (1 = best) of (draw, player) EPP draws."""
    return (-draws).argsort(axis=1).argsort(axis=1) + 1


@fill_doc
def leaderboard(idata, *, task=None, ci_prob=None, ci_kind=None,
                hdi_prob=None) -> pd.DataFrame:
    """One row per player, best first: the posterior of each player's EPP and rank.

    Parameters
    ----------
    {idata_epp}
    task : task label, optional
        For a fit with ``hierarchy=``, the board of that task (global EPP plus the task's
        deviation) instead of the global one; ``None``: the global board. Refused for a fit
        without ``hierarchy=``.
    {ci_prob_and_kind}
    {hdi_prob}

    Returns
    -------
    pandas.DataFrame
        Indexed by player (the fit's player name), best first. Columns: EPP posterior
        ``mean``, ``sd``, ``{ci_kind}_lower``, ``{ci_kind}_upper``, ``elo`` (1500 + mean *
        400 / ln 10: 400 points multiply the odds by 10, 1500 is the EPP 0; arena-style
        boards anchor elsewhere, so compare differences of Elo, not levels), ``p_best``
        (share of draws in which the player has the highest EPP), ``expected_rank`` (1 =
        best), ``rank_lower`` / ``rank_upper`` (the interval of the rank) and ``matches``
        (the player's battles, or for rankings its pairwise comparisons: the others present
        in each of its rounds; with ``task=``, in that task's rounds only): a player with few has a
        prior-wide EPP, and so a wide rank interval and a ``p_best`` that is the prior's
        width, not evidence. ``attrs``: ``ci_prob``, ``ci_kind`` (and ``task`` when given).
    """
    prob, kind = _intervals.resolve(ci_prob, ci_kind, hdi_prob)
    epp = _epp(idata, "leaderboard")
    draws = stacked_draws(idata, "epp")
    if task is not None:
        draws = draws + _task_deviation(idata, task)
    rank = ranks(draws)
    rank_lower, rank_upper = _intervals.interval(rank, prob, kind)
    estimates = _intervals.estimate_columns(draws, prob, kind)
    table = pd.DataFrame({
        **estimates, "elo": elo(estimates["mean"]),
        "p_best": np.bincount(draws.argmax(axis=1), minlength=draws.shape[1]) / len(draws),
        "expected_rank": rank.mean(axis=0),
        "rank_lower": np.floor(rank_lower).astype(int),
        "rank_upper": np.ceil(rank_upper).astype(int),
        "matches": player_matches(idata, task),
    }, index=pd.Index(epp["player"].values, name=label_name(idata, "player")))
    if task is not None:
        table.attrs["task"] = plain(task)
    return _intervals.record(table, prob, kind).sort_values("mean", ascending=False)


def _task_deviation(idata, task):
    """(sample, player) draws of a hierarchical fit's deviations in ``task``."""
    post = idata.posterior
    if "deviation" not in post:
        raise ValueError("task= needs a fit of models.bradley_terry(..., hierarchy=...); this "
                         "one has no per-task deviations")
    if not pd.api.types.is_hashable(task) or isinstance(task, tuple):
        raise TypeError(f"task= takes one task's label, got {task!r}; for several: "
                        "[leaderboard(idata, task=t) for t in tasks]")
    if task not in post["task"].values:
        raise ValueError(f"unknown task {task!r}; tasks are e.g. "
                         f"{[plain(t) for t in post['task'].values[:5]]}"
                         + spelling_hint([task], post["task"].values, nearest=True))
    deviation = stacked_draws(idata, "deviation")[:, list(post["task"].values).index(task)]
    ref = int(idata.attrs.get("reference_index", -1))  # epp is relative to the reference
    return deviation - (deviation[:, [ref]] if ref >= 0 else 0.0)


@fill_doc
def win_probability(idata, a, b) -> xr.DataArray:
    """Posterior draws of P(a beats b in a new round) = logistic(epp_a - epp_b);
    ``.mean()`` is the posterior predictive probability. Where ties count as half-wins
    (the pairwise likelihood) it is a's expected score against b (a win 1, a tie 1/2), not
    the chance of an outright win; for the Davidson likelihood, P(a wins | no tie). For a
    ``hierarchy=`` fit, a round of a typical task (its deviations 0); a new task's spread tau
    pulls the chance towards 1/2.

    Parameters
    ----------
    {idata_epp}
    a, b : player label
        Two different players of the fit.

    Returns
    -------
    xarray.DataArray
        ``p_win``, dims (chain, draw).
    """
    epp = _epp(idata, "win_probability")
    check_two_players(a, b, epp.indexes["player"])
    diff = epp.sel(player=a) - epp.sel(player=b)
    return xr.apply_ufunc(expit, diff.drop_vars("player", errors="ignore")).rename("p_win")


@dataclass(frozen=True, repr=False)
class PairwiseProbabilities(ShortRepr, UnpacksWithWarning):
    """Result of :func:`pairwise_probabilities`: players x players DataFrames, indexed by
    player in the fit's order, NaN on the diagonal.

    Attributes
    ----------
    win : pandas.DataFrame
        P(row beats column in a new round).
    superior : pandas.DataFrame
        P(epp_row - epp_column > rope).
    """

    win: pd.DataFrame
    superior: pd.DataFrame


@fill_doc
def pairwise_probabilities(idata, *, rope=0.0) -> PairwiseProbabilities:
    """``win`` = P(row beats column in a new round) (posterior mean of logistic(epp_i -
    epp_j)), and ``superior`` = P(epp_i - epp_j > rope), the posterior probability that the
    row is better by more than the region of practical equivalence ``rope`` (on the EPP
    scale). For a ``hierarchy=`` fit, a round of a typical task (its deviations 0; a new
    task's spread tau pulls the chance towards 1/2); where ties count as half-wins (the
    pairwise likelihood), the row's expected score (a tie 1/2); for the Davidson
    likelihood, P(win | no tie).

    Parameters
    ----------
    {idata_epp}
    rope : float, default 0.0
        Half-width of the region of practical equivalence on the EPP scale, finite and
        >= 0.

    Returns
    -------
    PairwiseProbabilities
        ``win`` and ``superior``, players x players DataFrames (rows and columns in the
        fit's order, NaN on the diagonal).
    """
    if not (isinstance(rope, numbers.Real) and np.isfinite(rope) and rope >= 0):
        raise ValueError(f"rope must be a finite number >= 0 (an EPP difference), got {rope!r}")
    epp = _epp(idata, "pairwise_probabilities")
    draws = stacked_draws(idata, "epp")
    labels = pd.Index(epp["player"].values, name=label_name(idata, "player"))
    win = np.zeros((len(labels), len(labels)))
    superior = np.zeros_like(win)
    for k in range(len(labels)):  # one row at a time keeps memory at draws x players
        diff = draws[:, [k]] - draws
        win[k] = expit(diff).mean(axis=0)
        superior[k] = (diff > rope).mean(axis=0)
    np.fill_diagonal(win, np.nan)
    np.fill_diagonal(superior, np.nan)
    return PairwiseProbabilities(pd.DataFrame(win, index=labels, columns=labels),
                                 pd.DataFrame(superior, index=labels, columns=labels))


def observed_pairs(idata):
    """Unordered pairs (i < j) with matches n and wins w of i (ties 1/2), from the fit's own
    data; for Plackett–Luce fits also the (round, player) presence mask (else None)."""
    observed = idata.observed_data
    likelihood = idata.attrs.get("likelihood", "plackett_luce")
    if likelihood != "plackett_luce":
        const = idata.constant_data
        wins = (observed["wins"].values if likelihood == "pairwise" else
                observed["outcomes"].values @ OUTCOME_SCORE)  # Davidson
        return (const["pair_i"].values, const["pair_j"].values, const["matches"].values,
                wins, None)
    rank = observed["rank"].values  # (round, player), -1 = absent
    present = rank >= 0
    wins, matches, _ = win_matrices(np.where(present, -rank, np.nan).T)
    i, j = np.triu_indices(rank.shape[1], k=1)
    met = matches[i, j] > 0
    return i[met], j[met], matches[i, j][met], wins[i, j][met], present


def player_matches(idata, task=None):
    """Every player's matches in the fit's data (its pairs' battles, or the others present
    in each of its rounds), only in ``task``'s rounds when one is given."""
    i, j, n, _, present = observed_pairs(idata)
    code = None if task is None else list(idata.posterior["task"].values).index(task)
    if code is not None and present is not None:  # Plackett-Luce: (round, player)
        present = present[idata.constant_data["round_task"].values == code]
        matches = (present * (present.sum(axis=1, keepdims=True) - 1)).sum(axis=0)
    else:
        mine = slice(None) if code is None else idata.constant_data["pair_task"].values == code
        matches = player_totals((i[mine], j[mine], n[mine], n[mine]),
                                idata.posterior.sizes["player"])[1]
    return matches if fractional(matches).any() else np.round(matches).astype(int)  # (weights)


@fill_doc
def goodness_of_fit(idata, *, by="pair", max_draws=200, random_seed=0, ci_prob=None,
                    ci_kind=None, n_draws=None, hdi_prob=None) -> pd.DataFrame:
    """Posterior predictive check of the pair win counts.

    For ``max_draws`` posterior draws, data are replicated from the fitted likelihood
    (Plackett–Luce: score = strength + Gumbel noise for the players present in each round;
    pairwise: each battle a win, tie or loss with expected score p, ties at the pair's
    observed share; Davidson: win/loss/tie counts ~ Multinomial) and counted per pair, ties
    as half wins. Battles with fractional weights (``weight=``) have no
    whole replicates and are refused.

    Parameters
    ----------
    {idata_epp}
    by : {"pair", "player"}, default "pair"
        One row per pair, or per player (to find who misfits).
    max_draws : int or None, default 200
        Replicate the data from at most this many posterior draws (chains pooled), chosen
        at random with ``random_seed``; all of them when the fit has fewer, or for None.
    {random_seed}
    {ci_prob_and_kind}
    n_draws : int, optional
        The old name of ``max_draws``: still taken, with a ``FutureWarning``.
    {hdi_prob}

    Returns
    -------
    pandas.DataFrame
        ``by="pair"``: one row per pair, indexed by (``player_i``, ``player_j``) (by
        ``pair``, "round: i vs j", for battles grouped into rounds, the players then in
        columns): ``matches``, observed ``wins`` (ties 1/2), ``predicted`` (posterior mean of
        n p), the interval of the replicated wins ``rep_lower``/``rep_upper`` and ``p_value``
        (two-sided posterior predictive p-value of the pair's wins).

        ``by="player"``: one row per player (the fit's order), indexed by player:
        ``matches``, ``wins`` and ``predicted`` wins over all its pairs, ``deviance_obs`` /
        ``deviance_rep`` (means over draws of the deviance of its pairs) and ``p_value`` =
        P(D_rep >= D_obs) of that deviance.

        ``attrs``: ``ci_prob``, ``ci_kind``, ``deviance_obs`` and ``deviance_rep`` (means
        over draws of the deviance against the saturated model) and ``ppp_deviance`` =
        P(D(replicated) >= D(observed)); values near 0 say the pair wins vary more than the
        model allows (a player or round that does not fit), near 1 less (e.g. the pairwise
        likelihood, which takes a round's pairs as independent).
    """
    if by not in ("pair", "player"):
        raise ValueError(f"goodness_of_fit(): by={by!r} is not 'pair' or 'player'")
    max_draws = renamed(max_draws, n_draws, "n_draws", "max_draws", default=200)
    if max_draws is not None:
        count(max_draws, "goodness_of_fit(): max_draws")
    prob, kind = _intervals.resolve(ci_prob, ci_kind, hdi_prob)
    players = _epp(idata, "goodness_of_fit")["player"].values
    post = idata.posterior.stack(sample=("chain", "draw"))
    rng = seeded_rng(random_seed)  # (default_rng of a Generator is that Generator)
    keep = thin(post.sizes["sample"], max_draws, rng)
    strength = post["strength"].transpose("sample", "player").values[keep]
    i, j, n, w, present = observed_pairs(idata)
    odd = fractional(n)
    if odd.any():
        raise ValueError(f"goodness_of_fit() replicates whole win counts, and "
                         f"{int(odd.sum())} pairs met a fractional number of times (battle "
                         f"weights, weight=; e.g. {n[odd][0]:g}): there are no replicates to "
                         "compare them with; check a fit of the unweighted battles")
    n = np.round(n)
    diff = strength[:, i] - strength[:, j]  # (draws, pairs)
    # a hierarchical fit replicates each round (pair row) from its task's strengths
    in_round = strength
    if "deviation" in post:
        deviation = post["deviation"].transpose("sample", "task", "player").values[keep]
        const = idata.constant_data
        if "round_task" in const:  # Plackett-Luce: (draw, round, player)
            in_round = strength[:, None, :] + deviation[:, const["round_task"].values]
        else:  # battles: one row per (round, pair)
            task, rows = const["pair_task"].values, np.arange(len(keep))[:, None]
            diff = diff + deviation[rows, task, i] - deviation[rows, task, j]
    likelihood = idata.attrs.get("likelihood", "plackett_luce")
    if likelihood == "davidson":  # win / loss / tie, expected score P(win) + P(tie) / 2
        probs = davidson_probabilities(diff, post["log_nu"].values[keep, None], xp=np)
        p = probs @ OUTCOME_SCORE
        w_rep = rng.multinomial(n.astype(np.int64), probs) @ OUTCOME_SCORE
    elif likelihood == "pairwise":  # (a fit saved before ties were kept: none replicated)
        p = expit(diff)
        ties = idata.constant_data["ties"].values if "ties" in idata.constant_data else 0 * n
        w_rep = half_win_replicates(n, ties, p, rng)
    else:
        p = expit(diff)
        if in_round is not strength:  # P(i beats j) averaged over the rounds they met in
            met = (present[:, i] & present[:, j]).astype(float)  # (round, pair)
            p = (expit(in_round[:, :, i] - in_round[:, :, j]) * met).sum(axis=1) / met.sum(axis=0)
        w_rep = np.empty_like(p)
        for s, beta in enumerate(in_round):
            rank = plackett_luce_random(beta, present, rng=rng)
            w_rep[s] = win_matrices(np.where(present, -rank, np.nan).T)[0][i, j]
    upper_tail = (w_rep >= w).mean(axis=0)
    lower_tail = (w_rep <= w).mean(axis=0)
    rep_lower, rep_upper = _intervals.interval(w_rep, prob, kind)
    table = pd.DataFrame({
        "player_i": players[i], "player_j": players[j], "matches": n, "wins": w,
        "predicted": (n * p).mean(axis=0), "rep_lower": rep_lower, "rep_upper": rep_upper,
        "p_value": np.minimum(1, 2 * np.minimum(upper_tail, lower_tail)),
    })
    if "pair_task" in getattr(idata, "constant_data", {}):  # battles by round: (round, pair)
        table = table.set_axis(pd.Index(idata.observed_data["pair"].values, name="pair"))
    else:
        table = table.set_index(["player_i", "player_j"])
    d_obs = binomial_deviance(w, n, p, per_pair=True)  # (draws, pairs)
    d_rep = binomial_deviance(w_rep, n, p, per_pair=True)
    total_obs, total_rep = d_obs.sum(axis=1), d_rep.sum(axis=1)
    if by == "player":
        table = _player_fit(pd.Index(players, name=label_name(idata, "player")),
                            i, j, n, w, p, d_obs, d_rep)
    table.attrs.update({"deviance_obs": float(total_obs.mean()),
                        "deviance_rep": float(total_rep.mean()),
                        "ppp_deviance": float((total_rep >= total_obs).mean())})
    return _intervals.record(table, prob, kind)


def _player_fit(players, i, j, n, w, p, d_obs, d_rep) -> pd.DataFrame:
    """Per player (``players``, the table's index) sums over its pairs (rows i, j of (draws,
    pairs) arrays) of goodness_of_fit."""
    rows = np.arange(len(i))
    as_i, as_j = (sparse.csr_matrix((np.ones(len(i)), (rows, col)), shape=(len(i), len(players)))
                  for col in (i, j))  # pair -> its first / second player
    either = as_i + as_j
    own_obs, own_rep = d_obs @ either, d_rep @ either  # (draws, players)
    expected = (n * p).mean(axis=0)  # wins of i
    return pd.DataFrame({
        "matches": n @ either, "wins": w @ as_i + (n - w) @ as_j,
        "predicted": expected @ as_i + (n - expected) @ as_j,
        "deviance_obs": own_obs.mean(axis=0), "deviance_rep": own_rep.mean(axis=0),
        "p_value": (own_rep >= own_obs).mean(axis=0),
    }, index=players)
