"""The multidimensional 2PL (issue 18): bad input, the reflection alignment, an end-to-end fit
with the summaries that apply to it, and recovery at k = 2 (slow)."""

import arviz as az
import numpy as np
import pytest
from scipy import stats

import irteval as ie
from irteval import calibration as cal
from irteval._draws import evenly_spaced
from irteval.models.multidimensional import align_reflections

from .conftest import quiet_fit


def test_bad_input_is_named():
    resp, _ = cal.simulate_multidimensional(6, 5, 2, np.random.default_rng(0))
    for dims in (0, 1.5, "2", True):
        with pytest.raises(ValueError, match="dims must be an integer >= 1"):
            ie.models.onepl(resp, discrimination=True, dims=dims)
    with pytest.raises(ValueError, match="needs more respondents than skills.*dims= < 5"):
        ie.models.onepl(resp, discrimination=True, dims=5)
    with pytest.raises(ValueError, match="pass discrimination=True"):
        ie.models.onepl(resp, dims=2)
    for extra in ({"guessing": True}, {"n_options": 4}):  # n_options= was ignored silently
        with pytest.raises(ValueError, match="n_options= and slip= are not available with dims="):
            ie.models.onepl(resp, discrimination=True, dims=2, **extra)
    with pytest.raises(ValueError, match="batch_size="):
        ie.models.onepl(resp, discrimination=True, dims=2, batch_size=5)
    with pytest.raises(ValueError, match="pass dims= > 1"):
        ie.models.onepl(resp, discrimination=True, anchors=["i0"])
    with pytest.raises(ValueError, match="needs 2 distinct item labels"):
        ie.models.onepl(resp, discrimination=True, dims=2, anchors=["i0", "i0"])
    with pytest.raises(ValueError, match=r"not in the responses: \['x'\]"):
        ie.models.onepl(resp, discrimination=True, dims=2, anchors=["i0", "x"])
    wide = cal.simulate_multidimensional(3, 20, 2, np.random.default_rng(0))[0]
    with pytest.raises(ValueError, match="one anchor instance per skill.*dims= <= 3"):
        ie.models.onepl(wide, discrimination=True, dims=4)
    with pytest.raises(ValueError, match="not available for the multidimensional 2PL"):
        ie.fit(ie.models.onepl(resp, discrimination=True, dims=2), method="map")


def test_align_reflections_undoes_the_sign_flips():
    """Draws of known loadings with every skill's sign flipped at random come back to one
    orientation, loadings positive on average."""
    rng = np.random.default_rng(0)
    a = np.abs(rng.normal(1, 0.3, (10, 3))) * np.array([1, -1, 1])  # skill 2 mostly negative
    a[0, 1:] = a[1, 2] = 0.0
    flips = rng.choice([-1.0, 1.0], (2, 50, 3))
    draws = a * flips[:, :, None, :] + rng.normal(0, 0.05, (2, 50, 10, 3))
    signs, cosine = align_reflections(draws)
    np.testing.assert_array_equal(signs, flips * np.array([1, -1, 1]))
    assert (cosine > 0.9).all()


@pytest.fixture(scope="module")
def two_skills():
    resp, truth = cal.simulate_multidimensional(16, 80, 2, np.random.default_rng(3))
    idata = quiet_fit(ie.models.onepl(resp, discrimination=True, dims=2, anchors=["i1", "i0"]),
                      draws=200, tune=300, chains=2, random_seed=3, posterior_predictive=True,
                      log_likelihood=True)
    return resp, idata


def test_two_skill_fit_and_its_summaries(two_skills):
    resp, idata = two_skills
    post = idata.posterior
    assert idata.attrs["irteval_model"] == "m2pl" and idata.attrs["dims"] == 2
    assert idata.groups().count("posterior") == 1  # idata[group] = ... had listed it twice
    assert idata.attrs["anchors"] == ["i1", "i0"]
    assert post["theta"].dims == ("chain", "draw", "skill", "respondent")
    assert list(post["skill"].values) == ["skill_1", "skill_2"]
    a = post["a"]
    assert (a.sel(item="i1", skill="skill_2") == 0).all()  # the first anchor's zero
    assert (a.sel(item="i0", skill="skill_2") != 0).all()  # the second anchor's is free
    assert a.sel(skill="skill_1").mean().item() > 0  # oriented: more skill helps
    np.testing.assert_allclose(post["theta"].mean("respondent"), 0, atol=1e-9)
    assert idata.posterior_predictive["accuracy"].sizes["respondent"] == 80
    summary = az.summary(idata, var_names=["a_free", "b"])
    assert summary.index[0] == "a_free[i0 | skill_1]"
    table = ie.abilities(idata)
    assert table.index.names == ["skill", "model"] and len(table) == 160
    assert table.loc["skill_1"]["mean"].is_monotonic_decreasing
    assert len(ie.item_fit(idata)) == 16 and len(ie.person_fit(idata)) == 80
    assert ie.local_dependence(idata).shape == (16, 16)
    assert len(ie.local_dependence(idata, top=5)) == 5
    assert len(ie.difficulty(idata)) == 16
    with pytest.raises(ValueError, match="multidimensional 2PL.*refit with dims=1"):
        ie.information(idata)
    assert np.isfinite(az.loo(idata).elpd_loo)


