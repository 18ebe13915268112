"""System Characteristic Curves on a small slice of optdigits."""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin

import irteval as ie
from irteval.robustness import (noisy_predictions, p_hardest_most_sensitive, scc,
                                scc_from_predictions)


@pytest.fixture(scope="module")
def pipeline():
    X, y = ie.datasets.load_optdigits(return_X_y=True)
    X, y = X.iloc[:400], y.iloc[:400]
    population = {k: v for k, v in ie.robustness.zoo(population=True).items()
                  if k in ("cart_depth2", "cart_depth4", "naive_bayes", "knn_15", "lda_svd",
                           "plsda_2", "prototype", "gbm_2_3")}
    resp = ie.robustness.cross_val_responses(population, X, y, cv=5, random_seed=0,
                                             progressbar=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        idata = ie.fit(ie.models.onepl(resp), draws=200, tune=300, chains=2, random_seed=0,
                       progressbar=False, log_likelihood=False)
    models = {k: v for k, v in ie.robustness.families().items()
              if k in ("cart_depth10", "knn_3", "naive_bayes")}
    predictions = noisy_predictions(models, X, y, noise=0.5, random_seed=0, progressbar=False)
    return idata, predictions.clean, predictions.perturbed


def test_kappa_is_one_without_noise_and_falls_with_it(pipeline):
    idata, clean, noisy = pipeline
    curves = scc_from_predictions(idata, clean, noisy, max_draws=30, progressbar=False)
    assert curves["kappa"].dims == ("model", "bin", "proportion", "sample")
    assert curves["kappa"].shape == (3, 5, 6, 30)
    assert (curves.sel(proportion=0.0).to_array() == 1).all()  # exactly 1 without noise
    by_p = curves["kappa"].mean(("model", "bin", "sample")).to_series()
    assert by_p.is_monotonic_decreasing and by_p[1.0] < 0.95
    table = ie.robustness.scc_summary(curves)
    assert table.index.names == ["model", "bin", "proportion"] and len(table) == 3 * 5 * 6
    for name in ("kappa", "agreement", "macro_f1"):  # each with its interval over the draws
        assert (table[f"{name}_lower"] <= table[name] + 1e-12).all()
        assert (table[name] <= table[f"{name}_upper"] + 1e-12).all()
    assert table["agreement"].to_numpy() == pytest.approx(
        curves["agreement"].mean("sample").values.ravel())  # in the index's order
    assert (table["agreement_upper"] - table["agreement_lower"]).max() > 0
    p = p_hardest_most_sensitive(curves)
    assert list(p.index) == list(clean.columns) and p.between(0, 1).all()


def test_noisy_predictions_are_seeded(pipeline):
    _, clean, noisy = pipeline
    X, y = ie.datasets.load_optdigits(return_X_y=True)
    model = {"naive_bayes": ie.robustness.families()["naive_bayes"]}
    again = noisy_predictions(model, X.iloc[:400], y.iloc[:400], noise=0.5, random_seed=0,
                              progressbar=False)
    pd.testing.assert_frame_equal(again.perturbed, noisy[["naive_bayes"]])
    assert (again.clean["naive_bayes"] == clean["naive_bayes"]).all()
    with pytest.warns(FutureWarning, match="unpacking NoisyPredictions is deprecated"):
        old_clean, _ = again  # the tuple of earlier releases, for now
    assert old_clean is again.clean
    # scc from estimators = noisy_predictions then scc_from_predictions, same seeds
    idata = pipeline[0]
    direct = scc(idata, model, X.iloc[:400], y.iloc[:400], noise=0.5, max_draws=5,
                 random_seed=0, progressbar=False)
    two_step = scc_from_predictions(idata, again.clean, again.perturbed, max_draws=5,
                                    random_seed=0, progressbar=False)
    assert direct.identical(two_step)
    jittered = scc(idata, model, X.iloc[:400], y.iloc[:400], noise=0.5, max_draws=5,
                   integer_noise="gaussian", random_seed=0, progressbar=False)
    # optdigits' pixels are integers: the rule reaches the noise (naive Bayes' kappa moves)
    assert not jittered.identical(direct)


def test_bad_input(pipeline):
    idata, clean, noisy = pipeline
    X, y = ie.datasets.load_optdigits(return_X_y=True)
    for estimators in ({"a": 3, "b": 4}, {"a": 3}):  # AttributeError; "one estimator makes"
        with pytest.raises(TypeError, match=r"estimators\['a'\] \(int\) is not a scikit-learn "
                                            "classifier"):
            ie.robustness.cross_val_responses(estimators, X[:50], y[:50])
    from sklearn.linear_model import LogisticRegression

    with pytest.raises(TypeError, match=r"the class LogisticRegression, not an estimator: give "
                                        r"LogisticRegression\(\)"):  # (sklearn's clone, later)
        ie.robustness.cross_val_responses({"a": LogisticRegression, "b": LogisticRegression()},
                                          X[:50], y[:50])
    with pytest.raises(ValueError, match=rf"1 of the fit's items missing: \[{clean.index[0]}\];"
                       r".*fit it on the predicted ones"):
        scc_from_predictions(idata, clean, noisy.iloc[1:], progressbar=False)
    as_text = noisy.set_axis(noisy.index.astype(str))  # read from a CSV as text
    with pytest.raises(ValueError, match=r"not in the fit: \['\d+'.*\(the same labels as str, "
                       r"where the fit's are int: give both one type, e.g. frame.index = "
                       r"frame.index.astype\(int\)\)"):
        scc_from_predictions(idata, clean, as_text, progressbar=False)
    na_labels = noisy.rename(index={noisy.index[0]: np.nan})  # read_csv's 'NA'
    with pytest.raises(ValueError, match="perturbed predictions' instances include missing "
                       "labels.*keep_default_na=False"):
        scc_from_predictions(idata, clean, na_labels, progressbar=False)
    for bad in ([0, 1.5], [0, np.nan]):  # NaN failed after the training, in int()
        with pytest.raises(ValueError, match=r"proportions must lie in \[0, 1\]"):
            scc_from_predictions(idata, clean, noisy, proportions=bad, progressbar=False)
    with pytest.raises(TypeError, match=r"clean must be a DataFrame of predictions"):
        scc_from_predictions(idata, clean.to_numpy(), noisy.to_numpy())  # AttributeError
    extra = clean.assign(svm_clean_only=clean["knn_3"])  # a model run on clean data alone
    with pytest.raises(ValueError, match=r"same models .*only in clean: \['svm_clean_only'\]"):
        scc_from_predictions(idata, extra, noisy, progressbar=False)
    with pytest.raises(ValueError, match=r"model 'knn_3': its classes are written differently"
                       r" in the clean and the perturbed predictions \(clean '0', '1', '2', "
                       r"\.\.\. \(str\), perturbed 0, 1, 2, \.\.\. \(int\); '0' both as text "
                       r"and as a number\)"):  # kappa 0 everywhere
        scc_from_predictions(idata, clean.astype(str), noisy, progressbar=False)
    some = noisy.astype(object)
    some.iloc[:5, 0] = some.iloc[:5, 0].astype(str)  # a few classes as text: kappa too low
    with pytest.raises(ValueError, match="both as text and as a number"):
        scc_from_predictions(idata, clean, some, progressbar=False)
    names = {k: f"class {k}" for k in range(10)}
    with pytest.raises(ValueError, match="not one class in common"):  # relabelled, codes kept
        scc_from_predictions(idata, clean.replace(names), noisy, progressbar=False)
    # a model that says one class on clean inputs and another on perturbed ones: allowed
    flipped = scc_from_predictions(idata, clean.assign(knn_3="cat"), noisy.assign(knn_3="dog"),
                                   max_draws=2, progressbar=False)
    assert (flipped["agreement"].sel(model="knn_3", proportion=1.0) == 0).all()
    def as_rating(v):
        return f"{v / 2:g}"  # "0.5", "1", "1.5": class names, not scores

    ratings = scc_from_predictions(idata, clean.map(as_rating), noisy.map(as_rating),
                                   max_draws=2, progressbar=False)
    assert ratings["kappa"].sel(proportion=0.0).min() == 1
    scores = noisy.astype(float)
    scores.iloc[2, 0] = 0.37  # a probability among the classes
    with pytest.raises(ValueError, match=r"predicted classes, not scores: model "
                       rf"{noisy.columns[0]!r} "
                       rf"has 0.37 at instance {noisy.index[2]}.*argmax"):
        scc_from_predictions(idata, clean, scores, progressbar=False)
    holed = noisy.astype(object)
    holed.iloc[3, 1] = np.nan
    with pytest.raises(ValueError, match=f"instance {noisy.index[3]}, model {noisy.columns[1]!r}"):
        scc_from_predictions(idata, clean, holed, progressbar=False)
    X, y = ie.datasets.load_optdigits(return_X_y=True)
    with pytest.raises(ValueError, match="noise must be a finite number >= 0"):
        noisy_predictions({"nb": ie.robustness.families()["naive_bayes"]}, X.iloc[:100],
                          y.iloc[:100], noise=-0.1, progressbar=False)
    with pytest.raises(ValueError, match="integer_noise must be"):
        noisy_predictions({"nb": NeverTrained()}, X.iloc[:100], y.iloc[:100],
                          integer_noise="uniform", progressbar=False)
    with pytest.raises(TypeError, match="X must be a pandas DataFrame"):
        noisy_predictions({"nb": None}, X.to_numpy(), y)
    curves = scc_from_predictions(idata, clean, noisy, max_draws=5, progressbar=False)
    shuffled = scc_from_predictions(idata, clean.iloc[::-1], noisy.iloc[::-1, ::-1],
                                    max_draws=5, progressbar=False)  # by label, not position
    assert shuffled.identical(curves)
    as_floats = scc_from_predictions(idata, clean, noisy.astype(float), max_draws=5,
                                     progressbar=False)  # 1.0 is the class 1
    assert as_floats.identical(curves)
    with pytest.raises(ValueError, match="proportion 0.5 is not in the SCCs"):
        p_hardest_most_sensitive(curves, proportion=0.5)
    with pytest.raises(TypeError, match="proportion='1': give a number"):  # numpy's DTypePromo..
        p_hardest_most_sensitive(curves, proportion="1")
    np.testing.assert_array_equal(p_hardest_most_sensitive(curves, 0.1 * 10),  # 1.0 by rounding
                                  p_hardest_most_sensitive(curves, 1.0))
    one_bin = scc_from_predictions(idata, clean, noisy, n_bins=1, max_draws=2, progressbar=False)
    with pytest.raises(ValueError, match="two bins at least"):
        p_hardest_most_sensitive(one_bin)
    assert np.isfinite(curves["kappa"]).all()
    other = curves.sel(model=["knn_3", "naive_bayes"])
    with pytest.raises(ValueError, match=r"same models, bins and proportions; their models.*"
                       r"keep the common ones, e.g. \[s.sel\(model=\['knn_3', 'naive_bayes'\]"):
        ie.robustness.taxonomy([curves, other])
    reordered = curves.isel(model=slice(None, None, -1))  # matched by label, not refused
    assert (ie.robustness.taxonomy([curves, reordered], k=2).co_assignment.to_numpy()
            == ie.robustness.taxonomy([curves, curves], k=2).co_assignment.to_numpy()).all()
    with pytest.raises(TypeError, match="taxonomy takes the per-draw SCCs"):
        ie.robustness.taxonomy({"a": curves})
    for seed in (np.random.default_rng(0), None):  # a Generator (SeedSequence refused it)
        assert scc_from_predictions(idata, clean, noisy, max_draws=2, random_seed=seed,
                                    progressbar=False).sizes["sample"] == 2
    with pytest.raises(ValueError, match="X has 100 rows but y has 99"):
        noisy_predictions({"nb": None}, X.iloc[:100], y.to_numpy()[:99], progressbar=False)


class NeverTrained(BaseEstimator, ClassifierMixin):
    """An estimator that fails the test if scc() trains it before checking its arguments."""

    def fit(self, X, y):
        raise AssertionError("trained before the arguments were checked")

    def predict(self, X):
        raise AssertionError("never trained")


def test_scc_checks_everything_before_training(pipeline):
    idata, _, _ = pipeline
    X, y = ie.datasets.load_optdigits(return_X_y=True)
    X, y = X.loc[idata.posterior["item"].values], y.loc[idata.posterior["item"].values]
    models = {"a": NeverTrained(), "b": NeverTrained()}
    for kwargs, message in (({"proportions": [0, 2]}, "proportions must lie in"),
                            ({"n_bins": 0}, "n_bins"),
                            ({"max_draws": 0}, "max_draws=0: give a whole number"),
                            ({"n_jobs": 0}, r"n_jobs=0: give None \(this process\)"),
                            ({"X": X.set_axis(X.index + 10**6)}, "do not match")):
        args = {"X": X, "y": y.set_axis(X.index) if "X" not in kwargs else y.to_numpy()}
        args.update(kwargs)
        with pytest.raises(ValueError, match=message):
            scc(idata, models, args.pop("X"), args.pop("y"), progressbar=False, **args)


def test_taxonomy_and_plots(pipeline):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    idata, clean, noisy = pipeline
    one, two = (scc_from_predictions(idata, clean, noisy, max_draws=20, random_seed=seed,
                                     progressbar=False) for seed in (1, 2))
    tax = ie.robustness.taxonomy([one, two], k=2)
    assert set(tax.groups) == {1, 2} and list(tax.groups.index) == list(clean.columns)
    co = tax.co_assignment.to_numpy()
    assert np.allclose(np.diag(co), 1) and np.allclose(co, co.T) and ((co >= 0) & (co <= 1)).all()
    assert tax.kappa.shape == (3, 30)
    table = tax.summary()
    assert list(table.columns) == ["group", "p_same_group_as_members", "p_alone"]
    assert table["p_alone"].between(0, 1).all()
    single = table.groupby("group")["group"].transform("size") == 1
    assert table.loc[single, "p_same_group_as_members"].isna().all()
    assert table.loc[~single, "p_same_group_as_members"].between(0, 1).all()
    apart = ie.robustness.taxonomy([one, two], k=3).summary()  # three models, three groups
    assert apart["p_same_group_as_members"].isna().all() and (apart["p_alone"] == 1).all()
    with pytest.raises(ValueError, match="k must be between 2"):
        ie.robustness.taxonomy(one, k=9)
    with pytest.raises(ValueError, match="k=1: give a whole number of at least 2"):  # "1" said
        ie.robustness.taxonomy(one, k=1)  # for k=0, "between 2 and" for k=1
    axes = ie.plot_scc(one)
    assert axes.size >= 3 and axes.ravel()[0].has_data()
    fig, ax = plt.subplots()
    assert ie.plot_dendrogram(tax, ax=ax) is ax
    with pytest.raises(TypeError, match="plot_dendrogram takes the result of"):
        ie.plot_dendrogram(one)
    with pytest.raises(TypeError, match="plot_scc takes the per-draw SCCs"):
        ie.plot_scc(ie.robustness.scc_summary(one))
    plt.close("all")


def test_bins_proportions_and_groups_are_checked(pipeline):
    """n_bins past the instances gave empty bins of kappa 1, [] an empty result, k=2.5 two
    groups; now each is named."""
    idata, clean, noisy = pipeline
    run = lambda **kw: scc_from_predictions(idata, clean, noisy, max_draws=2,  # noqa: E731
                                            progressbar=False, **kw)
    with pytest.raises(ValueError, match="n_bins must be between 1 and the number of items"):
        run(n_bins=10_000)
    with pytest.warns(UserWarning, match=r"30 bins of 13-14 instances: a kappa over fewer "
                      r"than 20 is noisy.*fewer bins \(n_bins=, CLI --bins\)"):
        run(n_bins=30)  # 400 instances: bands that count only the bins' membership
    with pytest.raises(ValueError, match="proportions must be a list of shares"):
        run(proportions=[])
    with pytest.raises(ValueError, match="proportions must be distinct"):
        run(proportions=[0.5, 0.5])
    with pytest.raises(TypeError, match="k=2.5: give a whole number"):
        ie.robustness.taxonomy(run(), k=2.5)
    with pytest.raises(TypeError, match="n_bins=2.5: give a whole number"):
        ie.difficulty(idata, n_bins=2.5)  # returned bins 0.0, 1.0, 2.0
    with pytest.raises(ValueError, match="n_bins=0: give a whole number of at least 1"):
        ie.characteristic_curves(idata, n_bins=0)  # returned an empty table
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curves = run()
    first = str(curves["model"].values[0])
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="1 Axes for 3 models; give one Axes per panel"):
        ie.plot_scc(curves, axes=ax)  # drew one model of three
    with pytest.raises(ValueError, match=r"models \[.+\] are chosen twice"):
        ie.plot_scc(curves, models=[first, first])
    with pytest.raises(ValueError, match=r"unknown models \['zz'\]"):
        ie.plot_scc(curves, models=["zz"])  # was a pandas KeyError
    assert len(ie.plot_scc(curves, models=first)) >= 1  # one name, not its letters
    assert ie.plot_scc(curves, models=first, ax=ax) is ax and ax.has_data()  # ArviZ's name
    with pytest.raises(TypeError, match="ax= or as axes=, not both"):
        ie.plot_scc(curves, ax=ax, axes=ax)
    plt.close("all")


