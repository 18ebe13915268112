"""The 3PL / 4PL (issue 18): a floor c (guessing) and a ceiling d (slip) on the 2PL: bad input,
an end-to-end fit with every downstream summary, a short SBC, and recovery (slow)."""

from functools import partial

import numpy as np
import pytest
from scipy import stats

import irteval as ie
from irteval import calibration as cal

from .conftest import quiet_fit


def test_bad_input_is_named():
    resp, _, _ = cal.simulate_onepl(6, 5, np.random.default_rng(0), discrimination=True)
    with pytest.raises(ValueError, match="n_options must be an integer >= 2.*nothing to guess"):
        ie.models.onepl(resp, discrimination=True, guessing=True, n_options=1)
    with pytest.raises(ValueError, match="pass guessing=True"):
        ie.models.onepl(resp, discrimination=True, n_options=4)
    with pytest.raises(ValueError, match="pass discrimination=True"):
        ie.models.onepl(resp, guessing=True)
    with pytest.raises(ValueError, match="pass discrimination=True"):
        ie.models.onepl(resp, slip=True)
    with pytest.raises(ValueError, match="batch_size="):
        ie.models.onepl(resp, discrimination=True, slip=True, batch_size=5)
    with pytest.raises(ValueError, match="not available for the 3PL/4PL"):
        ie.fit(ie.models.onepl(resp, discrimination=True, guessing=True), method="map")
    with pytest.raises(TypeError, match="guessing= is True or False, got 0.25.*n_options="):
        ie.models.onepl(resp, discrimination=True, guessing=0.25)  # was a 3PL with its prior
    with pytest.raises(TypeError, match="discrimination= is True or False, got '2pl'"):
        ie.models.onepl(resp, discrimination="2pl")
    with pytest.raises(TypeError, match="anchors= is a list of 2 item labels"):  # its name
        ie.models.onepl(resp, discrimination=True, dims=2, anchors="ab")  # not ['a', 'b']
    with pytest.raises(ValueError, match="centred= sets the form.*pass discrimination=True"):
        ie.models.onepl(resp, centred=True)
    for centred in ("yes", None):
        with pytest.raises(TypeError, match=f"centred= is True or False, got {centred!r} "
                                            r"\(default False\)"):
            ie.models.onepl(resp, discrimination=True, centred=centred)
    for centred in (True, None):
        with pytest.raises(ValueError, match="centred= sets the form of the one-skill.*drop it"):
            ie.models.onepl(resp, discrimination=True, dims=2, centred=centred)


@pytest.mark.parametrize("missing", [False, True])
def test_3pl_likelihood_is_finite_far_out_and_advi_runs(missing):
    """p = c + (1 - c) logistic(eta) rounds to 1 for eta above ~37, so a wrong answer's
    log(1 - p) was -inf in the PyMC graph: ADVI on the 3PL stopped with NaN every time. Its
    gradient there was NaN, as the 2PL's and the two-skill 2PL's (PyMC's Bernoulli goes
    through p)."""
    rng = np.random.default_rng(0)
    resp, _, _ = cal.simulate_onepl(12, 40, rng, discrimination=True, guessing=True,
                                    n_options=4)
    if missing:
        long = resp.to_long()
        resp = ie.Responses.from_long(long.sample(frac=0.9, random_state=0),
                                      respondent="respondent", item="item", value="value")
    model = ie.models.onepl(resp, discrimination=True, guessing=True, n_options=4)
    point = model.initial_point()
    point["theta_zerosum__"] = point["theta_zerosum__"] + 200.0 * (np.arange(
        len(point["theta_zerosum__"])) % 2 - 0.5)  # |theta| ~ 100: eta far beyond 37
    logp = model.compile_logp(vars=[model["y"]])(point)
    c, b, a, theta = model.compile_fn(model.replace_rvs_by_values(
        [model[name] for name in ("c", "b", "a", "theta")]), inputs=model.value_vars,
        on_unused_input="ignore")(point)
    eta = a[resp.item_idx] * (theta[resp.respondent_idx] - b[resp.item_idx])
    floor = c[resp.item_idx]
    direct = np.where(resp.values == 1,
                      np.log(floor + (1 - floor) * stats.logistic.cdf(eta)),
                      np.log1p(-floor) + stats.logistic.logsf(eta))
    assert np.isfinite(logp) and logp == pytest.approx(direct.sum(), rel=1e-9)
    assert np.isfinite(model.compile_dlogp()(point)).all()
    two_pl = ie.models.onepl(resp, discrimination=True)
    assert np.isfinite(two_pl.compile_dlogp()(
        {k: v for k, v in point.items() if k in two_pl.initial_point()})).all()
    two_skills = ie.models.onepl(resp, discrimination=True, dims=2)
    far = two_skills.initial_point() | {
        "theta_zerosum__": np.tile(point["theta_zerosum__"], (2, 1)), "a": np.ones((12, 2))}
    assert np.isfinite(two_skills.compile_dlogp()(far)).all()
    point["c_logodds__"] = point["c_logodds__"] * 0 - 40.0  # c ~ 4e-18, far below eta's floor
    point["b"] = point["b"] * 0 + 60.0
    point["theta_zerosum__"] = point["theta_zerosum__"] * 0.0
    right = model.compile_logp(vars=[model["y"]])(point) / resp.values.sum()
    assert right == pytest.approx(-40.0, abs=1e-6)  # log c: every answer right, eta ~ -60
    if not missing:  # ADVI's graph is the longest compilation of the suite (~60 s cold)
        idata = ie.fit(model, method="advi", advi_iterations=2000, draws=50, chains=2,
                       random_seed=0, progressbar=False)
        assert np.isfinite(idata.posterior["c"]).all()


