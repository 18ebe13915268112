import subprocess
import sys

import arviz as az
import pandas as pd
import pytest

from irteval.cli import main

from .conftest import simulate

FAST = ["--draws", "100", "--tune", "200", "--chains", "2", "--bins", "3"]


def test_difficulty_command_on_a_long_csv(tmp_path, capsys):
    resp, _ = simulate(40, 6, seed=3)
    path = tmp_path / "responses.csv"
    resp.to_long().rename(columns={"value": "correct"}).to_csv(path, index=False)
    out = tmp_path / "out"
    assert main(["difficulty", str(path), "--out", str(out), *FAST]) == 0
    printed = capsys.readouterr().out
    assert "hardest instances" in printed and "per bin" in printed
    table = pd.read_csv(out / "difficulty.csv", index_col=0)
    assert len(table) == 40 and {"mean", "sd", "hdi_lower", "hdi_upper"} <= set(table)
    assert az.from_netcdf(out / "posterior.nc").posterior.sizes["item"] == 40
    assert (out / "characteristic_curves.png").stat().st_size > 1000


def test_difficulty_command_on_a_wide_csv_with_bad_values(tmp_path, capsys):
    path = tmp_path / "wide.csv"
    pd.DataFrame({"instance": ["a", "b"], "m1": [1, 2], "m2": [0, 1]}).to_csv(path, index=False)
    assert main(["difficulty", str(path), "--out", str(tmp_path), *FAST]) == 2
    assert "must be 0/1" in capsys.readouterr().err


def test_missing_file_and_help():
    with pytest.raises(SystemExit, match="no such file"):
        main(["difficulty", "does-not-exist.csv"])
    help_text = subprocess.run([sys.executable, "-m", "irteval.cli", "--help"],
                               capture_output=True, text=True, check=True).stdout
    assert "irteval demo" in help_text and "difficulty.csv" in help_text
