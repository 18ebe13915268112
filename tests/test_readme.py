"""Every command and code block of the README runs as written (issue 13), with short chains:
``irteval.fit`` is wrapped so that NUTS draws 60 + 60 per chain on 2 chains (the only change)."""

import re
import shlex
from pathlib import Path

import matplotlib
import pytest

import irteval as ie
from irteval import inference
from irteval.cli import main

matplotlib.use("Agg")
README = (Path(__file__).parents[1] / "README.md").read_text()
#: the two commands themselves: CI runs them (set-up, tests); the demo has its own slow test
NOT_HERE = ("python -m venv", "pip install", "python -m pytest", "irteval demo")


def blocks(language):
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.S)


def commands():
    lines = [line.split("  #")[0].strip() for block in blocks("bash")
             for line in block.splitlines()]
    return [line for line in lines if line and not line.startswith(NOT_HERE)]


@pytest.fixture
def short_chains(monkeypatch):
    real = inference.fit

    def fit(model, **kwargs):
        if kwargs.get("method", "nuts") == "nuts":
            kwargs.update(draws=60, tune=60, chains=2)
        return real(model, **kwargs)

    for module in (ie, inference):
        monkeypatch.setattr(module, "fit", fit)


def run(line):
    words = shlex.split(line)
    if words[0] == "irteval":
        assert main(words[1:]) == 0, line
    elif words[:2] == ["python", "-c"]:
        exec(words[2], {})
    else:
        raise AssertionError(f"the README test does not know how to run {line!r}")


def test_the_readme_has_the_two_commands():
    setup = blocks("bash")[0]
    assert 'pip install -e ".[dev]"' in setup and "irteval demo" in setup
    command = re.search(r"python -m pytest[^#\n]*", setup)[0].strip()
    assert "python -m pytest -q" in command  # .ci/run runs this line
    assert f"{command}\n" in (Path(__file__).parents[1] / ".ci" / "run").read_text()


def test_every_shell_command_runs(tmp_path, monkeypatch, short_chains):
    monkeypatch.chdir(tmp_path)
    assert len(commands()) >= 8
    for line in commands():
        run(line)
    assert (tmp_path / "out" / "robustness" / "taxonomy.csv").is_file()
    res = ie.load_results("out")  # as the README says after its blocks
    assert res["leaderboard"]["leaderboard"].index.name == "model"
    assert res.leaderboard.posterior.attrs["irteval_family"] == "bradley_terry"


def test_every_python_block_runs_in_order(tmp_path, monkeypatch, short_chains):
    import matplotlib.pyplot as plt

    monkeypatch.chdir(tmp_path)
    namespace = {}
    for block in blocks("python"):
        exec(block, namespace)
        plt.close("all")
    assert len(namespace["table"]) == 5620 and "lto" in namespace["lt"].occupancy


def test_the_demo_runs(tmp_path, short_chains):
    """The main job, on short chains (32 s here): a change to the portfolio command once broke
    the demo's call of it while every fast test passed."""
    assert main(["demo", "--out", str(tmp_path)]) == 0
