"""Item and person fit of a binary IRT fit, and local dependence, computed per posterior draw.

For draw s and observed cell (i, j): p_ij = P_j(theta_i) (:mod:`.item_draws`; the 1PL ... 4PL,
and the multidimensional 2PL's logistic(a_j . theta_i - b_j)),
residual r_ij = y_ij - p_ij, variance w_ij = p_ij (1 - p_ij). Over the cells of an item (or of a
respondent):

- ``outfit`` = mean of r^2 / w (the unweighted mean square; outlier-sensitive: one surprising
  answer far from the item moves it),
- ``infit`` = sum r^2 / sum w (the information-weighted mean square, as in Rasch practice).

Both are 1 in expectation under the model; above ~1.3 the answers are noisier than the model
says (misfit), below ~0.7 more deterministic (Guttman-like, overfit). ``ppp`` is the posterior
predictive p-value of the deviance D = -2 sum log p(y | p) of the item's (respondent's)
answers: P(D(y_rep) >= D(y)) with y_rep ~ Bernoulli(p) at the same draw; small means the
answers are less predictable than the model allows (the same check as
:func:`irteval.score_new_model`'s ``person_fit_p``). ``ppp_groups`` checks the shape of the
curve instead (Sinharay 2006's posterior predictive version of Yen's Q1): at each draw the
respondents who answered the item are split into G equal groups by ability (with several
skills, the ability along the mean loading; for person fit, the items the respondent answered
by difficulty b), G = n / 5 between 1 and 5 (n: its answers), and X^2 = sum_g (O_g - E_g)^2 /
V_g compares the observed correct answers per group with the expected number E_g = sum p and
variance V_g = sum p (1 - p); ``ppp_groups`` = P(X^2(y_rep) >= X^2(y)). A floor or ceiling
the model lacks shows there (too many right answers among the weakest), where the deviance,
summed over all answers, stays unremarkable. On a 1PL fitted to 3PL answers (1000 x 30) five
groups flagged 30% of the items, ten 13% and the deviance 20%; none of the true model's.
Posterior predictive p-values are conservative (the data were used to fit), so each flags
fewer than 5% of well-fitting items; ``misfit`` is either p-value below 0.05, so up to twice
that: 2 of 50 well-fitting instances in ``tests/test_fit_statistics.py`` (by the groups), none
of the true model's items in the 3PL/4PL recoveries of ``benchmarks/threepl.py``.

Yen's Q3: the correlation over respondents of two items' residuals, averaged over draws; under
local independence it is near 0 (a review measured a mean of +0.002 over the pairs of simulated
Rasch answers, 40 items x 100 respondents: Yen's -1/(J - 1) is for abilities estimated by
maximum likelihood from the same J items, not for posterior draws); pairs well above (|Q3| >
0.2 is the usual rule) share something the single ability does not explain. With few
respondents (58 models) a pair's residuals are a handful of shared failures and |Q3| reaches
0.99 by chance; the posterior predictive ``ppp_max`` of ``local_dependence(top=)`` compares
each pair with the largest |Q3| of answers replicated from the model, which corrects for both
that and the number of pairs (measured in ``models/onepl.md``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import _intervals
from .._docs import SHARED, fill_doc, parameters_section
from .._draws import stacked_draws
from ..models.densities import irt_probability
from .difficulty import observed_cells
from .._fits import check_idata, label_name, needs_draws, warn_if_point
from .._validation import count, fixed_seed, warn_user
from ..models.multidimensional import is_multidimensional, logits
from .item_draws import FAMILY, Items, answer_logp

#: posterior predictive p-value below which a row is flagged ``misfit``
MISFIT_P = 0.05
#: ability (difficulty) groups of the grouped check, at most
MAX_GROUPS = 5

#: docstring entries of the fit tables (item_fit, person_fit): the Parameters section they
#: share
FIT_TABLE_DOCS = {"fit_table_parameters": parameters_section(*(
    SHARED[name] for name in ("idata_binary_draws", "max_draws", "random_seed",
                              "ci_prob_and_kind")))}


def _cell_draws(idata, caller, max_draws, random_seed):
    """(item_idx, respondent_idx, y) of the observed cells, the number of thinned draws, and
    a generator per draw of (eta, c, d) on those cells (eta = a_j (theta_i - b_j), the cells'
    floor and ceiling: scalars without them) and of the respondents' abilities and the items'
    difficulties b (with several skills, the ability along the mean loading)."""
    check_idata(idata, FAMILY, caller)
    needs_draws(idata, caller)
    warn_if_point(idata, caller)  # one draw chosen on purpose: its p-values are 0 or 1
    random_seed = fixed_seed(random_seed)  # theta and the items from the same draws
    theta = stacked_draws(idata, "theta", max_draws, random_seed)
    item_idx, resp_idx, y = observed_cells(idata)
    if is_multidimensional(idata):
        a, b = (stacked_draws(idata, name, max_draws, random_seed) for name in ("a", "b"))

        def cells():
            for s, t in enumerate(theta):
                yield (logits(a[s], t, b[s], item_idx, resp_idx), 0.0, 1.0,
                       a[s].mean(axis=0) @ t, b[s])
    else:
        items = Items.from_idata(idata, caller, max_draws, random_seed)

        def cells():
            for s, t in enumerate(theta):
                yield *items.logits(t[resp_idx], (s, item_idx)), t, items.b[s]

    return item_idx, resp_idx, y, len(theta), cells()


def _fit_table(idata, by, caller, max_draws, random_seed, ci_prob, ci_kind):
    prob, kind = _intervals.resolve(ci_prob, ci_kind)
    item_idx, resp_idx, y, n_draws, cells = _cell_draws(idata, caller, max_draws, random_seed)
    group, other = (item_idx, resp_idx) if by == "item" else (resp_idx, item_idx)
    labels = idata.posterior[by].values
    n, n_other = len(labels), idata.posterior.sizes["respondent" if by == "item" else "item"]
    count = np.bincount(group, minlength=n)
    seen = None
    if len(y) < n * n_other:
        seen = np.zeros((n, n_other), dtype=bool)
        seen[group, other] = True
    rng = np.random.default_rng(random_seed)
    infit, outfit = np.empty((n_draws, n)), np.empty((n_draws, n))
    exceed, exceed_groups = np.zeros(n), np.zeros(n)
    sign = 2 * y - 1
    for s, (eta, c, d, ability, difficulty) in enumerate(cells):
        p = irt_probability(eta, c, d)
        w = p * (1 - p)
        r2 = (y - p) ** 2
        # an item every model gets right can round p to 1 in a draw: 0 / 0, whose limit
        # (1 - p) / p is 0, as the outfit's floor gives
        infit[s] = np.bincount(group, r2, n) / np.maximum(np.bincount(group, w, n), 1e-12)
        outfit[s] = np.bincount(group, r2 / np.maximum(w, 1e-12), n) / count
        replicated = rng.random(len(p)) < p
        loglik = np.bincount(group, answer_logp(sign, eta, c, d), n)
        exceed += np.bincount(group, answer_logp(2.0 * replicated - 1, eta, c, d), n) <= loglik
        cell_group = _cell_groups(group, other, seen, count,
                                  ability if by == "item" else difficulty)
        expected, variance = (np.bincount(cell_group, v, n * MAX_GROUPS) for v in (p, w))
        exceed_groups += (_chi_square(cell_group, replicated, expected, variance, n)
                          >= _chi_square(cell_group, y, expected, variance, n))
    table = (_intervals.quantity_columns(infit, prob, kind, "infit")
             | _intervals.quantity_columns(outfit, prob, kind, "outfit"))
    table |= {"ppp": exceed / n_draws, "ppp_groups": exceed_groups / n_draws, "n_obs": count}
    frame = pd.DataFrame(table, index=pd.Index(labels, name=label_name(idata, by)))
    frame["misfit"] = (frame["ppp"] < MISFIT_P) | (frame["ppp_groups"] < MISFIT_P)
    frame.attrs.update(fit_of=by, posterior_draws=n_draws)
    return _intervals.record(frame, prob, kind)


def _cell_groups(rows, cols, seen, count, score):
    """Each cell's group for ``ppp_groups``: the cells of its row (an item's answers, or a
    respondent's) in min(MAX_GROUPS, n / 5) (at least one) equal parts by the ``score`` of
    their columns, lowest first, numbered row * MAX_GROUPS + part; ``count``: cells per
    row."""
    parts = np.clip(count // 5, 1, MAX_GROUPS)[rows]  # at least 5 cells a group
    return rows * MAX_GROUPS + _ranks_within(rows, cols, seen, score) * parts // count[rows]


def _ranks_within(rows, cols, seen, score):
    """Rank (0 = lowest ``score``) of each cell's column among the columns observed in its
    row; ``seen``: rows x columns, True at the observed cells; None when all are."""
    order = np.argsort(score, kind="stable")
    position = np.empty(len(score), dtype=np.int64)
    position[order] = np.arange(len(score))
    if seen is None:
        return position[cols]
    return np.cumsum(seen[:, order], axis=1)[rows, position[cols]] - 1


def _chi_square(cell_group, y, expected, variance, n):
    """sum over groups of (observed - expected)^2 / variance, per row."""
    observed = np.bincount(cell_group, y, len(expected))
    return ((observed - expected) ** 2 / np.maximum(variance, 1e-9)).reshape(n, -1).sum(axis=1)


@fill_doc(**FIT_TABLE_DOCS)
def item_fit(idata, *, max_draws=200, random_seed=0, ci_prob=None, ci_kind=None) -> pd.DataFrame:
    """Fit statistics of every item (instance) of a binary IRT fit (1PL ... 4PL), in its order.

    Per posterior draw, over the item's observed cells with residual r = y - p and variance
    w = p (1 - p): outfit = mean(r^2 / w), infit = sum(r^2) / sum(w) (both 1 in expectation);
    ``ppp`` = P(D(y_rep) >= D(y)) of the deviance D = -2 sum log p(y | p), ``ppp_groups`` the
    same of a grouped chi-square by ability (details in :mod:`irteval.irt.fit_statistics`).
    Sort by ``ppp`` or ``ppp_groups`` to read the worst first.

    {fit_table_parameters}

    Returns
    -------
    pandas.DataFrame
        Indexed by item (the fit's item name), in the fit's order. Columns: ``infit``,
        ``outfit`` (posterior means, with ``{name}_lower`` / ``{name}_upper`` intervals),
        ``ppp`` (posterior predictive p-value of the item's deviance), ``ppp_groups`` (of its
        observed against expected correct answers in groups of its respondents by ability),
        ``n_obs`` and ``misfit`` (either p-value below 0.05). ``attrs`` holds ``fit_of``
        (``"item"``), ``posterior_draws`` (the draws used), ``ci_prob`` and ``ci_kind``.
    """
    return _fit_table(idata, "item", "item_fit", max_draws, random_seed, ci_prob, ci_kind)


@fill_doc(**FIT_TABLE_DOCS)
def person_fit(idata, *, max_draws=200, random_seed=0, ci_prob=None,
               ci_kind=None) -> pd.DataFrame:
    """The fit statistics of :func:`item_fit` per respondent (the models answering): which
    models answer erratically for their ability (fail easy instances, solve hard ones).

    {fit_table_parameters}

    Returns
    -------
    pandas.DataFrame
        Indexed by respondent (the fit's respondent name), in the fit's order; the columns of
        :func:`item_fit`, ``ppp_groups`` grouping the respondent's answered items by
        difficulty b. ``attrs`` holds ``fit_of`` (``"respondent"``), ``posterior_draws``,
        ``ci_prob`` and ``ci_kind``.
    """
    return _fit_table(idata, "respondent", "person_fit", max_draws, random_seed, ci_prob, ci_kind)


@fill_doc
def local_dependence(idata, *, top=None, max_draws=50, random_seed=0, ci_prob=None,
                     ci_kind=None) -> pd.DataFrame:
    """Yen's Q3 (item x item, labelled): the correlation over respondents of the residuals
    y - P of two items, averaged over ``max_draws`` posterior draws; with ``top``, the
    ``top`` pairs of largest |Q3| with intervals and posterior predictive p-values.

    With missing cells a pair's correlation is over the respondents who answered both
    (pairwise complete), NaN where they are fewer than two or where, in some draw, one item's
    residuals are the same for all of them (each case with a warning). The p-values compare
    each draw's Q3 with the Q3 of answers replicated from the model at that draw, y_rep ~
    Bernoulli(P): ``ppp`` = P(|Q3_rep| >= |Q3|) for the pair itself; ``ppp_max`` = P(max over
    all pairs |Q3_rep| >= |Q3|), the pair against the largest |Q3| chance gives any of the
    J (J - 1) / 2 pairs (a max-statistic correction: flags at ``ppp_max`` < 0.05 are wrong for
    at most about 5% of data sets, where ``ppp`` < 0.05 flags about 5% of all pairs, many of
    thousands).

    Parameters
    ----------
    {idata_binary_draws}
    top : int, optional
        Return a table of the ``top`` pairs with the largest |posterior mean Q3| instead of
        the matrix (the replicated answers then double the cost).
    {max_draws}
    {random_seed_draws}
    {ci_prob_and_kind}

    Returns
    -------
    pandas.DataFrame
        Without ``top``: items x items, both labelled by the fit's items in its order; the
        diagonal is 1 (NaN for an item answered once or with such residuals). With ``top``:
        indexed by the pair (``{{item}}_1``, ``{{item}}_2``, in the fit's order), largest
        |Q3| first; columns ``q3`` (posterior mean) with ``q3_lower`` / ``q3_upper``,
        ``ppp``, ``ppp_max``, ``n_shared`` (respondents who answered both) and ``dependent``
        (``ppp_max`` below 0.05); ``attrs`` holds ``posterior_draws``, ``ci_prob`` and
        ``ci_kind``.
    """
    if top is not None:
        top = count(top, "local_dependence(): top")
    prob, kind = _intervals.resolve(ci_prob, ci_kind)
    item_idx, resp_idx, y, n_draws, cells = _cell_draws(idata, "local_dependence", max_draws,
                                                        random_seed)
    post = idata.posterior
    shape = (post.sizes["item"], post.sizes["respondent"])
    seen = np.zeros(shape)
    seen[item_idx, resp_idx] = 1.0
    pairs = seen @ seen.T  # respondents who answered both items
    upper = np.triu(pairs >= 2, k=1)
    q3 = np.zeros((shape[0], shape[0]))
    largest = np.zeros(n_draws)  # per draw, the largest |Q3| of replicated answers
    rng = np.random.default_rng(random_seed)
    for s, (eta, c, d, *_) in enumerate(cells):
        p = irt_probability(eta, c, d)
        for rows, block in _correlation_blocks(_residuals(shape, item_idx, resp_idx, y, p),
                                               seen, pairs):
            q3[rows] += block
        if top:  # blocks of rows at a time: no items x items matrix of each draw
            for rows, block in _correlation_blocks(
                    _residuals(shape, item_idx, resp_idx, rng.random(len(p)) < p, p), seen,
                    pairs):
                block[np.arange(len(rows)), rows] = 0.0  # an item with itself
                largest[s] = np.fmax(largest[s], np.nanmax(np.abs(block), initial=0.0))
    labels = pd.Index(post["item"].values, name=label_name(idata, "item"))
    apart = int(np.triu(pairs < 2, k=1).sum())
    if apart:
        warn_user(f"{apart} pairs of {labels.name}s share fewer than two respondents: their Q3 "
                  "is NaN")
    constant = int((np.isnan(q3) & upper).sum())
    if constant:
        warn_user(f"{constant} pairs of {labels.name}s have, in some posterior draw, one whose "
                  "residuals are the same for every respondent the two share (e.g. on its "
                  "floor, answered wrong by all of them): their Q3 is NaN")
    q3 /= n_draws
    if not top:
        return pd.DataFrame(q3, index=labels, columns=labels, copy=False)  # no second copy
    return _top_pairs(q3, largest, pairs, upper, labels, top, idata, max_draws, random_seed,
                      prob, kind)


def _residuals(shape, item_idx, resp_idx, y, p):
    """y - p on the observed cells of an items x respondents matrix, 0 elsewhere."""
    resid = np.zeros(shape)
    resid[item_idx, resp_idx] = y - p
    return resid


def _top_pairs(q3, largest, pairs, upper, labels, top, idata, max_draws, random_seed, prob,
               kind):
    """The table of :func:`local_dependence` with ``top``: the ``top`` pairs of largest
    |``q3``| among the ``upper`` ones, their Q3 per draw and that of the replicated answers
    recomputed on the items they involve from the same draws and the same random numbers
    (``largest``: per draw, the largest replicated |Q3| of any pair)."""
    first, second = np.unravel_index(_largest(q3, upper, top), q3.shape)
    involved, position = np.unique(np.concatenate([first, second]), return_inverse=True)
    j, k = position[:len(first)], position[len(first):]
    item_idx, resp_idx, y, n_draws, cells = _cell_draws(idata, "local_dependence", max_draws,
                                                        random_seed)
    keep = np.isin(item_idx, involved)
    rows, cols = np.searchsorted(involved, item_idx[keep]), resp_idx[keep]
    shape = (len(involved), idata.posterior.sizes["respondent"])
    seen = np.zeros(shape)
    seen[rows, cols] = 1.0
    shared = seen @ seen.T
    observed, replicated = np.empty((n_draws, len(first))), np.empty((n_draws, len(first)))
    rng = np.random.default_rng(random_seed)  # the replicates of local_dependence's pass
    for s, (eta, c, d, *_) in enumerate(cells):
        p = irt_probability(eta, c, d)
        y_rep = rng.random(len(p)) < p
        for answers, out in ((y, observed), (y_rep, replicated)):
            out[s] = _pairwise_correlation(_residuals(shape, rows, cols, answers[keep], p[keep]),
                                           seen, shared)[j, k]
    index = pd.MultiIndex.from_arrays([labels[first], labels[second]],
                                      names=[f"{labels.name}_1", f"{labels.name}_2"])
    table = pd.DataFrame(_intervals.quantity_columns(observed, prob, kind, "q3"), index=index)
    # a draw whose Q3 is NaN (a constant residual) never counts as reached
    table["ppp"] = (np.abs(replicated) >= np.abs(observed)).mean(axis=0)
    table["ppp_max"] = (largest[:, None] >= np.abs(observed)).mean(axis=0)
    table["n_shared"] = pairs[first, second].astype(int)
    table["dependent"] = table["ppp_max"] < MISFIT_P
    table.attrs.update(posterior_draws=n_draws)
    return _intervals.record(table, prob, kind)


def _largest(q3, upper, top):
    """Flat indices of the ``top`` entries of largest |``q3``| where ``upper`` holds and q3
    is not NaN, largest first, ties in the fit's order; a block of rows at a time."""
    flat, size = [], []
    for rows in _row_blocks(len(q3)):
        block = np.abs(q3[rows]).ravel()
        block[~upper[rows].ravel() | np.isnan(block)] = -1.0  # not a pair, or NaN
        cut = np.partition(block, -top)[-top] if top < block.size else 0.0
        kept = np.flatnonzero(block >= max(cut, 0.0))  # every tie of the block's top-th
        flat.append(kept + rows[0] * q3.shape[1])
        size.append(block[kept])
    flat, size = np.concatenate(flat), np.concatenate(size)
    return flat[np.lexsort((flat, -size))[:top]]


#: items per block of the pairwise correlations (temporaries of rows x items)
ROWS_PER_BLOCK = 500


def _row_blocks(n):
    """Positions 0 ... n - 1 in consecutive blocks of about ``ROWS_PER_BLOCK``."""
    return np.array_split(np.arange(n), max(1, n // ROWS_PER_BLOCK))


def _pairwise_correlation(resid, seen, pairs):
    """Pearson correlation of the rows of ``resid`` over the columns that both rows observe
    (``seen``, 0/1; ``pairs`` = seen seen^T)."""
    out = np.empty_like(pairs)
    for rows, block in _correlation_blocks(resid, seen, pairs):
        out[rows] = block
    return out


def _correlation_blocks(resid, seen, pairs):
    """(rows, the Pearson correlations of those rows of ``resid`` with every row, over the
    columns both observe) for blocks of ``ROWS_PER_BLOCK`` rows, from sums over those
    columns (``seen``, 0/1; ``pairs`` = seen seen^T)."""
    blocks = _row_blocks(len(seen))
    if seen.all():  # complete: products of standardised rows
        z = resid - resid.mean(axis=1, keepdims=True)
        sd = np.sqrt((z**2).mean(axis=1, keepdims=True))
        # a residual constant to rounding has no correlation (NaN, as below)
        z /= np.where(sd > 1e-6 * np.sqrt((resid**2).mean(axis=1, keepdims=True)), sd, np.nan)
        for rows in blocks:
            block = z[rows] @ z.T
            block /= seen.shape[1]
            yield rows, block
        return
    # each row centred on its own answers first: the sums below subtract squares, which
    # loses every digit when a mean is far from 0 against the spread (an item on its floor)
    centre = (resid * seen).sum(axis=1, keepdims=True) / np.maximum(seen.sum(axis=1,
                                                                             keepdims=True), 1)
    resid = (resid - centre) * seen
    for rows in blocks:
        with np.errstate(invalid="ignore", divide="ignore"):  # rows x items at a time
            n = np.where(pairs[rows] >= 2, pairs[rows], np.nan)
            mean = resid[rows] @ seen.T / n  # [j, k]: j's mean residual where k is answered
            mean_t = seen[rows] @ resid.T / n  # [j, k]: k's where j is
            square, square_t = (resid[rows] ** 2) @ seen.T / n, seen[rows] @ (resid**2).T / n
            # a residual constant over the shared respondents (to rounding) has no correlation
            var = np.where(square - mean**2 > 1e-12 * square, square - mean**2, np.nan)
            var_t = np.where(square_t - mean_t**2 > 1e-12 * square_t, square_t - mean_t**2,
                             np.nan)
            block = (resid[rows] @ resid.T / n - mean * mean_t) / np.sqrt(var * var_t)
        yield rows, block
