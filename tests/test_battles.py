"""Pairwise battles (issue 16): reading battle rows and pair counts, the exact pairwise
Bradley–Terry on them against BradleyTerry2, and every bad input with its message."""

import io
import warnings
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pymc as pm
import pytest

import irteval as ie

from .conftest import quiet_fit

DATA = Path(__file__).parent / "data"
#: BradleyTerry2 1.1.2, BTm(cbind(home.wins, away.wins), home.team, away.team, data =
#: baseball, id = "team") without the home advantage, Baltimore the reference
BASEBALL = {"Milwaukee": 1.58, "Detroit": 1.44, "Toronto": 1.29, "New York": 1.25,
            "Boston": 1.11, "Cleveland": 0.68, "Baltimore": 0.0}
#: its vignette on the citations data, Biometrika the reference
CITATIONS = {"Comm Statist": -2.949, "JASA": -0.480, "JRSS-B": 0.269, "Biometrika": 0.0}


def baseball():
    df = pd.read_csv(DATA / "bt2_baseball.csv")
    return ie.Battles.from_counts(df, player_a="home.team", player_b="away.team",
                                  wins_a="home.wins", wins_b="away.wins", player_name="team")


def battle_rows(seed=0, n_players=6, n=400, tie_share=0.1):
    rng = np.random.default_rng(seed)
    names = np.array([f"model-{k}" for k in range(n_players)])
    a = rng.integers(0, n_players, n)
    b = (a + rng.integers(1, n_players, n)) % n_players
    s = np.linspace(-1, 1, n_players)
    tie = rng.random(n) < tie_share
    a_won = rng.random(n) < 1 / (1 + np.exp(-(s[a] - s[b])))
    winner = np.where(tie, "tie", np.where(a_won, "model_a", "model_b"))
    return pd.DataFrame({"model_a": names[a], "model_b": names[b], "winner": winner})


def canonical(battles):
    """Pair counts with each pair's labels in sorted order (codes follow first appearance)."""
    pairs = battles.pairs()
    swap = pairs["player_i"].astype(str) > pairs["player_j"].astype(str)
    return pd.DataFrame({
        "first": np.where(swap, pairs["player_j"], pairs["player_i"]),
        "second": np.where(swap, pairs["player_i"], pairs["player_j"]),
        "matches": pairs["matches"], "ties": pairs["ties"],
        "wins_first": np.where(swap, pairs["matches"] - pairs["wins_i"], pairs["wins_i"]),
    }).sort_values(["first", "second"]).reset_index(drop=True)


# ---------------------------------------------------------------------- reading
def test_winner_encodings_and_weights_aggregate_to_the_same_pair_counts():
    rows = battle_rows()
    by_column = ie.Battles.from_long(rows, player_a="model_a", player_b="model_b",
                                     winner="winner")
    by_label = rows.assign(winner=np.select(
        [rows["winner"] == "model_a", rows["winner"] == "model_b"],
        [rows["model_a"], rows["model_b"]], "draw"))
    by_letter = rows.assign(winner=rows["winner"].map(
        {"model_a": "a", "model_b": "b", "tie": "both_bad"}))
    counted = rows.value_counts().rename("n").reset_index()
    weighted = ie.Battles.from_long(counted, player_a="model_a", player_b="model_b",
                                    winner="winner", weight="n")
    for other in (ie.Battles.from_long(by_label, player_a="model_a", player_b="model_b",
                                       winner="winner"),
                  ie.Battles.from_long(by_letter, player_a="model_a", player_b="model_b",
                                       winner="winner"), weighted):
        pd.testing.assert_frame_equal(canonical(by_column), canonical(other))
    # against a loop over the battles
    pairs = by_column.pairs().set_index(["player_i", "player_j"])
    for (x, y), row in pairs.iterrows():
        met = ((rows.model_a == x) & (rows.model_b == y)) | ((rows.model_a == y)
                                                              & (rows.model_b == x))
        sub = rows[met]
        x_won = (((sub.model_a == x) & (sub.winner == "model_a"))
                 | ((sub.model_b == x) & (sub.winner == "model_b"))).sum()
        ties = (sub.winner == "tie").sum()
        assert row["matches"] == len(sub) and row["ties"] == ties
        assert row["wins_i"] == x_won + ties / 2
    assert by_column.n_battles == len(rows) and by_column.players.name == "model"  # of model_a
    assert repr(by_column).startswith(
        "Battles(6 models (players), 400 battles in 15 of 15 pairs")


