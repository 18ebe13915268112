"""The ``irteval`` command: instance difficulty, robustness, EPP leaderboards, portfolios, and a
demo of the first four. One module per workflow (:mod:`.difficulty`, :mod:`.leaderboard`,
:mod:`.robustness`, :mod:`.portfolio`); files in :mod:`.outputs`; reading in
:mod:`.reading`, fitting and saving in :mod:`.fitting`."""

from __future__ import annotations

import argparse
import contextlib
import difflib
import re
import sys
import tempfile
import warnings
from pathlib import Path

from ..datasets import EXAMPLES, write_examples
from . import difficulty, fitting, leaderboard, options, portfolio, reading, robustness, score_new
from .outputs import DEMO, files, start_run, warn_earlier_outputs

DESCRIPTION = """\
Bayesian evaluation of ML models with IRT and Bradley-Terry (EPP) models.

  irteval difficulty   which test instances are hard (1PL IRT on 0/1 responses; --model
                       2pl, 3pl or 4pl adds discrimination, a guessing floor, a ceiling);
                       writes difficulty.csv (one row per instance: posterior mean, sd,
                       interval, bin), abilities.csv (one row per model), curves.csv
                       (accuracy per difficulty bin for every model), posterior.nc and plots
  irteval leaderboard  which model leads a benchmark, with what probability (EPP from
                       scores per round, or pairwise battles with --winner); writes
                       leaderboard.csv (EPP, interval, Elo, P(best), ranks), mle_epp.csv
                       (classical EPP), win_probability.csv, goodness_of_fit.csv
                       (per pair) and player_fit.csv (per player), posterior.nc and plots
                       (with --task, every task's board: task_leaderboards.csv)
  irteval robustness   how robust each model family is to noise on easy and hard instances
                       (System Characteristic Curves and a taxonomy, paper 1); writes per
                       dataset difficulty.csv, scc.csv (kappa per model, bin and proportion
                       perturbed, with intervals), p_hardest.csv, predictions.csv (clean and
                       perturbed, per instance and model), scc.nc, posterior.nc and plots,
                       and taxonomy.csv, co_assignment.csv and dendrogram.png
  irteval portfolio    which algorithms belong in a portfolio (continuous IRT, AIRT) from a
                       CSV of performances per dataset and algorithm (--levels or --cuts C:
                       the polytomous IRT on ordered levels); writes
                       algorithm_metrics.csv (P(anomalous), consistency, difficulty limit),
                       portfolio.csv (latent trait occupancy, P(in portfolio)), spectrum.csv,
                       goodness.csv, posterior.nc and plots
  irteval select-items which instances to run a new model on, from the posterior.nc of
                       irteval difficulty; writes items.csv (a 'correct' column to fill in)
  irteval score-new    a new model's accuracy on the whole benchmark from its answers to a few,
                       with the posterior.nc of irteval difficulty; writes score.csv
  irteval demo         the first four, on bundled data (optdigits responses of 58 models; VTAB;
                       the MiniZinc 2016 solvers), and a leaderboard from simulated battles
  irteval examples     small CSV files in every layout the commands read, to try them on

posterior.nc files hold the posterior draws in float32 or, where that loses under 1% of
a posterior sd, packed to 16 bits (arviz.from_netcdf reads them);
irteval.load_results(folder) reads a whole output folder back. A command writes to
irteval-output/COMMAND unless --out names another folder (the demo: irteval-output/;
examples: examples/), and never replaces existing outputs without --overwrite. Every fit
prints its diagnostics (divergences, R-hat, ESS); with --strict a failed check stops the
command with exit status 3.

examples (the files: irteval examples --out .; each run writes to its own --out folder):
  irteval demo
  irteval difficulty results.csv --respondent model --item instance --value correct --out out/d
  irteval difficulty matrix.csv --rows item --out out/wide   # a row per instance
  irteval select-items out/d/posterior.nc -n 50 --out out/new_items   # fill in its items.csv
  irteval score-new out/d/posterior.nc answers.csv --out out/new_model
  irteval leaderboard scores.csv --player model --round split --score auc --out out/scores
  irteval leaderboard times.csv --player solver --round problem --score seconds \\
      --lower-is-better --out out/times
  irteval leaderboard battles.csv --player-a model_a --player-b model_b --winner winner \\
      --out out/battles
  irteval leaderboard battles.csv --winner winner --task category --out out/tasks   # Model/Task
  irteval portfolio perf.csv --bounds global --transform airt --draws 4000 --out out/portfolio
  irteval portfolio levels.csv --levels --out out/levels   # ordered levels; --cuts C bins them
  irteval robustness --dataset wall_robot_navigation --families knn_3,cart_depth10,naive_bayes \\
      --out out/robustness   # three families on one bundled dataset: ~15 s
  irteval robustness --csv data.csv --target class --nominal colour,shape --out out/own_data
  irteval robustness --responses matrix.csv --predictions clean.csv perturbed.csv --out out/own
"""


