"""Every CLI message names the file, the column, the line as the file numbers it and the flag
that fixes it; argument checks come before any work; one policy for missing values and
duplicates across commands (issue 13)."""

from unittest import mock

import numpy as np
import pandas as pd
import pytest

import irteval as ie
from irteval.cli import main

from .conftest import simulate


@pytest.fixture
def files(tmp_path):
    resp, _ = simulate(20, 4, seed=3)
    long = resp.to_long().rename(columns={"value": "correct"})
    long.to_csv(tmp_path / "long.csv", index=False)
    scores = pd.DataFrame({"model": list("abcabc"), "split": [1, 1, 1, 2, 2, 2],
                           "auc": [0.9, 0.8, 0.7, 0.85, 0.8, 0.6]})
    scores.to_csv(tmp_path / "scores.csv", index=False)
    return tmp_path


def error(capsys, argv, status=2):
    with mock.patch("irteval.inference.fit", side_effect=AssertionError("fitted")):
        assert main(argv) == status
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("irteval: error: "), err  # one line (after any warnings)
    return err[-1]


def test_a_long_file_with_another_value_column_is_not_read_as_a_matrix(files, capsys):
    err = error(capsys, ["difficulty", str(files / "long.csv"), "--value", "right"])
    assert f"{files / 'long.csv'}: no column 'right' (--value)" in err
    assert "--format wide" in err and "['model', 'instance', 'correct']" in err
    err = error(capsys, ["difficulty", str(files / "long.csv"), "--value", "corect"])
    assert "no column 'corect' (--value; did you mean 'correct'?)" in err


def test_a_repeated_row_label_of_a_wide_file_is_given_its_lines(files, capsys):
    (files / "repeated.csv").write_text("instance,m1,m2\ni1,1,0\ni2,0,1\ni1,1,1\n")
    err = error(capsys, ["difficulty", str(files / "repeated.csv")])
    assert "duplicate row labels ['i1']" in err and "(lines 2, 4)" in err


def test_a_long_file_read_as_wide_says_how_to_read_it_long(files, capsys):
    pd.read_csv(files / "long.csv").rename(columns={"correct": "hit"}).to_csv(
        files / "hits.csv", index=False)
    err = error(capsys, ["difficulty", str(files / "hits.csv")])
    assert "hits.csv: no column 'correct' (--value), though it has a long file's columns " \
           "'model' and 'instance'; its columns are ['model', 'instance', 'hit']. Name its " \
           "value column with --value" in err  # it opened with "duplicate row labels"
    (files / "nolabel.csv").write_text("instance,m1,m2\ni1,1,0\ni1,0,1\n")
    err = error(capsys, ["difficulty", str(files / "nolabel.csv")])  # a matrix's repeats
    assert "duplicate row labels" in err and "name its value column with --value" in err
    assert "its columns: ['instance', 'm1', 'm2']" in err  # not the reader's own 'line'


def test_a_semicolon_file_is_named_as_such(files, capsys):
    pd.read_csv(files / "long.csv").to_csv(files / "semi.csv", sep=";", index=False)
    err = error(capsys, ["difficulty", str(files / "semi.csv")])
    assert "semi.csv, line 1: one column named 'model;instance;correct'" in err
    assert "separated by ';'" in err and "save it with commas" in err


def test_fit_settings_are_checked_in_flags(files, capsys):
    assert main(["difficulty", str(files / "long.csv"), "--out", str(files / "t0"),
                 "--tune", "0"]) == 2  # refused before sampling
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "--tune 0: nutpie needs at least one warm-up step" in err  # was a Rust panic
    with pytest.raises(SystemExit):
        main(["difficulty", str(files / "long.csv"), "--target-accept", "1"])
    assert "--target-accept: must lie between 0 and 1" in capsys.readouterr().err


def test_an_unknown_flag_names_the_nearest_and_the_version_prints(files, capsys):
    """--rounds got the top-level usage and 'unrecognized arguments' alone."""
    with pytest.raises(SystemExit):
        main(["leaderboard", str(files / "long.csv"), "--rounds", "split"])
    err = capsys.readouterr().err
    assert err.startswith("usage: irteval leaderboard")
    assert "unrecognized arguments: --rounds split (--rounds: did you mean --round?)" in err
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0 and capsys.readouterr().out.startswith("irteval ")


