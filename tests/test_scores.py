import warnings

import numpy as np
import pandas as pd
import pytest

from irteval import Scores


def frame():
    return pd.DataFrame({"model": ["a", "b", "c", "a", "b", "c"],
                         "split": [1, 1, 1, 2, 2, 2],
                         "auc": [0.9, 0.8, 0.8, 0.7, 0.75, 0.6]})


def test_pairs_count_each_unordered_pair_once_with_half_wins():
    pairs = Scores.from_long(frame(), player="model", round="split", score="auc").pairs()
    pairs = pairs.set_index(["player_i", "player_j"])
    assert len(pairs) == 3
    assert pairs.loc[("a", "b"), ["matches", "wins_i", "ties"]].tolist() == [2, 1, 0]
    assert pairs.loc[("b", "c"), ["matches", "wins_i", "ties"]].tolist() == [2, 1.5, 1]
    assert pairs.loc[("a", "c"), "wins_i"] == 2


def test_lower_is_better_flips_wins_and_missing_players_are_not_compared():
    df = frame().assign(auc=lambda d: -d["auc"])
    low = Scores.from_long(df, player="model", round="split", score="auc",
                           higher_is_better=False).pairs()
    high = Scores.from_long(frame(), player="model", round="split", score="auc").pairs()
    pd.testing.assert_frame_equal(low, high)
    wide = pd.DataFrame({"r1": [1.0, 2.0, np.nan], "r2": [3.0, 1.0, 2.0]}, index=["a", "b", "c"])
    pairs = Scores.from_wide(wide).pairs().set_index(["player_i", "player_j"])
    assert pairs.loc[("a", "c"), "matches"] == 1 and pairs.loc[("a", "b"), "matches"] == 2


def test_a_score_named_like_a_time_or_an_error_warns_when_higher_is_better_by_default():
    """A leaderboard of run times without higher_is_better=False ranked the slowest first
    in silence (its repr says "higher is better", easy to miss)."""
    for name in ("seconds", "error_rate", "Test Loss", "rank"):
        with pytest.warns(UserWarning, match=rf"score '{name}' reads as lower-is-better.*"
                                             r"higher_is_better=False if lower is better"):
            scores = Scores.from_long(frame().rename(columns={"auc": name}), player="model",
                                      round="split", score=name)
        assert scores.higher_is_better
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for given in (True, False):  # said: no warning
            Scores.from_long(frame().rename(columns={"auc": "seconds"}), player="model",
                             round="split", score="seconds", higher_is_better=given)
        Scores.from_long(frame().rename(columns={"auc": "top1_accuracy"}), player="model",
                         round="split", score="top1_accuracy")  # 'top', 'accuracy'


def test_higher_is_better_is_true_or_false_before_any_scores_are_read():
    """The text "False" (true) ranked a table of run times slowest first."""
    bad = frame().astype({"auc": object})
    bad.loc[0, "auc"] = "n/a"  # a score that reading them would refuse first
    wide = bad.pivot(index="model", columns="split", values="auc")
    for build in (lambda: Scores.from_long(bad, player="model", round="split", score="auc",
                                           higher_is_better="False"),
                  lambda: Scores.from_wide(wide, higher_is_better="False")):
        with pytest.raises(TypeError, match="higher_is_better= is True or False, got 'False'"):
            build()


def test_ties_are_counted_in_the_rounds_that_have_them_and_absent_players_never_tie():
    wide = pd.DataFrame({"r1": [1.0, 1.0, 2.0, np.nan, np.nan], "r2": [3.0, 1.0, 2.0, 0.0, 5.0],
                         "r3": [np.nan, np.nan, 1.0, 1.0, 0.0]}, index=list("abcde"))
    pairs = Scores.from_wide(wide).pairs().set_index(["player_i", "player_j"])
    assert pairs.loc[("a", "b"), ["matches", "wins_i", "ties"]].tolist() == [2, 1.5, 1]
    assert pairs.loc[("c", "d"), ["matches", "wins_i", "ties"]].tolist() == [2, 1.5, 1]
    assert pairs.loc[("d", "e"), ["matches", "ties"]].tolist() == [2, 0]  # r1: both absent
    assert pairs["ties"].sum() == 2


def test_pair_table_is_vectorised_over_players():
    scores = Scores.from_wide(pd.DataFrame(np.random.default_rng(0).normal(size=(300, 20))))
    pairs = scores.pairs()
    assert len(pairs) == 300 * 299 // 2 and (pairs["matches"] == 20).all()
    assert np.isclose(pairs["wins_i"].sum() + (20 - pairs["wins_i"]).sum(), 20 * len(pairs))


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d[d.model == "a"], "only 1 model"),
    (lambda d: d.assign(split=range(6)), "no split has two models"),
    (lambda d: pd.concat([d, d.iloc[[0]].assign(auc=0.1)], ignore_index=True),
     r"1 \(model, split\) pair appears more than once with different 'auc' values, e\.g\. "
     r"\('a', 1\) at rows 0, 6 \(0-based positions\)"),
    (lambda d: d.assign(model=["a", None, "c", "a", "b", "c"]), "model has 1 missing label"),
    (lambda d: d.drop(columns="auc"), "no column 'auc': the columns are"),
    (lambda d: d.assign(auc="high"), "not numbers"),
])
def test_bad_input_names_the_problem(mutate, message):
    with pytest.raises(ValueError, match=message):
        Scores.from_long(mutate(frame()), player="model", round="split", score="auc")


def test_missing_and_repeated_scores_follow_the_responses_policy():
    """A missing score leaves the player out of that round, an identical repeat is kept once
    (both with a warning that counts them), as Responses.from_long does."""
    df = frame().assign(auc=[np.nan, 0.7, 0.8, 0.6, 0.9, 0.5])
    with pytest.warns(UserWarning, match=r"1 row has a missing 'auc' \(row 0"):
        scores = Scores.from_long(df, player="model", round="split", score="auc")
    assert np.isnan(scores.matrix).sum() == 1
    with pytest.warns(UserWarning, match=r"1 duplicate \(model, split\) rows with identical "
                      r"values \(row 6 \(0-based positions\)\) were kept once"):
        again = Scores.from_long(pd.concat([df, df.iloc[[1]]]), player="model", round="split",
                                 score="auc")
    np.testing.assert_array_equal(np.isnan(again.matrix), np.isnan(scores.matrix))


def test_rounds_with_one_player_warn():
    df = pd.concat([frame(), pd.DataFrame({"model": ["a"], "split": [3], "auc": [0.5]})])
    with pytest.warns(UserWarning, match="1 split has fewer than two models"):
        Scores.from_long(df, player="model", round="split", score="auc")
