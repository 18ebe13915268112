"""Running classifiers over stratified folds of the data they are given: the data checked,
nominal columns one-hot encoded inside each model, hyper-parameters that cannot work on data
this small clipped (a neighbour count above the training rows, more PLS components than
features), and a configuration that still fails skipped with a warning that names it."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.compose import ColumnTransformer
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

from .._validation import count, listed, plain, plural, warn_user, where
from ..parallel import map_draws

#: hyper-parameters bounded by the data: name -> bound(training rows, features)
BOUNDS = {"n_neighbors": lambda n_train, n_features: n_train,
          "n_components": lambda n_train, n_features: min(n_train, n_features)}


def check_nominal(nominal):
    """``nominal`` is a list of column names, not one name (its letters would be columns)."""
    if isinstance(nominal, str):
        raise TypeError(f"nominal= takes a list of column names, e.g. nominal=[{nominal!r}]")


def check_noise(noise):
    """``noise`` a finite number >= 0 (the perturbation's magnitude)."""
    if isinstance(noise, (bool, np.bool_)) or not isinstance(noise, (int, float, np.number)) \
            or not np.isfinite(noise) or noise < 0:
        raise ValueError(f"noise must be a finite number >= 0 (e.g. 0.2), got {noise!r}")


def check_features(X, nominal, name="X"):
    """The ``nominal`` columns in ``X``, no missing or infinite value, numbers in every other
    column; errors name the columns and rows."""
    unknown = [c for c in nominal if c not in X.columns]
    if unknown:
        raise ValueError(f"nominal columns {unknown} are not in {name} (columns: "
                         f"{listed(X.columns)}); name columns of {name} in nominal=")
    holes = X.columns[X.isna().any()].tolist()
    if holes:
        raise ValueError(f"{name} has missing values in columns {holes[:5]} ("
                         f"{where(X.index, np.flatnonzero(X.isna().any(axis=1)))}); impute them "
                         "or drop those rows first")
    infinite = np.isinf(X.select_dtypes("number").to_numpy(dtype=float))
    if infinite.any():
        columns = X.select_dtypes("number").columns[infinite.any(axis=0)].tolist()
        raise ValueError(f"{name} has infinite values in columns {columns[:5]} ("
                         f"{where(X.index, np.flatnonzero(infinite.any(axis=1)))}); replace "
                         "them or drop those rows first")
    text = [c for c in X.columns if c not in nominal and not pd.api.types.is_numeric_dtype(X[c])]
    if text:
        raise ValueError(f"columns {text[:5]} are not numeric; list them as nominal "
                         "(nominal=) or convert them to numbers")


def check_data(X, y, nominal=()):
    """(X as a DataFrame, y as a Series on its index) after checking that they fit together:
    same rows, no missing values, numbers in every column not listed as nominal, two classes
    at least."""
    if not isinstance(X, pd.DataFrame):
        raise TypeError("X must be a pandas DataFrame (its index labels the instances)")
    unlabelled = X.index.to_frame().isna().any(axis=1).to_numpy()  # a MultiIndex too
    if X.index.has_duplicates or unlabelled.any():
        bad = X.index[X.index.duplicated(keep=False) | unlabelled]
        raise ValueError(f"X's index labels the instances, and {len(bad)} rows share a label or "
                         f"have none (e.g. {list(bad[:3])}); give every row its own label "
                         "(X.reset_index(drop=True) numbers them from 0)")
    if len(y) != len(X):
        raise ValueError(f"X has {len(X)} rows but y has {len(y)}; they must match (one target "
                         "per instance)")
    if isinstance(y, pd.Series) and not y.index.equals(X.index):
        if set(y.index) != set(X.index) or y.index.has_duplicates:
            raise ValueError(f"y's index does not label X's rows (e.g. y has "
                             f"{list(y.index[:3])}, X {list(X.index[:3])}); give y on X's "
                             "index, or a plain array in X's row order")
        y = y.reindex(X.index)  # the same labels in another order: matched by label
    y = pd.Series(np.asarray(y), index=X.index, name=getattr(y, "name", None))
    if len(X) < 2:
        raise ValueError(f"X has {len(X)} row; cross-validation needs more instances")
    check_nominal(nominal)
    check_features(X, nominal)
    if y.isna().any():
        n_missing = int(y.isna().sum())
        raise ValueError(f"the target has {plural(n_missing, 'missing label')} ("
                         f"{where(X.index, np.flatnonzero(y.isna()))}); drop those rows first")
    if y.nunique() < 2:
        raise ValueError(f"the target has one class only ({plain(y.iloc[0])!r}); a classifier "
                         "needs two at least")
    return X, y


def check_estimators(estimators):
    """A non-empty dict {name: scikit-learn classifier} (fit, predict, get_params), or an
    error naming the first that is not one."""
    if not isinstance(estimators, dict) or not estimators:
        raise ValueError("estimators must be a non-empty dict {name: estimator}")
    for name, estimator in estimators.items():
        if isinstance(estimator, type):
            raise TypeError(f"estimators[{name!r}] is the class {estimator.__name__}, not an "
                            f"estimator: give {estimator.__name__}() (with its parentheses)")
        if not all(hasattr(estimator, m) for m in ("fit", "predict", "get_params")):
            raise TypeError(f"estimators[{name!r}] ({type(estimator).__name__}) is not a "
                            "scikit-learn classifier (fit, predict, get_params), e.g. "
                            "LogisticRegression(); robustness.families() has some")


def prepare(estimators, X, *, nominal=(), cv=5, random_seed=0):
    """The estimators, ready for ``X``: hyper-parameters above what the smallest training fold
    allows clipped (with one warning naming each change), a ``random_state`` left None set to
    ``random_seed`` (an int: the same seed, the same fits) and nominal columns one-hot encoded
    in front of each model."""
    check_estimators(estimators)
    if not 2 <= count(cv, "cv", minimum=2) <= len(X):
        raise ValueError(f"cv={cv}: more folds than the {len(X)} instances")
    n_train = len(X) - -(-len(X) // cv)  # the smallest training fold
    n_features = len(X.columns) - len(nominal) + sum(X[c].nunique() for c in nominal)
    ready = {}
    for name, estimator in estimators.items():
        params = estimator.get_params()
        changes = {key: BOUNDS[key.rsplit("__", 1)[-1]](n_train, n_features)
                   for key, value in params.items()
                   if key.rsplit("__", 1)[-1] in BOUNDS and isinstance(value, (int, np.integer))
                   and value > BOUNDS[key.rsplit("__", 1)[-1]](n_train, n_features)}
        unseeded = {key: random_seed for key, value in params.items()
                    if key.rsplit("__", 1)[-1] == "random_state" and value is None}
        estimator = clone(estimator).set_params(**changes, **unseeded)
        if changes:
            said = ", ".join(f"{k.rsplit('__', 1)[-1]} {params[k]} -> {v}"
                             for k, v in changes.items())
            warn_user(f"{name}: {said} (the data give {n_train} training rows per fold and "
                      f"{n_features} features)")
        if nominal:
            encode = ColumnTransformer([("nominal", OneHotEncoder(
                handle_unknown="ignore", sparse_output=False), list(nominal))],
                remainder="passthrough")
            estimator = make_pipeline(encode, estimator)
        ready[name] = estimator
    return ready


class _Failed:
    def __init__(self, error):
        self.error = error


def _guarded(job):
    """``task(*args)`` of a job ``(task, *args)``, or :class:`_Failed` with its error."""
    task, *args = job
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return task(*args)
    except Exception as err:  # one configuration failing must not stop the others
        return _Failed(f"{type(err).__name__}: {err}")


def fold_results(task, estimators, y, *, cv, random_seed, n_jobs, progressbar, description):
    """``task(estimator, train, test, fold)`` for every estimator and stratified fold, through
    joblib (so a Dask or Ray backend scales it out), with a progress bar. Returns the
    estimators that ran on every fold and [(name, test positions, result)]; an estimator that
    failed on some fold is left out with a warning naming it and the error."""
    counts = pd.Series(y).value_counts()
    if counts.max() < cv:
        raise ValueError(f"no class has {cv} members (the largest has {counts.max()}), so "
                         f"{cv}-fold cross-validation is impossible; use fewer folds (cv=)")
    splitter = StratifiedKFold(cv, shuffle=True, random_state=random_seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "the least populated class has only 3 members"
        folds = list(splitter.split(np.zeros(len(y)), y))
    jobs = [(name, k) for name in estimators for k in range(len(folds))]
    results = map_draws(_guarded, [(task, estimators[name], *folds[k], k) for name, k in jobs],
                        n_jobs=n_jobs, progressbar=progressbar, description=description)
    done = [(name, folds[k][1], result) for (name, k), result in zip(jobs, results)]
    failed = {}
    for name, _, result in done:
        if isinstance(result, _Failed):
            failed.setdefault(name, result.error)
    for name, error in failed.items():
        warn_user(f"skipped {name}: it failed on these data ({error})")
    if len(failed) == len(estimators):
        raise ValueError(f"every model failed on these data, e.g. {next(iter(failed))}: "
                         f"{next(iter(failed.values()))}")
    kept = [name for name in estimators if name not in failed]
    return kept, [row for row in done if row[0] not in failed]
