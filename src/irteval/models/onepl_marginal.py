"""The 1PL with its difficulties integrated out (Rasch sufficiency), for any missing cells.

Given the abilities, the likelihood of item i is

    exp(sum_j y_ij theta_j) * exp(-r_i b_i) / prod_{j in O_i} (1 + exp(theta_j - b_i))

(O_i: the respondents who answered it, r_i: its number correct), so once b_i ~ Normal(mu_b,
sigma_b) is integrated out the item enters only through its *row* (O_i, r_i). The marginal
log-likelihood is

    sum_j s_j theta_j + sum_k n_k log ∫ exp(-r_k b - sum_{j in O_k} softplus(theta_j - b))
                                          N(b | mu_b, sigma_b) db

(s_j: respondent totals, n_k: items with row k). On a complete matrix every item has the same
O, and the rows are the J + 1 numbers correct; with missing cells there is one row per distinct
(pattern, number correct). NUTS runs on the J + 2 free parameters (theta, which sums to 0,
sigma_theta, mu_b, sigma_b) with the integral on a fixed grid (trapezoid rule in
z = (b - mu_b) / sigma_b on [-8, 8], :func:`z_grid`); afterwards every b_i is drawn from its
conditional given the draw, the log density interpolated linearly between grid points (inverse
CDF). The result is the same posterior as NUTS on the full model, much faster at scale. The
Laplace approximation and MAP work on the marginal model too, where (unlike the joint density
of a hierarchical model) the mode does not collapse sigma_b to 0. Every method starts from the
PROX estimates (Cohen 1979; :func:`prox_start`).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pymc as pm
import pytensor.tensor as pt
from joblib import cpu_count
from scipy.special import exprel, logit
from threadpoolctl import threadpool_limits

from .densities import (Layout, Scratch, log_half_normal, normal_logp, softplus, zerosum_backward,
                        zerosum_forward, zerosum_gradient, zerosum_logp)


def z_grid(n_resp):
    """The integration grid in z = (b - mu_b) / sigma_b: [-8, 8] with spacing
    min(0.16, 1.5 / sqrt(J)). An item's conditional of b is about 2 / sqrt(J) wide, and the
    trapezoid rule on such a smooth integrand is exact to ~1e-10 at this spacing (measured
    against 3201 points at J = 20, 100, 200 and 2000): 101 points for J <= 87, 479 at 2000."""
    step = min(0.16, 1.5 / np.sqrt(n_resp))
    return np.linspace(-8.0, 8.0, int(np.ceil(16 / step)) + 1)


def grid_log_weights(grid):
    """log(phi(z) dz) at each point of the evenly spaced ``grid``: the weights of an integral
    over z ~ N(0, 1) (the ends of [-8, 8] carry ~1e-15 of the mass)."""
    return -0.5 * grid**2 - 0.5 * np.log(2 * np.pi) + np.log(grid[1] - grid[0])


@dataclass(frozen=True)
class ItemRows:
    """The sufficient statistics of the collapsed 1PL: items grouped by row (pattern of
    answered respondents, number correct), rows sorted by pattern."""

    patterns: np.ndarray  # (P, J) 1.0 where the pattern's respondents answered
    row_pattern: np.ndarray  # (K,) the pattern of each row
    row_correct: np.ndarray  # (K,) its number correct
    row_count: np.ndarray  # (K,) items with that row
    item_row: np.ndarray  # (I,) each item's row
    totals: np.ndarray  # (J,) respondent totals correct
    answered: np.ndarray  # (J,) answers per respondent

    @classmethod
    def from_responses(cls, responses):
        r = responses
        correct = r.margins["item_sum"]
        if r.n_obs == r.n_items * r.n_respondents:
            patterns, item_pattern = np.ones((1, r.n_respondents)), np.zeros(r.n_items, int)
        else:
            observed = r.dense(True, rows="item", dtype=bool)
            patterns, item_pattern = np.unique(observed, axis=0, return_inverse=True)
        rows, item_row, row_count = np.unique(np.c_[item_pattern, correct].astype(np.int64),
                                              axis=0, return_inverse=True, return_counts=True)
        return cls(patterns.astype(float), rows[:, 0], rows[:, 1].astype(float),
                   row_count.astype(float), item_row.ravel(),
                   r.margins["respondent_sum"], r.margins["respondent_n"].astype(float))

    @property
    def pattern_starts(self):
        """Index of each pattern's first row (for np.add.reduceat)."""
        return np.flatnonzero(np.r_[True, np.diff(self.row_pattern) != 0])

    def soft_sums(self, soft):
        """sum_{j in O_k} softplus(theta_j - b_g) per row: (..., G, J) -> (..., K, G)."""
        per_pattern = soft @ self.patterns.T  # (..., G, P)
        return np.swapaxes(per_pattern, -1, -2)[..., self.row_pattern, :]


