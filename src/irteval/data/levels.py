"""Ordered performance levels (polytomous AIRT): validation of integer levels, and airt's two
rules (``make_polyIRT_data``) to bin continuous performances into levels.

    equal_width: x' = (x - min) / (max - min) over the whole matrix, level k (1..C) holds
                 x' in [(k-1)/C, k/C) (the top value goes to level C): airt's method 1;
    quantile:    the same with the cut points at the global quantiles k/C of x: method 2.
"""

from __future__ import annotations

import numpy as np

from .._validation import plain, plural

CUT_RULES = ("equal_width", "quantile")
#: integer values spanning more levels than this, some unused, are refused by name before the
#: levels between them are listed (a performance of 10**12 asked for 7 TB)
MAX_SPAN = 1000


def ordinal_codes(values, levels=None, cuts=None, cut_rule="equal_width", value_name="values",
                  locate=None):
    """(codes 0..C-1, the C ordered level labels, the levels' ranges) of observed ``values``.

    Without ``cuts`` the values must be integers; ``levels`` declares the ordered set (by
    default every integer from the lowest to the highest value). Every declared level must
    be used, and at least two. With ``cuts=C`` the values are continuous performances, binned
    by ``cut_rule`` into levels 1..C (higher is better), and the ranges are the (C, 2) lowest
    and highest performance each level holds (:func:`level_ranges`); else None. ``locate``:
    positions -> where those values are, in the user's words (for the messages).
    """
    def examples(bad):
        """Some of the values at ``bad``: with where they are, where ``locate`` is given."""
        return (sorted(set(values[bad].tolist()))[:5] if locate is None
                else locate(np.flatnonzero(bad)))

    values, ranges = np.asarray(values, dtype=float), None
    if cuts is not None:
        edges = cut_points(values, cuts, cut_rule)
        values, ranges = bin_performance(values, edges), level_ranges(values, edges)
        levels = np.arange(1, cuts + 1) if levels is None else levels
    whole = values == np.round(values)
    if not whole.all():
        raise ValueError(
            f"{value_name} must be integer levels for an ordinal model; found "
            f"{plural(int((~whole).sum()), 'non-integer')}, e.g. {examples(~whole)}. Round them, "
            "or bin continuous performances with cuts= (the number of levels)")
    if levels is None:
        low, high = values.min(), values.max()
        if high - low + 1 > MAX_SPAN:  # before an array of every integer between
            used = len(np.unique(values))
            if used < high - low + 1:
                where = ("" if locate is None else
                         f" ({locate(np.flatnonzero(values == low)[:1])} to "
                         f"{locate(np.flatnonzero(values == high)[:1])})")
                raise ValueError(
                    f"{value_name}: values from {low:g} to {high:g}{where} would be "
                    f"{_many(high - low + 1)} integer levels, {used} of them used. An ordinal "
                    "model takes a few ordered levels: bin performances into levels with "
                    "cuts= (the number of levels, e.g. cuts=5); if the values are codes of "
                    "levels, recode them as consecutive integers (or, in Python, pass levels=, "
                    "the ordered levels)")
        levels = np.arange(low, high + 1)
    if np.ndim(levels) != 1:
        example = (list(range(1, int(levels) + 1)) if isinstance(levels, (int, np.integer))
                   and 2 <= levels <= 12 else [1, 2, 3])
        raise TypeError(f"levels= is the list of the ordered levels, e.g. levels={example}, "
                        f"got {levels!r}; to bin continuous performances into a number of "
                        "levels, pass cuts= instead")
    levels = np.asarray(levels, dtype=float)
    if len(np.unique(levels)) != len(levels) or np.any(np.diff(levels) <= 0):
        raise ValueError(f"levels= must be increasing and distinct, got {levels.tolist()}")
    outside = ~np.isin(values, levels)
    if outside.any():
        raise ValueError(
            f"{value_name} has {int(outside.sum())} value(s) not among the declared levels "
            f"{_show(levels)}, e.g. {examples(outside)}; add "
            "them to levels= or fix the data")
    unused = ~np.isin(levels, values)
    if unused.any() and cuts is not None:
        raise ValueError(
            f"binning into {cuts} levels ({cut_rule}) left level(s) {_show(levels[unused])} "
            "empty: a level no respondent reached has no threshold to estimate. Use a smaller "
            "cuts=" + (", or cut_rule='quantile' for levels of equal size"
                       if cut_rule == "equal_width" else ""))
    if unused.any():
        used = levels[~unused]
        consecutive = np.arange(levels[0], levels[0] + len(used))
        recode = ("" if np.all(np.diff(used) == 1) else  # only the ends unused: no recoding
                  f"recode the values as consecutive levels ({_show(used)} -> "
                  f"{_show(consecutive)}) or, in Python, ")
        raise ValueError(
            f"level(s) {_show(levels[unused])} of {_show(levels)} are used by no one: a level "
            "no respondent reached has no threshold to estimate. If they do not exist, "
            f"{recode}pass levels={_show(used)}; else merge them with a neighbour"
            + ("" if locate is None else
               f". The values run from {locate(np.flatnonzero(values == values.min())[:1])} "
               f"to {locate(np.flatnonzero(values == values.max())[:1])}"))
    if len(levels) < 2:
        raise ValueError(f"only one level ({_show(levels)}) is used: an ordinal model needs "
                         "at least two" + ("; use fewer cuts=" if cuts is not None else ""))
    return np.searchsorted(levels, values).astype(np.int64), levels, ranges


