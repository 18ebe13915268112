"""The 1PL on a complete response matrix with its difficulties integrated out (Rasch sufficiency).

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
Every method starts from the PROX estimates (Cohen 1979; :func:`prox_start`).
"""

from __future__ import annotations

import numpy as np
import pymc as pm
import pytensor.tensor as pt

Z_GRID = np.linspace(-8.0, 8.0, 401)
Z_DRAW = np.linspace(-8.0, 8.0, 1601)


def prox_start(y, iterations=10):
    """PROX (normal-approximation) estimates of the Rasch model, the starting point of every
    fit of the marginal model. With ``l_j`` the logit of respondent j's proportion correct and
    ``l_i`` that of item i, and E logistic(x) ~ logistic(m / k(s)) for x ~ N(m, s^2),
    k(s) = sqrt(1 + pi s^2 / 8):

        sigma_b = sd(l_i) k(sigma_theta),  sigma_theta = sd(l_j) k(sigma_b)  (iterated),
        theta_j = (l_j - mean l) k(sigma_b),  mu_b = -mean(l_j) k(sigma_b).

    Returns a dict of initial values for ``mu_b``, ``sigma_b``, ``sigma_theta``, ``theta``."""
    n_items, n_resp = y.shape

    def logit_of_mean(x, n):
        p = np.clip(x.mean(axis=0), 0.5 / n, 1 - 0.5 / n)
        return np.log(p) - np.log1p(-p)

    l_resp, l_item = logit_of_mean(y, n_items), logit_of_mean(y.T, n_resp)
    k = lambda sd: np.sqrt(1 + np.pi * sd**2 / 8)  # noqa: E731
    sigma_b, sigma_theta = l_item.std(), l_resp.std()
    for _ in range(iterations):
        sigma_b = l_item.std() * k(sigma_theta)
        sigma_theta = l_resp.std() * k(sigma_b)
    return {"mu_b": -l_resp.mean() * k(sigma_b), "sigma_b": max(sigma_b, 0.1),
            "sigma_theta": max(sigma_theta, 0.1),
            "theta": (l_resp - l_resp.mean()) * k(sigma_b)}


def marginal_model(y, respondents, priors):
    """The 1PL with the difficulties integrated out, as a small PyMC model, for the complete
    items x respondents 0/1 matrix ``y``. The data enter as ``totals`` (respondent totals)
    and ``counts`` (n_r for r = 0..J), so models of the same shape share one compiled sampler
    (:func:`irteval.inference.nuts.sample_marginal`); every parameter starts at the PROX
    estimates."""
    n_resp = y.shape[1]
    log_w = -0.5 * Z_GRID**2 - 0.5 * np.log(2 * np.pi) + np.log(Z_GRID[1] - Z_GRID[0])
    levels = np.arange(n_resp + 1, dtype=float)
    start = prox_start(y)
    with pm.Model(coords={"respondent": respondents,
                          "correct": np.arange(n_resp + 1)}) as marginal:
        totals = pm.Data("totals", y.sum(axis=0), dims="respondent")
        counts = pm.Data("counts", np.bincount(y.sum(axis=1).astype(int), minlength=n_resp + 1)
                         .astype(float), dims="correct")
        mu_b = pm.Normal("mu_b", 0.0, priors["mu_b"], initval=start["mu_b"])
        sigma_b = pm.HalfNormal("sigma_b", priors["sigma_b"], initval=start["sigma_b"])
        sigma_theta = pm.HalfNormal("sigma_theta", priors["sigma_theta"],
                                    initval=start["sigma_theta"])
        theta = pm.ZeroSumNormal("theta", sigma=sigma_theta, dims="respondent",
                                 initval=start["theta"])
        b_grid = mu_b + sigma_b * Z_GRID
        soft = pt.softplus(theta[None, :] - b_grid[:, None]).sum(axis=1)
        log_f = -levels[:, None] * b_grid[None, :] - soft[None, :] + log_w[None, :]
        item_part = (counts * pm.math.logsumexp(log_f, axis=1)).sum()
        pm.Potential("marginal_loglik", (theta * totals).sum() + item_part)
    return marginal


def draw_difficulties(y, mu_b, sigma_b, theta, rng, mode=False, cells_per_chunk=2_000_000):
    """Exact draws of every b_i given (mu_b, sigma_b, theta) draws of shape (S,), (S,), (S, J);
    with ``mode=True`` the conditional modes instead. Draws are processed in chunks of about
    ``cells_per_chunk`` (draw, level, grid point) cells."""
    correct = y.sum(axis=1)
    levels, item_level = np.unique(correct, return_inverse=True)
    n_levels, n_items = len(levels), len(correct)
    chunk = max(1, cells_per_chunk // (n_levels * len(Z_DRAW)))
    dz = Z_DRAW[1] - Z_DRAW[0]
    out = np.empty((len(mu_b), n_items))
    for start in range(0, len(mu_b), chunk):
        sl = slice(start, start + chunk)
        b_grid = mu_b[sl, None] + sigma_b[sl, None] * Z_DRAW[None, :]  # (s, G)
        x = theta[sl, None, :] - b_grid[:, :, None]
        soft = (np.maximum(x, 0.0) + np.log1p(np.exp(-np.abs(x)))).sum(axis=2)  # softplus
        log_f = (-levels[None, :, None] * b_grid[:, None, :] - soft[:, None, :]
                 - 0.5 * Z_DRAW[None, None, :] ** 2)  # (s, K, G)
        if mode:
            out[sl] = np.take_along_axis(b_grid, log_f.argmax(axis=2), axis=1)[:, item_level]
            continue
        mass = np.exp(log_f - log_f.max(axis=2, keepdims=True))
        cdf = np.cumsum(mass, axis=2)
        cdf /= cdf[:, :, -1:]
        # the s x K CDFs laid end to end (CDF number q shifted by q) form one sorted array
        n_s = cdf.shape[0]
        offset = np.arange(n_s)[:, None] * n_levels + item_level[None, :]  # (s, N)
        flat = (cdf + np.arange(n_s * n_levels).reshape(n_s, n_levels, 1)).ravel()
        u = rng.random((n_s, n_items))
        pos = np.searchsorted(flat, u + offset)
        cell = pos - offset * len(Z_DRAW)
        prev = np.where(cell > 0, flat[pos - 1] - offset, 0.0)
        frac = (u - prev) / (flat[pos] - offset - prev)
        z = Z_DRAW[cell] - dz / 2 + frac * dz
        out[sl] = mu_b[sl, None] + sigma_b[sl, None] * z
    return out