def test_mle_matches_bradleyterry2_on_baseball_and_citations():
    table = ie.mle_epp(baseball(), reference="Baltimore")
    assert table.index.name == "team"
    np.testing.assert_allclose(table["epp"].loc[list(BASEBALL)], list(BASEBALL.values()),
                               atol=0.005)  # the published two decimals
    cites = pd.read_csv(DATA / "bt2_citations.csv").assign(none=0)
    battles = ie.Battles.from_counts(cites, player_a="winner", player_b="loser",
                                     wins_a="Freq", wins_b="none", player_name="journal")
    table = ie.mle_epp(battles, reference="Biometrika")
    np.testing.assert_allclose(table["epp"].loc[list(CITATIONS)], list(CITATIONS.values()),
                               atol=5e-4)  # the published three decimals


def test_bayesian_fit_on_battles_agrees_with_the_mle_and_every_summary_runs():
    battles = baseball()
    idata = quiet_fit(ie.models.bradley_terry(battles, reference="Baltimore"), random_seed=0,
                      draws=500, tune=500, chains=2)
    assert idata.attrs["likelihood"] == "pairwise" and idata.attrs["data"] == "battles"
    mle = ie.mle_epp(battles, reference="Baltimore")
    board = ie.leaderboard(idata)
    assert board.index.name == "team"
    gap = (board["mean"] - mle["epp"].loc[board.index]).abs() / board["sd"].clip(lower=1e-9)
    assert gap.drop("Baltimore").max() < 0.5, gap
    p = ie.win_probability(idata, "Milwaukee", "Baltimore")
    assert 0.8 < float(p.mean()) < 0.9
    check = ie.goodness_of_fit(idata)
    assert len(check) == 21 and 0.05 < check.attrs["ppp_deviance"] < 0.95
    ax = ie.plot_epp_vs_score(board, battles)
    assert ax.get_ylabel().startswith("share of battles won")
    ie.plot_leaderboard(board)
    plt.close("all")
    with pytest.raises(ValueError, match="no rounds to rank.*'pairwise'"):
        ie.models.bradley_terry(battles, likelihood="plackett_luce")
    davidson = quiet_fit(ie.models.bradley_terry(battles, likelihood="davidson"), method="map",
                         random_seed=0)
    assert davidson.posterior["log_nu"].item() < -3  # baseball has no ties


# ---------------------------------------------------------------------- bad input
def _outsider(rows, k):
    """A player of the rows who is not in battle ``k``."""
    return sorted(set(rows["model_a"]) - {rows.loc[k, "model_a"], rows.loc[k, "model_b"]})[0]


@pytest.mark.parametrize("change, message", [
    (lambda d: d.assign(model_b=d["model_a"]), "against itself.*'model-.*rows? [0-9]"),
    (lambda d: d.assign(winner=d["winner"].replace("tie", "bothbad")),
     r"name neither player nor a tie, e.g. \['bothbad'\].*ties="),
    (lambda d: d.assign(model_a=d["model_a"].where(d.index != 3)),
     "model_a has 1 missing label.*row 3"),
    (lambda d: d.assign(winner=d["winner"].where(d.index != 5)),
     "winner has 1 missing label.*row 5"),
    (lambda d: d.assign(model_a="x", model_b="x"), r"only 1 model \('x'\).*at least two"),
    (lambda d: d.rename(columns={"winner": "result"}), "column 'winner'.*winner="),
    (lambda d: d.assign(winner=d["winner"].replace("model_a", "Model_A ")),  # said nothing
     r"'Model_A ' differs from 'model_a' only in case or spaces"),
    (lambda d: d.assign(winner=d["winner"].where(d.index != 0, _outsider(d, 0))),  # said
     r"'model-\d' is a player, but not one of the two in that battle$"),  # "differs in case"
    (lambda d: d.rename(columns={"winner": "model_a", "model_a": "winner"}),  # swapped
     "most of the 400 battles: check that winner= names the column of winners"),
])
def test_bad_battles_are_named_with_the_fix(change, message):
    with pytest.raises(ValueError, match=message):
        ie.Battles.from_long(change(battle_rows()), player_a="model_a", player_b="model_b",
                             winner="winner")


