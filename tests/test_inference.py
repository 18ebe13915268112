import warnings

import arviz as az
import numpy as np
import pandas as pd
import pytest

import irteval as ie

from .conftest import quiet_fit, simulate


def test_idata_has_every_group_with_labels(small):
    resp, _, idata = small
    for group in ("posterior", "sample_stats", "log_likelihood", "observed_data",
                  "posterior_predictive"):
        assert group in idata.groups()
    assert list(idata.posterior["item"].values) == list(resp.items)
    assert list(idata.posterior["respondent"].values) == list(resp.respondents)
    assert idata.log_likelihood["y"].dims == ("chain", "draw", "item", "respondent")
    assert idata.attrs["item_name"] == "instance" and idata.attrs["irteval_model"] == "1pl"


def test_arviz_works_unchanged(small):
    _, _, idata = small
    summary = az.summary(idata, var_names=["mu_b", "sigma_b", "b"])
    assert {"mean", "r_hat", "ess_bulk"} <= set(summary.columns)
    loo = az.loo(idata)
    assert np.isfinite(loo.elpd_loo)
    az.plot_ppc(idata, num_pp_samples=20)


def test_same_seed_same_draws():
    resp, _ = simulate(30, 5, seed=7)
    model = ie.models.onepl(resp)
    one = quiet_fit(model, draws=50, tune=50, chains=1, random_seed=11, log_likelihood=False)
    two = quiet_fit(model, draws=50, tune=50, chains=1, random_seed=11, log_likelihood=False)
    np.testing.assert_array_equal(one.posterior["b"].values, two.posterior["b"].values)


def test_short_run_warns_with_a_remedy():
    resp, _ = simulate(30, 5, seed=8)
    # which fit it is about: notebook 01 fits three models in a loop
    with pytest.warns(ie.ConvergenceWarning,
                      match=r"^NUTS diagnostics failed \(1pl\): .*draw more"):
        ie.fit(ie.models.onepl(resp), draws=20, tune=20, chains=2, random_seed=0,
               progressbar=False, log_likelihood=False)


@pytest.mark.parametrize("method", ["laplace", "advi"])
def test_approximations_agree_with_nuts(sim_1pl, fit_1pl, method):
    resp, _ = sim_1pl
    approx = quiet_fit(ie.models.onepl(resp), method=method, draws=500, chains=2,
                       random_seed=0, advi_iterations=10000)
    assert {"posterior", "log_likelihood", "observed_data"} <= set(approx.groups())
    nuts, fast = ie.difficulty(fit_1pl), ie.difficulty(approx)
    assert np.corrcoef(nuts["mean"], fast["mean"])[0, 1] > 0.99
    assert np.abs(nuts["mean"] - fast["mean"]).mean() < 0.1
    # Laplace on the collapsed model matches NUTS; mean-field ADVI is known to under-disperse
    low = 0.9 if method == "laplace" else 0.6
    assert low < (fast["sd"] / nuts["sd"]).median() < 1.1


def test_map_is_a_single_draw_without_scale_collapse(sim_1pl, fit_1pl):
    resp, _ = sim_1pl
    point = quiet_fit(ie.models.onepl(resp), method="map", random_seed=0, log_likelihood=False)
    assert point.posterior.sizes["chain"] == 1 and point.posterior.sizes["draw"] == 1
    sigma_b = point.posterior["sigma_b"].item()
    assert abs(sigma_b - fit_1pl.posterior["sigma_b"].mean().item()) < 0.1
    corr = np.corrcoef(point.posterior["b"].values.ravel(), ie.difficulty(fit_1pl)["mean"])
    assert corr[0, 1] > 0.99


def test_laplace_refuses_models_without_a_mode():
    resp, _ = simulate(20, 4, missing=0.2, seed=10)
    with pytest.raises(ValueError, match="grows without bound as its scale"):
        ie.fit(ie.models.onepl(resp), method="laplace", collapse=False)  # not collapsed
    # the 2PL's mode is its EM's: one point, but no Laplace approximation around it
    with pytest.raises(ValueError, match=r"Laplace approximation of the 2PL is not available "
                                         r"yet .* use method='map'"):
        ie.fit(ie.models.onepl(resp, discrimination=True), method="laplace")


