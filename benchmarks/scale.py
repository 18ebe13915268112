"""Speed and accuracy at the papers' sizes, against the Python peers, in one run.

    python benchmarks/scale.py [--sizes 1000x20 5000x50 20000x200 20000x2000] [--nuts-max 5000000]
                               [--parts irt bt continuous] [--out benchmarks/results/scale.csv]

1PL (Rasch) on seeded simulated data (theta ~ N(0, 1) for the models, b ~ N(-1, 1) for the
instances): girth's Rasch MML (point estimates) against irteval's MAP on the collapsed model
(the difficulties' conditional modes) and, up to ``--nuts-max`` cells, irteval's exact collapsed
NUTS (4 x 1000). Every method's difficulties are compared with the truth after matching the
location (the methods anchor it differently: girth on the ability distribution, irteval on the
models' abilities summing to zero): Pearson correlation and RMSE. NUTS adds 90% interval
coverage, R-hat and bulk ESS per second. MAP runs twice on the same shape: the first run
includes PyTensor's compilation, the second reads its cache ("warm"); NUTS runs once ("cold",
compiling nutpie's model; ``compile_s`` is that compilation alone), and at 1000 x 20 again
("warm": irteval reuses the compiled model for data of the same shape). Ratios against
girth are the figures of merit. Peak memory of each run is read from the process.

Bradley-Terry (``bt``): 1000 players x 20 rounds, scores = strength + Gumbel noise; the pair
table (``Scores.pairs``), choix's ILSR on the dense win matrix (its MAP, alpha = 0.01) against
irteval's MAP (pairwise and Plackett-Luce) and Plackett-Luce NUTS. Continuous IRT
(``continuous``): 200 datasets x 20 algorithms and 6712 x 8, NUTS.
"""

from __future__ import annotations

import argparse
import resource
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

import irteval as ie


def simulate(n_items, n_resp, seed=0, missing=0.0):
    rng = np.random.default_rng(seed)
    theta = rng.normal(0, 1, n_resp)
    b = rng.normal(-1, 1, n_items)
    y = (rng.random((n_items, n_resp)) < 1 / (1 + np.exp(-(theta - b[:, None])))).astype(float)
    if missing:
        y[rng.random(y.shape) < missing] = np.nan
    return y, b


def accuracy(estimate, truth):
    shift = np.mean(estimate - truth)
    return {"corr": float(np.corrcoef(estimate, truth)[0, 1]),
            "rmse": float(np.sqrt(np.mean((estimate - shift - truth) ** 2)))}


def peak_gb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2


def run_girth(y, truth):
    from girth import rasch_mml

    start = time.perf_counter()
    est = rasch_mml(y.astype(int))["Difficulty"]
    return {"method": "girth rasch_mml", "wall_s": time.perf_counter() - start,
            **accuracy(est, truth)}


def run_girth_missing(y, truth):
    from girth import rasch_mml, tag_missing_data

    start = time.perf_counter()
    tagged = tag_missing_data(np.where(np.isnan(y), 99, y).astype(int), [0, 1])
    est = rasch_mml(tagged)["Difficulty"]
    return {"method": "girth rasch_mml (missing tagged)", "wall_s": time.perf_counter() - start,
            **accuracy(est, truth)}


def nutpie_compile_seconds(y):
    """Time to compile the collapsed model with nutpie alone (part of the NUTS wall time)."""
    import nutpie

    from irteval.collapsed import marginal_model

    resp = ie.Responses.from_wide(pd.DataFrame(y), respondent="model", item="instance",
                                  rows="item")
    marginal = marginal_model(ie.models.onepl(resp))
    start = time.perf_counter()
    nutpie.compile_pymc_model(marginal)
    return time.perf_counter() - start


def run_irteval(y, truth, method, attempts=("cold", "warm"), label="", model_kwargs=None,
                **kwargs):
    rows = []
    for attempt in attempts:
        start = time.perf_counter()
        wide = pd.DataFrame(y)
        resp = ie.Responses.from_wide(wide, respondent="model", item="instance", rows="item")
        built = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            idata = ie.fit(ie.models.onepl(resp, **(model_kwargs or {})), method=method,
                           random_seed=0, progressbar=False, log_likelihood=False, **kwargs)
        wall = time.perf_counter() - start
        b = idata.posterior["b"]
        row = {"method": f"irteval {method}{label} ({attempt})", "wall_s": wall,
               "data_s": built - start, "sampler": idata.attrs["irteval_method"],
               **accuracy(b.mean(("chain", "draw")).values, truth)}
        if method in ("nuts", "advi"):
            lower, upper = b.quantile([0.05, 0.95], ("chain", "draw")).values
            shift = float(np.mean(b.mean(("chain", "draw")).values - truth))
            row["coverage90"] = float(np.mean((lower - shift <= truth) & (truth <= upper - shift)))
        if method == "nuts":
            row["max_rhat"] = idata.attrs["max_rhat"]
            row["min_ess_bulk"] = idata.attrs["min_ess_bulk"]
            row["ess_per_s"] = idata.attrs["min_ess_bulk"] / wall
        rows.append(row)
    return rows


