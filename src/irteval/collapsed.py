"""Exact collapsed sampler for the 1PL on a complete response matrix (Rasch sufficiency).

With every cell observed, the likelihood of item i is

    exp(sum_j y_ij theta_j) * exp(-r_i b_i) / prod_j (1 + exp(theta_j - b_i)),

so once b_i ~ Normal(mu_b, sigma_b) is integrated out the item enters only through
its number correct r_i. The marginal log-likelihood is

    sum_j s_j theta_j
      + sum_r n_r log ∫ exp(-r b - sum_j softplus(theta_j - b)) N(b | mu_b, sigma_b) db

(s_j: respondent totals, n_r: items with r correct). NUTS runs on the J + 3 parameters
(theta, sigma_theta, mu_b, sigma_b) with the integral on a fixed grid (trapezoid rule
in z = (b - mu_b) / sigma_b, 401 points on [-8, 8]); afterwards every b_i is drawn
exactly (up to the grid) from its conditional given the draw, by inverse CDF.
The result is the same posterior as NUTS on the full model, much faster at scale.
The Laplace approximation and MAP work on the marginal model too, where (unlike the
joint density of a hierarchical model) the mode does not collapse sigma_b to 0.
"""

from __future__ import annotations

import arviz as az
import numpy as np
import pymc as pm
import pytensor.tensor as pt
from pymc.backends.arviz import find_constants, find_observations

from .approximations import laplace

Z_GRID = np.linspace(-8.0, 8.0, 401)
Z_DRAW = np.linspace(-8.0, 8.0, 1601)


def can_collapse(model) -> bool:
    """True for an irteval 1PL whose response matrix is complete."""
    attrs = getattr(model, "irteval_attrs", {})
    return attrs.get("irteval_model") == "1pl" and attrs.get("complete", False)


def _matrix(model):
    return np.asarray(find_observations(model)["y"], dtype=float)


def marginal_model(model):
    """The 1PL with the difficulties integrated out, as a small PyMC model."""
    attrs = model.irteval_attrs
    y = _matrix(model)
    totals = y.sum(axis=0)
    levels, counts = np.unique(y.sum(axis=1), return_counts=True)
    log_w = -0.5 * Z_GRID**2 - 0.5 * np.log(2 * np.pi) + np.log(Z_GRID[1] - Z_GRID[0])
    with pm.Model(coords={"respondent": model.coords["respondent"]}) as marginal:
        mu_b = pm.Normal("mu_b", 0.0, attrs["prior_mu_b"])
        sigma_b = pm.HalfNormal("sigma_b", attrs["prior_sigma_b"])
        sigma_theta = pm.HalfNormal("sigma_theta", attrs["prior_sigma_theta"])
        theta = pm.ZeroSumNormal("theta", sigma=sigma_theta, dims="respondent")
        b_grid = mu_b + sigma_b * Z_GRID
        soft = pt.softplus(theta[None, :] - b_grid[:, None]).sum(axis=1)
        log_f = -levels[:, None] * b_grid[None, :] - soft[None, :] + log_w[None, :]
        item_part = (counts * pm.math.logsumexp(log_f, axis=1)).sum()
        pm.Potential("marginal_loglik", (theta * totals).sum() + item_part)
    return marginal


def draw_difficulties(y, mu_b, sigma_b, theta, rng, chunk=64, mode=False):
    """Exact draws of every b_i given (mu_b, sigma_b, theta) draws of shape (S,), (S,), (S, J);
    with ``mode=True`` the conditional modes instead."""
    correct = y.sum(axis=1)
    levels, item_level = np.unique(correct, return_inverse=True)
    n_levels, n_items = len(levels), len(correct)
    dz = Z_DRAW[1] - Z_DRAW[0]
    out = np.empty((len(mu_b), n_items))
    for start in range(0, len(mu_b), chunk):
        sl = slice(start, start + chunk)
        b_grid = mu_b[sl, None] + sigma_b[sl, None] * Z_DRAW[None, :]  # (s, G)
        soft = np.logaddexp(0.0, theta[sl, None, :] - b_grid[:, :, None]).sum(axis=2)
        log_f = (-levels[None, :, None] * b_grid[:, None, :] - soft[:, None, :]
                 - 0.5 * Z_DRAW[None, None, :] ** 2)  # (s, K, G)
        if mode:
            out[sl] = np.take_along_axis(b_grid, log_f.argmax(axis=2), axis=1)[:, item_level]
            continue
        mass = np.exp(log_f - log_f.max(axis=2, keepdims=True))
        cdf = np.cumsum(mass, axis=2)
        cdf /= cdf[:, :, -1:]
        for s in range(cdf.shape[0]):
            # rows of the K CDFs laid end to end (row k shifted by k) form one sorted array
            flat = (cdf[s] + np.arange(n_levels)[:, None]).ravel()
            u = rng.random(n_items)
            pos = np.searchsorted(flat, u + item_level)
            cell = pos - item_level * len(Z_DRAW)
            prev = np.where(cell > 0, flat[pos - 1] - item_level, 0.0)
            frac = (u - prev) / (flat[pos] - item_level - prev)
            z = Z_DRAW[cell] - dz / 2 + frac * dz
            out[start + s] = mu_b[start + s] + sigma_b[start + s] * z
    return out


def fit_collapsed(model, *, method, draws, tune, chains, random_seed, sampler, target_accept,
                  progressbar, **sample_kwargs):
    """Fit the marginal model (NUTS, Laplace or MAP), then draw the difficulties from their
    exact conditionals (their conditional modes for MAP) -> InferenceData of ``model``."""
    rng = np.random.default_rng(random_seed)
    marginal = marginal_model(model)
    if method == "nuts":
        small = pm.sample(
            draws=draws, tune=tune, chains=chains, cores=min(chains, 2),
            random_seed=int(rng.integers(2**31)), nuts_sampler=sampler,
            target_accept=target_accept, progressbar=progressbar, model=marginal,
            compute_convergence_checks=False, **sample_kwargs,
        )
    else:
        small = laplace(marginal, draws, chains, int(rng.integers(2**31)),
                        point_only=method == "map")
    post = small.posterior
    n_chain, n_draw = post.sizes["chain"], post.sizes["draw"]

    def flat(name):
        return post[name].values.reshape(n_chain * n_draw, *post[name].shape[2:])

    b = draw_difficulties(_matrix(model), flat("mu_b"), flat("sigma_b"), flat("theta"), rng,
                          mode=method == "map")
    posterior = post.drop_vars("marginal_loglik", errors="ignore").assign_coords(
        item=np.asarray(model.coords["item"])).assign(
        b=(("chain", "draw", "item"), b.reshape(n_chain, n_draw, -1)))
    idata = az.InferenceData(posterior=posterior)
    if "sample_stats" in small.groups():
        idata.add_groups(sample_stats=small.sample_stats)
    idata.extend(az.from_dict(
        observed_data=find_observations(model), constant_data=find_constants(model),
        coords={k: np.asarray(v) for k, v in model.coords.items()},
        dims={k: list(v) for k, v in model.named_vars_to_dims.items()}))
    idata.attrs["collapsed"] = 1
    return idata
