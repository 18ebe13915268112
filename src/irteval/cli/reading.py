"""Reading the CSV files the commands are given: text checks, errors naming the file, the
line and the flag, labels read as written, and the Responses they hold."""

from __future__ import annotations

import csv
import numbers
import re
import sys

from .options import flag

#: what pandas reads as missing in a value column (its default list)
NA_TEXT = ["", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND",
           "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null"]


def read_text_columns(path, names, text, **kwargs):
    """``pandas.read_csv`` of a file with columns ``names``, those in ``text`` read as text as
    written ("0001", "NA" and "True" stay themselves; only an empty field is missing), the
    others with pandas' own missing values."""
    import pandas as pd

    return pd.read_csv(path, dtype=dict.fromkeys(text, str), keep_default_na=False,
                       na_values={c: [""] if c in text else NA_TEXT for c in names}, **kwargs)


def read_csv(path, labels=(), flag=None):
    """A UTF-8 CSV with a header line; a missing, unreadable or malformed file is a ValueError
    naming the file and, where it can be told, the line (and ``flag``, the option that named
    a missing file, where a command reads several). ``labels``: the columns that hold
    labels (or a function of the header's names giving them), read as text as written
    ("0001", "1.10", "NA" and "True" stay themselves; only an empty field is missing)."""
    import pandas as pd

    if not path.is_file():
        raise ValueError((f"{path} is a folder, not a CSV file" if path.is_dir()
                          else f"no such file: {path}") + (f" ({flag})" if flag else ""))
    try:
        check_text(path)
        header = pd.read_csv(path, header=None, nrows=1, dtype=str, keep_default_na=False,
                             encoding="utf-8")
        names = list(pd.read_csv(path, nrows=0, encoding="utf-8").columns)  # as pandas names them
        text = [c for c in (labels(names) if callable(labels) else labels) if c in names]
        df = read_text_columns(path, names, text, encoding="utf-8")
    except UnicodeDecodeError as err:
        line, reason = undecodable_line(path)
        raise ValueError(f"{path}, line {line}: not UTF-8 text ({reason}); save the file as "
                         "UTF-8") from err
    except pd.errors.EmptyDataError as err:
        raise ValueError(f"{path} is empty: a CSV needs a header line naming its "
                         "columns") from err
    except pd.errors.ParserError as err:
        detail = str(err).strip().split("C error: ")[-1]
        line = re.search(r"line (\d+)", detail)
        fix = ("; every row needs as many comma-separated fields as the header"
               if "fields" in detail else "; close every opened quote" if "EOF" in detail
               else "")
        if line and "fields" in detail and _spaced_quote(path, int(line[1])):
            fix += (' (a space after a comma before a quoted field, as in , "a,b": the quote '
                    "then does not protect its commas; remove the spaces)")
        raise ValueError(f"{path}{f', line {line[1]}' if line else ''}: not a well-formed CSV "
                         f"({detail}){fix}") from err
    except OSError as err:
        raise ValueError(f"cannot read {path}: {err.strerror or err}") from err
    names = header.iloc[0]
    dup = names[names.duplicated() & (names != "")]
    if len(dup):
        raise ValueError(f"{path}, line 1: duplicate column names {sorted(set(dup))}; give "
                         "every column a unique name")
    padded = [n for n in names if n != n.strip()]
    if padded:
        raise ValueError(f"{path}, line 1: column names {padded[:5]} begin or end with spaces "
                         "(a space after each comma?); remove the spaces from the header")
    blank = [k for k in range(1, len(names)) if names.iloc[k] == ""
             and df.iloc[:, k].notna().any()]  # (the first: R's row names' header)
    if blank:
        raise ValueError(f"{path}, line 1: column {blank[0] + 1} has no name but holds values "
                         f"(it would be read as {df.columns[blank[0]]!r}); name it in the "
                         "header")
    if len(df.columns) == 1 and re.search("[;\t|]", str(df.columns[0])):
        sep = re.search("[;\t|]", str(df.columns[0]))[0]
        raise ValueError(f"{path}, line 1: one column named {df.columns[0]!r}: the file looks "
                         f"separated by {'tabs' if sep == chr(9) else repr(sep)}, and irteval "
                         "reads comma-separated CSV; save it with commas")
    if df.empty:
        raise ValueError(f"{path} has a header line but no data lines")
    if not isinstance(df.index, pd.RangeIndex):  # pandas took the first columns as an index
        line, fields = next(((line, n) for line, n in record_fields(path) if n > len(names)),
                            ("2", "more"))  # (the csv module counts as pandas does)
        raise ValueError(f"{path}, line {line}: {fields} fields where the header names "
                         f"{len(names)}; end no line with a comma, quote a decimal comma "
                         "(\"0,5\") or write it with a point, and give the first (label) "
                         "column a name in the header if it has none (R's write.csv "
                         "leaves it out)")
    df.index = pd.Index(record_lines(path, len(df)), name="line")  # as the file numbers them
    for column in text:
        padded = df[column].notna() & (df[column] != df[column].str.strip())
        if padded.any():
            print(f"irteval: warning: {path}: {column!r} has labels that begin or end with "
                  f"spaces on lines {list(df.index[padded][:5])} (e.g. "
                  f"{df[column][padded].iloc[0]!r}), kept as written; if they come from a space "
                  "after each comma, remove those spaces", file=sys.stderr)
    return df


