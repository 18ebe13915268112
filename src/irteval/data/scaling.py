"""Continuous performance y on known bounds [lo, hi] -> the model's scale z, and back.

``"logit"``: x = (y - lo) / (hi - lo), clipped to [clip, 1 - clip], z = log(x / (1 - x)).
``"airt"``: airt's ``cirtmodel`` preprocessing exactly: shift by lo, move values lying on a
bound 0.01 (raw units) inside it, z = log((y - lo) / (hi - y)).

Lower-is-better measures (run times, errors) must be turned around first; the AIRT paper
uses 1 / (t + 1) for run times.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import logit

from .._validation import plain, plural, spelling_hint

TRANSFORMS = ("logit", "airt")
AIRT_NUDGE = 0.01


def column_range(values, item_idx, n_items):
    """(lowest, highest) value of each item."""
    lower, upper = np.full(n_items, np.inf), np.full(n_items, -np.inf)
    np.minimum.at(lower, item_idx, values)
    np.maximum.at(upper, item_idx, values)
    return lower, upper


def _number_pair(value):
    """Whether ``value`` is a pair of real numbers (lo, hi)."""
    return (np.ndim(value) == 1 and len(value) == 2
            and all(isinstance(v, (int, float, np.integer, np.floating))
                    and not isinstance(v, (bool, np.bool_)) for v in value))


def _plain_pair(value):
    """A bound pair as plain Python values for a message (not np.float64(0.0))."""
    return tuple(map(plain, value)) if np.ndim(value) == 1 else plain(value)


def resolve_bounds(values, item_idx, items, bounds, item_name="item", respondents=None):
    """Per-item (lower, upper) arrays from ``bounds``: ``"column"`` (each item's observed
    min and max), ``"global"`` (min and max of all values), a pair ``(lo, hi)`` for every
    item, or a dict / Series / DataFrame {item: (lo, hi)} (columns ``lower``, ``upper``).
    ``respondents``: (respondent of each value, its name) to say where a value out of bounds
    is."""
    n = len(items)
    if isinstance(bounds, str):
        if bounds == "column":
            lower, upper = column_range(values, item_idx, n)
        elif bounds == "global":
            lower, upper = np.full(n, values.min()), np.full(n, values.max())
        else:
            raise ValueError(f"bounds={bounds!r}: use 'column', 'global', a pair (lo, hi) or "
                             "a dict {item: (lo, hi)}")
    elif isinstance(bounds, (dict, pd.DataFrame)) or (isinstance(bounds, pd.Series)
                                                      and bounds.dtype == object):
        if not isinstance(bounds, pd.DataFrame):  # {item: (lo, hi)}, or a Series of pairs
            pairs = pd.Series(bounds, dtype=object)
            bad = [not _number_pair(v) for v in pairs]
            if any(bad):
                k = bad.index(True)
                raise ValueError(f"bounds for {item_name} {plain(pairs.index[k])!r} must be a "
                                 f"pair of numbers (lo, hi), got "
                                 f"{_plain_pair(pairs.iloc[k])!r}")
            table = pd.DataFrame(pairs.tolist(), index=pairs.index,
                                 columns=["lower", "upper"], dtype=float)
        else:
            missing = [c for c in ("lower", "upper") if c not in bounds.columns]
            if missing:
                raise ValueError(f"a bounds table needs the columns 'lower' and 'upper' (one "
                                 f"row per {item_name}); it lacks {missing}")
            table = bounds[["lower", "upper"]]
            numbers = table.apply(pd.to_numeric, errors="coerce")
            bad = (numbers.isna() & table.notna()).any(axis=1)  # (NaN: "finite", below)
            if bad.any():
                raise ValueError(f"bounds for {item_name} {plain(table.index[bad][0])!r} must be "
                                 f"numbers, got {_plain_pair(table[bad].iloc[0])!r}")
        twice = table.index[table.index.duplicated()].unique()
        if len(twice):
            raise ValueError(f"bounds name {item_name}s {list(twice[:5])} more than once; give "
                             f"one (lo, hi) per {item_name}")
        missing = pd.Index(items).difference(table.index, sort=False)
        if len(missing):
            unknown = table.index.difference(pd.Index(items), sort=False)
            raise ValueError(
                f"bounds are missing for {len(missing)} {item_name}"
                f"{'' if len(missing) == 1 else 's'}, e.g. "
                f"{[plain(m) for m in missing[:5]]}"
                + (f"; bounds name {item_name}s not in the data: "
                   f"{[plain(u) for u in unknown[:5]]}{spelling_hint(unknown, items)}"
                   if len(unknown) else "") + f"; give (lo, hi) for every {item_name}")
        lower = table.loc[items, "lower"].to_numpy(float)
        upper = table.loc[items, "upper"].to_numpy(float)
    else:
        try:
            lo, hi = (float(b) for b in bounds)
        except (TypeError, ValueError) as err:
            raise ValueError(f"bounds={bounds!r} is not a pair of numbers (lo, hi)") from err
        lower, upper = np.full(n, lo), np.full(n, hi)
    if not (np.isfinite(lower).all() and np.isfinite(upper).all()):
        raise ValueError("bounds must be finite numbers")
    flat = upper <= lower
    if flat.any() and isinstance(bounds, str):
        raise ValueError(
            plural(int(flat.sum()), f"{item_name} has", f"{item_name}s have")
            + f" one value only, e.g. {list(pd.Index(items)[flat][:5])}: with "
            f"bounds={bounds!r} the lower and upper bounds are equal (a constant "
            f"{item_name} carries no information); drop "
            + ("it" if flat.sum() == 1 else f"those {item_name}s")
            + " or give the bounds explicitly")
    if flat.any():
        k = np.flatnonzero(flat)[0]
        raise ValueError(
            f"{int(flat.sum())} {item_name}s have upper bound <= lower bound, e.g. "
            f"{pd.Index(items)[k]!r} with ({lower[k]:g}, {upper[k]:g}); give bounds (lo, hi) "
            "with lo < hi")
    below = values < lower[item_idx]
    above = values > upper[item_idx]
    if below.any() or above.any():
        bad = np.flatnonzero(below | above)
        cells = [f"{values[k]:g} ({item_name} {plain(pd.Index(items)[item_idx[k]])!r}"
                 + ("" if respondents is None else
                    f", {respondents[1]} {plain(respondents[0][k])!r}") + ")" for k in bad[:3]]
        # above a bound of 1, none far above 100, and most values or these well above 1:
        # percent (not an overshoot such as 1.03)
        percent = ((upper[item_idx[bad]] <= 1).all() and (values[bad] > 1).all()
                   and values.max() <= 110
                   and ((values > 1).mean() > 0.5 or (values[bad] >= 2).all()))
        raise ValueError(
            f"{plural(len(bad), 'value lies', 'values lie')} outside their bounds, e.g. "
            f"{', '.join(cells)}; "
            + ("values above an upper bound of 1 (none above 110) may be percent: divide them "
               "by 100, or " if percent else "") + "widen the bounds or use bounds='column'")
    return lower, upper


def to_z(values, lower, upper, transform="logit", clip=0.01):
    """The model scale z of values y with the given per-cell bounds."""
    if transform == "airt":
        y = values - lower
        width = upper - lower
        y = np.where(y <= 0, AIRT_NUDGE, np.where(y >= width, width - AIRT_NUDGE, y))
        return np.log(y / (width - y))
    return logit(np.clip((values - lower) / (upper - lower), clip, 1 - clip))

