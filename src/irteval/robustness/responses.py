"""Binary responses (correct / wrong) of classifiers on every instance, by cross-validation."""

from __future__ import annotations

import warnings
from functools import partial

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from rich.progress import track
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

from .._compat import renamed
from ..data import Responses


def fold_results(task, estimators, y, *, cv, random_seed, n_jobs, progressbar, description):
    """Run ``task(estimator, train, test, fold)`` for every estimator and stratified fold
    through joblib (so a Dask or Ray backend scales it out), with a progress bar; yields
    ``(name, test_positions, result)``."""
    if not isinstance(estimators, dict) or not estimators:
        raise ValueError("estimators must be a non-empty dict {name: estimator}")
    splitter = StratifiedKFold(cv, shuffle=True, random_state=random_seed)
    folds = list(splitter.split(np.zeros(len(y)), y))
    jobs = [(name, k) for name in estimators for k in range(len(folds))]
    results = Parallel(n_jobs=n_jobs, return_as="generator")(
        delayed(task)(estimators[name], *folds[k], k) for name, k in jobs)
    if progressbar:
        results = track(results, total=len(jobs), description=description)
    for (name, k), result in zip(jobs, results):
        yield name, folds[k][1], result


def _fit_predict(estimator, train, test, fold, *, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = clone(estimator).fit(X[train], y[train])
        return model.predict(X[test])


def cross_val_responses(estimators, X, y, *, cv=5, random_seed=0, n_jobs=None,
                        progressbar=True, random_state=None):
    """Stratified k-fold predictions of each estimator on each instance -> binary Responses.

    ``y_ij = 1`` when estimator j's out-of-fold prediction for instance i is right.
    Items are the instances (labelled by ``X``'s index when it is a DataFrame),
    respondents the estimators (labelled by the keys of ``estimators``).
    Runs (estimator, fold) jobs through joblib, so a Dask or Ray backend scales it out.
    (``random_state`` is the old name of ``random_seed``.)
    """
    random_seed = renamed(random_seed, random_state, "random_state", "random_seed")
    labels = X.index if isinstance(X, pd.DataFrame) else pd.RangeIndex(len(X))
    X_arr = np.asarray(X, dtype=float)
    y_arr = np.asarray(y)
    if len(X_arr) != len(y_arr):
        raise ValueError(f"X has {len(X_arr)} rows but y has {len(y_arr)}; they must match")
    names = list(estimators) if isinstance(estimators, dict) else []
    correct = np.zeros((len(y_arr), len(names)), dtype=np.int8)
    for name, test, pred in fold_results(
            partial(_fit_predict, X=X_arr, y=y_arr), estimators, y_arr, cv=cv,
            random_seed=random_seed, n_jobs=n_jobs, progressbar=progressbar,
            description="cross-validating"):
        correct[test, names.index(name)] = pred == y_arr[test]
    wide = pd.DataFrame(correct, index=pd.Index(labels, name="instance"), columns=names)
    return Responses.from_wide(wide, respondent="model", item="instance", rows="item")
