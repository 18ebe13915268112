import contextlib
import io
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import arviz as az
import numpy as np
import pandas as pd
import pytest

import irteval as ie
from irteval.cli import commands, main, outputs
from irteval.cli import options

from .conftest import simulate

FAST = ["--draws", "100", "--tune", "200", "--chains", "2", "--bins", "3"]


def written(out):
    return sorted(p.name for p in out.iterdir())


@pytest.fixture(scope="module")
def difficulty_run(tmp_path_factory):
    """``irteval difficulty`` on a long CSV of 40 instances x 6 models: (csv, out, stdout)."""
    folder = tmp_path_factory.mktemp("difficulty")
    resp, _ = simulate(40, 6, seed=3)
    path = folder / "responses.csv"
    resp.to_long().rename(columns={"value": "correct"}).to_csv(path, index=False)
    out = folder / "out"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["difficulty", str(path), "--out", str(out), *FAST]) == 0
    return path, out, printed.getvalue()


def test_score_new_command(difficulty_run, tmp_path, capsys):
    _, out, _ = difficulty_run
    answers = pd.DataFrame({"instance": [f"i{k}" for k in range(0, 40, 4)],
                            "correct": [1, 1, 0, 1, 0, 1, 1, 0, 1, 1]})
    answers.to_csv(tmp_path / "answers.csv", index=False)
    assert main(["score-new", str(out / "posterior.nc"), str(tmp_path / "answers.csv"),
                 "--out", str(tmp_path / "new")]) == 0
    captured = capsys.readouterr()
    printed = captured.out
    fit = az.from_netcdf(out / "posterior.nc").attrs  # (a short fit: R-hat may fail)
    assert ("its fit failed the NUTS diagnostics" in captured.err) == (
        fit["max_rhat"] > 1.01 or fit["divergences"] > 0
        or min(fit["min_ess_bulk"], fit["min_ess_tail"])
        < 100 * az.from_netcdf(out / "posterior.nc").posterior.sizes["chain"])
    assert "10 answers of 40 instances" in printed
    p = float(re.search(r"person fit p = ([0-9.]+)", printed).group(1))  # a verdict by p, not
    assert ("misfit the IRT" in printed) == (p < 0.01)  # "(small: ... misfit)" at any p;
    assert "below 0.01" in printed  # the threshold at which score_new_model warns
    assert "posterior mean, sd and 94% HDI" in printed
    table = pd.read_csv(tmp_path / "new" / "score.csv", index_col=0)
    assert list(table.index) == ["ability", "accuracy"] and table.loc["accuracy", "naive"] == 0.7
    assert table.index.name == "quantity" and (table["n_answered"] == 10).all()
    assert {"n_items", "person_fit_p"} <= set(table)
    # the answers' label column is named as the fit named its instances (difficulty's --item)
    idata = az.from_netcdf(out / "posterior.nc")
    idata.attrs["item_name"] = "question"
    idata.to_netcdf(tmp_path / "question.nc")
    answers.rename(columns={"instance": "question"}).to_csv(tmp_path / "q.csv", index=False)
    assert main(["score-new", str(tmp_path / "question.nc"), str(tmp_path / "q.csv"),
                 "--out", str(tmp_path / "q")]) == 0
    assert "10 answers of 40 questions" in capsys.readouterr().out
    for line, (column, value), message in (
            (3, ("instance", ""), "an empty 'instance' (--item) on line 3"),
            (4, ("instance", "i0"),
             "1 instance more than once in 'instance' (--item), e.g. ['i0'], on lines 2, 4"),
            (5, ("correct", "yes"), "answers other than 0/1 in 'correct' (--value), e.g. "
             "['yes'], where 1, 0, True, False are taken, on line 5")):
        bad = answers.astype(object)
        bad.loc[line - 2, column] = value
        bad.to_csv(tmp_path / "bad.csv", index=False)
        assert main(["score-new", str(out / "posterior.nc"), str(tmp_path / "bad.csv"),
                     "--out", str(tmp_path / "bad"), "--overwrite"]) == 2
        assert message in capsys.readouterr().err
    missing = answers.astype(object)
    missing.loc[1, "correct"] = ""
    missing.to_csv(tmp_path / "missing.csv", index=False)
    assert main(["score-new", str(out / "posterior.nc"), str(tmp_path / "missing.csv"),
                 "--out", str(tmp_path / "missing")]) == 0
    assert "1 empty answer(s) left out, on line 3" in capsys.readouterr().err
    answers.set_index("instance").T.to_csv(tmp_path / "row.csv", index=False)  # one row
    assert main(["score-new", str(out / "posterior.nc"), str(tmp_path / "row.csv"),
                 "--out", str(tmp_path / "row")]) == 2
    assert "not a row of answers: transpose it" in capsys.readouterr().err
    twice = pd.concat([answers.iloc[:3], answers.iloc[:3]])  # each its own lines, not one's
    twice.to_csv(tmp_path / "twice.csv", index=False)
    assert main(["score-new", str(out / "posterior.nc"), str(tmp_path / "twice.csv"),
                 "--out", str(tmp_path / "twice")]) == 2
    err = capsys.readouterr().err
    assert ("3 instances more than once in 'instance' (--item), e.g. ['i0', 'i4', 'i8'], on "
            "lines 2, 3, 4, 5, 6 ...") in err and "score-new scores one model" not in err
    twice.assign(when=range(6)).to_csv(tmp_path / "twice.csv", index=False)  # a time per row
    assert main(["score-new", str(out / "posterior.nc"), str(tmp_path / "twice.csv"),
                 "--out", str(tmp_path / "twice")]) == 2
    assert "score-new scores one model" not in capsys.readouterr().err
    twice.assign(model=["a"] * 3 + ["b"] * 3).to_csv(tmp_path / "twice.csv", index=False)
    assert main(["score-new", str(out / "posterior.nc"), str(tmp_path / "twice.csv"),
                 "--out", str(tmp_path / "twice")]) == 2  # two models' answers
    assert ("the file holds the answers of 2 'model' values, and score-new scores one model: "
            "keep the rows of one (e.g. 'a')") in capsys.readouterr().err
    answers.assign(correct="").to_csv(tmp_path / "unfilled.csv", index=False)
    assert main(["score-new", str(out / "posterior.nc"), str(tmp_path / "unfilled.csv"),
                 "--out", str(tmp_path / "unfilled")]) == 2
    err = capsys.readouterr().err  # was a warning of 10 left out, then "answers holds no..."
    assert "unfilled.csv: every 'correct' cell (--value) is empty: fill in" in err
    assert "left out" not in err
    answers.loc[3, "instance"] = "nope"
    answers.loc[4, "instance"] = "I16 "
    answers.to_csv(tmp_path / "answers.csv", index=False)
    assert main(["score-new", str(out / "posterior.nc"), str(tmp_path / "answers.csv"),
                 "--out", str(tmp_path / "new"), "--overwrite"]) == 2
    err = capsys.readouterr().err
    assert ("answers.csv: 2 instance(s) in 'instance' (--item) are not in the fit, e.g. ['nope', "
            "'I16 '] on lines 5, 6; the fit has 40") in err
    assert "'I16 ' differs from 'i16' only in case or spaces" in err
    unconverged = az.from_netcdf(out / "posterior.nc")
    unconverged.attrs["max_rhat"] = 1.05
    unconverged.to_netcdf(tmp_path / "unconverged.nc")
    assert main(["score-new", str(tmp_path / "unconverged.nc"), str(tmp_path / "answers.csv"),
                 "--out", str(tmp_path / "new"), "--overwrite"]) == 2
    err = capsys.readouterr().err  # the answers' error alone: no warning about the fit first
    assert "are not in the fit" in err and "NUTS diagnostics" not in err
    assert main(["score-new", str(tmp_path / "answers.csv"), str(tmp_path / "answers.csv"),
                 "--out", str(tmp_path / "new"), "--overwrite"]) == 2  # the CSV as posterior
    assert "answers.csv: not a netCDF file" in capsys.readouterr().err
    other = az.from_netcdf(out / "posterior.nc")
    other.attrs["irteval_family"] = "bradley_terry"
    other.to_netcdf(tmp_path / "leaderboard.nc")
    assert main(["score-new", str(tmp_path / "leaderboard.nc"), str(tmp_path / "answers.csv"),
                 "--out", str(tmp_path / "new"), "--overwrite"]) == 2
    err = capsys.readouterr().err  # was named after the answers, with Python's names
    assert "leaderboard.nc: the posterior of irteval leaderboard; give the posterior.nc" in err
    other.attrs.update(irteval_family="binary_irt", irteval_method="map")
    other.to_netcdf(tmp_path / "map.nc")
    assert main(["score-new", str(tmp_path / "map.nc"), str(tmp_path / "answers.csv"),
                 "--out", str(tmp_path / "new"), "--overwrite"]) == 2
    err = capsys.readouterr().err  # was named after the answers
    assert "map.nc: a MAP fit" in err and "without --method map" in err
    assert main(["score-new", str(out), str(tmp_path / "answers.csv"),
                 "--out", str(tmp_path / "new"), "--overwrite"]) == 2
    assert "is a folder; give the posterior.nc in it" in capsys.readouterr().err


