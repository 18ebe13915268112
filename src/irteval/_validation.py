"""Checks shared by every entry point: data frames, labels, numeric cells, seeds and
user-facing warnings (the checks of fits are in :mod:`irteval._fits`)."""

from __future__ import annotations

import re
import difflib
import logging
import sys
import warnings
from collections.abc import Hashable
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd


def _outside_stacklevel():
    """The stacklevel of the first frame outside irteval, PyMC and PyTensor (the user's line)."""
    import pymc
    import pytensor

    roots = (str(Path(__file__).parent), str(Path(pymc.__file__).parent),
             str(Path(pytensor.__file__).parent))
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_code.co_filename.startswith(roots):
        frame, level = frame.f_back, level + 1
    return level


@contextmanager
def quiet_pymc(quiet=True):
    """PyMC's progress lines ("Initializing NUTS", "Sampling: [y]") silenced while ``quiet``:
    with ``progressbar=False`` a fit prints nothing but its warnings."""
    logger = logging.getLogger("pymc")
    level = logger.level
    if quiet:
        logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.setLevel(level)


def warn_user(message, category=UserWarning):
    """``warnings.warn`` pointing at the user's own line, not at irteval's internals."""
    warnings.warn(message, category, stacklevel=_outside_stacklevel())


def plural(n, one, many=None):
    """'1 value lies' / '3 values lie': ``n`` and the words that agree with it."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def percent(part, whole, *, fixed=False):
    """part / whole as a percentage that is 100% only when part == whole (99.7%, not 100%)
    and 0% only when part == 0; whole percentages without a decimal unless ``fixed`` (a
    column of labels: 55.0% beside 44.3%)."""
    if part in (0, whole) or not np.isfinite(part):  # (NaN: an empty cell of a table)
        return f"{100 * part // whole:.{1 if fixed else 0}f}%"
    value = min(max(round(100 * part / whole, 1), 0.1), 99.9)
    whole_number = value == round(value) and 1 <= value <= 99 and not fixed
    return f"{value:.0f}%" if whole_number else f"{value:.1f}%"


def count(value, name, minimum=1):
    """``value`` as an int of at least ``minimum``; else an error naming the keyword ``name``
    (2.5 is not rounded, True is not 1)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name}={value!r}: give a whole number of at least {minimum}")
    if value < minimum:
        raise ValueError(f"{name}={value!r}: give a whole number of at least {minimum}")
    return int(value)


def true_or_false(value, name, hint=""):
    """``value`` as a bool; anything else (the text "False", which is true; 0 or 1) is an
    error naming the keyword ``name``, with ``hint``."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"{name}= is True or False, got {value!r}{hint}")


def positive(value, name):
    """``value`` as a float, finite and > 0 (a prior's scale); else an error naming ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)) \
            or not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name}={value!r}: give a finite number > 0 (a prior's scale)")
    return float(value)


def spelling_hint(unknown, known, *, nearest=False):
    """'; ...' when one of the ``unknown`` labels matches a ``known`` one but for case, spaces
    at their ends or zeros padding a number ('q3' for 'q0003'; labels are matched exactly);
    with ``nearest``, else '; did you mean ...?' when the first is spelled like a known one
    (for labels a user types: players, tasks, chosen labels); else ''."""
    for fold, how in ((lambda v: v.strip().casefold(), "case or spaces"),
                      (lambda v: re.sub(r"(?<![\d.])\d+", lambda m: str(int(m[0])),  # not 1.05
                                        v.strip().casefold()),
                       "zeros before a number")):
        folded = {fold(k): k for k in known if isinstance(k, str)}  # text labels
        near = [(v, folded[fold(v)]) for v in unknown if isinstance(v, str) and fold(v) in folded]
        if near:
            return (f"; labels are matched exactly, and {plain(near[0][0])!r} differs from "
                    f"{plain(near[0][1])!r} only in {how}: "
                    + ("write it as the label is written" if len(unknown) == 1 else
                       "write them as the labels are written (e.g. .str.strip(), or "
                       ".replace({...}))"))
    texts = {str(k): k for k in known}
    close = difflib.get_close_matches(str(next(iter(unknown), "")), texts, n=1) if nearest else []
    return f"; did you mean {plain(texts[close[0]])!r}?" if close else ""


