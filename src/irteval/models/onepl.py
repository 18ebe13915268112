"""1PL (Rasch), 2PL, 3PL and 4PL item response models for binary responses.

    P(y_ij = 1) = c_i + (d_i - c_i) logistic(a_i (theta_j - b_i))
    a_i = 1 in the 1PL; the floor c_i = 0 but in the 3PL/4PL; the ceiling d_i = 1 but in the 4PL

Items i are test instances, respondents j are the models answering them.
Instance difficulties are hierarchical, b_i ~ Normal(mu_b, sigma_b), so an instance
every model got right still has a finite difficulty; abilities sum to zero, which
identifies the location exactly (a soft prior anchor lets mu_b and theta drift
together and mixes ~25x worse). The 1PL has an exact marginal form, difficulties
integrated out, with or without missing cells (:mod:`irteval.models.onepl_marginal`), that
:func:`irteval.fit` runs for MAP/Laplace and, where it is cheaper or the instances have few
answers, for NUTS.
See ``models/onepl.md``.
"""

from __future__ import annotations

import functools

import arviz as az
import numpy as np
import pymc as pm
import pytensor.tensor as pt
import xarray as xr

from .._draws import evenly_spaced
from .._idata import coordinate_index, model_idata
from .._validation import positive, true_or_false, warn_user
from ..data import Responses
from . import onepl_marginal
from ..exceptions import IdentificationWarning
from ..inference.diagnostics import ESS_PER_CHAIN, RHAT_MAX, as_compared
from .base import BaseModel, Marginal, bernoulli_logit_rv, predictive_draws
from .densities import BinaryIRTDensity, irt_probability
from .onepl_em import BinaryIRTEM

#: default prior scales: sd of the mean difficulty mu_b, half-normal scales of sigma_b and
#: sigma_theta (1PL) and of the log-discrimination spread sigma_log_a (2PL), and the sd
#: sigma_a of the multidimensional 2PL's loadings
PRIORS = {"mu_b": 3.0, "sigma_b": 2.0, "sigma_theta": 2.0, "sigma_log_a": 0.5, "sigma_a": 1.0}
#: the floor c_i ~ Beta with this mean (1 / n_options when given) and alpha + beta = 20
GUESS_MEAN, GUESS_CONCENTRATION = 0.1, 20.0
#: the slip s_i ~ Beta(1, 19): the ceiling d_i = 1 - s_i (1 - c_i) is 0.95 on average
SLIP_PRIOR = (1.0, 19.0)
#: answers per item on average from which a 2PL whose sigma_log_a mixed slowly is advised to
#: try ``centred=True`` (3PL/4PL: CENTRED_FROM_ASYMPTOTES; a floor or a ceiling leaves each
#: answer less to say about a_i): models/onepl.md
CENTRED_FROM, CENTRED_FROM_ASYMPTOTES = 200, 1000
#: ... with at least this many items (a 2PL with fewer: CENTRED_FROM_FEW_ITEMS answers each;
#: at 10 x 200 the centred form mixed worse once, at 10-30 x 1000-2000 far better) and a
#: spread sigma_log_a (posterior mean) of at least CENTRED_SPREAD (at 0.16 it mixed worse)
CENTRED_ITEMS, CENTRED_FROM_FEW_ITEMS, CENTRED_SPREAD = 50, 1000, 0.3
#: the fixes that advice names (the command line says them in its own words)
CENTRED_FIX = "refit with onepl(..., centred=True)"
UNCENTRED_FIX = "refit with centred=False (the default)"
#: NUTS samples the collapsed 1PL where instances have at most this many answers on average
#: (``OnePL._collapsible``): measured better at 8 and 10 respondents, slower at 15 and 20
FEW_ANSWERS = 12


def guess_prior(n_options=None):
    """(alpha, beta) of the floor's Beta prior: mean 1 / n_options (GUESS_MEAN without it),
    alpha + beta = GUESS_CONCENTRATION."""
    mean = GUESS_MEAN if n_options is None else 1.0 / n_options
    return GUESS_CONCENTRATION * mean, GUESS_CONCENTRATION * (1 - mean)


def _answer_matrix(responses):
    """The items x respondents 0/1 matrix of complete binary responses, as int8 (a float copy
    of 20000 x 2000 answers is 320 MB)."""
    return responses.dense(rows="item", dtype=np.int8)


