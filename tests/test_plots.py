"""What readers see: figures the plots make keep their labels, a fit of one point (MAP) is
not drawn or titled as if it had intervals, and crowded labels stay readable."""

import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import irteval as ie  # noqa: E402
from irteval import _intervals, plotting  # noqa: E402
from .conftest import quiet_fit  # noqa: E402


@pytest.fixture(scope="module")
def responses():
    rng = np.random.default_rng(0)
    p = 1 / (1 + np.exp(-(rng.normal(size=(1, 16)) - rng.normal(size=(30, 1)))))
    wide = pd.DataFrame((rng.random((30, 16)) < p).astype(float),
                        index=[f"i{k}" for k in range(30)], columns=[f"m{k}" for k in range(16)])
    return ie.Responses.from_wide(wide, rows="item")


@pytest.fixture(scope="module")
def map_fits(responses):
    onepl = ie.fit(ie.models.onepl(responses), method="map", random_seed=0)
    board = ie.fit(ie.models.bradley_terry(ie.datasets.load_vtab()), method="map",
                   random_seed=0)
    return onepl, board


def test_figures_the_plots_make_lay_out_their_labels():
    """A saved figure cut off long player names (no layout engine)."""
    ax = plotting.ensure_axes(None, rows=30)
    assert type(ax.figure.get_layout_engine()).__name__ == "ConstrainedLayoutEngine"
    plt.close("all")


@pytest.mark.filterwarnings("ignore:.*this fit is one point")
def test_a_fit_of_one_point_is_not_titled_with_intervals(map_fits):
    onepl, board = map_fits
    with pytest.warns(UserWarning, match=r"plot_item_characteristic\(\): this fit is one point"):
        ax = ie.plot_item_characteristic(onepl)
    assert ax.get_title() == "item characteristic curves (one point: no band)"
    assert ie.plot_information(onepl).get_title() == "information (one point: no band)"
    legend = [t.get_text() for t in ie.plot_characteristic_curves(onepl).get_legend().get_texts()]
    assert legend == ["observed (one point: no band)", "1PL-implied (one point: no bars)"]
    assert ie.plot_leaderboard(board).get_xlabel() == "EPP (one point: no interval)"
    ax = ie.plot_win_calibration(board)
    assert ax.get_title() == "calibration (one point: no posterior predictive check)"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["observed (size: matches)"]
    plt.close("all")


def test_row_labels_fit_the_axes_they_are_on():
    """Past 40 rows the labels were xx-small whatever the Axes: tiny on a tall one, on top of
    each other on a short one."""
    from matplotlib.font_manager import FontProperties

    small = FontProperties(size="small").get_size_in_points()
    short_ax = plt.subplots(figsize=(4, 3))[1]
    tall_ax = plt.subplots(figsize=(4, 14))[1]
    assert plotting.row_fontsize(short_ax, 5) == small  # room: the base size
    assert plotting.row_fontsize(short_ax, 80) == 4.0 < plotting.row_fontsize(tall_ax, 80) < small
    assert plotting.row_fontsize(short_ax, 40, axis="x") > plotting.row_fontsize(short_ax, 40)
    plt.close("all")


def test_crowded_labels_are_thinned_and_named_at_line_ends(responses, map_fits):
    """80 labels on a small Axes ran off it; the characteristic curves' legend of every
    respondent covered the lines."""
    fig, ax = plt.subplots(figsize=(4, 3))
    x = np.arange(80.0)
    shown = plotting.label_points(ax, x, x, [f"p{k}" for k in range(80)])
    assert 5 < shown < 80 and len(ax.texts) == shown
    assert {"p0", "p79"} <= {t.get_text() for t in ax.texts}  # both ends
    # no ticks over the labels' column, where AUAEC (at most 1) read 1.1
    assert ax.get_xlim()[1] > 100 and max(ax.get_xticks()) <= 79 * 1.05
    plotting.label_points(ax, x + 100, x, ["q"] * 80)  # again, further right: ticks there
    assert max(ax.get_xticks()) >= 160
    plt.close(fig)
    onepl, _ = map_fits
    with pytest.warns(UserWarning, match="one point"):
        table = ie.characteristic_curves(onepl, n_bins=3)
    ax = ie.plot_characteristic_curves(table, respondents=["m0", "m3"])
    assert sorted(t.get_text() for t in ax.texts) == ["m0", "m3"]
    ax = ie.plot_characteristic_curves(table, respondents=list(responses.respondents))
    assert not ax.texts and "more than 12: not named" in ax.get_title()
    table.attrs = {}  # as read from a CSV file: which model made it is not known
    legend = ie.plot_characteristic_curves(table).get_legend().get_texts()
    assert legend[1].get_text() == "model-implied (one point: no bars)"  # was "MODEL-implied"
    plt.close("all")


