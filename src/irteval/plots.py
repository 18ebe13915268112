"""Matplotlib plots; each takes ``ax=`` (created when None) and returns the Axes."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from scipy.special import expit

from .difficulty import _check_irt, _hdi_prob, _stacked, characteristic_curves, difficulty


def _axes(ax):
    return plt.subplots()[1] if ax is None else ax


def plot_item_characteristic(idata, items=None, *, ax=None, hdi_prob=None, max_draws=200):
    """P(correct | ability) of the chosen items: posterior mean curve and HDI band, with
    the respondents' posterior mean abilities as a rug. By default five items spread
    from the easiest to the hardest."""
    _check_irt(idata)
    prob = _hdi_prob(hdi_prob)
    ax = _axes(ax)
    labels = idata.posterior["item"].values
    b = _stacked(idata, "b", max_draws)
    a = _stacked(idata, "a", max_draws) if "a" in idata.posterior else np.ones_like(b)
    theta_mean = idata.posterior["theta"].mean(("chain", "draw")).values
    if items is None:
        order = np.argsort(b.mean(axis=0))
        pick = order[np.linspace(0, len(order) - 1, min(5, len(order))).astype(int)]
    else:
        lookup = {label: k for k, label in enumerate(labels)}
        unknown = [i for i in items if i not in lookup]
        if unknown:
            raise ValueError(f"unknown item labels {unknown[:5]}; use labels from difficulty()")
        pick = [lookup[i] for i in items]
    lo = min(theta_mean.min(), b.mean(axis=0)[pick].min()) - 2
    hi = max(theta_mean.max(), b.mean(axis=0)[pick].max()) + 2
    grid = np.linspace(lo, hi, 200)
    q = (1 - prob) / 2
    for k in pick:
        curves = expit(a[:, k, None] * (grid[None, :] - b[:, k, None]))
        line, = ax.plot(grid, curves.mean(axis=0), label=f"{labels[k]} (b={b[:, k].mean():.2f})")
        ax.fill_between(grid, *np.quantile(curves, [q, 1 - q], axis=0), alpha=0.2,
                        color=line.get_color())
    ax.plot(theta_mean, np.zeros_like(theta_mean), "|", color="k", ms=12,
            label=idata.attrs.get("respondent_name", "respondent") + " ability")
    ax.set(xlabel="ability theta", ylabel="P(correct)", ylim=(-0.03, 1.03),
           title=f"item characteristic curves ({prob:.0%} band)")
    ax.legend(fontsize="small")
    return ax


def plot_difficulty_distribution(idata, *, ax=None, bins=40):
    """Histogram of posterior mean difficulties; a dict {name: idata} gives one histogram
    per dataset, sorted by mean difficulty (the paper's Fig. 3)."""
    fits = idata if isinstance(idata, dict) else {idata.attrs.get("item_name", "items"): idata}
    ax = _axes(ax)
    means = {name: difficulty(fit)["mean"].to_numpy() for name, fit in fits.items()}
    for name in sorted(means, key=lambda n: means[n].mean()):
        m = means[name]
        ax.hist(m, bins=bins, alpha=0.5, density=True,
                label=f"{name}: mean {m.mean():.2f} ± {m.std():.2f}")
    ax.set(xlabel="difficulty b (posterior mean)", ylabel="density",
           title="difficulty distribution")
    ax.legend(fontsize="small")
    return ax


def plot_characteristic_curves(idata, respondents=None, *, ax=None, n_bins=5, hdi_prob=None):
    """Observed accuracy per difficulty bin (solid, with HDI band) and the model-implied
    P(correct) (dashed) for the chosen respondents (default: up to six spread by ability)."""
    curves = characteristic_curves(idata, n_bins=n_bins, hdi_prob=hdi_prob)
    level = curves.index.names[0]
    labels = list(dict.fromkeys(curves.index.get_level_values(level)))
    if respondents is None:
        theta = idata.posterior["theta"].mean(("chain", "draw")).values
        order = np.argsort(theta)
        respondents = [labels[k] for k in order[np.linspace(0, len(order) - 1,
                                                            min(6, len(order))).astype(int)]]
    unknown = [r for r in respondents if r not in labels]
    if unknown:
        raise ValueError(f"unknown {level} labels {unknown[:5]}")
    ax = _axes(ax)
    for r in respondents:
        c = curves.loc[r]
        line, = ax.plot(c.index, c["accuracy"], "o-", label=str(r))
        ax.fill_between(c.index, c["accuracy_lower"], c["accuracy_upper"], alpha=0.2,
                        color=line.get_color())
        ax.plot(c.index, c["predicted"], "--", color=line.get_color())
    ax.set(xlabel="difficulty bin (0 = easiest)", ylabel="accuracy",
           title="characteristic curves: observed (solid) vs 1PL (dashed)",
           xticks=range(n_bins))
    ax.legend(fontsize="small")
    return ax