def test_map_refuses_a_collapsed_scale():
    """30 models x 20 instances of Rasch answers: the collapsed 1PL's log density (log scale
    coordinates) rises all the way to sigma_theta -> 0, with no interior mode; MAP and
    Laplace ran there (sigma_theta 8e-12, every ability 0) with only a convergence warning."""
    rng = np.random.default_rng(0)
    theta, b = rng.normal(size=30), rng.normal(size=20)
    wide = pd.DataFrame((rng.random((30, 20)) < 1 / (1 + np.exp(b - theta[:, None]))).astype(
        int), index=[f"m{i}" for i in range(30)], columns=[f"i{j}" for j in range(20)])
    model = ie.models.onepl(ie.Responses.from_wide(wide, respondent="model", item="instance"))
    for method in ("map", "laplace"):
        with pytest.raises(ValueError, match="ran into sigma_theta -> 0.*method='nuts'"):
            ie.fit(model, method=method, progressbar=False)
    every = ie.Responses.from_wide(wide * 0 + 1, respondent="model", item="instance")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ie.exceptions.IdentificationWarning)
        with pytest.raises(ValueError, match="ran into sigma_theta -> 0"):  # was OverflowError
            ie.fit(ie.models.onepl(every), method="map", progressbar=False)


def test_map_finds_the_mode_on_ordinary_shapes():
    """The refusal above is rare: simulated 20-200 instances x 4-100 models, four data sets
    each, refuse only 20 x 4 with seed 2 (models/onepl.md)."""
    refused = []
    for shape in [(20, 4), (20, 10), (40, 10), (100, 10), (20, 30), (50, 30), (200, 8),
                  (30, 100)]:
        for seed in range(4):
            resp, _ = simulate(*shape, seed=seed)
            try:
                quiet_fit(ie.models.onepl(resp), method="map", random_seed=0)
            except ValueError:
                refused.append((shape, seed))
    assert len(refused) <= 2, refused  # here: [((20, 4), 2)]


