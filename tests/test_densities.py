"""Every NumPy density (irteval.models.densities, the collapsed 1PL's MarginalDensity) is the
PyMC model it stands for: the same log density and gradient at random points, and a fit
through it the same posterior as PyMC's NUTS on the graph (within Monte Carlo error)."""

import warnings

import numpy as np
import pandas as pd
import pytest

import irteval as ie
from irteval import calibration as cal
from irteval.models.densities import zerosum_forward

from .conftest import quiet_fit, simulate
from .test_bradley_terry import simulate as simulate_scores


def _binary(discrimination, missing, **asymptotes):
    resp, _ = simulate(40, 7, discrimination=discrimination, missing=missing, seed=3)
    return ie.models.onepl(resp, discrimination=discrimination, **asymptotes)


def _binary_blocks():
    """Half the instances unanswered by a third of the models: two patterns, many rows (the
    collapsed 1PL sums per pattern)."""
    wide = simulate(60, 30, seed=3)[0].to_wide(rows="item")
    wide.iloc[:30, :10] = np.nan
    model = ie.models.onepl(ie.Responses.from_wide(wide, respondent="model", item="instance",
                                                   rows="item"))
    assert model.marginal("map").density.by_pattern
    return model


def _tasks(battles=False):
    """The Model/Task scheme: 4 tasks of 2 rounds, a score missing and two tied (scores), or
    battles in 3 categories with ties (the pairwise likelihood per (round, pair))."""
    rng = np.random.default_rng(4)
    if battles:
        rows = cal.simulate_battles(5, 300, rng)[2].assign(
            category=lambda d: np.array(["code", "math", "chat"])[np.arange(len(d)) % 3])
        data = ie.Battles.from_long(rows, player_a="model_a", player_b="model_b",
                                    winner="winner", round="category")
        return ie.models.bradley_terry(data, hierarchy="round", reference="model-002")
    scores = cal.simulate_bradley_terry_tasks(6, 4, 2, rng)[0]
    wide = pd.DataFrame(scores.matrix, scores.players, scores.rounds)
    wide.iloc[1, 3] = np.nan
    wide.iloc[2, 5] = wide.iloc[3, 5]
    return ie.models.bradley_terry(ie.Scores.from_wide(wide),
                                   hierarchy=cal.task_of_round(4, 2))


def _gpcm(model="gpcm"):
    """Missing cells, and one algorithm with fewer levels than the others."""
    rng = np.random.default_rng(5)
    wide = cal.simulate_polytomous(30, 4, 4, rng)[0].to_wide()
    wide.iloc[:4, 1] = np.nan
    wide["a0"] = wide["a0"].clip(upper=3)
    resp = ie.Responses.from_wide(wide, respondent="dataset", item="algorithm", kind="ordinal")
    return ie.models.polytomous_irt(resp, model=model)


def _continuous(scattered=False):
    """Missing cells in several patterns (datasets with the same observed algorithms share
    one term of the density), or scattered (a term per dataset)."""
    from .test_continuous import responses, simulate_airt

    wide, _ = simulate_airt(n=60, n_items=5 + 7 * scattered, seed=2)
    if scattered:
        wide = wide.mask(np.random.default_rng(3).random(wide.shape) < 0.3)
    else:
        wide.iloc[:6, 1] = np.nan
        wide.iloc[3:9, 4] = np.nan
    model = ie.models.continuous_irt(responses(wide, bounds=(0, 1), clip=1e-9))
    assert (model.density().scatter is None) == scattered
    return model


