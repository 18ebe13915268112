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
"""

from __future__ import annotations

import arviz as az
import numpy as np
import pandas as pd
import xarray as xr
from scipy.integrate import trapezoid

from .. import _intervals
from .._draws import stacked_draws
from .._validation import check_idata
from ..models.continuous_irt import cell_logp, mean_z
from .metrics import FAMILIES, names

THRESHOLDS = np.linspace(0, 1, 101)


def _scaled(idata):
    const = idata.constant_data
    lower, upper = const["lower"].values, const["upper"].values
    return (const["performance"].values - lower) / (upper - lower)


def _predicted(idata, max_draws, random_seed):
    """(sample, dataset, algorithm) predicted scaled performance."""
    draws = {v: stacked_draws(idata, v, max_draws, random_seed) for v in ("tau", "lam", "theta")}
    return 1 / (1 + np.exp(-mean_z(draws["tau"], draws["lam"], draws["theta"])))


def _area(curve):
    return trapezoid(curve, THRESHOLDS, axis=-1)


def _share(mask, observed):
    """Share over datasets (axis -2) of True among observed cells."""
    return (mask & observed).sum(axis=-2) / observed.sum(axis=-2)


def airt_curves(idata, *, max_draws=200, random_seed=0) -> xr.Dataset:
    """The AIRT curves per thinned posterior draw, over (sample, item, threshold): ``cdf``
    (share of datasets with |predicted - actual| <= threshold: model goodness), ``aec``
    (actual effectiveness at tolerance = threshold, no sample dim), ``pec`` (predicted
    effectiveness) and ``mse`` (sample, item)."""
    check_idata(idata, FAMILIES, "airt_curves")
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
    }, coords=coords, attrs={"item_name": names(idata)[0]})


def _curves(source, max_draws, random_seed):
    """The curves of ``source``: an :func:`airt_curves` Dataset, or a fit (computed here)."""
    if isinstance(source, xr.Dataset):
        return source
    return airt_curves(source, max_draws=max_draws, random_seed=random_seed)


def _summarise(draws, prob, kind, name):
    lower, upper = _intervals.interval(draws, prob, kind)
    return {name: draws.mean(axis=0), f"{name}_lower": lower, f"{name}_upper": upper}


def model_goodness(idata, *, ci_prob=None, ci_kind=None, max_draws=200, random_seed=0,
                   hdi_prob=None) -> pd.DataFrame:
    """One row per algorithm: posterior mean and interval of ``aucdf`` (area under the
    ECDF of absolute scaled residuals; 1 = perfect) and ``mse``. ``idata``: a fit, or its
    :func:`airt_curves`."""
    prob, kind = _intervals.resolve(ci_prob, ci_kind, hdi_prob)
    curves = _curves(idata, max_draws, random_seed)
    table = {**_summarise(_area(curves["cdf"].values), prob, kind, "aucdf"),
             **_summarise(curves["mse"].values, prob, kind, "mse")}
    out = pd.DataFrame(table, index=pd.Index(curves["item"].values,
                                             name=curves.attrs["item_name"]))
    return _intervals.record(out, prob, kind)


def effectiveness(idata, *, ci_prob=None, ci_kind=None, max_draws=200, random_seed=0,
                  hdi_prob=None) -> pd.DataFrame:
    """One row per algorithm: ``auaec`` (area under the actual effectiveness curve),
    posterior mean and interval of ``aupec`` (predicted), and of ``abs_difference``
    = |AUAEC - AUPEC| (small: the model predicts the algorithm's effectiveness well).
    ``idata``: a fit, or its :func:`airt_curves`."""
    prob, kind = _intervals.resolve(ci_prob, ci_kind, hdi_prob)
    curves = _curves(idata, max_draws, random_seed)
    auaec = _area(curves["aec"].values)
    aupec = _area(curves["pec"].values)
    table = {"auaec": auaec, **_summarise(aupec, prob, kind, "aupec"),
             **_summarise(np.abs(auaec - aupec), prob, kind, "abs_difference")}
    out = pd.DataFrame(table, index=pd.Index(curves["item"].values,
                                             name=curves.attrs["item_name"]))
    return _intervals.record(out, prob, kind)


def loo_by_algorithm(idata) -> pd.DataFrame:
    """PSIS-LOO of every observed cell given the drawn traits, summed per algorithm:
    ``elpd_loo`` and its ``se``, and the largest Pareto k (> 0.7: the estimate is unreliable
    for some cell of that algorithm). (``az.loo(idata)`` leaves out one dataset at a time,
    with its trait integrated out.)"""
    check_idata(idata, FAMILIES, "loo_by_algorithm")
    post = idata.posterior
    mask = ~np.isnan(idata.constant_data["performance"].values)
    ll = cell_logp(idata.observed_data["z"].values,
                   mean_z(post["tau"].values, post["lam"].values, post["theta"].values),
                   post["s"].values[..., None, :])
    dims = ("chain", "draw", "respondent", "item")
    pointwise = az.InferenceData(
        posterior=post[["tau"]],
        log_likelihood=xr.Dataset({"z": (dims, np.where(mask, ll, np.nan))},
                                  coords={d: post[d] for d in dims}))
    loo = az.loo(pointwise, pointwise=True)
    elpd = xr.DataArray(loo.loo_i).rename("elpd")
    pareto = xr.DataArray(loo.pareto_k)
    n = elpd.notnull().sum("respondent")
    out = pd.DataFrame({
        "elpd_loo": elpd.sum("respondent").to_series(),
        "se": (elpd.std("respondent") * np.sqrt(n)).to_series(),
        "max_pareto_k": pareto.max("respondent").to_series(),
    })
    out.index.name = names(idata)[0]
    return out
