"""Bayesian EPP: recovery under score = strength + Gumbel noise, separation, real data."""

import warnings

import arviz as az
import numpy as np
import pandas as pd
import pytest

import irteval as ie


def simulate(n_players=30, n_rounds=20, missing=0.0, seed=0):
    """Scores whose pairwise win probabilities are exactly logistic(strength_i - strength_j)."""
    rng = np.random.default_rng(seed)
    strength = rng.normal(0, 1, n_players)
    strength -= strength.mean()  # the model's identification
    score = strength[:, None] + rng.gumbel(size=(n_players, n_rounds))
    if missing:
        score[rng.random(score.shape) < missing] = np.nan
    wide = pd.DataFrame(score, index=[f"p{k}" for k in range(n_players)])
    return ie.Scores.from_wide(wide), strength


def fit(scores, **kwargs):
    return ie.fit(ie.models.bradley_terry(scores, **kwargs), random_seed=1, progressbar=False,
                  log_likelihood=False)


@pytest.mark.parametrize("missing", [0.0, 0.2])
def test_plackett_luce_intervals_are_calibrated_and_pairwise_ones_are_not(missing):
    """Pooled over 4 data sets of 30 players x 20 rounds (120 strengths): the binomial sd of a
    coverage from 30 players alone is 5.5%."""
    inside = {"plackett_luce": [], "pairwise": []}
    for seed in range(4):
        scores, truth = simulate(missing=missing, seed=seed)
        for likelihood in inside:
            idata = fit(scores, likelihood=likelihood)
            assert idata.attrs["divergences"] == 0 and idata.attrs["max_rhat"] <= 1.01
            board = ie.leaderboard(idata, ci_prob=0.9).loc[scores.players]
            inside[likelihood] += list((board["hdi_lower"] <= truth)
                                       & (truth <= board["hdi_upper"]))
            if likelihood == "plackett_luce":
                assert np.corrcoef(board["mean"], truth)[0, 1] > 0.9
    coverage = {k: np.mean(v) for k, v in inside.items()}
    print(f"missing={missing}: 90% interval coverage {coverage}")
    assert 0.84 <= coverage["plackett_luce"] <= 0.96
    assert coverage["pairwise"] < 0.7  # composite likelihood: far too narrow


def test_a_player_that_never_wins_gets_a_finite_honest_epp():
    scores, _ = simulate(n_players=10, n_rounds=15, seed=5)
    wide = pd.DataFrame(scores.matrix, index=scores.players)
    wide.loc["loser"] = wide.min() - 1
    idata = fit(ie.Scores.from_wide(wide))
    board = ie.leaderboard(idata)
    assert np.isfinite(board.loc["loser"]).all()
    assert board.index[-1] == "loser" and board.loc["loser", "p_best"] == 0
    others = board.drop("loser")
    assert board.loc["loser", "hdi_upper"] < others["mean"].min()
    assert board.loc["loser", "sd"] > others["sd"].max()  # the data only bound it from above
    assert board.loc["loser", "rank_lower"] == board.loc["loser", "rank_upper"] == 11


@pytest.fixture(scope="module")
def vtab_fit():
    return ie.fit(ie.models.bradley_terry(ie.datasets.load_vtab()), random_seed=0,
                  progressbar=False)


def test_vtab_paper_probability(vtab_fit):
    p = ie.win_probability(vtab_fit, "Sup-Rotation-100%", "Sup-Exemplar-100%")
    assert p.dims == ("chain", "draw")
    assert abs(float(p.mean()) - 0.56) < 0.05
    lower, upper = az.hdi(p, hdi_prob=0.9)["p_win"].values
    assert lower < 0.5 < upper  # the paper's 0.56 is not a clear lead
    with pytest.raises(ValueError, match="unknown player 'nobody'"):
        ie.win_probability(vtab_fit, "nobody", "VAE")