def test_bad_arguments():
    resp, _ = simulate(10, 3, seed=9)
    model = ie.models.onepl(resp)
    with pytest.raises(ValueError, match="method='mcmc' is not one of"):
        ie.fit(model, method="mcmc")
    with pytest.raises(ValueError, match="sampler='stan'"):
        ie.fit(model, sampler="stan")
    with pytest.raises(ValueError, match="draws=0: give a whole number of at least 1"):
        ie.fit(model, draws=0)
    with pytest.raises(TypeError, match="draws=20.5: give a whole number"):  # not rounded
        ie.fit(model, draws=20.5)
    with pytest.raises(ValueError, match="tune=-5: give a whole number of at least 0"):
        ie.fit(model, tune=-5)
    with pytest.raises(ValueError, match="target_accept must be a number between 0 and 1"):
        ie.fit(model, target_accept=1.5)
    with pytest.raises(ValueError, match="random_seed must be None, a non-negative int"):
        ie.fit(model, method="map", random_seed=-1)
    with pytest.raises(TypeError, match="random_seed must be None, a non-negative int"):
        ie.fit(model, method="map", random_seed=True)
    with pytest.raises(TypeError, match="got seed=: irteval seeds a fit with random_seed="):
        ie.fit(model, seed=1)
    with pytest.raises(TypeError, match="got random_state=: irteval seeds a fit with"):
        ie.fit(model, method="map", random_state=3)
    with pytest.raises(TypeError, match="sets pymc.sample's nuts_sampler= itself.*sampler="):
        ie.fit(model, nuts_sampler="numpyro")  # was pymc.sample's 'multiple values'
    with pytest.raises(TypeError, match="sets pymc.sample's compute_convergence_checks="):
        ie.fit(model, compute_convergence_checks=True)
    with pytest.raises(ValueError, match="cores=0: give a whole number of at least 1"):
        ie.fit(model, cores=0)  # PyMC's ZeroDivisionError
    with pytest.raises(ValueError, match="init= does not reach nutpie"):
        ie.fit(model, init="adapt_full")  # dropped in silence
    with pytest.warns(UserWarning, match="method='map' finds one point and ignores sampler="):
        ie.fit(model, method="map", sampler="numpyro")  # was accepted without a word
    with pytest.warns(UserWarning, match="method='map' finds one point and ignores draws=, "
                                         "chains=, keep_warmup="):
        ie.fit(model, method="map", draws=100, chains=3, keep_warmup=True)  # 1 chain x 1 draw
    with pytest.warns(UserWarning, match="method='advi' draws from an approximation, not a "
                                         "sampler, and ignores tune="):
        ie.fit(model, method="advi", tune=100, advi_iterations=200, draws=10)
    start = {"b": np.zeros(len(model.coords["item"]))}
    with pytest.raises(ValueError, match="initvals=: this 1PL is sampled in its collapsed"):
        ie.fit(model, sampler="pymc", initvals=start)  # was KeyError: 'b' inside PyMC
    with pytest.raises(ValueError, match="initvals= do not reach nutpie"):
        ie.fit(model, collapse=False, initvals=start)  # PyMC dropped them, the fit went on
    with pytest.raises(TypeError, match=r"fit\(method='advi'\) takes no \['max_treedepth'\]"):
        ie.fit(model, method="advi", max_treedepth=3)
    with pytest.raises(TypeError, match=r"unexpected keyword\(s\) \['draw'\].*did you mean "
                                        r"draws= for draw="):
        ie.fit(model, draw=10)  # ran 4 x 1000 draws in silence
    with pytest.raises(TypeError, match=r"expected a pymc.Model.*ie.fit\(ie.models.onepl\(data"):
        ie.fit(resp)  # the builder for the data's kind
    with pytest.raises(TypeError, match=r"got Scores; .*ie.models.bradley_terry\(data\)"):
        ie.fit(ie.datasets.load_vtab())
    with pytest.raises(TypeError, match=r"got DataFrame; build one with irteval.models"):
        ie.fit(pd.DataFrame({"kind": ["binary"]}))  # a column named kind is no data kind
    with pytest.raises(TypeError, match="expected irteval.Responses"):
        ie.models.onepl(resp.to_wide())
    with pytest.raises(ValueError, match="unknown prior_scale keys"):
        ie.models.onepl(resp, prior_scale={"sigma": 1})
    for bad in (-1, 0, np.nan, "2"):  # were a math domain error, ZeroDivisionError, silence...
        with pytest.raises(ValueError, match=r"prior_scale\['sigma_theta'\]=.*give a finite"):
            ie.models.onepl(resp, prior_scale={"sigma_theta": bad})
    with pytest.raises(TypeError, match="prior_scale must be a dict"):
        ie.models.onepl(resp, prior_scale=2.0)
    # a scale the variant has no prior for was taken in silence and written into the attrs
    for options, key in (({"discrimination": True}, "sigma_theta"), ({}, "sigma_log_a"),
                         ({"discrimination": True, "dims": 2}, "sigma_log_a")):
        with pytest.raises(ValueError, match=rf"prior_scale keys \['{key}'\] belong to no "
                           "prior of this model; its prior scales are"):
            ie.models.onepl(resp, prior_scale={key: 5.0}, **options)
    assert ie.models.onepl(resp, discrimination=True, prior_scale={"sigma_log_a": 1.0}).priors \
        == {"mu_b": 3.0, "sigma_b": 2.0, "sigma_log_a": 1.0}
    with pytest.raises(ValueError, match="batch_size must be an integer"):
        ie.models.onepl(resp, batch_size=True)  # was a bare AssertionError
    with pytest.raises(ValueError, match=r"prior_scale=-4: give a finite number > 0"):
        ie.models.bradley_terry(ie.datasets.load_vtab(), prior_scale=-4)


