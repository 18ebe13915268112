"""Continuous-response IRT (AIRT, paper 3): datasets answer algorithms with a performance.

Samejima's continuous response model in Wang & Zeng's notation, for the transformed
performance z_ij of algorithm j on dataset i (:attr:`Responses.z`):

    z_ij | theta_i ~ Normal(gamma_j (theta_i - beta_j), |gamma_j / alpha_j|),
    theta_i ~ Normal(0, 1),    sign(alpha_j) = sign(gamma_j),

theta_i is the dataset's easiness (difficulty delta_i = -theta_i); alpha_j < 0 marks an
anomalous algorithm (better on harder datasets). Sampled as a factor model with loading
lambda_j = gamma_j, intercept tau_j = -gamma_j beta_j and residual sd s_j = |gamma_j / alpha_j|,
so the signs are shared by construction, and with the traits integrated out:

    z_i ~ Normal(tau, lambda lambda^T + diag(s^2))     (observed entries of row i)

evaluated elementwise by the matrix determinant lemma and Woodbury's identity (no dense
algebra). theta_i | z_i is Normal with precision 1 + sum_j lambda_j^2 / s_j^2 and is drawn
exactly after sampling. The likelihood is unchanged by (theta, lambda) -> (-theta, -lambda);
each draw is reflected so that sum_j lambda_j > 0 (theta reads as easiness for most
algorithms). The observed variable ``z`` (dims respondent, item; in the model 0 where a
cell is missing, which the mask leaves out; NaN there in a fit's observed data and
replicates, as in ``performance`` in the constant data) has this marginal as its density, so
``pm.compute_log_likelihood`` gives one term per dataset and posterior predictive draws come
with a new trait per dataset.
See ``models/continuous_irt.md``.
"""

from __future__ import annotations

import arviz as az
import numpy as np
import pandas as pd
import pymc as pm
import pytensor
import pytensor.tensor as pt

from .._validation import count, plain, positive, warn_user
from ..data import Responses
from ..exceptions import ConvergenceWarning
from ..inference.approximations import mode_finder_of
from .base import BaseModel, StartPoints, reflection_signs, warn_few_respondents
from .densities import ContinuousIRTDensity, z_and_mask

#: prior scales: tau_j ~ N(0, tau), lambda_j ~ N(0, lam), log s_j ~ N(0, s)
PRIORS = {"tau": 5.0, "lam": 5.0, "s": 1.0}


def mean_z(tau, lam, theta):
    """E[z_ij | theta_i] = tau_j + lambda_j theta_i, for arrays with leading draw dims:
    tau, lam (..., item), theta (..., respondent) -> (..., respondent, item)."""
    return tau[..., None, :] + lam[..., None, :] * theta[..., :, None]


def marginal_log_likelihood(responses, params) -> float:
    """log p(z | alpha, beta, gamma) with the traits integrated out, for parameters from any
    source (a DataFrame indexed by item with columns ``alpha``, ``beta``, ``gamma``; e.g.
    airt's a, b, alpha): compares fits under one model."""
    missing = pd.Index(responses.items).difference(params.index)
    if len(missing):
        raise ValueError(f"params lack {responses.item_name}s {list(missing[:5])}")
    p = params.loc[responses.items]
    alpha, beta, gamma = (p[c].to_numpy(float) for c in ("alpha", "beta", "gamma"))
    z, mask = z_and_mask(responses)
    return float(marginal_logp(z, -gamma * beta, gamma, np.abs(gamma / alpha), mask,
                               xp=np).sum())


def marginal_logp(z, tau, lam, s, mask, xp=pt):
    """Log-density of each dataset's observed z with theta integrated out, shape (n,).

    With w_ij = m_ij / s_j^2, r_ij = z_ij - tau_j, c_i = sum_j w_ij lambda_j^2:
    log|Sigma_i| = sum_j m_ij log s_j^2 + log(1 + c_i) and
    r^T Sigma_i^-1 r = sum_j w_ij r_ij^2 - (sum_j w_ij lambda_j r_ij)^2 / (1 + c_i).
    """
    w = mask / s**2
    r = (z - tau) * mask
    c = (w * lam**2).sum(axis=-1)
    proj = (w * lam * r).sum(axis=-1)
    n_obs = mask.sum(axis=-1)
    logdet = (mask * xp.log(s**2)).sum(axis=-1) + xp.log1p(c)
    quad = (w * r**2).sum(axis=-1) - proj**2 / (1 + c)
    return -0.5 * (n_obs * np.log(2 * np.pi) + logdet + quad)


