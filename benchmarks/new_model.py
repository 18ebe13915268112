"""Scoring held-out models from a few instances (issue 17):

    python benchmarks/new_model.py                       # optdigits, 5 folds
    python benchmarks/new_model.py --dataset letter wall_robot_navigation --folds 5
    (a run replaces the rows of the datasets it ran in new_model.csv and keeps the others)
    python benchmarks/new_model.py --adaptive --models 12   # adaptive test vs random, optdigits
    python benchmarks/new_model.py --adaptive --max-items 800 --rules stratified

Leave-models-out by folds (a cheaper stand-in for leave-one-model-out: the 58 models of a
bundled response matrix split into ``--folds`` groups at random; for each group the 1PL is
fitted to the other models and every model of the group is scored as new). For every held-out
model, strategy (stratified, information, random) and n in 25/50/100/200: the absolute error of
the posterior mean of its full accuracy and whether the 90% interval covers the true full
accuracy; beside them the naive estimate (its accuracy on the selected items), the naive
estimate on a random subset, and tinyBenchmarks' anchor-point estimate from n items
(:func:`anchor_points`; a point estimate, the same for every strategy).
Results: ``benchmarks/results/new_model.csv`` (one row per model,
strategy and n) and a summary table on stdout; ``new_model.png`` plots error and interval width
against n.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

import irteval as ie

HERE = Path(__file__).parent
SIZES = (25, 50, 100, 200)


def anchor_points(train, n, seed):
    """tinyBenchmarks' anchor points (Polo et al. 2024, "correctness" embedding): the items
    clustered by their 0/1 answers from the training models (k-means, ``n`` clusters), the item
    nearest each centre, weighted by its cluster's share of the items. Returns (anchor labels,
    weights); the estimate of a model's accuracy is the weighted mean of its anchor answers."""
    from sklearn.cluster import KMeans

    km = KMeans(n, n_init=3, random_state=seed).fit(train.to_numpy())
    anchors, weights = [], []
    for k in range(n):
        members = np.flatnonzero(km.labels_ == k)
        spread = ((train.to_numpy()[members] - km.cluster_centers_[k]) ** 2).sum(axis=1)
        anchors.append(train.index[members[np.argmin(spread)]])
        weights.append(len(members) / len(train))
    return pd.Index(anchors), np.array(weights)


def run(dataset, folds, seed):
    wide = ie.datasets.load_responses(dataset, as_frame=True)  # instances x models
    rng = np.random.default_rng(seed)
    models = np.array(wide.columns)
    group = rng.permutation(len(models)) % folds
    rows = []
    for k in range(folds):
        held = models[group == k]
        train = ie.Responses.from_wide(wide[models[group != k]], respondent="model",
                                       item="instance", rows="item")
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            idata = ie.fit(ie.models.onepl(train), random_seed=seed, progressbar=False,
                           log_likelihood=False)
        fit_seconds = time.perf_counter() - start
        for n in SIZES:
            subsets = {s: ie.select_items(idata, n=n, strategy=s, random_seed=seed + n)
                       for s in ie.irt.new_model.STRATEGIES}
            anchors, weights = anchor_points(wide[models[group != k]], n, seed + n)
            for model in held:
                truth = wide[model].mean()
                anchor = float(weights @ wide.loc[anchors, model].to_numpy())
                for strategy, items in subsets.items():
                    start = time.perf_counter()
                    with warnings.catch_warnings(record=True) as caught:
                        warnings.simplefilter("always")
                        score = ie.score_new_model(idata, wide.loc[items, model],
                                                   random_seed=seed)
                    lo, hi = np.quantile(score.accuracy.values, [0.05, 0.95])
                    rows.append({
                        "dataset": dataset, "fold": k, "model": model, "n": n,
                        "strategy": strategy, "truth": truth,
                        "estimate": float(score.accuracy.mean()),
                        "lower": lo, "upper": hi, "covered": lo <= truth <= hi,
                        "naive": wide.loc[items, model].mean(),
                        "naive_random": wide.loc[subsets["random"], model].mean(),
                        "anchor_points": anchor,
                        "person_fit_p": score.person_fit_p, "misfit_warned": bool(caught),
                        "seconds": time.perf_counter() - start, "fit_seconds": fit_seconds})
        print(f"{dataset} fold {k + 1}/{folds}: fit {fit_seconds:.0f} s", flush=True)
    return pd.DataFrame(rows)


def summarise(table):
    table = table.assign(error=(table["estimate"] - table["truth"]).abs(),
                         naive_error=(table["naive"] - table["truth"]).abs(),
                         naive_random_error=(table["naive_random"] - table["truth"]).abs(),
                         anchor_error=(table["anchor_points"] - table["truth"]).abs(),
                         width=table["upper"] - table["lower"])
    return table.groupby(["dataset", "strategy", "n"]).agg(
        mae=("error", "mean"), naive_mae=("naive_error", "mean"),
        naive_random_mae=("naive_random_error", "mean"),
        anchor_points_mae=("anchor_error", "mean"), coverage90=("covered", "mean"),
        width=("width", "mean"), misfit_warned=("misfit_warned", "mean"),
        seconds=("seconds", "median"), models=("model", "nunique"))


