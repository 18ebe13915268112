"""The exact collapsed 1PL sampler against NUTS on the full model, in the same run.

    python benchmarks/collapsed_vs_full.py [--items 300 --respondents 30 --chains 4]

Prints wall time (compile included), min bulk ESS per second and the largest difference of
posterior mean difficulties between the two; the figure of merit is the ESS/s ratio.
"""

import argparse
import time
import warnings

import numpy as np
import pandas as pd

import irteval as ie


def simulate(n_items, n_resp, seed):
    rng = np.random.default_rng(seed)
    b = rng.normal(-0.5, 1.2, n_items)
    theta = rng.normal(0, 1.3, n_resp)
    theta -= theta.mean()
    y = (rng.random((n_items, n_resp)) < 1 / (1 + np.exp(b[:, None] - theta[None, :])))
    return ie.Responses.from_wide(pd.DataFrame(y.astype(int)), rows="item")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=300)
    parser.add_argument("--respondents", type=int, default=30)
    parser.add_argument("--chains", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    model = ie.models.onepl(simulate(args.items, args.respondents, args.seed))
    rows, tables = {}, {}
    for name, collapse in (("collapsed", True), ("full", False)):
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            idata = ie.fit(model, chains=args.chains, random_seed=args.seed, collapse=collapse,
                           progressbar=False, log_likelihood=False,
                           posterior_predictive=False)
        wall = time.perf_counter() - start
        rows[name] = {"wall_s": wall, "min_ess_bulk": idata.attrs["min_ess_bulk"],
                      "max_rhat": idata.attrs["max_rhat"],
                      "ess_per_s": idata.attrs["min_ess_bulk"] / wall}
        tables[name] = ie.difficulty(idata)
    table = pd.DataFrame(rows).T
    print(f"{args.items} items x {args.respondents} respondents, {args.chains} chains x 1000 draws")
    print(table.round(3).to_string())
    ratio = rows["collapsed"]["ess_per_s"] / rows["full"]["ess_per_s"]
    print(f"ESS/s ratio collapsed/full: {ratio:.1f}")
    diff = (tables["collapsed"]["mean"] - tables["full"]["mean"]).abs().max()
    print(f"max |difference| of posterior mean difficulty: {diff:.3f}")


if __name__ == "__main__":
    main()
