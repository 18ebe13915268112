"""Pairwise battles (LLM arenas: ``model_a, model_b, winner``), aggregated to one row per
unordered pair of players: battles n_ij, wins w_ij of the first (ties count 1/2) and ties.

Each battle is one independent comparison, so the pair counts are sufficient for the
Bradley–Terry likelihood (exact, unlike the pair table of per-round scores). Aggregation is
vectorised (``np.unique`` over pair codes): memory grows with the battles read and the
distinct pairs kept, not with players x battles.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._docs import fill_doc
from .._repr import counted
from .._validation import (check_columns, check_frame, check_labels, factorize,
                           matches_as_text, numeric_values, plain, plural, spelling_hint, warn_user,
                           where)
from .scores import Scores, pair_table, player_totals

#: winner values read as a tie unless ``ties=`` says otherwise (LMSYS arena's markers)
TIES = ("tie", "draw", "tie (bothbad)", "both_bad")


#: docstring entries of Battles.from_long and Battles.from_counts
BATTLES_BUILD_DOCS = {
    "player_a_b": """\
player_a, player_b : str
    The columns of the two players' labels (a player against itself is refused).""",
    "round": """\
round : str, optional
    A column grouping the battles (a prompt category, a date), for the hierarchical
    model (``models.bradley_terry(battles, hierarchy="round")``); ``None``: no
    grouping.""",
    "player_name": """\
player_name : str, optional
    What the players are, in tables and messages: by default the stem the two columns
    share (``"model"`` of ``model_a`` and ``model_b``), else ``"player"``.""",
    "returns_battles": """\
Returns
-------
irteval.Battles
    The battles as unordered pair counts (per round with ``round``).""",
}


