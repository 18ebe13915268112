"""Simulation-based calibration (SBC; Talts et al. 2018, arXiv:1804.06788).

Draw parameters phi* from the prior, data y from the model given phi*, and L posterior draws
phi_1..phi_L given y. If the fit samples the posterior, the rank of f(phi*) among f(phi_l),

    r = #{l : f(phi_l) < f(phi*)}      in {0, ..., L},

is uniform for every function f, because phi* is then a draw from the posterior too. A fit whose
intervals are too narrow gives U-shaped rank histograms, one that is biased a slope, one too wide
a hump. The SBC simulators below draw from each model's default prior exactly as its builder
in :mod:`irteval.models` defines it (``tests/test_sbc.py`` checks them against the builders' own
prior draws). Three are fixed designs instead, for recovery checks and the demo's arena:
:func:`simulate_multiple_choice`, :func:`simulate_multidimensional` and
:func:`simulate_battles`.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd
from arviz.stats.ecdf_utils import ecdf_confidence_band
from scipy import stats
from scipy.special import expit

from ._compat import renamed
from ._draws import evenly_spaced
from .data import Battles, Responses, Scores
from .exceptions import ConvergenceWarning
from .inference import fit
from .models.bradley_terry import LOG_NU_SCALE, TAU_SCALE, davidson_probabilities
from .models.bradley_terry import PRIOR_SCALE as BT_PRIOR_SCALE
from .models.base import reflection_signs
from .models.continuous_irt import PRIORS as CONTINUOUS_PRIORS
from .models.continuous_irt import airt_parameters, mean_z
from .models.densities import irt_probability
from .models.multidimensional import rotate_to_anchors
from .models.onepl import PRIORS as ONEPL_PRIORS
from .models.onepl import SLIP_PRIOR, guess_prior
from .models.polytomous_irt import PRIORS as POLYTOMOUS_PRIORS
from .models.polytomous_irt import category_logp, draw_levels, thresholds
from .parallel import imap
# continuous responses travel as y = logistic(z) on bounds (0, 1); with this clip the round
# trip z -> y -> z is exact to 5e-4 for |z| <= Z_MAX (1 - y loses digits near y = 1)
CONTINUOUS_CLIP = 1e-13
Z_MAX = 29.0


# ---------------------------------------------------------------------- priors and data
def _half_normal(rng, scale):
    return abs(rng.normal(0.0, scale))


def _zero_sum_normal(rng, sigma, n):
    """PyMC's ZeroSumNormal: n iid Normal(0, sigma) draws minus their mean."""
    x = rng.normal(0.0, sigma, n)
    return x - x.mean()


def _draw_difficulties(rng, n_items):
    """mu_b ~ N(0, 3), sigma_b ~ HN(2), b_i ~ N(mu_b, sigma_b): the binary models' prior."""
    p = ONEPL_PRIORS
    prior = {"mu_b": rng.normal(0.0, p["mu_b"]), "sigma_b": _half_normal(rng, p["sigma_b"])}
    prior["b"] = rng.normal(prior["mu_b"], prior["sigma_b"], n_items)
    return prior


def draw_onepl_prior(n_items, n_respondents, rng, discrimination=False, guessing=False,
                     n_options=None, slip=False):
    """mu_b ~ N(0, 3), sigma_b ~ HN(2), b_i ~ N(mu_b, sigma_b); 1PL: sigma_theta ~ HN(2),
    theta ~ ZeroSumNormal(sigma_theta); 2PL: theta ~ ZeroSumNormal(1), sigma_log_a ~ HN(0.5),
    log a_i ~ N(0, sigma_log_a); 3PL/4PL: floor c_i ~ Beta(guess_prior),
    slip s_i ~ Beta(1, 19), ceiling d_i = 1 - s_i (1 - c_i)."""
    p = ONEPL_PRIORS
    prior = _draw_difficulties(rng, n_items)
    if discrimination:
        prior["theta"] = _zero_sum_normal(rng, 1.0, n_respondents)
        prior["sigma_log_a"] = _half_normal(rng, p["sigma_log_a"])
        prior["a"] = np.exp(prior["sigma_log_a"] * rng.normal(0.0, 1.0, n_items))
    else:
        prior["sigma_theta"] = _half_normal(rng, p["sigma_theta"])
        prior["theta"] = _zero_sum_normal(rng, prior["sigma_theta"], n_respondents)
    if guessing:
        prior["c"] = rng.beta(*guess_prior(n_options), n_items)
    if slip:
        prior["slip"] = rng.beta(*SLIP_PRIOR, n_items)
        prior["d"] = 1 - prior["slip"] * (1 - prior.get("c", 0.0))
    return prior


