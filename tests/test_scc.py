"""System Characteristic Curves on a small slice of optdigits."""

import warnings

import numpy as np
import pandas as pd
import pytest

import irteval as ie
from irteval.robustness import noisy_predictions, p_hardest_most_sensitive, scc


@pytest.fixture(scope="module")
def pipeline():
    X, y = ie.datasets.load_optdigits(return_X_y=True)
    X, y = X.iloc[:400], y.iloc[:400]
    population = {k: v for k, v in ie.robustness.zoo(population=True).items()
                  if k in ("cart_depth2", "cart_depth4", "naive_bayes", "knn_15", "lda_svd",
                           "plsda_2", "prototype", "gbm_2_3")}
    resp = ie.robustness.cross_val_responses(population, X, y, cv=5, random_state=0,
                                             progressbar=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        idata = ie.fit(ie.models.onepl(resp), draws=200, tune=300, chains=2, random_seed=0,
                       progressbar=False, log_likelihood=False)
    models = {k: v for k, v in ie.robustness.families().items()
              if k in ("cart_depth10", "knn_3", "naive_bayes")}
    clean, noisy = noisy_predictions(models, X, y, noise=0.5, random_state=0,
                                     progressbar=False)
    return idata, clean, noisy


def test_kappa_is_one_without_noise_and_falls_with_it(pipeline):
    idata, clean, noisy = pipeline
    table = scc(idata, clean, noisy, max_draws=30, progressbar=False)
    assert table.index.names == ["model", "bin", "proportion"] and len(table) == 3 * 5 * 6
    assert (table.xs(0.0, level="proportion")[["kappa", "agreement", "macro_f1"]] == 1).all().all()
    by_p = table["kappa"].groupby(level="proportion").mean()
    assert by_p.is_monotonic_decreasing and by_p[1.0] < 0.95
    assert (table["kappa_lower"] <= table["kappa"] + 1e-12).all()
    assert table.attrs["kappa_draws"].shape == (3, 5, 6, 30)
    p = p_hardest_most_sensitive(table)
    assert list(p.index) == list(clean.columns) and p.between(0, 1).all()


def test_noisy_predictions_are_seeded(pipeline):
    _, clean, noisy = pipeline
    X, y = ie.datasets.load_optdigits(return_X_y=True)
    model = {"naive_bayes": ie.robustness.families()["naive_bayes"]}
    again = noisy_predictions(model, X.iloc[:400], y.iloc[:400], noise=0.5, random_state=0,
                              progressbar=False)
    pd.testing.assert_frame_equal(again[1], noisy[["naive_bayes"]])
    assert (again[0]["naive_bayes"] == clean["naive_bayes"]).all()


def test_bad_input(pipeline):
    idata, clean, noisy = pipeline
    with pytest.raises(ValueError, match="do not match"):
        scc(idata, clean.iloc[1:], noisy.iloc[1:], progressbar=False)
    with pytest.raises(ValueError, match=r"proportions must lie in \[0, 1\]"):
        scc(idata, clean, noisy, proportions=[0, 1.5], progressbar=False)
    X, y = ie.datasets.load_optdigits(return_X_y=True)
    with pytest.raises(ValueError, match="eps must be a finite number >= 0"):
        noisy_predictions({"nb": ie.robustness.families()["naive_bayes"]}, X.iloc[:100],
                          y.iloc[:100], noise=-0.1, progressbar=False)
    with pytest.raises(TypeError, match="X must be a pandas DataFrame"):
        noisy_predictions({"nb": None}, X.to_numpy(), y)
    table = scc(idata, clean, noisy, max_draws=5, progressbar=False)
    with pytest.raises(ValueError, match="proportion 0.5 is not in the table"):
        p_hardest_most_sensitive(table, proportion=0.5)
    assert np.isfinite(table["kappa"]).all()
