"""How well the continuous IRT describes each algorithm (paper 3), per posterior draw.

With x_ij the performance scaled to [0, 1] by the item's bounds and the prediction
p_ij = logistic(gamma_j (theta_i - beta_j)) (the scaled performance at the mean of z):

- model goodness: the ECDF of |p_ij - x_ij| over datasets on thresholds k in [0, 1], its
  area AUCDF (1 = perfect) and the MSE (:func:`model_goodness`; not to be confused with the
  EPP's posterior predictive :func:`irteval.goodness_of_fit`);
- effectiveness: the share of datasets with actual (AEC) or predicted (PEC) scaled
  performance >= 1 - l for tolerances l in [0, 1], and the areas AUAEC, AUPEC
  (:func:`effectiveness`);
- LOO per algorithm (:func:`loo_by_algorithm`).

:func:`airt_curves` holds the three curves per draw, which the tables and plots summarise.
airt computes its predictions as logistic((theta - b) / alpha) with its third column
alpha = gamma, which matches its own density only when |gamma| ~ 1; here the prediction
is the model's own.

For the polytomous IRT (the paper's category definitions, airt's ``model_goodness_poly`` and
``effectiveness_poly``), with x_ij in {0, ..., L - 1} the dataset's level on algorithm j
among the L ordered levels of the data (declared with ``levels=``, else those observed) and
x^_ij the most probable level at theta_i: the goodness curve is the share of datasets with
|x_ij - x^_ij| <= k at the points k / (L - 1), k = 0..L - 1, and the MSE that of
x_ij - x^_ij (in levels); the effectiveness curves are the shares with x_ij (or x^_ij)
>= L - 1 - k at the same points: the top level is the data's for every algorithm, as airt
counts (an algorithm that never reaches it is less effective, whatever its own range);
areas by the trapezoid rule over the L points.
"""

from __future__ import annotations

import warnings

import arviz as az
import numpy as np
import pandas as pd
import xarray as xr
from scipy.integrate import trapezoid
from scipy.special import expit

from .. import _intervals
from .._docs import SHARED, fill_doc, parameters_section
from .._draws import stacked_draws
from .._fits import (check_idata, check_table, fit_family, label_name, needs_draws,
                     warn_if_point)
from .._validation import fixed_seed
from ..models.continuous_irt import cell_logp, mean_z
from ..models.polytomous_irt import category_logp
from .metrics import AIRT_FAMILIES

THRESHOLDS = np.linspace(0, 1, 101)

#: docstring entries of the summaries of the curves (model_goodness, effectiveness): the
#: Parameters section they share
GOODNESS_DOCS = {"curve_summary_parameters": parameters_section(
    """\
idata : arviz.InferenceData or xarray.Dataset
    A fit of the continuous or the polytomous IRT (:func:`irteval.fit` of
    :func:`irteval.models.continuous_irt` or :func:`irteval.models.polytomous_irt`; a fit
    of another family is refused), or its :func:`airt_curves` (then ``max_draws`` and
    ``random_seed`` are not used).""",
    *(SHARED[name] for name in ("ci_prob_and_kind", "max_draws", "random_seed", "hdi_prob")))}


def _scaled(idata):
    const = idata.constant_data
    lower, upper = const["lower"].values, const["upper"].values
    return (const["performance"].values - lower) / (upper - lower)


def _predicted(idata, max_draws, random_seed):
    """(sample, dataset, algorithm) predicted scaled performance."""
    random_seed = fixed_seed(random_seed)  # every variable from the same draws
    draws = {v: stacked_draws(idata, v, max_draws, random_seed) for v in ("tau", "lam", "theta")}
    return expit(mean_z(draws["tau"], draws["lam"], draws["theta"]))


def _area(curve):
    """Area under a (..., threshold) DataArray."""
    return trapezoid(curve.values, curve["threshold"].values, axis=-1)


def _share(mask, observed):
    """Share over datasets (axis -2) of True among observed cells."""
    return (mask & observed).sum(axis=-2) / observed.sum(axis=-2)