def test_tick_labels_panels_and_colours():
    fig, ax = plt.subplots()
    values = [0.02, 1.0, 3.0]
    table = pd.DataFrame({"infit": values, "outfit": values, "ppp": [0.5] * 3,
                          "misfit": [False] * 3, "infit_lower": values, "infit_upper": values,
                          "outfit_lower": values, "outfit_upper": values},
                         index=pd.Index(["a", "b", "c"], name="item"))
    with pytest.raises(ValueError, match="outfit_upper"):
        ie.plot_fit(table.drop(columns="outfit_upper"), ax=ax)
    table.attrs.update(ci_prob=0.94, ci_kind="hdi")
    ie.plot_fit(table, ax=ax)
    assert ax.yaxis.get_major_formatter()(0.25, 0) == "1/4"  # not 0.25 or 0.015625
    grid = plotting.panels(5, cols=3)
    assert grid[0, 2].xaxis.get_tick_params()["labelbottom"]  # above the hidden panel
    fig, pair = plt.subplots(1, 2)
    plotting.label_figure(pair, own=False, xlabel="x", ylabel="y")
    assert pair[0].get_ylabel() == "y" and pair[1].get_ylabel() == ""  # not on its neighbour
    assert (0.5, 0.5, 0.5) not in [tuple(round(c, 1) for c in rgb) for rgb in plotting.HIGHLIGHT]
    plt.close("all")


def test_long_labels_lose_their_middle(responses):
    """300-character model names made a characteristic-curve plot 2700 pixels wide."""
    name = "model-" + "x" * 290 + "-seed1"
    assert plotting.short("short") == "short"
    assert len(plotting.short(name)) == plotting.LABEL_CHARS
    assert plotting.short(name).startswith("model-x") and plotting.short(name).endswith("-seed1")
    wide = responses.to_wide(rows="item")
    long = wide.set_axis([f"{name}{k}" for k in range(wide.shape[1])], axis=1)
    fit = ie.fit(ie.models.onepl(ie.Responses.from_wide(long, rows="item")), method="map",
                 random_seed=0)
    ax = ie.plot_characteristic_curves(fit, [f"{name}{k}" for k in range(3)])
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == 3 and all(len(t) == plotting.LABEL_CHARS for t in texts)
    assert len(set(texts)) == 3  # the ends tell them apart
    middle = ["acme-research/llama-3-finetune-7b-instruct-dpo-epoch3-seed1",
              "acme-research/llama-3-finetune-13b-instruct-dpo-epoch3-seed1"]
    shown = plotting.short_labels(middle)
    assert shown[0] != shown[1] and "7b" in shown[0] and "13b" in shown[1]
    assert all(len(s) <= plotting.LABEL_CHARS for s in shown)
    plt.close("all")


@pytest.fixture(scope="module")
def laplace_fits(responses):
    onepl = ie.fit(ie.models.onepl(responses), method="laplace", draws=300, random_seed=0)
    board = ie.fit(ie.models.bradley_terry(ie.datasets.load_vtab()), method="laplace",
                   draws=300, random_seed=0)
    return onepl, board