CASES = {
    "1pl dense, missing": lambda: (_binary(False, 0.15), "density"),
    "2pl dense, complete": lambda: (_binary(True, 0.0), "density"),
    "2pl dense, missing": lambda: (_binary(True, 0.15), "density"),
    "2pl dense centred, missing": lambda: (_binary(True, 0.15, centred=True), "density"),
    "3pl dense, complete": lambda: (_binary(True, 0.0, guessing=True, n_options=4), "density"),
    "3pl dense centred, complete": lambda: (
        _binary(True, 0.0, guessing=True, n_options=4, centred=True), "density"),
    "4pl dense, missing": lambda: (_binary(True, 0.15, guessing=True, slip=True), "density"),
    "4pl dense centred, missing": lambda: (
        _binary(True, 0.15, guessing=True, slip=True, centred=True), "density"),
    "2pl + slip dense, complete": lambda: (_binary(True, 0.0, slip=True), "density"),
    "m2pl dims=2, complete": lambda: (_binary(True, 0.0, dims=2), "density"),
    "m2pl dims=3, missing, anchors": lambda: (
        _binary(True, 0.15, dims=3, anchors=["i5", "i0", "i9"]), "density"),
    "1pl collapsed, complete": lambda: (_binary(False, 0.0), "marginal"),
    "1pl collapsed, missing": lambda: (_binary(False, 0.15), "marginal"),
    "1pl collapsed, missing in blocks": lambda: (_binary_blocks(), "marginal"),
    "bt plackett-luce, missing": lambda: (
        ie.models.bradley_terry(simulate_scores(12, 6, missing=0.2)[0]), "density"),
    "bt plackett-luce, complete, untied": lambda: (
        ie.models.bradley_terry(simulate_scores(12, 6)[0]), "density"),
    "bt pairwise": lambda: (
        ie.models.bradley_terry(simulate_scores(12, 6)[0], likelihood="pairwise"), "density"),
    "bt davidson, ties": lambda: (ie.models.bradley_terry(
        cal.simulate_battles_from_prior(8, 60, np.random.default_rng(2), "davidson")[0],
        likelihood="davidson", reference="m3"), "density"),
    "gpcm, missing, uneven levels": lambda: (_gpcm(), "density"),
    "graded, missing, uneven levels": lambda: (_gpcm("graded"), "density"),
    "bt plackett-luce, hierarchy, missing and tied": lambda: (_tasks(), "density"),
    "bt battles by round, hierarchy": lambda: (_tasks(battles=True), "density"),
    "continuous, missing in blocks": lambda: (_continuous(), "density"),
    "continuous, scattered missing": lambda: (_continuous(scattered=True), "density"),
}


@pytest.mark.parametrize("case", CASES)
def test_density_is_the_pymc_model(case):
    model, kind = CASES[case]()
    if kind == "marginal":
        marginal = model.marginal("map")
        density, graph = marginal.density, marginal.model
    else:
        density, graph = model.density(), model
    if case.endswith("untied"):
        assert density.untied  # the Plackett-Luce density's path without ties
    _assert_equals_graph(density, graph, spread=0.3, seed=0)


def _assert_equals_graph(density, graph, spread, seed, mode="FAST_COMPILE"):
    """The density's log density and gradient are the graph's at 3 points N(start,
    spread^2), and so are the values it expands a point into (the draws users get);
    returns the graph's compiled function. ``mode``: PyTensor's (FAST_COMPILE: the graph as
    written, in Python, 20 s sooner than the C backend's compile for a few evaluations;
    None: as a fit compiles it, with the rewrites that keep far points finite)."""
    fn = graph.logp_dlogp_function(ravel_inputs=True, **({"mode": mode} if mode else {}))
    fn.set_extra_values({})
    names = [name for name in density.names if name in graph.named_vars]
    assert len(names) >= len(density.names) - 1, names  # (the collapsed 1PL's b is drawn after)
    values = graph.compile_fn(graph.replace_rvs_by_values([graph[name] for name in names]),
                              inputs=graph.value_vars, on_unused_input="ignore",
                              mode="FAST_COMPILE")
    rng = np.random.default_rng(seed)
    for _ in range(3):
        x = density.start() + spread * rng.standard_normal(density.n_dim)
        logp, grad = density.logp_grad(x)
        ref_logp, ref_grad = fn(x)
        assert logp == pytest.approx(ref_logp, abs=1e-6)
        np.testing.assert_allclose(grad, ref_grad, rtol=1e-9, atol=1e-6)
        expanded = density.expand(x)
        point = {v.name: x[density.layout.slices[v.name]].reshape(
            density.layout.shapes[v.name]) for v in graph.value_vars}
        for name, ref in zip(names, values(point)):
            np.testing.assert_allclose(expanded[name], ref, rtol=1e-9, atol=1e-12,
                                       err_msg=name)
    return fn


