"""Bundled real data: the robustness benchmarks (optdigits, letter, wall-robot-navigation, with
their response matrices); EloML's auc_scores; VTAB; the AIRT portfolios (CSP-MiniZinc 2016,
airt's classification_cts)."""

from __future__ import annotations

from importlib import resources

import pandas as pd

from ..data import Responses, Scores
from .examples import EXAMPLES, write_examples

__all__ = ["BENCHMARKS", "EXAMPLES", "load_airt_reference", "load_auc_scores",
           "load_classification_cts", "load_csp_minizinc", "load_letter", "load_optdigits",
           "load_optdigits_responses", "load_responses", "load_vtab",
           "load_wall_robot_navigation", "write_examples"]


def _path(name):
    return resources.files(__package__) / "data" / name


def _read(name):
    with _path(name).open("rb") as fh:
        return pd.read_csv(fh, compression="gzip")


def _load_uci(name, return_X_y):
    df = _read(f"{name}.csv.gz")
    df.index.name = "instance"
    if return_X_y:
        return df.drop(columns="class"), df["class"]
    return df


def load_optdigits(return_X_y=False):
    """The UCI/OpenML optdigits data (5620 digits, 64 pixel-count features, class 0-9).

    Row i is OpenML row_id i (UCI train then test, as on OpenML).

    Parameters
    ----------
    return_X_y : bool, default False
        Return ``(X, y)``, as scikit-learn's loaders do.

    Returns
    -------
    pandas.DataFrame or (pandas.DataFrame, pandas.Series)
        The features and a ``class`` column, indexed by ``instance``; or the features and
        the classes apart.
    """
    return _load_uci("optdigits", return_X_y)


def load_letter(return_X_y=False):
    """The UCI/OpenML letter data (20000 letters, 16 integer features 0-15, class A-Z).

    Parameters
    ----------
    return_X_y : bool, default False
        Return ``(X, y)``; by default one DataFrame with a ``class`` column, as
        :func:`load_optdigits`.
    """
    return _load_uci("letter", return_X_y)


def load_wall_robot_navigation(return_X_y=False):
    """The UCI/OpenML wall-robot-navigation data (5456 readings of 24 ultrasound sensors,
    4 movement classes).

    Parameters
    ----------
    return_X_y : bool, default False
        Return ``(X, y)``; by default one DataFrame with a ``class`` column, as
        :func:`load_optdigits`.
    """
    return _load_uci("wall_robot_navigation", return_X_y)


#: the robustness paper's benchmarks: name -> loader
BENCHMARKS = {"optdigits": load_optdigits, "letter": load_letter,
              "wall_robot_navigation": load_wall_robot_navigation}


def load_responses(dataset, as_frame=False):
    """Which of 58 scikit-learn classifier configurations (17 families) got each instance of
    a benchmark (a key of :data:`BENCHMARKS`) right in 5-fold cross-validation (see
    ``data/README.md``).

    Parameters
    ----------
    dataset : {"optdigits", "letter", "wall_robot_navigation"}
        The benchmark.
    as_frame : bool, default False
        Return the wide 0/1 DataFrame instead of :class:`~irteval.Responses`.

    Returns
    -------
    irteval.Responses or pandas.DataFrame
        Binary responses (instances are items, models are respondents); with ``as_frame``
        the instances x models DataFrame, whose ``attrs`` tell
        :meth:`~irteval.Responses.from_wide` that its rows are the items.
    """
    if dataset not in BENCHMARKS:
        raise ValueError(f"unknown benchmark {dataset!r}; choose one of {sorted(BENCHMARKS)}")
    with _path(f"{dataset}_responses.csv.gz").open("rb") as fh:
        wide = pd.read_csv(fh, compression="gzip", index_col="instance")
    wide.columns.name = "model"
    wide.attrs["irteval_layout"] = {"respondent": "model", "item": "instance", "rows": "item"}
    return wide if as_frame else Responses.from_wide(wide)


def load_optdigits_responses(as_frame=False):
    """``load_responses("optdigits", as_frame)``.

    Parameters
    ----------
    as_frame : bool, default False
        Return the wide 0/1 DataFrame instead of :class:`~irteval.Responses`.
    """
    return load_responses("optdigits", as_frame)


