"""Simulation-based calibration (irteval.calibration): the machinery on an exact conjugate
posterior, the prior simulators against the builders' own priors, and short SBC runs."""

import inspect
from functools import partial

import numpy as np
import pandas as pd
import pymc as pm
import pytest
import xarray as xr
from scipy import stats

import irteval as ie
from irteval import calibration as cal
from irteval._draws import evenly_spaced
from irteval.data.scaling import to_z


def conjugate_ranks(n_reps, n_keep, sd_factor=1.0, shift=0.0, seed=0):
    """Ranks of mu ~ N(0, 1) among draws of its posterior N(sum y / (n + 1), 1 / (n + 1))
    given y_1..5 ~ N(mu, 1), with the posterior sd scaled and its mean shifted (in sds)."""
    rng = np.random.default_rng(seed)
    mu = rng.normal(0.0, 1.0, n_reps)
    y = rng.normal(mu, 1.0, (5, n_reps))
    sd = 1 / np.sqrt(6)
    draws = rng.normal(y.sum(axis=0) / 6 + shift * sd, sd * sd_factor, (n_keep, n_reps))
    return cal.rank_of(mu, draws, rng)


def test_ranks_are_uniform_for_an_exact_posterior_and_not_otherwise():
    assert cal.chi_square_uniform(conjugate_ranks(1000, 99), 99)[1] > 0.01
    assert cal.chi_square_uniform(conjugate_ranks(1000, 99, sd_factor=0.7), 99)[1] < 1e-6
    assert cal.chi_square_uniform(conjugate_ranks(1000, 99, shift=0.3), 99)[1] < 1e-6


def test_vector_tests_see_bias_and_spread():
    """1000 replicates as 100 simulations of a 10-entry vector."""
    def tests(**kwargs):
        block = pd.DataFrame(conjugate_ranks(1000, 99, **kwargs).reshape(100, 10))
        return {name: p for name, (_, p) in cal.vector_tests(block, 99).items()}

    assert min(tests().values()) > 0.01
    assert tests(sd_factor=0.7)["spread"] < 1e-6 and tests(sd_factor=1.5)["spread"] < 1e-6
    assert tests(shift=0.3)["mean rank"] < 1e-6


def test_bins_holm_and_thinning():
    assert cal.n_bins(200, 99) == 25 and cal.n_bins(30, 49) == 5
    with pytest.raises(ValueError, match="too few"):
        cal.n_bins(9, 99)
    np.testing.assert_allclose(cal.holm([0.01, 0.04, 0.03]), [0.03, 0.06, 0.06])
    kept = evenly_spaced(1000, 99)
    assert len(kept) == 99 and kept[0] == 0 and kept[-1] == 999 and set(np.diff(kept)) <= {10, 11}
    posterior = xr.Dataset({"b": (("chain", "draw"), np.zeros((2, 40)))})
    with pytest.raises(ValueError, match="cannot keep 99 of 80 draws"):
        cal.posterior_ranks(posterior, {"b": 0.0}, 99, np.random.default_rng(0))


def test_run_takes_random_seed_and_warns_on_its_old_name():
    with pytest.warns(FutureWarning, match="seed= is deprecated.*use random_seed="):
        ranks, _ = cal.run(None, None, 0, seed=3)  # no replicate: nothing simulated
    assert len(ranks) == 0
    with pytest.raises(TypeError, match="seed=3 and random_seed=4 disagree"):
        cal.run(None, None, 0, random_seed=4, seed=3)


def test_ecdf_band_is_simultaneous():
    """Uniform ranks stay inside the 99% band at every rank together about 99% of the time
    (a pointwise 99% band would hold jointly far less often)."""
    n_sims, n_keep, reps = 100, 99, 2000
    r, lower, upper = cal.ecdf_difference_band(n_sims, n_keep, prob=0.99)
    ranks = np.random.default_rng(3).integers(0, n_keep + 1, (reps, n_sims))
    diff = (ranks[:, :, None] <= r).mean(axis=1) - (r + 1) / (n_keep + 1)
    inside = ((diff >= lower - 1e-12) & (diff <= upper + 1e-12)).all(axis=1).mean()
    assert 0.98 <= inside <= 0.997


def prior_draws(draw, n):
    draws = [draw(np.random.default_rng([7, k])) for k in range(n)]
    return {name: np.array([d[name] for d in draws]) for name in draws[0]}


@pytest.mark.filterwarnings("ignore:.*identified only by the prior:UserWarning")
@pytest.mark.parametrize("kind", ["1pl", "2pl", "2pl centred", "bt", "continuous", "graded",
                                  "davidson", "tasks"])