def _many(n):
    """A large count for a message: 1,001 or 1e+12."""
    return f"{int(n):,}" if n < 1e15 else f"{n:.3g}"


def bin_performance(values, edges):
    """Levels 1..C of continuous performances between the C - 1 :func:`cut_points`: level k
    holds edges[k-2] <= x < edges[k-1]."""
    return np.searchsorted(edges, values, side="right") + 1.0


def level_ranges(values, edges):
    """(C, 2): the bounds of each level in the performances' units, [edges[k-2], edges[k-1]]
    (the lowest and highest performance at the ends), to say what a level means."""
    return np.column_stack([np.r_[values.min(), edges], np.r_[edges, values.max()]])


def level_labels(levels, lower=None, upper=None):
    """Each level as text, with the lowest and highest performance it stands for where
    ``cuts=`` binned them (the columns of :func:`level_ranges`): ``'3 [0.41, 0.6]'``."""
    def digits(x):  # 3 significant digits, never in e-notation (run times of 12300 s)
        return np.format_float_positional(x, precision=3, unique=False, fractional=False,
                                          trim="-")

    if lower is None:
        return [f"{v:g}" for v in levels]
    return [f"{v:g} [{digits(low)}, {digits(high)}]" for v, low, high in zip(levels, lower, upper)]


def cut_points(values, cuts, cut_rule="equal_width"):
    """The ``cuts`` - 1 interior bin edges of airt's rules (see the module)."""
    if not isinstance(cuts, (int, np.integer)) or cuts < 2:
        raise ValueError(f"cuts must be an integer >= 2 (the number of levels), got {cuts!r}")
    if cut_rule not in CUT_RULES:
        raise ValueError(f"cut_rule={cut_rule!r} is not one of {CUT_RULES}")
    if cut_rule == "equal_width":
        low, high = values.min(), values.max()
        if high == low:
            raise ValueError("every performance is the same: there is nothing to bin")
        return low + (high - low) * np.arange(1, cuts) / cuts
    return np.quantile(values, np.arange(1, cuts) / cuts)


def _show(levels, most=12):
    """Levels as a list for messages, the middle of a long one cut ("...")."""
    text = [str(int(v)) if float(v).is_integer() else str(plain(v)) for v in levels]
    if len(text) > most:
        text = [*text[:most // 2], f"... ({len(text) - most} more)", *text[-(most // 2):]]
    return "[" + ", ".join(text) + "]"
