"""One entry point to fit any irteval model: NUTS, ADVI, MAP or a Laplace approximation.

Every method returns an ``arviz.InferenceData`` with the same groups (posterior,
log_likelihood and posterior_predictive but for MAP, observed_data, constant_data where the
model has any, and sample_stats for NUTS), so every downstream function and ArviZ itself
work on any of them.
What is specific to a model (its starting points, post-processing, exact marginal form, NUTS
defaults) the model declares (:class:`irteval.models.base.BaseModel`); this module only
dispatches.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import numbers
from dataclasses import dataclass

import arviz as az
import numpy as np
import pandas as pd
import pymc as pm
import xarray as xr

from .._docs import fill_doc
from .._idata import assign_coords, model_idata
from .._validation import count, quiet_pymc, seeded_rng, true_or_false, warn_user
from ..exceptions import ConvergenceWarning, ModelSpecWarning
from ..models.base import FitSpec
from . import nuts
from .approximations import advi, laplace, laplace_density
from .diagnostics import check_nuts

METHODS = ("nuts", "advi", "laplace", "map")
#: chains by default (fit's chains=; a MAP fit given another number warns that it ignores it)
CHAINS = 4
SAMPLERS = nuts.SAMPLERS
#: pointwise log-likelihood values stored by default (``log_likelihood="auto"``): ~200 MB
LOG_LIKELIHOOD_MAX = 25_000_000
#: docstring entries of the functions that add a group to a fit
ADD_DOCS = {"fitted_model": """\
model : pymc.Model
    The model that was fitted (from :mod:`irteval.models`), or one built again from the
    same data with the same options (anything else is refused)."""}


@dataclass(frozen=True)
class _Seeds:
    """The random streams of one fit, drawn from ``random_seed`` in a fixed order (so that a
    seed keeps giving the same numbers)."""

    sampling: int
    predictive: int
    init: int
    postprocess: int

    @classmethod
    def from_seed(cls, random_seed):
        return cls(*(int(s) for s in seeded_rng(random_seed).integers(2**31, size=4)))


def fit(model, *, method="nuts", draws=None, tune=None, chains=CHAINS, random_seed=None,
        sampler=None, target_accept=None, log_likelihood="auto", posterior_predictive="auto",
        progressbar=True, advi_iterations=20000, collapse=True, keep_warmup=False,
        **sample_kwargs) -> az.InferenceData:
    """Fit a model built by :mod:`irteval.models` and return its posterior.

    Parameters
    ----------
    model : pymc.Model
        From :mod:`irteval.models`. A plain ``pymc.Model`` (e.g. after ``pm.do``) is fitted
        with PyMC's defaults and a warning naming what it lacks.
    method : {"nuts", "advi", "laplace", "map"}
        ``nuts``: Hamiltonian Monte Carlo (the reference). ``advi``: mean-field
        variational inference, ``draws * chains`` draws in one chain. ``laplace``:
        Gaussian N(x_mode, (-H)^-1) on the unconstrained space, ``draws`` per chain.
        ``map``: the mode alone (one draw). For a model with an exact marginal form (the 1PL,
        difficulties integrated out) MAP and Laplace work on that form, where the mode is
        well defined; the 2PL's MAP integrates the abilities out (EM); elsewhere MAP/Laplace
        need a model whose joint mode exists (see the model card). The 1PL's form keeps the
        abilities' spread sigma_theta, whose mode can be 0 where there are few items (40
        respondents x 15 items did, 30 items did not): MAP and Laplace then stop with an
        error, and NUTS is the fit.
    draws, tune, chains : int
        Posterior draws and warm-up steps per chain; ``draws`` and ``tune`` by default the
        model's (1000 each; 2000 each for the continuous IRT, whose residual scales near zero
        need the longer warm-up and more draws for a tail ESS of 400; 500 warm-up steps for
        the 1PL and the 2PL on nutpie: the collapsed form, a near-Gaussian posterior of
        J + 2 free parameters started at its PROX estimates, and the dense densities, measured in
        ``benchmarks/README.md``).
    random_seed : int, optional
        Seeds every random step (sampling, initialisation, predictive draws).
    sampler : {"pymc", "nutpie", "numpyro"}, optional
        NUTS implementation. By default the model's choice: nutpie (a dependency) for the
        binary IRT, Bradley-Terry, continuous and polytomous models (on the model's NumPy
        density, without compiling, where it has one), PyMC's where the model prefers it or,
        with a warning, where nutpie is missing. numpyro needs
        ``pip install "irteval[numpyro]"``; it runs the PyMC graph in JAX, on a GPU when JAX
        sees one.
    target_accept : float, optional
        NUTS target acceptance; by default the model's own (0.95 for the 2PL, 3PL, 4PL
        and multidimensional 2PL, 0.9 otherwise).
    log_likelihood : {"auto", True, False}
        Store the pointwise log-likelihood (needed by ``az.loo``/``az.compare``). It holds
        ``chains * draws`` numbers per observation; ``"auto"`` stores it up to
        :data:`LOG_LIKELIHOOD_MAX` numbers (~200 MB) and otherwise says, in one warning,
        how to get it. Never stored for a minibatch model (``batch_size=``) nor for MAP (one
        point: ``az.loo`` needs draws).
    posterior_predictive : {"auto", True, False}
        Draw replicated data (group ``posterior_predictive``, for ``az.plot_ppc``), with the
        model's own checks (the binary IRT adds each respondent's accuracy and each item's
        number correct, which ``az.plot_ppc(idata, var_names=["accuracy", "n_correct"])``
        shows, where its 0/1 answers say little; see its model card; Plackett-Luce ranks are
        read player by player, ``az.plot_ppc(idata, flatten=["round"], coords={"player":
        [...]}, kind="cumulative")``, as every round holds the ranks 0, 1, ... pooled, and -1
        marks an absent player), from evenly spaced
        draws of every chain: all of
        them, or as many as keep the replicates within
        :data:`~irteval.models.base.PREDICTIVE_CELLS` numbers
        (``attrs["posterior_predictive_draws"]``). ``"auto"``: wherever the fit of a model
        from :mod:`irteval.models` has draws (not for MAP, one point, nor a minibatch
        model; a plain ``pymc.Model`` only with ``True``); ``True`` raises an error where
        there are no draws.
    progressbar : bool
        Show the progress bars (sampling, ADVI) and PyMC's progress lines; ``False``: the fit
        prints nothing but its warnings.
    advi_iterations : int
        Optimisation steps for ``method="advi"``.
    collapse : bool
        Fit the model's exact marginal form when it has one (the 1PL: difficulties
        integrated out and drawn exactly afterwards, the same posterior; for NUTS where it is
        cheaper or the instances have few answers, see ``models/onepl.md``). ``False`` works
        on the full model.
    keep_warmup : bool
        Keep the warm-up draws (``warmup_posterior``, ``warmup_sample_stats``); dropped by
        default, as they mostly cost memory and disk.
    **sample_kwargs
        Passed on to ``pymc.sample`` (``method="nuts"`` only); with any of them the model's
        PyMC graph is compiled and sampled, where nutpie would otherwise run its NumPy density.

    Returns
    -------
    arviz.InferenceData
        Groups ``posterior``, ``observed_data``, ``constant_data`` (where the model has any),
        ``log_likelihood`` (see ``log_likelihood``), ``sample_stats`` (NUTS),
        ``posterior_predictive`` (see ``posterior_predictive``) and, with
        ``keep_warmup=True``, ``warmup_posterior`` and ``warmup_sample_stats``. ``attrs``
        record the model (``irteval_family``, ``irteval_model``, its labels' names and
        priors), the run (``irteval_method``, e.g. ``"nuts:nutpie"``; ``random_seed`` when an
        int; ``draws`` and ``chains`` but for MAP; ``tune`` and ``target_accept`` for NUTS)
        and, for NUTS, :func:`irteval.diagnostics`' checks (``divergences``, ``max_rhat``,
        ``min_ess_bulk``, ``min_ess_tail``), with a ``ConvergenceWarning`` naming the fix
        when one fails.
    """
    spec = _spec(model)
    _warn_ignored(method, draws=draws is not None, tune=tune is not None, chains=chains != CHAINS,
                  sampler=sampler is not None, target_accept=target_accept is not None,
                  keep_warmup=keep_warmup is True)
    draws = spec.default_draws if draws is None else draws
    posterior_predictive, log_likelihood = (
        bool(v) if isinstance(v, np.bool_) else v for v in (posterior_predictive, log_likelihood))
    collapse, keep_warmup, progressbar = (
        true_or_false(v, k) for k, v in (("collapse", collapse), ("keep_warmup", keep_warmup),
                                          ("progressbar", progressbar)))
    _check_arguments(model, spec, method, posterior_predictive, log_likelihood, sample_kwargs,
                     draws=draws, chains=chains, tune=tune, advi_iterations=advi_iterations,
                     target_accept=target_accept)
    marginal, sampler, tune, target_accept = _run_settings(
        spec, method, collapse, sampler, tune, target_accept, sample_kwargs)
    seeds = _Seeds.from_seed(random_seed)
    run = dict(draws=draws, tune=tune, chains=chains, sampler=sampler,
               target_accept=target_accept, progressbar=progressbar)

    if marginal is not None:
        if keep_warmup and method == "nuts":
            warn_user("the collapsed 1PL keeps no warm-up draws (its difficulties are drawn "
                      "after sampling); fit(..., collapse=False, keep_warmup=True) keeps them")
        idata = _fit_marginal(spec, marginal, method, seeds, run, sample_kwargs)
    elif method == "advi":
        idata = advi(model, draws * chains, advi_iterations, seeds.sampling, progressbar)
    elif method == "nuts":
        idata = _fit_nuts(spec, model, seeds, run, sample_kwargs, keep_warmup)
    else:
        idata = _fit_mode(spec, model, method, seeds, run)

    if not keep_warmup:
        for group in [g for g in idata.groups() if g.startswith("warmup_")]:
            del idata[group]
    idata.attrs["irteval_method"] = f"nuts:{sampler}" if method == "nuts" else method
    spec.postprocess(idata, seeds.postprocess)  # (a MAP's derived draws are points too)
    if _store_log_likelihood(log_likelihood, method, model, spec, idata):
        pm.compute_log_likelihood(idata, model=model, progressbar=False)
    if _draw_posterior_predictive(posterior_predictive, method, model, spec):
        with quiet_pymc(not progressbar):
            spec.posterior_predictive(idata, model, seeds.predictive)
    _label_cells(idata, spec)
    idata.attrs.update(spec.fit_attrs())
    idata.attrs.update(_run_attrs(method, random_seed, run))
    if method == "nuts":
        idata.attrs["target_accept"] = target_accept
        check_nuts(idata, spec.diagnostic_vars,
                   subset=spec.diagnostic_subset(marginal is not None))
        advice = spec.convergence_advice(idata)
        if advice:
            warn_user(advice, ConvergenceWarning)
    return idata


@fill_doc(**ADD_DOCS)
def add_log_likelihood(idata, model, *, progressbar=True):
    """The pointwise log-likelihood of a fit made without it (``log_likelihood=False``, or
    too large for the default), for ``az.loo`` and :func:`irteval.compare_models`:
    ``pymc.compute_log_likelihood`` with each cell labelled by the user's labels (``obs_item``,
    ``obs_respondent``, ...) as :func:`fit` labels them, where PyMC's numbers cells only.

    Parameters
    ----------
    idata : arviz.InferenceData
        A fit of ``model`` by :func:`fit` without a ``log_likelihood`` group, not MAP;
        changed in place.
    {fitted_model}
    progressbar : bool, default True
        Show PyMC's progress bar.

    Returns
    -------
    arviz.InferenceData
        ``idata``, with its ``log_likelihood`` group.
    """
    spec = _spec(model)
    _check_new_group(idata, model, spec, "log_likelihood", "az.loo needs posterior draws")
    pm.compute_log_likelihood(idata, model=model, progressbar=progressbar)
    _label_cells(idata, spec)
    return idata


@fill_doc(**ADD_DOCS)
def add_posterior_predictive(idata, model, *, random_seed=None, progressbar=True):
    """Replicated data for a fit made without them (``posterior_predictive=False``, or a
    ``posterior.nc`` an ``irteval`` command wrote), for ``az.plot_ppc``: the model's own
    replicates and checks (the binary IRT: answers ``y``, each respondent's ``accuracy``,
    each item's ``n_correct``), cells labelled as :func:`fit` labels them.

    Parameters
    ----------
    idata : arviz.InferenceData
        A fit of ``model`` by :func:`fit` without a ``posterior_predictive`` group, not MAP;
        changed in place.
    {fitted_model}
    random_seed : int, numpy.random.Generator or None, optional
        Seed of the replicates; by default the fit's own (``idata.attrs["random_seed"]``),
        which gives the draws ``fit(..., posterior_predictive=True)`` would have; a fit
        seeded with None or a Generator records none, and the replicates are then new.
    progressbar : bool, default True
        Show PyMC's progress lines (models replicated by PyMC).

    Returns
    -------
    arviz.InferenceData
        ``idata``, with its ``posterior_predictive`` group.
    """
    spec = _spec(model)
    _check_new_group(idata, model, spec, "posterior_predictive",
                     "a posterior predictive check replicates the data from posterior draws")
    if random_seed is None:
        random_seed = idata.attrs.get("random_seed")
    with quiet_pymc(not progressbar):
        spec.posterior_predictive(idata, model, _Seeds.from_seed(random_seed).predictive)
    _label_cells(idata, spec)
    return idata


def _check_new_group(idata, model, spec, group, why):
    """Refuse to add ``group`` where it exists, to a MAP fit (``why`` it needs draws), for a
    model without observed data or a minibatch one (random batches, not the data), and for a
    model built from other data than the fit's (:func:`_check_same_data`)."""
    if group in idata.groups():
        raise ValueError(f"idata already has a {group} group; del idata.{group} first to add "
                         "it again")
    if idata.attrs.get("irteval_method") == "map":
        raise ValueError(f"a MAP fit is one point, and {why}: fit with method='nuts' (or "
                         "'laplace', where the model has one)")
    if not model.observed_RVs:
        raise ValueError("this model has no observed variable")
    if spec.is_minibatch:
        raise ValueError("a minibatch model (batch_size=) sees random batches of cells, not "
                         "the data: build the model without batch_size=")
    family = idata.attrs.get("irteval_family")
    if family is not None and family != getattr(model, "family", family):
        raise ValueError(f"the fit is a {family} fit and the model a {model.family} one: build "
                         "the model the fit was made of")
    absent = [rv.name for rv in model.free_RVs if rv.name not in idata.posterior]
    if absent:  # (the same family with other options: the 2PL's a_z in a 1PL fit)
        raise ValueError(f"the fit's posterior has no {absent} of this model"
                         f"{_other_options(idata, model)}: build the model with the options "
                         "the fit was made with")
    _check_same_data(idata, model)


def _check_same_data(idata, model):
    """Refuse a model whose labels (on the posterior's dims) or observed values are not the
    fit's: its numbers would be wrong, with no error (the same data in another order too).
    Values are compared in float32, as a command's ``posterior.nc`` stores them."""
    post = idata.posterior
    for dim, labels in model.coords.items():
        if dim in post.coords and dim not in ("chain", "draw"):
            mine = pd.Index(np.asarray(labels)).astype(str)
            fitted = pd.Index(post[dim].values).astype(str)
            if not mine.equals(fitted):
                raise ValueError(f"the model's {dim} labels are not the fit's "
                                 f"({_first_difference(mine, fitted)}): build the model from "
                                 "the data the fit was made of, in the same order")
    try:
        _check_same_values_of(idata, model)
    except ValueError as err:
        raise ValueError(f"{err}{_other_options(idata, model)}") from None


def _other_options(idata, model):
    """'; ...' naming the options (``fit_attrs``) the fit was made with where the model's
    differ, else ''."""
    fitted, text = idata.attrs, lambda v: np.asarray(v).tolist()  # (as netCDF reads back)
    differ = [f"{key}={text(fitted[key])!r} (this model: {text(mine)!r})"
              for key, mine in model.fit_attrs().items()
              if key in fitted and str(text(fitted[key])) != str(text(mine))]
    return f"; the fit was made with {', '.join(differ)}" if differ else ""


def _check_same_values_of(idata, model):
    """The model's data and observed values are the fit's (:func:`_check_same_values`)."""
    constant = idata.constant_data if "constant_data" in idata.groups() else {}
    for var in model.data_vars:  # (with NaN where cells are missing: the mask checked too)
        value = np.asarray(var.get_value())
        if var.name in constant and value.dtype.kind in "fiub":
            _check_same_values(value, constant[var.name].values, f"data {var.name!r}")
    observed = idata.observed_data if "observed_data" in idata.groups() else {}
    for rv in model.observed_RVs:
        if rv.name not in observed:
            continue
        value = model.rvs_to_values[rv]
        mine = np.asarray(value.data if hasattr(value, "data") else value.get_value(), float)
        fitted = np.asarray(observed[rv.name].values, dtype=float)
        if mine.shape == fitted.shape:  # a fit's NaN: a missing cell (its mask checked above)
            fitted = np.where(np.isnan(fitted), mine, fitted)  # the model's 0 there
        _check_same_values(mine, fitted, f"observed {rv.name!r}")


def _check_same_values(mine, fitted, what):
    """Refuse the model's values ``what`` where they are not the fit's (float32, NaN = NaN):
    another layout (an earlier irteval's fit) or other data."""
    if np.ndim(mine) != np.ndim(fitted):
        raise ValueError(f"the fit stores {what} in another layout than this irteval "
                         f"({np.shape(fitted)} against the model's {np.shape(mine)}): a fit made "
                         "by an earlier version; refit")
    if np.shape(mine) != np.shape(fitted) or not np.allclose(
            np.asarray(mine, float).astype(np.float32),
            np.asarray(fitted, float).astype(np.float32), equal_nan=True):
        raise ValueError(f"the model's {what} is not the fit's: build the model from the data "
                         "(and with the options) the fit was made of")


def _first_difference(mine, fitted):
    """Where two label lists part: their lengths, else the first position that differs."""
    if len(mine) != len(fitted):
        return f"{len(mine)} labels against {len(fitted)}"
    at = int(np.argmax(np.asarray(mine) != np.asarray(fitted)))
    return f"position {at}: {mine[at]!r} against {fitted[at]!r}"


def _label_cells(idata, spec):
    """The model's labels of each cell (``obs_item``, ...) on every group with its cells."""
    for dim, coords in spec.cell_coords().items():
        # strings as given: xarray's check of object arrays took 0.1 s for each of 500 000
        # labels (it turns other objects, such as Timestamps, into types netCDF can store)
        assign_coords(idata, {name: xr.Variable(dim, values, fastpath=pd.api.types.infer_dtype(
            values, skipna=False) == "string") for name, values in coords.items()})


#: what each approximation leaves unused: its draws come from no sampler (and MAP is one point)
IGNORED = {"map": ("draws", "tune", "chains", "sampler", "target_accept", "keep_warmup"),
           "laplace": ("tune", "sampler", "target_accept", "keep_warmup"),
           "advi": ("tune", "sampler", "target_accept", "keep_warmup")}


def _warn_ignored(method, **given):
    """Warn of the settings ``given`` (name: whether passed) that ``method`` does not use."""
    unused = [f"{name}=" for name in IGNORED.get(method, ()) if given[name]]
    if unused:
        warn_user(f"method={method!r} "
                  + ("finds one point" if method == "map" else
                     "draws from an approximation, not a sampler,")
                  + f" and ignores {', '.join(unused)}")


def _run_settings(spec, method, collapse, sampler, tune, target_accept, sample_kwargs):
    """(the marginal form to fit or None, sampler, tune, target_accept): the model's defaults
    where None, checked together before any work."""
    marginal = spec.marginal(method) if collapse and method != "advi" else None
    sampler = sampler or nuts.default_sampler(
        "nutpie" if marginal is not None else spec.preferred_sampler())
    if tune is None:  # the shorter warm-ups were measured with nutpie on the NumPy densities
        on_density = sampler == "nutpie" and (marginal is not None or not sample_kwargs)
        tune = (spec.density_tune() if on_density else None) or spec.default_tune
    if sampler not in SAMPLERS:
        raise ValueError(f"sampler={sampler!r} is not one of {SAMPLERS}")
    if "initvals" in sample_kwargs:  # PyMC drops them for nutpie; the collapsed 1PL has no b
        if marginal is not None:
            raise ValueError("initvals=: this 1PL is sampled in its collapsed form (the "
                             "difficulties integrated out), which has no b to start from; pass "
                             "collapse=False with them")
        if sampler == "nutpie":
            raise ValueError("initvals= do not reach nutpie (PyMC drops them); pass "
                             "sampler='pymc' or 'numpyro' with them")
    if "init" in sample_kwargs and sampler != "pymc":  # (its mass matrix set-up: PyMC's NUTS)
        raise ValueError(f"init= does not reach {sampler} (PyMC drops it); pass sampler='pymc' "
                         "with it")
    if method == "nuts" and sampler == "nutpie" and tune == 0:  # a panic inside nutpie
        raise ValueError("tune=0: nutpie needs at least one warm-up step; give tune >= 1 (its "
                         "step size and mass matrix come from the warm-up), or sampler='pymc'")
    if method in ("laplace", "map") and spec.no_mode_reason(marginal is not None, method):
        raise ValueError(spec.no_mode_reason(marginal is not None, method))
    target_accept = spec.target_accept if target_accept is None else target_accept
    return marginal, sampler, tune, target_accept


def _run_attrs(method, random_seed, run):
    """What reruns the fit: ``random_seed`` (when a number), ``draws``, ``chains`` and, for
    NUTS, ``tune`` (a MAP has none of them)."""
    attrs = {"random_seed": int(random_seed)} if isinstance(random_seed, numbers.Integral) else {}
    if method != "map":
        attrs.update({k: int(run[k]) for k in ("draws", "chains")})
    if method == "nuts":
        attrs["tune"] = int(run["tune"])
    return attrs


def _spec(model) -> FitSpec:
    """The model's own fit specification, or PyMC's defaults (with a warning) for a plain
    ``pymc.Model``."""
    if not isinstance(model, pm.Model):
        builders = {"Scores": "bradley_terry", "Battles": "bradley_terry", "binary": "onepl",
                    "continuous": "continuous_irt", "ordinal": "polytomous_irt"}
        kind = getattr(model, "kind", None)  # Responses' kind (a DataFrame's column "kind"?)
        builder = builders.get(kind if isinstance(kind, str) else type(model).__name__)
        hint = (f"; build it first: ie.fit(ie.models.{builder}(data))" if builder else
                "; build one with irteval.models (onepl, continuous_irt, polytomous_irt, "
                "bradley_terry)")
        raise TypeError(f"expected a pymc.Model (from irteval.models), got "
                        f"{type(model).__name__}{hint}")
    if isinstance(model, FitSpec):
        return model
    warn_user("fit got a plain pymc.Model, not one built by irteval.models (pm.do, pm.observe "
              "and other model surgery return plain models). It is fitted with PyMC's "
              "defaults, without the model's own steps (the collapsed 1PL's exact sampler, the "
              "continuous IRT's optimised starts, reflection fix and alpha/beta/gamma/theta), "
              "and idata.attrs records no irteval family, so irteval's summaries will refuse "
              "it. Fit the model from irteval.models, or set idata.attrs['irteval_family'] "
              "yourself if your change keeps the model's meaning", ModelSpecWarning)
    return FitSpec()


@functools.cache
def _sample_keywords():
    """The keywords ``pymc.sample`` passes on: its own, its NUTS step's and ``nuts=``."""
    from pymc.step_methods.hmc.base_hmc import BaseHMC

    named = {name for f in (pm.sample, pm.NUTS.__init__, BaseHMC.__init__)
             for name in inspect.signature(f).parameters}
    return frozenset(named - {"self", "kwargs", "vars", "model"} | {"nuts"})


#: how to get a log-likelihood that a fit did not store, in Python's words
ADD_LATER = ", or add it later with irteval.add_log_likelihood(idata, model)"


def _check_arguments(model, spec, method, posterior_predictive, log_likelihood, sample_kwargs,
                     *, draws, chains, tune, advi_iterations, target_accept):
    """Every argument check before any work."""
    if method not in METHODS:
        raise ValueError(f"method={method!r} is not one of {METHODS}")
    if not (log_likelihood is True or log_likelihood is False or log_likelihood == "auto"):
        raise ValueError(f"log_likelihood must be 'auto', True or False, got {log_likelihood!r}")
    if method == "map" and log_likelihood is True:
        raise ValueError("log_likelihood=True with method='map': az.loo / az.compare need "
                         "posterior draws, and MAP is one point; fit with method='nuts' (or "
                         "'laplace', where the model has one) for them")
    if spec.is_minibatch and log_likelihood is True:
        raise ValueError("log_likelihood=True with a minibatch model (batch_size=): its "
                         "likelihood sees random batches of cells, not the data; build the "
                         "model without batch_size= for az.loo / az.compare")
    if not (posterior_predictive is True or posterior_predictive is False
            or posterior_predictive == "auto"):
        raise ValueError("posterior_predictive must be 'auto', True or False, got "
                         f"{posterior_predictive!r}")
    if method == "map" and posterior_predictive is True:
        raise ValueError("posterior_predictive=True with method='map': a posterior predictive "
                         "check replicates the data from posterior draws, and MAP is one point "
                         "(one replicate); fit with method='nuts' (or method='laplace', where "
                         "the model has one) for it")
    count(draws, "draws")
    count(chains, "chains")
    count(advi_iterations, "advi_iterations")
    if tune is not None:
        count(tune, "tune", minimum=0)
    if target_accept is not None and not (isinstance(target_accept, numbers.Real)
                                          and 0 < target_accept < 1):
        raise ValueError(f"target_accept must be a number between 0 and 1 (e.g. 0.9), got "
                         f"{target_accept!r}")
    alias = {"seed", "random_state"} & set(sample_kwargs)
    if alias:
        raise TypeError(f"fit() got {alias.pop()}=: irteval seeds a fit with random_seed=")
    set_by_fit = {"nuts_sampler": "choose the NUTS implementation with sampler=",
                  "compute_convergence_checks": "fit runs its own checks (idata.attrs "
                  "'max_rhat', 'min_ess_bulk', ...)"}
    for key in set_by_fit.keys() & set(sample_kwargs):
        raise TypeError(f"fit() sets pymc.sample's {key}= itself: {set_by_fit[key]}")
    if "cores" in sample_kwargs:  # (PyMC divided by it)
        count(sample_kwargs["cores"], "cores")
    unknown = sorted(set(sample_kwargs) - _sample_keywords())
    if unknown:
        own = [p for p in inspect.signature(fit).parameters if p not in ("model", "sample_kwargs")]
        close = {k: difflib.get_close_matches(k, own + sorted(_sample_keywords()), 1)
                 for k in unknown}
        hints = "; ".join(f"did you mean {c[0]}= for {k}=?" for k, c in close.items() if c)
        raise TypeError(f"fit() got unexpected keyword(s) {unknown}: neither fit's own nor "
                        f"pymc.sample's or its NUTS step's" + (f"; {hints}" if hints else ""))
    if sample_kwargs and method != "nuts":
        raise TypeError(f"fit(method={method!r}) takes no {sorted(sample_kwargs)}: further "
                        "keywords go to pymc.sample, for method='nuts' only")
    if spec.is_minibatch and (method != "advi" or posterior_predictive is True):
        raise ValueError("a minibatch model (built with batch_size=) can only be fitted with "
                         "method='advi' and without posterior_predictive; build it without "
                         "batch_size for NUTS, MAP, Laplace or predictive checks")
    if posterior_predictive is True and not model.observed_RVs:
        raise ValueError("this model has no observed variable to replicate")
    names = [rv.name for rv in model.observed_RVs]
    if len(set(names)) < len(names):
        raise ValueError(
            f"this model lists its observed variables twice ({names}): "
            "pm.sample_posterior_predictive(idata, model) without var_names= adds them "
            "again (PyMC 5.28), which breaks the model's log density. Fit model.copy() (the "
            "same model, built afresh), and pass var_names=" + repr(sorted(set(names)))
            + " to pm.sample_posterior_predictive, or fit with posterior_predictive=True")


def _draw_posterior_predictive(posterior_predictive, method, model, spec):
    """Whether to draw replicated data: with "auto" wherever the fit has posterior draws of
    one of irteval's models (each has a random draw for its observed data; a plain
    pymc.Model's CustomDist may not), ``_check_arguments`` having refused True elsewhere."""
    return posterior_predictive is True or (
        posterior_predictive == "auto" and method != "map" and not spec.is_minibatch
        and isinstance(model, FitSpec) and bool(model.observed_RVs))


def _megabytes(n_bytes):
    """``n_bytes`` in MB below 1 GB ("238 MB", not "0.2 GB" beside a 200 MB limit)."""
    return f"{n_bytes / 1e6:.0f} MB" if n_bytes < 1e9 else f"{n_bytes / 1e9:.1f} GB"


def _store_log_likelihood(log_likelihood, method, model, spec, idata):
    """Whether to compute the pointwise log-likelihood; with "auto" a large one is skipped
    with a warning that says how to get it."""
    if not log_likelihood or spec.is_minibatch or not model.observed_RVs or method == "map":
        return False
    n_draws = idata.posterior.sizes["chain"] * idata.posterior.sizes["draw"]
    size = n_draws * pointwise_size(model)
    if log_likelihood is True or size <= LOG_LIKELIHOOD_MAX:
        return True
    warn_user(f"the pointwise log-likelihood was not stored: {n_draws} draws x "
              f"{size // n_draws} observations would take {_megabytes(size * 8)}, above the "
              f"{_megabytes(LOG_LIKELIHOOD_MAX * 8)} stored by default; fit with "
              f"log_likelihood=True for az.loo / az.compare{ADD_LATER}")
    return False


def pointwise_size(model):
    """Number of pointwise log-likelihood terms of a model: for each observed variable, its
    value's size over the leading dims its elementwise log density keeps (all of them for a
    Bernoulli, or for a CustomDist whose logp is per cell; one fewer for a vector density)."""
    total = 0
    for rv in model.observed_RVs:
        value = model.rvs_to_values[rv]
        shape = np.shape(value.data if hasattr(value, "data") else value.get_value())
        ndim = model.logp(vars=[rv], sum=False, jacobian=False)[0].ndim
        total += int(np.prod(shape[:ndim]))
    return total


def _without_sampler(run):
    return {k: v for k, v in run.items() if k != "sampler"}


def _fit_nuts(spec, model, seeds, run, sample_kwargs, keep_warmup=False):
    """NUTS: nutpie on the model's NumPy density where it has one (nothing to compile),
    else the chosen sampler on the PyMC graph from the model's starting points."""
    if keep_warmup and run["sampler"] == "pymc":
        sample_kwargs.setdefault("discard_tuned_samples", False)
    elif keep_warmup and run["sampler"] == "numpyro":
        warn_user("numpyro (through PyMC) keeps no warm-up draws; fit with sampler='nutpie' "
                  "or 'pymc' to keep them")
    density = spec.density() if run["sampler"] == "nutpie" and not sample_kwargs else None
    if density is not None:
        starts = spec.start_points(run["chains"], seeds.init)
        return nuts.sample_density(density, model, seed=seeds.sampling, **_without_sampler(run),
                                   options=spec.nutpie_options, keep_warmup=keep_warmup,
                                   start=starts and density.layout.ravel(starts.best))
    starts = (spec.start_points(run["chains"], seeds.init)
              if "initvals" not in sample_kwargs else None)
    if run["sampler"] == "nutpie" and spec.nutpie_options:
        options = sample_kwargs.setdefault("nuts_sampler_kwargs", {})
        sample_kwargs["nuts_sampler_kwargs"] = {**spec.nutpie_options, **options}
    return nuts.sample(model, seed=seeds.sampling, starts=starts, init_seed=seeds.init, **run,
                       **sample_kwargs)


def _fit_mode(spec, model, method, seeds, run):
    """MAP or Laplace: the model's own marginal mode (the 2PL's EM) for MAP where it has one,
    else L-BFGS on its NumPy density, else the optimiser on the PyMC graph."""
    point_only = method == "map"
    mode = spec.marginal_mode() if point_only else None
    if mode is not None:
        return model_idata(model, {name: np.asarray(value)[None, None]
                                   for name, value in mode.items()})
    density = spec.density()
    start = spec.mode_start(seeds.sampling)
    if density is not None:
        return laplace_density(density, model, run["draws"], run["chains"], seeds.sampling,
                               point_only=point_only,
                               start=None if start is None else density.layout.ravel(start))
    return laplace(model, run["draws"], run["chains"], seeds.sampling, point_only=point_only,
                   start_point=start)


def _fit_marginal(spec, marginal, method, seeds, run, sample_kwargs):
    """Fit the exact marginal form (its NumPy density for nutpie, MAP and Laplace; its PyMC
    graph for the other samplers), then complete it to the model's posterior."""
    rng = np.random.default_rng(seeds.sampling)
    seed = int(rng.integers(2**31))
    if method == "nuts" and run["sampler"] == "nutpie" and not sample_kwargs:
        small = nuts.sample_density(marginal.density, marginal.frame(), seed=seed,
                                    **_without_sampler(run))
    elif method == "nuts":
        small = nuts.sample(marginal.model, seed=seed, **run, **sample_kwargs)
    else:
        small = laplace_density(marginal.density, marginal.frame(), run["draws"], run["chains"],
                                seed, point_only=method == "map")
    return spec.complete_marginal(small, rng, point_only=method == "map")
