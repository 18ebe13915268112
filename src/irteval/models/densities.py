"""Log densities in NumPy with analytic gradients, on PyMC's unconstrained coordinates, for
the samplers and optimisers that need no compilation: nutpie's ``from_pyfunc`` and SciPy's
L-BFGS. Each is the same density as the PyMC model it stands for (``tests/test_densities.py``
checks every one against ``model.logp_dlogp_function`` at random points), so a fit through it
is a fit of that model.

A density exposes ``n_dim``, ``logp_grad(x) -> (float, ndarray)``, ``expand(x) -> {name:
value}`` (the posterior variables, deterministics included), ``start()`` (an unconstrained
point to start from), and ``names``, ``shapes`` and ``dims`` of the expanded variables.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

import numpy as np
from pymc.distributions.transforms import ZeroSumTransform
from scipy import sparse
from scipy.special import betaln, gammaln

LOG_SQRT_2PI = 0.5 * np.log(2 * np.pi)
LOG_HALF_NORMAL = np.log(2) - LOG_SQRT_2PI


def normal_logp(x, mu, sigma):
    """log N(x | mu, sigma), summed, and its gradient in x (``sigma`` a scalar)."""
    if np.ndim(x) == 0:  # Python arithmetic: NumPy's costs microseconds on scalars
        r = (float(x) - mu) / sigma
        return -0.5 * r * r - math.log(sigma) - LOG_SQRT_2PI, -r / sigma
    r = (x - mu) / sigma
    flat = r.ravel()
    return float(-0.5 * (flat @ flat) - r.size * (math.log(sigma) + LOG_SQRT_2PI)), -r / sigma


def log_half_normal(u, scale):
    """log HalfNormal(e^u | scale) + u (PyMC's log transform) and its derivative in u (a
    scalar)."""
    z2 = (math.exp(u) / scale) ** 2
    return LOG_HALF_NORMAL - math.log(scale) - 0.5 * z2 + float(u), 1.0 - z2


def zerosum_backward(z, out=None):
    """PyMC's ZeroSumTransform from its n - 1 free coordinates to the n zero-sum values (an
    isometry onto the zero-sum plane), written into ``out`` if given."""
    n = z.shape[-1] + 1
    total = z.sum(axis=-1)
    if out is None:
        out = np.empty(z.shape[:-1] + (n,))
    np.subtract(z, (total / (math.sqrt(n) + n))[..., None], out=out[..., :-1])
    out[..., -1] = total / -math.sqrt(n)
    return out


def zerosum_forward(theta):
    """The inverse of :func:`zerosum_backward` on the zero-sum plane."""
    n = theta.shape[-1]
    return theta[..., :-1] - theta[..., -1:] * (math.sqrt(n) / (math.sqrt(n) + n))


def zerosum_gradient(g):
    """The gradient in :func:`zerosum_backward`'s free coordinates of a function whose
    gradient in the n zero-sum values is ``g``: :func:`zerosum_forward` of g minus its mean,
    g_:-1 - (k g_n + (1 - k) mean g) with k = sqrt(n) / (sqrt(n) + n), in two passes."""
    n = g.shape[-1]
    k = math.sqrt(n) / (math.sqrt(n) + n)
    if g.ndim == 1:  # scalars: NumPy's arithmetic on 1-element arrays costs microseconds
        return g[:-1] - (k * float(g[-1]) + (1 - k) / n * float(g.sum()))
    return g[..., :-1] - (k * g[..., -1:] + (1 - k) / n * g.sum(axis=-1, keepdims=True))


def zerosum_logp(theta, sigma):
    """PyMC's ZeroSumNormal(sigma) log density of zero-sum ``theta`` (n values, n - 1 free),
    and its gradients in the free coordinates and in log sigma."""
    n = theta.shape[-1]
    ss = float(theta @ theta)
    logp = -0.5 * ss / sigma**2 - (n - 1) * (math.log(sigma) + LOG_SQRT_2PI)
    return logp, -theta / sigma**2, ss / sigma**2 - (n - 1)


def softplus(x, xp=np):
    """log(1 + e^x), stably (np.logaddexp is ten times slower); ``xp``: numpy or
    pytensor.tensor."""
    return xp.maximum(x, 0.0) + xp.log1p(xp.exp(-xp.abs(x)))


def sigmoid(x):
    return 0.5 * (1 + np.tanh(0.5 * x))


def irt_probability(eta, c=0.0, d=1.0):
    """P(correct) of the binary IRT models: c + (d - c) logistic(eta), eta = a (theta - b);
    floor c = 0 and ceiling d = 1 but in the 3PL/4PL."""
    return c + (d - c) * sigmoid(eta)


def bernoulli_logit(sign, minus_eta, spare, ones):
    """sum log sigmoid(sign * eta) and its derivative in eta, sign * sigmoid(-sign * eta), for
    answers coded sign = +1 (correct), -1 (wrong), 0 (missing: adds the constant -log 2 and
    no gradient), given ``minus_eta`` = -eta. With u = e^(-sign * eta): log sigmoid =
    -log1p(u), the derivative sign * u / (1 + u): one exponential, where the textbook's stable
    form takes two (or one and a slow ``np.where``). Where sign * eta < -709, u overflows to
    inf: log p = -inf, which NUTS rejects, at a likelihood below e^-709 per cell. The
    derivative is written over ``minus_eta``; ``spare``: an array of its shape to work in;
    ``ones``: a vector of ones, one per column."""
    u = np.multiply(sign, minus_eta, out=minus_eta)
    with np.errstate(over="ignore", invalid="ignore"):  # inf / inf: only where log p = -inf
        np.exp(u, out=u)
        logp = -float((np.log1p(u, out=spare) @ ones).sum())
        np.add(u, 1.0, out=spare)
        np.divide(u, spare, out=u)
    return logp, np.multiply(u, sign, out=u)


class Scratch:
    """Arrays of the given shapes that every gradient call reuses, one set per thread, made
    (as ones) on first use and never pickled. A fresh temporary over 128 KB comes from mmap
    and page-faults on every call: that took 45% of a 3PL gradient at 2000 x 50 and 20% of a
    2PL one at 1000 x 20. Keyed by the thread's id, not ``threading.local``: nutpie calls the
    density from its own (non-Python) threads with a new Python thread state each time."""

    def __init__(self, *shapes):
        self.shapes = [tuple(shape) for shape in shapes]
        self._by_thread = {}

    def arrays(self):
        key = threading.get_ident()
        arrays = self._by_thread.get(key)
        if arrays is None:
            arrays = self._by_thread[key] = [np.ones(shape) for shape in self.shapes]
        return arrays

    def __getstate__(self):
        return {"shapes": self.shapes}

    def __setstate__(self, state):
        self.__init__(*state["shapes"])


def log_beta_logit(u, alpha, beta):
    """log Beta(x | alpha, beta) + log x (1 - x) (PyMC's log-odds transform) at x = sigmoid(u),
    summed, and its derivative in u."""
    log_x, log_1mx = -softplus(-u), -softplus(u)
    logp = float(np.sum(alpha * log_x + beta * log_1mx) - np.size(u) * betaln(alpha, beta))
    return logp, alpha - (alpha + beta) * np.exp(log_x)


def bernoulli_asymptotes(answers, minus_eta, c, s, spare):
    """Answers of the 3PL/4PL, P(correct) = c + g sigmoid(eta), g = (1 - c)(1 - s): floor c,
    ceiling d = 1 - s (1 - c); ``c`` / ``s``: (items, 1) columns or 0.0 (no floor / no slip);
    ``answers``: :class:`AnswerMasks`; ``minus_eta`` = -eta. Returns sum log p(y) over the
    observed cells, its derivative in eta per cell (written over ``minus_eta``), and its
    derivatives in c and s summed per item; ``spare``: three arrays of eta's shape to work in.

    With t = sign * eta (sign +1 correct, -1 wrong) the probability of the given answer is
    A = f + g sigmoid(t), f = c (correct) or (1 - c) s (wrong): sigmoid(t) = 1 / (1 + e^-t)
    keeps its relative precision in both tails (e^-t = inf gives 0), so log A does too.
    Derivatives, with B = 1 / A: d log A / d eta = sign g sigmoid(t) (1 - sigmoid(t)) B;
    d log A / dc = (B - 1) / (1 - c) if correct, -1 / (1 - c) if wrong;
    d log A / ds = -(1 - c) sigmoid(t) B if correct, (1 - c)(1 - sigmoid(t)) B if wrong."""
    m = answers
    prob, tmp, sig_inv = spare
    sig = np.multiply(m.sign, minus_eta, out=minus_eta)
    with np.errstate(over="ignore"):
        np.exp(sig, out=sig)
    sig += 1.0
    np.reciprocal(sig, out=sig)  # sigmoid(t)
    g = (1 - c) * (1 - s)
    np.multiply(m.correct, c, out=prob)
    if not np.isscalar(s):
        prob += np.multiply(m.wrong, (1 - c) * s, out=tmp)
    prob += np.multiply(g, sig, out=tmp)
    if not m.complete:  # a missing cell's "answer" has probability 1: log 1 = 0
        prob *= m.observed
        prob += m.missing
    # far out in warm-up A can underflow to 0: log p = -inf, which the sampler rejects
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        log_prob = np.log(prob, out=tmp)
        loglik = float((log_prob @ m.ones_j).sum())
        inv = np.reciprocal(prob, out=prob)  # B
        np.multiply(sig, inv, out=sig_inv)
        d_c = d_s = None
        if not np.isscalar(c):
            d_c = (np.multiply(m.correct, inv, out=tmp) @ m.ones_j - m.n_observed) / (1 - c[:, 0])
        if not np.isscalar(s):
            wrong_inv = np.multiply(m.wrong, inv, out=tmp) @ m.ones_j
            if not m.complete:
                sig_inv *= m.observed
            d_s = (1 - np.ravel(c)) * (wrong_inv - sig_inv @ m.ones_j)
        np.subtract(1.0, sig, out=sig)
        sig *= sig_inv  # missing cells: their sign is 0
        sig *= m.sign
        sig *= g
    return loglik, sig, d_c, d_s


@dataclass(frozen=True, eq=False)
class AnswerMasks:
    """The items x respondents answer matrix as 0/1 masks, for :func:`bernoulli_asymptotes`."""

    sign: np.ndarray  # +1 correct, -1 wrong, 0 missing
    correct: np.ndarray
    wrong: np.ndarray
    observed: np.ndarray
    missing: np.ndarray
    complete: bool
    n_observed: np.ndarray  # (items,) answers per item
    ones_j: np.ndarray

    @classmethod
    def from_sign(cls, sign):
        observed = (sign != 0).astype(float)
        return cls(sign, (sign > 0).astype(float), (sign < 0).astype(float), observed,
                   1.0 - observed, bool(observed.all()), observed.sum(axis=1),
                   np.ones(sign.shape[1]))


class Layout:
    """Where each value variable sits in the raveled unconstrained vector, from {value
    variable name: shape} in order; the start is the unconstrained origin."""

    def __init__(self, shapes):
        self.slices, self.shapes, start = {}, {}, 0
        for name, shape in shapes.items():
            size = int(np.prod(shape))
            self.slices[name] = slice(start, start + size)
            self.shapes[name] = tuple(shape)
            start += size
        self.n_dim = start
        self.initial = np.zeros(start)

    @classmethod
    def of_model(cls, model):
        """The layout of a PyMC model's value variables, read from its dims without
        compiling anything (``model.initial_point`` compiles a function: 0.6 s)."""
        shapes = {}
        for value in model.value_vars:
            rv = model.values_to_rvs[value]
            shape = [len(model.coords[d]) for d in model.named_vars_to_dims.get(rv.name, ())]
            if isinstance(model.rvs_to_transforms.get(rv), ZeroSumTransform):
                shape[-1] -= 1  # one zero-sum axis, the last
            shapes[value.name] = shape
        return cls(shapes)

    def take(self, x, name):
        """The value of ``name`` at x: an array, or a float for a scalar."""
        value = x[self.slices[name]]
        return value.reshape(self.shapes[name]) if self.shapes[name] else float(value[0])

    def ravel(self, point):
        """The raveled unconstrained vector of a point {value variable name: value}."""
        return np.concatenate([np.ravel(point[name]) for name in self.slices])


def hierarchical_normal(x, mu, log_sigma):
    """log N(x | mu, e^log_sigma), summed over ``x``, and its gradients in x, mu and
    log sigma: with r = (x - mu) / sigma they are -r / sigma, sum r / sigma and sum r^2 - n."""
    sigma = math.exp(log_sigma)
    r = (x - mu) / sigma
    ss = float(r @ r)
    return (-0.5 * ss - r.size * (log_sigma + LOG_SQRT_2PI), -r / sigma, r.sum() / sigma,
            ss - r.size)


def difficulty_prior(v, priors, layout, grad):
    """log p(mu_b, sigma_b, b) of the binary IRT models (b ~ N(mu_b, sigma_b)), the gradients
    in mu_b and log sigma_b written into ``grad``; returns (logp, d logp / d b)."""
    lp_mu, g_mu = normal_logp(v["mu_b"], 0.0, priors["mu_b"])
    lp_sb, g_usb = log_half_normal(v["log_sigma_b"], priors["sigma_b"])
    lp_b, g_b, g_mu_b, g_usb_b = hierarchical_normal(v["b"], v["mu_b"], v["log_sigma_b"])
    grad[layout.slices["mu_b"].start] = g_mu + g_mu_b
    grad[layout.slices["sigma_b_log__"].start] = g_usb + g_usb_b
    return lp_mu + lp_sb + lp_b, g_b


def answer_signs(responses):
    """(items x respondents matrix of +1 correct / -1 wrong / 0 missing, the constant that
    :func:`bernoulli_logit` adds for the missing cells)."""
    sign = responses.dense(2.0 * responses.values - 1.0, rows="item")
    return sign, (sign.size - responses.n_obs) * np.log(2.0)


class BinaryIRTDensity:
    """The 1PL to 4PL of :class:`~irteval.models.onepl.OnePL` (any missing cells) as a dense
    likelihood over the items x respondents matrix, missing cells coded 0: no index gathers,
    so a gradient costs a few passes over the matrix."""

    def __init__(self, model):
        r = model.responses
        self.layout = Layout.of_model(model)
        self.discrimination, self.priors = model.discrimination, model.priors
        # the 2PL's free log-discrimination coordinates: log_a (centred) or a_z
        self.log_a_name = ("log_a" if model.centred else "a_z") if self.discrimination else None
        self.guess_prior, self.slip_prior = model.guess_prior, model.slip_prior  # None: absent
        self.sign, self.missing_constant = answer_signs(r)
        self.answers = AnswerMasks.from_sign(self.sign) if self.guess_prior or self.slip_prior \
            else None
        # -eta and the cells' working arrays; the factors of -eta: (-a, a b) per item and
        # (theta, 1) per respondent (its row of ones is never written)
        self.scratch = Scratch(*[self.sign.shape] * (2 if self.answers is None else 4),
                               (r.n_items, 2), (2, r.n_respondents))
        self.ones_i, self.ones_j = np.ones(r.n_items), np.ones(r.n_respondents)
        self.n_dim = self.layout.n_dim
        self.names = ["mu_b", "sigma_b", "b", "theta",
                      *(("sigma_log_a", self.log_a_name, "a") if self.discrimination
                        else ("sigma_theta",)),
                      *(("c",) if self.guess_prior else ()),
                      *(("slip", "d") if self.slip_prior else ())]
        n_i, n_j = r.n_items, r.n_respondents
        self.shapes = {"mu_b": (), "sigma_b": (), "b": (n_i,), "theta": (n_j,), "sigma_theta": (),
                       "sigma_log_a": (), "a_z": (n_i,), "log_a": (n_i,), "a": (n_i,),
                       "c": (n_i,), "slip": (n_i,), "d": (n_i,)}
        self.dims = {"b": ("item",), "theta": ("respondent",), "a_z": ("item",),
                     "log_a": ("item",), "a": ("item",), "c": ("item",), "slip": ("item",),
                     "d": ("item",)}

    def _values(self, x, theta=None):
        """The model's values at x by name, theta written into ``theta`` if given."""
        take = lambda name: self.layout.take(x, name)  # noqa: E731
        values = {"mu_b": take("mu_b"), "log_sigma_b": take("sigma_b_log__"), "b": take("b"),
                  "theta": zerosum_backward(take("theta_zerosum__"), out=theta)}
        if self.discrimination:
            values.update(log_s=take("sigma_log_a_log__"),
                          **{self.log_a_name: take(self.log_a_name)})
        else:
            values["log_sigma_theta"] = take("sigma_theta_log__")
        for name in ("c", "slip"):
            if name in self.names:
                values[name] = take(f"{name}_logodds__")
        return values

    def expand(self, x):
        v = self._values(x)
        out = {"mu_b": v["mu_b"], "sigma_b": np.exp(v["log_sigma_b"]), "b": v["b"],
               "theta": v["theta"]}
        if self.discrimination:
            name = self.log_a_name
            out.update(sigma_log_a=np.exp(v["log_s"]), **{name: v[name]},
                       a=np.exp(self._log_a(v)))
        else:
            out["sigma_theta"] = np.exp(v["log_sigma_theta"])
        c = sigmoid(v["c"]) if "c" in v else 0.0
        if "c" in v:
            out["c"] = c
        if "slip" in v:
            out.update(slip=sigmoid(v["slip"]), d=1 - sigmoid(v["slip"]) * (1 - c))
        return out

    def start(self):
        return self.layout.initial

    def logp_grad(self, x):
        *cells, items, respondents = self.scratch.arrays()
        minus_eta, spare = cells[0], cells[1:]
        v = self._values(x, theta=respondents[0])
        p = self.priors
        grad = np.zeros(self.n_dim)
        sl = self.layout.slices
        logp, g_b = difficulty_prior(v, p, self.layout, grad)
        theta, b = v["theta"], v["b"]
        if self.discrimination:
            with np.errstate(over="ignore"):
                a = np.exp(self._log_a(v))
            if not np.isfinite(a).all():  # far out in a warm-up on tiny data: NUTS rejects it
                return -np.inf, grad
            lp_t, g_theta, _ = zerosum_logp(theta, 1.0)
            lp_s, g_us = log_half_normal(v["log_s"], p["sigma_log_a"])
            logp += lp_t + lp_s
            np.negative(a, out=items[:, 0])
            np.multiply(a, b, out=items[:, 1])
        else:
            st = math.exp(v["log_sigma_theta"])
            lp_st, g_ust = log_half_normal(v["log_sigma_theta"], p["sigma_theta"])
            lp_t, g_theta, g_ust_t = zerosum_logp(theta, st)
            logp += lp_st + lp_t
            grad[sl["sigma_theta_log__"]] = g_ust + g_ust_t
            a = None
            items[:, 0] = -1.0
            items[:, 1] = b
        # -eta = a_i (b_i - theta_j) as the product of (-a_i, a_i b_i) and (theta_j, 1): a
        # broadcast over a tall matrix takes three times as long. The sums over cells below
        # are matrix-vector products (a tenth of the time of .sum(axis=...) on a tall matrix)
        np.matmul(items, respondents, out=minus_eta)
        if "c" in v or "slip" in v:  # 3PL / 4PL
            logp += self._asymptote_priors(v, grad)
            x = {k: sigmoid(v[k]) for k in ("c", "slip") if k in v}  # per item
            loglik, resid_y, d_c, d_s = bernoulli_asymptotes(
                self.answers, minus_eta, *(x[k][:, None] if k in x else 0.0
                                           for k in ("c", "slip")), spare)
            for name, d_x in (("c", d_c), ("slip", d_s)):
                if name in x:  # chain rule through x = sigmoid(u): dx/du = x (1 - x)
                    # where 1 - P underflowed (log p = -inf, rejected) this is inf * 0 = nan
                    with np.errstate(invalid="ignore"):
                        grad[sl[f"{name}_logodds__"]] += d_x * x[name] * (1 - x[name])
        else:
            # resid_y: d loglik / d eta
            loglik, resid_y = bernoulli_logit(self.sign, minus_eta, spare[0], self.ones_j)
            loglik += self.missing_constant
        logp += loglik
        by_item = resid_y @ self.ones_j  # sum_j R_ij, R = d loglik / d eta
        if a is None:
            g_theta += self.ones_i @ resid_y
            grad[sl["b"]] = g_b - by_item
        else:
            g_theta += a @ resid_y
            grad[sl["b"]] = g_b - a * by_item
        grad[sl["theta_zerosum__"]] = zerosum_gradient(g_theta)
        if a is not None:
            # d loglik / d log a_i = a_i sum_j R_ij (theta_j - b_i)
            logp += self._discrimination_prior(v, (resid_y @ theta - b * by_item) * a, g_us,
                                               grad)
        return logp, grad

    def _log_a(self, v):
        """The log discriminations: log_a, or sigma_log_a a_z (non-centred)."""
        return v["log_a"] if self.log_a_name == "log_a" else math.exp(v["log_s"]) * v["a_z"]

    def _discrimination_prior(self, v, g_log_a, g_us, grad):
        """log p(log a | sigma_log_a), centred (log a ~ N(0, sigma_log_a)) or not (a_z ~
        N(0, 1)); writes the gradients in the log discriminations' coordinates and in
        log sigma_log_a, given the likelihood's ``g_log_a`` = d loglik / d log a and the
        hyperprior's ``g_us``."""
        sl = self.layout.slices
        if self.log_a_name == "log_a":
            lp, g_prior, _, g_us_prior = hierarchical_normal(v["log_a"], 0.0, v["log_s"])
            grad[sl["log_a"]] = g_prior + g_log_a
            grad[sl["sigma_log_a_log__"]] = g_us + g_us_prior
            return lp
        # log a = s a_z: d/d a_z = s d/d log a, d/d log s = s a_z . d/d log a
        s = math.exp(v["log_s"])
        lp, g_prior = normal_logp(v["a_z"], 0.0, 1.0)
        grad[sl["a_z"]] = g_prior + s * g_log_a
        grad[sl["sigma_log_a_log__"]] = g_us + s * float(v["a_z"] @ g_log_a)
        return lp

    def _asymptote_priors(self, v, grad):
        """The Beta priors of the floor c and the slip s: their log density (logit scale) and
        gradient written into ``grad``."""
        logp = 0.0
        for name, prior in (("c", self.guess_prior), ("slip", self.slip_prior)):
            if name in v:
                lp, g = log_beta_logit(v[name], *prior)
                logp += lp
                grad[self.layout.slices[f"{name}_logodds__"]] = g
        return logp


class MultidimensionalDensity:
    """The multidimensional 2PL of :class:`~irteval.models.multidimensional.
    MultidimensionalIRT` as a dense likelihood (missing cells coded 0). With loadings A
    (items x skills), abilities T (skills x respondents) and R = d loglik / d eta at
    eta = A T - b: d/dT = A' R, d/dA = R T', d/db = -sum_j R."""

    names = ["mu_b", "sigma_b", "b", "theta", "a"]
    dims = {"b": ("item",), "theta": ("skill", "respondent"), "a": ("item", "skill")}

    def __init__(self, model):
        r, k = model.responses, model.n_skills
        self.layout = Layout.of_model(model)
        self.n_dim, self.priors = self.layout.n_dim, model.priors
        self.sign, self.missing_constant = answer_signs(r)
        self.scratch, self.ones_j = Scratch(*[self.sign.shape] * 2), np.ones(r.n_respondents)
        self.shapes = {"mu_b": (), "sigma_b": (), "b": (r.n_items,),
                       "theta": (k, r.n_respondents), "a": (r.n_items, k)}

    def _values(self, x):
        take = lambda name: self.layout.take(x, name)  # noqa: E731
        return {"mu_b": take("mu_b"), "log_sigma_b": take("sigma_b_log__"), "b": take("b"),
                "theta": zerosum_backward(take("theta_zerosum__")), "a": take("a")}

    def expand(self, x):
        v = self._values(x) | {"sigma_b": np.exp(self.layout.take(x, "sigma_b_log__"))}
        return {name: v[name] for name in self.names}

    def start(self):
        return self.layout.initial

    def logp_grad(self, x):
        v = self._values(x)
        grad = np.zeros(self.n_dim)
        sl = self.layout.slices
        logp, g_b = difficulty_prior(v, self.priors, self.layout, grad)
        theta, a = v["theta"], v["a"]
        lp_a, g_a = normal_logp(a, 0.0, self.priors["sigma_a"])
        lp_theta = sum(zerosum_logp(row, 1.0)[0] for row in theta)
        minus_eta, spare = self.scratch.arrays()
        np.matmul(-a, theta, out=minus_eta)
        minus_eta += v["b"][:, None]
        loglik, resid = bernoulli_logit(self.sign, minus_eta, spare, self.ones_j)
        logp += lp_a + lp_theta + loglik + self.missing_constant
        g_theta = -theta + a.T @ resid
        grad[sl["b"]] = g_b - resid @ np.ones(resid.shape[1])
        grad[sl["theta_zerosum__"]] = zerosum_gradient(g_theta).ravel()
        grad[sl["a"]] = (g_a + resid @ theta.T).ravel()
        return logp, grad


class BradleyTerryDensity:
    """The Plackett–Luce or pairwise likelihood of :class:`~irteval.models.bradley_terry.
    BradleyTerry` with its zero-sum prior. Plackett–Luce: with each round's present players
    sorted by rank, w_k = exp(s_k) and D_m = sum_{l >= m} w_l, log p = sum_k s_k - log
    D_{g(k)} (g(k): where k's tie group starts), and d/ds_l = 1 - w_l sum_{m <= l} c_m with
    c_m = (players whose group starts at m) / D_m. Pairwise: w_ij log sigma(d) + (n_ij - w_ij)
    log sigma(-d) = -n_ij log(1 + e^-d) - (n_ij - w_ij) d (plus the binomial coefficient),
    d = s_i - s_j, with d/dd = w_ij -
    n_ij / (1 + e^-d), summed per player as C d/dd with C the sparse players x pairs incidence
    matrix (+1 at i, -1 at j). Davidson, with W_i, W_j, T the pair's wins, losses and ties
    and log Z = logsumexp(d / 2, -d / 2, log nu): W_i d / 2 - W_j d / 2 + T log nu - n_ij log Z
    (plus the multinomial coefficient), d/dd = (W_i - W_j) / 2 - n_ij (p_i - p_j) / 2 and
    d/dlog nu = T - n_ij p_tie, log nu ~ N(0, LOG_NU_SCALE). With ``hierarchy=`` (the
    Model/Task scheme) a round of task t has strengths s + tau z_t (z_t ~ ZeroSumNormal(1)
    over players, tau ~ HalfNormal(TAU_SCALE)): the same likelihoods per round, their
    gradient g_r (round or (round, pair) rows) summed into s, tau sum_{r in t} g_r into z_t
    and sum_r g_r . z_t(r) into tau."""

    dims = {"strength": ("player",), "epp": ("player",), "log_nu": (), "tau": (),
            "deviation_z": ("task", "player"), "deviation": ("task", "player")}

    def __init__(self, model):
        self.layout = Layout.of_model(model)
        self.n_dim = self.layout.n_dim
        self.prior_scale = model.prior_scale
        scores = model.scores
        self.n_players = scores.n_players
        self.shapes = {"strength": (self.n_players,), "epp": (self.n_players,), "log_nu": ()}
        self.names = ["strength", "epp"] + ["log_nu"] * (model.likelihood == "davidson")
        self.task = None
        if model.hierarchy is not None:
            from .bradley_terry import TAU_SCALE

            self.tau_scale, self.task = TAU_SCALE, model.task_of_round[0]  # of every round
            n_tasks = len(model.task_of_round[1])
            self.shapes.update(tau=(), deviation_z=(n_tasks, self.n_players),
                               deviation=(n_tasks, self.n_players))
            self.names += ["tau", "deviation_z", "deviation"]
        self.reference = (None if model.reference is None
                          else scores.players.get_loc(model.reference))
        self.likelihood = model.likelihood
        if self.likelihood == "plackett_luce":
            from .bradley_terry import competition_ranks

            rank = competition_ranks(scores.matrix)  # (round, player), -1 absent
            key = np.where(rank >= 0, rank, self.n_players)
            self.order = np.argsort(key, axis=1, kind="stable")
            self.inside = (np.take_along_axis(key, self.order, axis=1) < self.n_players)
            self.group_start = np.minimum(np.take_along_axis(key, self.order, axis=1),
                                    self.n_players - 1)
            rows = np.repeat(np.arange(rank.shape[0]), rank.shape[1])
            # how many players' groups start at each position
            self.group_count = np.zeros(rank.shape)
            np.add.at(self.group_count, (rows, self.group_start.ravel()), self.inside.ravel())
            # every player in every round, no ties: each place is its own group
            self.untied = bool(self.inside.all() and (self.group_count == 1).all())
            self._order_flat = self.order.ravel()
            # flat positions of the sorted players and of their groups' starts, per round
            offset = np.arange(rank.shape[0])[:, None] * rank.shape[1]
            self._sorted_at = (offset + self.order).ravel()
            self._start_at = offset + self.group_start
            if self.task is not None:  # tasks x rounds, 1 where the round is the task's
                self._task_rounds = (self.task == np.arange(self.task.max() + 1)[:, None]
                                     ).astype(float)
        else:  # battles grouped into rounds for the hierarchy: a row per (round, pair)
            pairs = scores.pairs() if self.task is None else scores.round_pairs()
            self.i, self.j = pairs["i"].to_numpy(), pairs["j"].to_numpy()
            if self.task is not None:  # where each row's task deviations sit, flat
                task = self.task[pairs["round"].to_numpy()] * self.n_players
                self.flat_i, self.flat_j = task + self.i, task + self.j
            n_pairs = len(pairs)
            self.incidence = sparse.csc_matrix(  # players x pairs: +1 at i, -1 at j
                (np.tile([1.0, -1.0], n_pairs), np.column_stack([self.i, self.j]).ravel(),
                 np.arange(0, 2 * n_pairs + 1, 2)), shape=(self.n_players, n_pairs))
            if self.likelihood == "davidson":  # the model's whole counts
                from .bradley_terry import LOG_NU_SCALE

                self.log_nu_scale = LOG_NU_SCALE
                self.wins, self.losses, self.ties = model.outcomes.T.astype(float)
                self.matches = self.wins + self.losses + self.ties
                self.n_ties = float(self.ties.sum())
                self.coefficient = float(np.sum(gammaln(self.matches + 1) - gammaln(
                    self.wins + 1) - gammaln(self.losses + 1) - gammaln(self.ties + 1)))
            else:
                self.wins = pairs["wins_i"].to_numpy()
                self.matches = pairs["matches"].to_numpy()
                self.losses = self.matches - self.wins
                self.coefficient = float(np.sum(gammaln(self.matches + 1) - gammaln(
                    self.wins + 1) - gammaln(self.losses + 1)))

    def strength(self, x):
        return zerosum_backward(self.layout.take(x, "strength_zerosum__"))

    def _deviation(self, x):
        """tau, z (task, player) and the deviations tau z of the hierarchy."""
        tau = math.exp(self.layout.take(x, "tau_log__"))
        z = zerosum_backward(self.layout.take(x, "deviation_z_zerosum__"))
        return tau, z, tau * z

    def expand(self, x):
        s = self.strength(x)
        out = {"strength": s, "epp": s - (0.0 if self.reference is None else s[self.reference])}
        if self.likelihood == "davidson":
            out["log_nu"] = self.layout.take(x, "log_nu")
        if self.task is not None:
            out["tau"], out["deviation_z"], out["deviation"] = self._deviation(x)
        return out

    def start(self):
        return self.layout.initial

    def logp_grad(self, x):
        s = self.strength(x)
        logp, g, _ = zerosum_logp(s, self.prior_scale)
        if self.likelihood == "davidson":
            return self._davidson(x, s, logp, g)
        if self.task is not None:
            return self._hierarchy(x, s, logp, g)
        if self.likelihood == "plackett_luce":
            lik, g_lik = self._plackett_luce(s)
        else:
            lik, dd = self._pairwise(s[self.i] - s[self.j])
            g_lik = self.incidence @ dd  # two np.bincount took 4 ms at 500 000 pairs, this 1
        g = g + g_lik
        return logp + lik, zerosum_gradient(g)

    def _pairwise(self, d):
        """The pairs' log-likelihood at strength differences ``d`` and its derivative in
        each d."""
        with np.errstate(over="ignore"):
            e = np.exp(-d)
        # -log sigma(d) = log1p(e); -log sigma(-d) = log1p(e) + d
        loss = float(self.matches @ np.log1p(e))
        if not math.isfinite(loss):  # some d < -709 overflowed e: the stable form there
            loss = float(self.matches @ softplus(-d))
        e += 1.0  # (1 / inf = 0: sigma(d) is right where e overflowed)
        return self.coefficient - (loss + float(self.losses @ d)), np.subtract(
            self.wins, np.divide(self.matches, e, out=e), out=e)

    def _hierarchy(self, x, s, logp, g):
        tau, z, dev = self._deviation(x)
        n_tasks, n = z.shape
        if self.likelihood == "plackett_luce":
            strengths = (s + dev[self.task]).ravel()
            lik, g_sorted = self._plackett_luce_sorted(strengths[self._sorted_at].reshape(
                self.order.shape), strengths.max())
            g_round = np.empty(strengths.size)
            g_round[self._sorted_at] = g_sorted.ravel()
            g_round = g_round.reshape(self.order.shape)
            g_s, g_dev = g_round.sum(axis=0), self._task_rounds @ g_round
        else:
            flat = dev.ravel()
            lik, dd = self._pairwise(s[self.i] - s[self.j] + flat[self.flat_i]
                                     - flat[self.flat_j])
            g_s = self.incidence @ dd
            g_dev = (np.bincount(self.flat_i, dd, n_tasks * n)
                     - np.bincount(self.flat_j, dd, n_tasks * n)).reshape(n_tasks, n)
        u = self.layout.take(x, "tau_log__")
        lp_tau, g_u = log_half_normal(u, self.tau_scale)
        lp_z = -0.5 * float(np.sum(z * z)) - n_tasks * (n - 1) * LOG_SQRT_2PI  # ZeroSumNormal(1)
        g_z = tau * g_dev - z
        g = g + g_s
        grad = np.empty(self.n_dim)
        grad[self.layout.slices["strength_zerosum__"]] = zerosum_gradient(g)
        grad[self.layout.slices["tau_log__"]] = g_u + tau * float(np.sum(g_dev * z))
        grad[self.layout.slices["deviation_z_zerosum__"]] = zerosum_gradient(g_z).ravel()
        return logp + lik + lp_tau + lp_z, grad

    def _davidson(self, x, s, logp, g):
        log_nu = self.layout.take(x, "log_nu")
        half = (s[self.i] - s[self.j]) / 2
        top = np.maximum(np.abs(half), log_nu)
        p_i, p_j, p_tie = np.exp(half - top), np.exp(-half - top), np.exp(log_nu - top)
        z = p_i + p_j + p_tie
        log_z = top + np.log(z)
        lik = float((self.wins - self.losses) @ half + log_nu * self.n_ties
                    - self.matches @ log_z) + self.coefficient
        share = self.matches / z  # n_ij / Z, with the p's still unnormalised
        g = g + self.incidence @ ((self.wins - self.losses - share * (p_i - p_j)) / 2)
        lp_nu, g_nu = normal_logp(log_nu, 0.0, self.log_nu_scale)
        grad = np.empty(self.n_dim)
        grad[self.layout.slices["strength_zerosum__"]] = zerosum_gradient(g)
        grad[self.layout.slices["log_nu"]] = g_nu + self.n_ties - float(share @ p_tie)
        return logp + lik + lp_nu, grad

    @np.errstate(divide="ignore", invalid="ignore")  # (see _plackett_luce_sorted)
    def _plackett_luce(self, s):
        top = s.max()
        if self.untied:  # the same as below without ties or absent players, in fewer passes:
            # every player once a round, so sum(sorted s) = rounds x sum(s)
            n_rounds = self.order.shape[0]
            w = np.exp(s - top)[self.order]
            suffix = np.cumsum(w[:, ::-1], axis=1)[:, ::-1]
            logp = float(n_rounds * (s.sum() - len(s) * top) - np.log(suffix).sum())
            pulled = w * np.cumsum(1.0 / suffix, axis=1)
            return logp, n_rounds - np.bincount(self._order_flat, pulled.ravel(), self.n_players)
        logp, g_sorted = self._plackett_luce_sorted(s[self.order], top)
        return logp, np.bincount(self._order_flat, g_sorted.ravel(), self.n_players)

    @np.errstate(divide="ignore", invalid="ignore")
    def _plackett_luce_sorted(self, sorted_s, top):
        """The rankings' log-probability at the strengths of every round's players in rank
        order (round, place; ``top`` their largest) and its gradient in them. (Strengths
        745 below the top underflow: log 0 = -inf, as in the model's graph, and NUTS rejects
        the step; NumPy's warning about it is silenced.)"""
        w = np.where(self.inside, np.exp(sorted_s - top), 0.0)
        suffix = np.cumsum(w[:, ::-1], axis=1)[:, ::-1]
        den = suffix.ravel()[self._start_at]
        logp = float(np.sum(np.where(self.inside, sorted_s - top - np.log(
            np.where(self.inside, den, 1.0)), 0.0)))
        c = np.where(self.group_count > 0, self.group_count / np.where(suffix > 0, suffix, 1.0),
                     0.0)
        return logp, np.where(self.inside, 1.0 - w * np.cumsum(c, axis=1), 0.0)


class GPCMDensity:
    """The GPCM of :class:`~irteval.models.polytomous_irt.PolytomousIRT` as a dense likelihood
    over the datasets x algorithms matrix (missing cells masked). With eta_ij = a_j theta_i,
    category logits l_ijk = k eta_ij - sum_{v <= k} c_jv over the item's categories and P_ijk
    their softmax: d log p / d eta_ij = x_ij - E_ij (E: the expected category) and
    d log p / d c_jv = sum_i (P(x_ij >= v) - [x_ij >= v])."""

    names = ["theta", "a", "c"]
    dims = {"theta": ("respondent",), "a": ("item",), "c": ("item", "step")}

    def __init__(self, model):
        from .polytomous_irt import category_logp  # (that module imports this one)

        self.category_logp = category_logp
        self.layout = Layout.of_model(model)
        self.n_dim = self.layout.n_dim
        self.priors = model.priors
        self.x, self.mask, self.valid = model.categories, model.mask, model.valid
        n_steps = self.valid.shape[1] - 1
        self.k = np.arange(n_steps + 1)
        # [x_ij >= v] for v = 1..S on observed cells, summed over datasets
        self.count_ge = ((self.x[..., None] >= self.k[1:]) * self.mask[..., None]).sum(axis=0)
        self.shapes = {"theta": (self.x.shape[0],), "a": (self.x.shape[1],),
                       "c": (self.x.shape[1], n_steps)}

    def expand(self, x):
        return {name: self.layout.take(x, name) for name in self.names}

    def start(self):
        return self.layout.initial

    def logp_grad(self, x):
        theta, a, c = (self.layout.take(x, name) for name in self.names)
        lp_t, g_t = normal_logp(theta, 0.0, 1.0)
        lp_a, g_a = normal_logp(a, 0.0, self.priors["a"])
        lp_c, g_c = normal_logp(c, 0.0, self.priors["c"])
        log_prob = self.category_logp(theta, a, c, self.valid, "gpcm", xp=np)  # (I, J, K)
        prob = np.exp(log_prob)
        observed = np.take_along_axis(log_prob, self.x[..., None], axis=-1)[..., 0]
        loglik = float(np.sum(self.mask * observed))
        resid = self.mask * (self.x - prob @ self.k)  # d loglik / d eta
        # P(x >= v), v = 1..S: cumulative sums from the top category down
        at_least = np.cumsum(prob[..., ::-1], axis=-1)[..., ::-1][..., 1:]
        grad = np.empty(self.n_dim)
        sl = self.layout.slices
        grad[sl["theta"]] = g_t + resid @ a
        grad[sl["a"]] = g_a + theta @ resid
        grad[sl["c"]] = (g_c + np.einsum("ij,ijv->jv", self.mask, at_least)
                         - self.count_ge).ravel()
        return lp_t + lp_a + lp_c + loglik, grad


class GradedDensity:
    """The graded response model of :class:`~irteval.models.polytomous_irt.PolytomousIRT`
    (missing cells masked). Item j's ordered thresholds c_j1 < ... < c_jK (c_j1 free, the
    gaps e^v LogNormal(0, 1): N(0, 1) on v with the log transform's Jacobian), eta_ij =
    a_j theta_i, F_k = logistic(eta - c_jk) = P(x >= k) (F_0 = 1, F_{K+1} = 0); a cell with
    x = k has log p = log(F_k - F_{k+1}) = log F_k + log(1 - r), r = F_{k+1} / F_k, and
    d log p / d eta = (1 - F_k) / (1 - r) - r (1 - F_{k+1}) / (1 - r) (the first term's
    negative is d / d c_jk, the second's d / d c_j,k+1)."""

    names = ["theta", "a", "c_first", "c_gap", "c"]
    dims = {"theta": ("respondent",), "a": ("item",), "c_first": ("item",),
            "c_gap": ("item", "gap"), "c": ("item", "step")}

    def __init__(self, model):
        from .polytomous_irt import _CLOSED  # (that module imports this one)

        self.layout = Layout.of_model(model)
        self.n_dim = self.layout.n_dim
        self.priors = model.priors
        self.x, self.mask = model.categories, model.mask
        self.open = model.valid[:, 1:]  # (J, S): the item has step k
        self.closed = _CLOSED  # the model's threshold of a step the item lacks
        n_items, n_steps = self.open.shape
        # the cells' category k and k + 1 as one-hot over the padded steps 0..S+1, masked
        pad = np.arange(n_steps + 2)
        self.at_k = (pad == self.x[..., None]) * self.mask[..., None]
        self.at_next = (pad == self.x[..., None] + 1) * self.mask[..., None]
        self.shapes = {"theta": (self.x.shape[0],), "a": (n_items,), "c_first": (n_items,),
                       "c_gap": (n_items, n_steps - 1), "c": (n_items, n_steps)}

    def _values(self, x):
        theta, a, first, v = (self.layout.take(x, name) for name in (
            "theta", "a", "c_first", "c_gap_log__"))
        gap = np.exp(v).reshape(self.shapes["c_gap"])
        c = first[:, None] + np.concatenate([np.zeros((len(first), 1)),
                                             np.cumsum(gap, axis=1)], axis=1)
        return theta, a, first, v.reshape(gap.shape), gap, c

    def expand(self, x):
        theta, a, first, _, gap, c = self._values(x)
        return {"theta": theta, "a": a, "c_first": first, "c_gap": gap, "c": c}

    def start(self):
        return self.layout.initial

    def logp_grad(self, x):
        theta, a, first, v, gap, c = self._values(x)
        lp_t, g_t = normal_logp(theta, 0.0, 1.0)
        lp_a, g_a = normal_logp(a, 0.0, self.priors["a"])
        lp_f, g_f = normal_logp(first, 0.0, self.priors["c"])
        lp_v, g_v = normal_logp(v, 0.0, 1.0)  # LogNormal(0, 1) on e^v, with the Jacobian
        # as the model writes it: a step the item lacks at threshold CLOSED, log F_{S+1} at
        # -2 CLOSED (F = 0 to rounding)
        u = (theta[:, None] * a[None, :])[..., None] - np.where(self.open, c, self.closed)
        edge = np.zeros(u.shape[:2] + (1,))
        # log F_k and 1 - F_k over k = 0..S+1; the cells' log F_x and log F_{x+1}
        log_f = np.concatenate([edge, -softplus(-u), edge - 2 * self.closed], axis=-1)
        tail = np.concatenate([edge, np.exp(-softplus(u)), edge + 1.0], axis=-1)
        upper, lower = ((log_f * w).sum(axis=-1) for w in (self.at_k, self.at_next))
        # (the model's log1mexp clamps log r at -1e-12: two thresholds too close to tell)
        clamped = lower - upper > -1e-12
        log_r = np.minimum(lower - upper, -1e-12)
        keep = -np.expm1(log_r)  # 1 - r
        loglik = float(np.sum(self.mask * (upper + np.log(keep))))
        r = np.where(clamped, 0.0, np.exp(log_r))
        up = (tail * self.at_k).sum(axis=-1) / np.where(clamped, 1.0, keep)
        down = r * (tail * self.at_next).sum(axis=-1) / keep
        deta = self.mask * (up - down)
        dc = -(np.einsum("ij,ijk->jk", up, self.at_k)
               - np.einsum("ij,ijk->jk", down, self.at_next))[:, 1:-1] * self.open  # d / d c_jk
        grad = np.empty(self.n_dim)
        sl = self.layout.slices
        grad[sl["theta"]] = g_t + deta @ a
        grad[sl["a"]] = g_a + theta @ deta
        grad[sl["c_first"]] = g_f + dc.sum(axis=1)
        # c_jk = c_j1 + sum_{m <= k} gap_jm: d / d gap_jm = sum_{k >= m} d / d c_jk
        grad[sl["c_gap_log__"]] = (g_v + gap * np.cumsum(dc[:, :0:-1], axis=1)[:, ::-1]).ravel()
        return lp_t + lp_a + lp_f + lp_v + loglik, grad


def z_and_mask(responses):
    """(respondents x items matrix of the continuous responses' model-scale z, 0 where
    missing; its 0/1 mask of observed cells)."""
    return responses.dense(responses.z), responses.dense(1.0)


class ContinuousIRTDensity:
    """The continuous IRT of :class:`~irteval.models.continuous_irt.ContinuousIRT` with the
    traits integrated out, on sufficient statistics: datasets with the same observed
    algorithms (one pattern O_k, n_k datasets, mean zbar_k, scatter matrix S_k) share one
    term, so a gradient costs O(patterns x items^2) whatever the number of datasets. With
    a = 1/s^2, w = a lambda, q = 1 + sum a lambda^2 and d = zbar_k - tau (all on O_k), the
    Woodbury identity gives

        log p_k = -1/2 [n_k |O_k| log 2 pi + n_k (sum 2 log s + log q) + sum a diag(S_k)
                        - w'S_k w / q + n_k (sum a d^2 - (w'd)^2 / q)],

    the sum over the pattern's datasets of ``marginal_logp``."""

    names = ["tau", "lam", "s"]
    dims = {"tau": ("item",), "lam": ("item",), "s": ("item",)}

    def __init__(self, model):
        self.layout = Layout.of_model(model)
        self.n_dim = self.layout.n_dim
        self.priors = model.priors
        z, mask = z_and_mask(model.responses)
        n_data, n_item = z.shape
        patterns, which, counts = np.unique(mask > 0, axis=0, return_inverse=True,
                                            return_counts=True)
        if len(patterns) * n_item > n_data:
            # scattered missing cells, nearly a pattern per dataset: a term per dataset
            # (no scatter; O(datasets x items) a gradient, as the graph)
            self.m, self.n, self.zbar = mask, np.ones(n_data), z * mask
            self.scatter = self.scatter_diag = None
        else:
            groups = np.split(np.argsort(which.ravel(), kind="stable"), np.cumsum(counts)[:-1])
            self.m, self.n = patterns.astype(float), counts.astype(float)  # (K, J), (K,)
            self.zbar = np.stack([z[rows].mean(axis=0) for rows in groups]) * self.m
            centred = [(z[rows] - self.zbar[k]) * self.m[k] for k, rows in enumerate(groups)]
            self.scatter = np.stack([c.T @ c for c in centred])  # (K, J, J)
            self.scatter_diag = np.einsum("kjj->kj", self.scatter)
        self.constant = -0.5 * np.log(2 * np.pi) * float(self.n @ self.m.sum(axis=1))
        self.shapes = {"tau": (n_item,), "lam": (n_item,), "s": (n_item,)}
        self._start = self.layout.initial

    def expand(self, x):
        tau, lam, u = (self.layout.take(x, name) for name in ("tau", "lam", "s_log__"))
        return {"tau": tau, "lam": lam, "s": np.exp(u)}

    def start(self):
        return self._start

    def logp_grad(self, x):
        tau, lam, u = (self.layout.take(x, name) for name in ("tau", "lam", "s_log__"))
        lp_tau, g_tau = normal_logp(tau, 0.0, self.priors["tau"])
        lp_lam, g_lam = normal_logp(lam, 0.0, self.priors["lam"])
        lp_u, g_u = normal_logp(u, 0.0, self.priors["s"])  # log-normal s with its Jacobian
        m, n = self.m, self.n[:, None]
        a = m * np.exp(-2 * u)  # (K, J)
        w = a * lam
        q = (1 + w @ lam)[:, None]
        if self.scatter is None:  # one dataset a term: no spread around the means
            sw, t, a_diag = 0.0, 0.0, 0.0
        else:
            sw = np.einsum("kij,kj->ki", self.scatter, w)
            t = (w * sw).sum(axis=1, keepdims=True)
            a_diag = a * self.scatter_diag
        d = (self.zbar - tau) * m
        g = (w * d).sum(axis=1, keepdims=True)
        loglik = self.constant - 0.5 * float(
            np.sum(n * (2 * (m * u).sum(axis=1, keepdims=True) + np.log(q)) - t / q
                   + n * ((a * d**2).sum(axis=1, keepdims=True) - g**2 / q)) + np.sum(a_diag))
        g_tau = g_tau + (n * (a * d - g * w / q)).sum(axis=0)
        g_lam = g_lam + (-n * w / q + a * sw / q - t * w / q**2 + n * g * a * d / q
                         - n * g**2 * w / q**2).sum(axis=0)
        wl = w * lam
        g_u = g_u + (-n * m + n * wl / q + a_diag - 2 * w * sw / q
                     + t * wl / q**2 + n * a * d**2 - 2 * n * g * w * d / q
                     + n * g**2 * wl / q**2).sum(axis=0)
        grad = np.empty(self.n_dim)
        sl = self.layout.slices
        grad[sl["tau"]], grad[sl["lam"]], grad[sl["s_log__"]] = g_tau, g_lam, g_u
        return lp_tau + lp_lam + lp_u + loglik, grad
