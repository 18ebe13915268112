"""``irteval leaderboard``: which model leads a benchmark, and with what probability (EPP)."""

from __future__ import annotations

import re
import sys
import warnings
from functools import partial
from pathlib import Path

from .._intervals import label
from ..data.battles import TIES
from . import fitting, options, reading
from .outputs import Writer


#: the defaults of the options that belong to one layout only: scores, or battles (--winner)
SCORE_OPTIONS = {"player": "model", "round": "round", "score": "score",
                 "lower_is_better": False}
BATTLE_OPTIONS = {"player_a": "model_a", "player_b": "model_b",
                  "ties": ",".join(TIES), "weight": None}


def add_parser(sub):
    """The ``irteval leaderboard`` sub-command and its options."""
    board = sub.add_parser("leaderboard", help="EPP leaderboard from a CSV of scores or "
                                               "battles",
                           description="EPP leaderboard from a long CSV with one score per "
                                       "player (model) and round (split, dataset, task), or "
                                       "with --winner from pairwise battles (a row per "
                                       "battle: --player-a, --player-b, --winner).")
    board.add_argument("scores", type=Path, help="long CSV file of scores (or battles)")
    board.add_argument("--player", default=SCORE_OPTIONS["player"],
                       help="scores: column naming the player (default: %(default)s)")
    board.add_argument("--round", default=SCORE_OPTIONS["round"],
                       help="scores: column naming the round (default: %(default)s)")
    board.add_argument("--score", default=SCORE_OPTIONS["score"],
                       help="scores: column with the score (default: %(default)s)")
    board.add_argument("--lower-is-better", action="store_true",
                       help="scores: lower scores win (errors, run times)")
    board.add_argument("--winner", help="battles: the column naming the winner (a player's "
                                        "label, a/b, or the --player-a/--player-b column "
                                        "name; --ties values are ties)")
    board.add_argument("--player-a", default=BATTLE_OPTIONS["player_a"],
                       help="battles: first player's column (default: %(default)s)")
    board.add_argument("--player-b", default=BATTLE_OPTIONS["player_b"],
                       help="battles: second player's column (default: %(default)s)")
    board.add_argument("--ties", default=BATTLE_OPTIONS["ties"],
                       help="battles: comma-separated --winner values that are ties "
                            "(default: '%(default)s')")
    board.add_argument("--weight", help="battles: a column of battle counts (default: 1)")
    board.add_argument("--likelihood", choices=["plackett_luce", "pairwise", "davidson"],
                       help="scores: plackett_luce (default: whole rankings, calibrated "
                            "intervals) or pairwise (the paper's Bradley-Terry; intervals too "
                            "narrow); battles: pairwise (default, exact); both: davidson "
                            "(pairwise with ties as a third outcome)")
    board.add_argument("--task", help="the Model/Task scheme: the column naming each row's "
                                      "task (scores: a task's rounds are its --round values, "
                                      "e.g. its CV splits; battles: e.g. the prompt "
                                      "category); fits global EPPs and per-task deviations "
                                      "and writes task_leaderboards.csv")
    board.add_argument("--reference", help="measure EPPs from this player (its EPP 0) "
                                           "rather than from the average player: a "
                                           "well-measured one where some never win or win "
                                           "every battle")
    board.add_argument("--prior-scale", type=options.between(0, float("inf")),
                       help="sd of the EPPs' prior (default: the model's, 4); nearer the "
                            "spread you expect when many players have few matches")
    options.add_fit_options(board)
    return board