def prox_start(rows, iterations=10):
    """PROX (normal-approximation) estimates of the Rasch model, the starting point of every
    fit of the marginal model. With ``l_j`` the logit of respondent j's proportion correct and
    ``l_i`` that of item i, and E logistic(x) ~ logistic(m / k(s)) for x ~ N(m, s^2),
    k(s) = sqrt(1 + pi s^2 / 8):

        sigma_b = sd(l_i) k(sigma_theta),  sigma_theta = sd(l_j) k(sigma_b)  (iterated),
        theta_j = (l_j - mean l) k(sigma_b),  mu_b = -mean(l_j) k(sigma_b).

    ``rows``: :class:`ItemRows`. Returns a dict of initial values for ``mu_b``, ``sigma_b``,
    ``sigma_theta``, ``theta``."""
    def share(right, n):
        return np.clip(right / n, 0.5 / n, 1 - 0.5 / n)

    item_n = rows.patterns.sum(axis=1)[rows.row_pattern][rows.item_row]
    l_resp = logit(share(rows.totals, rows.answered))
    l_item = logit(share(rows.row_correct[rows.item_row], item_n))
    k = lambda sd: np.sqrt(1 + np.pi * sd**2 / 8)  # noqa: E731
    sigma_b, sigma_theta = l_item.std(), l_resp.std()
    for _ in range(iterations):
        sigma_b = l_item.std() * k(sigma_theta)
        sigma_theta = l_resp.std() * k(sigma_b)
    return {"mu_b": -l_resp.mean() * k(sigma_b), "sigma_b": max(sigma_b, 0.1),
            "sigma_theta": max(sigma_theta, 0.1),
            "theta": (l_resp - l_resp.mean()) * k(sigma_b)}


def marginal_model(rows, respondents, priors):
    """The 1PL with the difficulties integrated out, as a small PyMC model, for the
    :class:`ItemRows` ``rows``; every parameter starts at the PROX estimates."""
    grid = z_grid(len(rows.totals))
    log_w = grid_log_weights(grid)
    start = prox_start(rows)
    with pm.Model(coords={"respondent": respondents}) as marginal:
        mu_b = pm.Normal("mu_b", 0.0, priors["mu_b"], initval=start["mu_b"])
        sigma_b = pm.HalfNormal("sigma_b", priors["sigma_b"], initval=start["sigma_b"])
        sigma_theta = pm.HalfNormal("sigma_theta", priors["sigma_theta"],
                                    initval=start["sigma_theta"])
        theta = pm.ZeroSumNormal("theta", sigma=sigma_theta, dims="respondent",
                                 initval=start["theta"])
        b_grid = mu_b + sigma_b * grid
        soft = pt.softplus(theta[None, :] - b_grid[:, None])  # (G, J)
        per_row = pt.dot(rows.patterns, soft.T)[rows.row_pattern]  # (K, G)
        log_f = -rows.row_correct[:, None] * b_grid[None, :] - per_row + log_w[None, :]
        item_part = (rows.row_count * pm.math.logsumexp(log_f, axis=1)).sum()
        pm.Potential("marginal_loglik", (theta * rows.totals).sum() + item_part)
    return marginal


#: at most this many chunks of difficulty draws at once
DRAW_THREADS = 4
#: and at most this many (draw x (grid x (rows + respondents) + items)) cells at once, about
#: 1 GB of working arrays (22 bytes a cell measured at 20000 x 200)
DRAW_THREAD_CELLS = 45_000_000


