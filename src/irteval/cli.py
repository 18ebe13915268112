"""The ``irteval`` command: instance difficulty, robustness, EPP leaderboards, and a demo."""

from __future__ import annotations

import argparse
import re
import sys
import time
from contextlib import contextmanager
from functools import partial
from pathlib import Path

DESCRIPTION = """\
Bayesian evaluation of ML models with IRT and Bradley-Terry (EPP) models.

  irteval difficulty   which test instances are hard (1PL IRT on 0/1 responses); writes
                       difficulty.csv (one row per instance: posterior mean, sd, interval,
                       bin), curves.csv (accuracy per difficulty bin for every model),
                       posterior.nc and plots
  irteval leaderboard  which model leads a benchmark, with what probability (EPP from
                       scores per round); writes leaderboard.csv (EPP, interval, Elo,
                       P(best), ranks), mle_epp.csv (classical EPP), win_probability.csv,
                       goodness_of_fit.csv, posterior.nc and plots
  irteval robustness   how robust each model family is to noise on easy and hard instances
                       (System Characteristic Curves and a taxonomy, paper 1); writes per
                       dataset difficulty.csv, scc.csv (kappa per model, bin and proportion
                       perturbed, with intervals), p_hardest.csv, scc.nc, posterior.nc and
                       plots, and taxonomy.csv, co_assignment.csv and dendrogram.png
  irteval portfolio    which algorithms belong in a portfolio (continuous IRT, AIRT) from a
                       CSV of performances per dataset and algorithm; writes
                       algorithm_metrics.csv (P(anomalous), consistency, difficulty limit),
                       portfolio.csv (latent trait occupancy, P(in portfolio)), spectrum.csv,
                       goodness.csv, posterior.nc and plots
  irteval demo         all four, on bundled data (optdigits responses of 58 models; VTAB;
                       the MiniZinc 2016 solvers)

posterior.nc files hold the posterior draws in float32 (arviz.from_netcdf reads them);
irteval.load_results(folder) reads a whole output folder back. Existing outputs are never
replaced without --overwrite. Every fit prints its diagnostics (divergences, R-hat, ESS);
with --strict a failed check stops the command with exit status 3.

examples:
  irteval demo
  irteval difficulty results.csv --respondent model --item instance --value correct
  irteval difficulty matrix.csv --rows item      # wide: a row per instance, a column per model
  irteval leaderboard scores.csv --player model --round split --score auc
  irteval leaderboard times.csv --player solver --round problem --score seconds --lower-is-better
  irteval robustness --dataset optdigits letter wall_robot_navigation
  irteval portfolio perf.csv --respondent dataset --bounds 0,1   # a row per dataset
  irteval robustness --csv data.csv --target class --nominal colour,shape
"""


#: families of the demo's robustness part (fast to train; the full run has 17)
DEMO_FAMILIES = ("naive_bayes", "cart_depth10", "knn_3", "logistic_C1", "random_forest",
                 "mlp_7")

#: the files each report writes into its folder
DIFFICULTY_FILES = ("difficulty.csv", "curves.csv", "posterior.nc",
                    "difficulty_distribution.png", "item_characteristic.png",
                    "characteristic_curves.png")
LEADERBOARD_FILES = ("leaderboard.csv", "mle_epp.csv", "win_probability.csv",
                     "goodness_of_fit.csv", "posterior.nc", "leaderboard.png", "epp_vs_score.png",
                     "win_probability.png", "calibration.png", "rank_distribution.png")
PORTFOLIO_FILES = ("algorithm_metrics.csv", "portfolio.csv", "spectrum.csv", "goodness.csv",
                   "posterior.nc", "latent_trait.png", "strengths.png", "goodness.png",
                   "effectiveness.png", "auaec_aupec.png", "crm_heatmap.png")
SCC_FILES = ("scc.csv", "scc.nc", "p_hardest.csv", "scc.png")  # + the 1PL's, if it fits one
TAXONOMY_FILES = ("taxonomy.csv", "co_assignment.csv", "dendrogram.png")
#: exit status when --strict finds failed convergence diagnostics (2: bad input)
EXIT_STRICT = 3


