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
    if family == "1pl_missing":  # cells: codes into the labelled dims, and their labels
        const, post = idata.constant_data, idata.posterior
        for group in ("observed_data", "log_likelihood", "posterior_predictive"):
            cells = idata[group]
            for side in ("item", "respondent"):
                expected = post[side].values[const[f"{side}_idx"].values]
                assert (cells[f"obs_{side}"].values == expected).all(), (group, side)
    if family in ("pairwise", "davidson"):
        assert all(" vs " in p for p in idata.observed_data["pair"].values)
        players = idata.posterior["player"].values
        for group in ("observed_data", "log_likelihood", "posterior_predictive"):
            for side in ("i", "j"):
                expected = players[idata.constant_data[f"pair_{side}"].values]
                assert (idata[group][f"player_{side}"].values == expected).all()
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
        if csv.name == "goodness_of_fit.csv":  # indexed by (player_i, player_j)
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
                     "--families", "naive_bayes,knn_3", "--scc-draws", "3",  # 2 groups
                     "--out", str(tmp_path / "out"), "--draws", "60", "--tune", "60",
                     "--chains", "2"]) == 0
    families = {"naive_bayes", "knn_3"}
    res = ie.load_results(tmp_path / "out")
    assert set(res.tables["taxonomy"].index) == families
    digits = res["digits"]
    assert set(digits["scc"].index.get_level_values("model")) == families
    scc = digits.scc
    assert set(scc["model"].values) == families and isinstance(scc, xr.Dataset)
    # the bins among p_hardest's columns as scc.nc has them (they read back as text)
    assert list(digits["p_hardest"].columns) == [*scc["bin"].values.tolist(),
                                                 "p_hardest_most_sensitive"]
    # instances of a CSV without a label column are its data rows, counted from 0
    assert list(digits["difficulty"].index[:3]) == [0, 1, 2]


def test_the_commands_read_labels_as_written(tmp_path):
    """Label columns of a CSV are text: ids 0001 were read as the number 1, versions 1.1 and
    1.10 merged into 1.1, a model named NA was a missing label, and battles between numbered
    players failed (the winner column, holding 'tie', stayed text)."""
    from irteval.cli import reading

    from .test_fuzz import run_cli

    models = ["1.1", "1.10", "NA", "007"]
    long = pd.DataFrame([(m, f"{i:04d}", (i + k) % 2) for k, m in enumerate(models)
                         for i in range(1, 13)], columns=["model", "instance", "correct"])
    long.to_csv(tmp_path / "long.csv", index=False)
    status, err, seen = run_cli(["difficulty", str(tmp_path / "long.csv"), "--out",
                                 str(tmp_path / "o1")])
    assert status == 0, err
    assert list(seen[0].respondents) == models and seen[0].items[0] == "0001"
    battles = pd.DataFrame({"a": [103, 104, 105, 103], "b": [104, 105, 103, 105],
                            "winner": ["103", "tie", "105", "105"]})
    battles.to_csv(tmp_path / "battles.csv", index=False)
    status, err, seen = run_cli(["leaderboard", str(tmp_path / "battles.csv"), "--player-a", "a",
                                 "--player-b", "b", "--winner", "winner", "--out",
                                 str(tmp_path / "o2")])
    assert status == 0, err
    assert sorted(seen[0].players) == ["103", "104", "105"]
    X, y = ie.datasets.load_optdigits(return_X_y=True)
    data = X.iloc[:40].assign(digit=y.iloc[:40], id=[f"{k:03d}" for k in range(40)])
    data.to_csv(tmp_path / "digits.csv", index=False)
    argv = ["robustness", "--csv", str(tmp_path / "digits.csv"), "--target", "digit", "--out",
            str(tmp_path / "o3")]
    status, err, seen = run_cli([*argv, "--id", "id"])
    assert status == 0, err
    assert list(seen[0][0].index[:2]) == ["000", "001"] and "id" not in seen[0][0].columns
    assert seen[0][0].index.name == "id"  # the column's own name (was 'instance')
    assert list(run_cli(argv)[2][0][0].index[:2]) == [0, 1]  # without --id: rows from 0
    data.assign(id="x").to_csv(tmp_path / "digits.csv", index=False)
    status, err, _ = run_cli([*argv, "--id", "id"])
    assert status == 2 and "--id 'id' has repeated labels on lines [2, 3, 4, 5, 6] (e.g. " \
        "'x')" in err
    data.assign(id=[""] + [f"{k:03d}" for k in range(1, 40)]).to_csv(tmp_path / "digits.csv",
                                                                    index=False)
    status, err, _ = run_cli([*argv, "--id", "id"])  # was "(e.g. nan)"
    assert status == 2 and err.strip().endswith("--id 'id' has empty labels on lines [2]; "
                                                 "every row needs its own label")
    # labels read as text meet a fit's numbers (the bundled data's instances) by their text
    assert list(reading.as_labels(pd.Index(["3", "0007", "x"]), [1, 3, 7])) == [3, 7, "x"]
    assert list(reading.as_labels(pd.Index(["0.5", "1", "1.0"]), [0.5, 1.0])) == [0.5, 1.0, 1.0]
    assert list(reading.as_labels(pd.Index(["007", "7"]), ["7", 8])) == ["007", "7"]
    # NumPy's integers (a fit's labels read from netCDF) by value too; a bool is no number
    assert list(reading.as_labels(pd.Index(["28.0", "3"]), np.array([3, 28]))) == [28, 3]
    assert list(reading.as_labels(pd.Index(["1"]), np.array([True, False]))) == ["1"]