def read_scores(args):
    """Scores (or, with --winner, Battles) from the long CSV the command names, and the
    ``hierarchy=`` of --task (None without)."""
    import pandas as pd

    from .._validation import check_labels, listed
    from ..data import Battles, Scores

    battles = getattr(args, "winner", None) is not None
    for name, default in (SCORE_OPTIONS if battles else BATTLE_OPTIONS).items():
        if getattr(args, name, default) != default:
            raise ValueError(
                f"{options.flag(name)} is for {'scores' if battles else 'battles'}, and this reads "
                f"{'battles (--winner)' if battles else 'scores'}; drop it"
                + ("" if battles else ", or name the winner's column with --winner")
                + (f"; to group battles into tasks (the Model/Task scheme), pass --task "
                   f"{args.round}" if battles and name == "round" else ""))
    task = args.task
    df = reading.read_csv(args.scores, labels=([args.player_a, args.player_b, args.winner]
                                               if battles else [args.player, args.round])
                          + ([task] if task else []))
    if task is not None and task not in df.columns:
        raise ValueError(f"{args.scores} has no column {task!r} (--task); its columns are "
                         f"{listed(df.columns)}")
    if not battles and args.player not in df.columns \
            and {args.player_a, args.player_b} <= set(df.columns):
        raise ValueError(f"{args.scores} has columns {args.player_a!r} and {args.player_b!r} "
                         "but no --player column: for battles (a row per battle) name the "
                         "winner's column with --winner")
    player = args.player if args.player in df.columns else df.columns[0]
    others = [c for c in df.columns if c != player]
    if not battles and not {args.round, args.score} & set(df.columns) and len(others) > 1 \
            and all(pd.api.types.is_numeric_dtype(df[c]) for c in others) \
            and not pd.api.types.is_numeric_dtype(df[player]) and df[player].is_unique:
        raise ValueError(
            f"{args.scores} looks wide (a row per player, a column per round: {others[:5]}), "
            "and leaderboard reads a long file, a row per player and round (columns --player, "
            "--round, --score); reshape it, e.g. in Python: pd.read_csv(...).melt(id_vars="
            f"{player!r}, var_name='round', value_name='score').to_csv('long.csv', "
            "index=False)")
    if battles:
        def read_battles():
            try:
                return Battles.from_long(
                    df, player_a=args.player_a, player_b=args.player_b, winner=args.winner,
                    ties=[t.strip() for t in args.ties.split(",")], weight=args.weight,
                    round=task, player_name="model")
            except ValueError as err:  # its round= is --task here ("--round": of scores)
                raise ValueError(re.sub(r"\bround=", "task=", str(err))) from err

        return (reading.in_file(args.scores, read_battles),
                None if task is None else "round")
    hierarchy = None
    if task is not None:  # a task's rounds: its --round values ("task / round" where a
        # round label recurs in several tasks, as split 1 of every dataset)
        if args.round not in df.columns:
            raise ValueError(
                f"{args.scores} has no column {args.round!r} (--round), and --task needs "
                "several rounds a task (e.g. its CV splits): name their column with --round; "
                "with one score a task (one ranking, whose noise the task's deviations cannot "
                f"be told from), fit without --task (--round {task})")
        reading.in_file(args.scores, lambda: check_labels(df[task], task, df.index))
        if df.groupby(args.round)[task].nunique().max() > 1:
            warn_stray_task(df, args.round, task, args.scores)
            df = df.assign(**{args.round: df[task] + " / " + df[args.round]})
        hierarchy = dict(zip(df[args.round], df[task]))
    return reading.in_file(args.scores, lambda: Scores.from_long(
        df, player=args.player, round=args.round, score=args.score,
        higher_is_better=False if args.lower_is_better else None)), hierarchy


def report(scores, args, out, likelihood=None, hierarchy=None):
    """Fit the Bayesian EPP (with ``hierarchy``: the Model/Task scheme), print the
    leaderboard and the checks, write the outputs."""
    from .. import models
    from ..data.scores import fractional
    from ..epp import (
        goodness_of_fit,
        leaderboard,
        mle_epp,
        pairwise_probabilities,
        plot_epp_vs_score,
        plot_leaderboard,
        plot_rank_distribution,
        plot_win_calibration,
        plot_win_heatmap,
    )
    from ..epp.plots import best_first
    from ..exceptions import SeparationWarning

    print(scores)
    reference, prior_scale = getattr(args, "reference", None), getattr(args, "prior_scale", None)
    idata = fitting.fit(models.bradley_terry(scores, likelihood=likelihood, reference=reference,
                                             hierarchy=hierarchy,
                                             **({} if prior_scale is None else
                                                {"prior_scale": prior_scale})), args)
    board = leaderboard(idata)
    versus = "an average player" if reference is None else repr(reference)
    print(f"\nleaderboard (EPP = logit of P(beats {versus}); "
          f"{label(board.attrs['ci_prob'], board.attrs['ci_kind'])}):")
    print(board.round(3).to_string())
    tasks = None if hierarchy is None else task_boards(idata, args.task)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SeparationWarning)
        mle = mle_epp(scores, reference=reference)
    for w in caught:
        print(f"\nclassical EPP: {w.message}")
    parts = len(mle.attrs["components"])
    within = f", within each of its {parts} components" if parts > 1 else ""
    print(f"\nclassical EPP (maximum likelihood{within}): "
          + (f"deviance {mle.attrs['deviance']:.2f} on {mle.attrs['df']} df, goodness-of-fit "
             f"p = {mle.attrs['p_value']:.3g}" if mle.attrs["df"] > 0 else
             "no goodness of fit (0 degrees of freedom)"))
    whole = not fractional(scores.pairs()["matches"]).any()  # fractional weights: no check
    if whole:
        gof = goodness_of_fit(idata, random_seed=args.seed)
        by_player = goodness_of_fit(idata, by="player", random_seed=args.seed)
        print(f"posterior predictive check of the pair wins: P(D_rep >= D_obs) = "
              f"{gof.attrs['ppp_deviance']:.2f} (near 0: the pair wins vary more than the "
              f"model allows; near 1: less)")
        print(misfitting_players(by_player, scores))
    else:
        print("no posterior predictive check: the battle weights (--weight) make fractional "
              "match counts, and replicated wins are whole (goodness_of_fit.csv, "
              "player_fit.csv and calibration.png are not written)")
    win = pairwise_probabilities(idata).win
    writer = Writer(out, "leaderboard", *(() if tasks is None else ("leaderboard_tasks",)))
    writer.table("leaderboard.csv", board)
    if tasks is not None:
        writer.table("task_leaderboards.csv", tasks)
    # best first, as leaderboard.csv; across components (no finite MLE) their order first
    writer.table("mle_epp.csv", mle.sort_values(["component", "epp"], ascending=[True, False]))
    writer.table("win_probability.csv", best_first(win))  # as the heat map orders it
    if whole:
        writer.table("goodness_of_fit.csv", gof)
        writer.table("player_fit.csv", by_player)
    fitting.save(idata, writer, {
        "leaderboard.png": partial(plot_leaderboard, board),
        "epp_vs_score.png": partial(plot_epp_vs_score, board, scores),
        "win_probability.png": partial(plot_win_heatmap, win),
        **({"calibration.png": partial(plot_win_calibration, gof)} if whole else {}),
        "rank_distribution.png": partial(plot_rank_distribution, idata)})
    print(f"\n{writer.summary()}")


