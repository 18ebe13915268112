"""Yen's Q3 and its posterior predictive checks (``irteval.local_dependence(top=)``): how often
``ppp`` < 0.05 and ``dependent`` (``ppp_max`` < 0.05) flag pairs of simulated Rasch answers
(20 instances x 300 models, complete and with 10% of cells missing), whether a pair where one
instance copies the other's answer for half the models is flagged, and what the largest |Q3|
of optdigits (5620 instances x 58 models) are.

    python benchmarks/local_dependence.py              # table in results/local_dependence.csv
    python benchmarks/local_dependence.py --sims 5     # quicker
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

import irteval as ie

sys.path.insert(0, str(Path(__file__).parents[1]))
from tests.conftest import quiet_fit, simulate  # noqa: E402


def responses(seed, missing, copy):
    """Rasch answers of 300 models to 20 instances; i1 copies i0's answer for a share
    ``copy`` of the models."""
    wide = simulate(20, 300, seed=seed, missing=missing)[0].to_wide(rows="item")
    copied = np.random.default_rng(100 + seed).random(300) < copy
    wide.iloc[1] = np.where(copied, wide.iloc[0], wide.iloc[1])
    return ie.Responses.from_wide(wide, respondent="model", rows="item")


def simulated(sims):
    rows = []
    for case, missing, copy in (("null", 0.0, 0.0), ("null, 10% missing", 0.1, 0.0),
                                ("i1 copies i0 for half", 0.0, 0.5)):
        for seed in range(sims):
            fit = quiet_fit(ie.models.onepl(responses(seed, missing, copy)), draws=250,
                            tune=300, chains=2, random_seed=seed)
            table = ie.local_dependence(fit, top=190, max_draws=100)
            others = table.drop(("i0", "i1")) if copy else table
            rows.append({"case": case, "seed": seed,
                         "share_ppp_below_0.05": (others["ppp"] < 0.05).mean(),
                         "others_dependent": int(others["dependent"].sum()),
                         "copied_q3": table.loc[("i0", "i1"), "q3"] if copy else np.nan,
                         "copied_ppp_max": table.loc[("i0", "i1"), "ppp_max"] if copy else np.nan,
                         "max_abs_q3_others": others["q3"].abs().max()})
    return pd.DataFrame(rows)


def optdigits():
    fit = ie.fit(ie.models.onepl(ie.datasets.load_optdigits_responses()), random_seed=0,
                 progressbar=False)
    start = time.perf_counter()
    table = ie.local_dependence(fit, top=20)
    print(f"optdigits, top=20: {time.perf_counter() - start:.1f} s")
    print(table.round(4).to_string())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, default=20, help="data sets per case")
    parser.add_argument("--no-optdigits", action="store_true")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    table = simulated(args.sims)
    table.to_csv(Path(__file__).parent / "results" / "local_dependence.csv", index=False)
    print(table.groupby("case", sort=False).agg(
        data_sets=("seed", "size"), share_ppp_below_005=("share_ppp_below_0.05", "mean"),
        data_sets_with_a_dependent_other=("others_dependent", lambda x: int((x > 0).sum())),
        copied_q3=("copied_q3", "mean"), copied_ppp_max=("copied_ppp_max", "max"),
        max_abs_q3_others=("max_abs_q3_others", "max")).round(3).to_string())
    if not args.no_optdigits:
        optdigits()


if __name__ == "__main__":
    main()
