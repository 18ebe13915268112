"""Posterior draws of a binary IRT fit's items (1PL ... 4PL) and what every summary computes
from them: P(correct), the log-likelihood of answers, and Fisher information.

P_j(theta) = c_j + (d_j - c_j) logistic(a_j (theta - b_j)), with a_j = 1 (1PL), floor c_j = 0
and ceiling d_j = 1 unless the model has them (:func:`irteval.models.onepl`). Information
(Birnbaum; the 4PL form of Magis 2013): I_j(theta) = a_j^2 (P - c)^2 (d - P)^2 / ((d - c)^2
P (1 - P)), which is a_j^2 P (1 - P) in the 1PL/2PL.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd
from scipy.special import expit

from .._draws import stacked_draws
from .._fits import check_idata, label_name
from .._validation import count, fixed_seed
from ..models.densities import irt_probability, softplus
from ..models.multidimensional import is_multidimensional
from ..models.onepl_marginal import draw_on_grid, z_grid

FAMILY = "binary_irt"
#: (draw, grid point, answer) cells computed at once
CELLS_PER_CHUNK = 4_000_000


def answer_logp(sign, eta, c=0.0, d=1.0):
    """log P(y) per cell for answers coded sign = +1 (correct) / -1 (wrong), stably:
    P = c + (d - c) sigmoid(eta), 1 - P = (1 - d) + (d - c) sigmoid(-eta)."""
    if np.isscalar(c) and np.isscalar(d) and c == 0 and d == 1:
        return -softplus(-sign * eta)
    with np.errstate(divide="ignore"):
        spread = np.log(d - c)
        right = np.logaddexp(np.log(c), spread - softplus(-eta))
        wrong = np.logaddexp(np.log1p(-d), spread - softplus(eta))
    return np.where(sign > 0, right, wrong)


def item_information(theta, b, a=1.0, c=0.0, d=1.0):
    """I_j(theta) (module docstring), broadcast over its arguments, written as
    a^2 s (1 - s) [(d - c) s / P] [(d - c) (1 - s) / (1 - P)] with s = logistic(a (theta - b)):
    the module's form is 0 / 0 once P rounds to 1 (a (theta - b) > 37 with a floor)."""
    eta = a * (theta - b)
    s, t = expit(eta), expit(-eta)  # s and 1 - s, each without cancellation
    if np.isscalar(c) and np.isscalar(d) and c == 0 and d == 1:
        return a**2 * s * t
    right, wrong = c + (d - c) * s, (1 - d) + (d - c) * t  # P and 1 - P
    with np.errstate(divide="ignore", invalid="ignore"):  # P = 0 only where c = 0: share 1
        share_right = np.where(right > 0, (d - c) * s / right, 1.0)
        share_wrong = np.where(wrong > 0, (d - c) * t / wrong, 1.0)
    return a**2 * s * t * share_right * share_wrong


@dataclass(frozen=True)
class Items:
    """Thinned posterior draws of a binary IRT fit's items as (sample, item): ``b``, ``a`` (1
    for the 1PL), floor ``c`` and ceiling ``d`` (0 and 1 unless the model has them; scalars
    then), the ability prior's sd per draw, and the item labels."""

    b: np.ndarray
    a: np.ndarray
    c: np.ndarray | float
    d: np.ndarray | float
    sigma: np.ndarray
    labels: pd.Index

    @classmethod
    def from_idata(cls, idata, caller, max_draws=500, random_seed=0):
        check_idata(idata, FAMILY, caller)
        if max_draws is not None:
            count(max_draws, f"{caller}(): max_draws")
        if is_multidimensional(idata):
            raise ValueError(
                f"{caller}() is for one-skill fits (1PL ... 4PL), and this is a "
                f"multidimensional 2PL (dims={idata.posterior.sizes['skill']}). On it use "
                "difficulty, abilities (per skill), item_fit, person_fit, local_dependence "
                f"and compare_models; for {caller}() refit with dims=1")
        post = idata.posterior
        random_seed = fixed_seed(random_seed)  # every variable from the same draws
        draw = lambda name: stacked_draws(idata, name, max_draws, random_seed)  # noqa: E731
        b = draw("b")
        labels = pd.Index(post["item"].values, name=label_name(idata, "item"))
        return cls(b=b, a=draw("a") if "a" in post else np.ones_like(b),
                   c=draw("c") if "c" in post else 0.0, d=draw("d") if "d" in post else 1.0,
                   sigma=draw("sigma_theta") if "sigma_theta" in post else np.ones(len(b)),
                   labels=labels)

    @cached_property
    def mean_difficulty(self):
        """Each item's posterior mean b over the draws (computed once)."""
        return self.b.mean(axis=0)

    def at(self, index):
        """(a, b, c, d) at ``index`` of the (sample, item) arrays (c, d stay scalars)."""
        take = lambda x: x if np.isscalar(x) else x[index]  # noqa: E731
        return self.a[index], self.b[index], take(self.c), take(self.d)

    def logits(self, theta, index):
        """(a (theta - b), c, d) at ``index`` of the (sample, item) arrays, theta broadcast
        against them: what :func:`irt_probability` and :func:`answer_logp` take."""
        a, b, c, d = self.at(index)
        return a * (theta - b), c, d

    def log_likelihood(self, where, y, grid):
        """(sample, grid) log-likelihood of theta = sigma * grid (z units) given answers ``y``
        (0/1) to the items at positions ``where``; computed in chunks of draws."""
        sign = 2.0 * np.asarray(y, dtype=float) - 1.0
        loglik = np.zeros((len(self.sigma), len(grid)))
        chunk = max(1, CELLS_PER_CHUNK // max(1, len(grid) * len(where)))
        for start in range(0, len(loglik) if len(where) else 0, chunk):
            s = slice(start, start + chunk)
            theta = self.sigma[s, None] * grid  # (s, grid)
            loglik[s] = answer_logp(sign, *self.logits(theta[:, :, None], (s, None, where))
                                    ).sum(axis=-1)
        return loglik

    def draw_abilities(self, where, y, rng, grid=None, loglik=None):
        """One theta per draw from its grid posterior (prior N(0, sigma): z ~ N(0, 1)),
        log-linear between grid points (the exact inverse CDF of
        :func:`irteval.models.onepl_marginal.draw_on_grid`). The grid narrows as answers
        accumulate (the posterior sd shrinks like 1 / sqrt(answers)); ``grid`` and ``loglik`` (its
        :meth:`log_likelihood`, kept up to date by the caller) spare recomputing it."""
        if loglik is not None and grid is None:
            raise ValueError("draw_abilities: pass the grid that loglik was computed on")
        if grid is None:
            grid = z_grid(max(1, len(where)))
        if loglik is None:
            loglik = self.log_likelihood(where, y, grid)
        logp = loglik - 0.5 * grid**2
        logp -= logp.max(axis=1, keepdims=True)
        return self.sigma * draw_on_grid(logp[:, None, :], grid, np.array([0]), rng)[:, 0]

    def p_correct(self, theta):
        """P(correct), theta broadcast against (sample, item)."""
        return irt_probability(*self.logits(theta, slice(None)))

    def information(self, theta):
        """I_j(theta), theta broadcast against (sample, item)."""
        return item_information(theta, self.b, self.a, self.c, self.d)
