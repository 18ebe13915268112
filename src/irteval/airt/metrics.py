"""AIRT algorithm metrics (paper 3) from the posterior of the continuous IRT."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import _intervals
from .._draws import stacked_draws
from .._validation import check_idata

#: the model families whose posteriors the AIRT summaries read
FAMILIES = ("continuous_irt",)


def names(idata):
    """(item name, respondent name) in the user's words ("algorithm", "dataset")."""
    attrs = idata.attrs
    return attrs.get("item_name", "item"), attrs.get("respondent_name", "respondent")


def algorithm_metrics(idata, *, ci_prob=None, ci_kind=None, hdi_prob=None) -> pd.DataFrame:
    """One row per algorithm: posterior means of ``alpha`` (discrimination), ``beta``
    (difficulty) and ``gamma`` (scaling); ``p_anomalous`` = P(alpha < 0); posterior medians
    and intervals of ``consistency`` = 1/|alpha| and ``difficulty_limit`` = -beta;
    medians and intervals of alpha, beta and gamma (``{name}_lower``, ``{name}_upper``).
    (beta = -tau/gamma is heavy-tailed when gamma is near 0; read its median and interval
    rather than its mean.)"""
    check_idata(idata, FAMILIES, "algorithm_metrics")
    prob, kind = _intervals.resolve(ci_prob, ci_kind, hdi_prob)
    draws = {v: stacked_draws(idata, v) for v in ("alpha", "beta", "gamma")}
    table = {v: draws[v].mean(axis=0) for v in ("alpha", "beta", "gamma")}
    table["p_anomalous"] = (draws["alpha"] < 0).mean(axis=0)
    derived = {"consistency": 1 / np.abs(draws["alpha"]), "difficulty_limit": -draws["beta"]}
    for v in ("alpha", "beta", "gamma"):
        table[f"{v}_median"] = np.median(draws[v], axis=0)
        table[f"{v}_lower"], table[f"{v}_upper"] = _intervals.interval(draws[v], prob, kind)
    for v, d in derived.items():
        table[v] = np.median(d, axis=0)
        table[f"{v}_lower"], table[f"{v}_upper"] = _intervals.interval(d, prob, kind)
    out = pd.DataFrame(table, index=pd.Index(idata.posterior["item"].values,
                                             name=names(idata)[0]))
    return _intervals.record(out, prob, kind)
