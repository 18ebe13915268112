import warnings

import numpy as np
import pandas as pd
import pytest

import irteval as ie
from irteval import Responses, Scores


def long_frame():
    return pd.DataFrame({"model": ["a", "a", "b", "b", "c"],
                         "instance": [1, 2, 1, 2, 1],
                         "correct": [1, 0, 1, 1, 0]})


def test_long_and_wide_agree():
    df = long_frame()
    r1 = Responses.from_long(df, respondent="model", item="instance", value="correct")
    wide = df.pivot(index="instance", columns="model", values="correct")
    r2 = Responses.from_wide(wide, respondent="model", item="instance", rows="item")
    pd.testing.assert_frame_equal(r1.to_wide().sort_index().sort_index(axis=1),
                                  r2.to_wide().sort_index().sort_index(axis=1),
                                  check_names=False)
    assert r1.n_obs == 5 and r1.n_items == 2 and r1.n_respondents == 3
    assert list(r1.items) == [1, 2] and r1.item_name == "instance"
    assert np.isnan(r1.to_wide(rows="item").loc[2, "c"])  # missing cell kept missing
    # the same matrix without labels, and the mask of the observed cells
    np.testing.assert_array_equal(r1.dense(fill=np.nan), [[1, 0], [1, 1], [0, np.nan]])
    np.testing.assert_array_equal(r1.dense(1.0, rows="item"), [[1, 1, 1], [1, 1, 0]])
    assert r1.dense(rows="item", dtype=np.int8).flags.c_contiguous
    assert r1.dense().flags.c_contiguous
    ordinal = Responses.from_wide(pd.DataFrame({"x": [3, 5], "y": [5, 4]}, index=["a", "b"]),
                                  kind="ordinal")  # codes of the levels 3, 4, 5
    np.testing.assert_array_equal(ordinal.dense(dtype=int), [[0, 2], [2, 1]])
    np.testing.assert_array_equal(ordinal.to_wide().to_numpy(), [[3, 5], [5, 4]])
    with pytest.raises(ValueError, match="rows must be 'respondent' or 'item'"):
        r1.dense(rows="items")


def test_wide_rows_are_respondents_by_default_and_label_column_is_used():
    df = pd.DataFrame({"model": ["x", "y"], "q1": [1, 0], "q2": [True, False]})
    r = Responses.from_wide(df, respondent="model", item="question")
    assert list(r.respondents) == ["x", "y"] and list(r.items) == ["q1", "q2"]
    assert r.to_wide(rows="item").loc["q2", "x"] == 1
    # to_wide reads like from_wide: respondents as rows by default, so the two round-trip
    back = Responses.from_wide(r.to_wide(), respondent="model", item="question")
    pd.testing.assert_frame_equal(back.to_wide(), r.to_wide())


def test_rows_named_as_instances_but_read_as_respondents_warn():
    """A matrix read with pd.read_csv(..., index_col=0) whose rows are instances became 60
    'items' x 30 respondents called 'instance' without a word."""
    df = pd.DataFrame([[1, 0, 1], [0, 0, 1]], columns=["m1", "m2", "m3"],
                      index=pd.Index(["i1", "i2"], name="instance"))
    with pytest.warns(UserWarning, match=r"the rows are named 'instance' and are read as "
                      r"respondents .*if each row is an instance, pass rows='item'"):
        assert Responses.from_wide(df).respondent_name == "instance"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # said which way: no warning
        assert Responses.from_wide(df, rows="item").n_items == 2
        assert Responses.from_wide(df.rename_axis("model")).n_respondents == 2


