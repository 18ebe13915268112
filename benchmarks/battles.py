"""Arena-scale battles (issue 16), one fresh process per case:

    python benchmarks/battles.py                     # every case, then the table
    python benchmarks/battles.py --run mle           # one case, JSON on stdout

Data: ``irteval.calibration.simulate_battles(150, 2_000_000, seed 0)`` (strengths N(0, 1),
Davidson outcomes, about 10% ties), simulated before the clock starts. Timed from the battle
rows (a DataFrame of labels) to the strengths:

- ``evalica``: ``evalica.bradley_terry`` on the rows (winners mapped to ``evalica.Winner``,
  ties as half wins), its default Rust solver (``pip install evalica``, not a dependency);
- ``mle``: ``Battles.from_long`` + ``irteval.mle_epp`` (Newton, Wald intervals);
- ``nuts``: ``Battles.from_long`` + ``irteval.fit`` of ``models.bradley_terry`` (pairwise, the
  NumPy density under nutpie, 4 x 1000 draws).

Each row: seconds, peak RSS of the process (MB), and the correlation of the estimates with the
true strengths. Results in ``benchmarks/results/battles.csv``.
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
CASES = ("evalica", "mle", "nuts")
N_PLAYERS, N_BATTLES = 150, 2_000_000


def run(case):
    import irteval as ie
    from irteval.calibration import simulate_battles

    reference, truth, rows = simulate_battles(N_PLAYERS, N_BATTLES, np.random.default_rng(0))
    true = pd.Series(truth["strength"], index=reference.players)
    del reference
    start = time.perf_counter()
    if case == "evalica":
        import evalica

        outcome = rows["winner"].map({"model_a": evalica.Winner.X, "model_b": evalica.Winner.Y,
                                      "tie": evalica.Winner.Draw})
        result = evalica.bradley_terry(rows["model_a"], rows["model_b"], outcome)
        estimate = np.log(result.scores)
        extra = {}
    else:
        battles = ie.Battles.from_long(rows, player_a="model_a", player_b="model_b",
                                       winner="winner", player_name="model")
        if case == "mle":
            estimate = ie.mle_epp(battles)["epp"]
            extra = {}
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                idata = ie.fit(ie.models.bradley_terry(battles), random_seed=0,
                               progressbar=False, posterior_predictive=False)
            estimate = ie.leaderboard(idata)["mean"]
            extra = {"max_rhat": idata.attrs["max_rhat"],
                     "min_ess_bulk": idata.attrs["min_ess_bulk"],
                     "divergences": idata.attrs["divergences"]}
    seconds = time.perf_counter() - start
    corr = float(np.corrcoef(pd.Series(estimate).loc[true.index], true)[0, 1])
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"case": case, "seconds": seconds, "peak_mb": peak, "corr_truth": corr, **extra}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--run", choices=CASES)
    args = parser.parse_args()
    if args.run:
        print(json.dumps(run(args.run)))
        return
    rows = []
    for case in CASES:
        out = subprocess.run([sys.executable, __file__, "--run", case], capture_output=True,
                             text=True, check=True)
        rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
        print(rows[-1], flush=True)
    table = pd.DataFrame(rows).set_index("case")
    table.round(4).to_csv(HERE / "results" / "battles.csv")
    ratio = table.loc["mle", "seconds"] / table.loc["evalica", "seconds"]
    print(table.round(3).to_string())
    print(f"\nBattles.from_long + mle_epp / evalica: {ratio:.2f} (target <= 2); peak RSS of the "
          f"irteval cases {table.loc[['mle', 'nuts'], 'peak_mb'].max():.0f} MB (target < 2048);"
          f" NUTS {table.loc['nuts', 'seconds']:.0f} s (target < 120)")


if __name__ == "__main__":
    main()