def test_side_markers_of_other_columns_are_named():
    rows = battle_rows().rename(columns={"model_a": "a", "model_b": "b"})
    with pytest.raises(ValueError, match=r"or 'a'/'b'; list.*'model_a' marks a side only "
                                         r"where the player columns are named so \(here 'a' "
                                         r"and 'b'\)"):  # said "'a'/'b' or 'a'/'b'"
        ie.Battles.from_long(rows, player_a="a", player_b="b", winner="winner")


def test_bad_weights_counts_and_a_single_player():
    rows = battle_rows().assign(n=1.0)
    rows.loc[7, "n"] = 0
    with pytest.raises(ValueError, match="n has 1 weight that is not a positive number.*row 7"):
        ie.Battles.from_long(rows, player_a="model_a", player_b="model_b", winner="winner",
                             weight="n")
    tied_player = rows.copy()  # a player called "tie", in a tie: a warning
    tied_player.loc[0, ["model_a", "winner"]] = "tie"
    with warnings.catch_warnings():  # the weights' error before the winners' warning
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="n has 1 weight"):
            ie.Battles.from_long(tied_player, player_a="model_a", player_b="model_b",
                                 winner="winner", weight="n")
    with pytest.warns(UserWarning, match="a tie marker and a player of their battle"):
        ie.Battles.from_long(tied_player, player_a="model_a", player_b="model_b",
                             winner="winner")  # (the warning the error now comes before)
    counts = pd.read_csv(DATA / "bt2_baseball.csv")
    counts.loc[2, "home.wins"] = -1
    with pytest.raises(ValueError, match="home.wins has 1 counts.*negative.*row 2"):
        ie.Battles.from_counts(counts, player_a="home.team", player_b="away.team",
                               wins_a="home.wins", wins_b="away.wins")
    with pytest.raises(TypeError, match=r"ties= of from_counts names the column of tie counts, "
                                        r"got \['tie'\]; .* from_long's ties="):  # unhashable
        ie.Battles.from_counts(counts, player_a="home.team", player_b="away.team",
                               wins_a="home.wins", wins_b="away.wins", ties=["tie"])
    one = pd.DataFrame({"a": ["x"], "b": ["y"], "winner": ["x"]})
    with pytest.raises(ValueError, match=r"only 1 player \('x'\) in a and b"):  # said
        ie.Battles.from_long(one.assign(b="x"), player_a="a", player_b="b",  # "against
                             winner="winner")  # itself"
    with pytest.raises(TypeError, match="Battles.from_long"):
        ie.models.bradley_terry(pd.DataFrame())


def test_tie_markers_are_a_list_and_a_player_called_tie_is_said():
    rows = pd.DataFrame({"a": ["x", "y", "x"], "b": ["y", "tie", "tie"],
                         "winner": ["x", "tie", "draw"]})
    kw = dict(player_a="a", player_b="b", winner="winner")
    with pytest.raises(TypeError, match=r"ties= is a list.*ties=\['draw'\]"):
        ie.Battles.from_long(rows, **kw, ties="draw")  # was the markers 'd', 'r', 'a', 'w'
    with pytest.warns(UserWarning, match="1 value that is a tie marker and a player of "
                                         "their battle.*'tie'.*row 1"):
        battles = ie.Battles.from_long(rows, **kw)
    assert battles.ties.sum() == 2


@pytest.mark.slow
def test_davidson_recovers_simulated_arena_strengths():
    """100 models, 200 000 battles with about 10% ties (Davidson, seeded): 90% intervals
    cover 84-96% of the true strengths, R-hat <= 1.01, no divergences; the MLE (ties as
    half wins) ranks them the same way."""
    from irteval import calibration as cal

    battles, truth, _ = cal.simulate_battles(100, 200_000, np.random.default_rng(11))
    assert 0.08 < battles.ties.sum() / battles.n_battles < 0.12
    idata = quiet_fit(ie.models.bradley_terry(battles, likelihood="davidson"), random_seed=0)
    assert idata.attrs["divergences"] == 0 and idata.attrs["max_rhat"] <= 1.01
    draws = idata.posterior["strength"]
    lo, hi = draws.quantile([0.05, 0.95], ("chain", "draw")).values
    inside = ((lo <= truth["strength"]) & (truth["strength"] <= hi)).mean()
    assert 0.84 <= inside <= 0.96, inside
    mle = ie.mle_epp(battles)["epp"].to_numpy()
    assert np.corrcoef(mle, truth["strength"])[0, 1] > 0.99


