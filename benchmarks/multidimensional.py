"""The multidimensional 2PL (issue 18) on simulated two-skill answers:

    python benchmarks/multidimensional.py               # 1000 respondents x 40 items, dims=2

Answers from :func:`irteval.calibration.simulate_multidimensional` (each instance needs one
main skill, loading LogNormal(0, 0.3), and the other a little, Uniform(0, 0.4); theta ~ N(0,
I), b ~ N(0, 1)); the truth is expressed in the model's frame (anchors: the first two
instances). Fits, NUTS 4 x 1000 on the default path, with the pointwise log-likelihood: the
two-skill model and the one-skill 2PL; then the 90% interval coverage of the loadings a (the
entries not fixed at 0), b and theta, R-hat, divergences, ``compare_models``, and mirt's
(Python, 1.2) two-factor EM beside ours on the rotation-free loadings products a_i . a_k
(correlation with the truth). Results: ``benchmarks/results/multidimensional.csv`` and
``multidimensional_compare.csv``.
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
from irteval.calibration import simulate_multidimensional

HERE = Path(__file__).parent


def products(a):
    """The upper triangle of A A' (unchanged by any rotation of the skills)."""
    return (a @ a.T)[np.triu_indices(len(a), 1)]


def mirt_loadings(wide, dims):
    import mirt

    start = time.perf_counter()
    fit = mirt.fit_mirt(wide.T.to_numpy().astype(int), model="2PL", n_factors=dims,
                        compute_standard_errors=False)
    seconds = time.perf_counter() - start
    coef = fit.coef()
    cols = [c for c in coef.columns if str(c).startswith(("a", "discrimination"))]
    return coef[cols].to_numpy(dtype=float), seconds, list(coef.columns)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--respondents", type=int, default=1000)
    parser.add_argument("--items", type=int, default=40)
    parser.add_argument("--dims", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    resp, truth = simulate_multidimensional(args.items, args.respondents, args.dims,
                                            np.random.default_rng(args.seed))
    fits, seconds = {}, {}
    for name, dims in ((f"{args.dims} skills", args.dims), ("2pl", 1)):
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            fits[name] = ie.fit(ie.models.onepl(resp, discrimination=True, dims=dims),
                                random_seed=args.seed, log_likelihood=True, progressbar=False,
                                posterior_predictive=False)
        seconds[name] = time.perf_counter() - start
        print(f"{name}: {seconds[name]:.0f} s", flush=True)
    idata = fits[f"{args.dims} skills"]
    post = idata.posterior.stack(sample=("chain", "draw"))
    free = ~np.all(post["a"].values == 0, axis=-1)  # (item, skill): not fixed at 0
    rows = []
    for kind, keep in (("a", free), ("b", None), ("theta", None)):
        draws = post[kind].values
        lo, hi = np.quantile(draws, [0.05, 0.95], axis=-1)
        mean, t = draws.mean(axis=-1), truth[kind]
        inside = (lo <= t) & (t <= hi)
        if keep is not None:
            inside, mean, t = inside[keep], mean[keep], t[keep]
        summary = az.summary(idata, var_names=[kind])
        rows.append({"parameter": kind, "n": int(inside.size),
                     "coverage90": float(inside.mean()),
                     "corr": float(np.corrcoef(mean.ravel(), t.ravel())[0, 1]),
                     "rmse": float(np.sqrt(((mean - t) ** 2).mean())),
                     "max_rhat": float(summary["r_hat"].max()),
                     "min_ess_bulk": float(summary["ess_bulk"].min())})
    table = pd.DataFrame(rows).set_index("parameter")
    table["divergences"] = int(idata.sample_stats["diverging"].sum())
    table["irteval_seconds"] = seconds[f"{args.dims} skills"]
    wide = resp.to_wide(rows="item")
    theirs, mirt_seconds, columns = mirt_loadings(wide, args.dims)
    ours = post["a"].values.mean(axis=-1)
    true_products = products(truth["a"])
    table["corr_products_irteval"] = float(np.corrcoef(products(ours), true_products)[0, 1])
    table["corr_products_mirt"] = (float(np.corrcoef(products(theirs), true_products)[0, 1])
                                   if theirs.shape == ours.shape else np.nan)
    table["mirt_seconds"] = mirt_seconds
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compare = ie.compare_models(fits)
    compare["fit_seconds"] = pd.Series(seconds)
    out = HERE / "results"
    table.round(4).to_csv(out / "multidimensional.csv")
    compare.drop(columns="warning", errors="ignore").round(4).to_csv(
        out / "multidimensional_compare.csv")
    print("mirt coef columns:", columns)
    print(table.round(3).T.to_string())
    print(compare.round(3).to_string())


if __name__ == "__main__":
    main()
