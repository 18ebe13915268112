"""Plots of the robustness analysis (paper 1): SCC panels and the taxonomy's dendrogram."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from scipy.cluster.hierarchy import dendrogram

from .. import _intervals
from ..plotting import ensure_axes, panels
from .scc import scc_summary


def plot_scc(scc, *, models=None, axes=None, ci_prob=None, ci_kind=None, hdi_prob=None):
    """System Characteristic Curves (the paper's Fig. 4): for each model a panel of kappa
    against the proportion of perturbed instances, one line per difficulty bin, with
    bands over the posterior draws. Returns the array of Axes."""
    prob, kind = _intervals.resolve(ci_prob, ci_kind, hdi_prob)
    table = scc_summary(scc, ci_prob=prob, ci_kind=kind)
    names = list(scc["model"].values) if models is None else list(models)
    if axes is None:  # each panel its own y range: the differences between bins are small
        axes = panels(len(names))
    flat = np.ravel(axes)
    colours = plt.cm.viridis(np.linspace(0, 0.9, scc.sizes["bin"]))
    for ax, name in zip(flat, names):
        for (b, curve), colour in zip(table.loc[name].groupby(level="bin"), colours):
            p = curve.index.get_level_values("proportion")
            ax.plot(p, curve["kappa"], color=colour, label=f"bin {b}")
            ax.fill_between(p, curve["kappa_lower"], curve["kappa_upper"], color=colour,
                            alpha=0.2)
        ax.set_title(str(name), fontsize="small")
        ax.set_xlabel("proportion perturbed")
    flat[0].set_ylabel("kappa (clean vs noisy)")
    flat[0].legend(fontsize="x-small", title="bin (0 = easiest)", title_fontsize="x-small")
    flat[0].figure.suptitle(f"System Characteristic Curves ({_intervals.label(prob, kind)} "
                            "bands over posterior draws of the bins)", fontsize="medium")
    return axes


def plot_dendrogram(tax, *, ax=None):
    """Dendrogram of a :func:`~irteval.robustness.taxonomy` (the paper's Fig. 5); each label
    carries the posterior probability that the model shares its group with the model just
    below it in the tree (the bottom one: just above)."""
    ax = ensure_axes(ax)
    names = list(tax.groups.index)
    tree = dendrogram(tax.linkage, labels=names, ax=ax, orientation="right",
                      color_threshold=tax.linkage[-(len(set(tax.groups)) - 1), 2])
    order = tree["ivl"]
    labels = []
    for pos, name in enumerate(order):
        neighbour = order[pos - 1] if pos else order[1]
        labels.append(f"{name} ({tax.co_assignment.loc[name, neighbour]:.2f})")
    ax.set_yticklabels(labels, fontsize="small")
    ax.set(xlabel="Euclidean distance of kappa profiles (complete linkage)")
    ax.set_title("robustness taxonomy\n(p): posterior probability of sharing a group with the "
                 "model below (bottom: above)", fontsize="small")
    return ax