class OnePL(BaseModel):
    """The 1PL to 4PL as a PyMC model (build it with :func:`onepl`)."""

    family = "binary_irt"
    sampler = "nutpie"  # on the NumPy density (or the collapsed one): nothing to compile

    def __init__(self, responses: Responses, *, discrimination=False, guessing=False,
                 n_options=None, slip=False, prior_scale=None, batch_size=None, centred=False):
        if not isinstance(responses, Responses):
            raise TypeError(
                f"expected irteval.Responses, got {type(responses).__name__}; build one with "
                "Responses.from_long or Responses.from_wide")
        if responses.kind != "binary":
            raise ValueError(f"the 1PL/2PL needs binary responses, got kind={responses.kind!r}")
        priors = dict(PRIORS)
        if prior_scale is not None and not isinstance(prior_scale, dict):
            raise TypeError(f"prior_scale must be a dict {{name: scale}}, e.g. "
                            f"{{'sigma_theta': 2.0}}, got {prior_scale!r}; known names: "
                            f"{sorted(priors)}")
        unknown = set(prior_scale or {}) - set(priors)
        if unknown:
            raise ValueError(f"unknown prior_scale keys {sorted(unknown)}; known: {sorted(priors)}")
        used = self.prior_names(discrimination)
        unused = set(prior_scale or {}) - used
        if unused:  # taken without a word, and recorded in the fit's attrs as if they applied
            raise ValueError(f"prior_scale keys {sorted(unused)} belong to no prior of this "
                             f"model; its prior scales are {sorted(used)} (sigma_theta: the "
                             "1PL's; sigma_log_a: the 2PL/3PL/4PL's; sigma_a: dims > 1)")
        priors = {k: positive((prior_scale or {}).get(k, v), f"prior_scale[{k!r}]")
                  for k, v in priors.items() if k in used}
        if batch_size is not None and not (isinstance(batch_size, (int, np.integer))
                                           and not isinstance(batch_size, (bool, np.bool_))
                                           and 0 < batch_size < responses.n_obs):
            raise ValueError(f"batch_size must be an integer between 1 and the number of "
                             f"observed cells - 1 ({responses.n_obs - 1}), got {batch_size!r}")
        if n_options is not None and not guessing:
            raise ValueError("n_options= sets the prior of the guessing floor: pass "
                             "guessing=True with it (or drop n_options=)")
        if n_options is not None and not (isinstance(n_options, (int, np.integer))
                                          and n_options >= 2):
            raise ValueError(f"n_options must be an integer >= 2 (a single option leaves "
                             f"nothing to guess: drop guessing=True), got {n_options!r}")
        if (guessing or slip) and not discrimination:
            raise ValueError("guessing= and slip= add asymptotes to the 2PL (the 3PL / 4PL): "
                             "pass discrimination=True with them")
        if (guessing or slip) and batch_size is not None:
            raise ValueError("batch_size= (minibatch ADVI) is for the 1PL/2PL; drop it with "
                             "guessing= or slip=")
        true_or_false(centred, "centred", " (default False)")
        if centred and not discrimination:
            raise ValueError("centred= sets the form of the 2PL's discriminations: pass "
                             "discrimination=True with it (or drop centred=)")
        _warn_extremes(responses)
        if responses.n_items < MIN_ITEMS:
            warn_user(f"only {responses.n_items} {responses.item_name}s: each "
                      f"{responses.respondent_name}'s ability rests on {responses.n_items} "
                      "answers, so the abilities' spread sigma_theta is barely identified and "
                      "NUTS may diverge or mix slowly whatever target_accept= or draws=; give "
                      f"more {responses.item_name}s, or read the abilities as mostly the prior",
                      IdentificationWarning)
        complete = responses.n_obs == responses.n_items * responses.n_respondents
        coords = {"item": np.asarray(responses.items),
                  "respondent": np.asarray(responses.respondents)}
        if not complete and batch_size is None:
            # observed cells; constant_data's item_idx / respondent_idx point into the labelled
            # item and respondent coords (a label per cell would cost more than the data)
            coords["obs"] = np.arange(responses.n_obs)
        super().__init__(coords=coords)
        self._build_args = ((responses,), {"discrimination": discrimination,
                                           "guessing": guessing, "n_options": n_options,
                                           "slip": slip, "prior_scale": prior_scale,
                                           "batch_size": batch_size, "centred": centred})
        self.responses, self.priors = responses, priors
        self.discrimination, self.batch_size, self.complete = discrimination, batch_size, complete
        self.guess_prior = guess_prior(n_options) if guessing else None
        self.slip_prior = SLIP_PRIOR if slip else None
        self.n_options = n_options
        #: the 2PL's log discriminations: centred (``log_a``) or not (``a_z``); None: the 1PL
        self.centred = bool(centred) if discrimination else None
        # the 2PL's hyperparameters mix better with the longer trajectories (models/onepl.md)
        self.target_accept = 0.95 if discrimination else 0.9
        self.is_minibatch = batch_size is not None
        self._declare()

    def _declare(self):
        r, scale = self.responses, self.priors
        mu_b = pm.Normal("mu_b", 0.0, scale["mu_b"])
        sigma_b = pm.HalfNormal("sigma_b", scale["sigma_b"])
        b = pm.Normal("b", mu_b, sigma_b, dims="item")
        if self.discrimination:
            theta = pm.ZeroSumNormal("theta", sigma=1.0, dims="respondent")
            sigma_log_a = pm.HalfNormal("sigma_log_a", scale["sigma_log_a"])
            # 30-odd binary answers say little about one instance's a_i: the centred form
            # mixed worse there; with thousands the non-centred sigma_log_a mixed slowly
            log_a = (pm.Normal("log_a", 0.0, sigma_log_a, dims="item") if self.centred
                     else sigma_log_a * pm.Normal("a_z", 0.0, 1.0, dims="item"))
            a = pm.Deterministic("a", pm.math.exp(log_a), dims="item")
        else:
            sigma_theta = pm.HalfNormal("sigma_theta", scale["sigma_theta"])
            theta = pm.ZeroSumNormal("theta", sigma=sigma_theta, dims="respondent")
            a = 1.0
        # float64 parameters: PyTensor reads 5.0 as float32, and the Beta's gammaln with it
        floor = (pm.Beta("c", *np.float64(self.guess_prior), dims="item") if self.guess_prior
                 else 0.0)
        ceiling = (pm.Deterministic("d", 1 - pm.Beta("slip", *np.float64(self.slip_prior),
                                                     dims="item") * (1 - floor), dims="item")
                   if self.slip_prior else 1.0)
        if self.asymptotes:  # 3PL / 4PL: P = c + (d - c) logistic(eta)
            self._declare_asymptotes(theta, b, a, floor, ceiling)
        else:
            if self.batch_size is not None:  # minibatch ADVI: random cells, likelihood scaled up
                *cells, y = pm.Minibatch(r.item_idx, r.respondent_idx,
                                         r.values.astype(np.int32), batch_size=self.batch_size)
                where = {"observed": y, "total_size": r.n_obs}
            else:
                *cells, observed, dims = self._cells()
                where = {"observed": observed, "dims": dims}
            i, j = cells
            eta = (a[i] if self.discrimination else a) * (theta[j] - b[i])
            bernoulli_logit_rv("y", eta, **where)

    def _cells(self):
        """Where the likelihood runs: the items' and respondents' indices, the answers and
        their dims. A complete matrix as it is (items down, respondents across: no index
        gathers, about twice as fast), else the observed cells only."""
        r = self.responses
        if self.complete:
            return ((slice(None), None), (None, slice(None)), _answer_matrix(r),
                    ("item", "respondent"))
        return (pm.Data("item_idx", r.item_idx, dims="obs"),
                pm.Data("respondent_idx", r.respondent_idx, dims="obs"), r.values, "obs")

    def _declare_asymptotes(self, theta, b, a, c, d):
        """y ~ Bernoulli(c + (d - c) logistic(a (theta - b))), over the dense matrix or the
        observed cells. Without a ceiling (d = 1, the 3PL) as its logit,
        log p - log(1 - p) with log p = logaddexp(log c, log1p(-c) - softplus(-eta)) and
        log(1 - p) = log1p(-c) - softplus(eta): p itself rounds to 1 for eta above ~37, where
        log(1 - p) of a wrong answer is -inf (ADVI's NaN)."""
        a, c, d = (x * pt.ones_like(b) for x in (a, c, d))  # per item, constants included
        i, j, observed, dims = self._cells()
        eta = a[i] * (theta[j] - b[i])
        if self.slip_prior is None:
            log1m_c = pt.log1p(-c[i])
            log_p = pm.math.logaddexp(pt.log(c[i]), log1m_c - pt.softplus(-eta))
            bernoulli_logit_rv("y", log_p - log1m_c + pt.softplus(eta), observed=observed,
                               dims=dims)
        else:
            pm.Bernoulli("y", p=c[i] + (d - c)[i] * pm.math.sigmoid(eta), observed=observed,
                         dims=dims)

    @property
    def asymptotes(self):
        """Whether the model has a floor or a ceiling (the 3PL / 4PL)."""
        return self.guess_prior is not None or self.slip_prior is not None

    def prior_names(self, discrimination):
        """The :data:`PRIORS` scales this model uses."""
        return {"mu_b", "sigma_b", "sigma_log_a" if discrimination else "sigma_theta"}

    @property
    def variant(self):
        """'1pl', '2pl', '3pl' (the 2PL with a floor or a ceiling) or '4pl' (both)."""
        extra = (self.discrimination, self.guess_prior is not None, self.slip_prior is not None)
        return f"{1 + sum(extra)}pl"

    # ------------------------------------------------------------------ for fit
    def convergence_advice(self, idata):
        """Where sigma_log_a mixed slowly (R-hat above RHAT_MAX, or a bulk ESS below
        ESS_PER_CHAIN a chain), the other form of the log discriminations when the data
        point to it (``models/onepl.md``)."""
        post = idata.posterior
        if self.centred is None or "sigma_log_a" not in post:
            return None
        chains = post.sizes["chain"]
        rhat = float(az.rhat(post[["sigma_log_a"]])["sigma_log_a"]) if chains > 1 else 1.0
        ess = float(az.ess(post[["sigma_log_a"]])["sigma_log_a"])
        if not (np.isfinite(rhat) and np.isfinite(ess)) or (
                rhat <= RHAT_MAX and ess >= ESS_PER_CHAIN * chains):
            return None  # (undefined: check_nuts says so)
        r = self.responses
        per_item = r.n_obs / r.n_items
        rhat_text = f"R-hat {as_compared(rhat, RHAT_MAX)}, " if chains > 1 else ""
        mixed = f"sigma_log_a mixed slowly ({rhat_text}bulk ESS {ess:.0f})"
        if self.centred:
            return (f"{mixed} with centred discriminations, which need dozens of "
                    f"{r.item_name}s, each discrimination pinned by its answers ({per_item:.0f} "
                    f"on average here) well inside their spread: {UNCENTRED_FIX}")
        spread = float(post["sigma_log_a"].mean())
        if self.asymptotes:  # (with fewer items: not measured)
            enough = per_item >= CENTRED_FROM_ASYMPTOTES and r.n_items >= CENTRED_ITEMS
        else:
            enough = per_item >= (CENTRED_FROM if r.n_items >= CENTRED_ITEMS
                                  else CENTRED_FROM_FEW_ITEMS)
        if enough and spread >= CENTRED_SPREAD:
            return (f"{mixed}: with {per_item:.0f} answers per {r.item_name} on average and "
                    f"discriminations spread out (sigma_log_a {spread:.2f}), each is likely "
                    "pinned by its answers while the non-centred sigma_log_a slides along a "
                    f"ridge with every a_z: {CENTRED_FIX} and compare the two fits' "
                    "diagnostics")
        return None

    def postprocess(self, idata, random_seed):
        """A minibatch fit's observed cells as the missing-cell model stores them: PyMC's
        ``Minibatch`` leaves the full data on an unnamed dim, without the cells' indices."""
        if self.batch_size is None:
            return
        r, cells = self.responses, {"obs": np.arange(self.responses.n_obs)}
        del idata["observed_data"]
        idata.add_groups(
            observed_data=xr.Dataset({"y": ("obs", r.values.astype(np.int64))}, coords=cells),
            constant_data=xr.Dataset({"item_idx": ("obs", r.item_idx),
                                      "respondent_idx": ("obs", r.respondent_idx)},
                                     coords=cells))

    def fit_attrs(self):
        return {
            "irteval_family": self.family, "irteval_model": self.variant,
            "guessing": int(self.guess_prior is not None), "slip": int(self.slip_prior is not None),
            **({"n_options": int(self.n_options)} if self.n_options else {}),
            "item_name": self.responses.item_name,
            "respondent_name": self.responses.respondent_name, "complete": int(self.complete),
            **({"minibatch": int(self.batch_size)} if self.batch_size is not None else {}),
            **({"centred": int(self.centred)} if self.centred is not None else {}),
            **{f"prior_{k}": v for k, v in self.priors.items()},
            **({"prior_c": list(self.guess_prior)} if self.guess_prior else {}),
            **({"prior_slip": list(self.slip_prior)} if self.slip_prior else {}),
        }

    def _collapsible(self, method):
        """The 1PL collapses on any data; for NUTS where that is cheaper or the dense
        posterior mixes badly. A gradient of the collapsed form costs ~ patterns x grid x
        respondents (a pattern: a distinct set of answering respondents; rows x grid x
        respondents in one product where nearly every row, a pattern with a number correct,
        has its own pattern), the dense one ~ items x respondents, and drawing the
        difficulties afterwards ~ draws x rows x grid, so NUTS collapses when patterns x grid
        <= items: a complete matrix (one pattern) or missingness in blocks with more items
        than grid points. Measured with scattered missing cells (10% MCAR, 4 x 1000 draws),
        collapsed against dense: 1000 x 20 (805 rows) 0.50 against 0.15 ms a gradient, 20 s
        against 23 s end to end, but 160 against 200 bulk ESS of b a second; 300 x 30 and
        200 x 200: half and a quarter of the dense ESS a second. A complete 30 x 100 (108 grid
        points): 42 s against 19 s.

        It also collapses where the instances have at most :data:`FEW_ANSWERS` answers on
        average: each difficulty is then weakly identified and the dense posterior's centred
        hierarchy mixes badly (complete 30 x 8, three data sets: R-hat 1.06 and 1.28 with 35
        and 292 divergences in two, against at most 1.006 and 1 collapsed), while few
        respondents keep the patterns few (10% MCAR at 5000 x 10: 221 patterns; collapsed
        13.4 s and bulk ESS 3101 against 26.3 s and 792 dense; benchmarks/few_answers.py)."""
        if self.discrimination or self.asymptotes or self.batch_size is not None:
            return False
        r = self.responses
        n_grid = len(onepl_marginal.z_grid(r.n_respondents))
        return (method != "nuts" or r.n_obs <= FEW_ANSWERS * r.n_items
                or len(self.item_rows.patterns) * n_grid <= r.n_items)

    @functools.cached_property
    def item_rows(self):
        """The collapsed model's sufficient statistics (:class:`~.onepl_marginal.ItemRows`)."""
        return onepl_marginal.ItemRows.from_responses(self.responses)

    def no_mode_reason(self, marginal, method):
        if marginal or (method == "map" and self.variant == "2pl" and not self.is_minibatch):
            return None
        if self.asymptotes:
            return ("MAP/Laplace are not available for the 3PL/4PL (the EM mode is the 2PL's); "
                    "use method='nuts' (the default) or method='advi'")
        if self.variant == "2pl" and not self.is_minibatch:  # (method: laplace)
            return ("a Laplace approximation of the 2PL is not available yet (its per-item "
                    "Gaussians under-cover: 73% in a 90% interval); use method='map' (its "
                    "EM mode, one point), method='advi' or method='nuts' (the default)")
        return ("MAP/Laplace need a posterior mode, and the joint density of this hierarchical "
                "model has none (it grows without bound as its scale sigma_b -> 0). "
                "MAP and Laplace fit the 1PL through its collapsed model (drop collapse=False); "
                "or use method='nuts' or method='advi'")

    def marginal_mode(self):
        """The 2PL's MAP: EM with the abilities integrated out (:mod:`.onepl_em`)."""
        if self.variant != "2pl" or self.is_minibatch:
            return None
        return BinaryIRTEM(self).fit().mode()

    def marginal(self, method="nuts"):
        if not self._collapsible(method):
            return None
        rows, coords = self.item_rows, {"respondent": self.coords["respondent"]}
        return Marginal(functools.partial(onepl_marginal.marginal_model, rows,
                                          coords["respondent"], self.priors), coords,
                        density=onepl_marginal.MarginalDensity(rows, self.priors))

    def density(self):
        return None if self.is_minibatch else BinaryIRTDensity(self)

    def cell_coords(self):
        if "obs" not in self.coords and self.batch_size is None:  # (minibatch: postprocess)
            return {}
        r = self.responses
        return {"obs": {"obs_item": np.asarray(r.items)[r.item_idx],
                        "obs_respondent": np.asarray(r.respondents)[r.respondent_idx]}}

    def density_tune(self):
        """500 warm-up steps on nutpie (its own default is 300) for the collapsed 1PL (the
        same R-hat and ESS as 1000 at 1000 x 20, 20000 x 200 and on the bundled matrices) and
        the 1PL's and 2PL's dense density (R-hat and bulk ESS as with 1000): models/onepl.md,
        benchmarks/README.md. The 3PL and 4PL keep 1000."""
        return 500 if self.variant in ("1pl", "2pl") else None

    def complete_marginal(self, marginal_idata, rng, point_only):
        post = marginal_idata.posterior
        n_chain, n_draw = post.sizes["chain"], post.sizes["draw"]

        def flat(name):
            return post[name].values.reshape(n_chain * n_draw, *post[name].shape[2:])

        b = onepl_marginal.draw_difficulties(self.item_rows, flat("mu_b"), flat("sigma_b"),
                                             flat("theta"), rng, mode=point_only)
        posterior = post.drop_vars(["marginal_loglik"], errors="ignore").assign_coords(
            item=coordinate_index(self.coords["item"])).assign(
            b=(("chain", "draw", "item"), b.reshape(n_chain, n_draw, -1)))
        idata = az.InferenceData(posterior=posterior)
        if "sample_stats" in marginal_idata.groups():
            idata.add_groups(sample_stats=marginal_idata.sample_stats)
        idata.extend(model_idata(self))
        idata.attrs["collapsed"] = 1
        return idata

    def posterior_predictive(self, idata, model, random_seed):
        """Replicated answers ``y`` and two checks that say something: each respondent's
        ``accuracy`` and each item's ``n_correct`` (also added to ``observed_data``). Drawn in
        NumPy a draw at a time, from the draws :func:`~irteval.models.base.predictive_draws`
        keeps."""
        r = self.responses
        n_chain, per_chain = idata.posterior.sizes["chain"], predictive_draws(idata, r.n_obs)
        post = idata.posterior.isel(draw=evenly_spaced(idata.posterior.sizes["draw"], per_chain))
        values = {name: post[name].values for name in ("b", "theta", "a", "c", "d")
                  if name in post}
        rng = np.random.default_rng(random_seed)
        y = np.empty((n_chain, per_chain, r.n_obs), dtype=np.int8)
        i, j = r.item_idx, r.respondent_idx
        for c in range(n_chain):
            for d in range(per_chain):
                draw = {name: v[c, d] for name, v in values.items()}
                p = irt_probability(self.cell_logits(draw, i, j),
                                    draw["c"][i] if "c" in draw else 0.0,
                                    draw["d"][i] if "d" in draw else 1.0)
                y[c, d] = rng.random(r.n_obs) < p
        replicated = _answer_checks(r, y)
        observed = _answer_checks(r, r.values[None, None, :])
        if "obs" in self.coords:
            replicated["y"] = (("chain", "draw", "obs"), y)
        else:
            wide = np.zeros((n_chain, per_chain, r.n_items, r.n_respondents), dtype=np.int8)
            wide[..., r.item_idx, r.respondent_idx] = y
            replicated["y"] = (("chain", "draw", "item", "respondent"), wide)
        coords = {"chain": post["chain"], "draw": post["draw"], "item": post["item"],
                  "respondent": post["respondent"]}
        if "obs" in self.coords:
            coords["obs"] = np.asarray(self.coords["obs"])
        idata.add_groups(posterior_predictive=xr.Dataset(replicated, coords=coords))
        idata.observed_data = idata.observed_data.assign(
            {k: (dims[2:], v[0, 0]) for k, (dims, v) in observed.items()}).assign_coords(
            item=post["item"], respondent=post["respondent"])

    def cell_logits(self, draw, i, j):
        """eta = a (theta - b) at cells (item i, respondent j) for one posterior draw
        {name: value}."""
        a = draw["a"][i] if "a" in draw else 1.0
        return a * (draw["theta"][j] - draw["b"][i])

    def diagnostic_subset(self, marginal):
        if not marginal:
            return None
        # items of one row (pattern, number correct) share one conditional of b: one of each
        return {"item": np.unique(self.item_rows.item_row, return_index=True)[1]}