@pytest.mark.parametrize("likelihood", ["pairwise", "davidson"])
def test_pairwise_density_is_the_pymc_model_where_exp_overflows(likelihood):
    """Strengths 720 apart (e^720 overflows): the pairwise and Davidson densities still equal
    the graph."""
    model = ie.models.bradley_terry(simulate_scores(6, 4)[0], likelihood=likelihood,
                                    prior_scale=1000.0)
    density = model.density()
    fn = model.logp_dlogp_function(ravel_inputs=True)
    fn.set_extra_values({})
    strength = np.zeros(density.n_players)
    strength[0] = -720.0  # player 0 (i in all its pairs) far below: d = -720, e^-d overflows
    x = density.start().copy()  # log_nu (Davidson) at 0
    x[density.layout.slices["strength_zerosum__"]] = zerosum_forward(strength - strength.mean())
    assert density.strength(x) == pytest.approx(strength - strength.mean())
    logp, grad = density.logp_grad(x)
    ref_logp, ref_grad = fn(x)
    assert np.isfinite(logp) and logp == pytest.approx(ref_logp, abs=1e-6)
    np.testing.assert_allclose(grad, ref_grad, atol=1e-6)


def test_graded_density_is_the_pymc_model_far_from_the_start():
    """Thresholds e^24 or 1e-10 apart (the model's log1mexp clamp), steps an item lacks (the
    model's CLOSED threshold): the graded density equals the graph. Where the top
    thresholds pass the graph's -2 CLOSED sentinel, the graph's own gradient is off (20
    against 8 for a c_first, whose central differences of either log density give 8): the
    density's gradient is checked against those differences there."""
    model = _gpcm("graded")
    density = model.density()
    fn = _assert_equals_graph(density, model, spread=8.0, seed=1, mode=None)
    x = density.start().copy()
    x[density.layout.slices["c_gap_log__"]] = 12.0  # gaps e^12: top thresholds past 2e4
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (exp overflowed there once: harmless, but said)
        logp, grad = density.logp_grad(x)
    assert logp == pytest.approx(fn(x)[0], rel=1e-12)
    for k in range(density.n_dim):
        step = np.zeros(density.n_dim)
        step[k] = 1e-3
        numeric = (density.logp_grad(x + step)[0] - density.logp_grad(x - step)[0]) / 2e-3
        assert grad[k] == pytest.approx(numeric, rel=1e-5, abs=1e-4), k


@pytest.mark.parametrize("slip, centred", [(False, False), (True, False), (True, True)])
def test_asymptote_gradient_is_exact_in_the_tails(slip, centred):
    """Far from the start (|eta| in the tens: large discriminations) the 3PL/4PL gradient
    still matches central finite differences of the log density. The floor's derivative once
    lost 1 - sigmoid(eta) to cancellation there: the 3PL case failed with that version."""
    density = _binary(True, 0.15, guessing=True, n_options=4, slip=slip,
                      centred=centred).density()
    rng = np.random.default_rng(2)
    x = density.start() + 0.3 * rng.standard_normal(density.n_dim)
    x[density.layout.slices["log_a" if centred else "a_z"]] = 3.0  # a = e^3 = 20 (s = 1)
    x[density.layout.slices["sigma_log_a_log__"]] = 0.0
    x[density.layout.slices["theta_zerosum__"]] *= 6  # |eta| up to ~50
    logp, grad = density.logp_grad(x)
    assert np.isfinite(logp)
    h = 1e-6
    for k in rng.choice(density.n_dim, 40, replace=False):
        step = np.zeros(density.n_dim)
        step[k] = h
        numeric = (density.logp_grad(x + step)[0] - density.logp_grad(x - step)[0]) / (2 * h)
        assert grad[k] == pytest.approx(numeric, rel=1e-5, abs=1e-4)