class StrictError(Exception):
    """A fit failed its convergence diagnostics under --strict."""


def _parser():
    parser = argparse.ArgumentParser(prog="irteval", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    def sampling(p, draws=1000):
        p.add_argument("--out", type=Path, default=Path("irteval-output"),
                       help="output folder (default: irteval-output)")
        p.add_argument("--sampler", choices=["pymc", "nutpie", "numpyro"], default=None,
                       help="NUTS implementation (nutpie/numpyro must be installed; default: "
                            "the model's choice, nutpie for the portfolio when installed)")
        p.add_argument("--draws", type=int, default=draws,
                       help=f"draws per chain (default {draws})")
        p.add_argument("--tune", type=int, default=1000, help="warm-up steps per chain")
        p.add_argument("--chains", type=int, default=4, help="chains (default 4)")
        p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
        p.add_argument("--overwrite", action="store_true",
                       help="replace existing output files (default: refuse to)")
        p.add_argument("--strict", action="store_true",
                       help=f"exit with status {EXIT_STRICT} when a fit fails its convergence "
                            "diagnostics (divergences, R-hat > 1.01, ESS < 100 per chain), "
                            "before writing its outputs")

    def irt_options(p):
        p.add_argument("--method", choices=["nuts", "advi", "laplace", "map"], default="nuts",
                       help="nuts: full posterior (default); advi/laplace: fast approximations; "
                            "map: point estimate")
        p.add_argument("--model", choices=["1pl", "2pl"], default="1pl",
                       help="1pl (Rasch, default) or 2pl (adds item discrimination)")
        p.add_argument("--bins", type=int, default=5, help="difficulty bins (default 5)")

    demo = sub.add_parser("demo", help="the three workflows on bundled data",
                          description="Instance difficulty of the 5620 optdigits digits from "
                                      "which of 58 scikit-learn models got them right, the "
                                      "robustness of 6 model families to noise by difficulty, "
                                      "the EPP leaderboard of 16 models on the 19 VTAB tasks "
                                      "and the portfolio of 22 MiniZinc 2016 solvers. "
                                      "Outputs go to OUT/optdigits_difficulty, "
                                      "OUT/optdigits_robustness, OUT/vtab_leaderboard and "
                                      "OUT/minizinc_portfolio.")
    sampling(demo, draws=500)

    diff = sub.add_parser("difficulty", help="instance difficulty from a CSV of responses",
                          description="Instance difficulty from a CSV of 0/1 responses, long "
                                      "(one row per model and instance) or wide (a matrix).")
    diff.add_argument("responses", type=Path, help="CSV file of 0/1 responses")
    diff.add_argument("--format", choices=["auto", "long", "wide"], default="auto",
                      help="auto (default): long if the --value column exists, else wide")
    diff.add_argument("--respondent", default="model",
                      help="long: column naming the model (default 'model')")
    diff.add_argument("--item", default="instance",
                      help="long: column naming the instance (default 'instance')")
    diff.add_argument("--value", default="correct",
                      help="long: column with 1 = correct, 0 = wrong (default 'correct')")
    diff.add_argument("--rows", choices=["item", "respondent"], default="item",
                      help="wide: whether rows are instances (item, default) or models; the "
                           "first column holds the row labels")
    sampling(diff)
    irt_options(diff)

    board = sub.add_parser("leaderboard", help="EPP leaderboard from a CSV of scores",
                           description="EPP leaderboard from a long CSV with one score per "
                                       "player (model) and round (split, dataset, task).")
    board.add_argument("scores", type=Path, help="long CSV file of scores")
    board.add_argument("--player", default="model", help="column naming the player")
    board.add_argument("--round", default="round", help="column naming the round")
    board.add_argument("--score", default="score", help="column with the score")
    board.add_argument("--lower-is-better", action="store_true",
                       help="lower scores win (errors, run times)")
    board.add_argument("--likelihood", choices=["plackett_luce", "pairwise", "davidson"],
                       default="plackett_luce",
                       help="plackett_luce (default: whole rankings, calibrated intervals), "
                            "pairwise (the paper's Bradley-Terry; intervals too narrow) or "
                            "davidson (pairwise with ties as a third outcome)")
    sampling(board)

    port = sub.add_parser("portfolio", help="algorithm portfolio from a CSV of performances",
                          description="Continuous IRT (AIRT) of algorithms (items) on datasets "
                                      "(respondents) from a wide CSV (a row per dataset, a "
                                      "column per algorithm) or a long one. Higher must be "
                                      "better: transform run times first, e.g. 1 / (t + 1).")
    port.add_argument("performance", type=Path, help="CSV file of performances")
    port.add_argument("--format", choices=["auto", "long", "wide"], default="auto",
                      help="auto (default): long if the --value column exists, else wide")
    port.add_argument("--respondent", default="dataset",
                      help="column naming the dataset (wide: the row labels; default: the "
                           "first column)")
    port.add_argument("--item", default="algorithm", help="long: column naming the algorithm")
    port.add_argument("--value", default="performance", help="long: the performance column")
    port.add_argument("--bounds", default="column",
                      help="'column' (each algorithm's min and max, default), 'global' (of "
                           "the whole table) or LO,HI")
    port.add_argument("--transform", choices=["logit", "airt"], default="logit",
                      help="logit of the scaled performance (default) or airt's preprocessing")
    port.add_argument("--epsilon", type=float, default=0.01,
                      help="performance within epsilon of the best counts as strong (0.01)")
    sampling(port)

    rob = sub.add_parser("robustness", help="System Characteristic Curves and taxonomy",
                         description="Robustness to noise by instance difficulty (paper 1): "
                                     "1PL difficulty from a model population's responses, "
                                     "clean vs perturbed predictions of one model per family, "
                                     "kappa per difficulty bin and proportion perturbed, and "
                                     "a taxonomy of the families over the datasets.")
    rob.add_argument("--dataset", nargs="+", default=[], metavar="NAME",
                     help="bundled benchmarks (optdigits, letter, wall_robot_navigation); "
                          "their zoo responses are bundled too")
    rob.add_argument("--csv", type=Path, help="a data CSV instead: features and a target column")
    rob.add_argument("--target", default="class", help="--csv: the target column")
    rob.add_argument("--nominal", default="",
                     help="--csv: comma-separated nominal columns (redrawn instead of "
                          "Gaussian noise)")
    rob.add_argument("--responses", type=Path,
                     help="--csv: a wide 0/1 CSV (row per instance, column per model) to "
                          "estimate difficulty from; default: cross-validate the model zoo")
    rob.add_argument("--families", default="",
                     help="comma-separated family representatives (default: all 17; see "
                          "irteval.robustness.families())")
    rob.add_argument("--noise", type=float, default=0.2, help="noise magnitude (default 0.2)")
    rob.add_argument("--bins", type=int, default=5, help="difficulty bins (default 5)")
    rob.add_argument("--scc-draws", type=int, default=50,
                     help="posterior draws the SCCs are computed for (default 50)")
    rob.add_argument("--groups", type=int, default=3, help="taxonomy groups (default 3)")
    rob.add_argument("--n-jobs", type=int, default=None, help="joblib workers for training")
    sampling(rob, draws=500)
    return parser


def _read_csv(path):
    """A UTF-8 CSV with a header line; a missing, unreadable or malformed file is a ValueError
    naming the file and, where it can be told, the line."""
    import pandas as pd

    if not path.is_file():
        raise ValueError(f"{path} is a folder, not a CSV file" if path.is_dir()
                         else f"no such file: {path}")
    try:
        header = pd.read_csv(path, header=None, nrows=1, dtype=str, keep_default_na=False,
                             encoding="utf-8")
        df = pd.read_csv(path, encoding="utf-8")
    except UnicodeDecodeError as err:
        line, reason = _undecodable_line(path)
        raise ValueError(f"{path}, line {line}: not UTF-8 text ({reason}); save the file as "
                         "UTF-8") from err
    except pd.errors.EmptyDataError as err:
        raise ValueError(f"{path} is empty: a CSV needs a header line naming its "
                         "columns") from err
    except pd.errors.ParserError as err:
        detail = str(err).strip().split("C error: ")[-1]
        line = re.search(r"line (\d+)", detail)
        fix = ("; every row needs as many comma-separated fields as the header"
               if "fields" in detail else "; close every opened quote" if "EOF" in detail
               else "")
        raise ValueError(f"{path}{f', line {line[1]}' if line else ''}: not a well-formed CSV "
                         f"({detail}){fix}") from err
    except OSError as err:
        raise ValueError(f"cannot read {path}: {err.strerror or err}") from err
    names = header.iloc[0]
    dup = names[names.duplicated() & (names != "")]
    if len(dup):
        raise ValueError(f"{path}, line 1: duplicate column names {sorted(set(dup))}; give "
                         "every column a unique name")
    return df


def _undecodable_line(path):
    """The number of the first line that is not UTF-8, and why (lines decode on their own:
    no UTF-8 character holds a newline byte)."""
    with open(path, "rb") as f:
        for number, line in enumerate(f, 1):
            try:
                line.decode("utf-8")
            except UnicodeDecodeError as err:
                return number, err.reason


def _outputs(args):
    """Every file the command will write."""
    out = args.out
    if args.command == "demo":
        return [*(out / "optdigits_difficulty" / f for f in DIFFICULTY_FILES),
                *(out / "optdigits_robustness" / f for f in SCC_FILES + TAXONOMY_FILES),
                *(out / "vtab_leaderboard" / f for f in LEADERBOARD_FILES),
                *(out / "minizinc_portfolio" / f for f in PORTFOLIO_FILES)]
    if args.command == "robustness":
        names = [args.csv.stem] if args.csv else args.dataset
        return [*(out / name / f for name in names
                  for f in ("difficulty.csv", "posterior.nc", *SCC_FILES)),
                *(out / f for f in TAXONOMY_FILES)]
    files = {"difficulty": DIFFICULTY_FILES, "leaderboard": LEADERBOARD_FILES,
             "portfolio": PORTFOLIO_FILES}[args.command]
    return [out / f for f in files]


def _check_outputs(args):
    """Refuse, before any work, to replace existing outputs without --overwrite."""
    if args.out.exists() and not args.out.is_dir():
        raise ValueError(f"--out {args.out} is a file; give a folder")
    existing = [p for p in _outputs(args) if p.exists()]
    if existing and not args.overwrite:
        more = f" (and {len(existing) - 1} more of its outputs)" if len(existing) > 1 else ""
        raise ValueError(f"{existing[0]} already exists{more}; pass --overwrite to replace, or "
                         "choose another --out folder")


def _read_performance(args):
    bounds = args.bounds
    if bounds not in ("column", "global"):
        try:
            bounds = tuple(float(b) for b in bounds.split(","))
        except ValueError as err:
            raise ValueError(f"--bounds {bounds!r}: use column, global or LO,HI") from err
    return _read_responses(args, args.performance, kind="continuous", bounds=bounds,
                           transform=args.transform)


def _portfolio_report(perf, args, out, epsilon=0.01):
    from . import models
    from .goodness import effectiveness, model_goodness
    from .portfolio import algorithm_metrics, latent_trait, portfolio
    from .portfolio_plots import (plot_auaec_aupec, plot_crm_heatmap, plot_effectiveness,
                                  plot_goodness, plot_latent_trait, plot_strengths)

    print(perf)
    idata = _fit(models.continuous_irt(perf), args)
    metrics = algorithm_metrics(idata)
    cols = ["alpha", "beta_median", "gamma", "p_anomalous", "consistency", "difficulty_limit"]
    print("\nalgorithm metrics (posterior means; beta, consistency and difficulty limit as "
          "medians, as beta is heavy-tailed):")
    print(metrics[cols].round(3).to_string())
    lt = latent_trait(idata, epsilon=epsilon)
    board = portfolio(lt)
    print(f"\nportfolio (latent trait occupancy with epsilon = {epsilon:g}; "
          f"{board.attrs['hdi_prob']:.0%} intervals over posterior draws):")
    print(board.round(3).to_string())
    goodness = model_goodness(idata).join(effectiveness(idata))
    print("\ngoodness of fit (AUCDF: 1 = perfect) and effectiveness (AUAEC actual, AUPEC "
          "predicted):")
    print(goodness[["aucdf", "mse", "auaec", "aupec"]].round(3).to_string())
    out.mkdir(parents=True, exist_ok=True)
    metrics.to_csv(out / "algorithm_metrics.csv")
    board.to_csv(out / "portfolio.csv")
    lt.spectrum.to_csv(out / "spectrum.csv")
    goodness.to_csv(out / "goodness.csv")
    _save(idata, out, {
        "latent_trait.png": partial(plot_latent_trait, lt),
        "strengths.png": partial(plot_strengths, lt),
        "goodness.png": partial(plot_goodness, idata),
        "effectiveness.png": partial(plot_effectiveness, idata),
        "auaec_aupec.png": partial(plot_auaec_aupec, idata)})
    _save_figure(out / "crm_heatmap.png", plot_crm_heatmap(idata).ravel()[0].figure, dpi=80)
    print(f"\nwrote algorithm_metrics.csv, portfolio.csv, spectrum.csv, goodness.csv, "
          f"posterior.nc and 6 plots to {out}/")


def _read_responses(args, path=None, **kwargs):
    """Responses from a long CSV (when it has the --value column, or --format long) or a
    wide one (row labels: the column named like them, else the first column)."""
    from .data import Responses

    df = _read_csv(args.responses if path is None else path)
    if args.format == "long" or (args.format == "auto" and args.value in df.columns):
        return Responses.from_long(df, respondent=args.respondent, item=args.item,
                                   value=args.value, **kwargs)
    rows = getattr(args, "rows", "respondent")
    if (args.respondent if rows == "respondent" else args.item) not in df.columns:
        df = df.set_index(df.columns[0])
    return Responses.from_wide(df, respondent=args.respondent, item=args.item, rows=rows,
                               **kwargs)


def _fit(model, args, **kwargs):
    """Fit, print the diagnostics and any failed check; under --strict a failed check raises
    StrictError (before the caller writes anything)."""
    import warnings

    from .inference import ConvergenceWarning, fit

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        idata = fit(model, draws=args.draws, tune=args.tune, chains=args.chains,
                    random_seed=args.seed, sampler=args.sampler, **kwargs)
    failed = [str(w.message) for w in caught if issubclass(w.category, ConvergenceWarning)]
    for w in caught:  # the others as they would have been shown
        if not issubclass(w.category, ConvergenceWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if "max_rhat" in idata.attrs:
        keys = ("divergences", "max_rhat", "min_ess_bulk", "min_ess_tail")
        print("diagnostics: " + ", ".join(f"{k} {idata.attrs[k]:.4g}" for k in keys))
    for message in failed:
        print(f"irteval: warning: {message}", file=sys.stderr)
    if failed and args.strict:
        raise StrictError(f"--strict: {'; '.join(failed)}; the outputs of this fit were not "
                          "written")
    return idata


def _save(idata, out, plots):
    """Write the posterior (float32) and each plot {file name: function(ax)} to ``out``."""
    import arviz as az

    post = idata.posterior.astype(
        {k: "float32" for k, v in idata.posterior.data_vars.items() if v.dtype.kind == "f"})
    groups = {g: post if g == "posterior" else idata[g] for g in idata.groups()}
    az.InferenceData(attrs=dict(idata.attrs), **groups).to_netcdf(out / "posterior.nc")
    for fname, plot in plots.items():
        _save_plot(out / fname, plot)


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save_plot(path, plot):
    """A single-axes plot ``plot(ax=...)`` saved to ``path``."""
    fig, ax = _pyplot().subplots(figsize=(7, 4.5))
    plot(ax=ax)
    fig.tight_layout()
    _save_figure(path, fig)


def _save_figure(path, fig, dpi=110):
    fig.savefig(path, dpi=dpi)
    _pyplot().close(fig)


def _difficulty_report(resp, args, out, method="nuts", model="1pl", bins=5):
    from . import models
    from .difficulty import characteristic_curves, difficulty
    from .plots import (plot_characteristic_curves, plot_difficulty_distribution,
                        plot_item_characteristic)

    print(resp)
    idata = _fit(models.onepl(resp, discrimination=model == "2pl"), args, method=method,
                 log_likelihood=False)
    table = difficulty(idata, n_bins=bins)
    print(f"\nhardest {resp.item_name}s (difficulty b; {table.attrs['hdi_prob']:.0%} HDI):")
    print(table.sort_values("mean", ascending=False).head(10).round(3).to_string())
    print("\ndifficulty distribution (posterior means):")
    print(table["mean"].describe(percentiles=[.1, .25, .5, .75, .9]).round(3).to_string())
    print("\nper bin (0 = easiest):")
    per_bin = table.groupby("bin").agg(n=("mean", "size"), b_mean=("mean", "mean"),
                                       accuracy=("accuracy", "mean"),
                                       p_bin=("p_bin", "mean"))
    print(per_bin.round(3).to_string())
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "difficulty.csv")
    characteristic_curves(idata, n_bins=bins).to_csv(out / "curves.csv")
    _save(idata, out, {
        "difficulty_distribution.png": partial(plot_difficulty_distribution, idata),
        "item_characteristic.png": partial(plot_item_characteristic, idata),
        "characteristic_curves.png": partial(plot_characteristic_curves, idata, n_bins=bins)})
    print(f"\nwrote difficulty.csv, curves.csv, posterior.nc and 3 plots to {out}/")
    return idata


def _leaderboard_report(scores, args, out, likelihood="plackett_luce"):
    import warnings

    from . import models
    from .epp import SeparationWarning, mle_epp
    from .leaderboard import goodness_of_fit, leaderboard, pairwise_probabilities
    from .plots import (plot_epp_vs_score, plot_leaderboard, plot_rank_distribution,
                        plot_win_calibration, plot_win_heatmap)

    print(scores)
    idata = _fit(models.bradley_terry(scores, likelihood=likelihood), args)
    board = leaderboard(idata)
    print(f"\nleaderboard (EPP = logit of P(beats an average player); "
          f"{board.attrs['hdi_prob']:.0%} HDI):")
    print(board.round(3).to_string())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SeparationWarning)
        mle = mle_epp(scores)
    for w in caught:
        print(f"\nclassical EPP: {w.message}")
    print(f"\nclassical EPP (maximum likelihood): deviance {mle.attrs['deviance']:.2f} on "
          f"{mle.attrs['df']} df, goodness-of-fit p = {mle.attrs['p_value']:.3g}")
    gof = goodness_of_fit(idata, random_seed=args.seed)
    print(f"posterior predictive check of the pair wins: P(D_rep >= D_obs) = "
          f"{gof.attrs['ppp_deviance']:.2f} (near 0 or 1: misfit)")
    win, _ = pairwise_probabilities(idata)
    out.mkdir(parents=True, exist_ok=True)
    board.to_csv(out / "leaderboard.csv")
    mle.to_csv(out / "mle_epp.csv")
    win.to_csv(out / "win_probability.csv")
    gof.to_csv(out / "goodness_of_fit.csv", index=False)
    _save(idata, out, {
        "leaderboard.png": partial(plot_leaderboard, board),
        "epp_vs_score.png": partial(plot_epp_vs_score, board, scores),
        "win_probability.png": partial(plot_win_heatmap, win),
        "calibration.png": partial(plot_win_calibration, idata),
        "rank_distribution.png": partial(plot_rank_distribution, idata)})
    print(f"\nwrote leaderboard.csv, mle_epp.csv, win_probability.csv, goodness_of_fit.csv, "
          f"posterior.nc and 5 plots to {out}/")