def test_leaderboard_and_pairwise_tables(vtab_fit):
    board = ie.leaderboard(vtab_fit)
    assert list(board.columns) == ["mean", "sd", "hdi_lower", "hdi_upper", "elo", "p_best",
                                   "expected_rank", "rank_lower", "rank_upper", "matches"]
    assert (board["matches"] == 19 * 15).all() and board["matches"].dtype.kind == "i"  # 19 x 15
    assert board.attrs == {"ci_prob": 0.94, "ci_kind": "hdi"}
    assert board["mean"].is_monotonic_decreasing and abs(board["p_best"].sum() - 1) < 1e-9
    assert abs(board["mean"].sum()) < 1e-6  # sum-to-zero EPP
    np.testing.assert_allclose(board["elo"], 1500 + board["mean"] * 400 / np.log(10))
    pairs = ie.pairwise_probabilities(vtab_fit, rope=0.1)
    win, superior = pairs.win, pairs.superior
    np.testing.assert_allclose((win + win.T).fillna(1), 1.0, atol=1e-12)
    assert (superior + superior.T).max().max() <= 1 + 1e-12
    assert win.loc["Sup-Rotation-100%", "WAE-UKL"] > 0.95
    epp = vtab_fit.posterior["epp"].stack(s=("chain", "draw"))
    pair = ("Sup-Rotation-100%", "Sup-Exemplar-100%")
    diff = (epp.sel(player=pair[0]) - epp.sel(player=pair[1])).values
    assert superior.loc[pair] == pytest.approx((diff > 0.1).mean())  # rope 0.1, not 0
    assert win.loc[pair] == pytest.approx((1 / (1 + np.exp(-diff))).mean())
    assert (diff > 0).mean() - (diff > 0.1).mean() > 0.05  # where the rope matters
    loo = az.loo(vtab_fit)  # leave one task out
    assert loo.n_data_points == 19


def test_reference_player_and_bayesian_fit_on_separated_auc_scores():
    scores = ie.datasets.load_auc_scores()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        idata = fit(scores, reference="xgboost_9")
    board = ie.leaderboard(idata)
    assert board.loc["xgboost_9", ["mean", "sd"]].abs().max() < 1e-9
    assert np.isfinite(board[["hdi_lower", "hdi_upper"]]).all().all()
    # the gap between the two components is bounded only by the prior, and mixes slowly
    # (bulk ESS ~400 of 4000 draws): R-hat 1.015 here, so fit() warns
    assert idata.attrs["max_rhat"] <= 1.05 and idata.attrs["divergences"] == 0
    top, bottom = board.index[0], board.index[-1]
    assert ie.win_probability(idata, top, bottom).mean() > 0.999


def test_bad_model_arguments():
    scores, _ = simulate(5, 3)
    with pytest.raises(ValueError, match="likelihood='glm' is not one of"):
        ie.models.bradley_terry(scores, likelihood="glm")
    with pytest.raises(ValueError, match="reference='x' is not a player"):
        ie.models.bradley_terry(scores, reference="x")
    for build in (ie.models.bradley_terry, ie.mle_epp, ie.bootstrap_epp):
        with pytest.raises(TypeError, match="expected irteval.Scores.*build one with Scores"):
            build(pd.DataFrame())


def test_goodness_of_fit_on_vtab(vtab_fit):
    gof = ie.goodness_of_fit(vtab_fit, max_draws=100)
    assert len(gof) == 16 * 15 // 2 and (gof["matches"] == 19).all()
    assert (gof["rep_lower"] <= gof["rep_upper"]).all()
    assert 0.1 < gof.attrs["ppp_deviance"] < 0.9  # Plackett–Luce fits VTAB
    assert (gof["p_value"] < 0.01).mean() < 0.05
    # observed wins and ties recovered from the stored rankings equal the Scores pair table
    pairs = ie.datasets.load_vtab().pairs()
    np.testing.assert_allclose(gof["wins"].to_numpy(), pairs["wins_i"].to_numpy())
    assert gof.index.to_list() == list(zip(pairs["player_i"], pairs["player_j"]))  # labelled


def test_goodness_of_fit_flags_a_misspecified_model():
    """Rounds whose order flips completely every other round are not strength + noise.
    (The pairwise model sits at the other extreme there, P(D_rep >= D_obs) = 1: every pair
    wins exactly half its matches, far less spread than independent matches give.)"""
    rng = np.random.default_rng(3)
    strength = np.linspace(-2, 2, 12)
    score = np.column_stack([s * strength + rng.gumbel(size=12) * 0.1
                             for s in (1, -1) * 10])
    idata = fit(ie.Scores.from_wide(pd.DataFrame(score)))
    assert ie.goodness_of_fit(idata, max_draws=400).attrs["ppp_deviance"] < 0.02


