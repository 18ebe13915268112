"""One entry point to fit any irteval model: NUTS, ADVI, MAP or a Laplace approximation.

Every method returns an ``arviz.InferenceData`` with the same groups (posterior,
log_likelihood, observed_data, constant_data, and sample_stats for NUTS), so every
downstream function and ArviZ itself work on any of them.
"""

from __future__ import annotations

import os
import warnings

import arviz as az
import numpy as np
import pymc as pm
from pymc.blocking import DictToArrayBijection

from .approximations import ConvergenceWarning, advi, laplace
from .collapsed import can_collapse, fit_collapsed, representative_items

METHODS = ("nuts", "advi", "laplace", "map")
SAMPLERS = ("pymc", "nutpie", "numpyro")


def fit(model, *, method="nuts", draws=1000, tune=1000, chains=4, random_seed=None,
        sampler=None, target_accept=None, log_likelihood=True, posterior_predictive=False,
        progressbar=True, advi_iterations=20000, collapse=True,
        **sample_kwargs) -> az.InferenceData:
    """Fit a model built by :mod:`irteval.models` and return its posterior.

    Parameters
    ----------
    model : pymc.Model
    method : {"nuts", "advi", "laplace", "map"}
        ``nuts``: Hamiltonian Monte Carlo (the reference). ``advi``: mean-field
        variational inference, ``draws * chains`` draws in one chain. ``laplace``:
        Gaussian N(x_mode, (-H)^-1) on the unconstrained space, ``draws`` per chain.
        ``map``: the mode alone (one draw). For a collapsible 1PL both work on the
        marginal model (no difficulties), where the mode is well defined; elsewhere
        they need a model whose joint mode exists (see the model card).
    draws, tune, chains : int
        Posterior draws and warm-up steps per chain.
    random_seed : int, optional
        Seeds every random step (sampling, initialisation, predictive draws).
    sampler : {"pymc", "nutpie", "numpyro"}, optional
        NUTS implementation; nutpie and numpyro must be installed. By default nutpie when it
        is installed for the continuous IRT (its mass matrix adaptation gave 2-5x the ESS of
        PyMC's) and the collapsed 1PL (1.6x faster end to end at 5000 x 50), else PyMC.
    target_accept : float, optional
        NUTS target acceptance; by default the model's own suggestion (0.95 for the 2PL,
        whose geometry produced divergences at 0.9), else 0.9.
    log_likelihood : bool
        Store the pointwise log-likelihood (needed by ``az.loo``/``az.waic``). It holds
        ``chains * draws * n_obs`` numbers: turn it off for very large data. Not stored
        for a minibatch model (``batch_size=``).
    posterior_predictive : bool
        Also draw replicated data (for ``az.plot_ppc``).
    advi_iterations : int
        Optimisation steps for ``method="advi"``.
    collapse : bool
        For a 1PL on a complete matrix, run NUTS (or the Laplace approximation, or MAP)
        on the model with the difficulties integrated out and draw them exactly from
        their conditionals afterwards (:mod:`irteval.collapsed`): the same posterior,
        far faster. ``False`` works on the full model.
    **sample_kwargs
        Passed on to ``pymc.sample``.
    """
    if not isinstance(model, pm.Model):
        raise TypeError(f"expected a pymc.Model (from irteval.models), got {type(model).__name__}")
    if method not in METHODS:
        raise ValueError(f"method={method!r} is not one of {METHODS}")
    collapsed = method != "advi" and collapse and can_collapse(model)
    if sampler is None:
        sampler = _default_sampler(model, collapsed)
    if sampler not in SAMPLERS:
        raise ValueError(f"sampler={sampler!r} is not one of {SAMPLERS}")
    for name, value in (("draws", draws), ("chains", chains)):
        if int(value) < 1:
            raise ValueError(f"{name} must be at least 1, got {value}")
    attrs = getattr(model, "irteval_attrs", {})
    minibatch = bool(attrs.get("minibatch"))
    if minibatch and (method != "advi" or posterior_predictive):
        raise ValueError("a minibatch model (built with batch_size=) can only be fitted with "
                         "method='advi' and without posterior_predictive; build it without "
                         "batch_size for NUTS, MAP, Laplace or predictive checks")
    if posterior_predictive and not model.observed_RVs:
        raise ValueError("this model has no observed variable to replicate; its posterior "
                         "predictive checks live in its own module (see its model card)")
    if target_accept is None:
        target_accept = attrs.get("target_accept", 0.9)
    rng = np.random.default_rng(random_seed)
    seeds = rng.integers(2**31, size=4)

    if collapsed:
        idata = fit_collapsed(model, method=method, draws=draws, tune=tune, chains=chains,
                              random_seed=int(seeds[0]), sampler=sampler,
                              target_accept=target_accept, progressbar=progressbar,
                              **sample_kwargs)
    elif method == "nuts":
        starts = getattr(model, "irteval_initvals", None)
        if starts is not None and "initvals" not in sample_kwargs:
            # a multimodal likelihood: start the chains from optimised points
            inits, _, best = starts(model, chains, random_seed=int(seeds[2]))
            if sampler == "pymc":  # without PyMC's jitter, mass matrix adapted from gradients
                sample_kwargs["initvals"] = inits
                sample_kwargs.setdefault("step", _nuts_from_gradients(
                    model, tune, target_accept, int(seeds[2])))
            elif sampler == "nutpie":
                sample_kwargs.setdefault("nuts_sampler_kwargs", {}).setdefault(
                    "init_mean", DictToArrayBijection.map(
                        {v.name: best[v.name] for v in model.value_vars}).data)
        sample_kwargs.setdefault("cores", min(chains, os.cpu_count() or 1))
        idata = pm.sample(
            draws=draws, tune=tune, chains=chains,
            random_seed=int(seeds[0]), nuts_sampler=sampler, progressbar=progressbar,
            model=model, compute_convergence_checks=False,
            **({"idata_kwargs": {"log_likelihood": False}} if sampler == "pymc" else {}),
            **({} if "step" in sample_kwargs else {"target_accept": target_accept}),
            **sample_kwargs,
        )
    elif method == "advi":
        idata = advi(model, draws * chains, advi_iterations, int(seeds[0]), progressbar)
    else:
        _check_mode_exists(model)
        # Bradley-Terry posteriors are log-concave: quasi-Newton is safe from any start
        concave = attrs.get("irteval_model", "").startswith("bradley_terry")
        idata = laplace(model, draws, chains, int(seeds[0]), point_only=method == "map",
                        method="L-BFGS-B" if concave else "CG")

    postprocess = getattr(model, "irteval_postprocess", None)
    if postprocess is not None:
        postprocess(model, idata, random_seed=int(seeds[3]))
    if log_likelihood and model.observed_RVs and not minibatch:
        pm.compute_log_likelihood(idata, model=model, progressbar=False)
    elif log_likelihood and hasattr(model, "irteval_log_likelihood"):
        idata.add_groups(log_likelihood=model.irteval_log_likelihood(idata.posterior))
    if posterior_predictive:
        pm.sample_posterior_predictive(idata, model=model, random_seed=int(seeds[1]),
                                       extend_inferencedata=True, progressbar=False)
    idata.attrs.update(attrs)
    idata.attrs["irteval_method"] = method if method != "nuts" else f"nuts:{sampler}"
    if method == "nuts":
        names = attrs.get("diagnostic_vars")
        # collapsed: items with equal counts share one conditional, so one of each suffices
        subset = {"item": representative_items(model)} if collapsed else None
        _check_nuts(idata, names.split(",") if names else None, subset=subset)
    return idata


