"""The teaching notebooks run top to bottom (on a subset, with short chains)."""

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, monkeypatch):
    monkeypatch.setenv("IRTEVAL_NOTEBOOK_FAST", "1")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors
    assert os.environ["IRTEVAL_NOTEBOOK_FAST"] == "1"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_committed_outputs_belong_to_the_committed_code(path):
    """The notebooks are committed executed (full settings, by notebooks/execute.py); a change
    to their code without running them again fails here."""
    import sys

    sys.path.insert(0, str(path.parent))
    from execute import code_hash

    nb = nbformat.read(path, as_version=4)
    stored = nb.metadata.get("irteval", {}).get("code_sha256")
    assert stored == code_hash(nb), (f"{path.name} changed after its outputs were made: run "
                                     f"python notebooks/execute.py {path.stem}")
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.get("execution_count") for c in code)
    errors = [o for c in code for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
