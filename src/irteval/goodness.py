"""How well the continuous IRT describes each algorithm (paper 3), per posterior draw.

With x_ij the performance scaled to [0, 1] by the item's bounds and the prediction
p_ij = logistic(gamma_j (theta_i - beta_j)) (the scaled performance at the mean of z):

- goodness: the ECDF of |p_ij - x_ij| over datasets on thresholds k in [0, 1], its area
  AUCDF (1 = perfect) and the MSE;
- effectiveness: the share of datasets with actual (AEC) or predicted (PEC) scaled
  performance >= 1 - l for tolerances l in [0, 1], and the areas AUAEC, AUPEC;
- the posterior predictive check of z, and LOO per algorithm.

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

from .draws import equal_tailed, hdi_prob_or_default, stacked_draws
from .portfolio import _check_airt, _names

THRESHOLDS = np.linspace(0, 1, 101)


def _scaled(idata):
    const = idata.constant_data
    lower, upper = const["lower"].values, const["upper"].values
    return (const["performance"].values - lower) / (upper - lower)


def _predicted(idata, max_draws, random_seed):
    """(draw, dataset, algorithm) predicted scaled performance."""
    theta = stacked_draws(idata, "theta", max_draws, random_seed)
    tau = stacked_draws(idata, "tau", max_draws, random_seed)
    lam = stacked_draws(idata, "lam", max_draws, random_seed)
    return 1 / (1 + np.exp(-(tau[:, None, :] + lam[:, None, :] * theta[:, :, None])))


def _area(curve):
    return trapezoid(curve, THRESHOLDS, axis=-1)


def _share(mask, observed):
    """Share over datasets (axis -2) of True among observed cells."""
    return (mask & observed).sum(axis=-2) / observed.sum(axis=-2)


def goodness_curves(idata, *, max_draws=200, random_seed=0):
    """xarray Dataset over (draw, item, threshold): ``cdf`` (share of datasets with
    |predicted - actual| <= threshold), ``aec`` (actual effectiveness, no draw dim) and
    ``pec`` (predicted effectiveness) at tolerance = threshold."""
    _check_airt(idata)
    actual = _scaled(idata)
    observed = ~np.isnan(actual)
    pred = _predicted(idata, max_draws, random_seed)
    resid = np.abs(pred - np.nan_to_num(actual))
    k = THRESHOLDS[:, None, None]
    cdf = np.stack([_share(r[None] <= k, observed[None]) for r in resid])  # draw, k, item
    aec = _share(np.nan_to_num(actual)[None] >= 1 - k, observed[None])
    pec = np.stack([_share(p[None] >= 1 - k, observed[None]) for p in pred])
    coords = {"item": idata.posterior["item"].values, "threshold": THRESHOLDS}
    return xr.Dataset({
        "cdf": (("draw", "item", "threshold"), cdf.transpose(0, 2, 1)),
        "aec": (("item", "threshold"), aec.T),
        "pec": (("draw", "item", "threshold"), pec.transpose(0, 2, 1)),
        "mse": (("draw", "item"), np.nanmean(np.where(observed, resid, np.nan) ** 2, axis=1)),
    }, coords=coords)


def _summarise(draws, prob, name):
    lower, upper = equal_tailed(draws, prob)
    return {name: draws.mean(axis=0), f"{name}_lower": lower, f"{name}_upper": upper}


def model_goodness(idata, *, hdi_prob=None, max_draws=200, random_seed=0) -> pd.DataFrame:
    """One row per algorithm: posterior mean and interval of ``aucdf`` (area under the
    ECDF of absolute scaled residuals; 1 = perfect) and ``mse``."""
    prob = hdi_prob_or_default(hdi_prob)
    curves = goodness_curves(idata, max_draws=max_draws, random_seed=random_seed)
    table = {**_summarise(_area(curves["cdf"].values), prob, "aucdf"),
             **_summarise(curves["mse"].values, prob, "mse")}
    out = pd.DataFrame(table, index=pd.Index(curves["item"].values, name=_names(idata)[0]))
    out.attrs["hdi_prob"] = prob
    return out


def effectiveness(idata, *, hdi_prob=None, max_draws=200, random_seed=0) -> pd.DataFrame:
    """One row per algorithm: ``auaec`` (area under the actual effectiveness curve),
    posterior mean and interval of ``aupec`` (predicted), and of ``abs_difference``
    = |AUAEC - AUPEC| (small: the model predicts the algorithm's effectiveness well)."""
    prob = hdi_prob_or_default(hdi_prob)
    curves = goodness_curves(idata, max_draws=max_draws, random_seed=random_seed)
    auaec = _area(curves["aec"].values)
    aupec = _area(curves["pec"].values)
    table = {"auaec": auaec, **_summarise(aupec, prob, "aupec"),
             **_summarise(np.abs(auaec - aupec), prob, "abs_difference")}
    out = pd.DataFrame(table, index=pd.Index(curves["item"].values, name=_names(idata)[0]))
    out.attrs["hdi_prob"] = prob
    return out


def posterior_predictive_z(idata, *, random_seed=0):
    """Add replicated z ~ Normal(tau + lam theta, s) for every draw (group
    ``posterior_predictive``, NaN where a cell is missing) and the observed z
    (``observed_data``), in place, so that ``az.plot_ppc(idata)`` works; returns idata."""
    _check_airt(idata)
    post = idata.posterior
    const = idata.constant_data
    mask = const["mask"].values > 0
    mean = post["tau"].values[..., None, :] + (post["lam"].values[..., None, :]
                                               * post["theta"].values[..., :, None])
    noise = np.random.default_rng(random_seed).standard_normal(mean.shape)
    z_rep = np.where(mask, mean + post["s"].values[..., None, :] * noise, np.nan)
    dims = ("respondent", "item")
    coords = {"respondent": post["respondent"].values, "item": post["item"].values}
    predictive = xr.Dataset({"z": (("chain", "draw", *dims), z_rep)},
                            coords={"chain": post["chain"], "draw": post["draw"], **coords})
    observed = xr.Dataset({"z": (dims, np.where(mask, const["z"].values, np.nan))},
                          coords=coords)
    for group, data in (("posterior_predictive", predictive), ("observed_data", observed)):
        if group in idata.groups():
            del idata[group]
        idata.add_groups({group: data})
    return idata


def loo_by_algorithm(idata) -> pd.DataFrame:
    """PSIS-LOO of every observed cell (given the drawn traits), summed per algorithm:
    ``elpd_loo`` and its ``se``, and the largest Pareto k (> 0.7: the estimate is unreliable
    for some cell of that algorithm). Needs ``fit(..., log_likelihood=True)``."""
    _check_airt(idata)
    if "log_likelihood" not in idata.groups():
        raise ValueError("idata has no log_likelihood group; fit with log_likelihood=True")
    loo = az.loo(idata, pointwise=True)
    elpd = xr.DataArray(loo.loo_i).rename("elpd")
    pareto = xr.DataArray(loo.pareto_k)
    n = elpd.notnull().sum("respondent")
    out = pd.DataFrame({
        "elpd_loo": elpd.sum("respondent").to_series(),
        "se": (elpd.std("respondent") * np.sqrt(n)).to_series(),
        "max_pareto_k": pareto.max("respondent").to_series(),
    })
    out.index.name = _names(idata)[0]
    return out