def load_auc_scores(as_frame=False):
    """EloML's ``auc_scores``: AUC of 80 classifier configurations on 20 splits.

    Parameters
    ----------
    as_frame : bool, default False
        Return the long DataFrame (``model``, ``split``, ``auc``) instead.

    Returns
    -------
    irteval.Scores or pandas.DataFrame
        Players are the models, rounds the splits; higher is better.
    """
    df = _read("auc_scores.csv.gz")
    if as_frame:
        return df
    return Scores.from_long(df, player="model", round="split", score="auc")


def load_vtab(as_frame=False):
    """VTAB as in the EPP paper: top-1 accuracy of 16 pre-trained models on 19 tasks.

    Parameters
    ----------
    as_frame : bool, default False
        Return the long DataFrame (``model``, ``dataset``, ``top1_accuracy``) instead.

    Returns
    -------
    irteval.Scores or pandas.DataFrame
        Players are the models, rounds the tasks; higher is better.
    """
    df = _read("vtab.csv.gz")
    if as_frame:
        return df
    return Scores.from_long(df, player="model", round="dataset", score="top1_accuracy")


def load_csp_minizinc(as_frame=False, transform="airt"):
    """The AIRT paper's running example: 22 solvers of the MiniZinc Challenge 2016 (free search)
    on 99 problems, performance 1 / (t + 1) of the run time t in seconds (timeouts at 6000).

    Parameters
    ----------
    as_frame : bool, default False
        Return the wide DataFrame (a row per problem, ``instance_id`` as index) instead.
    transform : {"airt", "logit"}, default "airt"
        How performances map to the model scale: airt's preprocessing, or the logit
        (:mod:`irteval.data.scaling`).

    Returns
    -------
    irteval.Responses or pandas.DataFrame
        Continuous responses (problems are respondents, solvers items) with the global
        bounds of the reference (min and max of the whole matrix).
    """
    df = _read("csp_minizinc_2016.csv.gz").set_index("instance_id")
    if as_frame:
        return df
    values = df.to_numpy()
    return Responses.from_wide(df, respondent="problem", item="algorithm", kind="continuous",
                               bounds=(values.min(), values.max()), transform=transform)


def load_classification_cts(as_frame=False, transform="airt"):
    """airt's ``classification_cts``: accuracy-type performance in [0.01, 1] of 10 classifiers
    on 235 datasets (MATILDA).

    Parameters
    ----------
    as_frame : bool, default False
        Return the wide DataFrame (``dataset_row`` as index) instead.
    transform : {"airt", "logit"}, default "airt"
        How performances map to the model scale (:mod:`irteval.data.scaling`).

    Returns
    -------
    irteval.Responses or pandas.DataFrame
        Continuous responses (datasets are respondents, classifiers items) with bounds
        (0, 1), as airt's vignette.
    """
    df = _read("classification_cts.csv.gz").set_index("dataset_row")
    if as_frame:
        return df
    return Responses.from_wide(df, respondent="dataset", item="algorithm", kind="continuous",
                               bounds=(0.0, 1.0), transform=transform)


def load_airt_reference(dataset):
    """airt 0.2.3's estimates (EM, Shojima's method) for ``"csp_minizinc_2016"`` (global
    bounds, as the paper), ``"classification_cts"`` (bounds 0/1, as airt's vignette) or
    ``"s1_readme"`` (airt's README example, per-column bounds), in this package's notation.

    Parameters
    ----------
    dataset : {"csp_minizinc_2016", "classification_cts", "s1_readme"}
        Which reference.

    Returns
    -------
    pandas.DataFrame
        Indexed by algorithm: ``alpha`` (airt's a), ``beta`` (b), ``gamma`` (airt's alpha)
        and airt's standard errors ``se_alpha``, ``se_beta``, ``se_gamma``.
    """
    df = _read("airt_reference.csv.gz")
    if dataset not in set(df["dataset"]):
        raise ValueError(f"no airt reference for {dataset!r}; choose one of "
                         f"{sorted(set(df['dataset']))}")
    df = df[df["dataset"] == dataset].set_index("algorithm").drop(columns="dataset")
    return df.rename(columns={"a": "alpha", "b": "beta", "alpha": "gamma", "se_a": "se_alpha",
                              "se_b": "se_beta", "se_alpha": "se_gamma"})