def test_an_out_folder_that_cannot_be_made_and_zero_workers_are_refused_first(files, capsys):
    err = error(capsys, ["difficulty", str(files / "long.csv"), "--out",
                         str(files / "long.csv" / "sub")])  # failed after the fit
    assert "long.csv is a file, so the folder cannot be made" in err
    with pytest.raises(SystemExit):
        main(["robustness", "--dataset", "optdigits", "--n-jobs", "0"])
    assert "--n-jobs: 0 workers cannot run" in capsys.readouterr().err


def test_rows_that_contradict_the_label_column_are_refused(files, capsys):
    wide = pd.read_csv(files / "long.csv").pivot(index="instance", columns="model",
                                                 values="correct")
    wide.to_csv(files / "matrix.csv")  # first column 'instance': a row per instance
    err = error(capsys, ["difficulty", str(files / "matrix.csv"), "--rows", "respondent"])
    assert "its first column is 'instance' (--item), but --rows respondent reads a row per " \
           "model; pass --rows item" in err  # was fitted transposed
    wide.T.rename_axis(index="algorithm").to_csv(files / "by_algorithm.csv")
    err = error(capsys, ["portfolio", str(files / "by_algorithm.csv")])  # no --rows there
    assert "this command reads a row per dataset; transpose the file" in err
    pd.read_csv(files / "long.csv").rename(columns={"instance": "question", "correct": "ok"}) \
        .sort_values("model").to_csv(files / "long_named.csv", index=False)
    err = error(capsys, ["difficulty", str(files / "long_named.csv")])  # a probe's first try
    assert "its first column 'model' repeats its labels (e.g. 'm0' on lines 2, 3, 4, 5, 6 ...)" \
           ": if long_named.csv is a long table (a row per answer), name its value column " \
           "with --value and its instance column with --item (its columns: ['model', " \
           "'question', 'ok']); if it is a matrix, pass --rows respondent" in err  # (not first)
    wide.rename_axis(index="image").to_csv(files / "named.csv")
    assert main(["difficulty", str(files / "named.csv"), "--method", "map", "--bins", "2",
                 "--out", str(files / "named")]) == 0
    capsys.readouterr()
    table = pd.read_csv(files / "named" / "difficulty.csv", index_col=0)
    assert table.index.name == "image"  # the file's own header (was 'instance')


def test_a_header_with_spaces_after_the_commas_is_named(files, capsys):
    text = (files / "long.csv").read_text().splitlines()
    (files / "spaced.csv").write_text("\n".join([text[0].replace(",", ", "), *text[1:]]))
    err = error(capsys, ["difficulty", str(files / "spaced.csv")])  # was read as a matrix
    assert "spaced.csv, line 1: column names [' instance', ' correct'] begin or end with " \
           "spaces" in err


def test_centred_needs_the_2pl(files, capsys):
    err = error(capsys, ["difficulty", str(files / "long.csv"), "--centred"])
    assert "--centred sets the form of the 2PL's discriminations: pass --model 2pl" in err
    err = error(capsys, ["difficulty", str(files / "long.csv"), "--model", "2pl", "--options",
                         "4"])
    assert "--options 4 sets the prior of the 3PL's guessing floor: pass --model 3pl" in err
    with pytest.raises(SystemExit):  # argparse's message: one option leaves nothing to guess
        main(["difficulty", str(files / "long.csv"), "--model", "3pl", "--options", "1"])
    assert "--options: must be at least 2, got 1" in capsys.readouterr().err


def test_messages_speak_flags_not_python_keywords(files, capsys):
    err = error(capsys, ["difficulty", str(files / "long.csv"), "--respondent", "system"])
    assert "no column 'system': the columns are" in err
    assert err.endswith("pass the right name with --respondent")  # the flag that named it
    assert "respondent=" not in err and "long.csv: " in err