def _default_sampler(model, collapsed=False):
    """The model's preferred NUTS backend if installed, else PyMC. nutpie for the continuous
    IRT and the collapsed 1PL, where it was faster (benchmarks/README.md)."""
    import importlib.util

    attrs = getattr(model, "irteval_attrs", {})
    if attrs.get("init") == "dispersed":
        return "pymc"  # the only backend here that takes a starting point per chain
    preferred = "nutpie" if collapsed else attrs.get("sampler", "pymc")
    return preferred if importlib.util.find_spec(preferred) else "pymc"


def _nuts_from_gradients(model, tune, target_accept, seed):
    """NUTS whose diagonal mass matrix adapts from draws and gradients (PyMC's
    ``jitter+adapt_diag_grad`` without the jitter, which could move a chain off its start)."""
    from pymc.step_methods.hmc import quadpotential

    n = sum(int(np.size(v)) for v in model.initial_point(0).values())
    potential = quadpotential.QuadPotentialDiagAdaptExp(
        n, np.zeros(n), alpha=0.02, use_grads=True,
        stop_adaptation=tune - 50 if tune > 250 else None, rng=np.random.default_rng(seed))
    return pm.NUTS(model=model, potential=potential, target_accept=target_accept)


def _check_mode_exists(model):
    name = getattr(model, "irteval_attrs", {}).get("irteval_model", "")
    if name in ("1pl", "2pl"):
        raise ValueError(
            "MAP/Laplace need a posterior mode, and the joint density of this hierarchical "
            "model has none (it grows without bound as its scale sigma_b -> 0). "
            "They are available for the 1PL on a complete matrix (through the collapsed "
            "model); otherwise use method='advi' or 'nuts'")


