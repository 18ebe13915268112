"""Would a better sample design reach issue 17's target (half the naive error)? A point-estimate
check of design-based estimators, beside the 1PL prediction irteval uses:

    python benchmarks/new_model_allocation.py --dataset optdigits wall_robot_navigation letter

For each of 5 folds of the 58 models, the 1PL is fitted by MAP to the other models
(``new_model_plugin.fit``); a held-out model answers n = 100 items (three draws each), chosen

- at random: its accuracy on them (``naive_random``, the baseline);
- one per stratum of n equal-count difficulty strata (what ``select_items`` does): the 1PL
  prediction ((correct answers + sum over the other items of P(correct) at its MAP ability) / J,
  ``proportional_irt``) and its accuracy on them (``proportional_naive``);
- by Neyman allocation over 10 difficulty strata (n_h proportional to N_h S_h, S_h the
  within-stratum sd of the fitted models' answers, at least 2 per stratum): the post-stratified
  mean sum_h W_h ybar_h (``neyman_poststratified``), the difference estimator mean(p) +
  sum_h W_h mean_h(y - p) with p the 1PL's P(correct) at the model's MAP ability
  (``neyman_difference``: unbiased by design for any fixed p, whatever the 1PL's fit; here p
  uses an ability fitted to the same answers, so nearly), and the 1PL prediction
  (``neyman_irt``).

Prints the mean absolute error of each and its ratio to ``naive_random``.
"""

from __future__ import annotations

import argparse

import numpy as np
from new_model_plugin import fit
from scipy.optimize import minimize_scalar
from scipy.special import expit

import irteval as ie


def ability(b, asked, answers, mean, sd):
    """MAP ability of a new model under N(mean, sd) from its answers to the items ``asked``."""
    def objective(t):
        eta = t - b[asked]
        return -(answers * eta - np.logaddexp(0, eta)).sum() + 0.5 * ((t - mean) / sd) ** 2
    return minimize_scalar(objective, bounds=(mean - 10, mean + 10), method="bounded").x


def neyman(strata, train, n):
    """Items per stratum: n_h proportional to N_h S_h, at least 2."""
    sd = np.array([np.sqrt((train[s].mean(0) * (1 - train[s].mean(0))).mean()) for s in strata])
    target = np.array([len(s) for s in strata]) * sd
    target = target / target.sum() * n
    n_h = np.maximum(2, np.floor(target)).astype(int)
    while n_h.sum() > n:
        n_h[np.argmax(n_h)] -= 1
    while n_h.sum() < n:
        n_h[np.argmax(target - n_h)] += 1
    return n_h


def run(dataset, n=100, n_strata=10, repeats=3, seed=0):
    y = ie.datasets.load_responses(dataset, as_frame=True).to_numpy(dtype=float)
    rng = np.random.default_rng(seed)
    group = rng.permutation(y.shape[1]) % 5
    errors = {}

    def add(name, estimate, truth):
        errors.setdefault(name, []).append(abs(estimate - truth))

    for fold in range(5):
        train = y[:, group != fold]
        b, _, theta = fit(train, 0, rng)
        mean, sd = theta.mean(), theta.std()
        order = np.argsort(b, kind="stable")
        strata = np.array_split(order, n_strata)
        weights = np.array([len(s) for s in strata]) / len(b)
        n_h = neyman(strata, train, n)
        for model in np.flatnonzero(group == fold):
            answers = y[:, model]
            truth = answers.mean()
            for _ in range(repeats):
                add("naive_random", answers[rng.choice(len(b), n, replace=False)].mean(), truth)
                asked = np.array([rng.choice(s) for s in np.array_split(order, n)])
                p = expit(ability(b, asked, answers[asked], mean, sd) - b)
                rest = np.ones(len(b), dtype=bool)
                rest[asked] = False
                add("proportional_irt", (answers[asked].sum() + p[rest].sum()) / len(b), truth)
                add("proportional_naive", answers[asked].mean(), truth)
                picks = [rng.choice(s, k, replace=False) for s, k in zip(strata, n_h)]
                asked = np.concatenate(picks)
                add("neyman_poststratified",
                    sum(w * answers[s].mean() for w, s in zip(weights, picks)), truth)
                p = expit(ability(b, asked, answers[asked], mean, sd) - b)
                add("neyman_difference", p.mean() + sum(
                    w * (answers[s] - p[s]).mean() for w, s in zip(weights, picks)), truth)
                rest = np.ones(len(b), dtype=bool)
                rest[asked] = False
                add("neyman_irt", (answers[asked].sum() + p[rest].sum()) / len(b), truth)
    base = np.mean(errors["naive_random"])
    print(f"{dataset}: items per stratum (last fold, easiest first) {n_h.tolist()}")
    for name, values in errors.items():
        print(f"  {name:22s} MAE {np.mean(values):.4f}  ratio {np.mean(values) / base:.2f}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", nargs="+", default=["optdigits"])
    parser.add_argument("--n", type=int, default=100)
    args = parser.parse_args(argv)
    for dataset in args.dataset:
        run(dataset, n=args.n)


if __name__ == "__main__":
    main()