def test_prior_simulators_match_the_builders(kind):
    """The prior scales are the builders' defaults, and two-sample KS tests (3000 draws each)
    of every scalar and the first entry of every vector against pm.draw from the built model
    pass."""
    rng = np.random.default_rng(0)
    if kind in ("1pl", "2pl", "2pl centred"):
        two = kind != "1pl"
        data, _, _ = cal.simulate_onepl(6, 4, rng, discrimination=two)
        model = ie.models.onepl(data, discrimination=two, **({"centred": True} if
                                                             kind.endswith("centred") else {}))
        ours = prior_draws(partial(cal.draw_onepl_prior, 6, 4, discrimination=two), 3000)
        assert model.priors == {k: cal.ONEPL_PRIORS[k] for k in model.priors}
    elif kind == "bt":
        model = ie.models.bradley_terry(cal.simulate_bradley_terry(4, 3, rng)[0])
        ours = prior_draws(partial(cal.draw_bradley_terry_prior, 4), 3000)
        default = inspect.signature(ie.models.bradley_terry).parameters["prior_scale"].default
        assert default == cal.BT_PRIOR_SCALE
    elif kind == "graded":
        model = ie.models.polytomous_irt(cal.simulate_polytomous(30, 3, 4, rng, model="graded")[0],
                                         model="graded")
        ours = prior_draws(partial(cal.draw_polytomous_prior, 30, 3, 4, model="graded"), 3000)
        ours["c_last"] = ours.pop("c")[:, :, -1]  # the first intercept plus both gaps
        model = {**model.named_vars, "c_last": model["c"][:, -1]}
    elif kind == "davidson":
        model = ie.models.bradley_terry(cal.simulate_battles_from_prior(4, 30, rng, "davidson")[0],
                                        likelihood="davidson")
        ours = prior_draws(partial(cal.draw_bradley_terry_prior, 4, davidson=True), 3000)
    elif kind == "tasks":
        model = ie.models.bradley_terry(cal.simulate_bradley_terry_tasks(4, 3, 2, rng)[0],
                                        hierarchy=cal.task_of_round(3, 2))
        ours = prior_draws(partial(cal.draw_bradley_terry_tasks_prior, 4, 3), 3000)
    else:
        model = ie.models.continuous_irt(cal.simulate_continuous(5, 3, rng)[0])
        ours = prior_draws(partial(cal.draw_continuous_prior, 5, 3), 3000)
        del ours["theta"]  # integrated out of the model (theta ~ N(0, 1) by its definition)
    theirs = pm.draw([model[name] for name in ours], draws=3000, random_seed=1)
    for (name, mine), built in zip(ours.items(), theirs):
        first = (slice(None),) + (0,) * (mine.ndim - 1)
        assert stats.ks_2samp(mine[first], built[first]).pvalue > 0.001, name
    zero_sum = {"1pl": "theta", "2pl": "theta", "2pl centred": "theta", "bt": "strength",
                "davidson": "strength", "tasks": "deviation"}.get(kind)
    if zero_sum:  # the zero-sum constraint (over players, in every task)
        assert np.abs(ours[zero_sum].sum(axis=-1)).max() < 1e-9


def test_continuous_data_reach_the_model_exactly_and_the_truth_is_reflected():
    z = np.linspace(-cal.Z_MAX, cal.Z_MAX, 1001)
    back = to_z(1 / (1 + np.exp(-z)), 0.0, 1.0, "logit", cal.CONTINUOUS_CLIP)
    np.testing.assert_allclose(back, z, atol=5e-4)
    for k in range(20):
        resp, truth, _ = cal.simulate_continuous(10, 4, np.random.default_rng(k))
        assert truth["lam"].sum() > 0 and np.abs(resp.z).max() <= cal.Z_MAX


@pytest.mark.filterwarnings("ignore:.*identified only by the prior:UserWarning")
@pytest.mark.parametrize("likelihood", ["plackett_luce", "pairwise", "davidson", "tasks"],
                         ids=["plackett_luce", "battles", "davidson", "tasks"])
