"""Plots of EPP leaderboards; each takes ``ax=`` (created when None) and returns the Axes.
Plots of a summary take the summary table, or the fit (the summary is then computed once)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.ticker import MaxNLocator

from .. import _intervals
from .._docs import fill_doc
from ..data import Battles, Scores
from .._draws import nearest_to_even_values, stacked_draws
from .._fits import table_or_fit
from .._validation import count, percent, plain
from ..plotting import checks_axes, ensure_axes, label_points, row_fontsize, short, short_labels
from .bayes import (PairwiseProbabilities, _epp, goodness_of_fit, leaderboard,
                    pairwise_probabilities, ranks)

#: docstring entries of the leaderboard plots (plot_leaderboard, plot_epp_vs_score)
BOARD_DOCS = {"board": """\
board : pandas.DataFrame or arviz.InferenceData
    A :func:`~irteval.leaderboard` table, a fit of the Bayesian EPP model
    (:func:`irteval.fit` of :func:`irteval.models.bradley_terry`; its leaderboard is
    computed), or a classical :func:`~irteval.mle_epp` / :func:`~irteval.bootstrap_epp`
    table (sorted here, best first)."""}


def _estimates(board, ci_prob, ci_kind, plot):
    """(board, point, lower, upper, interval) of a leaderboard: a :func:`leaderboard` table
    or a fit's (posterior means), or a classical :func:`~irteval.mle_epp` or
    :func:`~irteval.bootstrap_epp` one (the MLE, in the data's order: sorted here, best
    first); ``interval`` names its intervals for an axis label."""
    columns = getattr(board, "columns", None)  # a fit has none
    if columns is not None and "epp" not in columns and "p_best" not in columns:
        # (difficulty and abilities tables have mean and intervals too: plotted as EPPs)
        raise ValueError(f"{plot} takes the result of irteval.leaderboard(idata), mle_epp or "
                         "bootstrap_epp, or the fit; this DataFrame has neither 'p_best' nor "
                         f"'epp' (it has {list(columns)[:8]}): not a leaderboard")
    columns = () if columns is None else columns
    point = "epp" if "epp" in columns and "mean" not in columns else "mean"
    kind = _intervals.table_kind(board, ci_kind)
    board = table_or_fit(board, lambda fit: leaderboard(fit, ci_prob=ci_prob, ci_kind=ci_kind),
                         [point, f"{kind}_lower", f"{kind}_upper"], plot,
                         "irteval.leaderboard(idata), mle_epp or bootstrap_epp", ci_prob, ci_kind)
    board = board.sort_values(point, ascending=False, kind="stable")  # NaN (no MLE) last
    lower, upper = board[f"{kind}_lower"], board[f"{kind}_upper"]
    interval = ("one point: no interval" if _intervals.is_point(lower, upper)
                else _intervals.table_label(board, ci_prob, kind))
    return board, board[point], lower, upper, interval


@checks_axes
@fill_doc(**BOARD_DOCS)
def plot_leaderboard(board, *, top=None, ax=None, ci_prob=None, ci_kind=None):
    """Forest plot of a leaderboard, best on top: a :func:`~irteval.leaderboard` table (or a
    fit) with the posterior mean, interval and P(best) in the labels, or a classical
    :func:`~irteval.mle_epp` / :func:`~irteval.bootstrap_epp` table with the MLE and its
    Wald or bootstrap interval.

    Parameters
    ----------
    {board}
    top : int, optional
        Only the best ``top`` players (``board.head(top)``); ``None``: every player.
    {ax}
    {plot_ci_prob}
    {plot_ci_kind}

    {returns_ax}
    """
    board, point, lower, upper, interval = _estimates(board, ci_prob, ci_kind,
                                                      "plot_leaderboard")
    shown = ""
    if top is not None and count(top, "plot_leaderboard(): top") < len(board):
        shown = f": the best {top} of {len(board)}"
        board, point, lower, upper = (x.iloc[:top] for x in (board, point, lower, upper))
    ax = ensure_axes(ax, rows=len(board))
    y = np.arange(len(board))[::-1]
    ax.errorbar(point, y, xerr=[point - lower, upper - point], fmt="o", ms=4)
    if "p_best" in board:
        # a player best in no draw gets no "(0.0%)": 70 of them hid the few that lead
        labels = [f"{short(p)}  ({percent(pb, 1, fixed=True)})" if pb > 0 else short(p)
                  for p, pb in zip(board.index, board["p_best"])]
        title = "leaderboard (P(best) in parentheses where above 0)"
    else:
        labels, title = short_labels(board.index), "leaderboard (maximum likelihood)"
    if "task" in board.attrs:  # a task's board of a hierarchy= fit
        title = title.replace("leaderboard", f"leaderboard of task {short(board.attrs['task'])}")
    ax.set_yticks(y, labels, fontsize=row_fontsize(ax, len(board)))
    ax.set(xlabel=f"EPP ({interval})", title=title + shown)
    return ax


#: plot_epp_vs_score labels every player up to this many; past it, players spread evenly
#: over the EPP range (a column of 80 labels' leader lines fanned out and crossed)
LABELLED_PLAYERS = 30


@checks_axes
@fill_doc(**BOARD_DOCS)
def plot_epp_vs_score(board, scores, *, ax=None, ci_prob=None, ci_kind=None):
    """EPP (with its interval) against each player's mean score, as EloML's ranking plot
    (for :class:`~irteval.Battles`: against the share of battles won). Past 30 players,
    the 30 nearest to EPPs spread evenly over their range are labelled, the best and the
    worst among them.

    Parameters
    ----------
    {board}
    scores : irteval.Scores or irteval.Battles
        The data the leaderboard was fitted to (every player of ``board`` in it). Scores
        where lower is better are shown as given, on an inverted axis.
    {ax}
    {plot_ci_prob}
    {plot_ci_kind}

    {returns_ax}
    """
    board, point, lower, upper, interval = _estimates(board, ci_prob, ci_kind,
                                                      "plot_epp_vs_score")
    if not isinstance(scores, (Scores, Battles)):
        raise TypeError(f"plot_epp_vs_score takes the Scores or Battles the leaderboard was "
                        f"fitted to; got a {type(scores).__name__} (build one with "
                        "Scores.from_long / Battles.from_long)")
    absent = board.index.difference(scores.players, sort=False)
    if len(absent):
        raise ValueError(f"plot_epp_vs_score: {len(absent)} players of the leaderboard are not "
                         f"in these scores, e.g. {[plain(x) for x in absent[:5]]}; give the "
                         "Scores or Battles the leaderboard was fitted to")
    if isinstance(scores, Battles):
        mean_score, label = scores.win_rates(), "share of battles won (ties 1/2)"
    else:
        sign = 1 if scores.higher_is_better else -1  # the matrix holds -score then
        mean_score = pd.Series(sign * np.nanmean(scores.matrix, axis=1), index=scores.players)
        label = "mean score" + ("" if scores.higher_is_better else " (lower is better)")
    mean_score = mean_score.loc[board.index]
    pick = nearest_to_even_values(point.to_numpy(), LABELLED_PLAYERS)  # over the EPP range
    ax = ensure_axes(ax, rows=len(pick))  # a label per labelled player
    ax.errorbar(point, mean_score, xerr=[point - lower, upper - point], fmt="o", ms=4)
    labelled = label_points(ax, point.to_numpy()[pick], mean_score.to_numpy()[pick],
                            np.asarray(short_labels(board.index), dtype=object)[pick],
                            clear=(np.nanmin(lower), np.nanmax(upper)))
    shown = "" if labelled == len(board) else f"; {labelled} of {len(board)} labelled"
    ax.set(xlabel=f"EPP ({interval})", ylabel=label, title=f"EPP vs {label.split(' (')[0]}{shown}")
    if isinstance(scores, Scores) and not scores.higher_is_better:
        ax.invert_yaxis()  # the better players up, as the EPP runs (after the labels' layout)
    return ax


def best_first(win):
    """The players x players table ``win`` in leaderboard order: by each row's mean
    probability of beating the others, best first."""
    order = win.mean(axis=1).sort_values(ascending=False).index
    return win.loc[order, order]


#: boards up to this size get each P(row beats column) written in its cell
NUMBERED_PLAYERS = 16


@checks_axes
@fill_doc
def plot_win_heatmap(win, *, ax=None):
    """Heat map of P(row beats column in a new round), players in leaderboard order (best
    first: by their mean probability of beating the others), each cell's number written in
    it for boards of up to 16 players.

    Parameters
    ----------
    win : pandas.DataFrame, PairwiseProbabilities or arviz.InferenceData
        The players x players table ``pairwise_probabilities(idata).win``
        (:func:`pairwise_probabilities`; its result is taken whole too), or a fit of the
        Bayesian EPP model (:func:`irteval.fit` of :func:`irteval.models.bradley_terry`; the
        table is then computed).
    {ax}

    {returns_ax}
    """
    if isinstance(win, PairwiseProbabilities):
        win = win.win
    elif not isinstance(win, pd.DataFrame):
        win = pairwise_probabilities(win).win
    elif set(win.index) != set(win.columns):
        raise ValueError("plot_win_heatmap takes the players x players table "
                         "irteval.pairwise_probabilities(idata).win, or the fit; this table's "
                         f"rows {list(win.index[:3])}... are not its columns "
                         f"{list(win.columns[:3])}...")
    win = best_first(win)
    ax = ensure_axes(ax, rows=len(win), square=True)
    # the diagonal (no player meets itself) is NaN: grey, not the white of P = 0.5
    cmap = colormaps["RdBu_r"].with_extremes(bad="lightgrey")
    values = win.to_numpy(dtype=float)
    image = ax.imshow(values, cmap=cmap, vmin=0, vmax=1)
    if len(win) <= NUMBERED_PLAYERS:  # the probabilities fit in their cells (".54", "≈1")
        size = "x-small" if len(win) <= 10 else 6
        for (row, col), p in np.ndenumerate(values):
            if np.isfinite(p):  # a P(win) that rounds to 1 or 0 is not certain: "≈1"
                # (">.99" ran into its neighbours at the CLI's figure size)
                text = {"1.00": "≈1", "0.00": "≈0"}.get(f"{p:.2f}", f"{p:.2f}"[1:])
                ax.text(col, row, text, ha="center", va="center", fontsize=size,
                        color="white" if abs(p - 0.5) > 0.3 else "black")
    ax.figure.colorbar(image, ax=ax, label="P(row beats column)")  # before the labels' size
    ticks = np.arange(len(win))
    ax.set_xticks(ticks, short_labels(win.columns), rotation=90,
                  fontsize=row_fontsize(ax, len(win), "x-small", axis="x"))
    ax.set_yticks(ticks, short_labels(win.index), fontsize=row_fontsize(ax, len(win), "x-small"))
    ax.set_title("P(row beats column), best first")
    return ax


@checks_axes
@fill_doc
def plot_win_calibration(gof, *, ax=None, ci_prob=None, ci_kind=None, max_draws=200,
                         random_seed=0):
    """Empirical win ratio of every pair against the model's predicted one (the paper's
    Fig. 5), point size by number of matches, with the posterior predictive deviance check
    in the title.

    Parameters
    ----------
    gof : pandas.DataFrame or arviz.InferenceData
        A :func:`goodness_of_fit` table (``by="pair"``), or a fit of the Bayesian EPP model
        (:func:`irteval.fit` of :func:`irteval.models.bradley_terry`; the table is then
        computed).
    {ax}
    {plot_ci_prob}
    {plot_ci_kind}
    max_draws : int or None, default 200
        With a fit: :func:`goodness_of_fit`'s ``max_draws``, the posterior draws the data are
        replicated from (chosen at random with ``random_seed``; None: all); ignored for a
        table.
    random_seed : int, numpy.random.Generator or None, default 0
        With a fit: :func:`goodness_of_fit`'s seed (the draws kept, the replicated data);
        ignored for a table.

    {returns_ax}
    """
    gof = table_or_fit(gof, lambda fit: goodness_of_fit(fit, max_draws=max_draws,
                                                         random_seed=random_seed,
                                                         ci_prob=ci_prob, ci_kind=ci_kind),
                       ["matches", "wins", "predicted", "rep_lower", "rep_upper"],
                       "plot_win_calibration", "irteval.goodness_of_fit(idata, by='pair')", ci_prob,
                       ci_kind)
    ax = ensure_axes(ax)
    predicted, empirical = gof["predicted"] / gof["matches"], gof["wins"] / gof["matches"]
    point = _intervals.is_point(gof["rep_lower"], gof["rep_upper"])  # one replicate (MAP)
    if not point:
        band = _intervals.table_label(gof, ci_prob, ci_kind)
        ax.vlines(predicted, gof["rep_lower"] / gof["matches"],
                  gof["rep_upper"] / gof["matches"], color="0.8", lw=1, zorder=1,
                  label=f"replicated win ratio ({band})")
    ax.scatter(predicted, empirical, s=5 + 25 * gof["matches"] / gof["matches"].max(),
               alpha=0.5, zorder=2, label="observed (size: matches)")
    ax.legend(fontsize="small", loc="best")  # the misfits sit in either corner
    ax.plot([0, 1], [0, 1], "k--", lw=1)
    ax.set(xlabel="predicted P(win)", ylabel="empirical win ratio",
           title="calibration (one point: no posterior predictive check)" if point else
           f"calibration (posterior predictive p of deviance {gof.attrs['ppp_deviance']:.2f})"
           if "ppp_deviance" in gof.attrs else "calibration")
    return ax


@checks_axes
@fill_doc
def plot_rank_distribution(idata, *, top=None, ax=None):
    """Posterior probability of each rank (columns) for each player (rows, best first).

    Parameters
    ----------
    {idata_epp}
    top : int, optional
        Only the ``top`` players of the best expected rank, and the ranks up to the last
        any of them takes in at least 1% of the draws (ranks among all players); ``None``:
        every player and rank.
    {ax}

    {returns_ax}
    """
    epp = _epp(idata, "plot_rank_distribution")
    rank = ranks(stacked_draws(idata, "epp")) - 1
    n = rank.shape[1]
    probs = np.stack([np.bincount(rank[:, k], minlength=n) for k in range(n)]) / len(rank)
    order = np.argsort(rank.mean(axis=0), kind="stable")
    title = "posterior probability of each rank"
    if top is not None and count(top, "plot_rank_distribution(): top") < n:
        order = order[:top]
        taken = np.flatnonzero((probs[order] >= 0.01).any(axis=0))
        n_ranks = max(top, 1 + int(taken.max(initial=top - 1)))
        probs, title = probs[:, :n_ranks], f"{title}: the best {top} of {n}"
    ax = ensure_axes(ax, rows=len(order))
    image = ax.imshow(probs[order], cmap="Greys", vmin=0, vmax=1, aspect="auto")
    ax.figure.colorbar(image, ax=ax, label="posterior probability")  # before the labels' size
    ax.set_yticks(np.arange(len(order)), short_labels(epp["player"].values[order]),
                  fontsize=row_fontsize(ax, len(order), "x-small"))
    n_ranks = probs.shape[1]
    nice = MaxNLocator(nbins=10, steps=[1, 2, 5, 10], integer=True).tick_values(1, n_ranks)
    ticks = np.unique([1, *(int(t) for t in nice if 1 <= t <= n_ranks)])  # 1, 5, 10
    ax.set_xticks(ticks - 1, ticks)
    ax.set(xlabel="rank (1 = best)", title=title)
    return ax
