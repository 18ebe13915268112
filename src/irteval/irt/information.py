"""Item and test information of a binary IRT fit, per posterior draw.

Item j's Fisher information about the ability at theta, I_j(theta)
(:func:`~.item_draws.item_information`: a_j^2 p_j (1 - p_j) in the 1PL/2PL); the test
information is the sum over items, and 1 / sqrt(I(theta)) the standard error of an ability
estimated from all items. Per draw, so each curve has a band.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import _intervals
from .._docs import fill_doc
from .._fits import label_name, warn_if_point
from .._validation import chosen_labels
from .item_draws import Items

#: name of the test information curve in :func:`information`'s ``curve`` level
TEST = "test"


@fill_doc
def information(idata, theta=None, *, items=None, max_draws=200, random_seed=0, ci_prob=None,
                ci_kind=None) -> pd.DataFrame:
    """Test information (and, with ``items=[...]``, those items' information) at abilities
    ``theta``, with intervals over the posterior draws.

    Per draw, item j's information I_j(theta) = a_j^2 (P - c_j)^2 (d_j - P)^2 /
    ((d_j - c_j)^2 P (1 - P)) with P = P_j(theta) (the 2PL's a_j^2 P (1 - P), a_j = 1 in the
    1PL: 1/4 at theta = b_j), and the test's I(theta) = sum_j I_j(theta): 1 / I is the
    variance of an ability estimated from these items.

    Parameters
    ----------
    {idata_one_skill}
    theta : float or array-like, optional
        Finite abilities (a number or a non-empty 1-d array); by default 61 points spanning
        the fitted respondents' posterior mean abilities, one unit wider on each side.
    items : list, optional
        Item labels (or one label) whose own curves to add; none by default. An item
        labelled ``"test"`` is refused (the test curve's name).
    {max_draws}
    {random_seed_draws}
    {ci_prob_and_kind}

    Returns
    -------
    pandas.DataFrame
        Rows: a (``curve``, ``theta``) MultiIndex, ``curve`` being ``"test"`` or an item
        label; columns ``mean``, ``{ci_kind}_lower``, ``{ci_kind}_upper``. ``attrs`` holds
        ``item_name``, ``ci_prob`` and ``ci_kind``.
    """
    prob, kind = _intervals.resolve(ci_prob, ci_kind)
    fitted = Items.from_idata(idata, "information", max_draws, random_seed)
    warn_if_point(idata, "information")
    if theta is None:
        means = idata.posterior["theta"].mean(("chain", "draw"), skipna=False).values
        theta = np.linspace(means.min() - 1, means.max() + 1, 61)
    try:
        theta = np.atleast_1d(np.asarray(theta, dtype=float))
    except (TypeError, ValueError):
        theta = np.array([np.nan])  # text: refused below
    if theta.ndim != 1 or not len(theta) or not np.isfinite(theta).all():
        raise ValueError("theta must be a finite number or a non-empty 1-d array of finite "
                         "abilities (e.g. np.linspace(-3, 3, 61))")
    chosen = [] if items is None else chosen_labels(items, fitted.labels, "items")
    if TEST in chosen:
        raise ValueError(f"{TEST!r} names the test information curve; it cannot be an item")
    where = [fitted.labels.get_loc(item) for item in chosen]
    test, picked = np.empty((len(fitted.b), len(theta))), np.empty((len(where), len(fitted.b),
                                                                      len(theta)))
    for k, t in enumerate(theta):  # a grid point at a time: (sample, item)
        info = fitted.information(t)
        test[:, k], picked[:, :, k] = info.sum(axis=1), info[:, where].T
    curves = {TEST: test, **dict(zip(chosen, picked))}
    frames = []
    for name, draws in curves.items():  # draws: (sample, theta)
        lower, upper = _intervals.interval(draws, prob, kind)
        frames.append(pd.DataFrame({"mean": draws.mean(axis=0), f"{kind}_lower": lower,
                                    f"{kind}_upper": upper},
                                   index=pd.MultiIndex.from_product([[name], theta],
                                                                    names=["curve", "theta"])))
    table = pd.concat(frames)
    table.attrs["item_name"] = label_name(idata, "item")
    return _intervals.record(table, prob, kind)
