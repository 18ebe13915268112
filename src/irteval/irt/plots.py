"""Plots of the binary IRT fits: item characteristic curves, the difficulty distribution,
system characteristic curves, item/person fit and information; each takes ``ax=`` (created
when None) and returns the Axes."""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd
from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullFormatter

from .. import _intervals
from .._docs import fill_doc
from .._draws import evenly_spaced, nearest_to_even_values, stacked_draws
from .._fits import (check_idata, check_table, label_name, one_draw, table_or_fit,
                     warn_if_point)
from .._validation import chosen_labels, count, plain
from ..models.densities import irt_probability
from ..plotting import (checks_axes, ensure_axes, label_line_ends, label_points,
                        set_major_locator, short, short_labels)
from .difficulty import characteristic_curves, moment_draws, observed_counts
from .fit_statistics import item_fit
from .information import TEST, information
from .item_draws import FAMILY, Items

#: the most respondents plot_characteristic_curves names (at their lines' ends)
MAX_NAMED = 12


@checks_axes
@fill_doc
def plot_item_characteristic(idata, items=None, *, ax=None, ci_prob=None, ci_kind=None,
                             max_draws=1000, random_seed=0, hdi_prob=None):
    """P(correct | ability) of the chosen items: posterior mean curve and a band (the
    interval of P at each ability over the draws; an HDI is that of the log-odds, mapped
    back, as P's own jumps between its ends where P is spread), with the respondents'
    posterior mean abilities as a rug. Labels give each item's posterior mean b (and a, c, d
    where the model has them) over every draw, curves and bands ``max_draws`` draws chosen at
    random (``random_seed``; 1000: with 200 the bands' edges were ragged).

    Parameters
    ----------
    {idata_one_skill}
    items : list, optional
        Item labels (or one label) to draw; by default the five items nearest to five
        evenly spaced posterior mean b's from the easiest to the hardest, among those that
        some respondents answered right and some wrong (where at least five are: an item
        every respondent answered alike has its b from the prior alone).
    {ax}
    {ci_prob_and_kind}
    {max_draws}
    {random_seed_draws}
    {hdi_prob}

    {returns_ax}
    """
    check_idata(idata, FAMILY, "plot_item_characteristic")
    warn_if_point(idata, "plot_item_characteristic")
    prob, kind = _intervals.resolve(ci_prob, ci_kind, hdi_prob)
    ax = ensure_axes(ax)
    labels = idata.posterior["item"].values
    item_name = label_name(idata, "item")
    b_mean = idata.posterior["b"].mean(("chain", "draw"), skipna=False).values  # all draws
    theta_mean = idata.posterior["theta"].mean(("chain", "draw"), skipna=False).values
    if items is None:  # (an item every respondent answered alike has its b from the prior)
        total, right = observed_counts(idata, "item")
        varied = np.flatnonzero((right > 0) & (right < total))
        pool = varied if len(varied) >= 5 else np.arange(len(labels))
        pick = pool[nearest_to_even_values(b_mean[pool], 5)]
    else:
        lookup = {label: k for k, label in enumerate(labels)}
        pick = [lookup[i] for i in chosen_labels(items, labels, f"{item_name} labels")]
    fitted = Items.from_idata(idata.isel(item=list(pick), groups="posterior"),  # those alone
                              "plot_item_characteristic", max_draws, random_seed)
    post = idata.posterior
    means = {"b": b_mean} | {name: post[name].mean(("chain", "draw")).values
                             for name in ("a", "c", "d") if name in post}
    # far enough that each curve rises from 0.02 to 0.98 of its range: b -+ log(49) / a
    reach = np.minimum(np.log(49) / np.abs(means.get("a", np.ones_like(b_mean))[pick]), 8)
    lo = min(theta_mean.min(), (b_mean[pick] - reach).min()) - 0.5
    hi = max(theta_mean.max(), (b_mean[pick] + reach).max()) + 0.5
    grid = np.linspace(lo, hi, 200)
    ends, names, colours = [], [], []
    numbers = all(str(plain(labels[k])).lstrip("-").isdigit() for k in pick)
    prefix = f"{item_name} " if numbers else ""  # ("question_id mmlu/..." took half the width)
    for j, k in enumerate(pick):
        curves = irt_probability(*fitted.logits(grid, (slice(None), [j])))  # (sample, grid)
        line, = ax.plot(grid, curves.mean(axis=0), label=f"{short(labels[k])}: " + ", ".join(
            f"{name} = {value[k]:.2f}" for name, value in means.items()))
        ax.fill_between(grid, *_intervals.probability_interval(curves, prob, kind), alpha=0.12,
                        color=line.get_color())
        ends.append(curves.mean(axis=0)[-1])
        names.append(f"{prefix}{short(labels[k])} (b = {b_mean[k]:.2f})")
        colours.append(line.get_color())
    ax.plot(theta_mean, np.zeros_like(theta_mean), "|", color="k", ms=12)
    respondent = label_name(idata, "respondent")
    ax.set(xlabel=f"ability theta (ticks: each {respondent}'s posterior mean)",
           ylabel="P(correct)", ylim=(-0.03, 1.03),
           title="item characteristic curves" + _intervals.note(
               _intervals.label(prob, kind), one_draw(idata),
               scale=_intervals.log_odds_scale(kind)))
    if len(means) == 1:  # labels at the curves' ends, inside the axes (a legend outside ran
        label_line_ends(ax, grid[-1], ends, names, colours)  # into a neighbour)
    else:  # a, c, d too: labels that long took half the width; below the curves' right ends
        ax.legend(title=item_name, fontsize="small", loc="best")
    return ax