def marginal_random(tau, lam, s, mask, rng=None, size=None):
    """z replicated for new traits theta ~ N(0, 1): tau + lambda theta + s noise (0 where
    masked)."""
    shape = (np.broadcast_shapes(np.shape(mask), np.shape(tau)) if size is None
             else (*size, np.shape(tau)[-1]))
    theta = rng.standard_normal((*shape[:-1], 1))
    return np.where(mask > 0, tau + lam * theta + s * rng.standard_normal(shape), 0.0)


def cell_logp(z, mean, s):
    """log N(z | mean, s), elementwise: each cell given the drawn traits (LOO per algorithm, the
    CRM heatmap)."""
    return -0.5 * np.log(2 * np.pi) - np.log(s) - 0.5 * ((z - mean) / s) ** 2


class ContinuousIRT(BaseModel):
    """The continuous IRT of AIRT (build it with :func:`continuous_irt`)."""

    family = "continuous_irt"
    # MiniZinc's MIP solvers have residual sds near 0: with 1000 draws and 1000 warm-up steps
    # their tail ESS was 270, with 2000 draws 366, with 2000 of both 459 (>= 400) in one run;
    # over seeds 0-2, 201-595 (4000 draws: 520-1153, what the demo and notebook 03 use)
    default_draws = 2000
    default_tune = 2000
    sampler = "nutpie"  # its mass matrix adaptation gave 2-5x the ESS of PyMC's here
    # beta = -tau / gamma is a ratio, Cauchy-tailed where gamma ~ 0: its R-hat and ESS say
    # nothing about convergence, so the checks use the other parameters
    diagnostic_vars = ("tau", "lam", "s", "alpha", "theta")

    def __init__(self, responses: Responses, *, prior_tau=PRIORS["tau"],
                 prior_lam=PRIORS["lam"], prior_s=PRIORS["s"], init="best", n_starts=10):
        if init not in ("best", "dispersed"):
            raise ValueError(f"init must be 'best' or 'dispersed', got {init!r}")
        n_starts = count(n_starts, "n_starts")  # a string failed in the fit, 0 ran one
        if not isinstance(responses, Responses):
            raise TypeError(f"expected irteval.Responses, got {type(responses).__name__}")
        if responses.kind != "continuous":
            raise ValueError("continuous_irt needs continuous responses: build them with "
                             "Responses.from_wide(..., kind='continuous')")
        z, mask = z_and_mask(responses)
        _check_constant(responses, z, mask)
        warn_few_respondents(responses, "3 parameters (difficulty, discrimination, noise)")
        super().__init__(coords={"respondent": responses.respondents, "item": responses.items})
        self._build_args = ((responses,), {"prior_tau": prior_tau, "prior_lam": prior_lam,
                                           "prior_s": prior_s, "init": init,
                                           "n_starts": n_starts})
        self.responses, self.init, self.n_starts = responses, init, n_starts
        self.priors = {"tau": positive(prior_tau, "prior_tau"),
                       "lam": positive(prior_lam, "prior_lam"), "s": positive(prior_s, "prior_s")}
        # raw performance and bounds, for the downstream analyses (NaN = missing, so it also
        # holds the mask; registered directly, as pm.Data refuses NaN)
        performance = responses.dense(fill=np.nan)
        self.register_data_var(pytensor.shared(performance, "performance"),
                               dims=("respondent", "item"))
        pm.Data("lower", responses.lower, dims="item")
        pm.Data("upper", responses.upper, dims="item")
        tau = pm.Normal("tau", 0.0, prior_tau, dims="item")
        lam = pm.Normal("lam", 0.0, prior_lam, dims="item")
        s = pm.LogNormal("s", 0.0, prior_s, dims="item")
        # the mask enters as a constant: as pm.Data it made PyTensor 2.38's fusion rewrite of
        # the gradient fail (harmless, but it printed a traceback on every compile)
        pm.CustomDist("z", tau, lam, s, mask, logp=marginal_logp, random=marginal_random,
                      signature="(j),(j),(j),(j)->(j)", observed=z, dims=("respondent", "item"))

    def fit_attrs(self):
        return {"irteval_family": self.family, "irteval_model": "continuous_irt",
                "item_name": self.responses.item_name,
                "respondent_name": self.responses.respondent_name,
                "transform": self.responses.transform,
                "lower_is_better": int(self.responses.lower_is_better), "init": self.init,
                "n_starts": self.n_starts, **{f"prior_{k}": v for k, v in self.priors.items()}}

    def preferred_sampler(self):
        # PyMC's NUTS is the only backend here that takes a starting point per chain
        return "pymc" if self.init == "dispersed" else self.sampler

    def start_points(self, chains, random_seed):
        return multistart(self, chains, random_seed)

    def density(self):
        # built once: the multistart and the sampler use the same sufficient statistics
        if getattr(self, "_density", None) is None:
            self._density = ContinuousIRTDensity(self)
        return self._density

    def postprocess(self, idata, random_seed):
        identify(self.responses, idata, random_seed)
        idata.posterior = idata.posterior.assign_coords(
            respondent=np.asarray(self.responses.respondents))  # theta's labels
        if "observed_data" in idata.groups():
            self._missing_as_nan(idata.observed_data)

    def posterior_predictive(self, idata, model, random_seed):
        super().posterior_predictive(idata, model, random_seed)
        self._missing_as_nan(idata.posterior_predictive)

    def _missing_as_nan(self, group):
        """z NaN in the missing cells (the model's 0 there is left out by the mask; as 0 it
        made a spike in az.plot_ppc, in the data and in the replicates alike), in place."""
        group["z"] = group["z"].where(z_and_mask(self.responses)[1] > 0)


