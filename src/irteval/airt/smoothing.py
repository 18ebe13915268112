"""Shrinkage cubic regression splines of several responses on one covariate, as airt smooths.

airt draws its latent trait curves with ``ggplot2::geom_smooth(method = "gam", formula = y ~
s(x, bs = "cs"))``: for each column y_j of Y against x, mgcv's fit of

    y = alpha + f(x) + e,    f(x) = X(x) beta,    sum_i f(x_i) = 0,
    (alpha, beta) = argmin ||y - alpha - X beta||^2 + lambda beta' S beta,

with X the natural cubic regression spline basis ("cr": f's values at ``n_knots`` knots at
evenly spaced quantiles of the distinct x; here held flat beyond them, where the grid of the
latent trait analysis does not go), S its integrated squared second derivative, shrunk as
"cs" does (the two zero eigenvalues, the line's, set to 0.1 and 0.01 of the smallest positive
one, so that the penalty can flatten f; mgcv leaves to its eigensolver which direction of the
line's plane gets which, here the slope 0.1 and the constant 0.01), and lambda chosen by
REML, with the residual variance profiled out:

    V(lambda) = (n - 1) log(||y - alpha - X beta||^2 + lambda beta' S beta)
                + log|M' M + lambda S| - (k - 1) log lambda,    M = [1, X],

minimised over a log grid of lambda, then refined by golden section (mgcv takes Newton steps
to the same minimum). With M = QR and R^-T S R^-1 = U diag(s) U' (Demmler and Reinsch), every
term is a sum over the k eigenvalues: for y~ = U' Q' y and w_i = lambda s_i, the penalised
residual is ||y - Q Q' y||^2 + sum_i y~_i^2 w_i / (1 + w_i) and log|M' M + lambda S| =
log|R|^2 + sum_i log(1 + w_i), so that lambda costs no solve.
Knots at quantiles keep the curve from swinging through gaps in x, where equally spaced knots
leave basis functions without data. Missing values (NaN) are left out of their column's fit
(its knots placed on its observed x).
"""

from __future__ import annotations

import numpy as np

#: the grid of log smoothing parameters searched first; REML's minimum is then refined between
#: the best point's neighbours
LOG_LAMBDAS = np.linspace(-8, 8, 65) * np.log(10)
#: mgcv's "cs": the line's zero eigenvalues of the penalty become these multiples of the
#: smallest positive one
SHRINK = 0.1


def place_knots(x, n_knots):
    """mgcv's ``place.knots``: ``n_knots`` knots (at most one per distinct x) from min to max x,
    at evenly spaced positions in the sorted distinct values, interpolated between them."""
    x = np.unique(x)
    n_knots = min(n_knots, len(x))
    if n_knots <= 2:
        return x[[0, -1]] if len(x) > 1 else x
    step = (len(x) - 1) / (n_knots - 1)
    position = step * np.arange(1, n_knots - 1)
    lower = np.floor(position).astype(int)
    frac = position - lower
    return np.r_[x[0], x[lower] * (1 - frac) + x[lower + 1] * frac, x[-1]]


def _spline(knots):
    """(F, S): F maps the knot values beta to the second derivatives there (zero at the ends:
    a natural spline), S = the penalty integral of f''^2, shrunk as mgcv's "cs"."""
    h = np.diff(knots)
    k = len(knots)
    D = np.zeros((k - 2, k))
    B = np.zeros((k - 2, k - 2))
    for i in range(k - 2):
        D[i, i:i + 3] = 1 / h[i], -1 / h[i] - 1 / h[i + 1], 1 / h[i + 1]
        B[i, i] = (h[i] + h[i + 1]) / 3
        if i < k - 3:
            B[i, i + 1] = B[i + 1, i] = h[i + 1] / 6
    F = np.linalg.solve(B, D)
    # the line's plane, spanned by beta = 1 and beta = knots, in a fixed basis: eigh's pair of
    # zero eigenvectors is any rotation within it, which rounding (the units of x) would pick
    line = np.linalg.qr(np.c_[np.ones(k), knots - knots.mean()])[0]
    rest = np.eye(k) - line @ line.T
    S = rest @ D.T @ F @ rest
    smallest = np.linalg.eigvalsh(S)[2]  # ascending: the line's two zeros first
    return np.vstack([np.zeros(k), F, np.zeros(k)]), S + smallest * (
        SHRINK * np.outer(line[:, 1], line[:, 1]) + SHRINK**2 * np.outer(line[:, 0], line[:, 0]))


