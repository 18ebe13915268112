"""Scoring a new model from a few instances (issue 17): calibration of the new model's
ability on simulated 1PL data, item selection, the adaptive test, misfit and bad input."""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import irteval as ie
from irteval.irt.item_draws import Items
from irteval.irt.new_model import _stratified_mean
from irteval.models.onepl_marginal import z_grid

from .conftest import quiet_fit, simulate


@pytest.fixture(scope="module")
def population():
    """A 1PL fitted to 200 models on 60 items (theta ~ N(0, 1.3)), and the true difficulties."""
    resp, truth = simulate(60, 200, seed=7)
    idata = quiet_fit(ie.models.onepl(resp), draws=500, tune=500, chains=2, random_seed=7)
    return idata, truth


def answers_of(theta, b, items, rng):
    p = 1 / (1 + np.exp(-(theta - b[items])))
    return pd.Series((rng.random(len(items)) < p).astype(float),
                     index=[f"i{k}" for k in items])


def test_new_model_ability_is_calibrated_on_simulated_1pl_data(population):
    """200 new models with theta ~ N(0, 1.3), answering all 60 items, of which 20 random ones
    are shown: the rank of the true ability among the posterior draws is uniform
    (simulation-based calibration), and the 90% intervals of the full accuracy cover the
    model's realised accuracy on all 60 in 84-96%."""
    idata, truth = population
    rng = np.random.default_rng(0)
    ranks, covered = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a few of 200 well-fitting models get a small p
        for k in range(200):
            theta = rng.normal(0, 1.3)
            everything = answers_of(theta, truth["b"], np.arange(60), rng)
            shown = everything.iloc[np.sort(rng.choice(60, 20, replace=False))]
            score = ie.score_new_model(idata, shown, max_draws=500, random_seed=k)
            ranks.append((score.ability.values < theta).mean())
            lo, hi = np.quantile(score.accuracy.values, [0.05, 0.95])
            covered.append(lo <= everything.mean() <= hi)
    counts = np.bincount(np.minimum((np.array(ranks) * 10).astype(int), 9), minlength=10)
    assert stats.chisquare(counts).pvalue > 0.001, counts
    assert 0.84 <= np.mean(covered) <= 0.96, np.mean(covered)


def test_score_summary_labels_and_speed(population):
    idata, truth = population
    rng = np.random.default_rng(1)
    answers = answers_of(0.5, truth["b"], np.arange(0, 60, 3), rng)
    score = ie.score_new_model(idata, answers.to_dict(), ci_prob=0.9, ci_kind="eti")
    table = score.summary()
    assert list(table.index) == ["ability", "accuracy"]
    assert {"mean", "sd", "eti_lower", "eti_upper", "naive"} <= set(table)
    assert table.attrs["n_answered"] == 20 and table.attrs["n_items"] == 60
    assert table.loc["accuracy", "naive"] == pytest.approx(answers.mean())
    assert score.accuracy.dims == ("sample",) and 0 <= float(score.accuracy.min())
    assert 0.05 < score.person_fit_p <= 1


def test_misfitting_answers_are_flagged(population):
    idata, truth = population
    order = np.argsort(truth["b"])
    upside_down = pd.Series(0.0, index=[f"i{k}" for k in order[:15]])  # fails the easiest
    upside_down = pd.concat([upside_down, pd.Series(1.0, index=[f"i{k}" for k in order[-15:]])])
    with pytest.warns(UserWarning, match="misfit the fitted IRT"):
        score = ie.score_new_model(idata, upside_down)
    assert score.person_fit_p < 0.01
    hard = set(upside_down.index[upside_down == 1])
    with pytest.warns(UserWarning, match="misfit the fitted IRT"):  # the adaptive test too
        ie.adaptive_test(idata, lambda item: float(item in hard), max_items=30, stop_width=0,
                         max_draws=200, progressbar=False)


