"""Classical EPP against EloML's published/computed numbers (shared/data)."""

import numpy as np
import pandas as pd
import pytest
from scipy.special import expit

import irteval as ie

ELOML_VTAB_GLMNET = {  # EloML 0.3.1 calculate_epp(estimation="glmnet"), vtab_glmnet_epp.csv
    "Cond-BigGAN": 1.84584631322435, "Exemplar": 5.86353380170167,
    "From-Scratch": 3.96756757706167, "Jigsaw": 4.87902464582433,
    "Rel.Pat.Loc": 4.72020517401203, "Rotation": 6.50485130378121,
    "Semi-Exemplar-10%": 6.83939503992785, "Semi-Rotation-10%": 6.36059860521216,
    "Sup-100%": 6.83949522375466, "Sup-Exemplar-100%": 7.40341374728943,
    "Sup-Rotation-100%": 7.64696953439135, "Uncond-BigGAN": 2.62097189165224,
    "VAE": 2.78580447514538, "WAE-GAN": 0.602999939261778, "WAE-MMD": 2.16416719841301,
    "WAE-UKL": 0.0,
}


@pytest.fixture(scope="module")
def vtab_mle():
    return ie.mle_epp(ie.datasets.load_vtab(), reference="WAE-UKL")


def test_vtab_matches_eloml_glmnet(vtab_mle):
    ref = pd.Series(ELOML_VTAB_GLMNET)
    ours = vtab_mle.loc[ref.index, "epp"]
    assert np.abs(ours - ref).max() < 2e-3
    assert vtab_mle.loc["WAE-UKL", "se"] == 0 and (vtab_mle["se"].drop("WAE-UKL") > 0.17).all()
    # EloML enters every pair twice, so its deviance (129.3853) is twice ours
    assert abs(2 * vtab_mle.attrs["deviance"] - 129.385348311576) < 0.01
    assert vtab_mle.attrs["df"] == 120 - 15 and vtab_mle.attrs["p_value"] > 0.99


def test_vtab_paper_probability_and_wald_test(vtab_mle):
    d = vtab_mle.loc["Sup-Rotation-100%", "epp"] - vtab_mle.loc["Sup-Exemplar-100%", "epp"]
    assert abs(expit(d) - 0.56) < 0.005
    test = ie.wald_test(vtab_mle, "Sup-Rotation-100%", "Sup-Exemplar-100%")
    assert test.df == 1 and abs(test.statistic - (d / test.se) ** 2) < 1e-9
    assert 0.3 < test.p_value < 0.4
    with pytest.warns(FutureWarning, match=r"WaldTest\['p_value'\] is deprecated"):
        assert test["p_value"] == test.p_value  # the dict of earlier releases, for now


def test_covariance_in_attrs_is_labelled_shared_by_copies_and_survives_concat(vtab_mle):
    import copy

    cov = pd.DataFrame(vtab_mle.attrs["cov"])
    assert list(cov.index) == list(cov.columns) == list(vtab_mle.index)
    np.testing.assert_allclose(np.sqrt(np.diag(cov)), vtab_mle["se"], atol=1e-12)
    # pandas deep-copies attrs on every operation: the matrix is shared, not copied
    assert copy.deepcopy(vtab_mle.attrs["cov"]) is vtab_mle.attrs["cov"]
    assert vtab_mle.sort_values("epp").attrs["cov"] is vtab_mle.attrs["cov"]
    both = pd.concat([vtab_mle.iloc[:3], vtab_mle.iloc[3:]])  # equal attrs are kept
    assert both.attrs["cov"] == vtab_mle.attrs["cov"]


def test_wald_test_refuses_one_player_twice_unknown_players_and_tables_without_cov(vtab_mle):
    with pytest.raises(ValueError, match="two different players"):
        ie.wald_test(vtab_mle, "VAE", "VAE")
    with pytest.raises(ValueError, match=r"unknown player 'nope'; the players are e.g. \["):
        ie.wald_test(vtab_mle, "nope", "VAE")
    with pytest.raises(TypeError, match=r"give two players, one label each; got \['VAE', "
                                        r"'Jigsaw'\] \(for every pair at once"):
        ie.wald_test(vtab_mle, ["VAE", "Jigsaw"], "Rotation")  # was "unhashable type"
    with pytest.raises(ValueError, match=r"unknown player 'Jigsw'.*did you mean 'Jigsaw'\?$"):
        ie.wald_test(vtab_mle, "Jigsw", "VAE")  # a typo: the nearest label, not 5 others
    read_back = vtab_mle.copy()  # as from a CSV: no covariance
    read_back.attrs = {}
    with pytest.raises(ValueError, match="takes the table of irteval.mle_epp"):
        ie.wald_test(read_back, "VAE", "WAE-GAN")


def test_sum_to_zero_is_the_default_and_differences_do_not_change(vtab_mle):
    centred = ie.mle_epp(ie.datasets.load_vtab())
    assert abs(centred["epp"].sum()) < 1e-8
    diff = centred["epp"] - centred.loc["WAE-UKL", "epp"]
    assert np.abs(diff - vtab_mle["epp"]).max() < 1e-6


