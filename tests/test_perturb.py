import numpy as np
import pandas as pd
import pytest

import irteval as ie
from irteval.robustness import perturb


@pytest.fixture
def frames():
    rng = np.random.default_rng(0)
    train = pd.DataFrame({"x": rng.normal(0, 2, 4000), "colour": rng.choice(["r", "g", "b"], 4000,
                                                                             p=[.6, .3, .1])})
    test = pd.DataFrame({"x": np.zeros(4000), "colour": ["r"] * 4000})
    return train, test


def test_numeric_noise_has_eps_times_training_sd(frames):
    train, test = frames
    noisy = perturb(test, train, noise=0.2, nominal=["colour"], random_seed=1)
    assert abs(noisy["x"].std() / (0.2 * train["x"].std()) - 1) < 0.05
    assert abs(noisy["x"].mean()) < 0.05


def test_nominal_values_are_redrawn_from_the_training_distribution(frames):
    train, test = frames
    noisy = perturb(test, train, noise=0.2, nominal=["colour"], random_seed=1)
    a = 1 - np.exp(-0.2)
    changed = (noisy["colour"] != "r").mean()
    assert abs(changed - a * 0.4) < 0.02  # redrawn w.p. a, to another colour w.p. 0.4
    assert set(noisy["colour"]) <= {"r", "g", "b"}
    heavy = perturb(test, train, noise=20, nominal=["colour"], random_seed=1)
    assert abs((heavy["colour"] == "b").mean() - 0.1) < 0.02


def test_integer_columns_are_redrawn_as_the_reference_code_does():
    """optdigits' pixel counts got Gaussian noise, against DESIGN.md and the reference code
    (R's is.integer columns are nominal or ordinal there); Gaussian naive Bayes then put 557
    of 600 perturbed digits in one class."""
    rng = np.random.default_rng(0)
    train = pd.DataFrame({"pixel": rng.choice([0, 5, 16], 4000, p=[.6, .3, .1]),
                          "on": rng.random(4000) < 0.3, "x": rng.normal(size=4000)})
    test = train.assign(pixel=0, on=False)
    noisy = perturb(test, train, noise=0.2, random_seed=1)
    a = 1 - np.exp(-0.2)
    assert noisy["pixel"].dtype == train["pixel"].dtype and noisy["on"].dtype == bool
    assert set(noisy["pixel"]) <= {0, 5, 16}
    assert abs((noisy["pixel"] != 0).mean() - a * 0.4) < 0.02  # redrawn w.p. a, moved w.p. 0.4
    assert abs(noisy["on"].mean() - a * 0.3) < 0.02
    assert (noisy["x"] != test["x"]).all()  # floats keep their Gaussian noise
    gaussian = perturb(test, train, noise=0.2, integer_noise="gaussian", random_seed=1)
    assert abs(gaussian["pixel"].std() / (0.2 * train["pixel"].std()) - 1) < 0.05
    with pytest.raises(ValueError, match="integer_noise must be 'redraw'"):
        perturb(test, train, integer_noise="nominal")
    # a value the training fold lacks is always redrawn (the reference's mixture gives it no
    # weight), into a dtype that holds the training values (pandas refused 300 in an int8)
    unseen = perturb(pd.DataFrame({"c": np.int8([1] * 50)}),
                     pd.DataFrame({"c": np.int16([300, 301] * 25)}), random_seed=0)
    assert unseen["c"].dtype == np.int16 and set(unseen["c"]) == {300, 301}
    assert (perturb(pd.DataFrame({"c": [1] * 5}), pd.DataFrame({"c": [3, 4]}),
                    noise=0)["c"] == 1).all()  # no noise, no change


def test_seeds_rows_and_zero_noise(frames):
    train, test = frames
    one = perturb(test, train, nominal=["colour"], random_seed=3)
    two = perturb(test, train, nominal=["colour"], random_seed=3)
    pd.testing.assert_frame_equal(one, two)
    some = perturb(test, train, nominal=["colour"], rows=np.arange(10), random_seed=3)
    assert (some["x"].iloc[10:] == 0).all() and (some["x"].iloc[:10] != 0).all()
    assert (perturb(test, train, noise=0, nominal=["colour"])["x"] == 0).all()
    # seeded by default, as every other random function (was a new noise at every call)
    pd.testing.assert_frame_equal(perturb(test, train, nominal=["colour"]),
                                  perturb(test, train, nominal=["colour"], random_seed=0))