@pytest.mark.filterwarnings("ignore::irteval.exceptions.IdentificationWarning")
def test_scattered_missing_cells_sample_the_dense_density_blocks_the_collapsed_one():
    """The cost rule of OnePL._collapsible: MCAR cells give about one pattern per item."""
    resp, _ = simulate(400, 16, missing=0.1, seed=2)
    assert ie.models.onepl(resp).marginal("nuts") is None
    assert ie.models.onepl(resp).marginal("map") is not None
    wide = simulate(400, 16, seed=2)[0].to_wide(rows="item")
    wide.iloc[:200, :3] = np.nan  # three models skipped the same half of the instances
    block = ie.Responses.from_wide(wide, respondent="model", item="instance", rows="item")
    assert ie.models.onepl(block).marginal("nuts") is not None


@pytest.mark.filterwarnings("ignore::irteval.exceptions.IdentificationWarning")
def test_the_discriminations_can_be_centred():
    """The 2PL-4PL's log discriminations: non-centred (value variable a_z) by default,
    centred (log_a) with centred=True; a fit records the form, and MAP's EM mode fills the
    form's own variables."""
    def free(model):
        return {v.name for v in model.free_RVs} & {"log_a", "a_z"}

    resp, _ = simulate(6, 40, discrimination=True, seed=1)
    assert free(ie.models.onepl(resp, discrimination=True)) == {"a_z"}
    for options in ({}, {"guessing": True}, {"slip": True}, {"batch_size": 100}):
        model = ie.models.onepl(resp, discrimination=True, centred=True, **options)
        assert model.centred and free(model) == {"log_a"}, options
    assert ie.models.onepl(resp).centred is None
    assert ie.models.onepl(resp, discrimination=True, dims=2).centred is None
    for centred in (True, False):  # EM's mode in the form's own coordinates
        fit = quiet_fit(ie.models.onepl(resp, discrimination=True, centred=centred),
                        method="map", log_likelihood=False)
        point = fit.posterior
        log_a = point["log_a"] if centred else point["sigma_log_a"] * point["a_z"]
        np.testing.assert_allclose(np.exp(log_a), point["a"])
        assert fit.attrs["centred"] == int(centred)  # which form a saved fit sampled


