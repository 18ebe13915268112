"""Continuous IRT (AIRT): scaling, bad input, parameter recovery, airt's examples."""

import warnings
from dataclasses import replace
from pathlib import Path

import arviz as az
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_rgb
from scipy.special import expit

import irteval as ie
from irteval.models.continuous_irt import marginal_log_likelihood
from irteval.data.scaling import to_z

DATA = Path(__file__).parent / "data"


def simulate_airt(n=200, n_items=12, n_negative=2, seed=0):
    """z_ij = gamma_j (theta_i - beta_j) + Normal(0, |gamma_j / alpha_j|), performance
    y = logistic(z) on bounds (0, 1); the last ``n_negative`` algorithms are anomalous."""
    rng = np.random.default_rng(seed)
    sign = np.r_[np.ones(n_items - n_negative), -np.ones(n_negative)]
    gamma = sign * rng.uniform(0.8, 2.0, n_items)
    alpha = sign * rng.uniform(0.7, 2.5, n_items)
    beta = rng.normal(0, 1, n_items)
    theta = rng.normal(0, 1, n)
    z = gamma * (theta[:, None] - beta) + rng.normal(0, 1, (n, n_items)) * np.abs(gamma / alpha)
    items = [f"algo{j}" for j in range(n_items)]
    wide = pd.DataFrame(1 / (1 + np.exp(-z)), columns=items,
                        index=pd.Index([f"d{i}" for i in range(n)], name="dataset"))
    truth = {"alpha": pd.Series(alpha, items), "beta": pd.Series(beta, items),
             "gamma": pd.Series(gamma, items), "theta": pd.Series(theta, wide.index)}
    return wide, truth


def responses(wide, **kwargs):
    return ie.Responses.from_wide(wide, respondent="dataset", item="algorithm",
                                  kind="continuous", **kwargs)


@pytest.fixture(scope="module")
def recovery():
    wide, truth = simulate_airt()
    perf = responses(wide, bounds=(0, 1), clip=1e-12)
    idata = ie.fit(ie.models.continuous_irt(perf), draws=1000, tune=1000, random_seed=1,
                   progressbar=False, posterior_predictive=True)
    return perf, truth, idata


def test_scales():
    y = np.array([0.0, 0.25, 0.5, 1.0])
    lo, hi = np.zeros(4), np.ones(4)
    assert np.allclose(to_z(y, lo, hi, "logit", 0.01), np.log([0.01 / 0.99, 1 / 3, 1, 99]))
    # airt: shift by lo, values on a bound move 0.01 inside it, z = log(y / (max - y))
    lo2, hi2 = np.full(4, 2.0), np.full(4, 4.0)
    z = to_z(y * 2 + 2, lo2, hi2, "airt")
    assert np.allclose(z, np.log(np.array([0.01, 0.5, 1.0, 1.99]) / np.array([1.99, 1.5, 1, 0.01])))
    assert np.allclose(2 + 2 * expit(z[1:3]), [2.5, 3.0])  # back: lo + (hi - lo) logistic(z)
    perf = responses(pd.DataFrame({"a": [0.1, 0.5, 0.9], "b": [0.2, 0.4, 0.3]}))
    assert np.allclose(perf.lower, [0.1, 0.2]) and np.allclose(perf.upper, [0.9, 0.4])
    glob = responses(pd.DataFrame({"a": [0.1, 0.5, 0.9], "b": [0.2, 0.4, 0.3]}), bounds="global")
    assert np.allclose(glob.lower, 0.1) and np.allclose(glob.upper, 0.9)


