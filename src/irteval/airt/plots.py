"""Matplotlib plots of the AIRT analysis (paper 3); each takes ``ax=``/``axes=`` and returns it."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.cm import ScalarMappable
from matplotlib.colors import LinearSegmentedColormap, Normalize, PowerNorm, to_rgb
from matplotlib.lines import Line2D
from scipy.integrate import trapezoid

from .. import _intervals
from .._compat import renamed
from .._docs import fill_doc, panel_labels
from .._draws import stacked_draws
from .._fits import check_idata, check_table
from .._validation import chosen_labels, count, fixed_seed
from ..data.levels import level_labels
from ..models.continuous_irt import cell_logp, mean_z
from ..models.polytomous_irt import category_logp
from ..plotting import (HIGHLIGHT, checks_axes, ensure_axes, given_axes, label_figure,
                        label_line_ends, label_points, ordered_colours, panel_axes, panels, short,
                        short_labels)
from .goodness import curves_from, effectiveness
from .latent_trait import LatentTrait, as_latent_trait
from .metrics import AIRT_FAMILIES

#: docstring entries of the AIRT plots
AIRT_PLOT_DOCS = {
    "panel_algorithms": panel_labels("algorithms", "algorithm"),
    "items": """\
items : list, optional
    The old name of ``algorithms``: still taken, with a ``FutureWarning``.""",
    "n": """\
n : int, optional
    The old name of ``n_grid``: still taken, with a ``FutureWarning``.""",
    "theta_range": """\
theta_range : tuple of float, default (-3, 3)
    The range of theta (dataset easiness) on the x axis.""",
    "lt": """\
lt : LatentTrait or arviz.InferenceData
    The result of :func:`latent_trait`, or the fit (continuous or polytomous IRT), whose
    :func:`latent_trait` is then computed with its defaults.""",
    "curves": """\
curves : xarray.Dataset or arviz.InferenceData
    The :func:`airt_curves` of a fit, or the fit itself: a fit of the continuous or the
    polytomous IRT (:func:`irteval.fit` of :func:`irteval.models.continuous_irt` or
    :func:`irteval.models.polytomous_irt`), whose curves are then computed with
    ``max_draws`` and ``random_seed`` (unused for a Dataset).""",
    "highlight": """\