def test_subset_and_long_round_trip():
    r = Responses.from_long(long_frame(), respondent="model", item="instance", value="correct")
    sub = r.subset(respondents=["a", "b"])
    assert sub.n_obs == 4 and list(sub.respondents) == ["a", "b"]
    back = Responses.from_long(r.to_long(), respondent="model", item="instance", value="value")
    assert back.n_obs == r.n_obs
    with pytest.raises(ValueError, match="unknown model labels"):
        r.subset(respondents=["zz"])
    with pytest.raises(ValueError, match="only one model \\('a'\\)"):  # not pandas' isin error
        r.subset(respondents="a")
    with pytest.raises(ValueError, match="only one item .*at least two"):
        Responses.from_wide(pd.DataFrame({"only": [1, 0, 1]}, index=["m1", "m2", "m3"]))


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.assign(model=[None, "a", "b", "b", "c"]),  # 'NA' read by pandas: the fix
     r"model has 1 missing label .*keep_default_na=False, na_values=\[''\]"),
    (lambda d: d.assign(instance=[1, np.nan, 1, 2, 1]), "instance has 1 missing label"),
    (lambda d: pd.concat([d, d.iloc[[0]].assign(correct=0)]),
     r"1 \(model, instance\) pair appears more than once with different 'correct'"),
    (lambda d: d.assign(correct=[1, 0, 2, 1, 0]),
     r"must be 0/1 .* found 1 other value, e.g. 2 \(row 2 \(0-based"),
    (lambda d: d.assign(correct=[1, 0, 0.5, 1, 0]),
     "must be 0/1.*for partial credit, make it 0/1 first.*kind='continuous'"),
    (lambda d: d.assign(correct=["yes", 0, 1, 1, 0]), "not numbers, e.g. \\['yes'\\]"),
    (lambda d: d.assign(correct=["1", "0,5", "1", "0", "1"]),
     r"not numbers, e.g. \['0,5'\].*decimal commas.*decimal=','"),
    (lambda d: d.assign(correct=["True", "False", "true", "True", "False"]),  # dtype=str
     r"True/False written as text: map them, e.g. \.str\.lower\(\)\.map\(\{'true': 1"),
    (lambda d: d.assign(correct=["correct", "wrong ", "Wrong", "correct", "wrong"]),  # a probe's
     r"two words: in Python map them, e\.g\. \.str\.strip\(\)\.str\.lower\(\)\.map\(\{'correct': "
     r"1, 'wrong': 0\}\); in a file write 1 and 0$"),
    (lambda d: d.assign(correct=["A", "B", "B", "A", "B"]),
     r"map\(\{'a': 1, 'b': 0\}\) \(1 for the one that means right\)"),
    (lambda d: d.assign(correct=[np.inf, 0, 1, 1, 0]), "infinite values"),
    (lambda d: d[d.model == "a"], "only one model \\('a'\\)"),
    (lambda d: d.iloc[:0], "the data frame is empty"),
    (lambda d: d.drop(columns="correct"), "no column 'correct': the columns are"),
    (lambda d: d.rename(columns={"correct": "corect"}),
     r"no column 'correct'.*value= \(did you mean 'corect'\?\)"),
    (lambda d: d.assign(correct=np.nan), "has no observed values"),
    (lambda d: d.drop(columns="correct").assign(**{f"c{k}": 0 for k in range(12)}),
     r"no column 'correct': the columns are \['model', 'instance', 'c0', .*'c7'\] and 4 more; "),
    (lambda d: d.assign(correct=pd.to_datetime(["2020-01-01"] * 5)),  # was "found 1 other
     r"correct holds dates, dtype datetime64.*, which irteval does not read as numbers"),  # value"
    (lambda d: d.assign(correct=pd.to_timedelta([1, 2, 3, 4, 5], unit="s")),
     r"correct holds durations \(as seconds: \.dt\.total_seconds\(\)\)"),
    (lambda d: d.assign(correct=np.array([1, 0, 1, 1, 0]) + 0j),  # cut to their real parts
     r"correct holds complex numbers"),
])
def test_bad_long_input_names_the_problem(mutate, message):
    with pytest.raises(ValueError, match=message):
        Responses.from_long(mutate(long_frame()), respondent="model", item="instance",
                            value="correct")


def test_rows_of_an_index_that_repeats_labels_are_located_by_position():
    first = pd.DataFrame({"m": ["a", "b"], "q": ["x", "x"], "v": [1, 0]})
    second = pd.DataFrame({"m": ["a", "b"], "q": ["x", "y"], "v": [0, 1]})
    with pytest.raises(ValueError, match=r"\('a', 'x'\) at rows 0, 2 \(0-based positions\)"):
        Responses.from_long(pd.concat([first, second]), respondent="m", item="q",
                            value="v")  # "at rows labelled 0, 0"
    gap = first.assign(v=[np.nan, 1])  # a row with no value is left out before the search
    with pytest.raises(ValueError, match=r"\('b', 'x'\) at rows 1, 2 \(0-based positions\)"):
        Responses.from_long(pd.concat([gap, second.assign(m=["b", "a"])]), respondent="m",
                            item="q", value="v")


def test_a_list_where_a_column_is_named_is_refused_by_its_keyword():
    with pytest.raises(TypeError, match=r"respondent= names one column, got a list: \['model'\]"):
        Responses.from_long(long_frame(), respondent=["model"], item="instance",
                            value="correct")  # was pandas' "unhashable type: 'list'"


def test_values_other_than_0_1_are_located():
    wide = pd.DataFrame({"a": [1, 2], "b": [0, 1]}, index=pd.Index(["x", "y"], name="instance"))
    with pytest.raises(ValueError, match=r"found 1 other value, e.g. 2 \(model 'a', "
                                         r"instance 'y'\)"):
        Responses.from_wide(wide, respondent="model", rows="item")
    with pytest.raises(ValueError, match=r"e.g. 0.5 \(row labelled 7\)"):
        Responses.from_long(long_frame().set_axis([3, 5, 7, 9, 11]).assign(
            correct=[1, 0, 0.5, 1, 0]), respondent="model", item="instance", value="correct")


