"""What a new user meets in the first hour (issue 13): defaults that fit a laptop, quiet fits,
numbers printed with the digits they need, and the small conveniences."""

import importlib
import logging
import warnings

import arviz as az
import numpy as np
import pandas as pd
import pytest
import xarray as xr

import irteval as ie
from irteval import calibration as cal
from irteval.inference.diagnostics import as_compared

from .conftest import quiet_fit, simulate

fit_module = importlib.import_module("irteval.inference.fit")  # the module, not the function


def test_a_large_log_likelihood_is_skipped_with_one_line_saying_how(monkeypatch):
    resp, _ = simulate(30, 5, seed=1)
    monkeypatch.setattr(fit_module, "LOG_LIKELIHOOD_MAX", 1000)  # 2 x 50 draws x 150 cells
    with pytest.warns(UserWarning, match=r"log-likelihood was not stored: 100 draws x 150 "
                                         r"observations would take 0 MB, above the 0 MB "
                                         r"stored by default; .* log_likelihood=True .* "
                                         r"irteval.add_log_likelihood\(idata, model\)"):
        idata = ie.fit(ie.models.onepl(resp), draws=50, tune=50, chains=2, random_seed=0,
                       progressbar=False)
    assert "log_likelihood" not in idata.groups()
    assert fit_module._megabytes(238e6) == "238 MB" and fit_module._megabytes(1.04e10) == "10.4 GB"
    forced = quiet_fit(ie.models.onepl(resp), draws=50, tune=50, chains=2, random_seed=0,
                       log_likelihood=True)
    assert forced.log_likelihood["y"].shape == (2, 50, 30, 5)
    later = ie.add_log_likelihood(idata, ie.models.onepl(resp), progressbar=False)
    xr.testing.assert_allclose(later.log_likelihood["y"], forced.log_likelihood["y"])
    with pytest.raises(ValueError, match="already has a log_likelihood group; del idata"):
        ie.add_log_likelihood(idata, ie.models.onepl(resp))
    point = quiet_fit(ie.models.onepl(resp), method="map", random_seed=0)
    with pytest.raises(ValueError, match="MAP fit is one point, and az.loo needs posterior"):
        ie.add_log_likelihood(point, ie.models.onepl(resp))


def test_replicated_data_added_later_equal_those_of_the_fit():
    """A fit without posterior_predictive (a CLI's posterior.nc) gets the model's replicates
    and checks later: the same draws as fit(..., posterior_predictive=True) with its seed."""
    resp, _ = simulate(30, 5, seed=1, missing=0.2)
    model = ie.models.onepl(resp)
    kw = dict(draws=50, tune=50, chains=2, random_seed=4, log_likelihood=False,
              posterior_predictive=False)
    asked = quiet_fit(model, **{**kw, "posterior_predictive": True})
    later = ie.add_posterior_predictive(quiet_fit(model, **kw), model, progressbar=False)
    xr.testing.assert_identical(later.posterior_predictive.drop_attrs(),
                                asked.posterior_predictive.drop_attrs())
    assert {"accuracy", "n_correct"} <= set(later.observed_data)  # az.plot_ppc's pairs
    assert later.posterior_predictive["obs_item"].values[0] in resp.items
    with pytest.raises(ValueError, match="already has a posterior_predictive group"):
        ie.add_posterior_predictive(later, model)
    point = quiet_fit(model, method="map", random_seed=0)
    with pytest.raises(ValueError, match="a MAP fit is one point"):
        ie.add_posterior_predictive(point, model)
    fresh = quiet_fit(model, **kw)  # a model of other data gave wrong numbers, no error
    names = dict(respondent="model", item="instance", value="value")
    reordered = ie.Responses.from_long(resp.to_long().iloc[::-1], **names)
    with pytest.raises(ValueError, match=r"the model's item labels are not the fit's "
                       r"\(position 0: 'i29' against 'i0'\)"):
        ie.add_posterior_predictive(fresh, ie.models.onepl(reordered))
    fewer = resp.subset(items=list(resp.items[:20]))  # the labels' counts, not two lists alike
    with pytest.raises(ValueError, match=r"item labels are not the fit's \(20 labels against 30"):
        ie.add_log_likelihood(fresh, ie.models.onepl(fewer))
    other = ie.Responses.from_long(resp.to_long().assign(value=lambda d: 1 - d["value"]),
                                   **names)
    with pytest.raises(ValueError, match="the model's observed 'y' is not the fit's"):
        ie.add_log_likelihood(fresh, ie.models.onepl(other))
    # another model of the same data: xarray's KeyError 'a_z' (or 'strength')
    with pytest.raises(ValueError, match=r"the fit's posterior has no \['sigma_log_a', 'a_z'\] "
                       r"of this model; the fit was made with irteval_model='1pl' \(this "
                       r"model: '2pl'\)"):
        ie.add_log_likelihood(fresh, ie.models.onepl(resp, discrimination=True))
    vtab = ie.models.bradley_terry(ie.datasets.load_vtab())
    with pytest.raises(ValueError, match="the fit is a binary_irt fit and the model a "
                                         "bradley_terry one"):
        ie.add_posterior_predictive(fresh, vtab)


