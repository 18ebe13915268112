import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import xarray as xr  # noqa: E402

import irteval as ie  # noqa: E402
from irteval.irt.difficulty import moment_draws  # noqa: E402


def test_difficulty_table(small):
    resp, truth, idata = small
    table = ie.difficulty(idata, ci_prob=0.8)
    assert list(table.index) == list(resp.items) and table.index.name == "instance"
    assert list(table.columns) == ["mean", "sd", "hdi_lower", "hdi_upper", "n_obs", "accuracy",
                                   "bin", "p_bin"]  # (the 2PL's a, a_lower ... follow)
    assert (table["hdi_lower"] < table["mean"]).all() and (table["mean"] < table["hdi_upper"]).all()
    assert table.attrs["ci_prob"] == 0.8 and table.attrs["ci_kind"] == "hdi"
    eti = ie.difficulty(idata, ci_prob=0.8, ci_kind="eti")
    assert {"eti_lower", "eti_upper"} <= set(eti) and eti.attrs["ci_kind"] == "eti"
    b_draws = idata.posterior["b"].stack(s=("chain", "draw")).values
    np.testing.assert_allclose(eti["eti_lower"], np.quantile(b_draws, 0.1, axis=1))
    np.testing.assert_allclose(eti["eti_upper"], np.quantile(b_draws, 0.9, axis=1))
    wide = resp.to_wide(rows="item")
    np.testing.assert_allclose(table["accuracy"], wide.mean(axis=1).loc[table.index])
    people = ie.abilities(idata)
    np.testing.assert_allclose(people["accuracy"], wide.mean().loc[people.index])
    assert (people["n_obs"] == wide.count().loc[people.index]).all()
    # harder instances are answered correctly less often
    assert np.corrcoef(table["mean"], table["accuracy"])[0, 1] < -0.8
    assert np.corrcoef(table["mean"], truth["b"])[0, 1] > 0.6  # only 8 respondents
    assert ((table["p_bin"] > 0) & (table["p_bin"] <= 1)).all()
    with pytest.raises(ValueError, match="ci_prob must be a number between 0 and 1"):
        ie.difficulty(idata, ci_prob=1.5)
    with pytest.raises(ValueError, match="ci_kind must be one of"):
        ie.difficulty(idata, ci_kind="quantile")
    with pytest.warns(FutureWarning, match="hdi_prob= is deprecated"):
        old = ie.difficulty(idata, hdi_prob=0.8)
    assert old.equals(table)
    with pytest.raises(TypeError, match=r"difficulty\(\) needs the InferenceData"):
        ie.difficulty(idata.posterior_predictive)


def test_bins_have_equal_counts_in_every_draw(small):
    _, _, idata = small
    bins = ie.difficulty_bins(idata, n_bins=5)
    assert bins.dims == ("chain", "draw", "item")
    counts = np.apply_along_axis(np.bincount, -1, bins.values, minlength=5)
    assert (counts == 12).all()  # 60 items / 5 bins
    b = idata.posterior["b"].values
    first = b[0, 0]
    assert first[bins.values[0, 0] == 4].min() > first[bins.values[0, 0] == 0].max()


def test_characteristic_curves_fall_with_difficulty_and_match_the_model(small):
    resp, _, idata = small
    curves = ie.characteristic_curves(idata, n_bins=3)
    assert curves.index.names == ["model", "bin"] and len(curves) == resp.n_respondents * 3
    mean = curves.groupby("bin")[["accuracy", "predicted"]].mean()
    assert mean["accuracy"].is_monotonic_decreasing
    assert np.abs(mean["accuracy"] - mean["predicted"]).max() < 0.08
    assert (curves["accuracy_lower"] <= curves["accuracy"] + 1e-12).all()


def test_plots_take_ax_and_return_it(small):
    _, _, idata = small
    for plot, kwargs in ((ie.plot_item_characteristic, {"items": ["i0", "i5"]}),
                         (ie.plot_difficulty_distribution, {}),
                         (ie.plot_characteristic_curves, {"n_bins": 3})):
        fig, ax = plt.subplots()
        assert plot(idata, ax=ax, **kwargs) is ax
        assert ax.has_data()
        plt.close(fig)
    ax = ie.plot_difficulty_distribution({"a": idata, "b": idata})
    assert len(ax.get_legend().get_texts()) == 2
    assert len(ax.lines[0].get_xdata()) == 8  # sqrt(60 items) bins: 40 left 1.5 items a bin
    with pytest.raises(ValueError, match="unknown instance labels"):  # the fit's name
        ie.plot_item_characteristic(idata, items=["nope"])
    fig, (left, right) = plt.subplots(1, 2)
    ie.plot_item_characteristic(idata, items=["i0", "i5"], ax=left)
    assert left.get_legend() is None  # labels at the curves' ends: nothing in the neighbour
    # the labels alone ("instance 7" only where labels are numbers: the demo's digits)
    assert [t.get_text().split(" (")[0] for t in left.texts] == ["i0", "i5"]
    table = ie.characteristic_curves(idata, n_bins=3)
    with pytest.raises(ValueError, match="n_bins=4, but this table has 3 bins"):
        ie.plot_characteristic_curves(table, n_bins=4)
    with pytest.raises(TypeError, match="bins=2.5: give a whole number"):
        ie.plot_difficulty_distribution(idata, bins=2.5)
    plt.close("all")


def test_difficulty_moments_cover_the_true_location_and_spread(sim_1pl, fit_1pl):
    resp, truth = sim_1pl
    moments = ie.difficulty_moments(fit_1pl, ci_prob=0.95)
    assert list(moments.index) == ["mean", "sd"] and moments.attrs["n_items"] == 300
    true = {"mean": truth["b"].mean(), "sd": truth["b"].std(ddof=1)}
    for stat in ("mean", "sd"):
        row = moments.loc[stat]
        assert row["hdi_lower"] < true[stat] < row["hdi_upper"], (stat, row, true[stat])
    # the classical estimate: the posterior means' mean and sd (n - 1); they shrink towards
    # the centre, so their sd understates the spread
    point = fit_1pl.posterior["b"].mean(("chain", "draw")).values
    assert moments.loc["mean", "estimate"] == pytest.approx(point.mean())
    assert moments.loc["sd", "estimate"] == pytest.approx(point.std(ddof=1))
    assert moments.loc["sd", "estimate"] < moments.loc["sd", "posterior_mean"]
    wide = resp.to_wide(rows="item")
    varied = int(((wide > 0).any(axis=1) & (wide < 1).any(axis=1)).sum())
    assert ie.difficulty_moments(fit_1pl, varied_only=True).attrs["n_items"] == varied
    # blocks of draws (whole-posterior temporaries took 1.4 GB at 20000 x 4000): the same, in
    # one block and in three (32 + 32 + 6 draws of 2^16 items)
    many = xr.DataArray(np.random.default_rng(0).normal(size=(1, 70, 2**16)),
                        dims=("chain", "draw", "item"),
                        coords={"chain": [0], "draw": np.arange(70)})
    for b in (fit_1pl.posterior["b"], many):
        some = np.arange(0, 300, 7)
        for items, sub in ((None, b), (some, b.isel(item=some))):
            mean, sd = moment_draws(b, items)
            xr.testing.assert_allclose(mean, sub.mean("item"))
            xr.testing.assert_allclose(sd, sub.std("item", ddof=1))