def test_diagnostics_on_a_subset_of_a_long_dimension(small):
    _, _, idata = small
    full = ie.diagnostics(idata)
    part = ie.diagnostics(idata, max_per_dim=10)
    assert part["diagnostics_subset"] == "item: 10 of 60" and "diagnostics_subset" not in full
    assert part["min_ess_bulk"] >= full["min_ess_bulk"] and part["max_rhat"] <= full["max_rhat"]
    assert len({ie.diagnostics(idata, max_per_dim=10, random_seed=seed)["min_ess_bulk"]
                for seed in range(4)}) > 1  # random_seed picks the subset
    assert ie.diagnostics(idata, subset={"item": range(10)})["diagnostics_subset"] == \
        "item: 10 of 60"
    for one in (5, np.int64(5), [-1], {5}):  # one position, counted from the end, a set
        assert ie.diagnostics(idata, subset={"item": one})["diagnostics_subset"] == \
            "item: 1 of 60"
    # xarray's KeyError, 'int' object is not iterable, numpy's IndexError, an AttributeError
    for args, kwargs, error, message in (
            ((idata,), {"var_names": ["nope"]}, ValueError, r"var_names=\['nope'\] are not"),
            ((idata,), {"subset": 10}, TypeError, "subset= takes {dim: positions}"),
            ((idata,), {"subset": {"item": ["i0"]}}, ValueError, "takes positions 0 to 59"),
            ((idata,), {"subset": {"item": [60]}}, ValueError, "takes positions 0 to 59"),
            ((idata,), {"subset": {"item": np.arange(60) < 5}}, ValueError,
             r"not a boolean mask: give np.flatnonzero\(mask\)"),
            ((idata.posterior.to_dataframe(),), {}, TypeError, "takes a fit")):
        with pytest.raises(error, match=message):
            ie.diagnostics(*args, **kwargs)


def test_prox_start_is_close_to_the_truth():
    import pandas as pd

    from irteval.models.onepl_marginal import ItemRows, prox_start

    rng = np.random.default_rng(4)
    theta, b = rng.normal(0, 1, 40), rng.normal(-1, 1, 3000)
    y = (rng.random((3000, 40)) < 1 / (1 + np.exp(b[:, None] - theta))).astype(float)
    resp = ie.Responses.from_wide(pd.DataFrame(y), respondent="model", item="instance",
                                  rows="item")
    start = prox_start(ItemRows.from_responses(resp))
    assert abs(start["mu_b"] - (-1 - theta.mean())) < 0.15
    assert abs(start["sigma_b"] - 1) < 0.15 and abs(start["sigma_theta"] - theta.std()) < 0.15
    assert np.corrcoef(start["theta"], theta)[0, 1] > 0.98


def test_optimiser_runs_scipys_own_blas_on_one_thread():
    # SciPy's OpenBLAS threads spinning beside NumPy's made the collapsed 1PL's gradient ten
    # times slower inside L-BFGS; NumPy's keep their threads
    from threadpoolctl import threadpool_info, threadpool_limits

    from irteval.inference.approximations import mode_finder_of, scipy_own_blas

    def threads():
        return {i["filepath"]: i["num_threads"] for i in threadpool_info()
                if i["user_api"] == "blas"}

    scipy_blas = {lib.filepath for lib in scipy_own_blas().lib_controllers}
    if not scipy_blas:
        pytest.skip("SciPy shares NumPy's BLAS here")
    with threadpool_limits(2, user_api="blas"):  # as outside xdist (conftest: 1 per worker)
        before = threads()
        assert all(n == 2 for n in before.values()), before

        class Quadratic:
            seen = []

            def logp_grad(self, x):
                self.seen.append(threads())
                return -0.5 * x @ x, -x

        mode, _, _ = mode_finder_of(Quadratic(), "L-BFGS-B")(np.ones(3))
        assert np.allclose(mode, 0) and Quadratic.seen
        for seen in Quadratic.seen:
            assert seen == {path: 1 if path in scipy_blas else n for path, n in before.items()}
        assert threads() == before


def test_collapsed_diagnostics_check_one_item_per_count():
    resp, _ = simulate(300, 8, seed=1)
    idata = quiet_fit(ie.models.onepl(resp), draws=100, tune=200, chains=2, random_seed=1,
                      log_likelihood=False)
    assert idata.attrs["collapsed"] == 1
    counts = resp.to_wide(rows="item").sum(axis=1)
    assert idata.attrs["diagnostics_subset"] == f"item: {counts.nunique()} of {resp.n_items}"