def parser():
    """The ``irteval`` parser: a sub-command per workflow, and the demo."""
    top = argparse.ArgumentParser(prog="irteval", description=DESCRIPTION,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    from .. import __version__

    top.add_argument("--version", action="version", version=f"irteval {__version__}")
    sub = top.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="the four workflows and an arena leaderboard on "
                                       "bundled data",
                          description="Instance difficulty of the 5620 optdigits digits from "
                                      "which of 58 scikit-learn models got them right, the "
                                      "robustness of 6 model families to noise by difficulty, "
                                      "the EPP leaderboard of 16 models on the 19 VTAB tasks, "
                                      "the portfolio of 22 MiniZinc 2016 solvers, and an "
                                      "arena leaderboard from 20 000 simulated battles. "
                                      "Outputs go to OUT/optdigits_difficulty, "
                                      "OUT/optdigits_robustness, OUT/vtab_leaderboard, "
                                      "OUT/minizinc_portfolio and OUT/arena_leaderboard.")
    options.add_fit_options(demo, draws=500, defaults=(
        "500 draws and the models' warm-up; the portfolio at least 4000 draws and 2000 "
        "warm-up steps, the arena at least 1000 draws"), out="irteval-output")
    examples = sub.add_parser("examples", help="write small CSV files to try the commands on",
                              description="Small CSV files from the bundled data, one for "
                                          "each layout the commands read (the README runs "
                                          f"each command on them): {', '.join(EXAMPLES)}.")
    options.add_output_options(examples, out="examples")
    for workflow in (difficulty, leaderboard, portfolio, robustness, score_new):
        workflow.add_parser(sub)
    top.commands = sub.choices  # name -> its parser, for parse()
    return top


#: a value of negative numbers, e.g. the bounds -0.05,1.05
NEGATIVE_NUMBERS = re.compile(r"-\.?\d[\d.eE+-]*(,-?\.?\d[\d.eE+-]*)*")


def with_negative_values(argv):
    """``--bounds -0.05,1.05`` as ``--bounds=-0.05,1.05``: argparse takes a value that starts
    with '-' and is not a single number for an option, and says "expected one argument"."""
    out = []
    for token in argv:
        if (out and out[-1].startswith("--") and "=" not in out[-1]
                and NEGATIVE_NUMBERS.fullmatch(token)):
            out[-1] = f"{out[-1]}={token}"
        else:
            out.append(token)
    return out


def parse(argv=None):
    """The parsed arguments; an unknown option is refused by its command's parser (its usage,
    not the top one's), with the nearest option it has (--rounds: did you mean --round?)."""
    top = parser()
    args, unknown = top.parse_known_args(
        with_negative_values(sys.argv[1:] if argv is None else argv))
    if unknown:
        command = top.commands[args.command]
        flags = [f for action in command._actions for f in action.option_strings]
        near = [f"{x}: did you mean {match[0]}?" for x in (u.split("=")[0] for u in unknown)
                if x.startswith("-") for match in [difflib.get_close_matches(x, flags, n=1)]
                if match]
        command.error(f"unrecognized arguments: {' '.join(unknown)}"
                      + (f" ({'; '.join(near)})" if near else ""))
    return args


