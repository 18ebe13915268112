"""Polytomous AIRT: ordered levels (validation, airt's binning rules), the GPCM / graded
response models (recovery, reflection), and the AIRT metrics of their posteriors."""

import warnings
from functools import partial
from unittest import mock
from pathlib import Path

import arviz as az
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from scipy import stats

import irteval as ie
from irteval import _intervals
from irteval import calibration as cal
from irteval._draws import stacked_draws
from irteval.data.levels import bin_performance, cut_points, level_labels
from irteval.models.polytomous_irt import category_logp

#: airt's own levels of the bundled classification_cts (tests/data/README.md)
POLY = Path(__file__).parent / "data" / "airt_classification_poly.csv"


def _truth(rng, n_resp=200, n_items=12, n_levels=5):
    a = np.r_[rng.uniform(0.8, 2.5, n_items - 2), -1.2, -0.8]
    # increasing intercepts c (the graded model needs them; the GPCM takes any)
    c = np.sort(rng.normal(0, 1.2, (n_items, n_levels - 1)), axis=1) * np.abs(a)[:, None]
    return {"theta": rng.normal(0, 1, n_resp), "a": a, "c": c}


def _fit(resp, fit=None, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ie.fit(ie.models.polytomous_irt(resp, **kwargs), random_seed=0,
                      progressbar=False, **(fit or {}))


# ---------------------------------------------------------------------- data
def test_levels_from_integers_and_from_airts_binning():
    cts = ie.datasets.load_classification_cts().to_wide()  # bundled: 235 datasets x 10
    binned = ie.Responses.from_wide(cts, respondent="dataset", item="algorithm",
                                    kind="ordinal", cuts=5)
    assert binned.levels.tolist() == [1, 2, 3, 4, 5]
    assert set(binned.to_long()["value"]) == {1, 2, 3, 4, 5}
    # airt's make_polyIRT_data(method = 1) gave its classification_poly
    poly = pd.read_csv(POLY, index_col="dataset_row")
    levels = ie.Responses.from_wide(poly, respondent="dataset", item="algorithm",
                                    kind="ordinal")
    np.testing.assert_array_equal(levels.to_wide().to_numpy(), binned.to_wide().to_numpy())
    # equal widths from the smallest to the largest value; a value on an edge goes up
    x = np.array([0, 0.19, 0.2, 0.5, 1.0])
    assert bin_performance(x, cut_points(x, 5)).tolist() == [1, 1, 2, 3, 5]
    quantile = ie.Responses.from_wide(cts, kind="ordinal", cuts=4, cut_rule="quantile")
    counts = np.bincount(quantile.values)
    assert len(counts) == 4 and counts.min() > 0.2 * quantile.n_obs
    sub = binned.subset(items=["NB", "QDA"])
    assert sub.n_items == 2 and sub.levels.tolist() == [1, 2, 3, 4, 5]


def test_binned_levels_keep_the_performances_they_stand_for():
    """cuts= made levels 1..C and forgot their edges: what level 3 meant in accuracy was lost
    to the fit, its plots and the command line."""
    wide = pd.DataFrame({"x": [0.0, 0.3, 0.55, 0.9], "y": [0.1, 0.35, 0.6, 1.0]},
                        index=list("abcd"))
    binned = ie.Responses.from_wide(wide, kind="ordinal", cuts=4)  # edges 0.25, 0.5, 0.75
    np.testing.assert_allclose(binned.level_ranges, [[0, 0.25], [0.25, 0.5], [0.5, 0.75],
                                                     [0.75, 1.0]])
    # every value lies within its level's range
    low, high = binned.level_ranges[binned.values].T
    raw = wide.loc[binned.respondents, binned.items].to_numpy()[binned.respondent_idx,
                                                                 binned.item_idx]
    assert ((low <= raw) & (raw <= high)).all()
    assert level_labels(binned.levels, *binned.level_ranges.T)[2] == "3 [0.5, 0.75]"
    assert level_labels([1], [1234.5], [12345.6]) == ["1 [1230, 12300]"]  # seconds: no 1.23e+04
    sub = binned.subset(respondents=["a", "b", "d"])  # level 3 goes: its range too
    assert sub.levels.tolist() == [1, 2, 4]
    np.testing.assert_allclose(sub.level_ranges, [[0, 0.25], [0.25, 0.5], [0.75, 1.0]])
    turned = binned.reflected()  # level 1 now holds the top performances
    np.testing.assert_allclose(turned.level_ranges, binned.level_ranges[::-1])
    assert turned.reflected().level_ranges.tolist() == binned.level_ranges.tolist()
    attrs = ie.models.polytomous_irt(turned).fit_attrs()
    assert attrs["level_lower"] == [0.75, 0.5, 0.25, 0.0]
    assert ie.Responses.from_wide(wide * 10 // 3, kind="ordinal").level_ranges is None


def test_bad_levels_are_named_with_the_fix():
    wide = pd.DataFrame({"x": [1, 2, 3, 1], "y": [2, 3, 1, 1]}, index=list("abcd"))
    with warnings.catch_warnings():  # the error, without the few datasets' warning first
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"prior_a=-1: give a finite number > 0"):
            ie.models.polytomous_irt(ie.Responses.from_wide(wide, kind="ordinal"), prior_a=-1)
    # each value with its own cell (the smallest values were shown with the first cells)
    with pytest.raises(ValueError, match=r"non-integers, e.g. 1.5 \(respondent 'a', item 'x'\), "
                                         r"2.5 \(respondent 'a', item 'y'\), 2.5 \(respondent "
                                         r"'b', item 'x'\) and 5 more. Round them.*cuts= \(the "
                                         r"number of levels\)"):
        ie.Responses.from_wide(wide + 0.5, kind="ordinal")
    unused = (r"level\(s\) \[3, 4\] .* used by no one.*levels=\[1, 2, 5\].*The values run from "
              r"1 \(respondent 'a', item 'x'\) to 5 \(respondent 'b', item 'y'\)$")  # where
    with pytest.raises(ValueError, match=unused):
        ie.Responses.from_wide(wide.replace(3, 5), kind="ordinal")
    with pytest.raises(ValueError, match=r"not among the declared levels \[1, 2\], e.g. 3 "
                                         r"\(respondent 'b', item 'y'\), 3 \(respondent 'c', "
                                         r"item 'x'\); add"):
        ie.Responses.from_wide(wide, kind="ordinal", levels=[1, 2])
    with pytest.raises(ValueError, match="only one level.*needs at least two$"):
        ie.Responses.from_wide(wide * 0 + 2, kind="ordinal")
    # run times in ms read as levels: every integer between was listed first (10**12: 7 TB)
    with pytest.raises(ValueError, match=r"values from 1 to 1e\+12 \(1 \(respondent 'a', item "
                                         r"'x'\) to 1e\+12 \(respondent 'a', item 'y'\)\) would "
                                         r"be 1,000,000,000,000 integer levels, 3 of them used"
                                         r".*cuts=.*in Python, pass levels="):
        ie.Responses.from_wide(wide.replace(2, 10**12), kind="ordinal")
    with pytest.raises(ValueError, match="increasing and distinct"):
        ie.Responses.from_wide(wide, kind="ordinal", levels=[3, 2, 1])
    with pytest.raises(TypeError, match=r"levels= is the list of the ordered levels, e.g. "
                                        r"levels=\[1, 2, 3, 4\], got 4; .* pass cuts="):
        ie.Responses.from_wide(wide, kind="ordinal", levels=4)  # was len() of unsized object
    rng = np.random.default_rng(0)
    mixed = pd.DataFrame(rng.uniform(0.5, 0.9, (12, 3)), columns=["p", "q", "r"]).assign(
        r=lambda d: d["r"] * 100)  # one algorithm in percent: binned on the others' scale
    with pytest.warns(UserWarning, match=r"1 item looks like percent .* divide them by 100, "
                                         "as cuts= bins every performance on one scale"):
        ie.Responses.from_wide(mixed, kind="ordinal", cuts=2)  # said nothing
    typo = (wide * 0.3).astype(object)
    typo.iloc[1, 0] = "0.8x"
    with pytest.raises(ValueError, match=r"not numbers, e.g. \['0.8x'\].*; performances must "
                                         r"be numbers$"):  # was "(or pass cuts= ...)", given
        ie.Responses.from_wide(typo, kind="ordinal", cuts=2)
    with pytest.raises(ValueError, match=r"\[4, 5\] of \[1, 2, 3, 4, 5\] are used by no "
                                         r"one.*do not exist, pass levels=\[1, 2, 3\];"):
        ie.Responses.from_wide(wide, kind="ordinal", levels=[1, 2, 3, 4, 5])  # was "recode
        # [1, 2, 3] -> [1, 2, 3]"
    with pytest.raises(ValueError, match="cuts must be an integer >= 2"):
        ie.Responses.from_wide(wide, kind="ordinal", cuts=1)
    with pytest.raises(ValueError, match="cut_rule="):
        ie.Responses.from_wide(wide, kind="ordinal", cuts=3, cut_rule="kmeans")
    nan_label = wide.copy()
    nan_label.index = ["a", np.nan, "c", "d"]
    with pytest.raises(ValueError,
                       match=r"index \(respondent labels\) has 1 missing label \(row 1"):
        ie.Responses.from_wide(nan_label, kind="ordinal")
    declared = ie.Responses.from_wide(wide.replace(3, 5), kind="ordinal", levels=[1, 2, 5])
    assert declared.values.max() == 2


def test_the_model_refuses_what_it_cannot_fit():
    wide = pd.DataFrame({"x": [1, 2, 3, 1], "y": [2, 2, 2, 2]}, index=list("abcd"))
    with pytest.raises(ValueError, match=r"^1 item has one level only.*\['y'\]"):  # was
        ie.models.polytomous_irt(ie.Responses.from_wide(wide, kind="ordinal"))  # 1 items have
    with pytest.raises(ValueError, match=r"^every item has one level only.*bin the "
                                         r"performances into more levels"):  # none to keep
        ie.models.polytomous_irt(ie.Responses.from_wide(wide.assign(x=3), kind="ordinal"))
    binary = ie.Responses.from_wide(wide.clip(upper=2) - 1, kind="binary")
    with pytest.raises(ValueError, match="kind='ordinal'"):
        ie.models.polytomous_irt(binary)
    with pytest.raises(ValueError, match="model='pcm'"):
        ie.models.polytomous_irt(ie.Responses.from_wide(wide.assign(y=[1, 2, 2, 3]),
                                                        kind="ordinal"), model="pcm")


# ---------------------------------------------------------------------- model
@pytest.mark.parametrize("model", ["gpcm", "graded"])
def test_small_fit_keeps_labels_reflects_and_gives_metrics(model, tmp_path):
    rng = np.random.default_rng(3)
    truth = _truth(rng, 60, 5, 4)
    resp, truth, _ = cal.simulate_polytomous(60, 5, 4, rng, model=model, truth=truth)
    wide = resp.to_wide()
    wide.loc[wide.index[:3], "a1"] = np.nan  # missing cells
    wide["a0"] = wide["a0"].clip(upper=3)  # a0 has three levels, the others four
    resp = ie.Responses.from_wide(wide, respondent="dataset", item="algorithm", kind="ordinal")
    idata = _fit(resp, model=model, fit={"draws": 300, "tune": 400, "chains": 2})
    post = idata.posterior
    assert list(post["item"].values) == list(resp.items)
    assert list(post["respondent"].values) == list(resp.respondents)
    assert (post["a"].sum("item") > 0).all()  # the reflection, draw by draw
    assert idata.attrs["irteval_family"] == "polytomous_irt"
    assert {"d", "c", "a", "theta"} <= set(post.data_vars)
    table = ie.algorithm_metrics(idata)
    assert list(table.index) == list(resp.items) and table.index.name == "algorithm"
    assert table.loc["a3", "p_anomalous"] > 0.5  # truth a = -1.2
    assert (table["n_obs"] == resp.margins["item_n"]).all()
    assert (table["consistency_lower"] <= table["consistency"]).all()
    assert table.columns[0] == "a_mean" and "a" not in table  # a bare name is a median
    assert np.corrcoef(post["theta"].mean(("chain", "draw")), truth["theta"])[0, 1] > 0.7
    # the observed cells alone (missing ones were level 0 with log-likelihood 0: az.loo
    # counted them, az.plot_ppc showed made-up lowest levels), labelled by the user's labels
    observed = wide.stack(future_stack=True).dropna()
    x = idata.observed_data["x"]
    assert x.dims == ("obs",) and idata.log_likelihood["x"].dims[-1] == "obs"
    assert x.sizes["obs"] == len(observed) == wide.size - 3
    assert list(zip(x["obs_respondent"].values, x["obs_item"].values)) == list(observed.index)
    assert x.dtype.kind == "i" and np.array_equal(x.values, observed.values)  # the data's
    # levels, integers: az.plot_ppc shows them as bars (they were each item's category from 0,
    # as floats: KDE spikes, the levels of different items on one axis)
    assert idata.posterior_predictive["x"].dtype.kind == "i"
    assert set(np.unique(idata.posterior_predictive["x"])) <= set(idata.attrs["levels"])
    # a0 never reaches the data's top level (4): never effective at tolerance 0 (it was, as
    # its own top, 3, counted)
    assert float(ie.airt_curves(idata, max_draws=20)["aec"].sel(item="a0")[0]) == 0
    _check_downstream(idata)
    # replicates added later have the observed cells' layout, and survive netCDF
    assert idata.posterior_predictive["x"].dims == ("chain", "draw", "obs")  # fit's default
    later = idata.copy()
    del later.log_likelihood, later.posterior_predictive
    ie.add_posterior_predictive(later, ie.models.polytomous_irt(resp, model=model))
    assert later.posterior_predictive["x"].dims == ("chain", "draw", "obs")
    path = tmp_path / "poly.nc"
    later.to_netcdf(path)
    back = az.from_netcdf(path)
    assert list(back.observed_data["x"]["obs_item"].values) == list(x["obs_item"].values)
    assert ie.model_goodness(back, max_draws=20).equals(ie.model_goodness(idata, max_draws=20))
    earlier = idata.copy()  # x as an earlier irteval wrote it: each item's categories, floats
    earlier.observed_data["x"] = earlier.observed_data["x"] - 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert len(ie.compare_models({"now": idata, "earlier": earlier})) == 2  # same levels
    # a fit of an earlier irteval (missing cells as level 0 in a dense x) is told to refit
    later.observed_data = later.observed_data.drop_vars("x").assign(
        x=(("respondent", "item"), np.zeros((len(resp.respondents), len(resp.items)))))
    with pytest.raises(ValueError, match="in another layout than this irteval .* refit"):
        ie.add_log_likelihood(later, ie.models.polytomous_irt(resp, model=model))


def _check_downstream(idata):
    """Goodness and effectiveness areas equal a per-draw, per-algorithm computation from the
    paper's definitions (airt's: the levels of the data, the same top for every algorithm);
    latent trait, portfolio and the category curves run with labels."""
    goodness, effect = ie.model_goodness(idata, max_draws=50), ie.effectiveness(idata,
                                                                                max_draws=50)
    post, const = idata.posterior, idata.constant_data
    level = const["level"].values
    levels = np.asarray(idata.attrs["levels"])
    low, high = const["lowest_level"].values, const["highest_level"].values
    a, c, theta = (_thinned(idata, v) for v in ("a", "c", "theta"))
    valid = np.arange(c.shape[-1] + 1)[None, :] <= (high - low)[:, None]
    aucdf, aupec, mse = [], [], []
    for s in range(len(a)):
        logp = category_logp(theta[s], a[s], c[s], valid, idata.attrs["irteval_model"], xp=np)
        pred = logp.argmax(axis=-1)
        row = [], [], []
        n = len(levels)
        grid = np.linspace(0, 1, n)
        for j in range(len(low)):
            seen = ~np.isnan(level[:, j])
            x = np.searchsorted(levels, level[seen, j])  # 0..n - 1, on the data's levels
            x_hat = pred[seen, j] + low[j]
            e = x - x_hat
            row[0].append(np.trapezoid([np.mean(np.abs(e) <= k) for k in range(n)], grid))
            row[1].append(np.trapezoid([np.mean(x_hat >= n - 1 - k) for k in range(n)], grid))
            row[2].append(np.mean(e ** 2))
            if s == 0:  # the actual effectiveness has no draws
                auaec = np.trapezoid([np.mean(x >= n - 1 - k) for k in range(n)], grid)
                assert np.isclose(effect["auaec"].iloc[j], auaec)
        for out, values in zip((aucdf, aupec, mse), row):
            out.append(values)
    np.testing.assert_allclose(goodness["aucdf"], np.mean(aucdf, axis=0))
    np.testing.assert_allclose(goodness["mse"], np.mean(mse, axis=0))
    np.testing.assert_allclose(effect["aupec"], np.mean(aupec, axis=0))
    assert list(goodness.index) == list(post["item"].values)
    lt = ie.latent_trait(idata, max_draws=40)
    table = ie.portfolio(lt)
    assert set(table.index) == set(post["item"].values) and table["in_portfolio"].any()
    assert lt.spectrum.index.name == "dataset"
    # levels are said as levels (the axes read "performance" and "absolute scaled residual")
    assert ie.plot_latent_trait(lt).get_ylabel() == "level (smoothed)"
    assert ie.plot_goodness(idata, max_draws=20).get_xlabel().startswith("levels off, as a share x")
    axes = ie.plot_category_curves(idata, algorithms=["a0", "a3"], max_draws=40, n_grid=30)
    assert [ax.get_title() for ax in axes.ravel()[:2]] == ["a0", "a3"]
    assert len(axes.ravel()[0].lines) == 3 and len(axes.ravel()[1].lines) == 4
    assert len(axes.ravel()[0].lines[0].get_xdata()) == 30
    binned = idata.copy()  # levels from cuts=: the legend says what each stood for
    n_levels = len(idata.attrs["levels"])
    binned.attrs = {**idata.attrs, "level_lower": [0.0, *np.arange(1, n_levels) / n_levels],
                    "level_upper": [*np.arange(1, n_levels) / n_levels, 1.0]}
    legend = ie.plot_category_curves(binned, algorithms=["a0"], max_draws=20,
                                     n_grid=5).ravel()[0].figure.legends[0]
    assert legend.get_texts()[0].get_text() == (f"{idata.attrs['levels'][0]:g} "
                                                f"[0, {1 / n_levels:.3g}]")
    with pytest.warns(FutureWarning, match="items= is deprecated.*use algorithms="):
        old = ie.plot_category_curves(idata, items=["a3"], max_draws=40, n=30)
    np.testing.assert_allclose(old.ravel()[0].lines[0].get_ydata(),
                               axes.ravel()[1].lines[0].get_ydata())
    with mock.patch.object(_intervals, "probability_interval",
                           wraps=_intervals.probability_interval) as spy:
        ie.plot_category_curves(idata, algorithms=["a0"], max_draws=20)  # HDI of the log-odds
    assert spy.call_count == 1
    with pytest.raises(ValueError, match="unknown algorithms"):
        ie.plot_category_curves(idata, algorithms=["nope"])
    with pytest.raises(ValueError, match="n_grid=1: give a whole number of at least 2"):
        ie.plot_category_curves(idata, n_grid=1)
    with pytest.raises(ValueError, match="fit of irteval.models.continuous_irt"):
        ie.loo_by_algorithm(idata)
    with pytest.raises(ValueError, match=r"use irteval.plot_category_curves\(\) on it instead"):
        ie.plot_crm_heatmap(idata)  # the polytomous fit's plot, not algorithm_metrics
    plt.close("all")


def _thinned(idata, name, max_draws=50):
    """The thinned draws the summaries use (same seed)."""
    return stacked_draws(idata, name, max_draws, 0)


@pytest.mark.parametrize("model", ["gpcm", "graded"])
def test_map_leaves_the_saddle_at_zero(model):
    """PyMC's initial point (theta = 0, a = 0) is a saddle where both gradients vanish: MAP
    started there returned a = 0 and infinite thresholds; it starts at the principal
    component and lands where NUTS is."""
    rng = np.random.default_rng(22)
    resp, truth, _ = cal.simulate_polytomous(40, 5, 4, rng, model=model,
                                             truth=_truth(rng, 40, 5, 4))
    point = _fit(resp, model=model, fit={"method": "map"}).posterior
    a = point["a"].values.ravel()
    assert np.all(np.abs(a) > 0.3) and np.isfinite(point["d"].values).all()
    # the truth up to the reflection (here the posterior's sum of a may take either sign)
    flip = np.sign(np.corrcoef(point["theta"].values.ravel(), truth["theta"])[0, 1])
    assert (np.sign(a) == flip * np.sign(truth["a"])).all()
    assert flip * np.corrcoef(point["theta"].values.ravel(), truth["theta"])[0, 1] > 0.7
    with pytest.warns(UserWarning, match=r"algorithm_metrics\(\): this fit is one point"):
        ie.algorithm_metrics(_fit(resp, model=model, fit={"method": "map"}))


@pytest.mark.slow
def test_gpcm_recovers_the_truth():
    """200 datasets x 12 algorithms, 5 levels, two negative discriminations: 90% intervals
    of a and d cover 84-96%, R-hat <= 1.01, no divergences."""
    rng = np.random.default_rng(1)
    resp, truth, _ = cal.simulate_polytomous(200, 12, 5, rng, truth=_truth(rng))
    idata = _fit(resp)
    assert idata.attrs["divergences"] == 0 and idata.attrs["max_rhat"] <= 1.01
    inside = []
    for name in ("a", "d"):
        draws = idata.posterior[name]
        lo, hi = draws.quantile([0.05, 0.95], ("chain", "draw")).values
        inside.append(((lo <= truth[name]) & (truth[name] <= hi)).ravel())
    share = np.concatenate(inside).mean()
    assert 0.84 <= share <= 0.96, share
    assert (ie.algorithm_metrics(idata).loc[["a10", "a11"], "p_anomalous"] > 0.95).all()


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("model", ["gpcm", "graded"])
def test_sbc_on_the_default_path_is_uniform(model):
    """20 replicates, 30 datasets x 3 algorithms with 3 levels from the prior, the path users
    run (nutpie on the NumPy density of the GPCM or the graded model); L = 49, a chi-square
    test per entry (Holm) and the ranks of theta, a and c pooled per variable (5 bins). The
    long runs are in benchmarks/results/sbc/default (polytomous_*, 200 replicates: pooled
    theta p = 0.18; graded_*, 100). The 30 thetas of a replicate share its draws, so the
    pooled test is anti-conservative at 20 replicates: at seed 6 it gave p = 0.0006 once the
    chains got their own seeds."""
    n_keep = 49
    ranks, diagnostics = cal.run(partial(cal.simulate_polytomous, 30, 3, 3, model=model),
                                 partial(ie.models.polytomous_irt, model=model), 20, random_seed=7,
                                 n_keep=n_keep, draws=200, tune=250, chains=2)
    assert set(diagnostics["sampler"]) == {"nuts:nutpie"}
    assert cal.uniformity_table(ranks, n_keep)["p_holm"].min() > 0.001
    for name in ("theta", "a", "c"):
        block = ranks[[col for col in ranks.columns if col.startswith(f"{name}[")]].to_numpy()
        pooled = np.bincount(block.ravel() * 5 // (n_keep + 1), minlength=5)
        assert stats.chisquare(pooled).pvalue > 0.001, (name, pooled)


@pytest.mark.parametrize("missing", [False, True])
def test_draws_of_the_levels_take_a_batch_size(missing):
    """A resized draw (PyMC's change_dist_size: size = the batch) has the batch's shape; the
    random function took no notice of size, and gave one draw where three were asked."""
    import pymc as pm
    from pymc.distributions.shape_utils import change_dist_size

    levels = pd.DataFrame(np.random.default_rng(0).integers(0, 3, (12, 4)),
                          index=[f"d{i}" for i in range(12)], columns=list("abcd"))
    if missing:
        levels.iloc[0, 0] = np.nan
    model = ie.models.polytomous_irt(ie.Responses.from_wide(
        levels, kind="ordinal", respondent="dataset", item="algorithm"))
    one = pm.draw(model["x"], random_seed=0)
    assert pm.draw(change_dist_size(model["x"], (3,)), random_seed=0).shape == (3, *one.shape)
    batch = pm.draw(change_dist_size(model["x"], (2, 3)), random_seed=1)
    assert batch.shape == (2, 3, *one.shape) and set(np.unique(batch)) <= {0, 1, 2}


def test_an_item_that_skips_a_level_is_named_for_the_gpcm():
    """An algorithm no dataset left at level 2 (counts 4/0/8/48 in a probe): its GPCM
    thresholds crossed and its difficulty limit ranked it below weaker ones, unsaid."""
    wide = pd.DataFrame({"x": [1, 2, 3, 1, 2, 3] * 2, "y": [1, 3, 3, 1, 3, 1] * 2},
                        index=list("abcdefghijkl"))
    levels = ie.Responses.from_wide(wide, respondent="dataset", item="algorithm",
                                    kind="ordinal")
    with pytest.warns(ie.IdentificationWarning, match=r"1 algorithm skips a level \(e.g. 'y': "
                                                      r"no dataset at level 2, .*1: 6, 2: 0, "
                                                      r"3: 6\).*model='graded'"):
        ie.models.polytomous_irt(levels)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ie.models.polytomous_irt(levels, model="graded")