@contextmanager
def _stage(name):
    start = time.perf_counter()
    yield
    print(f"[{time.perf_counter() - start:6.1f} s] {name}")


def _estimators(families):
    from .robustness import families as all_families

    models = all_families()
    if not families:
        return models
    wanted = [f.strip() for f in families.split(",") if f.strip()]
    unknown = [f for f in wanted if f not in models]
    if unknown:
        raise ValueError(f"unknown families {unknown}; choose from {list(models)}")
    return {f: models[f] for f in wanted}


def _robustness_data(args):
    """[(name, X, y, nominal, responses or None)] from --dataset / --csv."""
    from .datasets import BENCHMARKS, load_responses

    if bool(args.dataset) == bool(args.csv):
        raise ValueError("give either --dataset NAME [NAME ...] or --csv FILE")
    if args.csv:
        df = _read_csv(args.csv)
        if args.target not in df.columns:
            raise ValueError(f"--target {args.target!r} is not a column of {args.csv}; "
                             f"columns: {list(df.columns)[:10]}")
        df.index.name = "instance"
        nominal = [c.strip() for c in args.nominal.split(",") if c.strip()]
        resp = None
        if args.responses:
            from .data import Responses

            wide = _read_csv(args.responses)
            wide = wide.set_index(wide.columns[0])
            resp = Responses.from_wide(wide, respondent="model", item="instance", rows="item")
        return [(args.csv.stem, df.drop(columns=args.target), df[args.target], nominal, resp)]
    unknown = [d for d in args.dataset if d not in BENCHMARKS]
    if unknown:
        raise ValueError(f"unknown datasets {unknown}; bundled: {sorted(BENCHMARKS)}")
    return [(d, *BENCHMARKS[d](return_X_y=True), [], load_responses(d)) for d in args.dataset]