def test_thinned_draws_stay_paired_for_any_seed(population):
    """Every variable is thinned at the same draws, whatever the seed: with a Generator or
    None, thinning each variable apart paired b of one draw with sigma of another."""
    idata, _ = population
    stacked = {v: idata.posterior[v].stack(sample=("chain", "draw")).transpose("sample", ...)
               .values for v in ("b", "sigma_theta")}
    for seed in (None, np.random.default_rng(0), 3):
        items = Items.from_idata(idata, "test", max_draws=50, random_seed=seed)
        rows = [np.flatnonzero((stacked["b"] == row).all(axis=1))[0] for row in items.b]
        np.testing.assert_array_equal(items.sigma, stacked["sigma_theta"][rows])
    paired = idata.copy()  # b = theta = the draw's number: P = 1/2 at every paired draw
    draw = np.arange(paired.posterior.sizes["chain"] * paired.posterior.sizes["draw"]).reshape(
        paired.posterior.sizes["chain"], -1)[:, :, None] * 1.0
    paired.posterior["theta"] = paired.posterior["theta"] * 0 + draw
    order = np.arange(paired.posterior.sizes["item"]) * 1e-9  # distinct b: equal ones share a bin
    paired.posterior["b"] = paired.posterior["b"] * 0 + draw + order
    for seed in (None, np.random.default_rng(5), 0):
        curves = ie.characteristic_curves(paired, n_bins=2, random_seed=seed, max_draws=50)
        np.testing.assert_allclose(curves["predicted"], 0.5, atol=1e-6)


def test_item_selection_strategies(population):
    idata, truth = population
    strat = ie.select_items(idata, n=10)
    assert len(strat) == 10 and strat.name == "instance"
    b = pd.Series(truth["b"], index=[f"i{k}" for k in range(60)])
    ranks = b.rank().loc[strat].sort_values().to_numpy()
    assert ranks[0] <= 6 and ranks[-1] >= 55  # one from each of ten equal-count bins
    with warnings.catch_warnings():  # (narrow: test_narrow_coverage_is_warned...)
        warnings.simplefilter("ignore", UserWarning)
        info = ie.select_items(idata, n=10, strategy="information")
    centre = (b.loc[info] - 0).abs().mean() < (b - 0).abs().mean()  # near the models' abilities
    assert centre
    assert list(ie.select_items(idata, n=10, strategy="random", random_seed=3)) == list(
        ie.select_items(idata, n=10, strategy="random", random_seed=3))
    with pytest.raises(ValueError, match="strategy="):
        ie.select_items(idata, n=10, strategy="greedy")
    with pytest.raises(ValueError, match="between 1 and the 60 items"):
        ie.select_items(idata, n=100)


@pytest.mark.parametrize("strategy", ["stratified", "information"])
def test_adaptive_test_stops_when_the_interval_is_narrow(population, strategy):
    idata, truth = population
    rng = np.random.default_rng(2)
    theta = 0.3

    def answer(item):
        k = int(item[1:])
        return int(rng.random() < 1 / (1 + np.exp(-(theta - truth["b"][k]))))

    with warnings.catch_warnings():  # the information rule's narrow coverage: tested below
        warnings.filterwarnings("ignore", message="the .* answered items span")
        trajectory, score = ie.adaptive_test(idata, answer, max_items=40, stop_width=0.25,
                                             strategy=strategy, random_seed=0)
    assert trajectory.index.name == "step" and trajectory["item"].is_unique
    assert {"item", "answer", "mean", "hdi_lower", "hdi_upper", "width"} <= set(trajectory)
    assert trajectory["width"].iloc[-1] < 0.25 or len(trajectory) == 40
    assert len(score.answered) == len(trajectory)
    with pytest.raises(ValueError, match="must return 0 or 1"):
        ie.adaptive_test(idata, lambda item: 0.5, max_items=3, strategy=strategy)