def test_load_results_reads_numbers_back_as_numbers_and_text_as_text(tmp_path):
    players = ["7", "8", "010"]
    table = pd.DataFrame(np.eye(3), index=pd.Index(players, name="model"), columns=players)
    (tmp_path / "out").mkdir()
    table.to_csv(tmp_path / "out" / "win_probability.csv")
    read = ie.load_results(tmp_path / "out")["win_probability"]
    assert list(read.index) == list(read.columns) == players  # 010 kept: not all read as ints
    table.set_axis([7, 8, 10]).set_axis([7, 8, 10], axis=1).to_csv(
        tmp_path / "out" / "win_probability.csv")
    read = ie.load_results(tmp_path / "out")["win_probability"]
    assert list(read.index) == list(read.columns) == [7, 8, 10]
    assert read.loc[7, 8] == 0  # the columns were the text '8' and the index the number 7
    # beside a posterior, its labels' own type: the text '7' of a CLI fit stays text
    idata = az.from_dict(posterior={"epp": np.zeros((1, 2, 3))}, coords={"player": players},
                         dims={"epp": ["player"]})
    idata.to_netcdf(tmp_path / "out" / "posterior.nc")
    table.to_csv(tmp_path / "out" / "win_probability.csv")
    read = ie.load_results(tmp_path / "out")["win_probability"]
    assert list(read.index) == list(read.columns) == players
    pd.DataFrame({"model": ["NA", "None", "2"], "group": [1, 2, 1]}).to_csv(
        tmp_path / "out" / "taxonomy.csv", index=False)  # NA is a label, as the CLI reads it
    assert list(ie.load_results(tmp_path / "out")["taxonomy"].index) == ["NA", "None", "2"]
    pd.DataFrame({"estimate": [0.1]}, index=["ability"]).to_csv(tmp_path / "out" / "score.csv")
    assert ie.load_results(tmp_path / "out")["score"].index.name is None  # not 'Unnamed: 0'


@pytest.mark.parametrize("family", ["1pl", "1pl dense", "plackett_luce"])
def test_narrow_integer_labels_survive_nutpie(family):
    """int32 and uint8 labels (nutpie refuses them as coordinates: the fit crashed with a Rust
    backtrace) come back as given, in the types PyMC's own sampler gives them."""
    wide = labelled_wide(25, 6).astype(float)
    wide.index = np.arange(100, 125, dtype="uint8")
    wide.columns = np.array([7, 3, 5, 1, 0, 2], dtype="int32")
    if family == "plackett_luce":
        model = ie.models.bradley_terry(ie.Scores.from_wide(wide.T))
        dims = {"player": wide.columns, "round": wide.index}
    else:
        model = ie.models.onepl(ie.Responses.from_wide(wide, rows="item"))
        dims = {"respondent": wide.columns, "item": wide.index}
    idata = quiet_fit(model, **FAST, collapse=family != "1pl dense")  # None was False
    assert idata.attrs["irteval_method"] == "nuts:nutpie"
    for dim, index in dims.items():
        if dim in idata.posterior.dims:
            assert idata.posterior[dim].dtype == index.dtype
            assert list(idata.posterior[dim].values) == list(index)


def test_pair_labels_that_hold_the_separator_stay_unique():
    """Players "a vs b", "c", "a", "b vs c": "a vs b" against "c" and "a" against "b vs c"
    were both "a vs b vs c", so .sel(pair=...) was ambiguous; every label is quoted then."""
    rng = np.random.default_rng(0)
    rows = pd.DataFrame({"model": np.repeat(["a vs b", "c", "a", "b vs c"], 5),
                         "task": np.tile(range(5), 4), "score": rng.normal(size=20)})
    scores = ie.Scores.from_long(rows, player="model", round="task", score="score")
    coords = ie.models.bradley_terry(scores, likelihood="pairwise").coords["pair"]
    assert len(set(coords)) == len(coords) == 6 and "'a vs b' vs 'c'" in coords
    plain = ie.Scores.from_long(rows[rows["model"].isin(["c", "a"])], player="model",
                                round="task", score="score")
    assert list(ie.models.bradley_terry(plain, likelihood="pairwise").coords["pair"]) == [
        "c vs a"]


def test_timestamp_labels_of_cells_go_to_netcdf(tmp_path):
    """Instances labelled by Timestamps in an object index, with missing cells: obs_item once
    kept the objects as given, which to_netcdf cannot store ('cannot serialize arbitrary
    Python objects')."""
    rng = np.random.default_rng(0)
    days = pd.Index([pd.Timestamp("2024-01-01") + pd.Timedelta(days=i) for i in range(40)],
                    dtype=object)
    p = 1 / (1 + np.exp(rng.normal(0, 1, (40, 1)) - np.linspace(-2, 2, 8)))
    wide = pd.DataFrame((rng.random((40, 8)) < p).astype(float), index=days,
                        columns=[f"m{j}" for j in range(8)])
    wide.iloc[0, 0] = np.nan
    idata = quiet_fit(ie.models.onepl(ie.Responses.from_wide(wide, rows="item")),
                      method="map", random_seed=0)
    idata.to_netcdf(tmp_path / "fit.nc")
    back = az.from_netcdf(tmp_path / "fit.nc")
    expected = pd.to_datetime(np.asarray(days))[back.constant_data["item_idx"].values]
    assert (pd.to_datetime(back.observed_data["obs_item"].values) == expected).all()