def test_minibatch_advi_agrees_with_full_advi():
    resp, truth = simulate(300, 15, seed=5)
    full = quiet_fit(ie.models.onepl(resp), method="advi", draws=250, chains=2,
                     advi_iterations=8000, random_seed=5)
    batch = quiet_fit(ie.models.onepl(resp, batch_size=500), method="advi", draws=250,
                      chains=2, advi_iterations=8000, random_seed=5)
    b_full = full.posterior["b"].mean(("chain", "draw")).values
    b_batch = batch.posterior["b"].mean(("chain", "draw")).values
    assert batch.attrs["minibatch"] == 500 and "log_likelihood" not in batch.groups()
    assert np.corrcoef(b_batch, b_full)[0, 1] > 0.97
    assert np.corrcoef(b_batch, truth["b"])[0, 1] > 0.85
    # the summaries read its cells as a missing-cell fit's (Minibatch left them unnamed)
    assert batch.constant_data["item_idx"].dims == ("obs",)
    cells = batch.observed_data  # named by the user's labels, as a missing-cell fit's are
    for side in ("item", "respondent"):
        labels = batch.posterior[side].values[batch.constant_data[f"{side}_idx"].values]
        assert (cells[f"obs_{side}"].values == labels).all()
    np.testing.assert_allclose(ie.difficulty(batch)["accuracy"], ie.difficulty(full)["accuracy"])
    assert len(ie.item_fit(batch, max_draws=20)) == resp.n_items
    with pytest.raises(ValueError, match="only be fitted with method='advi'"):
        ie.fit(ie.models.onepl(resp, batch_size=500))
    with pytest.raises(ValueError, match="batch_size must be an integer"):
        ie.models.onepl(resp, batch_size=resp.n_obs)
    with pytest.raises(ValueError, match=r"log_likelihood=True with a minibatch model"):
        ie.fit(ie.models.onepl(resp, batch_size=500), method="advi", log_likelihood=True)
    with pytest.raises(ValueError, match=r"fits\['mb'\] is a minibatch fit.*without "
                       "batch_size="):  # not the log_likelihood=True that fit refuses
        ie.compare_models({"mb": batch, "full": full})


def test_numpyro_backend_matches_the_default(small):
    """The JAX path (numpyro through PyMC; on a GPU when jax sees one) gives the same posterior."""
    pytest.importorskip("numpyro")
    resp, _, ref = small
    options = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        idata = ie.fit(ie.models.onepl(resp), sampler="numpyro", draws=200, tune=300,
                       chains=2, random_seed=1, log_likelihood=False, progressbar=False,
                       nuts_sampler_kwargs=options)
    assert not [w for w in caught if "donated buffers" in str(w.message)]  # JAX's own note
    assert idata.attrs["irteval_method"] == "nuts:numpyro"
    assert options == {}  # the caller's dict (fit wrote its chain_method into it)
    assert idata.posterior["b"].dims == ref.posterior["b"].dims
    gap = idata.posterior["b"].mean(("chain", "draw")) - ref.posterior["b"].mean(("chain", "draw"))
    assert float(abs(gap).max()) < 0.3


def test_a_missing_nutpie_falls_back_to_pymc_with_a_warning(monkeypatch):
    """nutpie is a dependency; where it is missing anyway, the default says what runs instead."""
    import importlib.util

    from irteval.inference import nuts

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "nutpie" else real(name, *a))
    with pytest.warns(UserWarning, match="nutpie is not installed.*sampler='pymc'"):
        assert nuts.default_sampler("nutpie") == "pymc"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert nuts.default_sampler("pymc") == "pymc"


def test_numpyro_runs_the_chains_vectorised_where_jax_has_fewer_devices_than_chains():
    """One GPU (or the CPU) is one JAX device: the chains run in lockstep there, not one
    after another (numpyro's own fallback); with a device per chain, one chain on each."""
    jax = pytest.importorskip("jax")
    from irteval.inference.nuts import numpyro_chain_method

    devices = jax.local_device_count()
    assert numpyro_chain_method(devices + 1) == "vectorized"
    assert numpyro_chain_method(devices) == "parallel"


@pytest.mark.parametrize("collapse, sampler", [(True, "pymc"), (False, "pymc"),
                                               (True, "nutpie")])