@fill_doc
def airt_curves(idata, *, max_draws=200, random_seed=0) -> xr.Dataset:
    """Model goodness (the ECDF of |predicted - actual|), actual and predicted effectiveness
    per algorithm and thinned posterior draw: what :func:`model_goodness`,
    :func:`effectiveness` and the AIRT plots summarise (definitions: :mod:`irteval.airt.goodness`).

    Parameters
    ----------
    idata : arviz.InferenceData
        A fit of the continuous or the polytomous IRT (:func:`irteval.fit` of
        :func:`irteval.models.continuous_irt` or :func:`irteval.models.polytomous_irt`); a fit
        of another family is refused. An :func:`airt_curves` Dataset is returned as it is.
    {max_draws}
    {random_seed}

    Returns
    -------
    xarray.Dataset
        ``cdf`` (sample, item, threshold): share of datasets with |predicted - actual| <=
        threshold (model goodness); ``aec`` (item, threshold): actual effectiveness at
        tolerance = threshold (no sample dim); ``pec`` (sample, item, threshold): predicted
        effectiveness; ``mse`` (sample, item). ``threshold`` runs over 101 points from 0 to 1
        (the polytomous IRT: k / (L - 1), k = 0..L - 1). ``attrs["item_name"]`` is the
        items' name (``"units": "levels"`` for the polytomous IRT).
    """
    return curves_from(idata, max_draws, random_seed, "airt_curves")


def _compute_curves(idata, max_draws, random_seed):
    """:func:`airt_curves` of a checked fit."""
    if fit_family(idata) == "polytomous_irt":
        return _category_curves(idata, max_draws, random_seed)
    actual = _scaled(idata)
    observed = ~np.isnan(actual)
    pred = _predicted(idata, max_draws, random_seed)
    resid = np.abs(pred - np.nan_to_num(actual))
    k = THRESHOLDS[:, None, None]
    cdf = np.stack([_share(r[None] <= k, observed[None]) for r in resid])  # sample, k, item
    aec = _share(np.nan_to_num(actual)[None] >= 1 - k, observed[None])
    pec = np.stack([_share(p[None] >= 1 - k, observed[None]) for p in pred])
    coords = {"item": idata.posterior["item"].values, "threshold": THRESHOLDS}
    return xr.Dataset({
        "cdf": (("sample", "item", "threshold"), cdf.transpose(0, 2, 1)),
        "aec": (("item", "threshold"), aec.T),
        "pec": (("sample", "item", "threshold"), pec.transpose(0, 2, 1)),
        "mse": (("sample", "item"), np.nanmean(np.where(observed, resid, np.nan) ** 2, axis=1)),
    }, coords=coords, attrs={"item_name": label_name(idata, "item")})


def _categories(idata):
    """(observed category 0..C_j - 1 of each algorithm's own range, 0 where missing,
    observed mask, C_j, the level code of each algorithm's category 0)."""
    const = idata.constant_data
    low = const["lowest_level"].values
    n_categories = const["highest_level"].values - low + 1
    level = const["level"].values  # the data's levels, NaN where missing
    observed = ~np.isnan(level)
    code = np.searchsorted(np.asarray(idata.attrs["levels"], dtype=float),
                           np.where(observed, level, idata.attrs["levels"][0]))
    return np.where(observed, code - low, 0), observed, n_categories, low


def _modal_categories(idata, n_categories, max_draws, random_seed):
    """(sample, dataset, algorithm) most probable category at each drawn theta."""
    random_seed = fixed_seed(random_seed)  # every variable from the same draws
    draws = {v: stacked_draws(idata, v, max_draws, random_seed) for v in ("theta", "a", "c")}
    valid = np.arange(n_categories.max())[None, :] < n_categories[:, None]
    return np.stack([
        category_logp(theta, a, c, valid, idata.attrs["irteval_model"], xp=np).argmax(axis=-1)
        for theta, a, c in zip(draws["theta"], draws["a"], draws["c"])])


