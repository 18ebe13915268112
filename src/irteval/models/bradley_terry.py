"""Bayesian EPP: player strengths from their rankings in rounds.

Both likelihoods give P(i beats j in a round) = logistic(epp_i - epp_j):

- ``"plackett_luce"`` (default): each round's ranking is a sequence of choices, the best
  of the players left is chosen with probability exp(epp_k) / sum_{l left} exp(epp_l).
  Exact when score = strength + Gumbel noise, so its intervals are honest. Ties use
  Breslow's rule (every member of a tied group faces the whole group and the players below).
- ``"pairwise"``: the paper's Bradley–Terry on the pair table, each unordered pair once,
  w_ij ~ Binomial(n_ij, logistic(epp_i - epp_j)) with half-wins for ties. Pairs from one
  round share its scores, so this is a composite likelihood: right centre, intervals too
  narrow. Kept for comparison with the paper and EloML.
- ``"davidson"``: the pairwise model with ties as a third outcome (Davidson 1970):
  P(i wins) : P(j wins) : P(tie) = pi_i : pi_j : nu sqrt(pi_i pi_j), pi = exp(epp), for scores
  with many ties; P(i beats j | no tie) is still logistic(epp_i - epp_j).

strength ~ ZeroSumNormal(prior_scale) with a fixed scale (4 by default): the prior keeps a
player that never wins finite, and, unlike a hierarchical scale, leaves the posterior a mode
(so MAP and the Laplace approximation exist). See ``models/bradley_terry.md``.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pymc as pm
import pytensor.tensor as pt
import xarray as xr

from ..scores import Scores, warn_unidentified

LIKELIHOODS = ("plackett_luce", "pairwise", "davidson")


def _rankings(scores: Scores):
    """Per round, the players present from best to worst (order), which positions are real
    (mask) and where each position's tie group starts (group_start)."""
    mat = scores.matrix
    width = int((~np.isnan(mat)).sum(axis=0).max())
    rounds = mat.shape[1]
    order = np.zeros((rounds, width), dtype=np.int64)
    mask = np.zeros((rounds, width))
    group_start = np.zeros((rounds, width), dtype=np.int64)
    for r in range(rounds):
        present = np.flatnonzero(~np.isnan(mat[:, r]))
        ranked = present[np.argsort(-mat[present, r], kind="stable")]
        values = mat[ranked, r]
        m = len(ranked)
        order[r, :m] = ranked
        mask[r, :m] = 1.0
        new_group = np.r_[True, values[1:] != values[:-1]]
        group_start[r, :m] = np.maximum.accumulate(np.where(new_group, np.arange(m), 0))
    return order, mask, group_start


def plackett_luce_logp(epp, order, mask, group_start):
    """Log-probability of each position's choice, (rounds, positions); 0 where masked."""
    top = pt.max(epp)
    strength = epp[order]
    weight = mask * pt.exp(strength - top)
    suffix = pt.cumsum(weight[:, ::-1], axis=1)[:, ::-1]  # sum over this position and below
    rows = pt.arange(order.shape[0])[:, None]
    denominator = pt.log(suffix[rows, group_start]) + top
    return mask * (strength - denominator)


def _round_log_likelihood(posterior, *, order, mask, group_start, rounds):
    """Plackett–Luce log-likelihood of each round's ranking for every draw (for az.loo:
    leave one round out)."""
    strength = posterior["strength"].values  # (chain, draw, player)
    s = strength[..., order]  # (chain, draw, round, position)
    top = s.max(axis=(-2, -1), keepdims=True)
    suffix = np.cumsum((mask * np.exp(s - top))[..., ::-1], axis=-1)[..., ::-1]
    denominator = np.log(np.take_along_axis(
        suffix, np.broadcast_to(group_start, suffix.shape), axis=-1)) + top
    per_round = (mask * (s - denominator)).sum(axis=-1)
    return xr.Dataset({"ranking": (("chain", "draw", "round"), per_round)},
                      coords={"chain": posterior["chain"], "draw": posterior["draw"],
                              "round": rounds})


def _pairwise_logp(wins, matches, diff):
    return wins * pt.log(pt.sigmoid(diff)) + (matches - wins) * pt.log(pt.sigmoid(-diff))


