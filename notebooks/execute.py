"""Execute the notebooks with full settings and store their outputs, with the hash of their code
(``metadata["irteval"]["code_sha256"]``) so that the tests can tell when a notebook's code
changed after its outputs were made.

    python notebooks/execute.py                      # all of them
    python notebooks/execute.py 02_epp_leaderboard   # one
"""

import hashlib
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).parent


def code_hash(nb):
    """sha256 of the notebook's code cells, in order."""
    code = "\n# -- cell --\n".join(c.source for c in nb.cells if c.cell_type == "code")
    return hashlib.sha256(code.encode()).hexdigest()


def execute(path):
    nb = nbformat.read(path, as_version=4)
    os.environ.pop("IRTEVAL_NOTEBOOK_FAST", None)  # full settings
    start = time.perf_counter()
    NotebookClient(nb, timeout=3600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    seconds = time.perf_counter() - start
    nb.metadata["irteval"] = {"code_sha256": code_hash(nb), "seconds": round(seconds)}
    nbformat.write(nb, path)
    print(f"{path.name}: {seconds:.0f} s")


if __name__ == "__main__":
    names = sys.argv[1:] or [p.stem for p in sorted(HERE.glob("*.ipynb"))]
    for name in names:
        execute(HERE / f"{name}.ipynb")