def test_a_portfolio_label_column_last_is_named_with_the_flag_portfolio_has(files, capsys):
    """The hint was the binary layout's (--rows item, which portfolio lacks; models and
    instances)."""
    (files / "last.csv").write_text("alg one,b2,problem\n0.1,0.2,p1\n0.2,0.3,p2\n0.3,0.1,p3\n")
    err = error(capsys, ["portfolio", str(files / "last.csv")])
    assert err.endswith("if column 'problem' labels the rows, pass --respondent problem (a "
                        "row per dataset)"), err
    # a level no dataset reached: the fix was a Python keyword only (levels=)
    (files / "gap.csv").write_text("dataset,a1,a2,a3\nd1,0,2,3\nd2,2,3,0\nd3,3,0,2\n")
    err = error(capsys, ["portfolio", str(files / "gap.csv"), "--levels"])
    assert "recode the values as consecutive levels ([0, 2, 3] -> [0, 1, 2])" in err, err
    # run times read as levels: a traceback (every integer between them: 224 GB)
    (files / "times.csv").write_text("dataset,a1,a2\nd1,1,2\nd2,30000000000,1\nd3,2,2\n")
    err = error(capsys, ["portfolio", str(files / "times.csv"), "--levels"])
    assert "times.csv: the matrix: values from 1 to 3e+10" in err and "--cuts 5" in err, err
    # an error of the model's (a constant algorithm) names the file too
    (files / "const.csv").write_text("dataset,a1,a2\nd1,0.1,0.5\nd2,0.2,0.5\nd3,0.6,0.5\n")
    err = error(capsys, ["portfolio", str(files / "const.csv"), "--bounds", "global"])
    assert "const.csv: 1 algorithm has the same performance on every dataset" in err, err


def test_non_numbers_are_located_by_line_and_not_told_to_be_0_1_when_scores(files, capsys):
    df = pd.read_csv(files / "scores.csv").astype({"auc": object})
    df.loc[4, "auc"] = "high"
    df.to_csv(files / "bad.csv", index=False)
    err = error(capsys, ["leaderboard", str(files / "bad.csv"), "--round", "split",
                         "--score", "auc"])
    assert "auc has values that are not numbers, e.g. ['high'] (line 6)" in err
    assert "scores must be numbers" in err and "0/1" not in err


def test_lines_are_counted_past_blank_lines_and_quoted_line_breaks(files, capsys):
    """pandas skips blank lines and reads a quoted field over two lines as one record: the
    line of a bad value was its record's number + 1, two or one lines too early."""
    text = (files / "scores.csv").read_text().splitlines()
    text[4] = text[4].rsplit(",", 1)[0] + ",high"  # line 5 of the file
    (files / "blank.csv").write_text("\n".join(text[:2] + ["", "  "] + text[2:]) + "\n")
    (files / "quoted.csv").write_text("\n".join(text[:1] + ['"a\nb",1,0.5'] + text[1:]))
    (files / "bom.csv").write_text("\ufeff" + (files / "blank.csv").read_text(),
                                   encoding="utf-8")  # Excel's UTF-8 mark before the header
    for name, line in (("blank.csv", 7), ("quoted.csv", 7), ("bom.csv", 7)):
        err = error(capsys, ["leaderboard", str(files / name), "--round", "split",
                             "--score", "auc"])
        assert f"['high'] (line {line})" in err, err


def test_bounds_in_the_wrong_order(files, capsys):
    pd.DataFrame({"dataset": ["d1", "d2", "d3"], "a": [0.2, 0.5, 0.9],
                  "b": [0.1, 0.4, 0.3]}).to_csv(files / "perf.csv", index=False)
    err = error(capsys, ["portfolio", str(files / "perf.csv"), "--bounds", "1,0"])
    assert "--bounds '1,0': give two numbers LO,HI with LO < HI" in err


def test_levels_that_are_not_integers_name_the_file_and_the_flag(files, capsys):
    pd.DataFrame({"dataset": ["d1", "d2", "d3"], "a": [0.2, 0.5, 0.9],
                  "b": [0.1, 0.4, 0.3]}).to_csv(files / "perf.csv", index=False)
    err = error(capsys, ["portfolio", str(files / "perf.csv"), "--levels"])
    assert "perf.csv" in err and "integer levels" in err and "with --cuts (the number" in err
    err = error(capsys, ["portfolio", str(files / "perf.csv"), "--cuts", "5"])
    assert "left level(s)" in err and "smaller --cuts, or --cut-rule quantile" in err