def test_goodness_of_fit_by_player_finds_a_failed_run():
    """The strongest of 16 players, far apart as real scores often are (strengths -5 to 5),
    fails one of 20 rounds (last place): the per-player check names it alone (the others'
    p-values 0.03-0.07 with other seeds; the failure shifts their pairs too); the
    per-player sums equal the pair table's."""
    rng = np.random.default_rng(7)
    score = np.linspace(-5, 5, 16)[:, None] + rng.gumbel(size=(16, 20))
    score[15, 3] = score.min() - 1
    scores = ie.Scores.from_wide(pd.DataFrame(score, index=pd.Index(
        [f"p{k}" for k in range(16)], name="model")))
    idata = fit(scores)
    by_player = ie.goodness_of_fit(idata, by="player", max_draws=200)
    assert list(by_player.index) == list(scores.players)
    assert by_player.index.name == "model"  # the data's name, as the leaderboard's (was player)
    excess = by_player["deviance_obs"] - by_player["deviance_rep"]
    assert excess.idxmax() == "p15" and by_player.at["p15", "p_value"] < 0.01
    assert (by_player["p_value"].drop("p15") >= 0.01).all()
    pairs = ie.goodness_of_fit(idata, max_draws=200).reset_index()
    wins = (pairs.groupby("player_i")["wins"].sum()
            .add((pairs["matches"] - pairs["wins"]).groupby(pairs["player_j"]).sum(),
                 fill_value=0))
    np.testing.assert_allclose(by_player["wins"], wins.loc[by_player.index])
    assert (by_player["matches"] == 15 * 20).all()
    assert by_player.attrs["ppp_deviance"] == pairs.attrs["ppp_deviance"]
    with pytest.raises(ValueError, match="by='round' is not 'pair' or 'player'"):
        ie.goodness_of_fit(idata, by="round")


def test_epp_plots_take_ax(vtab_fit):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    board = ie.leaderboard(vtab_fit)
    calls = [(ie.plot_leaderboard, (board,)),
             (ie.plot_epp_vs_score, (board, ie.datasets.load_vtab())),
             (ie.plot_win_heatmap, (ie.pairwise_probabilities(vtab_fit).win,)),
             (ie.plot_win_heatmap, (ie.pairwise_probabilities(vtab_fit).win.sort_index(),)),
             (ie.plot_win_heatmap, (ie.pairwise_probabilities(vtab_fit),)),  # the result whole
             (ie.plot_win_calibration, (vtab_fit,)), (ie.plot_rank_distribution, (vtab_fit,))]
    for plot, args in calls:
        fig, ax = plt.subplots()
        assert plot(*args, ax=ax) is ax and ax.has_data()
        plt.close(fig)
    ax = ie.plot_rank_distribution(vtab_fit, top=3)  # 300 arena models were a black smear
    probs = ax.images[0].get_array()
    assert probs.shape[0] == 3 and 3 <= probs.shape[1] < len(board)
    assert ax.get_title().endswith(f"the best 3 of {len(board)}")
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        ie.plotting.short(p) for p in board.index[:3]]
    ax = ie.plot_win_heatmap(vtab_fit)  # 16 players: each cell's probability written in it
    assert len(ax.texts) == 16 * 15 and {len(t.get_text()) for t in ax.texts} <= {2, 3}
    assert "≈1" in {t.get_text() for t in ax.texts}  # not "1": no P(win) is certain
    image = ax.images[0]  # the diagonal: grey, not P = 0.5's white
    assert np.isnan(np.diag(image.get_array().filled(np.nan))).all()
    assert image.get_cmap().get_bad()[:3] == pytest.approx(matplotlib.colors.to_rgb("lightgrey"))
    plt.close("all")


def test_davidson_tie_model_on_vtab():
    """VTAB has 128 ties (several models at 100% on a task): the Davidson model makes them
    a third outcome with its own rate instead of half wins."""
    scores = ie.datasets.load_vtab()
    idata = ie.fit(ie.models.bradley_terry(scores, likelihood="davidson"), random_seed=0,
                   progressbar=False, posterior_predictive=True)
    assert idata.attrs["max_rhat"] <= 1.01 and idata.attrs["divergences"] == 0
    ties, matches = scores.pairs()["ties"].sum(), scores.pairs()["matches"].sum()
    replicated = idata.posterior_predictive["outcomes"].sel(outcome="tie").sum("pair")
    assert abs(float(replicated.mean()) - ties) < 0.15 * ties  # the tie rate is reproduced
    assert ties / matches < 0.1
    board = ie.leaderboard(idata)
    assert list(board.index[:2]) == ["Sup-Rotation-100%", "Sup-Exemplar-100%"]
    gof = ie.goodness_of_fit(idata, max_draws=100)
    np.testing.assert_allclose(gof["wins"].to_numpy(), scores.pairs()["wins_i"].to_numpy())
    assert 0.05 < gof.attrs["ppp_deviance"] < 0.95