def test_cores_can_be_chosen(collapse, sampler):
    """A keyword for pymc.sample runs the PyMC graph (nutpie too: compiled by PyMC) and
    leaves the posterior with the model's dims only (nutpie through PyMC added
    ``theta_zerosum___dim_0``)."""
    resp, _ = simulate(30, 5, seed=9)
    idata = quiet_fit(ie.models.onepl(resp), draws=50, tune=50, chains=2, random_seed=9,
                      sampler=sampler, collapse=collapse, cores=1, log_likelihood=False)
    assert dict(idata.posterior.sizes) == {"chain": 2, "draw": 50, "respondent": 5, "item": 30}


def test_2pl_map_integrates_the_abilities_out():
    resp, truth = simulate(400, 30, discrimination=True, seed=8)
    point = quiet_fit(ie.models.onepl(resp, discrimination=True), method="map", random_seed=0,
                      log_likelihood=False)
    post = point.posterior
    assert post.sizes["chain"] == 1 and post.sizes["draw"] == 1
    assert list(post["b"].dims) == ["chain", "draw", "item"]
    assert list(post["item"].values) == list(resp.items)
    assert post["sigma_b"].item() > 0.5  # no collapse of the scale
    assert np.corrcoef(post["b"].values.ravel(), truth["b"])[0, 1] > 0.85
    assert np.corrcoef(np.log(post["a"].values.ravel()), np.log(truth["a"]))[0, 1] > 0.5
    assert abs(float(post["theta"].sum())) < 1e-8


@pytest.mark.parametrize("missing", [0.0, 0.1])
def test_2pl_em_stops_where_the_marginal_posterior_is_flat(missing):
    """At the 2PL's EM solution every item's (b, log a) is a stationary point of the log
    marginal posterior given the hyperparameters, the abilities summed out on the grid by brute
    force here; with scattered missing cells too (where Fisher scoring without step halving
    cycled for ever and stopped at its cycle limit)."""
    from scipy.special import log_expit, logsumexp

    from irteval.models.onepl_em import BinaryIRTEM

    resp, _ = simulate(200, 20, discrimination=True, missing=missing, seed=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ie.ConvergenceWarning)
        em = BinaryIRTEM(ie.models.onepl(resp, discrimination=True)).fit()
    with pytest.warns(ie.ConvergenceWarning, match="method='nuts'"):
        BinaryIRTEM(ie.models.onepl(resp, discrimination=True)).fit(max_cycles=3)
    y = resp.to_wide(rows="item").to_numpy()  # (I, J), NaN where not answered

    def log_posterior(b, log_a):
        eta = np.exp(log_a)[:, None, None] * (em.grid - b[:, None, None])  # (I, 1, Q)
        cell = np.where(y[..., None] == 1, log_expit(eta), log_expit(-eta))
        ll = np.where(np.isnan(y)[..., None], 0.0, cell).sum(axis=0) - 0.5 * em.grid**2
        return (logsumexp(ll, axis=1).sum() - 0.5 * np.sum(((b - em.mu_b) / em.sigma_b) ** 2)
                - 0.5 * np.sum((log_a / em.sigma_log_a) ** 2))

    before = log_posterior(em.b, em.log_a)
    for values in (em.b, em.log_a):
        for i in range(len(values)):
            h = np.zeros_like(values)
            h[i] = 1e-5
            values += h
            up = log_posterior(em.b, em.log_a)
            values -= 2 * h
            down = log_posterior(em.b, em.log_a)
            values += h
            assert abs(up - down) / 2e-5 < 1e-3, (i, up - down)
            assert before >= max(up, down) - 1e-9  # a maximum, not a saddle, along each axis


