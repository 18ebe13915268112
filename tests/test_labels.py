"""The user's labels survive into every output of every model (issue 13): every labelled dim
of every InferenceData group, every table, every CSV and netCDF the commands write."""

import warnings

import arviz as az
import numpy as np
import pandas as pd
import pytest
import xarray as xr

import irteval as ie
from irteval.cli import main

from .conftest import quiet_fit

FAST = dict(draws=60, tune=60, chains=2, random_seed=0)
#: dims that enumerate the user's things (obs, pair ... are cells and pairs of those)
LABELLED = ("item", "respondent", "player", "round", "model")


def labelled_wide(n_rows=30, n_cols=6, seed=0, continuous=False):
    rng = np.random.default_rng(seed)
    values = (rng.uniform(0.05, 0.95, (n_rows, n_cols)) if continuous
              else (rng.random((n_rows, n_cols)) < rng.uniform(0.2, 0.8, n_cols)).astype(int))
    return pd.DataFrame(values, index=pd.Index([f"d{k}" for k in range(n_rows)], name="dataset"),
                        columns=[f"a{k}" for k in range(n_cols)])


def check_groups(idata, labels):
    """Every labelled dim of every group holds labels of the user's, and every one of them."""
    for group in idata.groups():
        ds = idata[group]
        for dim in LABELLED:
            if dim in ds.dims:
                values = [str(v) for v in ds[dim].values]
                assert set(values) <= labels, (group, dim, values[:5])


@pytest.mark.parametrize("family", ["1pl", "1pl_missing", "2pl", "plackett_luce", "pairwise",
                                    "davidson", "continuous", "polytomous"])
def test_every_group_of_every_family_is_labelled(family):
    wide = labelled_wide(continuous=family in ("continuous", "polytomous"))
    labels = set(wide.index) | set(wide.columns)
    if family in ("plackett_luce", "pairwise", "davidson"):
        scores = ie.Scores.from_wide(wide.T.astype(float), player="model", round="dataset")
        model = ie.models.bradley_terry(scores, likelihood=family)
    elif family == "continuous":
        model = ie.models.continuous_irt(ie.Responses.from_wide(
            wide, respondent="dataset", item="algorithm", kind="continuous"))
    elif family == "polytomous":
        model = ie.models.polytomous_irt(ie.Responses.from_wide(
            wide, respondent="dataset", item="algorithm", kind="ordinal", cuts=3))
    else:
        if family == "1pl_missing":
            wide = wide.astype(float).mask(np.random.default_rng(1).random(wide.shape) < 0.1)
        resp = ie.Responses.from_wide(wide, respondent="dataset", item="question")
        model = ie.models.onepl(resp, discrimination=family == "2pl")
    idata = quiet_fit(model, **FAST, log_likelihood=True, posterior_predictive=True)
    check_groups(idata, labels)
    if family == "1pl_missing":  # cells: codes into the labelled dims
        const = idata.constant_data
        assert const["item_idx"].max() < idata.posterior.sizes["item"]
    if family in ("pairwise", "davidson"):
        assert all(" vs " in p for p in idata.observed_data["pair"].values)
    if family == "continuous":
        lt = ie.latent_trait(idata, max_draws=10)
        assert set(lt.spectrum.index) == set(wide.index)
        assert list(ie.algorithm_metrics(idata).index) == list(wide.columns)
    if family == "polytomous":
        assert list(ie.algorithm_metrics(idata).index) == list(wide.columns)


def test_every_csv_and_netcdf_the_commands_write_is_labelled(tmp_path):
    binary, cont = labelled_wide(40, 6), labelled_wide(30, 5, seed=2, continuous=True)
    binary.to_csv(tmp_path / "matrix.csv")
    cont.to_csv(tmp_path / "perf.csv")
    long = cont.reset_index().melt(id_vars="dataset", var_name="model", value_name="score")
    long.to_csv(tmp_path / "scores.csv", index=False)
    fast = ["--draws", "60", "--tune", "60", "--chains", "2"]
    runs = {"difficulty": ["difficulty", "matrix.csv", "--rows", "respondent", "--respondent",
                           "dataset", "--bins", "3"],
            "leaderboard": ["leaderboard", "scores.csv", "--player", "model", "--round",
                            "dataset"],
            "portfolio": ["portfolio", "perf.csv"]}
    labels = set(binary.index) | set(binary.columns) | set(cont.index) | set(cont.columns)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, argv in runs.items():
            argv = [a if not a.endswith(".csv") else str(tmp_path / a) for a in argv]
            assert main([*argv, "--out", str(tmp_path / name), *fast]) == 0, name
    for csv in tmp_path.glob("*/*.csv"):
        table = pd.read_csv(csv)
        first = table.iloc[:, 0].astype(str)
        if csv.name == "goodness_of_fit.csv":
            first = pd.concat([table["player_i"], table["player_j"]]).astype(str)
        assert set(first) <= labels, (csv, list(first[:5]))
    for nc in tmp_path.glob("*/posterior.nc"):
        check_groups(az.from_netcdf(nc), labels)


def test_robustness_outputs_are_labelled(tmp_path):
    X, y = ie.datasets.load_optdigits(return_X_y=True)
    keep = X.index[:150]
    data = X.loc[keep].assign(digit=y.loc[keep])
    data.index = [f"row{k}" for k in range(len(data))]
    data.to_csv(tmp_path / "digits.csv", index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["robustness", "--csv", str(tmp_path / "digits.csv"), "--target", "digit",
                     "--families", "naive_bayes,knn_3", "--groups", "2", "--scc-draws", "3",
                     "--out", str(tmp_path / "out"), "--draws", "60", "--tune", "60",
                     "--chains", "2"]) == 0
    families = {"naive_bayes", "knn_3"}
    res = ie.load_results(tmp_path / "out")
    assert set(res.tables["taxonomy"].index) == families
    digits = res["digits"]
    assert set(digits["scc"].index.get_level_values("model")) == families
    scc = digits.scc
    assert set(scc["model"].values) == families and isinstance(scc, xr.Dataset)
    # instances of a CSV without a label column are its data rows, counted from 0
    assert list(digits["difficulty"].index[:3]) == [0, 1, 2]