def chosen_labels(given, available, what):
    """The labels ``given`` (a list, or one label) among ``available``; every one when None.
    One label is not split into its characters; an empty choice, a repeat and an unknown
    label are refused, naming ``what`` ("item labels", "algorithms")."""
    available = list(available)
    if given is None:
        return available
    labels = (list(given) if pd.api.types.is_list_like(given) and not isinstance(given, tuple)
              else [given])
    if not labels:
        raise ValueError(f"no {what} chosen; give at least one (or None for all)")
    known = set(available)
    unknown = [plain(x) for x in labels if x not in known]
    if unknown:
        tuples = any(isinstance(x, tuple) for x in unknown)
        raise ValueError(f"unknown {what} {unknown[:5]}; the known ones are e.g. "
                         f"{[plain(x) for x in available[:5]]}"
                         + ("; a tuple is one label: give a list for several" if tuples else "")
                         + spelling_hint(unknown, available, nearest=True))
    repeated = pd.Index(labels, tupleize_cols=False)
    if repeated.has_duplicates:
        mask = all(isinstance(x, (bool, np.bool_)) for x in labels)
        raise ValueError(f"{what} {[plain(x) for x in repeated[repeated.duplicated()][:5]]} "
                         "are chosen twice; give each once"
                         + ("; a boolean mask? give the labels it selects (e.g. "
                            "labels[mask])" if mask else ""))
    return labels


def seeded_rng(random_seed):
    """``np.random.default_rng(random_seed)``, with an error that names ``random_seed=`` (a
    bool is refused: True is no seed anyone means)."""
    if isinstance(random_seed, (bool, np.bool_)):
        raise TypeError(f"random_seed must be None, a non-negative int or a numpy Generator, got "
                        f"{random_seed!r}")
    try:
        return np.random.default_rng(random_seed)
    except (TypeError, ValueError) as err:
        raise type(err)(f"random_seed must be None, a non-negative int or a numpy Generator, got "
                        f"{random_seed!r}") from err


def fixed_seed(random_seed):
    """An int seed for ``random_seed``: itself if an int, else one drawn from it (None: fresh
    entropy; a Generator: advanced once). Several variables thinned with the result keep the
    same draws, where thinning each with one Generator (or None) paired unrelated draws."""
    if isinstance(random_seed, (int, np.integer)) and not isinstance(random_seed, bool):
        seeded_rng(random_seed)  # the same checks (negative seeds)
        return int(random_seed)
    return int(seeded_rng(random_seed).integers(2**32))


def matches_as_text(unknown, known):
    """Whether each of the ``unknown`` labels is one of ``known`` written as another type (text
    "7" for the number 7: a CSV's labels beside a fit's)."""
    as_text = {str(plain(k)) for k in known}
    return len(unknown) > 0 and all(str(plain(u)) in as_text for u in unknown)


def plain(label):
    """A label as Python writes it (3, not np.int64(3)), for messages."""
    return label.item() if isinstance(label, np.generic) else label


def listed(labels, first=10):
    """The first ``first`` labels as a list, and how many more, for messages."""
    labels = list(labels)
    more = f" and {len(labels) - first} more" if len(labels) > first else ""
    return f"{[plain(x) for x in labels[:first]]}{more}"


