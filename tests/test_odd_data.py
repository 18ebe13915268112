"""The model zoo runs on small and odd data sets (issue 13): hyper-parameters fitted to the data
or the configuration skipped with a warning naming it; nominal columns may hold strings."""

import warnings

import numpy as np
import pandas as pd
import pytest

import irteval as ie
from irteval.cli import main


def odd_data(n=40, seed=0):
    """2 numeric features, a string nominal column, 3 classes of which one has 3 members."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"x1": rng.normal(size=n), "x2": rng.normal(size=n),
                      "colour": rng.choice(["red", "green", "blue"], n)})
    y = np.where(X["x1"] + (X["colour"] == "red") > 0.3, "yes", "no").astype(object)
    y[:3] = "rare"
    return X, pd.Series(y)


def test_the_whole_zoo_adapts_or_says_what_it_skipped():
    X, y = odd_data()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        resp = ie.robustness.cross_val_responses(ie.robustness.zoo(population=True), X, y,
                                                 nominal=["colour"], progressbar=False)
    said = [str(w.message) for w in caught]
    zoo = set(ie.robustness.zoo(population=True))
    skipped = {m.split(":")[0].removeprefix("skipped ") for m in said if m.startswith("skipped")}
    assert set(resp.respondents) | skipped == zoo and not set(resp.respondents) & skipped
    assert len(resp.respondents) >= 40  # most of the 58 run
    assert any(m.startswith("knn_51: n_neighbors 51 -> 32") for m in said)  # 32 training rows
    assert any(m.startswith("plsda_10: n_components 10 -> 5") for m in said)  # 5 features
    assert resp.n_items == 40


def test_noise_on_string_categories_and_the_families():
    X, y = odd_data(60, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pred = ie.robustness.noisy_predictions(ie.robustness.families(), X, y, noise=0.5,
                                               nominal=["colour"], progressbar=False)
    assert pred.clean.shape[0] == 60 and pred.clean.shape[1] >= 14
    assert set(np.unique(pred.perturbed.to_numpy().astype(str))) <= {"yes", "no", "rare"}


@pytest.mark.parametrize("mutate, message", [
    (lambda X, y: (X.assign(colour=X["colour"].where(X.index > 0)), y), "missing values in "
                                                                        r"columns \['colour'\]"),
    (lambda X, y: (X, y.where(y.index > 0)), "the target has 1 missing label"),
    (lambda X, y: (X, pd.Series(["one"] * len(y))), "the target has one class only"),
    (lambda X, y: (X.iloc[:1], y.iloc[:1]), "X has 1 row"),
])
def test_bad_data_is_named_before_any_training(mutate, message):
    X, y = mutate(*odd_data())
    with pytest.raises(ValueError, match=message):
        ie.robustness.cross_val_responses({"nb": ie.robustness.families()["naive_bayes"]}, X, y,
                                          nominal=["colour"], progressbar=False)


def test_a_string_column_not_named_nominal_is_refused_with_the_fix():
    X, y = odd_data()
    with pytest.raises(ValueError, match=r"columns \['colour'\] are not numeric; list them as "
                                         r"nominal \(nominal=\)"):
        ie.robustness.noisy_predictions(ie.robustness.families(), X, y, progressbar=False)


def test_no_class_big_enough_for_the_folds():
    X, y = odd_data(8)
    y = pd.Series(["a", "a", "b", "b", "c", "c", "d", "d"])
    families = ie.robustness.families()
    two = {name: families[name] for name in ("naive_bayes", "knn_3")}  # one is refused first
    with pytest.raises(ValueError, match=r"no class has 5 members .* use fewer folds \(cv=\)"):
        ie.robustness.cross_val_responses(two, X, y, nominal=["colour"], progressbar=False)


def test_robustness_command_on_a_small_odd_csv(tmp_path, capsys):
    X, y = odd_data(50, seed=2)
    X.assign(label=y).to_csv(tmp_path / "odd.csv", index=False)
    assert main(["robustness", "--csv", str(tmp_path / "odd.csv"), "--target", "label",
                 "--nominal", "colour", "--families", "knn_3,naive_bayes,plsda_3",
                 "--groups", "2", "--scc-draws", "3", "--bins", "2", "--out",
                 str(tmp_path / "out"), "--draws", "60", "--tune", "60", "--chains", "2"]) == 0
    err = capsys.readouterr().err
    assert "irteval: warning: knn_51: n_neighbors 51 -> 40" in err  # the zoo, 40 rows per fold
    assert "Traceback" not in err and ".py:" not in err  # warnings as one line, no source
    # a nominal column that does not exist: named before any work, in the flag's words
    assert main(["robustness", "--csv", str(tmp_path / "odd.csv"), "--target", "label",
                 "--nominal", "shape", "--out", str(tmp_path / "o2")]) == 2
    assert "odd.csv: --nominal names ['shape'], which are not feature columns" in \
        capsys.readouterr().err  # was "are not in X", a frame the command line never showed
