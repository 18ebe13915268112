"""Shared simulated data and fits: each model is compiled and sampled once per session."""

import os
import warnings

import numpy as np
import pandas as pd
import pytest

import irteval as ie


def pytest_configure(config):
    """One BLAS/OpenMP thread per core and xdist worker (as scikit-learn's own tests do): with
    two workers on two cores, the zoo's gradient boosting spun two OpenMP threads beside the
    other worker (``test_robustness_outputs_are_labelled``: 79 s in the suite, 16 s with one
    thread; the suite's total CPU time did not change). The environment variables reach what
    the workers start (notebook kernels, PyMC's chain processes)."""
    workers = os.environ.get("PYTEST_XDIST_WORKER_COUNT")
    if workers is None:
        return
    from joblib import cpu_count
    from threadpoolctl import threadpool_limits

    threads = max(cpu_count() // int(workers), 1)
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, str(threads))
    threadpool_limits(threads)


def simulate(n_items=300, n_resp=30, discrimination=False, missing=0.0, seed=0, sd_log_a=0.7):
    """Responses from the model itself: b ~ N(-0.5, 1.2), theta ~ N(0, s) summing to zero
    (the model's identification), a ~ LogNormal(0, sd_log_a) for the 2PL."""
    rng = np.random.default_rng(seed)
    b = rng.normal(-0.5, 1.2, n_items)
    theta = rng.normal(0, 1.0 if discrimination else 1.3, n_resp)
    theta -= theta.mean()
    a = np.exp(rng.normal(0, sd_log_a, n_items)) if discrimination else np.ones(n_items)
    p = 1 / (1 + np.exp(-a[:, None] * (theta[None, :] - b[:, None])))
    y = (rng.random(p.shape) < p).astype(float)
    if missing:
        y[rng.random(y.shape) < missing] = np.nan
    wide = pd.DataFrame(y, index=pd.Index([f"i{k}" for k in range(n_items)], name="instance"),
                        columns=pd.Index([f"m{k}" for k in range(n_resp)], name="model"))
    truth = {"b": b, "theta": theta, "a": a}
    return ie.Responses.from_wide(wide, respondent="model", item="instance", rows="item"), truth


def quiet_fit(model, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return ie.fit(model, progressbar=False, **kwargs)


@pytest.fixture(scope="session")
def small():
    """A small 1PL fit for API tests (60 instances x 8 models)."""
    resp, truth = simulate(60, 8, seed=1)
    idata = quiet_fit(ie.models.onepl(resp), draws=200, tune=300, chains=2, random_seed=1,
                      posterior_predictive=True)
    return resp, truth, idata


@pytest.fixture(scope="session")
def sim_1pl():
    return simulate(300, 30, seed=2)


@pytest.fixture(scope="session")
def fit_1pl(sim_1pl):
    resp, _ = sim_1pl
    return ie.fit(ie.models.onepl(resp), draws=1000, tune=1000, chains=4, random_seed=2,
                  progressbar=False, log_likelihood=False)