def draw_difficulties(rows, mu_b, sigma_b, theta, rng, mode=False, cells_per_chunk=250_000):
    """Draws of every b_i given (mu_b, sigma_b, theta) draws of shape (S,), (S,), (S, J), from
    its conditional on the integration grid with the log density linear between grid points
    (exact inverse CDF of that piecewise-exponential density); with ``mode=True`` the
    conditional modes (parabolic refinement of the best grid point). Draws go in chunks of
    about ``cells_per_chunk`` (draw, row, grid point) cells, each with its own generator
    spawned from ``rng``, in threads (one per core, within :data:`DRAW_THREADS` and
    :data:`DRAW_THREAD_CELLS`; NumPy releases the GIL): the draws depend on the chunks, not on
    the number of threads. The default chunk keeps its CDFs (2 MB) in the processor's cache
    for the inverse-CDF search: 4 million cells took twice as long (1000 draws of 20000 b:
    3.6 against 1.9 s)."""
    grid = z_grid(theta.shape[1])
    n_rows = len(rows.row_count)
    chunk = max(1, cells_per_chunk // (n_rows * len(grid)))
    out = np.empty((len(mu_b), len(rows.item_row)))
    starts = range(0, len(mu_b), chunk)

    def fill(start, chunk_rng):
        sl = slice(start, start + chunk)
        b_grid = mu_b[sl, None] + sigma_b[sl, None] * grid[None, :]  # (s, G)
        soft = softplus(theta[sl, None, :] - b_grid[:, :, None])  # (s, G, J)
        log_f = (-rows.row_correct[None, :, None] * b_grid[:, None, :]
                 - rows.soft_sums(soft) - 0.5 * grid**2)  # (s, K, G)
        log_f -= log_f.max(axis=2, keepdims=True)
        z = (_refined_mode(log_f, grid)[:, rows.item_row] if mode
             else draw_on_grid(log_f, grid, rows.item_row, chunk_rng))
        np.multiply(sigma_b[sl, None], z, out=out[sl])
        out[sl] += mu_b[sl, None]

    chunk_rngs = rng.spawn(len(starts))
    cells = chunk * (len(grid) * (n_rows + theta.shape[1]) + len(rows.item_row))
    n_threads = min(len(starts), cpu_count(), DRAW_THREADS, DRAW_THREAD_CELLS // cells)
    if n_threads < 2:
        for start, chunk_rng in zip(starts, chunk_rngs):
            fill(start, chunk_rng)
        return out
    threads = ThreadPoolExecutor(n_threads)
    try:
        with threadpool_limits(1):
            list(threads.map(fill, starts, chunk_rngs))  # list(): re-raises a chunk's error
    finally:  # an interrupt or an error: the chunks not yet started are dropped
        threads.shutdown(cancel_futures=True)
    return out


def _refined_mode(log_f, grid):
    """The maximum of the parabola through the best grid point and its neighbours."""
    best = np.clip(log_f.argmax(axis=2), 1, len(grid) - 2)[..., None]
    left, mid, right = (np.take_along_axis(log_f, best + k, axis=2)[..., 0] for k in (-1, 0, 1))
    curve = left - 2 * mid + right
    shift = np.where(curve < 0, 0.5 * (left - right) / np.where(curve < 0, curve, -1.0), 0.0)
    return grid[best[..., 0]] + np.clip(shift, -1, 1) * (grid[1] - grid[0])


def draw_on_grid(log_f, grid, item_row, rng):
    """One z per (draw, item) from its row's density exp(log_f), log-linear between grid
    points: the cell by inverse CDF, then the point within it."""
    h = grid[1] - grid[0]
    n_s, n_rows, _ = log_f.shape
    slope = np.diff(log_f, axis=2)  # d: the rise of log f over each cell
    cdf = np.cumsum(np.exp(log_f[..., :-1]) * exprel(slope), axis=2)  # cell masses / h
    cdf /= cdf[..., -1:]
    n_cells = cdf.shape[2]
    # the s x K CDFs laid end to end (CDF number q shifted by q) form one sorted array
    flat = (cdf + np.arange(n_s * n_rows).reshape(n_s, n_rows, 1)).ravel()
    offset = np.arange(n_s)[:, None] * n_rows + item_row[None, :]  # (s, I)
    u = rng.random(offset.shape)
    pos = np.minimum(np.searchsorted(flat, u + offset), flat.size - 1)
    cell = pos - offset * n_cells
    prev = np.where(cell > 0, flat[pos - 1] - offset, 0.0)
    frac = np.clip((u - prev) / (flat[pos] - offset - prev), 0.0, 1.0)
    d = slope.reshape(-1)[pos]
    # within the cell, the inverse CDF of exp(d t / h), t in [0, h]
    small = np.abs(d) < 1e-8
    t = np.where(small, frac, np.log1p(frac * np.expm1(d)) / np.where(small, 1.0, d))
    return grid[cell] + t * h


# ---------------------------------------------------------------------- the same, in NumPy
class MarginalDensity:
    """The marginal model's log density and its gradient in NumPy, on PyMC's unconstrained
    coordinates x = (mu_b, log sigma_b, log sigma_theta, theta's J - 1 zero-sum coordinates),
    for samplers and optimisers that need no compilation (nutpie's ``from_pyfunc``, SciPy's
    L-BFGS). The same density as :func:`marginal_model` (a test checks them against each other):

        log p = log N(mu_b | 0, s_mu) + log HN(sigma_b | s_b) + log sigma_b
                + log HN(sigma_theta | s_theta) + log sigma_theta
                - |theta|^2 / (2 sigma_theta^2) - (J - 1) log(sqrt(2 pi) sigma_theta)
                + sum_j t_j theta_j + sum_k n_k log sum_g w_g exp(-r_k b_g - S_kg),

    b_g = mu_b + sigma_b z_g, S_kg = sum_{j in O_k} softplus(theta_j - b_g); gradients by
    p_kg, the posterior weight of grid point g for an item of row k.
    """

    names = ["mu_b", "sigma_b", "sigma_theta", "theta"]
    #: log scales whose collapse to 0 a MAP / Laplace fit refuses (no mode there)
    hierarchical_scales = ("sigma_b_log__", "sigma_theta_log__")
    dims = {"theta": ("respondent",)}

    def __init__(self, rows: ItemRows, priors):
        self.rows, self.priors = rows, priors
        self.n_resp = len(rows.totals)
        self.grid = z_grid(self.n_resp)
        self.log_w = grid_log_weights(self.grid)
        self.shapes = {"mu_b": (), "sigma_b": (), "sigma_theta": (), "theta": (self.n_resp,)}
        self.complete = len(rows.patterns) == 1 and rows.patterns.all()
        n_grid, n_rows = len(self.grid), len(rows.row_correct)
        # missingness in blocks (many rows share a pattern): sums per pattern, gathered per row;
        # scattered (a pattern per row or so): one product with each row's design vector
        # (-pattern, -number correct, 1), which skips the gather and the reduceat
        self.by_pattern = (not self.complete
                           and (n_rows - len(rows.patterns)) * self.n_resp > 10 * n_rows)
        if self.by_pattern:
            self._starts = rows.pattern_starts
        elif not self.complete:
            self._design = np.c_[-rows.patterns[rows.row_pattern], -rows.row_correct,
                                 np.ones(n_rows)]
        self._ones_j, self._ones_g = np.ones(self.n_resp), np.ones(n_grid)
        self._cells = Scratch(*[(n_grid, self.n_resp)] * 3)
        self._aug = Scratch((n_grid, self.n_resp + 2))
        self._rows = Scratch((n_rows, n_grid))
        self._start = self.pack(**prox_start(rows))
        self.layout = Layout({"mu_b": (), "sigma_b_log__": (), "sigma_theta_log__": (),
                              "theta_zerosum__": (self.n_resp - 1,)})  # as pack() ravels

    @property
    def n_dim(self):
        return self.n_resp + 2

    def start(self):
        return self._start

    def expand(self, x):
        mu, sb, st, theta = self.unpack(x)
        return {"mu_b": mu, "sigma_b": sb, "sigma_theta": st, "theta": theta}

    def unpack(self, x):
        """(mu_b, sigma_b, sigma_theta, theta) of unconstrained point(s) x."""
        x = np.asarray(x, dtype=float)
        return x[..., 0], np.exp(x[..., 1]), np.exp(x[..., 2]), zerosum_backward(x[..., 3:])

    def pack(self, mu_b, sigma_b, sigma_theta, theta):
        return np.r_[mu_b, np.log(sigma_b), np.log(sigma_theta),
                     zerosum_forward(np.asarray(theta) - np.mean(theta))]

    def logp_grad(self, x):
        """(log density, gradient) at the unconstrained point x."""
        mu, sb, st, theta = self.unpack(x)
        p, rows = self.priors, self.rows
        b = mu + sb * self.grid  # (G,)
        d, e, soft = self._cells.arrays()  # (G, J)
        log_f, = self._rows.arrays()  # (K, G)
        # softplus(d) = d + log1p(e^-d) and sigmoid(d) = 1 / (1 + e^-d) from one exponential;
        # d >= -700 keeps e^-d finite (softplus is then 0 to 1e-304 either way)
        np.maximum(np.subtract.outer(-b, -theta, out=d), -700.0, out=d)  # theta_j - b_g
        np.exp(np.negative(d, out=e), out=e)
        np.log1p(e, out=soft)
        soft += d
        e += 1.0
        sig = np.reciprocal(e, out=e)
        if self.complete or self.by_pattern:
            np.multiply.outer(rows.row_correct, -b, out=log_f)
            log_f += self.log_w
            # one pattern: sums over all respondents
            log_f -= (soft @ self._ones_j)[None, :] if self.complete else rows.soft_sums(soft)
        else:  # log f = design @ [softplus | b | log w].T, one product for every row
            aug, = self._aug.arrays()  # (G, J + 2)
            aug[:, :-2], aug[:, -2], aug[:, -1] = soft, b, self.log_w
            np.matmul(self._design, aug.T, out=log_f)
        top = log_f.max(axis=1)
        # exp(-700) and below: 0 to 1e-304 (the vectorised exp is ten times slower where its
        # result would be subnormal)
        np.maximum(np.subtract(log_f, top[:, None], out=log_f), -700.0, out=log_f)
        weights = np.exp(log_f, out=log_f)
        total = weights @ self._ones_g
        item_part = rows.row_count @ (np.log(total) + top)
        # p_kg = weights_kg / total_k, the posterior weight of grid point g for an item of row
        # k; the answered respondents' share of each grid point, A_jg = sum_k n_k p_kg [j in
        # O_k], pulls theta_j by A_jg sigmoid(theta_j - b_g)
        share = rows.row_count / total
        if self.complete or self.by_pattern:
            correct_by_grid = (share * rows.row_correct) @ weights
        if self.complete:
            w = share @ weights  # A_jg = w_g for every j
            pulled_by_resp = w @ sig  # (J,)
            pulled_by_grid = w * (sig @ self._ones_j)  # (G,)
        elif self.by_pattern:
            weighted = share[:, None] * weights
            a = rows.patterns.T @ np.add.reduceat(weighted, self._starts, axis=0)  # (J, G)
            pulled = a * sig.T
            pulled_by_resp, pulled_by_grid = pulled @ self._ones_g, self._ones_j @ pulled
        else:
            # design.T @ (n_k p_kg): -A, -sum_k n_k r_k p_kg and sum_k n_k p_kg
            sums = self._design.T @ np.multiply(weights, share[:, None], out=weights)
            pulled = np.multiply(sums[:-2].T, sig, out=sig)  # -A_jg sigmoid(theta_j - b_g)
            pulled_by_resp, pulled_by_grid = -(self._ones_g @ pulled), -(pulled @ self._ones_j)
            correct_by_grid = -sums[-2]
        # d/db_g of the item part: -sum_k n_k r_k p_kg + sum_j A_jg sigmoid(theta_j - b_g)
        db = pulled_by_grid - correct_by_grid
        lp_mu, g_mu = normal_logp(mu, 0.0, p["mu_b"])
        lp_sb, g_usb = log_half_normal(x[1], p["sigma_b"])
        lp_st, g_ust = log_half_normal(x[2], p["sigma_theta"])
        lp_theta, g_theta_prior, g_ust_theta = zerosum_logp(theta, st)
        logp = lp_mu + lp_sb + lp_st + lp_theta + rows.totals @ theta + item_part
        g_theta = rows.totals - pulled_by_resp + g_theta_prior
        grad = np.empty(self.n_dim)
        grad[0] = g_mu + db.sum()
        grad[1] = sb * (db @ self.grid) + g_usb
        grad[2] = g_ust + g_ust_theta
        grad[3:] = zerosum_gradient(g_theta)
        return float(logp), grad
