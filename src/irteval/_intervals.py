"""One interval convention for every summary and plot.

``ci_prob`` is the interval's mass (default: ArviZ's ``rcParams["stats.ci_prob"]``, 0.94) and
``ci_kind`` its kind: ``"hdi"`` (highest density, ArviZ's default) or ``"eti"`` (equal-tailed,
between the (1 - p)/2 and (1 + p)/2 quantiles). Tables record both in ``attrs``; a table that
summarises one quantity names its interval ``{ci_kind}_lower`` / ``{ci_kind}_upper`` (as
``az.summary`` does), one that summarises several names them ``{quantity}_lower`` /
``{quantity}_upper``.
"""

from __future__ import annotations

import arviz as az
import numpy as np
from scipy.special import expit, logit

from ._validation import warn_user

CI_KINDS = ("hdi", "eti")


def resolve(ci_prob=None, ci_kind=None, hdi_prob=None):
    """(prob, kind) from the keywords; ``hdi_prob`` is the old name of ``ci_prob`` and warns."""
    if hdi_prob is not None:
        warn_user("hdi_prob= is deprecated and will be removed in the next release; use "
                  "ci_prob= (and ci_kind='hdi' or 'eti')", FutureWarning)
        if ci_prob is not None and ci_prob != hdi_prob:
            raise ValueError(f"hdi_prob={hdi_prob} and ci_prob={ci_prob} disagree; give ci_prob")
        ci_prob = hdi_prob
    prob = az.rcParams["stats.ci_prob"] if ci_prob is None else ci_prob
    if not (isinstance(prob, (int, float, np.number)) and 0 < prob < 1):
        name = "ci_prob" if hdi_prob is None else "hdi_prob"
        raise ValueError(f"{name} must be a number between 0 and 1, got {prob!r}")
    kind = az.rcParams.get("stats.ci_kind", "hdi") if ci_kind is None else ci_kind
    if kind not in CI_KINDS:
        raise ValueError(f"ci_kind must be one of {CI_KINDS}, got {kind!r}")
    return float(prob), kind


def probability_interval(draws, prob, kind):
    """(lower, upper) of probabilities over draws (axis 0): the interval of their log-odds,
    mapped back. Equal-tailed intervals are the same either way. An HDI of skewed probabilities
    (near 0 or 1; U-shaped where their log-odds are wide) from a few hundred draws jumps
    along a curve, as the draws that set its ends change; on the log-odds, about symmetric,
    it moves smoothly. Probabilities within 1e-12 of 0 or 1 count as that far."""
    p = np.clip(np.asarray(draws, dtype=float), 1e-12, 1 - 1e-12)
    lower, upper = interval(logit(p), prob, kind)
    return expit(lower), expit(upper)


def log_odds_scale(kind):
    """' of the log-odds' where :func:`probability_interval` took the interval there (an
    HDI), for a plot's words; '' where the scale does not matter (equal-tailed)."""
    return " of the log-odds" if kind == "hdi" else ""


def interval(draws, prob, kind, axis=0):
    """(lower, upper) of ``draws`` along ``axis`` (NaN draws ignored for ``"eti"``)."""
    draws = np.moveaxis(np.asarray(draws, dtype=float), axis, 0)
    if kind == "eti":
        lower, upper = np.nanquantile(draws, [(1 - prob) / 2, (1 + prob) / 2], axis=0)
        return lower, upper
    # ArviZ reads a 1-d array as draws, 3 or more dims as (chain, draw, ...)
    bounds = az.hdi(draws if draws.ndim == 1 else draws[None], hdi_prob=prob, skipna=True)
    return bounds[..., 0], bounds[..., 1]


def estimate_columns(draws, prob, kind):
    """The columns of a table of estimates from ``draws`` (sample, ...): ``mean``, ``sd``,
    ``{kind}_lower``, ``{kind}_upper``."""
    lower, upper = interval(draws, prob, kind)
    return {"mean": draws.mean(axis=0), "sd": draws.std(axis=0), f"{kind}_lower": lower,
            f"{kind}_upper": upper}