def test_auc_scores_separation_is_detected_and_within_component_fits_exist():
    scores = ie.datasets.load_auc_scores()
    with pytest.warns(ie.SeparationWarning, match="2 strongly connected components"):
        table = ie.mle_epp(scores)
    assert sorted(table["component"].value_counts().tolist()) == [36, 44]
    assert np.isfinite(table["epp"]).all() and np.isfinite(table["se"]).all()
    a, b = table.index[table["component"] == 0][:1][0], table.index[table["component"] == 1][0]
    with pytest.raises(ValueError, match="different strongly connected components"):
        ie.wald_test(table, a, b)
    parts = ie.epp.components(scores)  # the same components, as player labels
    for k, part in enumerate(parts):
        assert set(table.loc[part, "component"]) == {k}
    # from the top: the first component's players never lose to the second's, which lose
    # every match they play against them (mle_epp.csv lists component 0 first)
    pairs = scores.pairs()
    top = pairs["player_i"].isin(parts[0]) & pairs["player_j"].isin(parts[1])
    bottom = pairs["player_i"].isin(parts[1]) & pairs["player_j"].isin(parts[0])
    assert top.any() or bottom.any()
    assert (pairs.loc[top, "wins_i"] == pairs.loc[top, "matches"]).all()
    assert (pairs.loc[bottom, "wins_i"] == 0).all()


def test_a_player_alone_in_its_component_has_no_epp():
    """A player that lost every match got EPP 0 and Elo 1500 (its component of one sums to
    zero): third of five in the CLI's mle_epp.csv, sorted by EPP."""
    rng = np.random.default_rng(1)
    wide = pd.DataFrame(rng.normal(size=(5, 8)), index=[f"m{k}" for k in range(5)])
    wide.loc["m0"] = -10.0  # last in every round
    with pytest.warns(ie.SeparationWarning, match="2 strongly connected components"):
        table = ie.mle_epp(ie.Scores.from_wide(wide))
    assert table.loc[["m0"], ["epp", "se", "elo"]].isna().all(axis=None)
    assert np.isfinite(table.drop("m0")["epp"]).all()
    assert table.sort_values("epp", ascending=False).index[-1] == "m0"
    with pytest.warns(ie.SeparationWarning):
        alone = ie.mle_epp(ie.Scores.from_wide(wide), reference="m0")
    assert alone.at["m0", "epp"] == 0 and alone.at["m0", "se"] == 0  # 0 by definition
    # a win probability that rounds to 1 (a gap of ~45) made the deviance inf
    counts = pd.DataFrame({"a": ["x", "y", "x", "z", "w"], "b": ["y", "z", "z", "w", "x"],
                           "wa": [1e7 - 1] * 4 + [1], "wb": [1] * 4 + [1e7 - 1]})
    table = ie.mle_epp(ie.Battles.from_counts(counts, player_a="a", player_b="b",
                                              wins_a="wa", wins_b="wb"))
    assert np.isfinite(table.attrs["deviance"])


def test_mle_is_where_the_score_is_zero_and_cov_inverts_the_information():
    """On simulated scores: the score A'(w - n p) is 0 at the MLE, and the covariance is the
    pseudo-inverse of the information A' diag(n p (1 - p)) A, both built here from the design
    matrix A of the pair table."""
    rng = np.random.default_rng(0)
    wide = pd.DataFrame(rng.normal(0, 1, (30, 1)) + rng.gumbel(size=(30, 12)),
                        index=[f"p{k}" for k in range(30)])
    scores = ie.Scores.from_wide(wide)
    table = ie.mle_epp(scores)
    pairs = scores.pairs()
    design = np.zeros((len(pairs), 30))
    design[np.arange(len(pairs)), pairs["i"]] = 1.0
    design[np.arange(len(pairs)), pairs["j"]] = -1.0
    n, w = pairs["matches"].to_numpy(), pairs["wins_i"].to_numpy()
    p = expit(design @ table["epp"].to_numpy())
    np.testing.assert_allclose(design.T @ (w - n * p), 0.0, atol=1e-8)
    info = design.T @ ((n * p * (1 - p))[:, None] * design)
    np.testing.assert_allclose(pd.DataFrame(table.attrs["cov"]).to_numpy(),
                               np.linalg.pinv(info), atol=1e-10)


def test_components_are_ordered_from_the_top_the_larger_first_where_no_win_orders_them():
    """{a, b} beat {c, d, e} (each set trades wins within); {f, g, h, i} never meet them: the
    larger of the unordered comes first, then a's above c's; a chain of 1000 singletons
    (each beats the next, the top last in the data) from its top (0.1 s here; the first,
    cubic ordering would take about 25 s)."""
    pairs = [("a", "b", 1, 1), ("c", "d", 1, 1), ("d", "e", 1, 1), ("e", "c", 1, 1),
             ("a", "c", 2, 0), ("b", "e", 3, 0), ("f", "g", 1, 1), ("g", "h", 1, 1),
             ("h", "i", 1, 1), ("i", "f", 1, 1)]
    counts = pd.DataFrame(pairs, columns=["p", "q", "wp", "wq"])
    battles = ie.Battles.from_counts(counts, player_a="p", player_b="q", wins_a="wp",
                                     wins_b="wq")
    assert [sorted(part) for part in ie.epp.components(battles)] == [
        ["f", "g", "h", "i"], ["a", "b"], ["c", "d", "e"]]
    names = [f"p{k:04d}" for k in range(1000)][::-1]  # p0999 beats p0998 ... beats p0000
    chain = pd.DataFrame({"p": names[:-1], "q": names[1:], "wp": 1, "wq": 0})
    parts = ie.epp.components(ie.Battles.from_counts(chain, player_a="p", player_b="q",
                                                     wins_a="wp", wins_b="wq"))
    assert [part[0] for part in parts] == names