def simulate_onepl(n_items, n_respondents, rng, discrimination=False, missing=0.0, **asymptotes):
    """A prior draw (:func:`draw_onepl_prior`; ``asymptotes``: its ``guessing``,
    ``n_options``, ``slip``) and binary responses y_ij ~ Bernoulli(c_i + (d_i - c_i)
    logistic(a_i (theta_j - b_i))) (a_i = 1 in the 1PL, c_i = 0 and d_i = 1 without them),
    each cell missing with probability ``missing`` (completely at random; a mask that leaves
    an item or respondent without answers is drawn again). Returns (Responses, truth, the
    number of masks drawn again)."""
    truth = draw_onepl_prior(n_items, n_respondents, rng, discrimination, **asymptotes)
    a = truth["a"][:, None] if discrimination else 1.0
    eta = a * (truth["theta"][None, :] - truth["b"][:, None])
    p = irt_probability(eta, truth.get("c", np.zeros(n_items))[:, None],
                        truth.get("d", np.ones(n_items))[:, None])
    y = _answers(p, rng)
    redraws = 0
    while True:  # every item and respondent keeps an answer (as the truth is aligned)
        mask = rng.random(p.shape) < missing
        if not (mask.all(axis=0).any() or mask.all(axis=1).any()):
            break
        redraws += 1
    y[mask] = np.nan
    return _labelled(y), truth, redraws


def _answers(p, rng):
    """y ~ Bernoulli(p), as floats."""
    return (rng.random(p.shape) < p).astype(float)


def _labelled(y, item=("item", "i"), respondent=("respondent", "r")):
    """Responses of the items x respondents matrix ``y``, named ``item[0]`` and
    ``respondent[0]`` and labelled by their prefixes and numbers."""
    wide = pd.DataFrame(y, index=pd.Index([f"{item[1]}{k}" for k in range(y.shape[0])],
                                          name=item[0]),
                        columns=pd.Index([f"{respondent[1]}{k}" for k in range(y.shape[1])],
                                         name=respondent[0]))
    return Responses.from_wide(wide, respondent=respondent[0], item=item[0], rows="item")


def simulate_multiple_choice(n_items, n_respondents, rng, slip=False):
    """Answers from a fixed-design 3PL (4PL with ``slip``), as multiple-choice tests look:
    b_j, theta_i ~ N(0, 1), a_j ~ LogNormal(0, 0.3), floor c_j ~ Beta(5, 15) (four options),
    slip s_j ~ Beta(1, 19), ceiling d_j = 1 - s_j (1 - c_j). Returns (Responses with
    ``question`` items and ``respondent`` respondents, truth)."""
    truth = {"b": rng.normal(0, 1, n_items), "a": np.exp(rng.normal(0, 0.3, n_items)),
             "c": rng.beta(5, 15, n_items)}
    truth["d"] = 1 - rng.beta(1, 19, n_items) * (1 - truth["c"]) if slip else np.ones(n_items)
    theta = rng.normal(0, 1, n_respondents)
    p = irt_probability(truth["a"][:, None] * (theta[None, :] - truth["b"][:, None]),
                        truth["c"][:, None], truth["d"][:, None])
    return _labelled(_answers(p, rng), item=("question", "q")), truth


def draw_bradley_terry_prior(n_players, rng, davidson=False):
    """strength ~ ZeroSumNormal(4); ``davidson``: also log_nu ~ N(0, 2)."""
    prior = {"strength": _zero_sum_normal(rng, BT_PRIOR_SCALE, n_players)}
    if davidson:
        prior["log_nu"] = rng.normal(0.0, LOG_NU_SCALE)
    return prior