def test_one_policy_for_missing_values_and_duplicates(files, capsys):
    """difficulty and leaderboard both leave out rows with a missing value and keep identical
    repeats once, saying so; conflicting repeats are an error naming their lines."""
    long = pd.read_csv(files / "long.csv")
    holey = pd.concat([long, long.iloc[[0]]], ignore_index=True).astype({"correct": float})
    holey.loc[3, "correct"] = np.nan
    holey.to_csv(files / "holey.csv", index=False)
    scores = pd.read_csv(files / "scores.csv")
    scores = pd.concat([scores, scores.iloc[[0]]], ignore_index=True)
    scores.loc[2, "auc"] = np.nan
    scores.to_csv(files / "holey_scores.csv", index=False)
    fast = ["--draws", "30", "--tune", "30", "--chains", "1", "--bins", "2"]
    assert main(["difficulty", str(files / "holey.csv"), "--out", str(files / "o1"), *fast]) == 0
    said = capsys.readouterr().err
    assert "1 row has a missing 'correct' (line 5)" in said and "1 duplicate" in said
    assert main(["leaderboard", str(files / "holey_scores.csv"), "--round", "split", "--score",
                 "auc", "--out", str(files / "o2"), *fast[:-2]]) == 0
    said = capsys.readouterr().err
    assert "1 row has a missing 'auc' (line 4)" in said and "1 duplicate" in said
    scores.loc[6, "auc"] = 0.1  # the repeat of line 2 now disagrees with it
    scores.to_csv(files / "clash.csv", index=False)
    err = error(capsys, ["leaderboard", str(files / "clash.csv"), "--round", "split",
                         "--score", "auc"])
    assert "('a', '1') at lines 2, 8" in err  # labels as written in the file


