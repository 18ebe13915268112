"""How far can any stratified sample of n items go? A bound for issue 17's target (half the
error of the accuracy on a random subset), computed from the answers alone, with no fit:

    python benchmarks/new_model_bound.py --dataset optdigits wall_robot_navigation letter

For each of 5 folds of the 58 models, the items are cut into K strata using only the other
models' answers: by accuracy (equal-count difficulty strata, as ``select_items`` does) or by
k-means on the answer patterns (tinyBenchmarks' "correctness" embedding). For a held-out model
with full accuracy p and within-stratum answer sd S_h (its own answers, stratum weights W_h),
the standard error of an unbiased estimate of its full accuracy from n items is, ignoring the
finite-population correction,

    random subset              sqrt(p (1 - p) / n)
    proportional allocation    sqrt(sum_h W_h S_h^2 / n)
    Neyman allocation          sum_h W_h S_h / sqrt(n)      (n_h proportional to W_h S_h)

Neyman allocation with the model's *own* S_h is an oracle: no design knows them before the model
has answered, so it bounds every stratified design with a design-unbiased estimator from below.
The ratios do not depend on n. Printed: each error summed over the held-out models, divided by
the random subset's (for near-normal errors the mean absolute error is 0.8 standard errors, so
this is the ratio of mean absolute errors).
"""

from __future__ import annotations

import argparse

import numpy as np
from sklearn.cluster import KMeans

import irteval as ie


def strata(train, kind, k, seed):
    """K groups of item positions from the fitted models' answers ``train`` (items x models)."""
    if kind == "difficulty":
        return np.array_split(np.argsort(train.mean(axis=1), kind="stable"), k)
    labels = KMeans(k, n_init=2, random_state=seed).fit_predict(train)
    return [np.flatnonzero(labels == g) for g in range(k)]


def run(dataset, ks=(10, 20, 50, 100), folds=5, seed=0):
    y = ie.datasets.load_responses(dataset, as_frame=True).to_numpy(dtype=float)
    group = np.random.default_rng(seed).permutation(y.shape[1]) % folds
    rows = []
    for kind in ("difficulty", "patterns"):
        for k in ks:
            se = np.zeros(3)  # random, proportional, Neyman; summed over held-out models
            for f in range(folds):
                train, test = y[:, group != f], y[:, group == f]
                cut = strata(train, kind, k, seed + f)
                weight = np.array([len(c) for c in cut]) / len(y)
                sd = np.array([[test[c, j].std() for c in cut] for j in range(test.shape[1])])
                p = test.mean(axis=0)
                se += [np.sqrt(p * (1 - p)).sum(), np.sqrt(sd**2 @ weight).sum(),
                       (sd @ weight).sum()]
            rows.append((kind, k, se[1] / se[0], se[2] / se[0]))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", nargs="+", default=["optdigits"])
    args = parser.parse_args()
    print("dataset                 strata      K   proportional / random   oracle Neyman / random")
    for dataset in args.dataset:
        for kind, k, proportional, neyman in run(dataset):
            print(f"{dataset:23s} {kind:10s} {k:4d}   {proportional:21.2f}   {neyman:22.2f}")


if __name__ == "__main__":
    main()
