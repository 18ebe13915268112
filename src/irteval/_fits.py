"""Checks of fits: which model family an InferenceData comes from (:func:`check_idata`),
whether it holds draws or one point, and whether a table is the one a plot reads."""

from __future__ import annotations

from . import _intervals
from ._validation import warn_user

#: family -> (the builder that makes it, the summary to start from)
MODEL_FAMILIES = {
    "binary_irt": ("models.onepl", "difficulty"),
    "bradley_terry": ("models.bradley_terry", "leaderboard"),
    "continuous_irt": ("models.continuous_irt", "algorithm_metrics"),
    "polytomous_irt": ("models.polytomous_irt", "algorithm_metrics"),
}
#: idata.attrs["irteval_model"] of fits written before the family was recorded
_LEGACY = {"1pl": "binary_irt", "2pl": "binary_irt", "continuous_irt": "continuous_irt"}


def fit_family(idata):
    """The model family an InferenceData comes from (None when it does not say)."""
    attrs = getattr(idata, "attrs", {}) or {}
    if "irteval_family" in attrs:
        return attrs["irteval_family"]
    legacy = str(attrs.get("irteval_model", ""))
    return "bradley_terry" if legacy.startswith("bradley_terry") else _LEGACY.get(legacy)


def label_name(idata, dim):
    """What the fit's users call the entries of ``dim`` ("instance", "model", "algorithm"...:
    ``idata.attrs[f"{dim}_name"]``), else ``dim``."""
    return idata.attrs.get(f"{dim}_name", dim)


def check_idata(idata, family, caller, instead=None):
    """Raise unless ``idata`` is an InferenceData with a posterior from ``family`` (a name or a
    tuple of names of :data:`MODEL_FAMILIES`); the message names the function to call instead
    (``instead``: {family: function}, where it is not the family's main summary)."""
    families = (family,) if isinstance(family, str) else tuple(family)
    wanted = " or ".join(f"irteval.{MODEL_FAMILIES[f][0]}" for f in families)
    if not hasattr(idata, "posterior"):
        raise TypeError(f"{caller}() needs the InferenceData that irteval.fit returns for "
                        f"{wanted}(...), got {type(idata).__name__}")
    found = fit_family(idata)
    if found in families:
        return
    if found in MODEL_FAMILIES:
        raise ValueError(f"{caller}() needs a fit of {wanted}(...), but this InferenceData is "
                         f"a fit of irteval.{MODEL_FAMILIES[found][0]}(...); use "
                         f"irteval.{(instead or {}).get(found, MODEL_FAMILIES[found][1])}() on "
                         "it instead")
    raise ValueError(f"{caller}() needs a fit of {wanted}(...); this InferenceData does not say "
                     "which irteval model made it (idata.attrs['irteval_family']): fit a model "
                     f"from irteval.models with irteval.fit, or set idata.attrs['irteval_family']"
                     f" = {families[0]!r} if it is one")


def table_or_fit(source, compute, columns, plot, maker, ci_prob=None, ci_kind=None):
    """The table a plot draws: ``compute(source)`` when ``source`` is a fit, else ``source``
    itself, refused unless it has the ``columns`` (see :func:`check_table`; ``maker`` names
    the function that makes it) and intervals matching ``ci_prob`` / ``ci_kind``."""
    if hasattr(source, "posterior"):
        return compute(source)
    check_table(source, columns, plot, maker)
    _intervals.check_matches(source, ci_prob, ci_kind)
    return source


def check_table(table, columns, plot, source):
    """Refuse a ``table`` (DataFrame or Dataset) without the ``columns`` (or variables) that
    ``plot`` reads; ``source`` names what makes the right one."""
    have = getattr(table, "columns", getattr(table, "data_vars", None))
    if have is None:
        raise TypeError(f"{plot} takes the result of {source}, or the fit; got "
                        f"{type(table).__name__}")
    missing = [c for c in columns if c not in have]
    if missing:
        raise ValueError(f"{plot} takes the result of {source}, or the fit; this "
                         f"{type(table).__name__} has no {missing} (it has {list(have)[:8]})")


def needs_draws(idata, caller):
    """Refuse a MAP fit (one point) where the result needs posterior draws (one draw chosen
    from a posterior on purpose passes: a check on a fixed draw)."""
    if getattr(idata, "attrs", {}).get("irteval_method") == "map":
        raise ValueError(f"{caller}() needs posterior draws, and this fit is one point (MAP): "
                         "its intervals would have no width and its posterior predictive "
                         "checks no replicates; refit with method='nuts' (the default) or "
                         "method='advi' (or method='laplace', where the model has one: not the "
                         "2PL-4PL)")


def one_draw(idata):
    """Whether a fit holds a single draw (MAP, or one draw of a sampler)."""
    return idata.posterior.sizes["chain"] * idata.posterior.sizes["draw"] == 1


def warn_if_point(idata, caller):
    """Warn that a fit of one draw (MAP) gives intervals of width 0 and probabilities of 0 or
    1."""
    if one_draw(idata):
        what = ("one point (MAP)" if idata.attrs.get("irteval_method") == "map"
                else "one draw")
        warn_user(f"{caller}(): this fit is {what}: its intervals have width 0 and "
                  "its probabilities are 0 or 1, certainties the data do not give; fit with "
                  "method='nuts' (or method='laplace', where the model has one) for them")