def test_vectorised_convergence_checks_equal_arviz():
    """R-hat and bulk/tail ESS of many parameters at once equal az.rhat / az.ess: AR(1)
    chains of every autocorrelation, shifted chains, a constant, a discrete and a random-walk
    parameter, separated chains, a NaN draw; one chain; fewer than 4 draws."""
    import importlib

    import xarray as xr

    convergence = importlib.import_module("irteval.inference.diagnostics").convergence
    rng = np.random.default_rng(1)
    n_chain, n_draw, n_par = 4, 400, 60
    phi = rng.uniform(0, 0.97, n_par)
    x = np.zeros((n_chain, n_draw, n_par))
    noise = rng.normal(size=x.shape)
    for t in range(1, n_draw):
        x[:, t] = phi * x[:, t - 1] + noise[:, t]
    x[:, :, :10] += rng.normal(0, 0.3, (n_chain, 1, 10))
    x[:, :, 10] = 1.5
    x[:, :, 11] = rng.integers(0, 3, (n_chain, n_draw))
    x[:, :, 12] = np.cumsum(noise[:, :, 12], axis=1)
    x[:, :, 13] = noise[:, :, 13] * 1e-3 + np.arange(n_chain)[:, None]
    x[2, 5, 14] = np.nan
    for draws in (x, x[:1], x[:, :3]):
        ds = xr.Dataset({"v": (("chain", "draw", "p"), draws)})
        ours = convergence(draws, block=16)
        theirs = (az.rhat(ds)["v"].values if len(draws) > 1 else np.full(n_par, np.nan),
                  az.ess(ds, method="bulk")["v"].values, az.ess(ds, method="tail")["v"].values)
        for name, a, b in zip(("rhat", "ess_bulk", "ess_tail"), ours, theirs):
            np.testing.assert_allclose(a, b, rtol=1e-9, equal_nan=True, err_msg=name)


def test_model_idata_is_what_az_from_dict_makes():
    """The groups built with every coordinate converted once equal ``az.from_dict``'s: dims
    and string labels, numbered dims without coords (from ``data.index_origin``), unnamed
    ``<name>_dim_<i>`` dims, scalar data one value long."""
    import pymc as pm
    import xarray as xr
    from pymc.backends.arviz import find_constants, find_observations

    from irteval._idata import model_idata

    with pm.Model(coords={"player": ["a", "b", "c"], "round": [10, 20]}) as model:
        strength = pm.Normal("strength", dims="player")
        pm.Data("weight", np.arange(3.0), dims="player")
        pm.Data("unlabelled", np.ones((2, 4)))
        pm.Data("count", 5.0)
        pm.Normal("score", strength, observed=np.ones((2, 3)), dims=("round", "player"))
        pm.Normal("total", strength.sum(), observed=3.0)
    rng = np.random.default_rng(0)
    posterior = {"strength": rng.normal(size=(2, 5, 3)), "extra": rng.normal(size=(2, 5, 4)),
                 "scale": rng.normal(size=(2, 5))}
    for origin in (0, 1):
        with az.rc_context({"data.index_origin": origin}):
            ours = model_idata(model, posterior, dims={"extra": ("step",)})
            theirs = az.from_dict(
                posterior=posterior, observed_data=find_observations(model),
                constant_data=find_constants(model),
                coords={k: np.asarray(v) for k, v in model.coords.items()},
                dims={**{k: list(v) for k, v in model.named_vars_to_dims.items()},
                      "extra": ["step"]})
        assert ours.groups() == theirs.groups()
        for group in theirs.groups():
            xr.testing.assert_identical(ours[group].drop_attrs(), theirs[group].drop_attrs())
            assert set(ours[group].attrs) == set(theirs[group].attrs)