@pytest.fixture(scope="module")
def four_pl():
    resp, truth, _ = cal.simulate_onepl(12, 40, np.random.default_rng(2), discrimination=True,
                                        guessing=True, n_options=4, slip=True)
    idata = quiet_fit(ie.models.onepl(resp, discrimination=True, guessing=True, n_options=4,
                                      slip=True),
                      draws=200, tune=300, chains=2, random_seed=2, posterior_predictive=True)
    return resp, idata


def test_4pl_fit_and_its_summaries(four_pl):
    resp, idata = four_pl
    post = idata.posterior
    assert idata.attrs["irteval_model"] == "4pl" and idata.attrs["n_options"] == 4
    assert {"c", "slip", "d"} <= set(post.data_vars)
    assert (post["c"] < post["d"]).all() and list(post["c"]["item"].values[:2]) == ["i0", "i1"]
    np.testing.assert_allclose(post["d"], 1 - post["slip"] * (1 - post["c"]))
    assert idata.posterior_predictive["accuracy"].sizes["respondent"] == 40
    # every downstream summary reads the asymptotes
    fitted = ie.irt.item_draws.Items.from_idata(idata, "test", max_draws=50)
    p = fitted.p_correct(np.full((50, 1), -1e6))
    np.testing.assert_allclose(p, fitted.c, atol=1e-6)  # no ability: the floor
    assert len(ie.item_fit(idata)) == 12 and len(ie.information(idata)) == 61
    q3, top = ie.local_dependence(idata), ie.local_dependence(idata, top=3)  # floors per cell
    assert [q3.loc[i, j] for i, j in top.index] == pytest.approx(top["q3"].tolist(), abs=1e-12)
    table = ie.difficulty(idata, ci_kind="eti")  # each item's a, c and d beside its b
    for name in ("a", "c", "d"):
        draws = post[name].stack(s=("chain", "draw")).values
        np.testing.assert_allclose(table[name], draws.mean(axis=1))
        np.testing.assert_allclose(table[f"{name}_upper"], np.quantile(draws, 0.97, axis=1))
    assert list(table.columns[-3:]) == ["d", "d_lower", "d_upper"]
    curves = ie.characteristic_curves(idata)
    assert curves["predicted"].between(0, 1).all()
    score = ie.score_new_model(idata, {"i0": 1, "i1": 0, "i2": 1})
    assert 0 < float(score.accuracy.mean()) < 1


@pytest.mark.filterwarnings("ignore:.*identified only by the prior")
def test_sbc_3pl_is_uniform():
    """8 replicates of 10 items x 25 respondents from the 3PL's prior (4 options), the
    default path (nutpie on the NumPy density); L = 49; ranks of every c, b and a pooled per
    variable (5 bins, chi-square) and the hyperparameters Holm-adjusted."""
    n_keep = 49
    ranks, diagnostics = cal.run(
        partial(cal.simulate_onepl, 10, 25, discrimination=True, guessing=True, n_options=4),
        partial(ie.models.onepl, discrimination=True, guessing=True, n_options=4), 8, random_seed=5,
        n_keep=n_keep, draws=150, tune=250, chains=2)
    assert set(diagnostics["sampler"]) == {"nuts:nutpie"}
    for name in ("c", "b", "a"):
        block = ranks[[col for col in ranks.columns if col.startswith(f"{name}[")]].to_numpy()
        pooled = np.bincount(block.ravel() * 5 // (n_keep + 1), minlength=5)
        assert stats.chisquare(pooled).pvalue > 0.001, (name, pooled)


@pytest.mark.slow
@pytest.mark.parametrize("slip", [False, True])
def test_3pl_and_4pl_recover_the_truth(slip):
    """1000 respondents x 30 items of simulated multiple choice (3PL, c ~ Beta(5, 15); or the
    4PL), as ``benchmarks/threepl.py`` (the same seed): 90% intervals of b, a, c (and d) cover
    the truth for 84-96% of the items pooled, R-hat <= 1.01 for every parameter (4 x 2000
    draws: at 4 x 1000 the 3PL's abilities reached 1.013), no divergences."""
    resp, truth = cal.simulate_multiple_choice(30, 1000, np.random.default_rng(0), slip=slip)
    idata = quiet_fit(ie.models.onepl(resp, discrimination=True, guessing=True, n_options=4,
                                      slip=slip), draws=2000, random_seed=0)
    kinds = ["b", "a", "c"] + (["d"] if slip else [])
    covered = []
    for kind in kinds:
        draws = idata.posterior[kind].stack(s=("chain", "draw")).values
        lo, hi = np.quantile(draws, [0.05, 0.95], axis=1)
        covered.append((lo <= truth[kind]) & (truth[kind] <= hi))
    assert 0.84 <= np.concatenate(covered).mean() <= 0.96
    assert idata.attrs["max_rhat"] <= 1.01 and idata.attrs["divergences"] == 0