@pytest.mark.filterwarnings("ignore::irteval.exceptions.IdentificationWarning")
def test_a_slowly_mixing_sigma_log_a_is_told_which_form_to_try(monkeypatch):
    """Chains of sigma_log_a at different levels, or one chain that hardly moves: a
    non-centred fit with CENTRED_FROM answers per item (observed ones), CENTRED_ITEMS items
    (with fewer, CENTRED_FROM_FEW_ITEMS answers) and sigma_log_a >= CENTRED_SPREAD is told
    to try centred=True (short of any of them, nothing); a centred fit to go back;
    well-mixed chains, undefined diagnostics and the 1PL, nothing. fit() gives the advice as
    a ConvergenceWarning."""
    import arviz as az

    from irteval.exceptions import ConvergenceWarning
    from irteval.models.onepl import CENTRED_FROM, CENTRED_FROM_FEW_ITEMS, CENTRED_ITEMS, OnePL

    def posterior(values):
        return az.from_dict(posterior={"sigma_log_a": values})

    rng = np.random.default_rng(0)
    stuck = posterior(0.3 + 0.1 * np.arange(4)[:, None] + 0.01 * rng.standard_normal((4, 200)))
    walk = np.empty(1000)  # one chain, AR(1) at 0.995: R-hat undefined, ESS ~ 5
    walk[0] = 0.5
    for t in range(1, 1000):
        walk[t] = 0.5 + 0.995 * (walk[t - 1] - 0.5) + 0.01 * rng.standard_normal()
    mixed = posterior(0.45 + 0.01 * rng.standard_normal((4, 1000)))
    many = simulate(CENTRED_ITEMS, CENTRED_FROM, discrimination=True, seed=1)[0]
    two_pl = ie.models.onepl(many, discrimination=True)
    for chains, said in ((stuck, "(R-hat "), (posterior(walk[None, :]), "(bulk ESS ")):
        advice = two_pl.convergence_advice(chains)
        assert advice.startswith(f"sigma_log_a mixed slowly {said}")
        assert "200 answers per instance on average" in advice
        assert advice.endswith("refit with onepl(..., centred=True) and compare the two fits' "
                               "diagnostics")
    for short in (simulate(CENTRED_ITEMS, CENTRED_FROM, discrimination=True, seed=1,
                           missing=0.1)[0],  # 180 observed answers per item
                  simulate(CENTRED_ITEMS - 1, CENTRED_FROM, discrimination=True, seed=1)[0]):
        assert ie.models.onepl(short, discrimination=True).convergence_advice(stuck) is None
    few = simulate(20, CENTRED_FROM_FEW_ITEMS, discrimination=True, seed=1)[0]  # a test's shape
    assert "1000 answers per instance" in ie.models.onepl(
        few, discrimination=True).convergence_advice(stuck)
    assert ie.models.onepl(few, discrimination=True, guessing=True).convergence_advice(
        stuck) is None  # with asymptotes, fewer items were not measured
    narrow = posterior(np.asarray(stuck.posterior["sigma_log_a"]) - 0.25)  # mean 0.2
    assert two_pl.convergence_advice(narrow) is None
    assert ie.models.onepl(many, discrimination=True, guessing=True).convergence_advice(
        stuck) is None  # a floor: from CENTRED_FROM_ASYMPTOTES answers
    back = ie.models.onepl(many, discrimination=True, centred=True).convergence_advice(stuck)
    assert back.endswith("refit with centred=False (the default)")
    assert two_pl.convergence_advice(mixed) is None
    assert two_pl.convergence_advice(posterior(np.full((4, 200), 0.4))) is None  # undefined
    assert ie.models.onepl(many).convergence_advice(stuck) is None  # the 1PL has none
    monkeypatch.setattr(OnePL, "convergence_advice", lambda self, idata: "advice")
    with pytest.warns(ConvergenceWarning, match="^advice$"):
        ie.fit(ie.models.onepl(simulate(20, 10, seed=2)[0]), draws=50, tune=50, chains=2,
               random_seed=0, progressbar=False)


@pytest.mark.filterwarnings("ignore::irteval.exceptions.IdentificationWarning")
def test_instances_with_few_answers_sample_the_collapsed_form():
    """Where instances have at most FEW_ANSWERS answers on average (few respondents), NUTS
    collapses whatever the patterns: the dense centred posterior mixes badly there."""
    from irteval.models.onepl import FEW_ANSWERS

    for n_resp, missing in ((8, 0.0), (10, 0.1), (FEW_ANSWERS, 0.0)):
        resp, _ = simulate(30, n_resp, missing=missing, seed=2)
        assert ie.models.onepl(resp).marginal("nuts") is not None, (n_resp, missing)
    resp, _ = simulate(30, FEW_ANSWERS + 1, seed=2)  # 30 items, 101 grid points: dense
    assert ie.models.onepl(resp).marginal("nuts") is None
    resp, _ = simulate(30, 8, seed=2)
    assert ie.models.onepl(resp, discrimination=True).marginal("nuts") is None