def test_a_log_likelihood_added_later_keeps_the_cell_labels():
    """pm.compute_log_likelihood numbers the cells of a matrix with missing answers 0, 1, ...:
    add_log_likelihood labels them as fit does."""
    resp, _ = simulate(30, 5, seed=1, missing=0.2)
    model = ie.models.onepl(resp)
    kw = dict(draws=50, tune=50, chains=2, random_seed=0)
    forced = quiet_fit(model, log_likelihood=True, **kw)
    later = ie.add_log_likelihood(quiet_fit(model, log_likelihood=False, **kw), model,
                                  progressbar=False)
    xr.testing.assert_allclose(later.log_likelihood, forced.log_likelihood)
    assert set(later.log_likelihood["y"].coords) >= {"obs_item", "obs_respondent"}
    assert later.log_likelihood["obs_item"].values[0] in resp.items
    with pytest.raises(ValueError, match="log_likelihood must be 'auto', True or False"):
        ie.fit(ie.models.onepl(resp), log_likelihood="yes")
    with pytest.raises(ValueError, match="log_likelihood must be 'auto', True or False, got 1"):
        ie.fit(ie.models.onepl(resp), log_likelihood=1)  # was taken as "auto"
    for keyword in ("collapse", "keep_warmup", "progressbar"):  # the text "False" was true
        with pytest.raises(TypeError, match=f"{keyword}= is True or False, got 'False'"):
            ie.fit(ie.models.onepl(resp), **{keyword: "False"})


def test_warm_up_draws_are_dropped_unless_asked():
    pytest.importorskip("nutpie")
    wide = pd.DataFrame(np.random.default_rng(0).uniform(0.1, 0.9, (30, 3)), columns=list("abc"))
    model = ie.models.continuous_irt(ie.Responses.from_wide(wide, kind="continuous"))
    kw = dict(draws=50, tune=50, chains=2, random_seed=0, log_likelihood=False)
    assert not [g for g in quiet_fit(model, **kw).groups() if g.startswith("warmup")]
    kept = quiet_fit(model, keep_warmup=True, **kw)
    assert "warmup_posterior" in kept.groups()
    assert "s_log__" not in kept.posterior  # nutpie's unconstrained draws are not kept
    assert kept.warmup_posterior.sizes["draw"] == 50
    kept = quiet_fit(model, keep_warmup=True, sampler="pymc", **kw)  # dropped before
    assert kept.warmup_posterior.sizes["draw"] == 50
    resp, _ = simulate(150, 5, seed=2)  # the collapsed 1PL draws b after sampling: it says so
    with pytest.warns(UserWarning, match="collapse=False, keep_warmup=True"):
        ie.fit(ie.models.onepl(resp), keep_warmup=True, progressbar=False, **kw)


def test_a_model_after_a_plain_posterior_predictive_is_refused_with_the_fix():
    """pm.sample_posterior_predictive without var_names lists the observed variables again
    (PyMC 5.28); the next fit failed with "Cannot convert None to a tensor variable"."""
    import pymc as pm

    battles, _, _ = cal.simulate_battles(5, 100, np.random.default_rng(12))
    model = ie.models.bradley_terry(battles, likelihood="davidson")
    idata = quiet_fit(model, draws=50, tune=50, chains=2, random_seed=0)
    pm.sample_posterior_predictive(idata, model=model, progressbar=False)
    with pytest.raises(ValueError, match=r"twice.*model.copy\(\).*var_names=\['outcomes'\]"):
        ie.fit(model, method="advi")
    assert quiet_fit(model.copy(), method="map").posterior.sizes["draw"] == 1