def simulate_bradley_terry(n_players, n_rounds, rng):
    """A prior draw and scores strength_p + Gumbel(0, 1) per round: each round's ranking is
    then exactly Plackett-Luce (the model's default likelihood).
    Returns (Scores, truth, redraws = 0)."""
    truth = draw_bradley_terry_prior(n_players, rng)
    score = truth["strength"][:, None] + rng.gumbel(0.0, 1.0, (n_players, n_rounds))
    wide = pd.DataFrame(score, index=[f"p{k}" for k in range(n_players)],
                        columns=[f"r{k}" for k in range(n_rounds)])
    return Scores.from_wide(wide), truth, 0


def draw_bradley_terry_tasks_prior(n_players, n_tasks, rng):
    """The Model/Task scheme's prior: strength ~ ZeroSumNormal(4), tau ~ HN(1), deviation[t]
    = tau z[t], z[t] ~ ZeroSumNormal(1) over the players of every task t."""
    truth = draw_bradley_terry_prior(n_players, rng)
    truth["tau"] = _half_normal(rng, TAU_SCALE)
    truth["deviation"] = truth["tau"] * np.stack(
        [_zero_sum_normal(rng, 1.0, n_players) for _ in range(n_tasks)])
    return truth


def simulate_bradley_terry_tasks(n_players, n_tasks, rounds_per_task, rng):
    """A prior draw of the Model/Task scheme and scores strength_p + deviation[t, p] +
    Gumbel(0, 1) in each of ``rounds_per_task`` rounds of every task t: Plackett-Luce with
    ``hierarchy=`` :func:`task_of_round` (rounds r0, r1, ... of tasks t0, t1, ...).
    Returns (Scores, truth {epp, tau, deviation}, redraws = 0)."""
    truth = draw_bradley_terry_tasks_prior(n_players, n_tasks, rng)
    task = np.repeat(np.arange(n_tasks), rounds_per_task)
    score = (truth["strength"][:, None] + truth["deviation"][task].T
             + rng.gumbel(0.0, 1.0, (n_players, len(task))))
    wide = pd.DataFrame(score, index=[f"p{k}" for k in range(n_players)],
                        columns=[f"r{k}" for k in range(len(task))])
    return Scores.from_wide(wide), {"epp": truth["strength"], "tau": truth["tau"],
                                    "deviation": truth["deviation"]}, 0


def task_of_round(n_tasks, rounds_per_task):
    """{round: task} of :func:`simulate_bradley_terry_tasks`, for ``hierarchy=``."""
    return {f"r{k}": f"t{k // rounds_per_task}" for k in range(n_tasks * rounds_per_task)}


def simulate_battles_from_prior(n_players, n_battles, rng, likelihood="pairwise"):
    """A prior draw (strength ~ ZeroSumNormal(4); Davidson: log_nu ~ N(0, 2)) and
    ``n_battles`` battles between uniformly random pairs of distinct players, won with
    probability logistic(s_a - s_b) (``"pairwise"``: no ties) or with the Davidson model's
    win / loss / tie probabilities (``"davidson"``). Data in which a player never plays are
    drawn again (with new parameters) and counted: the rejection depends on the data alone.
    Returns (Battles, truth {epp, log_nu}, redraws)."""
    redraws = 0
    names = np.array([f"m{k}" for k in range(n_players)])
    while True:
        truth = draw_bradley_terry_prior(n_players, rng, davidson=likelihood == "davidson")
        a, b, outcome = _random_battles(rng, truth["strength"], n_battles, truth.get("log_nu"))
        if len(np.union1d(a, b)) == n_players:
            break
        redraws += 1
    battles = _battle_rows(names, a, b, outcome)[1]
    out = {"epp": truth["strength"][pd.Index(names).get_indexer(battles.players)]}
    if likelihood == "davidson":
        out["log_nu"] = truth["log_nu"]
    return battles, out, redraws


def simulate_battles(n_players, n_battles, rng, *, log_nu=-1.5, scale=1.0):
    """Battles between uniformly random pairs of distinct players with zero-sum strengths
    s ~ N(0, scale) (centred), outcomes from the Davidson model: P(a wins) : P(b wins) :
    P(tie) = pi_a : pi_b : nu sqrt(pi_a pi_b), pi = exp(s) (log_nu = -1.5: about 10% ties
    between equal players). Rows ``model_a``, ``model_b``, ``winner`` ("model_a", "model_b",
    "tie"). Returns (Battles, truth {strength, log_nu}, the battle rows)."""
    strength = _zero_sum_normal(rng, scale, n_players)
    names = np.array([f"model-{k:03d}" for k in range(n_players)])
    rows, battles = _battle_rows(names, *_random_battles(rng, strength, n_battles, log_nu))
    order = battles.players.get_indexer(names)
    truth = np.full(n_players, np.nan)
    truth[order[order >= 0]] = strength[order >= 0]
    return battles, {"strength": truth, "epp": truth, "log_nu": log_nu}, rows