def test_warm_up_draws_are_rotated_into_the_same_frame(two_skills):
    """keep_warmup=True: the warm-up draws were left unrotated (the anchors' zeros non-zero,
    no a_free), so a trace with warm-up jumped at its end; fixed zeros read -0.0."""
    resp, _ = two_skills
    idata = quiet_fit(ie.models.onepl(resp, discrimination=True, dims=2, anchors=["i1", "i0"]),
                      draws=100, tune=150, chains=2, random_seed=3, keep_warmup=True)
    warm, post = idata.warmup_posterior, idata.posterior
    assert (warm["a"].sel(item="i1", skill="skill_2") == 0).all()
    assert list(warm["a_free"]["loading"].values) == list(post["a_free"]["loading"].values)
    assert not np.signbit(post["a"].sel(item="i1", skill="skill_2")).any()
    late = warm["a"].isel(draw=slice(-50, None)).mean(("chain", "draw"))  # tuned by then
    assert float((late * post["a"].mean(("chain", "draw"))).sum("item").min()) > 0


def products(a):
    """a_i . a_k over item pairs i < k (last two axes: item, skill): no rotation or
    reflection of the skills changes them."""
    i, k = np.triu_indices(a.shape[-2], 1)
    return (a[..., i, :] * a[..., k, :]).sum(axis=-1)


def sbc_ranks(n_sims, n_items, n_resp, n_keep, seed, **fit_kwargs):
    """Ranks of b and of the loading products among n_keep thinned draws, per replicate."""
    ranks = {"b": [], "products": [], "sigma_b": []}
    for k in range(n_sims):
        rng = np.random.default_rng([seed, k])
        resp, truth, _ = cal.simulate_multidimensional_prior(n_items, n_resp, 2, rng)
        idata = quiet_fit(ie.models.onepl(resp, discrimination=True, dims=2),
                          random_seed=int(rng.integers(2**31)), **fit_kwargs)
        post = idata.posterior.stack(sample=("chain", "draw"))
        keep = evenly_spaced(post.sizes["sample"], n_keep)
        a = np.moveaxis(post["a"].values, -1, 0)[keep]
        for name, true, draws in (
                ("b", truth["b"], post["b"].values.T[keep]),
                ("products", products(truth["a"]), products(a)),
                ("sigma_b", truth["sigma_b"], post["sigma_b"].values[keep])):
            ranks[name].append(np.atleast_1d(cal.rank_of(true, draws, rng)))
    return {name: np.concatenate(r) for name, r in ranks.items()}


@pytest.mark.filterwarnings("ignore:.*identified only by the prior")
@pytest.mark.filterwarnings("ignore::irteval.exceptions.IdentificationWarning")
def test_sbc_of_what_no_rotation_changes():
    """8 replicates of 8 items x 20 respondents from the two-skill prior, the default path;
    L = 49; ranks of b and of the products a_i . a_l (the rotation-free content of the
    loadings) pooled, 5 bins, chi-square. The slow version: 100 replicates, L = 99."""
    n_keep = 49
    ranks = sbc_ranks(8, 8, 20, n_keep, seed=7, draws=150, tune=250, chains=2,
                      log_likelihood=False)
    for name in ("b", "products"):
        pooled = np.bincount(ranks[name] * 5 // (n_keep + 1), minlength=5)
        assert stats.chisquare(pooled).pvalue > 0.001, (name, pooled)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:.*identified only by the prior")
@pytest.mark.filterwarnings("ignore::irteval.exceptions.IdentificationWarning")
def test_sbc_of_what_no_rotation_changes_100_replicates():
    """As above at 100 replicates, 4 x 500 draws, L = 99, 20 bins: b, the products and
    sigma_b."""
    n_keep = 99
    ranks = sbc_ranks(100, 8, 20, n_keep, seed=8, draws=500, tune=500, chains=4,
                      log_likelihood=False)
    for name in ("b", "products", "sigma_b"):
        pooled = np.bincount(ranks[name] * 20 // (n_keep + 1), minlength=20)
        print(name, pooled)
        assert stats.chisquare(pooled).pvalue > 0.001, (name, pooled)


@pytest.mark.slow
def test_two_skills_recover_the_truth():
    """1000 respondents x 40 instances, two skills, as ``benchmarks/multidimensional.py``
    (the same seed): 90% intervals cover the truth (in the model's frame) for 84-96% of the
    loadings (those not fixed at 0), of the loadings and b pooled, and of the abilities;
    R-hat <= 1.01, no divergences."""
    resp, truth = cal.simulate_multidimensional(40, 1000, 2, np.random.default_rng(0))
    idata = quiet_fit(ie.models.onepl(resp, discrimination=True, dims=2), random_seed=0)
    post = idata.posterior.stack(sample=("chain", "draw"))
    free = np.ones((40, 2), dtype=bool)
    free[0, 1] = False
    covered = {}
    for kind, keep in (("a", free), ("b", slice(None)), ("theta", slice(None))):
        lo, hi = np.quantile(post[kind].values, [0.05, 0.95], axis=-1)
        covered[kind] = ((lo <= truth[kind]) & (truth[kind] <= hi))[keep]
    for share in (covered["a"], np.concatenate([covered["a"], covered["b"]]), covered["theta"]):
        assert 0.84 <= share.mean() <= 0.96, {k: v.mean() for k, v in covered.items()}
    assert idata.attrs["max_rhat"] <= 1.01 and idata.attrs["divergences"] == 0