def _category_curves(idata, max_draws, random_seed):
    """:func:`airt_curves` of the polytomous IRT (module docstring)."""
    category, observed, n_cat, low = _categories(idata)
    actual = category + low  # level codes 0..L - 1 of the data's scale
    pred = _modal_categories(idata, n_cat, max_draws, random_seed) + low
    n_levels = len(idata.attrs.get("levels", ())) or int(idata.constant_data[
        "highest_level"].max()) + 1  # (a fit that does not record its levels)
    k = np.arange(n_levels)

    def share(mask):  # (..., dataset, algorithm, point) -> (..., algorithm, point)
        return (mask & observed[..., None]).sum(axis=-3) / observed.sum(axis=0)[:, None]

    resid = np.where(observed, actual - pred, np.nan)
    coords = {"item": idata.posterior["item"].values, "threshold": k / (n_levels - 1)}
    return xr.Dataset({
        "cdf": (("sample", "item", "threshold"), share(np.abs(actual - pred)[..., None] <= k)),
        "aec": (("item", "threshold"), share(actual[..., None] >= n_levels - 1 - k)),
        "pec": (("sample", "item", "threshold"), share(pred[..., None] >= n_levels - 1 - k)),
        "mse": (("sample", "item"), np.nanmean(resid ** 2, axis=1)),
    }, coords=coords, attrs={"item_name": label_name(idata, "item"), "units": "levels"})


def curves_from(source, max_draws, random_seed, caller):
    """The curves of ``source``: an :func:`airt_curves` Dataset, or a fit (computed here);
    else an error naming ``caller``."""
    if isinstance(source, xr.Dataset):
        check_table(source, ["cdf", "aec", "pec"], caller, "irteval.airt_curves(idata)")
        return source
    check_idata(source, AIRT_FAMILIES, caller)
    warn_if_point(source, caller)
    return _compute_curves(source, max_draws, random_seed)


@fill_doc(**GOODNESS_DOCS)
def model_goodness(idata, *, ci_prob=None, ci_kind=None, max_draws=200, random_seed=0,
                   hdi_prob=None) -> pd.DataFrame:
    """How well the model describes each algorithm: the area under the ECDF of its absolute
    scaled residuals (AUCDF, 1 = perfect) and their MSE.

    With x_ij the performance scaled to [0, 1] and p_ij = logistic(gamma_j (theta_i - beta_j))
    the prediction: AUCDF_j = integral over k in [0, 1] of the share of datasets with
    |p_ij - x_ij| <= k, MSE_j = mean over datasets of (p_ij - x_ij)^2, per posterior draw (the
    polytomous IRT's, in levels: :mod:`irteval.airt.goodness`).

    {curve_summary_parameters}

    Returns
    -------
    pandas.DataFrame
        One row per algorithm (index named as the fit names its items): posterior mean and
        interval of ``aucdf`` (``aucdf_lower``, ``aucdf_upper``) and ``mse`` (``mse_lower``,
        ``mse_upper``). ``attrs`` holds ``ci_prob`` and ``ci_kind``.
    """
    prob, kind = _intervals.resolve(ci_prob, ci_kind, hdi_prob)
    curves = curves_from(idata, max_draws, random_seed, "model_goodness")
    table = {**_intervals.quantity_columns(_area(curves["cdf"]), prob, kind, "aucdf"),
             **_intervals.quantity_columns(curves["mse"].values, prob, kind, "mse")}
    out = pd.DataFrame(table, index=pd.Index(curves["item"].values,
                                             name=curves.attrs["item_name"]))
    return _intervals.record(out, prob, kind)