def _robustness_report(name, X, y, args, out, *, estimators, nominal=(), resp=None,
                       idata=None, bins=5, noise=0.2, scc_draws=50, n_jobs=None):
    """Difficulty (unless ``idata`` is given), SCCs and p_hardest for one dataset; returns
    the SCC Dataset. Prints the time of every stage."""
    from . import models
    from .difficulty import difficulty
    from .plots import plot_scc
    from .robustness import (cross_val_responses, noisy_predictions,
                             p_hardest_most_sensitive, scc_from_predictions, scc_summary, zoo)

    out.mkdir(parents=True, exist_ok=True)
    if idata is None:
        if resp is None:
            with _stage("responses: cross-validating the model zoo"):
                resp = cross_val_responses(zoo(population=True), X, y, cv=5,
                                           random_state=args.seed, n_jobs=n_jobs)
        print(resp)
        with _stage("difficulty: 1PL fit"):
            idata = _fit(models.onepl(resp), args, log_likelihood=False)
        table = difficulty(idata, n_bins=bins)
        table.to_csv(out / "difficulty.csv")
        _save(idata, out, {})
    else:
        table = difficulty(idata, n_bins=bins)
    varied = (table["accuracy"] > 0) & (table["accuracy"] < 1)
    post = idata.posterior
    print(f"difficulty of {name}: mean {table['mean'].mean():.2f} +- {table['mean'].std():.2f} "
          f"(all {len(table)} instances); {table['mean'][varied].mean():.2f} +- "
          f"{table['mean'][varied].std():.2f} without the {(~varied).sum()} that every model "
          f"got right or wrong; population mu_b {float(post['mu_b'].mean()):.2f}, sigma_b "
          f"{float(post['sigma_b'].mean()):.2f}")
    with _stage(f"noisy predictions: {len(estimators)} families x 5 folds, noise {noise}"):
        clean, perturbed = noisy_predictions(estimators, X, y, noise=noise, nominal=nominal,
                                             random_state=args.seed, n_jobs=n_jobs)
    with _stage(f"SCC over {scc_draws} posterior draws"):
        curves = scc_from_predictions(idata, clean, perturbed, n_bins=bins,
                                      max_draws=scc_draws, random_state=args.seed)
    summary = scc_summary(curves)
    summary.to_csv(out / "scc.csv")
    curves.to_netcdf(out / "scc.nc")
    at_one = summary.xs(1.0, level="proportion")["kappa"].unstack("bin")
    p_hard = p_hardest_most_sensitive(curves)
    report = at_one.assign(p_hardest_most_sensitive=p_hard)
    report.to_csv(out / "p_hardest.csv")
    print("\nkappa with every instance of a bin perturbed (bin 0 = easiest), and "
          "P(hardest bin most sensitive):")
    print(report.round(3).to_string())
    _pyplot()
    _save_figure(out / "scc.png", plot_scc(curves).ravel()[0].figure, dpi=90)
    print(f"wrote scc.csv, scc.nc, p_hardest.csv, scc.png to {out}/")
    return curves


