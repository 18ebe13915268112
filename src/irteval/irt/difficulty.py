"""Instance difficulty from a fitted 1PL/2PL, its bins, and characteristic curves.

Everything is computed per posterior draw, so each number carries a credible interval.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr

from .. import _intervals
from .._docs import fill_doc
from .._draws import equal_count_bins, stacked_draws
from .._fits import check_idata, label_name, warn_if_point
from .._validation import count, fixed_seed
from ..models.densities import irt_probability
from .item_draws import FAMILY, Items


def observed_cells(idata):
    """(item_idx, respondent_idx, y) of every observed cell, from the fit's stored data."""
    y = idata.observed_data["y"]
    if y.dims == ("item", "respondent"):
        mat = y.values.astype(float)
        item_idx, respondent_idx = np.nonzero(~np.isnan(mat))
        return item_idx, respondent_idx, mat[item_idx, respondent_idx]
    const = idata.constant_data
    return const["item_idx"].values, const["respondent_idx"].values, y.values.astype(float)


def observed_counts(idata, by):
    """(answers, right answers) per item (``by="item"``) or per respondent, in the fit's
    order, from its stored data."""
    item_idx, resp_idx, y = observed_cells(idata)
    idx, n = (item_idx if by == "item" else resp_idx), idata.posterior.sizes[by]
    return np.bincount(idx, minlength=n), np.bincount(idx, weights=y, minlength=n)


@fill_doc
def difficulty_bins(idata, n_bins=5) -> xr.DataArray:
    """Equal-count difficulty bins, per draw: 0 = easiest ... n_bins - 1 = hardest.

    For each draw the items are ranked by b and cut into ``n_bins`` groups of (almost)
    equal size, as the reference code's quantile bins.

    Parameters
    ----------
    {idata_binary}
    n_bins : int, default 5
        Number of bins, from 1 to the number of items.

    Returns
    -------
    xarray.DataArray
        ``bin``: each item's bin per draw, dims (chain, draw, item).
    """
    check_idata(idata, FAMILY, "difficulty_bins")
    b = idata.posterior["b"]
    check_bins(n_bins, b.sizes["item"])
    return b.copy(data=equal_count_bins(b.values, n_bins)).rename("bin")


def check_bins(n_bins, n_items):
    """``n_bins`` a whole number from 1 to the number of items (a bin needs an item)."""
    if not 1 <= count(n_bins, "n_bins") <= n_items:
        raise ValueError(f"n_bins must be between 1 and the number of items ({n_items}), "
                         f"got {n_bins}")


@fill_doc
def difficulty(idata, *, ci_prob=None, ci_kind=None, n_bins=5, hdi_prob=None) -> pd.DataFrame:
    """One row per item: posterior mean, sd and interval of the difficulty b, the observed
    accuracy, and its difficulty bin (of the posterior mean) with the posterior
    probability of being in that bin.

    Parameters
    ----------
    {idata_binary}
    {ci_prob_and_kind}
    n_bins : int, default 5
        Number of equal-count difficulty bins (:func:`difficulty_bins`), from 1 to the
        number of items.
    {hdi_prob}

    Returns
    -------
    pandas.DataFrame
        Indexed by item, in the fit's order; the index is named as the fit names its items
        (``item_name``, e.g. "question"), while the posterior's dimension stays ``item``
        (``az.plot_trace(idata, var_names=["b"], coords={"item": ["Q01"]})``). Columns:
        ``mean``, ``sd``, ``{ci_kind}_lower``, ``{ci_kind}_upper`` (``hdi_lower`` ... by
        default; :mod:`irteval._intervals`), ``n_obs`` (observed answers), ``accuracy``,
        ``bin`` (0 = easiest), ``p_bin``; then, for the 2PL and beyond, the posterior mean
        and interval of each item's discrimination ``a``, guessing floor ``c`` and ceiling
        ``d`` that the fit has: ``a``, ``a_lower``, ``a_upper``, ... ``attrs`` holds
        ``ci_prob`` and ``ci_kind``.
    """
    check_idata(idata, FAMILY, "difficulty")
    warn_if_point(idata, "difficulty")
    prob, kind = _intervals.resolve(ci_prob, ci_kind, hdi_prob)
    b = idata.posterior["b"]
    lower, upper = _intervals.interval(stacked_draws(idata, "b"), prob, kind)
    mean = b.mean(("chain", "draw"), skipna=False).values  # (skipping NaN copied every draw)
    n_obs, right = observed_counts(idata, "item")
    bins = difficulty_bins(idata, n_bins).values.reshape(-1, b.sizes["item"])
    point_bin = equal_count_bins(mean, n_bins)
    table = pd.DataFrame({
        "mean": mean,
        "sd": b.std(("chain", "draw")).values,
        f"{kind}_lower": lower,
        f"{kind}_upper": upper,
        "n_obs": n_obs,
        "accuracy": right / n_obs,
        "bin": point_bin,
        "p_bin": (bins == point_bin).mean(axis=0),
    }, index=pd.Index(b["item"].values, name=label_name(idata, "item")))
    for name in ("a", "c", "d"):  # (the multidimensional 2PL's a has a skill dim: not here)
        if name in idata.posterior and idata.posterior[name].dims == b.dims:
            for column, values in _intervals.quantity_columns(
                    stacked_draws(idata, name), prob, kind, name).items():
                table[column] = values
    return _intervals.record(table, prob, kind)


