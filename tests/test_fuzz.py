"""Fuzzing (hypothesis) of the constructors, the model builders and the CLI's CSV reading.

Every input is either accepted, giving an object that keeps every observed cell and every
label, or rejected with a ValueError/TypeError raised by irteval itself (not by pandas or
numpy deep inside) whose message says what is wrong. Models are built, never sampled: their
log density at the initial point must be finite.

Examples per test: the hypothesis profile named by IRTEVAL_FUZZ_PROFILE ("ci", 50 examples,
the default; "slow", 500); every test also has a ``_slow`` variant marked ``slow`` that runs
500 examples (``pytest -m slow tests/test_fuzz.py``).
"""

import contextlib
import io
import math
import os
import re
import tempfile
import traceback
import warnings
from pathlib import Path
from unittest import mock

import numpy as np
import pandas as pd
import pytensor
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

import irteval as ie
from irteval import cli

HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile("ci", max_examples=50, deadline=None, derandomize=True,
                          suppress_health_check=HEALTH)
settings.register_profile("slow", max_examples=500, deadline=None,
                          suppress_health_check=HEALTH)
settings.load_profile(os.environ.get("IRTEVAL_FUZZ_PROFILE", "ci"))
SLOW = settings.get_profile("slow")
UNOPTIMISED = pytensor.compile.mode.Mode(linker="py", optimizer=None)


def fuzz(*strategies, slow=False):
    """``given(*strategies)``; with ``slow=True`` the 500-example variant marked slow."""
    def wrap(check):
        test = given(*strategies)(check)
        return pytest.mark.slow(settings(SLOW)(test)) if slow else test
    return wrap


# ---------------------------------------------------------------------- strategies
# labels of one type per axis (odd types included), sometimes mixed
LABEL_TYPES = [
    st.integers(-3, 10), st.integers(-2**63, 2**63 - 1), st.floats(-1e6, 1e6, width=64),
    st.text(min_size=1, max_size=4), st.sampled_from(
        ["ü", "模型", "a b", "", "\n", "nan", "NA", "0", "respondent", "item", "player", "round",
         "instance", "model", "dataset", "r", "i", "v"]),
    st.tuples(st.integers(0, 2), st.text(max_size=2)),
]
LABELS = st.one_of(*LABEL_TYPES, st.booleans())
SPECIAL = [np.nan, None, np.inf, -np.inf, 1e308, -1e308, 5e-324, "1", "0", "x", "", True,
           (1,), 2, -1, 0.5]
SIZES = st.sampled_from([3, 1, 2, 4, 5, 2, 3, 4, 3, 0])


def rarely(draw):
    """True in about one draw of five."""
    return draw(st.sampled_from([False, False, False, False, True]))


@st.composite
def labels(draw, n):
    """``n`` distinct labels of one type (or mixed), sometimes one missing or duplicated."""
    kind = draw(st.sampled_from([*LABEL_TYPES, LABELS]))
    out = draw(st.lists(kind, min_size=n, max_size=n, unique=True))
    if n and rarely(draw):
        k = draw(st.integers(0, n - 1))
        out[k] = draw(st.sampled_from([None, np.nan, out[0]]))
    return out


def binary_cells(draw, n_rows, n_cols):
    pattern = draw(st.sampled_from(["random", "all 1", "all 0", "a row of 1s", "a column of 0s",
                                    "booleans"]))
    mat = [[draw(st.sampled_from([0, 1])) for _ in range(n_cols)] for _ in range(n_rows)]
    if not (n_rows and n_cols):
        return mat
    if pattern in ("all 1", "all 0"):
        mat = [[int(pattern == "all 1")] * n_cols for _ in range(n_rows)]
    elif pattern == "a row of 1s":
        mat[0] = [1] * n_cols
    elif pattern == "a column of 0s":
        for row in mat:
            row[0] = 0
    elif pattern == "booleans":
        mat = [[bool(v) for v in row] for row in mat]
    return mat


