"""Posterior draws as arrays, thinned draws, and equal-count bins."""

from __future__ import annotations

import numpy as np

from ._validation import count, seeded_rng


def thin(n, max_draws, random_seed=0):
    """Sorted positions of at most ``max_draws`` of ``n`` pooled draws (all when None or n is
    smaller), chosen at random with ``random_seed`` (both checked, used or not)."""
    if max_draws is not None:
        count(max_draws, "max_draws")
    rng = seeded_rng(random_seed)
    if max_draws is None or n <= max_draws:
        return np.arange(n)
    return np.sort(rng.choice(n, max_draws, False))


def evenly_spaced(n_total, n):
    """Positions of ``n`` of ``n_total`` entries evenly spaced from the first to the last
    (every one when ``n >= n_total``)."""
    return np.linspace(0, n_total - 1, min(n, n_total)).round().astype(int)


def nearest_to_even_values(values, n):
    """Positions of ``n`` entries (each once; all when ``n >= len(values)``), the one nearest
    to each of ``n`` values evenly spaced from the smallest to the largest: spread over the
    values' range where :func:`evenly_spaced` ranks crowd into a pile of near-equal values."""
    values = np.asarray(values, dtype=float)
    if n >= len(values):
        return np.argsort(values, kind="stable")
    free = ~np.isnan(values)  # NaN (a fit gone wrong) neither sets the range nor is picked
    if free.sum() <= n:
        return np.r_[np.flatnonzero(free), np.flatnonzero(~free)][:n]
    picks = []
    for target in np.linspace(np.nanmin(values), np.nanmax(values), n):
        distance = np.where(free, np.abs(values - target), np.inf)
        picks.append(int(np.argmin(distance)))
        free[picks[-1]] = False
    return np.array(picks)


def stacked_draws(idata, name, max_draws=None, random_seed=0):
    """Draws of a posterior variable as (sample, ...), chains pooled and thinned at random to
    ``max_draws``."""
    values = idata.posterior[name].transpose("chain", "draw", ...).values
    pooled = values.reshape(-1, *values.shape[2:])  # sample = chain * draws + draw: a view
    return pooled[thin(len(pooled), max_draws, random_seed)]  # copies the kept draws only


def equal_count_bins(values, n_bins):
    """Bin of each value along the last axis: ranks cut into ``n_bins`` groups of (almost)
    equal size, 0 = smallest."""
    values = np.asarray(values)
    return (values.argsort(axis=-1).argsort(axis=-1) * n_bins) // values.shape[-1]
