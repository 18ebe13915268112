import subprocess
import sys

import arviz as az
import pandas as pd
import pytest

import irteval as ie
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
    assert "leaderboard.csv" in help_text


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


def test_leaderboard_command_names_a_bad_column(tmp_path, capsys):
    path = tmp_path / "s.csv"
    pd.DataFrame({"model": ["a", "b"], "round": [1, 1], "auc": [0.5, 0.6]}).to_csv(path)
    assert main(["leaderboard", str(path), "--out", str(tmp_path)]) == 2
    assert "column 'score' is not in the data frame" in capsys.readouterr().err


def test_robustness_command_on_a_csv(tmp_path, capsys):
    X, y = ie.datasets.load_optdigits(return_X_y=True)
    data = X.iloc[:300].assign(digit=y.iloc[:300])
    data.to_csv(tmp_path / "digits.csv", index=False)
    wide = ie.datasets.load_responses("optdigits", as_frame=True).iloc[:300]
    wide.to_csv(tmp_path / "responses.csv")
    out = tmp_path / "rob"
    assert main(["robustness", "--csv", str(tmp_path / "digits.csv"), "--target", "digit",
                 "--responses", str(tmp_path / "responses.csv"), "--families",
                 "naive_bayes,knn_3,lda_svd", "--scc-draws", "5", "--groups", "2",
                 "--out", str(out), "--draws", "100", "--tune", "200", "--chains", "2"]) == 0
    printed = capsys.readouterr().out
    for stage in ("difficulty: 1PL fit", "noisy predictions", "SCC over 5 posterior draws"):
        assert f"] {stage}" in printed  # each stage prints its time
    scc = pd.read_csv(out / "digits" / "scc.csv")
    assert set(scc["model"]) == {"naive_bayes", "knn_3", "lda_svd"}
    assert (scc.loc[scc["proportion"] == 0, "kappa"] == 1).all()
    taxonomy = pd.read_csv(out / "taxonomy.csv", index_col=0)
    assert set(taxonomy["group"]) == {1, 2}
    assert (out / "dendrogram.png").stat().st_size > 1000
    assert (out / "digits" / "scc.png").stat().st_size > 1000


@pytest.mark.parametrize("args, message", [
    (["--dataset", "mnist"], "unknown datasets"),
    ([], "give either --dataset"),
    (["--dataset", "optdigits", "--families", "xgboost"], "unknown families"),
])
def test_robustness_command_bad_input(args, message, capsys):
    assert main(["robustness", *args]) == 2
    assert message in capsys.readouterr().err


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
    assert len(pd.read_csv(out / "spectrum.csv")) == 60
    assert (out / "crm_heatmap.png").stat().st_size > 1000
    idata = az.from_netcdf(out / "posterior.nc")
    assert ie.algorithm_metrics(idata)["p_anomalous"].round(6).equals(
        metrics["p_anomalous"].round(6).rename_axis("algorithm"))
    assert main(["portfolio", str(path), "--bounds", "zero,one", "--out", str(out)]) == 2
    assert "--bounds" in capsys.readouterr().err