def test_select_items_then_score_new_in_one_folder(difficulty_run, tmp_path, capsys):
    """select-items writes the instances with an empty 'correct' column; filled in, score-new
    reads it as is (the fit's label column), in the same folder without an 'earlier run'
    warning about its own input, and reports the coverage; a missing column names the fix."""
    _, out, _ = difficulty_run
    folder = tmp_path / "new"
    assert main(["select-items", str(out / "posterior.nc"), "-n", "8", "--out", str(folder)]) == 0
    printed = capsys.readouterr().out
    assert "chose 8 of 40 instances (stratified)" in printed and "irteval score-new" in printed
    items = pd.read_csv(folder / "items.csv", dtype={"instance": str})
    assert list(items.columns) == ["instance", "correct"] and items["correct"].isna().all()
    items["correct"] = [1, 1, 1, 1, 0, 1, 0, 0]
    items.to_csv(folder / "items.csv", index=False)
    assert main(["score-new", str(out / "posterior.nc"), str(folder / "items.csv"),
                 "--out", str(folder)]) == 0
    captured = capsys.readouterr()
    assert "8 answers of 40 instances" in captured.out and "also holds" not in captured.err
    assert re.search(r"answered instances span the difficulties of \d+% of all 40 ", captured.out)
    assert 0.5 < pd.read_csv(folder / "score.csv", index_col=0)["coverage"].iloc[0] <= 1
    items.rename(columns={"instance": "item", "correct": "gpt-4o"}).to_csv(
        tmp_path / "renamed.csv", index=False)
    for flags, fix in (([], "no column 'instance' (--item); its columns are ['item', 'gpt-4o']"),
                       (["--item", "item"], "no column 'correct' (--value); its columns are "
                                            "['item', 'gpt-4o']; pass --value gpt-4o")):
        assert main(["score-new", str(out / "posterior.nc"), str(tmp_path / "renamed.csv"),
                     "--out", str(tmp_path / "renamed"), *flags]) == 2
        assert fix in capsys.readouterr().err
    assert main(["select-items", str(out / "posterior.nc"), "-n", "41", "--out",
                 str(tmp_path / "many")]) == 2  # was "n must be between ...", Python's keyword
    assert "-n 41: the fit has 40 instances; give at most 40" in capsys.readouterr().err
    point = az.from_netcdf(out / "posterior.nc")  # a MAP fit orders the instances too
    point.attrs["irteval_method"] = "map"
    point.to_netcdf(tmp_path / "map.nc")
    assert main(["select-items", str(tmp_path / "map.nc"), "-n", "4", "--out",
                 str(tmp_path / "from_map")]) == 0
    assert "is a MAP fit (one point): score-new needs posterior draws; rerun irteval " \
           "difficulty without --method map" in capsys.readouterr().out  # before the model runs


