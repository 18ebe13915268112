"""Plots of the robustness analysis (paper 1): SCC panels and the taxonomy's dendrogram."""

from __future__ import annotations

import textwrap
import warnings

import matplotlib.pyplot as plt
import numpy as np
from scipy.cluster.hierarchy import dendrogram

from .. import _intervals
from .._docs import fill_doc, panel_labels
from .._validation import chosen_labels, plural
from ..plotting import (checks_axes, given_axes, label_figure, ordered_colours, panel_axes,
                        panels, short)
from .scc import check_scc, scc_summary
from .taxonomy import Taxonomy


@checks_axes
@fill_doc(panel_models=panel_labels("models", "model"))
def plot_scc(scc, *, models=None, axes=None, ci_prob=None, ci_kind=None, hdi_prob=None,
             ax=None):
    """System Characteristic Curves (the paper's Fig. 4): for each model a panel of kappa
    against the proportion of perturbed instances, one line per difficulty bin, with
    bands over the posterior draws.

    Parameters
    ----------
    scc : xarray.Dataset
        The per-draw SCCs of :func:`~irteval.robustness.scc` or
        :func:`~irteval.robustness.scc_from_predictions`.
    {panel_models}
    axes, ax : matplotlib.axes.Axes or array of them, optional
        One Axes per model (``ax=`` is ArviZ's name for it: give one of the two), the
        user's figure title kept; ``None``: a new grid of panels.
    {ci_prob_and_kind}
    {hdi_prob}

    {returns_panels}
    """
    prob, kind = _intervals.resolve(ci_prob, ci_kind, hdi_prob)
    check_scc(scc, "plot_scc")
    table = scc_summary(scc, ci_prob=prob, ci_kind=kind)
    names = chosen_labels(models, scc["model"].values, "models")
    axes = given_axes(ax, axes)
    own = axes is None
    if own:  # each panel its own y range: the differences between bins are small
        axes = panels(len(names))
    flat = panel_axes(axes, len(names), "models")
    colours = ordered_colours(scc.sizes["bin"])
    for ax, name in zip(flat, names):
        for (b, curve), colour in zip(table.loc[name].groupby(level="bin"), colours):
            p = curve.index.get_level_values("proportion")
            ax.plot(p, curve["kappa"], color=colour, label=f"bin {b}")
            ax.fill_between(p, curve["kappa_lower"], curve["kappa_upper"], color=colour,
                            alpha=0.2)
        ax.set_title("\n".join(textwrap.wrap(short(name), 28)), fontsize="small")  # long names
        ax.set_xlabel("proportion perturbed")
    for ax in flat[:len(names)]:
        spec = ax.get_subplotspec()  # a label on the first panel of each row
        if spec is None or spec.is_first_col():
            ax.set_ylabel("kappa (clean vs noisy)")
    bands = f"{_intervals.label(prob, kind)} bands over posterior draws of the bins"
    if own:  # beside the panels, not on a panel's bands
        flat[0].figure.legend(*flat[0].get_legend_handles_labels(), loc="outside right",
                              fontsize="x-small", title="bin\n(0 = easiest)",
                              title_fontsize="x-small")
    else:
        flat[0].legend(fontsize="x-small", title=f"bin (0 = easiest)\n{bands}",
                       title_fontsize="x-small", loc="best")
    label_figure(flat, own, title=f"System Characteristic Curves ({bands}; each panel its own "
                                  "kappa scale)")
    return axes


@checks_axes
@fill_doc
def plot_dendrogram(tax, *, ax=None):
    """Dendrogram of a :func:`~irteval.robustness.taxonomy` (the paper's Fig. 5), cut (dashed)
    into its k groups; each label carries the posterior probability of the model's place
    (:meth:`~irteval.robustness.Taxonomy.summary`): of sharing its group with the group's
    other members, or, alone in its group, of being alone.

    Parameters
    ----------
    tax : Taxonomy
        The result of :func:`~irteval.robustness.taxonomy`; anything else is refused.
    {ax}

    {returns_ax}
    """
    if not isinstance(tax, Taxonomy):
        raise TypeError(f"plot_dendrogram takes the result of irteval.robustness.taxonomy, got "
                        f"a {type(tax).__name__}")
    names = list(tax.groups.index)
    if ax is None:  # a layout that keeps the labels on the figure, wider for long ones
        width, height = plt.rcParams["figure.figsize"]
        longest = max(len(str(name)) for name in names) + 7  # " (0.95)"
        ax = plt.subplots(figsize=(width + 0.07 * max(0, longest - 20), height),
                          layout="constrained")[1]
    k = len(set(tax.groups))
    heights = tax.linkage[:, 2]  # the last k - 1 merges join the k groups
    cut = (heights[-k] + heights[-(k - 1)]) / 2 if k < len(names) else heights[0] / 2
    # links above the cut grey: a model alone in its group hangs from one of them, and in
    # the colour of the groups' links it read as one of them
    with warnings.catch_warnings():  # all profiles alike: every merge at 0, an empty axis
        warnings.filterwarnings("ignore", "Attempting to set identical", UserWarning)
        tree = dendrogram(tax.linkage, labels=names, ax=ax, orientation="right",
                          color_threshold=cut, above_threshold_color="0.6")
    if not heights.any():
        ax.set_xlim(1, 0)
    table = tax.summary()
    labels = [f"{short(name)} ({table.loc[name, 'p_same_group_as_members']:.2f})"
              if np.isfinite(table.loc[name, "p_same_group_as_members"])
              else f"{short(name)} (alone {table.loc[name, 'p_alone']:.2f})"
              for name in tree["ivl"]]
    ax.set_yticklabels(labels, fontsize="small")
    ax.axvline(cut, color="0.5", ls="--", lw=1)
    ax.set(xlabel="Euclidean distance of kappa profiles (complete linkage)")
    ax.set_title(f"robustness taxonomy: {plural(k, 'group')} (cut dashed; links above it "
                 f"grey){'; every profile alike' * (not heights.any())}\n(p): "
                 "posterior probability of "
                 "sharing the group with its members;\nalone: of having a group of its own",
                 fontsize="small")
    return ax
