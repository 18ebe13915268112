"""Reading the CSV files the commands are given, fitting with the diagnostics printed, and
writing posteriors and plots."""

from __future__ import annotations

import argparse
import csv
import numbers
import re
import sys
from pathlib import Path

#: exit status when --strict finds failed convergence diagnostics (2: bad input)
EXIT_STRICT = 3
#: keywords of irteval's data constructors and of fit that are command-line flags too
FLAGS = ("respondent", "item", "value", "player", "round", "score", "bounds", "transform",
         "clip", "nominal", "rows", "noise", "player_a", "player_b", "winner", "ties", "weight",
         "cuts", "cut_rule", "method", "draws", "tune", "chains", "target_accept", "likelihood",
         "sampler", "log_likelihood")


def n_jobs(text):
    """An argparse type: joblib's n_jobs, an integer other than 0 (-1: every core)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value == 0:
        raise argparse.ArgumentTypeError("0 workers cannot run; give 1 or more, or -1 for "
                                         "every core")
    return value


def between(low, high):
    """An argparse type: a number strictly between ``low`` and ``high``."""
    def parse(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not low < value < high:  # also refuses NaN
            raise argparse.ArgumentTypeError(f"must lie between {low} and {high}, got {text}")
        return value
    return parse


def at_least(minimum, kind=int):
    """An argparse type: a number of ``kind`` that is at least ``minimum``."""
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            what = "an integer" if kind is int else "a number"
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if not value >= minimum:  # also refuses NaN
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {text}")
        return value
    return parse


def add_output_options(p):
    """--out, --seed and --overwrite."""
    p.add_argument("--out", type=Path, default=Path("irteval-output"),
                   help="output folder (default: irteval-output)")
    p.add_argument("--seed", type=at_least(0, int), default=0, help="random seed (default 0)")
    p.add_argument("--overwrite", action="store_true",
                   help="replace existing output files (default: refuse to)")


def add_fit_options(p, draws=None, defaults="the model's: 1000 draws, 1000 warm-up steps"):
    """The output options, the sampler's settings and --strict; ``defaults``: the command's
    draws and warm-up steps in words, for the help."""
    add_output_options(p)
    p.add_argument("--sampler", choices=["pymc", "nutpie", "numpyro"], default=None,
                   help="NUTS implementation (default: the model's choice, mostly nutpie; "
                        "numpyro needs pip install 'irteval[numpyro]')")
    p.add_argument("--draws", type=at_least(1), default=draws,
                   help=f"draws per chain (default: {defaults})")
    p.add_argument("--tune", type=at_least(0), default=None,
                   help="warm-up steps per chain (default: as for --draws)")
    p.add_argument("--chains", type=at_least(1), default=4, help="chains (default 4)")
    p.add_argument("--target-accept", type=between(0, 1), default=None,
                   help="NUTS target acceptance, in (0, 1) (default: the model's, 0.9 or 0.95); "
                        "raise it (e.g. 0.99) when a fit reports divergences")
    p.add_argument("--log-likelihood", action="store_true", default=None,
                   help="store the pointwise log-likelihood in posterior.nc whatever its size "
                        "(for az.loo, az.compare, irteval.compare_models); by default it is "
                        "stored up to 200 MB and a warning says when it is not")
    p.add_argument("--strict", action="store_true",
                   help=f"exit with status {EXIT_STRICT} when a fit fails its convergence "
                        "diagnostics (divergences, R-hat > 1.01, ESS < 100 per chain), "
                        "before writing its outputs")


class StrictError(Exception):
    """A fit failed its convergence diagnostics under --strict."""


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


def read_csv(path, labels=()):
    """A UTF-8 CSV with a header line; a missing, unreadable or malformed file is a ValueError
    naming the file and, where it can be told, the line. ``labels``: the columns that hold
    labels (or a function of the header's names giving them), read as text as written
    ("0001", "1.10", "NA" and "True" stay themselves; only an empty field is missing)."""
    import pandas as pd

    if not path.is_file():
        raise ValueError(f"{path} is a folder, not a CSV file" if path.is_dir()
                         else f"no such file: {path}")
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
            raise ValueError(f"{path}: {flag} {column!r} has {what} labels on lines "
                             f"{list(df.index[bad][:5])} (e.g. {labels[bad].iloc[0]!r}); every "
                             "row needs its own label")
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


def as_flags(message):
    """An error message in the command line's words: ``respondent=`` -> ``--respondent``,
    ``bounds='column'`` -> ``--bounds column``, ``bounds=(0, 1)`` -> ``--bounds 0,1``,
    ``log_likelihood=True`` -> ``--log-likelihood``."""
    names = "|".join(FLAGS)
    message = re.sub(rf"\b({names})=(?:'([^']*)'|\(([^)]*)\)|([0-9.]+\b|\.\.\.))",
                     lambda m: f"{flag(m[1])} " + (m[2] if m[2] is not None else m[4]
                                                   if m[4] is not None
                                                   else m[3].replace(' ', '')),
                     message)
    message = re.sub(rf"\b({names})=True\b", lambda m: flag(m[1]), message)
    return re.sub(rf"\b({names})=", lambda m: flag(m[1]), message)


def flag(keyword):
    """``cut_rule`` -> ``--cut-rule``."""
    return "--" + keyword.replace("_", "-")


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
    if ordinal:
        return read_responses(args, args.performance, kind="ordinal", cuts=args.cuts,
                              cut_rule=args.cut_rule)
    bounds = args.bounds
    if bounds not in ("column", "global"):
        try:
            bounds = tuple(float(b) for b in bounds.split(","))
        except ValueError as err:
            raise ValueError(f"--bounds {bounds!r}: use column, global or LO,HI") from err
        if len(bounds) != 2 or not bounds[0] < bounds[1]:
            raise ValueError(f"--bounds {args.bounds!r}: give two numbers LO,HI with LO < HI")
    return read_responses(args, args.performance, kind="continuous", bounds=bounds,
                          transform=args.transform, clip=args.clip)


def read_responses(args, path=None, **kwargs):
    """Responses from a long CSV (when it has the --value column, or --format long) or a
    wide one (row labels: the column named like them, else the first column). --format auto
    reads a file without the --value column as wide, unless --value was given."""
    import pandas as pd

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
        return in_file(path, lambda: Responses.from_long(df, **names, **kwargs))
    if args.format == "auto" and args.value is not None:
        raise ValueError(f"{path}: no column {args.value!r} (--value); its columns are "
                         f"{list(df.columns)[:10]}. Name the value column of a long file with "
                         "--value, or pass --format wide for a matrix")
    kind = "item" if rows == "respondent" else "respondent"
    if label not in df.columns and df.columns[0] == names[kind]:
        fix = (f"pass --rows {kind}" if hasattr(args, "rows")
               else f"transpose the file (a row per {label}, a column per {names[kind]})")
        reads = (f"--rows {rows}{' (the default)' if rows == 'item' else ''} reads"
                 if hasattr(args, "rows") else "this command reads")
        raise ValueError(f"{path}: its first column is {names[kind]!r} ({flag(kind)}), but "
                         f"{reads} a row per {label}; {fix}, or rename that column")
    if len(df.columns) < 2:
        raise ValueError(f"{path}: one column ({df.columns[0]!r}), and a wide file needs its "
                         "row labels first and then a column per "
                         + names["respondent" if rows == "item" else "item"]
                         + "; a long file needs --value (and its label columns)")
    if label not in df.columns:  # the first column's labels, under its own name
        df = df.set_index(df.columns[0])
        if getattr(args, rows, None) is None and not re.fullmatch(r"Unnamed: \d+|",
                                                                   str(df.index.name)):
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
                f"{path}: its first column {first.name!r} holds 0/1 answers, not labels: a "
                "wide file needs a first column naming its rows (pandas writes one with "
                "df.to_csv(path), not index=False)") from err
        if "duplicate row labels" in str(err) and args.format == "auto":
            columns = ([] if df.index.name == "line" else [df.index.name]) + list(df.columns)
            hint = (f"; if {path.name} is a long table (a row per answer), name its value "
                    f"column with --value (its columns: {columns[:10]})")
        raise ValueError(f"{path}: {err}{hint}") from err


def fit(model, args, **kwargs):
    """Fit, print the diagnostics and any failed check; under --strict a failed check raises
    StrictError (before the caller writes anything)."""
    import warnings

    from ..exceptions import ConvergenceWarning
    from ..inference import fit as fit_model

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        nuts = kwargs.get("method", "nuts") == "nuts"  # (the command says what others ignore)
        given = getattr(args, "log_likelihood", None)
        kwargs.setdefault("log_likelihood", "auto" if given is None else given)
        idata = fit_model(model, draws=args.draws, tune=args.tune, chains=args.chains,
                          random_seed=args.seed, sampler=args.sampler if nuts else None,
                          target_accept=args.target_accept if nuts else None, **kwargs)
    failed = [as_flags(str(w.message)) for w in caught
              if issubclass(w.category, ConvergenceWarning)]
    for w in caught:  # the others as they would have been shown
        if not issubclass(w.category, ConvergenceWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if "max_rhat" in idata.attrs:
        keys = ("divergences", "max_rhat", "min_ess_bulk", "min_ess_tail")
        print("diagnostics: " + ", ".join(f"{k} {idata.attrs[k]:.4g}" for k in keys))
    for message in failed:
        print(f"irteval: warning: {message}", file=sys.stderr)
    if failed and args.strict:
        raise StrictError(f"--strict: {'; '.join(failed)}; the outputs of this fit were not "
                          "written")
    return idata


def save(idata, writer, plots):
    """Write the fit to ``posterior.nc`` — posterior draws in float32, or packed to 16 bits
    where that loses under 1% of the variable's smallest posterior sd (:func:`_packed`;
    ``arviz.from_netcdf`` decodes them), the other groups in float32, all compressed — and
    each plot {file name: function(ax)}, through the report's
    :class:`~irteval.cli.outputs.Writer`."""
    import numpy as np
    import xarray as xr

    path = writer.path("posterior.nc")
    xr.Dataset(attrs=dict(idata.attrs)).to_netcdf(path, mode="w", engine="h5netcdf")
    for group in idata.groups():
        ds = idata[group]
        floats = [k for k, v in ds.data_vars.items() if v.dtype.kind == "f"]
        if group != "posterior":
            ds = ds.assign({k: ds[k].astype("float32") for k in floats})
        encoding = {k: _packed(ds[k]) if group == "posterior" and k in floats else {"zlib": True}
                    for k, v in ds.data_vars.items() if v.dtype.kind in "fiub"}
        with np.errstate(over="ignore"):  # beyond float32 (a Laplace fit gone wide, warned of
            # when it was fitted) is stored as inf
            ds.to_netcdf(path, mode="a", group=group, engine="h5netcdf", encoding=encoding)
    for name, plot in plots.items():
        save_plot(writer.path(name), plot)


def _packed(values):
    """netCDF encoding of posterior draws: int16 with a scale and offset spanning their range
    where its step, range / 65000, is at most 1% of the smallest posterior spread of an
    entry (interquartile range / 1.349, the sd of a normal: an error no summary sees);
    float32 elsewhere: heavy-tailed draws (the AIRT's beta = -tau / gamma spans 10^5 where
    most entries' spread is ~1) and single draws."""
    import numpy as np

    lo, hi = float(values.min()), float(values.max())
    step = (hi - lo) / 65000
    draws = values.transpose("chain", "draw", ...).values
    draws = draws.reshape(-1, *draws.shape[2:])
    present = ~np.isnan(draws).all(axis=0)  # entries a model lacks (a level above its top)
    q1, q3 = np.quantile(draws[:, present], [0.25, 0.75], axis=0)
    if not (present.any() and 0 < step <= 0.01 * float(np.min(q3 - q1)) / 1.349):
        return {"dtype": "float32", "zlib": True}
    return {"dtype": "int16", "scale_factor": step, "add_offset": (hi + lo) / 2,
            "_FillValue": -32768, "zlib": True}


def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_plot(path, plot):
    """A plot ``plot(ax=...)`` saved to ``path``, in the figure it makes for itself (7 x 4.5
    inches, taller for a table of many rows: a leaderboard of 80 players)."""
    plt = pyplot()
    with plt.rc_context({"figure.figsize": (7, 4.5)}):
        plot(ax=None)
    fig = plt.gcf()
    if fig.get_layout_engine() is None:
        fig.tight_layout()
    save_figure(path, fig)


def save_figure(path, fig, dpi=110):
    fig.savefig(path, dpi=dpi, bbox_inches="tight")  # legends placed outside the Axes too
    pyplot().close(fig)