def test_labels_say_what_the_numbers_are(laplace_fits, tmp_path):
    """Labels from every draw, as the tables give them (the item label and legend came from
    thinned draws, sd with ddof=0); a table read from CSV (no attrs) is labelled with the
    caller's ci_prob, or no probability, not "94% HDI" whatever it holds; the old hdi_prob=
    on a table is checked as ci_prob= is."""
    onepl, fit = laplace_fits
    table = ie.difficulty(onepl)
    ax = ie.plot_item_characteristic(onepl, items=["i0"], max_draws=20)
    assert [t.get_text() for t in ax.texts] == [f"i0 (b = {table.loc['i0', 'mean']:.2f})"]
    moments = ie.difficulty_moments(onepl)
    legend = ie.plot_difficulty_distribution(onepl, max_draws=20).get_legend_handles_labels()[1]
    assert legend[0].endswith(f"mean {moments.loc['mean', 'posterior_mean']:.2f}, "
                              f"sd {moments.loc['sd', 'posterior_mean']:.2f} (all 30 items)")
    ie.leaderboard(fit, ci_prob=0.5).to_csv(tmp_path / "board.csv")
    board = pd.read_csv(tmp_path / "board.csv", index_col=0)
    assert "(50% HDI)" in ie.plot_leaderboard(board, ci_prob=0.5).get_xlabel()
    assert "(HDI)" in ie.plot_leaderboard(board).get_xlabel()
    ie.goodness_of_fit(fit, max_draws=50).to_csv(tmp_path / "gof.csv")
    ax = ie.plot_win_calibration(pd.read_csv(tmp_path / "gof.csv", index_col=0))
    assert ax.get_title() == "calibration"
    curves = ie.characteristic_curves(onepl)
    with pytest.warns(FutureWarning, match="hdi_prob"), \
            pytest.raises(ValueError, match="computed with ci_prob=0.94"):
        ie.plot_characteristic_curves(curves, hdi_prob=0.5)
    plt.close("all")


def test_thinned_plots_take_random_seed(laplace_fits):
    """The plots that thin draws at random vary with random_seed and repeat with the same."""
    onepl, _ = laplace_fits

    def band(seed):
        ax = ie.plot_item_characteristic(onepl, items=["i0"], max_draws=10, random_seed=seed)
        return ax.collections[0].get_paths()[0].vertices.copy()

    assert np.array_equal(band(1), band(1)) and not np.array_equal(band(1), band(2))
    heights = [ie.plot_difficulty_distribution(onepl, max_draws=5, random_seed=seed)
               .lines[0].get_ydata().copy() for seed in (1, 1, 2)]
    assert np.array_equal(heights[0], heights[1]) and not np.array_equal(heights[0], heights[2])
    plt.close("all")


def test_tables_read_back_and_classical_leaderboards_plot(laplace_fits, tmp_path):
    """plot_leaderboard refused mle_epp's table (columns lower/upper, no mean, no P(best)); a
    leaderboard CSV with equal-tailed intervals needed ci_kind=; plot_information and
    plot_fit of a CSV table (no attrs) raised KeyError: 'ci_kind'."""
    onepl, fit = laplace_fits
    vtab = ie.datasets.load_vtab()
    mle = ie.mle_epp(vtab)
    assert {"wald_lower", "wald_upper"} <= set(mle) and "lower" not in mle
    ax = ie.plot_leaderboard(mle)
    assert ax.get_xlabel() == "EPP (94% Wald interval)"
    assert ax.get_title() == "leaderboard (maximum likelihood)"
    best = mle["epp"].idxmax()
    top = max(ax.get_yticklabels(), key=lambda t: t.get_position()[1])
    assert top.get_text() == plotting.short(best)
    boot = ie.bootstrap_epp(vtab, n_boot=20, ci_prob=0.8)
    assert ie.plot_epp_vs_score(boot, vtab).get_xlabel() == "EPP (80% bootstrap interval)"
    with pytest.raises(ValueError, match="computed with ci_kind='wald'"):
        ie.plot_leaderboard(mle, ci_kind="hdi")
    board = ie.leaderboard(fit).iloc[:4].assign(p_best=[0.997, 0.55, 0.003, 0.0])
    texts = [t.get_text() for t in ie.plot_leaderboard(board).get_yticklabels()]
    assert [t.split()[-1] for t in texts] == ["(99.7%)", "(55.0%)", "(0.3%)",
                                                 plotting.short(board.index[3]).split()[-1]]
    # was 100%, 0%, 0%; then 55% beside 44.3%; then "(0.0%)" beside 70 players of 80
    ax = ie.plot_leaderboard(board, top=2)
    assert len(ax.get_yticklabels()) == 2 and ax.get_title().endswith(": the best 2 of 4")
    with pytest.raises(ValueError, match=r"top=0: give a whole number"):
        ie.plot_leaderboard(board, top=0)
    ie.leaderboard(fit, ci_kind="eti").to_csv(tmp_path / "board.csv")
    board = pd.read_csv(tmp_path / "board.csv", index_col=0)
    assert ie.plot_leaderboard(board).get_xlabel() == "EPP (equal-tailed interval)"
    ie.information(onepl, ci_kind="eti").to_csv(tmp_path / "information.csv")
    table = pd.read_csv(tmp_path / "information.csv", index_col=[0, 1])
    assert ie.plot_information(table).get_title() == "information (equal-tailed interval band)"
    ie.item_fit(onepl).to_csv(tmp_path / "fit.csv")
    table = pd.read_csv(tmp_path / "fit.csv", index_col=0)
    assert ie.plot_fit(table).get_title() == "item fit (interval bars on the misfits)"
    ie.characteristic_curves(onepl, ci_prob=0.9).to_csv(tmp_path / "curves.csv")
    table = pd.read_csv(tmp_path / "curves.csv", index_col=[0, 1])
    with pytest.warns(FutureWarning, match="hdi_prob= is deprecated"):
        ax = ie.plot_characteristic_curves(table, hdi_prob=0.9)  # the old name's value counts
    assert "90% interval band" in ax.get_legend().get_texts()[0].get_text()
    with pytest.raises(ValueError, match="hdi_prob must be a number between 0 and 1, got 2"), \
            pytest.warns(FutureWarning):
        ie.plot_characteristic_curves(table, hdi_prob=2)
    plt.close("all")


