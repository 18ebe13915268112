"""Item and person fit, local dependence and information (issue 18): the statistics against a
direct computation on one draw, misfitting instances flagged, labels kept, bad input named."""

import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import irteval as ie  # noqa: E402

from .conftest import quiet_fit  # noqa: E402

MISFIT = [f"i{k}" for k in range(0, 60, 6)]


@pytest.fixture(scope="module")
def misfit_fit():
    """A 1PL fitted to 300 models x 60 instances where 10 instances (every sixth, their true
    difficulty moved to [-1, 1]) are answered independently of ability, at their base rate."""
    rng = np.random.default_rng(3)
    b = rng.normal(-0.5, 1.2, 60)
    b[::6] = np.linspace(-1, 1, 10)
    theta = rng.normal(0, 1.3, 300)
    p = 1 / (1 + np.exp(-(theta[None] - b[:, None])))
    p[::6] = p[::6].mean(axis=1, keepdims=True)
    wide = pd.DataFrame((rng.random(p.shape) < p).astype(float),
                        index=pd.Index([f"i{k}" for k in range(60)], name="instance"),
                        columns=[f"m{k}" for k in range(300)])
    resp = ie.Responses.from_wide(wide, respondent="model", item="instance", rows="item")
    return quiet_fit(ie.models.onepl(resp), draws=300, tune=400, chains=2, random_seed=1)


def test_misfitting_instances_are_flagged(misfit_fit):
    table = ie.item_fit(misfit_fit)
    assert table.index.name == "instance" and list(table.index[:2]) == ["i0", "i1"]
    assert table.loc[MISFIT, "misfit"].all()
    assert (table.loc[MISFIT, "infit_lower"] > 1).all()
    others = table.drop(MISFIT)
    assert others["misfit"].mean() < 0.05
    people = ie.person_fit(misfit_fit)
    assert people.index.name == "model" and people["misfit"].mean() < 0.05
    alone = []  # either p-value flags: instances by the grouped one alone, models by the other
    for fit in (table, people):
        deviance, grouped = fit["ppp"] < 0.05, fit["ppp_groups"] < 0.05
        assert (fit["misfit"] == (deviance | grouped)).all()
        alone.append(((grouped & ~deviance).sum(), (deviance & ~grouped).sum()))
    assert alone[0][0] > 0 and alone[1][1] > 0, alone
    ax = ie.plot_fit(table)
    assert "misfit" in ax.get_legend().get_texts()[1].get_text()
    plt.close("all")


def test_fit_plots_on_shared_axes_have_no_ticks_over_the_labels():
    """Beside another panel on a shared x axis (notebook 01), the second panel's log scale and
    ticks replaced the first's, and a tick at 4 stood over the labels' column."""
    rng = np.random.default_rng(0)
    infit = np.exp(rng.normal(0, 0.2, 40))
    infit[:3] = [1.6, 1.8, 2.1]
    misfit = np.arange(40) < 3
    table = pd.DataFrame({"infit": infit, "outfit": infit, "ppp": np.where(misfit, 0.01, 0.5),
                          "misfit": misfit, "infit_lower": infit * 0.8, "infit_upper": infit * 1.2,
                          "outfit_lower": infit * 0.8, "outfit_upper": infit * 1.2},
                         index=pd.Index([f"i{k}" for k in range(40)], name="instance"))
    for order in ([table, table[~misfit]], [table[~misfit], table]):
        axes = plt.subplots(1, 2, sharex=True, sharey=True)[1]
        for ax, shown in zip(axes, order):
            ie.plot_fit(shown, ax=ax)
        assert axes[0].get_xlim()[1] > 4 and max(axes[0].get_xticks()) <= 2.1 * 1.2 * 1.05
    # both labelled, the second further out: its points have ticks (the first bound held)
    wide = table.assign(**{c: table[c].where(~misfit, table[c] * 4)
                           for c in ("infit", "infit_lower", "infit_upper")})
    axes = plt.subplots(1, 2, sharex=True, sharey=True)[1]
    for ax, shown in zip(axes, (table, wide)):
        ie.plot_fit(shown, ax=ax)
    assert 2.1 * 1.2 * 1.05 < max(axes[1].get_xticks()) <= 8.4 * 1.2 * 1.05
    plt.close("all")


def one_draw(idata, a=None):
    """The fit cut to its first draw (optionally with discriminations ``a`` added)."""
    post = idata.posterior.isel(chain=[0], draw=[0])
    if a is not None:
        post = post.assign(a=(("chain", "draw", "item"), a[None, None]))
    out = idata.copy()
    out.posterior = post
    return out


