"""Model comparison by approximate leave-one-out cross-validation (``az.compare``), with the
checks it needs and its warnings explained."""

from __future__ import annotations

import warnings

import arviz as az
import numpy as np
import pandas as pd

from ._validation import warn_user
from .exceptions import ConvergenceWarning
from .inference.diagnostics import failed_checks


def _observed(idata, var):
    """The data behind observed variable ``var`` of ``idata``: the polytomous IRT's levels
    from ``constant_data`` (its ``x`` held each item's categories as floats before it held the
    levels: fits of the same data, one from an earlier irteval, compare)."""
    if var == "x" and "level" in idata.get("constant_data", {}) and \
            idata.attrs.get("irteval_family") == "polytomous_irt":
        return idata.constant_data["level"]
    return idata.observed_data[var]


def _order_hint(one, other, var):
    """', though ...' when the two fits hold the same labels in another order."""
    a, b = _observed(one, var), _observed(other, var)
    labelled = a.dims == b.dims and all(d in a.coords and d in b.coords for d in a.dims)
    if not labelled or any(set(a[d].values.tolist()) != set(b[d].values.tolist())
                           for d in a.dims):
        return ""
    aligned = b.sel({d: a[d].values for d in a.dims})  # b's values at a's labels
    return (": the same labels with the same values, in another order (build both Responses "
            "from one table, so that their cells line up)"
            if _same(aligned.values, a.values) else "")


def _same(a, b):
    """Equal arrays, NaN (a missing cell) equal to NaN."""
    return a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind == "f"
                                                 and b.dtype.kind == "f")