@fill_doc(**GOODNESS_DOCS)
def effectiveness(idata, *, ci_prob=None, ci_kind=None, max_draws=200, random_seed=0,
                  hdi_prob=None) -> pd.DataFrame:
    """Actual and predicted effectiveness of each algorithm: the areas under its effectiveness
    curves (AUAEC, AUPEC).

    AEC_j(l) = the share of datasets with x_ij >= 1 - l, PEC_j(l) the same of the prediction
    p_ij (:func:`model_goodness`), for tolerances l in [0, 1]; AUAEC and AUPEC are their areas
    (the polytomous IRT's, in levels: :mod:`irteval.airt.goodness`).

    {curve_summary_parameters}

    Returns
    -------
    pandas.DataFrame
        One row per algorithm (index named as the fit names its items): ``auaec`` (area under
        the actual effectiveness curve, from the data alone), posterior mean and interval of
        ``aupec`` (predicted; ``aupec_lower``, ``aupec_upper``) and of ``abs_difference`` =
        |AUAEC - AUPEC| (small: the model predicts the algorithm's effectiveness well;
        ``abs_difference_lower``, ``abs_difference_upper``). ``attrs`` holds ``ci_prob``
        and ``ci_kind``.
    """
    prob, kind = _intervals.resolve(ci_prob, ci_kind, hdi_prob)
    curves = curves_from(idata, max_draws, random_seed, "effectiveness")
    auaec = _area(curves["aec"])
    aupec = _area(curves["pec"])
    table = {"auaec": auaec, **_intervals.quantity_columns(aupec, prob, kind, "aupec"),
             **_intervals.quantity_columns(np.abs(auaec - aupec), prob, kind,
                                           "abs_difference")}
    out = pd.DataFrame(table, index=pd.Index(curves["item"].values,
                                             name=curves.attrs["item_name"]))
    return _intervals.record(out, prob, kind)


def loo_by_algorithm(idata) -> pd.DataFrame:
    """PSIS-LOO of every observed cell given the drawn traits, summed per algorithm.
    (``az.loo(idata)`` leaves out one dataset at a time, with its trait integrated out.)

    Parameters
    ----------
    idata : arviz.InferenceData
        A fit of the continuous IRT with posterior draws (:func:`irteval.fit` of
        :func:`irteval.models.continuous_irt`); a fit of another family, or a MAP fit (one
        point), is refused.

    Returns
    -------
    pandas.DataFrame
        One row per algorithm (index named as the fit names its items): ``elpd_loo`` and its
        ``se``, and ``max_pareto_k``, the largest Pareto k of its cells (above
        ``attrs["good_k"]``, ArviZ's min(1 - 1/log10(S), 0.7) for S draws: the estimate is
        unreliable for some cell of that algorithm).
    """
    check_idata(idata, "continuous_irt", "loo_by_algorithm")
    needs_draws(idata, "loo_by_algorithm")
    post = idata.posterior
    z = idata.observed_data["z"].values
    observed = ~np.isnan(idata.constant_data["performance"].values)
    tau, lam, theta, s = (post[v].values for v in ("tau", "lam", "theta", "s"))
    algorithms = post["item"].to_index()
    rows, caught = [], []
    # one algorithm at a time: PSIS smooths each cell's weights on their own, and a
    # draws x cells array of every cell took 1.1 GB at 4 x 4000 draws (notebook 03)
    for j in range(len(algorithms)):  # (Responses keeps no algorithm without a cell)
        # the observed cells only: ArviZ gives a missing (NaN) cell k = inf and elpd NaN
        answered = observed[:, j]
        mean = mean_z(tau[..., [j]], lam[..., [j]], theta[..., answered])[..., 0]
        ll = cell_logp(z[answered, j], mean, s[..., j, None])
        pointwise = az.InferenceData(posterior=post[["tau"]], log_likelihood=xr.Dataset(
            {"z": (("chain", "draw", "cell"), ll)}))
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            # one cell: "the point-wise LOO is the same with the sum LOO", as it should be
            warnings.filterwarnings("ignore", message="The point-wise LOO is the same")
            loo = az.loo(pointwise, pointwise=True)
        caught += said
        rows.append((loo.elpd_loo, loo.se, float(loo.pareto_k.max())))
    for message in dict.fromkeys((w.category, str(w.message)) for w in caught):
        warnings.warn(message[1], message[0], stacklevel=2)  # once, not once an algorithm
    out = pd.DataFrame(rows, index=algorithms, columns=["elpd_loo", "se", "max_pareto_k"])
    out.index.name = label_name(idata, "item")
    out.attrs["good_k"] = float(loo.get("good_k", 0.7))  # the draws' count alone sets it
    return out