@pytest.mark.parametrize("argv, message", [
    (["--draws", "0"], "argument --draws: must be at least 1, got 0"),
    (["--chains", "-1"], "argument --chains: must be at least 1"),
    (["--tune", "x"], "argument --tune: 'x' is not an integer"),
    (["--bins", "0"], "argument --bins: must be at least 1"),
])
def test_bad_arguments_stop_before_reading_anything(files, capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        main(["difficulty", str(files / "long.csv"), *argv])
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_options_of_the_other_layout_are_refused(files, capsys):
    """--weight (battles) on scores, --score (scores) on battles: they were ignored; a battle
    file read without --winner is told to name it."""
    err = error(capsys, ["leaderboard", str(files / "scores.csv"), "--round", "split",
                         "--score", "auc", "--weight", "auc"])
    assert "--weight is for battles, and this reads scores" in err and "--winner" in err
    battles = pd.DataFrame({"model_a": list("abc"), "model_b": list("bca"),
                            "winner": list("abc")})
    battles.to_csv(files / "battles.csv", index=False)
    err = error(capsys, ["leaderboard", str(files / "battles.csv"), "--winner", "winner",
                         "--score", "auc"])
    assert "--score is for scores, and this reads battles" in err
    err = error(capsys, ["leaderboard", str(files / "battles.csv")])
    assert "has columns 'model_a' and 'model_b' but no --player column" in err
    assert "--winner" in err


def test_portfolio_options_of_the_other_reading_are_refused(files, capsys):
    """--model graded without --levels fitted the continuous IRT; --transform with --levels
    was ignored."""
    perf = pd.DataFrame({"dataset": list("abcd"), "x": [0.1, 0.5, 0.9, 0.3],
                         "y": [0.2, 0.4, 0.8, 0.6]})
    perf.to_csv(files / "perf.csv", index=False)
    err = error(capsys, ["portfolio", str(files / "perf.csv"), "--model", "graded"])
    assert "--model is for levels: add --levels or --cuts C" in err
    err = error(capsys, ["portfolio", str(files / "perf.csv"), "--cuts", "3", "--transform",
                         "airt"])
    assert "--transform is for continuous performances" in err
    err = error(capsys, ["portfolio", str(files / "perf.csv"), "--cuts", "3", "--levels"])
    assert "give one of them" in err


def test_too_many_bins_stop_before_the_fit(files, capsys):
    err = error(capsys, ["difficulty", str(files / "long.csv"), "--bins", "50"])
    assert "--bins 50 is more than the 20 instances" in err
    err = error(capsys, ["robustness", "--dataset", "optdigits", "--families", "knn_3,lda_svd",
                         "--groups", "3"])
    assert "--groups 3 is more than the 2 families" in err
    with pytest.raises(SystemExit):  # argparse: the hardest bin needs others to compare
        main(["robustness", "--dataset", "optdigits", "--bins", "1"])
    assert "--bins: must be at least 2, got 1" in capsys.readouterr().err


def test_warnings_are_one_line_without_source(files, capsys):
    assert main(["difficulty", str(files / "long.csv"), "--out", str(files / "o3"), "--draws",
                 "20", "--tune", "20", "--chains", "1", "--bins", "2"]) == 0
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines and all(line.startswith("irteval: warning: ") for line in lines), err


def test_battles_messages_name_only_flags_the_battles_take(files, capsys):
    pd.DataFrame({"model_a": list("ab"), "model_b": list("cc"), "won": list("ac")}).to_csv(
        files / "battles.csv", index=False)
    err = error(capsys, ["leaderboard", str(files / "battles.csv"), "--winner", "winner"])
    assert err.endswith("pass the right name with --winner")
    err = error(capsys, ["leaderboard", str(files / "battles.csv"), "--winner", "model_a"])
    assert "--player-a and --winner both name the column 'model_a'" in err  # every a won


def test_settings_map_ignores_are_said(files, capsys):
    # (--log-likelihood with map once ended in exit 2 and "log_likelihood=True")
    assert main(["difficulty", str(files / "long.csv"), "--out", str(files / "m"), "--method",
                 "map", "--bins", "2", "--draws", "50", "--strict", "--log-likelihood"]) == 0
    captured = capsys.readouterr()
    err = captured.err
    assert "--draws, --log-likelihood apply to --method nuts" in err
    assert "--method map ignores them" in err
    assert "--strict" not in err  # it stops on any non-NUTS convergence warning too
    assert "this fit is one point" not in err  # asked for: the report's own note says it
    assert "MAP, a point estimate: no sd or interval" in captured.out
    assert "diagnostics: --method map gives one point: no divergences, R-hat or ESS" \
        in captured.out
    # one point has no spread: empty cells, not widths of 0 that read as certainty
    for name, spread in (("difficulty", ["sd", "hdi_lower", "hdi_upper", "p_bin"]),
                         ("abilities", ["sd", "hdi_lower", "hdi_upper"]),
                         ("curves", ["accuracy_lower", "predicted_upper"])):
        table = pd.read_csv(files / "m" / f"{name}.csv")
        assert table[spread].isna().all().all() and table["mean" if name != "curves"
                                                          else "predicted"].notna().all()


def test_keywords_in_messages_become_flags():
    from irteval.cli.options import as_flags

    assert (as_flags("log_likelihood=True with method='map'; bounds=(0, 1), draws=50")
            == "--log-likelihood with --method map; --bounds 0,1, --draws 50")


def test_the_2pl_without_a_laplace_approximation_says_which_methods_instead(files, capsys):
    # fit() refuses it before any work
    assert main(["difficulty", str(files / "long.csv"), "--out", str(files / "l"), "--model",
                 "2pl", "--method", "laplace"]) == 2
    err = capsys.readouterr().err.strip()  # (was Python's keywords: batch_size=, sigma_b)
    assert err.endswith("a Laplace approximation of the 2PL is not available yet (its per-item "
                        "Gaussians under-cover: 73% in a 90% interval); use --method map (its "
                        "EM mode, one point), --method advi or --method nuts (the default)")
    assert main(["difficulty", str(files / "long.csv"), "--out", str(files / "l"), "--model",
                 "3pl", "--method", "map"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("MAP/Laplace are not available for the 3PL/4PL (the EM mode is the "
                        "2PL's); use --method nuts (the default) or --method advi")


def test_files_that_are_not_plain_csv_are_named(files, capsys):
    """Compressed files crashed in the line count ('utf-8' codec can't decode, no file named);
    a workbook or a netCDF read as 'not UTF-8'; Excel's sep= line became the header."""
    import gzip
    import zipfile

    text = (files / "long.csv").read_bytes()
    (files / "long.csv.gz").write_bytes(gzip.compress(text))
    with zipfile.ZipFile(files / "book.xlsx", "w") as book:
        book.writestr("xl/workbook.xml", "<workbook/>")
    (files / "sep.csv").write_bytes(b"sep=,\n" + text)
    expected = {"long.csv.gz": " is not a text CSV: it looks like a gzip-compressed file; "
                               f"decompress it first (gunzip -k {files / 'long.csv.gz'})",
                "book.xlsx": " is not a text CSV: it looks like a zip archive (an Excel .xlsx "
                             "workbook?); save the sheet as CSV",
                "sep.csv": ", line 1: 'sep=,' is Excel's separator hint, not a header"}
    for name, message in expected.items():
        assert f"{files / name}{message}" in error(capsys, ["difficulty", str(files / name)])


def test_lines_with_a_field_more_than_the_header_are_refused(files, capsys):
    """A comma ending every data line (or an unquoted 0,5 on the first) made pandas read the
    first column as the index: every column shifted, and the message spoke of the wrong one."""
    lines = (files / "long.csv").read_text().splitlines()
    (files / "trailing.csv").write_text("\n".join([lines[0]] + [f"{x}," for x in lines[1:]]))
    err = error(capsys, ["difficulty", str(files / "trailing.csv")])
    assert f"{files / 'trailing.csv'}, line 2: 4 fields where the header names 3" in err


def test_labels_with_spaces_are_kept_and_said(files, capsys):
    """' i0' after 'm0, ' was a label of its own, silently (score-new's 'i0' then unknown)."""
    lines = (files / "long.csv").read_text().splitlines()
    (files / "spaced.csv").write_text("\n".join([lines[0]] + [x.replace(",", ", ")
                                                              for x in lines[1:]]))
    with mock.patch("irteval.inference.fit", side_effect=AssertionError("fitted")):
        assert main(["difficulty", str(files / "spaced.csv"), "--value", "nope"]) == 2
    err = capsys.readouterr().err
    assert (f"{files / 'spaced.csv'}: 'instance' has labels that begin or end with spaces on lines "
            "[2, 3, 4, 5, 6] (e.g. ' ") in err and "kept as written" in err


def test_wide_files_without_labels_or_for_leaderboard_are_explained(files, capsys):
    """A wide score table (a row per model, a column per round) got "column 'round' is not in
    the data frame"; a matrix saved with index=False got "duplicate row labels ['1']"."""
    pd.DataFrame({"model": list("abc"), "r1": [0.9, 0.8, 0.7], "r2": [0.6, 0.7, 0.5]}).to_csv(
        files / "wide_scores.csv", index=False)
    err = error(capsys, ["leaderboard", str(files / "wide_scores.csv")])
    assert "looks wide (a row per player, a column per round: ['r1', 'r2'])" in err
    assert ".melt(id_vars='model', var_name='round', value_name='score')" in err
    pd.DataFrame({"a": [1, 0, 1], "b": [0, 1, 1]}).to_csv(files / "bare.csv", index=False)
    err = error(capsys, ["difficulty", str(files / "bare.csv")])
    assert f"{files / 'bare.csv'}: its first column 'a' holds 0/1 answers, not labels" in err
    # performances: the first algorithm's accuracies were taken as the datasets' labels
    pd.DataFrame({"svm": [0.84, np.nan, 0.7], "knn": [0.7, 0.6, 0.5]}).to_csv(
        files / "bare_perf.csv", index=False)
    err = error(capsys, ["portfolio", str(files / "bare_perf.csv"), "--cuts", "2"])
    assert (f"{files / 'bare_perf.csv'}: its first column 'svm' holds numbers with decimals "
            "(e.g. 0.84), not labels") in err and "say so with --respondent svm" in err


def test_clip_is_checked_as_the_command_line_reads_it(capsys):
    with pytest.raises(SystemExit):  # argparse's exit 2, before any file is read
        main(["portfolio", "no-such-file.csv", "--clip", "0.7"])
    assert "argument --clip: must lie between 0 and 0.5, got 0.7" in capsys.readouterr().err


def test_a_wide_file_of_one_column_is_explained(files, capsys):
    (files / "one.csv").write_text("m0\n1\n0\n1\n")
    err = error(capsys, ["difficulty", str(files / "one.csv")])
    assert "one.csv: one column ('m0'), and a wide file needs its row labels first and then a " \
           "column per model" in err  # it said "the data frame is empty"


def test_the_not_plain_csv_checks_raise_no_false_alarms(files, capsys):
    """Review: a header starting "CDF" or "BZh" read as netCDF or bzip2; an unreadable file
    crashed (the check opened it outside the OSError handling); a long score file with other
    column names read as wide; a float matrix saved without labels got the old message."""
    (files / "cdf.csv").write_text("CDF_x,model,correct\n1,a,1\n")
    assert "not a text CSV" not in error(capsys, ["difficulty", str(files / "cdf.csv")])
    (files / "bzh.csv").write_text("BZh,model,correct\n1,a,1\n")
    assert "not a text CSV" not in error(capsys, ["difficulty", str(files / "bzh.csv")])
    real_open = open

    def refuse(path, *args, **kwargs):
        if str(path).endswith("long.csv"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    with mock.patch("builtins.open", refuse):
        err = error(capsys, ["difficulty", str(files / "long.csv")])
    assert f"cannot read {files / 'long.csv'}: Permission denied" in err
    pd.DataFrame({"model_id": [1, 1, 2, 2], "task": [1, 2, 1, 2],
                  "acc": [0.9, 0.8, 0.7, 0.6]}).to_csv(files / "ids.csv", index=False)
    err = error(capsys, ["leaderboard", str(files / "ids.csv")])
    assert "looks wide" not in err and "no column 'model': the columns are" in err
    pd.DataFrame({"a": [1.0, 0, 1, 0], "b": [0, 1, 1, np.nan]}).to_csv(files / "f.csv",
                                                                       index=False)
    assert "its first column 'a' holds 0/1 answers" in error(
        capsys, ["difficulty", str(files / "f.csv")])


def test_swapped_roles_in_a_long_file_are_refused(files, capsys):
    """--respondent algorithm --item dataset fitted 6 'datasets' and 60 'algorithms'."""
    long = pd.DataFrame({"dataset": np.repeat(["d1", "d2", "d3"], 2),
                         "algorithm": ["svm", "knn"] * 3, "value": [0.9, 0.8, 0.7, 0.6, 0.8, 0.5]})
    long.to_csv(files / "perf_long.csv", index=False)
    err = error(capsys, ["portfolio", str(files / "perf_long.csv"), "--respondent",
                         "algorithm", "--item", "dataset", "--value", "value"])
    assert err.endswith("--respondent names column 'algorithm' and --item column 'dataset', "
                        "but here each dataset answers and each algorithm is asked; swap them "
                        "(--respondent dataset --item algorithm)")


def test_a_label_flag_naming_no_column_of_a_wide_file_is_refused(files, capsys):
    """--respondent name on a wide file labelled by 'dataset' ran a whole fit and wrote
    spectrum.csv with 'dataset' renamed 'name'."""
    pd.DataFrame({"dataset": ["d1", "d2", "d3"], "svm": [0.9, 0.7, 0.8],
                  "knn": [0.8, 0.6, 0.5]}).to_csv(files / "perf.csv", index=False)
    err = error(capsys, ["portfolio", str(files / "perf.csv"), "--respondent", "name"])
    assert err.endswith("perf.csv: no column 'name' (--respondent); its rows are labelled by its "
                        "first column, 'dataset': leave --respondent out, or pass --respondent "
                        "dataset")
    wide = pd.DataFrame({"question": ["q1", "q2"], "m1": [1, 0], "m2": [0, 1]})
    wide.to_csv(files / "wide.csv", index=False)
    err = error(capsys, ["difficulty", str(files / "wide.csv"), "--item", "instance"])
    assert "no column 'instance' (--item); its rows are labelled by its first column" in err


def test_few_instances_for_the_bins_suggest_the_other_rows(tmp_path, capsys):
    """A wide file of 40 questions x 6 models read with --rows respondent put 6 'instances'
    into 5 bins, silently."""
    rng = np.random.default_rng(0)
    wide = pd.DataFrame(rng.integers(0, 2, (40, 6)), index=[f"q{k}" for k in range(40)],
                        columns=[f"m{k}" for k in range(6)]).rename_axis("question")
    wide.to_csv(tmp_path / "wide.csv")
    with mock.patch("irteval.inference.fit", side_effect=ValueError("no fit here")):
        assert main(["difficulty", str(tmp_path / "wide.csv"), "--rows", "respondent",
                     "--out", str(tmp_path / "out")]) == 2
    assert ("6 instances, fewer than the 40 questions, in 5 difficulty bins: about one a bin; "
            "if the file is wide with a row per item, pass --rows item; else --bins 3"
            ) in capsys.readouterr().err


def test_rows_on_a_long_file_is_said_to_do_nothing(files, capsys):
    assert main(["difficulty", str(files / "long.csv"), "--rows", "respondent", "--method",
                 "map", "--bins", "2", "--out", str(files / "out")]) == 0
    assert "long.csv: --rows respondent applies to a matrix; this long file is read by its " \
           "columns 'model' (--respondent) and 'instance' (--item): leave --rows out" in \
           capsys.readouterr().err  # ran as if --rows were not given, in silence


def test_a_score_named_seconds_asks_for_lower_is_better(files, capsys):
    pd.read_csv(files / "scores.csv").rename(columns={"auc": "seconds"}).to_csv(
        files / "times.csv", index=False)
    assert main(["leaderboard", str(files / "times.csv"), "--player", "model", "--round",
                 "split", "--score", "seconds", "--draws", "100", "--tune", "100",
                 "--out", str(files / "times")]) == 0
    err = capsys.readouterr().err
    assert "score 'seconds' reads as lower-is-better ('seconds'), and higher is better by " \
           "default: the highest seconds ranks first; pass --lower-is-better if lower is " \
           "better" in err
    assert main(["leaderboard", str(files / "times.csv"), "--player", "model", "--round",
                 "split", "--score", "seconds", "--lower-is-better", "--draws", "100",
                 "--tune", "100", "--out", str(files / "times2")]) == 0
    assert "reads as lower-is-better" not in capsys.readouterr().err


def test_a_format_that_contradicts_the_file_says_to_drop_it(files, capsys):
    """--format long on a matrix blamed --respondent; --format wide on a long file said only
    "duplicate row labels"."""
    pd.read_csv(files / "long.csv").pivot(index="instance", columns="model",
                                          values="correct").to_csv(files / "wide.csv")
    err = error(capsys, ["difficulty", str(files / "wide.csv"), "--format", "long"])
    assert "--format long reads the answers from a column 'correct' (--value), which it " \
           "lacks" in err and err.endswith("if it is a matrix, drop --format long, else name " \
                                          "that column with --value")
    err = error(capsys, ["difficulty", str(files / "long.csv"), "--format", "wide"])
    assert "duplicate row labels" in err and "if long.csv is a long table (a row per answer), " \
           "drop --format wide (its columns: " in err  # ('correct' is there: no --value)


def test_ci_prob_sets_every_interval_of_a_command(files, capsys):
    """Every table and printout had 94% intervals, with no flag to ask for others."""
    widths = {}
    for prob in ("0.5", None):
        out = files / f"ci{prob}"
        assert main(["difficulty", str(files / "long.csv"), "--method", "advi", "--bins", "2",
                     "--out", str(out)] + (["--ci-prob", prob] if prob else [])) == 0
        assert f"b; {'50' if prob else '94'}% HDI)" in capsys.readouterr().out
        widths[prob] = [(t["hdi_upper"] - t["hdi_lower"]).mean() for t in (
            pd.read_csv(out / f"{name}.csv") for name in ("difficulty", "abilities"))]
    assert all(half < whole / 2 for half, whole in zip(widths["0.5"], widths[None]))
    pd.DataFrame({"instance": ["i0", "i1", "i2"], "correct": [1, 0, 1]}).to_csv(
        files / "answers.csv", index=False)
    assert main(["score-new", str(files / "ci0.5" / "posterior.nc"), str(files / "answers.csv"),
                 "--ci-prob", "0.975", "--out", str(files / "new")]) == 0
    assert "posterior mean, sd and 97.5% HDI" in capsys.readouterr().out  # (was "98%")
    # one point has no interval to set: said, as the other settings MAP ignores
    assert main(["difficulty", str(files / "long.csv"), "--method", "map", "--ci-prob", "0.5",
                 "--bins", "2", "--out", str(files / "map")]) == 0
    assert "--ci-prob applies to --method nuts" in capsys.readouterr().err
    curves = ie.load_results(files / "map")["curves"]  # empty bounds read back: one point
    ax = ie.plot_characteristic_curves(curves)
    assert "one point: no band" in " ".join(t.get_text() for t in ax.get_legend().get_texts())
    with pytest.raises(SystemExit):  # argparse's own refusal
        main(["difficulty", str(files / "long.csv"), "--ci-prob", "94"])
    assert "--ci-prob: must lie between 0 and 1, got 94" in capsys.readouterr().err

