"""AIRT algorithm metrics (paper 3) from the posterior of the continuous or the polytomous
IRT."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import _intervals
from .._docs import fill_doc
from .._draws import stacked_draws
from .._fits import check_idata, fit_family, label_name, warn_if_point

#: the model families whose posteriors the AIRT summaries read
AIRT_FAMILIES = ("continuous_irt", "polytomous_irt")


def observed_performance(idata):
    """(dataset, algorithm) observed performance, NaN where missing: the raw performance of
    the continuous IRT, the level (the user's label) of the polytomous IRT."""
    const = idata.constant_data
    return const["level" if fit_family(idata) == "polytomous_irt" else "performance"].values


def _observed_per_algorithm(idata):
    """The datasets on which each algorithm has a performance, in the fit's order."""
    return (~np.isnan(observed_performance(idata))).sum(axis=0)


@fill_doc
def algorithm_metrics(idata, *, ci_prob=None, ci_kind=None, hdi_prob=None) -> pd.DataFrame:
    """AIRT's algorithm metrics (discrimination, difficulty, anomaly, consistency, difficulty
    limit) over the posterior draws.

    Parameters
    ----------
    {idata_airt}
    {ci_prob_and_kind}
    {hdi_prob}

    Returns
    -------
    pandas.DataFrame
        One row per algorithm (index named as the fit names its items). For the continuous
        IRT: posterior means, medians and intervals of ``alpha`` (discrimination), ``beta``
        (difficulty) and ``gamma`` (scaling) (``{name}_mean``, ``{name}_median``,
        ``{name}_lower``, ``{name}_upper``); ``p_anomalous`` = P(alpha < 0); ``n_obs`` (the
        datasets with a performance of the algorithm); posterior medians and intervals of
        ``consistency`` = 1/|alpha| and ``difficulty_limit`` = -beta (the bare names are
        medians). (beta = -tau/gamma is heavy-tailed when gamma is near 0; read its median and
        interval rather than its mean.) For the polytomous IRT instead: the mean, median and
        interval of the discrimination ``a`` (``a_mean``, ...), ``p_anomalous`` = P(a < 0),
        ``n_obs``, and medians and intervals of ``consistency`` = 1/|a|, ``difficulty_limit``
        = -d of the item's top step and ``difficulty_limit_first`` = -d_1 (airt's printed
        difficulty limit).
        ``attrs`` holds ``ci_prob`` and ``ci_kind``.
    """
    check_idata(idata, AIRT_FAMILIES, "algorithm_metrics")
    warn_if_point(idata, "algorithm_metrics")
    prob, kind = _intervals.resolve(ci_prob, ci_kind, hdi_prob)
    if fit_family(idata) == "polytomous_irt":
        return _polytomous_metrics(idata, prob, kind)
    draws = {v: stacked_draws(idata, v) for v in ("alpha", "beta", "gamma")}
    table = {f"{v}_mean": draws[v].mean(axis=0) for v in ("alpha", "beta", "gamma")}
    table["p_anomalous"] = (draws["alpha"] < 0).mean(axis=0)
    table["n_obs"] = _observed_per_algorithm(idata)
    derived = {"consistency": 1 / np.abs(draws["alpha"]), "difficulty_limit": -draws["beta"]}
    for v in ("alpha", "beta", "gamma"):
        table[f"{v}_median"] = np.median(draws[v], axis=0)
        table[f"{v}_lower"], table[f"{v}_upper"] = _intervals.interval(draws[v], prob, kind)
    for v, d in derived.items():
        table |= _intervals.quantity_columns(d, prob, kind, v, centre=np.median)
    out = pd.DataFrame(table, index=pd.Index(idata.posterior["item"].values,
                                             name=label_name(idata, "item")))
    return _intervals.record(out, prob, kind)


def _polytomous_metrics(idata, prob, kind):
    """The polytomous IRT's metrics: ``a_mean`` (discrimination), ``p_anomalous`` = P(a < 0),
    posterior medians and intervals of ``consistency`` = 1/|a|, ``difficulty_limit`` =
    -d of the item's top step (the threshold of its highest level, the paper's definition)
    and ``difficulty_limit_first`` = -d_1 (the threshold out of its lowest level: the number
    airt's vignette prints as the difficulty limit)."""
    a = stacked_draws(idata, "a")
    d = stacked_draws(idata, "d")
    top = np.isfinite(d[0]).sum(axis=1) - 1  # each item's last step
    table = {"a_mean": a.mean(axis=0), "p_anomalous": (a < 0).mean(axis=0),
             "n_obs": _observed_per_algorithm(idata)}
    derived = {"a": a, "consistency": 1 / np.abs(a),
               "difficulty_limit": -d[:, np.arange(d.shape[1]), top],
               "difficulty_limit_first": -d[:, :, 0]}
    for v, draws in derived.items():
        key = "a_median" if v == "a" else v
        table[key] = np.median(draws, axis=0)
        table[f"{v}_lower"], table[f"{v}_upper"] = _intervals.interval(draws, prob, kind)
    out = pd.DataFrame(table, index=pd.Index(idata.posterior["item"].values,
                                             name=label_name(idata, "item")))
    return _intervals.record(out, prob, kind)