@dataclass(frozen=True)
class Battles:
    """Battles between players as unordered pair counts (player code ``i`` < ``j``):
    ``matches`` (battles, or their total weight), ``wins_i`` (ties 1/2) and ``ties``; with a
    ``round=`` grouping (a prompt category, a date) one row per (round, pair), ``round`` the
    round's code in ``rounds``.

    Build it with :meth:`from_long` or :meth:`from_counts`.

    Attributes
    ----------
    i, j : numpy.ndarray of int
        The codes (positions in ``players``) of each pair's players, ``i`` < ``j``.
    matches : numpy.ndarray of float
        Battles of each pair (their total weight).
    wins_i : numpy.ndarray of float
        Wins of player ``i``, ties counted 1/2.
    ties : numpy.ndarray of float
        Ties of each pair.
    players : pandas.Index
        The players' labels, in the order of the codes.
    player_name : str, default "player"
        What players are in the user's words (``"model"``).
    round : numpy.ndarray of int or None
        With a ``round=`` grouping: each row's round code in ``rounds``; else None.
    rounds : pandas.Index or None
        The round labels (with a grouping), else None.
    round_name : str, default "round"
        The name of the grouping column.
    """

    i: np.ndarray
    j: np.ndarray
    matches: np.ndarray
    wins_i: np.ndarray
    ties: np.ndarray
    players: pd.Index
    player_name: str = "player"
    round: np.ndarray | None = None
    rounds: pd.Index | None = None
    round_name: str = "round"

    @classmethod
    @fill_doc(**BATTLES_BUILD_DOCS)
    def from_long(cls, df, *, player_a, player_b, winner, ties=TIES, weight=None, round=None,
                  player_name=None):
        """Build from a table with one row per battle (an LLM arena's ``model_a, model_b,
        winner``).

        Parameters
        ----------
        df : pandas.DataFrame
            One row per battle.
        {player_a_b}
        winner : str
            The column of the outcome: the winning player's label, or ``"a"`` / ``"b"``, or
            the names of the ``player_a`` / ``player_b`` columns (``"model_a"``); a value in
            ``ties`` is a tie. Any other value is refused.
        ties : sequence, default ``("tie", "draw", "tie (bothbad)", "both_bad")``
            The ``winner`` values that mean a tie (LMSYS arena's markers by default;
            ``[]`` for none; one string is refused: give a list).
        weight : str, optional
            A column of positive counts (weights) of the battles; ``None``: 1 per row.
        {round}
        {player_name}

        {returns_battles}
        """
        check_frame(df)
        check_columns(df, {"player_a": player_a, "player_b": player_b, "winner": winner,
                           "weight": weight, "round": round}, optional=("weight", "round"))
        player_name = player_name or _player_name(player_a, player_b)
        a, b, players = _codes(df, player_a, player_b, player_name)
        won = df[winner]
        check_labels(won, winner, df.index, mixed=True)  # players' labels, or 'tie'
        if isinstance(ties, str) or ties is None:
            raise TypeError(f"ties= is a list of the {winner} values that mean a tie, e.g. "
                            f"ties={[ties] if ties else ['tie']!r} (or ties=[] for none), got "
                            f"{ties!r}")
        w = np.ones(len(df)) if weight is None else _weights(df, weight)  # before warnings
        tie = won.isin(list(ties)).to_numpy()
        # a player's label wins over the side markers: players may be called "a" or "b"
        label_a = won.to_numpy() == df[player_a].to_numpy()
        label_b = won.to_numpy() == df[player_b].to_numpy()
        tied_player = tie & (label_a | label_b)  # a tie marker that is its battle's player
        if tied_player.any():
            several = plural(int(tied_player.sum()), "value that is", "values that are")
            warn_user(f"{winner} has {several} a tie marker and a player of their battle "
                      f"(e.g. {plain(won[tied_player].iloc[0])!r}; "
                      f"{where(df.index, np.flatnonzero(tied_player))}): read as ties; to read "
                      "them as wins, leave that label out of ties=")
        marker_a = won.isin(["a", player_a]).to_numpy()
        marker_b = won.isin(["b", player_b]).to_numpy()
        a_won = ~tie & (label_a | (marker_a & ~label_b))
        b_won = ~tie & ~a_won & (label_b | marker_b)
        clash = ~tie & ((label_a & marker_b) | (label_b & marker_a))
        if clash.any():
            several = plural(int(clash.sum()), "value that is", "values that are")
            warn_user(f"{winner} has {several} one player's label and the other side's "
                      f"marker ('a'/'b' or {player_a!r}/{player_b!r}; "
                      f"{where(df.index, np.flatnonzero(clash))}): read as the player's label")
        unknown = ~(tie | a_won | b_won)
        if unknown.any():
            markers = "'a'/'b'" + ("" if (player_a, player_b) == ("a", "b")
                                   else f" or {player_a!r}/{player_b!r}")
            raise ValueError(
                f"{winner} has {plural(int(unknown.sum()), 'value that names', 'values that name')}"
                f" neither player nor a tie, e.g. {[plain(v) for v in won[unknown].unique()[:5]]} "
                f"({where(df.index, np.flatnonzero(unknown))}); a winner is the winning "
                f"player's label or {markers}; list tie markers with ties= (now "
                f"{list(ties)})" + _type_hint(won[unknown], df, [player_a, player_b])
                + _case_hint(won[unknown], [*df[player_a].unique(), *df[player_b].unique(),
                                            "a", "b", player_a, player_b, *ties])
                + _column_hint(won[unknown], len(df), winner, player_a, player_b))
        score_a = np.where(tie, 0.5, a_won.astype(float))
        return cls._aggregate(a, b, w, w * score_a, w * tie, players, player_name,
                              _rounds(df, round))

    @classmethod
    @fill_doc(**BATTLES_BUILD_DOCS)
    def from_counts(cls, df, *, player_a, player_b, wins_a, wins_b, ties=None, round=None,
                    player_name=None):
        """Build from a table with one row per pair of players and their counts.

        A pair may appear on several rows, in either order: the counts are added up (within
        each ``round``, when given). Rows with no battles are dropped with a warning.

        Parameters
        ----------
        df : pandas.DataFrame
            One row per pair of players.
        {player_a_b}
        wins_a, wins_b : str
            The columns of the wins of ``player_a`` and of ``player_b`` (counts >= 0).
        ties : str, optional
            The column of the pair's ties (counts >= 0); ``None``: no ties.
        {round}
        {player_name}

        {returns_battles}
        """
        check_frame(df)
        if isinstance(ties, list):  # (a tuple can be a column's label)
            raise TypeError(f"ties= of from_counts names the column of tie counts, got "
                            f"{ties!r}; the markers of a tie in a winner column are "
                            "from_long's ties=")
        check_columns(df, {"player_a": player_a, "player_b": player_b, "wins_a": wins_a,
                           "wins_b": wins_b, "ties": ties, "round": round},
                      optional=("ties", "round"))
        player_name = player_name or _player_name(player_a, player_b)
        a, b, players = _codes(df, player_a, player_b, player_name)
        counts = [_counts(df, col) for col in (wins_a, wins_b)]
        tied = np.zeros(len(df)) if ties is None else _counts(df, ties)
        total = counts[0] + counts[1] + tied
        empty = total == 0
        if empty.all():
            raise ValueError("every row has zero battles; nothing to fit")
        if empty.any():
            n = int(empty.sum())
            warn_user(f"{n} row{' has' if n == 1 else 's have'} no battles (all counts 0; "
                      f"{where(df.index, np.flatnonzero(empty))}) and carry no information")
        return cls._aggregate(a, b, total, counts[0] + tied / 2, tied, players, player_name,
                              _rounds(df, round))

    @classmethod
    def _aggregate(cls, a, b, matches, score_a, ties, players, player_name, grouping=None):
        """Unordered pair counts of battles between codes ``a`` and ``b`` (per round, with
        ``grouping`` = (round codes, round labels, round name))."""
        low, high = np.minimum(a, b), np.maximum(a, b)
        score_low = np.where(a == low, score_a, matches - score_a)
        keep = matches > 0
        n = len(players)
        key = low[keep].astype(np.int64) * n + high[keep]
        if grouping is not None:
            key = key + grouping[0][keep].astype(np.int64) * n * n
        pairs, inverse = np.unique(key, return_inverse=True)

        def total(values):
            return np.bincount(inverse, values[keep], len(pairs))

        met = np.zeros(len(players), dtype=bool)
        met[low[keep]] = met[high[keep]] = True
        if not met.all():  # only from_counts rows with zero battles get here
            raise ValueError(f"{player_name}s {list(players[~met][:5])} have no battle; drop "
                             "their rows")
        extra = {} if grouping is None else {"round": pairs // (n * n), "rounds": grouping[1],
                                             "round_name": grouping[2]}
        return cls(i=pairs % (n * n) // n, j=pairs % n, matches=total(matches),
                   wins_i=total(score_low), ties=total(ties), players=players,
                   player_name=player_name, **extra)

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def n_battles(self) -> float:
        """The number of battles (their total weight)."""
        return float(self.matches.sum())

    @property
    def n_rounds(self) -> int:
        return 0 if self.rounds is None else len(self.rounds)

    def pairs(self) -> pd.DataFrame:
        """One row per unordered pair that met (i before j), summed over rounds:
        ``player_i``, ``player_j``, their codes ``i``, ``j``, ``matches``, ``wins_i`` (ties
        count 1/2) and ``ties``; the table :meth:`Scores.pairs` gives for per-round scores."""
        if self.round is None:
            i, j, sums = self.i, self.j, (self.matches, self.wins_i, self.ties)
        else:
            key, inverse = np.unique(self.i.astype(np.int64) * self.n_players + self.j,
                                     return_inverse=True)
            i, j = key // self.n_players, key % self.n_players
            sums = [np.bincount(inverse, v, len(key))
                    for v in (self.matches, self.wins_i, self.ties)]
        return pair_table(self.players, i, j, *sums)

    def round_pairs(self) -> pd.DataFrame:
        """One row per (round, unordered pair) that met: :meth:`pairs`' columns and
        ``round`` (the round's code in ``rounds``) and ``round_label``."""
        if self.round is None:
            raise ValueError("these battles have no rounds: pass round= (a column) to "
                             "Battles.from_long or Battles.from_counts")
        return pair_table(self.players, self.i, self.j, self.matches, self.wins_i, self.ties,
                          round=self.round, round_label=self.rounds[self.round])

    def win_rates(self) -> pd.Series:
        """Each player's share of battles won (ties 1/2)."""
        won, played = player_totals(self.pairs(), self.n_players)
        return pd.Series(won / played, index=self.players, name="win_rate")

    def __repr__(self) -> str:
        n = self.n_players
        met = len(self.pairs()) if self.round is not None else len(self.i)
        grouped = "" if self.round is None else f", {self.n_rounds} rounds of {self.round_name!r}"
        return (f"Battles({counted(n, self.player_name, 'player')}, {self.n_battles:g} battles in "
                f"{met} of {n * (n - 1) // 2} pairs, {self.ties.sum():g} ties{grouped})")


