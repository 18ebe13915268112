import numpy as np

import irteval as ie


def test_optdigits_features():
    X, y = ie.datasets.load_optdigits(return_X_y=True)
    assert X.shape == (5620, 64) and sorted(y.unique()) == list(range(10))


def test_optdigits_responses_are_a_real_zoo():
    wide = ie.datasets.load_optdigits_responses(as_frame=True)
    assert wide.shape == (5620, 58) and set(np.unique(wide.to_numpy())) == {0, 1}
    families = {ie.robustness.family_of(name) for name in wide.columns}
    assert len(wide.columns) >= 40 and len(families) >= 10
    acc = wide.mean()
    assert acc.min() < 0.5 < 0.98 < acc.max()  # weak and strong models both present
    resp = ie.datasets.load_optdigits_responses()
    assert resp.n_obs == 5620 * 58 and resp.item_name == "instance"


def test_cross_val_responses_is_seeded_and_labelled():
    X, y = ie.datasets.load_optdigits(return_X_y=True)
    X, y = X.iloc[:300], y.iloc[:300]
    zoo = {k: v for k, v in ie.robustness.zoo().items() if k in ("naive_bayes", "cart_depth10")}
    one = ie.robustness.cross_val_responses(zoo, X, y, cv=3, random_state=1, progressbar=False)
    two = ie.robustness.cross_val_responses(zoo, X, y, cv=3, random_state=1, progressbar=False)
    assert list(one.respondents) == ["cart_depth10", "naive_bayes"]
    assert one.n_items == 300 and (one.values == two.values).all()
