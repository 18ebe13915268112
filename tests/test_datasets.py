import numpy as np
import pytest

import irteval as ie


def test_optdigits_features():
    X, y = ie.datasets.load_optdigits(return_X_y=True)
    assert X.shape == (5620, 64) and sorted(y.unique()) == list(range(10))


@pytest.mark.parametrize("name, n", [("optdigits", 5620), ("letter", 20000),
                                     ("wall_robot_navigation", 5456)])
def test_bundled_responses_are_a_real_zoo(name, n):
    X, _ = ie.datasets.BENCHMARKS[name](return_X_y=True)
    wide = ie.datasets.load_responses(name, as_frame=True)
    assert wide.shape == (n, 58) and set(np.unique(wide.to_numpy())) == {0, 1}
    assert wide.index.equals(X.index)  # one row per instance, in the data's order
    families = {ie.robustness.family_of(model) for model in wide.columns}
    assert len(families) == len(ie.robustness.FAMILIES) == 17
    acc = wide.mean()
    assert acc.min() < 0.5 and acc.max() > 0.95  # weak and strong models both present
    resp = ie.datasets.load_responses(name)
    assert resp.n_obs == n * 58 and resp.item_name == "instance"
    with pytest.raises(ValueError, match="unknown benchmark"):
        ie.datasets.load_responses("mnist")


def test_optdigits_responses_alias():
    assert ie.datasets.load_optdigits_responses(as_frame=True).equals(
        ie.datasets.load_responses("optdigits", as_frame=True))


def test_bundled_frames_read_the_right_way_round():
    """The frames have one row per instance; from_wide's own default is a row per
    respondent, and read them as 58 items x 5620 respondents without a word."""
    wide = ie.datasets.load_responses("optdigits", as_frame=True)
    resp = ie.Responses.from_wide(wide.iloc[:40])
    assert (resp.n_items, resp.n_respondents) == (40, 58)
    assert resp.item_name == "instance" and resp.respondent_name == "model"
    flipped = ie.Responses.from_wide(wide.iloc[:40].T)  # models as rows: the plain default
    assert (flipped.n_items, flipped.n_respondents) == (40, 58)
    assert (flipped.item_name, flipped.respondent_name) == ("instance", "model")  # axis names
    asked = ie.Responses.from_wide(wide.iloc[:40], rows="respondent")  # the user's say wins
    assert (asked.n_items, asked.item_name, asked.respondent_name) == (58, "model", "instance")


def test_cross_val_responses_is_seeded_and_labelled():
    X, y = ie.datasets.load_optdigits(return_X_y=True)
    X, y = X.iloc[:300], y.iloc[:300]
    zoo = {k: v for k, v in ie.robustness.zoo().items() if k in ("naive_bayes", "cart_depth10")}
    one = ie.robustness.cross_val_responses(zoo, X, y, cv=3, random_seed=1, progressbar=False)
    two = ie.robustness.cross_val_responses(zoo, X, y, cv=3, random_seed=1, progressbar=False)
    assert list(one.respondents) == ["cart_depth10", "naive_bayes"]
    assert one.n_items == 300 and (one.values == two.values).all()
    assert one.item_name == "instance"
    named = ie.robustness.cross_val_responses(zoo, X.rename_axis("image"), y, cv=3,
                                              random_seed=1, progressbar=False)
    assert named.item_name == "image"  # the user's index name (was renamed 'instance')
