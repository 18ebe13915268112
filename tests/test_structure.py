"""The shape every workflow shares (issue 12): typed models, one likelihood per model, one
interval convention, fits checked for their family."""

import copy
import dataclasses
import inspect
import re
import warnings
from pathlib import Path

import arviz as az
import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pymc as pm
import pytest
import xarray as xr

import irteval as ie
from irteval.models.bradley_terry import competition_ranks, plackett_luce_logp

from .conftest import quiet_fit, simulate
from .test_continuous import responses, simulate_airt

matplotlib.use("Agg")
SRC = Path(ie.__file__).parent
FAST = dict(draws=100, tune=150, chains=2, random_seed=3)


def test_no_attribute_protocol_on_pymc_models():
    hidden = re.compile(r"irteval_(attrs|initvals|postprocess|log_likelihood|responses)")
    offenders = [str(p.relative_to(SRC)) for p in SRC.rglob("*.py") if hidden.search(p.read_text())]
    assert not offenders


def test_builders_return_typed_pymc_models_that_survive_copies():
    resp, _ = simulate(20, 4, seed=2)
    for model in (ie.models.onepl(resp), ie.models.bradley_terry(ie.datasets.load_vtab())):
        assert isinstance(model, pm.Model) and isinstance(model, ie.models.BaseModel)
        for clone in (copy.copy(model), copy.deepcopy(model), model.copy()):
            assert type(clone) is type(model) and clone.fit_attrs() == model.fit_attrs()
            assert clone is not model and set(clone.named_vars) == set(model.named_vars)
    wide, _ = simulate_airt(n=30, n_items=4, n_negative=1, seed=5)
    model = ie.models.continuous_irt(responses(wide, bounds=(0, 1), clip=1e-12))
    idata = quiet_fit(copy.copy(model), **FAST, log_likelihood=False)
    assert {"alpha", "beta", "gamma", "theta"} <= set(idata.posterior)  # post-processing kept
    assert (idata.posterior["lam"].sum("item") > 0).all()  # reflection fixed


def test_a_plain_model_from_pm_do_warns_what_it_loses_and_is_refused_downstream():
    resp, _ = simulate(20, 4, seed=2)
    plain = pm.do(ie.models.onepl(resp), {"sigma_b": 1.0})
    assert not isinstance(plain, ie.models.BaseModel)
    with pytest.warns(ie.ModelSpecWarning, match="plain pymc.Model.*collapsed 1PL's exact sampler"):
        idata = ie.fit(plain, **FAST, progressbar=False, log_likelihood=False)
    assert "posterior_predictive" not in idata.groups()  # "auto": a CustomDist may not draw
    with pytest.raises(ValueError, match="does not say which irteval model made it"):
        ie.difficulty(idata)
    idata.attrs["irteval_family"] = "binary_irt"  # the documented way back
    assert len(ie.difficulty(idata)) == 20


def test_downstream_functions_name_the_function_to_call_instead():
    scores = ie.datasets.load_vtab()
    bt = ie.fit(ie.models.bradley_terry(scores), method="map", random_seed=0)
    with pytest.raises(ValueError, match=r"difficulty\(\) needs a fit of irteval.models.onepl.*"
                                         r"irteval.models.bradley_terry.*use irteval.leaderboard"):
        ie.difficulty(bt)
    with pytest.raises(ValueError, match=r"use irteval.leaderboard\(\)"):
        ie.algorithm_metrics(bt)
    resp, _ = simulate(20, 4, seed=0)  # seed 2: no MAP (the abilities' scale collapses)
    onepl = ie.fit(ie.models.onepl(resp), method="map", random_seed=0)
    with pytest.raises(ValueError, match=r"leaderboard\(\) needs.*use irteval.difficulty\(\)"):
        ie.leaderboard(onepl)
    legacy = onepl.copy()
    legacy.attrs = {"irteval_model": "1pl"}  # written before the family was recorded
    assert len(ie.difficulty(legacy)) == 20


# ---------------------------------------------------------------------- one likelihood
def _plackett_luce_reference(strength, matrix):
    """Breslow Plackett-Luce log-likelihood of each round, written out directly."""
    out = []
    for scores in matrix.T:
        present = np.flatnonzero(~np.isnan(scores))
        total = 0.0
        for k in present:
            rivals = present[scores[present] <= scores[k]]  # k's tie group and those below
            total += strength[k] - np.log(np.exp(strength[rivals]).sum())
        out.append(total)
    return np.array(out)


