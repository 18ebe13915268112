"""A notebook's code cells run in order in one process (full settings, plots closed after each
cell), with the process' resident memory after each cell and its peak so far: which cell holds
or briefly needs the memory (the standard: the bundled workflows well under 2 GB).

    python benchmarks/notebook_memory.py notebooks/04_robustness_taxonomy.ipynb

The kernel ``notebooks/execute.py`` starts also keeps the cells' displayed outputs, so its peak
(``/usr/bin/time -v python notebooks/execute.py NAME``: "Maximum resident set size") can be a
little higher.
"""

import argparse
import json
import os
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def memory_gb():
    """(resident, peak resident) of this process in GB."""
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return tuple(int(status[k].split()[0]) / 1e6 for k in ("VmRSS", "VmHWM"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook", type=Path)
    args = parser.parse_args()
    cells = json.loads(args.notebook.read_text())["cells"]
    os.environ.pop("IRTEVAL_NOTEBOOK_FAST", None)  # full settings, as notebooks/execute.py
    os.chdir(args.notebook.resolve().parent)
    namespace = {}
    for k, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        start = time.perf_counter()
        exec(compile("".join(cell["source"]), f"cell {k}", "exec"), namespace)
        plt.close("all")
        rss, peak = memory_gb()
        print(f"cell {k:3d}: {time.perf_counter() - start:6.1f} s, resident {rss:.2f} GB, "
              f"peak so far {peak:.2f} GB", flush=True)


if __name__ == "__main__":
    main()