def test_frames_with_two_column_levels_or_repeated_names_are_refused():
    long = pd.DataFrame({"model": ["a", "b", "a", "b"], "instance": ["x", "x", "y", "y"],
                         "correct": [1, 0, 0, 1]})
    with pytest.raises(ValueError, match=r"columns have 2 levels.*'_'.join"):
        Responses.from_wide(long.pivot_table(index="instance", columns="model",
                                             values=["correct"]))  # was pandas' own error
    with pytest.raises(ValueError, match=r"duplicate column labels \['model'\]"):
        Responses.from_long(long.set_axis(["model", "model", "correct"], axis=1),
                            respondent="model", item="instance", value="correct")
    extra = pd.concat([long, long[["correct"]].rename(columns={"correct": "note"})] * 1
                      + [long[["model"]].rename(columns={"model": "note"})], axis=1)
    assert Responses.from_long(extra, respondent="model", item="instance",
                               value="correct").n_obs == 4  # a repeated unread column is fine


def test_scale_options_of_another_kind_are_refused():
    ok = pd.DataFrame({"m1": [1, 0], "m2": [0, 1]}, index=["i1", "i2"])
    with pytest.raises(ValueError, match=r"bounds=, transform= only apply to kind='continuous', "
                                         r"and these are kind='binary'"):
        Responses.from_wide(ok, bounds=(0, 1), transform="airt")  # were ignored
    with pytest.raises(ValueError, match="cuts= only applies to kind='ordinal'"):
        Responses.from_wide(ok, kind="continuous", cuts=3)
    with pytest.raises(ValueError, match="clip=0.2 applies to transform='logit'"):
        Responses.from_wide(ok, kind="continuous", transform="airt", clip=0.2)  # ignored
    with pytest.raises(ValueError, match="levels= declares .* give one of them"):
        Responses.from_wide(ok + 1, kind="ordinal", cuts=3, levels=[1, 2])


