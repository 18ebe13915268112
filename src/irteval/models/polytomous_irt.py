"""Polytomous IRT (AIRT, paper 3): datasets (respondents) reach an ordered performance level
x_ij in {0, ..., C_j - 1} on each algorithm (item). Sampled in slope-intercept form,

    GPCM (``model="gpcm"``, mirt's ``gpcm`` as airt fits it):
        P(x_ij = k | theta_i) ∝ exp(sum_{v=1..k} (a_j theta_i - c_jv)),   k = 0..C_j - 1
    graded response (``model="graded"``, Samejima):
        P(x_ij >= k | theta_i) = logistic(a_j theta_i - c_jk),   c_j1 < c_j2 < ...

theta_i ~ N(0, 1), a_j ~ N(0, prior_a) (a_j < 0: an anomalous algorithm, better on harder
datasets), GPCM step intercepts c_jv ~ N(0, prior_c); graded: c_j1 ~ N(0, prior_c) and log
gaps ~ N(0, 1). The thresholds in the a_j (theta - d) form are d_jv = c_jv / a_j (airt's
``b``); the difficulty limit is -d_{j,C_j-1}. Each item keeps the levels from its lowest to
its highest used one (C_j may differ between items); a proper prior keeps the threshold of a
sparse level finite (neither diverging nor forcing the level away). The likelihood is
unchanged by (theta, a) -> (-theta, -a): each draw is reflected so that sum_j a_j > 0.
Missing cells are left out: the observed ``x`` then holds the observed cells alone
(dim ``obs``, labelled ``obs_respondent``/``obs_item``). See ``models/polytomous_irt.md``.
"""

from __future__ import annotations

import numpy as np
import pymc as pm
import pytensor
import pytensor.tensor as pt
from pytensor.tensor.extra_ops import searchsorted

from .._validation import plain, positive, warn_user
from ..data import Responses
from ..exceptions import IdentificationWarning
from .base import BaseModel, reflection_signs, warn_few_respondents
from .densities import GPCMDensity, GradedDensity, softplus

MODELS = ("gpcm", "graded")
#: prior scales: a_j ~ N(0, a), intercepts c ~ N(0, c)
PRIORS = {"a": 2.0, "c": 3.0}
#: an intercept beyond an item's top level (P = 0 for it)
_CLOSED = 1e4


def category_logp(theta, a, c, valid, model, xp=pt):
    """log P(x_ij = k) for every category k: theta (..., I), a (..., J), c (..., J, S)
    -> (..., I, J, S + 1); categories an item does not have get about -1e4 or less."""
    eta = a[..., None, :] * theta[..., :, None]  # (..., I, J)
    steps = xp.arange(c.shape[-1] + 1)
    if model == "gpcm":
        cum = xp.concatenate([xp.zeros_like(c[..., :1]), xp.cumsum(c, axis=-1)], axis=-1)
        logits = steps * eta[..., None] - cum[..., None, :, :]
        logits = xp.where(valid, logits, -_CLOSED)
        top = logits.max(axis=-1, keepdims=True)
        return logits - top - xp.log(xp.exp(logits - top).sum(axis=-1, keepdims=True))
    # graded: P(x >= k) for k = 1..S from the ordered intercepts, then differences
    c = xp.where(valid[..., 1:], c, _CLOSED)
    u = eta[..., None] - c[..., None, :, :]  # (..., I, J, S)
    log_ge = -softplus(-u, xp)  # log P(x >= k)
    zero = xp.zeros_like(u[..., :1])
    upper = xp.concatenate([zero, log_ge], axis=-1)  # log P(x >= k), k = 0..S
    lower = xp.concatenate([log_ge, zero - 2 * _CLOSED], axis=-1)  # log P(x >= k + 1)
    return upper + _log1mexp(lower - upper, xp)


def _log1mexp(x, xp):
    """log(1 - exp(x)) for x < 0."""
    x = xp.minimum(x, -1e-12)
    return xp.where(x > -0.693, xp.log(-xp.expm1(x)), xp.log1p(-xp.exp(x)))



def draw_levels(logp, rng):
    """A level (0, 1, ...) for each cell from its log probabilities over the levels (the last
    axis), by the inverse CDF of one uniform per cell."""
    cdf = np.cumsum(np.exp(logp), axis=-1)
    return (rng.random(cdf.shape[:-1] + (1,)) * cdf[..., -1:] > cdf).sum(axis=-1)