def test_plots_refuse_what_is_not_theirs(laplace_fits, monkeypatch):
    """A Figure, text or a number as ax= raised AttributeError from inside matplotlib (after
    the computation: now before it); an IRT table in plot_leaderboard drew instances as a
    leaderboard; a bad random_seed passed where every draw was kept
    (latent_trait(random_seed=1.5))."""
    onepl, fit = laplace_fits
    from irteval.irt import plots as irt_plots

    def never(*args, **kwargs):
        raise AssertionError("the table was computed before ax= was checked")

    with monkeypatch.context() as patched:
        patched.setattr(irt_plots, "item_fit", never)
        with pytest.raises(TypeError, match="ax= takes matplotlib Axes"):
            ie.plot_fit(onepl, ax=plt.figure())
    for ax, got in ((plt.figure(), "got Figure (a Figure: give fig.gca()"), ("x", "got str"),
                    (3, "got int")):
        with pytest.raises(TypeError, match=re.escape(f"ax= takes matplotlib Axes, e.g. fig, "
                                                      f"ax = plt.subplots(); {got}")):
            ie.plot_leaderboard(fit, ax=ax)
    with pytest.raises(TypeError, match="axes= takes matplotlib Axes"):
        ie.plot_scc(fit, axes="x")  # (a leaderboard fit: the check comes first)
    with pytest.raises(ValueError, match="neither 'p_best' nor 'epp' .*: not a leaderboard"):
        ie.plot_leaderboard(ie.difficulty(onepl))
    from irteval._draws import thin

    with pytest.raises(TypeError, match="random_seed must be None, a non-negative int"):
        thin(10, None, random_seed=1.5)  # every draw kept: the seed was not looked at
    plt.close("all")


def test_hdi_bands_of_probabilities_do_not_jump(laplace_fits, monkeypatch):
    """P = logistic(theta - b) over 200 draws of b ~ N(0, 1), as plot_item_characteristic
    draws it: the HDI of P jumped along the curve (a new user saw a step of ~0.1 in a band).
    The HDI of the log-odds, mapped back, moves smoothly; equal-tailed intervals are the same
    either way."""
    b = np.random.default_rng(0).normal(0, 1, 200)
    grid = np.linspace(-4, 4, 121)
    curves = 1 / (1 + np.exp(-(grid[None, :] - b[:, None])))
    jump = lambda bounds: max(np.abs(np.diff(bound)).max() for bound in bounds)  # noqa: E731
    assert jump(_intervals.interval(curves, 0.94, "hdi")) > 0.05
    smooth = _intervals.probability_interval(curves, 0.94, "hdi")
    assert jump(smooth) < 0.02  # the curve's own steepest step is 0.017
    inside = ((curves >= smooth[0]) & (curves <= smooth[1])).mean(axis=0)
    np.testing.assert_allclose(inside, 0.94, atol=0.01)  # still 94% of the draws
    np.testing.assert_allclose(_intervals.probability_interval(curves, 0.9, "eti"),
                               _intervals.interval(curves, 0.9, "eti"), rtol=1e-4)  # interpolated
    calls = []
    spy = lambda *args: calls.append(args) or _intervals.interval(*args)  # noqa: E731
    monkeypatch.setattr(_intervals, "probability_interval", spy)
    ax = ie.plot_item_characteristic(laplace_fits[0], items=["i0", "i1"])
    assert ax.get_title() == "item characteristic curves (94% HDI band of the log-odds)"
    assert len(calls) == 2  # each band through it
    plt.close("all")