def _design(x, knots, F):
    """The cubic regression spline basis at ``x`` (clipped to the knots' range): on
    [k_j, k_j+1] of width h, f = a- beta_j + a+ beta_j+1 + c- f''_j + c+ f''_j+1 with
    a- = (k_j+1 - x)/h, c- = ((k_j+1 - x)^3/h - h (k_j+1 - x))/6, and a+, c+ likewise."""
    x = np.clip(x, knots[0], knots[-1])
    j = np.clip(np.searchsorted(knots, x, side="right") - 1, 0, len(knots) - 2)
    h = knots[j + 1] - knots[j]
    left, right = knots[j + 1] - x, x - knots[j]
    X = F[j] * ((left**3 / h - h * left) / 6)[:, None] \
        + F[j + 1] * ((right**3 / h - h * right) / 6)[:, None]
    rows = np.arange(len(x))
    X[rows, j] += left / h
    X[rows, j + 1] += right / h
    return X


def _fit(x, Y, grid, n_knots):
    """Smoothed values on ``grid`` of the columns of ``Y`` (n, J), all observed at ``x``."""
    knots = place_knots(x, n_knots)
    if len(knots) < 3:  # two distinct x or fewer: the least-squares line (or mean)
        M = np.c_[np.ones_like(x), x][:, :len(knots)]
        coef = np.linalg.lstsq(M, Y, rcond=None)[0]
        return np.c_[np.ones_like(grid), grid][:, :len(knots)] @ coef
    F, S = _spline(knots)
    X, G = _design(x, knots, F), _design(grid, knots, F)
    Z = np.linalg.qr(X.sum(axis=0)[:, None], mode="complete")[0][:, 1:]  # sum_i f(x_i) = 0
    M, G = np.c_[np.ones(len(x)), X @ Z], np.c_[np.ones(len(grid)), G @ Z]
    penalty = np.zeros((len(knots), len(knots)))
    penalty[1:, 1:] = Z.T @ S @ Z
    # scaled as mgcv scales it, so that the grid of lambda suits any number of datasets
    penalty *= np.abs(M.T @ M).sum(axis=1).max() / np.abs(penalty).sum(axis=1).max()
    Q, R = np.linalg.qr(M)
    to_coef = np.linalg.inv(R)
    s, U = np.linalg.eigh(to_coef.T @ penalty @ to_coef)
    s = np.clip(s, 0, None)[:, None]
    projected = U.T @ (Q.T @ Y)  # y~ (k, J)
    outside = ((Y - Q @ (Q.T @ Y)) ** 2).sum(axis=0)

    def reml(log_lam):  # V(lambda) less log|R|^2, for log lambda (..., J)
        w = np.exp(log_lam)[..., None, :] * s
        penalised = outside + (projected**2 * w / (1 + w)).sum(axis=-2)
        return ((len(x) - 1) * np.log(np.maximum(penalised, 1e-300))
                + np.log1p(w).sum(axis=-2) - (len(knots) - 1) * log_lam)

    on_grid = reml(np.repeat(LOG_LAMBDAS[:, None], Y.shape[1], axis=1))
    best = LOG_LAMBDAS[on_grid.argmin(axis=0)]
    step = LOG_LAMBDAS[1] - LOG_LAMBDAS[0]
    w = np.exp(_golden(reml, best - step, best + step)) * s
    return G @ (to_coef @ U @ (projected / (1 + w)))


def fit_curves(x, Y, grid, *, n_knots=10):
    """Smoothed values of every column of ``Y`` (n, J) on ``grid``, shape (len(grid), J)."""
    x = np.asarray(x, dtype=float)
    Y = np.asarray(Y, dtype=float)
    grid = np.asarray(grid, dtype=float)
    observed = ~np.isnan(Y)
    if observed.all():  # one basis for every column
        return _fit(x, Y, grid, n_knots)
    out = np.full((len(grid), Y.shape[1]), np.nan)  # (a column without data: NaN)
    for j in np.flatnonzero(observed.any(axis=0)):
        out[:, j] = _fit(x[observed[:, j]], Y[observed[:, j], j:j + 1], grid, n_knots)[:, 0]
    return out


def _golden(f, lower, upper, steps=20):
    """Golden-section search for the minimum of f in [lower, upper], one bracket per column
    (f takes and returns one value per column)."""
    ratio = (np.sqrt(5) - 1) / 2
    a, b = lower, upper
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(steps):
        left = fc < fd  # the minimum lies in [a, d]: d becomes c; else in [c, b]: c becomes d
        a, b = np.where(left, a, c), np.where(left, d, b)
        c, d = np.where(left, b - ratio * (b - a), d), np.where(left, c, a + ratio * (b - a))
        new = f(np.where(left, c, d))
        fc, fd = np.where(left, new, fd), np.where(left, fc, new)
    return (a + b) / 2