def where(index, positions):
    """Rows as the user counts them: "lines 5, 9" for a frame the CLI read (its index is named
    ``line`` and holds file line numbers), "rows labelled 'd3', 'd7'" for a labelled index
    whose labels are unique, else "rows 3, 7 (0-based positions)" (an index that repeats
    labels, as pd.concat leaves one: "rows labelled 0, 0" said nothing), or "columns 3, 7
    (0-based positions)" where ``index`` is named ``column`` (a frame's columns checked)."""
    positions = np.asarray(positions)
    s = "s" * (len(positions) > 1)
    more = " ..." if len(positions) > 5 else ""
    if index.name == "line":
        return f"line{s} {', '.join(str(plain(x)) for x in index[positions[:5]])}{more}"
    if index.name == "column" or (isinstance(index, pd.RangeIndex) and index.start == 0
                                  and index.step == 1) or not index.is_unique:
        noun = "column" if index.name == "column" else "row"
        return f"{noun}{s} {', '.join(map(str, positions[:5]))}{more} (0-based positions)"
    return f"row{s} labelled {', '.join(repr(plain(x)) for x in index[positions[:5]])}{more}"


def long_cells(df, first, second, value, fix):
    """One table policy for long data (``Responses.from_long``, ``Scores.from_long``): rows
    whose value is missing are dropped with a warning that counts them; repeated
    (``first``, ``second``) cells must agree and are kept once, with a warning; repeats that
    disagree are an error naming the cell and its lines. Returns (first codes, labels, second
    codes, labels, values) of the kept cells."""
    for col in (first, second):
        check_labels(df[col], col, df.index)
    values = numeric_values(df[value], value, fix, df.index)
    missing = np.isnan(values)
    if missing.all():
        raise ValueError(f"column {value!r} has no observed values; nothing to fit")
    if missing.any():
        gone = [f"{col} {[plain(x) for x in lost[:5]]}" for col in (first, second)
                if len(lost := pd.Index(df[col][missing].unique()).difference(
                    df[col][~missing].unique(), sort=False))]
        n = int(missing.sum())
        warn_user(f"{n} row{' has' if n == 1 else 's have'} a missing {value!r} "
                  f"({where(df.index, np.flatnonzero(missing))}) and "
                  f"{'was' if n == 1 else 'were'} left out"
                  + (f" ({' and '.join(gone)} had no other rows, so they are not in the data "
                     "now)" if gone else "")
                  + "; drop them first to silence this warning")
    kept = df[~missing]
    a_idx, a_labels = factorize(kept[first], first, case=True)  # models or players
    b_idx, b_labels = factorize(kept[second], second)
    values = values[~missing]
    cell = pd.Series(a_idx.astype(np.int64) * len(b_labels) + b_idx)
    keep = ~cell.duplicated().to_numpy()
    if not keep.all():
        first_value = pd.Series(values[keep], index=cell[keep]).reindex(cell).to_numpy()
        conflict = values != first_value
        if conflict.any():
            k = np.flatnonzero(conflict)[0]
            rows = np.flatnonzero(~missing)[(cell == cell[k]).to_numpy()]  # in df, not kept
            repeated = plural(cell[conflict].nunique(), f"({first}, {second}) pair appears",
                              f"({first}, {second}) pairs appear")
            raise ValueError(
                f"{repeated} more than once with different {value!r} values, e.g. "
                f"({plain(a_labels[a_idx[k]])!r}, {plain(b_labels[b_idx[k]])!r}) at "
                f"{where(df.index, rows)}; keep one row per pair (aggregate repeats first, "
                "e.g. by averaging or majority vote)")
        repeats = np.flatnonzero(~missing)[~keep]  # in df: the rows left out
        warn_user(f"{len(repeats)} duplicate ({first}, {second}) rows with identical values "
                  f"({where(df.index, repeats)}) were kept once; drop duplicates first to "
                  "silence this warning")
    return a_idx[keep], a_labels, b_idx[keep], b_labels, values[keep]