def test_map_and_laplace_agree_with_nuts(vtab_fit):
    """The fixed prior scale leaves the posterior a mode: MAP and Laplace are fast paths."""
    model = ie.models.bradley_terry(ie.datasets.load_vtab())
    point = ie.fit(model, method="map", random_seed=0, log_likelihood=False)
    laplace = ie.fit(model, method="laplace", draws=500, chains=2, random_seed=0,
                     log_likelihood=False)
    nuts = vtab_fit.posterior["epp"]
    assert point.posterior.sizes["draw"] == 1
    gap = np.abs(point.posterior["epp"].isel(chain=0, draw=0) - nuts.mean(("chain", "draw")))
    assert float(gap.max()) < 0.15
    ratio = (laplace.posterior["epp"].std(("chain", "draw")) / nuts.std(("chain", "draw")))
    assert 0.8 < float(ratio.median()) < 1.2
    assert list(ie.leaderboard(laplace).index[:2]) == list(ie.leaderboard(vtab_fit).index[:2])


def simulate_tasks(n_players=20, n_tasks=15, per_task=5, tau=0.5, seed=0):
    """Scores in ``per_task`` rounds (CV splits) of each task = global strength + the task's
    deviation (sd tau, zero-sum over players) + Gumbel noise: the Model/Task scheme's
    generative story. Returns (scores, round -> task, strength, deviation)."""
    rng = np.random.default_rng(seed)
    strength = rng.normal(0, 1, n_players)
    strength -= strength.mean()
    deviation = rng.normal(0, tau, (n_tasks, n_players))
    deviation -= deviation.mean(axis=1, keepdims=True)
    task = np.repeat(np.arange(n_tasks), per_task)
    score = strength + deviation[task] + rng.gumbel(size=(len(task), n_players))
    rounds = [f"task{t}-split{k % per_task}" for k, t in enumerate(task)]
    wide = pd.DataFrame(score.T, index=[f"m{k}" for k in range(n_players)], columns=rounds)
    return (ie.Scores.from_wide(wide), dict(zip(rounds, [f"task{t}" for t in task])), strength,
            deviation)