@pytest.mark.parametrize("two_pl", [False, True])
def test_infit_outfit_equal_a_direct_computation(small, two_pl):
    resp, _, idata = small
    n_items = idata.posterior.sizes["item"]
    a = np.exp(np.random.default_rng(0).normal(0, 0.5, n_items)) if two_pl else None
    fixed = one_draw(idata, a)
    b = fixed.posterior["b"].values[0, 0]
    theta = fixed.posterior["theta"].values[0, 0]
    a = np.ones(n_items) if a is None else a
    y = resp.to_wide(rows="item").to_numpy().astype(float)
    p = 1 / (1 + np.exp(-a[:, None] * (theta[None, :] - b[:, None])))
    z2 = (y - p) ** 2 / (p * (1 - p))
    with pytest.warns(UserWarning, match=r"item_fit\(\): this fit is one draw: its intervals "
                      "have width 0 and its probabilities are 0 or 1"):  # misfit flags too
        items = ie.item_fit(fixed, max_draws=None, ci_kind="eti")
    np.testing.assert_allclose(items["outfit"], z2.mean(axis=1), rtol=1e-9)
    np.testing.assert_allclose(items["infit"], ((y - p) ** 2).sum(1) / (p * (1 - p)).sum(1),
                               rtol=1e-9)
    people = ie.person_fit(fixed, max_draws=None, ci_kind="eti")
    np.testing.assert_allclose(people["outfit"], z2.mean(axis=0), rtol=1e-9)
    resid = (y - p - (y - p).mean(1, keepdims=True))
    resid /= resid.std(axis=1, keepdims=True)
    q3 = ie.local_dependence(fixed, max_draws=None)
    np.testing.assert_allclose(q3.to_numpy(), resid @ resid.T / y.shape[1], atol=1e-8)
    assert list(q3.index) == list(idata.posterior["item"].values)
    info = ie.information(fixed, theta=[-1.0, 0.5], items=["i3"], max_draws=None,
                          ci_kind="eti")
    p_grid = 1 / (1 + np.exp(-a[:, None] * (np.array([-1.0, 0.5]) - b[:, None])))
    expected = (a[:, None] ** 2 * p_grid * (1 - p_grid))
    np.testing.assert_allclose(info.loc["test", "mean"], expected.sum(0), rtol=1e-9)
    np.testing.assert_allclose(info.loc["i3", "mean"], expected[3], rtol=1e-9)


def test_infit_of_an_item_whose_p_rounds_to_1_is_its_limit_0(small):
    """A 2PL draw where an item every model got right has P = 1 in floats: its infit was
    0 / 0 (NaN, a RuntimeWarning, and a NaN mean beside a finite interval); the limit of
    (1 - p) / p is 0."""
    resp, _, idata = small
    y = resp.to_wide(rows="item")
    easy = y.index[y.mean(axis=1) == 1][0]  # answered right by every model
    fixed = one_draw(idata, np.ones(idata.posterior.sizes["item"]))
    fixed.posterior["b"].loc[{"item": easy}] = -1e3  # p = 1 for every model
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        items = ie.item_fit(fixed, max_draws=None)
    assert items.loc[easy, "infit"] == 0 and np.isfinite(items["infit"]).all()


def test_information_stays_finite_where_p_rounds_to_0_or_1():
    """The 3PL's information was 0 / 0 = NaN once a (theta - b) > 37 (P = 1 in floats): the
    test information's mean NaN, and the adaptive test's argmax picked the NaN item."""
    from irteval.irt.item_draws import item_information

    theta, b = np.array([-800.0, -3.0, 0.5, 8.0, 37.0, 800.0]), -0.5
    for c, d in ((0.25, 1.0), (0.0, 0.9), (0.2, 0.95), (0.0, 1.0)):
        info = item_information(theta, b, a=5.0, c=c, d=d)
        assert np.isfinite(info).all() and (info >= 0).all()
        assert info[0] < 1e-12 and info[-1] < 1e-12  # far from b, nothing to learn
        p = c + (d - c) / (1 + np.exp(-5.0 * (theta[1:3] - b)))  # the textbook form, where
        textbook = 25 * (p - c) ** 2 * (d - p) ** 2 / ((d - c) ** 2 * p * (1 - p))  # it works
        np.testing.assert_allclose(info[1:3], textbook, rtol=1e-8)


