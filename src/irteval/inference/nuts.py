"""NUTS through PyMC, nutpie or numpyro, with a model's own starting points; and nutpie on a
model's NumPy density, which needs no compilation."""

from __future__ import annotations

import importlib.util
import os

import arviz as az
import numpy as np
import pandas as pd
import pymc as pm
from pymc.blocking import DictToArrayBijection

from .._validation import quiet_pymc

SAMPLERS = ("pymc", "nutpie", "numpyro")
def cores(chains):
    """Chains run in parallel: one per core, at most one per chain."""
    return min(chains, os.cpu_count() or 1)


def default_sampler(preferred):
    """``preferred`` if it is installed, else PyMC's NUTS."""
    return preferred if importlib.util.find_spec(preferred) else "pymc"


def sample(model, *, draws, tune, chains, seed, sampler, target_accept, progressbar,
           starts=None, init_seed=None, **sample_kwargs):
    """NUTS on ``model`` -> InferenceData (posterior, sample_stats, observed/constant data).

    ``starts`` (:class:`~irteval.models.base.StartPoints`): PyMC starts chain k at
    ``starts.per_chain[k]`` and adapts a diagonal mass matrix from draws and gradients without
    jitter (which could move a chain off its start); nutpie starts at ``starts.best``.
    """
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


def sample_density(density, model, *, draws, tune, chains, seed, target_accept, progressbar,
                   options=None):
    """nutpie on a NumPy density (:mod:`irteval.models.densities`; nutpie's ``from_pyfunc``):
    no compilation at all, so a first fit in a fresh process starts sampling at once. The
    result has ``model``'s dims, coords, observed and constant data. ``options``: more
    keywords of ``nutpie.sample`` (the model's ``nutpie_options``)."""
    import nutpie
    from nutpie.compiled_pyfunc import from_pyfunc
    from pymc.backends.arviz import find_constants, find_observations

    names = density.names
    dims = {name: density.dims[name] for name in names if name in density.dims}
    coords = {d: pd.Index(model.coords[d]) for dim in dims.values() for d in dim}

    def make_logp():
        return lambda x, **_: density.logp_grad(x)

    def make_expand(seed1, seed2, chain):
        return lambda x, **_: {k: np.asarray(v, dtype=float).reshape(density.shapes[k])
                               for k, v in density.expand(x).items()}

    compiled = from_pyfunc(density.n_dim, make_logp, make_expand,
                           [np.dtype("float64")] * len(names), [density.shapes[n] for n in names],
                           names, coords=coords, dims=dims)
    with quiet_pymc(not progressbar):
        # one thread: the density runs in Python, and chains in parallel threads only fight
        # over the GIL (measured: 5.4 s on one thread, 10 s on two, 16 s on four)
        trace = nutpie.sample(compiled, draws=draws, tune=tune, chains=chains, seed=seed,
                              target_accept=target_accept, progress_bar=progressbar,
                              init_mean=density.start(), cores=1, save_warmup=False,
                              **(options or {}))
    trace.extend(az.from_dict(observed_data=find_observations(model),
                              constant_data=find_constants(model),
                              coords={k: np.asarray(v) for k, v in model.coords.items()},
                              dims={k: list(v) for k, v in model.named_vars_to_dims.items()}))
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