@checks_axes
@fill_doc
def plot_difficulty_distribution(idata, *, ax=None, bins=None, ci_prob=None, ci_kind=None,
                                 max_draws=100, random_seed=0, hdi_prob=None):
    """Density of the difficulties with a posterior band (the paper's Fig. 3): each draw's
    b is histogrammed on shared bins; the line is the mean density over draws, the band its
    interval. Labels give the posterior mean of the mean and sd of b over the items (every
    draw, as :func:`difficulty_moments`), the densities ``max_draws`` draws chosen at random
    (``random_seed``).

    Parameters
    ----------
    idata : arviz.InferenceData or dict of str to arviz.InferenceData
        A fit of a binary IRT model, the 1PL ... 4PL or the multidimensional 2PL
        (:func:`irteval.fit` of :func:`irteval.models.onepl`), named by its ``item_name``;
        or {name: fit}, one curve per dataset, sorted by mean difficulty. A fit of another
        family is refused.
    {ax}
    bins : int, optional
        Number of histogram bins, shared by every draw and dataset; they span the pooled
        draws (without their outermost 0.1% where every fit keeps at least 100 draws). By
        default the square root of the number of items (of the fit with fewest), 5 to 40: a
        draw's histogram of 60 items on 40 bins counts 0, 1 or 2 items a bin, and the band
        over draws is mostly steps and gaps.
    {ci_prob_and_kind}
    {max_draws}
    {random_seed_draws}
    {hdi_prob}

    {returns_ax}
    """
    fits = idata if isinstance(idata, dict) else {idata.attrs.get("item_name", "items"): idata}
    for fit in fits.values():
        check_idata(fit, FAMILY, "plot_difficulty_distribution")
    prob, kind = _intervals.resolve(ci_prob, ci_kind, hdi_prob)
    if bins is None:
        fewest = min(fit.posterior.sizes["item"] for fit in fits.values())
        bins = int(np.clip(np.ceil(np.sqrt(fewest)), 5, 40))
    count(bins, "plot_difficulty_distribution(): bins")
    ax = ensure_axes(ax)
    draws = {name: stacked_draws(fit, "b", max_draws, random_seed) for name, fit in fits.items()}
    moments = {name: [float(m.mean()) for m in moment_draws(fit.posterior["b"])]
               for name, fit in fits.items()}
    pooled = np.concatenate([d.ravel() for d in draws.values()])
    # the outermost 0.1% of many draws would stretch the axis; a few draws keep every item
    many = min(len(d) for d in draws.values()) >= 100  # draws, not values: a MAP has one
    span = np.quantile(pooled, [0.0005, 0.9995]) if many else (pooled.min(), pooled.max())
    edges = np.linspace(*span, bins + 1)
    centres = (edges[:-1] + edges[1:]) / 2
    for name in sorted(draws, key=lambda n: draws[n].mean()):
        b = draws[name]
        density = np.array([np.histogram(row, edges, density=True)[0] for row in b])
        # over every item (difficulty_moments(varied_only=True) leaves out those answered
        # alike, whose b the prior sets: a table beside it may hold those numbers)
        n_items, items = fits[name].posterior.sizes["item"], label_name(fits[name], "item")
        line, = ax.plot(centres, density.mean(axis=0), drawstyle="steps-mid",
                        label=f"{name}: mean {moments[name][0]:.2f}, sd {moments[name][1]:.2f} "
                              f"(all {n_items} {items}s)")
        ax.fill_between(centres, *_intervals.interval(density, prob, kind), step="mid",
                        alpha=0.3, color=line.get_color())
    one_point = max(len(d) for d in draws.values()) == 1  # MAP: no band
    ax.set(xlabel="difficulty b", ylabel="density",
           title="difficulty distribution" + ("" if one_point else
                                              f" ({_intervals.label(prob, kind)} band over draws)"))
    ax.set_ylim(top=ax.get_ylim()[1] * (1 + 0.08 * len(fits)))  # room for a line a fit above
    ax.legend(fontsize="small", loc="upper right")  # the densities (it hid optdigits' peak)
    return ax