def test_bootstrap_intervals_of_the_mle_are_close_to_wald_on_battles_and_scores():
    battles = baseball()
    boot = ie.bootstrap_epp(battles, n_boot=300, reference="Baltimore", random_seed=1)
    wald = ie.mle_epp(battles, reference="Baltimore")
    assert boot.attrs["ci_kind"] == "bootstrap" and boot.attrs["n_separated"] == 0
    np.testing.assert_allclose(boot["epp"], wald["epp"])
    ratio = (boot["boot_sd"] / wald["se"]).drop("Baltimore")
    assert ratio.between(0.8, 1.25).all(), ratio  # the normal approximation holds here
    assert (boot["bootstrap_lower"] < boot["epp"]).drop("Baltimore").all()
    scores = ie.Scores.from_wide(pd.DataFrame(
        np.random.default_rng(0).gumbel(size=(5, 30)) + np.arange(5)[:, None],
        index=list("abcde")))
    assert len(ie.bootstrap_epp(scores, n_boot=50)) == 5


def test_players_called_a_or_b_and_fractional_weights():
    """A winner that is a player's label is that player, even where it is also the other
    side's marker ('a'/'b'), with a warning; fractional weights with ties bootstrap (a cell
    rebuilt from their sums was -3e-17, which the multinomial refused)."""
    rows = pd.DataFrame({"p1": ["b", "a", "a"], "p2": ["a", "b", "b"], "win": ["a", "a", "b"]})
    with pytest.warns(UserWarning, match="1 value that is one player's label.*row 0"):
        battles = ie.Battles.from_long(rows, player_a="p1", player_b="p2", winner="win")
    assert battles.win_rates().to_dict() == pytest.approx({"a": 2 / 3, "b": 1 / 3})
    df = pd.DataFrame({"a": ["A", "A", "B", "B", "C", "C"], "b": ["B", "B", "C", "C", "A", "A"],
                       "winner": ["A", "tie", "B", "C", "C", "A"], "w": [0.7, 0.2, 5, 5, 5, 5]})
    weighted = ie.Battles.from_long(df, player_a="a", player_b="b", winner="winner", weight="w")
    boot = ie.bootstrap_epp(weighted, n_boot=20, random_seed=0)
    assert np.isfinite(boot["boot_sd"]).all()
    # replicated wins are whole: 0.9 matches drew int(0.9) = 0 in silence, a wrong p-value
    fit = quiet_fit(ie.models.bradley_terry(weighted), method="laplace", draws=50,
                    random_seed=0)
    with pytest.raises(ValueError, match=r"1 pairs met a fractional number of times \(battle "
                       r"weights, weight=; e.g. 0.9\)"):
        ie.goodness_of_fit(fit)
    # ten battles weighted 0.1 are one, to rounding (0.9999999999999999): the Davidson
    # model truncated it to 0 (a tie lost, -inf log-likelihood), the check refused it
    tenths = pd.DataFrame({"a": ["A", "B", "C"] * 30, "b": ["B", "C", "A"] * 30,
                           "winner": ["a"] * 30 + ["b"] * 30 + ["tie"] * 30, "w": 0.1})
    tenths = ie.Battles.from_long(tenths, player_a="a", player_b="b", winner="winner",
                                  weight="w")
    davidson = ie.models.bradley_terry(tenths, likelihood="davidson")
    assert (davidson.outcomes == 1).all()
    fit = quiet_fit(davidson, method="laplace", draws=50, random_seed=0, log_likelihood=True)
    assert np.isfinite(fit.log_likelihood["outcomes"].values).all()
    assert len(ie.goodness_of_fit(fit)) == 3


def test_a_reference_alone_in_its_component_has_se_0():
    rows = battle_rows(seed=1, n=300)
    loser = pd.DataFrame({"model_a": ["never"] * 5, "model_b": ["model-0"] * 5,
                          "winner": ["model_b"] * 5})
    battles = ie.Battles.from_long(pd.concat([rows, loser], ignore_index=True),
                                   player_a="model_a", player_b="model_b", winner="winner")
    with pytest.warns(ie.SeparationWarning):
        table = ie.mle_epp(battles, reference="never")
    assert table.loc["never", "se"] == 0 and table.loc["never", "epp"] == 0


