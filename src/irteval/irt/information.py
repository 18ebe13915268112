"""Item and test information of a 1PL/2PL fit, per posterior draw.

Item j's Fisher information about the ability at theta is I_j(theta) = a_j^2 p_j (1 - p_j),
p_j = logistic(a_j (theta - b_j)) (a_j = 1 for the 1PL); the test information is the sum over
items, and 1 / sqrt(I(theta)) the standard error of an ability estimated from all items. Per
draw, so each curve has a band.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import _intervals
from .._draws import stacked_draws
from .._validation import check_idata, plain
from ..models.densities import sigmoid
from .difficulty import FAMILY

#: name of the test information curve in :func:`information`'s ``curve`` level
TEST = "test"


def item_information(a, b, theta):
    """I_j(theta) = a^2 p (1 - p), broadcast over ``a``, ``b`` and ``theta``."""
    p = sigmoid(a * (theta - b))
    return a**2 * p * (1 - p)


def information(idata, theta=None, *, items=None, max_draws=200, random_seed=0, ci_prob=None,
                ci_kind=None) -> pd.DataFrame:
    """Test information (and, with ``items=[...]``, those items' information) at abilities
    ``theta``, with intervals over the posterior draws.

    ``theta`` defaults to 61 points spanning the fitted respondents' abilities, one unit wider
    on each side. Rows: a (``curve``, ``theta``) MultiIndex, ``curve`` being ``"test"`` or an
    item label; columns ``mean``, ``{ci_kind}_lower``, ``{ci_kind}_upper``.
    """
    check_idata(idata, FAMILY, "information")
    prob, kind = _intervals.resolve(ci_prob, ci_kind)
    post = idata.posterior
    labels = pd.Index(post["item"].values)
    if theta is None:
        means = post["theta"].mean(("chain", "draw")).values
        theta = np.linspace(means.min() - 1, means.max() + 1, 61)
    theta = np.atleast_1d(np.asarray(theta, dtype=float))
    if theta.ndim != 1 or not np.isfinite(theta).all():
        raise ValueError("theta must be a finite number or a 1-d array of abilities")
    chosen = [] if items is None else list(items)
    unknown = [plain(i) for i in chosen if i not in labels]
    if unknown:
        raise ValueError(f"items {unknown[:5]} are not items of this fit (its items are "
                         f"idata.posterior['item'], e.g. {plain(labels[0])!r})")
    if TEST in chosen:
        raise ValueError(f"{TEST!r} names the test information curve; it cannot be an item")
    b = stacked_draws(idata, "b", max_draws, random_seed)
    a = (stacked_draws(idata, "a", max_draws, random_seed) if "a" in post
         else np.ones_like(b))
    curves = {TEST: np.stack([item_information(a_s[:, None], b_s[:, None], theta).sum(axis=0)
                              for a_s, b_s in zip(a, b)])}  # a draw at a time: (items, theta)
    for item in chosen:
        j = labels.get_loc(item)
        curves[item] = item_information(a[:, j, None], b[:, j, None], theta)
    frames = []
    for name, draws in curves.items():  # draws: (sample, theta)
        lower, upper = _intervals.interval(draws, prob, kind)
        frames.append(pd.DataFrame({"mean": draws.mean(axis=0), f"{kind}_lower": lower,
                                    f"{kind}_upper": upper},
                                   index=pd.MultiIndex.from_product([[name], theta],
                                                                    names=["curve", "theta"])))
    return _intervals.record(pd.concat(frames), prob, kind)
