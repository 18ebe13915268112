"""Matplotlib plots; each takes ``ax=`` (created when None) and returns the Axes."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy.special import expit

from .difficulty import _check_irt, characteristic_curves
from .draws import hdi_prob_or_default, stacked_draws


def _axes(ax):
    return plt.subplots()[1] if ax is None else ax


def plot_item_characteristic(idata, items=None, *, ax=None, hdi_prob=None, max_draws=200):
    """P(correct | ability) of the chosen items: posterior mean curve and HDI band, with
    the respondents' posterior mean abilities as a rug. By default five items spread
    from the easiest to the hardest."""
    _check_irt(idata)
    prob = hdi_prob_or_default(hdi_prob)
    ax = _axes(ax)
    labels = idata.posterior["item"].values
    b = stacked_draws(idata, "b", max_draws)
    a = stacked_draws(idata, "a", max_draws) if "a" in idata.posterior else np.ones_like(b)
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


def plot_difficulty_distribution(idata, *, ax=None, bins=40, hdi_prob=None, max_draws=100):
    """Density of the difficulties with a posterior band (the paper's Fig. 3): each draw's
    b is histogrammed on shared bins; the line is the mean density over draws, the band its
    equal-tailed interval. A dict {name: idata} gives one curve per dataset, sorted by mean
    difficulty; labels give the posterior mean of the mean and sd of b over the items."""
    fits = idata if isinstance(idata, dict) else {idata.attrs.get("item_name", "items"): idata}
    for fit in fits.values():
        _check_irt(fit)
    prob = hdi_prob_or_default(hdi_prob)
    ax = _axes(ax)
    draws = {name: stacked_draws(fit, "b", max_draws) for name, fit in fits.items()}
    pooled = np.concatenate([d.ravel() for d in draws.values()])
    edges = np.linspace(*np.quantile(pooled, [0.0005, 0.9995]), bins + 1)
    centres = (edges[:-1] + edges[1:]) / 2
    for name in sorted(draws, key=lambda n: draws[n].mean()):
        b = draws[name]
        density = np.array([np.histogram(row, edges, density=True)[0] for row in b])
        line, = ax.plot(centres, density.mean(axis=0), drawstyle="steps-mid",
                        label=f"{name}: mean {b.mean():.2f} ± {b.std(axis=1).mean():.2f}")
        lower, upper = np.quantile(density, [(1 - prob) / 2, (1 + prob) / 2], axis=0)
        ax.fill_between(centres, lower, upper, step="mid", alpha=0.3, color=line.get_color())
    ax.set(xlabel="difficulty b", ylabel="density",
           title=f"difficulty distribution ({prob:.0%} band over posterior draws)")
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


# ---------------------------------------------------------------------- EPP leaderboards
def plot_leaderboard(board, *, ax=None):
    """Forest plot of a :func:`~irteval.leaderboard` table: EPP mean and HDI, best on top,
    with P(best) in the labels."""
    ax = _axes(ax)
    y = np.arange(len(board))[::-1]
    ax.errorbar(board["mean"], y, xerr=[board["mean"] - board["hdi_lower"],
                                        board["hdi_upper"] - board["mean"]], fmt="o", ms=4)
    ax.set_yticks(y, [f"{p}  ({pb:.0%})" for p, pb in zip(board.index, board["p_best"])],
                  fontsize="small")
    ax.set(xlabel=f"EPP ({board.attrs.get('hdi_prob', 0.94):.0%} HDI)",
           title="leaderboard (P(best) in brackets)")
    return ax


def plot_epp_vs_score(board, scores, *, ax=None):
    """EPP (with HDI) against each player's mean score, as EloML's ranking plot."""
    ax = _axes(ax)
    sign = 1 if scores.higher_is_better else -1
    mean_score = pd.Series(sign * np.nanmean(scores.matrix, axis=1), index=scores.players)
    mean_score = mean_score.loc[board.index]
    ax.errorbar(board["mean"], mean_score, xerr=[board["mean"] - board["hdi_lower"],
                                                 board["hdi_upper"] - board["mean"]],
                fmt="o", ms=4)
    for label, x, y in zip(board.index, board["mean"], mean_score):
        ax.annotate(str(label), (x, y), fontsize="x-small", xytext=(3, 3),
                    textcoords="offset points")
    ax.set(xlabel="EPP", ylabel="mean score", title="EPP vs mean score")
    return ax


def plot_win_heatmap(win, *, ax=None):
    """Heat map of P(row beats column in a new round) (from :func:`pairwise_probabilities`)."""
    ax = _axes(ax)
    image = ax.imshow(win.to_numpy(dtype=float), cmap="RdBu_r", vmin=0, vmax=1)
    ticks = np.arange(len(win))
    ax.set_xticks(ticks, win.columns, rotation=90, fontsize="x-small")
    ax.set_yticks(ticks, win.index, fontsize="x-small")
    ax.figure.colorbar(image, ax=ax, label="P(row beats column)")
    return ax


def plot_win_calibration(idata, *, ax=None, n_draws=200, random_seed=0):
    """Empirical win ratio of every pair against the model's predicted one (the paper's
    Fig. 5), point size by number of matches, with the posterior predictive deviance check
    in the title."""
    from .leaderboard import goodness_of_fit

    gof = goodness_of_fit(idata, n_draws=n_draws, random_seed=random_seed)
    ax = _axes(ax)
    predicted, empirical = gof["predicted"] / gof["matches"], gof["wins"] / gof["matches"]
    ax.scatter(predicted, empirical, s=10 * gof["matches"] / gof["matches"].max() + 2,
               alpha=0.5)
    ax.plot([0, 1], [0, 1], "k--", lw=1)
    ax.set(xlabel="predicted P(win)", ylabel="empirical win ratio",
           title=f"calibration (posterior predictive p of deviance "
                 f"{gof.attrs['ppp_deviance']:.2f})")
    return ax


def plot_rank_distribution(idata, *, ax=None):
    """Posterior probability of each rank (columns) for each player (rows, best first)."""
    from .leaderboard import _epp

    epp = _epp(idata)
    draws = stacked_draws(idata, "epp")
    rank = (-draws).argsort(axis=1).argsort(axis=1)
    n = draws.shape[1]
    probs = np.stack([np.bincount(rank[:, k], minlength=n) for k in range(n)]) / len(draws)
    order = np.argsort(rank.mean(axis=0))
    ax = _axes(ax)
    image = ax.imshow(probs[order], cmap="Greys", vmin=0, vmax=1, aspect="auto")
    ax.set_yticks(np.arange(n), epp["player"].values[order], fontsize="x-small")
    ax.set(xlabel="rank - 1 (0 = best)", title="rank distribution")
    ax.figure.colorbar(image, ax=ax, label="posterior probability")
    return ax


# ---------------------------------------------------------------------- robustness
def plot_scc(curves, *, models=None, axes=None, hdi_prob=None):
    """System Characteristic Curves (the paper's Fig. 4): for each model a panel of kappa
    against the proportion of perturbed instances, one line per difficulty bin, with
    equal-tailed bands over the posterior draws. Returns the array of Axes."""
    from .robustness.scc import scc_summary

    table = scc_summary(curves, hdi_prob=hdi_prob)
    names = list(curves["model"].values) if models is None else list(models)
    if axes is None:
        cols = min(4, len(names))
        rows = -(-len(names) // cols)
        axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 2.6 * rows), sharey=True,
                            squeeze=False, layout="constrained")[1]
    flat = np.ravel(axes)
    colours = plt.cm.viridis(np.linspace(0, 0.9, curves.sizes["bin"]))
    for ax, name in zip(flat, names):
        for (b, curve), colour in zip(table.loc[name].groupby(level="bin"), colours):
            p = curve.index.get_level_values("proportion")
            ax.plot(p, curve["kappa"], color=colour, label=f"bin {b}")
            ax.fill_between(p, curve["kappa_lower"], curve["kappa_upper"], color=colour,
                            alpha=0.2)
        ax.set_title(str(name), fontsize="small")
        ax.set_xlabel("proportion perturbed")
    flat[0].set_ylabel("kappa (clean vs noisy)")
    flat[0].legend(fontsize="x-small")
    for ax in flat[len(names):]:
        ax.set_visible(False)
    return axes


def plot_dendrogram(tax, *, ax=None):
    """Dendrogram of a :func:`~irteval.robustness.taxonomy` (the paper's Fig. 5); each label
    carries the posterior probability that the model shares its group with its nearest
    neighbour in the tree order."""
    from scipy.cluster.hierarchy import dendrogram

    ax = _axes(ax)
    names = list(tax["groups"].index)
    tree = dendrogram(tax["linkage"], labels=names, ax=ax, orientation="right",
                      color_threshold=tax["linkage"][-(len(set(tax["groups"])) - 1), 2])
    order = tree["ivl"]
    co = tax["co_assignment"]
    labels = []
    for pos, name in enumerate(order):
        neighbour = order[pos - 1] if pos else order[1]
        labels.append(f"{name} ({co.loc[name, neighbour]:.2f})")
    ax.set_yticklabels(labels, fontsize="small")
    ax.set(xlabel="Euclidean distance of kappa profiles (complete linkage)",
           title="robustness taxonomy (P(same group as neighbour))")
    return ax