@pytest.mark.parametrize("frame, kwargs, message", [
    ({"a": [0.5, 0.5, 0.5], "b": [0.1, 0.2, 0.3]}, {}, "1 algorithm has one value only"),
    ({"a": [0.5, 0.7, 0.2], "b": [0.1, 0.2, 0.3]}, {"bounds": (1, 0)}, "upper bound <= lower"),
    ({"a": [0.5, 1.5, 0.2], "b": [0.1, 0.2, 0.3]}, {"bounds": (0, 1)},  # where, by dataset
     r"1 value lies outside their bounds, e.g. 1.5 \(algorithm 'a', dataset 1\)"),
    ({"a": [0.5, 0.7, 0.2], "b": [0.1, 0.2, 0.3]}, {"bounds": "rows"}, "bounds='rows'"),
    ({"a": [0.5, 0.7, 0.2], "b": [0.1, 0.2, 0.3]}, {"bounds": {"a": (0, 1)}},
     r"bounds are missing for 1 algorithm, e.g. \['b'\]; give"),
    ({"a": [0.5, 0.7, 0.2], "b": [0.1, 0.2, 0.3]}, {"bounds": {"a": (0, 1), "B ": (0, 1)}},
     r"missing for 1 algorithm, e.g. \['b'\]; bounds name algorithms not in the data: "
     r"\['B '\]; labels are matched exactly, and 'B ' differs from 'b' only in case"),
    ({"a": [0.5, 50, 0.2], "b": [0.1, 0.2, 0.3]}, {"bounds": (0, 1)},
     r"50 \(algorithm 'a', dataset 1\); values above an upper bound of 1 \(none above 110\) "
     r"may be percent: divide them by 100, or widen"),
    ({"a": [0.5, 1.03, 0.2], "b": [0.1, 0.2, 0.3]}, {"bounds": (0, 1)},  # an overshoot
     r"1.03 \(algorithm 'a', dataset 1\); widen the bounds"),
    ({"a": [50, 103, 20], "b": [10, 20, 0.3]}, {"bounds": (0, 1)},  # percent, one above 100
     r"may be percent: divide them by 100"),
    ({"a": [0.5, 0.7, 0.2], "b": [0.1, 0.2, 0.3]}, {"bounds": {"a": (0, 1), "b": ("lo", 1)}},
     r"bounds for algorithm 'b' must be a pair of numbers \(lo, hi\), got \('lo', 1\)"),
    ({"a": [0.5, 0.7, 0.2], "b": [0.1, 0.2, 0.3]},  # was pandas' "could not convert"
     {"bounds": pd.DataFrame({"lower": [0, "lo"], "upper": [1, 1]}, index=["a", "b"])},
     r"bounds for algorithm 'b' must be numbers, got \('lo', 1\)"),
    ({"a": [0.5, 0.7, 0.2], "b": [0.1, 0.2, 0.3]}, {"transform": "probit"}, "transform="),
    ({"a": [0.5, 0.7, 0.2], "b": [0.1, 0.2, 0.3]}, {"clip": 0.7}, "clip must lie"),
    ({"a": [0.5, np.inf, 0.2], "b": [0.1, 0.2, 0.3]}, {}, "infinite values"),
    ({"a": [0.5, "fast", 0.2], "b": [0.1, 0.2, 0.3]}, {}, "not numbers"),
])
def test_bad_input(frame, kwargs, message):
    with pytest.raises(ValueError, match=message):
        responses(pd.DataFrame(frame), **kwargs)


def test_model_needs_continuous_data_and_two_algorithms():
    with pytest.raises(ValueError, match="only one .*'a'.*at least two"):  # Responses refuse it
        responses(pd.DataFrame({"a": [0.5, 0.7, 0.2]}))
    binary = ie.Responses.from_wide(pd.DataFrame({"a": [1, 0], "b": [0, 1]}))
    with pytest.raises(ValueError, match="kind='continuous'"):
        ie.models.continuous_irt(binary)
    two = responses(pd.DataFrame({"a": [0.5, 0.7, 0.2], "b": [0.1, 0.2, 0.3]}))
    with pytest.raises(ValueError, match="init must be"):
        ie.models.continuous_irt(two, init="random")
    with pytest.raises(ValueError, match=r"prior_tau=-1: give a finite number > 0"):
        ie.models.continuous_irt(two, prior_tau=-1)  # was a math domain error at fit time
    with pytest.raises(TypeError, match=r"n_starts='10': give a whole number of at least 1"):
        ie.models.continuous_irt(two, n_starts="10")  # failed in the fit's optimisations
    with pytest.raises(ValueError, match=r"n_starts=0: give a whole number of at least 1"):
        ie.models.continuous_irt(two, n_starts=0)  # ran one start in silence