def quantity_columns(draws, prob, kind, name, centre=np.mean):
    """The columns of one quantity of a table from its ``draws`` (sample, ...): ``name`` (the
    ``centre`` of the draws: np.mean, np.median, np.nanmean), ``{name}_lower``,
    ``{name}_upper``."""
    lower, upper = interval(draws, prob, kind)
    return {name: centre(draws, axis=0), f"{name}_lower": lower, f"{name}_upper": upper}


def record(table, prob, kind):
    """Write the convention into ``table.attrs`` and return the table."""
    table.attrs.update(ci_prob=prob, ci_kind=kind)
    return table


# what each kind is called; "wald" and "bootstrap" are the classical EPP's (mle_epp, bootstrap_epp)
KIND_NAMES = {"hdi": "HDI", "eti": "equal-tailed interval", "wald": "Wald interval",
              "bootstrap": "bootstrap interval"}


def label(prob, kind):
    """'94% HDI', '94% equal-tailed interval', '95% Wald interval'...: for titles and printed
    tables."""
    return f"{_percent(prob)} {KIND_NAMES[kind]}"


def _percent(prob):
    """0.94 -> '94%', 0.975 -> '97.5%' (not 98%)."""
    return f"{100 * prob:.10g}%"


def table_kind(table, ci_kind=None, default="hdi"):
    """The kind of the intervals a table holds: from its ``attrs``, else the caller's
    ``ci_kind``, else the first kind its columns name (``eti_lower``, ``wald_lower``...: a
    table read back from CSV has no attrs), else ``default``."""
    columns = [str(c) for c in getattr(table, "columns", ())]
    return ((getattr(table, "attrs", None) or {}).get("ci_kind", ci_kind)
            or next((k for k in KIND_NAMES if any(c.startswith(f"{k}_") for c in columns)),
                    default))


def table_label(table, ci_prob=None, ci_kind=None):
    """:func:`label` of the intervals a table holds (:func:`table_kind`; "interval" where
    nothing says which), with the probability from its ``attrs``, else the caller's
    ``ci_prob``, else none."""
    kind = table_kind(table, ci_kind, default=None)
    name = KIND_NAMES.get(kind, "interval")
    prob = (getattr(table, "attrs", None) or {}).get("ci_prob", ci_prob)
    return name if prob is None else f"{_percent(prob)} {name}"


def is_point(lower, upper):
    """Whether every interval has width 0, or none has bounds (a MAP fit's CSV from the
    command line): a table of a fit of one point."""
    lower, upper = np.asarray(lower, dtype=float), np.asarray(upper, dtype=float)
    return bool(np.all((lower == upper) | (np.isnan(lower) & np.isnan(upper))))


def note(interval, point, scale=""):
    """' (94% HDI band)' for a plot's title or label (``interval``: :func:`label`'s or
    :func:`table_label`'s words; ``scale``: :func:`log_odds_scale`'s), or ' (one point: no
    band)' where the fit is one point (MAP) and no interval is drawn."""
    return " (one point: no band)" if point else f" ({interval} band{scale})"


def check_matches(table, ci_prob, ci_kind, hdi_prob=None):
    """A plot given a precomputed table draws the table's intervals: refuse ci_prob/ci_kind
    (or the old hdi_prob) that contradict them (recompute the table instead). Returns the
    probability given (ci_prob, or hdi_prob's value), for the label of a table without attrs."""
    if (ci_prob, ci_kind, hdi_prob) != (None, None, None):
        prob = resolve(ci_prob, ci_kind, hdi_prob)[0]  # valid values before comparing
        ci_prob = None if ci_prob is None and hdi_prob is None else prob
    for key, value in (("ci_prob", ci_prob), ("ci_kind", ci_kind)):
        if value is not None and table.attrs.get(key) not in (None, value):
            raise ValueError(f"the table was computed with {key}={table.attrs[key]!r}, not "
                             f"{value!r}; recompute it with {key}={value!r} or drop {key}")
    return ci_prob