class PolytomousIRT(BaseModel):
    """The polytomous IRT of AIRT (build it with :func:`polytomous_irt`)."""

    family = "polytomous_irt"
    sampler = "nutpie"
    # adjacent step intercepts of a sparse level are strongly anti-correlated: with a diagonal
    # mass matrix the smallest bulk ESS was 219 (R-hat 1.02) at 200 x 12, with nutpie's
    # low-rank one 2779 (R-hat 1.005), in the same time
    nutpie_options = {"low_rank_modified_mass_matrix": True}
    # c / a ratios (the thresholds d) are Cauchy-tailed where a ~ 0: checks use the rest
    diagnostic_vars = ("a", "c", "theta")

    def __init__(self, responses: Responses, *, model="gpcm", prior_a=PRIORS["a"],
                 prior_c=PRIORS["c"]):
        if not isinstance(responses, Responses):
            raise TypeError(f"expected irteval.Responses, got {type(responses).__name__}")
        if responses.kind != "ordinal":
            raise ValueError("polytomous_irt needs ordered levels: build them with "
                             "Responses.from_wide(..., kind='ordinal') (cuts= to bin "
                             "continuous performances)")
        if model not in MODELS:
            raise ValueError(f"model={model!r} is not one of {MODELS}")
        r = responses
        codes, mask = r.dense(dtype=np.int64), r.dense(1.0)
        low, high = _item_range(r)
        if np.any(high == low):
            single = r.items[high == low]
            every = len(single) == r.n_items
            which = (f"every {r.item_name} has" if every else f"1 {r.item_name} has"
                     if len(single) == 1 else f"{len(single)} {r.item_name}s have")
            fix = ("bin the performances into more levels (cuts=) or check the data" if every
                   else "in Python, keep the others with responses.subset(items=[...]), or "
                   "remove their columns from the file")
            raise ValueError(
                f"{which} one level only on every {r.respondent_name} (e.g. "
                f"{[plain(x) for x in single[:5]]}): no information on {r.respondent_name} "
                f"difficulty; {fix}")
        priors = {"a": positive(prior_a, "prior_a"), "c": positive(prior_c, "prior_c")}
        warn_few_respondents(r, "parameters (discrimination, a threshold per level)")
        if model == "gpcm":
            _warn_skipped_levels(r, low, high)
        n_steps = int((high - low).max())
        x = np.where(mask > 0, codes - low[None, :], 0).astype(np.int64)
        # valid[j, k]: item j has category k
        valid = np.arange(n_steps + 1)[None, :] <= (high - low)[:, None]
        # with missing cells the observed levels are the observed cells' alone, in row-major
        # order (``obs``, as the 1PL's): az.loo counts them, az.plot_ppc shows no made-up level
        cells = () if mask.all() else (pt.as_tensor(np.flatnonzero(mask)),)
        coords = {"respondent": r.respondents, "item": r.items,
                  "step": np.arange(1, n_steps + 1), "gap": np.arange(2, n_steps + 1)}
        if cells:
            coords["obs"] = np.arange(int(mask.sum()))
        super().__init__(coords=coords)
        self._build_args = ((responses,), {"model": model, "prior_a": prior_a,
                                           "prior_c": prior_c})
        self.responses, self.model_kind = responses, model
        self.priors = priors
        self.low, self.valid = low, valid
        self.categories, self.mask = x, mask  # for the NumPy density
        pm.Data("lowest_level", low, dims="item")
        pm.Data("highest_level", high, dims="item")
        # the observed level labels, for the downstream analyses (NaN = missing; registered
        # directly, as pm.Data refuses NaN)
        level = np.where(mask > 0, r.levels[codes], np.nan)
        # x is observed as the data's levels (az.plot_ppc then shows them); the density
        # works on category k = position among the levels - the item's lowest
        level_values = pt.as_tensor(r.levels.astype(np.int64))
        self.register_data_var(pytensor.shared(level, "level"), dims=("respondent", "item"))
        theta = pm.Normal("theta", 0.0, 1.0, dims="respondent")
        a = pm.Normal("a", 0.0, prior_a, dims="item")
        if model == "gpcm":
            c = pm.Normal("c", 0.0, prior_c, dims=("item", "step"))
        else:
            first = pm.Normal("c_first", 0.0, prior_c, dims="item")
            gaps = pm.LogNormal("c_gap", 0.0, 1.0, dims=("item", "gap"))
            c = pm.Deterministic("c", first[:, None] + pt.concatenate(
                [pt.zeros((len(r.items), 1)), pt.cumsum(gaps, axis=1)], axis=1),
                dims=("item", "step"))

        lowest = np.broadcast_to(low, mask.shape).ravel()[np.flatnonzero(mask)] if cells \
            else low  # each observed value's item's lowest level code

        def logp(value, theta, a, c, *cells):
            per_k = category_logp(theta, a, c, valid, model)  # (I, J, K)
            if cells:  # (observed cells, K)
                per_k = per_k.reshape((-1, n_steps + 1))[cells[0]]
            category = searchsorted(level_values, value) - lowest
            onehot = pt.eq(category[..., None], pt.arange(n_steps + 1))
            return (onehot * per_k).sum(axis=-1)

        def random(theta, a, c, *cells, rng=None, size=None):
            theta, a, c = (np.asarray(x) for x in (theta, a, c))
            if size is not None:  # a batch of draws: the parameters broadcast to it
                theta, a, c = (np.broadcast_to(x, (*size, *x.shape[x.ndim - core:]))
                               for x, core in ((theta, 1), (a, 1), (c, 2)))
            category = draw_levels(category_logp(theta, a, c, valid, model, xp=np), rng)
            if cells:  # the same cells in every draw of a batch
                where = np.asarray(cells[0]).reshape(-1, np.shape(cells[0])[-1])[0]
                category = category.reshape(category.shape[:-2] + (-1,))[..., where]
            return r.levels[category + lowest].astype(np.int64)

        # the cells' positions enter as a parameter: the signature then gives the draws' shape
        observed = np.where(mask > 0, level, r.levels[0]).astype(np.int64)
        pm.CustomDist("x", theta, a, c, *cells, logp=logp, random=random, dtype="int64",
                      observed=observed[mask > 0] if cells else observed,
                      dims="obs" if cells else ("respondent", "item"),
                      signature="(i),(j),(j,s),(o)->(o)" if cells else "(i),(j),(j,s)->(i,j)")

    def fit_attrs(self):
        return {"irteval_family": self.family, "irteval_model": self.model_kind,
                "item_name": self.responses.item_name,
                "respondent_name": self.responses.respondent_name,
                "levels": self.responses.levels.tolist(),
                **({} if self.responses.level_ranges is None else {  # what cuts= binned
                    "level_lower": self.responses.level_ranges[:, 0].tolist(),
                    "level_upper": self.responses.level_ranges[:, 1].tolist()}),
                "lower_is_better": int(self.responses.lower_is_better),
                **{f"prior_{k}": v for k, v in self.priors.items()}}

    def density(self):
        # in NumPy: nothing to compile (14 s for the GPCM's graph at 30 x 3, where sampling
        # takes 0.3 s)
        return GPCMDensity(self) if self.model_kind == "gpcm" else GradedDensity(self)

    def mode_start(self, random_seed):
        """theta from the first principal component of the standardised levels and a_j the
        items' loadings on it, the intercepts at their initial values: PyMC's initial point
        (theta = 0, a = 0) is a saddle of the joint density (both gradients vanish there),
        where the optimiser would stop."""
        x = np.where(self.mask > 0, self.categories, np.nan)
        z = (x - np.nanmean(x, axis=0)) / (np.nanstd(x, axis=0) + 1e-9)
        u, s, vt = np.linalg.svd(np.nan_to_num(z), full_matrices=False)
        sign = np.sign(vt[0].sum()) or 1.0
        theta = sign * u[:, 0] / (u[:, 0].std() or 1.0)
        start = dict(self.initial_point(random_seed))
        start.update(theta=theta, a=sign * vt[0] * s[0] / np.sqrt(len(theta)))
        return start

    def cell_coords(self):
        if "obs" not in self.coords:
            return {}
        r = self.responses
        i, j = np.nonzero(self.mask > 0)
        return {"obs": {"obs_item": np.asarray(r.items)[j],
                        "obs_respondent": np.asarray(r.respondents)[i]}}

    def postprocess(self, idata, random_seed):
        identify(idata, self.valid)


