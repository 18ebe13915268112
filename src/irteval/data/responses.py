"""Item-response data: who (respondent) answered what (item), and how well.

A :class:`Responses` holds observed cells in long form: one entry per observed
(item, respondent) pair, with integer codes into ``items`` and ``respondents``.
Missing cells are simply absent, so models index their parameters with the codes
and never see a placeholder value.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
import pandas as pd

from .._docs import fill_doc, matrix_df
from .._repr import counted
from .._validation import (axis_names, check_columns, check_frame, chosen_labels,
                           labelled_matrix, long_cells, numeric_matrix, percent, plain, plural,
                           warn_user, where)
from .levels import ordinal_codes
from .scaling import AIRT_NUDGE, TRANSFORMS, column_range, resolve_bounds, to_z

KINDS = ("binary", "continuous", "ordinal")
#: a binary matrix's row-axis names that say a row is an instance, not a model
ITEM_WORDS = frozenset({"instance", "instances", "instance_id", "question", "questions",
                        "question_id", "example", "examples", "example_id", "prompt", "prompts",
                        "problem", "problems", "sample", "samples", "sample_id", "image_id"})

#: docstring entries of Responses.from_long and Responses.from_wide: the options of each
#: kind, from_wide's matrix, and what they return
RESPONSES_BUILD_DOCS = {
    "kind_options": """\
