"""A whole-test check for a floor a 2PL lacks, tried and left out of ``irteval.item_fit`` (stop
63; numbers in ``benchmarks/README.md``, "Why item_fit does not flag the 2PL on 3PL answers").

Per posterior draw, with residuals r_ij = y_ij - p_ij on the observed cells and z_i the
respondent's ability standardised over the respondents at the draw:

- ``z2``: T = sum z_i^2 r_ij (answers of respondents far from the average, where a floor or a
  ceiling shows);
- ``z2_proj``: T = sum z_i^2 s_j r~_ij, s_j the standardised difficulty and r~ each
  respondent's residuals with their component along its score direction (a_j, weighted by
  p (1 - p)) removed, so that a respondent's ability cannot absorb it;

each against the same T of answers replicated at the draw, ppp = P(|T(y_rep)| >= |T(y)|); beside
them the skewness of the abilities (mean over draws) and ``item_fit``'s share of items flagged.
Cases at 2000 x 50: 3PL answers (:func:`irteval.calibration.simulate_multiple_choice`) fitted by
the 2PL (three data sets), the 3PL and the 1PL; 2PL answers with normal abilities and with
abilities skewed by +1 and -1 (standardised Gamma(4)), fitted by the 2PL. NUTS 4 x 1000 on the
default path, each fit in a fresh process, 200 draws for the checks.

    python benchmarks/tails_check.py      # table in results/tails_check.csv (~15 min)
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).parent
#: (answers, fitted model, seed); answers: 3pl, or 2pl with abilities of skewness 0, +1, -1
CASES = [("3pl", "2pl", 0), ("3pl", "2pl", 1), ("3pl", "2pl", 2), ("3pl", "3pl", 0),
         ("3pl", "1pl", 0), ("2pl", "2pl", 0), ("2pl_skew+1", "2pl", 0),
         ("2pl_skew-1", "2pl", 0)]
MODELS = {"1pl": {}, "2pl": {"discrimination": True},
          "3pl": {"discrimination": True, "guessing": True, "n_options": 4}}
N_RESPONDENTS, N_ITEMS = 2000, 50


def answers(kind, seed):
    import irteval as ie
    from irteval.calibration import simulate_multiple_choice
    from irteval.models.densities import irt_probability

    rng = np.random.default_rng(seed)
    resp, truth = simulate_multiple_choice(N_ITEMS, N_RESPONDENTS, rng)
    if kind == "3pl":
        return resp
    theta = rng.normal(0, 1, N_RESPONDENTS)  # the same items without the floor
    if "skew" in kind:  # standardised Gamma(4): skewness 1
        g = rng.gamma(4.0, 1.0, N_RESPONDENTS)
        theta = (1 if kind.endswith("+1") else -1) * (g - 4.0) / 2.0
    p = irt_probability(truth["a"][:, None] * (theta[None, :] - truth["b"][:, None]))
    wide = resp.to_wide(rows="item")
    wide.loc[:, :] = (rng.random(p.shape) < p).astype(float)
    return ie.Responses.from_wide(wide, rows="item")


def checks(idata, max_draws=200, seed=0):
    """ppp of ``z2`` and ``z2_proj``, and the abilities' skewness (mean over draws)."""
    from scipy.stats import skew

    from irteval._draws import stacked_draws
    from irteval.irt.difficulty import observed_cells
    from irteval.models.densities import irt_probability

    item, resp, y = observed_cells(idata)
    draw = lambda name: stacked_draws(idata, name, max_draws, seed)  # noqa: E731
    theta, b = draw("theta"), draw("b")
    a = draw("a") if "a" in idata.posterior else np.ones_like(b)
    c = draw("c") if "c" in idata.posterior else np.zeros_like(b)
    rng = np.random.default_rng(seed)
    n = theta.shape[1]
    stats = {"z2": [], "z2_proj": []}
    for s in range(len(theta)):
        p = irt_probability(a[s, item] * (theta[s, resp] - b[s, item]), c[s, item])
        z2 = ((theta[s] - theta[s].mean()) / theta[s].std())[resp] ** 2
        difficulty = ((b[s] - b[s].mean()) / b[s].std())[item]
        pair = []
        for answers_ in (y, rng.random(len(p)) < p):
            r = answers_ - p
            score = np.bincount(resp, a[s, item] * r, n)
            information = np.bincount(resp, a[s, item] ** 2 * p * (1 - p), n)
            projected = r - a[s, item] * p * (1 - p) * (score / information)[resp]
            pair.append((z2 @ r, (z2 * difficulty) @ projected))
        for k, name in enumerate(stats):
            stats[name].append((pair[0][k], pair[1][k]))
    out = {f"ppp_{name}": float(np.mean(np.abs([v[1] for v in values])
                                        >= np.abs([v[0] for v in values])))
           for name, values in stats.items()}
    out["sign_z2"] = int(np.sign(np.mean([v[0] for v in stats["z2"]])))
    out["skew_theta"] = float(np.mean([skew(t) for t in theta]))
    return out


def run_case(kind, fitted, seed):
    import irteval as ie

    warnings.simplefilter("ignore")
    start = time.perf_counter()
    fit = ie.fit(ie.models.onepl(answers(kind, seed), **MODELS[fitted]), random_seed=seed,
                 log_likelihood=False, progressbar=False)
    seconds = time.perf_counter() - start
    row = {"answers": kind, "fitted": fitted, "seed": seed, "fit_seconds": round(seconds),
           "max_rhat": round(fit.attrs["max_rhat"], 3),
           "items_flagged": float(ie.item_fit(fit)["misfit"].mean())} | checks(fit)
    print(json.dumps(row))


def main():
    if len(sys.argv) > 1:  # one case, in its own process
        return run_case(sys.argv[1], sys.argv[2], int(sys.argv[3]))
    rows = []
    for case in CASES:
        out = subprocess.run([sys.executable, __file__, *map(str, case)], capture_output=True,
                             text=True, check=True).stdout.strip().splitlines()[-1]
        rows.append(json.loads(out))
        print(rows[-1], flush=True)
    table = pd.DataFrame(rows).round(3)
    table.to_csv(HERE / "results" / "tails_check.csv", index=False)
    print(table.to_string(index=False))


if __name__ == "__main__":
    main()