@fill_doc
def abilities(idata, *, ci_prob=None, ci_kind=None, hdi_prob=None) -> pd.DataFrame:
    """One row per respondent (the models answering): posterior mean, sd and interval of the
    ability theta, the number of observed answers and the observed accuracy, best first.

    Abilities sum to zero: they are relative to the average respondent.

    Parameters
    ----------
    {idata_binary}
    {ci_prob_and_kind}
    {hdi_prob}

    Returns
    -------
    pandas.DataFrame
        Indexed by respondent (the fit's respondent name), best first. A multidimensional
        fit gives one row per (``skill``, respondent), best first per skill. Columns:
        ``mean``, ``sd``, ``{ci_kind}_lower``, ``{ci_kind}_upper``, ``n_obs``, ``accuracy``.
        ``attrs`` holds ``ci_prob`` and ``ci_kind``.
    """
    check_idata(idata, FAMILY, "abilities")
    warn_if_point(idata, "abilities")
    prob, kind = _intervals.resolve(ci_prob, ci_kind, hdi_prob)
    theta = idata.posterior["theta"]
    n_obs, right = observed_counts(idata, "respondent")
    index = pd.Index(theta["respondent"].values,
                     name=label_name(idata, "respondent"))

    def table(draws):
        return pd.DataFrame({
            **_intervals.estimate_columns(draws, prob, kind), "n_obs": n_obs,
            "accuracy": right / n_obs,
        }, index=index).sort_values("mean", ascending=False)

    draws = stacked_draws(idata, "theta")
    if "skill" in theta.dims:
        skills = theta["skill"].values
        out = pd.concat({k: table(draws[:, m]) for m, k in enumerate(skills)}, names=["skill"])
    else:
        out = table(draws)
    return _intervals.record(out, prob, kind)


@fill_doc
def difficulty_moments(idata, *, ci_prob=None, ci_kind=None, varied_only=False,
                       hdi_prob=None) -> pd.DataFrame:
    """Posterior of the location and spread of a test set's difficulties.

    For every draw s: mean_i b_i^(s) and sd_i b_i^(s) (ddof=1) over the items.

    Parameters
    ----------
    {idata_binary}
    {ci_prob_and_kind}
    varied_only : bool, default False
        Use only the items answered both right and wrong, as the reference code that drops
        constant columns before fitting; ``False``: all of them.
    {hdi_prob}

    Returns
    -------
    pandas.DataFrame
        Rows ``mean`` and ``sd`` (index named ``statistic``); columns ``estimate`` (the
        statistic of the posterior-mean difficulties, the classical number),
        ``posterior_mean``, ``{ci_kind}_lower``, ``{ci_kind}_upper``. ``attrs`` holds
        ``n_items`` (the items used), ``ci_prob`` and ``ci_kind``.
    """
    check_idata(idata, FAMILY, "difficulty_moments")
    warn_if_point(idata, "difficulty_moments")
    prob, kind = _intervals.resolve(ci_prob, ci_kind, hdi_prob)
    b = idata.posterior["b"]
    items = None  # all
    if varied_only:
        total, right = observed_counts(idata, "item")
        items = np.flatnonzero((right > 0) & (right < total))
    point = b.mean(("chain", "draw"), skipna=False).values  # NaN-skipping copied every draw
    point = point if items is None else point[items]
    rows = {}
    for stat, per_draw, classical in zip(("mean", "sd"), moment_draws(b, items),
                                         (point.mean(), point.std(ddof=1))):
        draws = per_draw.stack(sample=("chain", "draw")).values
        lower, upper = _intervals.interval(draws, prob, kind)
        rows[stat] = {"estimate": float(classical), "posterior_mean": float(per_draw.mean()),
                      f"{kind}_lower": float(lower), f"{kind}_upper": float(upper)}
    table = pd.DataFrame(rows).T.rename_axis("statistic")
    table.attrs["n_items"] = len(point)
    return _intervals.record(table, prob, kind)


