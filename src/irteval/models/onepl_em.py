"""The 2PL's MAP, where the joint density has no mode: abilities integrated out on a grid, item
parameters at their posterior modes, hyperparameters by EM (Bock & Aitkin 1981, with the item
posteriors' variances in the M-step so that the scales do not collapse to 0).

With theta_q, q = 1..Q, a grid with weights N(theta_q | 0, 1) (the 2PL's ability scale; the
1PL's spread sigma_theta is updated from the abilities' posterior), each EM cycle computes

    E:  pi_jq ∝ w_q prod_i p_iq^y_ij (1 - p_iq)^(1 - y_ij)      p_iq = logistic(a_i (theta_q - b_i))
        r_iq = sum_j m_ij y_ij pi_jq,   n_iq = sum_j m_ij pi_jq
    M:  (b_i, log a_i) = argmax sum_q r_iq log p_iq + (n_iq - r_iq) log(1 - p_iq)
                          + log N(b_i | mu_b, sigma_b) + log N(log a_i | 0, sigma_log_a)
        (Newton, all items at once), H_i its 2 x 2 negative Hessian;
        mu_b = mean b_i,  sigma_b^2 = mean((b_i - mu_b)^2 + (H_i^-1)_bb),
        sigma_log_a^2 = mean(log a_i^2 + (H_i^-1)_aa)

until the item modes move less than ``tol``; theta_j is its posterior mean on the grid.
(Per-item Gaussians N(mode, H_i^-1) covered 73% in 90% intervals on simulated 2PL data, so no
Laplace approximation is built on this.)
"""

from __future__ import annotations

import numpy as np

from .densities import sigmoid

GRID = np.linspace(-6, 6, 61)


