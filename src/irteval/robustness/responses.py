"""Binary responses (correct / wrong) of classifiers on every instance, by cross-validation."""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd
from sklearn.base import clone

from .._compat import renamed
from .._docs import fill_doc
from .._validation import fixed_seed
from ..data import Responses
from .folds import check_data, fold_results, prepare
from .scc import NOISE_DOCS


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
        Seeds the folds (shuffled); the same seed gives the same responses.
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
    if isinstance(estimators, dict) and len(estimators) == 1:  # before any training
        raise ValueError("one estimator makes a response matrix of one model: an IRT model "
                         "compares two at least; give more (robustness.families())")
    ready = prepare(estimators, X, nominal=nominal, cv=cv)
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