def label_column(df, column, path, flag):
    """The labels in ``column`` of a CSV read by :func:`read_csv`, refusing empty and
    repeated ones with their lines."""
    labels = df[column]
    for bad, what in ((labels.isna(), "empty"), (labels.duplicated(keep=False), "repeated")):
        if bad.any():
            example = f" (e.g. {labels[bad].iloc[0]!r})" if what == "repeated" else ""
            raise ValueError(f"{path}: {flag} {column!r} has {what} labels on lines "
                             f"{list(df.index[bad][:5])}{example}; every row needs its own "
                             "label")
    return labels.to_numpy()


def as_labels(texts, labels):
    """``texts`` (labels read from a CSV, as text) as the matching ``labels`` of a fit or a
    table (which may be numbers: the bundled data's instances): by their text, else by their
    value as numbers ("1" for 1.0); unmatched ones as read."""
    import numpy as np
    import pandas as pd

    by_text = {str(label): label for label in labels}
    by_value = {float(label): label for label in labels  # numbers, NumPy's too, not bools
                if isinstance(label, numbers.Real) and not isinstance(label, (bool, np.bool_))}

    def match(text):
        if text in by_text or not by_value:
            return by_text.get(text, text)
        try:
            return by_value.get(float(text), text)
        except (TypeError, ValueError):
            return text

    return pd.Index([match(t) for t in texts], name=getattr(texts, "name", None))


#: patterns of the first bytes of files that are not text, and what to do with each
BINARY_KINDS = {rb"\x1f\x8b": ("a gzip-compressed file", "decompress it first (gunzip -k FILE)"),
                rb"BZh[1-9]1AY&SY": ("a bzip2-compressed file",
                                     "decompress it first (bunzip2 -k FILE)"),
                rb"\xfd7zXZ\x00": ("an xz-compressed file", "decompress it first (unxz -k FILE)"),
                rb"PK\x03\x04": ("a zip archive (an Excel .xlsx workbook?)",
                                 "save the sheet as CSV (Excel: Save As, CSV UTF-8) or unzip it"),
                rb"\x89HDF": ("a netCDF-4 file (an irteval posterior.nc?)",
                              "give the CSV of your data"),
                rb"CDF[\x01\x02\x05]": ("a netCDF file", "give the CSV of your data")}


def check_text(path):
    """Refuse a file that is not a text CSV (compressed, a workbook, netCDF) or starts with
    Excel's separator line, naming what it looks like and the fix."""
    with open(path, "rb") as f:
        start = f.read(64)
    for pattern, (kind, fix) in BINARY_KINDS.items():
        if re.match(pattern, start):
            raise ValueError(f"{path} is not a text CSV: it looks like {kind}; "
                             + fix.replace("FILE", str(path)))
    if re.match(rb"(\xef\xbb\xbf)?sep=.\r?\n", start):
        hint = start.splitlines()[0].decode("utf-8-sig")
        raise ValueError(f"{path}, line 1: {hint!r} is Excel's separator hint, not a header; "
                         "delete that line")