def _rounds(df, column):
    """(round code per row, round labels, round name) of a grouping column, or None."""
    if column is None:
        return None
    check_labels(df[column], column, df.index)
    codes, labels = factorize(df[column], column)
    return codes, labels, column


def _player_name(player_a, player_b):
    """'model' of the columns 'model_a' and 'model_b' (their shared stem, without the
    separator before what differs), else 'player'."""
    a, b = str(player_a), str(player_b)
    stem = os.path.commonprefix([a, b])
    cut = stem.rstrip("_-. ")
    return cut if cut and cut != stem and len(stem) < min(len(a), len(b)) else "player"


def _codes(df, player_a, player_b, player_name):
    """Codes of both players of every row in one label index; refuses missing labels,
    self-battles and fewer than two players."""
    for col in (player_a, player_b):
        check_labels(df[col], col, df.index)
    sides = [df[player_a], df[player_b]]
    if {s.dtype.kind for s in sides} == {"i", "f"}:  # numbered players, one side float (a
        # column that once held NaN): 1 and 1.0 would be one player labelled 1.0
        whole = [s for s in sides if s.dtype.kind == "f"][0]
        if (np.isfinite(whole) & (whole == whole.round()) & (whole.abs() < 2**53)).all():
            sides = [s.astype(np.int64) if s.dtype.kind == "f" else s for s in sides]
    text = [pd.api.types.is_string_dtype(s) or (s.dtype == object and isinstance(
        s.iloc[0], str)) for s in sides]  # each side holds one type (check_labels)
    if text[0] != text[1]:
        raise ValueError(f"{player_a if text[0] else player_b} holds text and "
                         f"{player_b if text[0] else player_a} other labels: one player must "
                         "have one label in both columns (a netCDF coordinate holds one "
                         "type); make both text (e.g. .astype(str))")
    codes, players = factorize(pd.concat(sides, ignore_index=True), player_name, case=True)
    if len(players) < 2:
        raise ValueError(f"only {len(players)} {player_name} ({plain(players[0])!r}) in "
                         f"{player_a} and {player_b}: a leaderboard needs at least two")
    a, b = codes[:len(df)], codes[len(df):]
    own = np.flatnonzero(a == b)
    if len(own):
        raise ValueError(f"{plural(len(own), 'battle')} of a player against "
                         f"itself, e.g. {plain(players[a[own[0]]])!r} ({where(df.index, own)}); "
                         "drop them")
    return a, b, players