def test_plackett_luce_likelihood_with_ties_and_absent_players():
    rng = np.random.default_rng(0)
    matrix = rng.integers(0, 4, (7, 9)).astype(float)  # many ties
    matrix[rng.random(matrix.shape) < 0.3] = np.nan
    strength = rng.normal(0, 1.5, 7)
    rank = competition_ranks(matrix)
    logp = plackett_luce_logp(rank, strength, (rank >= 0).astype(np.int8)).eval()
    np.testing.assert_allclose(logp, _plackett_luce_reference(strength, matrix), rtol=1e-10)
    wide = pd.DataFrame(matrix, index=[f"p{k}" for k in range(7)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = ie.models.bradley_terry(ie.Scores.from_wide(wide))
    point = model.initial_point()
    assert np.isfinite(model.compile_dlogp()(point)).all()  # absent players: finite gradient


@pytest.fixture(scope="module")
def fits():
    """One short fit of every family and likelihood, with fit's defaults (predictive draws and
    log-likelihood included)."""
    resp, _ = simulate(30, 5, seed=4)
    holey, _ = simulate(30, 5, seed=4, missing=0.1)
    scores = ie.datasets.load_vtab()
    wide, _ = simulate_airt(n=40, n_items=4, n_negative=1, seed=6)
    perf = responses(wide, bounds=(0, 1), clip=1e-12)
    models = {"1pl": ie.models.onepl(resp), "1pl_missing": ie.models.onepl(holey),
              "2pl": ie.models.onepl(resp, discrimination=True),
              "4pl": ie.models.onepl(resp, discrimination=True, guessing=True, slip=True),
              "2pl_2d": ie.models.onepl(resp, discrimination=True, dims=2),
              **{f"bt_{lik}": ie.models.bradley_terry(scores, likelihood=lik)
                 for lik in ("plackett_luce", "pairwise", "davidson")},
              "continuous": ie.models.continuous_irt(perf),
              "polytomous": ie.models.polytomous_irt(ie.Responses.from_wide(
                  (wide * 3).round() + 1, kind="ordinal", levels=[1, 2, 3, 4]))}
    return {name: quiet_fit(model, **FAST) for name, model in models.items()}


@pytest.mark.parametrize("name", ["1pl", "1pl_missing", "2pl", "4pl", "2pl_2d", "bt_plackett_luce",
                                  "bt_pairwise", "bt_davidson", "continuous", "polytomous"])
def test_every_family_has_a_log_likelihood_and_a_posterior_predictive(fits, name):
    import matplotlib.pyplot as plt

    idata = fits[name]
    for group in ("log_likelihood", "posterior_predictive", "observed_data"):
        assert group in idata.groups(), group
    assert len(set(idata.groups())) == len(idata.groups()), idata.groups()  # each group once
    assert set(idata.posterior_predictive.data_vars) == set(idata.observed_data.data_vars)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # short chains: Pareto k warnings
        assert np.isfinite(az.loo(idata).elpd_loo)
    axes = az.plot_ppc(idata, num_pp_samples=10)
    assert np.ravel(axes)[0].has_data()
    plt.close("all")


# ---------------------------------------------------------------------- intervals
#: public functions without ci_prob/ci_kind, and why
NO_INTERVAL = {
    "fit": "fits", "add_log_likelihood": "adds a group to a fit",
    "add_posterior_predictive": "adds a group to a fit", "diagnostics": "R-hat and ESS",
    "load_results": "reads files",
    "difficulty_bins": "bins per draw", "win_probability": "returns the draws",
    "pairwise_probabilities": "probabilities", "airt_curves": "returns the draws",
    "portfolio": "reformats latent_trait, which took ci_prob/ci_kind",
    "loo_by_algorithm": "elpd and its standard error", "wald_test": "a test",
    "plot_win_heatmap": "probabilities",
    "plot_rank_distribution": "probabilities", "plot_crm_heatmap": "a density at the means",
    "plot_strengths": "shares of draws",
    "plot_latent_trait": "curves at the posterior mean",
    "plot_dendrogram": "a tree", "mle_epp": "Wald intervals only: ci_prob, ci_kind='wald'",
    "bootstrap_epp": "percentile intervals only: ci_prob, ci_kind='bootstrap'",
    "select_items": "a list of items",
    "plot_adaptive": "draws the intervals of adaptive_test's trajectory",
    "compare_models": "elpd differences and their standard errors",
}


def _public_functions():
    return {name: getattr(ie, name) for name in ie.__all__
            if inspect.isfunction(getattr(ie, name))}


def test_every_summary_and_plot_takes_ci_prob_and_ci_kind():
    missing = {name: [k for k in ("ci_prob", "ci_kind") if k not in
                      inspect.signature(func).parameters]
               for name, func in _public_functions().items() if name not in NO_INTERVAL}
    assert not {k: v for k, v in missing.items() if v}, missing
    assert "ci_prob" in inspect.signature(ie.mle_epp).parameters
    assert set(NO_INTERVAL) <= set(_public_functions())  # no stale exemption:
    assert not [name for name in NO_INTERVAL if name not in ("mle_epp", "bootstrap_epp")
                and {"ci_prob", "ci_kind"} <= set(inspect.signature(getattr(ie, name)).parameters)]


def test_tables_record_the_interval_convention(fits):
    kw = dict(ci_prob=0.8, ci_kind="eti")
    cont = fits["continuous"]
    tables = {
        "difficulty": ie.difficulty(fits["1pl"], **kw),
        "abilities": ie.abilities(fits["1pl"], **kw),
        "difficulty_moments": ie.difficulty_moments(fits["1pl"], **kw),
        "characteristic_curves": ie.characteristic_curves(fits["1pl"], n_bins=3, **kw),
        "leaderboard": ie.leaderboard(fits["bt_plackett_luce"], **kw),
        "goodness_of_fit": ie.goodness_of_fit(fits["bt_pairwise"], max_draws=20, **kw),
        "algorithm_metrics": ie.algorithm_metrics(cont, **kw),
        "latent_trait": ie.latent_trait(cont, max_draws=10, **kw).occupancy,
        "spectrum": ie.latent_trait(cont, max_draws=10, **kw).spectrum,
        "model_goodness": ie.model_goodness(cont, max_draws=10, **kw),
        "effectiveness": ie.effectiveness(cont, max_draws=10, **kw),
        "score_new_model": ie.score_new_model(fits["1pl"], {"i0": 1}, max_draws=50,
                                              **kw).summary(),
        "adaptive_test": ie.adaptive_test(fits["1pl"], lambda item: 1, max_items=2,
                                          max_draws=50, **kw)[0],
        "item_fit": ie.item_fit(fits["1pl"], max_draws=20, **kw),
        "person_fit": ie.person_fit(fits["1pl"], max_draws=20, **kw),
        "information": ie.information(fits["1pl"], max_draws=20, **kw),
        "local_dependence": ie.local_dependence(fits["1pl"], top=3, max_draws=20, **kw),
    }
    wanted = {name for name, func in _public_functions().items()
              if name not in NO_INTERVAL and not name.startswith("plot_")}
    assert wanted <= set(tables) | {"scc_summary"}  # scc_summary: tests/test_scc.py
    for name, table in tables.items():
        assert table.attrs["ci_prob"] == 0.8 and table.attrs["ci_kind"] == "eti", name
    assert {"eti_lower", "eti_upper"} <= set(tables["difficulty"])
    mle = ie.mle_epp(ie.datasets.load_vtab(), ci_prob=0.8)
    assert mle.attrs["ci_prob"] == 0.8 and mle.attrs["ci_kind"] == "wald"
    boot = ie.bootstrap_epp(ie.datasets.load_vtab(), ci_prob=0.8, n_boot=20)
    assert boot.attrs["ci_prob"] == 0.8 and boot.attrs["ci_kind"] == "bootstrap"


def test_plots_given_a_table_refuse_a_different_interval(fits):
    board = ie.leaderboard(fits["bt_plackett_luce"], ci_prob=0.8)
    with pytest.raises(ValueError, match="computed with ci_prob=0.8, not 0.5"):
        ie.plot_leaderboard(board, ci_prob=0.5)
    ax = ie.plot_leaderboard(fits["bt_plackett_luce"], ci_prob=0.5, ci_kind="eti")
    assert "50% equal-tailed interval" in ax.get_xlabel()
    # the replicated win ratios' bars (it took neither keyword: always the 94% HDI)
    ax = ie.plot_win_calibration(fits["bt_pairwise"], ci_prob=0.5, ci_kind="eti", max_draws=20)
    assert "(50% equal-tailed interval)" in ax.get_legend().get_texts()[0].get_text()
    with pytest.raises(ValueError, match="computed with ci_prob=0.8, not 0.5"):
        ie.plot_win_calibration(ie.goodness_of_fit(fits["bt_pairwise"], max_draws=20,
                                                   ci_prob=0.8), ci_prob=0.5)


def test_plot_epp_vs_score_names_wrong_scores():
    board = ie.leaderboard(ie.fit(ie.models.bradley_terry(ie.datasets.load_vtab()),
                                  method="map", random_seed=0))
    with pytest.raises(TypeError, match="the Scores or Battles the leaderboard was fitted to"):
        ie.plot_epp_vs_score(board, ie.datasets.load_vtab().matrix)
    with pytest.raises(ValueError, match="16 players of the leaderboard are not in these"):
        ie.plot_epp_vs_score(board, ie.datasets.load_auc_scores())
    errors = ie.datasets.load_vtab()  # as if the scores were errors: lower is better
    errors = ie.Scores(matrix=errors.matrix, players=errors.players, rounds=errors.rounds,
                       higher_is_better=False)
    ax = ie.plot_epp_vs_score(board, errors)  # (the players are what matters here)
    assert ax.get_ylabel() == "mean score (lower is better)" and ax.yaxis_inverted()
    heights = {round(t.get_position()[1], 6) for t in ax.texts}
    assert len(heights) == len(ax.texts) == 16  # spread, not stacked on one point
    plt.close("all")


@pytest.mark.parametrize("plot, table, source", [
    (ie.plot_leaderboard, ie.datasets.load_vtab(as_frame=True), "leaderboard"),
    (lambda t: ie.plot_epp_vs_score(t, ie.datasets.load_vtab()),
     ie.mle_epp(ie.datasets.load_vtab()).drop(columns="wald_upper"), "leaderboard"),
    (ie.plot_win_calibration, pd.DataFrame({"player_i": ["a"], "wins": [1]}), "goodness_of_fit"),
    (ie.plot_win_heatmap, pd.DataFrame({"p": [0.5]}, index=["a"]), "pairwise_probabilities"),
    (ie.plot_fit, pd.DataFrame({"infit": [1.0]}), "item_fit"),
    (ie.plot_information, pd.DataFrame({"mean": [1.0]}), "information"),
    (ie.plot_adaptive, pd.DataFrame({"mean": [1.0]}), "adaptive_test"),
    (ie.plot_characteristic_curves, pd.DataFrame({"mean": [1.0]}), "characteristic_curves"),
    (ie.plot_auaec_aupec, pd.DataFrame({"aucdf": [1.0]}), "effectiveness"),
    (ie.plot_goodness, xr.Dataset({"kappa": ("model", [1.0])}), "airt_curves"),
    (ie.plot_effectiveness, xr.Dataset({"kappa": ("model", [1.0])}), "airt_curves"),
])
def test_plots_given_another_table_name_the_right_one(plot, table, source):
    """A table of another function gave a KeyError (or a wrong plot) deep inside."""
    with pytest.raises(ValueError, match=f"takes the (players x players table|result of) "
                                         f"irteval.*{source}"):
        plot(table)
    plt.close("all")


def test_result_dataclasses_print_on_one_screen():
    """Each field's kind and size, not 1000-row tables (the dataclass default printed all)."""
    rows = pd.Index([f"d{i}" for i in range(1000)], name="dataset")
    frame = pd.DataFrame(np.zeros((1000, 3)), index=rows)
    draws = xr.DataArray(np.zeros((4, 250)), dims=("chain", "draw"))
    results = [
        ie.LatentTrait(*[frame] * 9, epsilon=0.05),
        ie.NewModelScore(ability=draws, accuracy=draws, answered=frame[0], naive=0.5,
                         coverage=0.9, person_fit_p=0.3, n_items=20, ci_prob=0.94,
                         ci_kind="hdi"),
        ie.PairwiseProbabilities(win=frame, superior=frame),
        ie.robustness.NoisyPredictions(clean=frame, perturbed=frame),
        ie.robustness.Taxonomy(groups=frame[0], co_assignment=frame, linkage=np.zeros((999, 4)),
                               kappa=frame, alone=frame[0]),
    ]
    for result in results:
        text = repr(result)
        lines = text.splitlines()
        assert len(lines) == len(dataclasses.fields(result)) + 2, text
        assert lines[0] == f"{type(result).__name__}(" and lines[-1] == ")"
    assert "    spectrum: DataFrame (dataset: 1000) x 3 columns\n" in repr(results[0])
    assert "    performance_range: (0.0, 1.0)\n" in repr(results[0])
    assert "    ability: DataArray (chain: 4, draw: 250)\n" in repr(results[1])
    assert "    answered: Series (dataset: 1000)\n" in repr(results[1])
    assert "    person_fit_p: 0.3\n" in repr(results[1])
    assert "    linkage: ndarray (999, 4)\n" in repr(results[4])
