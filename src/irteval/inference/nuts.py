"""NUTS through PyMC, nutpie or numpyro, with a model's own starting points; and nutpie on a
model's NumPy density, which needs no compilation."""

from __future__ import annotations

import importlib.util
import time
import warnings
from functools import partial

import arviz as az
import numpy as np
import pandas as pd
import pymc as pm
from joblib import cpu_count
from pymc.blocking import DictToArrayBijection

from .._idata import assign_coords, model_idata
from .._validation import quiet_pymc, warn_user
from ..parallel import can_fork, map_processes

SAMPLERS = ("pymc", "nutpie", "numpyro")


def cores(chains):
    """Chains run in parallel: one per usable core (``joblib.cpu_count``: the cores this
    process may use, container CPU limits included), at most one per chain."""
    return min(chains, cpu_count())


def default_sampler(preferred):
    """``preferred`` if it is installed, else PyMC's NUTS, with a warning: nutpie is a
    dependency of irteval, and PyMC's sampler is several times slower (1PL with 10% missing
    cells, 1000 x 20: 110 s against 11 s)."""
    if preferred == "pymc" or importlib.util.find_spec(preferred):
        return preferred
    warn_user(f"{preferred} is not installed (a dependency of irteval: `pip install "
              f"{preferred}`), so NUTS runs on PyMC's own sampler, several times slower "
              "(benchmarks/README.md); fit(..., sampler='pymc') chooses it without this "
              "warning")
    return "pymc"


def sample(model, *, draws, tune, chains, seed, sampler, target_accept, progressbar,
           starts=None, init_seed=None, **sample_kwargs):
    """NUTS on ``model`` -> InferenceData (posterior, sample_stats, observed/constant data).

    ``starts`` (:class:`~irteval.models.base.StartPoints`): PyMC starts chain k at
    ``starts.per_chain[k]`` and adapts a diagonal mass matrix from draws and gradients without
    jitter (which could move a chain off its start); numpyro starts chain k there too, without
    jitter; nutpie starts at ``starts.best``. numpyro runs the chains vectorised on one device
    when JAX has fewer devices than chains (one GPU; the CPU), else one chain per device.
    """
    if sampler == "numpyro":  # a copy: the caller's dict stays as it was
        sample_kwargs["nuts_sampler_kwargs"] = {
            "chain_method": numpyro_chain_method(chains),
            **sample_kwargs.get("nuts_sampler_kwargs", {})}
    if starts is not None and "initvals" not in sample_kwargs:
        if sampler == "pymc":
            sample_kwargs["initvals"] = starts.per_chain
            sample_kwargs.setdefault("step", _nuts_from_gradients(model, tune, target_accept,
                                                                  init_seed))
        elif sampler == "numpyro":
            sample_kwargs["initvals"] = starts.per_chain
            sample_kwargs["nuts_sampler_kwargs"].setdefault("jitter", False)
        elif sampler == "nutpie":
            sample_kwargs.setdefault("nuts_sampler_kwargs", {}).setdefault(
                "init_mean", DictToArrayBijection.map(
                    {v.name: starts.best[v.name] for v in model.value_vars}).data)
    sample_kwargs.setdefault("cores", cores(chains))
    if "step" not in sample_kwargs:
        sample_kwargs["target_accept"] = target_accept
    if sampler == "pymc":  # irteval computes it afterwards, when asked
        sample_kwargs.setdefault("idata_kwargs", {}).setdefault("log_likelihood", False)
    with quiet_pymc(not progressbar), warnings.catch_warnings():
        # JAX's note on its own memory reuse (numpyro), nothing the user can act on
        warnings.filterwarnings("ignore", message="Some donated buffers were not usable")
        idata = pm.sample(draws=draws, tune=tune, chains=chains, random_seed=seed,
                          nuts_sampler=sampler, progressbar=progressbar, model=model,
                          compute_convergence_checks=False, **sample_kwargs)
    # the unconstrained draws some backends keep ("s_log__"), as PyMC's own sampler drops them
    # and the dims only they had (nutpie through PyMC keeps "theta_zerosum___dim_0")
    posterior = idata.posterior.drop_vars(
        [v for v in idata.posterior.data_vars if v.endswith("__")])
    used = {d for v in posterior.data_vars.values() for d in v.dims}
    idata.posterior = posterior.drop_dims([d for d in posterior.dims if d not in used])
    return idata


def numpyro_chain_method(chains):
    """numpyro's ``chain_method``: ``"parallel"`` (one chain per JAX device) where JAX has a
    device per chain, else ``"vectorized"`` (the chains in lockstep in one program on one
    device). numpyro's own fallback runs the chains one after the other (up to ``chains``
    times as long on one GPU), and with jaxlib 0.11 its compilation crashed
    (segmentation fault) on the CPU for the 1PL."""
    import jax

    return "parallel" if jax.local_device_count() >= chains else "vectorized"


