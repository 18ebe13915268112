"""Parameter recovery on data simulated from the model (acceptance of issue 2)."""

import arviz as az
import numpy as np
import pytest

import irteval as ie

from .conftest import quiet_fit, simulate


def coverage(table, truth):
    inside = (table["hdi_lower"] <= truth) & (truth <= table["hdi_upper"])
    return inside.mean()


def assert_converged(idata):
    assert idata.attrs["divergences"] == 0
    assert idata.attrs["max_rhat"] <= 1.01


def test_1pl_collapsed_covers_truth(sim_1pl, fit_1pl):
    resp, truth = sim_1pl
    assert fit_1pl.attrs["collapsed"] == 1
    assert_converged(fit_1pl)
    table = ie.difficulty(fit_1pl, ci_prob=0.9)
    assert 0.84 <= coverage(table, truth["b"]) <= 0.96
    assert np.corrcoef(table["mean"], truth["b"])[0, 1] > 0.9
    theta = fit_1pl.posterior["theta"].mean(("chain", "draw")).values
    assert np.corrcoef(theta, truth["theta"])[0, 1] > 0.97


def test_collapsed_matches_full_nuts(sim_1pl, fit_1pl):
    """The exact collapsed sampler and NUTS on the full model give the same posterior."""
    resp, _ = sim_1pl
    full = quiet_fit(ie.models.onepl(resp), draws=1000, tune=1000, chains=2, random_seed=3,
                     collapse=False, log_likelihood=False)
    assert "collapsed" not in full.attrs
    a, b = ie.difficulty(fit_1pl), ie.difficulty(full)
    assert np.abs(a["mean"] - b["mean"]).max() < 0.15
    assert np.abs(a["sd"] - b["sd"]).max() < 0.1
    for name in ("mu_b", "sigma_b", "sigma_theta"):
        x, y = fit_1pl.posterior[name], full.posterior[name]
        assert abs(float(x.mean() - y.mean())) < 0.25 * float(x.std())


def test_1pl_with_missing_cells_covers_truth():
    resp, truth = simulate(300, 30, missing=0.2, seed=4)
    assert resp.n_obs < 0.85 * 300 * 30
    idata = ie.fit(ie.models.onepl(resp), draws=1000, tune=1000, chains=4, random_seed=4,
                   progressbar=False, log_likelihood=False)
    assert "obs" in idata.observed_data["y"].dims
    assert_converged(idata)
    assert 0.84 <= coverage(ie.difficulty(idata, ci_prob=0.9), truth["b"]) <= 0.96


def test_2pl_recovers_difficulty_and_discrimination():
    """30 binary answers per instance carry little information on its discrimination: at
    log a ~ N(0, 0.7) the correlation of log a with the truth was 0.76-0.79 (two seeds); at
    N(0, 1), discriminations from 0.14 to 7 as when some instances are label noise, 0.86.
    sigma_b mixes slowest (bulk ESS 250-390 of 4 x 1000 draws, R-hat 1.008-1.013 over two
    seeds), hence 4 x 2000 draws (R-hat 1.005, ESS 626)."""
    resp, truth = simulate(300, 30, discrimination=True, seed=5, sd_log_a=1.0)
    idata = ie.fit(ie.models.onepl(resp, discrimination=True), draws=2000, tune=1000,
                   chains=4, random_seed=5, progressbar=False, log_likelihood=False)
    assert_converged(idata)
    assert 0.84 <= coverage(ie.difficulty(idata, ci_prob=0.9), truth["b"]) <= 0.96
    log_a = np.log(idata.posterior["a"])
    assert np.corrcoef(log_a.mean(("chain", "draw")), np.log(truth["a"]))[0, 1] >= 0.8
    hdi = az.hdi(log_a, hdi_prob=0.9)["a"].values
    inside = (hdi[:, 0] <= np.log(truth["a"])) & (np.log(truth["a"]) <= hdi[:, 1])
    assert 0.84 <= inside.mean() <= 0.96


def test_2pl_with_many_answers_per_item_recovers_its_discriminations():
    """With hundreds of answers per instance the discriminations are pinned by the data and
    ``centred=True`` is the form to use: 90% intervals of b and log a cover the truth at
    about their level, and sigma_log_a has mixed (the non-centred form had R-hat 1.00-1.02 and
    a bulk ESS of 129-408 of 4000 at 1000-2000 answers: benchmarks/README.md)."""
    resp, truth = simulate(60, 400, discrimination=True, seed=6, sd_log_a=0.5)
    model = ie.models.onepl(resp, discrimination=True, centred=True)
    idata = ie.fit(model, random_seed=6, progressbar=False, log_likelihood=False,
                   posterior_predictive=False)
    assert_converged(idata)
    assert az.ess(idata, var_names=["sigma_log_a"])["sigma_log_a"] > 1500
    assert 0.8 <= coverage(ie.difficulty(idata, ci_prob=0.9), truth["b"]) <= 1.0
    hdi = az.hdi(np.log(idata.posterior["a"]), hdi_prob=0.9)["a"].values
    inside = (hdi[:, 0] <= np.log(truth["a"])) & (np.log(truth["a"]) <= hdi[:, 1])
    assert 0.8 <= inside.mean() <= 1.0


@pytest.mark.slow
def test_bundled_optdigits_converges_and_tracks_error_rate():
    from scipy.stats import spearmanr

    idata = ie.fit(ie.models.onepl(ie.datasets.load_optdigits_responses()), random_seed=0,
                   progressbar=False, log_likelihood=False)
    assert_converged(idata)
    table = ie.difficulty(idata)
    assert spearmanr(table["mean"], 1 - table["accuracy"]).statistic >= 0.95