def test_bootstrap_of_battles_grouped_by_round_counts_each_pair_once():
    """Battles with round= list a pair once per round; a bootstrap replicate that kept those
    rows apart double-booked the pair in the information matrix and moved every EPP off the
    zero-sum plane (by ~7e-3 here)."""
    rows = battle_rows(seed=3, n=600).assign(category=lambda d: np.arange(len(d)) % 3)
    battles = ie.Battles.from_long(rows, player_a="model_a", player_b="model_b",
                                   winner="winner", round="category", player_name="model")
    boot = ie.bootstrap_epp(battles, n_boot=20, random_seed=0)
    assert abs(boot["boot_mean"].sum()) < 1e-9
    pooled = ie.Battles.from_long(rows, player_a="model_a", player_b="model_b",
                                  winner="winner", player_name="model")
    np.testing.assert_allclose(boot["epp"], ie.mle_epp(pooled)["epp"])


def test_battles_grouped_by_round_fit_the_hierarchy():
    """Per-category strengths: a model that is better in one category only."""
    from irteval import calibration as cal

    rng = np.random.default_rng(5)
    parts = []
    for k, category in enumerate(["code", "math", "chat"]):
        rows = cal.simulate_battles(5, 1500, rng)[2]
        if category == "code":  # model-000 wins every battle it plays in "code"
            a0, b0 = rows["model_a"] == "model-000", rows["model_b"] == "model-000"
            rows.loc[a0, "winner"], rows.loc[b0, "winner"] = "model_a", "model_b"
        parts.append(rows.assign(category=category))
    rows = pd.concat(parts, ignore_index=True)
    battles = ie.Battles.from_long(rows, player_a="model_a", player_b="model_b",
                                   winner="winner", round="category", player_name="model")
    assert battles.n_rounds == 3 and len(battles.round_pairs()) == 30
    assert len(battles.pairs()) == 10 and battles.pairs()["matches"].sum() == 4500
    assert repr(battles).endswith("3 rounds of 'category')")
    np.testing.assert_allclose(ie.mle_epp(battles)["epp"], ie.mle_epp(
        ie.Battles.from_long(rows, player_a="model_a", player_b="model_b", winner="winner",
                             player_name="model"))["epp"])
    idata = quiet_fit(ie.models.bradley_terry(battles, hierarchy="round"), random_seed=0,
                      draws=300, tune=400, chains=2)
    code = ie.leaderboard(idata, task="code")
    assert code.index[0] == "model-000" and code["p_best"].iloc[0] > 0.9
    played = [ie.leaderboard(idata, task=t)["matches"].sort_index() for t in ("math", "chat")]
    total = ie.leaderboard(idata)["matches"].sort_index()
    assert (code["matches"].sort_index() + sum(played) == total).all() and total.sum() == 9000
    assert float(idata.posterior["tau"].mean()) > 0.5
    bare = idata.copy()  # a model of the battles without their rounds: the option is named
    del bare.posterior_predictive
    flat = ie.Battles.from_long(rows, player_a="model_a", player_b="model_b", winner="winner",
                                player_name="model")
    with pytest.raises(ValueError, match="not the fit's.*made with hierarchy='round' "
                                         r"\(this model: 'None'\)"):
        ie.add_posterior_predictive(bare, ie.models.bradley_terry(flat))
    by_round = ie.goodness_of_fit(idata, max_draws=20)
    assert len(by_round) == 30 and by_round.index.name == "pair" and by_round.index.is_unique
    assert {"player_i", "player_j"} <= set(by_round)
    with pytest.raises(ValueError, match="pass round="):
        ie.models.bradley_terry(baseball(), hierarchy="round")


def test_numbered_players_with_a_text_winner_column_say_how_to_match_them():
    """pandas reads players 1, 2, 3 as numbers and a winner column that also holds 'tie' as
    text: the winners '1', '3' named neither player, with no word of why."""
    df = pd.read_csv(io.StringIO("model_a,model_b,winner\n1,2,1\n2,3,3\n3,1,tie\n"))
    with pytest.raises(ValueError, match=r"players' labels as text, and the player columns "
                                         r"hold numbers.*astype\(str\)"):
        ie.Battles.from_long(df, player_a="model_a", player_b="model_b", winner="winner")


