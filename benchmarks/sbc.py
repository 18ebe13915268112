"""Simulation-based calibration of the models (issue 7; Talts et al. 2018).

    python benchmarks/sbc.py --model all --sims 200 --seed 0 --out benchmarks/results/sbc
    python benchmarks/sbc.py --model 1pl --sims 200 --out benchmarks/results/sbc/default

Per replicate: parameters from the model's default prior, data from the model, NUTS through
``irteval.fit``, ranks of the true values among L = 99 evenly thinned draws
(:mod:`irteval.calibration`). Every entry of every vector parameter is ranked. Per model it
writes ``<model>_ranks.csv``, ``<model>_diagnostics.csv``, ``<model>_uniformity.csv``
(a chi-square test per entry, 25 bins of 4 ranks, and per vector a mean-rank and a spread
t-test; Holm-adjusted over all tests of the model) and ``<model>_ecdf.png`` (rank ECDF minus
uniform, 99% simultaneous band); ``summary.csv`` / ``summary.md`` gather every model found in
the output folder. ``--replot`` redoes tables and plots from saved ranks.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
import warnings
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

import irteval as ie
from irteval import calibration as cal

N_KEEP = 99
ALPHA = 0.01


@dataclass(frozen=True)
class Spec:
    simulate: object
    build: object
    size: str


MODELS = {
    "1pl": Spec(partial(cal.simulate_onepl, 30, 8), ie.models.onepl,
                "30 items x 8 respondents"),
    # more items than the collapsed form's grid points (101 at 8 respondents): fit collapsed
    "1pl_collapsed": Spec(partial(cal.simulate_onepl, 120, 8), ie.models.onepl,
                          "120 items x 8 respondents (collapsed)"),
    "1pl_missing": Spec(partial(cal.simulate_onepl, 30, 8, missing=0.15), ie.models.onepl,
                        "30 items x 8 respondents, 15% of cells missing"),
    # more answers per instance than FEW_ANSWERS, patterns x grid > items: the dense density
    "1pl_dense": Spec(partial(cal.simulate_onepl, 30, 20, missing=0.15), ie.models.onepl,
                      "30 items x 20 respondents, 15% of cells missing (dense)"),
    "2pl": Spec(partial(cal.simulate_onepl, 30, 8, discrimination=True),
                partial(ie.models.onepl, discrimination=True), "30 items x 8 respondents"),
    "3pl": Spec(partial(cal.simulate_onepl, 20, 30, discrimination=True, guessing=True,
                        n_options=4),
                partial(ie.models.onepl, discrimination=True, guessing=True, n_options=4),
                "20 items x 30 respondents, 4 options"),
    "4pl": Spec(partial(cal.simulate_onepl, 20, 30, discrimination=True, guessing=True,
                        n_options=4, slip=True),
                partial(ie.models.onepl, discrimination=True, guessing=True, n_options=4,
                        slip=True),
                "20 items x 30 respondents, 4 options, slip"),
    "bt": Spec(partial(cal.simulate_bradley_terry, 6, 10), ie.models.bradley_terry,
               "6 players x 10 rounds, Plackett-Luce"),
    "bt_pairwise": Spec(partial(cal.simulate_bradley_terry, 6, 10),
                        partial(ie.models.bradley_terry, likelihood="pairwise"),
                        "6 players x 10 rounds, pairwise (composite) likelihood"),
    "continuous": Spec(partial(cal.simulate_continuous, 40, 5), ie.models.continuous_irt,
                       "40 datasets x 5 algorithms"),
    "polytomous": Spec(partial(cal.simulate_polytomous, 40, 4, 4), ie.models.polytomous_irt,
                       "40 datasets x 4 algorithms, 4 levels, GPCM"),
    "graded": Spec(partial(cal.simulate_polytomous, 40, 4, 4, model="graded"),
                   partial(ie.models.polytomous_irt, model="graded"),
                   "40 datasets x 4 algorithms, 4 levels, graded response"),
    "battles": Spec(partial(cal.simulate_battles_from_prior, 6, 60), ie.models.bradley_terry,
                    "6 players, 60 battles, pairwise likelihood (exact for battles)"),
    "davidson": Spec(partial(cal.simulate_battles_from_prior, 6, 60, likelihood="davidson"),
                     partial(ie.models.bradley_terry, likelihood="davidson"),
                     "6 players, 60 battles, Davidson ties"),
    "bt_tasks": Spec(partial(cal.simulate_bradley_terry_tasks, 6, 4, 3),
                     partial(ie.models.bradley_terry, hierarchy=cal.task_of_round(4, 3)),
                     "6 players x 4 tasks x 3 rounds, Plackett-Luce, hierarchy= (Model/Task)"),
}
ALL = ("1pl", "1pl_collapsed", "1pl_missing", "1pl_dense", "2pl", "3pl", "4pl", "bt",
       "continuous", "bt_pairwise", "polytomous", "graded", "battles", "davidson", "bt_tasks")


def variable(row):
    """"b[3]" and "b (spread)" -> "b"."""
    return row.split("[")[0].split(" ")[0]


def run_model(name, args):
    spec = MODELS[name]
    start = time.perf_counter()

    def log(k, ranks, diag):
        print(f"{name} {k + 1}/{args.sims} {diag['seconds']:.1f}s div {diag['divergences']} "
              f"rhat {diag['max_rhat']:.3f} ess {diag['min_ess_bulk']:.0f} "
              f"redraws {diag['redraws']} elapsed {time.perf_counter() - start:.0f}s",
              flush=True)

    ranks, diagnostics = cal.run(spec.simulate, spec.build, args.sims, random_seed=args.seed,
                                 n_keep=N_KEEP, log=log, draws=args.draws, tune=args.tune,
                                 chains=args.chains, sampler=args.sampler, n_jobs=args.jobs)
    diagnostics = diagnostics.assign(chains=args.chains, draws=args.draws,
                                     tune=args.tune)
    out = Path(args.out)
    ranks.to_csv(out / f"{name}_ranks.csv")
    diagnostics.to_csv(out / f"{name}_diagnostics.csv")


def report(name, out):
    """Uniformity table and ECDF plot of ``<name>_ranks.csv`` in ``out``."""
    ranks = pd.read_csv(out / f"{name}_ranks.csv", index_col="sim")
    table = cal.uniformity_table(ranks, N_KEEP)
    table.to_csv(out / f"{name}_uniformity.csv", index_label="parameter")
    size = MODELS[name].size
    plot_ecdf(ranks, table, out / f"{name}_ecdf.png", f"{name}: {size}\n{len(ranks)} simulations")
    print(f"\n## {name} ({size}, {len(ranks)} simulations)\n")
    print(markdown(by_variable(table)))


def by_variable(table):
    """Per variable: tests, smallest raw and Holm-adjusted p-value."""
    grouped = table.groupby(table.index.map(variable), sort=False)
    return pd.DataFrame({"tests": grouped.size(), "min_p": grouped["p"].min(),
                         "min_p_holm": grouped["p_holm"].min()})


def plot_ecdf(ranks, table, path, title):
    """One panel per variable: ECDF(rank) - uniform CDF for every entry, 99% band."""
    names = list(dict.fromkeys(ranks.columns.map(variable)))
    r, lower, upper = cal.ecdf_difference_band(len(ranks), N_KEEP, prob=0.99)
    cdf = (r + 1) / (N_KEEP + 1)
    fig = Figure(figsize=(max(5, 3.2 * len(names)), 3.4))
    axes = fig.subplots(1, len(names), sharey=True, squeeze=False)
    for ax, name in zip(axes[0], names):
        columns = [c for c in ranks.columns if variable(c) == name]
        ax.fill_between(cdf, lower, upper, step="post", color="0.85", label="99% band")
        for column in columns:
            ecdf = (ranks[column].to_numpy()[:, None] <= r).mean(axis=0)
            ax.step(cdf, ecdf - cdf, where="post", color="C0", lw=0.8,
                    alpha=1.0 if len(columns) == 1 else 0.35)
        p_holm = table.loc[table.index.map(variable) == name, "p_holm"].min()
        ax.set_title(f"{name} ({len(columns)}): min Holm p {p_holm:.2g}", fontsize=9)
        ax.set_xlabel("rank / (L + 1)")
    axes[0, 0].set_ylabel("ECDF - uniform")
    axes[0, 0].legend(fontsize=8, loc="lower left")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def summarise(out):
    """One row per model with results in ``out``: sims, parameters ranked, tests, min raw and
    Holm p, verdict at 1%, fits with divergences or R-hat > 1.01, median of the fits' smallest
    bulk ESS, median seconds per fit (compile included), redraws."""
    rows = {}
    for name in [m for m in ALL if (out / f"{m}_uniformity.csv").exists()]:
        table = pd.read_csv(out / f"{name}_uniformity.csv", index_col=0)
        diag = pd.read_csv(out / f"{name}_diagnostics.csv", index_col=0)
        fit = diag.iloc[0]
        rows[name] = {
            "size": MODELS[name].size, "sims": len(diag),
            "nuts": f"{fit['sampler']} {fit['chains']}x{fit['draws']} (+{fit['tune']} tune)",
            "parameters": int((table["test"] == "chi2").sum()), "tests": len(table),
            "min_p": table["p"].min(), "min_p_holm": table["p_holm"].min(),
            "verdict": "pass" if table["p_holm"].min() >= ALPHA else "FAIL",
            "fits_divergent": int((diag["divergences"] > 0).sum()),
            "fits_rhat_gt_1.01": int((diag["max_rhat"] > 1.01).sum()),
            "median_min_ess_bulk": diag["min_ess_bulk"].median(),
            "median_seconds": diag["seconds"].median(), "redraws": int(diag["redraws"].sum()),
        }
    summary = pd.DataFrame.from_dict(rows, orient="index").rename_axis("model")
    summary.to_csv(out / "summary.csv")
    (out / "summary.md").write_text(markdown(summary) + "\n")
    print("\n## summary (Holm correction within each model; pass: min Holm p >= 0.01)\n")
    print(markdown(summary))


def markdown(frame):
    """A DataFrame as a markdown table, numbers to 3 significant digits."""
    def cell(value):
        return f"{value:.3g}" if isinstance(value, float) else str(value)

    lines = ["| " + " | ".join([frame.index.name or "", *frame.columns]) + " |",
             "|" + "---|" * (len(frame.columns) + 1)]
    lines += ["| " + " | ".join(cell(v) for v in [label, *row]) + " |"
              for label, row in zip(frame.index, frame.itertuples(index=False))]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", choices=[*ALL, "all"], default="all")
    parser.add_argument("--sims", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="benchmarks/results/sbc")
    parser.add_argument("--draws", type=int, default=400, help="per chain")
    parser.add_argument("--tune", type=int, default=400)
    parser.add_argument("--chains", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=None,
                        help="worker processes for the replicates (the ranks do not change)")
    parser.add_argument("--sampler", default=None,
                        help="pymc, nutpie or numpyro (default: irteval's default for the "
                             "model, the path users run)")
    parser.add_argument("--replot", action="store_true",
                        help="no fits: tables and plots from the ranks already in --out")
    args = parser.parse_args(argv)
    Path(args.out).mkdir(parents=True, exist_ok=True)
    logging.getLogger("pymc").setLevel(logging.ERROR)
    warnings.filterwarnings("ignore", category=UserWarning)
    warnings.filterwarnings("ignore", category=FutureWarning)
    out = Path(args.out)
    for name in ALL if args.model == "all" else (args.model,):
        if not args.replot:
            print(f"{name}: {args.sims} simulations, NUTS ({args.sampler}) {args.chains} chains "
                  f"x {args.draws} draws, {args.tune} tune, L = {N_KEEP}, seed {args.seed}",
                  flush=True)
            run_model(name, args)
        if (out / f"{name}_ranks.csv").exists():
            report(name, out)
    summarise(out)


if __name__ == "__main__":
    sys.exit(main())
