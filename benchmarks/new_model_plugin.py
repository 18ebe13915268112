"""Would a richer model of the fitted matrix predict a new model's full accuracy better than
the 1PL? (issue 17) A point-estimate check, not irteval's posterior:

    python benchmarks/new_model_plugin.py --dataset optdigits wall_robot_navigation

For each of 5 folds of the 58 models, a logistic model of the other models' answers is fitted by
MAP (L-BFGS): the 1PL (eta = theta_j - b_i), and the k-skill model eta = a_i . theta_j - b_i
for k = 1 (a 2PL), 2 and 4, with N(0, 1) priors on a and theta and N(0, 3^2) on b. A held-out
model answers ``--n`` random items (three draws each); its ability is the MAP under a normal
prior with the fitted models' mean and covariance, and its full accuracy is (correct answers +
sum of the predicted P(correct) over the other items) / items. Beside: the naive accuracy on
the same items, and the average of the 1PL's estimate and the naive one (tinyBenchmarks'
blend with weight 1/2). Prints the mean absolute error of each and its ratio to the naive.
"""

from __future__ import annotations

import argparse

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit

import irteval as ie


def fit(y, k, rng):
    """MAP of eta = a_i . theta_j - b_i (k = 0: the 1PL, a = 1) -> (b, a, theta)."""
    n_items, n_models = y.shape
    width = max(k, 1)

    def unpack(p):
        b, rest = p[:n_items], p[n_items:]
        a = rest[:n_items * k].reshape(n_items, k) if k else np.ones((n_items, 1))
        return b, a, rest[n_items * k:].reshape(width, n_models)

    def objective(p):
        b, a, theta = unpack(p)
        eta = a @ theta - b[:, None]
        resid = y - expit(eta)
        logp = ((y * eta - np.logaddexp(0, eta)).sum() - 0.5 * (b @ b) / 9
                - 0.5 * (theta**2).sum() - (0.5 * (a**2).sum() if k else 0.0))
        grad_a = (resid @ theta.T - a).ravel() if k else np.empty(0)
        grad = np.r_[-resid.sum(axis=1) - b / 9, grad_a, (a.T @ resid - theta).ravel()]
        return -logp, -grad

    share = y.mean(axis=1).clip(0.01, 0.99)
    start = np.r_[np.log((1 - share) / share),
                  0.1 * rng.normal(size=n_items * k + width * n_models)]
    return unpack(minimize(objective, start, jac=True, method="L-BFGS-B",
                           options={"maxiter": 3000}).x)


def predict(b, a, theta_fitted, asked, answers):
    """Full accuracy of a new model from its answers on ``asked`` (module docstring)."""
    mean, cov = theta_fitted.mean(axis=1), np.atleast_2d(np.cov(theta_fitted))
    precision = np.linalg.inv(cov + 1e-6 * np.eye(len(mean)))

    def objective(t):
        eta = a[asked] @ t - b[asked]
        dev = t - mean
        return (-(answers * eta - np.logaddexp(0, eta)).sum() + 0.5 * dev @ precision @ dev,
                -(a[asked].T @ (answers - expit(eta))) + precision @ dev)

    theta = minimize(objective, mean.copy(), jac=True).x
    rest = np.ones(len(b), dtype=bool)
    rest[asked] = False
    return (answers.sum() + expit(a[rest] @ theta - b[rest]).sum()) / len(b)


def run(dataset, n, skills, seed=0):
    y = ie.datasets.load_responses(dataset, as_frame=True).to_numpy(dtype=float)
    rng = np.random.default_rng(seed)
    group = rng.permutation(y.shape[1]) % 5
    errors = {name: [] for name in ["naive", *(f"k={k}" for k in skills), "blend"]}
    for fold in range(5):
        fits = {k: fit(y[:, group != fold], k, rng) for k in skills}
        for model in np.flatnonzero(group == fold):
            truth = y[:, model].mean()
            for _ in range(3):
                asked = rng.choice(len(y), n, replace=False)
                naive = y[asked, model].mean()
                errors["naive"].append(abs(naive - truth))
                for k, (b, a, theta) in fits.items():
                    estimate = predict(b, a, theta, asked, y[asked, model])
                    errors[f"k={k}"].append(abs(estimate - truth))
                    if k == 0:
                        errors["blend"].append(abs((estimate + naive) / 2 - truth))
    naive = np.mean(errors["naive"])
    print(f"{dataset}, n = {n}: mean absolute error (ratio to the naive); k = 0 is the 1PL")
    for name, values in errors.items():
        print(f"  {name:>6}: {np.mean(values):.4f} ({np.mean(values) / naive:.2f})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", nargs="+", default=["optdigits"])
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--skills", type=int, nargs="+", default=[0, 1, 2, 4])
    args = parser.parse_args()
    for dataset in args.dataset:
        run(dataset, args.n, args.skills)


if __name__ == "__main__":
    main()