def _answer_checks(responses, y):
    """{name: (dims, values)}: each respondent's accuracy and each item's number correct, for
    answers y of shape (chain, draw, observed cell)."""
    r = responses
    lead = y.shape[:2]
    flat = y.reshape(-1, r.n_obs).astype(float)
    per_resp = np.stack([np.bincount(r.respondent_idx, w, r.n_respondents) for w in flat])
    per_item = np.stack([np.bincount(r.item_idx, w, r.n_items) for w in flat])
    n_resp = np.bincount(r.respondent_idx, minlength=r.n_respondents)
    return {"accuracy": (("chain", "draw", "respondent"),
                         (per_resp / n_resp).reshape(*lead, -1)),
            "n_correct": (("chain", "draw", "item"),
                          per_item.reshape(*lead, -1).round().astype(np.int64))}


def onepl(responses: Responses, *, discrimination=False, guessing=False, n_options=None,
          slip=False, dims=1, anchors=None, prior_scale=None, batch_size=None, centred=False):
    """Build the 1PL (or, with ``discrimination=True``, the 2PL, 3PL or 4PL) as a PyMC model:
    P(y_ij = 1) = logistic(a_i (theta_j - b_i)) for item (instance) i and respondent (model)
    j, a_i = 1 in the 1PL; b_i ~ Normal(mu_b, sigma_b); the abilities theta_j sum to zero.

    Parameters
    ----------
    responses : Responses
        Binary responses; missing cells are simply not in the likelihood.
    discrimination : bool
        Add a positive discrimination ``a_i`` per item (2PL). a_i absorbs the ability
        scale, so the prior sets it: theta ~ ZeroSumNormal(1), abilities whose sum is 0 in
        every draw and whose spread is about 1 (not exactly: it varies from draw to draw).
    guessing : bool
        With ``discrimination=True``: a floor c_i per item (3PL), P = c_i + (d_i - c_i)
        logistic(a_i (theta - b_i)), c_i ~ Beta with mean ``1 / n_options`` (0.1 without it)
        and alpha + beta = 20: the chance a model that knows nothing is right (multiple
        choice).
    n_options : int, optional
        Number of answer options (>= 2), centring the floor's prior on 1 / n_options.
    slip : bool
        With ``discrimination=True``: a ceiling d_i = 1 - s_i (1 - c_i) per item (4PL with
        ``guessing=True``), slip s_i ~ Beta(1, 19): instances that even strong models miss
        (a wrong gold label).
    dims : int
        Number of latent skills. With ``discrimination=True`` and ``dims`` > 1: the
        multidimensional (compensatory) 2PL, P = logistic(sum_k a_ik theta_jk - b_i) (b_i an
        intercept, not a difficulty on the abilities' scale), with
        loadings ``a`` (item, skill) lower-triangular on the anchor items
        (:mod:`irteval.models.multidimensional`).
    anchors : list, optional
        With ``dims`` > 1: the ``dims`` items whose loadings fix the skills' rotation (anchor
        m loads on skills 1..m only); default the first ``dims`` items. Choose instances
        that clearly need different skills.
    prior_scale : dict, optional
        Override prior scales (:data:`PRIORS`): ``mu_b`` (sd of the mean difficulty, default
        3), ``sigma_b`` (half-normal scale, default 2), and per variant ``sigma_theta`` (the
        1PL's half-normal scale of the abilities' spread, default 2), ``sigma_log_a`` (the
        2PL/3PL/4PL's half-normal scale of the log-discrimination spread, default 0.5) or
        ``sigma_a`` (the multidimensional 2PL's a_ik ~ N(0, sigma_a), every loading before
        rotation, default 1); a key the variant has no prior for is refused.
    batch_size : int, optional
        Minibatch model for ``fit(method="advi")``: each optimisation step evaluates the
        likelihood on ``batch_size`` random observed cells, scaled by n_obs / batch_size
        (``total_size``), so time and memory per step do not grow with the matrix.
    centred : bool
        The 2PL-4PL's log discriminations non-centred (default), ``a_z ~ Normal(0, 1)`` and
        log a = sigma_log_a a_z, or centred, ``log_a ~ Normal(0, sigma_log_a)``. Centred
        mixed sigma_log_a up to ten times better where each item had hundreds of answers
        with spread-out discriminations (the 2PL: measured from 300 answers with 50 items,
        from 1000 with 10-30; with a floor, level at 1000); non-centred where items have few
        answers (at 10 items x 200 the centred form reached R-hat 1.17) or nearly equal
        discriminations. A fit records the form in ``idata.attrs["centred"]`` and, where
        sigma_log_a mixed slowly, says which to try (``models/onepl.md``).

    Returns
    -------
    OnePL
        A :class:`pymc.Model` with free variables ``mu_b``, ``sigma_b``, ``b`` (item
        difficulty), ``theta`` (ability, summing to zero: that fixes the location) and
        ``sigma_theta`` (1PL) or ``sigma_log_a`` and ``log_a`` or ``a_z`` (2PL, as
        ``centred``, with deterministic ``a``), ``c`` (floor), ``slip`` and deterministic ``d``
        (ceiling). Observed ``y`` over dims (item, respondent), or ``obs`` when cells are
        missing. With ``dims`` > 1: ``theta`` over (skill, respondent) and ``a`` (item, skill),
        sampled in any rotation; ``fit`` rotates each draw to the anchors' frame (loadings
        above the diagonal 0) and adds ``a_free``, the loadings not fixed at 0: the zeros in
        ``a`` have no R-hat (``az.summary`` gives NaN with a RuntimeWarning), so summarise
        ``az.summary(idata, var_names=["~a"])``, which keeps ``a_free``.
    """
    from . import multidimensional  # (it subclasses OnePL)

    for name, flag in (("discrimination", discrimination), ("guessing", guessing),
                       ("slip", slip)):
        true_or_false(flag, name, "; the floor's prior is set by n_options= (e.g. n_options=4 "
                      "centres it on 1/4)" if name == "guessing" else "")
    if isinstance(anchors, (str, bytes)):
        raise TypeError(f"anchors= is a list of {dims} "
                        f"{getattr(responses, 'item_name', 'item')} labels, one per "
                        f"skill, got the string {anchors!r}; e.g. anchors=[{anchors!r}, ...]")
    if anchors is not None and dims == 1:
        raise ValueError("anchors= fixes the rotation of several skills: pass dims= > 1 with "
                         "it (or drop anchors=)")
    multidimensional.check_dims(responses, dims, discrimination, guessing, slip, batch_size,
                                n_options)
    if dims > 1 and centred is not False:
        raise ValueError("centred= sets the form of the one-skill 2PL's log discriminations; "
                         "the loadings of dims > 1 are a_ik ~ Normal(0, sigma_a): drop it")
    if dims > 1:
        return multidimensional.MultidimensionalIRT(responses, dims=dims, anchors=anchors,
                                                    prior_scale=prior_scale)
    return OnePL(responses, discrimination=discrimination, guessing=guessing,
                 n_options=n_options, slip=slip, prior_scale=prior_scale, batch_size=batch_size,
                 centred=centred)