@checks_axes
@fill_doc
def plot_characteristic_curves(curves, respondents=None, *, ax=None, n_bins=None, ci_prob=None,
                               ci_kind=None, max_draws=200, random_seed=0, hdi_prob=None):
    """Observed accuracy per difficulty bin (solid, with its band) and the model-implied
    P(correct) (dashed, with interval bars) for the chosen respondents.

    Parameters
    ----------
    curves : pandas.DataFrame or arviz.InferenceData
        A :func:`characteristic_curves` table, or the fit (a one-skill binary IRT fit, as
        :func:`characteristic_curves` takes), whose table is computed here.
    respondents : list, optional
        Respondent labels (or one label) to draw; by default up to six spread by ability.
        Up to 12 are named at their lines' ends.
    {ax}
    n_bins : int, optional
        With a fit: the difficulty bins of its table, by default 5 (one per item where there
        are fewer). With a table: refused unless it is the table's number of bins.
    {plot_ci_prob}
    {plot_ci_kind}
    {plot_max_draws}
    {plot_random_seed}
    {hdi_prob}

    {returns_ax}
    """
    if isinstance(curves, pd.DataFrame):
        ci_prob = _intervals.check_matches(curves, ci_prob, ci_kind, hdi_prob)
        table = curves
        if n_bins is not None and "bin" in table.index.names \
                and n_bins != table.index.get_level_values("bin").nunique():
            raise ValueError(f"n_bins={n_bins}, but this table has "
                             f"{table.index.get_level_values('bin').nunique()} bins: "
                             "characteristic_curves(idata, n_bins=...) makes the table, or "
                             "pass the fit")
    else:  # five bins, or one per item where there are fewer
        check_idata(curves, FAMILY, "plot_characteristic_curves")
        default = min(5, curves.posterior.sizes["item"])
        table = characteristic_curves(curves, n_bins=default if n_bins is None else n_bins,
                                      ci_prob=ci_prob, ci_kind=ci_kind, max_draws=max_draws,
                                      random_seed=random_seed, hdi_prob=hdi_prob)
    check_table(table, ["accuracy", "accuracy_lower", "accuracy_upper", "predicted",
                        "predicted_lower", "predicted_upper"],
                "plot_characteristic_curves", "irteval.characteristic_curves(idata)")
    level = table.index.names[0]
    labels = list(dict.fromkeys(table.index.get_level_values(level)))
    if respondents is None:
        overall = table.groupby(level=level, sort=False)["predicted"].mean()
        respondents = list(overall.sort_values().index[evenly_spaced(len(overall), 6)])
    respondents = chosen_labels(respondents, labels, f"{level} labels")
    ax = ensure_axes(ax)
    ends, colours = [], []
    for r in respondents:
        c = table.loc[r]
        line, = ax.plot(c.index, c["accuracy"], "o-")
        ends.append(c["accuracy"].iloc[-1])
        colours.append(line.get_color())
        ax.fill_between(c.index, c["accuracy_lower"], c["accuracy_upper"], color=line.get_color(),
                        alpha=0.2 if len(respondents) <= 2 else 0.08)  # six at 0.2: a brown mud
        ax.plot(c.index, c["predicted"], "--", color=line.get_color())
        ax.errorbar(c.index + 0.04, c["predicted"], fmt="none", ecolor=line.get_color(),
                    yerr=[c["predicted"] - c["predicted_lower"],
                          c["predicted_upper"] - c["predicted"]], elinewidth=0.8, capsize=2)
    model = table.attrs.get("irteval_model")  # a table read from CSV has none
    model = model.upper() if model else "model"
    point = _intervals.is_point(table[["accuracy_lower", "predicted_lower"]],
                                table[["accuracy_upper", "predicted_upper"]])
    if point:
        notes = (" (one point: no band)", " (one point: no bars)")
    else:
        band = _intervals.table_label(table, ci_prob, ci_kind)  # read from CSV: no attrs
        notes = (f" ({band} band over draws of the bins)", f" ({band} bars)")
    ax.plot([], [], "k-", label="observed" + notes[0])
    ax.plot([], [], "k--", label=f"{model}-implied" + notes[1])
    shown = (f"{len(respondents)} of {len(labels)} {level}s, spread by ability"
             if len(respondents) < len(labels) else f"every {level}")
    named = len(respondents) <= MAX_NAMED
    ax.set(xlabel="difficulty bin (0 = easiest)", ylabel="accuracy",
           title=f"characteristic curves: {shown}"
           + ("" if named else f" (more than {MAX_NAMED}: not named)"),
           xticks=sorted(set(table.index.get_level_values("bin"))))
    ax.legend(fontsize="x-small", loc="best")  # lower left covered the weakest one's line
    if named:  # each at its line's end: a legend of them covered the lines
        label_line_ends(ax, max(table.index.get_level_values("bin")) + 0.06, ends,  # past bars
                        short_labels(respondents), colours)
    return ax


