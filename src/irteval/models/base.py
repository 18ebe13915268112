"""The typed model: a PyMC model that also says how :func:`irteval.fit` runs it.

Following PyMC's documented pattern for class-based models, every builder in
:mod:`irteval.models` returns a subclass of :class:`pymc.Model`. Besides the variables, the
class declares what fitting needs: its ``family`` (recorded in ``idata.attrs`` and checked by
every downstream function), the NUTS defaults (``target_accept``, preferred ``sampler``),
the variables whose R-hat/ESS are checked, whether its posterior has a mode, starting
points, replicated data for posterior predictive checks, post-processing after the draws
(reflection, derived variables), and an exact marginal form that ``fit`` can run instead
(the collapsed 1PL).

A copy (``copy.copy`` / ``model.copy()``) is rebuilt from the same data and options, so it keeps
all of that. ``pm.do`` and ``pm.observe`` return a plain :class:`pymc.Model`, which ``fit``
samples on the generic path with a :class:`~irteval.exceptions.ModelSpecWarning` naming what
is lost.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import arviz as az
import numpy as np
import pymc as pm
import pytensor.tensor as pt

from .._draws import evenly_spaced
from .._validation import plain, quiet_pymc, warn_user
from ..exceptions import IdentificationWarning

#: replicated cells (observations x draws) that posterior predictive checks keep at most: the
#: binary IRT's answers as int8, 25 MB
PREDICTIVE_CELLS = 25_000_000


@dataclass(frozen=True)
class Marginal:
    """An exact smaller form of a model (some variables integrated out) for NUTS, MAP and
    Laplace; :meth:`BaseModel.complete_marginal` turns its fit into the full posterior."""

    #: builds the smaller form as a PyMC model: only for the samplers that need its graph
    #: (building one takes ~35 ms, as long as the whole MAP fit of a 1000 x 20 1PL)
    build_model: Callable[[], pm.Model]
    #: its coords (the dims of its draws are the density's)
    coords: dict
    #: the same density in NumPy (:mod:`irteval.models.densities`): what nutpie samples and
    #: MAP and Laplace optimise (L-BFGS)
    density: object

    @functools.cached_property
    def model(self) -> pm.Model:
        """The smaller form as a PyMC model (built on first use)."""
        return self.build_model()

    def frame(self) -> pm.Model:
        """A PyMC model with the coords only: what InferenceData of the density's draws
        needs."""
        return pm.Model(coords=self.coords)


@dataclass(frozen=True)
class StartPoints:
    """Optimised starting points: one dict of value-variable values per chain, and the best
    point found (for samplers that take a single start)."""

    per_chain: list
    best: dict
    log_densities: np.ndarray


class FitSpec:
    """What :func:`irteval.fit` asks of a model, with the defaults of a plain ``pymc.Model``."""

    #: the family that downstream functions check (``idata.attrs["irteval_family"]``)
    family: ClassVar[str] = ""
    #: NUTS target acceptance unless fit is told otherwise
    target_accept: float = 0.9
    #: posterior draws and warm-up steps per chain unless fit is told otherwise
    default_draws: ClassVar[int] = 1000
    default_tune: ClassVar[int] = 1000
    #: preferred NUTS backend when installed ("pymc", "nutpie")
    sampler: ClassVar[str] = "pymc"
    #: options for nutpie.sample, on the NumPy density or the PyMC graph (e.g. a low-rank
    #: mass matrix)
    nutpie_options: ClassVar[dict] = {}
    #: variables whose R-hat and ESS are checked (None: all)
    diagnostic_vars: ClassVar[tuple[str, ...] | None] = None
    #: a minibatch model: only ADVI, no pointwise log-likelihood or predictive draws
    is_minibatch: bool = False

    def fit_attrs(self) -> dict:
        """Entries for ``idata.attrs``: ``irteval_family``, ``irteval_model``, labels, priors."""
        return {}

    def preferred_sampler(self) -> str:
        """The NUTS backend to use when installed and the user names none."""
        return self.sampler

    def no_mode_reason(self, marginal: bool, method: str) -> str | None:
        """Why ``method`` (MAP or Laplace) cannot run on this model (None: it can).
        ``marginal``: the fit works on :meth:`marginal`."""
        return None

    def marginal_mode(self) -> dict | None:
        """For ``method="map"`` where the joint density has no mode: the posterior modes of
        a form with some variables integrated out, {name: value} of every posterior variable
        (None: the model has none)."""
        return None

    def density(self):
        """The model's log density in NumPy (:mod:`irteval.models.densities`), which nutpie
        and SciPy use without compiling anything (None: only the PyMC graph)."""
        return None

    def density_tune(self) -> int | None:
        """Warm-up steps per chain when nutpie samples :meth:`density` or the marginal's and
        fit is told no ``tune`` (None: :attr:`default_tune`; other samplers always get
        that)."""
        return None

    def marginal(self, method="nuts") -> Marginal | None:
        """An exact marginal form to fit with ``method`` instead (None: there is none for
        these data, or it would be slower)."""
        return None

    def complete_marginal(self, marginal_idata, rng, point_only):
        """The posterior of this model from a fit of :meth:`marginal`: the integrated-out
        variables drawn exactly from their conditionals (their modes if ``point_only``)."""
        raise NotImplementedError

    def convergence_advice(self, idata) -> str | None:
        """A remedy particular to this model for a NUTS fit that mixed slowly, warned after
        the generic diagnostics (None: nothing to add)."""
        return None

    def diagnostic_subset(self, marginal: bool) -> dict | None:
        """{dim: positions} to check instead of every entry (None: all)."""
        return None

    def start_points(self, chains, random_seed) -> StartPoints | None:
        """Optimised starting points for a multimodal posterior (None: PyMC's defaults)."""
        return None

    def mode_start(self, random_seed) -> dict | None:
        """Where MAP and Laplace start the optimiser, {value variable name: value} (None:
        PyMC's initial point): by default the best of :meth:`start_points`."""
        start = self.start_points(1, random_seed)
        return start and start.best

    def cell_coords(self) -> dict:
        """{dim: {name: labels}}: coordinates that name each entry of a dim of cells or pairs
        (the 1PL's ``obs`` with missing cells, a pairwise Bradley-Terry's ``pair``) by the
        user's labels, which ``fit`` puts on every group with that dim."""
        return {}

    def postprocess(self, idata, random_seed) -> None:
        """Fix symmetries and add derived variables to ``idata.posterior``, in place."""

    def posterior_predictive(self, idata, model, random_seed) -> None:
        """Add the group ``posterior_predictive`` (and any observed summaries it checks) to
        ``idata``, in place: by default PyMC's replicate of every observed variable, from
        evenly spaced draws of every chain (:func:`predictive_draws`), integers in the
        smallest type that holds them and reals in float32."""
        observed = idata.get("observed_data", {})
        per_chain = predictive_draws(idata, sum(
            observed[v.name].size if v.name in observed else v.size.eval()
            for v in model.observed_RVs))
        thinned = az.InferenceData(posterior=idata.posterior.isel(
            draw=evenly_spaced(idata.posterior.sizes["draw"], per_chain)))
        # var_names given: without them PyMC 5.28 appends the observed variables to
        # model.observed_RVs a second time (when the InferenceData has observed_data), which
        # breaks the model's log density for any later fit; its "Sampling: [rank]" line, which
        # names a variable of the model and not the data, silenced
        with quiet_pymc():
            pm.sample_posterior_predictive(thinned, model=model, random_seed=random_seed,
                                           var_names=[v.name for v in model.observed_RVs],
                                           extend_inferencedata=True, progressbar=False)
        replicated = thinned.posterior_predictive.map(_compact)
        idata.add_groups(posterior_predictive=replicated.assign_attrs(
            thinned.posterior_predictive.attrs))


def predictive_draws(idata, cells) -> int:
    """Draws per chain to replicate ``cells`` observations from: every one, or as many as
    keep the replicates within :data:`PREDICTIVE_CELLS` numbers (at least one); recorded in
    ``idata.attrs["posterior_predictive_draws"]`` (all chains)."""
    n_chain, n_draw = idata.posterior.sizes["chain"], idata.posterior.sizes["draw"]
    per_chain = max(1, min(n_draw, PREDICTIVE_CELLS // (n_chain * max(int(cells), 1))))
    idata.attrs["posterior_predictive_draws"] = int(n_chain * per_chain)
    return per_chain


def _compact(values):
    """Replicates in less memory: integers in the smallest signed type that holds them
    (``az.plot_ppc`` refuses unsigned ones), reals in float32."""
    if values.dtype.kind == "f":
        return values.astype(np.float32)
    if values.dtype.kind in "iu" and values.size:
        low, high = int(values.min()), int(values.max())
        return values.astype(next(t for t in (np.int8, np.int16, np.int32, np.int64)
                                  if np.iinfo(t).min <= low and high <= np.iinfo(t).max))
    return values


class BaseModel(FitSpec, pm.Model):
    """Base class of irteval's models.

    Subclasses call ``super().__init__(coords=...)`` first, then declare their variables, and
    keep the arguments they were built from in ``self._build_args`` (for :meth:`copy`).
    """

    _build_args: tuple = ((), {})

    # ------------------------------------------------------------------ copies
    def copy(self):
        """A fresh model built from the same data and options (PyMC's clone would be a plain
        ``pymc.Model`` without what ``fit`` needs)."""
        args, kwargs = self._build_args
        return type(self)(*args, **kwargs)

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()


def bernoulli_logit_rv(name, logit, **kwargs):
    """y ~ Bernoulli(logistic(logit)) with log-likelihood y logit - softplus(logit), whose
    gradient y - logistic(logit) is finite for every logit (PyMC's ``Bernoulli(logit_p=)``
    goes through p, and its gradient was NaN where p rounds to 0 or 1: ``models/onepl.md``).
    Draws as ``Bernoulli``'s."""
    return pm.CustomDist(
        name, logit, dist=lambda logit, size: pm.Bernoulli.dist(logit_p=logit, size=size),
        logp=lambda value, logit: value * logit - pt.softplus(logit), **kwargs)


def reflection_signs(loadings, axis=-1):
    """-1 where the ``loadings`` (discriminations) sum below 0 along ``axis`` (kept, length
    1), else 1: multiplying loadings and abilities by it fixes the reflection
    (theta, a) -> (-theta, -a) that leaves every answer's probability unchanged, so that the
    loadings sum to at least 0. The models apply it to each draw; simulations to the truth."""
    return np.where(np.sum(loadings, axis=axis, keepdims=True) < 0, -1.0, 1.0)


#: fewer answers per item than this leave an AIRT item's parameters mostly to the priors
FEW_RESPONDENTS = 10


def warn_few_respondents(responses, parameters):
    """Warn of items (AIRT's algorithms) observed on fewer than ``FEW_RESPONDENTS``
    respondents (datasets): each item's ``parameters`` rest mostly on their priors there."""
    r = responses
    counts = np.bincount(r.item_idx, minlength=r.n_items)
    few = np.flatnonzero(counts < FEW_RESPONDENTS)
    if len(few):
        j = few[np.argmin(counts[few])]
        which = (f"every {r.item_name} has" if len(few) == r.n_items
                 else f"1 {r.item_name} has" if len(few) == 1
                 else f"{len(few)} {r.item_name}s have")
        warn_user(f"{which} a performance on fewer than {FEW_RESPONDENTS} "
                  f"{r.respondent_name}s (e.g. {plain(r.items[j])!r}: {counts[j]}): the "
                  f"{parameters} of {'it' if len(few) == 1 else 'each'} rest mostly on their "
                  "priors, and so do its metrics and curves; the intervals say how little is "
                  f"known (AIRT's analyses use dozens of {r.respondent_name}s or more)",
                  IdentificationWarning)