def _random_battles(rng, strength, n_battles, log_nu=None):
    """(a, b, outcome) of ``n_battles`` between uniformly random pairs of distinct players:
    outcome 0 when a wins, 1 when b wins, 2 for a tie; the Davidson model's probabilities
    where ``log_nu`` is given, else P(a wins) = logistic(s_a - s_b) and no ties."""
    n_players = len(strength)
    a = rng.integers(0, n_players, n_battles)
    b = (a + rng.integers(1, n_players, n_battles)) % n_players
    diff = strength[a] - strength[b]
    probs = (np.column_stack([expit(diff), expit(-diff)]) if log_nu is None
             else davidson_probabilities(diff, log_nu, xp=np))
    return a, b, (rng.random((n_battles, 1)) > probs.cumsum(axis=1)).sum(axis=1)


def _battle_rows(names, a, b, outcome):
    """(rows ``model_a``, ``model_b``, ``winner``, their :class:`Battles`)."""
    rows = pd.DataFrame({"model_a": names[a], "model_b": names[b],
                         "winner": np.array(["model_a", "model_b", "tie"])[outcome]})
    return rows, Battles.from_long(rows, player_a="model_a", player_b="model_b",
                                   winner="winner", player_name="model")


def draw_continuous_prior(n_datasets, n_algorithms, rng):
    """tau_j ~ N(0, 5), lam_j ~ N(0, 5), s_j ~ LogNormal(0, 1), theta_i ~ N(0, 1)."""
    return {"tau": rng.normal(0.0, CONTINUOUS_PRIORS["tau"], n_algorithms),
            "lam": rng.normal(0.0, CONTINUOUS_PRIORS["lam"], n_algorithms),
            "s": rng.lognormal(0.0, CONTINUOUS_PRIORS["s"], n_algorithms),
            "theta": rng.normal(0.0, 1.0, n_datasets)}


def simulate_continuous(n_datasets, n_algorithms, rng):
    """A prior draw and z_ij ~ N(tau_j + lam_j theta_i, s_j), passed as y = logistic(z) on
    bounds (0, 1), so that the model sees z exactly.

    Data with some |z| > Z_MAX (which the transform would clip) are drawn again, with new
    parameters, and counted. The rejection depends on the data alone, so p(truth | data) is
    unchanged and the ranks stay uniform; only data beyond |z| = 29 go untested.
    The truth then gets the fit's reflection (lam, theta) -> (-lam, -theta) when sum(lam) < 0
    (z is unchanged), and alpha = lam / s, beta = -tau / lam.
    Returns (Responses, truth, redraws)."""
    redraws = 0
    while True:
        p = draw_continuous_prior(n_datasets, n_algorithms, rng)
        noise = rng.normal(0.0, 1.0, (n_datasets, n_algorithms))
        z = mean_z(p["tau"], p["lam"], p["theta"]) + p["s"] * noise
        if np.abs(z).max() <= Z_MAX:
            break
        redraws += 1
    flip = reflection_signs(p["lam"])
    lam, theta = flip * p["lam"], flip * p["theta"]
    wide = pd.DataFrame(expit(z), index=[f"d{k}" for k in range(n_datasets)],
                        columns=[f"a{k}" for k in range(n_algorithms)])
    resp = Responses.from_wide(wide, respondent="dataset", item="algorithm", kind="continuous",
                               bounds=(0.0, 1.0), clip=CONTINUOUS_CLIP)
    truth = {"tau": p["tau"], "lam": lam, "s": p["s"], "theta": theta,
             **airt_parameters(p["tau"], lam, p["s"])}
    return resp, truth, redraws