def test_a_column_of_row_numbers_is_said():
    perf = pd.DataFrame(np.random.default_rng(0).random((10, 3)), columns=list("ABC"))
    with pytest.warns(UserWarning, match=r"column 'id' counts up by 1 down every row.*pass "
                                         r"respondent='id' \(a row per dataset\), or drop"):
        resp = Responses.from_wide(perf.assign(id=range(1000, 1010)), kind="continuous")
    assert resp.n_items == 4  # read as data, as given
    with pytest.warns(UserWarning, match="pass player='n'"):
        Scores.from_wide(perf.assign(n=range(10)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # sorted whole-number scores do not count up evenly
        Scores.from_wide(perf.assign(n=[3, 5, 8, 10, 12, 15, 16, 20, 21, 30]))


def test_labels_of_two_types_that_print_alike_are_said():
    df = pd.DataFrame({"model": [1, "1", 2, 2, 1, "1"], "instance": list("aaabbb"),
                       "correct": [1, 0, 1, 0, 1, 1]})
    # kept apart with a warning once; but no netCDF holds text beside numbers: refused
    with pytest.raises(ValueError, match=r"model mixes text and other labels \(e.g. '1' beside "
                       r"1; rows 1, 5 .*\[1, '1'\] print alike and would become one label"):
        Responses.from_long(df, respondent="model", item="instance", value="correct")


def test_identical_duplicates_and_missing_values_warn_with_counts():
    df = pd.concat([long_frame(), long_frame().iloc[[0, 1]]])
    with pytest.warns(UserWarning, match="2 duplicate"):
        r = Responses.from_long(df, respondent="model", item="instance", value="correct")
    assert r.n_obs == 5
    df = long_frame().assign(correct=[1, 0, np.nan, 1, 0])
    with pytest.warns(UserWarning, match="1 row has a missing 'correct'") as record:
        r = Responses.from_long(df, respondent="model", item="instance", value="correct")
    assert r.n_obs == 4 and "had no other rows" not in str(record[0].message)
    gone = pd.DataFrame({"model": ["A", "A", "B", "C"], "instance": ["i1", "i2", "i1", "i3"],
                         "correct": [1, 0, 1, np.nan]})  # C and i3: one row, missing
    with pytest.warns(UserWarning, match=r"model \['C'\] and instance \['i3'\] had no other "
                                         "rows, so they are not in the data now"):
        r = Responses.from_long(gone, respondent="model", item="instance", value="correct")
    assert list(r.respondents) == ["A", "B"]


def test_bad_wide_input_names_the_problem():
    ok = pd.DataFrame({"m1": [1, 0], "m2": [0, 1]}, index=["i1", "i2"])
    with pytest.raises(ValueError, match="duplicate column labels"):
        Responses.from_wide(ok.rename(columns={"m2": "m1"}), rows="item")
    # an empty row or column is left out with a warning, as from_long leaves them
    with pytest.warns(UserWarning, match=r"1 instance \['i3'\] and 1 respondent \['m3'\] had "
                                         "no observed value, so they are not in the data"):
        r = Responses.from_wide(ok.assign(m3=np.nan).rename_axis("instance")
                                .reindex(["i1", "i2", "i3"]), rows="item")
    assert list(r.items) == ["i1", "i2"] and list(r.respondents) == ["m1", "m2"]
    with pytest.raises(ValueError, match="there are no observed cells"):
        Responses.from_wide(ok * np.nan, rows="item")
    with pytest.raises(ValueError, match="only one respondent"):
        Responses.from_wide(ok[["m1"]], rows="item")
    with pytest.raises(ValueError, match="rows must be"):
        Responses.from_wide(ok, rows="models")
    with pytest.raises(TypeError, match=r"got ndarray; .*pd.DataFrame\(values, index=rows"):
        Responses.from_wide(ok.to_numpy())
    with pytest.raises(ValueError, match="kind=.nominal. is not supported"):
        Responses.from_wide(ok, kind="nominal")
    with pytest.raises(ValueError, match="index .* has 1 missing label"):
        Responses.from_wide(ok.set_axis(["i1", None]), rows="item")
    labelled = ok.rename_axis("instance").reset_index()  # the labels left as a column
    with pytest.raises(ValueError, match="if column 'instance' labels the rows, pass "
                                         "respondent='instance' .* or item='instance', "
                                         "rows='item'"):
        Responses.from_wide(labelled, rows="item")
    with pytest.raises(ValueError, match="if column 'instance' labels the rows, pass "
                                         "player='instance'"):
        Scores.from_wide(labelled)
    twice = pd.concat([labelled, labelled.iloc[:1]], ignore_index=True)  # one label repeated
    with pytest.raises(ValueError, match="if column 'instance' labels the rows"):
        Responses.from_wide(twice, rows="item")


def test_tuple_and_multilevel_row_labels_and_one_column_twice_are_refused():
    """Tuple labels passed here and failed in the fit (nutpie, netCDF); a MultiIndex of rows
    was pandas' NotImplementedError; the value column as the item column built nonsense."""
    wide = pd.DataFrame([[1, 0, 1], [0, 1, 1], [1, 1, 0]], columns=["m1", "m2", "m3"],
                        index=pd.Index([("a", 1), ("a", 2), ("b", 1)], tupleize_cols=False))
    with pytest.raises(ValueError, match=r"3 tuple labels \(e.g. \('a', 1\).*' / '.join"):
        Responses.from_wide(wide, rows="item")
    with pytest.raises(ValueError, match="the rows have 2 levels of labels"):
        Responses.from_wide(wide.set_axis(pd.MultiIndex.from_tuples(wide.index)), rows="item")
    with pytest.raises(ValueError, match="item= and value= both name the column 'v'"):
        Responses.from_long(pd.DataFrame({"r": ["a", "b"], "v": [1, 0]}), respondent="r",
                            item="v", value="v")
    # text beside a number fitted, then to_netcdf failed with xarray's "unable to infer dtype"
    with pytest.raises(ValueError, match=r"index \(item labels\) mixes text and other labels "
                       r"\(e.g. 5 beside 'i0'; row 2 .*\.astype\(str\)"):
        Responses.from_wide(wide.set_axis(["i0", "i1", 5]), rows="item")
    with pytest.raises(ValueError, match=r"columns \(item labels\) mixes text and other labels "
                       r"\(e.g. 5 beside 'i0'; column 2 \(0-based positions\)\)"):  # not row
        Responses.from_wide(wide.set_axis(["i0", "i1", 5]).T)
    with pytest.raises(ValueError, match=r"model mixes text and other labels \(e.g. 3 beside"):
        Scores.from_long(pd.DataFrame({"model": ["a", "a", 3, 3], "round": [1, 2, 1, 2],
                                       "score": [0.1, 0.2, 0.3, 0.4]}),
                         player="model", round="round", score="score")


def test_one_column_in_two_roles_and_an_index_for_a_column_are_refused_by_every_constructor():
    """Scores and Battles took one column for two roles (every round all ties, every battle
    won by player a); a label column that is the index was called missing."""
    long = pd.DataFrame({"p": list("abcabc"), "r": [1, 1, 1, 2, 2, 2],
                         "s": [.9, .8, .7, .6, .9, .5]})
    with pytest.raises(ValueError, match="round= and score= both name the column 'r'"):
        ie.Scores.from_long(long, player="p", round="r", score="r")
    rows = pd.DataFrame({"model_a": ["x", "y"], "model_b": ["y", "x"], "winner": ["x", "x"]})
    with pytest.raises(ValueError, match="player_a= and winner= both name the column"):
        ie.Battles.from_long(rows, player_a="model_a", player_b="model_b", winner="model_a")
    counts = pd.DataFrame({"a": ["x", "y"], "b": ["y", "x"], "wa": [3, 1], "wb": [1, 2]})
    with pytest.raises(ValueError, match="wins_a= and wins_b= both name the column 'wa'"):
        ie.Battles.from_counts(counts, player_a="a", player_b="b", wins_a="wa", wins_b="wa")
    with pytest.raises(ValueError, match="wins_a= and ties= both name the column 'wa'"):
        ie.Battles.from_counts(counts, player_a="a", player_b="b", wins_a="wa", wins_b="wb",
                               ties="wa")
    with pytest.raises(ValueError, match=r"no column None: the columns are.*round="):
        ie.Scores.from_long(long, player="p", round=None, score="s")  # (review) a KeyError
    with pytest.raises(ValueError, match=r"'p' is the data frame's index.*df.reset_index\(\)"):
        ie.Scores.from_long(long.set_index("p"), player="p", round="r", score="s")
    with pytest.raises(ValueError, match=r"'model_a' is the data frame's index"):
        ie.Battles.from_long(rows.set_index("model_a"), player_a="model_a",
                             player_b="model_b", winner="winner")


def test_bounds_tables_name_each_item_once_as_a_pair():
    """A repeated item in a bounds table shifted the bounds onto other items (s2 scaled
    with s1's upper bound); a triple was pandas' length error."""
    wide = pd.DataFrame({"s1": [.1, .5, .9], "s2": [.2, .4, .6]}, index=list("abc"))
    table = pd.DataFrame({"lower": [0, 0, 0], "upper": [1, 2, 2]}, index=["s2", "s1", "s1"])
    with pytest.raises(ValueError, match=r"bounds name items \['s1'\] more than once"):
        Responses.from_wide(wide, kind="continuous", bounds=table)
    with pytest.raises(ValueError, match=r"bounds for item 's1' must be a pair of numbers \(lo, "
                                         r"hi\)"):
        Responses.from_wide(wide, kind="continuous", bounds={"s1": (0, 1, 5), "s2": (0, 2)})
    as_series = pd.Series([(0, 2), (0, 1)], index=["s1", "s2"])  # its repr was the message
    assert Responses.from_wide(wide, kind="continuous", bounds=as_series).upper.tolist() == [
        2.0, 1.0]
    one_pair = pd.Series([0.0, 2.0])  # two numbers: one pair for every item, as a tuple
    assert Responses.from_wide(wide, kind="continuous", bounds=one_pair).upper.tolist() == [
        2.0, 2.0]
    with pytest.raises(ValueError, match="needs the columns 'lower' and 'upper'"):
        Responses.from_wide(wide, kind="continuous", bounds=pd.DataFrame({"lo": [0]}))
    ok = Responses.from_wide(wide, kind="continuous", bounds=table.iloc[:2])
    assert ok.upper.tolist() == [2.0, 1.0]  # s1, s2 by label


def test_round_labels_of_different_types_that_print_alike_are_said():
    rows = pd.DataFrame({"model_a": list("xyxy"), "model_b": list("yxyx"),
                         "winner": list("xyyx"), "cat": pd.Series(["u", "u", 1, "1"],
                                                                  dtype=object)})
    with pytest.raises(ValueError, match=r"cat mixes text and other labels \(e.g. 1 beside "
                       r"'u'; row 2 .*\[1, '1'\] print alike"):
        ie.Battles.from_long(rows, player_a="model_a", player_b="model_b", winner="winner",
                             round="cat")
    with pytest.raises(ValueError, match="model_a holds text and model_b other labels"):
        ie.Battles.from_long(rows.assign(model_b=[1, 2, 1, 2]), player_a="model_a",
                             player_b="model_b", winner="winner")


def test_labels_that_differ_only_by_end_spaces_are_said():
    """'gpt-4' and 'gpt-4 ' (a CSV's stray space) were two players in silence."""
    long = pd.DataFrame({"model": ["a", "a ", "b", "b"], "instance": [1, 2, 1, 2],
                         "correct": [1, 0, 1, 1]})
    with pytest.warns(UserWarning, match=r"model has labels that differ only in case or by "
                                         r"spaces at their ends, e\.g\. \['a', 'a '\].*"
                                         r"\.str\.strip\(\).*in a file, edit them"):
        Responses.from_long(long, respondent="model", item="instance", value="correct")
    wide = pd.DataFrame([[1.0, 2.0], [3.0, 1.0]], index=["m", " m"], columns=["r1", "r2"])
    with pytest.warns(UserWarning, match="differ only in case or by spaces"):
        Scores.from_wide(wide)
    with pytest.warns(UserWarning, match=r"e\.g\. \['M', 'm'\]"):  # case alone too
        Scores.from_wide(wide.set_axis(["M", "m"]))
    rows = pd.DataFrame({"model_a": ["x", "y "], "model_b": ["y", "x"], "winner": ["x", "x"]})
    with pytest.warns(UserWarning, match="model has labels that differ only in case or by"):
        ie.Battles.from_long(rows, player_a="model_a", player_b="model_b", winner="winner")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # distinct labels with inner spaces are fine
        Responses.from_long(long.assign(model=["a b", "ab", "b", "b"]), respondent="model",
                            item="instance", value="correct")
        # instance ids may be case-sensitive (hashes): only models' names are folded
        Responses.from_long(long.assign(model=list("aabb"), instance=["q7Xa", "Q7xA"] * 2),
                            respondent="model", item="instance", value="correct")


def test_wide_frames_keep_their_axis_names_and_the_long_table_its_columns():
    """from_wide named every pivot's axes 'respondent'/'item' (to_wide's names were lost on
    the way back); to_long wrote the values over an item column called 'value'."""
    long = pd.DataFrame({"m": list("aabbcc"), "i": ["x", "y"] * 3, "v": [1, 0, 1, 1, 0, 1]})
    wide = long.pivot(index="m", columns="i", values="v")
    resp = Responses.from_wide(wide)
    assert (resp.respondent_name, resp.item_name) == ("m", "i")
    again = Responses.from_wide(resp.to_wide())
    assert (again.respondent_name, again.item_name) == ("m", "i")
    flipped = Responses.from_wide(resp.to_wide(rows="item"), rows="item")
    assert (flipped.respondent_name, flipped.item_name) == ("m", "i")
    assert Responses.from_wide(wide, respondent="model").respondent_name == "model"
    scores = Scores.from_wide(wide.astype(float).T.rename_axis(index="split", columns="model"),
                              rows="round")
    assert (scores.player_name, scores.round_name) == ("model", "split")
    with pytest.raises(ValueError, match="the rows and the columns are both named 'x'"):
        Responses.from_wide(wide, respondent="x", item="x")
    # a frame turned the other way than the names given say (a row per item, no rows='item')
    with pytest.raises(ValueError, match=r"rows are named 'i', but a row was to be one m "
                                         r".* pass rows='item' \(or df.T\)"):
        Responses.from_wide(wide.T, respondent="m", item="i")
    # an orientation the user chose is not second-guessed (a CSV whose corner cell names the
    # columns: index_col=0 names the rows after them)
    corner = wide.T.rename_axis(index="m", columns=None)
    assert Responses.from_wide(corner, respondent="m", item="i", rows="item").n_items == 2
    with pytest.raises(ValueError, match=r"both named 'm'.*or pass rows='item' if each row is a i"):
        Responses.from_wide(wide.T, respondent="m")
    with pytest.raises(ValueError, match="pass rows='round'"):
        Scores.from_wide(wide.astype(float).rename_axis(index="split", columns="model"),
                         player="model", round="split")
    # the repr says which are the items and which the respondents where the names are the user's
    assert "2 is (items) x 3 ms (respondents)" in repr(resp)
    assert "2 items x 3 respondents" in repr(Responses.from_wide(wide.rename_axis(None, axis=0)
                                                                 .rename_axis(None, axis=1)))
    items_called_value = Responses.from_long(long.rename(columns={"i": "value"}),
                                             respondent="m", item="value", value="v")
    assert list(items_called_value.to_long().columns) == ["m", "value", "response"]
    both = Responses.from_long(long.rename(columns={"m": "response", "i": "value"}),
                               respondent="response", item="value", value="v")
    assert list(both.to_long().columns) == ["response", "value", "answer"]
    odd = wide.set_axis(pd.Index([1, "1"], dtype=object), axis=1)
    with pytest.raises(ValueError, match=r"columns \(item labels\) mixes text and other"):
        Responses.from_wide(odd)


def test_numbered_players_keep_integer_labels_when_one_side_is_float():
    rows = pd.DataFrame({"a": [1, 2, 3], "b": [2.0, 3.0, 1.0], "w": ["a", "b", "tie"]})
    battles = ie.Battles.from_long(rows, player_a="a", player_b="b", winner="w")
    assert list(battles.players) == [1, 2, 3] and battles.players.dtype.kind == "i"  # was 1.0


def test_categorical_levels_are_refused_with_their_codes_as_the_fix():
    wide = pd.DataFrame({"q1": [1, 2, 1, 3], "q2": [2, 1, 2, 3]}, index=list("abcd"))
    named = wide.replace({1: "low", 2: "mid", 3: "high"}).astype(
        pd.CategoricalDtype(["low", "mid", "high"], ordered=True))
    with pytest.raises(ValueError, match=r"column 'q1' is categorical \(\['low', 'mid', 'high'\]"
                                         r", ordered\).*c.cat.codes"):
        Responses.from_wide(named, kind="ordinal")  # said 'if q1 labels the rows'
    words = pd.concat([wide] * 3).set_axis([f"d{k}" for k in range(12)]).replace(
        {1: "low", 2: "mid", 3: "high"})  # text levels: repeated words label no rows
    with pytest.raises(ValueError, match=r"levels must be integers: give text levels as "
                                         r"integers in their order, e.g. df.replace\(\{'low': "
                                         r"1, .*bin performances\)$"):
        Responses.from_wide(words, kind="ordinal")  # said 'if q1 labels the rows, pass ...'
    reversed_order = wide.astype(pd.CategoricalDtype([3, 2, 1], ordered=True))
    with pytest.raises(ValueError, match="is categorical"):  # was re-sorted to 1, 2, 3
        Responses.from_wide(reversed_order, kind="ordinal")
    codes = named.apply(lambda c: c.cat.codes.where(c.notna()))
    assert Responses.from_wide(codes, kind="ordinal").n_items == 2
    plain_numbers = wide.astype("category")  # unordered numbers: read as the numbers
    assert Responses.from_wide(plain_numbers, kind="ordinal").n_items == 2


def test_axis_names_never_outrank_a_label_column_and_contradictions_are_said():
    """(review) a named index made from_wide read the 'player' column as a round of scores;
    a pivot the other way round was named backwards in silence."""
    df = pd.DataFrame({"player": [1, 2, 3], "r1": [.5, .7, .2], "r2": [.1, .9, .3]})
    scores = Scores.from_wide(df.rename_axis("row_id"))
    assert list(scores.players) == [1, 2, 3] and list(scores.rounds) == ["r1", "r2"]
    long = pd.DataFrame({"player": list("abab"), "round": ["t1", "t1", "t2", "t2"],
                         "score": [.1, .2, .3, .4]})
    with pytest.raises(ValueError, match="rows are named 'round'.*pass rows='round'"):
        Scores.from_wide(long.pivot(index="round", columns="player", values="score"))
    resp = Responses.from_wide(pd.DataFrame({"i1": [1, 0], "i2": [0, 1]}, index=["a", "b"])
                               .rename_axis(index="model", columns="task"))
    with pytest.raises(ValueError, match="pass rows='item'"):
        Responses.from_wide(resp.to_wide(rows="item").rename_axis(index="item"))
    named = Responses.from_wide(resp.to_wide(rows="item").rename_axis(index="item"),
                                respondent="instance", item="model")  # the user's say wins
    assert (named.respondent_name, named.n_respondents) == ("instance", 2)


def test_subset_says_what_it_empties_and_keeps_the_levels_it_still_has():
    """subset's errors told to pass levels= (which it has not) or to drop empty rows first."""
    wide = pd.DataFrame({"q1": [1, 2, 1, 3], "q2": [2, 1, 2, 3], "q3": [1, 2, 2, 3]},
                        index=list("abcd"))
    kept = Responses.from_wide(wide, kind="ordinal").subset(respondents=["a", "b", "c"])
    assert kept.levels.tolist() == [1, 2] and kept.n_respondents == 3  # level 3 was d's only
    sparse = pd.DataFrame({"q1": [1, np.nan], "q2": [0, np.nan], "q3": [np.nan, 1]},
                          index=["a", "b"])
    with pytest.raises(ValueError, match=r"leaves 1 respondents without a single answer, e.g. "
                                         r"\['b'\]"):
        Responses.from_wide(sparse).subset(items=["q1", "q2"])
    with pytest.raises(ValueError, match="a tuple is one label: give a list for several"):
        Responses.from_wide(sparse).subset(items=("q1", "q2"))


def test_a_text_label_column_beside_numbered_columns_is_read_and_mixed_categories_are_not():
    """The label column's own name (text) sat among numbered columns and tripped the mixed
    label check before it became the index (review); a categorical's categories can mix
    text and numbers too (it fitted, then to_netcdf failed)."""
    wide = pd.DataFrame(np.random.default_rng(0).random((4, 3)), columns=[0, 1, 2])
    wide.insert(0, "model", list("ABCD"))
    assert Scores.from_wide(wide, player="model").n_rounds == 3
    assert Responses.from_wide((wide.set_index("model") > 0.5).astype(int).reset_index(),
                               respondent="model", item="instance").n_items == 3
    long = pd.DataFrame({"model": pd.Categorical(["a", 1, "a", 1]), "round": [1, 1, 2, 2],
                         "score": [0.1, 0.2, 0.3, 0.4]})
    with pytest.raises(ValueError, match="model mixes text and other labels"):
        Scores.from_long(long, player="model", round="round", score="score")


def test_api_messages_read_right(tmp_path):
    """Probe: "17 the matrix are not among the declared levels", ties=None answered with
    "e.g. ties=[None]", infinite counts told to be "marked missing (NaN)" which counts refuse,
    and load_results on an existing file "no such folder"."""
    with pytest.raises(ValueError, match=r"the matrix has 2 value\(s\) not among the declared "
                                         r"levels \[1, 2\], e.g. 3 \(respondent 'z', item 'a'\)"):
        Responses.from_wide(pd.DataFrame({"a": [1, 2, 3], "b": [2, 1, 3]}, index=list("xyz")),
                            kind="ordinal", levels=[1, 2])
    battles = pd.DataFrame({"model_a": ["a", "b"], "model_b": ["b", "c"], "winner": ["a", "c"]})
    with pytest.raises(TypeError, match=r"e.g. ties=\['tie'\] \(or ties=\[\] for none\), got "
                                        "None"):
        ie.Battles.from_long(battles, player_a="model_a", player_b="model_b", winner="winner",
                             ties=None)
    counts = pd.DataFrame({"model_a": ["a", "b"], "model_b": ["b", "c"], "wins_a": [1, np.inf],
                           "wins_b": [0, 1]})
    with pytest.raises(ValueError, match=r"infinite values \(row 1 \(0-based positions\)\); "
                                         r"replace them$"):
        ie.Battles.from_counts(counts, player_a="model_a", player_b="model_b", wins_a="wins_a",
                               wins_b="wins_b")
    (tmp_path / "long.csv").write_text("a\n")
    with pytest.raises(FileNotFoundError, match="long.csv is a file, not a folder"):
        ie.load_results(tmp_path / "long.csv")


def test_unknown_labels_that_differ_in_case_or_spaces_are_said():
    r = Responses.from_long(long_frame().assign(model=lambda d: d["model"].str.upper()),
                            respondent="model", item="instance", value="correct")
    with pytest.raises(ValueError, match=r"unknown model labels \['a '\].*'a ' differs "
                                         r"from 'A' only in case or spaces"):
        r.subset(respondents=["a "])
    scores = Scores.from_long(pd.DataFrame({"model": list("ABCABC"), "round": [1] * 3 + [2] * 3,
                                            "score": [3, 2, 1, 1, 3, 2]}),
                              player="model", round="round", score="score")
    with pytest.raises(ValueError, match="reference='a' is not a player.*'a' differs from 'A'"):
        ie.mle_epp(scores, reference="a")


def test_percent_among_proportions_is_said():
    """A column in percent (or one value typed as a percent) among proportions went through
    silently: scaled on its own bounds it fit, and the portfolio, which compares the
    performances, put that algorithm first everywhere."""
    rng = np.random.default_rng(0)
    wide = pd.DataFrame(rng.uniform(0.2, 0.9, (30, 4)), columns=["a", "b", "c", "d"],
                        index=[f"ds{i}" for i in range(30)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Responses.from_wide(wide, kind="continuous")
    percent = wide.assign(d=wide["d"] * 100)
    with pytest.warns(UserWarning, match=r"1 item looks like percent where 3 of 4 lie within "
                                         r"\[0, 1\] \('d': 30 of 30 values above 1, up to "
                                         r"[0-9.]+\): divide them by 100"):
        Responses.from_wide(percent, kind="continuous")
    typo = wide.copy()
    typo.loc["ds7", "b"] = 85.3
    with pytest.warns(UserWarning, match=r"\('b': 85.3 at respondent 'ds7'\)"):
        Responses.from_wide(typo, kind="continuous", bounds="global")
    # not percent: a log-loss beside accuracies (70% above 1), one value 1.2 (1.2 / 100 lies
    # below the column's others), run times in seconds (median / 100 below every proportion)
    other = wide.assign(c=np.linspace(0.3, 2.3, 30))
    other.loc["ds3", "b"] = 1.2
    other["d"] = np.linspace(1, 4, 30)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Responses.from_wide(other, kind="continuous")


def test_two_valued_columns_under_column_bounds_are_said():
    """Two data sets with bounds='column': every value sat on a bound (the logit scale's
    clip), silently making the performances 0/1."""
    wide = pd.DataFrame({"a1": [0.9, 0.7], "a2": [0.5, 0.8]}, index=["d1", "d2"])
    with pytest.warns(UserWarning, match=r"2 of 2 items have no value between their lowest and "
                                         r"highest .*bounds=\(0, 1\)"):
        Responses.from_wide(wide, kind="continuous")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Responses.from_wide(wide, kind="continuous", bounds=(0, 1))


def test_simulated_missing_cells_leave_every_label_an_answer():
    """from_wide leaves out an empty row, and the simulator's truth is aligned by position:
    a mask that empties a respondent is drawn again (this seed's first one did)."""
    from irteval import calibration as cal

    resp, truth, redraws = cal.simulate_onepl(6, 4, np.random.default_rng(9), missing=0.4)
    assert redraws >= 1 and resp.n_respondents == len(truth["theta"]) == 4


def test_reflected_turns_performances_around():
    """Error rates and run times: x -> lower + upper - x within each item's bounds, level
    codes c -> C - 1 - c; binary answers are refused."""
    wide = pd.DataFrame({"a": [0.1, 0.3, 0.2], "b": [0.5, 0.4, 0.9]}, index=list("xyz"))
    fixed = Responses.from_wide(wide, kind="continuous", bounds=(0, 1))
    np.testing.assert_allclose(fixed.reflected().values, 1 - fixed.values)
    own = Responses.from_wide(wide, kind="continuous").reflected()  # each column's min <-> max
    np.testing.assert_allclose(own.to_wide().loc[list("xyz"), ["a", "b"]].to_numpy(),
                               [[0.3, 0.8], [0.1, 0.9], [0.2, 0.4]])
    levels = Responses.from_wide(wide, kind="ordinal", cuts=3)
    np.testing.assert_array_equal(levels.reflected().values, 2 - levels.values)
    with pytest.raises(ValueError, match="binary answers are turned by coding correct = 1"):
        Responses.from_wide(wide.round(), kind="binary").reflected()


def test_messages_that_misled():
    """A table's plot given ci_prob=5 said "recompute it with ci_prob=5"; a boolean mask as
    labels (True == 1 among integer labels) "chosen twice"."""
    from irteval import _intervals
    from irteval._validation import chosen_labels

    table = pd.DataFrame({"x": [1.0]}).pipe(lambda t: t.attrs.update(ci_prob=0.94) or t)
    with pytest.raises(ValueError, match="ci_prob must be a number between 0 and 1, got 5"):
        _intervals.check_matches(table, 5, None)
    with pytest.raises(ValueError, match=r"chosen twice; give each once; a boolean mask\? give "
                                         r"the labels it selects"):
        chosen_labels([True, False, True], [0, 1, 2], "instance labels")