@checks_axes
@fill_doc
def plot_fit(table, *, ax=None, n_labels=8, ci_prob=None, ci_kind=None, max_draws=200,
             random_seed=0):
    """Infit against outfit mean squares: one point per row, misfitting rows (either
    posterior predictive p-value below 0.05) in red with their intervals, the ``n_labels`` of
    smallest p-value among them labelled; dashed lines at 1 (the model's expectation); both
    axes on a log scale.

    Parameters
    ----------
    table : pandas.DataFrame or arviz.InferenceData
        A table of :func:`irteval.item_fit` or :func:`irteval.person_fit`, or a fit (as
        :func:`irteval.item_fit` takes), whose :func:`irteval.item_fit` is computed here.
    {ax}
    n_labels : int, default 8
        Label at most this many misfitting rows, smallest p-value first (0: none).
    {plot_ci_prob}
    {plot_ci_kind}
    {plot_max_draws}
    {plot_random_seed}

    {returns_ax}
    """
    table = table_or_fit(table, lambda fit: item_fit(fit, max_draws=max_draws,
                                                     random_seed=random_seed, ci_prob=ci_prob,
                                                     ci_kind=ci_kind),
                         ["infit", "outfit", "ppp", "misfit", "infit_lower", "infit_upper",
                          "outfit_lower", "outfit_upper"], "plot_fit",
                         "irteval.item_fit(idata) or irteval.person_fit(idata)", ci_prob, ci_kind)
    count(n_labels, "plot_fit(): n_labels", minimum=0)
    ax = ensure_axes(ax)
    # mean squares on log scales: 0.5 and 2 equally far from 1 (set only where not yet: setting
    # it again resets the ticks of an axis shared with another panel)
    if ax.get_xscale() != "log":
        ax.set_xscale("log")
    if ax.get_yscale() != "log":
        ax.set_yscale("log")
    ok, bad = table[~table["misfit"]], table[table["misfit"]]
    ax.scatter(ok["infit"], ok["outfit"], s=8, color="0.55", alpha=0.6,
               label=f"fits ({len(ok)})")
    ax.errorbar(bad["infit"], bad["outfit"],
                xerr=[bad["infit"] - bad["infit_lower"], bad["infit_upper"] - bad["infit"]],
                yerr=[bad["outfit"] - bad["outfit_lower"], bad["outfit_upper"] - bad["outfit"]],
                fmt="o", ms=4, color="tab:red", elinewidth=0.6, alpha=0.8,
                label=f"misfit, posterior predictive p < 0.05 ({len(bad)}"
                      + (f"; the {n_labels} of smallest p labelled)" if len(bad) > n_labels
                         else ")"))
    ax.axvline(1, color="k", ls="--", lw=0.7)
    ax.axhline(1, color="k", ls="--", lw=0.7)
    what = table.index.name or table.attrs.get("fit_of", "row")
    ax.set(xlabel="infit mean square (log scale)", ylabel="outfit mean square (log scale)",
           title=f"{what} fit ({_intervals.table_label(table, ci_prob, ci_kind)} bars on the "
                 "misfits)")
    # smallest p (ppp, or ppp_groups where the table has it) first; among equal p (often 0),
    # the furthest from 1 on the log scale
    rank = pd.DataFrame({"p": bad.filter(like="ppp").min(axis=1),
                         "near": -(np.abs(np.log(bad["infit"])) + np.abs(np.log(bad["outfit"])))})
    worst = bad.loc[rank.sort_values(["p", "near"]).index[:n_labels]]
    _mean_square_ticks(ax)  # from the data's range, before the labels' column widens it
    if len(worst):  # the labels' column right of every point and bar
        label_points(ax, worst["infit"], worst["outfit"], short_labels(worst.index),
                     clear=(min(table["infit"].min(), bad["infit_lower"].min(), 0.95),
                            max(table["infit"].max(), bad["infit_upper"].max())))
    # lower right: the points lie along the diagonal (outfit follows infit, and an item whose
    # outfit is far below its infit is rare); "best" chose the top, over the worst misfits
    ax.legend(fontsize="small", loc="lower right")
    return ax


