"""Helpers shared by the summaries: the interval mass, posterior draws as arrays, and
equal-count bins."""

from __future__ import annotations

import arviz as az
import numpy as np


def hdi_prob_or_default(hdi_prob):
    """The interval mass: ``hdi_prob``, or ArviZ's ``stats.ci_prob`` setting when None."""
    prob = az.rcParams["stats.ci_prob"] if hdi_prob is None else hdi_prob
    if not 0 < prob < 1:
        raise ValueError(f"hdi_prob must be between 0 and 1, got {prob}")
    return prob


def stacked_draws(idata, name, max_draws=None, random_seed=0):
    """Draws of a posterior variable as (sample, ...), thinned at random to max_draws."""
    arr = idata.posterior[name].stack(sample=("chain", "draw")).transpose("sample", ...).values
    if max_draws is not None and len(arr) > max_draws:
        keep = np.sort(np.random.default_rng(random_seed).choice(len(arr), max_draws, False))
        arr = arr[keep]
    return arr


def equal_count_bins(values, n_bins):
    """Bin of each value along the last axis: ranks cut into ``n_bins`` groups of (almost)
    equal size, 0 = smallest."""
    values = np.asarray(values)
    return (values.argsort(axis=-1).argsort(axis=-1) * n_bins) // values.shape[-1]


def equal_tailed(draws, prob):
    """(lower, upper) equal-tailed interval of mass ``prob`` over the first axis."""
    return np.quantile(draws, [(1 - prob) / 2, (1 + prob) / 2], axis=0)
