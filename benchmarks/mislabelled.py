"""The 4PL's ceilings on the bundled response matrices (issue 18): which instances look
mislabelled, and does the 4PL reorder the difficulties the robustness workflow bins by?

    python benchmarks/mislabelled.py                        # optdigits and letter
    python benchmarks/mislabelled.py --dataset letter --spread 150 --hardest 60

An instance whose gold label is wrong is missed by strong and weak models alike, so its
ceiling d_i = 1 - s_i (1 - c_i) (slip s_i ~ Beta(1, 19): prior mean 0.95) stays well below 1.
For each dataset, on every (n / ``--spread``)-th instance of the accuracy order (a little over
``--spread``) plus the ``--hardest`` least accurate ones (answered by all 58 models), NUTS 4 x 1000
of the 4PL (``n_options`` = the number of classes) and of the 1PL. Reported: the instances of
lowest ceiling (mean, 90% interval, accuracy, how many of the ten most accurate models get them
right, gold label); R-hat, bulk ESS, divergences and time of the 4PL; and how far the 4PL moves the
difficulty order: Spearman correlation of the two fits' b, and the share of instances that stay in
the same of five equal-count difficulty bins (the bins of the robustness workflow's system
characteristic curves). Results: ``results/mislabelled_<dataset>.csv`` (the ten lowest ceilings)
and ``results/mislabelled.csv`` (one row per dataset).
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import arviz as az
import numpy as np
import pandas as pd
from scipy.stats import spearmanr

import irteval as ie
from irteval._draws import equal_count_bins

HERE = Path(__file__).parent
LOADERS = {"optdigits": ie.datasets.load_optdigits, "letter": ie.datasets.load_letter}


def subset(wide, spread, hardest):
    """Every (n / ``spread``)-th instance of the accuracy order plus the ``hardest`` least
    accurate ones, in the matrix's order."""
    ranked = wide.mean(axis=1).sort_values(ascending=False, kind="stable").index
    chosen = set(ranked[:: max(1, len(ranked) // spread)]) | set(ranked[-hardest:])
    return wide.loc[[i for i in wide.index if i in chosen]]


def run(dataset, spread, hardest, seed):
    wide = ie.datasets.load_responses(dataset, as_frame=True)
    labels = LOADERS[dataset](return_X_y=True)[1]
    part = subset(wide, spread, hardest)
    resp = ie.Responses.from_wide(part, respondent="model", item="instance", rows="item")
    fits, seconds = {}, {}
    for name, kw in (("1pl", {}), ("4pl", {"discrimination": True, "guessing": True,
                                           "n_options": int(labels.nunique()), "slip": True})):
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fits[name] = ie.fit(ie.models.onepl(resp, **kw), random_seed=seed,
                                log_likelihood=False, progressbar=False)
        seconds[name] = time.perf_counter() - start
        print(f"{dataset} {name}: {seconds[name]:.0f} s", flush=True)
    post = fits["4pl"].posterior
    d = post["d"].stack(sample=("chain", "draw")).values
    strongest = wide.mean().sort_values(ascending=False).index[:10]
    ceilings = pd.DataFrame({
        "ceiling_d": d.mean(axis=1), "d_5%": np.quantile(d, 0.05, axis=1),
        "d_95%": np.quantile(d, 0.95, axis=1), "b": post["b"].mean(("chain", "draw")).values,
        "accuracy": part.mean(axis=1).values,
        "strongest_10_right": part[strongest].sum(axis=1).values,
        "gold_label": labels.loc[part.index].values},
        index=pd.Index(part.index, name="instance")).sort_values("ceiling_d")
    b1 = fits["1pl"].posterior["b"].mean(("chain", "draw")).values
    b4 = post["b"].mean(("chain", "draw")).values
    bins = [equal_count_bins(b, 5) for b in (b1, b4)]
    diag = az.summary(fits["4pl"], kind="diagnostics")
    row = {"dataset": dataset, "instances": len(part), "models": part.shape[1],
           "lowest_ceiling": ceilings["ceiling_d"].iloc[0],
           "ceilings_below_0.9": int((ceilings["ceiling_d"] < 0.9).sum()),
           "spearman_b_1pl_4pl": spearmanr(b1, b4).statistic,
           "same_difficulty_bin": float((bins[0] == bins[1]).mean()),
           "max_rhat": float(diag["r_hat"].max()), "min_ess_bulk": float(diag["ess_bulk"].min()),
           "divergences": int(fits["4pl"].sample_stats["diverging"].sum()),
           "seconds_4pl": seconds["4pl"], "seconds_1pl": seconds["1pl"]}
    return ceilings, row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", nargs="+", default=list(LOADERS), choices=list(LOADERS))
    parser.add_argument("--spread", type=int, default=150)
    parser.add_argument("--hardest", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    out = HERE / "results"
    summary_path = out / "mislabelled.csv"
    rows = pd.read_csv(summary_path, index_col="dataset") if summary_path.exists() else None
    for dataset in args.dataset:
        ceilings, row = run(dataset, args.spread, args.hardest, args.seed)
        ceilings.head(10).round(4).to_csv(out / f"mislabelled_{dataset}.csv")
        print(ceilings.head(10).round(3).to_string())
        new = pd.DataFrame([row]).set_index("dataset")
        rows = new if rows is None else pd.concat([rows.drop(dataset, errors="ignore"), new])
        rows.round(4).to_csv(summary_path)
    print(rows.round(3).T.to_string())


if __name__ == "__main__":
    main()
