"""Regenerate a bundled response matrix of the model zoo on a robustness benchmark.

    python -m irteval.datasets.make_responses --dataset optdigits [--n-jobs 2]

Trains every configuration of ``irteval.robustness.zoo(population=True)`` with
stratified 5-fold cross-validation (``random_seed=0``) on the benchmark and writes
``data/<dataset>_responses.csv.gz`` (rows: instances, columns: models, 1 = correct).
"""

import argparse
import time
from pathlib import Path

from . import BENCHMARKS
from ..robustness import cross_val_responses, zoo


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", choices=sorted(BENCHMARKS), default="optdigits")
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None,
                        help="output file (default: the bundled data/<dataset>_responses.csv.gz)")
    args = parser.parse_args(argv)
    out = args.out or Path(__file__).parent / "data" / f"{args.dataset}_responses.csv.gz"
    X, y = BENCHMARKS[args.dataset](return_X_y=True)
    start = time.perf_counter()
    resp = cross_val_responses(zoo(population=True), X, y, cv=5, random_seed=0,
                               n_jobs=args.n_jobs)
    wide = resp.to_wide(rows="item").astype("int8")
    wide.to_csv(out, compression={"method": "gzip", "mtime": 0})
    acc = wide.mean().sort_values()
    print(f"wrote {out}: {wide.shape[0]} instances x {wide.shape[1]} models "
          f"in {time.perf_counter() - start:.0f} s")
    print(acc.round(4).to_string())


if __name__ == "__main__":
    main()