def outputs(args):
    """Every file the command will write."""
    out = args.out
    if args.command == "demo":
        return [out / part / f for part, reports in DEMO.items() for f in files(*reports)]
    if args.command == "examples":
        return [out / name for name in EXAMPLES]
    if args.command == "robustness":
        names = ([args.csv.stem] if args.csv else [args.responses.stem]
                 if args.predictions and args.responses else args.dataset)
        return [*(out / name / f for name in names
                  for f in files("robustness_difficulty", "scc")),
                *(out / f for f in files("taxonomy"))]
    if args.command == "portfolio" and (args.levels or args.cuts is not None):
        return [out / f for f in files("portfolio_levels")]
    if args.command == "leaderboard" and args.task is not None:
        return [out / f for f in files("leaderboard", "leaderboard_tasks")]
    return [out / f for f in files(args.command.replace("-", "_"))]


def check_outputs(args):
    """Refuse, before any work, to replace existing outputs without --overwrite."""
    if args.out.exists() and not args.out.is_dir():
        raise ValueError(f"--out {args.out} is a file; give a folder")
    above = next(p for p in (args.out, *args.out.parents) if p.exists())
    if not above.is_dir():
        raise ValueError(f"--out {args.out}: {above} is a file, so the folder cannot be made; "
                         "give another --out")
    try:  # make the folder and a file in it, and take them away: os.access passes /proc
        args.out.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=args.out).close()
    except OSError as error:
        raise ValueError(f"--out {args.out}: cannot make or write to it ({error.strerror}); "
                         "give another --out") from None
    finally:
        made = args.out
        while made != above and made.is_dir() and not any(made.iterdir()):
            made.rmdir()
            made = made.parent
    existing = [p for p in outputs(args) if p.exists()]
    if existing and not args.overwrite:
        more = f" (and {len(existing) - 1} more of its outputs)" if len(existing) > 1 else ""
        raise ValueError(f"{existing[0]} already exists{more}; pass --overwrite to replace, or "
                         "choose another --out folder")


def demo(args):
    """The four workflows on bundled data, each into its sub-folder of --out, and a
    leaderboard from pairwise battles (simulated: no arena data ship with irteval)."""
    from ..datasets import load_csp_minizinc, load_optdigits, load_optdigits_responses, load_vtab

    print("== instance difficulty: optdigits ==")
    # 5620 x 58 answers x 4000 draws: a 10 GB pointwise log-likelihood, unless asked for
    idata = difficulty.report(load_optdigits_responses(), argparse.Namespace(
        **{**vars(args), "log_likelihood": args.log_likelihood or False}),
        args.out / "optdigits_difficulty", name="optdigits")
    print(f"\n== robustness to noise by difficulty: optdigits, "
          f"{len(robustness.DEMO_FAMILIES)} families ==")
    scc = robustness.report("optdigits", *load_optdigits(return_X_y=True), args,
                            args.out / "optdigits_robustness", idata=idata,
                            estimators=robustness.estimators(",".join(robustness.DEMO_FAMILIES)),
                            scc_draws=20)
    robustness.taxonomy_report([scc], args.out / "optdigits_robustness", 3)
    print("\n== EPP leaderboard: VTAB ==")
    leaderboard.report(load_vtab(), args, args.out / "vtab_leaderboard")
    print("\n== algorithm portfolio: MiniZinc Challenge 2016 ==")
    # this posterior mixes slowly in a near-Heywood corner (three solvers' residual sds near
    # 0): with 4 x 2000 draws their tail ESS was 201-595 over seeds 0-2 (< 400 twice), with
    # 4 x 4000 draws 520-1153 over seeds 0-3; 2000 warm-up steps; more if --draws asks
    portfolio.report(load_csp_minizinc(), argparse.Namespace(
        **{**vars(args), "draws": max(args.draws, 4000), "tune": max(args.tune or 0, 2000)}),
        args.out / "minizinc_portfolio")
    print("\n== arena leaderboard: 20 000 simulated battles between 30 models ==")
    import numpy as np

    from ..calibration import simulate_battles

    # 435 pair counts and 30 strengths sample fast: 1000 draws a chain (R-hat 1.011 at 500)
    leaderboard.report(simulate_battles(30, 20_000, np.random.default_rng(0))[0],
                       argparse.Namespace(**{**vars(args), "draws": max(args.draws, 1000)}),
                       args.out / "arena_leaderboard")