def draw_polytomous_prior(n_datasets, n_algorithms, n_levels, rng, model="gpcm"):
    """theta_i ~ N(0, 1), a_j ~ N(0, 2); GPCM: c_jv ~ N(0, 3); graded: c_j1 ~ N(0, 3) and
    the gaps to the next intercepts ~ LogNormal(0, 1)."""
    p = POLYTOMOUS_PRIORS
    prior = {"theta": rng.normal(0.0, 1.0, n_datasets),
             "a": rng.normal(0.0, p["a"], n_algorithms)}
    if model == "gpcm":
        prior["c"] = rng.normal(0.0, p["c"], (n_algorithms, n_levels - 1))
    else:
        first = rng.normal(0.0, p["c"], (n_algorithms, 1))
        gaps = rng.lognormal(0.0, 1.0, (n_algorithms, n_levels - 2))
        prior["c"] = np.concatenate([first, first + np.cumsum(gaps, axis=1)], axis=1)
    return prior


def simulate_polytomous(n_datasets, n_algorithms, n_levels, rng, model="gpcm", truth=None):
    """Levels x_ij from the polytomous IRT at a prior draw (or at ``truth``: theta, a, c).

    Data in which some algorithm does not reach its lowest or highest level, or some level is
    reached by no one, are drawn again (with new parameters when they come from the prior) and
    counted: the model keeps each algorithm's observed range of levels (and Responses refuses
    an unused level), so only such data match the model simulated from. The rejection
    depends on the data alone, so the ranks stay uniform. The truth gets the fit's reflection
    ((theta, a) -> (-theta, -a) when sum(a) < 0) and thresholds d = c / a. Returns
    (Responses, truth, redraws)."""
    redraws = 0
    valid = np.ones((n_algorithms, n_levels), dtype=bool)
    while True:
        p = truth or draw_polytomous_prior(n_datasets, n_algorithms, n_levels, rng, model)
        x = draw_levels(category_logp(p["theta"], p["a"], p["c"], valid, model, xp=np), rng)
        if ((x.min(axis=0) == 0).all() and (x.max(axis=0) == n_levels - 1).all()
                and np.isin(np.arange(n_levels), x).all()):  # every level used by someone
            break
        redraws += 1
    flip = reflection_signs(p["a"])
    wide = pd.DataFrame(x + 1, index=[f"d{k}" for k in range(n_datasets)],
                        columns=[f"a{k}" for k in range(n_algorithms)])
    resp = Responses.from_wide(wide, respondent="dataset", item="algorithm", kind="ordinal")
    out = {"theta": flip * p["theta"], "a": flip * p["a"], "c": p["c"],
           "d": thresholds(p["c"], flip * p["a"])}
    return resp, out, redraws


def simulate_multidimensional_prior(n_items, n_respondents, dims, rng):
    """A draw from the multidimensional 2PL's prior (mu_b ~ N(0, 3), sigma_b ~ HN(2), b_i ~
    N(mu_b, sigma_b), a_ik ~ N(0, 1), theta_k ~ ZeroSumNormal(1) per skill) and binary answers
    from it. The truth is in the prior's own (arbitrary) rotation: rank only what no rotation
    changes (b, the products a_i . a_l, the logits). Returns (Responses, truth, redraws =
    0)."""
    p = ONEPL_PRIORS
    truth = _draw_difficulties(rng, n_items)
    truth["a"] = rng.normal(0.0, p["sigma_a"], (n_items, dims))
    truth["theta"] = np.stack([_zero_sum_normal(rng, 1.0, n_respondents) for _ in range(dims)])
    p_correct = irt_probability(truth["a"] @ truth["theta"] - truth["b"][:, None])
    return _labelled(_answers(p_correct, rng)), truth, 0


def simulate_multidimensional(n_items, n_respondents, dims, rng):
    """Answers from a multidimensional 2PL with ``dims`` skills, P = logistic(a_j . theta_i -
    b_j): theta_i ~ N(0, I) (centred per skill), b_j ~ N(0, 1), and positive loadings with
    a main skill per instance (skill j mod dims; loading LogNormal(0, 0.3), the others
    Uniform(0, 0.4)). The truth is returned in the model's frame
    (:mod:`irteval.models.multidimensional`, anchors = the first ``dims`` instances): rotated
    by :func:`~irteval.models.multidimensional.rotate_to_anchors`, which keeps every answer's
    logit, each skill oriented as the fit orients it
    (loadings positive on average). Returns (Responses, truth: a (item, skill), theta (skill,
    respondent), b)."""
    a = rng.uniform(0.0, 0.4, (n_items, dims))
    main = np.arange(n_items) % dims
    a[np.arange(n_items), main] = np.exp(rng.normal(0.0, 0.3, n_items))
    theta = np.stack([_zero_sum_normal(rng, 1.0, n_respondents) for _ in range(dims)])
    b = rng.normal(0.0, 1.0, n_items)
    p = irt_probability(a @ theta - b[:, None])
    resp = _labelled(_answers(p, rng), item=("instance", "i"), respondent=("model", "m"))
    a_frame, theta_frame = rotate_to_anchors(a, theta, np.arange(dims))
    orient = reflection_signs(a_frame, axis=0)  # (1, skill)
    truth = {"a": a_frame * orient, "theta": theta_frame * orient.T, "b": b}
    return resp, truth