def _spaced_quote(path, line):
    """Whether ``line`` (1-based) of the file holds a quoted field with a comma after ``, `` (a
    space)."""
    with open(path, encoding="utf-8-sig", errors="replace") as f:
        text = next((t for k, t in enumerate(f, 1) if k == line), "")
    return re.search(r',[ \t]+"[^"]*,', text) is not None  # a comma the quote meant to hold


def record_fields(path):
    """(line, number of fields) of each data record, by the csv module."""
    with open(path, newline="", encoding="utf-8-sig") as f:
        reader = csv.reader(f)
        next(reader, None)
        line = reader.line_num
        for row in reader:
            if row:
                yield line + 1, len(row)
            line = reader.line_num


def record_lines(path, n_records):
    """The line each of the ``n_records`` data records starts on: 2, 3, ... unless the file
    has more lines than records (blank lines, which pandas skips, or quoted fields that span
    lines), when the csv module tells where each record starts (2, 3, ... where it cannot)."""
    plain = range(2, n_records + 2)
    with open(path, "rb") as f:
        ends = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
        f.seek(-1, 2)
        lines = ends + (f.read(1) != b"\n")
    if lines == n_records + 1:
        return plain
    starts, line = [], 0
    limit = csv.field_size_limit()
    csv.field_size_limit(max(limit, min(path.stat().st_size + 1, 2**31 - 1)))  # as pandas
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            reader = csv.reader(f)
            for row in reader:
                if row and any(field.strip() for field in row) or len(row) > 1:
                    starts.append(line + 1)
                line = reader.line_num
    except csv.Error:
        return plain
    finally:
        csv.field_size_limit(limit)
    return starts[1:] if len(starts) == n_records + 1 else plain


def in_file(path, build):
    """``build()``, with a ValueError from it prefixed by the file it was reading (None:
    bundled data, no prefix)."""
    try:
        return build()
    except ValueError as err:
        if path is None:
            raise
        raise ValueError(f"{path}: {err}") from err


def undecodable_line(path):
    """The number of the first line that is not UTF-8, and why (lines decode on their own:
    no UTF-8 character holds a newline byte)."""
    with open(path, "rb") as f:
        for number, line in enumerate(f, 1):
            try:
                line.decode("utf-8")
            except UnicodeDecodeError as err:
                return number, err.reason


#: the polytomous IRT that --levels / --cuts fit unless --model says otherwise
POLYTOMOUS_MODEL = "gpcm"


def read_performance(args):
    """Continuous performances, or ordered levels with --levels / --cuts; an option of the
    other reading is refused (it would be ignored)."""
    from ..data.responses import SCALE_OPTIONS  # the defaults, as Responses has them
    ordinal = getattr(args, "levels", False) or getattr(args, "cuts", None) is not None
    cut_rule = SCALE_OPTIONS["ordinal"]["cut_rule"]
    other = (SCALE_OPTIONS["continuous"] if ordinal
             else {"cut_rule": cut_rule, "model": POLYTOMOUS_MODEL})
    if getattr(args, "cuts", None) is None and getattr(args, "cut_rule", cut_rule) != cut_rule:
        raise ValueError("--cut-rule says how --cuts C bins performances: add --cuts, or drop it")
    for name, default in other.items():
        if getattr(args, name, default) != default:
            what = ("continuous performances (without --levels or --cuts)" if ordinal
                    else "levels: add --levels or --cuts C")
            raise ValueError(f"{flag(name)} is for {what}, or drop it")
    if getattr(args, "levels", False) and getattr(args, "cuts", None) is not None:
        raise ValueError("--levels reads integer levels, --cuts C bins performances into "
                         "levels: give one of them")
    lower_is_better = getattr(args, "lower_is_better", False)
    if lower_is_better and getattr(args, "levels", False):
        raise ValueError("--lower-is-better turns performances around, and --levels reads "
                         "levels as given: recode them so that the highest is the best, or "
                         "bin the raw performances with --cuts C --lower-is-better")
    if ordinal:
        perf = read_responses(args, args.performance, kind="ordinal", cuts=args.cuts,
                              cut_rule=args.cut_rule)
    else:
        perf = read_responses(args, args.performance, kind="continuous",
                              bounds=_bounds(args.bounds), transform=args.transform,
                              clip=args.clip)
    perf = _reflected(perf) if lower_is_better else perf
    if perf.level_ranges is not None:
        from ..data.levels import level_labels

        print(f"levels by --cuts {args.cuts} ({args.cut_rule}), with the performances each "
              f"stands for: {', '.join(level_labels(perf.levels, *perf.level_ranges.T))}")
    return perf