def test_examples_command_writes_every_layout_and_says_what_each_holds(tmp_path, capsys):
    """``irteval examples`` writes the EXAMPLES files (the README's commands read them), a
    line per file on what it holds, and refuses to replace them without --overwrite."""
    from irteval.datasets import EXAMPLES

    out = tmp_path / "ex"
    assert main(["examples", "--out", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert sorted(p.name for p in out.iterdir()) == sorted(EXAMPLES)
    assert printed == [f"{out / name}: {EXAMPLES[name]}" for name in EXAMPLES]
    assert pd.read_csv(out / "results.csv").columns.tolist() == ["model", "instance", "correct"]
    assert main(["examples", "--out", str(out)]) == 2
    assert "results.csv already exists (and 10 more of its outputs); pass --overwrite" in \
        capsys.readouterr().err
    assert main(["examples", "--out", str(out), "--overwrite"]) == 0


def test_score_new_warnings_name_the_command():
    """The advice of warnings in Python's names (score_new_model's, select_items', the
    difficulty's and the portfolio's) is the command's in the CLI (every warning and error
    goes through as_flags)."""
    from irteval.cli.options import as_flags
    from irteval.irt.new_model import ASK_ACROSS, ASK_SAMPLE

    assert as_flags(f"narrow ({ASK_ACROSS}); sample ({ASK_SAMPLE})") == (
        "narrow (irteval select-items with its default --strategy stratified); sample (irteval "
        "select-items with its default --strategy stratified)")
    # and the advice of the difficulty's and the portfolio's warnings
    from irteval.models.continuous_irt import MODES_FIX
    from irteval.models.onepl import EXTREMES_FIX

    assert as_flags(EXTREMES_FIX).endswith("leave them out of the data if they should not count")
    assert as_flags(MODES_FIX).startswith("rerun with another --seed; posterior.nc keeps every")
    from irteval.models.onepl import CENTRED_FIX, UNCENTRED_FIX

    assert as_flags(f"x: {CENTRED_FIX} and compare") == "x: rerun with --centred and compare"
    assert as_flags(f"x: {UNCENTRED_FIX}") == "x: rerun without --centred"
    from irteval.data.responses import PARTIAL_CREDIT

    assert "with irteval portfolio --bounds 0,1" in as_flags(PARTIAL_CREDIT)
    from irteval.inference.fit import ADD_LATER  # the log-likelihood: no model in a shell

    assert as_flags(f"fit with log_likelihood=True for az.loo{ADD_LATER}") == (
        "fit with --log-likelihood for az.loo (or, in Python, irteval.add_log_likelihood("
        "posterior, model) with the model built again from the same data)")


def test_difficulty_command_on_a_long_csv(difficulty_run):
    _, out, printed = difficulty_run
    assert "hardest instances" in printed and "per bin" in printed
    assert "diagnostics: divergences" in printed
    table = pd.read_csv(out / "difficulty.csv", index_col=0)
    assert len(table) == 40 and {"mean", "sd", "hdi_lower", "hdi_upper"} <= set(table)
    skills = pd.read_csv(out / "abilities.csv", index_col=0)  # which model is strongest
    assert skills.index.name == "model" and len(skills) == 6 and "strongest models" in printed
    assert skills["mean"].is_monotonic_decreasing and {"hdi_lower", "accuracy"} <= set(skills)
    assert az.from_netcdf(out / "posterior.nc").posterior.sizes["item"] == 40
    assert (out / "characteristic_curves.png").stat().st_size > 1000
    assert written(out) == sorted(outputs.files("difficulty"))
    moments = ie.difficulty_moments(az.from_netcdf(out / "posterior.nc"))  # was ddof=0
    assert (f"sd over instances {moments.loc['sd', 'posterior_mean']:.3f} (averaged over draws"
            in printed)


def test_difficulty_command_fits_the_4pl_with_a_floor_prior(tmp_path, capsys):
    """--model 3pl/4pl with --options N: the floor's prior centred on 1/N; the table gains each
    instance's floor c and ceiling d with intervals, and score-new reads the posterior."""
    from irteval.calibration import simulate_multiple_choice

    resp, _ = simulate_multiple_choice(30, 20, np.random.default_rng(0), slip=True)
    path = tmp_path / "mc.csv"
    resp.to_long().rename(columns={"value": "correct"}).to_csv(path, index=False)
    assert main(["difficulty", str(path), "--respondent", "respondent", "--item", "question",
                 "--model", "4pl", "--options", "5", "--out", str(tmp_path / "out"),
                 *FAST]) == 0
    post = az.from_netcdf(tmp_path / "out" / "posterior.nc")
    assert post.attrs["irteval_model"] == "4pl" and post.attrs["n_options"] == 5
    assert post.attrs["guessing"] == 1 and post.attrs["slip"] == 1
    table = pd.read_csv(tmp_path / "out" / "difficulty.csv", index_col=0)
    assert {"c", "c_lower", "d", "d_upper"} <= set(table) and len(table) == 30
    assert "c_lower" in capsys.readouterr().out  # the hardest instances' floors, printed
    answers = pd.DataFrame({"question": ["q0", "q3", "q7"], "correct": [1, 0, 1]})
    answers.to_csv(tmp_path / "answers.csv", index=False)
    assert main(["score-new", str(tmp_path / "out" / "posterior.nc"),
                 str(tmp_path / "answers.csv"), "--out", str(tmp_path / "new")]) == 0
    assert "3 answers of 30 questions" in capsys.readouterr().out


def test_load_results_reads_an_output_folder_back(difficulty_run, tmp_path):
    _, out, _ = difficulty_run
    with pytest.raises(TypeError, match="load_results\\(\\) takes a folder's path"):
        ie.load_results(3)  # was pathlib's TypeError
    res = ie.load_results(out)
    ax = ie.plot_characteristic_curves(res["curves"])  # a table read back has no attrs
    assert "interval bars" in ax.get_legend().get_texts()[-1].get_text()
    assert set(res["difficulty"].index) == set(res.posterior.posterior["item"].values)
    assert sorted(res.tables) == ["abilities", "curves", "difficulty"] and res.scc is None
    assert "difficulty" in res and "posterior" not in res  # was a KeyError
    table = res.tables["difficulty"]
    assert table.index.name == "instance" and len(table) == 40
    assert res.tables["curves"].index.names == ["model", "bin"]
    # the posterior gives the table again (its draws are float32: agreement to ~1e-6)
    again = ie.difficulty(res.posterior, n_bins=3)
    np.testing.assert_allclose(again["mean"], table["mean"].to_numpy(), rtol=1e-4, atol=1e-4)
    assert list(again.index) == list(table.index)
    assert res.posterior.attrs["irteval_model"] == "1pl" and "max_rhat" in res.posterior.attrs
    parent = ie.load_results(out.parent)  # the folder above holds it as a sub-folder
    assert list(parent.folders) == ["out"] and parent.tables == {}
    assert "Results(" in repr(parent) and "folders=['out']" in repr(parent)
    with pytest.raises(FileNotFoundError, match="no such folder"):
        ie.load_results(out / "missing")
    with pytest.raises(ValueError, match="holds no irteval output"):
        ie.load_results(tmp_path)
    shutil.copytree(out, tmp_path / "output" / "select-items")  # as a command's default folder
    assert ie.load_results(tmp_path / "output").select_items.tables.keys() == res.tables.keys()
    extra = tmp_path / "extra" / "run"
    shutil.copytree(out, extra)
    (extra / "mine.csv").write_text("a,b\n1,2\n")  # a user's own table: said, not dropped
    with pytest.warns(UserWarning, match=r"mine.csv \(1 CSV file\) not read: not tables an "):
        assert sorted(ie.load_results(extra).tables) == sorted(res.tables)
    (tmp_path / "runs" / "bad").mkdir(parents=True)  # a truncated table in a sub-folder:
    (tmp_path / "runs" / "bad" / "leaderboard.csv").write_text("")  # was skipped in silence
    with pytest.raises(ValueError, match=r"leaderboard.csv: cannot be read \(EmptyDataError"):
        ie.load_results(tmp_path / "runs")
    (tmp_path / "swapped").mkdir()  # a posterior in the curves' place
    shutil.copy(out / "posterior.nc", tmp_path / "swapped" / "scc.nc")
    with pytest.raises(ValueError, match="scc.nc: cannot be read .*no 'kappa' variable"):
        ie.load_results(tmp_path / "swapped")


def test_difficulty_command_on_a_wide_csv_with_bad_values(tmp_path, capsys):
    path = tmp_path / "wide.csv"
    pd.DataFrame({"instance": ["a", "b"], "m1": [1, 2], "m2": [0, 1]}).to_csv(path, index=False)
    assert main(["difficulty", str(path), "--out", str(tmp_path), *FAST]) == 2
    err = capsys.readouterr().err
    assert "must be 0/1" in err and "e.g. 2 (model 'm1', instance 'b')" in err


def test_help():
    help_text = subprocess.run([sys.executable, "-m", "irteval.cli", "--help"],
                               capture_output=True, text=True, check=True).stdout
    assert "irteval demo" in help_text and "difficulty.csv" in help_text
    assert "leaderboard.csv" in help_text and "--overwrite" in help_text
    board_help = " ".join(subprocess.run(
        [sys.executable, "-m", "irteval.cli", "leaderboard", "--help"], capture_output=True,
        text=True, check=True).stdout.split())  # argparse wraps its lines
    assert "(default: 'tie,draw,tie (bothbad),both_bad')" in board_help  # the tie markers
    assert "first player's column (default: model_a)" in board_help


def test_the_help_examples_run_in_order_without_colliding():
    """They all wrote to irteval-output/ (the second stopped: posterior.nc already exists), and
    select-items read an out/posterior.nc that none wrote."""
    text = commands.DESCRIPTION.split("examples (")[1].replace("\\\n", " ")
    lines = [line.split("#")[0].split()[1:] for line in text.splitlines()[1:] if line.strip()]
    outs, written = [], set()
    for words in lines:
        args = commands.parser().parse_args(words)
        if args.command == "demo":
            continue
        read = getattr(args, "posterior", None)  # select-items, score-new
        assert read is None or read.parent in written, words
        outs.append(args.out)
        written.add(args.out)
    assert len(outs) == len(set(outs)) == len(lines) - 1


def test_each_command_writes_to_its_own_folder_by_default():
    """All wrote to irteval-output/: a leaderboard after a difficulty run stopped (posterior.nc
    exists), and with --overwrite replaced the posterior that select-items reads."""
    parse = commands.parser().parse_args
    outs = {name: parse([name, *args]).out for name, args in (
        ("difficulty", ["r.csv"]), ("leaderboard", ["s.csv"]), ("portfolio", ["p.csv"]),
        ("robustness", ["--dataset", "optdigits"]), ("select-items", ["p.nc"]),
        ("score-new", ["p.nc", "a.csv"]))}
    assert outs == {name: Path("irteval-output") / name for name in outs}
    assert parse(["demo"]).out == Path("irteval-output")  # its parts in sub-folders


def test_existing_outputs_are_kept_without_overwrite(difficulty_run, tmp_path, capsys):
    path, out, _ = difficulty_run
    before = {f: (out / f).stat().st_mtime_ns for f in written(out)}
    assert main(["difficulty", str(path), "--out", str(out), *FAST]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"{out / 'difficulty.csv'} already exists (and 6 more of its outputs); pass " \
           "--overwrite to replace" in err
    assert {f: (out / f).stat().st_mtime_ns for f in written(out)} == before
    # a file where the folder should be
    assert main(["difficulty", str(path), "--out", str(path), *FAST]) == 2
    assert "is a file; give a folder" in capsys.readouterr().err
    # a folder that cannot be made: refused before the fit (it ran, then a traceback)
    if Path("/proc").is_dir():
        assert main(["difficulty", str(path), "--out", "/proc/irteval-out", *FAST]) == 2
        assert "--out /proc/irteval-out: cannot make or write to it" in capsys.readouterr().err
    args = commands.parser().parse_args(["difficulty", str(path), "--out",
                                         str(tmp_path / "new" / "deep")])
    commands.check_outputs(args)  # passes, and leaves no empty folder behind
    assert not (tmp_path / "new").exists()
    # the demo checks all its outputs before its first fit
    (tmp_path / "vtab_leaderboard").mkdir()
    (tmp_path / "vtab_leaderboard" / "leaderboard.csv").write_text("x\n")
    assert main(["demo", "--out", str(tmp_path)]) == 2
    assert "vtab_leaderboard/leaderboard.csv already exists; pass --overwrite" in \
        capsys.readouterr().err
    args = commands.parser().parse_args(["demo", "--out", str(tmp_path), "--overwrite"])
    commands.check_outputs(args)  # passes


def test_strict_stops_on_failed_diagnostics_before_writing(difficulty_run, tmp_path, capsys):
    path, out, _ = difficulty_run
    copy = shutil.copytree(out, tmp_path / "out")
    before = {f: (copy / f).stat().st_mtime_ns for f in written(copy)}
    # 2 x 30 draws cannot reach 100 effective draws per chain
    assert main(["difficulty", str(path), "--out", str(copy), "--overwrite", "--strict",
                 "--draws", "30", "--tune", "100", "--chains", "2"]) == options.EXIT_STRICT
    captured = capsys.readouterr()
    assert "diagnostics: divergences" in captured.out
    last = captured.err.strip().splitlines()[-1]
    assert last.startswith("irteval: error: --strict: NUTS diagnostics failed (1pl): ")
    assert "ESS" in last and "< 200" in last and last.endswith("were not written")
    assert "(--draws ...)" in last and "draws=" not in last  # the command line's words
    assert captured.err.count("NUTS diagnostics failed") == 1  # not as a warning, then again
    assert {f: (copy / f).stat().st_mtime_ns for f in written(copy)} == before
    # 3 draws: R-hat and ESS are NaN, which passed every check
    assert main(["difficulty", str(path), "--out", str(copy), "--overwrite", "--strict",
                 "--draws", "3", "--tune", "50", "--chains", "2",
                 "--target-accept", "0.95"]) == options.EXIT_STRICT
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert "R-hat or ESS is undefined for" in last and "3 per chain" in last
    assert {f: (copy / f).stat().st_mtime_ns for f in written(copy)} == before


@pytest.mark.parametrize("content, message", [
    (None, "no such file: "),
    (b"", "is empty: a CSV needs a header line"),
    (b"model,instance,correct\na,1,1\nb,1,0,7\n", r", line 3: not a well-formed CSV "
     r"\(Expected 3 fields in line 3, saw 4\)"),
    ("model,instance,correct\na,1,1\nb,é,0\n".encode("latin-1"),
     r", line 3: not UTF-8 text \(invalid continuation byte\); save the file as UTF-8"),
    (b"\x89PNG\r\n\x1a\n" + bytes(range(256)), r"line 1: not UTF-8 text \(invalid start byte"),
    (b"model,m,m\na,1,0\n", r"line 1: duplicate column names \['m'\]"),
    (b'model,instance,correct\na, 1, 1\nb, "1,2", 0\n', r"line 3: not a well-formed CSV .*a space "
                                                          r"after a comma before a quoted field"),
    (b'model,instance,correct\na, 1, 1\nb, "2", 0,7\n', r"line 3: .*saw 4\); every row needs as "
                                                         r"many comma-separated fields as the "
                                                         r"header$"),  # no comma in the quotes
    (b"instance,m1,,m3\ni1,1,0,1\n", r"line 1: column 3 has no name but holds values \(it "
                                       r"would be read as 'Unnamed: 2'\); name it"),
])
def test_unreadable_csvs_give_one_line_errors(tmp_path, capsys, content, message):
    path = tmp_path / "data.csv"
    if content is not None:
        path.write_bytes(content)
    assert main(["difficulty", str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("irteval: error: ") and err.count("\n") == 1
    assert re.search(message, err) and str(path) in err
    assert not (tmp_path / "out").exists()


def test_leaderboard_classical_epp_across_components(tmp_path, capsys):
    """Two models that always beat three others: mle_epp.csv listed the larger component's
    best first (EPPs of separate fits compared across components), and the classical fit
    read as one; now the top component comes first and the fit says it is within each."""
    rng = np.random.default_rng(0)
    wide = pd.DataFrame(rng.normal(size=(5, 12)), index=["a", "b", "c", "d", "e"])
    wide.loc[["a", "b"]] += 10  # a and b beat c, d and e in every round
    long = wide.rename_axis("model").reset_index().melt("model", var_name="round",
                                                        value_name="score")
    long.to_csv(tmp_path / "scores.csv", index=False)
    out = tmp_path / "board"
    assert main(["leaderboard", str(tmp_path / "scores.csv"), "--out", str(out), *FAST[:6]]) == 0
    printed = capsys.readouterr().out
    assert "classical EPP (maximum likelihood, within each of its 2 components)" in printed
    mle = pd.read_csv(out / "mle_epp.csv", index_col=0)
    assert set(mle.index[:2]) == {"a", "b"} and mle["component"].tolist() == [0, 0, 1, 1, 1]


def test_leaderboard_command(tmp_path, capsys):
    df = ie.datasets.load_vtab(as_frame=True)
    df["top1_accuracy"] = 100 - df["top1_accuracy"]  # an error rate: lower is better
    path = tmp_path / "errors.csv"
    df.to_csv(path, index=False)
    out = tmp_path / "board"
    assert main(["leaderboard", str(path), "--player", "model", "--round", "dataset",
                 "--score", "top1_accuracy", "--lower-is-better", "--out", str(out),
                 "--draws", "200", "--tune", "300", "--chains", "2"]) == 0
    printed = capsys.readouterr().out
    assert "leaderboard (EPP" in printed and "deviance" in printed
    board = pd.read_csv(out / "leaderboard.csv", index_col=0)
    assert board.index[0] == "Sup-Rotation-100%" and {"p_best", "elo"} <= set(board)
    assert len(pd.read_csv(out / "mle_epp.csv")) == 16
    assert (out / "calibration.png").stat().st_size > 1000
    assert written(out) == sorted(outputs.files("leaderboard"))
    tables = ie.load_results(out).tables
    assert tables["leaderboard"].index.name == "model"
    assert tables["win_probability"].shape == (16, 16)
    win = tables["win_probability"]  # best first, in the heat map's order
    assert list(win.index) == list(win.columns) and win.mean(axis=1).is_monotonic_decreasing
    assert set(win.index) == set(tables["leaderboard"].index)
    gof = tables["goodness_of_fit"]  # indexed by the pair's players, as goodness_of_fit's
    assert gof.index.names == ["player_i", "player_j"] and gof.index.is_unique
    assert set(gof.index.get_level_values(0)) <= set(tables["leaderboard"].index)


def test_leaderboard_command_names_a_failed_run(tmp_path, capsys):
    """A strong player last in one round (a failed run): the misfit line names it, its rank
    there and its ranks elsewhere; player_fit.csv has a row per player."""
    rng = np.random.default_rng(7)
    score = np.linspace(-5, 5, 16)[:, None] + rng.gumbel(size=(16, 20))
    score[15, 3] = score.min() - 1
    wide = pd.DataFrame(score, index=pd.Index([f"m{k}" for k in range(16)], name="model"),
                        columns=pd.Index([f"s{r}" for r in range(20)], name="split"))
    path = tmp_path / "auc.csv"
    wide.reset_index().melt(id_vars="model", value_name="auc").to_csv(path, index=False)
    out = tmp_path / "board"
    assert main(["leaderboard", str(path), "--round", "split", "--score", "auc", "--out",
                 str(out), "--draws", "500", "--chains", "2"]) == 0
    line = next(row for row in capsys.readouterr().out.splitlines()
                if row.startswith("players whose pairs misfit"))
    assert re.search(r"\d+ of 16 \(chance alone flags about 0.8\); most: m15 \(deviance \d+, "
                     r"replicated \d+; rank 16 of 16 in split s3, 1-\d+ in the others\)", line)
    assert line.endswith("if so, leave that score empty in the file and rerun (an empty score "
                         "is left out, not ranked)")  # what to do about it
    fit_table = ie.load_results(out).tables["player_fit"]
    assert fit_table.index.name == "model" and len(fit_table) == 16  # the data's name


def test_leaderboard_command_names_a_bad_column(tmp_path, capsys):
    path = tmp_path / "s.csv"
    pd.DataFrame({"model": ["a", "b"], "round": [1, 1], "auc": [0.5, 0.6]}).to_csv(path)
    assert main(["leaderboard", str(path), "--out", str(tmp_path)]) == 2
    assert "no column 'score': the columns are" in capsys.readouterr().err


def test_robustness_command_on_a_csv(tmp_path, capsys):
    X, y = ie.datasets.load_optdigits(return_X_y=True)
    data = X.iloc[:300].assign(digit=y.iloc[:300])
    data.to_csv(tmp_path / "digits.csv", index=False)
    wide = ie.datasets.load_responses("optdigits", as_frame=True).iloc[:300]
    wide.to_csv(tmp_path / "responses.csv")
    out = tmp_path / "rob"
    assert main(["robustness", "--csv", str(tmp_path / "digits.csv"), "--target", "digit",
                 "--responses", str(tmp_path / "responses.csv"), "--families",
                 "naive_bayes,knn,lda_svd", "--scc-draws", "5", "--groups", "2",  # knn: knn_3
                 "--out", str(out), "--draws", "100", "--tune", "200", "--chains", "2"]) == 0
    printed = capsys.readouterr().out
    for stage in ("difficulty: 1PL fit", "noisy predictions", "SCC over 5 posterior draws"):
        assert f"] {stage}" in printed  # each stage prints its time
    assert "noise 0.2 (64 integer columns redrawn as nominal ones: --integer-noise)" in printed
    scc = pd.read_csv(out / "digits" / "scc.csv")
    assert set(scc["model"]) == {"naive_bayes", "knn_3", "lda_svd"}
    assert (scc.loc[scc["proportion"] == 0, "kappa"] == 1).all()
    taxonomy = pd.read_csv(out / "taxonomy.csv", index_col=0)
    assert set(taxonomy["group"]) == {1, 2}  # 3 families: one alone, its NaN explained
    assert "NaN for a model alone in its group" in printed
    assert ("unsure places" in printed) == (taxonomy["p_same_group_as_members"] < 0.5).any()
    assert (out / "dendrogram.png").stat().st_size > 1000
    assert (out / "digits" / "scc.png").stat().st_size > 1000
    res = ie.load_results(out)
    assert set(res.tables["taxonomy"].index) == {"naive_bayes", "knn_3", "lda_svd"}
    assert list(res.folders) == ["digits"]
    assert res.folders["digits"].tables["scc"].index.names == ["model", "bin", "proportion"]
    assert res.folders["digits"].scc["kappa"].sizes["sample"] == 5
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()) == sorted(
        str(p.relative_to(out)) for p in commands.outputs(commands.parser().parse_args(
            ["robustness", "--csv", str(tmp_path / "digits.csv"), "--out", str(out)])))
    wide.iloc[1:].to_csv(tmp_path / "responses.csv")  # one row short: refused before any fit
    assert main(["robustness", "--csv", str(tmp_path / "digits.csv"), "--target", "digit",
                 "--responses", str(tmp_path / "responses.csv"), "--out",
                 str(tmp_path / "r2")]) == 2
    err = capsys.readouterr().err
    assert "responses.csv: its instances are not digits.csv's rows (without responses: [0]" in err
    shifted = wide.rename(index=lambda k: k + 5)  # rows 5 .. n + 4: five labels no row has
    shifted.to_csv(tmp_path / "shifted.csv")
    assert main(["robustness", "--csv", str(tmp_path / "digits.csv"), "--target", "digit",
                 "--responses", str(tmp_path / "shifted.csv"), "--out",
                 str(tmp_path / "r2")]) == 2
    err = capsys.readouterr().err  # was "mixes text and other labels ... .astype(str)"
    assert f"shifted.csv: 5 of its {len(wide)} instances are not rows of the data (e.g. " \
           f"['{len(wide)}', '{len(wide) + 1}'" in err and "without --id" in err
    assert not (tmp_path / "r2").exists()


def test_robustness_command_on_the_users_own_predictions(tmp_path, capsys):
    """--responses with --predictions CLEAN PERTURBED: the user's models, nothing trained;
    labels such as 'NA' and '007' kept, rows matched by label, columns by name."""
    rng = np.random.default_rng(0)
    labels = ["NA", "007", "a, b"] + [f"img_{k}" for k in range(57)]
    b = np.linspace(-2, 2, len(labels))
    skill = {"gnb": -0.5, "knn5": 0.0, "logreg": 0.5, "rf": 1.0}
    answers = pd.DataFrame({m: (rng.random(len(b)) < 1 / (1 + np.exp(b - t))).astype(int)
                            for m, t in skill.items()}, index=pd.Index(labels, name="image_id"))
    answers.to_csv(tmp_path / "answers.csv")
    truth = rng.choice(["cat", "dog", "bird"], len(labels))
    clean = pd.DataFrame({m: np.where(answers[m] == 1, truth, "dog") for m in skill},
                         index=answers.index)
    flip = rng.random(clean.shape) < np.linspace(0.05, 0.6, len(labels))[:, None]  # harder:
    perturbed = clean.mask(flip, "bird")  # flipped more often
    clean.to_csv(tmp_path / "clean.csv")
    perturbed.iloc[::-1, ::-1].to_csv(tmp_path / "perturbed.csv")  # another order
    out = tmp_path / "own"
    args = ["robustness", "--responses", str(tmp_path / "answers.csv"), "--predictions",
            str(tmp_path / "clean.csv"), str(tmp_path / "perturbed.csv"), "--scc-draws", "5",
            "--groups", "2", "--out", str(out), "--draws", "100", "--tune", "200",
            "--chains", "2"]
    assert main(args) == 0
    printed, err = capsys.readouterr()
    assert "noisy predictions" not in printed and "] SCC over 5 posterior draws" in printed
    res = ie.load_results(out)
    table = res.folders["answers"].tables["difficulty"]
    constant = table["accuracy"].isin([0, 1]).groupby(table["bin"]).mean()
    crowded = ", ".join(map(str, constant.index[constant > 0.5]))  # 4 models: 0 and 4
    assert crowded == "0, 4" and f"bins {crowded} are mostly instances that every model got " \
        "right or wrong" in err
    scc = res.folders["answers"].tables["scc"]
    assert set(scc.index.get_level_values("model")) == set(skill)
    assert (scc.xs(0.0, level="proportion")["kappa"] == 1).all()
    assert set(res.folders["answers"].tables["difficulty"].index) == set(labels)
    flips = res.folders["answers"].tables["predictions"]  # which instances the noise flips
    assert flips.index.names == ["image_id", "model"] and len(flips) == 60 * 4
    assert flips.loc[("NA", "rf"), "perturbed"] == perturbed.loc["NA", "rf"]
    assert flips["changed"].sum() == (clean != perturbed).to_numpy().sum()
    assert set(res.tables["taxonomy"].index) == set(skill)
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()) == sorted(
        str(p.relative_to(out)) for p in commands.outputs(commands.parser().parse_args(args)))
    perturbed.to_csv(tmp_path / "perturbed.csv")  # the clean file's order: the same SCCs
    assert main([*args[:10], "--out", str(tmp_path / "same"), *args[12:]]) == 0
    pd.testing.assert_frame_equal(ie.load_results(tmp_path / "same").folders["answers"].tables[
        "scc"], scc)
    perturbed.iloc[1:].to_csv(tmp_path / "short.csv")  # refused before the fit
    assert main([*args[:5], str(tmp_path / "short.csv"), "--out", str(tmp_path / "o2")]) == 2
    err = capsys.readouterr().err
    assert "1 of the fit's items missing: ['NA']" in err
    assert "give --responses and --predictions a row for each of the same instances" in err
    assert "subset(" not in err  # Python's advice
    perturbed.iloc[:, 1:].to_csv(tmp_path / "fewer.csv")  # a model short
    assert main([*args[:5], str(tmp_path / "fewer.csv"), "--out", str(tmp_path / "o2")]) == 2
    assert "give both --predictions files the same model columns" in capsys.readouterr().err
    perturbed.replace({"cat": 0, "dog": 1, "bird": 2}).to_csv(tmp_path / "codes.csv")
    assert main([*args[:5], str(tmp_path / "codes.csv"), "--out", str(tmp_path / "o2")]) == 2
    assert "its classes are written differently in the clean and the perturbed" in \
        capsys.readouterr().err
    assert main(["robustness", "--dataset", "optdigits", *args[3:6], "--out",
                 str(tmp_path / "o2")]) == 2
    assert "give it with --responses (the answers to fit the difficulty on) and without " \
           "--dataset" in capsys.readouterr().err
    assert main([*args[:6], "--n-jobs", "2", "--out", str(tmp_path / "o2")]) == 2
    assert "and without --n-jobs (nothing is trained)" in capsys.readouterr().err  # was unused
    answers.reset_index().melt(id_vars="image_id").to_csv(tmp_path / "long.csv", index=False)
    assert main(["robustness", "--responses", str(tmp_path / "long.csv"), *args[3:6], "--out",
                 str(tmp_path / "o2")]) == 2
    assert "(lines 2, 3, 4, 5, 6 ...); --responses takes a matrix" in capsys.readouterr().err
    assert not (tmp_path / "o2").exists()
    empty = answers.astype(float)
    empty.loc["007"] = np.nan
    empty.to_csv(tmp_path / "empty.csv")
    assert main(["robustness", "--responses", str(tmp_path / "empty.csv"), *args[3:6], "--out",
                 str(tmp_path / "o2")]) == 2  # not left out, then blamed on the labels
    assert "1 instances have no answer (line 3)" in capsys.readouterr().err


def test_own_predictions_read_as_a_user_wrote_them(tmp_path, capsys):
    """Predicted classes come as text: a column of numbers is numbers ("4.0" in one file and
    "4" in the other were two classes, every kappa 0), scores are refused as in Python (they
    were read as classes), R's NA among numbers is missing (it was a class), and pandas'
    row numbers in the first column are named as such (they were taken for the labels)."""
    from irteval.cli import robustness as cli_robustness
    from irteval.cli.robustness import as_classes

    text = pd.DataFrame({"svm": ["4.0", "1.0", "NA"], "knn": ["4", "1", "7"],
                         "nb": ["cat", "4", "NA"], "lr": ["0.99", "0.2", "1"],
                         "big": ["inf", "1", "2"]})
    other = text.assign(knn=["4", "other", "7"])  # a name in the perturbed file
    read, noisy = as_classes([text, other])
    assert read["svm"].isna().tolist() == [False, False, True] and read["svm"][0] == 4
    assert read["knn"].tolist() == ["4", "1", "7"]  # text in both: the other file has a name
    assert noisy["knn"].tolist() == ["4", "other", "7"]
    assert read["nb"].tolist() == ["cat", "4", "NA"]  # names: as written
    assert read["lr"].tolist() == [0.99, 0.2, 1.0]  # scores, for matched_predictions to refuse
    assert read["big"].tolist() == ["inf", "1", "2"]  # not a number to cast
    assert as_classes([text[["knn"]]])[0]["knn"].dtype == np.int64
    items = [f"img{k}" for k in range(30)]
    answers = pd.DataFrame({"a": np.arange(30) % 2, "b": np.arange(30) % 3 > 0},
                           index=pd.Index(items, name="image_id")).astype(int)
    answers.to_csv(tmp_path / "answers.csv")
    proba = pd.DataFrame({"a": np.linspace(0.01, 0.99, 30), "b": 0.5}, index=answers.index)
    proba.to_csv(tmp_path / "proba.csv")
    own = ["robustness", "--responses", str(tmp_path / "answers.csv"), "--predictions"]
    rest = ["--out", str(tmp_path / "out")]
    assert main([*own, str(tmp_path / "answers.csv"), str(tmp_path / "proba.csv"), *rest]) == 2
    err = capsys.readouterr().err  # which file is which: the message says "perturbed"
    assert f"--predictions (clean: {tmp_path / 'answers.csv'}, perturbed: " \
           f"{tmp_path / 'proba.csv'}): perturbed predictions must be predicted classes, not " \
           "scores: model 'a' has 0.01" in err
    answers.reset_index().to_csv(tmp_path / "indexed.csv")  # pandas' 0, 1, 2, ... first
    for flag, files in (("--responses", [str(tmp_path / "indexed.csv"), "--predictions",
                                         *[str(tmp_path / "answers.csv")] * 2]),
                        ("--predictions", [str(tmp_path / "answers.csv"), "--predictions",
                                           *[str(tmp_path / "indexed.csv")] * 2])):
        assert main(["robustness", "--responses", *files, *rest]) == 2
        assert ("indexed.csv: its first column has no name and counts 0, 1, 2, ... down the "
                "rows, as the index pandas writes with df.to_csv(path), where column "
                f"'image_id' holds a distinct text on every row; {flag} takes the instances' "
                "labels in the first column: write it with df.to_csv(path, index=False) "
                "(column 'image_id' first)") in capsys.readouterr().err
    numbered = pd.DataFrame({"a": np.arange(30) % 2, "b": np.arange(30) % 3 > 0}).astype(int)
    numbered.to_csv(tmp_path / "numbered.csv")  # 0, 1, 2, ...: the labels of unlabelled data
    assert cli_robustness.read_response_matrix(tmp_path / "numbered.csv",
                                               pd.RangeIndex(30)).n_items == 30
    answers.reset_index().iloc[:, ::-1].to_csv(tmp_path / "last.csv", index=False)
    assert main(["robustness", "--responses", str(tmp_path / "last.csv"), "--predictions",
                 *[str(tmp_path / "answers.csv")] * 2, *rest]) == 2
    assert "its first column 'b' repeats values where column 'image_id' holds a distinct text " \
        "on every row: make that column the first" in capsys.readouterr().err
    answers.assign(b=[f"x{k}" for k in range(30)]).to_csv(tmp_path / "text.csv")
    assert main(["robustness", "--responses", str(tmp_path / "text.csv"), "--predictions",
                 *[str(tmp_path / "answers.csv")] * 2, *rest]) == 2
    assert "if column 'b' labels the instances, make it the first column" in \
        capsys.readouterr().err  # not --respondent / --rows, which robustness has not
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args, message", [
    (["--dataset", "mnist"], "unknown datasets"),
    ([], "give either --dataset"),
    (["--dataset", "optdigits", "--families", "xgboost"],
     "unknown families ['xgboost']; choose from ['logistic', 'lda',"),
    (["--dataset", "optdigits", "--id", "name"], "--id applies to --csv only"),
    (["--dataset", "optdigits", "--target", "y", "--nominal", "a"],
     "--target, --nominal apply to --csv only"),
])
def test_robustness_command_bad_input(args, message, capsys):
    assert main(["robustness", *args]) == 2
    assert message in capsys.readouterr().err


def test_robustness_csv_problems_are_said_before_any_training(tmp_path, capsys):
    rng = np.random.default_rng(0)
    data = pd.DataFrame({"id": [f"s{i}" for i in range(12)], "x": rng.normal(size=12),
                         "label": list("ab") * 6})
    data.to_csv(tmp_path / "ids.csv", index=False)
    assert main(["robustness", "--csv", str(tmp_path / "ids.csv"), "--target", "label"]) == 2
    assert "columns ['id'] are not numeric; list them as nominal (--nominal) or convert them " \
           "to numbers; if 'id' labels the instances, pass --id id" in capsys.readouterr().err
    data.assign(id=["NA", "n/a"] + list(data["id"][2:])).to_csv(tmp_path / "na.csv", index=False)
    assert main(["robustness", "--csv", str(tmp_path / "na.csv"), "--target", "label"]) == 2
    err = capsys.readouterr().err  # said to impute the ids, before
    assert "missing values in columns ['id']" in err and "pass --id id (its labels" in err
    data.assign(label=rng.normal(size=12)).to_csv(tmp_path / "real.csv", index=False)
    assert main(["robustness", "--csv", str(tmp_path / "ids.csv"), "--target", "label", "--id",
                 "id", "--nominal", "x,colour"]) == 2
    assert "ids.csv: --nominal names ['colour'], which are not feature columns; the features " \
           "are ['x'] (--target and --id are not)" in capsys.readouterr().err  # "not in X"
    assert main(["robustness", "--csv", str(tmp_path / "real.csv"), "--target", "label",
                 "--id", "id"]) == 2
    err = capsys.readouterr().err
    assert "real.csv: no class of --target 'label' has 5 rows (the largest has 1)" in err
    assert "12 distinct values in 12 rows, like a continuous target" in err
    pd.DataFrame({"m1": [0, 1] * 6, "m2": [1, 1, 0] * 4}, index=data["id"]).to_csv(
        tmp_path / "answers.csv")
    assert main(["robustness", "--responses", str(tmp_path / "answers.csv"), "--predictions",
                 str(tmp_path / "no.csv"), str(tmp_path / "ids.csv")]) == 2
    assert capsys.readouterr().err.strip().endswith(  # which of the files is missing
        "(--predictions, the clean predictions)")


def test_robustness_csv_warns_of_a_feature_that_labels_the_instances(tmp_path, capsys):
    """An id among the features: the models learnt from it and the noise perturbed it, said
    only as "1 integer columns redrawn as nominal ones"."""
    rng = np.random.default_rng(0)
    data = pd.DataFrame({"x": rng.normal(size=12), "label": rng.normal(size=12),
                         "n_rooms": rng.permutation(12) + 1, "colour": list("abcd") * 3})
    cases = {"id": (range(1001, 1013), "column 'id' (integers counting up from 1001 to 1012) "
                                       "looks like the instances' labels, and is used as a "
                                       "feature"),
             "sample id": ([f"s{i}" for i in range(12)], "column 'sample id' (a distinct value "
                                                         "in every row) looks like the "
                                                         "instances' labels"),
             "Unnamed: 0": (range(12), "its column 'Unnamed: 0' holds pandas' row numbers")}
    for name, (values, message) in cases.items():
        data.assign(**{name: values}).to_csv(tmp_path / "d.csv", index=False)
        nominal = "colour" + (",sample id" if name == "sample id" else "")
        assert main(["robustness", "--csv", str(tmp_path / "d.csv"), "--target", "label",
                     "--nominal", nominal]) == 2  # (a continuous target: refused after)
        err = capsys.readouterr().err
        assert message in err
        assert name != "sample id" or "pass --id 'sample id'" in err  # quoted for the shell
    # ordinary features: a shuffled count, a nominal column, an id repeated, or --id given
    for extra, flags in (({}, []), ({"row": list("abcd") * 3}, ["--nominal", "colour,row"]),
                         ({"patient_id": [1, 1, 2, 2, 3, 3] * 2}, []),
                         ({"id": range(1001, 1013)}, ["--id", "id"])):
        data.assign(**extra).to_csv(tmp_path / "d.csv", index=False)
        main(["robustness", "--csv", str(tmp_path / "d.csv"), "--target", "label",
              *(flags or ["--nominal", "colour"])])
        assert "looks like the instances' labels" not in capsys.readouterr().err, extra


def test_robustness_csv_reads_classes_and_categories_as_written(tmp_path):
    """--target and --nominal columns are labels: "002" stays "002" (not 2), "01" and "1" are
    two categories (read as numbers they merged in silence) and "NA" is a class."""
    import argparse

    from irteval.cli import robustness as cli_robustness

    rng = np.random.default_rng(0)
    (tmp_path / "d.csv").write_text("id,x,colour,class\n" + "".join(
        f"{i:04d},{rng.normal():.3f},{('01', '1', 'NA')[i % 3]},{('002', 'NA')[i % 2]}\n"
        for i in range(12)))
    args = argparse.Namespace(predictions=None, dataset=None, csv=tmp_path / "d.csv",
                              target="class", id="id", nominal="colour", responses=None)
    [(_, X, y, nominal, _, _)] = cli_robustness.data(args)
    assert list(y[:2]) == ["002", "NA"] and list(X.index[:2]) == ["0000", "0001"]
    assert list(X["colour"][:3]) == ["01", "1", "NA"] and nominal == ["colour"]


def test_robustness_responses_say_when_labels_differ_in_zeros(tmp_path):
    from irteval.cli.robustness import read_response_matrix

    (tmp_path / "r.csv").write_text("id,m1,m2\n18,0,1\n46,1,1\n")
    with pytest.raises(ValueError, match=r"'18' differs from '0018' only in zeros before a "
                                         r"number"):
        read_response_matrix(tmp_path / "r.csv", pd.Index(["0018", "0046"]))


def test_robustness_passes_integer_noise_on(tmp_path, monkeypatch):
    """--integer-noise reaches noisy_predictions (a dropped keyword would fall back to the
    default in silence)."""
    import argparse
    import warnings

    from irteval import robustness as rb
    from irteval.cli import robustness as cli_robustness

    X, y = ie.datasets.load_optdigits(return_X_y=True)
    X.iloc[:30].assign(digit=y.iloc[:30]).to_csv(tmp_path / "digits.csv", index=False)
    given = {}
    with monkeypatch.context() as m:  # the command hands the flag to report()
        m.setattr(cli_robustness, "report", lambda *a, **k: given.update(k))
        m.setattr(cli_robustness, "taxonomy_report", lambda *a, **k: None)
        assert main(["robustness", "--csv", str(tmp_path / "digits.csv"), "--target",
                     "digit", "--integer-noise", "gaussian", "--out", str(tmp_path)]) == 0
    assert given["integer_noise"] == "gaussian"

    class Stop(Exception):
        pass

    def record(*args, **kwargs):
        given.update(kwargs, reached=True)
        raise Stop

    wide = ie.datasets.load_responses("optdigits", as_frame=True).iloc[:30]
    point = ie.fit(ie.models.onepl(ie.Responses.from_wide(wide, rows="item")), method="map")
    monkeypatch.setattr(rb, "noisy_predictions", record)  # report() hands it on
    with warnings.catch_warnings(), pytest.raises(Stop):
        warnings.simplefilter("ignore")
        cli_robustness.report("digits", X.iloc[:30], y.iloc[:30], argparse.Namespace(seed=0),
                              tmp_path / "r", estimators={}, idata=point, bins=2,
                              integer_noise="gaussian")
    assert given["reached"] and given["integer_noise"] == "gaussian"


def test_portfolio_command(tmp_path, capsys):
    from .test_continuous import simulate_airt

    wide, _ = simulate_airt(n=60, n_items=5, n_negative=1, seed=2)
    path = tmp_path / "perf.csv"
    wide.to_csv(path)
    out = tmp_path / "portfolio"
    assert main(["portfolio", str(path), "--bounds", "0,1", "--out", str(out),
                 "--draws", "200", "--tune", "300", "--chains", "2"]) == 0
    printed = capsys.readouterr().out
    assert "algorithm metrics" in printed and "portfolio (latent trait occupancy" in printed
    metrics = pd.read_csv(out / "algorithm_metrics.csv", index_col=0)
    assert list(metrics.index) == list(wide.columns)
    assert metrics.loc["algo4", "p_anomalous"] > 0.9
    board = pd.read_csv(out / "portfolio.csv", index_col=0)
    assert {"lto", "p_in_portfolio", "lto_lower", "lto_upper"} <= set(board)
    spectrum = pd.read_csv(out / "spectrum.csv", index_col=0)  # delta = -theta, said so
    assert len(spectrum) == 60 and spectrum.columns[0] == "difficulty_mean"
    assert spectrum["difficulty_mean"].is_monotonic_increasing  # easiest first
    assert (out / "crm_heatmap.png").stat().st_size > 1000
    idata = az.from_netcdf(out / "posterior.nc")
    assert ie.algorithm_metrics(idata)["p_anomalous"].round(6).equals(
        metrics["p_anomalous"].round(6).rename_axis("algorithm"))
    assert written(out) == sorted(outputs.files("portfolio"))
    assert main(["portfolio", str(path), "--bounds", "zero,one", "--out", str(out),
                 "--overwrite"]) == 2
    assert "--bounds" in capsys.readouterr().err


def test_a_negative_lower_bound_is_a_value_not_an_option():
    """argparse read '--bounds -0.05,1.05' as an option and said 'expected one argument'."""
    from irteval.cli.commands import parse

    args = parse(["portfolio", "err.csv", "--bounds", "-0.05,1.05", "--lower-is-better"])
    assert args.bounds == "-0.05,1.05" and args.lower_is_better
    assert parse(["portfolio", "err.csv", "--bounds", "-1e-3,1"]).bounds == "-1e-3,1"


def test_leaderboard_command_on_battles(tmp_path, capsys):
    from irteval.calibration import simulate_battles

    rows = simulate_battles(6, 600, np.random.default_rng(3))[2]
    rows["winner"] = rows["winner"].replace("tie", "draw")
    path = tmp_path / "battles.csv"
    rows.to_csv(path, index=False)
    out = tmp_path / "battles"
    assert main(["leaderboard", str(path), "--winner", "winner", "--out", str(out),
                 "--draws", "200", "--tune", "200", "--chains", "2"]) == 0
    printed = capsys.readouterr().out
    assert "Battles(6 models (players), 600 battles" in printed
    board = pd.read_csv(out / "leaderboard.csv", index_col=0)
    assert board.index.name == "model" and set(board.index) == set(rows["model_a"])
    assert written(out) == sorted(outputs.files("leaderboard"))
    assert az.from_netcdf(out / "posterior.nc").attrs["likelihood"] == "pairwise"
    rows.loc[4, "winner"] = "nobody"
    rows.to_csv(path, index=False)
    assert main(["leaderboard", str(path), "--winner", "winner", "--out", str(out),
                 "--overwrite"]) == 2
    err = capsys.readouterr().err
    assert "battles.csv" in err and "'nobody'" in err and "line 6" in err
    # fractional weights: the fit and the leaderboard, no predictive check (it drew int(n))
    rows.loc[4, "winner"] = "model_a"
    rows.assign(w=0.5).to_csv(path, index=False)
    out = tmp_path / "weighted"
    reference = rows["model_a"].iloc[0]  # and EPPs measured from one model, a tighter prior
    assert main(["leaderboard", str(path), "--winner", "winner", "--weight", "w", "--out",
                 str(out), "--draws", "100", "--tune", "100", "--chains", "2", "--reference",
                 reference, "--prior-scale", "1.5"]) == 0
    printed = capsys.readouterr().out
    assert "no posterior predictive check: the battle weights (--weight)" in printed
    assert f"EPP = logit of P(beats {reference!r})" in printed
    assert (out / "leaderboard.csv").exists() and not (out / "goodness_of_fit.csv").exists()
    assert pd.read_csv(out / "leaderboard.csv", index_col=0).loc[reference, "mean"] == 0
    assert pd.read_csv(out / "mle_epp.csv", index_col=0).loc[reference, "epp"] == 0  # the same
    # scale (was sum-to-zero beside it)
    assert az.from_netcdf(out / "posterior.nc").attrs["prior_scale"] == 1.5


def test_portfolio_command_on_levels(tmp_path, capsys):
    """--cuts bins the performances with airt's rule and fits the polytomous IRT."""
    from .test_continuous import simulate_airt

    wide, _ = simulate_airt(n=60, n_items=4, n_negative=1, seed=2)
    path = tmp_path / "perf.csv"
    wide.to_csv(path)
    out = tmp_path / "levels"
    assert main(["portfolio", str(path), "--cuts", "3", "--out", str(out), "--draws", "200",
                 "--tune", "300", "--chains", "2"]) == 0
    printed = capsys.readouterr().out
    assert "ordinal" in printed and "difficulty_limit_first" in printed
    assert re.search(r"levels by --cuts 3 \(equal_width\), with the performances each stands "
                     r"for: 1 \[\S+, \S+\], 2 \[", printed)
    metrics = pd.read_csv(out / "algorithm_metrics.csv", index_col=0)
    assert list(metrics.index) == list(wide.columns) and metrics.index.name == "algorithm"
    assert metrics.loc["algo3", "p_anomalous"] > 0.9
    assert written(out) == sorted(outputs.files("portfolio_levels"))
    idata = az.from_netcdf(out / "posterior.nc")
    assert idata.attrs["irteval_family"] == "polytomous_irt"
    assert list(idata.attrs["levels"]) == [1, 2, 3]
    assert idata.attrs["level_upper"][0] == idata.attrs["level_lower"][1]  # what each meant
    goodness = pd.read_csv(out / "goodness.csv", index_col=0)
    np.testing.assert_allclose(ie.model_goodness(idata)["aucdf"], goodness["aucdf"],
                               atol=1e-3)  # the file's posterior is stored in 16 bits
    with pytest.raises(SystemExit):
        main(["portfolio", str(path), "--cuts", "1", "--out", str(out)])
    assert "--cuts: must be at least 2" in capsys.readouterr().err


def test_posterior_draws_are_packed_only_where_no_summary_sees_it(tmp_path):
    """16 bits over the range gave heavy-tailed draws a step of ~12 (the AIRT's beta spans
    10^5): difficulty limits read back as 3.45 for 15 of 22 solvers. Such variables stay
    float32; the others lose under 1% of their smallest posterior sd."""
    import xarray as xr

    from irteval.cli import fitting
    from irteval.cli import outputs

    rng = np.random.default_rng(0)
    post = {"b": rng.normal(np.arange(5), 0.3, (2, 500, 5)),
            "beta": rng.standard_cauchy((2, 500, 5)) * 1e3}
    idata = az.from_dict(posterior=post, dims={"b": ["item"], "beta": ["item"]},
                         coords={"item": list("vwxyz")})
    fitting.save(idata, outputs.Writer(tmp_path, "difficulty"), {})
    back = az.from_netcdf(tmp_path / "posterior.nc").posterior
    raw = xr.open_dataset(tmp_path / "posterior.nc", group="posterior", mask_and_scale=False)
    assert raw["b"].dtype == np.int16 and raw["beta"].dtype == np.float32
    error = np.abs(back["b"].values - post["b"]).max()
    assert error <= 0.01 * post["b"].std(axis=(0, 1)).min()
    np.testing.assert_allclose(back["beta"].values, post["beta"], rtol=1e-6)
    wide = rng.normal(np.arange(200)[:, None, None] * 10, 1, (200, 2, 500))  # item first
    spread = az.from_dict(posterior={"b": np.moveaxis(wide, 0, -1)}).posterior["b"]
    assert fitting._packed(spread.transpose("b_dim_0", ...))["dtype"] == "float32" \
        == fitting._packed(spread)["dtype"]  # each entry's spread, in any order of dims
    # entries with no draws at all (a step above an algorithm's top level: NaN) are left out,
    # without NumPy's "All-NaN slice" warning reaching the user
    steps = rng.normal(0, 1, (2, 500, 3, 4))
    steps[..., 0, 3] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        packed = fitting._packed(az.from_dict(posterior={"d": steps}).posterior["d"])
    assert packed["dtype"] == "int16"


def test_files_an_earlier_run_left_are_said(tmp_path, capsys):
    """--overwrite replaced what this run wrote and left another variant's files beside them
    (a polytomous run's category_curves.png next to a continuous run's heat map) in silence."""
    from irteval.cli import outputs

    for name in ("category_curves.png", "taxonomy.csv", "spectrum.csv"):  # an earlier run's
        (tmp_path / name).write_bytes(b"")
    outputs.start_run()
    writer = outputs.Writer(tmp_path, "portfolio")
    writer.table("spectrum.csv", pd.DataFrame({"mean": [0.1]}, index=["d1"]))
    assert writer.summary() == f"wrote spectrum.csv to {tmp_path}/"
    # a later report of the same run (the robustness taxonomy) shares the folder
    outputs.Writer(tmp_path, "taxonomy").path("taxonomy.csv").write_bytes(b"")
    assert capsys.readouterr().err == ""  # said once the command is done
    outputs.warn_earlier_outputs()
    err = capsys.readouterr().err
    assert "also holds category_curves.png from an earlier run" in err and "taxonomy" not in err
    assert "spectrum" not in err


def test_difficulty_stores_the_log_likelihood_for_loo(difficulty_run):
    """The difficulty command stored no log-likelihood, and no flag could ask for it: az.loo
    on its posterior.nc failed (probe). Now as fit's default (up to 200 MB), and
    --log-likelihood stores it whatever the size."""
    _, out, _ = difficulty_run
    idata = az.from_netcdf(out / "posterior.nc")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert az.loo(idata).n_data_points == 240
    for flags, given in (([], None), (["--log-likelihood"], True)):
        args = commands.parser().parse_args(["difficulty", "x.csv", *flags])
        assert args.log_likelihood is given  # None: fit's "auto"


def test_leaderboard_warns_of_a_row_whose_task_looks_mistyped(capsys):
    """Split labels recur in every task (no warning); one row of split s1 under its own task
    (a typo) was only "1 split has fewer than two models" after the 'other / s1' round."""
    from irteval.cli.leaderboard import warn_stray_task

    rows = pd.DataFrame([(m, t, s) for m in "abc" for t in ["t1", "t2"] for s in ["s1", "s2"]],
                        columns=["model", "task", "split"], index=range(2, 14))
    warn_stray_task(rows, "split", "task", "scores.csv")
    assert capsys.readouterr().err == ""
    rows.loc[2, "task"] = "t 1"
    warn_stray_task(rows, "split", "task", "scores.csv")
    assert capsys.readouterr().err == (
        "irteval: warning: scores.csv, line 2: split 's1' has this one row in task 't 1' and 3 "
        "in another; a typo in column 'task' (--task)? As it stands the row is a split of its "
        "own, with no match\n")


def test_leaderboard_task_scheme_on_scores_and_battles(tmp_path, capsys):
    """--task fits the Model/Task scheme: a task's rounds are its splits (labelled
    "task / split" where split labels recur), battles are grouped by the column; every task's
    board is written, indexed by (task, model). --round on battles points to --task."""
    from irteval.calibration import simulate_battles

    rng = np.random.default_rng(2)
    rows = pd.DataFrame([(m, t, s, 0.5 + 0.1 * k + 0.05 * rng.standard_normal())
                         for k, m in enumerate(["a", "b", "c", "d"]) for t in ["t1", "t2", "t3"]
                         for s in ["s1", "s2"]], columns=["model", "task", "split", "acc"])
    path = tmp_path / "scores.csv"
    rows.to_csv(path, index=False)
    out = tmp_path / "tasks"
    fast = ["--draws", "100", "--tune", "200", "--chains", "2"]
    assert main(["leaderboard", str(path), "--player", "model", "--round", "split", "--score",
                 "acc", "--task", "task", "--out", str(out), *fast]) == 0
    printed = capsys.readouterr().out
    assert "Scores(4 models (players) x 6 splits (rounds)" in printed
    assert "Model/Task scheme: 3 tasks" in printed
    boards = ie.load_results(out)["task_leaderboards"]
    assert boards.index.names == ["task", "model"] and len(boards) == 12
    assert set(boards.index.get_level_values("task")) == {"t1", "t2", "t3"}
    assert list(az.from_netcdf(out / "posterior.nc").observed_data["round"].values[:2]) == [
        "t1 / s1", "t1 / s2"]
    assert written(out) == sorted(outputs.files("leaderboard", "leaderboard_tasks"))
    battles = simulate_battles(5, 300, rng)[2].assign(category=lambda d: np.where(
        np.arange(len(d)) % 2, "code", "chat"))
    battles.to_csv(tmp_path / "battles.csv", index=False)
    out = tmp_path / "battle_tasks"
    assert main(["leaderboard", str(tmp_path / "battles.csv"), "--winner", "winner", "--task",
                 "category", "--out", str(out), *fast]) == 0
    assert "Model/Task scheme: 2 tasks" in capsys.readouterr().out
    boards = ie.load_results(out)["task_leaderboards"]  # named by the user's --task column
    assert boards.index.names[0] == "category"
    assert set(boards.index.get_level_values(0)) == {"chat", "code"}
    assert main(["leaderboard", str(tmp_path / "battles.csv"), "--winner", "winner",
                 "--round", "category", "--out", str(out), "--overwrite"]) == 2
    assert "pass --task category" in capsys.readouterr().err
    assert main(["leaderboard", str(tmp_path / "battles.csv"), "--winner", "winner",
                 "--task", "model_a", "--out", str(out), "--overwrite"]) == 2
    assert "--player-a and --task both name the column 'model_a'" in \
        capsys.readouterr().err  # was "--player-a and --round", a flag of scores
    assert main(["leaderboard", str(path), "--task", "nope", "--out", str(out),
                 "--overwrite"]) == 2
    assert "no column 'nope' (--task)" in capsys.readouterr().err
    assert main(["leaderboard", str(path), "--player", "model", "--round", "splt", "--score",
                 "acc", "--task", "task", "--out", str(out), "--overwrite"]) == 2  # a typo
    assert "no column 'splt' (--round), and --task needs several rounds a task" in \
        capsys.readouterr().err  # was: 12 (model, task) pairs appear more than once
    rows.loc[3, "task"] = np.nan  # was blamed on the split column
    rows.to_csv(path, index=False)
    assert main(["leaderboard", str(path), "--player", "model", "--round", "split", "--score",
                 "acc", "--task", "task", "--out", str(out), "--overwrite"]) == 2
    err = capsys.readouterr().err
    assert "task has 1 missing label (line 5" in err
    assert err.strip().endswith("fill in the labels (the command reads only an empty cell as "
                                "missing)")  # not pandas' keywords


def test_portfolio_lower_is_better_turns_errors_around(tmp_path, capsys):
    """Error rates passed silently, and the worst algorithm led the portfolio; with
    --lower-is-better each is analysed as lower + upper - x: 1 - error within (0, 1)."""
    from .test_continuous import simulate_airt

    wide, _ = simulate_airt(n=40, n_items=4, n_negative=0, seed=5)
    path = tmp_path / "errors.csv"
    (1 - wide).to_csv(path)
    out = tmp_path / "errors"
    assert main(["portfolio", str(path), "--bounds", "0,1", "--lower-is-better", "--out",
                 str(out), "--draws", "100", "--tune", "200", "--chains", "2"]) == 0
    assert "lower is better (--lower-is-better): each performance x analysed as lower + " \
        "upper - x" in capsys.readouterr().out
    performance = az.from_netcdf(out / "posterior.nc").constant_data["performance"]
    np.testing.assert_allclose(performance.to_pandas().loc[wide.index, wide.columns], wide,
                               atol=1e-9)
    assert main(["portfolio", str(path), "--levels", "--lower-is-better", "--out",
                 str(out), "--overwrite"]) == 2
    assert "recode them so that the highest is the best" in capsys.readouterr().err