def _weights(df, column):
    w = numeric_values(df[column], column, "weights must be positive counts", df.index,
                       missing=False)
    bad = np.flatnonzero(~(w > 0))
    if len(bad):
        what = ("weight that is not a positive number" if len(bad) == 1
                else "weights that are not positive numbers")
        raise ValueError(f"{column} has {len(bad)} {what} ({where(df.index, bad)}); drop those "
                         "battles or fix weight=")
    return w


def _counts(df, column):
    c = numeric_values(df[column], column, "counts must be numbers of battles", df.index,
                       missing=False)
    bad = np.flatnonzero(~(c >= 0))
    if len(bad):
        raise ValueError(f"{column} has {len(bad)} counts that are missing or negative "
                         f"({where(df.index, bad)}); counts are numbers of battles >= 0")
    return c


def _case_hint(unknown, known):
    """'; ...' when an unknown winner is a player of another battle, or matches a known label
    or marker but for case or spaces at their ends (labels are matched exactly)."""
    values = [v for v in unknown.dropna().unique() if isinstance(v, str)]
    exact = set(values) & {k for k in known if isinstance(k, str)}
    if exact:
        return (f"; {plain(sorted(exact)[0])!r} is a player, but not one of the two in that "
                "battle")
    return spelling_hint(values, known)


def _column_hint(unknown, n_rows, winner, player_a, player_b):
    """'; ...' when the unknown winners look like the side markers of differently named
    columns ("model_a" where the players' columns are "a" and "b"), or are most of the
    battles (the columns given to winner=, player_a=, player_b= may be mixed up)."""
    sides = sorted({v for v in unknown.dropna().unique() if isinstance(v, str)
                    and v[-2:] in ("_a", "_b")})
    if sides:
        return (f"; {sides[0]!r} marks a side only where the player columns are named so "
                f"(here {player_a!r} and {player_b!r}): rename those columns, or write the "
                "winners as 'a'/'b'")
    if len(unknown) > n_rows / 2:
        return (f"; that is most of the {n_rows} battles: check that winner= names the "
                f"column of winners and player_a=/player_b= the two players' columns (now "
                f"{winner!r}, {player_a!r}, {player_b!r})")
    return ""


def _type_hint(unknown, df, columns):
    """'; ...' when the unknown winners are players' labels as text and the player
    ``columns`` hold numbers (pandas reads a column of 1, 2, tie as text, one of 1, 2 as
    numbers)."""
    players = df[columns].stack()
    values = [v for v in unknown.dropna().unique() if isinstance(v, str)]
    if players.dtype.kind in "iuf" and matches_as_text(values, players.unique()):
        return (f"; they are players' labels as text, and the player columns hold numbers: "
                f"give both one type, e.g. df[{columns}] = df[{columns}].astype(str)")
    return ""


def check_scores_or_battles(data):
    """Refuse anything but :class:`Scores` or :class:`Battles`, saying how to build one."""
    if not isinstance(data, (Scores, Battles)):
        raise TypeError(f"expected irteval.Scores or irteval.Battles, got "
                        f"{type(data).__name__}; build one with Scores.from_long, "
                        "Scores.from_wide, Battles.from_long or Battles.from_counts")