def test_information_bands_and_plot(small):
    _, _, idata = small
    info = ie.information(idata, items=["i0", "i5"])
    assert info.index.names == ["curve", "theta"]
    one = ie.information(idata, items="i5")  # one label, not its characters
    assert set(one.index.get_level_values("curve")) == {"test", "i5"}
    assert set(info.index.get_level_values("curve")) == {"test", "i0", "i5"}
    test = info.loc["test"]
    assert len(test) == 61 and (test["hdi_lower"] <= test["mean"]).all()
    assert (test["mean"] <= test["hdi_upper"]).all()
    ax = ie.plot_information(info)
    assert ax.get_ylabel() == "test information"
    plt.close("all")


def test_plots_given_the_fit_pass_its_draws_and_seed_on(small):
    """plot_fit, plot_information and plot_characteristic_curves computed their table with
    its defaults only (max_draws= was a TypeError), as the other plots given a fit do not."""
    _, _, idata = small
    kw = dict(max_draws=20, random_seed=3)
    for plot, table in ((ie.plot_fit, ie.item_fit), (ie.plot_information, ie.information),
                        (ie.plot_characteristic_curves, ie.characteristic_curves)):
        from_fit, from_table = plot(idata, **kw), plot(table(idata, **kw))
        for a, b in zip(from_fit.get_lines() + from_fit.collections,
                        from_table.get_lines() + from_table.collections):
            data = [(x.get_xydata() if hasattr(x, "get_xydata") else x.get_offsets())
                    for x in (a, b)]
            np.testing.assert_allclose(*data)
        plt.close("all")


def test_bad_input_is_named(small):
    _, _, idata = small
    with pytest.raises(ValueError, match=r"unknown items \[.nope.\]"):
        ie.information(idata, items=["nope"])
    for theta in ([0.0, np.nan], [], "a"):  # [] gave an empty table, "a" NumPy's error
        with pytest.raises(ValueError, match="theta must be a finite"):
            ie.information(idata, theta=theta)
    with pytest.raises(ValueError, match="n_labels=-1: give a whole number"):
        ie.plot_fit(ie.item_fit(idata, max_draws=20), n_labels=-1)
    for top in (0, 2.5, True):  # before any draw is read
        with pytest.raises((TypeError, ValueError), match=f"top={top!r}: give a whole number"):
            ie.local_dependence(idata, top=top)
    with pytest.raises(TypeError, match="item_fit"):
        ie.item_fit({"b": 1})
    with pytest.raises(ValueError, match="plot_fit takes the result of irteval.item_fit"):
        ie.plot_fit(pd.DataFrame({"x": [1]}))
    resp, _, _ = small
    point = quiet_fit(ie.models.onepl(resp), method="map", random_seed=0)
    for statistic in (ie.item_fit, ie.person_fit, ie.local_dependence):
        with pytest.raises(ValueError, match="one point \\(MAP\\)"):
            statistic(point)  # p-values of one replicate flagged half the items
    summaries = {"difficulty": ie.difficulty, "abilities": ie.abilities,
                 "difficulty_moments": ie.difficulty_moments, "information": ie.information,
                 "characteristic_curves": ie.characteristic_curves}
    for name, summary in summaries.items():  # intervals of width 0: said, not refused
        with pytest.warns(UserWarning, match=name + r"\(\): this fit is one point \(MAP\)"):
            summary(point)