@pytest.mark.parametrize("discrimination,missing", [(False, 0.15), (True, 0.0)])
def test_nutpie_on_the_density_matches_pymc_nuts(discrimination, missing):
    pytest.importorskip("nutpie")
    resp, _ = simulate(40, 6, discrimination=discrimination, missing=missing, seed=4)
    # collapse=False: at 6 respondents NUTS would sample the collapsed 1PL
    kwargs = dict(draws=600, tune=600, chains=2, random_seed=4, log_likelihood=False,
                  collapse=False)
    fast = quiet_fit(ie.models.onepl(resp, discrimination=discrimination), **kwargs)
    ref = quiet_fit(ie.models.onepl(resp, discrimination=discrimination), sampler="pymc",
                    **kwargs)
    assert fast.attrs["irteval_method"] == "nuts:nutpie"
    for idata in (fast, ref):  # what reruns the fit travels with it (was nowhere)
        assert {k: idata.attrs[k] for k in ("random_seed", "draws", "tune", "chains")} == {
            "random_seed": 4, "draws": 600, "tune": 600, "chains": 2}
    # with 6 respondents a 2PL chain started at nutpie's own start could stick at huge
    # discriminations (R-hat > 2 for 1-2 of seeds 0-7); at PyMC's U(-1, 1) jitter none did
    assert max(fast.attrs["max_rhat"], ref.attrs["max_rhat"]) < 1.05
    assert list(fast.posterior["theta"].dims) == list(ref.posterior["theta"].dims)
    assert list(fast.posterior["respondent"].values) == list(resp.respondents)
    _assert_same_means(fast, ref, ("theta", "b", "a") if discrimination else ("theta", "b"))


def _assert_same_means(fast, ref, names, draws=300):
    """Posterior means of two fits within 4.5 Monte Carlo standard errors of their difference
    (``draws``: a conservative effective sample size of each)."""
    for name in names:
        a, b = (idata.posterior[name] for idata in (fast, ref))
        se = np.sqrt(a.var(("chain", "draw")) / draws + b.var(("chain", "draw")) / draws)
        gap = abs(a.mean(("chain", "draw")) - b.mean(("chain", "draw"))) / se
        assert float(gap.max()) < 4.5, name


@pytest.mark.slow
@pytest.mark.parametrize("build,names", [(_gpcm, ("theta", "a", "c")),
                                         (_continuous, ("tau", "lam", "s", "theta")),
                                         (CASES["bt davidson, ties"], ("epp", "log_nu")),
                                         (CASES["graded, missing, uneven levels"],
                                          ("theta", "a", "c")),
                                         (CASES["bt plackett-luce, hierarchy, missing and "
                                                "tied"], ("epp", "tau", "deviation")),
                                         (CASES["bt battles by round, hierarchy"],
                                          ("epp", "tau", "deviation"))],
                         ids=["gpcm", "continuous", "davidson", "graded", "tasks", "battles "
                              "by round"])
def test_nutpie_on_the_density_matches_the_graph(build, names):
    pytest.importorskip("nutpie")
    model = build()
    model = model[0] if isinstance(model, tuple) else model
    kwargs = dict(draws=600, tune=600, chains=2, random_seed=4, log_likelihood=False)
    fast = quiet_fit(model, **kwargs)
    ref = quiet_fit(model.copy(), sampler="pymc", **kwargs)
    assert fast.attrs["irteval_method"] == "nuts:nutpie"
    _assert_same_means(fast, ref, names)


def test_map_with_missing_cells_goes_through_the_collapsed_model():
    resp, truth = simulate(300, 60, missing=0.1, seed=6)
    point = quiet_fit(ie.models.onepl(resp), method="map", random_seed=0, log_likelihood=False)
    assert 0.5 < point.posterior["sigma_b"].item() < 2.5
    assert np.corrcoef(point.posterior["b"].values.ravel(), truth["b"])[0, 1] > 0.95


