"""The 2PL's NUTS settings on nutpie: divergences, R-hat, bulk ESS, 90% coverage of b and time
at target_accept 0.95 / 0.9 and 1000 / 500 warm-up steps, per simulated data set:

    python benchmarks/target_accept.py --sizes 30x8 100x10 300x30 --datasets 4
    python benchmarks/target_accept.py --sizes 1000x20 --datasets 1
    python benchmarks/target_accept.py --sizes optdigits --datasets 3

Sizes are instances x models, answers from ``scale.simulate_binary`` (the 2PL, b ~ N(-1, 1),
log a ~ N(0, 0.5)), one data set per seed; ``optdigits``: notebook 01's model-comparison
subset (152 instances spread over the accuracy order x 58 models, real answers), one
sampling seed per "data set". Prints a line per fit and writes
``benchmarks/results/target_accept.csv`` (rows appended per run; coverage only where the
truth is known).
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import pandas as pd

import irteval as ie
from scale import posterior_checks, responses, simulate_binary

OUT = Path(__file__).parent / "results" / "target_accept.csv"


def answers(size, seed):
    """(instances x models 0/1 matrix, truth) of a ``--sizes`` entry."""
    if size == "optdigits":
        wide = ie.datasets.load_optdigits_responses(as_frame=True)
        ranked = wide.mean(axis=1).sort_values(ascending=False, kind="stable").index
        return wide.loc[ranked[:: len(ranked) // 150]].to_numpy(float), {"b": None}
    n_items, n_resp = (int(v) for v in size.split("x"))
    return simulate_binary(n_items, n_resp, seed=seed, discrimination=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="+", default=["30x8", "100x10", "300x30"])
    parser.add_argument("--datasets", type=int, default=4)
    args = parser.parse_args()
    rows = []
    for size in args.sizes:
        for seed in range(args.datasets):
            y, truth = answers(size, seed)
            for target_accept in (0.95, 0.9):
                for tune in (1000, 500):
                    start = time.perf_counter()
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        idata = ie.fit(ie.models.onepl(responses(y), discrimination=True),
                                       random_seed=seed, progressbar=False,
                                       log_likelihood=False, target_accept=target_accept,
                                       tune=tune)
                    row = {"size": size, "dataset": seed, "target_accept": target_accept,
                           "tune": tune, "wall_s": round(time.perf_counter() - start, 1),
                           "mean_steps": float(idata.sample_stats["n_steps"].mean()),
                           **(posterior_checks(idata, "b", truth["b"]) if truth["b"] is not None
                              else {"coverage90": float("nan"), **{
                                  k: idata.attrs[k] for k in ("max_rhat", "min_ess_bulk",
                                                              "divergences")}})}
                    print(row, flush=True)
                    rows.append(row)
    table = pd.DataFrame(rows)
    table.to_csv(OUT, mode="a", header=not OUT.exists(), index=False)


if __name__ == "__main__":
    main()
