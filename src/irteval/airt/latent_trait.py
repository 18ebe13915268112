"""AIRT's latent trait analysis (paper 3): the dataset-difficulty spectrum, strengths and
weaknesses, latent trait occupancy and the algorithm portfolio — each from the posterior
mean (airt's point estimate) and as a distribution over posterior draws (the algorithm
metrics: :mod:`irteval.airt.metrics`).

Latent trait analysis, for a spectrum of dataset difficulties delta_i = -theta_i:
h_j = smoothing spline of algorithm j's performance over delta (:mod:`irteval.airt.smoothing`),
evaluated on ``n_grid`` points from min to max delta; at grid point g algorithm j is
*strong* if h_j(g) >= max_k h_k(g) - epsilon and *weak* if h_j(g) <= min_k h_k(g) + epsilon
(epsilon in performance units; for the polytomous IRT the performance is the level). Each
dataset takes the flags of its nearest grid point; the latent trait occupancy LTO_j is the
share of datasets where j is strong (with epsilon > 0 the shares can sum to more than 1).
The portfolio is the set of algorithms with LTO > 0.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

from .. import _intervals
from .._docs import fill_doc
from .._draws import stacked_draws, thin
from .._fits import check_idata, fit_family, label_name, warn_if_point
from .._repr import ShortRepr
from .._validation import count, warn_user
from ..parallel import map_draws
from .metrics import AIRT_FAMILIES, observed_performance
from .smoothing import fit_curves


@dataclass(frozen=True, repr=False)
class LatentTrait(ShortRepr):
    """Result of :func:`latent_trait`.

    Attributes
    ----------
    spectrum : pandas.DataFrame
        One row per dataset: posterior mean, sd and interval (``{ci_kind}_lower``,
        ``{ci_kind}_upper``) of the difficulty delta = -theta, sorted from easiest to hardest.
    smoothed : pandas.DataFrame
        Grid (index ``difficulty``) x algorithm: the smoothed performance over the
        posterior-mean spectrum (airt's curves); ``attrs["value"]``: "performance" or
        "level" (the polytomous IRT).
    smoothed_lower, smoothed_upper : pandas.DataFrame
        Grid x algorithm: the interval of the smoothed performance over posterior draws of the
        spectrum, on the same grid. Where the spectrum is uncertain (the polytomous IRT) the
        draws' splines are flatter than the one on the mean spectrum, which can leave it.
    strengths, weaknesses : pandas.DataFrame
        Grid x algorithm: 0/1 flags on that grid (of the posterior-mean spectrum, airt's).
    p_strong, p_weak : pandas.DataFrame
        Grid x algorithm: the share of the thinned posterior draws of the spectrum in which
        the algorithm is strong (weak) at that difficulty, its curve on the same grid.
    occupancy : pandas.DataFrame
        One row per algorithm: ``lto`` (strengths) and ``lto_weak`` from the posterior-mean
        spectrum; over thinned posterior draws the mean and interval of the LTO
        (``lto_mean``, ``lto_lower``, ``lto_upper``), the mean of the weak one
        (``lto_weak_mean``), and ``p_strength`` = P(LTO > 0), ``p_weakness`` likewise.
        ``attrs`` holds ``ci_prob`` and ``ci_kind``.
    epsilon : float
        The tolerance of the strengths and weaknesses, in performance units.
    performance_range : tuple of float
        The smallest and largest observed performance (the plots clip the smoothed curves to
        it).
    """

    spectrum: pd.DataFrame
    smoothed: pd.DataFrame
    smoothed_lower: pd.DataFrame
    smoothed_upper: pd.DataFrame
    strengths: pd.DataFrame
    weaknesses: pd.DataFrame
    p_strong: pd.DataFrame
    p_weak: pd.DataFrame
    occupancy: pd.DataFrame
    epsilon: float
    performance_range: tuple = (0.0, 1.0)

    @property
    def curves(self) -> pd.DataFrame:
        """Deprecated name of :attr:`smoothed`."""
        warn_user("LatentTrait.curves is deprecated; use LatentTrait.smoothed", FutureWarning)
        return self.smoothed


def _occupancy(delta, performance, epsilon, n_grid, common=None):
    """Smoothed curves on the spectrum's grid, strength/weakness flags and LTOs for one
    spectrum; with ``common``, also the curves on that grid (the last item)."""
    grid = np.linspace(delta.min(), delta.max(), n_grid)
    both = fit_curves(delta, performance, grid if common is None else np.r_[grid, common])
    curves, on_common = both[:n_grid], both[n_grid:]
    strong = curves >= curves.max(axis=1, keepdims=True) - epsilon
    weak = curves <= curves.min(axis=1, keepdims=True) + epsilon
    nearest = np.clip(np.rint((delta - grid[0]) / (grid[1] - grid[0])), 0, n_grid - 1)
    nearest = nearest.astype(int)
    return (grid, curves, strong, weak, strong[nearest].mean(axis=0),
            weak[nearest].mean(axis=0), on_common)


def _lto_of_draw(delta, *, performance, epsilon, n_grid, common):
    return _occupancy(delta, performance, epsilon, n_grid, common)[4:]


@fill_doc
def latent_trait(idata, epsilon=0.01, *, n_grid=80, ci_prob=None, ci_kind=None, max_draws=500,
                 random_seed=0, n_jobs=None, hdi_prob=None) -> LatentTrait:
    """Dataset difficulty spectrum, smoothing splines, strengths and weaknesses and latent trait
    occupancy, from the posterior mean (over every draw) and per draw over ``max_draws`` draws
    chosen with ``random_seed``. Over dataset difficulty delta = -theta, h_j(delta) is a
    smoothing spline of algorithm j's performance; j is strong where h_j >= max_k h_k -
    epsilon and weak where h_j <= min_k h_k + epsilon; its latent trait occupancy is the share
    of datasets where it is strong; :func:`portfolio` keeps the algorithms with
    P(occupancy > 0) > 0.5 over the draws.

    Parameters
    ----------
    {idata_airt}
    epsilon : float, default 0.01
        Tolerance (>= 0) in performance units (the level for the polytomous IRT): an
        algorithm is strong within epsilon of the best smoothed performance at a grid point,
        weak within epsilon of the worst.
    n_grid : int, default 80
        Number of grid points (>= 2) from the smallest to the largest difficulty.
    {ci_prob_and_kind}
    max_draws : int or None, default 500
        The per-draw LTOs and curve bands use at most this many posterior draws (chains
        pooled), chosen at random with ``random_seed``; ``None``: every draw. The
        posterior-mean spectrum and its intervals use every draw.
    random_seed : int, numpy.random.Generator or None, default 0
        Seeds the choice of those draws; the same seed gives the same result.
    n_jobs : int, optional
        Workers for the per-draw fits, through joblib (:func:`irteval.parallel.map_draws`):
        ``None`` runs in this process unless a ``joblib.parallel_config`` says otherwise,
        ``-1`` uses every core.
    {hdi_prob}

    Returns
    -------
    LatentTrait
        The spectrum, the smoothed curves with their bands, the strength and weakness flags and
        the occupancy table.
    """
    check_idata(idata, AIRT_FAMILIES, "latent_trait")
    warn_if_point(idata, "latent_trait")
    if not (isinstance(epsilon, numbers.Real) and not isinstance(epsilon, (bool, np.bool_))
            and np.isfinite(epsilon) and epsilon >= 0):
        raise ValueError(f"epsilon must be a number >= 0 (performance units), got {epsilon!r}")
    count(n_grid, "n_grid", minimum=2)
    prob, kind = _intervals.resolve(ci_prob, ci_kind, hdi_prob)
    item_name, resp_name = label_name(idata, "item"), label_name(idata, "respondent")
    algorithms = idata.posterior["item"].values
    performance = observed_performance(idata)
    every = -stacked_draws(idata, "theta")  # the spectrum and its mean from every draw
    point = every.mean(axis=0)
    spectrum = _intervals.record(pd.DataFrame(
        _intervals.estimate_columns(every, prob, kind),
        index=pd.Index(idata.posterior["respondent"].values, name=resp_name),
    ), prob, kind).sort_values("mean")
    grid, curves, strong, weak, lto, lto_weak, _ = _occupancy(point, performance, epsilon,
                                                              n_grid)
    delta = every[thin(len(every), max_draws, random_seed)]  # the per-draw LTOs: thinned
    per_draw = map_draws(partial(_lto_of_draw, performance=performance, epsilon=epsilon,
                                 n_grid=n_grid, common=grid), delta, n_jobs=n_jobs)
    strong_lto, weak_lto, drawn = (np.array(part) for part in zip(*per_draw))
    lower, upper = _intervals.interval(strong_lto, prob, kind)
    occupancy = pd.DataFrame({
        "lto": lto, "lto_weak": lto_weak,
        "lto_mean": strong_lto.mean(axis=0), "lto_lower": lower, "lto_upper": upper,
        "p_strength": (strong_lto > 0).mean(axis=0),
        "lto_weak_mean": weak_lto.mean(axis=0),
        "p_weakness": (weak_lto > 0).mean(axis=0),
    }, index=pd.Index(algorithms, name=item_name))
    _intervals.record(occupancy, prob, kind)
    grid_index = pd.Index(grid, name="difficulty")

    def frame(values):
        return pd.DataFrame(values, index=grid_index,
                            columns=pd.Index(algorithms, name=item_name))

    band_lower, band_upper = _intervals.interval(drawn, prob, kind)
    p_strong = (drawn >= drawn.max(axis=2, keepdims=True) - epsilon).mean(axis=0)
    p_weak = (drawn <= drawn.min(axis=2, keepdims=True) + epsilon).mean(axis=0)
    smoothed = frame(curves)
    smoothed.attrs["value"] = "level" if fit_family(idata) == "polytomous_irt" else "performance"
    return LatentTrait(spectrum=spectrum, smoothed=smoothed,
                       smoothed_lower=frame(band_lower), smoothed_upper=frame(band_upper),
                       strengths=frame(strong.astype(int)), weaknesses=frame(weak.astype(int)),
                       p_strong=frame(p_strong), p_weak=frame(p_weak),
                       occupancy=occupancy, epsilon=float(epsilon),
                       performance_range=(float(np.nanmin(performance)),
                                          float(np.nanmax(performance))))


def as_latent_trait(lt, caller):
    """``lt``, a :class:`LatentTrait`, or :func:`latent_trait` with its defaults when given
    the fit; anything else is refused, naming ``caller``."""
    if isinstance(lt, LatentTrait):
        return lt
    if hasattr(lt, "posterior"):
        check_idata(lt, AIRT_FAMILIES, caller)  # the error names the caller
        return latent_trait(lt)
    raise TypeError(f"{caller} takes the result of irteval.latent_trait(idata), or the fit; "
                    f"got {type(lt).__name__}")


def portfolio(lt: LatentTrait) -> pd.DataFrame:
    """The airt portfolio: algorithms strong somewhere on the difficulty spectrum.

    (Membership came from ``lto`` > 0 before: the occupancy of the mean curves, which can put
    an algorithm in the portfolio in 13% of the draws.)

    Parameters
    ----------
    lt : LatentTrait or arviz.InferenceData
        The result of :func:`latent_trait`, or the fit (then :func:`latent_trait` with its
        defaults); anything else is refused.

    Returns
    -------
    pandas.DataFrame
        One row per algorithm, most probable members first: ``lto`` (airt's latent trait
        occupancy, of the posterior-mean spectrum: the number to compare with airt's),
        ``in_portfolio`` (``p_in_portfolio`` > 0.5), ``p_in_portfolio`` (share of posterior
        draws in which the algorithm is strong on some dataset: LTO > 0), and the posterior mean and
        interval of its LTO (``lto_mean``, ``lto_lower``, ``lto_upper``). ``attrs`` holds
        ``epsilon``, ``ci_prob`` and ``ci_kind``.
    """
    lt = as_latent_trait(lt, "portfolio")
    occ = lt.occupancy
    out = pd.DataFrame({"lto": occ["lto"], "in_portfolio": occ["p_strength"] > 0.5,
                        "p_in_portfolio": occ["p_strength"], "lto_mean": occ["lto_mean"],
                        "lto_lower": occ["lto_lower"], "lto_upper": occ["lto_upper"]})
    out.attrs.update(epsilon=lt.epsilon, ci_prob=occ.attrs["ci_prob"],
                     ci_kind=occ.attrs["ci_kind"])
    return out.sort_values(["p_in_portfolio", "lto_mean"], ascending=False)
