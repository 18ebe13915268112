"""Regenerate the bundled optdigits response matrix.

    python -m irteval.datasets.make_responses [--n-jobs 2]

Trains every configuration of ``irteval.robustness.zoo(population=True)`` with
stratified 5-fold cross-validation (``random_state=0``) on optdigits and writes
``data/optdigits_responses.csv.gz`` (rows: instances, columns: models, 1 = correct).
"""

import argparse
from pathlib import Path

from . import load_optdigits
from ..robustness import cross_val_responses, zoo


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).parent / "data" / "optdigits_responses.csv.gz")
    args = parser.parse_args(argv)
    X, y = load_optdigits(return_X_y=True)
    resp = cross_val_responses(zoo(population=True), X, y, cv=5, random_state=0,
                               n_jobs=args.n_jobs)
    wide = resp.to_wide(rows="item").astype("int8")
    wide.to_csv(args.out, compression={"method": "gzip", "mtime": 0})
    acc = wide.mean().sort_values()
    print(f"wrote {args.out}: {wide.shape[0]} instances x {wide.shape[1]} models")
    print(acc.round(4).to_string())


if __name__ == "__main__":
    main()