def compare_models(fits: dict, *, ic="loo", **kwargs) -> pd.DataFrame:
    """Rank fits of the same observations by expected log predictive density.

    ``az.compare(fits, ic=ic, **kwargs)`` after checking that every fit stores its pointwise
    log-likelihood and that all of them were fitted to the same observations, with the same
    pointwise terms (a 1PL against a 2PL on one response matrix: yes; a Plackett–Luce fit,
    whose terms are rounds, against a pairwise one, whose terms are pairs: no). PSIS-LOO's
    Pareto-k warnings (WAIC's, of a log-likelihood variance over 0.4) are turned into one
    warning per fit that says how many terms are unreliable and what to do, and a fit that
    failed its NUTS diagnostics (R-hat, divergences, ESS) is named in a warning too.

    Parameters
    ----------
    fits : dict of str to arviz.InferenceData
        At least two fits, by name, of the same observations, each with its pointwise
        log-likelihood (:func:`irteval.fit` with ``log_likelihood=True``); a MAP fit (one
        point) is refused.
    ic : {"loo", "waic"}, default "loo"
        PSIS-LOO or WAIC.
    **kwargs
        Passed on to ``az.compare`` (e.g. ``scale``, ``var_name``, ``method``).

    Returns
    -------
    pandas.DataFrame
        One row per fit, indexed by its name, best first. Columns as ``az.compare``:
        ``rank``, ``elpd_loo``, ``p_loo`` (``elpd_waic``, ``p_waic`` with ``ic="waic"``),
        ``elpd_diff`` (to the best), ``weight``, ``se``, ``dse`` (se of the difference: a
        difference within ~2 dse is not a clear win), ``warning``, ``scale``.
        ``attrs["caveats"]`` keeps the warnings above.
    """
    if not isinstance(fits, dict) or len(fits) < 2:
        raise ValueError("give a dict of at least two fits, e.g. {'1pl': idata_1pl, '2pl': "
                         "idata_2pl}")
    if ic not in ("loo", "waic"):
        raise ValueError(f"ic={ic!r}: give ic='loo' (PSIS-LOO, the default) or ic='waic'")
    shapes = {}
    for name, idata in fits.items():
        if not hasattr(idata, "posterior"):
            raise TypeError(f"fits[{name!r}] is a {type(idata).__name__}, not an InferenceData")
        if idata.attrs.get("irteval_method") == "map":
            raise ValueError(f"fits[{name!r}] is a MAP fit, one point: LOO needs posterior "
                             "draws; fit it with method='nuts' (or method='laplace', where the "
                             "model has one)")
        if "log_likelihood" not in idata.groups() and "minibatch" in idata.attrs:
            raise ValueError(f"fits[{name!r}] is a minibatch fit (batch_size=), whose "
                             "likelihood saw random batches: refit the model without "
                             "batch_size=, with log_likelihood=True")
        if "log_likelihood" not in idata.groups():
            raise ValueError(f"fits[{name!r}] has no pointwise log-likelihood: fit it with "
                             "irteval.fit(..., log_likelihood=True) (irteval's commands: "
                             "--log-likelihood; by default it is stored only up to ~200 MB)")
        ll = idata.log_likelihood
        shapes[name] = {v: tuple(s for d, s in ll[v].sizes.items() if d not in ("chain", "draw"))
                        for v in ll.data_vars}
    first, *others = fits
    for name in others:
        if shapes[name] != shapes[first]:
            raise ValueError(
                f"fits[{first!r}] and fits[{name!r}] have log-likelihoods over different "
                f"observations ({shapes[first]} vs {shapes[name]}): LOO compares models of "
                "the same data with the same pointwise terms")
        for var in shapes[first]:
            a, b = _observed(fits[first], var), _observed(fits[name], var)
            labels = [c for c in a.coords if c not in a.dims and c in b.coords]  # obs_item, ...
            if not _same(a.values, b.values) or any(
                    not np.array_equal(a[c].values.astype(str), b[c].values.astype(str))
                    for c in labels):
                raise ValueError(f"fits[{first!r}] and fits[{name!r}] were fitted to different "
                                 f"data ({var!r} differs)" + _order_hint(fits[first], fits[name],
                                                                         var)
                                 + "; compare fits of the same data")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        criterion = az.loo if ic == "loo" else az.waic
        scores = {name: criterion(idata, pointwise=True, scale=kwargs.get("scale"))
                  for name, idata in fits.items()}
        table = az.compare(scores, ic=ic, **kwargs)  # each fit's LOO computed once
    unconverged = [f"{name}: its fit failed the NUTS diagnostics ({failed}), so its elpd "
                   "comes from draws that may not represent the posterior; refit it (more "
                   "draws, a higher target_accept=) before reading the ranking"
                   for name, idata in fits.items() if (failed := failed_checks(idata))]
    caveats = []
    for name, loo in scores.items():
        if "pareto_k" not in loo:  # WAIC: ArviZ's own test, the log-likelihood's variance
            ll = fits[name].log_likelihood
            wide = int((ll[kwargs.get("var_name") or list(ll.data_vars)[0]]
                        .var(("chain", "draw")) > 0.4).sum())
            if wide:
                caveats.append(
                    f"{name}: the posterior variance of the log-likelihood exceeds 0.4 for "
                    f"{wide} of {loo.n_data_points} terms, where WAIC is unreliable (terms that "
                    "the posterior predicts poorly; arxiv.org/abs/1507.04544); prefer "
                    "ic='loo', whose Pareto k name those terms")
            continue
        k = np.asarray(loo.pareto_k).ravel()
        good_k = float(loo.get("good_k", 0.7))  # ArviZ's min(1 - 1/log10(draws), 0.7)
        bad = int((k > good_k).sum())
        if bad:
            caveats.append(
                f"{name}: Pareto k > {good_k:.2f} for {bad} of {k.size} terms, so PSIS-LOO is "
                "unreliable "
                "there (observations that alone move the posterior much: an instance or a "
                "model with few answers, a player seen in few rounds); read elpd as "
                "approximate, or refit without those terms (az.reloo)")
    for caveat in unconverged:
        warn_user(caveat, ConvergenceWarning)
    for caveat in caveats:
        warn_user(caveat)
    for w in caught:  # anything else az.compare said, as it said it (not the deprecations of
        # the libraries under it, such as pandas' of ArviZ's inplace sort: nothing to do here)
        if issubclass(w.category, (DeprecationWarning, PendingDeprecationWarning, FutureWarning)):
            continue
        if not any(said in str(w.message) for said in ("Pareto", "shape parameter",
                                                        "log predictive densities exceeds")):
            warn_user(str(w.message), w.category)
    table.attrs["caveats"] = unconverged + caveats
    return table
