"""NUTS through PyMC, nutpie or numpyro, with a model's own starting points, and nutpie's
compiled models cached per shape so that a model of the same shape samples new data without
compiling again."""

from __future__ import annotations

import importlib.util
import os

import numpy as np
import pymc as pm
from pymc.blocking import DictToArrayBijection

from .._validation import quiet_pymc

SAMPLERS = ("pymc", "nutpie", "numpyro")
_NUTPIE_MODELS: dict = {}  # cache key -> compiled nutpie model, reused with new data


def cores(chains):
    """Chains run in parallel: one per core, at most one per chain."""
    return min(chains, os.cpu_count() or 1)


def default_sampler(preferred):
    """``preferred`` if it is installed, else PyMC's NUTS."""
    return preferred if importlib.util.find_spec(preferred) else "pymc"


def sample(model, *, draws, tune, chains, seed, sampler, target_accept, progressbar,
           starts=None, init_seed=None, cache_key=None, **sample_kwargs):
    """NUTS on ``model`` -> InferenceData (posterior, sample_stats, observed/constant data).

    ``starts`` (:class:`~irteval.models.base.StartPoints`): PyMC starts chain k at
    ``starts.per_chain[k]`` and adapts a diagonal mass matrix from draws and gradients without
    jitter (which could move a chain off its start); nutpie starts at ``starts.best``.
    ``cache_key``: with nutpie and no extra keywords, reuse the model compiled for that key."""
    if cache_key is not None and sampler == "nutpie" and not sample_kwargs and starts is None:
        return _sample_nutpie_cached(model, cache_key, draws=draws, tune=tune, chains=chains,
                                     seed=seed, target_accept=target_accept,
                                     progressbar=progressbar)
    if starts is not None and "initvals" not in sample_kwargs:
        if sampler == "pymc":
            sample_kwargs["initvals"] = starts.per_chain
            sample_kwargs.setdefault("step", _nuts_from_gradients(model, tune, target_accept,
                                                                  init_seed))
        elif sampler == "nutpie":
            sample_kwargs.setdefault("nuts_sampler_kwargs", {}).setdefault(
                "init_mean", DictToArrayBijection.map(
                    {v.name: starts.best[v.name] for v in model.value_vars}).data)
    sample_kwargs.setdefault("cores", cores(chains))
    if "step" not in sample_kwargs:
        sample_kwargs["target_accept"] = target_accept
    if sampler == "pymc":  # irteval computes it afterwards, when asked
        sample_kwargs.setdefault("idata_kwargs", {}).setdefault("log_likelihood", False)
    with quiet_pymc(not progressbar):
        idata = pm.sample(draws=draws, tune=tune, chains=chains, random_seed=seed,
                          nuts_sampler=sampler, progressbar=progressbar, model=model,
                          compute_convergence_checks=False, **sample_kwargs)
    # the unconstrained draws some backends keep ("s_log__"), as PyMC's own sampler drops them
    transformed = [v for v in idata.posterior.data_vars if v.endswith("__")]
    idata.posterior = idata.posterior.drop_vars(transformed)
    return idata


def _sample_nutpie_cached(model, key, *, draws, tune, chains, seed, target_accept,
                          progressbar):
    """nutpie on a model whose data are ``pm.Data``, compiling once per ``key`` in this
    process and swapping the data in afterwards (compilation takes ~6 s); starts at the
    model's initial point."""
    import nutpie

    compiled = _NUTPIE_MODELS.get(key)
    if compiled is None:
        compiled = _NUTPIE_MODELS[key] = nutpie.compile_pymc_model(model)
    data = {v.name: v.get_value() for v in model.data_vars}
    point = model.initial_point(0)
    init = DictToArrayBijection.map({v.name: point[v.name] for v in model.value_vars}).data
    trace = nutpie.sample(compiled.with_data(**data), draws=draws, tune=tune, chains=chains,
                          target_accept=target_accept, seed=seed, progress_bar=progressbar,
                          init_mean=init, cores=cores(chains))
    unconstrained = [v for v in trace.posterior.data_vars if v.endswith("__")]
    coords = {dim: np.asarray(values) for dim, values in model.coords.items()
              if dim in trace.posterior.dims}
    trace.posterior = trace.posterior.drop_vars(unconstrained).drop_dims(
        [d for d in trace.posterior.dims if d.endswith("_dim_0")], errors="ignore"
    ).assign_coords(coords)
    return trace


def _nuts_from_gradients(model, tune, target_accept, seed):
    """NUTS whose diagonal mass matrix adapts from draws and gradients (PyMC's
    ``jitter+adapt_diag_grad`` without the jitter)."""
    from pymc.step_methods.hmc import quadpotential

    n = sum(int(np.size(v)) for v in model.initial_point(0).values())
    potential = quadpotential.QuadPotentialDiagAdaptExp(
        n, np.zeros(n), alpha=0.02, use_grads=True,
        stop_adaptation=tune - 50 if tune > 250 else None, rng=np.random.default_rng(seed))
    return pm.NUTS(model=model, potential=potential, target_accept=target_accept)