def continuous_cells(draw, n_rows, n_cols):
    pattern = draw(st.sampled_from(["unit", "wide", "at the bounds", "constant column", "huge",
                                    "tiny range"]))
    value = {"unit": st.floats(0, 1), "wide": st.floats(-1e3, 1e3),
             "at the bounds": st.sampled_from([0.0, 1.0]), "constant column": st.floats(0, 1),
             "huge": st.floats(-1e308, 1e308), "tiny range": st.floats(0.5, 0.5 + 1e-9)}[pattern]
    mat = [[draw(value) for _ in range(n_cols)] for _ in range(n_rows)]
    if pattern == "constant column" and n_cols:
        for row in mat:
            row[0] = mat[0][0]
    return mat


def score_cells(draw, n_rows, n_cols):
    """Players are rows: random, perfectly separated (player k always beats k + 1), all tied."""
    pattern = draw(st.sampled_from(["random", "separated", "tied", "huge"]))
    if pattern == "separated":
        return [[float(n_rows - k)] * n_cols for k in range(n_rows)]
    if pattern == "tied":
        return [[0.5] * n_cols for _ in range(n_rows)]
    value = st.floats(-1e308, 1e308) if pattern == "huge" else st.floats(-1e3, 1e3)
    return [[draw(value) for _ in range(n_cols)] for _ in range(n_rows)]


@st.composite
def matrices(draw, cells):
    """(row labels, column labels, cells): a structured matrix with a few missing cells and,
    sometimes, a value that does not belong (NaN/inf, huge, a string, a tuple, ...)."""
    n_rows, n_cols = draw(SIZES), draw(SIZES)
    rows, cols = draw(labels(n_rows)), draw(labels(n_cols))
    mat = cells(draw, n_rows, n_cols)
    if n_rows and n_cols:
        for _ in range(draw(st.sampled_from([0, 1, 2]))):
            mat[draw(st.integers(0, n_rows - 1))][draw(st.integers(0, n_cols - 1))] = draw(
                st.sampled_from([np.nan, None]))
        if rarely(draw):
            mat[draw(st.integers(0, n_rows - 1))][draw(st.integers(0, n_cols - 1))] = draw(
                st.sampled_from(SPECIAL))
    return rows, cols, mat


@st.composite
def wide_frames(draw, cells):
    rows, cols, mat = draw(matrices(cells))
    frame = pd.DataFrame(mat, columns=pd.Index(cols, dtype=object, tupleize_cols=False),
                         index=pd.Index(rows, dtype=object, tupleize_cols=False), dtype=object)
    return frame.infer_objects() if draw(st.booleans()) else frame


@st.composite
def long_frames(draw, cells):
    """A long table (columns r, i, v) of a matrix's cells: shuffled, some absent, some
    repeated (with the same or another value)."""
    rows, cols, mat = draw(matrices(cells))
    records = [[r, c, v] for r, row in zip(rows, mat) for c, v in zip(cols, row)]
    records = draw(st.permutations(records))
    if records:
        records = records[draw(st.sampled_from([0, 0, 1, 2])):] or records
        for _ in range(rarely(draw) + rarely(draw)):
            r, c, v = records[draw(st.integers(0, len(records) - 1))]
            records.append([r, c, draw(st.sampled_from([v, v, 0, 1, np.nan]))])
    frame = pd.DataFrame(records, columns=["r", "i", "v"], dtype=object)
    return frame.infer_objects() if draw(st.booleans()) else frame


# ---------------------------------------------------------------------- oracles
def as_number(value):
    """The number a cell holds for irteval, NaN when missing, None when not a number."""
    if value is None:
        return math.nan
    if isinstance(value, (bool, np.bool_)):
        return float(value)
    try:
        return float(pd.to_numeric(pd.Series([value], dtype=object)).iloc[0])
    except (ValueError, TypeError):
        return None


def is_missing_label(label):
    return label is None or (isinstance(label, float) and math.isnan(label))


