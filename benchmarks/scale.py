"""Speed and accuracy against the peer tools, one fresh process per case (issue 14).

    python benchmarks/scale.py                    # every case, then the target table
    python benchmarks/scale.py --cases irt_map    # the cases whose name starts so
    python benchmarks/scale.py --run irt_map:1000x20:irteval    # one case, JSON on stdout

Every case runs in its own Python process: imports and data simulation are done before the
clock starts; model building, compilation and fitting are inside it (a user's first fit in a
fresh process). Data are seeded and the same for every tool of a case. Binary IRT: theta ~
N(0, 1) for the models, b ~ N(-1, 1) for the instances (2PL: log a ~ N(0, 0.5)), items x
respondents given as ``IxJ``; accuracy of difficulties after matching the location (the tools
anchor it differently): correlation and RMSE; posterior fits add 90% coverage, R-hat and the
smallest bulk ESS. Bradley-Terry: 1000 players x 20 rounds, score = strength + Gumbel noise.
Peers (not dependencies of irteval): ``pip install girth choix mirt`` (mirt 1.2:
``mirt.fit_mirt``, EM).

The target table compares each irteval case with its peer in the same run (ratio of wall
times) or with an absolute limit, and marks it met / not met. Results go to
``benchmarks/results/scale.csv`` (one row per case) and the table to stdout.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).parent


# ---------------------------------------------------------------------- data
def simulate_binary(n_items, n_resp, seed=0, missing=0.0, discrimination=False, sd_log_a=0.5):
    rng = np.random.default_rng(seed)
    theta = rng.normal(0, 1, n_resp)
    b = rng.normal(-1, 1, n_items)
    a = np.exp(rng.normal(0, sd_log_a, n_items)) if discrimination else np.ones(n_items)
    y = np.empty((n_items, n_resp))
    for rows in np.array_split(np.arange(n_items), max(1, y.size // 2_000_000)):
        # in blocks, so that the peak memory of a case is the tool's, not the simulation's
        p = 1 / (1 + np.exp(-a[rows, None] * (theta - b[rows, None])))
        block = (rng.random(p.shape) < p).astype(float)
        if missing:
            block[rng.random(p.shape) < missing] = np.nan
        y[rows] = block
    return y, {"b": b, "a": a}


def simulate_bt(n_players=1000, n_rounds=20, seed=0):
    rng = np.random.default_rng(seed)
    strength = rng.normal(0, 1, n_players)
    return strength[:, None] + rng.gumbel(size=(n_players, n_rounds)), strength


def accuracy(estimate, truth, prefix=""):
    estimate, truth = np.asarray(estimate, float), np.asarray(truth, float)
    shift = np.mean(estimate - truth)
    return {f"{prefix}corr": float(np.corrcoef(estimate, truth)[0, 1]),
            f"{prefix}rmse": float(np.sqrt(np.mean((estimate - shift - truth) ** 2)))}


def posterior_checks(idata, name, truth):
    draws = idata.posterior[name]
    mean = draws.mean(("chain", "draw")).values
    lower, upper = draws.quantile([0.05, 0.95], ("chain", "draw")).values
    shift = float(np.mean(mean - truth))
    out = {"coverage90": float(np.mean((lower - shift <= truth) & (truth <= upper - shift)))}
    if "max_rhat" in idata.attrs:
        out.update(max_rhat=idata.attrs["max_rhat"], min_ess_bulk=idata.attrs["min_ess_bulk"],
                   divergences=idata.attrs["divergences"])
    return out


# ---------------------------------------------------------------------- cases
def responses(y):
    import irteval as ie

    return ie.Responses.from_wide(pd.DataFrame(y), respondent="model", item="instance",
                                  rows="item")


def irteval_binary(y, truth, method, discrimination=False, **kwargs):
    import irteval as ie

    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        idata = ie.fit(ie.models.onepl(responses(y), discrimination=discrimination),
                       method=method, random_seed=0, progressbar=False, log_likelihood=False,
                       posterior_predictive=False, **kwargs)
    wall = time.perf_counter() - start
    b = idata.posterior["b"].mean(("chain", "draw")).values
    row = {"wall_s": wall, "sampler": idata.attrs["irteval_method"],
           "collapsed": idata.attrs.get("collapsed", 0), **accuracy(b, truth["b"])}
    if discrimination:
        a = idata.posterior["a"].mean(("chain", "draw")).values
        row.update(accuracy(np.log(a), np.log(truth["a"]), "log_a_"))
    if method in ("nuts", "laplace"):
        row.update(posterior_checks(idata, "b", truth["b"]))
    if "sample_stats" in idata.groups() and "n_steps" in idata.sample_stats:  # = gradients
        row["gradients"] = int(idata.sample_stats["n_steps"].sum())
    return row


def girth_rasch(y, truth):
    from girth import rasch_mml, tag_missing_data

    start = time.perf_counter()
    data = (tag_missing_data(np.where(np.isnan(y), 99, y).astype(int), [0, 1])
            if np.isnan(y).any() else y.astype(int))
    est = rasch_mml(data)["Difficulty"]
    return {"wall_s": time.perf_counter() - start, **accuracy(est, truth["b"])}


def mirt_2pl(y, truth):
    import mirt

    start = time.perf_counter()  # respondents x items; point estimates only, like irteval's MAP
    fit = mirt.fit_mirt(y.T.astype(int), model="2PL", compute_standard_errors=False)
    wall = time.perf_counter() - start
    coef = fit.coef()
    b, a = coef["difficulty"].to_numpy(), coef["discrimination"].to_numpy()
    return {"wall_s": wall, **accuracy(b, truth["b"]),
            **accuracy(np.log(np.abs(a)), np.log(truth["a"]), "log_a_")}


def bt_cases(kind):
    import irteval as ie

    score, strength = simulate_bt()
    wide = pd.DataFrame(score, index=[f"p{i}" for i in range(len(score))])
    start = time.perf_counter()
    if kind == "choix":
        import choix

        scores = ie.Scores.from_wide(wide)  # the same pair table, counted by irteval
        pairs = scores.pairs()
        start = time.perf_counter()
        i, j = pairs["i"].to_numpy(), pairs["j"].to_numpy()
        dense = np.zeros((len(score), len(score)))
        dense[i, j] = pairs["wins_i"].to_numpy()  # choix: dense[a, b] = times a beat b
        dense[j, i] = pairs["matches"].to_numpy() - pairs["wins_i"].to_numpy()
        est = choix.ilsr_pairwise_dense(dense, alpha=0.01)
        return {"wall_s": time.perf_counter() - start, **accuracy(est, strength)}
    scores = ie.Scores.from_wide(wide)
    if kind == "mle":
        table = ie.mle_epp(scores)
        return {"wall_s": time.perf_counter() - start, **accuracy(table["epp"], strength)}
    likelihood, method = kind.split("_", 1)
    likelihood = {"pl": "plackett_luce", "pairwise": "pairwise"}[likelihood]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        idata = ie.fit(ie.models.bradley_terry(scores, likelihood=likelihood), method=method,
                       random_seed=0, progressbar=False, log_likelihood=False,
                       posterior_predictive=False)
    row = {"wall_s": time.perf_counter() - start, "sampler": idata.attrs["irteval_method"],
           **accuracy(idata.posterior["epp"].mean(("chain", "draw")).values, strength)}
    if method == "nuts":
        row.update(posterior_checks(idata, "epp", strength - strength.mean()))
    return row


def continuous_case(n, n_items):
    import irteval as ie

    rng = np.random.default_rng(0)
    gamma = rng.uniform(0.8, 2.0, n_items) * np.where(np.arange(n_items) < n_items - 1, 1, -1)
    alpha = np.sign(gamma) * rng.uniform(0.7, 2.5, n_items)
    beta, theta = rng.normal(0, 1, n_items), rng.normal(0, 1, n)
    z = gamma * (theta[:, None] - beta) + rng.normal(0, 1, (n, n_items)) * np.abs(gamma / alpha)
    start = time.perf_counter()
    perf = ie.Responses.from_wide(pd.DataFrame(1 / (1 + np.exp(-z))), kind="continuous",
                                  bounds=(0, 1), clip=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        idata = ie.fit(ie.models.continuous_irt(perf), random_seed=0, progressbar=False,
                       log_likelihood=False, posterior_predictive=False)
    return {"wall_s": time.perf_counter() - start, "sampler": idata.attrs["irteval_method"],
            **accuracy(idata.posterior["gamma"].mean(("chain", "draw")).values, gamma),
            "max_rhat": idata.attrs["max_rhat"], "min_ess_bulk": idata.attrs["min_ess_bulk"]}


def run_case(name):
    """One case by name ``group:size:tool`` -> dict of measurements."""
    group, size, tool = name.split(":")
    import irteval  # noqa: F401  (imports before the clock)
    import xarray as xr

    xr.DataArray(np.zeros(1))  # xarray imports dask (when installed) on first use: an import

    if group == "bt":
        return bt_cases(tool)
    if group == "continuous":
        return continuous_case(*(int(v) for v in size.split("x")))
    n_items, n_resp = (int(v) for v in size.split("x"))
    missing = 0.1 if "missing" in group else 0.0
    two = group.startswith("2pl")
    y, truth = simulate_binary(n_items, n_resp, missing=missing, discrimination=two)
    if tool == "girth":
        return girth_rasch(y, truth)
    if tool == "mirt":
        return mirt_2pl(y, truth)
    method = {"map": "map", "laplace": "laplace", "nuts": "nuts"}[group.split("_")[-1]]
    # "dense": the 1PL's dense density; "numpyro": the PyMC model through JAX (a GPU if JAX
    # sees one: benchmarks/gpu.py); "pymc": PyMC's own NUTS (the default without nutpie)
    kwargs = {"dense": {"collapse": False}, "numpyro": {"sampler": "numpyro"},
              "pymc": {"sampler": "pymc"}}.get(tool, {})
    return irteval_binary(y, truth, method, discrimination=two, **kwargs)


# ---------------------------------------------------------------------- the plan
SIZES = ("1000x20", "5000x50", "20000x200", "20000x2000")
CASES = [
    *(f"1pl_map:{s}:{tool}" for s in SIZES for tool in ("girth", "irteval")),
    *(f"1pl_laplace:{s}:irteval" for s in SIZES[:3]),
    "1pl_nuts:1000x20:irteval", "1pl_nuts:20000x200:irteval", "1pl_nuts:30x100:irteval",
    *(f"1pl_missing_nuts:{s}:irteval" for s in ("1000x20", "5000x50")),
    *(f"1pl_missing_map:{s}:{tool}" for s in ("1000x20", "5000x50")
      for tool in ("girth", "irteval")),
    *(f"2pl_nuts:{s}:irteval" for s in ("1000x20", "5000x50")),
    "2pl_map:2000x50:mirt", "2pl_map:2000x50:irteval",
    "bt:1000x20:choix", "bt:1000x20:mle", "bt:1000x20:pl_map", "bt:1000x20:pairwise_map",
    "bt:1000x20:pl_nuts",
    "continuous:6712x8:irteval",
]

#: (target, case, peer case or None, limit: a ratio to the peer or seconds)
TARGETS = [
    *((f"1PL MAP {s} <= girth rasch_mml", f"1pl_map:{s}:irteval", f"1pl_map:{s}:girth", 1.0)
      for s in SIZES),
    ("1PL NUTS 1000x20 < 5 s", "1pl_nuts:1000x20:irteval", None, 5),
    ("1PL NUTS 20000x200 < 30 s", "1pl_nuts:20000x200:irteval", None, 30),
    ("1PL NUTS raschdat1 size (30 x 100) < 3 s", "1pl_nuts:30x100:irteval", None, 3),
    *((f"1PL MAP 10% missing {s} <= girth rasch_mml", f"1pl_missing_map:{s}:irteval",
       f"1pl_missing_map:{s}:girth", 1.0) for s in ("1000x20", "5000x50")),
    ("1PL NUTS 10% missing 1000x20 < 15 s", "1pl_missing_nuts:1000x20:irteval", None, 15),
    ("1PL NUTS 10% missing 5000x50 < 120 s", "1pl_missing_nuts:5000x50:irteval", None, 120),
    ("2PL NUTS 1000x20 < 15 s", "2pl_nuts:1000x20:irteval", None, 15),
    ("2PL NUTS 5000x50 < 120 s", "2pl_nuts:5000x50:irteval", None, 120),
    ("2PL fast path 2000x50 <= 5 x mirt EM", "2pl_map:2000x50:irteval", "2pl_map:2000x50:mirt",
     5.0),
    ("BT MAP (Plackett-Luce) <= choix", "bt:1000x20:pl_map", "bt:1000x20:choix", 1.0),
    ("BT MAP (pairwise) <= choix", "bt:1000x20:pairwise_map", "bt:1000x20:choix", 1.0),
    ("mle_epp <= 2 x choix", "bt:1000x20:mle", "bt:1000x20:choix", 2.0),
    ("BT NUTS 1000 x 20 < 30 s", "bt:1000x20:pl_nuts", None, 30),
    ("continuous 6712x8 < 60 s", "continuous:6712x8:irteval", None, 60),
    ("1PL MAP 20000x2000 peak memory < 2 GB", "1pl_map:20000x2000:irteval", None, "2GB"),
]


def child(name):
    row = run_case(name)
    row["peak_rss_gb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2
    print(json.dumps({"case": name, **row}))


def collect(cases, timeout):
    rows = []
    for name in cases:
        try:
            done = subprocess.run([sys.executable, __file__, "--run", name], capture_output=True,
                                  text=True, timeout=timeout)
            line = [x for x in done.stdout.splitlines() if x.startswith("{")]
            row = json.loads(line[-1]) if line else {"case": name,
                                                     "error": done.stderr[-300:]}
        except subprocess.TimeoutExpired:
            row = {"case": name, "error": f"timeout after {timeout} s"}
        print({k: round(v, 3) if isinstance(v, float) else v for k, v in row.items()},
              flush=True)
        rows.append(row)
    return pd.DataFrame(rows).set_index("case")


def targets(table):
    out = []
    for target, case, peer, limit in TARGETS:
        if case not in table.index:
            out.append({"target": target, "measured": "not run", "met": "not run"})
            continue
        if "wall_s" not in table or pd.isna(table.loc[case, "wall_s"]):
            error = str(table.loc[case].get("error", ""))
            timed_out = error.startswith("timeout")
            out.append({"target": target, "measured": error.splitlines()[-1][:80] if error
                        else "no result", "met": False if timed_out else "error"})
            continue
        wall = table.loc[case, "wall_s"]
        if limit == "2GB":
            value = table.loc[case, "peak_rss_gb"]
            out.append({"target": target, "measured": f"{value:.2f} GB", "met": value < 2})
        elif peer is None:
            out.append({"target": target, "measured": f"{wall:.1f} s", "met": wall < limit})
        elif peer in table.index and not pd.isna(table.loc[peer, "wall_s"]):
            ratio = wall / table.loc[peer, "wall_s"]
            acc = ""
            if "rmse" in table and not pd.isna(table.loc[peer, "rmse"]):
                acc = f"; RMSE {table.loc[case, 'rmse']:.3f} vs {table.loc[peer, 'rmse']:.3f}"
            out.append({"target": target, "measured": f"{wall:.3f} s = {ratio:.2f} x peer{acc}",
                        "met": ratio <= limit})
        else:
            out.append({"target": target, "measured": f"{wall:.3f} s (peer not run)",
                        "met": "no peer"})
    return pd.DataFrame(out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", help="run one case in this process (JSON on stdout)")
    parser.add_argument("--cases", nargs="*", default=[],
                        help="run the cases whose names start with these (default: all)")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per case")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "scale.csv")
    args = parser.parse_args(argv)
    if args.run:
        return child(args.run)
    chosen = [c for c in CASES if not args.cases or c.startswith(tuple(args.cases))]
    table = collect(chosen, args.timeout)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if args.out.exists() and args.cases:  # a partial run updates the previous table
        old = pd.read_csv(args.out, index_col="case")
        table = pd.concat([old.drop(index=table.index, errors="ignore"), table])
    table.to_csv(args.out)
    report = targets(table)
    print(report.to_string(index=False))
    report.to_csv(args.out.with_name("scale_targets.csv"), index=False)


if __name__ == "__main__":
    main()
