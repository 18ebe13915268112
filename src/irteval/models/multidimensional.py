"""The multidimensional (compensatory) 2PL: k latent skills per respondent.

    P(y_ij = 1) = logistic(sum_k a_ik theta_jk - b_i)

Each respondent has k abilities theta_j, each instance k loadings a_i (how much each skill
helps on it) and an intercept difficulty b_i ~ Normal(mu_b, sigma_b) (its multidimensional
difficulty, Reckase's MDIFF, is b_i / |a_i|). theta_jk ~ ZeroSumNormal(1) per skill fixes every
skill's location and scale, and every loading is a_ik ~ Normal(0, sigma_a). That prior and the
likelihood are rotation invariant (a_i R, R' theta_j give the same answers for any orthogonal
R), and NUTS samples the posterior as it is, rotation free (which mixes far better than
constraints in the sampler: ``models/onepl.md``). Each draw is then rotated into one frame:
the k *anchor* instances (the first k, or ``anchors=``) load on the first 1, 2, ..., k skills
only (a lower-triangular block, from the QR decomposition of the draw's anchor loadings), and
its reflections (skill k and its loadings times -1) are aligned across draws (Erosheva &
Curtis 2017's relabelling, below) and oriented so that every skill's loadings are positive on
average (more skill helps). Skill m is the direction in which anchor m differs from anchors
1..m-1 (its sign is the instances' on average, so anchor m's own loading on it may be
negative); a skill whose draws cannot be aligned (its loadings near 0) is flagged.
See ``models/onepl.md``.
"""

from __future__ import annotations

import numpy as np
import pymc as pm

from .._validation import warn_user
from ..exceptions import IdentificationWarning
from .base import bernoulli_logit_rv, reflection_signs
from .densities import MultidimensionalDensity
from .onepl import OnePL

#: a skill is weakly identified when more than this share of its draws align with the
#: others' mean loadings at |cosine| < ALIGNED_COSINE
WEAK_SHARE, ALIGNED_COSINE = 0.1, 0.5


def skill_labels(dims):
    return np.array([f"skill_{k + 1}" for k in range(dims)])