def test_a_fit_without_progress_bar_prints_nothing_but_its_warnings(caplog, capsys):
    resp, _ = simulate(20, 4, seed=2)
    with caplog.at_level(logging.INFO, logger="pymc"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ie.fit(ie.models.onepl(resp), draws=30, tune=30, chains=2, random_seed=0,
               sampler="pymc", collapse=False, progressbar=False)
        ie.fit(ie.models.onepl(resp), method="advi", advi_iterations=200, draws=30, chains=2,
               random_seed=0, progressbar=False)  # printed "Finished [100%]: Average Loss"
    assert not [r for r in caplog.records if "NUTS" in r.getMessage()
                or "Average Loss" in r.getMessage()]
    out = capsys.readouterr()
    assert out.out == "" and "Initializing" not in out.err


def test_numbers_are_printed_with_the_digits_they_need():
    assert as_compared(1.0104, 1.01) == "1.0104"  # not "1.010 > 1.01"
    assert float(as_compared(1.01001, 1.01)) > 1.01
    assert as_compared(1.0096, 1.01) == as_compared(1.01, 1.01) == "1.010"  # not above
    wide = pd.DataFrame(np.ones((20, 16)), columns=[f"m{k}" for k in range(16)])
    wide.iloc[0, 0] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        resp = ie.Responses.from_wide(wide, rows="item")
    assert "319 observed cells (99.7%)" in repr(resp)


def test_the_default_portfolio_fit_passes_its_own_checks():
    """MiniZinc's near-Heywood residual scales: the continuous model's defaults (2000 warm-up
    steps and draws) reach a tail ESS of 400 (measured 459 with nutpie, seed 0)."""
    spec = ie.models.continuous_irt(ie.datasets.load_csp_minizinc())
    assert (spec.default_draws, spec.default_tune) == (2000, 2000)
    assert ie.models.onepl(simulate(10, 3)[0]).default_draws == 1000


def test_abilities_table():
    resp, truth = simulate(60, 8, seed=4)
    idata = quiet_fit(ie.models.onepl(resp), draws=200, tune=300, chains=2, random_seed=1)
    table = ie.abilities(idata)
    assert set(table.index) == set(resp.respondents) and table.index.name == "model"
    assert table["mean"].is_monotonic_decreasing and table.attrs["ci_kind"] == "hdi"
    assert {"hdi_lower", "hdi_upper", "n_obs", "accuracy"} <= set(table)
    assert np.corrcoef(table.loc[resp.respondents, "mean"], truth["theta"])[0, 1] > 0.9


def test_compare_models_checks_what_it_compares():
    resp, _ = simulate(40, 6, seed=5, discrimination=True)
    kw = dict(draws=150, tune=200, chains=2, random_seed=2, log_likelihood=True)
    one = quiet_fit(ie.models.onepl(resp), **kw)
    two = quiet_fit(ie.models.onepl(resp, discrimination=True), **kw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = ie.compare_models({"1pl": one, "2pl": two})
    assert set(table.index) == {"1pl", "2pl"} and {"elpd_loo", "dse", "weight"} <= set(table)
    # ArviZ's threshold for 300 draws, 1 - 1/log10(300) (a fixed 0.7 missed 2 of the 1PL's)
    good_k = 1 - 1 / np.log10(300)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bad = {k: int((az.loo(f, pointwise=True).pareto_k.values > good_k).sum())
               for k, f in {"1pl": one, "2pl": two}.items()}
    assert [c.split(" terms,")[0] for c in table.attrs["caveats"] if "Pareto" in c] == [
        f"{k}: Pareto k > 0.60 for {n} of 240" for k, n in bad.items() if n]
    assert any(bad.values())
    unconverged = two.copy()  # a fit that failed its checks is named (it was ranked in silence)
    unconverged.attrs.update(max_rhat=1.0123, divergences=1, min_ess_bulk=900, min_ess_tail=900)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        caveats = ie.compare_models({"1pl": one, "2pl": unconverged}).attrs["caveats"]
    failed = [c for c in caveats if c.startswith("2pl: its fit failed the NUTS diagnostics")]
    assert failed[0].startswith("2pl: its fit failed the NUTS diagnostics (max R-hat 1.012, 1 "
                                "divergence), so its elpd comes from draws")
    assert failed[0] in [str(w.message) for w in caught]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        deviance = ie.compare_models({"1pl": one, "2pl": two}, scale="deviance")
    np.testing.assert_allclose(deviance["elpd_loo"].sort_index(),  # scale= was ignored
                               -2 * table["elpd_loo"].sort_index())
    with warnings.catch_warnings(record=True) as caught:  # ArviZ's WAIC warning, word for
        warnings.simplefilter("always")  # word and once per fit, named no fit
        waic = ie.compare_models({"1pl": one, "2pl": two}, ic="waic")
    said = [str(w.message) for w in caught]
    assert not any("posterior variance of the log predictive densities" in m for m in said)
    variance = {k: int((f.log_likelihood["y"].var(("chain", "draw")) > 0.4).sum())
                for k, f in {"1pl": one, "2pl": two}.items()}
    assert [c.split(" terms,")[0] for c in waic.attrs["caveats"] if "WAIC" in c] == [
        f"{k}: the posterior variance of the log-likelihood exceeds 0.4 for {n} of 240"
        for k, n in variance.items() if n]
    assert waic.attrs["caveats"] and set(waic.attrs["caveats"]) <= set(said)
    wide = resp.to_wide(rows="item")
    shuffled = ie.Responses.from_wide(wide.iloc[::-1], rows="item")
    reordered = quiet_fit(ie.models.onepl(shuffled), **kw)
    with pytest.raises(ValueError, match="the same labels with the same values, in another"):
        ie.compare_models({"1pl": one, "reordered": reordered})
    other = quiet_fit(ie.models.onepl(simulate(40, 6, seed=6)[0]), **kw)
    with pytest.raises(ValueError, match="fitted to different data") as error:
        ie.compare_models({"1pl": one, "other": other})
    assert "another order" not in str(error.value)  # other answers, not other order
    bare = quiet_fit(ie.models.onepl(resp), draws=50, tune=50, chains=2, log_likelihood=False)
    with pytest.raises(ValueError, match=r"fits\['bare'\] has no pointwise log-likelihood"):
        ie.compare_models({"1pl": one, "bare": bare})
    scores = ie.datasets.load_vtab()
    pl, pairwise = (quiet_fit(ie.models.bradley_terry(scores, likelihood=lik), method="laplace",
                              draws=50, chains=2, log_likelihood=True)
                    for lik in ("plackett_luce", "pairwise"))
    with pytest.raises(ValueError, match="log-likelihoods over different observations"):
        ie.compare_models({"pl": pl, "pairwise": pairwise})
    with pytest.raises(ValueError, match="at least two fits"):
        ie.compare_models({"1pl": one})
    with pytest.raises(ValueError, match=r"ic='LOO': give ic='loo'"):  # not WAIC in silence
        ie.compare_models({"1pl": one, "2pl": two}, ic="LOO")


def test_load_results_sub_folders_as_keys_and_attributes(tmp_path):
    from irteval.cli import main

    resp, _ = simulate(20, 4, seed=3)
    resp.to_long().rename(columns={"value": "correct"}).to_csv(tmp_path / "r.csv", index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["difficulty", str(tmp_path / "r.csv"), "--out", str(tmp_path / "out" / "a"),
                     "--draws", "30", "--tune", "30", "--chains", "2", "--bins", "2"]) == 0
    res = ie.load_results(tmp_path / "out")
    assert res["a"] is res.a and res["a"]["difficulty"].index.name == "instance"
    with pytest.raises(KeyError, match="neither a sub-folder"):
        res["b"]
    with pytest.raises(AttributeError, match="no attribute or sub-folder 'b'"):
        res.b


def test_map_keeps_no_log_likelihood_and_refuses_to_be_asked_for_one():
    """az.loo on a MAP fit was an IndexError (a one-draw log-likelihood stored in silence)."""
    resp, _ = simulate(30, 5, seed=1)
    point = ie.fit(ie.models.onepl(resp), method="map", random_seed=0)
    assert "log_likelihood" not in point.groups()
    with pytest.raises(ValueError, match=r"fits\['map'\] is a MAP fit.*method='nuts'"):
        ie.compare_models({"map": point, "again": point})
    with pytest.raises(ValueError, match="log_likelihood=True with method='map'.*'laplace'"):
        ie.fit(ie.models.onepl(resp), method="map", log_likelihood=True)
    # a posterior predictive check from one point was one replicate, accepted in silence
    with pytest.raises(ValueError, match="posterior_predictive=True with method='map'.*'laplace'"):
        ie.fit(ie.models.onepl(resp), method="map", posterior_predictive=True)


def test_replicates_come_with_every_fit_that_has_draws_within_a_cap(monkeypatch):
    """az.plot_ppc works unchanged on a default fit: replicates from evenly spaced draws of
    every chain, capped at PREDICTIVE_CELLS numbers, in compact types; none for MAP."""
    base = importlib.import_module("irteval.models.base")
    monkeypatch.setattr(base, "PREDICTIVE_CELLS", 2 * 7 * 120)  # 7 draws a chain of 120 ranks
    scores = ie.Scores.from_wide(pd.DataFrame(np.arange(120).reshape(6, 20) % 7,
                                              index=[f"p{k}" for k in range(6)]))
    idata = quiet_fit(ie.models.bradley_terry(scores), draws=50, tune=50, chains=2,
                      random_seed=0)
    rank = idata.posterior_predictive["rank"]
    assert rank.sizes["draw"] == 7 and idata.attrs["posterior_predictive_draws"] == 14
    assert list(rank["draw"].values[[0, -1]]) == [0, 49]  # spread from first to last
    assert rank.dtype == np.int8 and np.ravel(az.plot_ppc(idata, num_pp_samples=5))[0].has_data()
    assert "posterior_predictive" not in quiet_fit(ie.models.bradley_terry(scores),
                                                   method="map").groups()
    for wrong in ("yes", 1):  # (1 passed the check and drew nothing)
        with pytest.raises(ValueError, match="posterior_predictive must be 'auto', True or "
                           "False"):
            ie.fit(ie.models.bradley_terry(scores), posterior_predictive=wrong)
    with pytest.raises(ValueError, match="posterior_predictive=True with method='map'"):
        ie.fit(ie.models.bradley_terry(scores), method="map", posterior_predictive=np.True_)


def test_the_log_likelihood_size_counts_every_cell_of_a_polytomous_fit():
    """A CustomDist over the whole matrix counted as one term, so "auto" stored a large
    ordinal fit's log-likelihood without a limit."""
    levels = ie.Responses.from_wide(pd.DataFrame(np.random.default_rng(0).integers(0, 4, (30, 5))),
                                    kind="ordinal")
    assert fit_module.pointwise_size(ie.models.polytomous_irt(levels)) == 150
    resp, _ = simulate(30, 5, seed=1)
    assert fit_module.pointwise_size(ie.models.onepl(resp)) == 150


def test_compare_models_reads_which_cells_were_observed():
    """Fits of data with missing cells store the observed cells alone (dim obs, labelled):
    the same values at other cells are other data."""
    rng = np.random.default_rng(0)

    def fake(items):
        idata = az.from_dict(posterior={"a": rng.normal(size=(2, 50))},
                             log_likelihood={"x": rng.normal(-1, 0.1, size=(2, 50, 3))},
                             observed_data={"x": np.array([1.0, 0.0, 1.0])},
                             coords={"obs": np.arange(3)}, dims={"x": ["obs"]})
        idata.observed_data = idata.observed_data.assign_coords(obs_item=("obs", items))
        return idata

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert len(ie.compare_models({"a": fake(["i1", "i2", "i3"]),
                                      "b": fake(["i1", "i2", "i3"])})) == 2
    with pytest.raises(ValueError, match="were fitted to different data"):
        ie.compare_models({"a": fake(["i1", "i2", "i3"]), "b": fake(["i1", "i2", "i4"])})