def test_groups_that_never_met_are_said_by_the_fit_and_the_mle():
    """Two groups of players who never met one another: the gap between the groups is set
    by the prior alone, and both the Bayesian model and mle_epp say so, naming the groups."""
    rows = battle_rows(n_players=5)
    rows = pd.concat([rows, pd.DataFrame({"model_a": ["F x", "G,ü"] * 10,
                                          "model_b": ["G,ü", "F x"] * 10,
                                          "winner": ["model_a", "model_b"] * 10})])
    battles = ie.Battles.from_long(rows, player_a="model_a", player_b="model_b",
                                   winner="winner")
    with pytest.warns(ie.IdentificationWarning, match=r"2 groups that never met one another "
                      r"\(sizes \[5, 2\]; first of each: \['model-\d', 'model-\d', "
                      r"'model-\d'\]; \['[FG][^']*', '[FG][^']*'\]\)"):
        ie.models.bradley_terry(battles)
    with pytest.warns(ie.SeparationWarning, match=r"never beat \(or never met\).*; \['"):
        ie.mle_epp(battles)
    with warnings.catch_warnings():  # one group: nothing said
        warnings.simplefilter("error", ie.IdentificationWarning)
        ie.models.bradley_terry(ie.Battles.from_long(battle_rows(n_players=5),
                                                     player_a="model_a", player_b="model_b",
                                                     winner="winner"))


def test_counts_with_ties_are_the_battles_they_count():
    """from_counts with ties=, a pair on two rows in either order: the same pairs (ties half a
    win each) as the battles one by one through from_long."""
    counts = pd.DataFrame({"a": ["x", "y", "x"], "b": ["y", "x", "z"], "wa": [3, 1, 0],
                           "wb": [1, 0, 2], "t": [2, 1, 1]})
    battles = ie.Battles.from_counts(counts, player_a="a", player_b="b", wins_a="wa",
                                     wins_b="wb", ties="t")
    rows = [(a, b, winner) for a, b, wa, wb, t in counts.itertuples(index=False)
            for winner in [a] * wa + [b] * wb + ["tie"] * t]
    one_by_one = ie.Battles.from_long(pd.DataFrame(rows, columns=["a", "b", "winner"]),
                                      player_a="a", player_b="b", winner="winner")
    pairs = battles.pairs()
    pd.testing.assert_frame_equal(pairs, one_by_one.pairs())
    xy = pairs.set_index(["player_i", "player_j"]).loc[("x", "y")]
    assert (xy["matches"], xy["wins_i"], xy["ties"]) == (8, 3 + 3 / 2, 3)


def test_replicated_battles_keep_the_expected_score_and_the_share_of_ties():
    from irteval.models.bradley_terry import half_win_replicates

    rng = np.random.default_rng(0)
    score = np.array([0.5, 0.8, 0.95])  # the last leaves room for a tie share of 0.1 only
    wins = half_win_replicates(np.full(3, 200000), np.full(3, 60000), score, rng)
    np.testing.assert_allclose(wins / 200000, score, atol=0.004)
    halves = half_win_replicates(np.full(3, 40), np.full(3, 12), score, rng, size=(5000, 3))
    assert ((halves % 1) == 0.5).any() and (np.abs(halves.mean(axis=0) / 40 - score) < 0.01).all()
    # the model's replicates: halves where the data have ties, whole counts where they have none
    battles = ie.Battles.from_long(battle_rows(tie_share=0.3), player_a="model_a",
                                   player_b="model_b", winner="winner")
    model = ie.models.bradley_terry(battles)
    draws = pm.draw(model["wins"], draws=200, random_seed=1)
    tied = battles.pairs()["ties"].to_numpy() > 0
    assert ((draws[:, tied] % 1) == 0.5).any() and ((draws[:, ~tied] % 1) == 0).all()


def test_pairwise_log_likelihood_is_the_binomial_log_probability():
    """log_likelihood["wins"] per pair is log Binomial(w | n, p) (az.loo's elpd a log
    probability; the coefficient was left out) and, with half-wins, its gamma-function form."""
    from scipy.special import gammaln
    from scipy.stats import binom

    from irteval.models.bradley_terry import _pairwise_logp

    wins, matches, diff = np.array([3.0, 0.0, 7.0]), np.array([5.0, 4.0, 7.0]), np.array(
        [0.4, -1.2, 2.0])
    np.testing.assert_allclose(_pairwise_logp(wins, matches, 0 * wins, diff).eval(),
                               binom.logpmf(wins, matches, 1 / (1 + np.exp(-diff))))
    half = _pairwise_logp(np.array(2.5), np.array(4.0), np.array(1.0), np.array(0.3)).eval()
    p = 1 / (1 + np.exp(-0.3))
    assert half == pytest.approx(gammaln(5) - gammaln(3.5) - gammaln(2.5) + 2.5 * np.log(p)
                                 + 1.5 * np.log(1 - p))