def test_cli_taxonomy_keeps_the_families_every_dataset_trained(tmp_path, capsys):
    """Families skipped on different datasets: the taxonomy is of those common to all (the
    command failed after all the training)."""
    import xarray as xr

    from irteval.cli.robustness import taxonomy_report

    rng = np.random.default_rng(0)

    def curves(models):
        shape = (len(models), 2, 3, 4)
        return xr.Dataset({"kappa": (("model", "bin", "proportion", "sample"),
                                     rng.random(shape))},
                          coords={"model": models, "bin": [0, 1], "proportion": [0, .5, 1],
                                  "sample": range(4)})

    tax = taxonomy_report([curves(["a", "b", "c", "x"]), curves(["a", "b", "c", "y"])],
                          tmp_path, 3)
    assert list(tax.groups.index) == ["a", "b", "c"]
    tied = curves(["a", "b", "c", "d"]).assign(kappa=lambda d: d["kappa"] * 0 + 1)  # no change
    taxonomy_report([tied], tmp_path / "tied", 3)
    assert "robustness taxonomy (1 group, complete linkage on kappa profiles averaged over 1 " \
        "dataset(s)); --groups 3 asked, but the profiles tie:" in capsys.readouterr().out


def test_estimators_without_a_random_state_get_the_seed():
    """The seed reached the folds only: a tree without random_state gave other responses from
    the same seed (scikit-learn's own cross-validation seeds no estimator either)."""
    from sklearn.tree import DecisionTreeClassifier

    X, y = ie.datasets.load_optdigits(return_X_y=True)
    X, y = X.iloc[:150], y.iloc[:150]
    trees = {f"tree{k}": DecisionTreeClassifier(max_depth=4, max_features=0.3)  # random
             for k in range(2)}  # splits
    runs = [ie.robustness.cross_val_responses(trees, X, y, cv=3, random_seed=seed,
                                              progressbar=False).to_wide(rows="item")
            for seed in (1, 1, 2)]
    pd.testing.assert_frame_equal(runs[0], runs[1])
    assert not runs[0].equals(runs[2])
    assert trees["tree0"].random_state is None  # the user's estimator is left as it was
