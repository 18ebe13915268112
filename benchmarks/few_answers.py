"""The 1PL's NUTS form where instances have few answers (issue 14, ``OnePL._collapsible``):
the default (collapsed at most ``FEW_ANSWERS`` answers an instance on average) against the
dense density (``collapse=False``), one fresh process per case (``scale.py``'s cases, seed 0).

    python benchmarks/few_answers.py    # table in results/few_answers.csv
"""

from __future__ import annotations

from pathlib import Path

from scale import collect

SIZES = [("1pl_nuts", "30x8"), ("1pl_nuts", "100x10"), ("1pl_nuts", "30x13"),
         ("1pl_nuts", "30x100"), *(("1pl_missing_nuts", s) for s in
                                   ("100x10", "1000x10", "5000x10", "1000x15", "1000x20"))]


def main():
    cases = [f"{group}:{size}:{tool}" for group, size in SIZES for tool in ("irteval", "dense")]
    table = collect(cases, timeout=900)
    table.to_csv(Path(__file__).parent / "results" / "few_answers.csv")
    cols = ["wall_s", "collapsed", "max_rhat", "min_ess_bulk", "divergences", "coverage90"]
    print(table[cols].round(3).to_string())


if __name__ == "__main__":
    main()
