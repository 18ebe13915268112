"""InferenceData written to netCDF and read back gives identical downstream tables; the same
random_seed gives identical draws for each sampler (issue 7, first part)."""

import warnings

import arviz as az
import numpy as np
import pandas as pd
import pytest

import irteval as ie

from .conftest import simulate
from .test_continuous import responses, simulate_airt


def reload(idata, tmp_path, name):
    path = tmp_path / f"{name}.nc"
    idata.to_netcdf(path)
    return az.from_netcdf(path)


def test_difficulty_tables_survive_netcdf(small, tmp_path):
    _, _, idata = small
    back = reload(idata, tmp_path, "onepl")
    pd.testing.assert_frame_equal(ie.difficulty(idata), ie.difficulty(back))
    pd.testing.assert_frame_equal(ie.characteristic_curves(idata), ie.characteristic_curves(back))
    assert list(back.posterior["item"].values) == list(idata.posterior["item"].values)


def test_portfolio_tables_survive_netcdf(tmp_path):
    wide, _ = simulate_airt(n=60, n_items=5, n_negative=1, seed=4)
    perf = responses(wide, bounds=(0, 1), clip=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        idata = ie.fit(ie.models.continuous_irt(perf), draws=200, tune=300, chains=2,
                       random_seed=3, progressbar=False)
    back = reload(idata, tmp_path, "airt")
    pd.testing.assert_frame_equal(ie.algorithm_metrics(idata), ie.algorithm_metrics(back))
    for a, b in ((ie.latent_trait(idata, max_draws=30), ie.latent_trait(back, max_draws=30)),):
        pd.testing.assert_frame_equal(ie.portfolio(a), ie.portfolio(b))
        pd.testing.assert_frame_equal(a.smoothed, b.smoothed)
    pd.testing.assert_frame_equal(ie.model_goodness(idata, max_draws=30),
                                  ie.model_goodness(back, max_draws=30))
    assert list(back.posterior["item"].values) == list(wide.columns)


def test_leaderboard_survives_netcdf(tmp_path):
    scores = ie.datasets.load_vtab()
    idata = ie.fit(ie.models.bradley_terry(scores), method="laplace", draws=200, chains=2,
                   random_seed=0)
    back = reload(idata, tmp_path, "bt")
    pd.testing.assert_frame_equal(ie.leaderboard(idata), ie.leaderboard(back))


@pytest.mark.parametrize("sampler", ["pymc", "nutpie", "numpyro"])
def test_same_seed_same_draws(sampler):
    """The 1PL and the continuous IRT (whose chains start from seeded optimisations); numpyro
    on the 1PL only: it samples both from PyMC's graph with the same seeding, and each model
    costs it a JAX compilation (~10 s)."""
    pytest.importorskip(sampler)
    resp, _ = simulate(40, 6, seed=8)
    wide, _ = simulate_airt(n=40, n_items=4, n_negative=1, seed=8)
    perf = responses(wide, bounds=(0, 1), clip=1e-12)
    builds = [lambda: ie.models.onepl(resp), lambda: ie.models.continuous_irt(perf)]
    for build in builds[:1] if sampler == "numpyro" else builds:
        fits = []
        for _ in range(2):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fits.append(ie.fit(build(), draws=100, tune=150, chains=2, random_seed=11,
                                   sampler=sampler, progressbar=False, log_likelihood=False))
        for name, values in fits[0].posterior.data_vars.items():
            np.testing.assert_array_equal(values.values, fits[1].posterior[name].values,
                                          err_msg=f"{sampler}: {name}")


@pytest.mark.parametrize("fork", [True, False], ids=["forked", "joblib"])
def test_density_chains_give_the_same_draws_here_and_in_worker_processes(monkeypatch, fork):
    """nutpie on a NumPy density runs each chain with its own seed, in this process or (for a
    long fit) in worker processes, forked (Linux) or joblib's: the draws are the same."""
    pytest.importorskip("nutpie")
    from irteval import parallel
    from irteval.inference import nuts

    if fork and not parallel.can_fork():
        pytest.skip("fork is used on Linux only")
    monkeypatch.setattr(parallel, "can_fork", lambda: fork)
    monkeypatch.setattr(nuts, "can_fork", lambda: fork)
    resp, _ = simulate(30, 8, seed=3)
    fits = {}
    for where, threshold in (("here", np.inf), ("workers", 0.0)):
        monkeypatch.setattr(nuts, "PARALLEL_CHAINS_FROM_S", {"fork": threshold, "loky": threshold})
        assert (nuts.chain_jobs(ie.models.onepl(resp).density(), 2, 10)
                is None) == (where == "here")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fits[where] = ie.fit(ie.models.onepl(resp), draws=50, tune=100,
                                 chains=2, random_seed=4, progressbar=False,
                                 log_likelihood=False)
    for name, values in fits["here"].posterior.data_vars.items():
        np.testing.assert_array_equal(values.values, fits["workers"].posterior[name].values,
                                      err_msg=name)
    assert list(fits["workers"].posterior.chain.values) == [0, 1]
    assert list(fits["workers"].posterior.respondent.values) == list(resp.respondents)