def moment_draws(b, items=None):
    """Per draw, the mean and sd (ddof=1) of the difficulties ``b`` over the items (those at
    positions ``items``; all by default), as (chain, draw) DataArrays: a block of draws at a
    time, as whole-posterior temporaries took 1.4 GB for 20000 items x 4000 draws (a chain at
    a time, 0.3 GB)."""
    values = b.transpose("chain", "draw", "item").values
    mean, sd = np.empty(values.shape[:2]), np.empty(values.shape[:2])
    block = max(1, 2**21 // values.shape[2])  # draws of ~16 MB
    for c, chain in enumerate(values):
        for start in range(0, len(chain), block):
            part = chain[start:start + block]
            part = part if items is None else part[:, items]
            mean[c, start:start + block] = part.mean(axis=1)
            sd[c, start:start + block] = part.std(axis=1, ddof=1)
    coords = {"chain": b["chain"], "draw": b["draw"]}
    return (xr.DataArray(mean, coords=coords, dims=("chain", "draw")),
            xr.DataArray(sd, coords=coords, dims=("chain", "draw")))


@fill_doc
def characteristic_curves(idata, *, n_bins=5, ci_prob=None, ci_kind=None, max_draws=200,
                          random_seed=0, hdi_prob=None) -> pd.DataFrame:
    """Per respondent and difficulty bin: observed accuracy and model-implied P(correct).

    For each posterior draw s the items are binned by b^(s); in bin k respondent j's
    observed accuracy is the share of its observed cells there that are correct, and
    the predicted one is the mean of P_i^(s)(theta_j^(s)) (:mod:`.item_draws`) over the
    same cells.

    Parameters
    ----------
    {idata_one_skill}
    n_bins : int, default 5
        Number of equal-count difficulty bins per draw, from 1 to the number of items.
    {ci_prob_and_kind}
    {max_draws}
    {random_seed_draws}
    {hdi_prob}

    Returns
    -------
    pandas.DataFrame
        A (respondent, ``bin``) MultiIndex, ``bin`` 0 = easiest. Columns ``b_mean`` (the
        bin's mean difficulty, averaged over draws), ``accuracy`` and ``predicted``
        (posterior means over the draws where the respondent has answers in the bin) with
        ``accuracy_lower`` / ``accuracy_upper`` and ``predicted_lower`` /
        ``predicted_upper`` interval bounds. An accuracy whose draws pile up at 1 (every
        answer in the bin right in most draws) can have its mean just below an HDI of
        [1, 1]: the mean counts the few draws the interval leaves out. ``attrs`` holds
        ``irteval_model``, ``ci_prob`` and ``ci_kind``.
    """
    check_idata(idata, FAMILY, "characteristic_curves")
    warn_if_point(idata, "characteristic_curves")
    check_bins(n_bins, idata.posterior.sizes["item"])
    prob, kind = _intervals.resolve(ci_prob, ci_kind, hdi_prob)
    random_seed = fixed_seed(random_seed)  # theta from the items' draws
    items = Items.from_idata(idata, "characteristic_curves", max_draws, random_seed)
    b = items.b
    theta = stacked_draws(idata, "theta", max_draws, random_seed)
    item_idx, resp_idx, y = observed_cells(idata)
    n_resp = theta.shape[1]
    size = n_resp * n_bins
    acc = np.empty((len(b), size))
    pred = np.empty((len(b), size))
    b_mean = np.empty((len(b), n_bins))
    for s in range(len(b)):
        item_bin = equal_count_bins(b[s], n_bins)
        key = resp_idx * n_bins + item_bin[item_idx]
        count = np.bincount(key, minlength=size)
        p = irt_probability(*items.logits(theta[s, resp_idx], (s, item_idx)))
        with np.errstate(invalid="ignore", divide="ignore"):
            acc[s] = np.bincount(key, weights=y, minlength=size) / count
            pred[s] = np.bincount(key, weights=p, minlength=size) / count
        b_mean[s] = np.bincount(item_bin, weights=b[s], minlength=n_bins) / np.bincount(
            item_bin, minlength=n_bins)
    index = pd.MultiIndex.from_product(
        [idata.posterior["respondent"].values, np.arange(n_bins)],
        names=[label_name(idata, "respondent"), "bin"])
    out = {"b_mean": np.tile(b_mean.mean(axis=0), n_resp)}
    for name, draws in (("accuracy", acc), ("predicted", pred)):
        out |= _intervals.quantity_columns(draws, prob, kind, name, centre=np.nanmean)
    table = pd.DataFrame(out, index=index)
    table.attrs["irteval_model"] = idata.attrs.get("irteval_model", "1pl")
    return _intervals.record(table, prob, kind)
