"""Bayesian EPP: player strengths from their rankings in rounds.

Every likelihood gives P(i beats j in a round) = logistic(epp_i - epp_j):

- ``"plackett_luce"`` (default): each round's ranking is a sequence of choices, the best
  of the players left is chosen with probability exp(epp_k) / sum_{l left} exp(epp_l).
  Exact when score = strength + Gumbel noise, so its intervals are honest. Ties use
  Breslow's rule (every member of a tied group faces the whole group and the players below).
  The observed variable ``rank`` (round, player) holds each player's competition rank in the
  round (0 = best; tied players share the rank of their group's first place; -1 = absent).
- ``"pairwise"``: the paper's Bradley–Terry on the pair table, each unordered pair once,
  w_ij ~ Binomial(n_ij, logistic(epp_i - epp_j)) with half-wins for ties. Pairs from one
  round share its scores, so this is a composite likelihood: right centre, intervals too
  narrow. Kept for comparison with the paper and EloML.
- ``"davidson"``: the pairwise model with ties as a third outcome (Davidson 1970):
  P(i wins) : P(j wins) : P(tie) = pi_i : pi_j : nu sqrt(pi_i pi_j), pi = exp(epp), for scores
  with many ties; P(i beats j | no tie) is still logistic(epp_i - epp_j).

strength ~ ZeroSumNormal(prior_scale) with a fixed scale (4 by default): the prior keeps a
player that never wins finite, and, unlike a hierarchical scale, leaves the posterior a mode
(so MAP and the Laplace approximation exist).

``hierarchy`` (the EPP paper's Model/Task scheme: Plackett–Luce on scores, or pairwise on
battles grouped by ``round=``): in a round of task t player p plays with strength[p] +
deviation[t, p], deviation[t, :] = tau z[t, :], z ~ ZeroSumNormal(1) over players,
tau ~ HalfNormal(1) estimated; ``epp`` is the global strength.
Tasks are the rounds themselves (``hierarchy="round"``) or groups of rounds (a mapping from
round to task, e.g. CV splits within datasets). With one round per task the deviations and
the Gumbel noise of the ranking are hard to tell apart, and tau trades off against the scale
of the strengths: give several rounds per task where the data have them.
See ``models/bradley_terry.md``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import pymc as pm
import pytensor.tensor as pt
from scipy.special import expit
from scipy.stats import rankdata

from .._validation import plain, positive, warn_user
from ..data import Battles, Scores
from ..data.battles import check_scores_or_battles
from ..data.scores import check_reference, outcome_counts, player_groups, player_totals
from ..exceptions import IdentificationWarning
from .base import BaseModel
from .densities import BradleyTerryDensity

LIKELIHOODS = ("plackett_luce", "pairwise", "davidson")
#: sd of the half-normal prior on tau, the spread of the per-round deviations
TAU_SCALE = 1.0
#: sd of the zero-sum normal prior on the strengths
PRIOR_SCALE = 4.0
#: sd of the normal prior on the Davidson model's log tie propensity log_nu
LOG_NU_SCALE = 2.0


def competition_ranks(matrix):
    """Rank of every player in every round of a players x rounds score matrix (higher is
    better, NaN = absent) as (round, player): the number of present players with a strictly
    higher score (0 = best; ties share a rank), -1 where absent."""
    ranks = rankdata(-matrix, method="min", axis=0, nan_policy="omit") - 1
    return np.where(np.isnan(matrix), -1, ranks).astype(np.int64).T


def plackett_luce_logp(rank, strength, present):
    """Log-probability of each round's ranking, summed over its players (batch over rounds).

    With the present players sorted by rank, s_k their strengths and g_k the position where
    k's tie group starts: sum_k s_k - log sum_{l >= g_k} exp(s_l) (Breslow's ties)."""
    n = rank.shape[-1]
    key = pt.where(present, rank, n)  # absent players sort last
    order = pt.argsort(key, axis=-1)
    s = pt.take_along_axis(pt.broadcast_to(strength, key.shape), order, axis=-1)
    inside = pt.take_along_axis(present, order, axis=-1)
    start = pt.minimum(pt.take_along_axis(key, order, axis=-1), n - 1)
    top = pt.max(strength)
    suffix = pt.cumsum((inside * pt.exp(s - top))[..., ::-1], axis=-1)[..., ::-1]
    # absent slots read 1, not their empty sum: log(0) there would make the gradient NaN
    denominator = pt.log(pt.where(inside, pt.take_along_axis(suffix, start, axis=-1), 1.0))
    return pt.where(inside, s - denominator - top, 0.0).sum(axis=-1)


def plackett_luce_random(strength, present, rng=None, size=None):
    """Rankings replicated from score = strength + Gumbel noise for the present players (no
    ties), in the encoding of ``rank``; ``strength`` may carry leading draw dims."""
    shape = (np.broadcast_shapes(np.shape(present), np.shape(strength)) if size is None
             else (*size, np.shape(strength)[-1]))
    score = np.where(present, strength + rng.gumbel(size=shape), -np.inf)
    order = np.argsort(-score, axis=-1)  # (ties have probability 0; absent ones read -1)
    rank = np.empty(shape, dtype=np.int64)  # the inverse permutation: one sort, not two
    np.put_along_axis(rank, order, np.broadcast_to(np.arange(shape[-1]), shape), axis=-1)
    return np.where(present, rank, -1)


def davidson_probabilities(diff, log_nu, xp=pt):
    """P(i wins), P(j wins), P(tie) on the last axis for strength differences ``diff``:
    proportional to exp(diff / 2), exp(-diff / 2) and nu = exp(log_nu)."""
    logits = xp.stack([diff / 2, -diff / 2, xp.broadcast_to(log_nu, diff.shape)], axis=-1)
    weights = xp.exp(logits - logits.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True)


def _pairwise_logp(wins, matches, ties, diff):
    """log Binomial(wins | matches, logistic(diff)), its coefficient through the gamma
    function (half-wins for ties; ``ties`` only shapes the replicates)."""
    coefficient = (pt.gammaln(matches + 1) - pt.gammaln(wins + 1)
                   - pt.gammaln(matches - wins + 1))
    return (coefficient + wins * pt.log(pt.sigmoid(diff))
            + (matches - wins) * pt.log(pt.sigmoid(-diff)))


def half_win_replicates(matches, ties, score, rng, size=None):
    """Wins (ties 1/2) of ``matches`` battles whose expected score is ``score``: each battle
    wins, ties or loses, ties at the pair's observed share ``ties / matches`` where the
    expected score allows it (a share t needs t/2 <= score <= 1 - t/2), so the replicates
    keep the half-win model's mean and the data's ties."""
    matches = np.broadcast_to(matches, np.shape(score)).astype(np.int64)
    share = np.divide(ties, matches, out=np.zeros(np.shape(score)), where=matches > 0)
    tie = np.minimum(share, 2 * np.minimum(score, 1 - score))
    probs = np.stack([score - tie / 2, tie, 1 - score - tie / 2], axis=-1).clip(0, 1)
    counts = rng.multinomial(matches, probs / probs.sum(axis=-1, keepdims=True), size=size)
    return counts[..., 0] + counts[..., 1] / 2


def _pairwise_random(matches, ties, diff, rng=None, size=None):
    return half_win_replicates(matches, ties, expit(diff), rng, size)


class BradleyTerry(BaseModel):
    """The Bayesian EPP model (build it with :func:`bradley_terry`)."""

    family = "bradley_terry"
    sampler = "nutpie"  # on the NumPy density

    def __init__(self, scores: Scores | Battles, *, likelihood=None, reference=None,
                 prior_scale=PRIOR_SCALE, hierarchy=None):
        likelihood = _checked_likelihood(scores, likelihood, hierarchy, reference)
        prior_scale = positive(prior_scale, "prior_scale")
        task_of_round = None if hierarchy is None else _tasks(scores, hierarchy)
        if task_of_round is not None:
            _warn_tasks(scores, *task_of_round)
        _warn_extremes(scores, reference, prior_scale)
        coords, pairs, pair_coords = {"player": np.asarray(scores.players)}, None, None
        if task_of_round is not None:
            coords["task"] = np.asarray(task_of_round[1])
        if likelihood == "plackett_luce":
            coords["round"] = np.asarray(scores.rounds)
        else:
            # battles grouped into rounds for the hierarchy: one row per (round, pair)
            pairs = scores.round_pairs() if task_of_round is not None else scores.pairs()
            coords["pair"] = pair_labels(scores.players, pairs, task_of_round is not None)
            players = np.asarray(scores.players)
            pair_coords = {"player_i": players[pairs["i"].to_numpy()],
                           "player_j": players[pairs["j"].to_numpy()]}
            if task_of_round is not None:
                pair_coords["round"] = np.asarray(pairs["round_label"])
            coords["outcome"] = ["win_i", "win_j", "tie"]
        super().__init__(coords=coords)
        self._build_args = ((scores,), {"likelihood": likelihood, "reference": reference,
                                        "prior_scale": prior_scale, "hierarchy": hierarchy})
        self.scores, self.likelihood, self.hierarchy = scores, likelihood, hierarchy
        self.pair_coords = pair_coords  # the players (and round) of each pair: None for PL
        self.task_of_round = task_of_round  # (task code of every round, task labels) or None
        self.reference, self.prior_scale = reference, prior_scale
        # strength is epp shifted (equal without a reference): checking both doubled the cost
        self.diagnostic_vars = (("epp",) + (("tau", "deviation") if hierarchy is not None else ())
                                + (("log_nu",) if likelihood == "davidson" else ()))

        strength = pm.ZeroSumNormal("strength", sigma=prior_scale, dims="player")
        shift = 0.0 if reference is None else strength[scores.players.get_loc(reference)]
        pm.Deterministic("epp", strength - shift, dims="player")
        deviation = None
        if task_of_round is not None:
            tau = pm.HalfNormal("tau", TAU_SCALE)
            z = pm.ZeroSumNormal("deviation_z", sigma=1.0, dims=("task", "player"))
            deviation = pm.Deterministic("deviation", tau * z, dims=("task", "player"))
        if likelihood == "plackett_luce":
            self._add_rankings(strength, deviation)
        else:
            self._add_pairs(strength, deviation, pairs)

    def _add_rankings(self, strength, deviation):
        """The Plackett-Luce likelihood of every round's ranking (players absent from a round
        left out of it)."""
        rank = competition_ranks(self.scores.matrix)
        in_round = strength
        if deviation is not None:
            task = pm.Data("round_task", self.task_of_round[0], dims="round")  # task codes
            in_round = strength + deviation[task]
        pm.CustomDist("rank", in_round, (rank >= 0).astype(np.int8),
                      logp=plackett_luce_logp, random=plackett_luce_random,
                      signature="(n),(n)->(n)", dtype="int64", observed=rank,
                      dims=("round", "player"))

    def _add_pairs(self, strength, deviation, pairs):
        """The wins of every pair: binomial (``"pairwise"``) or wins/losses/ties multinomial
        (``"davidson"``)."""
        i = pm.Data("pair_i", pairs["i"].to_numpy(), dims="pair")
        j = pm.Data("pair_j", pairs["j"].to_numpy(), dims="pair")
        matches = pm.Data("matches", pairs["matches"].to_numpy(), dims="pair")
        ties = pm.Data("ties", pairs["ties"].to_numpy(dtype=float), dims="pair")
        diff = strength[i] - strength[j]
        if deviation is not None:
            task = pm.Data("pair_task", self.task_of_round[0][pairs["round"].to_numpy()],
                           dims="pair")
            diff = diff + deviation[task, i] - deviation[task, j]
        if self.likelihood == "pairwise":
            pm.CustomDist("wins", matches, ties, diff, logp=_pairwise_logp, random=_pairwise_random,
                          observed=pairs["wins_i"].to_numpy(), dims="pair")
            return
        # tie propensity; P(tie | equal strengths) = nu / (2 + nu)
        log_nu = pm.Normal("log_nu", 0.0, LOG_NU_SCALE)
        outcomes = outcome_counts(pairs["wins_i"], pairs["matches"], pairs["ties"].to_numpy())
        if not np.allclose(outcomes, np.round(outcomes)):
            raise ValueError("likelihood='davidson' counts wins, losses and ties: the "
                             "battle weights must be whole numbers (weight=); use "
                             "likelihood='pairwise' for fractional weights")
        # rounded, not truncated: ten weights of 0.1 sum to 0.9999999999999999
        self.outcomes = np.rint(outcomes).astype(np.int64)  # (the density reads them)
        pm.Multinomial("outcomes", n=self.outcomes.sum(axis=1),
                       p=davidson_probabilities(diff, log_nu), observed=self.outcomes,
                       dims=("pair", "outcome"))

    def density(self):
        return BradleyTerryDensity(self)

    def cell_coords(self):
        return {} if self.pair_coords is None else {"pair": self.pair_coords}

    def no_mode_reason(self, marginal, method):
        if self.hierarchy is None:
            return None
        return ("MAP/Laplace are not offered with hierarchy=: the mode of a hierarchical scale "
                "is a poor summary (MAP pulls tau towards 0, and a Gaussian around it misses "
                "its skew); use NUTS (the default)")

    def fit_attrs(self):
        data = self.scores
        if isinstance(data, Battles):
            source = {"data": "battles"}
        else:
            source = {"data": "scores", "round_name": data.round_name,
                      "higher_is_better": int(data.higher_is_better)}
        return {"irteval_family": self.family, "irteval_model": "bradley_terry",
                "likelihood": self.likelihood, "player_name": data.player_name, **source,
                "prior_scale": self.prior_scale, "hierarchy": str(self.hierarchy),
                "reference_index": (-1 if self.reference is None
                                    else int(data.players.get_loc(self.reference)))}


def bradley_terry(scores: Scores | Battles, *, likelihood=None, reference=None,
                  prior_scale=PRIOR_SCALE, hierarchy=None) -> BradleyTerry:
    """Build the Bayesian EPP model for a :class:`~irteval.Scores` (players scored in rounds)
    or :class:`~irteval.Battles` (pairwise battles).

    Parameters
    ----------
    scores : irteval.Scores or irteval.Battles
        The data: players scored in rounds, or battles between pairs of players.
    likelihood : {"plackett_luce", "pairwise", "davidson"}, optional
        Default: ``"plackett_luce"`` for scores; ``"pairwise"`` for battles, where it is exact
        (each battle one independent comparison, ties half wins); ``"davidson"`` makes ties a
        third outcome (whole battle weights only). Battles have no rounds to rank:
        ``"plackett_luce"`` is refused for them.
    reference : player label, optional
        Report ``epp`` relative to this player (its EPP is then 0); by default the EPPs
        sum to zero.
    prior_scale : float, default 4.0
        Standard deviation of the zero-sum normal prior on the strengths (> 0).
    hierarchy : None, "round", or a mapping round -> task (dict or Series)
        The Model/Task scheme: strength in a round of task t = global strength + a deviation
        of task t with spread ``tau`` (estimated); ``epp`` is then the global EPP and
        ``deviation`` (task, player) the per-task departures. ``"round"``: every round is its
        own task; a mapping must give a task for every round (a Series may repeat a round
        with its task, as a long table's columns do: ``df.set_index("round")["task"]``). For
        Scores with the
        Plackett–Luce likelihood and for Battles grouped into rounds (``round=``) with the
        pairwise one; ``None`` (the default): no hierarchy.

    Returns
    -------
    BradleyTerry
        A :class:`pymc.Model` with free ``strength`` (sums to zero) and ``epp`` = strength
        (minus the reference's; without ``reference`` the two are equal, so that
        ``az.summary(idata, var_names=["~strength"])`` shows each once). Plackett–Luce:
        observed ``rank`` (dims round, player);
        pairwise: observed ``wins`` (dim pair); Davidson: ``log_nu`` and observed
        ``outcomes`` (dims pair, outcome). With ``hierarchy``: ``tau``, ``deviation_z`` and
        the deterministic ``deviation`` (task, player).
    """
    return BradleyTerry(scores, likelihood=likelihood, reference=reference,
                        prior_scale=prior_scale, hierarchy=hierarchy)


def _tasks(scores, hierarchy):
    """(task code of every round, task labels) of ``hierarchy``: "round" or a mapping."""
    if isinstance(hierarchy, str):
        if hierarchy != "round":
            raise ValueError(f"hierarchy={hierarchy!r}: use 'round' (every round its own "
                             "task) or a mapping from round to task (dict or pandas Series)")
        return np.arange(scores.n_rounds), scores.rounds
    if not isinstance(hierarchy, (Mapping, pd.Series)):  # a list read as rounds 0, 1, ...
        raise TypeError(f"hierarchy= is 'round' or a mapping from round to task (dict or "
                        f"pandas Series indexed by round), got a {type(hierarchy).__name__}")
    task = pd.Series(hierarchy)
    if task.index.has_duplicates:  # (an empty cell among a round's rows says nothing)
        task = task[task.notna() | ~task.index.duplicated(keep=False)]
    if task.index.has_duplicates:  # (a column of a long table: a row per score, not round)
        pairs = task.groupby(level=0).nunique()
        if (pairs > 1).any():
            raise ValueError(f"hierarchy= gives {scores.round_name}s "
                             f"{list(pairs.index[pairs > 1][:5])} more than one task; give "
                             "each round one task")
        task = task[~task.index.duplicated()]  # a task repeated per row: one per round
    task = task.reindex(scores.rounds)
    if task.isna().any():
        raise ValueError(f"hierarchy= gives no task for {scores.round_name}s "
                         f"{list(scores.rounds[task.isna().to_numpy()][:5])}; map every round")
    codes, labels = pd.factorize(task)
    return codes, pd.Index(labels, name="task")


def _checked_likelihood(scores, likelihood, hierarchy, reference):
    """The likelihood to use (the data's default where None), refusing what cannot be
    built, before any work."""
    check_scores_or_battles(scores)
    battles = isinstance(scores, Battles)
    if likelihood is None:
        likelihood = "pairwise" if battles else "plackett_luce"
    if battles and likelihood == "plackett_luce":
        raise ValueError("Battles have no rounds to rank: use likelihood='pairwise' (exact "
                         "for battles, the default) or 'davidson' (ties as an outcome)")
    if likelihood not in LIKELIHOODS:
        raise ValueError(f"likelihood={likelihood!r} is not one of {LIKELIHOODS}")
    if hierarchy is not None and likelihood != ("pairwise" if battles else "plackett_luce"):
        raise ValueError("hierarchy= is implemented for per-round Scores with "
                         "likelihood='plackett_luce' and for Battles grouped into rounds "
                         "(Battles.from_long's round; CLI --task) with likelihood='pairwise'; "
                         "not for this combination yet")
    if hierarchy is not None and battles and scores.round is None:
        raise ValueError("hierarchy= needs battles grouped into rounds: pass round= (a "
                         "column such as the prompt category) to Battles.from_long")
    check_reference(reference, scores.players)
    return likelihood


def pair_labels(players, pairs, by_round=False):
    """"<player_i> vs <player_j>" for every row of a pair table (prefixed "<round_label>: "
    ``by_round``), as a list of str: PyMC makes a tuple of a coordinate, which took 80 ms
    for 500 000 pandas or NumPy strings and takes 3 ms from a list; joined in Python, the
    whole takes 55 ms (pandas' string columns, then the tuple: 90 ms). Where a label holds a
    separator ("a vs b" against "c" and "a" against "b vs c" would read alike) every label is
    quoted, as Python writes strings."""
    names = pd.Index(players).astype(str).tolist()
    rounds = pairs["round_label"].astype(str).tolist() if by_round else []
    separators = (" vs ", ": ") if by_round else (" vs ",)
    if any(sep in text for text in (*names, *set(rounds)) for sep in separators):
        names, rounds = [repr(n) for n in names], [repr(r) for r in rounds]
    left = [f"{name} vs " for name in names]
    label = [left[i] + names[j] for i, j in zip(pairs["i"].tolist(), pairs["j"].tolist())]
    if by_round:
        label = [f"{r}: {pair}" for r, pair in zip(rounds, label)]
    return label


def _warn_tasks(scores, task_of_round, tasks):
    """Warn where the tasks cannot be told from the rest: a single task (its deviations and
    the global EPPs both sum to zero over the players) or, on scores, one ranking a task
    (its deviations and the ranking's noise)."""
    if len(tasks) == 1:
        warn_user(f"one task ({plain(tasks[0])!r}): its deviations and the global EPPs cannot "
                  "be told apart (both sum to zero over the players), so tau is the prior's; "
                  "fit without hierarchy= (CLI: without --task), or give several tasks",
                  IdentificationWarning)
    elif isinstance(scores, Scores) and np.bincount(task_of_round).max() == 1:
        warn_user(f"every task is one {scores.round_name} (one ranking): its deviations and "
                  "the ranking's noise cannot be told apart, and tau trades off against the "
                  "EPPs' scale (a probe's 6 models x 12 tasks: the best EPP 3.4 +- 1.0 with "
                  "hierarchy='round', 1.3 without); map several rounds to each task "
                  "(hierarchy={round: task}, e.g. the CV splits of a dataset; CLI: those "
                  "rounds' column as --round beside --task), or fit without hierarchy= "
                  "(CLI: without --task)", IdentificationWarning)


def _warn_extremes(scores, reference, prior_scale):
    """Warn about players that never won a match, won every match, or met no other player:
    the likelihood alone would push their EPP to -inf (+inf, anywhere), so only the prior
    keeps it finite, and on the zero-sum scale (no ``reference``) that prior-only strength
    moves every other EPP by 1/n of its own and widens their intervals; and about groups of
    players that never met one another, whose gaps only the prior sets."""
    pairs = scores.pairs()
    won, played = player_totals(pairs, scores.n_players)
    groups = [g for g in player_groups(pairs["i"].to_numpy(), pairs["j"].to_numpy(),
                                       scores.players) if len(g) > 1]  # alone: never played
    if len(groups) > 1:
        warn_user(f"the {scores.player_name}s form {len(groups)} groups that never met one "
                  f"another (sizes {[len(g) for g in groups]}; first of each: "
                  f"{'; '.join(repr(g[:3]) for g in groups)}): the gaps between the groups, "
                  "and so ranks and P(win) across them, are identified only by the prior; "
                  "compare within a group, or add matches between the groups",
                  IdentificationWarning)
    for extreme, what in ((played == 0, "met no other player in any round"),
                          ((won == 0) & (played > 0), "never won a match (nor tied one)"),
                          ((won == played) & (played > 0), "won every match")):
        count = int(extreme.sum())
        if count:
            its = "its" if count == 1 else "their"
            warn_user(f"{count} {scores.player_name}{'' if count == 1 else 's'} {what} (e.g. "
                      f"{list(scores.players[extreme][:5])}): "
                      f"{'its EPP is' if count == 1 else 'their EPPs are'} identified only by "
                      "the prior (a wide interval says how little is known, and so do a wide "
                      "rank interval and a p_best that is the prior's width; more rounds "
                      f"narrow it; prior_scale={prior_scale:g} sets how far out {its} EPP "
                      "can go)" + (f", and as the EPPs sum to zero, {its} prior-only EPP "
                                   "moves every other EPP and widens their intervals (ranks, "
                                   "differences and P(win) do not move): pass reference= a "
                                   "well-measured player to measure EPPs from it"
                                   if reference is None else
                                   f"; the reference {plain(reference)!r} is one of them, so "
                                   "every EPP measured from it carries its prior-wide "
                                   "uncertainty: choose a well-measured reference"
                                   if reference in scores.players[extreme] else ""),
                      IdentificationWarning)
