"""Penalised cubic regression splines (P-splines) of several responses on one covariate.

For columns y_j of Y against x: f_j(x) = B(x) c_j with a cubic B-spline basis B of
``n_basis`` functions on equally spaced knots over [min x, max x] and

    c_j = argmin ||y_j - B c||^2 + lambda_j ||D c||^2,    D = second differences,

lambda_j chosen per column by generalised cross-validation,
GCV(lambda) = n RSS / (n - tr H)^2, over a log grid. It stands in for airt's smoother
(``mgcv::gam(y ~ s(x, bs = "cs"), method = "REML")`` with 10 basis functions): the same kind
of penalised cubic spline, with a different basis and smoothing-parameter criterion, so
curves agree closely but not to the last digit. Missing values (NaN) get zero weight.
"""

from __future__ import annotations

import numpy as np
from scipy.interpolate import BSpline

LAMBDAS = np.logspace(-6, 6, 49)


def _basis(x, lo, hi, n_basis):
    inner = np.linspace(lo, hi, n_basis - 2)
    step = inner[1] - inner[0]
    knots = np.r_[lo - 3 * step, lo - 2 * step, lo - step, inner, hi + step, hi + 2 * step,
                  hi + 3 * step]
    return BSpline.design_matrix(np.clip(x, lo, hi), knots, 3).toarray()


def fit_curves(x, Y, grid, *, n_basis=10):
    """Smoothed values of every column of ``Y`` (n, J) on ``grid``, shape (len(grid), J)."""
    x = np.asarray(x, dtype=float)
    Y = np.asarray(Y, dtype=float)
    lo, hi = x.min(), x.max()
    B = _basis(x, lo, hi, n_basis)
    G = _basis(np.asarray(grid, dtype=float), lo, hi, n_basis)
    D = np.diff(np.eye(n_basis), 2, axis=0)
    P = D.T @ D
    W = (~np.isnan(Y)).astype(float)
    Yf = np.where(W > 0, Y, 0.0)
    out = np.empty((len(grid), Y.shape[1]))
    if W.all():  # one set of normal equations for every column
        out[:] = G @ _solve_gcv(B, B.T @ B, B.T @ Yf, Yf, P)
        return out
    for j in range(Y.shape[1]):
        w = W[:, j]
        out[:, j] = G @ _solve_gcv(B * w[:, None], B.T @ (w[:, None] * B), B.T @ (w * Yf[:, j])
                                   [:, None], (w * Yf[:, j])[:, None], P, n=w.sum())[:, 0]
    return out


def _solve_gcv(B, BtB, BtY, Y, P, n=None):
    """Coefficients (K, J) at the GCV-best lambda of each column."""
    n = len(B) if n is None else n
    best = np.full(Y.shape[1], np.inf)
    coef = np.zeros((BtB.shape[0], Y.shape[1]))
    for lam in LAMBDAS:
        A = BtB + lam * P
        c = np.linalg.solve(A, BtY)
        trace = np.trace(np.linalg.solve(A, BtB))
        rss = ((Y - B @ c) ** 2).sum(axis=0)
        gcv = n * rss / max(n - trace, 1e-9) ** 2
        better = gcv < best
        best[better] = gcv[better]
        coef[:, better] = c[:, better]
    return coef