bounds : {"column", "global"}, tuple or dict, default "column"
    ``kind="continuous"``: each item's bounds (lo, hi) on the performance:
    ``"column"`` (the item's observed min and max), ``"global"`` (the min and max of
    all values), one pair ``(lo, hi)`` for every item, or ``{item: (lo, hi)}`` (a Series
    of pairs, or a DataFrame indexed by item with columns ``lower``, ``upper``); a value
    outside its bounds is refused (:func:`irteval.data.scaling.resolve_bounds`).
    Performances read higher-is-better: for error rates or run times, call
    :meth:`Responses.reflected` on the result (the command line's ``--lower-is-better``).
transform : {"logit", "airt"}, default "logit"
    ``kind="continuous"``: the map to the model scale :attr:`z`
    (:func:`irteval.data.scaling.to_z`): ``"logit"``, the logit of the value scaled
    to [0, 1] and clipped to [clip, 1 - clip]; ``"airt"``, airt's preprocessing
    (values on a bound moved 0.01 raw units inside it).
clip : float, default 0.01
    ``kind="continuous"``, ``transform="logit"``: in (0, 0.5), how far the scaled
    values are kept from 0 and 1; refused with ``transform="airt"``.
levels : sequence of numbers, optional
    ``kind="ordinal"``: the ordered set of integer levels (increasing; every one
    used); ``None``: every integer from the lowest value to the highest (with
    ``cuts``: 1 .. cuts). Not with ``cuts``.
cuts : int, optional
    ``kind="ordinal"``: bin the values, continuous performances (higher is better),
    into this many levels 1 .. cuts (>= 2; a level left empty is refused) by
    ``cut_rule`` (:func:`irteval.data.levels.ordinal_codes`); ``None``: the values
    are integer levels already.
cut_rule : {"equal_width", "quantile"}, default "equal_width"
    ``kind="ordinal"`` with ``cuts``: airt's ``make_polyIRT_data`` rules, equal-width
    bins over the range of all values, or cut points at their quantiles k / cuts.""",
    "df_matrix": matrix_df("response", "respondent", "item"),
    "returns_responses": """\
Returns
-------
irteval.Responses
    The observed cells. An option of another kind than ``kind`` (``cuts=`` with
    ``kind="continuous"``, say) is refused rather than ignored.""",
}


@dataclass(frozen=True)
class Responses:
    """Observed responses of respondents to items.

    Attributes
    ----------
    items, respondents : pandas.Index
        Labels, in the order of the integer codes.
    item_idx, respondent_idx : ndarray of int32
        Codes of each observed cell.
    values : ndarray
        The observed value of each cell (0/1 for ``kind="binary"``; for ``kind="ordinal"``
        the level's code 0..C-1, ``levels[code]`` its label).
    item_name, respondent_name : str
        What items and respondents are in the user's words (``"instance"``, ``"model"``).
    kind : str
        ``"binary"`` (0/1), ``"continuous"`` (a performance within bounds) or ``"ordinal"``
        (ordered performance levels, :mod:`irteval.data.levels`).
    lower, upper : ndarray or None
        Continuous: each item's bounds (:mod:`irteval.data.scaling`).
    transform, clip
        Continuous: how values map to the model scale :attr:`z`.
    levels : ndarray or None
        Ordinal: the ordered level labels (numbers).
    level_ranges : ndarray or None
        Ordinal levels binned with ``cuts=``: (C, 2), the lowest and highest performance
        each level stands for, in the data's units (row k for ``levels[k]``).
    lower_is_better : bool
        Whether the performances were lower-is-better, turned around by :meth:`reflected`.
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
    levels: np.ndarray | None = None
    level_ranges: np.ndarray | None = None
    lower_is_better: bool = False

    # ------------------------------------------------------------------ constructors
    @classmethod
    @fill_doc(**RESPONSES_BUILD_DOCS)
    def from_long(cls, df, *, respondent, item, value, kind="binary", bounds="column",
                  transform="logit", clip=0.01, levels=None, cuts=None, cut_rule="equal_width"):
        """Build from a long table with one row per (respondent, item) cell.

        Rows whose value is missing are left out (with a warning that counts them and says
        where they are); repeated cells must agree and are kept once (also with a warning;
        repeats that disagree are refused). Cells absent from the table are missing: models
        leave them out of the likelihood.

        Parameters
        ----------
        df : pandas.DataFrame
            One row per observed cell, with the columns named below.
        respondent, item : str
            The columns of the respondents' labels (the models answering; AIRT: the
            datasets) and of the items' (the instances; AIRT: the algorithms). Their names
            are also the respondents' and items' names in tables, plots and messages
            (:attr:`respondent_name`, :attr:`item_name`).
        value : str
            The column of the responses: 0/1 (or True/False; correct = 1) for
            ``kind="binary"``, performances for ``"continuous"``, integer levels (or, with
            ``cuts``, performances) for ``"ordinal"``.
        kind : {"binary", "continuous", "ordinal"}, default "binary"
            What the values are: right/wrong answers (:func:`irteval.models.onepl`),
            performances within bounds (:func:`irteval.models.continuous_irt`) or ordered
            performance levels (:func:`irteval.models.polytomous_irt`).
        {kind_options}

        {returns_responses}
        """
        check_frame(df)
        _check_kind(kind, bounds=bounds, transform=transform, clip=clip, levels=levels,
                    cuts=cuts, cut_rule=cut_rule)
        check_columns(df, {"respondent": respondent, "item": item, "value": value})
        r_idx, respondents, i_idx, items, vals = long_cells(df, respondent, item, value,
                                                            _fix(kind, cuts))
        if kind == "binary" and not np.isin(vals, (0.0, 1.0)).all():  # say on which lines
            column = pd.to_numeric(df[value]).to_numpy(dtype=float)
            bad = np.flatnonzero(~np.isin(column, (0.0, 1.0)) & ~np.isnan(column))
            raise ValueError(_not_binary(value, column[bad], ", ".join(
                f"{column[k]:g}" for k in bad[:3]) + f" ({where(df.index, bad[:3])})"
                + (f" and {len(bad) - 3} more" if len(bad) > 3 else "")))
        return cls._from_codes(
            items, respondents, i_idx, r_idx, vals,
            item_name=item, respondent_name=respondent, kind=kind, value_name=value,
            scale=(levels, cuts, cut_rule) if kind == "ordinal" else (bounds, transform, clip),
        )

    @classmethod
    @fill_doc(**RESPONSES_BUILD_DOCS)
    def from_wide(cls, df, *, respondent=None, item=None, rows=None, kind="binary",
                  bounds="column", transform="logit", clip=0.01, levels=None, cuts=None,
                  cut_rule="equal_width"):
        """Build from a matrix: rows are respondents (or items with ``rows="item"``).

        Row labels come from the column named by ``respondent`` (or ``item``) when the frame
        has one, else from its index; column names are the other labels. NaN cells are
        missing: models leave them out of the likelihood; a row or column with no observed
        cell is left out, with a warning naming it (as :meth:`from_long` leaves out the labels
        of rows with a missing value).

        Parameters
        ----------
        {df_matrix}
        respondent, item : str, optional
            The names of the respondents (the models answering; AIRT: the datasets) and of
            the items (the instances; AIRT: the algorithms), used in tables, plots and
            messages (:attr:`respondent_name`, :attr:`item_name`); the rows' one also names
            the column that holds the row labels, if the frame has it. ``None``: the
            frame's own axis names (``df.index.name``, ``df.columns.name``: what ``pivot``
            and :meth:`to_wide` write), else ``"respondent"`` and ``"item"``.
        rows : {"respondent", "item"}, optional
            What a row is; ``None``: ``"respondent"``. When none of ``respondent``, ``item``
            and ``rows`` is given, what ``df.attrs["irteval_layout"]`` says wins while the
            index is the one it names (the frames of :mod:`irteval.datasets` carry it: their
            rows are instances).
        kind : {"binary", "continuous", "ordinal"}, default "binary"
            What the cells are: right/wrong answers, 0/1 or True/False (correct = 1;
            :func:`irteval.models.onepl`), performances within bounds
            (:func:`irteval.models.continuous_irt`; AIRT: datasets are respondents,
            algorithms items) or ordered performance levels
            (:func:`irteval.models.polytomous_irt`).
        {kind_options}

        {returns_responses}
        """
        check_frame(df)
        _check_kind(kind, bounds=bounds, transform=transform, clip=clip, levels=levels,
                    cuts=cuts, cut_rule=cut_rule)
        given = df.attrs.get("irteval_layout", {})
        if given and (df.index.name != given[given["rows"]]  # not as loaded (e.g. df.T)
                      or (respondent, item, rows) != (None, None, None)):  # the user's say
            given = {}
        chosen = rows is not None  # the user's orientation: not second-guessed by axis names
        rows = given.get("rows", "respondent") if rows is None else rows
        if rows not in ("respondent", "item"):
            raise ValueError(f"rows must be 'respondent' or 'item', got {rows!r}")
        own = ({} if None not in (respondent, item) else axis_names(
            df, rows, "item" if rows == "respondent" else "respondent",
            {"respondent": "respondent", "item": "item"}))
        if not (chosen or given) and kind == "binary" and respondent is None and \
                str(own.get("respondent", "")).lower() in ITEM_WORDS:
            warn_user(f"the rows are named {own['respondent']!r} and are read as respondents "
                      "(the models answering: rows='respondent', the default); if each row is "
                      "an instance, pass rows='item'")
        layout = {"respondent": "respondent", "item": "item", **own, **given}
        respondent = layout["respondent"] if respondent is None else respondent
        item = layout["item"] if item is None else item
        row_name, col_name = (respondent, item) if rows == "respondent" else (item, respondent)
        df = labelled_matrix(df, row_name, col_name, names=respondent, swap=None if chosen else
                             "rows='item'" if rows == "respondent" else "rows='respondent'")
        mat = numeric_matrix(df, _fix(kind, cuts), label_hint=(
            "respondent={name!r} (a row per model) or item={name!r}, rows='item' (a row per "
            "instance)" if kind == "binary" else  # AIRT: datasets answer, algorithms are asked
            f"{rows}={{name!r}} (a row per {'dataset' if rows == 'respondent' else 'algorithm'})"))
        observed = ~np.isnan(mat)
        empty = [~observed.any(axis=1), ~observed.any(axis=0)]  # rows, columns
        if observed.any() and (empty[0].any() or empty[1].any()):  # as from_long leaves them
            gone = [f"{plural(int(lost.sum()), name)} "
                    f"{[plain(x) for x in labels[lost][:5]]}"
                    for name, labels, lost in ((row_name, df.index, empty[0]),
                                               (col_name, df.columns, empty[1])) if lost.any()]
            one = empty[0].sum() + empty[1].sum() == 1
            warn_user(f"{' and '.join(gone)} had no observed value, so "
                      f"{'it is' if one else 'they are'} not in the data; drop those empty "
                      "rows and columns first to silence this warning")
            df, mat = df.loc[~empty[0], ~empty[1]], mat[np.ix_(~empty[0], ~empty[1])]
            observed = ~np.isnan(mat)
        if observed.all():  # complete: the codes are a grid, no search needed
            r_idx = np.repeat(np.arange(mat.shape[0], dtype=np.int32), mat.shape[1])
            c_idx = np.tile(np.arange(mat.shape[1], dtype=np.int32), mat.shape[0])
        else:
            r_idx, c_idx = np.nonzero(observed)
        if rows == "respondent":
            items, respondents, i_idx, p_idx = df.columns, df.index, c_idx, r_idx
        else:
            items, respondents, i_idx, p_idx = df.index, df.columns, r_idx, c_idx
        return cls._from_codes(
            pd.Index(items, name=item, tupleize_cols=False),
            pd.Index(respondents, name=respondent, tupleize_cols=False), i_idx, p_idx,
            mat.ravel() if observed.all() else mat[r_idx, c_idx], item_name=item,
            respondent_name=respondent, kind=kind, value_name="the matrix",
            scale=(levels, cuts, cut_rule) if kind == "ordinal" else (bounds, transform, clip),
        )

    @classmethod
    def _from_codes(cls, items, respondents, item_idx, respondent_idx, values, *,
                    item_name, respondent_name, kind, value_name, scale=None):
        if len(values) == 0:
            raise ValueError("there are no observed cells; nothing to fit")
        if len(respondents) < 2:
            raise ValueError(
                f"only one {respondent_name} ({plain(respondents[0])!r}): an IRT model compares "
                f"{respondent_name}s, so it needs at least two; add more {respondent_name}s"
            )
        if len(items) < 2:
            raise ValueError(
                f"only one {item_name} ({plain(items[0])!r}): an IRT model places {item_name}s "
                f"on one scale, so it needs at least two; add more {item_name}s"
            )
        if len(values) < len(items) * len(respondents):  # (a complete grid has no empty label)
            for labels, codes, name in ((items, item_idx, item_name),
                                        (respondents, respondent_idx, respondent_name)):
                empty = np.bincount(codes, minlength=len(labels)) == 0
                if empty.any():
                    raise ValueError(
                        f"{int(empty.sum())} {name} labels have no observed value "
                        f"(e.g. {list(labels[empty][:5])}); drop those empty rows/columns "
                        "first")

        def locate(cells, raw=values):
            """The values at positions ``cells`` with where they are (respondent and item)."""
            return ", ".join(f"{raw[k]:g} ({respondent_name} "
                             f"{plain(respondents[respondent_idx[k]])!r}, {item_name} "
                             f"{plain(items[item_idx[k]])!r})" for k in cells[:3]) \
                + (f" and {len(cells) - 3} more" if len(cells) > 3 else "")

        if kind == "binary":
            bad = np.flatnonzero((values != 0.0) & (values != 1.0))
            if len(bad):
                raise ValueError(_not_binary(value_name, values[bad], locate(bad)))
            values = values.astype(np.int8)
            extra = {}
        elif kind == "ordinal":
            if scale[1] is not None:  # cuts: performances, binned on one scale
                _warn_mixed_scales(values, np.asarray(item_idx), items, item_name,
                                   respondents[respondent_idx], respondent_name, binned=True)
            values, levels, ranges = ordinal_codes(values, *scale, value_name=value_name,
                                                   locate=locate)
            extra = {"levels": levels, "level_ranges": ranges}
        else:
            bounds, transform, clip = scale
            if transform not in TRANSFORMS:
                raise ValueError(f"transform={transform!r} is not one of {TRANSFORMS}")
            if isinstance(clip, (bool, np.bool_)) or not isinstance(clip, (int, float, np.number)):
                raise TypeError(f"clip must be a number in (0, 0.5), got {clip!r}")
            if not 0 < clip < 0.5:
                raise ValueError(f"clip must lie in (0, 0.5), got {clip!r}")
            if isinstance(bounds, str):
                _warn_mixed_scales(values, np.asarray(item_idx), items, item_name,
                                   respondents[respondent_idx], respondent_name)
            lower, upper = resolve_bounds(values, np.asarray(item_idx), items, bounds,
                                          item_name, (respondents[respondent_idx],
                                                      respondent_name))
            _check_scale(values, np.asarray(item_idx), lower, upper, transform, clip, items,
                         item_name)
            if isinstance(bounds, str) and bounds == "column":
                _warn_two_valued(values, np.asarray(item_idx), lower, upper, items, item_name)
            extra = {"lower": lower, "upper": upper, "transform": transform, "clip": clip}
        return cls(items=items, respondents=respondents,
                   item_idx=np.asarray(item_idx, dtype=np.int32),
                   respondent_idx=np.asarray(respondent_idx, dtype=np.int32),
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

    @cached_property
    def margins(self) -> dict:
        """Per item and per respondent: the number of observed cells (``item_n``,
        ``respondent_n``) and the sum of their values (``item_sum``, ``respondent_sum``;
        the number correct for binary responses). Counted once."""
        return {f"{name}_{what}": np.bincount(codes, weights, size)
                for name, codes, size in (("item", self.item_idx, self.n_items),
                                          ("respondent", self.respondent_idx,
                                           self.n_respondents))
                for what, weights in (("n", None), ("sum", self.values))}

    @property
    def z(self) -> np.ndarray:
        """Continuous responses on the model scale (:func:`irteval.data.scaling.to_z`)."""
        if self.kind != "continuous":
            raise ValueError("z exists for continuous responses only")
        return to_z(self.values, self.lower[self.item_idx], self.upper[self.item_idx],
                    self.transform, self.clip)

    def to_wide(self, rows="respondent") -> pd.DataFrame:
        """The response matrix (NaN where missing), as :meth:`from_wide` reads it.

        Parameters
        ----------
        rows : {"respondent", "item"}, default "respondent"
            What a row is.

        Returns
        -------
        pandas.DataFrame
            Indexed by respondent (or item), a column per item (or respondent); the observed
            values, for ordinal responses the level labels (not their codes).
        """
        mat = self.dense(self.values if self.levels is None else self.levels[self.values],
                         rows=rows, fill=np.nan)
        return pd.DataFrame(mat, index=self.items if rows == "item" else self.respondents,
                            columns=self.respondents if rows == "item" else self.items)

    def dense(self, values=None, rows="respondent", fill=0.0, dtype=float) -> np.ndarray:
        """The matrix of ``values`` at the observed cells and ``fill`` elsewhere, without
        labels. ``dense(1.0)`` is the 0/1 mask of the observed cells.

        Parameters
        ----------
        values : array-like or scalar, optional
            One value per observed cell (in the order of :attr:`values`), or one for all;
            ``None``: :attr:`values` (the level codes of ordinal data).
        rows : {"respondent", "item"}, default "respondent"
            What a row is.
        fill : float, default 0.0
            The value of the missing cells.
        dtype : numpy dtype, default float
            The matrix's dtype.

        Returns
        -------
        numpy.ndarray
            Of shape (n_respondents, n_items), or (n_items, n_respondents) with
            ``rows="item"``; rows and columns in the order of :attr:`respondents` and
            :attr:`items`.
        """
        if rows not in ("respondent", "item"):
            raise ValueError(f"rows must be 'respondent' or 'item', got {rows!r}")
        axes = [(self.item_idx, self.n_items), (self.respondent_idx, self.n_respondents)]
        (rows_idx, n_rows), (cols_idx, n_cols) = axes if rows == "item" else axes[::-1]
        mat = np.full((n_rows, n_cols), fill, dtype=dtype)
        mat[rows_idx, cols_idx] = self.values if values is None else values
        return mat

    def to_long(self) -> pd.DataFrame:
        """One row per observed cell: respondent, item and value (column ``"value"``, or
        ``"response"`` / ``"answer"`` where a label column has that name)."""
        value = next(name for name in ("value", "response", "answer")
                     if name not in (self.respondent_name, self.item_name))
        return pd.DataFrame({
            self.respondent_name: self.respondents[self.respondent_idx],
            self.item_name: self.items[self.item_idx],
            value: self.values if self.levels is None else self.levels[self.values],
        })

    def subset(self, items=None, respondents=None) -> Responses:
        """Keep only the given item and/or respondent labels, in their original order.

        Parameters
        ----------
        items, respondents : label or list of labels, optional
            The items and respondents to keep (a list, or one label; a tuple is one label);
            ``None`` keeps all. An unknown or repeated label, an empty list, and a subset
            that leaves an item or respondent without a single answer are refused.

        Returns
        -------
        irteval.Responses
            The kept cells, of the same kind: continuous responses keep their items'
            bounds, ordinal ones the levels still used.
        """
        items, respondents = (None if wanted is None else chosen_labels(wanted, labels, what)
                              for wanted, labels, what in (
                                  (items, self.items, f"{self.item_name} labels"),
                                  (respondents, self.respondents,
                                   f"{self.respondent_name} labels")))
        keep_i = np.ones(self.n_items, bool) if items is None else self.items.isin(items)
        keep_r = (np.ones(self.n_respondents, bool) if respondents is None
                  else self.respondents.isin(respondents))
        cell = keep_i[self.item_idx] & keep_r[self.respondent_idx]
        for keep, idx, labels, name in ((keep_i, self.item_idx, self.items, self.item_name),
                                        (keep_r, self.respondent_idx, self.respondents,
                                         self.respondent_name)):
            empty = keep & (np.bincount(idx[cell], minlength=len(labels)) == 0)
            if empty.any():
                raise ValueError(f"this subset leaves {int(empty.sum())} {name}s without a "
                                 f"single answer, e.g. {[plain(x) for x in labels[empty][:5]]}"
                                 "; leave them out of the subset too")
        new_i = np.cumsum(keep_i) - 1
        new_r = np.cumsum(keep_r) - 1
        scale, values = None, self.values[cell].astype(float)
        ranges = self.level_ranges
        if self.kind == "ordinal":
            used = np.unique(self.values[cell])  # the levels the subset still has
            scale, values = (self.levels[used], None, None), self.levels[self.values[cell]]
            ranges = None if ranges is None else ranges[used]
        if self.kind == "continuous":
            bounds = pd.DataFrame({"lower": self.lower, "upper": self.upper}, index=self.items)
            scale = (bounds, self.transform, self.clip)
        return replace(Responses._from_codes(
            self.items[keep_i], self.respondents[keep_r], new_i[self.item_idx[cell]],
            new_r[self.respondent_idx[cell]], values,
            item_name=self.item_name, respondent_name=self.respondent_name, kind=self.kind,
            value_name="values", scale=scale,
        ), level_ranges=ranges, lower_is_better=self.lower_is_better)

    def reflected(self) -> Responses:
        """The same responses turned around, for performances where lower is better (error
        rates, run times): AIRT reads higher as better.

        Returns
        -------
        irteval.Responses
            Continuous: each value x becomes lower + upper - x within its item's bounds (the
            bounds stay; bounds="column" maps an item's best value to its top). Ordinal: each
            level code c becomes C - 1 - c, so the highest level is the best (for levels
            binned with equal-width ``cuts=``, the bins of -x; ``level_ranges`` follow their
            cells).
        """
        if self.kind == "binary":
            raise ValueError("reflected() turns performances around; binary answers are "
                             "turned by coding correct = 1")
        ranges = self.level_ranges
        if self.kind == "continuous":
            values = self.lower[self.item_idx] + self.upper[self.item_idx] - self.values
        else:
            values = len(self.levels) - 1 - self.values
            ranges = None if ranges is None else ranges[::-1]
        return replace(self, values=values, level_ranges=ranges,
                       lower_is_better=not self.lower_is_better)

    def __repr__(self) -> str:
        share = percent(self.n_obs, self.n_items * self.n_respondents)
        return (f"Responses({self.kind}: {counted(self.n_items, self.item_name, 'item')} x "
                f"{counted(self.n_respondents, self.respondent_name, 'respondent')}, "
                f"{self.n_obs} observed cells ({share}))")


# ---------------------------------------------------------------------- validation
def _check_scale(values, item_idx, lower, upper, transform, clip, items, item_name):
    """Every observed value must have a finite model-scale z with these bounds."""
    if transform == "airt":
        width = upper[item_idx] - lower[item_idx]
        on_bound = (values <= lower[item_idx]) | (values >= upper[item_idx])
        if (on_bound & (width > 2)).any():
            warn_user(f"transform='airt' moves values on a bound {AIRT_NUDGE} (raw units) inside "
                      f"it, and some {item_name}s' bounds are {width.max():.3g} wide, not about "
                      "1 as in airt's analyses: on a bound z = +-log(width / "
                      f"{AIRT_NUDGE} - 1), {np.log(width.max() / AIRT_NUDGE - 1):.1f} here "
                      f"against {np.log(1 / AIRT_NUDGE - 1):.1f} for fractions, so the fit "
                      "and latent_trait's epsilon (also in raw units) depend on the units: "
                      "divide percentages by 100, or use transform='logit' (scale-free)")
        narrow = upper - lower <= 2 * AIRT_NUDGE
        if narrow.any():
            raise ValueError(
                f"transform='airt' moves values on a bound {AIRT_NUDGE} (raw units) inside it, "
                f"so the bounds must be more than {2 * AIRT_NUDGE} apart; {int(narrow.sum())} "
                f"{item_name}s have narrower bounds, e.g. {list(items[narrow][:3])}: rescale "
                "the values (e.g. to percent) or use transform='logit'")
    with np.errstate(over="ignore", invalid="ignore"):  # checked here
        z = to_z(values, lower[item_idx], upper[item_idx], transform, clip)
    bad = ~np.isfinite(z)
    if bad.any():
        k = np.flatnonzero(bad)[0]
        raise ValueError(
            f"{plural(int(bad.sum()), 'value has', 'values have')} no finite model scale with "
            "their bounds "
            f"(transform={transform!r}), e.g. {values[k]:g} within [{lower[item_idx[k]]:g}, "
            f"{upper[item_idx[k]]:g}] for {item_name} {plain(items[item_idx[k]])!r}: the bounds "
            "are too wide for floating point; rescale the values"
            + (" or use transform='logit'" if transform == "airt" else ""))


def _warn_two_valued(values, item_idx, lower, upper, items, item_name):
    """Warn when bounds='column' leaves an item no value inside its bounds, its lowest and
    highest values (two data sets, say): each then sits on a bound, and the model sees only
    which is higher."""
    inside = (values > lower[item_idx]) & (values < upper[item_idx])
    two = np.flatnonzero(np.bincount(item_idx, inside, len(items)) == 0)
    if len(two):
        warn_user(f"{len(two)} of {len(items)} {item_name}s "
                  f"{'has' if len(two) == 1 else 'have'} no value between their lowest and "
                  f"highest (e.g. {[plain(x) for x in items[two[:3]]]}): with bounds='column' "
                  "each value sits on a bound, so the model sees only which is higher; give "
                  "the performances' own limits, e.g. bounds=(0, 1)")


def _warn_mixed_scales(values, item_idx, items, item_name, respondent_of, respondent_name,
                       binned=False):
    """Warn where most items' values lie in [0, 1] (proportions) and an item's look like
    percent: nearly all of them above 1 with their median / 100 among the proportions, or a
    few above 1 that divided by 100 lie among the item's other values (a typo). Scaled on
    their own bounds they fit, but the portfolio and the strengths compare the items'
    performances, where a percent outranks every proportion."""
    n = len(items)
    low, high = column_range(values, item_idx, n)
    unit = (low >= 0) & (high <= 1)
    if unit.sum() < max(2, n / 2):
        return
    proportions = values[unit[item_idx]]
    parts = []
    for j in np.flatnonzero((low >= 0) & (high > 1) & (high <= 100)):
        own = item_idx == j
        above = own & (values > 1)
        rest = values[own & ~above]
        if above.sum() >= 0.9 * own.sum() and (
                proportions.min() <= np.median(values[own]) / 100 <= proportions.max()):
            parts.append(f"{plain(items[j])!r}: {int(above.sum())} of {int(own.sum())} values "
                         f"above 1, up to {high[j]:g}")
        elif 0 < above.sum() <= 3 and len(rest) and (
                (rest.min() <= values[above] / 100) & (values[above] / 100 <= rest.max())).all():
            parts.append(f"{plain(items[j])!r}: " + ", ".join(
                f"{values[k]:g} at {respondent_name} {plain(respondent_of[k])!r}"
                for k in np.flatnonzero(above)))
    if parts:
        look = " looks" if len(parts) == 1 else "s look"
        why = ("cuts= bins every performance on one scale, where a percent sits in the "
               "top levels and every proportion in the lowest" if binned else
               f"the portfolio and the strengths compare the {item_name}s' performances "
               "on their own scale, where a percent outranks every proportion; if that "
               "scale is meant, pass explicit bounds= (this check is then skipped)")
        warn_user(f"{len(parts)} {item_name}{look} like percent where {int(unit.sum())} of "
                  f"{n} lie within [0, 1] ({'; '.join(parts[:3])}): divide them by 100, as "
                  + why)


#: the fix for levels written as text (the command line has its own words for it)
TEXT_LEVELS = ("give text levels as integers in their order, e.g. df.replace({'low': 1, "
               "'mid': 2, 'high': 3})")


def _fix(kind, cuts=None):
    """What the values of ``kind`` must be, for a message about values that are not."""
    if kind == "ordinal" and cuts is None:
        return f"levels must be integers: {TEXT_LEVELS} (or pass cuts= to bin performances)"
    return ("convert them to 0/1 (correct = 1)" if kind == "binary"
            else "performances must be numbers")


#: the scale options of the kinds that have them, with their defaults
SCALE_OPTIONS = {"continuous": {"bounds": "column", "transform": "logit", "clip": 0.01},
                 "ordinal": {"levels": None, "cuts": None, "cut_rule": "equal_width"}}


def _check_kind(kind, **options):
    """A known kind, and no scale option of another kind (it would be ignored)."""
    if kind not in KINDS:
        raise ValueError(f"kind={kind!r} is not supported; use one of {KINDS}")
    for other, defaults in SCALE_OPTIONS.items():
        given = [name for name, default in defaults.items() if not (
            options[name] is default or (isinstance(options[name], (str, float, int))
                                         and options[name] == default))]
        if other != kind and given:
            one = len(given) == 1
            raise ValueError(f"{', '.join(f'{n}=' for n in given)} only appl{'ies' if one else 'y'}"
                             f" to kind={other!r}, and these are kind={kind!r}; drop "
                             f"{'it' if one else 'them'} or pass kind={other!r}")
    if options["transform"] == "airt" and options["clip"] != SCALE_OPTIONS["continuous"]["clip"]:
        raise ValueError(f"clip={options['clip']!r} applies to transform='logit'; airt's "
                         "preprocessing (transform='airt') nudges the bounds its own way: drop "
                         "clip= or use transform='logit'")
    if options["levels"] is not None and options["cuts"] is not None:
        raise ValueError("levels= declares the integer levels of the values, cuts= bins "
                         "performances into levels: give one of them")


def _not_binary(value_name, bad, examples):
    """The message for the values ``bad`` other than 0/1 of a binary model (``examples``: some,
    with where they are); values between 0 and 1 read as partial credit."""
    partial = ((bad > 0) & (bad < 1)).all()
    return (f"{value_name} must be 0/1 (or True/False) for a binary model; found "
            f"{plural(len(bad), 'other value')}, e.g. {examples}. Code correct answers as 1 and "
            "wrong ones as 0" + (f"; {PARTIAL_CREDIT}" if partial else ""))


#: what the error of values between 0 and 1 in a binary model asks of the user
PARTIAL_CREDIT = ("for partial credit, make it 0/1 first (e.g. df[col] = (df[col] >= 0.5)"
                  ".astype(int)) or fit it as a performance between 0 and 1 (kind='continuous', "
                  "bounds=(0, 1), then irteval.models.continuous_irt)")