def test_few_datasets_are_said_to_leave_the_algorithms_to_their_priors():
    """Two datasets gave every algorithm an lto and metrics, with no word that 3 parameters
    per algorithm had 2 values each to learn from."""
    rng = np.random.default_rng(0)
    wide = pd.DataFrame(rng.uniform(0, 1, (12, 3)), columns=list("abc"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ie.models.continuous_irt(responses(wide, bounds=(0, 1)))
    wide.iloc[:5, 1] = np.nan
    with pytest.warns(ie.IdentificationWarning, match=r"^1 algorithm has a performance on fewer "
                      r"than 10 datasets \(e.g. 'b': 7\).* of it rest mostly on their priors"):
        ie.models.continuous_irt(responses(wide, bounds=(0, 1)))
    with pytest.warns(ie.IdentificationWarning, match=r"^every algorithm has .*'a': 2"):
        ie.models.continuous_irt(responses(wide.iloc[5:7], bounds=(0, 1)))
    with pytest.warns(ie.IdentificationWarning, match=r"a threshold per level"):
        ie.models.polytomous_irt(ie.Responses.from_wide(
            wide.iloc[5:9].round(0) + 1, respondent="dataset", item="algorithm", kind="ordinal"))


def test_missing_cells_are_kept_out_of_the_likelihood():
    wide, _ = simulate_airt(n=40, n_items=4, seed=3)
    full = responses(wide, bounds=(0, 1), clip=1e-12)
    holey = wide.copy()
    holey.iloc[0, 1] = np.nan
    perf = responses(holey, bounds=(0, 1), clip=1e-12)
    assert perf.n_obs == full.n_obs - 1
    params = pd.DataFrame({"alpha": 1.0, "beta": 0.0, "gamma": 1.5}, index=perf.items)
    # removing a cell changes the likelihood by that cell's marginal contribution only
    assert marginal_log_likelihood(perf, params) > marginal_log_likelihood(full, params)


def test_missing_cells_are_nan_in_the_data_and_replicates_users_see():
    """az.plot_ppc showed the missing cells as z = 0 in the data and in the replicates (a
    spike that looked like a good fit); now NaN, which ArviZ's density leaves out."""
    wide, _ = simulate_airt(n=30, n_items=4, seed=3)
    wide.iloc[[0, 5, 9], [1, 2, 1]] = np.nan
    model = ie.models.continuous_irt(responses(wide, bounds=(0, 1), clip=1e-12))
    idata = ie.fit(model, draws=60, tune=100, chains=1, random_seed=0, progressbar=False,
                   posterior_predictive=True)
    missing = wide.isna().to_numpy()
    for z in (idata.observed_data["z"], idata.posterior_predictive["z"]):
        assert np.isnan(z.values[..., missing]).all()
        assert not np.isnan(z.values[..., ~missing]).any()
    az.plot_ppc(idata)
    plt.close("all")
    filled = wide.fillna(0.5)  # the missing cells filled in: other data, refused
    bare = ie.fit(model, draws=60, tune=100, chains=1, random_seed=0, progressbar=False,
                  log_likelihood=False)
    assert ie.algorithm_metrics(bare)["n_obs"].tolist() == (30 - wide.isna().sum()).tolist()
    with pytest.raises(ValueError, match="the model's data 'performance' is not the fit's"):
        ie.add_log_likelihood(bare, ie.models.continuous_irt(responses(filled, bounds=(0, 1),
                                                                       clip=1e-12)))
    turned = model.responses.reflected()  # (as --lower-is-better): the option is named
    assert turned.lower_is_better and not turned.reflected().lower_is_better
    with pytest.raises(ValueError, match=r"not the fit's.*made with lower_is_better=0 \(this "
                                         r"model: 1\)"):
        ie.add_log_likelihood(bare, ie.models.continuous_irt(turned))
    other = ie.fit(ie.models.continuous_irt(model.responses, prior_lam=1.0), draws=60,
                   tune=100, chains=1, random_seed=0, progressbar=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a few draws: Pareto k
        assert len(ie.compare_models({"a": idata, "b": other})) == 2  # NaN equal to NaN


def test_recovery_with_negative_discrimination(recovery):
    perf, truth, idata = recovery
    assert idata.attrs["divergences"] == 0 and idata.attrs["max_rhat"] <= 1.01
    post = idata.posterior
    assert (post["lam"].sum("item") > 0).all()  # reflection fixed in every draw
    inside = []
    for name in ("alpha", "beta", "gamma", "theta"):
        lower, upper = post[name].quantile([.05, .95], ("chain", "draw")).values
        true = truth[name].to_numpy()
        inside += list((lower <= true) & (true <= upper))
    coverage = np.mean(inside)
    assert 0.84 <= coverage <= 0.96, coverage
    metrics = ie.algorithm_metrics(idata)
    assert list(metrics.index) == list(perf.items)
    assert (metrics["p_anomalous"][-2:] > 0.99).all() and (metrics["p_anomalous"][:-2] < 0.01).all()
    assert np.corrcoef(metrics["gamma_mean"], truth["gamma"])[0, 1] > 0.95


def test_downstream_tables(recovery):
    perf, _, idata = recovery
    lt = ie.latent_trait(idata, epsilon=0.05, max_draws=50)
    assert lt.spectrum["mean"].is_monotonic_increasing and len(lt.spectrum) == 200
    assert lt.smoothed.shape == (80, 12) and set(np.unique(lt.strengths)) <= {0, 1}
    assert (lt.strengths.sum(axis=1) >= 1).all()  # somebody is best at every point
    with pytest.warns(FutureWarning, match="use LatentTrait.smoothed"):
        assert lt.curves is lt.smoothed  # the name before issue 12
    other = ie.latent_trait(idata, epsilon=0.05, max_draws=20, random_seed=1)
    delta = -idata.posterior["theta"]  # the spectrum and the LTO of its mean from every draw
    np.testing.assert_allclose(lt.spectrum["mean"], delta.mean(("chain", "draw")).to_series()
                               .loc[lt.spectrum.index])
    pd.testing.assert_frame_equal(lt.spectrum, other.spectrum)
    pd.testing.assert_series_equal(lt.occupancy["lto"], other.occupancy["lto"])
    board = ie.portfolio(lt)
    assert board["p_in_portfolio"].is_monotonic_decreasing and board["in_portfolio"].any()
    # membership is the posterior's majority (it was lto > 0 of the mean curves)
    assert (board["in_portfolio"] == (board["p_in_portfolio"] > 0.5)).all()
    assert (board["lto_lower"] <= board["lto_upper"]).all()
    assert board["p_in_portfolio"].between(0, 1).all()
    good = ie.model_goodness(idata, max_draws=50)
    eff = ie.effectiveness(idata, max_draws=50)
    for table in (good, eff):
        assert list(table.index) == list(perf.items)
        assert ((table.to_numpy() >= 0) & (table.to_numpy() <= 1)).all()
    assert (good["aucdf"] > 0.7).all() and (eff["abs_difference"] < 0.2).all()
    with pytest.raises(ValueError, match="epsilon must be"):
        ie.latent_trait(idata, epsilon=-1)
    with pytest.raises(ValueError, match="epsilon must be a number >= 0.*'0.1'"):
        ie.latent_trait(idata, epsilon="0.1")  # was numpy's isfinite error
    with pytest.raises(ValueError, match="epsilon must be a number >= 0.*True"):
        ie.latent_trait(idata, epsilon=True)  # was read as 1.0
    onepl = ie.fit(ie.models.onepl(ie.Responses.from_wide(
        pd.DataFrame([[1, 0], [0, 1], [1, 1]]), rows="item")), method="map", random_seed=0)
    for plot in (ie.plot_auaec_aupec, ie.plot_latent_trait):  # the plot named, not its helper
        with pytest.raises(ValueError, match=rf"{plot.__name__}\(\) needs a fit of"):
            plot(onepl)
    with pytest.raises(TypeError, match="n_grid=2.5: give a whole number"):
        ie.latent_trait(idata, n_grid=2.5)
    with pytest.raises(TypeError, match="latent_trait"):
        ie.portfolio(good)


def test_posterior_predictive_and_loo(recovery):
    import arviz as az

    _, _, idata = recovery
    rep = idata.posterior_predictive["z"]  # fit(..., posterior_predictive=True)
    obs = idata.observed_data["z"]
    assert rep.dims == ("chain", "draw", "respondent", "item")
    # replicated column means and sds match the observed ones (the model fits its own data)
    for stat in ("mean", "std"):
        p = (getattr(rep, stat)("respondent") < getattr(obs, stat)("respondent")).mean(
            ("chain", "draw"))
        assert ((p > 0.01) & (p < 0.99)).all()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loo = ie.loo_by_algorithm(idata)
        assert np.isfinite(az.loo(idata).elpd_loo)
    assert list(loo.columns) == ["elpd_loo", "se", "max_pareto_k"] and len(loo) == 12
    n_draws = idata.posterior.sizes["chain"] * idata.posterior.sizes["draw"]
    assert loo.attrs["good_k"] == pytest.approx(min(1 - 1 / np.log10(n_draws), 0.7))


def test_loo_by_algorithm_leaves_missing_cells_out():
    """A missing cell went into ArviZ's PSIS as NaN: every algorithm's max_pareto_k was inf
    (and ArviZ's total NaN, with a warning)."""
    import arviz as az

    wide, _ = simulate_airt(n=30, n_items=4, n_negative=1, seed=3)
    wide = wide.mask(np.random.default_rng(0).random(wide.shape) < 0.15)
    one = wide.columns[3]  # one cell: "the point-wise LOO is the same" is not news
    wide.loc[wide.index != wide[one].first_valid_index(), one] = np.nan
    idata = ie.fit(ie.models.continuous_irt(responses(wide, bounds=(0, 1))), draws=200,
                   tune=300, chains=2, random_seed=0, progressbar=False)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        warnings.simplefilter("error", RuntimeWarning)
        loo = ie.loo_by_algorithm(idata)
    assert np.isfinite(loo.to_numpy()).all() and list(loo.index) == list(wide.columns)
    # ArviZ's Pareto k warning (too few draws) once, not once an algorithm, and nothing else
    assert len(said) == 1 and "Pareto" in str(said[0].message), [str(w.message) for w in said]
    # each observed cell's PSIS estimate, summed per algorithm: ArviZ's on that column alone
    from irteval.models.continuous_irt import cell_logp, mean_z

    post = idata.posterior
    ll = cell_logp(idata.observed_data["z"].values,
                   mean_z(post["tau"].values, post["lam"].values, post["theta"].values),
                   post["s"].values[..., None, :])
    for k, algorithm in enumerate(wide.columns):
        kept = ll[:, :, wide[algorithm].notna().to_numpy(), k]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            own = az.loo(az.from_dict(log_likelihood={"z": kept},  # the same r_eff
                                      posterior={"tau": post["tau"].values}), pointwise=True)
        assert loo.at[algorithm, "elpd_loo"] == pytest.approx(float(own.elpd_loo))
        assert loo.at[algorithm, "max_pareto_k"] == pytest.approx(float(own.pareto_k.max()))


def test_airt_transform_on_percentages_warns_that_its_nudge_has_units():
    """The same performances in percent fitted differently from fractions, in silence:
    airt's nudge at the bounds (and latent_trait's epsilon) are in raw units."""
    df = ie.datasets.load_csp_minizinc(as_frame=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # fractions: as airt's analyses, nothing to say
        ie.Responses.from_wide(df, kind="continuous", bounds="global", transform="airt")
    with pytest.warns(UserWarning, match=r"bounds are 96.7 wide.*9.2 here against 4.6 for "
                                         r"fractions.*divide percentages by 100"):
        ie.Responses.from_wide(df * 100, kind="continuous", bounds="global", transform="airt")


def test_airt_readme_example_c_is_anomalous():
    df = pd.read_csv(DATA / "s1_readme_continuous_ABCD.csv")  # airt's README data
    perf = responses(df.set_index("instance"), transform="airt")  # per-column bounds, as airt
    idata = ie.fit(ie.models.continuous_irt(perf), random_seed=0, progressbar=False,
                   log_likelihood=False)
    metrics = ie.algorithm_metrics(idata)
    assert metrics.loc["C", "p_anomalous"] > 0.99
    assert (metrics.loc[["A", "B", "D"], "p_anomalous"] < 0.01).all()
    # airt: A a = 2.853, b = -0.059, alpha = 1.685; C -1.730 / 0.093 / -1.084
    assert metrics.loc["A", "alpha_mean"] == pytest.approx(2.853, rel=0.1)
    assert metrics.loc["C", "gamma_mean"] == pytest.approx(-1.084, rel=0.1)
    # every bare name is a median, every mean says so (alpha beside consistency was a mean)
    assert {"alpha_mean", "beta_median", "consistency", "consistency_lower"} <= set(metrics)
    assert not {"alpha", "beta", "gamma"} & set(metrics)
    lto = ie.portfolio(ie.latent_trait(idata, epsilon=0))["lto"]
    # the fit itself, as the AIRT plots take it (was a TypeError)
    pd.testing.assert_frame_equal(ie.portfolio(idata), ie.portfolio(ie.latent_trait(idata)))
    with pytest.raises(TypeError, match=r"portfolio takes the result of "
                                        r"irteval.latent_trait\(idata\), or the fit; got "
                                        "DataFrame"):
        ie.portfolio(metrics)
    # airt 0.2.3 recomputed: D 0.855, C 0.075, A 0.07 (its smoother differs slightly)
    assert lto["D"] == pytest.approx(0.855, abs=0.03) and lto["C"] == pytest.approx(0.075, abs=0.03)


def test_map_abilities_are_the_conditional_mode_not_a_draw():
    """A MAP fit drew theta | z at random: two seeds gave abilities 0.97 apart."""
    wide, _ = simulate_airt(n=40, n_items=5, n_negative=1, seed=3)
    model = ie.models.continuous_irt(ie.Responses.from_wide(wide, kind="continuous",
                                                            bounds=(0, 1), clip=1e-6))
    one, two = (ie.fit(model, method="map", random_seed=seed) for seed in (5, 6))
    theta = one.posterior["theta"].values[0, 0]
    np.testing.assert_allclose(theta, two.posterior["theta"].values[0, 0], atol=1e-4)
    mode = one.posterior.isel(chain=0, draw=0)  # the mean of theta | z at the mode
    lam, s, tau = (mode[v].values for v in ("lam", "s", "tau"))
    # complete: theta_i = sum_j l_j (z_ij - t_j) / s_j^2 / prec
    z = model.responses.dense(model.responses.z)
    slope = lam / s**2
    np.testing.assert_allclose(theta, (z - tau) @ slope / (1 + slope @ lam), rtol=1e-9)
    assert one.attrs["random_seed"] == 5 and "draws" not in one.attrs  # a point: no draws


def test_running_example_beats_airts_likelihood():
    perf = ie.datasets.load_csp_minizinc()
    model = ie.models.continuous_irt(perf)
    point = ie.fit(model, method="map", random_seed=0)
    mode = point.posterior.isel(chain=0, draw=0)
    with pytest.raises(ValueError, match=r"loo_by_algorithm\(\) needs posterior draws"):
        ie.loo_by_algorithm(point)  # failed inside ArviZ's PSIS
    with pytest.warns(UserWarning, match=r"latent_trait\(\): this fit is one point"):
        ie.latent_trait(point, max_draws=1)
    ours = pd.DataFrame({v: mode[v].to_series() for v in ("alpha", "beta", "gamma")})
    airt = ie.datasets.load_airt_reference("csp_minizinc_2016")
    # same model, traits integrated out: airt's EM stopped ~5 units below the best optimum
    assert marginal_log_likelihood(perf, ours) > marginal_log_likelihood(perf, airt) + 3
    # 2000 draws: with 1000 the tail ESS of MZN/CPLEX-free's residual sd is ~270 (< 400)
    idata = ie.fit(model, draws=2000, random_seed=0, progressbar=False, log_likelihood=False)
    assert idata.attrs["max_rhat"] <= 1.01 and idata.attrs["divergences"] == 0
    lt = ie.latent_trait(idata, epsilon=0.01)
    assert ie.portfolio(lt)["lto"].idxmax() == "LCG-Glucose-UC-free"  # airt: 0.828
    # over the posterior draws it is strong at the most difficulties too
    assert lt.p_strong.mean().idxmax() == "LCG-Glucose-UC-free"
    assert lt.p_strong.index.equals(lt.strengths.index)


def test_plots_take_axes_and_return_them(recovery):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    _, _, idata = recovery
    lt = ie.latent_trait(idata, max_draws=20)
    for plot, arg, kwargs in ((ie.plot_latent_trait, lt, {}), (ie.plot_strengths, lt, {}),
                              (ie.plot_goodness, idata, {"max_draws": 20}),
                              (ie.plot_effectiveness, idata, {"kind": "predicted"}),
                              (ie.plot_auaec_aupec, idata, {"max_draws": 20})):
        fig, ax = plt.subplots()
        assert plot(arg, ax=ax, **kwargs) is ax and ax.has_data()
        plt.close(fig)
    # the strengths shaded by the share of draws: strong in every draw is the full blue
    sure = replace(lt, p_strong=lt.p_strong * 0 + 1, p_weak=lt.p_weak * 0)
    pixels = ie.plot_strengths(sure).images[0].get_array()
    np.testing.assert_allclose(pixels, np.broadcast_to(to_rgb("tab:blue"), pixels.shape))
    from matplotlib.collections import QuadMesh

    # its key (a colour bar: -1 weak in every draw ... 1 strong) shows the shades drawn
    for strong, weak, value in ((0.5, 0.0, 0.5), (0.0, 0.3, -0.3), (0.0, 0.0, 0.0)):
        ax = ie.plot_strengths(replace(lt, p_strong=lt.p_strong * 0 + strong,
                                       p_weak=lt.p_weak * 0 + weak))
        key = next(c for c in ax.figure.axes[-1].collections if isinstance(c, QuadMesh))
        np.testing.assert_allclose(ax.images[0].get_array()[0, 0],
                                   key.cmap(key.norm(value))[:3], atol=0.01)
    plt.close("all")
    # curves that all end at 1 are named in a legend in their order, not piled up at x = 1
    table = ie.effectiveness(idata, max_draws=20)
    ax = ie.plot_effectiveness(idata, highlight=3, max_draws=20)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == list(
        table["auaec"].nlargest(3).index)
    assert ax.get_xlim()[1] < 1.1 and not ax.texts
    colour = {}  # an algorithm keeps its colour across the plots (it went by rank)
    for kind in ("actual", "predicted"):
        drawn = ie.plot_effectiveness(idata, kind=kind, highlight=6, max_draws=20)
        for line in drawn.get_legend().get_lines():
            assert colour.setdefault(line.get_label(), line.get_color()) == line.get_color()
        assert len({line.get_color() for line in drawn.get_legend().get_lines()}) == 6
    axes = ie.plot_crm_heatmap(idata, ["algo0", "algo11"], n_grid=40)
    assert axes.size == 2 and axes.ravel()[0].images[0].get_array().shape == (40, 40)
    with pytest.warns(FutureWarning, match="n= is deprecated.*use n_grid="):
        ie.plot_crm_heatmap(idata, ["algo0"], n=40)
    with pytest.raises(TypeError, match="n=40 and n_grid=30 disagree"):  # n won in silence
        ie.plot_crm_heatmap(idata, ["algo0"], n_grid=30, n=40)
    # 'Value after * must be an iterable'; a reversed or NaN range plotted in silence
    with pytest.raises(TypeError, match=r"theta_range= takes \(low, high\)"):
        ie.plot_crm_heatmap(idata, ["algo0"], theta_range=3)
    for bad in ((3, -3), (np.nan, 3)):
        with pytest.raises(ValueError, match="give finite \\(low, high\\) with low < high"):
            ie.plot_crm_heatmap(idata, ["algo0"], theta_range=bad)
    with pytest.raises(ValueError, match="n_labels=-1: give a whole number of at least 0"):
        ie.plot_auaec_aupec(idata, n_labels=-1)  # numpy's 'zero-size array', after the work
    fig, pair = plt.subplots(1, 2)
    fig.suptitle("the user's title")
    assert ie.plot_crm_heatmap(idata, ["algo0", "algo11"], ax=pair) is pair  # ArviZ's name
    # the user's figure keeps its title; the labels go on the Axes given
    assert fig.get_suptitle() == "the user's title" and pair[0].get_xlabel().startswith("theta")
    with pytest.raises(ValueError, match="unknown algorithms \\['nope'\\]"):
        ie.plot_latent_trait(lt, algorithms=["nope"])
    fig, ax = plt.subplots()
    ie.plot_latent_trait(lt, algorithms="algo0", ax=ax)  # one label, not its letters
    assert "1 chosen" in ax.get_title() and "the others grey" in ax.get_title()
    assert "lines: posterior-mean spectrum (airt's)" in ax.get_title()  # not the bands'
    assert [t.get_text() for t in ax.texts] == ["algo0"]  # 11 grey lines: no labels
    fig, ax = plt.subplots()
    names = list(lt.smoothed.columns)
    ie.plot_latent_trait(lt, algorithms=names[:-3], ax=ax)  # 3 grey ones are named, in grey
    assert sorted(t.get_text() for t in ax.texts) == sorted(names)
    assert [t.get_color() for t in ax.texts].count("0.5") == 3
    curves = ie.airt_curves(idata, max_draws=20)
    assert "every curve is 1" not in ie.plot_goodness(curves).get_title()
    curves["cdf"] = curves["cdf"].where(curves["threshold"] < 0.3, 1.0)  # flat at 1 from 0.3:
    ax = ie.plot_goodness(curves)  # the axis ends there, and the title says so
    assert "every curve is 1 from x = 0.3 to 1 (not shown)" in ax.get_title()
    assert ax.get_xlim()[1] == pytest.approx(1.25 * 0.3)
    fig, ax = plt.subplots()
    ie.plot_latent_trait(lt, algorithms=names, ax=ax)
    assert "the others grey" not in ax.get_title()  # there are none
    fig, ax = plt.subplots()
    assert ie.plot_strengths(idata, ax=ax) is ax  # the fit, as the other plots take it
    with pytest.raises(TypeError, match="plot_latent_trait takes the result of irteval.lat"):
        ie.plot_latent_trait(lt.occupancy)  # was an AttributeError
    with pytest.raises(ValueError, match="highlight=-1"):
        ie.plot_goodness(idata, highlight=-1)
    with pytest.raises(ValueError, match="unknown algorithms"):
        ie.plot_crm_heatmap(idata, ["nope"])
    with pytest.raises(ValueError, match="kind must be"):
        ie.plot_effectiveness(idata, kind="both")
    plt.close("all")


def test_chains_in_different_modes_are_detected():
    import arviz as az

    from irteval.exceptions import ConvergenceWarning
    from irteval.models.continuous_irt import _check_modes

    rng = np.random.default_rng(0)
    lam = rng.normal(1, 0.05, (4, 200, 3))
    lam[0] += 1.0  # one chain in another mode, with a lower log density
    lp = rng.normal(-100, 1, (4, 200))
    lp[0] -= 5
    idata = az.from_dict(posterior={"tau": rng.normal(0, 0.05, (4, 200, 3)), "lam": lam,
                                    "s": rng.normal(1, 0.05, (4, 200, 3))},
                         sample_stats={"lp": lp})
    with pytest.warns(ConvergenceWarning, match=r"different modes.*chains \[0\] sit in lower"):
        _check_modes(idata)
    lam[0] -= 1.0
    lp[0] += 5
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _check_modes(az.from_dict(posterior={"tau": idata.posterior["tau"].values, "lam": lam,
                                             "s": idata.posterior["s"].values},
                                  sample_stats={"lp": lp}))
