"""Classifiers trained by cross-validation: which instances each got right (the binary
response matrix of :func:`cross_val_responses`) and what each predicted on the clean and on
the perturbed instances (:func:`noisy_predictions`, the input of the SCCs)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd
from sklearn.base import clone

from .._compat import UnpacksWithWarning, renamed
from .._docs import fill_doc
from .._repr import ShortRepr
from .._validation import fixed_seed
from ..data import Responses
from .folds import check_data, check_estimators, check_noise, fold_results, prepare
from .perturb import check_integer_noise, perturb

#: docstring entries of the noisy training (noisy_predictions, scc, cross_val_responses)
NOISE_DOCS = {
    "estimators": """\
estimators : dict
    ``{name: scikit-learn classifier}``, not empty; each is cloned and fitted per fold,
    its hyper-parameters clipped to what the smallest training fold allows (with a
    warning); a model that fails on the data is skipped, with a warning.""",
    "X": """\
X : pandas.DataFrame
    The instances, labelled by the index (one label each), without missing or infinite
    values; columns not in ``nominal`` numeric.""",
    "y": """\
y : array-like or pandas.Series
    The class of each row of ``X`` (two classes at least); a Series is matched to ``X``
    by its index.""",
    "noise": """\
noise : float, default 0.2
    The noise magnitude eps (>= 0): numeric columns get Normal(0, eps * training sd)
    noise, nominal ones are redrawn from the training fold with probability
    1 - exp(-eps) (:func:`~irteval.robustness.perturb`).""",
    "nominal": """\
nominal : list of str, default ()
    Nominal columns of ``X``: one-hot encoded in front of every model, and redrawn by the
    noise.""",
    "integer_noise": """\
integer_noise : {"redraw", "gaussian"}, default "redraw"
    How the other integer and boolean columns are perturbed: redrawn like the nominal
    ones (the reference code's rule) or with Gaussian noise like floats.""",
    "cv": """\
cv : int, default 5
    Number of stratified folds (from 2 to the number of instances; some class needs
    ``cv`` members).""",
}
#: what scc passes on to noisy_predictions, in the order both take it
NOISE_DOCS["noisy_training"] = "\n".join(NOISE_DOCS[name] for name in (
    "estimators", "X", "y", "noise", "nominal", "integer_noise", "cv"))


@dataclass(frozen=True, repr=False)
class NoisyPredictions(ShortRepr, UnpacksWithWarning):
    """Out-of-fold predictions, instances x models: on the clean and on the perturbed
    instances (the result of :func:`noisy_predictions`; unpacking it as a pair still works,
    with a ``FutureWarning``).

    Attributes
    ----------
    clean : pandas.DataFrame
        Instances (``X``'s index) x models: each model's prediction on the clean instance.
    perturbed : pandas.DataFrame
        The same on the perturbed instance.
    """

    clean: pd.DataFrame
    perturbed: pd.DataFrame


def _fit_predict_twice(estimator, train, test, fold, *, X, y, noise, nominal, integer_noise,
                       seeds):
    model = clone(estimator).fit(X.iloc[train], y.iloc[train])
    noisy = perturb(X.iloc[test], X.iloc[train], noise=noise, nominal=nominal,
                    integer_noise=integer_noise, random_seed=np.random.default_rng(seeds[fold]))
    return model.predict(X.iloc[test]), model.predict(noisy)