# ---------------------------------------------------------------------- diagnostics
def diagnostics(idata, var_names=None, max_per_dim=None, subset=None) -> dict:
    """Divergences, worst R-hat and smallest bulk/tail ESS of a NUTS fit.

    ``max_per_dim``: check at most this many entries along each dimension (a seeded random
    subset; ArviZ's per-variable ESS costs seconds per thousand), e.g. 1000 of 20000
    instance difficulties. ``subset``: {dim: positions} to check instead along those dims.
    """
    post = idata.posterior
    if var_names is not None:
        post = post[var_names]
    subset = dict(subset or {})
    if max_per_dim is not None:
        rng = np.random.default_rng(0)
        subset.update({d: np.sort(rng.choice(n, max_per_dim, replace=False))
                       for d, n in post.sizes.items()
                       if d not in ("chain", "draw", *subset) and n > max_per_dim})
    subset = {d: idx for d, idx in subset.items() if d in post.sizes}
    if subset:
        checked = "; ".join(f"{d}: {len(idx)} of {post.sizes[d]}" for d, idx in subset.items())
        post = post.isel(subset)
    rhat = az.rhat(post)
    ess_bulk = az.ess(post, method="bulk")
    ess_tail = az.ess(post, method="tail")
    div = idata.sample_stats.get("diverging")
    return {
        "divergences": int(div.sum()) if div is not None else 0,
        "max_rhat": _worst(rhat, np.max),  # NaN with a single chain
        "min_ess_bulk": _worst(ess_bulk, np.min),
        "min_ess_tail": _worst(ess_tail, np.min),
        "chains": int(post.sizes["chain"]),
        "draws": int(post.sizes["draw"]),
        **({"diagnostics_subset": checked} if subset else {}),
    }


def _worst(ds, reduce):
    values = np.concatenate([ds[v].values.ravel() for v in ds.data_vars])
    values = values[np.isfinite(values)]
    return float(reduce(values)) if len(values) else float("nan")


def _check_nuts(idata, var_names=None, rhat_max=1.01, ess_per_chain=100, max_per_dim=1000,
                subset=None):
    diag = diagnostics(idata, var_names, max_per_dim, subset)
    idata.attrs.update({k: v for k, v in diag.items() if k not in ("chains", "draws")})
    problems = []
    if diag["divergences"]:
        problems.append(
            f"{diag['divergences']} divergent transitions: raise target_accept (e.g. 0.95-0.99) "
            "or check the priors")
    if diag["chains"] > 1 and diag["max_rhat"] > rhat_max:
        problems.append(
            f"max R-hat {diag['max_rhat']:.3f} > {rhat_max}: chains disagree; run longer "
            "(more tune/draws) and compare the chains (az.plot_trace) for separate modes")
    need = ess_per_chain * diag["chains"]
    low = min(diag["min_ess_bulk"], diag["min_ess_tail"])
    if low < need:
        problems.append(f"smallest bulk/tail ESS {low:.0f} < {need}: draw more (draws=...)")
    if problems:
        warnings.warn("NUTS diagnostics failed: " + "; ".join(problems), ConvergenceWarning,
                      stacklevel=3)