def identify(idata, valid):
    """Reflect each draw so that sum_j a_j > 0 (theta and a change sign together), and add
    the thresholds ``d`` = c / a (NaN for steps an item does not have), in place."""
    post = idata.posterior
    flip = reflection_signs(post["a"].transpose("chain", "draw", "item").values)
    post["a"] = post["a"].transpose("chain", "draw", "item") * flip
    post["theta"] = post["theta"].transpose("chain", "draw", "respondent") * flip
    d = thresholds(post["c"], post["a"]).where(valid[:, 1:])
    post["d"] = d.transpose("chain", "draw", "item", "step")
    idata.attrs["reflected_draws"] = float((flip < 0).mean())
    return idata


def thresholds(c, a):
    """The thresholds d = c / a of intercepts ``c`` (item, step) and discriminations ``a``
    (item): where theta crosses from one level into the next."""
    return c / (a[..., None] if isinstance(a, np.ndarray) else a)


def _warn_skipped_levels(responses, low, high):
    """Warn about items with a level between their lowest and highest that no respondent
    reached: the GPCM's steps into and out of it are set by the prior (the likelihood pushes
    them apart, the thresholds cross), and with them the item's difficulty limits."""
    r = responses
    counts = np.zeros((r.n_items, len(r.levels)), dtype=np.int64)
    np.add.at(counts, (r.item_idx, r.values), 1)
    inside = (np.arange(len(r.levels)) > low[:, None]) & (np.arange(len(r.levels)) < high[:, None])
    skipped = np.flatnonzero((inside & (counts == 0)).any(axis=1))
    if len(skipped):
        j = skipped[0]
        empty = r.levels[np.flatnonzero(inside[j] & (counts[j] == 0))]
        warn_user(f"{len(skipped)} {r.item_name}{'' if len(skipped) == 1 else 's'} "
                  f"{'skips' if len(skipped) == 1 else 'skip'} a level (e.g. "
                  f"{plain(r.items[j])!r}: no {r.respondent_name} at level "
                  f"{', '.join(f'{v:g}' for v in empty)}, between its lowest and highest; "
                  "its counts by level "
                  f"{', '.join(f'{v:g}: {n}' for v, n in zip(r.levels, counts[j]))}): the GPCM's "
                  "thresholds around it are set by the prior and cross, and its difficulty "
                  "limits with them; model='graded' keeps the thresholds ordered, or merge "
                  "the level with a neighbour (fewer cuts= or cut_rule='quantile' where "
                  "performances are binned, else recode the levels)",
                  IdentificationWarning)


