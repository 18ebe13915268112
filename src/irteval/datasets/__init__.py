"""Bundled real data: the optdigits benchmark and its cross-validated response matrix."""

from __future__ import annotations

from importlib import resources

import pandas as pd

from ..data import Responses

__all__ = ["load_optdigits", "load_optdigits_responses"]


def _path(name):
    return resources.files(__package__) / "data" / name


def load_optdigits(return_X_y=False):
    """The UCI/OpenML optdigits data (5620 digits, 64 pixel-count features, class 0-9).

    Returns a DataFrame with the features and a ``class`` column, or ``(X, y)``.
    Row i is OpenML row_id i (UCI train then test, as on OpenML).
    """
    with _path("optdigits.csv.gz").open("rb") as fh:
        df = pd.read_csv(fh, compression="gzip")
    df.index.name = "instance"
    if return_X_y:
        return df.drop(columns="class"), df["class"]
    return df


def load_optdigits_responses(as_frame=False):
    """Which of 58 scikit-learn classifier configurations (17 families) got each optdigits
    instance right in 5-fold cross-validation (see ``data/README.md``).

    Returns a binary :class:`~irteval.Responses` (instances are items, models are
    respondents), or the instances x models 0/1 DataFrame with ``as_frame=True``.
    """
    with _path("optdigits_responses.csv.gz").open("rb") as fh:
        wide = pd.read_csv(fh, compression="gzip", index_col="instance")
    if as_frame:
        return wide
    return Responses.from_wide(wide, respondent="model", item="instance", rows="item")
