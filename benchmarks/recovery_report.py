"""Print the parameter-recovery numbers that the tests assert, for the record.

    python benchmarks/recovery_report.py

1PL (collapsed and full NUTS), 1PL with 20% missing cells, 2PL: 300 instances x 30 models
simulated from the model (tests/conftest.py::simulate), 4 chains x 1000 draws; EPP: 4 data sets
of 30 players x 20 rounds, score = strength + Gumbel noise (tests/test_bradley_terry.py).
"""

import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import irteval as ie  # noqa: E402
from tests.conftest import simulate  # noqa: E402
from tests.test_bradley_terry import simulate as simulate_scores  # noqa: E402


def covered(low, high, truth):
    return float(np.mean((low <= truth) & (truth <= high)))


def irt_row(name, resp, truth, **kwargs):
    discrimination = kwargs.pop("discrimination", False)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        idata = ie.fit(ie.models.onepl(resp, discrimination=discrimination), random_seed=0,
                       progressbar=False, log_likelihood=False, **kwargs)
    table = ie.difficulty(idata, ci_prob=0.9)
    row = (f"{name:<22} {time.perf_counter() - start:6.1f}s  cover90(b) "
           f"{covered(table['hdi_lower'], table['hdi_upper'], truth['b']):.3f}  "
           f"corr(b) {np.corrcoef(table['mean'], truth['b'])[0, 1]:.3f}  "
           f"max R-hat {idata.attrs['max_rhat']:.4f}  divergences {idata.attrs['divergences']}")
    if discrimination:
        log_a = np.log(idata.posterior["a"]).mean(("chain", "draw")).values
        row += (f"  corr(log a) {np.corrcoef(log_a, np.log(truth['a']))[0, 1]:.3f}"
                f"  corr(a) {np.corrcoef(np.exp(log_a), truth['a'])[0, 1]:.3f}")
    print(row, flush=True)


def main():
    resp, truth = simulate(300, 30, seed=2)
    irt_row("1PL collapsed", resp, truth)
    irt_row("1PL full NUTS", resp, truth, collapse=False)
    irt_row("1PL 20% missing", *simulate(300, 30, missing=0.2, seed=4))
    for sd in (0.5, 0.7, 1.0):
        irt_row(f"2PL sd(log a)={sd}", *simulate(300, 30, discrimination=True, seed=5,
                                                 sd_log_a=sd), discrimination=True)
    for missing in (0.0, 0.2):
        inside = {"plackett_luce": [], "pairwise": []}
        for seed in range(4):
            scores, strength = simulate_scores(missing=missing, seed=seed)
            for likelihood in inside:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    idata = ie.fit(ie.models.bradley_terry(scores, likelihood=likelihood),
                                   random_seed=1, progressbar=False, log_likelihood=False)
                board = ie.leaderboard(idata, ci_prob=0.9).loc[scores.players]
                inside[likelihood].append(covered(board["hdi_lower"], board["hdi_upper"],
                                                  strength))
        print(f"EPP missing={missing}: cover90 " + ", ".join(
            f"{k} {np.mean(v):.3f}" for k, v in inside.items()), flush=True)


if __name__ == "__main__":
    main()
