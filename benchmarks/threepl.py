"""The 3PL / 4PL on simulated multiple-choice answers (issue 18):

    python benchmarks/threepl.py                 # 3PL, 1000 respondents x 30 items
    python benchmarks/threepl.py --slip          # 4PL
    python benchmarks/threepl.py --respondents 2000 --items 50    # the issue's size (~10 min)

Answers simulated by :func:`irteval.calibration.simulate_multiple_choice` from the 3PL (c_j ~
Beta(5, 15), mean 0.25: four options; a_j ~ LogNormal(0, 0.3), b_j ~ N(0, 1), theta ~ N(0,
1)), with ``--slip`` a ceiling d_j = 1 - s_j (1 - c_j), s_j ~ Beta(1, 19).
Fits, each NUTS 4 x ``--draws`` on the default path, in a fresh process:
the true model (``guessing=True, n_options=4`` [``slip=True``]), the 2PL and the 1PL; then
``compare_models`` (on the pointwise log-likelihood of 250 draws a chain, to bound memory:
2000 x 50 answers x 8000 draws would take 6.4 GB a fit), ``item_fit`` of each (share of items
flagged), the true model's 90% interval coverage of b, a, c (d), R-hat (also over every
parameter, abilities included), divergences, and the correlation of the posterior means with
the truth; beside them mirt's (Python, 1.2) EM estimates of the same model, their correlation
with the truth and how many fall inside our 90% intervals. Results:
``benchmarks/results/threepl[_4pl][_RxI][_Ndraws].csv`` (one row per parameter kind; size and
draws in the name unless they are the defaults, 1000 x 30 and 1000) and the same name with
``_compare``.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import arviz as az
import numpy as np
import pandas as pd
import pymc as pm

import irteval as ie
from irteval.calibration import simulate_multiple_choice

HERE = Path(__file__).parent


def mirt_fit(wide, slip):
    import mirt

    start = time.perf_counter()
    fit = mirt.fit_mirt(wide.T.to_numpy().astype(int), model="4PL" if slip else "3PL",
                        compute_standard_errors=False)
    seconds = time.perf_counter() - start
    coef = fit.coef()
    out = {"b": coef["difficulty"].to_numpy(), "a": coef["discrimination"].to_numpy(),
           "c": coef["guessing"].to_numpy()}
    if slip:
        out["d"] = coef["upper"].to_numpy()
    return out, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--respondents", type=int, default=1000)
    parser.add_argument("--items", type=int, default=30)
    parser.add_argument("--slip", action="store_true", help="the 4PL")
    parser.add_argument("--draws", type=int, default=1000, help="per chain")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    resp, truth = simulate_multiple_choice(
        args.items, args.respondents, np.random.default_rng(args.seed), slip=args.slip)
    wide = resp.to_wide(rows="item")
    ours, mirt_seconds = mirt_fit(wide, args.slip)  # first: a missing peer fails at once
    specs = {"true": {"discrimination": True, "guessing": True, "n_options": 4,
                      "slip": args.slip},
             "2pl": {"discrimination": True}, "1pl": {}}
    fits, thinned, seconds = {}, {}, {}
    for name, kw in specs.items():
        start = time.perf_counter()
        model = ie.models.onepl(resp, **kw)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            fits[name] = ie.fit(model, random_seed=args.seed, draws=args.draws,
                                log_likelihood=False, posterior_predictive=False,
                                progressbar=False)
        seconds[name] = time.perf_counter() - start
        print(f"{name}: {seconds[name]:.0f} s", flush=True)
        thinned[name] = fits[name].sel(draw=slice(None, None, max(1, args.draws // 250)))
        pm.compute_log_likelihood(thinned[name], model=model, progressbar=False)
    true = fits["true"]
    kinds = ["b", "a", "c"] + (["d"] if args.slip else [])
    summary = az.summary(true, var_names=kinds, hdi_prob=0.9)
    stats = true.sample_stats
    every = az.summary(true, kind="diagnostics")
    rows = []
    for kind in kinds:
        part = summary.loc[[f"{kind}[{q}]" for q in wide.index]]
        lo, hi, mean = part["hdi_5%"].to_numpy(), part["hdi_95%"].to_numpy(), part["mean"]
        t, m = truth[kind], ours[kind]
        rows.append({"parameter": kind, "coverage90": float(((lo <= t) & (t <= hi)).mean()),
                     "corr_irteval": float(np.corrcoef(mean, t)[0, 1]),
                     "corr_mirt": float(np.corrcoef(m, t)[0, 1]),
                     "rmse_irteval": float(np.sqrt(((mean - t) ** 2).mean())),
                     "rmse_mirt": float(np.sqrt(((m - t) ** 2).mean())),
                     "mirt_inside_ours": float(((lo <= m) & (m <= hi)).mean()),
                     "max_rhat": float(part["r_hat"].max()),
                     "min_ess_bulk": float(part["ess_bulk"].min())})
    table = pd.DataFrame(rows).set_index("parameter")
    table.attrs = {}
    table["max_rhat_every_parameter"] = float(every["r_hat"].max())
    table["min_ess_bulk_every_parameter"] = float(every["ess_bulk"].min())
    table["divergences"] = int(stats["diverging"].sum())
    table["irteval_seconds"] = seconds["true"]
    table["mirt_seconds"] = mirt_seconds
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compare = ie.compare_models(thinned)
    flagged = {name: ie.item_fit(idata)["misfit"].mean() for name, idata in fits.items()}
    compare["items_flagged_by_item_fit"] = pd.Series(flagged)
    compare["fit_seconds"] = pd.Series(seconds)
    tag = ("_4pl" if args.slip else "") + (
        "" if (args.respondents, args.items) == (1000, 30) else f"_{args.respondents}x{args.items}"
    ) + ("" if args.draws == 1000 else f"_{args.draws}draws") + (
        "" if args.seed == 0 else f"_seed{args.seed}")
    out = HERE / "results"
    table.round(4).to_csv(out / f"threepl{tag}.csv")
    compare.round(4).to_csv(
        out / f"threepl{tag}_compare.csv")
    print(table.round(3).to_string())
    print(compare.round(3).to_string())


if __name__ == "__main__":
    main()