def sample_density(density, model, *, draws, tune, chains, seed, target_accept, progressbar,
                   options=None, start=None, keep_warmup=False):
    """nutpie on a NumPy density (:mod:`irteval.models.densities`; nutpie's ``from_pyfunc``):
    no compilation at all, so a first fit in a fresh process starts sampling at once. The
    result has ``model``'s dims, coords, observed and constant data. ``options``: more
    keywords of ``nutpie.sample`` (the model's ``nutpie_options``). Chains start at
    U(-1, 1) around ``density.start()`` (PyMC's jitter), or at U(-0.01, 0.01) around
    ``start`` (an optimised unconstrained point: the model's ``start_points``, which a wide
    jitter could move into another mode). ``keep_warmup``: keep the warm-up draws
    (``warmup_posterior``, ``warmup_sample_stats``).

    Each chain is its own nutpie run with its own seed, so the draws do not depend on where
    the chains run: in this process one after the other, or (when the fit is long enough to
    pay for starting them, :func:`chain_jobs`) in worker processes, one per core
    (:func:`irteval.parallel.map_processes`). The density runs in Python, so threads would
    only fight over the GIL.
    """
    seeds = np.random.default_rng(seed).integers(2**31, size=chains)
    n_jobs = chain_jobs(density, chains, draws + tune)
    # nutpie samples with positions (it refuses int32, uint8, ... labels), and the model's
    # own labels go on afterwards
    labels = {d: pd.Index(model.coords[d]) for dim in density.dims.values() for d in dim
              if d in model.coords}
    coords = {d: pd.RangeIndex(len(index)) for d, index in labels.items()}
    start = (density.start(), 1.0) if start is None else (np.asarray(start, float), 0.01)
    run = partial(_density_chain, density, coords=coords, draws=draws, tune=tune,
                  target_accept=target_accept, options=options or {}, start=start,
                  keep_warmup=keep_warmup,
                  progressbar=progressbar and n_jobs is None)
    with quiet_pymc(not progressbar):
        traces = ([run(s) for s in seeds] if n_jobs is None
                  else map_processes(run, seeds, n_jobs=n_jobs, progressbar=progressbar))
    trace = az.concat(traces, dim="chain") if chains > 1 else traces[0]
    assign_coords(trace, labels)
    trace.extend(model_idata(model))
    return trace


#: seconds of sampling (estimated) from which chains go to worker processes: forked workers
#: start in ~0.1 s, joblib's loky workers in ~3.5 s (imports; where fork is not used)
PARALLEL_CHAINS_FROM_S = {"fork": 1.0, "loky": 10.0}
#: leapfrog steps per iteration assumed by that estimate (the 1PL/2PL at 1000 x 20 take ~30)
STEPS_PER_ITERATION = 16


def chain_jobs(density, chains, iterations):
    """Worker processes for the chains (None: run them here): one per core, when the sampling
    would take more than :data:`PARALLEL_CHAINS_FROM_S` seconds (for the kind of workers),
    estimated from the time of a few gradients."""
    n_jobs = cores(chains)
    if n_jobs < 2:
        return None
    x = density.start()
    density.logp_grad(x)
    start = time.perf_counter()
    for _ in range(5):
        density.logp_grad(x)
    per_gradient = (time.perf_counter() - start) / 5
    estimate = chains * iterations * STEPS_PER_ITERATION * per_gradient
    threshold = PARALLEL_CHAINS_FROM_S["fork" if can_fork() else "loky"]
    return n_jobs if estimate > threshold else None


def _density_chain(density, seed, *, coords, draws, tune, target_accept, options, progressbar,
                   start, keep_warmup):
    """One nutpie chain on a NumPy density -> InferenceData (posterior, sample_stats), from
    ``start`` = (point, jitter half-width)."""
    import nutpie
    from nutpie.compiled_pyfunc import from_pyfunc

    names = density.names
    dims = {name: density.dims[name] for name in names if name in density.dims}

    def make_logp():
        return lambda x, **_: density.logp_grad(x)

    def make_expand(seed1, seed2, chain):
        return lambda x, **_: {k: np.asarray(v, dtype=float).reshape(density.shapes[k])
                               for k, v in density.expand(x).items()}

    def make_start(start_seed):
        # PyMC's jitter, U(-1, 1) around the start; with nutpie's own start some 2PL chains
        # began at huge discriminations and stayed there (R-hat 3.05 at 1000 x 20)
        point, width = start
        rng = np.random.default_rng([int(seed), int(start_seed)])
        return point + rng.uniform(-width, width, density.n_dim)

    compiled = from_pyfunc(density.n_dim, make_logp, make_expand,
                           [np.dtype("float64")] * len(names), [density.shapes[n] for n in names],
                           names, coords=coords, dims=dims, make_initial_point_fn=make_start)
    return nutpie.sample(compiled, draws=draws, tune=tune, chains=1, seed=int(seed),
                         target_accept=target_accept, progress_bar=progressbar, cores=1,
                         save_warmup=keep_warmup, **options)


def _nuts_from_gradients(model, tune, target_accept, seed):
    """NUTS whose diagonal mass matrix adapts from draws and gradients (PyMC's
    ``jitter+adapt_diag_grad`` without the jitter)."""
    from pymc.step_methods.hmc import quadpotential

    n = sum(int(np.size(v)) for v in model.initial_point(0).values())
    potential = quadpotential.QuadPotentialDiagAdaptExp(
        n, np.zeros(n), alpha=0.02, use_grads=True,
        stop_adaptation=tune - 50 if tune > 250 else None, rng=np.random.default_rng(seed))
    return pm.NUTS(model=model, potential=potential, target_accept=target_accept)
