"""Degenerate but legal data: what the data cannot identify is named in a warning, and short
fits still give finite posteriors that order the extreme entities sensibly; what would make
the posterior degenerate is refused with the fix."""

import warnings

import numpy as np
import pandas as pd
import pytest

import irteval as ie

from irteval.exceptions import IdentificationWarning
from irteval.models.onepl import EXTREMES_FIX

from .conftest import simulate
from .test_continuous import simulate_airt

FAST = {"draws": 200, "tune": 300, "chains": 2, "random_seed": 5, "progressbar": False}


def quiet(build, **kwargs):
    """Fit the model ``build()`` makes, its warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ie.fit(build(), **kwargs)


def test_perfect_instances_and_model_are_named_and_get_extreme_estimates():
    wide = simulate(30, 8, seed=4)[0].to_wide(rows="item")  # instances x models
    wide.loc[wide.eq(1).all(axis=1), "m1"] = 0  # no instance is easy for all...
    wide.loc["i0"] = 1  # ...but i0
    wide.loc["i1"] = 0  # nobody gets i1
    wide["m0"] = 1  # m0 gets every instance right...
    wide.loc["i1", "m0"] = np.nan  # ...that it answered (a missing cell: the warnings say so)
    resp = ie.Responses.from_wide(wide, respondent="model", item="instance", rows="item")
    for discrimination in (False, True):
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            ie.models.onepl(resp, discrimination=discrimination)
        assert sorted(str(w.message) for w in record) == [
            "1 instance was answered correctly by every model that answered it (e.g. ['i0']): its "
            f"difficulty is identified only by the prior ({EXTREMES_FIX})",
            "1 instance was answered wrongly by every model that answered it (e.g. ['i1']): its "
            f"difficulty is identified only by the prior ({EXTREMES_FIX})",
            "1 model got every instance it answered right (e.g. ['m0']): its "
            f"ability is identified only by the prior ({EXTREMES_FIX})"]
    idata = quiet(lambda: ie.models.onepl(resp), log_likelihood=False, **FAST)
    post = idata.posterior
    assert np.isfinite(post["b"].values).all() and np.isfinite(post["theta"].values).all()
    b = post["b"].mean(("chain", "draw")).to_series()
    theta = post["theta"].mean(("chain", "draw")).to_series()
    assert b.idxmin() == "i0" and b.idxmax() == "i1" and theta.idxmax() == "m0"
    # the hierarchical prior keeps them near the rest: within 3 sigma_b of the population
    sigma_b = post["sigma_b"].mean().item()
    assert abs(b[["i0", "i1"]] - post["mu_b"].mean().item()).max() < 3 * sigma_b


def test_answers_all_alike_get_one_warning_that_says_so():
    """Every answer 1 (or 0) gave three warnings, each about a part; the fit is the prior
    (still a posterior: simulation-based calibration fits such draws of the prior)."""
    wide = pd.DataFrame(1, index=[f"i{k}" for k in range(6)], columns=["m0", "m1", "m2"])
    for value, word in ((1, "right"), (0, "wrong")):
        resp = ie.Responses.from_wide(wide * value, respondent="model", item="instance",
                                      rows="item")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ie.models.onepl(resp, discrimination=bool(value))
        assert [str(w.message) for w in caught] == [
            f"every one of the 18 answers is {value} ({word}): they say nothing about which "
            "instances are harder or which models are stronger, so the fit returns its prior; "
            f"check the value column (a conversion that made every answer {value}?)"]


def test_a_player_that_never_wins_is_named_and_ranked_last():
    rng = np.random.default_rng(3)
    scores = pd.DataFrame(rng.normal(size=(6, 12)), index=[f"p{k}" for k in range(6)])
    scores.loc["p5"] = scores.min() - 1  # last in every round
    scores = ie.Scores.from_wide(scores)
    for likelihood in ("plackett_luce", "pairwise", "davidson"):
        with pytest.warns(UserWarning, match=r"1 player never won a match \(nor tied one\) "
                                             r"\(e.g. \['p5'\]\): its EPP is identified "
                                             r"only by the prior \(.*more rounds"):
            ie.models.bradley_terry(scores, likelihood=likelihood)
    # on the zero-sum scale its prior-only EPP moves the others' (measured: lifted each by
    # 0.65, tripled its sd): the warning offers reference=, said once a reference is given
    with pytest.warns(UserWarning, match=r"prior_scale=4 sets how far.*pass reference= a "
                                         "well-measured player"):
        ie.models.bradley_terry(scores)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        ie.models.bradley_terry(scores, reference="p0")
    assert [w for w in record if "never won" in str(w.message)]
    assert not [w for w in record if "reference=" in str(w.message)]
    with pytest.warns(UserWarning, match=r"the reference 'p5' is one of them, so every EPP "
                                         "measured from it carries its prior-wide"):
        ie.models.bradley_terry(scores, reference="p5")
    with pytest.raises(ValueError, match=r"reference='P0' is not a player; choose one of "
                                         r"\['p0'.*'P0' differs from 'p0' only in case"):
        ie.models.bradley_terry(scores, reference="P0")
    # (test_bradley_terry checks the Plackett-Luce fit of such a player; here the tie model)
    idata = quiet(lambda: ie.models.bradley_terry(scores, likelihood="davidson"), **FAST)
    board = ie.leaderboard(idata)
    assert np.isfinite(idata.posterior["epp"].values).all()
    assert board["mean"].idxmin() == "p5" and board.loc["p5", "rank_lower"] == 6
    # far below the rest, but within 3 prior sd (4) and more uncertain than anyone
    others = board.drop("p5")
    assert -12 < board.loc["p5", "mean"] < others["mean"].min() - 2
    assert board.loc["p5", "sd"] > others["sd"].max()


def test_a_player_that_wins_everything_or_meets_nobody_is_named():
    wide = pd.DataFrame({"r1": [3.0, 1.0, 2.0, np.nan], "r2": [5.0, 2.0, 1.0, np.nan],
                         "r3": [np.nan, np.nan, np.nan, 1.0]}, index=["a", "b", "c", "d"])
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        ie.models.bradley_terry(ie.Scores.from_wide(wide))
    messages = " | ".join(str(w.message) for w in record)
    assert "1 player won every match (e.g. ['a']): its EPP is" in messages
    assert "1 player met no other player in any round (e.g. ['d'])" in messages


def test_an_algorithm_with_constant_performance_is_refused_with_the_fix():
    wide, _ = simulate_airt(n=40, n_items=4, n_negative=0, seed=7)
    wide["flat"] = 0.6
    with pytest.raises(ValueError, match=r"1 algorithm has one value only.* drop it or give "
                                         "the bounds explicitly"):
        ie.Responses.from_wide(wide, respondent="dataset", item="algorithm", kind="continuous")
    # with bounds it is legal data, but the continuous IRT explains it with zero noise (s -> 0,
    # chains in different places): the builder refuses it
    wide["top"] = 1.0  # clipped to 1 - clip on every dataset: constant too
    perf = ie.Responses.from_wide(wide, respondent="dataset", item="algorithm",
                                  kind="continuous", bounds=(0, 1))
    with pytest.raises(ValueError, match=r"2 algorithms have the same performance on every "
                                         r"dataset .*\['flat', 'top'\]\): the model would "
                                         "explain them with zero noise.*drop them"):
        ie.models.continuous_irt(perf)
    ie.models.continuous_irt(perf.subset(items=["algo0", "algo1", "algo2", "algo3"]))


def test_a_matrix_of_few_instances_warns_before_the_fit():
    """2 instances x 60 models diverged with advice to raise target_accept, which cannot help:
    each ability rests on two answers."""
    resp, _ = simulate(2, 60, seed=0)
    with pytest.warns(IdentificationWarning, match=r"only 2 instances: each model's ability "
                      r"rests on 2 answers.*whatever target_accept= or draws="):
        ie.models.onepl(resp)