def _check_constant(responses, z, mask):
    """Items with one value of z on every respondent (after clipping to the bounds) have no
    residual variance: their noise s_j would collapse to ~0 (a Heywood case), the posterior
    degenerates and the chains disagree; reject them."""
    observed = np.where(mask > 0, z, np.nan)
    constant = (np.nanmax(observed, axis=0) == np.nanmin(observed, axis=0)) & (mask.sum(0) > 1)
    if constant.any():
        n, labels = int(constant.sum()), [plain(x) for x in responses.items[constant][:5]]
        raise ValueError(
            f"{n} {responses.item_name}{' has' if n == 1 else 's have'} the same performance "
            f"on every {responses.respondent_name} (on the model scale, after clipping to the "
            f"bounds; e.g. {labels}): the model would explain "
            f"{'it' if n == 1 else 'them'} with zero noise, and its posterior degenerates; "
            f"drop {'it' if n == 1 else 'them'} (a constant {responses.item_name} tells nothing "
            f"about {responses.respondent_name} difficulty), e.g. responses.subset(items=[...] "
            "without them)" + (", or lower clip= if values differ only within it"
                               if responses.transform == "logit" else ""))


def identify(responses, idata, random_seed=None):
    """Fix the reflection (sum of loadings > 0 in every draw), add ``alpha``, ``beta``,
    ``gamma`` and exact draws of ``theta | z`` to the posterior (for a MAP fit its mode, the
    conditional mean), in place."""
    point = idata.attrs.get("irteval_method") == "map"
    post = idata.posterior
    z, mask = z_and_mask(responses)
    flip = reflection_signs(post["lam"].values)
    lam = post["lam"].values * flip
    tau, s = post["tau"].values, post["s"].values
    n_chain, n_draw = lam.shape[:2]
    rng = np.random.default_rng(random_seed)
    theta = np.empty((n_chain, n_draw, z.shape[0]))
    # theta_i | z_i: precision 1 + sum_j m_ij lambda_j^2 / s_j^2, mean
    # sum_j m_ij (lambda_j / s_j^2)(z_ij - tau_j) / precision: matrix products over the
    # datasets, in blocks of draws (elementwise over (draw, dataset, item) took 12 s at
    # 4 x 2000 draws of 6712 x 8)
    observed_z = (z * mask).T
    block = max(1, 4_000_000 // z.shape[0])
    for c in range(n_chain):
        for start in range(0, n_draw, block):
            sl = (c, slice(start, start + block))
            slope = lam[sl] / s[sl] ** 2  # (draws, items)
            prec = 1 + (slope * lam[sl]) @ mask.T
            mean = (slope @ observed_z - (slope * tau[sl]) @ mask.T) / prec
            theta[sl] = mean if point else mean + rng.standard_normal(prec.shape) / np.sqrt(prec)
    item, resp = ("chain", "draw", "item"), ("chain", "draw", "respondent")
    post["lam"] = (item, lam)
    post["gamma"] = (item, lam)
    for name, value in airt_parameters(tau, lam, s).items():
        post[name] = (item, value)
    post["theta"] = (resp, theta)
    idata.attrs["reflected_draws"] = float((flip < 0).mean())
    _check_modes(idata)
    return idata


def airt_parameters(tau, lam, s):
    """airt's discrimination alpha = lam / s and difficulty beta = -tau / lam of the model's
    (tau, lam, s) (its scaling gamma is lam: z = gamma (theta - beta) + s noise)."""
    return {"alpha": lam / s, "beta": -tau / lam}


def _check_modes(idata, rhat_max=1.05, lp_gap=1.0):
    """Warn when NUTS chains sit in different modes: after the reflection is fixed, some
    parameter's R-hat exceeds ``rhat_max`` and the chains' mean log densities differ."""
    stats = idata.get("sample_stats")
    name = next((n for n in ("lp", "logp") if stats is not None and n in stats), None)
    if name is None or idata.posterior.sizes["chain"] < 2:
        return
    lp = stats[name].mean("draw").values
    rhat = az.rhat(idata.posterior[["tau", "lam", "s"]]).to_array().max().item()
    idata.attrs["chain_mean_lp"] = lp.round(2).tolist()
    if rhat > rhat_max and np.ptp(lp) > lp_gap:
        low = np.flatnonzero(lp < lp.max() - lp_gap).tolist()
        warn_user(
            f"chains found different modes of the likelihood (mean log density per chain: "
            f"{lp.round(1).tolist()}; max R-hat {rhat:.2f}); chains {low} sit in lower ones. "
            + MODES_FIX, ConvergenceWarning)


#: what the warning of chains in different modes asks of the user
MODES_FIX = ("Use init='best' (the default) so every chain starts at the best of n_starts "
             "optimisations, raise n_starts, or keep only the chains in the best mode "
             "(idata.sel(chain=[...]))")


def multistart(model: ContinuousIRT, chains, random_seed=None) -> StartPoints:
    """Starting points from ``n_starts`` optimisations of the marginal posterior (one from the
    first principal component, the rest random). All chains start near the best optimum
    (``init="best"``) or at different optima (``init="dispersed"``)."""
    rng = np.random.default_rng(random_seed)
    z, mask = z_and_mask(model.responses)
    col_mean = (z * mask).sum(0) / mask.sum(0)
    col_sd = np.sqrt(((z - col_mean) ** 2 * mask).sum(0) / mask.sum(0)) + 1e-3
    filled = np.where(mask > 0, z, col_mean)
    _, _, vt = np.linalg.svd((filled - col_mean) / col_sd, full_matrices=False)
    pc = vt[0] * np.sign(vt[0].sum() or 1.0)
    starts = [(col_mean, 0.8 * col_sd * pc, 0.6 * col_sd)]
    for _ in range(model.n_starts - 1):
        starts.append((col_mean + 0.3 * col_sd * rng.standard_normal(len(col_sd)),
                       col_sd * rng.standard_normal(len(col_sd)),
                       col_sd * rng.uniform(0.2, 1.0, len(col_sd))))
    density = model.density()  # NumPy, on sufficient statistics: nothing to compile
    find = mode_finder_of(density)
    optima = []
    for tau, lam, s in starts:
        mode, logp, _ = find(density.layout.ravel({"tau": tau, "lam": lam,
                                                   "s_log__": np.log(s)}))
        if np.isfinite(logp):
            optima.append(({name: density.layout.take(mode, name)
                            for name in ("tau", "lam", "s_log__")}, logp))
    if not optima:
        raise RuntimeError("no optimisation of the continuous IRT posterior converged; "
                           "check the responses for extreme values")
    optima.sort(key=lambda o: -o[1])
    chosen = ([optima[k % len(optima)] for k in range(chains)] if model.init == "dispersed"
              else [optima[0]] * chains)
    inits = [{"tau": p["tau"] + 0.01 * rng.standard_normal(p["tau"].shape),
              "lam": p["lam"] + 0.01 * rng.standard_normal(p["lam"].shape),
              "s": np.exp(p["s_log__"] + 0.01 * rng.standard_normal(p["s_log__"].shape))}
             for p, _ in chosen]
    return StartPoints(per_chain=inits, best=optima[0][0],
                       log_densities=np.array([lp for _, lp in optima]))


def continuous_irt(responses: Responses, *, prior_tau=PRIORS["tau"], prior_lam=PRIORS["lam"],
                   prior_s=PRIORS["s"], init="best", n_starts=10) -> ContinuousIRT:
    """Bayesian continuous IRT of algorithms (items) on datasets (respondents):
    z_ij ~ Normal(gamma_j (theta_i - beta_j), |gamma_j / alpha_j|), theta_i ~ Normal(0, 1),
    for the transformed performance z (:attr:`Responses.z`), sampled as the factor model
    z_ij ~ Normal(tau_j + lambda_j theta_i, s_j) with the traits integrated out: gamma =
    lambda, beta = -tau / lambda, alpha = lambda / s (the module docstring and
    ``models/continuous_irt.md`` have the details).

    Priors on the sampling parameters: tau_j ~ N(0, prior_tau), lambda_j ~ N(0, prior_lam),
    log s_j ~ N(0, prior_s), on the scale of z (logits of the scaled performance). The
    log-normal keeps s_j away from 0, where a one-factor likelihood stays finite (a Heywood
    case: one algorithm explained exactly by the factor).
    The posterior holds ``tau``, ``lam``, ``s`` and, added by :func:`irteval.fit`,
    ``alpha`` (discrimination), ``beta`` (difficulty), ``gamma`` (scaling) per item and
    ``theta`` (easiness) per respondent, after the reflection is fixed
    (``az.summary(idata, var_names=["alpha", "beta", "gamma"])``: airt's parameters alone).

    The likelihood can have several local optima on real data. NUTS chains start from
    ``n_starts`` optimisations of the marginal posterior: all near the best one
    (``init="best"``), or each at a different one (``init="dispersed"``, to look for other
    modes); :func:`irteval.fit` warns when chains end in different modes.

    Parameters
    ----------
    responses : irteval.Responses
        Continuous responses (``Responses.from_wide(..., kind="continuous")``): datasets as
        respondents, algorithms as items; missing cells are left out of the likelihood. An
        item with one value of z on every respondent is refused.
    prior_tau : float, default 5.0
        Standard deviation of the normal prior on the intercepts tau_j (> 0).
    prior_lam : float, default 5.0
        Standard deviation of the normal prior on the loadings lambda_j (> 0).
    prior_s : float, default 1.0
        Standard deviation of the normal prior on the log residual sds log s_j (> 0).
    init : {"best", "dispersed"}, default "best"
        Where NUTS chains start: all near the best optimum, or each at a different one
        (by default sampled with PyMC's NUTS, the only backend here that takes a starting point
        per chain).
    n_starts : int, default 10
        Number of optimisations of the marginal posterior (one from the first principal
        component, the rest random).

    Returns
    -------
    ContinuousIRT
        A :class:`pymc.Model` with free ``tau``, ``lam`` and ``s`` (item) and observed ``z``
        (dims respondent, item; the traits integrated out), the raw ``performance`` and the
        bounds ``lower``, ``upper`` in its data.
    """
    return ContinuousIRT(responses, prior_tau=prior_tau, prior_lam=prior_lam, prior_s=prior_s,
                         init=init, n_starts=n_starts)