def check_rejection(err):
    """A rejection is a ValueError/TypeError raised in irteval's own code with a sentence."""
    assert isinstance(err, (ValueError, TypeError)), f"unexpected {type(err).__name__}: {err}"
    frame = traceback.extract_tb(err.__traceback__)[-1]
    assert f"{os.sep}irteval{os.sep}" in frame.filename and frame.line.startswith("raise"), (
        f"{type(err).__name__} raised at {frame.filename}:{frame.lineno} ({frame.line!r}), not "
        f"by irteval's validation: {err}")
    assert len(str(err)) > 20, f"message too short to name the problem: {err!r}"
    assert not re.search(r"np\.\w+\(|np\.(True|False)_", str(err)), f"numpy reprs: {err}"


def attempt(build):
    """(result, None) or (None, the rejection), warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return build(), None
        except Exception as err:  # noqa: BLE001 - check_rejection decides
            check_rejection(err)
            return None, err


def expected_long(df):
    """{(respondent, item): value} of the rows with a number, Python equality of labels."""
    cells = {}
    for r, i, v in zip(df["r"], df["i"], df["v"]):
        number = as_number(v)
        if number is not None and not math.isnan(number):
            cells.setdefault((r, i), number)
    return cells


def expected_wide(df):
    """{(row label, column label): value} of the cells with a number."""
    return {(r, c): as_number(v) for r, row in zip(df.index, df.itertuples(index=False))
            for c, v in zip(df.columns, row) if as_number(v) is not None
            and not math.isnan(as_number(v))}


def check_responses(resp, cells, rows="respondent"):
    """``resp`` holds exactly ``cells`` {(row, column): value}: nothing dropped or added."""
    assert resp.n_obs == len(cells), f"{resp.n_obs} observed cells from {len(cells)} values"
    got = {}
    for r, i, v in zip(resp.respondent_idx, resp.item_idx, resp.values):
        key = ((resp.respondents[r], resp.items[i]) if rows == "respondent"
               else (resp.items[i], resp.respondents[r]))
        got[key] = float(v)
    assert got == cells
    assert resp.n_respondents >= 2
    if resp.kind == "binary":
        assert set(np.unique(resp.values)) <= {0, 1}
    else:
        assert np.all(resp.lower < resp.upper) and np.all(np.isfinite(resp.z))


# ---------------------------------------------------------------------- constructors
def check_from_long(df, kind, scale):
    resp, _ = attempt(lambda: ie.Responses.from_long(df, respondent="r", item="i", value="v",
                                                     kind=kind, **scale))
    if resp is None:
        return
    assert not any(is_missing_label(x) for x in (*df["r"], *df["i"]))
    check_responses(resp, expected_long(df))
    assert resp.items.name == "i" and resp.respondents.name == "r"


BOUNDS = st.one_of(
    st.sampled_from(["column", "global", (0, 1)]),
    st.sampled_from(["other", (1, 0), (0.0, 1e-3), (-np.inf, 1), (0, 1, 2), "0,1", None]),
    st.tuples(st.floats(-1e308, 0), st.floats(1, 1e308)))
SCALE = st.fixed_dictionaries({
    "bounds": BOUNDS, "transform": st.sampled_from(["logit", "airt", "logit", "airt", "log"]),
    "clip": st.one_of(st.just(0.01), st.sampled_from([1e-12, 0.49, 0.0, 0.5, np.nan, "0.1"]))})
LONG = st.one_of(st.tuples(long_frames(binary_cells), st.just("binary"), st.just({})),
                 st.tuples(long_frames(continuous_cells), st.just("continuous"), SCALE))


@fuzz(LONG)
def test_responses_from_long(case):
    check_from_long(*case)


@fuzz(LONG, slow=True)
def test_responses_from_long_slow(case):
    check_from_long(*case)


def check_from_wide(df, rows, kind="binary", **scale):
    resp, _ = attempt(lambda: ie.Responses.from_wide(df, rows=rows, kind=kind, **scale))
    if resp is None:
        return
    assert not any(is_missing_label(x) for x in (*df.index, *df.columns))
    labelled = df.set_index(rows) if rows in df.columns else df
    check_responses(resp, expected_wide(labelled), rows=rows)
    row_labels, col_labels = ((resp.respondents, resp.items) if rows == "respondent"
                              else (resp.items, resp.respondents))
    assert list(row_labels) == list(labelled.index)
    assert list(col_labels) == list(labelled.columns)


@fuzz(wide_frames(binary_cells), st.sampled_from(["respondent", "item"]))
def test_responses_from_wide(df, rows):
    check_from_wide(df, rows)


@fuzz(wide_frames(binary_cells), st.sampled_from(["respondent", "item"]), slow=True)
def test_responses_from_wide_slow(df, rows):
    check_from_wide(df, rows)


def check_continuous(df, rows, scale):
    check_from_wide(df, rows, kind="continuous", **scale)


@fuzz(wide_frames(continuous_cells), st.sampled_from(["respondent", "item"]),
      SCALE)
def test_continuous_from_wide(df, rows, scale):
    check_continuous(df, rows, scale)


@fuzz(wide_frames(continuous_cells), st.sampled_from(["respondent", "item"]),
      SCALE, slow=True)
def test_continuous_from_wide_slow(df, rows, scale):
    check_continuous(df, rows, scale)


def check_scores(scores, cells, rows="player"):
    mat = scores.matrix if scores.higher_is_better else -scores.matrix
    got = {(scores.players[p], scores.rounds[r]) if rows == "player"
           else (scores.rounds[r], scores.players[p]): float(mat[p, r])
           for p, r in zip(*np.nonzero(~np.isnan(mat)))}
    assert got == cells
    assert scores.n_players >= 2 and (~np.isnan(scores.matrix)).sum(axis=0).max() >= 2


def check_scores_long(df, higher):
    scores, _ = attempt(lambda: ie.Scores.from_long(df, player="r", round="i", score="v",
                                                    higher_is_better=higher))
    if scores is not None:  # missing scores and repeats left out with a warning, as Responses
        check_scores(scores, expected_long(df))
        assert scores.players.name == "r" and scores.rounds.name == "i"


@fuzz(long_frames(score_cells), st.sampled_from([True, False, 1, "yes"]))
def test_scores_from_long(df, higher):
    check_scores_long(df, higher)


@fuzz(long_frames(score_cells), st.sampled_from([True, False, 1, "yes"]), slow=True)
def test_scores_from_long_slow(df, higher):
    check_scores_long(df, higher)


def check_scores_wide(df, rows):
    scores, _ = attempt(lambda: ie.Scores.from_wide(df, rows=rows))
    if scores is not None:
        labelled = df.set_index(rows) if rows in df.columns else df
        check_scores(scores, expected_wide(labelled), rows=rows)


@fuzz(wide_frames(score_cells), st.sampled_from(["player", "round"]))
def test_scores_from_wide(df, rows):
    check_scores_wide(df, rows)


@fuzz(wide_frames(score_cells), st.sampled_from(["player", "round"]), slow=True)
def test_scores_from_wide_slow(df, rows):
    check_scores_wide(df, rows)


# ---------------------------------------------------------------------- model builders
def check_log_density(model):
    """The model's log density at its initial point is finite, term by term (as
    ``model.point_logps()``, compiled without graph rewrites: a tenth of the time)."""
    point = model.initial_point()
    terms = model.basic_RVs + model.potentials
    logps = pytensor.function(model.value_vars, [t.sum() for t in model.logp(terms, sum=False)],
                              mode=UNOPTIMISED, on_unused_input="ignore")(
        *(point[v.name] for v in model.value_vars))
    assert np.all(np.isfinite(logps)), dict(zip((t.name for t in terms), logps))


def check_onepl(df, rows, discrimination):
    resp, _ = attempt(lambda: ie.Responses.from_wide(df, rows=rows))
    assume(resp is not None)
    model, err = attempt(lambda: ie.models.onepl(resp, discrimination=discrimination))
    assert err is None, err
    check_log_density(model)
    assert list(model.coords["item"]) == list(resp.items)
    assert list(model.coords["respondent"]) == list(resp.respondents)


@fuzz(wide_frames(binary_cells), st.sampled_from(["respondent", "item"]), st.booleans())
def test_onepl_builds(df, rows, discrimination):
    check_onepl(df, rows, discrimination)


@fuzz(wide_frames(binary_cells), st.sampled_from(["respondent", "item"]), st.booleans(),
      slow=True)
def test_onepl_builds_slow(df, rows, discrimination):
    check_onepl(df, rows, discrimination)


def check_bradley_terry(df, likelihood):
    scores, _ = attempt(lambda: ie.Scores.from_wide(df))
    assume(scores is not None)
    model, err = attempt(lambda: ie.models.bradley_terry(scores, likelihood=likelihood))
    assert err is None, err
    check_log_density(model)
    assert list(model.coords["player"]) == list(scores.players)


LIKELIHOODS = st.sampled_from(["plackett_luce", "pairwise", "davidson"])


@fuzz(wide_frames(score_cells), LIKELIHOODS)
def test_bradley_terry_builds(df, likelihood):
    check_bradley_terry(df, likelihood)


@fuzz(wide_frames(score_cells), LIKELIHOODS, slow=True)
def test_bradley_terry_builds_slow(df, likelihood):
    check_bradley_terry(df, likelihood)


def check_continuous_irt(df, scale):
    perf, _ = attempt(lambda: ie.Responses.from_wide(df, kind="continuous", **scale))
    assume(perf is not None)
    model, err = attempt(lambda: ie.models.continuous_irt(perf))
    if model is None:  # the data-dependent rejections
        assert "at least two" in str(err) or "same performance on every" in str(err)
        return
    check_log_density(model)
    assert list(model.coords["item"]) == list(perf.items)


@fuzz(wide_frames(continuous_cells), SCALE)
def test_continuous_irt_builds(df, scale):
    check_continuous_irt(df, scale)


@fuzz(wide_frames(continuous_cells), SCALE, slow=True)
def test_continuous_irt_builds_slow(df, scale):
    check_continuous_irt(df, scale)


# ---------------------------------------------------------------------- CLI: reading CSVs
@st.composite
def csv_bytes(draw, frames, wide):
    """A frame written as CSV, then maybe damaged: ragged rows, an unbalanced quote, a cut,
    NUL bytes, another encoding, blank lines, only the header, nothing, or binary garbage."""
    text = draw(frames).to_csv(index=wide)
    damage = draw(st.sampled_from(["none", "ragged", "quote", "cut", "nul", "latin-1",
                                   "utf-16", "blank lines", "header only", "empty", "garbage",
                                   "none"]))
    lines = text.splitlines(keepends=True)
    at = draw(st.integers(0, len(lines)))
    if damage == "ragged":
        lines.insert(at, "a,b,c,d,e,f,g,h,i\n")
    elif damage == "quote":
        lines.insert(at, '"a,1\n')
    elif damage == "blank lines":
        lines.insert(at, "\n\n")
    elif damage == "header only":
        lines = lines[:1]
    text = "".join(lines)
    if damage == "cut":
        text = text[:draw(st.integers(0, len(text)))]
    elif damage == "nul":
        text = text[:at] + "\x00" + text[at:]
    elif damage == "empty":
        text = ""
    if damage == "garbage":
        return draw(st.binary(max_size=200))
    return text.encode({"latin-1": "latin-1", "utf-16": "utf-16"}.get(damage, "utf-8"),
                       errors="replace")


def run_cli(argv):
    """``irteval.cli.main(argv)`` with the reports (the fits) replaced by a recorder:
    (exit status, stderr, what the report would have been given)."""
    seen = []

    def record(data, *args, **kwargs):
        seen.append(data)

    err = io.StringIO()
    with mock.patch.object(cli.difficulty, "report", record), \
            mock.patch.object(cli.leaderboard, "report", record), \
            mock.patch.object(cli.portfolio, "report", record), \
            mock.patch.object(cli.robustness, "report",
                              lambda name, X, y, *a, **k: seen.append((X, y))), \
            mock.patch.object(cli.robustness, "taxonomy_report", lambda *a, **k: None), \
            contextlib.redirect_stderr(err), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        status = cli.main(argv)
    return status, err.getvalue(), seen


# (command, options, cells, layout): layout None for a long CSV, else (rows, the name of the
# row labels' column, which the first column stands for when absent)
COMMANDS = st.sampled_from([
    ("difficulty", ["--respondent", "r", "--item", "i", "--value", "v"], binary_cells, None),
    ("difficulty", ["--rows", "item"], binary_cells, ("item", "instance")),
    ("difficulty", ["--rows", "respondent", "--format", "wide"], binary_cells,
     ("respondent", "model")),
    ("leaderboard", ["--player", "r", "--round", "i", "--score", "v"], score_cells, None),
    ("portfolio", ["--respondent", "r", "--item", "i", "--value", "v", "--bounds", "0,1"],
     continuous_cells, None),
    ("portfolio", ["--bounds", "global"], continuous_cells, ("respondent", "dataset")),
    ("robustness", ["--target", "v"], score_cells, None),
])


BOUND_ARGUMENTS = st.one_of(
    st.sampled_from(["column", "global", "0,1", "-1,1", "1,0", "nan,1", "0,inf", "0,1,2", ",",
                     "", "0;1", "1e400,1"]),
    st.text(alphabet="0123456789.,-einfa ", max_size=8))


def check_cli(data):
    command, options, cells, layout = data.draw(COMMANDS)
    if command == "portfolio":
        options = [*options, f"--bounds={data.draw(BOUND_ARGUMENTS)}"]
    frames = long_frames(cells) if layout is None else wide_frames(cells)
    content = data.draw(csv_bytes(frames, wide=layout is not None))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "data.csv"
        path.write_bytes(content)
        where = ["--csv", str(path)] if command == "robustness" else [str(path)]
        status, err, seen = run_cli([command, *where, "--out", str(Path(tmp) / "out"),
                                     *options])
        event(f"{command}: exit status {status}")
        if status == 2:  # one error line, after any warnings: no traceback
            lines = err.splitlines()
            assert lines[-1].startswith("irteval: error: ") and err.endswith("\n"), err
            assert all(line.startswith("irteval: warning: ") for line in lines[:-1]), err
            assert not seen
            return
        assert status == 0 and len(seen) == 1, err
        df = pd.read_csv(path)
        header = list(df.columns)
        labels = ([] if command == "robustness" else ["r", "i"] if layout is None
                  else [layout[1] if layout[1] in header else header[0]])
        text = pd.read_csv(path, dtype=str, keep_default_na=False)  # labels: as written
        for column in labels:
            df[column] = text[column].replace("", np.nan)
    if command == "robustness":
        X, y = seen[0]
        assert len(X) == len(y) == len(df) and "v" not in X.columns
    elif command == "leaderboard":
        check_scores(seen[0], expected_long(df))
    elif layout is None:
        check_responses(seen[0], expected_long(df))
    else:
        rows, row_name = layout
        labelled = df.set_index(row_name if row_name in df.columns else df.columns[0])
        check_responses(seen[0], expected_wide(labelled), rows=rows)


@fuzz(st.data())
def test_cli_reads_any_csv(data):
    check_cli(data)


@fuzz(st.data(), slow=True)
def test_cli_reads_any_csv_slow(data):
    check_cli(data)


# ---------------------------------------------------------------------- what the fuzzer found
def test_repeated_cells_with_tuple_and_number_labels():
    # was: TypeError from pandas sorting (0, (0,)) while grouping the repeats; then accepted,
    # and the fit failed (nutpie, netCDF): tuple labels are refused by name
    df = pd.DataFrame({"r": ["a", "a", "a", "b", "b"], "i": [0, 0, (0,), 0, (0,)],
                       "v": [1, 1, 0, 1, 1]})
    with pytest.raises(ValueError, match=r"i has 2 tuple labels \(e.g. \(0,\); rows 2, 4"):
        ie.Responses.from_long(df, respondent="r", item="i", value="v")


def test_airt_transform_needs_bounds_wider_than_its_nudge():
    # was: accepted, with NaN on the model scale (log of a negative number)
    df = pd.DataFrame({"a": [0.5, 0.51, 0.505], "b": [0.1, 0.9, 0.5]})
    with pytest.raises(ValueError, match=r"bounds must be more than 0.02 apart; 1 items .* "
                                         r"\['a'\]: rescale the values .* or use "
                                         "transform='logit'"):
        ie.Responses.from_wide(df, kind="continuous", transform="airt")
    assert np.isfinite(ie.Responses.from_wide(df, kind="continuous").z).all()


def test_values_too_wide_for_floating_point_are_refused():
    # was: accepted, with NaN on the model scale ((1e308 + 1e308) / (1e308 + 1e308))
    df = pd.DataFrame({"a": [1e308, -1e308, 0.0], "b": [0.1, 0.9, 0.5]})
    with pytest.raises(ValueError, match=r"1 value has no finite model scale .* e.g. 1e\+308 "
                                         r"within \[-1e\+308, 1e\+308\] for item 'a'"):
        ie.Responses.from_wide(df, kind="continuous")


def test_clip_that_is_not_a_number_is_refused():
    # was: TypeError "'<' not supported between instances of 'int' and 'str'"
    df = pd.DataFrame({"a": [0.2, 0.8, 0.5], "b": [0.1, 0.9, 0.5]})
    with pytest.raises(TypeError, match=r"clip must be a number in \(0, 0.5\), got '0.1'"):
        ie.Responses.from_wide(df, kind="continuous", clip="0.1")


def test_continuous_irt_with_missing_cells():
    # was: NotImplementedError from pm.Data, which refuses the NaN of the missing cells
    df = pd.DataFrame({"a": [0.2, np.nan, 0.5], "b": [0.1, 0.9, 0.5]})
    perf = ie.Responses.from_wide(df, kind="continuous", bounds=(0, 1))
    model = ie.models.continuous_irt(perf)
    check_log_density(model)
    performance = model["performance"].get_value()
    assert np.isnan(performance[1, 0]) and np.nansum(performance) == pytest.approx(2.2)


def test_a_round_without_scores_is_refused():
    # was: accepted with a warning, and the Plackett-Luce log density was NaN (log 0 * 0)
    wide = pd.DataFrame({"r0": [np.nan, np.nan], "r1": [2.0, 1.0], "r2": [1.0, 2.0]},
                        index=["a", "b"])
    with pytest.raises(ValueError, match=r"rounds \['r0'\] have no score at all; drop them"):
        ie.Scores.from_wide(wide)
    check_log_density(ie.models.bradley_terry(ie.Scores.from_wide(wide.drop(columns="r0"))))


def test_a_repeated_row_label_column_is_refused():
    # was: ValueError "Index data must be 1-dimensional" from pandas (two columns named like
    # the row labels)
    df = pd.DataFrame([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]],
                      columns=["respondent", "respondent", "x"])
    with pytest.raises(ValueError, match=r"duplicate column labels \['respondent'\]"):
        ie.Responses.from_wide(df, kind="continuous")
    with pytest.raises(ValueError, match=r"duplicate column labels \['player'\]"):
        ie.Scores.from_wide(df.set_axis(["player", "player", "x"], axis=1))


def test_messages_quote_labels_as_python_does():
    # was: "only one respondent (np.int64(3))"
    with pytest.raises(ValueError, match=r"only one respondent \(3\)"):
        ie.Responses.from_wide(pd.DataFrame({"x": [1], "y": [0]}, index=[3]))