def run(args):
    """Dispatch the parsed command."""
    if args.command == "demo":
        demo(args)
    elif args.command == "examples":
        written = write_examples(args.out, random_seed=args.seed)
        for name, what in EXAMPLES.items():
            print(f"{written[name]}: {what}")
    elif args.command == "robustness":
        datasets = robustness.data(args)
        own = datasets[0][-1]  # --predictions: the user's models, nothing trained
        chosen = robustness.estimators(args.families) if own is None else list(own[0].columns)
        if args.groups is not None and 2 <= len(chosen) < args.groups:
            raise ValueError(f"--groups {args.groups} is more than the {len(chosen)} "
                             f"{'families' if own is None else 'models'} compared; give at "
                             "most that many")
        groups = args.groups or min(3, max(2, len(chosen) - 1))  # 3 of 3: each alone
        sccs = [robustness.report(name, X, y, args, args.out / name, estimators=chosen,
                                  nominal=nominal, resp=resp, bins=args.bins,
                                  noise=0.2 if args.noise is None else args.noise,
                                  integer_noise=args.integer_noise or "redraw",
                                  scc_draws=args.scc_draws,
                                  n_jobs=args.n_jobs, predictions=predictions)
                for name, X, y, nominal, resp, predictions in datasets]
        robustness.taxonomy_report(sccs, args.out, groups)
    elif args.command == "portfolio":
        portfolio.report(reading.read_performance(args), args, args.out, epsilon=args.epsilon)
    elif args.command == "score-new":
        score_new.report(args)
    elif args.command == "select-items":
        score_new.select(args)
    elif args.command == "difficulty":
        difficulty.report(reading.read_responses(args), args, args.out, method=args.method,
                          model=args.model, bins=args.bins, name=args.responses.stem)
    else:
        scores, hierarchy = leaderboard.read_scores(args)
        leaderboard.report(scores, args, args.out, likelihood=args.likelihood,
                           hierarchy=hierarchy)


def _show_warning(message, category, filename, lineno, file=None, line=None):
    """Warnings as one line in the command line's words, without Python source lines."""
    print(f"irteval: warning: {options.as_flags(str(message))}", file=sys.stderr)


def intervals(ci_prob):
    """The context in which every summary's default interval has probability ``ci_prob``
    (--ci-prob; ArviZ's default where None)."""
    if ci_prob is None:
        return contextlib.nullcontext()
    import arviz as az

    return az.rc_context({"stats.ci_prob": ci_prob})


def main(argv=None):
    """Run the command; returns the exit status: 0, 2 (bad input: a one-line message) or 3
    (--strict and a fit failed its diagnostics)."""
    args = parse(argv)
    start_run()
    try:
        check_outputs(args)
        with warnings.catch_warnings(), intervals(getattr(args, "ci_prob", None)):
            warnings.showwarning = _show_warning
            run(args)
        warn_earlier_outputs(read=[v for v in vars(args).values() if isinstance(v, Path)])
    except fitting.StrictError as err:
        print(f"irteval: error: {err}", file=sys.stderr)
        return options.EXIT_STRICT
    except (ValueError, TypeError) as err:  # one line, whatever labels the message quotes
        message = options.as_flags(str(err)).replace("\r", "\\r").replace("\n", "\\n")
        print(f"irteval: error: {message}", file=sys.stderr)
        return 2
    return 0