#: fewer items than this: a warning (each ability rests on a handful of answers)
MIN_ITEMS = 5
#: what an IdentificationWarning about all-right / all-wrong answers asks of the user
EXTREMES_FIX = ("the posterior is proper, and wide intervals say how little is known; "
                "Responses.subset drops them if they should not count")


def _warn_extremes(responses: Responses):
    """Warn about items every respondent answered correctly (or wrongly) and respondents with
    every answer right (or wrong): the likelihood alone would push their difficulty (ability)
    to infinity, so only the prior keeps it finite. The posterior is still proper, but such
    estimates mostly restate the prior. Every answer alike gets one warning that says so (a
    fit of it is its prior, still a posterior: simulation-based calibration fits such draws
    of the prior)."""
    margins = responses.margins
    right = int(margins["item_sum"].sum())
    if right in (0, responses.n_obs):  # three warnings said it in parts
        value = int(right > 0)
        warn_user(f"every one of the {responses.n_obs} answers is {value} "
                  f"({'right' if value else 'wrong'}): they say nothing about which "
                  f"{responses.item_name}s are harder or which {responses.respondent_name}s "
                  "are stronger, so the fit returns its prior; check the value column (a "
                  f"conversion that made every answer {value}?)", IdentificationWarning)
        return
    complete = responses.n_obs == responses.n_items * responses.n_respondents
    for labels, key, name, other, what in (
            (responses.items, "item", responses.item_name, responses.respondent_name,
             ("difficulty", "difficulties")),
            (responses.respondents, "respondent", responses.respondent_name,
             responses.item_name, ("ability", "abilities"))):
        n, right = margins[f"{key}_n"], margins[f"{key}_sum"]
        for extreme, how, got in ((right == n, "correctly", "right"),
                                  (right == 0, "wrongly", "wrong")):
            count = int(extreme.sum())
            if not count:
                continue
            one = count == 1
            asked = "" if complete else (" that answered it" if one else " that answered them")
            given = "" if complete else (" it answered" if one else " they answered")
            who = (f"{'was' if one else 'were'} answered {how} by every {other}{asked}"
                   if key == "item" else f"got every {other}{given} {got}")
            whose = f"its {what[0]} is" if one else f"their {what[1]} are"
            warn_user(f"{count} {name}{'' if one else 's'} {who} (e.g. "
                      f"{list(labels[extreme][:5])}): {whose} identified only by the prior "
                      f"({EXTREMES_FIX})", IdentificationWarning)