def _pairwise_random(matches, diff, rng=None, size=None):
    return rng.binomial(matches.astype(np.int64), 1 / (1 + np.exp(-diff)), size=size)


def bradley_terry(scores: Scores, *, likelihood="plackett_luce", reference=None,
                  prior_scale=4.0):
    """Build the Bayesian EPP model for a :class:`~irteval.Scores`.

    Parameters
    ----------
    likelihood : {"plackett_luce", "pairwise", "davidson"}
    reference : player label, optional
        Report ``epp`` relative to this player (its EPP is then 0); by default the EPPs
        sum to zero.
    prior_scale : float
        Standard deviation of the zero-sum normal prior on the strengths.

    Returns
    -------
    pymc.Model
        Free ``strength`` (sums to zero); ``epp`` = strength (minus the
        reference's). Pairwise: observed ``wins`` (dim pair). Davidson: ``log_nu`` and
        observed ``outcomes`` (dims pair, outcome). Plackett–Luce: the rankings
        enter through a potential (data ``ranking``: player codes best first, per round),
        and ``fit`` stores each round's log-likelihood for ``az.loo``.
    """
    if not isinstance(scores, Scores):
        raise TypeError(f"expected irteval.Scores, got {type(scores).__name__}; build one with "
                        "Scores.from_long or Scores.from_wide")
    if likelihood not in LIKELIHOODS:
        raise ValueError(f"likelihood={likelihood!r} is not one of {LIKELIHOODS}")
    if reference is not None and reference not in scores.players:
        raise ValueError(f"reference {reference!r} is not a player")
    warn_unidentified(scores)
    coords = {"player": np.asarray(scores.players)}
    if likelihood in ("pairwise", "davidson"):
        pairs = scores.pairs()
        coords["pair"] = np.arange(len(pairs))
        coords["outcome"] = ["win_i", "win_j", "tie"]
    else:
        order, mask, group_start = _rankings(scores)
        coords["round"] = np.asarray(scores.rounds)
        coords["position"] = np.arange(order.shape[1])
    with pm.Model(coords=coords) as model:
        strength = pm.ZeroSumNormal("strength", sigma=prior_scale, dims="player")
        shift = 0.0 if reference is None else strength[scores.players.get_loc(reference)]
        pm.Deterministic("epp", strength - shift, dims="player")
        if likelihood in ("pairwise", "davidson"):
            i = pm.Data("pair_i", pairs["i"].to_numpy(), dims="pair")
            j = pm.Data("pair_j", pairs["j"].to_numpy(), dims="pair")
            matches = pm.Data("matches", pairs["matches"].to_numpy(), dims="pair")
            diff = strength[i] - strength[j]
        if likelihood == "pairwise":
            pm.CustomDist("wins", matches, diff, logp=_pairwise_logp,
                          random=_pairwise_random, observed=pairs["wins_i"].to_numpy(),
                          dims="pair")
        elif likelihood == "davidson":
            log_nu = pm.Normal("log_nu", 0.0, 2.0)  # tie propensity; P(tie | equal) = nu/(2+nu)
            ties = pairs["ties"].to_numpy()
            outcomes = np.column_stack([pairs["wins_i"] - ties / 2,
                                        pairs["matches"] - pairs["wins_i"] - ties / 2, ties])
            logits = pt.stack([diff / 2, -diff / 2, pt.broadcast_to(log_nu, diff.shape)], axis=-1)
            pm.Multinomial("outcomes", n=matches, p=pt.special.softmax(logits, axis=-1),
                           observed=outcomes.astype(np.int64), dims=("pair", "outcome"))
        else:
            order_d = pm.Data("ranking", order, dims=("round", "position"))
            mask_d = pm.Data("position_mask", mask, dims=("round", "position"))
            start_d = pm.Data("group_start", group_start, dims=("round", "position"))
            pm.Potential("ranking_logp",
                         plackett_luce_logp(strength, order_d, mask_d, start_d).sum())
    if likelihood == "plackett_luce":
        model.irteval_log_likelihood = partial(_round_log_likelihood, order=order, mask=mask,
                                               group_start=group_start, rounds=coords["round"])
    model.irteval_attrs = {"irteval_model": f"bradley_terry:{likelihood}",
                           "player_name": scores.player_name, "round_name": scores.round_name,
                           "higher_is_better": int(scores.higher_is_better)}
    return model