def test_sbc_bradley_terry_is_uniform(likelihood):
    """25 replicates, 5 players x 8 rounds (Plackett-Luce), 40 battles (the pairwise
    likelihood, exact for battles; Davidson's, ties an outcome) or 3 tasks x 2 rounds (the
    Model/Task scheme, hierarchy=), L = 49: a chi-square test per strength (and log_nu,
    tau, every deviation; 5 bins, Holm-adjusted) and no bin of the strengths' pooled ranks
    off by half."""
    n_keep = 49
    simulate, build = {
        "plackett_luce": (partial(cal.simulate_bradley_terry, 5, 8), ie.models.bradley_terry),
        "tasks": (partial(cal.simulate_bradley_terry_tasks, 5, 3, 2),
                  partial(ie.models.bradley_terry, hierarchy=cal.task_of_round(3, 2)))}.get(
        likelihood, (partial(cal.simulate_battles_from_prior, 5, 40, likelihood=likelihood),
                     partial(ie.models.bradley_terry, likelihood=likelihood)))
    ranks, diagnostics = cal.run(simulate, build, 25, random_seed=1, n_keep=n_keep, draws=200,
                                 tune=250, chains=2)
    assert set(diagnostics["sampler"]) == {"nuts:nutpie"}
    name = "strength" if likelihood == "plackett_luce" else "epp"  # the simulators' names
    assert list(ranks.columns) == [f"{name}[{k}]" for k in range(5)] + {
        "davidson": ["log_nu"], "tasks": ["tau"] + [f"deviation[{k}]" for k in range(15)]}.get(
        likelihood, [])
    assert (diagnostics["divergences"] == 0).all()
    assert cal.uniformity_table(ranks, n_keep)["p_holm"].min() > 0.001
    strength = ranks.filter(like=f"{name}[").to_numpy()
    pooled = np.bincount(strength.ravel() * 5 // (n_keep + 1), minlength=5)
    assert np.all(np.abs(pooled / (strength.size / 5) - 1) < 0.5), pooled


@pytest.mark.filterwarnings("ignore:.*identified only by the prior")
@pytest.mark.parametrize("n_resp,sampler", [(6, "nuts:nutpie collapsed"), (16, "nuts:nutpie")])
def test_sbc_1pl_with_missing_cells_on_the_default_path_is_uniform(n_resp, sampler):
    """20 replicates, 20 items x 6 or 16 models with 15% of cells missing, the paths users
    run (nutpie on the collapsed form where instances have few answers, on the dense NumPy
    density otherwise); L = 49, ranks of mu_b, sigma_b, sigma_theta and every b and theta
    pooled per variable (5 bins, chi-square)."""
    n_keep = 49
    ranks, diagnostics = cal.run(partial(cal.simulate_onepl, 20, n_resp, missing=0.15),
                                 ie.models.onepl, 20, random_seed=4, n_keep=n_keep, draws=250,
                                 tune=300, chains=2)
    assert set(diagnostics["sampler"]) == {sampler}
    assert cal.uniformity_table(ranks, n_keep)["p_holm"].min() > 0.001
    for name in ("b", "theta"):
        block = ranks[[c for c in ranks.columns if c.startswith(f"{name}[")]].to_numpy()
        pooled = np.bincount(block.ravel() * 5 // (n_keep + 1), minlength=5)
        assert stats.chisquare(pooled).pvalue > 0.001, (name, pooled)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:.*identified only by the prior:UserWarning")
def test_sbc_bradley_terry_long_run_and_a_wrong_prior_fails():
    """100 replicates of 6 players x 10 rounds are uniform (L = 99, 20 bins, Holm); fitted
    with prior_scale=1 instead of the simulating 4, 40 replicates already fail."""
    simulate = partial(cal.simulate_bradley_terry, 6, 10)
    ranks, _ = cal.run(simulate, ie.models.bradley_terry, 100, random_seed=2, draws=400, tune=400)
    assert cal.uniformity_table(ranks, 99)["p_holm"].min() > 0.001
    wrong, _ = cal.run(simulate, partial(ie.models.bradley_terry, prior_scale=1.0), 40,
                       random_seed=2, draws=400, tune=400)
    assert cal.uniformity_table(wrong, 99)["p_holm"].min() < 0.001


@pytest.mark.slow
def test_sbc_continuous_is_uniform():
    """60 replicates of 30 datasets x 4 algorithms (L = 99, 10 bins, Holm over 50 entries)."""
    ranks, diagnostics = cal.run(partial(cal.simulate_continuous, 30, 4),
                                 ie.models.continuous_irt, 60, random_seed=3, draws=400, tune=400,
                                 sampler="pymc")
    assert (diagnostics["divergences"] == 0).mean() >= 0.95
    assert cal.uniformity_table(ranks, 99)["p_holm"].min() > 0.001


def test_replicates_in_worker_processes_give_the_same_ranks():
    """Each replicate has its own generator, so joblib workers change nothing but the time."""
    kwargs = dict(n_keep=19, draws=60, tune=100, chains=2)
    simulate = partial(cal.simulate_bradley_terry, 4, 6)
    here = cal.run(simulate, ie.models.bradley_terry, 3, random_seed=7, **kwargs)
    workers = cal.run(simulate, ie.models.bradley_terry, 3, random_seed=7, n_jobs=2, **kwargs)
    pd.testing.assert_frame_equal(here[0], workers[0])
    pd.testing.assert_frame_equal(here[1].drop(columns="seconds"),
                                  workers[1].drop(columns="seconds"))