class MultidimensionalIRT(OnePL):
    """The multidimensional 2PL as a PyMC model (build it with
    ``irteval.models.onepl(..., discrimination=True, dims=k)``)."""

    #: ``a`` holds the anchors' fixed zeros (no R-hat): its free entries are ``a_free``
    diagnostic_vars = ("mu_b", "sigma_b", "b", "theta", "a_free")

    def __init__(self, responses, *, dims, anchors=None, prior_scale=None):
        self.n_skills = dims
        self.anchor_labels = anchors
        super().__init__(responses, discrimination=True, prior_scale=prior_scale)
        self.centred = None  # loadings a_ik ~ N(0, sigma_a): no log discriminations
        self._build_args = ((responses,), {"dims": dims, "anchors": anchors,
                                           "prior_scale": prior_scale})

    def prior_names(self, discrimination):
        return {"mu_b", "sigma_b", "sigma_a"}

    def _declare(self):
        r, scale, k = self.responses, self.priors, self.n_skills
        items = np.asarray(r.items)
        self.anchor_rows = _anchor_rows(items, k, self.anchor_labels)
        self.free = np.ones((r.n_items, k), dtype=bool)  # not fixed at 0 in the anchors' frame
        for m, row in enumerate(self.anchor_rows):
            self.free[row, m + 1:] = False
        self.loading_labels = np.array([f"{items[i]} | skill_{c + 1}"
                                        for i, c in zip(*np.nonzero(self.free))])
        self.add_coord("skill", skill_labels(k))
        mu_b = pm.Normal("mu_b", 0.0, scale["mu_b"])
        sigma_b = pm.HalfNormal("sigma_b", scale["sigma_b"])
        b = pm.Normal("b", mu_b, sigma_b, dims="item")
        theta = pm.ZeroSumNormal("theta", sigma=1.0, dims=("skill", "respondent"))
        # sampled in any rotation (the posterior is invariant); postprocess rotates each draw
        a = pm.Normal("a", 0.0, scale["sigma_a"], dims=("item", "skill"))
        eta = a @ theta - b[:, None]
        if self.complete:
            bernoulli_logit_rv("y", eta, observed=r.to_wide(rows="item").to_numpy(),
                               dims=("item", "respondent"))
        else:
            i = pm.Data("item_idx", r.item_idx, dims="obs")
            j = pm.Data("respondent_idx", r.respondent_idx, dims="obs")
            bernoulli_logit_rv("y", eta[i, j], observed=r.values, dims="obs")

    @property
    def variant(self):
        return "m2pl"

    def fit_attrs(self):
        items = np.asarray(self.responses.items)
        return {**super().fit_attrs(), "dims": int(self.n_skills),
                "anchors": [str(x) for x in items[self.anchor_rows]]}

    def no_mode_reason(self, marginal, method):
        return ("MAP/Laplace are not available for the multidimensional 2PL (its EM is the "
                "one-skill 2PL's); use method='nuts' (the default) or method='advi'")

    def marginal_mode(self):
        return None

    def density(self):
        return MultidimensionalDensity(self)

    def cell_logits(self, draw, i, j):
        return logits(draw["a"], draw["theta"], draw["b"], i, j)

    def _assign(self, idata, group, a, theta, signs):
        """Draws of ``group`` replaced by the rotated ``a``, ``theta`` reflected by ``signs``
        (chain, draw, skill), with ``a_free``."""
        a, theta = a * signs[:, :, None, :], theta * signs[..., None]
        a[..., ~self.free] = 0.0  # (rounding: 1e-16; after the reflection: no -0.0)
        draws = idata[group]
        setattr(idata, group, draws.assign(  # idata[group] = ... would list the group twice
            a=draws["a"].copy(data=a), theta=draws["theta"].copy(data=theta),
            a_free=(("chain", "draw", "loading"), a[:, :, self.free])).assign_coords(
            loading=self.loading_labels))

    def postprocess(self, idata, random_seed):
        """Rotate every draw into the anchors' frame (:func:`rotate_to_anchors`) and reflect
        its skills to agree (:func:`align_reflections`), in place; add ``a_free`` (the
        loadings not fixed at 0); warn about skills whose draws do not align."""
        a, theta = rotate_to_anchors(idata.posterior["a"].values,
                                     idata.posterior["theta"].values, self.anchor_rows)
        signs, cosine = align_reflections(a)
        self._assign(idata, "posterior", a, theta, signs)
        if "warmup_posterior" in idata.groups():  # (keep_warmup=True) in the same frame
            warm, warm_theta = rotate_to_anchors(idata.warmup_posterior["a"].values,
                                                 idata.warmup_posterior["theta"].values,
                                                 self.anchor_rows)
            reference = idata.posterior["a"].values.mean(axis=(0, 1))
            signs = np.where(np.einsum("cdik,ik->cdk", warm, reference) < 0, -1.0, 1.0)
            self._assign(idata, "warmup_posterior", warm, warm_theta, signs)
        weak = (np.abs(cosine) < ALIGNED_COSINE).mean(axis=(0, 1)) > WEAK_SHARE
        for k in np.flatnonzero(weak):
            warn_user(f"skill_{k + 1} is weakly identified: in more than {WEAK_SHARE:.0%} of "
                      "the draws its loadings are nearly orthogonal to their posterior mean "
                      "(they are near 0, or the anchors do not pin the rotation). Fit fewer "
                      f"dims=, or pass anchors= with {self.responses.item_name}s "
                      "that clearly need different skills", IdentificationWarning)


def logits(a, theta, b, i, j):
    """eta = a_i . theta_j - b_i at cells (item i, respondent j) of one draw: loadings a (item,
    skill), abilities theta (skill, respondent), intercepts b (item)."""
    return np.einsum("ck,kc->c", a[i], theta[:, j]) - b[i]


def is_multidimensional(idata):
    """Whether a binary IRT fit has several skills (``theta`` over (skill, respondent))."""
    return "skill" in idata.posterior["theta"].dims


