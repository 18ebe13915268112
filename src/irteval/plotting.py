"""Helpers shared by the plots of every workflow."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np


def ensure_axes(ax):
    """``ax``, or the Axes of a new figure when None."""
    return plt.subplots()[1] if ax is None else ax


def panels(n, *, cols=4, width=3.2, height=2.6, **kwargs):
    """A grid of ``n`` panels (constrained layout) as a flat array; unused panels hidden."""
    cols = min(cols, n)
    rows = -(-n // cols)
    grid = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False,
                        layout="constrained", **kwargs)[1]
    flat = np.ravel(grid)
    for ax in flat[n:]:
        ax.set_visible(False)
    return grid


def spread(n_total, n):
    """Positions of ``n`` of ``n_total`` sorted entries spread from the first to the last."""
    return np.linspace(0, n_total - 1, min(n, n_total)).astype(int)