def test_undefined_r_hat_or_ess_fails_the_diagnostics():
    """R-hat/ESS were taken over the entries where they are defined: an entry with NaN draws
    passed, and 3 draws (every entry undefined) passed too."""
    from irteval.inference.diagnostics import check_nuts

    rng = np.random.default_rng(0)
    stats = {"diverging": np.zeros((4, 1000), bool)}
    draws = rng.normal(size=(4, 1000, 3))
    draws[:, :, 1] = np.nan
    with pytest.warns(ie.ConvergenceWarning, match="^NUTS diagnostics failed: R-hat or ESS is "
                                                   "undefined for 1 of 3 checked entries"):
        check_nuts(az.from_dict(posterior={"b": draws}, sample_stats=stats))
    with pytest.warns(ie.ConvergenceWarning, match=r"^NUTS diagnostics failed \(m2pl, 2 skills\)"):
        check_nuts(az.from_dict(posterior={"b": draws}, sample_stats=stats,
                                attrs={"irteval_model": "m2pl", "dims": np.int64(2)}))
    stuck = np.repeat(rng.normal(size=(4, 1, 2)), 1000, axis=1)  # each chain at its own point
    with pytest.warns(ie.ConvergenceWarning, match=r"undefined for 2 of 2.*ESS 4 < 400"):
        check_nuts(az.from_dict(posterior={"b": stuck}, sample_stats=stats))
    assert ie.diagnostics(az.from_dict(posterior={"b": rng.normal(size=(4, 1000))},
                                       sample_stats=stats))["undefined"] == (0, 1)
    split = rng.normal(size=(4, 1000, 3)) + np.array([0, 0, 3, 3])[:, None, None] * [0, 1, 0]
    walk = np.zeros((4, 1000))  # autocorrelated (AR(1), 0.95): the failing entries are named
    for t in range(1, 1000):
        walk[:, t] = 0.95 * walk[:, t - 1] + rng.normal(size=4)
    with pytest.warns(ie.ConvergenceWarning, match=r"R-hat [0-9.]+ > 1.01 \(b\[m2\]\)"):
        check_nuts(az.from_dict(posterior={"b": split}, sample_stats=stats,
                                coords={"model": ["m1", "m2", "m3"]}, dims={"b": ["model"]}))
    unnamed = az.from_dict(posterior={"b": split}, sample_stats=stats)  # positions, as given
    with pytest.warns(ie.ConvergenceWarning, match=r"R-hat [0-9.]+ > 1.01 \(b\[1\]\)"):
        check_nuts(unnamed, subset={"b_dim_0": [0, 1]})
    with pytest.warns(ie.ConvergenceWarning, match=r"R-hat [0-9.]+ > 1.01 \(b\[1\]\)"):
        check_nuts(unnamed, subset={"b_dim_0": [1, 2]})  # not b[0], its place in the subset
    with pytest.warns(ie.ConvergenceWarning, match=r"ESS [0-9]+ < 400 \(sigma\)"):
        check_nuts(az.from_dict(posterior={"b": draws[:, :, [0, 2]], "sigma": walk},
                                sample_stats=stats))
    pinned = rng.normal(size=(4, 1000, 2))
    pinned[:, :, 0] = 0.0  # fixed by the model (bradley_terry(reference=)): not undefined
    assert ie.diagnostics(az.from_dict(posterior={"b": pinned},
                                       sample_stats=stats))["undefined"] == (0, 2)


def test_a_laplace_fit_too_wide_for_its_data_says_so():
    """2 models x 3 instances: some draws of sigma_theta overflowed, and all the user saw was
    NumPy's 'overflow encountered in exp'."""
    rows = pd.DataFrame({"model": list("aaabbb"), "instance": list("xyzxyz"),
                         "correct": [1, 0, 1, 0, 1, 1]})
    resp = ie.Responses.from_long(rows, respondent="model", item="instance", value="correct")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ie.fit(ie.models.onepl(resp), method="laplace", random_seed=0, progressbar=False)
    messages = [str(w.message) for w in caught]
    assert any("the Laplace approximation is too wide for these data" in m
               and "sigma_theta overflow" in m for m in messages), messages
    assert not any(issubclass(w.category, RuntimeWarning) for w in caught), messages


def test_failed_checks_read_from_a_fit_read_back(tmp_path):
    """netCDF gives the attrs back as NumPy scalars: '"s" * (np.int64(2) > 1)' crashed
    score-new and compare_models on fits read from files; a NaN ESS hid a low one."""
    from irteval.inference.diagnostics import failed_checks

    idata = az.from_dict(posterior={"x": np.random.default_rng(0).normal(size=(4, 300))})
    idata.attrs.update(max_rhat=1.02, divergences=2, min_ess_bulk=float("nan"),
                       min_ess_tail=150.0)
    idata.to_netcdf(tmp_path / "fit.nc")
    assert failed_checks(az.from_netcdf(tmp_path / "fit.nc")) == (
        "max R-hat 1.020, 2 divergences, smallest ESS 150")
    idata.attrs.update(max_rhat=1.0, divergences=0, min_ess_tail=900.0)
    assert failed_checks(idata) == ""
    assert failed_checks(az.from_dict(posterior={"x": np.zeros((1, 5))})) == ""  # (MAP: none)