def test_grouped_chi_square_equals_a_direct_computation():
    """ppp_groups' discrepancy at one draw, with missing cells: each item's answering
    respondents in G = min(5, n / 5) equal groups by ability, sum over groups of
    (observed - expected correct)^2 / sum p (1 - p), against a loop over items."""
    from irteval.irt.fit_statistics import MAX_GROUPS, _cell_groups, _chi_square, _ranks_within

    rng = np.random.default_rng(0)
    n_items, n_resp = 12, 40
    theta, b = rng.normal(size=n_resp), rng.normal(size=n_items)
    p_all = 1 / (1 + np.exp(-(theta[None, :] - b[:, None])))
    seen = rng.random((n_items, n_resp)) < np.linspace(0.2, 1.0, n_items)[:, None]
    seen[0] = np.arange(n_resp) < 22  # 4 groups of 6, 5, 6, 5 (np.array_split: 6, 6, 5, 5)
    item_idx, resp_idx = np.nonzero(seen)
    p = p_all[item_idx, resp_idx]
    y = (rng.random(p.size) < p).astype(float)
    count = np.bincount(item_idx, minlength=n_items)
    groups = np.minimum(np.maximum(count // 5, 1), 5)
    cell_group = _cell_groups(item_idx, resp_idx, seen, count, theta)  # what item_fit uses
    expected, variance = (np.bincount(cell_group, v, n_items * MAX_GROUPS)
                          for v in (p, p * (1 - p)))
    ours = _chi_square(cell_group, y, expected, variance, n_items)
    direct = np.zeros(n_items)
    for i in range(n_items):
        cells = np.flatnonzero(item_idx == i)
        cells = cells[np.argsort(theta[resp_idx[cells]])]  # weakest first
        part_of = np.arange(len(cells)) * groups[i] // len(cells)  # equal parts, in order
        for k in range(groups[i]):
            part = cells[part_of == k]
            direct[i] += (y[part] - p[part]).sum() ** 2 / (p[part] * (1 - p[part])).sum()
    np.testing.assert_allclose(ours, direct, rtol=1e-9)
    complete = _ranks_within(item_idx, resp_idx, None, theta)
    assert (complete == np.argsort(np.argsort(theta))[resp_idx]).all()


def test_a_dependent_pair_is_flagged_and_no_other():
    """i1 copies i0's answer for about half of 300 models (local dependence the one ability
    cannot explain): the pair comes first with ``ppp_max`` below 0.05, and none of the 189
    independent pairs is flagged, though some reach ``ppp`` < 0.05 (about 5% of null pairs
    do) and one reached |Q3| = 0.2, the usual rule of thumb, in a probe. The table's Q3 are
    the matrix's entries (the same draws)."""
    from .conftest import simulate

    wide = simulate(20, 300, seed=0)[0].to_wide(rows="item")
    copied = np.random.default_rng(100).random(300) < 0.5
    wide.iloc[1] = np.where(copied, wide.iloc[0], wide.iloc[1])
    resp = ie.Responses.from_wide(wide, respondent="model", rows="item")
    fit = quiet_fit(ie.models.onepl(resp), draws=250, tune=300, chains=2, random_seed=0)
    table = ie.local_dependence(fit, top=500, max_draws=100, ci_kind="eti")
    assert len(table) == 190 and table.index.names == ["instance_1", "instance_2"]
    assert table.index[0] == ("i0", "i1") and table["q3"].iloc[0] > 0.3
    assert table["dependent"].tolist() == [True] + [False] * 189
    assert 0 < (table["ppp"].iloc[1:] < 0.05).mean() < 0.1
    assert (table["q3_lower"] <= table["q3"]).all() and (table["q3"] <= table["q3_upper"]).all()
    assert (table["n_shared"] == 300).all() and table.attrs["posterior_draws"] == 100
    assert table.attrs["ci_kind"] == "eti"
    matrix = ie.local_dependence(fit, max_draws=100)
    pairs = table.index.to_frame()
    np.testing.assert_allclose(
        table["q3"], [matrix.loc[i, j] for i, j in zip(pairs["instance_1"], pairs["instance_2"])],
        atol=1e-12)
    assert (table["q3"].abs().diff().iloc[1:] <= 0).all()  # largest |Q3| first
    top = ie.local_dependence(fit, top=3, max_draws=100, ci_kind="eti")
    pd.testing.assert_frame_equal(top, table.iloc[:3], check_exact=False, atol=1e-12,
                                  check_like=True)


def test_q3_of_items_without_a_shared_respondent_is_nan():
    """Two instances answered by disjoint sets of models: their Q3 was 0.00, a number it has
    no data for."""
    from .conftest import simulate

    wide = simulate(40, 12, seed=2)[0].to_wide(rows="item")
    wide.iloc[0, 6:] = np.nan  # i0: models 0-5 only
    wide.iloc[1, :6] = np.nan  # i1: models 6-11 only
    fit = quiet_fit(ie.models.onepl(ie.Responses.from_wide(wide, rows="item")),
                    method="laplace", draws=20, chains=1, random_seed=0)
    with pytest.warns(UserWarning, match="1 pairs of instances share fewer than two"):
        q3 = ie.local_dependence(fit, max_draws=5)
    assert np.isnan(q3.loc["i0", "i1"]) and np.isfinite(q3.loc["i0", "i2"])
    # a pair's correlation over the respondents who answered both (pairwise complete): with
    # each item standardised over all its answers, Q3 reached -1.11 / 1.36 (80% missing)
    fixed = one_draw(fit)
    b, theta = fixed.posterior["b"].values[0, 0], fixed.posterior["theta"].values[0, 0]
    resid = wide.to_numpy() - 1 / (1 + np.exp(-(theta[None, :] - b[:, None])))
    expected = pd.DataFrame(resid.T).corr(min_periods=2).to_numpy()
    with pytest.warns(UserWarning, match="share fewer than two"):
        got = ie.local_dependence(fixed, max_draws=None).to_numpy()
    np.testing.assert_allclose(got, expected, atol=1e-12)


def test_q3_with_missing_cells_stays_exact_for_an_item_on_its_floor():
    """An instance on its floor (c = 0.25, b = 20) answered wrong by every model: its
    residuals are -0.25 - 1e-9 or so, their mean far from 0 against their spread. Uncentred
    sums lost every digit there (Q3 off by 0.17 on a probe's 3PL, +-inf further out);
    centred first, Q3 equals pandas' pairwise Pearson correlation."""
    from .conftest import simulate

    wide = simulate(30, 40, seed=3)[0].to_wide(rows="item")
    wide.iloc[0] = 0.0
    wide = wide.mask(np.random.default_rng(0).random(wide.shape) < 0.1)
    fit = quiet_fit(ie.models.onepl(ie.Responses.from_wide(wide, rows="item")),
                    method="laplace", draws=20, chains=1, random_seed=0)
    fixed = one_draw(fit)
    fixed.posterior["b"][..., 0] = 20.0
    fixed.posterior["c"] = fixed.posterior["b"] * 0 + 0.25
    b, theta = fixed.posterior["b"].values[0, 0], fixed.posterior["theta"].values[0, 0]
    p = 0.25 + 0.75 / (1 + np.exp(-(theta[None, :] - b[:, None])))
    expected = pd.DataFrame((wide.to_numpy() - p).T).corr(min_periods=2).to_numpy()
    got = ie.local_dependence(fixed, max_draws=None).to_numpy()
    assert np.isfinite(got).all()
    np.testing.assert_allclose(got, expected, atol=1e-6)
    # every model at the same ability: i0's residuals are one number, its correlations none
    fixed.posterior["theta"][:] = 0.0
    with pytest.warns(UserWarning, match=r"29 pairs of instances have, in some posterior draw, "
                      "one whose residuals are the same"):
        got = ie.local_dependence(fixed, max_draws=None)
    assert got.iloc[0, 1:].isna().all() and np.isfinite(got.iloc[1:, 1:].to_numpy()).all()


def test_q3_of_a_constant_residual_is_nan_with_complete_data_too():
    """The complete-data path gave 0 (and a diagonal of 0) where the missing-data path gives
    NaN and a warning (review)."""
    from .conftest import simulate

    wide = simulate(30, 40, seed=3)[0].to_wide(rows="item")
    wide.iloc[0] = 0.0
    fit = quiet_fit(ie.models.onepl(ie.Responses.from_wide(wide, rows="item")),
                    method="laplace", draws=20, chains=1, random_seed=0)
    fixed = one_draw(fit)
    fixed.posterior["theta"][:] = 0.0
    with pytest.warns(UserWarning, match="29 pairs of instances have"):
        got = ie.local_dependence(fixed, max_draws=None)
    assert got.iloc[0].isna().all() and np.isfinite(got.iloc[1:, 1:].to_numpy()).all()


def test_the_largest_pairs_are_chosen_a_block_of_rows_at_a_time(monkeypatch):
    """``local_dependence(top=)`` picks its pairs from blocks of rows (no second items x items
    matrix: 2.7 -> 1.2 GB on optdigits): the same pairs as a sort of the whole matrix, largest
    |Q3| first, ties in the fit's order even across blocks, never a NaN or a pair outside
    ``upper``."""
    from irteval.irt import fit_statistics

    rng = np.random.default_rng(0)
    q3 = rng.integers(-4, 5, (13, 13)) / 4.0  # many ties
    q3[rng.random(q3.shape) < 0.1] = np.nan
    upper = np.triu(rng.random(q3.shape) < 0.9, k=1)
    size = np.where(upper & ~np.isnan(q3), np.abs(q3), -1.0).ravel()
    ranked = np.lexsort((np.arange(size.size), -size))
    ranked = ranked[size[ranked] >= 0]
    monkeypatch.setattr(fit_statistics, "ROWS_PER_BLOCK", 3)
    for top in (1, 5, 17, len(ranked), len(ranked) + 10):
        np.testing.assert_array_equal(fit_statistics._largest(q3, upper, top), ranked[:top])