def test_real_benchmark_columns():
    X, _ = ie.datasets.load_letter(return_X_y=True)
    noisy = perturb(X.iloc[:100], X.iloc[100:], noise=0.2, nominal=["x-box"], random_seed=0)
    assert noisy.shape == (100, 16) and set(noisy["x-box"]) <= set(X["x-box"])
    X, _ = ie.datasets.load_wall_robot_navigation(return_X_y=True)
    assert X.shape == (5456, 24)


def test_bad_input_names_the_problem(frames):
    train, test = frames
    with pytest.raises(ValueError, match="noise must be a finite number >= 0"):
        perturb(test, train, noise=-1, nominal=["colour"])
    with pytest.raises(ValueError, match=r"nominal columns \['shape'\] are not in X"):
        perturb(test, train, nominal=["shape"])
    with pytest.raises(ValueError, match=r"columns \['colour'\] are not numeric"):
        perturb(test, train)
    with pytest.raises(ValueError, match=r"same columns; only one has \['colour'\]"):
        perturb(test[["x"]], train, nominal=[])
    pd.testing.assert_frame_equal(  # columns matched by name, not refused for their order
        perturb(test, train[train.columns[::-1]], nominal=["colour"], random_seed=0),
        perturb(test, train, nominal=["colour"], random_seed=0))
    with pytest.raises(TypeError, match="X must be a pandas DataFrame"):
        perturb(test.to_numpy(), train)
    with pytest.raises(ValueError, match="missing values"):
        perturb(test.assign(x=np.nan), train, nominal=["colour"])
    with pytest.raises(ValueError, match="X_train has 1 row"):  # its sd: NaN, no noise
        perturb(test, train.iloc[:1], nominal=["colour"])
    with pytest.raises(ValueError, match=r"X has infinite values in columns \['x'\]"):
        perturb(test.assign(x=np.inf), train, nominal=["colour"])
    with pytest.raises(ValueError, match=r"X_train has missing values in columns \['x'\]"):
        perturb(test, train.assign(x=np.nan), nominal=["colour"])
    with pytest.raises(TypeError, match=r"nominal= takes a list.*nominal=\['colour'\]"):
        perturb(test, train, nominal="colour")  # was the columns 'c', 'o', 'l', ...
    mask = np.zeros(len(test) + 1, dtype=bool)
    with pytest.raises(ValueError, match="one value per row of X"):
        perturb(test, train, nominal=["colour"], rows=mask)  # was numpy's IndexError
    with pytest.raises(ValueError, match="positions outside X's"):
        perturb(test, train, nominal=["colour"], rows=[0, len(test)])
    with pytest.raises(TypeError, match="boolean mask or integer positions"):
        perturb(test, train, nominal=["colour"], rows=["a"])
    assert perturb(test, train, nominal=["colour"], rows=[])["x"].eq(0).all()


def test_the_target_is_matched_to_the_rows_by_label():
    """cross_val_responses put y's values on X's rows by position: a y in another order gave
    its models 10% accuracy where they had 86%."""
    from irteval.robustness.folds import check_data

    X = pd.DataFrame({"a": np.arange(6.0)}, index=[f"r{i}" for i in range(6)])
    y = pd.Series([0, 1, 0, 1, 0, 1], index=X.index)
    _, matched = check_data(X, y.iloc[::-1])
    assert matched.equals(y.astype(matched.dtype))
    with pytest.raises(ValueError, match="y's index does not label X's rows"):
        check_data(X, y.set_axis(range(6)))
    nested = pd.MultiIndex.from_arrays([["s"] * 6, range(6)])  # was NotImplementedError
    assert check_data(X.set_axis(nested), y.set_axis(nested))[1].index.equals(nested)
    with pytest.raises(ValueError, match="2 rows share a label or have none"):
        check_data(X.set_axis(["a", "a", "b", "c", "d", "e"]), y.to_numpy())
    with pytest.raises(ValueError, match=r"infinite values in columns \['a'\] \(row labelled "
                                         r"'r2'\)"):  # once only after training every model
        check_data(X.assign(a=[0, 1, np.inf, 3, 4, 5.0]), y)


def test_cross_validation_refuses_one_model_and_one_fold_before_training():
    from sklearn.naive_bayes import GaussianNB

    X = pd.DataFrame(np.random.default_rng(0).normal(size=(40, 3)))
    y = pd.Series(np.arange(40) % 2)
    two = {"nb": GaussianNB(), "nb2": GaussianNB()}
    with pytest.raises(ValueError, match="one estimator makes a response matrix of one model"):
        ie.robustness.cross_val_responses({"nb": GaussianNB()}, X, y, progressbar=False)
    with pytest.raises(ValueError, match="cv=1: give a whole number of at least 2"):
        ie.robustness.cross_val_responses(two, X, y, cv=1, progressbar=False)