def check_frame(df):
    """A non-empty DataFrame with one level of columns."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"expected a pandas DataFrame, got {type(df).__name__}; wrap an array "
                        "with its labels: pd.DataFrame(values, index=rows, columns=columns)")
    if df.empty:
        raise ValueError("the data frame is empty; nothing to fit")
    if isinstance(df.columns, pd.MultiIndex):
        raise ValueError(f"the columns have {df.columns.nlevels} levels (e.g. "
                         f"{df.columns[0]!r}); give one, e.g. df.columns = "
                         "['_'.join(map(str, c)) for c in df.columns]")


def check_columns(df, named, optional=()):
    """Each column of ``named`` ({keyword: column}; None for an ``optional`` keyword: not
    given) is in ``df``, once, and no two keywords name the same column."""
    named = {k: col for k, col in named.items() if col is not None or k not in optional}
    for key, col in named.items():
        if not isinstance(col, Hashable):  # pandas: "unhashable type: 'list'"
            raise TypeError(f"{key}= names one column, got a {type(col).__name__}: {col!r}")
        if col not in df.columns and col is not None and col in df.index.names:
            raise ValueError(f"{col!r} is the data frame's index, not a column; pass "
                             "df.reset_index() (it makes the index a column)")
        if col not in df.columns:
            near = difflib.get_close_matches(str(col), [str(c) for c in df.columns], n=1)
            raise ValueError(
                f"no column {col!r}: the columns are {listed(df.columns)}; pass the "
                f"right name with {key}=" + (f" (did you mean {near[0]!r}?)" if near else ""))
        if (df.columns == col).sum() > 1:
            raise ValueError(f"duplicate column labels [{plain(col)!r}]; give every column a "
                             "unique name")
    seen = {}
    for k, col in named.items():
        if col in seen:
            raise ValueError(f"{seen[col]}= and {k}= both name the column {col!r}; each names "
                             "its own column")
        seen[col] = k


#: why a label may read as missing, in Python's words (the commands read only an empty cell so)
NA_LABELS = (" (in Python, pandas.read_csv reads labels such as 'NA', 'nan' or 'null' as "
             "missing unless given keep_default_na=False, na_values=[''])")


def check_labels(labels: pd.Series, name, index=None, *, mixed=False):
    """No missing label, no tuple and (unless ``mixed``) not text beside numbers: netCDF,
    nutpie and xarray's coordinates take text or numbers, one type a coordinate;
    ``index`` (the frame's) says where a bad one is."""
    index = pd.RangeIndex(len(labels)) if index is None else index
    na = labels.isna().to_numpy()
    if na.any():
        raise ValueError(f"{name} has {plural(int(na.sum()), 'missing label')} "
                         f"({where(index, np.flatnonzero(na))}); drop those rows or fill in the "
                         f"labels{NA_LABELS}")
    tuples = np.fromiter((isinstance(x, tuple) for x in labels), bool, len(labels))
    if tuples.any():
        raise ValueError(f"{name} has {int(tuples.sum())} tuple labels (e.g. "
                         f"{labels[tuples].iloc[0]!r}; {where(index, np.flatnonzero(tuples))}); "
                         "give text or numbers, e.g. ' / '.join(map(str, label))")
    if isinstance(labels.dtype, pd.CategoricalDtype):  # its categories may mix types too
        labels = labels.astype(object)
    if not mixed and labels.dtype == object:
        text = np.fromiter((isinstance(x, str) for x in labels), bool, len(labels))
        if 0 < text.sum() < len(text):
            majority = text.mean() >= 0.5
            odd, usual = np.flatnonzero(text != majority), np.flatnonzero(text == majority)[0]
            distinct = pd.unique(labels.to_numpy())
            printed = pd.Series([str(x) for x in distinct])
            alike = distinct[printed.duplicated(keep=False).to_numpy()]
            alike = (f"; {[plain(x) for x in alike[:4]]} print alike and would become one "
                     "label: rename one first to keep them apart" if len(alike) else "")
            raise ValueError(f"{name} mixes text and other labels (e.g. "
                             f"{labels.iloc[odd[0]]!r} beside {labels.iloc[usual]!r}; "
                             f"{where(index, odd)}): a netCDF coordinate holds one type; make "
                             f"them all text (e.g. .astype(str)){alike}")


def axis_names(df, rows, columns, defaults):
    """{kind: name} from the frame's own axis names (text ones): the index's for ``rows``
    unless a column under the rows' default name holds their labels, the columns' for
    ``columns``. Names that say the rows are the other kind (``defaults``: {kind: default
    name}) are refused: rows= says otherwise."""
    named = {}
    if isinstance(df.index.name, str) and df.index.name and defaults[rows] not in df.columns:
        named[rows] = df.index.name
    if isinstance(df.columns.name, str) and df.columns.name:
        named[columns] = df.columns.name
    if named.get(rows) == defaults[columns] or named.get(columns) == defaults[rows]:
        raise ValueError(f"the frame's rows are named {df.index.name!r} and its columns "
                         f"{df.columns.name!r}, but rows={rows!r} reads a row per {rows}: pass "
                         f"rows={columns!r} (or rename the axes)")
    return named


def labelled_matrix(df, row_name, col_name, names=None, swap=None):
    """``df`` with its row labels taken from column ``row_name`` when it has one; row and
    column labels checked for missing and duplicate values; ``names``: which of the two
    (``row_name`` or ``col_name``) are models' or players' names (:func:`warn_alike`'s
    ``case``). Where the caller chose no orientation, a frame whose own axis names say it is
    the other way round (rows named ``col_name`` or columns ``row_name``) is refused with
    ``swap``, the keyword that turns it ("rows='item'"); None: no such check."""
    def check_unique(labels, axis, name):
        dup = labels[labels.duplicated()]
        if len(dup):
            raise ValueError(f"duplicate {axis} labels {list(dup[:5])}; every {name} needs a "
                             "unique label")

    own = df.index.name, df.columns.name
    turned = swap is not None and row_name not in df.columns and (own[0] == col_name
                                                                   or own[1] == row_name)
    if row_name == col_name:
        raise ValueError(f"the rows and the columns are both named {row_name!r}; name them "
                         "apart (respondent= and item=, or player= and round=)"
                         + (f", or pass {swap} if each row is a {own[0]}"
                            if turned and swap and own[0] is not None else ""))
    if turned:
        said = (f"rows are named {own[0]!r}" if own[0] == col_name
                else f"columns are named {own[1]!r}")
        raise ValueError(f"the frame's {said}, but a row was to be one {row_name} and a column "
                         f"one {col_name}: the matrix is the other way round; pass {swap} (or "
                         "df.T)")
    # (types once the label column is out: its name is text beside numbered columns)
    columns = pd.RangeIndex(df.shape[1], name="column")
    check_labels(pd.Series(df.columns), f"columns ({col_name} labels)", columns, mixed=True)
    check_unique(df.columns, "column", col_name)  # before a column gives the row labels
    warn_alike(df.columns, f"columns ({col_name} labels)", case=names == col_name)
    if isinstance(df.index, pd.MultiIndex) and row_name not in df.columns:
        raise ValueError(f"the rows have {df.index.nlevels} levels of labels (e.g. "
                         f"{df.index[0]!r}); give one, e.g. df.index = ['_'.join(map(str, r)) "
                         "for r in df.index]")
    if row_name in df.columns:
        check_labels(df[row_name], row_name)
        df = df.set_index(row_name)
    check_labels(pd.Series(df.columns), f"columns ({col_name} labels)",
                 pd.RangeIndex(df.shape[1], name="column"))
    check_labels(pd.Series(df.index), f"index ({row_name} labels)")
    check_unique(df.index, "row", row_name)
    warn_alike(df.index, f"index ({row_name} labels)", case=names == row_name)
    if df.shape[0] == 0 or df.shape[1] == 0:
        raise ValueError(f"the matrix is empty (shape {df.shape}: {df.shape[0]} {row_name}s x "
                         f"{df.shape[1]} {col_name}s); nothing to fit")
    return df


#: words that mean a right answer, mapped to 1 in the advice for two-word answer columns
RIGHT_WORDS = {"correct", "right", "yes", "pass", "passed", "success", "ok", "y", "t"}


def _odd_dtype(dtype):
    """What a column of ``dtype`` holds where it is a type of numbers irteval does not read
    (dates, durations, complex numbers), with how to convert it; "" otherwise."""
    if pd.api.types.is_datetime64_any_dtype(dtype):
        return "dates"
    if pd.api.types.is_timedelta64_dtype(dtype):
        return "durations (as seconds: .dt.total_seconds())"
    if pd.api.types.is_complex_dtype(dtype):
        return "complex numbers (their real parts: np.real)"
    return ""


def numeric_values(col: pd.Series, name, fix="convert them to 0/1 (correct = 1)",
                   index=None, missing=True) -> np.ndarray:
    """A column as floats (NaN = missing); values that are not numbers or are infinite are a
    ValueError naming the column, where they are (``index``: the frame's) and ``fix``
    (``missing``: whether the caller takes NaN for a missing value)."""
    if pd.api.types.is_bool_dtype(col):
        return col.to_numpy(dtype=float)
    odd = _odd_dtype(col.dtype)
    if odd:  # dates read as nanoseconds, complex numbers cut to their real parts
        raise ValueError(f"{name} holds {odd}, dtype {col.dtype}, which irteval does not "
                         f"read as numbers; {fix}")
    index = pd.RangeIndex(len(col)) if index is None else index
    converted = pd.to_numeric(col, errors="coerce")
    bad = (converted.isna() & col.notna()).to_numpy()
    if bad.any():
        words = {str(v).strip().casefold() for v in col[bad].unique()}
        if words <= {"true", "false"}:
            hint = ("; True/False written as text: map them, e.g. .str.lower().map("
                    "{'true': 1, 'false': 0}) (pandas.read_csv reads them as booleans, which "
                    "are taken, unless given dtype=str)")
        elif len(words) == 2 and "0/1" in fix and converted.isna().all():  # "correct"/"wrong"
            right = sorted(sorted(words), key=lambda w: w not in RIGHT_WORDS)
            hint = (f"; two words: in Python map them, e.g. .str.strip().str.lower().map("
                    f"{{{right[0]!r}: 1, {right[1]!r}: 0}})"
                    + ("" if right[0] in RIGHT_WORDS else " (1 for the one that means right)")
                    + "; in a file write 1 and 0")
        elif all(re.fullmatch(r"\s*[-+]?\d*,\d+\s*", str(v)) for v in col[bad].unique()):
            hint = ("; decimal commas: read the file with pandas.read_csv(..., decimal=',') "
                    "(with sep=';' where commas also separate the columns), or write decimal "
                    "points in it")
        else:
            hint = ""
        raise ValueError(
            f"{name} has values that are not numbers, e.g. {col[bad].unique()[:5].tolist()} "
            f"({where(index, np.flatnonzero(bad))}); {fix}{hint}")
    out = converted.to_numpy(dtype=float)
    infinite = np.flatnonzero(np.isinf(out))
    if len(infinite):
        raise ValueError(f"{name} has infinite values ({where(index, infinite)}); replace them"
                         + (" or mark them missing (NaN)" if missing else ""))
    return out


def numeric_matrix(df, fix="convert them to 0/1 (correct = 1)", label_hint=None
                   ) -> np.ndarray:
    """The cells of a labelled matrix as floats (NaN = missing): in one step when every column
    is numeric or boolean, else column by column (naming a bad column). A column without a
    single number looks like the row labels: the message then gives ``label_hint`` (the
    keywords that name them; ``{name}``: the column's), as does a warning about a column
    that counts up like row numbers or ids."""
    if all(pd.api.types.is_numeric_dtype(t) and not _odd_dtype(t) for t in df.dtypes):
        mat = df.to_numpy(dtype=float)
        if not np.isinf(mat).any():
            if label_hint:
                _warn_row_numbers(mat, df.columns, label_hint)
            return mat

    for name, col in df.items():
        if isinstance(col.dtype, pd.CategoricalDtype):
            cats = col.cat.categories
            if not pd.api.types.is_numeric_dtype(cats) or (
                    col.cat.ordered and not cats.is_monotonic_increasing):
                raise ValueError(
                    f"column {plain(name)!r} is categorical ({[plain(x) for x in cats[:5]]}"
                    f"{', ordered' if col.cat.ordered else ''}) and irteval reads numbers: give "
                    "the levels as integers in their order, e.g. df.apply(lambda c: "
                    "c.cat.codes.where(c.notna()))")

    def fix_of(col, name):  # (a few words repeated down the rows, text levels, label none)
        values = col.dropna()
        if label_hint and pd.to_numeric(col, errors="coerce").isna().all() and \
                values.nunique() > len(values) / 2:
            return (f"{fix}; if column {name!r} labels the rows, pass "
                    f"{label_hint.format(name=plain(name))}")
        return fix

    return np.column_stack([numeric_values(col, f"column {c!r}", fix_of(col, c), df.index)
                            for c, col in df.items()])


def _warn_row_numbers(mat, columns, label_hint):
    """Warn about columns that count up by the same whole step down every row of ten or more
    (an id column left in the matrix is fitted as one more item or round). The first two
    rows pick the candidates, so a large matrix costs nothing more."""
    if len(mat) < 10:
        return
    step = mat[1] - mat[0]
    candidates = np.flatnonzero((step > 0) & (step == np.round(step))
                                & (mat[0] == np.round(mat[0])))
    if len(candidates):
        sub = mat[:, candidates]
        counting = candidates[(np.diff(sub, axis=0) == step[candidates]).all(axis=0)]
        for k in counting[:3]:
            name = plain(columns[k])
            warn_user(f"column {name!r} counts up by {step[k]:g} down every row, like row "
                      f"numbers or ids, and is read as data; if it labels the rows, pass "
                      f"{label_hint.format(name=name)}, or drop it")


def factorize(labels: pd.Series, name, case=False):
    """Integer codes of ``labels`` and the distinct labels in order of first appearance, as a
    flat Index (tuple labels stay labels, not MultiIndex levels; mixed types need no order);
    ``case``: :func:`warn_alike`'s."""
    codes, uniques = pd.factorize(labels)
    index = pd.Index(uniques, name=name, tupleize_cols=False)
    warn_alike(index, name, case)
    return codes, index


def warn_alike(index, name, case=False):
    """Warn when labels differ only by spaces at their ends ("gpt-4" and "gpt-4 ": two
    players), or with ``case`` (labels of models, which are names, not case-sensitive ids)
    only in case ("gpt-4" and "GPT-4"). (Labels of several types, which could print alike,
    are refused by :func:`check_labels`.)"""
    if not (index.dtype == object or pd.api.types.is_string_dtype(index)):
        return
    fold = str.casefold if case else str
    folded = pd.Index([fold(x.strip()) if isinstance(x, str) else x for x in index])
    if folded.has_duplicates and not index.has_duplicates:
        alike = index[folded.duplicated(keep=False)]
        warn_user(f"{name} has labels that differ only {'in case or ' if case else ''}by spaces "
                  f"at their ends, e.g. {[plain(x) for x in alike[:4]]}: they are kept apart; "
                  "to merge them, write them alike (in Python e.g. .str.strip()"
                  + (" or .str.lower()" if case else "") + " on the column or index; in a "
                  "file, edit them)")
