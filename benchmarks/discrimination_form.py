"""The 2PL's log discriminations centred (log a ~ N(0, sigma_log_a)) or non-centred
(a = exp(sigma_log_a a_z), a_z ~ N(0, 1)) as items have more answers: divergences, how well
sigma_log_a mixes, the smallest bulk ESS, time. irteval's fit of each form
(``onepl(..., centred=)``) on 2PL answers (``scale.simulate_binary``: log a ~ N(0, 0.5),
b ~ N(-1, 1), theta ~ N(0, 1)), 4 x 1000 draws, its default warm-up and target_accept.
``--guessing``: the 3PL (4 options) on multiple-choice answers
(``calibration.simulate_multiple_choice``: log a ~ N(0, 0.3), c ~ Beta(5, 15)); ``--prior``:
2PL answers from the model's own prior (``calibration.simulate_onepl``), as in SBC.

    python benchmarks/discrimination_form.py                 # results/discrimination_form.csv
    python benchmarks/discrimination_form.py --guessing --sizes 50x100 50x300 50x1000 --seeds 0 1
    python benchmarks/discrimination_form.py --sd-log-a 0.3 --sizes 50x100 50x300 50x1000 \
        --seeds 0 1
    python benchmarks/discrimination_form.py --prior --sizes 10x200 50x300 --seeds 0 1 2 3 4 5
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import arviz as az
import numpy as np
import pandas as pd

import irteval as ie
from irteval.calibration import simulate_multiple_choice, simulate_onepl
from scale import simulate_binary

HERE = Path(__file__).parent
SIZES = ["300x30", "50x30", "50x60", "50x100", "300x100", "50x300", "50x1000", "50x2000"]


def row(size, seed, centred, guessing=False, sd_log_a=0.5, prior=False):
    n_items, n_resp = map(int, size.split("x"))
    if prior:
        resp, truth, _ = simulate_onepl(n_items, n_resp, np.random.default_rng([0, seed]),
                                        discrimination=True)
        options, sd_log_a = {}, round(float(truth["sigma_log_a"]), 3)
    elif guessing:
        resp = simulate_multiple_choice(n_items, n_resp, np.random.default_rng(seed))[0]
        options = {"guessing": True, "n_options": 4}
    else:
        wide = pd.DataFrame(simulate_binary(n_items, n_resp, seed=seed, discrimination=True,
                                            sd_log_a=sd_log_a)[0])
        resp = ie.Responses.from_wide(
            wide.rename(index=lambda i: f"i{i}", columns=lambda j: f"r{j}"), rows="item")
        options = {}
    start = time.perf_counter()
    fit = ie.fit(ie.models.onepl(resp, discrimination=True, centred=centred, **options),
                 random_seed=seed, log_likelihood=False, progressbar=False,
                 posterior_predictive=False)
    seconds = time.perf_counter() - start
    d = az.summary(fit, var_names=["sigma_log_a", "a", "b", "mu_b", "sigma_b", "theta"],
                   kind="diagnostics")
    return {"model": "3pl" if guessing else "2pl", "sd_log_a": 0.3 if guessing else sd_log_a,
            "data": "prior" if prior else "fixed",
            "size": size, "answers_per_item": n_resp, "seed": seed,
            "form": "centred" if centred else "non-centred", "seconds": round(seconds, 1),
            "divergences": int(fit.sample_stats["diverging"].sum()),
            "steps_per_draw": round(float(fit.sample_stats["n_steps"].mean()), 1),
            "rhat_sigma_log_a": d.loc["sigma_log_a", "r_hat"],
            "ess_sigma_log_a": d.loc["sigma_log_a", "ess_bulk"], "max_rhat": d["r_hat"].max(),
            "min_ess_bulk": d["ess_bulk"].min()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=SIZES, help="items x respondents")
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    parser.add_argument("--guessing", action="store_true", help="the 3PL, 4 options")
    parser.add_argument("--prior", action="store_true",
                        help="2PL answers from the model's prior (sigma_log_a ~ HN(0.5))")
    parser.add_argument("--sd-log-a", type=float, default=0.5,
                        help="the 2PL answers' spread of log a (the 3PL's is 0.3)")
    parser.add_argument("--out", help="default results/discrimination_form[_3pl|_sd<s>].csv")
    args = parser.parse_args()
    suffix = ("_3pl" if args.guessing else "_prior" if args.prior
              else "" if args.sd_log_a == 0.5 else f"_sd{args.sd_log_a}")
    out = args.out or HERE / "results" / f"discrimination_form{suffix}.csv"
    warnings.simplefilter("ignore")
    rows = []
    for size in args.sizes:
        for seed in args.seeds:
            for centred in (False, True):
                rows.append(row(size, seed, centred, args.guessing, args.sd_log_a, args.prior))
                print(rows[-1], flush=True)
                pd.DataFrame(rows).to_csv(out, index=False)
    table = pd.DataFrame(rows)
    print(table.to_string(index=False))
    print(table.groupby(["size", "form"])[["divergences", "steps_per_draw", "seconds",
                                            "rhat_sigma_log_a", "ess_sigma_log_a",
                                            "min_ess_bulk"]].median().to_string())


if __name__ == "__main__":
    main()