def test_adaptive_stratified_rule_asks_across_difficulty(population):
    """A strong model (theta = 2.5) asked 30 of 60 items: the information rule keeps to the
    hard items; the stratified rule asks in every one of the 10 difficulty strata, most
    where the predicted accuracy is nearest 1/2 (the hardest strata)."""
    idata, truth = population
    order = np.argsort(idata.posterior["b"].mean(("chain", "draw")).values, kind="stable")
    stratum_of = {f"i{k}": s for s, part in enumerate(np.array_split(order, 10)) for k in part}
    rng = np.random.default_rng(3)

    def answer(item):
        return int(rng.random() < 1 / (1 + np.exp(-(2.5 - truth["b"][int(item[1:])]))))

    asked = {}
    for strategy in ("stratified", "information"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            trajectory, score = ie.adaptive_test(idata, answer, max_items=30, stop_width=0.0,
                                                 strategy=strategy, random_seed=0)
        asked[strategy] = np.bincount([stratum_of[i] for i in trajectory["item"]], minlength=10)
        narrow = [w for w in caught if "answered items span" in str(w.message)]
        assert bool(narrow) == (strategy == "information"), (strategy, score.coverage)
    assert (asked["stratified"] > 0).all()
    assert asked["stratified"][5:].sum() > asked["stratified"][:5].sum()
    assert asked["information"][:3].sum() == 0
    with pytest.raises(ValueError, match="strategy='nope' is not one of"):
        ie.adaptive_test(idata, answer, strategy="nope")


def test_ability_grid_updated_one_answer_at_a_time_equals_all_at_once(population):
    """adaptive_test adds one answer a step to the log-likelihood grid: the sum equals the grid
    computed from all answers, and the draws from it equal draw_abilities' own."""
    idata, _ = population
    items = Items.from_idata(idata, "test", max_draws=100, random_seed=0)
    where, y = [3, 17, 42, 8], [1.0, 0.0, 1.0, 1.0]
    grid = z_grid(40)
    loglik = sum(items.log_likelihood([k], [v], grid) for k, v in zip(where, y))
    np.testing.assert_allclose(loglik, items.log_likelihood(where, y, grid), atol=1e-10)
    np.testing.assert_allclose(
        items.draw_abilities(where, y, np.random.default_rng(1), grid, loglik),
        items.draw_abilities(where, y, np.random.default_rng(1), grid), atol=1e-8)
    with pytest.raises(ValueError, match="pass the grid"):
        items.draw_abilities(where, y, np.random.default_rng(1), loglik=loglik)


def test_bad_input_is_named(population):
    idata, _ = population
    with pytest.raises(ValueError, match=r"1 answer is for items not in the fit, e.g. \['nope'\]"
                                         r".*to score only the fit's items, answers\[answers"):
        ie.score_new_model(idata, {"i1": 1, "nope": 0})
    with pytest.raises(ValueError, match=r"'i01' differs from 'i1' only in zeros before a num"):
        ie.score_new_model(idata, {"i01": 1})
    with pytest.raises(ValueError, match=r"'i1.05'\].*to score only the fit's items"):
        ie.score_new_model(idata, {"i1.05": 1})  # a decimal part is no padding
    with pytest.raises(ValueError, match=r"labels are text \(e.g. 'i0'\) and these are numbers"):
        ie.score_new_model(idata, {1: 1})  # numbers for text labels ('0001': no hint before)
    wide = simulate(40, 10, seed=1)[0].to_wide(rows="item").reset_index(drop=True)  # 0..39
    numbered = quiet_fit(ie.models.onepl(ie.Responses.from_wide(wide, rows="item")),
                         method="laplace", draws=50, chains=1, random_seed=0)
    with pytest.raises(ValueError, match=r"\['28'\].*as text: .*answers.index.astype\(int\)"):
        ie.score_new_model(numbered, {"28": 1})
    point = quiet_fit(ie.models.onepl(ie.Responses.from_wide(wide, rows="item")),
                      method="map", random_seed=0)
    for score in (lambda fit: ie.score_new_model(fit, {28: 1}),
                  lambda fit: ie.adaptive_test(fit, lambda item: 1)):
        with pytest.raises(ValueError, match=r"one point \(MAP\).*method='nuts'"):
            score(point)  # intervals of no width
    with pytest.raises(ValueError, match="must be 0 or 1.*'yes'"):
        ie.score_new_model(idata, {"i1": 1, "i2": "yes"})
    with pytest.raises(TypeError, match=r"dict or a pandas Series.*set_index\('instance'\)"):
        ie.score_new_model(idata, [1, 0, 1])
    table = pd.DataFrame({"item": ["i1", "i2"], "correct": [1, 0]})
    with pytest.raises(TypeError, match=r"answers.set_index\('item'\)\['correct'\]"):
        ie.score_new_model(idata, table)  # the hint names the table's own columns
    long = pd.DataFrame({"model": ["m", "m"], "instance": ["i1", "i2"], "correct": [1, 0]})
    with pytest.raises(TypeError, match=r"answers.set_index\('instance'\)\['correct'\]"):
        ie.score_new_model(idata, long)  # the fit's label column, not the first
    wide_answers = pd.DataFrame({"m1": [1, 0], "m2": [0, 0]}, index=["i1", "i2"])
    with pytest.raises(TypeError, match=r"e.g. answers\['m1'\]; from"):
        ie.score_new_model(idata, wide_answers)  # indexed by item already: pick a column
    texts = pd.Series(["True", "false"], index=["i1", "i2"])  # as a CSV of booleans reads
    assert ie.score_new_model(idata, texts).answered.tolist() == [1.0, 0.0]
    bt = ie.fit(ie.models.bradley_terry(ie.datasets.load_vtab()), method="map", random_seed=0)
    with pytest.raises(ValueError, match="fit of irteval.models.onepl"):
        ie.score_new_model(bt, {"i1": 1})
    with pytest.warns(UserWarning, match=r"1 of 2 answers are missing \(NaN\).*\['i2'\]"):
        assert ie.score_new_model(idata, {"i1": 1, "i2": np.nan}).summary().attrs[
            "n_answered"] == 1  # a missing answer is left out, and said so
    for nothing in ({}, pd.Series({"i1": np.nan, "i2": np.nan})):
        with pytest.raises(ValueError, match="no 0/1 answer.*at least one item"):
            ie.score_new_model(idata, nothing)
    with pytest.raises(ValueError, match=r"score_new_model\(\): max_draws=0: give a whole"):
        ie.score_new_model(idata, {"i1": 1}, max_draws=0)
    with pytest.raises(TypeError, match="n=2.5: give a whole number"):  # not 2 in silence
        ie.select_items(idata, n=2.5)
    with pytest.raises(ValueError, match="stop_width must be a number >= 0"):
        ie.adaptive_test(idata, lambda item: 1, stop_width="0.1")
    with pytest.raises(TypeError, match="answer_fn must be a function.*use score_new_model"):
        ie.adaptive_test(idata, {"i1": 1})
    with pytest.raises(ValueError, match="answer_fn must return 0 or 1, got 'yes'"):
        ie.adaptive_test(idata, lambda item: "yes")
    with pytest.raises(ValueError, match="answers name 1 item.* more than once, e.g. \\['i1'\\]"):
        ie.score_new_model(idata, pd.Series([1, 1], index=["i1", "i1"]))
    with pytest.raises(ValueError, match="min_items=10 is more than max_items=5"):
        ie.adaptive_test(idata, lambda item: 1, max_items=5, min_items=10)
    with pytest.raises(ValueError, match="stop_width must be a number"):
        ie.adaptive_test(idata, lambda item: 1, stop_width=True)
    answers = iter([1, "0", 7])  # "0" is an answer, as in score_new_model; 7 is not
    with pytest.raises(ValueError, match="got 7 .*the 2 answers before it") as error:
        ie.adaptive_test(idata, lambda item: next(answers), max_draws=50, progressbar=False)
    assert error.value.answers.tolist() == [1.0, 0.0]  # what was asked is not lost
    with pytest.warns(UserWarning, match=r"stopped after max_items=2 with the interval of the "
                                         r"accuracy .* wide, not under stop_width=0.02"):
        trajectory, _ = ie.adaptive_test(idata, lambda item: np.array([True]), max_items=2,
                                         max_draws=50)  # one prediction in an array is an answer
    assert trajectory["answer"].tolist() == [1, 1] and trajectory["answer"].dtype.kind == "i"
    with pytest.raises(ValueError, match="max_items=0: give a whole number of at least 1"):
        ie.adaptive_test(idata, lambda item: 1, max_items=0)


def test_narrow_coverage_is_warned_and_the_stratified_naive_is_design_based(population):
    """Items of one difficulty (the information strategy) leave most of the benchmark to the
    IRT's extrapolation: warned, with the coverage in summary().attrs; a stratified subset is
    not. The adaptive stratified rule's naive estimate weighs the strata by their shares."""
    idata, truth = population
    rng = np.random.default_rng(4)
    everything = answers_of(0.0, truth["b"], np.arange(60), rng)
    with pytest.warns(UserWarning, match=r"the 15 most informative items span the difficulties "
                                         r"of \d+% of the 60, where 15 random ones would span "
                                         r"about 88%.*strategy='stratified'"):
        informative = ie.select_items(idata, n=15, strategy="information")
    with pytest.warns(UserWarning, match=r"the 15 answered items span the difficulties of \d+% "
                                         r"of the benchmark's items, where 15 random ones would "
                                         r"span about 88%"):
        narrow = ie.score_new_model(idata, everything.loc[informative])
    stratified = ie.score_new_model(idata, everything.loc[ie.select_items(idata, n=15)])
    assert narrow.summary().attrs["coverage"] == narrow.coverage < 0.5
    assert stratified.coverage > 0.9
    asked = []
    trajectory, score = ie.adaptive_test(
        idata, lambda item: asked.append(item) or everything[item], max_items=30,
        stop_width=0, max_draws=100, progressbar=False)
    order = np.argsort(idata.posterior["b"].mean(("chain", "draw")).values, kind="stable")
    stratum = {f"i{k}": s for s, part in enumerate(np.array_split(order, 10)) for k in part}
    by_stratum = pd.Series(everything[asked].values, index=[stratum[i] for i in asked])
    means = by_stratum.groupby(level=0).mean()
    assert len(means) == 10  # every stratum asked
    assert score.naive == pytest.approx(means.mean())  # equal-count strata: equal weights
    assert score.summary().loc["accuracy", "naive"] == score.naive
    # unequal strata weigh by size; a stratum without an answer leaves no estimate
    strata, y, size = np.array([0, 0, 1, 2]), np.array([1.0, 0.0, 1.0, 0.0]), np.array([2, 1, 3])
    assert _stratified_mean(strata, y, size) == pytest.approx((0.5 * 2 + 1 * 1 + 0 * 3) / 6)
    assert np.isnan(_stratified_mean(strata[:3], y[:3], size))


def test_an_interrupted_adaptive_test_keeps_its_answers_and_resumes(population):
    """An error in answer_fn (a rate limit) carries the answers before it; answered= goes on
    from them, numbering the steps on, and max_items counts them."""
    idata, truth = population
    rng = np.random.default_rng(5)
    everything = answers_of(0.5, truth["b"], np.arange(60), rng)
    calls = []

    def flaky(item):
        if len(calls) == 4:
            raise RuntimeError("rate limit")
        calls.append(item)
        return everything[item]

    with pytest.raises(RuntimeError, match="rate limit") as error:
        ie.adaptive_test(idata, flaky, max_items=10, stop_width=0, max_draws=100,
                         progressbar=False)
    assert error.value.answers.index.tolist() == calls
    if hasattr(error.value, "add_note"):
        assert "answered=error.answers" in error.value.__notes__[0]
    calls.append("resumed")  # flaky answers again
    trajectory, score = ie.adaptive_test(idata, lambda item: everything[item], max_items=10,
                                         stop_width=0, max_draws=100, progressbar=False,
                                         answered=error.value.answers)
    assert list(trajectory.index) == list(range(5, 11)) and len(score.answered) == 10
    assert not set(trajectory["item"]) & set(calls)  # nothing asked twice
    with pytest.raises(ValueError, match="answered holds 4 answers, and the test asks at most "
                                         "max_items=4: raise max_items"):
        ie.adaptive_test(idata, flaky, max_items=4, answered=error.value.answers)
    calls.clear()  # an error on the first item: nothing to keep, and resuming from it works

    def failing_first(item):
        raise RuntimeError("rate limit")

    with pytest.raises(RuntimeError) as first:
        ie.adaptive_test(idata, failing_first, max_draws=100, progressbar=False)
    assert first.value.answers.empty
    trajectory, _ = ie.adaptive_test(idata, lambda item: everything[item], max_items=3,
                                     stop_width=0, max_draws=100, progressbar=False,
                                     answered=first.value.answers)
    assert list(trajectory.index) == [1, 2, 3]

    class Frozen(Exception):
        def __setattr__(self, name, value):
            raise TypeError("frozen")

    def frozen(item):
        raise Frozen("the user's own")

    with pytest.raises(Frozen, match="the user's own"):  # not replaced by the TypeError
        ie.adaptive_test(idata, frozen, max_draws=100, progressbar=False)


def test_plot_adaptive_draws_the_path_with_its_band(population):
    import matplotlib.pyplot as plt

    idata, truth = population
    rng = np.random.default_rng(6)
    everything = answers_of(0.0, truth["b"], np.arange(60), rng)
    trajectory, _ = ie.adaptive_test(idata, lambda item: everything[item], max_items=30,
                                     stop_width=0.3, max_draws=100, progressbar=False)
    ax = ie.plot_adaptive(trajectory, truth=everything.mean())
    n = len(trajectory)
    assert ax.get_title() == f"adaptive test: {n} instances asked, interval under 0.3 wide"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "94% HDI", "posterior mean", "true accuracy"]
    assert ax.get_lines()[0].get_xdata().tolist() == list(range(1, n + 1))
    for bad in (2, "0.9"):  # an accuracy above 1, text: drawn in silence
        with pytest.raises(ValueError, match="a number in \\[0, 1\\]"):
            ie.plot_adaptive(trajectory, truth=bad)
    with pytest.raises(ValueError, match="the trajectory has no step"):
        ie.plot_adaptive(trajectory.iloc[:0])  # pandas' IndexError
    with pytest.raises(TypeError, match="population= is True or False"):
        ie.robustness.zoo(population="yes")  # every configuration, in silence
    plt.close("all")