@pytest.mark.parametrize("missing", [0.0, 0.15])
def test_collapsed_difficulty_draws_do_not_depend_on_the_threads(monkeypatch, missing):
    """draw_difficulties seeds each chunk of draws on its own: one thread or several, the
    same draws; and their mean and sd are those of each b's exact conditional, sampled by
    inverse CDF on a fine grid independently."""
    from irteval.models import onepl_marginal as om

    resp, _ = simulate(30, 8, missing=missing, seed=5)
    rows = om.ItemRows.from_responses(resp)
    rng = np.random.default_rng(0)
    n = 3000
    mu, sigma = rng.normal(-0.5, 0.1, n), np.exp(rng.normal(0, 0.1, n))
    theta = rng.normal(0, 1, (n, 8))

    def draws(threads, mu=mu, sigma=sigma, theta=theta):
        monkeypatch.setattr(om, "DRAW_THREADS", threads)
        monkeypatch.setattr(om, "cpu_count", lambda: threads)
        return om.draw_difficulties(rows, mu, sigma, theta, np.random.default_rng(1),
                                    cells_per_chunk=20_000)

    one = draws(1)
    np.testing.assert_array_equal(one, draws(3))
    # the same conditional at every draw: chunks with the same generator would repeat rows
    same = draws(3, np.zeros(n), np.ones(n), np.zeros((n, 8)))
    assert len(np.unique(same, axis=0)) == n
    # the conditional of item 0's b at each draw, on a fine grid (missing answers: y = 0)
    y = np.zeros(8)
    y[resp.respondent_idx[resp.item_idx == 0]] = 2 * resp.values[resp.item_idx == 0] - 1
    b = np.linspace(-9, 8, 401)
    eta = theta[:, None, :] - b[None, :, None]
    prior = -0.5 * ((b - mu[:, None]) / sigma[:, None]) ** 2
    log_f = prior - np.logaddexp(0, -y * eta).sum(axis=2)
    f = np.exp(log_f - log_f.max(axis=1, keepdims=True))
    f /= f.sum(axis=1, keepdims=True)
    mean = (f * b).sum(axis=1)
    sd = np.sqrt((f * b**2).sum(axis=1) - mean**2)
    z = (one[:, 0] - mean) / sd  # standardised draws: mean 0, sd 1 if exact
    assert abs(z.mean()) < 4 / np.sqrt(n) and abs(z.std() - 1) < 0.05


def test_1pl_2pl_warm_up_for_500_steps_on_nutpie_only(monkeypatch):
    """The 1PL's and 2PL's warm-up (measured with nutpie, collapsed and dense) applies there
    alone: not to PyMC's sampler, not to the 3PL; tune= wins."""
    from irteval.inference import nuts

    seen = []

    class Stop(Exception):
        pass

    def record(*args, tune, **kwargs):
        seen.append(tune)
        raise Stop

    monkeypatch.setattr(nuts, "sample_density", record)
    monkeypatch.setattr(nuts, "sample", record)
    resp, _ = simulate(120, 8, seed=1)  # more items than grid points: collapsed
    for model, kwargs in ((ie.models.onepl(resp), {}),
                          (ie.models.onepl(resp), {"tune": 700}),
                          (ie.models.onepl(resp), {"collapse": False}),  # the dense density
                          (ie.models.onepl(resp), {"collapse": False, "tune": 700}),
                          (ie.models.onepl(resp), {"sampler": "pymc"}),
                          (ie.models.onepl(resp), {"sampler": "pymc", "collapse": False}),
                          (ie.models.onepl(resp, discrimination=True), {}),
                          (ie.models.onepl(resp, discrimination=True, guessing=True), {})):
        with pytest.raises(Stop):
            ie.fit(model, random_seed=0, progressbar=False, **kwargs)
    assert seen == [500, 700, 500, 700, 1000, 1000, 500, 1000]