def _bounds(text):
    """--bounds: "column", "global" or LO,HI as a tuple of floats."""
    if text in ("column", "global"):
        return text
    try:
        bounds = tuple(float(b) for b in text.split(","))
    except ValueError as err:
        raise ValueError(f"--bounds {text!r}: use column, global or LO,HI") from err
    if len(bounds) != 2 or not bounds[0] < bounds[1]:
        raise ValueError(f"--bounds {text!r}: give two numbers LO,HI with LO < HI")
    return bounds


def _reflected(perf):
    """``perf`` turned around (--lower-is-better), said once."""
    how = ("each level turned around (the highest is the best)" if perf.kind == "ordinal"
           else "each performance x analysed as lower + upper - x within its bounds")
    print(f"lower is better (--lower-is-better): {how}; every output reads higher = better")
    return perf.reflected()


#: what a wide file without a label column lacks (pandas' index=False)
NEEDS_LABELS = ("a wide file needs a first column naming its rows (pandas writes one with "
                "df.to_csv(path), not index=False)")


def read_responses(args, path=None, **kwargs):
    """Responses from a long CSV (when it has the --value column, or --format long) or a
    wide one (row labels: the column the flag names, else the first column under its own
    name; a flag naming no column is refused where the first column has a name). --format auto
    reads a file without the --value column as wide, unless --value was given."""
    import pandas as pd

    from .._validation import listed, plain, spelling_hint, warn_user, where
    from ..data import Responses

    path = args.responses if path is None else path
    names = {k: getattr(args, k) or default for k, default in args.label_defaults.items()}
    rows = getattr(args, "rows", "respondent")
    label = names["respondent"] if rows == "respondent" else names["item"]
    is_long = lambda columns: args.format == "long" or (  # noqa: E731
        args.format == "auto" and names["value"] in columns)
    df = read_csv(path, labels=lambda columns: (
        [names["respondent"], names["item"]] if is_long(columns)
        else [label if label in columns else columns[0]]))
    if is_long(df.columns):
        defaults = args.label_defaults
        if args.format == "long" and names["value"] not in df.columns:
            raise ValueError(f"{path}: --format long reads the answers from a column "
                             f"{names['value']!r} (--value"
                             + spelling_hint([names["value"]], df.columns, nearest=True)
                             + f"), which it lacks (its columns: {listed(df.columns)}); if it "
                             "is a matrix, drop --format long, else name that column with "
                             "--value")
        if (names["respondent"], names["item"]) == (defaults["item"], defaults["respondent"]):
            raise ValueError(f"{path}: --respondent names column {names['respondent']!r} and "
                             f"--item column {names['item']!r}, but here each "
                             f"{defaults['respondent']} answers and each {defaults['item']} "
                             f"is asked; swap them (--respondent {defaults['respondent']} "
                             f"--item {defaults['item']})")
        if getattr(args, "rows", None) == "respondent":  # not the default: given, for nothing
            warn_user(f"{path}: --rows respondent applies to a matrix; this long file is read "
                      f"by its columns {names['respondent']!r} (--respondent) and "
                      f"{names['item']!r} (--item): leave --rows out")
        return in_file(path, lambda: Responses.from_long(df, **names, **kwargs))
    if args.format == "auto" and {names["respondent"], names["item"]} <= set(df.columns):
        raise ValueError(  # a long file's label columns, and no answers beside them
            f"{path}: no column {names['value']!r} (--value"
            + spelling_hint([names["value"]], df.columns, nearest=True) + f"), though it has "
            f"a long file's columns {names['respondent']!r} and {names['item']!r}; its columns "
            f"are {listed(df.columns)}. Name its value column with --value, or pass "
            "--format wide for a matrix")
    if args.format == "auto" and args.value is not None:
        raise ValueError(f"{path}: no column {args.value!r} (--value"
                         + spelling_hint([args.value], df.columns, nearest=True) + "); its "
                         f"columns are {listed(df.columns)}. Name the value column of a long "
                         "file with --value, or pass --format wide for a matrix")
    kind = "item" if rows == "respondent" else "respondent"
    # what reads it as a long table (a row per answer): the flag dropped, its column named
    drop = "drop --format wide" if args.format == "wide" else ""
    value = "name its value column with --value" if names["value"] not in df.columns else ""
    as_long = " and ".join(filter(None, (drop, value)))
    if label not in df.columns and df.columns[0] == names[kind]:
        fix = (f"pass --rows {kind}" if hasattr(args, "rows")
               else f"transpose the file (a row per {label}, a column per {names[kind]})")
        reads = (f"--rows {rows}{' (the default)' if rows == 'item' else ''} reads"
                 if hasattr(args, "rows") else "this command reads")
        repeated = df.iloc[:, 0].duplicated(keep=False).to_numpy().nonzero()[0]
        if len(repeated):  # a long table read as wide
            raise ValueError(
                f"{path}: its first column {names[kind]!r} repeats its labels (e.g. "
                f"{plain(df.iloc[repeated[0], 0])!r} on "
                f"{where(df.index, repeated[df.iloc[repeated, 0] == df.iloc[repeated[0], 0]])}"
                f"): if {path.name} is a long table (a row per answer), "
                + " and ".join(filter(None, (drop, f"{value} and its" if value else "name its")))
                + f" {label} column with {flag(rows)} (its columns: {listed(df.columns)}); if "
                f"it is a matrix, {fix}")
        raise ValueError(f"{path}: its first column is {names[kind]!r} ({flag(kind)}), but "
                         f"{reads} a row per {label}; {fix}, or rename that column")
    if len(df.columns) < 2:
        raise ValueError(f"{path}: one column ({df.columns[0]!r}), and a wide file needs its "
                         "row labels first and then a column per "
                         + names["respondent" if rows == "item" else "item"]
                         + "; a long file needs --value (and its label columns)")
    lines = df.index.to_numpy()  # as the file numbers them (read_csv)
    named = not re.fullmatch(r"Unnamed: \d+|", str(df.columns[0]))
    if label not in df.columns and named and getattr(args, rows, None) is not None:
        raise ValueError(f"{path}: no column {label!r} ({flag(rows)}); its rows are labelled "
                         f"by its first column, {df.columns[0]!r}: leave {flag(rows)} out, or "
                         f"pass {flag(rows)} {df.columns[0]}"
                         + spelling_hint([label], df.columns))
    if label not in df.columns:  # the first column's labels, under its own name
        first = pd.to_numeric(df.iloc[:, 0].dropna(), errors="coerce")
        numbers = all(pd.api.types.is_numeric_dtype(df[c]) for c in df.columns[1:])
        if numbers and len(first) and first.notna().all() and (first != first.round()).any():
            raise ValueError(
                f"{path}: its first column {df.columns[0]!r} holds numbers with decimals (e.g. "
                f"{df.iloc[:, 0].dropna().iloc[0]}), not labels: {NEEDS_LABELS}; if they "
                f"are labels, say so with {flag(rows)} {df.columns[0]}")
        df = df.set_index(df.columns[0])
        if named:  # (an unnamed one takes the flag's name, or the default)
            names[rows] = label = df.index.name
    try:
        return Responses.from_wide(df, respondent=names["respondent"], item=names["item"],
                                   rows=rows, **kwargs)
    except ValueError as err:
        hint = ""
        first = pd.Series(df.index if label not in df.columns else df[label])
        if "duplicate row labels" in str(err) and pd.to_numeric(
                first, errors="coerce").isin([0, 1]).all():
            raise ValueError(
                f"{path}: its first column {first.name!r} holds 0/1 answers, not labels: "
                f"{NEEDS_LABELS}") from err
        if "duplicate row labels" in str(err):
            repeated = first.duplicated(keep=False).to_numpy().nonzero()[0]
            hint = f" ({where(pd.Index(lines, name='line'), repeated)})"
        if "duplicate row labels" in str(err) and as_long:
            columns = ([] if df.index.name == "line" else [df.index.name]) + list(df.columns)
            hint += (f"; if {path.name} is a long table (a row per answer), {as_long} (its "
                     f"columns: {columns[:10]})")
        raise ValueError(f"{path}: {err}{hint}") from err