def plot(summary, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    datasets = summary.index.get_level_values("dataset").unique()
    fig, axes = plt.subplots(2, len(datasets), figsize=(5 * len(datasets), 7), squeeze=False,
                             sharex=True)
    for col, dataset in enumerate(datasets):
        part = summary.loc[dataset]
        for strategy in part.index.get_level_values("strategy").unique():
            rows = part.loc[strategy]
            axes[0, col].plot(rows.index, rows["mae"], marker="o", label=f"{strategy} (IRT)")
            axes[1, col].plot(rows.index, rows["width"], marker="o", label=strategy)
        naive = part.loc["random"]
        axes[0, col].plot(naive.index, naive["naive_random_mae"], "k--", marker="x",
                          label="naive, random subset")
        axes[0, col].plot(naive.index, naive["anchor_points_mae"], "k:", marker="+",
                          label="anchor points (tinyBenchmarks)")
        axes[0, col].set(title=dataset, ylabel="mean absolute error of the accuracy")
        axes[1, col].set(xlabel="items asked", ylabel="mean width of the 90% interval")
    axes[0, 0].legend(fontsize="small")  # the same lines in every panel
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def adaptive(dataset, n_models, seed, stop_width=0.03, max_items=400,
             rules=ie.irt.new_model.ADAPTIVE_STRATEGIES):
    """For ``n_models`` held-out models (one fold of five): the items ``adaptive_test`` asks
    under each rule until the 94% interval of the accuracy is narrower than ``stop_width``,
    against the smallest random subset (nested, found by bisection) whose interval is that
    narrow; and whether each final interval covers the true full accuracy."""
    wide = ie.datasets.load_responses(dataset, as_frame=True)
    rng = np.random.default_rng(seed)
    models = np.array(wide.columns)
    held = rng.choice(models, n_models, replace=False)
    train = ie.Responses.from_wide(wide[[m for m in models if m not in held]],
                                   respondent="model", item="instance", rows="item")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        idata = ie.fit(ie.models.onepl(train), random_seed=seed, progressbar=False,
                       log_likelihood=False)
    rows = []
    for model in held:
        truth = wide[model].mean()
        row = {"model": model, "truth": truth}
        for strategy in rules:
            start = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                path, score = ie.adaptive_test(idata, lambda item: wide.loc[item, model],
                                               stop_width=stop_width, max_items=max_items,
                                               strategy=strategy, max_draws=300,
                                               random_seed=seed)
            final = path.iloc[-1]
            row.update({f"{strategy}_items": len(path), f"{strategy}_width": final["width"],
                        f"{strategy}_covered": final["hdi_lower"] <= truth <= final["hdi_upper"],
                        f"{strategy}_error": abs(final["mean"] - truth),
                        f"{strategy}_seconds": time.perf_counter() - start})
        order = rng.permutation(wide.index)

        def width(n):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                s = ie.score_new_model(idata, wide.loc[order[:n], model], max_draws=300,
                                       random_seed=seed).summary()
            return s.loc["accuracy", "hdi_upper"] - s.loc["accuracy", "hdi_lower"], s

        low, high = 1, max_items
        if width(high)[0] >= stop_width:
            low = high
        while low < high:  # the smallest n with a narrow enough interval
            mid = (low + high) // 2
            low, high = (mid + 1, high) if width(mid)[0] >= stop_width else (low, mid)
        random_table = width(low)[1]
        row.update({"random_items": low,
                    "random_covered": (random_table.loc["accuracy", "hdi_lower"] <= truth
                                       <= random_table.loc["accuracy", "hdi_upper"]),
                    "random_error": abs(random_table.loc["accuracy", "mean"] - truth)})
        rows.append(row)
        print(row, flush=True)
    return pd.DataFrame(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", nargs="+", default=["optdigits"])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--adaptive", action="store_true",
                        help="the adaptive test against random subsets instead")
    parser.add_argument("--models", type=int, default=12, help="--adaptive: held-out models")
    parser.add_argument("--max-items", type=int, default=400, help="--adaptive: items at most")
    parser.add_argument("--rules", nargs="+", default=list(ie.irt.new_model.ADAPTIVE_STRATEGIES),
                        help="--adaptive: the rules to run")
    args = parser.parse_args()
    if args.adaptive:
        table = adaptive(args.dataset[0], args.models, args.seed, max_items=args.max_items,
                         rules=args.rules)
        suffix = "" if args.max_items == 400 else f"_{args.max_items}"
        table.to_csv(HERE / "results" / f"new_model_adaptive{suffix}.csv", index=False)
        print(table.round(4).to_string())
        print(table.filter(like="_items").median().to_string())
        print(table.filter(like="_covered").mean().to_string())
        return
    table = pd.concat([run(d, args.folds, args.seed) for d in args.dataset], ignore_index=True)
    out = HERE / "results"
    if (out / "new_model.csv").exists():  # the other datasets' rows of an earlier run stay
        old = pd.read_csv(out / "new_model.csv")
        table = pd.concat([old[~old["dataset"].isin(args.dataset)], table], ignore_index=True)
    table.to_csv(out / "new_model.csv", index=False)
    summary = summarise(table)
    summary.round(4).to_csv(out / "new_model_summary.csv")
    print(summary.round(4).to_string())
    plot(summary, out / "new_model.png")


if __name__ == "__main__":
    main()
