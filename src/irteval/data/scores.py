"""Scores of players (models) in rounds (CV splits, datasets, tasks), and their pairwise wins.

In every round, every unordered pair of players that both have a score is one match;
the higher score wins (after orienting lower-is-better scores) and a tie is half a win
each. :meth:`Scores.pairs` aggregates that into one row per pair, vectorised over
players and looping only over rounds.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.sparse.csgraph import connected_components

from .._docs import fill_doc, matrix_df
from .._repr import counted
from .._validation import (axis_names, check_columns, check_frame, labelled_matrix, long_cells,
                           numeric_matrix, percent, plain, plural, spelling_hint,
                           true_or_false, warn_user)


SCORE_FIX = "scores must be numbers (an accuracy, AUC, error, run time)"
#: words of a score column's name that read as lower-is-better (errors, run times, ranks)
LOWER_IS_BETTER_WORDS = frozenset({
    "time", "times", "runtime", "seconds", "second", "secs", "sec", "ms", "latency", "duration",
    "error", "errors", "err", "loss", "mse", "rmse", "mae", "perplexity", "ppl", "wer", "cer",
    "cost", "regret", "rank"})
#: what the warning of such a name, scored higher-is-better by default, asks of the user
LOWER_IS_BETTER_FIX = ("pass higher_is_better=False if lower is better, or higher_is_better=True "
                       "to silence this")


#: docstring entries of Scores.from_long and Scores.from_wide
SCORES_BUILD_DOCS = {
    "higher_is_better": """\
higher_is_better : bool, default True
    False for scores where lower is better (errors, run times).""",
    "higher_is_better_named": """\
higher_is_better : bool, optional
    False for scores where lower is better (errors, run times); by default True, with a
    warning where the score's name reads as lower-is-better ('seconds', 'error', 'loss',
    'rank', ...).""",
    "df_matrix": matrix_df("score", "player", "round"),
    "returns_scores": """\