class BinaryIRTEM:
    """The approximation for a :class:`~irteval.models.onepl.OnePL` (see the module)."""

    def __init__(self, model, grid=GRID):
        r = model.responses
        self.discrimination = model.discrimination
        self.priors = model.priors
        self.y = np.zeros((r.n_items, r.n_respondents))
        self.mask = np.zeros_like(self.y)
        self.y[r.item_idx, r.respondent_idx] = r.values
        self.mask[r.item_idx, r.respondent_idx] = 1.0
        self.grid = grid

    def fit(self, tol=1e-5, max_cycles=500):
        """Run EM; returns self with modes, Hessians, hyperparameters and pi set."""
        n_items = self.y.shape[0]
        correct = (self.mask * self.y).sum(axis=1)
        share = np.clip(correct / np.maximum(self.mask.sum(axis=1), 1), 0.02, 0.98)
        b, log_a = -np.log(share / (1 - share)), np.zeros(n_items)
        mu_b, sigma_b = b.mean(), max(b.std(), 0.3)
        sigma_log_a, sigma_theta = self.priors["sigma_log_a"], 1.0
        for cycle in range(max_cycles):
            weights = self._weights(sigma_theta)
            pi = self._abilities(b, log_a, weights)
            r_q, n_q = (self.mask * self.y) @ pi, self.mask @ pi  # (I, Q)
            new_b, new_log_a, cov = self._items(b, log_a, r_q, n_q, mu_b, sigma_b, sigma_log_a)
            moved = max(np.abs(new_b - b).max(), np.abs(new_log_a - log_a).max())
            b, log_a = new_b, new_log_a
            mu_b = b.mean()
            sigma_b = np.sqrt(np.mean((b - mu_b) ** 2 + cov[:, 0, 0]))
            if self.discrimination:
                sigma_log_a = np.sqrt(np.mean(log_a**2 + cov[:, 1, 1]))
            else:  # the 1PL's ability spread from the abilities' posterior moments
                mean = pi @ self.grid
                sigma_theta = np.sqrt(np.mean(pi @ self.grid**2 - mean**2
                                              + (mean - mean.mean()) ** 2))
            if moved < tol:
                break
        r_q, n_q = (self.mask * self.y) @ pi, self.mask @ pi
        b, log_a, _ = self._items(b, log_a, r_q, n_q, mu_b, sigma_b, sigma_log_a)
        self.b, self.log_a = b, log_a
        self.mu_b, self.sigma_b, self.sigma_log_a = mu_b, sigma_b, sigma_log_a
        self.sigma_theta = sigma_theta
        self.pi = self._abilities(b, log_a, self._weights(sigma_theta))
        self.cycles = cycle + 1
        return self

    def _weights(self, sigma_theta):
        log_w = -0.5 * (self.grid / sigma_theta) ** 2
        return np.exp(log_w - log_w.max())

    def _abilities(self, b, log_a, weights):
        """pi (J, Q): each respondent's posterior over the grid."""
        eta = np.exp(log_a)[:, None] * (self.grid[None, :] - b[:, None])  # (I, Q)
        log_p, log_q = -np.logaddexp(0, -eta), -np.logaddexp(0, eta)
        ll = (self.mask * self.y).T @ log_p + (self.mask * (1 - self.y)).T @ log_q  # (J, Q)
        ll += np.log(weights)[None, :]
        ll -= ll.max(axis=1, keepdims=True)
        pi = np.exp(ll)
        return pi / pi.sum(axis=1, keepdims=True)

    def _items(self, b, log_a, r_q, n_q, mu_b, sigma_b, sigma_log_a, steps=3):
        """A few Fisher-scoring steps on every item's (b, log a) at once (an ECM cycle);
        returns the new values and their covariances, the inverse Fisher informations
        (I, 2, 2)."""
        for _ in range(steps):
            g, h = self._score(b, log_a, r_q, n_q, mu_b, sigma_b, sigma_log_a)
            step = _solve2(h, g)
            b = b + np.clip(step[:, 0], -2, 2)
            if self.discrimination:
                log_a = log_a + np.clip(step[:, 1], -1, 1)
            if np.abs(step).max() < 1e-10:
                break
        _, h = self._score(b, log_a, r_q, n_q, mu_b, sigma_b, sigma_log_a)
        return b, log_a, _inverse2(h)

    def _score(self, b, log_a, r_q, n_q, mu_b, sigma_b, sigma_log_a):
        """Gradient (I, 2) and Fisher information (I, 2, 2) of each item's log posterior in
        (b, log a); eta = a (theta - b), R = r - n p, info = n p (1 - p). The 1PL has log a = 0
        fixed: its second coordinate is a unit placeholder."""
        a = np.exp(log_a)[:, None]
        diff = self.grid[None, :] - b[:, None]
        p = sigmoid(a * diff)
        resid, info = r_q - n_q * p, n_q * p * (1 - p)
        g = np.zeros((len(b), 2))
        h = np.zeros((len(b), 2, 2))
        g[:, 0] = -(resid * a).sum(axis=1) - (b - mu_b) / sigma_b**2
        h[:, 0, 0] = (info * a**2).sum(axis=1) + 1 / sigma_b**2
        if not self.discrimination:
            h[:, 1, 1] = 1.0
            return g, h
        g[:, 1] = (resid * a * diff).sum(axis=1) - log_a / sigma_log_a**2
        h[:, 1, 1] = (info * (a * diff) ** 2).sum(axis=1) + 1 / sigma_log_a**2
        h[:, 0, 1] = h[:, 1, 0] = -(info * a**2 * diff).sum(axis=1)
        return g, h

    def mode(self):
        """{name: value} of every posterior variable at the EM solution (theta: posterior
        means on the grid, centred as the model's zero-sum abilities)."""
        theta = self.pi @ self.grid
        out = {"mu_b": self.mu_b, "sigma_b": self.sigma_b, "b": self.b,
               "theta": theta - theta.mean()}
        if self.discrimination:
            out.update(sigma_log_a=self.sigma_log_a, a_z=self.log_a / self.sigma_log_a,
                       a=np.exp(self.log_a))
        else:
            out["sigma_theta"] = self.sigma_theta
        return out


def _inverse2(h):
    """Inverses of a stack of 2 x 2 matrices (I, 2, 2)."""
    det = h[:, 0, 0] * h[:, 1, 1] - h[:, 0, 1] * h[:, 1, 0]
    inv = np.empty_like(h)
    inv[:, 0, 0], inv[:, 1, 1] = h[:, 1, 1] / det, h[:, 0, 0] / det
    inv[:, 0, 1], inv[:, 1, 0] = -h[:, 0, 1] / det, -h[:, 1, 0] / det
    return inv


def _solve2(h, g):
    """h^-1 g for stacks (I, 2, 2) and (I, 2)."""
    return np.einsum("ikl,il->ik", _inverse2(h), g)