def run_bt(n_players=1000, n_rounds=20, seed=0):
    import choix

    rng = np.random.default_rng(seed)
    strength = rng.normal(0, 1, n_players)
    scores = strength[:, None] + rng.gumbel(size=(n_players, n_rounds))
    wide = pd.DataFrame(scores, index=[f"p{i}" for i in range(n_players)])
    board = ie.Scores.from_wide(wide, player="player", round="round", rows="player")
    rows = []
    start = time.perf_counter()
    pairs = board.pairs()
    rows.append({"method": "irteval Scores.pairs", "wall_s": time.perf_counter() - start})
    start = time.perf_counter()
    i, j = pairs["i"].to_numpy(), pairs["j"].to_numpy()
    dense = np.zeros((n_players, n_players))
    dense[i, j] = pairs["wins_i"].to_numpy()  # choix: dense[a, b] = times a beat b
    dense[j, i] = pairs["matches"].to_numpy() - pairs["wins_i"].to_numpy()
    est = choix.ilsr_pairwise_dense(dense, alpha=0.01)
    rows.append({"method": "choix ilsr_pairwise_dense", "wall_s": time.perf_counter() - start,
                 **accuracy(est, strength)})
    for likelihood, method in (("pairwise", "map"), ("plackett_luce", "map"),
                               ("plackett_luce", "nuts")):
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            idata = ie.fit(ie.models.bradley_terry(board, likelihood=likelihood), method=method,
                           random_seed=0, progressbar=False, log_likelihood=False)
        epp = idata.posterior["epp"].mean(("chain", "draw")).values
        row = {"method": f"irteval {likelihood} {method}", "wall_s": time.perf_counter() - start,
               **accuracy(epp, strength)}
        if method == "nuts":
            row.update(max_rhat=idata.attrs["max_rhat"], min_ess_bulk=idata.attrs["min_ess_bulk"])
        rows.append(row)
    return [dict(r, size=f"{n_players} players x {n_rounds} rounds") for r in rows]


def run_continuous(n, n_items, seed=0):
    rng = np.random.default_rng(seed)
    gamma = rng.uniform(0.8, 2.0, n_items) * np.where(np.arange(n_items) < n_items - 1, 1, -1)
    alpha = np.sign(gamma) * rng.uniform(0.7, 2.5, n_items)
    beta = rng.normal(0, 1, n_items)
    theta = rng.normal(0, 1, n)
    z = gamma * (theta[:, None] - beta) + rng.normal(0, 1, (n, n_items)) * np.abs(gamma / alpha)
    perf = ie.Responses.from_wide(pd.DataFrame(1 / (1 + np.exp(-z))), respondent="dataset",
                                  item="algorithm", kind="continuous", bounds=(0, 1), clip=1e-12)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        idata = ie.fit(ie.models.continuous_irt(perf), random_seed=0, progressbar=False,
                       log_likelihood=False)
    gamma_hat = idata.posterior["gamma"].mean(("chain", "draw")).values
    method = f"irteval continuous NUTS ({idata.attrs['irteval_method']})"
    return [{"size": f"{n} x {n_items}", "method": method,
             "wall_s": time.perf_counter() - start, **accuracy(gamma_hat, gamma),
             "max_rhat": idata.attrs["max_rhat"], "min_ess_bulk": idata.attrs["min_ess_bulk"]}]


def report(found, size):
    for row in found:
        row.update(size=size, peak_rss_gb=peak_gb())
        print({k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()},
              flush=True)
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=["1000x20", "5000x50", "20000x200",
                                                       "20000x2000"])
    parser.add_argument("--nuts-max", type=int, default=5_000_000,
                        help="run NUTS only up to this many cells")
    parser.add_argument("--parts", nargs="+",
                        default=["irt", "missing", "bt", "continuous"])
    parser.add_argument("--missing-size", default="5000x50",
                        help="size of the variant with 10%% of the cells missing")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" /
                        "scale.csv")
    args = parser.parse_args(argv)
    rows = []
    for size in args.sizes if "irt" in args.parts else []:
        n_items, n_resp = (int(v) for v in size.split("x"))
        y, truth = simulate(n_items, n_resp)
        found = [run_girth(y, truth), *run_irteval(y, truth, "map")]
        if n_items * n_resp <= args.nuts_max:
            small = n_items * n_resp <= 20_000
            nuts = run_irteval(y, truth, "nuts", attempts=("cold", "warm") if small else
                               ("cold",))
            nuts[0]["compile_s"] = nutpie_compile_seconds(y)  # part of the cold run
            found += nuts
            if small:  # fewer draws, still ESS >= 400; the compiled model is reused (warm)
                found += run_irteval(y, truth, "nuts", attempts=("warm",), label=" 4 x 300",
                                     draws=300, tune=300)
        if n_items * n_resp >= 4_000_000:
            found += run_irteval(y, truth, "advi", attempts=("cold",), label=" minibatch 10^4",
                                 model_kwargs={"batch_size": 10_000}, draws=250)
        rows += report(found, size)
    if "missing" in args.parts:
        n_items, n_resp = (int(v) for v in args.missing_size.split("x"))
        y, truth = simulate(n_items, n_resp, missing=0.1)
        size = f"{args.missing_size}, 10% missing"
        found = [run_girth_missing(y, truth),
                 *run_irteval(y, truth, "advi", attempts=("cold",), draws=250),
                 *run_irteval(y, truth, "nuts", attempts=("cold",), sampler="nutpie")]
        rows += report(found, size)
    if "bt" in args.parts:
        rows += run_bt()
        print(rows[-5:], flush=True)
    if "continuous" in args.parts:
        for n, n_items in ((200, 20), (6712, 8)):
            rows += run_continuous(n, n_items)
            print(rows[-1], flush=True)
    table = pd.DataFrame(rows).set_index(["size", "method"])
    is_girth = table.index.get_level_values("method").str.startswith("girth")
    if is_girth.any():
        girth = table[is_girth]["wall_s"].droplevel("method")
        table["time_vs_girth"] = table["wall_s"] / girth.reindex(
            table.index.get_level_values("size")).to_numpy()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out)
    print(table.round(3).to_string())


if __name__ == "__main__":
    main()