# ---------------------------------------------------------------------- ranks
def rank_of(truth, draws, rng):
    """Rank of ``truth`` among ``draws`` (axis 0), ties broken at random: in {0, ..., L}."""
    below = (draws < truth).sum(axis=0)
    ties = (draws == truth).sum(axis=0)
    return below + rng.integers(0, ties + 1)


def posterior_ranks(posterior, truth, n_keep, rng):
    """Ranks of every entry of every ``truth`` variable among ``n_keep`` thinned draws of the
    xarray ``posterior`` (chains pooled). Returns {"name[k]" or "name": rank}."""
    n_draws = posterior.sizes["chain"] * posterior.sizes["draw"]
    if n_keep > n_draws:
        raise ValueError(f"cannot keep {n_keep} of {n_draws} draws")
    keep = evenly_spaced(n_draws, n_keep)
    out = {}
    for name, value in truth.items():
        draws = posterior[name].stack(sample=("chain", "draw")).transpose("sample", ...).values
        ranks = np.atleast_1d(rank_of(value, draws[keep], rng)).ravel()
        if np.ndim(value) == 0:
            out[name] = int(ranks[0])
        else:
            out.update({f"{name}[{k}]": int(r) for k, r in enumerate(ranks)})
    return out


def simulate_and_rank(simulate, build, rng, n_keep=99, **fit_kwargs):
    """One SBC replicate: ``simulate(rng)`` -> (data, truth, redraws), NUTS on ``build(data)``
    through :func:`irteval.fit`, ranks of the truth among ``n_keep`` thinned draws.
    Returns (ranks, diagnostics): divergences, max R-hat, min bulk/tail ESS, redraws, seconds,
    the sampler that ran.
    The fit's convergence warnings are silenced: the diagnostics record them."""
    data, truth, redraws = simulate(rng)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        idata = fit(build(data), method="nuts", random_seed=int(rng.integers(2**31)),
                    progressbar=False, log_likelihood=False, posterior_predictive=False,
                    **fit_kwargs)
    diagnostics = {key: idata.attrs[key]
                   for key in ("divergences", "max_rhat", "min_ess_bulk", "min_ess_tail")}
    diagnostics.update(redraws=redraws, seconds=time.perf_counter() - start,
                       sampler=idata.attrs["irteval_method"]
                       + (" collapsed" if idata.attrs.get("collapsed") else ""))
    return posterior_ranks(idata.posterior, truth, n_keep, rng), diagnostics


def run(simulate, build, n_sims, random_seed=0, n_keep=99, log=None, n_jobs=None, seed=None,
        **fit_kwargs):
    """``n_sims`` replicates of :func:`simulate_and_rank`; replicate k uses the generator
    ``default_rng([random_seed, k])``, so each is reproducible alone and the result does not
    depend on ``n_jobs`` (joblib workers; None: in this process). ``log(k, ranks,
    diagnostics)`` is called after each, in order. Returns (ranks, diagnostics) DataFrames,
    one row per replicate. ``seed=``: the old name of ``random_seed=``."""
    random_seed = renamed(random_seed, seed, "seed", "random_seed", default=0)
    replicates = imap(lambda k: simulate_and_rank(simulate, build, np.random.default_rng(
        [random_seed, k]), n_keep, **fit_kwargs), range(n_sims), n_jobs=n_jobs)
    ranks, diagnostics = [], []
    for k, (r, d) in enumerate(replicates):
        ranks.append(r)
        diagnostics.append(d)
        if log is not None:
            log(k, r, d)
    index = pd.RangeIndex(n_sims, name="sim")
    return pd.DataFrame(ranks, index=index), pd.DataFrame(diagnostics, index=index)