def _mean_square_ticks(ax):
    """Ticks at 1/4, 1/2, 1, 2, 4 ... written plainly (1/64, not 0.015625); where an axis holds
    fewer than three of them (where nothing misfits, often 0.7 to 1.3), at 0.6, 0.7, ... 1.5
    too: it showed the one tick at 1."""
    for axis, limits in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
        if np.floor(np.log2(limits[1])) - np.ceil(np.log2(limits[0])) < 2:  # < 3 powers of 2
            set_major_locator(axis, FixedLocator([0.25, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.2,
                                                  1.35, 1.5, 2, 3, 4]))
        else:  # (a shared axis keeps the bound of another panel's labels)
            set_major_locator(axis, LogLocator(base=2))
        axis.set_major_formatter(FuncFormatter(  # 1/2, but 0.6
            lambda v, _: f"1/{round(1 / v)}" if 0 < v < 1 and np.isclose(1 / v, round(1 / v))
            else f"{v:g}"))
        axis.set_minor_formatter(NullFormatter())


@checks_axes
@fill_doc
def plot_information(table, *, ax=None, ci_prob=None, ci_kind=None, max_draws=200,
                     random_seed=0):
    """Information curves: the test curve (left axis) and any item curves (right axis), each
    with its band.

    Parameters
    ----------
    table : pandas.DataFrame or arviz.InferenceData
        A table of :func:`irteval.information`, or a fit (as :func:`irteval.information`
        takes), whose test information is computed here.
    {ax}
    {plot_ci_prob}
    {plot_ci_kind}
    {plot_max_draws}
    {plot_random_seed}

    {returns_ax}
    """
    table = table_or_fit(table, lambda fit: information(fit, max_draws=max_draws,
                                                        random_seed=random_seed,
                                                        ci_prob=ci_prob, ci_kind=ci_kind),
                         ["mean"], "plot_information", "irteval.information(idata)", ci_prob,
                         ci_kind)
    if "curve" not in table.index.names:
        raise ValueError("plot_information takes the result of irteval.information(idata), "
                         f"or the fit; this table's index levels are {table.index.names}, "
                         "not (curve, theta)")
    ax = ensure_axes(ax)
    kind = _intervals.table_kind(table, ci_kind)
    curves = table.index.get_level_values("curve").unique()
    items_ax = ax.twinx() if len(curves) > 1 else None
    for name in curves:
        rows = table.xs(name, level="curve")
        target = ax if name == TEST else items_ax
        style = {"color": "k", "lw": 2} if name == TEST else {}
        label = (f"{name} information" if name == TEST
                 else f"{table.attrs.get('item_name', 'item')} {name}")
        line, = target.plot(rows.index, rows["mean"], label=label, **style)
        target.fill_between(rows.index, rows[f"{kind}_lower"], rows[f"{kind}_upper"],
                            color=line.get_color(), alpha=0.2)
    ax.set(xlabel="ability theta", ylabel="test information",
           title="information" + _intervals.note(
               _intervals.table_label(table, ci_prob, kind),
               _intervals.is_point(table[f"{kind}_lower"], table[f"{kind}_upper"])))
    if items_ax is not None:
        items_ax.set_ylabel("item information")
        lines = ax.get_lines() + items_ax.get_lines()
        ax.legend(lines, [line.get_label() for line in lines], fontsize="small")
    return ax