def warn_stray_task(df, round, task, path):
    """Warn of a round whose label recurs in several tasks with one row in one of them and
    more in another: likely a typo in the task column (that row would be a round of its own,
    with no match, and left out)."""
    sizes = df.groupby([round, task]).size()
    stray = [(label, by_task) for label, by_task in sizes.groupby(level=0)
             if len(by_task) > 1 and by_task.min() == 1 and by_task.max() > 1]
    if stray:
        label, by_task = stray[0]
        alone = by_task.index[by_task.values == 1][0][1]
        line = df.index[(df[round] == label) & (df[task] == alone)][0]
        more = f" (and {len(stray) - 1} more {round}s like it)" if len(stray) > 1 else ""
        print(f"irteval: warning: {path}, line {line}: {round} {label!r} has this one row in "
              f"{task} {alone!r} and {by_task.max()} in another{more}; a typo in column "
              f"{task!r} (--task)? As it stands the row is a {round} of its own, with no match",
              file=sys.stderr)


def task_boards(idata, name):
    """Every task's leaderboard of a Model/Task fit, indexed by (task, player), the tasks'
    level called ``name`` (the --task column's); prints tau."""
    import pandas as pd

    from .. import _intervals
    from .._draws import stacked_draws
    from ..epp import leaderboard

    tasks = idata.posterior["task"].values
    boards = pd.concat({task: leaderboard(idata, task=task) for task in tasks}, names=[name])
    prob, kind = _intervals.resolve(None, None)
    tau = stacked_draws(idata, "tau")
    low, high = _intervals.interval(tau[:, None], prob, kind)
    print(f"\nModel/Task scheme: {len(tasks)} tasks; the spread of a player's deviations "
          f"from task to task tau = {tau.mean():.2f} ({label(prob, kind)} {low[0]:.2f} to "
          f"{high[0]:.2f}); each task's board: task_leaderboards.csv")
    return boards


def misfitting_players(by_player, scores, *, alpha=0.05, limit=3):
    """One line on the players whose pairs misfit (``goodness_of_fit(by="player")`` p-value
    below ``alpha``), those with the most excess deviance first; for scores, each one's rank
    in a round where it lies outside its ranks in all the others (a failed run shows so)."""
    import pandas as pd

    from ..data import Scores

    bad = by_player[by_player["p_value"] < alpha]
    if bad.empty:
        return f"no player's pairs misfit (every player's p >= {alpha:g}; player_fit.csv)"
    excess = (bad["deviance_obs"] - bad["deviance_rep"]).sort_values(ascending=False)
    rank = None
    if isinstance(scores, Scores):  # 1 = best in its round, ties averaged
        rank = pd.DataFrame(scores.matrix, scores.players, scores.rounds).rank(ascending=False)
    named, outlying = [], False
    for player in excess.index[:limit]:
        text = (f"{player} (deviance {bad.at[player, 'deviance_obs']:.0f}, replicated "
                f"{bad.at[player, 'deviance_rep']:.0f}")
        if rank is not None:
            own = rank.loc[player].dropna()
            far = (own - own.median()).abs().idxmax()
            rest = own.drop(far)
            if len(rest) and not rest.min() <= own[far] <= rest.max():  # an outlying round
                tied = " (tied: the mean rank)" if own[far] % 1 else ""
                text += (f"; rank {own[far]:g}{tied} of {int(rank[far].count())} in "
                         f"{scores.round_name} {far}, {rest.min():g}-{rest.max():g} in the "
                         "others")
                outlying = True
        named.append(text + ")")
    return (f"players whose pairs misfit (p < {alpha:g}): {len(bad)} of {len(by_player)} "
            f"(chance alone flags about {alpha * len(by_player):.2g}); most: {', '.join(named)} "
            "(player_fit.csv)"
            + ("; a rank far from a player's others may be a failed run: if so, leave that "
               "score empty in the file and rerun (an empty score is left out, not ranked)"
               if outlying else ""))