def test_long_line_end_labels_stay_inside_the_axes():
    fig, ax = plt.subplots(figsize=(5, 3))
    grid = np.linspace(-4, 4, 50)
    for shift in (-1, 0, 1):
        ax.plot(grid, 1 / (1 + np.exp(shift - grid)))
    plotting.label_line_ends(ax, grid[-1], [0.95, 0.98, 0.99],
                             [f"instance img_{k:04d} of a long name (b = -6.49)" for k in range(3)],
                             ["C0", "C1", "C2"])
    renderer = fig.canvas.get_renderer()
    right = ax.get_window_extent(renderer).x1
    assert all(t.get_window_extent(renderer).x1 < right for t in ax.texts)  # ran past it
    assert ax.get_xlim()[1] > 4 * 1.3  # widened more than the usual 30%
    assert max(ax.get_xticks()) <= 4  # none over the labels (an ability axis read 15 there)
    plt.close(fig)


def test_default_items_spread_over_the_difficulty_range():
    from irteval._draws import nearest_to_even_values

    b = np.r_[np.full(60, -6.5) + np.linspace(0, 0.3, 60), np.linspace(-2, 4, 40)]
    picks = nearest_to_even_values(b, 5)
    assert len(set(picks)) == 5 and b[picks].min() == b.min() and b[picks].max() == b.max()
    assert (b[picks] > -6).sum() == 4  # ranks put three in the pile at -6.5
    assert sorted(nearest_to_even_values(b[:3], 5)) == [0, 1, 2]
    with_nan = nearest_to_even_values(np.r_[np.nan, b], 5)  # took the first five
    assert 0 not in with_nan and sorted(with_nan) == sorted(picks + 1)


def test_item_curves_of_a_2pl_give_their_discriminations_in_a_legend(responses):
    """Labels with b and a (c, d) at the curves' ends took half the width; a legend holds them."""
    fit = quiet_fit(ie.models.onepl(responses, discrimination=True), draws=50, tune=50,
                    chains=1, random_seed=0)
    ax = ie.plot_item_characteristic(fit, items=["i0", "i1"])
    a = fit.posterior["a"].mean(("chain", "draw")).sel(item="i0").item()
    assert ax.get_legend().get_texts()[0].get_text().startswith("i0: b = ")
    assert f"a = {a:.2f}" in ax.get_legend().get_texts()[0].get_text()
    assert not ax.texts  # no line-end labels beside it
    plt.close("all")


@pytest.mark.filterwarnings("ignore:.*this fit is one point")
def test_item_curves_skip_items_answered_alike_and_reach_their_plateaus(responses):
    """The default curves showed an item no model got right (its b the prior's) as the
    hardest, and stopped at P = 0.88 (the grid ended at b + 2)."""
    wide = responses.to_wide()  # (a row per model)
    wide["i0"], wide["i1"] = 0.0, 1.0  # every model wrong / right
    fit = ie.fit(ie.models.onepl(ie.Responses.from_wide(wide)), method="map", random_seed=0)
    ax = ie.plot_item_characteristic(fit)
    shown = " ".join(t.get_text() for t in ax.texts)
    assert "instance i0 " not in shown and "instance i1 " not in shown and len(ax.lines) == 6
    for line in ax.lines[:5]:  # the curves (then the rug): from below 0.02 to above 0.98
        assert line.get_ydata()[0] < 0.02 and line.get_ydata()[-1] > 0.98
    plt.close("all")


def test_a_large_board_labels_players_spread_over_the_epp_range():
    """80 players' labels in one column: their leader lines fanned out and crossed."""
    from irteval.calibration import simulate_bradley_terry

    scores, _, _ = simulate_bradley_terry(80, 10, np.random.default_rng(0))
    board = ie.mle_epp(scores)
    ax = ie.plot_epp_vs_score(board, scores)
    labels = [t.get_text() for t in ax.texts]
    assert len(labels) == 30 and ax.get_title().endswith("; 30 of 80 labelled")
    assert {board["epp"].idxmax(), board["epp"].idxmin()} <= set(labels)
    plt.close(ax.figure)
    small, _, _ = simulate_bradley_terry(12, 10, np.random.default_rng(0))
    ax = ie.plot_epp_vs_score(ie.mle_epp(small), small)  # every one, up to 30
    assert len(ax.texts) == 12 and "labelled" not in ax.get_title()
    plt.close(ax.figure)
