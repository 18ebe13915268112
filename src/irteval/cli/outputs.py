"""The one registry of what every ``irteval`` command writes, shared by the commands (which
refuse to replace files without ``--overwrite``, write only registered names and say what they
wrote) and by :func:`irteval.load_results` (which reads the tables back with their index)."""

from __future__ import annotations

import sys
from pathlib import Path

#: folder -> the file names this command wrote there (since :func:`start_run`)
WRITTEN: dict[Path, set] = {}


def start_run():
    """Mark the start of a command (``irteval.cli.main`` may run several in one process)."""
    WRITTEN.clear()


def warn_earlier_outputs(read=()):
    """Name the registered outputs that the folders this command wrote to hold and it did not
    write: an earlier run's, or another variant's (a polytomous portfolio's
    category_curves.png beside a continuous one's heat map); not the files it ``read`` (score-new
    on the items.csv of select-items). Called once the command is done, as several reports
    may share a folder."""
    read = {Path(p).resolve() for p in read}
    for folder, written in WRITTEN.items():
        earlier = sorted(n for n in set(files(*REPORTS)) - written
                         if (folder / n).exists() and (folder / n).resolve() not in read)
        if earlier:
            print(f"irteval: warning: {folder}/ also holds {', '.join(earlier)} from an "
                  "earlier run (this one did not write them); remove them, or use a new --out",
                  file=sys.stderr)


#: report -> {file: number of index columns of a CSV table (0: none), None for other files}
REPORTS = {
    "difficulty": {
        "difficulty.csv": 1, "abilities.csv": 1, "curves.csv": 2,  # curves: (respondent, bin)
        "posterior.nc": None, "difficulty_distribution.png": None,
        "item_characteristic.png": None, "characteristic_curves.png": None},
    "leaderboard": {
        "leaderboard.csv": 1, "mle_epp.csv": 1, "win_probability.csv": 1,
        "goodness_of_fit.csv": 2, "player_fit.csv": 1, "posterior.nc": None,
        "leaderboard.png": None, "epp_vs_score.png": None, "win_probability.png": None,
        "calibration.png": None, "rank_distribution.png": None},
    # the Model/Task scheme (--task): every task's board besides
    "leaderboard_tasks": {"task_leaderboards.csv": 2},  # (task, player)
    "portfolio": {
        "algorithm_metrics.csv": 1, "portfolio.csv": 1, "spectrum.csv": 1, "goodness.csv": 1,
        "posterior.nc": None, "latent_trait.png": None, "strengths.png": None,
        "goodness.png": None, "effectiveness.png": None, "predicted_effectiveness.png": None,
        "auaec_aupec.png": None,
        "crm_heatmap.png": None},
    # the same on ordered levels (--levels / --cuts): category curves instead of the heatmap
    "portfolio_levels": {
        "algorithm_metrics.csv": 1, "portfolio.csv": 1, "spectrum.csv": 1, "goodness.csv": 1,
        "posterior.nc": None, "latent_trait.png": None, "strengths.png": None,
        "goodness.png": None, "effectiveness.png": None, "predicted_effectiveness.png": None,
        "auaec_aupec.png": None,
        "category_curves.png": None},
    # robustness, per dataset: the 1PL's difficulty (when it fits one) and the SCCs
    "robustness_difficulty": {"difficulty.csv": 1, "posterior.nc": None},
    "scc": {"scc.csv": 3,  # (model, bin, proportion)
            "scc.nc": None, "p_hardest.csv": 1, "predictions.csv": 2,  # (instance, model)
            "scc.png": None},
    "taxonomy": {"taxonomy.csv": 1, "co_assignment.csv": 1, "dendrogram.png": None},
    "select_items": {"items.csv": 1},
    "score_new": {"score.csv": 1},
}

#: CSV tables by name (file without .csv) -> number of index columns, for load_results
TABLES = {file[:-4]: levels for files in REPORTS.values() for file, levels in files.items()
          if file.endswith(".csv")}

#: the demo's parts: sub-folder -> the reports written into it
DEMO = {"optdigits_difficulty": ("difficulty",), "optdigits_robustness": ("scc", "taxonomy"),
        "vtab_leaderboard": ("leaderboard",), "minizinc_portfolio": ("portfolio",),
        "arena_leaderboard": ("leaderboard",)}


def files(*reports):
    """The file names the given reports write."""
    return [f for report in reports for f in REPORTS[report]]


class Writer:
    """Writes one report's outputs into ``folder``, refusing names the registry does not list
    for it, and says what it wrote."""

    def __init__(self, folder: Path, *reports):
        self.folder, self.allowed, self.written = Path(folder), set(files(*reports)), []

    def path(self, name):
        if name not in self.allowed:
            raise KeyError(f"{name} is not registered for this report (irteval.cli.outputs)")
        self.folder.mkdir(parents=True, exist_ok=True)
        self.written.append(name)
        WRITTEN.setdefault(self.folder, set()).add(name)
        return self.folder / name

    def table(self, name, frame, index=True):
        frame.to_csv(self.path(name), index=index)

    def summary(self):
        """'wrote a.csv, b.nc and 3 plots to folder/'."""
        from .._validation import plural

        plots = [f for f in self.written if f.endswith(".png")]
        others = [f for f in self.written if not f.endswith(".png")]
        listed = ", ".join(others[:-1]) + (f" and {others[-1]}" if len(others) > 1 else
                                           "".join(others))
        if plots:
            listed = (", ".join(others) + f" and {plural(len(plots), 'plot')}"
                      if others else f"{len(plots)} plots")
        return f"wrote {listed} to {self.folder}/"