def _hfit(scores, hierarchy, **kwargs):
    kwargs.setdefault("random_seed", 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ie.fit(ie.models.bradley_terry(scores, hierarchy=hierarchy), progressbar=False,
                      log_likelihood=False, **kwargs)


def test_task_hierarchy_arguments():
    scores, tasks, _, _ = simulate_tasks(6, 3, per_task=2, seed=1)
    model = ie.models.bradley_terry(scores, hierarchy=tasks)
    assert model.coords["task"] == ("task0", "task1", "task2")
    as_series = ie.models.bradley_terry(scores, hierarchy=pd.Series(tasks))  # its error offers it
    assert as_series.coords["task"] == model.coords["task"]
    with pytest.warns(ie.IdentificationWarning, match="every task is one round .* cannot be "
                                                      "told apart.*map several rounds"):
        one_each = ie.models.bradley_terry(scores, hierarchy="round")  # ran with no word
    assert one_each.coords["task"] == tuple(scores.rounds)
    with pytest.raises(ValueError, match="not offered with hierarchy="):
        ie.fit(one_each, method="map")
    with pytest.raises(ValueError, match="not for this combination yet"):
        ie.models.bradley_terry(scores, likelihood="pairwise", hierarchy="round")
    with pytest.raises(ValueError, match="no task for"):
        ie.models.bradley_terry(scores, hierarchy={"task0-split0": "t"})
    with pytest.raises(TypeError, match="hierarchy= is 'round' or a mapping from round to "
                                        "task .*, got a list"):  # was "no task for rounds"
        ie.models.bradley_terry(scores, hierarchy=list(tasks.values()))
    with pytest.raises(TypeError, match=r"reference= is one player's label, got \['p0'\]"):
        ie.models.bradley_terry(scores, reference=["p0"])  # was "unhashable type: 'list'"
    per_row = pd.Series(tasks).repeat(3)  # a long table's column: a round per row, was
    repeated = ie.models.bradley_terry(scores, hierarchy=per_row)  # pandas' reindex error
    assert repeated.coords["task"] == model.coords["task"]
    per_row.iloc[0] = None  # an empty cell among a round's rows says nothing
    assert ie.models.bradley_terry(scores, hierarchy=per_row).coords["task"] == \
        model.coords["task"]
    per_row.iloc[1] = "other"
    with pytest.raises(ValueError, match=r"gives rounds \['task0-split0'\] more than one task"):
        ie.models.bradley_terry(scores, hierarchy=per_row)
    with pytest.warns(ie.IdentificationWarning, match=r"one task \('all'\): its deviations "
                                                      "and the global EPPs cannot be told"):
        ie.models.bradley_terry(scores, hierarchy=dict.fromkeys(scores.rounds, "all"))


@pytest.mark.slow  # a PyMC graph to compile (~15 s); notebook 02 fits one in CI
def test_task_hierarchy_runs_and_reports_per_task_boards():
    scores, tasks, _, _ = simulate_tasks(6, 3, per_task=2, seed=1)
    idata = _hfit(scores, tasks, draws=200, tune=300, chains=2)
    post = idata.posterior
    assert post["deviation"].dims[-2:] == ("task", "player") and "tau" in post
    assert list(post["task"].values) == ["task0", "task1", "task2"]
    np.testing.assert_allclose(post["deviation"].sum("player"), 0, atol=1e-8)
    board = ie.leaderboard(idata, task="task2")
    assert set(board.index) == set(scores.players)
    assert (board["matches"] == 2 * 5).all()  # task2's 2 rounds, 5 others in each
    assert not np.allclose(board["mean"].sort_index(), ie.leaderboard(idata)["mean"].sort_index())
    assert board.attrs["task"] == "task2"  # a task's board and its plot say which
    assert ie.plot_leaderboard(board).get_title().startswith("leaderboard of task task2 (")
    assert len(ie.goodness_of_fit(idata, max_draws=None)) == 15  # every draw
    with pytest.raises(ValueError, match=r"unknown task.*e.g. \['task0', "):  # np.str_ read back
        ie.leaderboard(idata, task="task99")
    with pytest.raises(ValueError, match=r"unknown task 'tsk2'.*did you mean 'task2'\?"):
        ie.leaderboard(idata, task="tsk2")
    with pytest.raises(TypeError, match=r"task= takes one task's label, got \['task2'\]"):
        ie.leaderboard(idata, task=["task2"])  # was "['task2'] is not in list"
    with pytest.raises(ValueError, match="no per-task deviations"):
        ie.leaderboard(fit(scores), task="task2")


@pytest.mark.slow
def test_task_hierarchy_recovers_global_epps_and_tau():
    """20 players x 15 tasks (5 splits each) with task deviations of sd 0.5: 90% intervals
    cover the global EPPs in band (84-96% over three data sets) and tau in at least two of
    three."""
    inside, tau_inside = [], 0
    for seed in range(3):
        scores, tasks, strength, _ = simulate_tasks(seed=seed)
        idata = _hfit(scores, tasks, random_seed=seed)
        assert idata.attrs["divergences"] <= 5 and idata.attrs["max_rhat"] <= 1.01
        epp = idata.posterior["epp"]
        lo, hi = epp.quantile([0.05, 0.95], ("chain", "draw")).values
        inside.append((lo <= strength) & (strength <= hi))
        t_lo, t_hi = idata.posterior["tau"].quantile([0.05, 0.95]).values
        tau_inside += int(t_lo <= 0.5 <= t_hi)
    share = np.concatenate(inside).mean()
    assert 0.84 <= share <= 0.96, share
    assert tau_inside >= 2


def test_a_point_fit_and_odd_questions_are_said():
    point = ie.fit(ie.models.bradley_terry(ie.datasets.load_vtab()), method="map",
                   random_seed=0, progressbar=False)
    with pytest.warns(UserWarning, match=r"leaderboard\(\): this fit is one point \(MAP\)"):
        assert ie.leaderboard(point)["p_best"].max() == 1.0  # a certainty it does not have
    with pytest.raises(ValueError, match="give two different players"):
        ie.win_probability(point, "Rotation", "Rotation")  # was 0.5
    with pytest.raises(ValueError, match="rope must be a finite number >= 0"):
        ie.pairwise_probabilities(point, rope=np.nan)  # was superior all 0
    with pytest.raises(ValueError, match=r"diagnostics\(\) checks NUTS draws"):
        ie.diagnostics(point)  # was an AttributeError
    with pytest.raises(TypeError, match="n_boot=True: give a whole number of at least 2"):
        ie.bootstrap_epp(ie.datasets.load_vtab(), n_boot=True)  # one replicate, sd NaN