Returns
-------
irteval.Scores
    At least two players; a player or round without any score is refused, and rounds
    with fewer than two scored players (no match) are kept with a warning.""",
}


@dataclass(frozen=True)
class Scores:
    """One score per (player, round); ``matrix`` is players x rounds, NaN where missing,
    oriented so that higher is better.

    Build it with :meth:`from_long` or :meth:`from_wide`.

    Attributes
    ----------
    matrix : numpy.ndarray
        Players x rounds scores, NaN where a player has no score in a round; negated when
        ``higher_is_better`` is False, so that higher is better.
    players, rounds : pandas.Index
        The labels of the rows and of the columns of ``matrix``.
    higher_is_better : bool, default True
        Whether the scores as given are better when higher (False: errors, run times).
    player_name, round_name : str
        What players and rounds are in the user's words (``"model"``, ``"dataset"``).
    """

    matrix: np.ndarray
    players: pd.Index
    rounds: pd.Index
    higher_is_better: bool = True
    player_name: str = "player"
    round_name: str = "round"

    @classmethod
    @fill_doc(**SCORES_BUILD_DOCS)
    def from_long(cls, df, *, player, round, score, higher_is_better=None):
        """Build from a long table with one row per (player, round).

        The same policy as :meth:`Responses.from_long`: rows whose score is missing are left
        out with a warning (the player is simply not compared in that round), repeated rows
        must agree and are kept once with a warning.

        Parameters
        ----------
        df : pandas.DataFrame
            One row per (player, round) score.
        player, round : str
            The columns of the players' labels (the models) and of the rounds' (CV splits,
            datasets, tasks); their names also name players and rounds in tables and
            messages (``player_name``, ``round_name``).
        score : str
            The column of the scores (numbers: an accuracy, AUC, error, run time).
        {higher_is_better_named}

        {returns_scores}
        """
        check_frame(df)
        check_columns(df, {"player": player, "round": round, "score": score})
        higher_is_better = _higher_is_better(score, higher_is_better)
        p_idx, players, r_idx, rounds, values = long_cells(df, player, round, score, SCORE_FIX)
        mat = np.full((len(players), len(rounds)), np.nan)
        mat[p_idx, r_idx] = values
        return cls._build(pd.DataFrame(mat, index=players, columns=rounds), player, round,
                          higher_is_better)

    @classmethod
    @fill_doc(**SCORES_BUILD_DOCS)
    def from_wide(cls, df, *, player=None, round=None, rows="player",
                  higher_is_better=True):
        """Build from a matrix of scores: rows are players (or rounds with ``rows="round"``).

        Row labels come from the column named ``player`` (``round``) if present, else the
        index; column names are the other labels. NaN cells are players absent from a round.

        Parameters
        ----------
        {df_matrix}
        player, round : str, optional
            The names of players and rounds in tables and messages (``player_name``,
            ``round_name``); the rows' one also names the column that holds the row labels,
            if the frame has it. ``None``: the frame's own axis names (``df.index.name``,
            ``df.columns.name``), else ``"player"`` and ``"round"``.
        rows : {"player", "round"}, default "player"
            What a row is.
        {higher_is_better}

        {returns_scores}
        """
        check_frame(df)
        higher_is_better = true_or_false(higher_is_better, "higher_is_better")
        if rows not in ("player", "round"):
            raise ValueError(f"rows must be 'player' or 'round', got {rows!r}")
        own = ({} if None not in (player, round) else axis_names(
            df, rows, "round" if rows == "player" else "player",
            {"player": "player", "round": "round"}))
        player = own.get("player", "player") if player is None else player
        round = own.get("round", "round") if round is None else round
        row_name, col_name = (player, round) if rows == "player" else (round, player)
        df = labelled_matrix(df, row_name, col_name, names=player,
                             swap="rows='round'" if rows == "player" else "rows='player'")
        wide = pd.DataFrame(numeric_matrix(df, SCORE_FIX, label_hint=(
            "player={name!r} (a row per player) or round={name!r}, rows='round' (a row per "
            "round)")), index=df.index, columns=df.columns)
        return cls._build(wide if rows == "player" else wide.T, player, round, higher_is_better)

    @classmethod
    def _build(cls, wide, player, round, higher_is_better):
        mat = wide.to_numpy(dtype=float)
        if mat.shape[0] < 2:
            raise ValueError(
                f"only {mat.shape[0]} {player}: a leaderboard compares players, so it needs "
                "at least two")
        for axis, labels, name in ((1, wide.index, player), (0, wide.columns, round)):
            absent = np.isnan(mat).all(axis=axis)
            if absent.any():
                raise ValueError(f"{name}s {list(labels[absent][:5])} have no score at all; "
                                 "drop them")
        present = (~np.isnan(mat)).sum(axis=0)
        useful = present >= 2
        if not useful.any():
            raise ValueError(
                f"no {round} has two {player}s with a score, so there is no match to learn "
                "from; check the round labels")
        if not useful.all():
            one = (~useful).sum() == 1
            warn_user(plural(int((~useful).sum()), f"{round} has", f"{round}s have")
                      + f" fewer than two {player}s with a score and "
                      + ("holds" if one else "hold")
                      + f" no match (e.g. {list(wide.columns[~useful][:3])})")
        return cls(matrix=mat if higher_is_better else -mat,
                   players=pd.Index(wide.index, name=player, tupleize_cols=False),
                   rounds=pd.Index(wide.columns, name=round, tupleize_cols=False),
                   higher_is_better=bool(higher_is_better), player_name=player,
                   round_name=round)

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def n_rounds(self) -> int:
        return len(self.rounds)

    def win_matrices(self):
        """(wins, matches, ties), players x players: see :func:`win_matrices`."""
        return win_matrices(self.matrix)

    def pairs(self) -> pd.DataFrame:
        """One row per unordered pair (i listed before j) that met at least once:
        ``player_i``, ``player_j``, their codes ``i``, ``j``, ``matches``, ``wins_i``
        (ties count 1/2) and ``ties``. Counted once per ``Scores`` (each call returns a copy)."""
        return self._pairs.copy()

    @cached_property
    def _pairs(self) -> pd.DataFrame:
        wins, matches, ties = self.win_matrices()
        i, j = np.triu_indices(self.n_players, k=1)
        met = matches[i, j] > 0
        i, j = i[met], j[met]
        return pair_table(self.players, i, j, matches[i, j], wins[i, j], ties[i, j])

    def __repr__(self) -> str:
        share = percent(int((~np.isnan(self.matrix)).sum()), self.matrix.size)
        return (f"Scores({counted(self.n_players, self.player_name, 'player')} x "
                f"{counted(self.n_rounds, self.round_name, 'round')}, {share} present, "
                f"{'higher' if self.higher_is_better else 'lower'} is better)")


def _higher_is_better(score, given):
    """``given``, or True with a warning where the name of the ``score`` column reads as
    lower-is-better."""
    if given is not None:
        return true_or_false(given, "higher_is_better")
    words = sorted(set(re.findall(r"[a-z]+", str(score).lower())) & LOWER_IS_BETTER_WORDS)
    if words:
        warn_user(f"score {score!r} reads as lower-is-better ({words[0]!r}), and higher is "
                  f"better by default: the highest {score} ranks first; {LOWER_IS_BETTER_FIX}")
    return True


def win_matrices(matrix):
    """Pairwise results of a players x rounds score matrix (NaN = absent), higher is better.

    Returns (wins, matches, ties), players x players: wins[i, j] counts i's wins over j
    with ties as 1/2, matches[i, j] the rounds where both have a score, ties[i, j] the ties.
    A comparison with NaN is false, so absent players neither win nor tie; matches are
    present' present.
    """
    n = matrix.shape[0]
    beats, ties = np.zeros((n, n), np.int32), None
    cell = np.empty((n, n), bool)
    for s in matrix.T:  # one round at a time; all pairs at once
        beats += np.greater.outer(s, s, out=cell)
        scored = np.sort(s[~np.isnan(s)])
        if (scored[1:] == scored[:-1]).any():  # the ties' pass only for rounds with ties
            ties = np.zeros((n, n), np.int32) if ties is None else ties
            ties += np.equal.outer(s, s, out=cell)
    present = (~np.isnan(matrix)).astype(float)
    matches = present @ present.T
    np.fill_diagonal(matches, 0)
    if ties is None:
        return beats.astype(float), matches, np.zeros((n, n))
    np.fill_diagonal(ties, 0)
    return beats + 0.5 * ties, matches, ties.astype(float)


def player_groups(source, target, players, *, strong=False):
    """Groups of ``players`` (lists of labels, largest first) joined by the edges ``source[k]
    -> target[k]`` (integer positions): the connected components of the graph, or with
    ``strong`` its strongly connected ones (each player reaches every other along edges)."""
    n = len(players)
    graph = sparse.csr_matrix((np.ones(len(source)), (source, target)), shape=(n, n))
    count, labels = connected_components(graph, directed=strong, connection="strong")
    return sorted((list(players[labels == k]) for k in range(count)), key=len, reverse=True)


def fractional(counts):
    """Which match counts are not whole numbers, to rounding (ten battles weighted 0.1 sum to
    0.9999999999999999: whole)."""
    counts = np.asarray(counts, dtype=float)
    return ~np.isclose(counts, np.round(counts))


#: the score of each outcome of a battle for player i: win, loss, tie
OUTCOME_SCORE = np.array([1.0, 0.0, 0.5])


def outcome_counts(wins_i, matches, ties):
    """(pairs, 3) counts of player i's wins, losses and ties from a pair table's ``wins_i``
    (ties counted as 1/2), ``matches`` and ``ties``; ``counts @ OUTCOME_SCORE`` is wins_i."""
    wins_i, matches, ties = (np.asarray(x, dtype=float) for x in (wins_i, matches, ties))
    return np.column_stack([wins_i - ties / 2, matches - wins_i - ties / 2, ties])


def pair_table(players, i, j, matches, wins_i, ties, **more) -> pd.DataFrame:
    """The pair table of ``Scores.pairs`` and ``Battles.pairs``: ``player_i``, ``player_j``,
    their codes ``i``, ``j``, ``matches``, ``wins_i``, ``ties`` (and the columns ``more``)."""
    return pd.DataFrame({"player_i": players[i], "player_j": players[j], "i": i, "j": j,
                         "matches": matches, "wins_i": wins_i, "ties": ties, **more})


def check_reference(reference, players):
    """Refuse a ``reference=`` that is not one of ``players``, offering some and a near
    spelling."""
    if reference is not None and not isinstance(reference, Hashable):
        raise TypeError(f"reference= is one player's label, got {reference!r}")
    if reference is not None and reference not in players:
        raise ValueError(f"reference={reference!r} is not a player; choose one of "
                         f"{[plain(x) for x in players[:5]]}..."
                         + spelling_hint([reference], players, nearest=True))


def player_totals(pairs, n_players):
    """(wins with ties as 1/2, matches) of every player from a pair table (``Scores.pairs``,
    ``Battles.pairs``) or its arrays (i, j, matches, wins_i)."""
    i, j, matches, wins = (pairs if isinstance(pairs, tuple) else
                           (pairs[c].to_numpy() for c in ("i", "j", "matches", "wins_i")))
    won = np.bincount(i, wins, n_players) + np.bincount(j, matches - wins, n_players)
    return won, np.bincount(i, matches, n_players) + np.bincount(j, matches, n_players)
