"""Do the nearest fitted models predict a new model's full accuracy better than an IRT model?
A model-free check for issue 17's target (half the error of the accuracy on a random subset):

    python benchmarks/new_model_neighbours.py --dataset optdigits wall_robot_navigation letter

For each of 5 folds of the 58 models, every held-out model answers ``n`` random items (ten
subsets each, ``--subsets``). Its nearest fitted models are those that agree with it on most
of these items; the estimate is its accuracy on the subset corrected by theirs,

    p_hat = mean(subset answers) + mean over the k nearest (full accuracy - subset accuracy),

a difference estimator with the neighbours as control variates (unbiased for any fixed set of
controls; here the set is chosen on the same items, so only nearly). The same with all fitted
models weighted, ``mixture``: the convex weights w whose mixture of their answers is nearest
(least squares) to the held-out model's on the asked items, p_hat = mean(answers) + sum_k w_k
(full accuracy_k - subset accuracy_k). Printed: the mean absolute error of p_hat over held-out
models and subsets, divided by that of the subset accuracy alone.

``oracle``: with weights fixed in advance, the error of p_hat is that of the mean of the
residual answers - sum_k w_k answers_k on a random subset, so its standard error over the
subset accuracy's is sd(residuals) / sd(answers). Least squares on *all* of a model's answers
(with an intercept: an oracle, which knows the unasked answers) minimises that sd; printed:
its sum over the models (each left out in turn) over the sum of sd(answers), the ratio that the
best fixed linear combination of the fitted models' answers would give. Weights chosen on the
asked items are not fixed, so this is a reference point, not a strict bound.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from scipy.optimize import nnls

import irteval as ie

KS = (1, 3, 5, 10, 20)


def convex_weights(x, y, penalty=30.0):
    """Non-negative w, summing to one (a heavily weighted extra row), minimising |x w - y|."""
    k = x.shape[1]
    w, _ = nnls(np.vstack([x, np.full((1, k), penalty)]), np.append(y, penalty))
    return w / w.sum()


def run(dataset, n=100, subsets=10, folds=5, seed=0):
    y = ie.datasets.load_responses(dataset, as_frame=True).to_numpy(dtype=float)
    rng = np.random.default_rng(seed)
    group = rng.permutation(y.shape[1]) % folds
    full = y.mean(axis=0)
    errors = np.zeros(2 + len(KS))  # naive, each k, mixture; summed over models and subsets
    for f in range(folds):
        fitted = np.flatnonzero(group != f)
        for model in np.flatnonzero(group == f):
            for _ in range(subsets):
                items = rng.choice(len(y), n, replace=False)
                answers = y[items, model]
                naive = answers.mean()
                asked = y[np.ix_(items, fitted)]  # the fitted models' answers to those items
                agree = (asked == answers[:, None]).mean(axis=0)
                gap = full[fitted] - asked.mean(axis=0)
                order = np.argsort(-agree, kind="stable")
                estimates = [naive, *(naive + gap[order[:k]].mean() for k in KS),
                             naive + convex_weights(asked, answers) @ gap]
                errors += np.abs(np.array(estimates) - full[model])
    return errors[1:] / errors[0]


def oracle(dataset):
    """sum over models of sd(least-squares residuals on all their answers) / sum of sd(answers)."""
    y = ie.datasets.load_responses(dataset, as_frame=True).to_numpy(dtype=float)
    sds = np.zeros(2)
    for model in range(y.shape[1]):
        answers = y[:, model]
        x = np.column_stack([np.ones(len(y)), np.delete(y, model, axis=1)])
        residuals = answers - x @ np.linalg.lstsq(x, answers, rcond=None)[0]
        sds += residuals.std(), answers.std()
    return sds[0] / sds[1]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", nargs="+", default=["optdigits"])
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--subsets", type=int, default=10, help="random subsets per model")
    parser.add_argument("--folds", type=int, default=5, help="58: leave one model out")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results"
                                             / "new_model_neighbours.txt"))
    args = parser.parse_args(argv)
    lines = [f"error / error of the accuracy on a random {args.n}-item subset, {args.subsets} "
             f"subsets a model, {args.folds} folds (k nearest fitted models: "
             f"{', '.join(map(str, KS))}; mixture: all, convex weights; oracle: see the docstring)"]
    for dataset in args.dataset:
        ratios = run(dataset, n=args.n, subsets=args.subsets, folds=args.folds)
        lines.append(f"{dataset}: " + "  ".join(f"k={k} {r:.2f}" for k, r in zip(KS, ratios))
                     + f"  mixture {ratios[-1]:.2f}  oracle {oracle(dataset):.2f}")
        print(lines[-1], flush=True)
    Path(args.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