def rotate_to_anchors(a, theta, anchor_rows):
    """(a Q, Q' theta), loadings a (..., item, skill) and abilities theta (..., skill,
    respondent) in the rotation where the anchors' block a[anchor_rows] is lower triangular:
    Q from the QR decomposition a[anchor_rows]' = Q R. Every logit a theta is unchanged."""
    q, _ = np.linalg.qr(np.swapaxes(a[..., anchor_rows, :], -1, -2))
    return a @ q, np.swapaxes(q, -1, -2) @ theta


def align_reflections(a, n_iter=20):
    """Signs (chain, draw, skill) that reflect each draw's loadings ``a`` (chain, draw, item,
    skill) onto a common orientation: starting from the first draw, each skill's sign is that
    of the draw's inner product with the mean of the aligned draws, repeated until no sign
    changes; then every skill is turned so its mean loadings sum to >= 0. Also returns the
    cosine of each draw's loadings with that mean (near 0: the skill's sign is undetermined)."""
    flat = a.reshape(-1, *a.shape[2:])  # (sample, item, skill)
    signs = np.ones((len(flat), a.shape[-1]))
    reference = flat[0]
    for _ in range(n_iter):
        new = np.where(np.einsum("sik,ik->sk", flat, reference) < 0, -1.0, 1.0)
        reference = (flat * new[:, None, :]).mean(axis=0)
        if np.array_equal(new, signs):
            break
        signs = new
    orient = reflection_signs(reference, axis=0)  # (1, skill)
    signs, reference = signs * orient, reference * orient
    norms = np.linalg.norm(flat, axis=1) * np.linalg.norm(reference, axis=0)
    cosine = np.einsum("sik,ik->sk", flat * signs[:, None, :], reference) / np.maximum(norms,
                                                                                       1e-300)
    return signs.reshape(*a.shape[:2], -1), cosine.reshape(*a.shape[:2], -1)


def _anchor_rows(items, dims, anchors):
    """Positions of the anchor items (the first ``dims`` unless named)."""
    if anchors is None:
        return np.arange(dims)
    anchors = list(anchors)
    if len(anchors) != dims or len(set(anchors)) != dims:
        raise ValueError(f"anchors= needs {dims} distinct item labels (one per skill, dims="
                         f"{dims}), got {anchors!r}")
    position = {label: k for k, label in enumerate(items)}
    unknown = [x for x in anchors if x not in position]
    if unknown:
        raise ValueError(f"anchors= names items not in the responses: {unknown[:5]}; "
                         f"known items include {list(items[:5])}")
    return np.array([position[x] for x in anchors])


def check_dims(responses, dims, discrimination, guessing, slip, batch_size, n_options=None):
    """Refuse a ``dims=`` that cannot be fitted, before anything is built."""
    if not (isinstance(dims, (int, np.integer)) and not isinstance(dims, bool) and dims >= 1):
        raise ValueError(f"dims must be an integer >= 1 (the number of latent skills), "
                         f"got {dims!r}")
    if dims == 1:
        return
    if not discrimination:
        raise ValueError("dims= > 1 is the multidimensional 2PL: pass discrimination=True "
                         "with it (every skill needs its own loadings)")
    if guessing or slip or n_options is not None:
        raise ValueError("guessing=, n_options= and slip= are not available with dims= > 1 "
                         "yet: fit the multidimensional 2PL (drop them) or the one-skill "
                         "3PL/4PL (drop dims=)")
    if batch_size is not None:
        raise ValueError("batch_size= (minibatch ADVI) is not available with dims= > 1: drop it")
    if dims >= responses.n_respondents:
        raise ValueError(f"dims={dims} needs more respondents than skills, but there are "
                         f"{responses.n_respondents} {responses.respondent_name}s: use "
                         f"dims= < {responses.n_respondents}")
    if dims > responses.n_items:
        raise ValueError(f"dims={dims} needs at least one anchor {responses.item_name} per "
                         f"skill, but there are {responses.n_items}: use dims= <= "
                         f"{responses.n_items}")
