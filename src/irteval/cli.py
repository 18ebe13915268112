"""The ``irteval`` command: instance difficulty from a response matrix, and a demo."""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

DESCRIPTION = """\
Bayesian instance difficulty with a 1PL (Rasch) IRT model.

Give it a table of which model got which test instance right (1) or wrong (0);
it fits the model with NUTS and writes, to the output folder:
  difficulty.csv        one row per instance: posterior mean, sd, interval, bin
  curves.csv            accuracy per difficulty bin for every model, observed and fitted
  posterior.nc          the posterior draws, float32 (arviz.from_netcdf reads it back)
  *.png                 difficulty histogram, item and model characteristic curves

examples:
  irteval demo                                   # bundled optdigits data (58 models)
  irteval difficulty results.csv --respondent model --item instance --value correct
  irteval difficulty matrix.csv --rows item      # wide: a row per instance, a column per model
"""


def _parser():
    parser = argparse.ArgumentParser(prog="irteval", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    def fit_options(p, out, draws=1000):
        p.add_argument("--out", type=Path, default=Path(out),
                       help=f"output folder (default: {out})")
        p.add_argument("--method", choices=["nuts", "advi", "laplace", "map"], default="nuts",
                       help="nuts: full posterior (default); advi/laplace: fast approximations; "
                            "map: point estimate")
        p.add_argument("--sampler", choices=["pymc", "nutpie", "numpyro"], default="pymc",
                       help="NUTS implementation (nutpie/numpyro must be installed)")
        p.add_argument("--model", choices=["1pl", "2pl"], default="1pl",
                       help="1pl (Rasch, default) or 2pl (adds item discrimination)")
        p.add_argument("--draws", type=int, default=draws,
                       help=f"draws per chain (default {draws})")
        p.add_argument("--tune", type=int, default=1000, help="warm-up steps per chain")
        p.add_argument("--chains", type=int, default=4, help="chains (default 4)")
        p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
        p.add_argument("--bins", type=int, default=5, help="difficulty bins (default 5)")

    demo = sub.add_parser("demo", help="fit the 1PL to the bundled optdigits responses",
                          description="Fit the 1PL to which of 58 scikit-learn models got "
                                      "each of the 5620 optdigits digits right.")
    fit_options(demo, "irteval-output", draws=500)

    diff = sub.add_parser("difficulty", help="instance difficulty from a CSV of responses",
                          description="Instance difficulty from a CSV of 0/1 responses, long "
                                      "(one row per model and instance) or wide (a matrix).",
                          formatter_class=argparse.RawDescriptionHelpFormatter)
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
    fit_options(diff, "irteval-output")
    return parser


def _read_responses(args):
    import pandas as pd

    from .data import Responses

    if not args.responses.is_file():
        raise SystemExit(f"irteval: no such file: {args.responses}")
    df = pd.read_csv(args.responses)
    long = args.format == "long" or (args.format == "auto" and args.value in df.columns)
    if long:
        return Responses.from_long(df, respondent=args.respondent, item=args.item,
                                   value=args.value)
    df = df.set_index(df.columns[0])
    return Responses.from_wide(df, respondent=args.respondent, item=args.item, rows=args.rows)


def _report(resp, args):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from . import models
    from .difficulty import characteristic_curves, difficulty
    from .inference import fit
    from .plots import (plot_characteristic_curves, plot_difficulty_distribution,
                        plot_item_characteristic)

    print(resp)
    model = models.onepl(resp, discrimination=args.model == "2pl")
    idata = fit(model, method=args.method, draws=args.draws, tune=args.tune,
                chains=args.chains, random_seed=args.seed, log_likelihood=False)
    if args.method == "nuts":
        keys = ("divergences", "max_rhat", "min_ess_bulk", "min_ess_tail")
        print("diagnostics: " + ", ".join(f"{k} {idata.attrs[k]:.4g}" for k in keys))
    table = difficulty(idata, n_bins=args.bins)
    name = resp.item_name
    print(f"\nhardest {name}s (difficulty b; {table.attrs['hdi_prob']:.0%} HDI):")
    print(table.sort_values("mean", ascending=False).head(10).round(3).to_string())
    print("\ndifficulty distribution (posterior means):")
    print(table["mean"].describe(percentiles=[.1, .25, .5, .75, .9]).round(3).to_string())
    print("\nper bin (0 = easiest):")
    per_bin = table.groupby("bin").agg(n=("mean", "size"), b_mean=("mean", "mean"),
                                       accuracy=("accuracy", "mean"),
                                       p_bin=("p_bin", "mean"))
    print(per_bin.round(3).to_string())

    args.out.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out / "difficulty.csv")
    characteristic_curves(idata, n_bins=args.bins).to_csv(args.out / "curves.csv")
    _compact(idata).to_netcdf(args.out / "posterior.nc")
    plots = {"difficulty_distribution.png": plot_difficulty_distribution,
             "item_characteristic.png": plot_item_characteristic,
             "characteristic_curves.png": partial(plot_characteristic_curves, n_bins=args.bins)}
    for fname, plot in plots.items():
        fig, ax = plt.subplots(figsize=(7, 4.5))
        plot(idata, ax=ax)
        fig.tight_layout()
        fig.savefig(args.out / fname, dpi=110)
        plt.close(fig)
    print(f"\nwrote difficulty.csv, curves.csv, posterior.nc and 3 plots to {args.out}/")


def _compact(idata):
    """The fit with its posterior in float32 (half the size; ample for summaries)."""
    import arviz as az

    post = idata.posterior.astype(
        {k: "float32" for k, v in idata.posterior.data_vars.items() if v.dtype.kind == "f"})
    groups = {g: post if g == "posterior" else idata[g] for g in idata.groups()}
    return az.InferenceData(attrs=dict(idata.attrs), **groups)


def main(argv=None):
    args = _parser().parse_args(argv)
    try:
        if args.command == "demo":
            from .datasets import load_optdigits_responses

            resp = load_optdigits_responses()
        else:
            resp = _read_responses(args)
        _report(resp, args)
    except (ValueError, TypeError) as err:
        print(f"irteval: error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
