"""The 1PL's and 2PL's NUTS settings on nutpie: divergences, R-hat, bulk ESS, 90% coverage of
b and time at each target_accept and number of warm-up steps, per simulated data set:

    python benchmarks/target_accept.py --sizes 30x8 100x10 300x30 --datasets 4
    python benchmarks/target_accept.py --sizes 1000x20 --datasets 1
    python benchmarks/target_accept.py --sizes optdigits --datasets 3
    python benchmarks/target_accept.py --variant 1pl --targets 0.9 --tunes 500 300 \
        --sizes 30x100 --missing 0.1

Sizes are instances x models, answers from ``scale.simulate_binary`` (b ~ N(-1, 1); the 2PL:
log a ~ N(0, 0.5)), ``--missing`` of the cells missing at random, one data set per seed;
``optdigits``: notebook 01's model-comparison subset (152 instances spread over the accuracy
order x 58 models, real answers), one sampling seed per "data set". The defaults are the 2PL
runs of stop 33. Prints a line per fit and writes ``benchmarks/results/target_accept.csv``
(rows appended per run; coverage only where the truth is known).
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


def answers(size, seed, discrimination=True, missing=0.0):
    """(instances x models 0/1 matrix, truth) of a ``--sizes`` entry."""
    if size == "optdigits":
        wide = ie.datasets.load_optdigits_responses(as_frame=True)
        ranked = wide.mean(axis=1).sort_values(ascending=False, kind="stable").index
        return wide.loc[ranked[:: len(ranked) // 150]].to_numpy(float), {"b": None}
    n_items, n_resp = (int(v) for v in size.split("x"))
    return simulate_binary(n_items, n_resp, seed=seed, discrimination=discrimination,
                           missing=missing)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="+", default=["30x8", "100x10", "300x30"])
    parser.add_argument("--datasets", type=int, default=4)
    parser.add_argument("--variant", choices=["1pl", "2pl"], default="2pl")
    parser.add_argument("--targets", type=float, nargs="+", default=[0.95, 0.9])
    parser.add_argument("--tunes", type=int, nargs="+", default=[1000, 500])
    parser.add_argument("--missing", type=float, default=0.0, help="share of cells missing")
    args = parser.parse_args()
    discrimination = args.variant == "2pl"
    rows = []
    for size in args.sizes:
        for seed in range(args.datasets):
            y, truth = answers(size, seed, discrimination, args.missing)
            for target_accept in args.targets:
                for tune in args.tunes:
                    start = time.perf_counter()
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        idata = ie.fit(ie.models.onepl(responses(y),
                                                       discrimination=discrimination),
                                       random_seed=seed, progressbar=False,
                                       log_likelihood=False, target_accept=target_accept,
                                       tune=tune, posterior_predictive=False)
                    row = {"variant": args.variant, "size": size, "missing": args.missing,
                           "collapsed": idata.attrs.get("collapsed", 0),
                           "dataset": seed, "target_accept": target_accept,
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