def _item_range(responses):
    """Each item's lowest and highest observed level code."""
    r = responses
    low = np.full(r.n_items, np.iinfo(np.int64).max)
    high = np.full(r.n_items, -1)
    np.minimum.at(low, r.item_idx, r.values)
    np.maximum.at(high, r.item_idx, r.values)
    return low, high


def polytomous_irt(responses: Responses, *, model="gpcm", prior_a=PRIORS["a"],
                   prior_c=PRIORS["c"]) -> PolytomousIRT:
    """Bayesian polytomous IRT of algorithms (items) on datasets (respondents) from ordered
    levels (``Responses.from_wide(..., kind="ordinal")``): the generalised partial credit
    model (``model="gpcm"``, what airt's ``pirtmodel`` fits with mirt) or the graded
    response model (``"graded"``). Priors: a_j ~ N(0, prior_a) (sign free), intercepts
    ~ N(0, prior_c) (the graded model: its first one, then gaps ~ LogNormal(0, 1)). The
    posterior holds ``theta`` (dataset easiness), ``a`` (discrimination), ``c`` (step
    intercepts) and, added by :func:`irteval.fit`, ``d`` (thresholds c / a) per item and
    step, after the reflection is fixed. Items with fewer levels than the widest share its
    ``step`` dim: their ``c`` there is drawn from the prior alone (no data reach it) and their
    ``d`` is NaN, which ``az.summary`` reports as NaN rows (with a warning);
    ``az.summary(idata, var_names=["a", "d"]).dropna()`` keeps the steps that exist.

    Parameters
    ----------
    responses : irteval.Responses
        Ordinal responses (``kind="ordinal"``): datasets as respondents, algorithms as
        items; missing cells are left out of the likelihood. Each item keeps the levels from
        its lowest to its highest used one; an item with one level on every respondent is
        refused.
    model : {"gpcm", "graded"}, default "gpcm"
        The generalised partial credit model or Samejima's graded response model.
    prior_a : float, default 2.0
        Standard deviation of the normal prior on the discriminations a_j (> 0).
    prior_c : float, default 3.0
        Standard deviation of the normal prior on the step intercepts (the graded model:
        on the first one) (> 0).

    Returns
    -------
    PolytomousIRT
        A :class:`pymc.Model` with free ``theta`` (respondent), ``a`` (item) and ``c``
        (item, step; the graded model: free ``c_first`` and ``c_gap``, deterministic
        ``c``), and observed ``x`` (dims respondent, item: the levels of the data, integers;
        with missing cells dim ``obs``, the observed cells alone).
    """
    return PolytomousIRT(responses, model=model, prior_a=prior_a, prior_c=prior_c)
