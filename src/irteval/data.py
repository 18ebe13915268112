"""Item-response data: who (respondent) answered what (item), and how well.

A :class:`Responses` holds observed cells in long form: one entry per observed
(item, respondent) pair, with integer codes into ``items`` and ``respondents``.
Missing cells are simply absent, so models index their parameters with the codes
and never see a placeholder value.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .scaling import TRANSFORMS, resolve_bounds, to_z

KINDS = ("binary", "continuous")


@dataclass(frozen=True)
class Responses:
    """Observed responses of respondents to items.

    Attributes
    ----------
    items, respondents : pandas.Index
        Labels, in the order of the integer codes.
    item_idx, respondent_idx : ndarray of int
        Codes of each observed cell.
    values : ndarray
        The observed value of each cell (0/1 for ``kind="binary"``).
    item_name, respondent_name : str
        What items and respondents are in the user's words (``"instance"``, ``"model"``).
    kind : str
        ``"binary"`` (0/1) or ``"continuous"`` (a performance within bounds).
    lower, upper : ndarray or None
        Continuous: each item's bounds (:mod:`irteval.scaling`).
    transform, clip
        Continuous: how values map to the model scale :attr:`z`.
    """

    items: pd.Index
    respondents: pd.Index
    item_idx: np.ndarray
    respondent_idx: np.ndarray
    values: np.ndarray
    item_name: str = "item"
    respondent_name: str = "respondent"
    kind: str = "binary"
    lower: np.ndarray | None = None
    upper: np.ndarray | None = None
    transform: str | None = None
    clip: float | None = None

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_long(cls, df, *, respondent, item, value, kind="binary", bounds="column",
                  transform="logit", clip=0.01):
        """Build from a long table with one row per (respondent, item) cell.

        Rows whose value is missing are treated as missing cells (with a warning
        that counts them); duplicate cells must agree and are kept once.
        ``bounds``, ``transform`` and ``clip`` apply to ``kind="continuous"``: see
        :func:`irteval.scaling.resolve_bounds` and :func:`irteval.scaling.to_z`.
        """
        _check_frame(df)
        _check_kind(kind)
        _check_columns(df, (respondent, item, value), "respondent=, item= or value=")
        if respondent == item:
            raise ValueError("respondent= and item= name the same column; they must differ")
        for col in (respondent, item):
            _check_labels(df[col], col)
        vals = _numeric_values(df[value], value)
        missing = np.isnan(vals)
        if missing.all():
            raise ValueError(f"column {value!r} has no observed values; nothing to fit")
        if missing.any():
            _warn(
                f"{int(missing.sum())} rows have a missing {value!r} and are treated as "
                "missing cells; drop them first to silence this warning"
            )
        frame = pd.DataFrame(
            {"r": df[respondent].to_numpy()[~missing], "i": df[item].to_numpy()[~missing],
             "v": vals[~missing]}
        )
        frame = _deduplicate(frame, respondent, item, value)
        items = pd.Index(pd.unique(frame["i"]), name=item)
        respondents = pd.Index(pd.unique(frame["r"]), name=respondent)
        return cls._from_codes(
            items, respondents, items.get_indexer(frame["i"]),
            respondents.get_indexer(frame["r"]), frame["v"].to_numpy(),
            item_name=item, respondent_name=respondent, kind=kind, value_name=value,
            scale=(bounds, transform, clip),
        )

    @classmethod
    def from_wide(cls, df, *, respondent="respondent", item="item", rows="respondent",
                  kind="binary", bounds="column", transform="logit", clip=0.01):
        """Build from a matrix: rows are respondents (or items with ``rows="item"``).

        Row labels come from the column named by ``respondent`` (or ``item``) when
        the frame has one, else from its index; column names are the other labels.
        NaN cells are missing. For ``kind="continuous"`` (AIRT: datasets are respondents,
        algorithms items) values are performances: ``bounds`` ("column", "global",
        ``(lo, hi)`` or {item: (lo, hi)}), ``transform`` ("logit", or "airt" for airt's
        preprocessing) and ``clip`` define the model scale :attr:`z`
        (:mod:`irteval.scaling`).
        """
        _check_frame(df)
        _check_kind(kind)
        if rows not in ("respondent", "item"):
            raise ValueError(f"rows must be 'respondent' or 'item', got {rows!r}")
        row_name, col_name = (respondent, item) if rows == "respondent" else (item, respondent)
        df = _labelled_matrix(df, row_name, col_name)
        if df.shape[0] == 0 or df.shape[1] == 0:
            raise ValueError(f"the matrix is empty (shape {df.shape}); nothing to fit")
        mat = np.column_stack([_numeric_values(df[c], f"column {c!r}") for c in df.columns])
        r_idx, c_idx = np.nonzero(~np.isnan(mat))
        if rows == "respondent":
            items, respondents, i_idx, p_idx = df.columns, df.index, c_idx, r_idx
        else:
            items, respondents, i_idx, p_idx = df.index, df.columns, r_idx, c_idx
        return cls._from_codes(
            pd.Index(items, name=item), pd.Index(respondents, name=respondent), i_idx, p_idx,
            mat[r_idx, c_idx], item_name=item, respondent_name=respondent, kind=kind,
            value_name="the matrix", scale=(bounds, transform, clip),
        )

    @classmethod
    def _from_codes(cls, items, respondents, item_idx, respondent_idx, values, *,
                    item_name, respondent_name, kind, value_name, scale=None):
        if len(values) == 0:
            raise ValueError("there are no observed cells; nothing to fit")
        if len(respondents) < 2:
            raise ValueError(
                f"only one {respondent_name} ({respondents[0]!r}): an IRT model compares "
                f"{respondent_name}s, so it needs at least two; add more {respondent_name}s"
            )
        for labels, codes, name in ((items, item_idx, item_name),
                                    (respondents, respondent_idx, respondent_name)):
            empty = np.bincount(codes, minlength=len(labels)) == 0
            if empty.any():
                raise ValueError(
                    f"{int(empty.sum())} {name} labels have no observed value "
                    f"(e.g. {list(labels[empty][:5])}); drop those empty rows/columns first"
                )
        if kind == "binary":
            bad = ~np.isin(values, (0.0, 1.0))
            if bad.any():
                raise ValueError(
                    f"{value_name} must be 0/1 (or True/False) for a binary model; found "
                    f"{int(bad.sum())} other values, e.g. {sorted(set(values[bad].tolist()))[:5]}. "
                    "Code correct answers as 1 and wrong ones as 0"
                )
            values = values.astype(np.int8)
            extra = {}
        else:
            bounds, transform, clip = scale
            if transform not in TRANSFORMS:
                raise ValueError(f"transform={transform!r} is not one of {TRANSFORMS}")
            if not 0 < clip < 0.5:
                raise ValueError(f"clip must lie in (0, 0.5), got {clip}")
            lower, upper = resolve_bounds(values, np.asarray(item_idx), items, bounds,
                                          item_name)
            extra = {"lower": lower, "upper": upper, "transform": transform, "clip": clip}
        return cls(items=items, respondents=respondents,
                   item_idx=np.asarray(item_idx, dtype=np.int64),
                   respondent_idx=np.asarray(respondent_idx, dtype=np.int64),
                   values=values, item_name=item_name, respondent_name=respondent_name,
                   kind=kind, **extra)

    # ------------------------------------------------------------------ views
    @property
    def n_items(self) -> int:
        return len(self.items)

    @property
    def n_respondents(self) -> int:
        return len(self.respondents)

    @property
    def n_obs(self) -> int:
        return len(self.values)

    @property
    def z(self) -> np.ndarray:
        """Continuous responses on the model scale (:func:`irteval.scaling.to_z`)."""
        if self.kind != "continuous":
            raise ValueError("z exists for continuous responses only")
        return to_z(self.values, self.lower[self.item_idx], self.upper[self.item_idx],
                    self.transform, self.clip)

    def to_wide(self, rows="item") -> pd.DataFrame:
        """The response matrix (NaN where missing), items as rows by default."""
        mat = np.full((self.n_items, self.n_respondents), np.nan)
        mat[self.item_idx, self.respondent_idx] = self.values
        df = pd.DataFrame(mat, index=self.items, columns=self.respondents)
        return df if rows == "item" else df.T

    def to_long(self) -> pd.DataFrame:
        """One row per observed cell: respondent, item and value."""
        return pd.DataFrame({
            self.respondent_name: self.respondents[self.respondent_idx],
            self.item_name: self.items[self.item_idx],
            "value": self.values,
        })

    def subset(self, items=None, respondents=None) -> Responses:
        """Keep only the given item and/or respondent labels (in their original order)."""
        keep_i = np.ones(self.n_items, bool) if items is None else self.items.isin(items)
        keep_r = (np.ones(self.n_respondents, bool) if respondents is None
                  else self.respondents.isin(respondents))
        for wanted, labels, name in ((items, self.items, self.item_name),
                                     (respondents, self.respondents, self.respondent_name)):
            if wanted is not None:
                unknown = pd.Index(wanted).difference(labels)
                if len(unknown):
                    raise ValueError(f"unknown {name} labels {list(unknown[:5])}")
        cell = keep_i[self.item_idx] & keep_r[self.respondent_idx]
        new_i = np.cumsum(keep_i) - 1
        new_r = np.cumsum(keep_r) - 1
        scale = None
        if self.kind == "continuous":
            bounds = pd.DataFrame({"lower": self.lower, "upper": self.upper}, index=self.items)
            scale = (bounds, self.transform, self.clip)
        return Responses._from_codes(
            self.items[keep_i], self.respondents[keep_r], new_i[self.item_idx[cell]],
            new_r[self.respondent_idx[cell]], self.values[cell].astype(float),
            item_name=self.item_name, respondent_name=self.respondent_name, kind=self.kind,
            value_name="values", scale=scale,
        )

    def __repr__(self) -> str:
        share = self.n_obs / (self.n_items * self.n_respondents)
        return (f"Responses({self.kind}: {self.n_items} {self.item_name}s x "
                f"{self.n_respondents} {self.respondent_name}s, {self.n_obs} observed cells "
                f"({share:.0%}))")


# ---------------------------------------------------------------------- validation
def _warn(message):
    import warnings

    warnings.warn(message, UserWarning, stacklevel=4)


def _check_frame(df):
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"expected a pandas DataFrame, got {type(df).__name__}")
    if df.empty:
        raise ValueError("the data frame is empty; nothing to fit")


def _check_columns(df, columns, keywords):
    for col in columns:
        if col not in df.columns:
            raise ValueError(
                f"column {col!r} is not in the data frame (columns: {list(df.columns)}); "
                f"pass the right name with {keywords}")


def _labelled_matrix(df, row_name, col_name):
    """``df`` with its row labels taken from column ``row_name`` when it has one; row and
    column labels checked for missing and duplicate values."""
    if row_name in df.columns:
        _check_labels(df[row_name], row_name)
        df = df.set_index(row_name)
    _check_labels(pd.Series(df.index), f"index ({row_name} labels)")
    _check_labels(pd.Series(df.columns), f"columns ({col_name} labels)")
    for axis, labels, name in (("row", df.index, row_name), ("column", df.columns, col_name)):
        dup = labels[labels.duplicated()]
        if len(dup):
            raise ValueError(f"duplicate {axis} labels {list(dup[:5])}; every {name} needs a "
                             "unique label")
    return df


def _check_kind(kind):
    if kind not in KINDS:
        raise ValueError(f"kind={kind!r} is not supported; use one of {KINDS}")


def _check_labels(labels: pd.Series, name):
    na = labels.isna().to_numpy()
    if na.any():
        where = np.flatnonzero(na)[:5].tolist()
        raise ValueError(
            f"{name} has {int(na.sum())} missing labels (at positions {where}); "
            "drop those rows or fill in the labels"
        )


def _numeric_values(col: pd.Series, name) -> np.ndarray:
    if pd.api.types.is_bool_dtype(col):
        return col.to_numpy(dtype=float)
    converted = pd.to_numeric(col, errors="coerce")
    bad = converted.isna() & col.notna()
    if bad.any():
        raise ValueError(
            f"{name} has values that are not numbers, e.g. {col[bad].unique()[:5].tolist()}; "
            "convert them to 0/1 (correct = 1)"
        )
    out = converted.to_numpy(dtype=float)
    if np.isinf(out).any():
        raise ValueError(f"{name} has infinite values; replace them or mark them missing (NaN)")
    return out


def _deduplicate(frame, respondent, item, value):
    dup = frame.duplicated(["r", "i"], keep=False)
    if not dup.any():
        return frame
    spread = frame[dup].groupby(["r", "i"])["v"].nunique()
    conflict = spread[spread > 1]
    if len(conflict):
        r, i = conflict.index[0]
        raise ValueError(
            f"{len(conflict)} ({respondent}, {item}) pairs appear more than once with "
            f"different {value!r} values, e.g. ({r!r}, {i!r}); keep one row per pair "
            "(aggregate repeats first, e.g. by majority vote)"
        )
    n_extra = int(frame.duplicated(["r", "i"]).sum())
    _warn(f"{n_extra} duplicate ({respondent}, {item}) rows with identical values were "
          "kept once; drop duplicates first to silence this warning")
    return frame.drop_duplicates(["r", "i"])
