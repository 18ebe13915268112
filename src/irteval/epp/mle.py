"""Classical EPP: the maximum-likelihood Bradley–Terry fit of the pair table.

    w_ij ~ Binomial(n_ij, logistic(beta_i - beta_j)),  each unordered pair counted once,

with half-wins for ties kept (a quasi-binomial kernel). EPP_i = beta_i, identified by
sum(beta) = 0 or by a reference player at 0. Wald standard errors come from the inverse
Fisher information A' diag(n p (1 - p)) A on the constrained space.

The MLE exists only when the "ever beat" graph is strongly connected; otherwise the gap
between its strongly connected components is infinite. :func:`mle_epp` then says which
components there are and fits each one on its own (differences within a component are
identified; across components they are not).
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from scipy import linalg, stats
from scipy.special import expit, logit, xlogy

from .. import _intervals
from .._attrs import FrameInAttrs
from .._compat import IndexesWithWarning
from .._docs import fill_doc
from .._validation import count, plain, seeded_rng, spelling_hint, warn_user
from ..data import Battles, Scores
from ..data.battles import check_scores_or_battles
from ..data.scores import (OUTCOME_SCORE, check_reference, outcome_counts, player_groups,
                           player_totals)
from ..exceptions import SeparationWarning

LOG10_ELO = 400 / np.log(10)


def elo(epp):
    """Elo points of EPP strengths: 1500 + EPP * 400 / ln 10 (a difference of 400 is odds 10)."""
    return 1500 + epp * LOG10_ELO


def check_two_players(a, b, players):
    """Refuse ``a``, ``b`` unless they are two different labels of ``players``."""
    for player in (a, b):
        if not isinstance(player, Hashable):  # pandas: "unhashable type: 'list'"
            raise TypeError(f"give two players, one label each; got {player!r} (for every "
                            "pair at once: pairwise_probabilities)")
        if player not in players:
            raise ValueError(f"unknown player {player!r}; the players are e.g. "
                             f"{[plain(x) for x in players[:5]]}"
                             + spelling_hint([player], players, nearest=True))
    if a == b:
        raise ValueError(f"give two different players (both are {a!r})")


def binomial_deviance(w, n, p, *, q=None, per_pair=False):
    """Deviance of wins ``w`` of ``n`` matches at win probability ``p`` against the saturated
    model, 2 [w log(w / np) + (n - w) log((n - w) / nq)], q = 1 - p (give ``q`` computed
    apart where p can round to 1), summed over pairs (the last axis) unless ``per_pair``."""
    q = 1 - p if q is None else q
    deviance = 2 * (xlogy(w, w / (n * p)) + xlogy(n - w, (n - w) / (n * q)))
    return deviance if per_pair else deviance.sum(axis=-1)


def components(scores: Scores | Battles):
    """Strongly connected components of the 'ever beat' graph (edge i -> j when i won or
    tied at least once against j).

    Parameters
    ----------
    scores : irteval.Scores or irteval.Battles
        The data.

    Returns
    -------
    list of list
        The components as lists of player labels, from the top: a component comes before
        those whose players its players beat without ever losing to them (the order of the
        graph of components); where no win orders them, the larger first. One component
        when the MLE of :func:`mle_epp` exists.
    """
    return _components(scores.pairs(), scores.players)


def _beat_edges(pairs):
    """(source, target) positions of the 'ever beat' graph: i -> j when i won or tied
    against j at least once."""
    i, j = pairs["i"].to_numpy(), pairs["j"].to_numpy()
    beat_j = pairs["wins_i"].to_numpy() > 0
    beat_i = (pairs["matches"] - pairs["wins_i"]).to_numpy() > 0
    return np.r_[i[beat_j], j[beat_i]], np.r_[j[beat_j], i[beat_i]]


def _components(pairs, players):
    source, target = _beat_edges(pairs)
    groups = player_groups(source, target, players, strong=True)  # largest first
    if len(groups) == 1:
        return groups
    of = np.empty(len(players), dtype=int)
    for k, group in enumerate(groups):
        of[players.get_indexer(group)] = k
    below = {(a, b) for a, b in zip(of[source], of[target]) if a != b}  # a's players beat b's
    above = np.bincount([b for _, b in below], minlength=len(groups))
    beaten = {}
    for a, b in below:
        beaten.setdefault(a, []).append(b)
    ready = [k for k in range(len(groups)) if not above[k]]
    order = []
    while ready:  # Kahn's algorithm, the largest first among the components nothing is above
        top = heapq.heappop(ready)
        order.append(top)
        for b in beaten.get(top, ()):
            above[b] -= 1
            if not above[b]:
                heapq.heappush(ready, b)
    return [groups[k] for k in order]


def _fit_block(i, j, n, w, n_players, tol=1e-10, max_iter=100, covariance=True):
    """MLE with sum(beta) = 0 over the players 0..n_players-1 of one connected block, by
    Newton's method on the log-likelihood (concave; its Hessian -H is singular only along the
    constant vector, so steps solve (H + 11'/n) delta = g, which keeps the sum at 0), started
    at the centred logits of the players' win shares, stopped after a full step below
    sqrt(``tol``) (Newton converges quadratically: the next would be below ~``tol``). Returns
    (beta, cov) with cov = (H + 11'/n)^-1 - 11'/n, the inverse of H on the zero-sum plane
    (None without ``covariance``)."""
    def loglik(b):  # w log p + (n - w) log(1 - p) = w d - n log(1 + e^d)
        d = b[i] - b[j]
        e = np.exp(-np.abs(d))
        softplus = np.log1p(e) + np.maximum(d, 0.0)
        # sums, not w @ d: NumPy's BLAS threads left spinning after a dot product slowed
        # SciPy's Cholesky factorisation below (its own BLAS) from 8 to 15-90 ms
        p = np.where(d >= 0, 1.0, e) / (1.0 + e)
        return float((w * d).sum() - (n * softplus).sum()), p

    info = np.empty((n_players, n_players))
    flat = (i.astype(np.int64) * n_players + j, j.astype(np.int64) * n_players + i)
    won, played = player_totals((i, j, n, w), n_players)
    beta = logit((won + 0.5) / (played + 1.0))
    beta -= beta.mean()
    current, p = loglik(beta)
    for _ in range(max_iter):
        grad = _information(p, i, j, flat, n, w, info)
        step = linalg.cho_solve(linalg.cho_factor(info, overwrite_a=True, check_finite=False),
                                grad, check_finite=False)
        full = np.abs(step).max()
        for _ in range(40):  # halve the step until the log-likelihood does not fall
            new, p_new = loglik(beta + step)
            if new >= current - 1e-12 * abs(current):
                break
            step = step / 2
        else:  # no step up: stay
            step, new, p_new = 0.0 * step, current, p
        beta, current, p = beta + step, new, p_new
        if np.abs(step).max() < tol or (full < np.sqrt(tol) and np.abs(step).max() == full):
            break
    if not covariance:
        return beta, None
    _information(p, i, j, flat, n, w, info)
    factor, lower = linalg.cho_factor(info, overwrite_a=True, check_finite=False)
    cov, status = linalg.lapack.dpotri(factor, lower=lower, overwrite_c=True)
    if status:
        raise np.linalg.LinAlgError(f"the information matrix is singular (LAPACK {status})")
    cov = np.tril(cov) if lower else np.triu(cov)
    cov += cov.T
    cov[np.diag_indices(n_players)] /= 2
    return beta, cov - 1.0 / n_players


def _information(p, i, j, flat, n, w, out):
    """Writes H + 11'/n into ``out``, H = A' diag(n p (1 - p)) A the Fisher information of the
    pair table (each unordered pair once, at ``flat`` = its two positions i n_players + j
    and j n_players + i), and returns the score A'(w - n p), at win probabilities
    p = logistic(beta_i - beta_j)."""
    n_players = len(out)
    weight = n * p * (1 - p)
    out.fill(1.0 / n_players)
    cells = out.reshape(-1)
    cells[flat[0]] -= weight
    cells[flat[1]] -= weight
    out[np.diag_indices(n_players)] += (np.bincount(i, weight, n_players)
                                        + np.bincount(j, weight, n_players))
    resid = w - n * p
    return np.bincount(i, resid, n_players) - np.bincount(j, resid, n_players)


@fill_doc
def mle_epp(scores: Scores | Battles, *, reference=None, ci_prob=None,
            ci_kind="wald") -> pd.DataFrame:
    """Maximum-likelihood EPP with Wald standard errors and intervals.

    When the win graph is not strongly connected (:func:`components`) a
    ``SeparationWarning`` says so, and each component is fitted on its own.

    Parameters
    ----------
    scores : irteval.Scores or irteval.Battles
        The data.
    reference : player label, optional
        That player's EPP is 0 (its se then 0) and its component's EPPs are relative to it;
        ``None``: the EPPs of each component sum to zero.
    {ci_prob}
    ci_kind : {"wald"}, default "wald"
        ``"wald"`` (epp +- z se), the only kind so far.

    Returns
    -------
    pandas.DataFrame
        Indexed by player, in the data's order (``.sort_values("epp", ascending=False)``
        ranks them; :func:`~irteval.leaderboard` is sorted): ``epp``, ``se``,
        ``wald_lower``, ``wald_upper``, ``elo`` (1500 + epp * 400 / ln 10), ``component``
        (the strongly connected components numbered from the top, as :func:`components`
        orders them; EPPs compare within one only). A player alone in its component
        (one that lost, or won, every match against every player it can be compared with)
        has no finite EPP: NaN, last when sorted. ``attrs`` holds ``cov`` (covariance of the
        EPPs, ``pd.DataFrame(attrs["cov"])``; shared by the table's copies, and not JSON:
        ``table.attrs.pop("cov")`` before ``to_parquet``), ``deviance``, ``df`` and
        ``p_value`` (chi-square goodness of fit against the saturated model),
        ``components``, ``ci_prob`` and ``ci_kind``.
    """
    check_scores_or_battles(scores)
    if ci_kind != "wald":
        raise ValueError(f"ci_kind={ci_kind!r}: the classical EPP has Wald intervals only "
                         "(ci_kind='wald'); for HDIs or equal-tailed intervals fit the Bayesian "
                         "model (irteval.leaderboard)")
    prob = _intervals.resolve(ci_prob, "eti")[0]
    check_reference(reference, scores.players)
    pairs = scores.pairs()
    groups = _components(pairs, scores.players)
    if len(groups) > 1:
        warn_user(
            f"the win graph has {len(groups)} strongly connected components (sizes "
            f"{[len(g) for g in groups]}): some players never beat (or never met) others, "
            "so their gaps have no finite MLE. EPP differences are identified only within a "
            "component (column 'component'); use the Bayesian fit for everyone. First "
            "players of each: " + "; ".join(repr(g[:3]) for g in groups), SeparationWarning)
    n_players = scores.n_players
    comp = np.empty(n_players, dtype=int)
    beta = np.full(n_players, np.nan)  # a player alone in its component keeps it: no EPP
    cov = np.full((n_players, n_players), np.nan)
    deviance, n_pairs_used = 0.0, 0
    for k, group in enumerate(groups):
        members = scores.players.get_indexer(group)
        comp[members] = k
        if len(members) == 1:
            continue
        local = -np.ones(n_players, dtype=int)
        local[members] = np.arange(len(members))
        inside = (local[pairs["i"]] >= 0) & (local[pairs["j"]] >= 0)
        sub = pairs[inside]
        li, lj = local[sub["i"]], local[sub["j"]]
        n, w = sub["matches"].to_numpy(), sub["wins_i"].to_numpy()
        b, c = _fit_block(li, lj, n, w, len(members))
        beta[members] = b
        cov[np.ix_(members, members)] = c
        deviance += binomial_deviance(w, n, expit(b[li] - b[lj]), q=expit(b[lj] - b[li]))
        n_pairs_used += len(sub)
    if reference is not None:  # beta -> beta - beta_ref within the reference's component
        members = np.flatnonzero(comp == comp[scores.players.get_loc(reference)])
        q = list(members).index(scores.players.get_loc(reference))
        shift = np.eye(len(members))
        shift[:, q] -= 1.0
        beta[members] = shift @ beta[members]
        cov[np.ix_(members, members)] = shift @ cov[np.ix_(members, members)] @ shift.T
        cov[members[q], members] = cov[members, members[q]] = 0.0  # also when it is alone
        beta[members[q]] = 0.0
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    z = stats.norm.ppf(0.5 + prob / 2)
    df = n_pairs_used - (n_players - len(groups))
    table = pd.DataFrame({"epp": beta, "se": se, "wald_lower": beta - z * se,
                          "wald_upper": beta + z * se, "elo": elo(beta),
                          "component": comp}, index=scores.players)
    table.attrs.update({
        "cov": FrameInAttrs(pd.DataFrame(cov, index=scores.players, columns=scores.players)),
        "deviance": float(deviance), "df": int(df),
        "p_value": float(stats.chi2.sf(deviance, df)) if df > 0 else float("nan"),
        "components": groups, "ci_prob": prob, "ci_kind": "wald",
    })
    return table


@fill_doc
def bootstrap_epp(data: Scores | Battles, *, n_boot=200, reference=None, ci_prob=None,
                  ci_kind="bootstrap", random_seed=0) -> pd.DataFrame:
    """Percentile-bootstrap intervals of the MLE EPP, as arena leaderboards report them: battles
    resampled with replacement (the (pair, outcome) counts redrawn from a multinomial with the
    observed total: weights count as battles, so a replicate redraws round(total weight) of
    them), or for :class:`~irteval.Scores` the rounds resampled with replacement; each
    replicate refitted by Newton's method (sum-to-zero, or ``reference`` at 0).
    Replicates whose win graph is not strongly connected have no finite MLE: they are left out
    and counted in ``attrs["n_separated"]`` (a warning when more than 5%). Data without a
    finite MLE (:func:`mle_epp` finds several components) are refused.

    Parameters
    ----------
    data : irteval.Scores or irteval.Battles
        The data.
    n_boot : int, default 200
        Number of bootstrap replicates (>= 2).
    reference : player label, optional
        That player's EPP is 0 in the data and in every replicate; ``None``: the EPPs sum
        to zero.
    {ci_prob}
    ci_kind : {"bootstrap"}, default "bootstrap"
        ``"bootstrap"`` (percentile), the only kind.
    random_seed : int, numpy.random.Generator or None, default 0
        Seeds the resampling; the same seed gives the same intervals.

    Returns
    -------
    pandas.DataFrame
        One row per player, indexed by player in the data's order: ``epp`` (the MLE of the
        data), ``boot_mean``, ``boot_sd``, ``bootstrap_lower``, ``bootstrap_upper``.
        ``attrs``: ``n_boot``, ``n_separated``, ``ci_prob``, ``ci_kind``.
    """
    count(n_boot, "n_boot", minimum=2)
    if ci_kind != "bootstrap":
        raise ValueError(f"ci_kind={ci_kind!r}: bootstrap_epp gives percentile intervals "
                         "(ci_kind='bootstrap'); mle_epp gives Wald ones")
    base = mle_epp(data, reference=reference, ci_prob=ci_prob)
    if len(base.attrs["components"]) > 1:
        raise ValueError("the data have no finite MLE (the win graph is not strongly "
                         "connected; see mle_epp's SeparationWarning): bootstrap intervals "
                         "need one; use the Bayesian fit (irteval.leaderboard)")
    prob = base.attrs["ci_prob"]
    rng = seeded_rng(random_seed)
    players, n = data.players, data.n_players
    ref = None if reference is None else players.get_loc(reference)
    draws = []
    for _ in range(n_boot):
        pairs = _resampled_pairs(data, rng)
        if len(player_groups(*_beat_edges(pairs), players, strong=True)) > 1:
            continue
        beta, _ = _fit_block(pairs["i"].to_numpy(), pairs["j"].to_numpy(),
                             pairs["matches"].to_numpy(), pairs["wins_i"].to_numpy(), n,
                             covariance=False)
        draws.append(beta - (0.0 if ref is None else beta[ref]))
    separated = n_boot - len(draws)
    if not draws:
        raise ValueError(f"all {n_boot} bootstrap replicates had a win graph that is not "
                         "strongly connected (no finite MLE): the data are too thin for the "
                         "bootstrap; use the Bayesian fit's intervals (irteval.leaderboard)")
    if separated > 0.05 * n_boot:
        warn_user(f"{separated} of {n_boot} bootstrap replicates had a win graph that is not "
                  "strongly connected and were left out: the intervals describe the others "
                  "only; prefer the Bayesian fit's intervals", SeparationWarning)
    draws = np.array(draws)
    lower, upper = _intervals.interval(draws, prob, "eti")
    table = pd.DataFrame({"epp": base["epp"], "boot_mean": draws.mean(axis=0),
                          "boot_sd": draws.std(axis=0, ddof=1), "bootstrap_lower": lower,
                          "bootstrap_upper": upper}, index=players)
    table.attrs.update(n_boot=n_boot, n_separated=separated, ci_prob=prob,
                       ci_kind="bootstrap")
    return table


def _resampled_pairs(data, rng):
    """The pair table of one bootstrap replicate of ``data``."""
    if isinstance(data, Battles):
        # wins, losses, ties; rebuilt from sums of fractional weights a cell can be -1e-17
        cells = np.clip(outcome_counts(data.wins_i, data.matches, data.ties), 0, None)
        total = cells.sum()
        counts = rng.multinomial(int(round(total)), (cells / total).ravel()).reshape(-1, 3)
        drawn = replace(data, matches=counts.sum(axis=1).astype(float),
                        wins_i=counts @ OUTCOME_SCORE, ties=counts[:, 2].astype(float))
        pairs = drawn.pairs()  # one row per pair, summed over rounds where there are rounds
        return pairs[pairs["matches"] > 0]
    rounds = rng.integers(0, data.n_rounds, data.n_rounds)
    return replace(data, matrix=data.matrix[:, rounds], rounds=data.rounds[rounds]).pairs()


@dataclass(frozen=True)
class WaldTest(IndexesWithWarning):
    """Result of :func:`wald_test`.

    Attributes
    ----------
    difference : float
        epp_a - epp_b.
    se : float
        Standard error of the difference.
    statistic : float
        The Wald chi-square statistic, z^2 = (difference / se)^2.
    df : int
        Degrees of freedom: 1.
    p_value : float
        P(chi2 on 1 df >= statistic).
    """

    difference: float
    se: float
    statistic: float
    df: int
    p_value: float


def wald_test(table: pd.DataFrame, a, b) -> WaldTest:
    """1-df Wald test of EPP_a = EPP_b from a :func:`mle_epp` table:
    z = (epp_a - epp_b) / se(epp_a - epp_b), chi2 = z^2 on 1 degree of freedom.

    Parameters
    ----------
    table : pandas.DataFrame
        The table of :func:`mle_epp`, whose ``attrs`` hold the EPPs' covariance (a
        leaderboard, a bootstrap table or a CSV read back has none, and is refused).
    a, b : player label
        Two different players of one strongly connected component.

    Returns
    -------
    WaldTest
        ``difference``, ``se``, ``statistic``, ``df`` and ``p_value``.
    """
    if not isinstance(table, pd.DataFrame) or "cov" not in table.attrs:
        raise ValueError("wald_test takes the table of irteval.mle_epp(scores), whose attrs "
                         "hold the EPPs' covariance (a leaderboard, a bootstrap table or a CSV "
                         "read back has none): call mle_epp on the Scores or Battles")
    check_two_players(a, b, table.index)
    if table.loc[a, "component"] != table.loc[b, "component"]:
        raise ValueError(f"{a!r} and {b!r} are in different strongly connected components: "
                         "their difference has no finite MLE")
    cov = pd.DataFrame(table.attrs["cov"])  # a FrameInAttrs, or a dict of dicts read back
    diff = table.loc[a, "epp"] - table.loc[b, "epp"]
    var = cov.loc[a, a] + cov.loc[b, b] - 2 * cov.loc[a, b]
    statistic = diff**2 / var
    return WaldTest(difference=float(diff), se=float(np.sqrt(var)), statistic=float(statistic),
                    df=1, p_value=float(stats.chi2.sf(statistic, 1)))