# ---------------------------------------------------------------------- uniformity
def n_bins(n_sims, n_keep, min_expected=5):
    """Most equal-width bins of the L + 1 rank values with >= ``min_expected`` per bin."""
    fits = [b for b in range(2, n_keep + 2) if (n_keep + 1) % b == 0 and n_sims / b >= min_expected]
    if not fits:
        raise ValueError(f"{n_sims} ranks are too few for a chi-square test with "
                         f">= {min_expected} expected per bin and {n_keep + 1} rank values")
    return max(fits)


def chi_square_uniform(ranks, n_keep, bins=None):
    """Pearson's chi-square test that ranks in {0..L} are uniform, in ``bins`` equal bins
    (default :func:`n_bins`): sum_b (O_b - N/B)^2 / (N/B) ~ chi2(B - 1). Returns (stat, p)."""
    ranks = np.asarray(ranks)
    bins = bins or n_bins(len(ranks), n_keep)
    counts = np.bincount(ranks * bins // (n_keep + 1), minlength=bins)
    result = stats.chisquare(counts)
    return float(result.statistic), float(result.pvalue)


def holm(pvalues):
    """Holm's step-down adjustment (controls the family-wise error rate): the k-th smallest
    of m p-values becomes max_{i <= k} min(1, (m - i + 1) p_(i))."""
    p = np.asarray(pvalues, dtype=float)
    order = np.argsort(p)
    adjusted = np.minimum(1.0, np.maximum.accumulate((len(p) - np.arange(len(p))) * p[order]))
    out = np.empty_like(p)
    out[order] = adjusted
    return out


def vector_tests(block: pd.DataFrame, n_keep):
    """Two tests that pool the entries of one vector (columns of ``block``, rows simulations).
    Entries of one simulation are dependent, simulations are not, so each test is a one-sample
    t-test over simulations of one number per simulation: the mean rank (bias; uniform: L/2)
    and the mean |rank - L/2| (spread; uniform: its mean over {0..L}, larger when the posterior
    is too narrow, smaller when too wide). Returns {"mean rank": (t, p), "spread": (t, p)}."""
    centre = n_keep / 2
    expected_spread = np.abs(np.arange(n_keep + 1) - centre).mean()
    mean_rank = stats.ttest_1samp(block.mean(axis=1), centre)
    spread = stats.ttest_1samp((block - centre).abs().mean(axis=1), expected_spread)
    return {"mean rank": (float(mean_rank.statistic), float(mean_rank.pvalue)),
            "spread": (float(spread.statistic), float(spread.pvalue))}


def uniformity_table(ranks: pd.DataFrame, n_keep) -> pd.DataFrame:
    """Tests of the rank columns (as :func:`posterior_ranks` names them): Pearson's
    chi-square per column and, per vector ("name[k]" columns), the two
    :func:`vector_tests` (rows "name (mean rank)", "name (spread)"). Columns: test,
    statistic, p and p_holm (Holm over all rows)."""
    rows = {name: ("chi2", *chi_square_uniform(ranks[name].to_numpy(), n_keep))
            for name in ranks}
    vectors = ranks.columns[ranks.columns.str.endswith("]")].str.split("[").str[0].unique()
    for name in vectors:
        block = ranks.loc[:, ranks.columns.str.startswith(f"{name}[")]
        rows.update({f"{name} ({test})": ("t", *result)
                     for test, result in vector_tests(block, n_keep).items()})
    table = pd.DataFrame.from_dict(rows, orient="index", columns=["test", "statistic", "p"])
    table["p_holm"] = holm(table["p"])
    return table


def ecdf_difference_band(n_sims, n_keep, prob=0.99):
    """Simultaneous ``prob`` band for ECDF(r) - (r + 1) / (L + 1), r = 0..L-1, of n uniform
    ranks (Säilynoja, Bürkner & Vehtari 2022: pointwise binomial intervals at the level that
    makes them jointly ``prob``). Returns (r, lower, upper)."""
    r = np.arange(n_keep)
    cdf = (r + 1) / (n_keep + 1)
    lower, upper = ecdf_confidence_band(n_sims, r, cdf, prob=prob, method="optimized")
    return r, lower - cdf, upper - cdf