def _taxonomy_report(curves, out, groups):
    from .plots import plot_dendrogram
    from .robustness import taxonomy

    tax = taxonomy(curves, k=groups)
    co = tax["co_assignment"]
    table = tax["groups"].to_frame().assign(
        p_same_group_as_members=[co.loc[m, tax["groups"].index[tax["groups"] == g]].drop(m)
                                 .mean() for m, g in tax["groups"].items()])
    print(f"\nrobustness taxonomy ({groups} groups, complete linkage on kappa profiles "
          f"averaged over {len(curves)} dataset(s)):")
    print(table.sort_values("group").round(2).to_string())
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "taxonomy.csv")
    co.to_csv(out / "co_assignment.csv")
    _save_plot(out / "dendrogram.png", partial(plot_dendrogram, tax))
    print(f"wrote taxonomy.csv, co_assignment.csv, dendrogram.png to {out}/")
    return tax


def main(argv=None):
    """Run the command; returns the exit status: 0, 2 (bad input: a one-line message) or 3
    (--strict and a fit failed its diagnostics)."""
    args = _parser().parse_args(argv)
    try:
        _check_outputs(args)
        if args.command == "demo":
            from .datasets import (load_csp_minizinc, load_optdigits,
                                   load_optdigits_responses, load_vtab)

            print("== instance difficulty: optdigits ==")
            idata = _difficulty_report(load_optdigits_responses(), args,
                                       args.out / "optdigits_difficulty")
            print(f"\n== robustness to noise by difficulty: optdigits, "
                  f"{len(DEMO_FAMILIES)} families ==")
            curves = _robustness_report("optdigits", *load_optdigits(return_X_y=True), args,
                                        args.out / "optdigits_robustness", idata=idata,
                                        estimators=_estimators(",".join(DEMO_FAMILIES)),
                                        scc_draws=20)
            _taxonomy_report([curves], args.out / "optdigits_robustness", 3)
            print("\n== EPP leaderboard: VTAB ==")
            _leaderboard_report(load_vtab(), args, args.out / "vtab_leaderboard")
            print("\n== algorithm portfolio: MiniZinc Challenge 2016 ==")
            # this posterior mixes more slowly (a near-Heywood corner): 2000 draws per chain
            _portfolio_report(load_csp_minizinc(), argparse.Namespace(
                **{**vars(args), "draws": max(args.draws, 2000)}),
                args.out / "minizinc_portfolio")
        elif args.command == "robustness":
            estimators = _estimators(args.families)
            curves = [_robustness_report(name, X, y, args, args.out / name,
                                         estimators=estimators, nominal=nominal, resp=resp,
                                         bins=args.bins, noise=args.noise,
                                         scc_draws=args.scc_draws, n_jobs=args.n_jobs)
                      for name, X, y, nominal, resp in _robustness_data(args)]
            _taxonomy_report(curves, args.out, args.groups)
        elif args.command == "portfolio":
            _portfolio_report(_read_performance(args), args, args.out, epsilon=args.epsilon)
        elif args.command == "difficulty":
            _difficulty_report(_read_responses(args), args, args.out, method=args.method,
                               model=args.model, bins=args.bins)
        else:
            from .scores import Scores

            scores = Scores.from_long(_read_csv(args.scores), player=args.player,
                                      round=args.round, score=args.score,
                                      higher_is_better=not args.lower_is_better)
            _leaderboard_report(scores, args, args.out, likelihood=args.likelihood)
    except StrictError as err:
        print(f"irteval: error: {err}", file=sys.stderr)
        return EXIT_STRICT
    except (ValueError, TypeError) as err:  # one line, whatever labels the message quotes
        message = str(err).replace("\r", "\\r").replace("\n", "\\n")
        print(f"irteval: error: {message}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