@checks_axes
@fill_doc
def plot_adaptive(trajectory, *, truth=None, ax=None):
    """An adaptive test's path: the posterior mean of the new model's full-benchmark accuracy
    after each answer, its interval as a band, and the stop width in the title.

    Parameters
    ----------
    trajectory : pandas.DataFrame
        The trajectory :func:`irteval.adaptive_test` returns (its first value).
    truth : float, optional
        The model's accuracy on every item, where known (a held-out check): a dashed line.
    {ax}

    {returns_ax}
    """
    if not (isinstance(trajectory, pd.DataFrame) and trajectory.index.name == "step"
            and {"mean", "width"} <= set(trajectory.columns)):
        raise ValueError("plot_adaptive takes the result of irteval.adaptive_test, its "
                         "trajectory (trajectory, score = ie.adaptive_test(...)), got "
                        + (f"a table with columns {list(trajectory.columns)[:6]}"
                           if isinstance(trajectory, pd.DataFrame)
                           else f"a {type(trajectory).__name__}"))
    if trajectory.empty:
        raise ValueError("plot_adaptive: the trajectory has no step")
    if truth is not None and not (isinstance(truth, numbers.Real) and 0 <= truth <= 1):
        raise ValueError(f"truth={truth!r}: give the model's true accuracy, a number in [0, 1]")
    ax = ensure_axes(ax)
    kind = _intervals.table_kind(trajectory)
    steps = trajectory.index
    ax.fill_between(steps, trajectory[f"{kind}_lower"], trajectory[f"{kind}_upper"], alpha=0.3,
                    label=_intervals.table_label(trajectory))
    ax.plot(steps, trajectory["mean"], label="posterior mean")
    if truth is not None:
        ax.axhline(truth, color="k", ls="--", label="true accuracy")
    stop = trajectory.attrs.get("stop_width")
    last = trajectory["width"].iloc[-1]
    width = (f"interval under {stop:g} wide" if stop and last < stop else
             f"interval {last:.3g} wide" + (f", not under {stop:g}" if stop else ""))
    items = f"{trajectory.attrs.get('item_name') or 'item'}s"
    ax.set(xlabel=f"{items} asked", ylabel=f"accuracy on all {items}",
           title=f"adaptive test: {steps[-1]} {items} asked, {width}")
    ax.legend(fontsize="small")
    return ax