@fill_doc(**NOISE_DOCS)
def noisy_predictions(estimators, X, y, *, noise=0.2, nominal=(), integer_noise="redraw", cv=5,
                      random_seed=0, n_jobs=None, progressbar=True,
                      random_state=None) -> NoisyPredictions:
    """Out-of-fold predictions of every model on the clean and on the perturbed instances;
    the noise of each test fold uses that fold's training statistics
    (:func:`~irteval.robustness.perturb`, which also explains ``noise``, ``nominal`` and
    ``integer_noise``).

    Parameters
    ----------
    {noisy_training}
    random_seed : int, numpy.random.Generator or None, default 0
        Seeds the folds, the noise and every estimator whose ``random_state`` is None; the
        same seed gives the same predictions.
    n_jobs : int, optional
        Workers for the (model, fold) fits, through joblib: ``None`` runs in this process
        unless a ``joblib.parallel_config`` says otherwise (a Dask or Ray backend scales it
        out), ``-1`` uses every core.
    {progressbar}
    {random_state}

    Returns
    -------
    NoisyPredictions
        ``clean`` and ``perturbed`` predictions, instances x models (the models that ran).
    """
    random_seed = fixed_seed(renamed(random_seed, random_state, "random_state", "random_seed", 0))
    check_noise(noise)
    check_integer_noise(integer_noise)
    X, y = check_data(X, y, nominal)
    ready = prepare(estimators, X, nominal=nominal, cv=cv, random_seed=random_seed)
    task = partial(_fit_predict_twice, X=X, y=y, noise=noise, nominal=list(nominal),
                   integer_noise=integer_noise,
                   seeds=np.random.SeedSequence(random_seed).spawn(cv))
    names, results = fold_results(task, ready, y, cv=cv, random_seed=random_seed,
                                  n_jobs=n_jobs, progressbar=progressbar,
                                  description="training with noise")
    clean = pd.DataFrame(index=X.index, columns=names, dtype=object)
    perturbed = clean.copy()
    for name, test, (pred_clean, pred_noisy) in results:
        clean.loc[X.index[test], name] = pred_clean
        perturbed.loc[X.index[test], name] = pred_noisy
    return NoisyPredictions(clean, perturbed)




def _fit_predict(estimator, train, test, fold, *, X, y):
    model = clone(estimator).fit(X.iloc[train], y.iloc[train])
    return model.predict(X.iloc[test])


@fill_doc(**NOISE_DOCS)
def cross_val_responses(estimators, X, y, *, nominal=(), cv=5, random_seed=0, n_jobs=None,
                        progressbar=True, random_state=None):
    """Stratified k-fold predictions of each estimator on each instance -> binary Responses.

    ``y_ij = 1`` when estimator j's out-of-fold prediction for instance i is right.
    Items are the instances (labelled by ``X``'s index, named after it or "instance"; a
    NumPy array gets 0..n-1),
    respondents the estimators (labelled by the keys of ``estimators``). ``nominal`` columns
    are one-hot encoded in front of every model, and the models are fitted to the data as
    :mod:`irteval.robustness.folds` says (a model that cannot run is skipped, with a warning).
    Runs (estimator, fold) jobs through joblib, so a Dask or Ray backend scales it out.

    Parameters
    ----------
    estimators : dict
        ``{name: scikit-learn classifier}``, two at least (e.g.
        :func:`~irteval.robustness.zoo`); each is cloned and fitted per fold.
    X : pandas.DataFrame or array-like
        The instances, one label each, without missing or infinite values; columns not in
        ``nominal`` numeric.
    {y}
    nominal : list of str, default ()
        Nominal columns of ``X``, one-hot encoded in front of every model.
    {cv}
    random_seed : int, numpy.random.Generator or None, default 0
        Seeds the folds (shuffled) and every estimator whose ``random_state`` is None; the
        same seed gives the same responses.
    n_jobs : int, optional
        Workers for the (estimator, fold) fits, through joblib: ``None`` runs in this
        process unless a ``joblib.parallel_config`` says otherwise, ``-1`` uses every core.
    {progressbar}
    {random_state}

    Returns
    -------
    irteval.Responses
        Binary responses: items the instances, respondents (named ``"model"``) the models
        that ran.
    """
    random_seed = fixed_seed(renamed(random_seed, random_state, "random_state", "random_seed", 0))
    if not isinstance(X, pd.DataFrame):
        X = pd.DataFrame(np.asarray(X))
    X, y = check_data(X, y, nominal)
    check_estimators(estimators)
    if len(estimators) == 1:  # before any training
        raise ValueError("one estimator makes a response matrix of one model: an IRT model "
                         "compares two at least; give more (robustness.families())")
    ready = prepare(estimators, X, nominal=nominal, cv=cv, random_seed=random_seed)
    names, results = fold_results(
        partial(_fit_predict, X=X, y=y), ready, y, cv=cv, random_seed=random_seed,
        n_jobs=n_jobs, progressbar=progressbar, description="cross-validating")
    correct = np.zeros((len(y), len(names)), dtype=np.int8)
    truth = y.to_numpy()
    for name, test, pred in results:
        correct[test, names.index(name)] = pred == truth[test]
    named = isinstance(X.index.name, str) and X.index.name not in ("", "model")
    item = X.index.name if named else "instance"
    wide = pd.DataFrame(correct, index=pd.Index(X.index, name=item), columns=names)
    return Responses.from_wide(wide, respondent="model", item=item, rows="item")