highlight : int, default 5
    How many algorithms (>= 0) to draw in colour.""",
}


#: the x label of the panels over theta (the latent trait's plots are over difficulty, -theta)
EASINESS = "theta (dataset easiness; difficulty is -theta)"


def _checked_range(theta_range):
    """``theta_range`` as (low, high), finite with low < high, or an error naming it."""
    try:
        low, high = (float(x) for x in theta_range)
    except (TypeError, ValueError):
        raise TypeError(f"theta_range= takes (low, high), e.g. (-3, 3); got {theta_range!r}") \
            from None
    if not (np.isfinite([low, high]).all() and low < high):
        raise ValueError(f"theta_range={theta_range!r}: give finite (low, high) with low < high")
    return low, high


@checks_axes
@fill_doc(**AIRT_PLOT_DOCS)
def plot_crm_heatmap(idata, algorithms=None, *, axes=None, theta_range=(-3, 3), n_grid=121,
                     ax=None, n=None):
    """The continuous response model's density f(z | theta) = Normal(z; gamma (theta - beta),
    |gamma / alpha|) per algorithm at the posterior means (the paper's Fig. 10): a
    discriminating algorithm is a narrow rising band, an anomalous one falls, a
    non-discriminating one is flat and wide.

    Parameters
    ----------
    idata : arviz.InferenceData
        A fit of the continuous IRT (:func:`irteval.fit` of
        :func:`irteval.models.continuous_irt`); a fit of another family, the polytomous IRT
        included, is refused.
    {panel_algorithms}
    axes, ax : matplotlib.axes.Axes or array of them, optional
        One Axes per algorithm (``ax=`` is ArviZ's name for it: give one of the two), the
        labels then on them, the user's figure title kept; ``None``: a new grid of panels.
    {theta_range}
    n_grid : int, default 121
        Grid points along theta and along z.
    {n}

    {returns_panels}
    """
    check_idata(idata, "continuous_irt", "plot_crm_heatmap",
                instead={"polytomous_irt": "plot_category_curves"})
    n = count(renamed(n_grid, n, "n", "n_grid", default=121), "n_grid", minimum=2)
    post = idata.posterior
    names = _chosen(post, algorithms)
    tau, lam, s = (post[v].mean(("chain", "draw")).sel(item=names).values
                   for v in ("tau", "lam", "s"))
    z_obs = idata.observed_data["z"].values
    theta = np.linspace(*_checked_range(theta_range), n)
    z = np.linspace(np.nanmin(z_obs) - 1, np.nanmax(z_obs) + 1, n)  # NaN: missing
    axes = given_axes(ax, axes)
    own = axes is None
    if own:
        axes = panels(len(names), width=3, sharex=True, sharey=True)
    flat = panel_axes(axes, len(names), "algorithms")
    means = mean_z(tau, lam, theta)  # (theta, algorithm)
    densities = [np.exp(cell_logp(z[:, None], mean[None, :], sd)) for mean, sd in zip(means.T, s)]
    top = max(d.max() for d in densities)  # one colour scale for every panel
    for ax, name, density in zip(flat, names, densities):
        image = ax.imshow(density, origin="lower", aspect="auto", cmap="plasma",
                          norm=PowerNorm(0.5, vmin=0, vmax=top),
                          extent=(theta[0], theta[-1], z[0], z[-1]))
        ax.set_title(short(name), fontsize="small")
    label_figure(flat[:len(names)], own, xlabel=EASINESS,
                 ylabel="z (logit of the scaled performance)",
                 title="continuous response model at the posterior means")
    flat[0].figure.colorbar(image, ax=list(flat[:len(names)]),
                            label="density f(z | theta), sqrt scale", shrink=0.8)
    return axes


def _chosen(post, algorithms):
    """The algorithms to draw (all when None), refusing unknown or repeated labels."""
    return chosen_labels(algorithms, post["item"].values, "algorithms")


@checks_axes
@fill_doc(**AIRT_PLOT_DOCS)
def plot_category_curves(idata, algorithms=None, *, axes=None, theta_range=(-3, 3),
                         n_grid=121, ci_prob=None, ci_kind=None, max_draws=1000,
                         random_seed=0, ax=None, items=None, n=None):
    """Category response curves of the polytomous IRT, P(x_ij = k | theta) per algorithm:
    posterior mean over ``max_draws`` draws with its interval band (an HDI: of the log-odds,
    mapped back, as for :func:`irteval.plot_item_characteristic`), one colour per level (the
    user's labels, light = low, dark = high). An anomalous algorithm (a < 0) reaches its top
    level on the hardest datasets. 1000 draws by default: with 200 the bands' edges were
    ragged (the draws that set them change from one grid point to the next).

    Parameters
    ----------
    idata : arviz.InferenceData
        A fit of the polytomous IRT (:func:`irteval.fit` of
        :func:`irteval.models.polytomous_irt`); a fit of another family is refused.
    {panel_algorithms}
    axes, ax : matplotlib.axes.Axes or array of them, optional
        One Axes per algorithm (``ax=`` is ArviZ's name for it: give one of the two), the
        labels and the legend then on them, the user's figure title kept; ``None``: a new
        grid of panels.
    {theta_range}
    n_grid : int, default 121
        Grid points along theta.
    {ci_prob_and_kind}
    {max_draws}
    {random_seed}
    {items}
    {n}

    {returns_panels}
    """
    check_idata(idata, "polytomous_irt", "plot_category_curves",
                instead={"continuous_irt": "plot_crm_heatmap"})
    algorithms = renamed(algorithms, items, "items", "algorithms")
    n = count(renamed(n_grid, n, "n", "n_grid", default=121), "n_grid", minimum=2)
    prob, kind = _intervals.resolve(ci_prob, ci_kind)
    post, const = idata.posterior, idata.constant_data
    names = _chosen(post, algorithms)
    where = [list(post["item"].values).index(name) for name in names]
    random_seed = fixed_seed(random_seed)  # a and c from the same draws
    a, c = (stacked_draws(idata, v, max_draws, random_seed)[:, where] for v in ("a", "c"))
    low = const["lowest_level"].values[where]
    high = const["highest_level"].values[where]
    valid = np.arange(c.shape[-1] + 1)[None, :] <= (high - low)[:, None]
    theta = np.linspace(*_checked_range(theta_range), n)

    def curves(j):
        """(mean, lower, upper) of algorithm j's P(level), each (n, K): one algorithm at a
        time, as 1000 draws of every algorithm's curves took ~300 MB at 59 algorithms."""
        probs = np.exp(category_logp(np.broadcast_to(theta, (len(a), n)), a[:, j:j + 1],
                                     c[:, j:j + 1], valid[j:j + 1],
                                     idata.attrs["irteval_model"], xp=np))[:, :, 0]
        return (probs.mean(axis=0), *_intervals.probability_interval(probs, prob, kind))

    levels = list(idata.attrs["levels"])
    names_of_levels = level_labels(levels, idata.attrs.get("level_lower"),
                                   idata.attrs.get("level_upper"))
    colours = ordered_colours(len(levels))[::-1]  # the top level darkest
    axes = given_axes(ax, axes)
    own = axes is None
    if own:
        axes = panels(len(names), width=3, sharex=True, sharey=True)
    flat = panel_axes(axes, len(names), "algorithms")
    for j, (ax, name) in enumerate(zip(flat, names)):
        mean, lower, upper = curves(j)
        for k in range(high[j] - low[j] + 1):
            code = low[j] + k
            ax.fill_between(theta, lower[:, k], upper[:, k], color=colours[code], alpha=0.25,
                            lw=0)
            ax.plot(theta, mean[:, k], color=colours[code], lw=1.6, label=f"{levels[code]:g}")
        ax.set_title(short(name), fontsize="small")
        ax.set_ylim(-0.02, 1.02)
    bands = f"{_intervals.label(prob, kind)} bands{_intervals.log_odds_scale(kind)}"
    label_figure(flat[:len(names)], own, xlabel=EASINESS,
                 ylabel="P(level | theta)", title=f"category response curves ({bands})")
    handles = [_line_handle(colour) for colour in colours]
    if own:
        flat[0].figure.legend(handles, names_of_levels, title="level",
                              loc="outside right", fontsize="small")
    else:  # in the user's figure: on the first panel, with what the bands are
        flat[0].legend(handles, names_of_levels, title=f"level ({bands})",
                       fontsize="x-small", title_fontsize="x-small")
    return axes


def _line_handle(colour):
    """A legend handle: a line of ``colour``."""
    return Line2D([], [], color=colour, lw=2)


def _colours(highlight, names):
    """A colour for each of ``highlight``, by its place among all ``names`` (the data's
    algorithms), the next free one where two would share it: an algorithm keeps its colour
    from one plot to the next (by rank, green was Chuffed-free in one and MZN/Gurobi-free in
    the next)."""
    taken, out = set(), []
    for name in highlight:
        k = names.index(name)
        while k % len(HIGHLIGHT) in taken and len(taken) < len(HIGHLIGHT):
            k += 1
        taken.add(k % len(HIGHLIGHT))
        out.append(HIGHLIGHT[k % len(HIGHLIGHT)])
    return out


def _draw_highlighted(ax, x, curves, highlight, *, lower=None, upper=None, ylim=(0, 1),
                      legend=None):
    """``curves`` (DataFrame: x by series): the ``highlight`` series in colour with their
    bands, the others thin and grey, all clipped to ``ylim``. The highlighted series (and up
    to five grey ones, in grey) are labelled at their right ends, or the highlighted ones with
    ``legend`` (its title) in a legend in their order: curves that all end at 1 (shares of
    datasets) would get a pile of labels there."""
    others = [name for name in curves.columns if name not in highlight]
    for name in others:
        ax.plot(x, np.clip(curves[name], *ylim), color="0.75", lw=0.8, zorder=1)
    colours = _colours(highlight, list(curves.columns))
    for name, label, colour in zip(highlight, short_labels(highlight), colours):
        ax.plot(x, np.clip(curves[name], *ylim), color=colour, lw=2, zorder=3, label=label)
        if lower is not None:
            ax.fill_between(x, np.clip(lower[name], *ylim), np.clip(upper[name], *ylim),
                            color=colour, alpha=0.2, lw=0, zorder=2)
    ax.set_ylim(ylim[0] - 0.02 * (ylim[1] - ylim[0]), ylim[1] + 0.02 * (ylim[1] - ylim[0]))
    if legend is not None:
        if highlight:
            ax.legend(title=legend, loc="best", fontsize="small",
                      title_fontsize="small")
        return
    named = list(highlight) + (others if len(others) <= 5 else [])  # a few grey ones too
    label_line_ends(ax, x[-1], [np.clip(curves[n].iloc[-1], *ylim) for n in named],
                    short_labels(named), colours + ["0.5"] * (len(named) - len(highlight)))


@checks_axes
@fill_doc(**AIRT_PLOT_DOCS)
def plot_latent_trait(lt: LatentTrait, *, ax=None, algorithms=None):
    """Smoothed performance of each algorithm over the dataset-difficulty spectrum (the
    paper's Fig. 14): the portfolio members (P(in portfolio) > 0.5, as
    :func:`portfolio`; or ``algorithms``) in colour with the
    band of the curve over posterior draws of the spectrum, the others grey; datasets as a
    rug. Curves are clipped to the range of the observed performance. A line is the spline
    on the posterior-mean spectrum (airt's curve); where the spectrum is uncertain (the
    polytomous IRT) the splines of the draws are flatter, and the line can leave its band.

    Parameters
    ----------
    {lt}
    {ax}
    algorithms : list, optional
        Labels of the algorithms to draw in colour (one label alone is taken too); ``None``:
        the portfolio members.

    {returns_ax}
    """
    lt = as_latent_trait(lt, "plot_latent_trait")
    ax = ensure_axes(ax)
    occ = lt.occupancy.sort_values(["p_strength", "lto_mean"], ascending=False)
    highlight = (list(occ.index[occ["p_strength"] > 0.5]) if algorithms is None
                 else chosen_labels(algorithms, lt.smoothed.columns, "algorithms"))
    chosen = "in the portfolio" if algorithms is None else "chosen"
    _draw_highlighted(ax, lt.smoothed.index.to_numpy(), lt.smoothed, highlight,
                      lower=lt.smoothed_lower, upper=lt.smoothed_upper,
                      ylim=lt.performance_range)
    ax.plot(lt.spectrum["mean"], np.full(len(lt.spectrum), ax.get_ylim()[0]), "|",
            color="k", alpha=0.4)
    value = lt.smoothed.attrs.get("value", "performance")  # "level": the polytomous IRT
    ax.set(xlabel="dataset difficulty (-theta)", ylabel=f"{value} (smoothed)")
    band = _intervals.table_label(lt.occupancy)
    others = ", the others grey" if len(highlight) < lt.smoothed.shape[1] else ""
    # the lines are airt's (the posterior-mean spectrum); where the spectrum is uncertain the
    # per-draw splines are flatter, and a line can leave its band
    ax.set_title(f"{value} over the difficulty spectrum\n{len(highlight)} {chosen} in "
                 f"colour{others}\nlines: posterior-mean spectrum (airt's); bands: {band}",
                 fontsize="medium")
    return ax


@checks_axes
@fill_doc(**AIRT_PLOT_DOCS)
def plot_strengths(lt: LatentTrait, *, ax=None):
    """Where on the difficulty spectrum each algorithm is strong (blue: within epsilon of the
    best) or weak (orange: within epsilon of the worst) — the paper's Fig. 15 — shaded by the
    share of posterior draws in which it is (pale: seldom; grey: never either; a colour bar
    beside ``ax`` keys the shades).

    Parameters
    ----------
    {lt}
    {ax}

    {returns_ax}
    """
    lt = as_latent_trait(lt, "plot_strengths")
    ax = ensure_axes(ax)
    names = list(lt.smoothed.columns)
    grid = lt.smoothed.index.to_numpy()
    strong, weak = (share.to_numpy().T[..., None] for share in (lt.p_strong, lt.p_weak))
    blue, orange, grey = (np.array(to_rgb(c)) for c in ("tab:blue", "tab:orange", "0.92"))
    either = np.maximum(strong + weak, 1.0)  # both only where every curve is within epsilon
    colour = (strong * blue + weak * orange) / either + np.clip(1 - strong - weak, 0, 1) * grey
    step = grid[1] - grid[0]
    ax.imshow(colour, aspect="auto", interpolation="nearest",
              extent=(grid[0] - step / 2, grid[-1] + step / 2, len(names) - 0.5, -0.5))
    ax.set_yticks(np.arange(len(names)), short_labels(names), fontsize="x-small")
    # the key: one bar from weak in every draw (-1) through none (0) to strong in every draw
    key = ax.figure.colorbar(ScalarMappable(Normalize(-1, 1), LinearSegmentedColormap.from_list(
        "weak_strong", [orange, grey, blue])), ax=ax, fraction=0.04, pad=0.02, aspect=25)
    key.set_ticks([-1, -0.5, 0, 0.5, 1], labels=["1 weak", "0.5", "0", "0.5", "1 strong"],
                  fontsize="x-small")
    key.set_label("share of posterior draws", fontsize="x-small")
    ax.set(xlabel="dataset difficulty (-theta)",
           title=f"strengths (blue) and weaknesses (orange): within epsilon = {lt.epsilon:g}\n"
                 "of the best / worst, shaded by the share of posterior draws (grey: none)")
    ax.title.set_fontsize("medium")
    return ax


def _summary_curves(draws, prob, kind):
    """Mean and interval over ``sample`` of a (sample, item, threshold) DataArray, as
    threshold x item frames."""
    frame = lambda v: pd.DataFrame(v.T, index=draws["threshold"].values,  # noqa: E731
                                   columns=draws["item"].values)
    lower, upper = _intervals.interval(draws.transpose("sample", "item", "threshold").values,
                                       prob, kind)
    return frame(draws.mean("sample").values), frame(lower), frame(upper)


@checks_axes
@fill_doc(**AIRT_PLOT_DOCS)
def plot_goodness(curves, *, ax=None, highlight=5, ci_prob=None, ci_kind=None, max_draws=200,
                  random_seed=0):
    """ECDF of the absolute scaled residuals per algorithm (the paper's Fig. 16), posterior
    mean curves; the area under each is its AUCDF (1 = perfect). The ``highlight``
    algorithms the model describes worst (lowest AUCDF) are drawn in colour with bands over the
    draws, the others grey.

    Parameters
    ----------
    {curves}
    {ax}
    {highlight}
    {ci_prob_and_kind}
    {max_draws}
    {random_seed}

    {returns_ax}
    """
    prob, kind = _intervals.resolve(ci_prob, ci_kind)
    count(highlight, "plot_goodness(): highlight", minimum=0)
    curves = curves_from(curves, max_draws, random_seed, "plot_goodness")
    mean, lower, upper = _summary_curves(curves["cdf"], prob, kind)
    worst = list(pd.Series(trapezoid(mean.to_numpy(), mean.index, axis=0),
                           index=mean.columns).nsmallest(highlight).index)
    ax = ensure_axes(ax)
    x = mean.index.to_numpy()
    _draw_highlighted(ax, x, mean, worst, lower=lower, upper=upper, legend="worst first")
    levels = curves.attrs.get("units") == "levels"
    ax.set(xlabel="levels off, as a share x of the steps between the levels"
           if levels else "absolute scaled residual x",
           ylabel="share of datasets with |residual| <= x")
    reached = np.minimum(mean.min(axis=1), lower.min(axis=1)).to_numpy() >= 0.999
    cut = ""
    if not levels and reached.any() and x[reached.argmax()] < 0.5:  # the rest is flat at 1
        first = x[reached.argmax()]
        ax.set_xlim(-0.02 * first, 1.25 * first)
        cut = f"\nevery curve is 1 from x = {first:.2g} to 1 (not shown)"
    ax.set_title(f"model goodness (area under the curve from 0 to 1: AUCDF)\nthe {len(worst)} "
                 f"worst described in colour ({_intervals.label(prob, kind)} bands), the others "
                 f"grey{cut}", fontsize="medium")
    return ax


@checks_axes
@fill_doc(**AIRT_PLOT_DOCS)
def plot_effectiveness(curves, *, ax=None, kind="actual", highlight=5, ci_prob=None,
                       ci_kind=None, max_draws=200, random_seed=0):
    """Effectiveness curves (the paper's Fig. 18): share of datasets on which an algorithm's
    ``kind`` ("actual" or "predicted") scaled performance is >= 1 - tolerance. The
    ``highlight`` most effective algorithms (largest area) in colour — predicted
    curves with bands over the draws — the others grey.

    Parameters
    ----------
    {curves}
    {ax}
    kind : {"actual", "predicted"}, default "actual"
        Which curves: the data's (no bands) or the model's (posterior mean with bands).
    {highlight}
    {ci_prob_and_kind}
    {max_draws}
    {random_seed}

    {returns_ax}
    """
    if kind not in ("actual", "predicted"):
        raise ValueError(f"kind must be 'actual' or 'predicted', got {kind!r}")
    prob, interval_kind = _intervals.resolve(ci_prob, ci_kind)
    count(highlight, "plot_effectiveness(): highlight", minimum=0)
    curves = curves_from(curves, max_draws, random_seed, "plot_effectiveness")
    if kind == "actual":
        mean = pd.DataFrame(curves["aec"].values.T, index=curves["threshold"].values,
                            columns=curves["item"].values)
        lower = upper = None
    else:
        mean, lower, upper = _summary_curves(curves["pec"], prob, interval_kind)
    best = list(pd.Series(trapezoid(mean.to_numpy(), mean.index, axis=0),
                          index=mean.columns).nlargest(highlight).index)
    ax = ensure_axes(ax)
    _draw_highlighted(ax, mean.index.to_numpy(), mean, best, lower=lower, upper=upper,
                      legend="most effective first")
    bands = "" if kind == "actual" else f" ({_intervals.label(prob, interval_kind)} bands)"
    ax.set(xlabel="effectiveness tolerance", ylabel=f"{kind} effectiveness")
    ax.set_title(f"{kind} effectiveness\nthe {len(best)} most effective in colour{bands}, the "
                 "others grey", fontsize="medium")
    return ax


@checks_axes
@fill_doc(**AIRT_PLOT_DOCS)
def plot_auaec_aupec(table, *, ax=None, ci_prob=None, ci_kind=None, max_draws=200,
                     random_seed=0, hdi_prob=None, n_labels=10):
    """AUAEC (actual) against AUPEC (predicted) per algorithm with the posterior interval of
    AUPEC; on the diagonal the model predicts the algorithm's effectiveness exactly. The
    ``n_labels`` most effective (largest AUAEC) are labelled; the rest are in the table.

    Parameters
    ----------
    table : pandas.DataFrame, xarray.Dataset or arviz.InferenceData
        An :func:`effectiveness` table (``ci_prob``/``ci_kind`` that contradict its own are
        refused: recompute it instead), or :func:`airt_curves`, or the fit itself: a fit of
        the continuous or the polytomous IRT (:func:`irteval.fit` of
        :func:`irteval.models.continuous_irt` or :func:`irteval.models.polytomous_irt`). From
        the curves or the fit, :func:`effectiveness` is computed here (``max_draws`` and
        ``random_seed`` are used for a fit only).
    {ax}
    {ci_prob_and_kind}
    {max_draws}
    {random_seed}
    {hdi_prob}
    n_labels : int, default 10
        How many algorithms (the largest AUAEC) to label.

    {returns_ax}
    """
    count(n_labels, "n_labels", minimum=0)
    if isinstance(table, pd.DataFrame):
        check_table(table, ["auaec", "aupec", "aupec_lower", "aupec_upper"],
                    "plot_auaec_aupec", "irteval.effectiveness(idata)")
        ci_prob = _intervals.check_matches(table, ci_prob, ci_kind, hdi_prob)
    else:
        if hasattr(table, "posterior"):  # the error names the plot, not effectiveness
            check_idata(table, AIRT_FAMILIES, "plot_auaec_aupec")
        table = effectiveness(table, ci_prob=ci_prob, ci_kind=ci_kind, max_draws=max_draws,
                              random_seed=random_seed, hdi_prob=hdi_prob)
    ax = ensure_axes(ax)
    # a mean can lie outside an equal-tailed interval of a lumpy distribution: clip at 0
    yerr = np.maximum(0, [table["aupec"] - table["aupec_lower"],
                          table["aupec_upper"] - table["aupec"]])
    ax.errorbar(table["auaec"], table["aupec"], yerr=yerr, fmt="o", ms=4, capsize=2)
    # the diagonal and the y axis over one range around the data; the x axis runs on to the
    # right, where label_points puts the labels clear of it
    low = min(table["auaec"].min(), table["aupec_lower"].min())
    high = max(table["auaec"].max(), table["aupec_upper"].max())
    low, top = max(0.0, low - 0.05 * (high - low)), high + 0.05 * (high - low)
    ax.plot([low, top], [low, top], ":", color="grey", label="predicted = actual")
    shown = table.nlargest(n_labels, "auaec")
    ax.set(ylim=(low, top), xlabel="AUAEC (actual)", ylabel="AUPEC (predicted)",
           title="effectiveness: actual vs predicted "
                 f"({_intervals.table_label(table, ci_prob, ci_kind)} of AUPEC)")
    if len(shown) < len(table):
        ax.plot([], [], " ", label=f"labelled: the {len(shown)} largest AUAEC of {len(table)}")
    ax.legend(fontsize="small", loc="upper left")
    label_points(ax, shown["auaec"], shown["aupec"], short_labels(shown.index), clear=(low, top))
    return ax
