"""Read a folder the ``irteval`` command wrote back into Python.

>>> res = irteval.load_results("irteval-output")
>>> res["vtab_leaderboard"]["leaderboard"]   # a sub-folder, then a table (or res.vtab_leaderboard)
>>> irteval.leaderboard(res.vtab_leaderboard.posterior)  # recompute anything from the draws
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import arviz as az
import pandas as pd
import xarray as xr

from ._validation import plural, warn_user
from .cli.outputs import TABLES
from .cli.reading import read_text_columns


class NoOutputError(ValueError):
    """A folder holding no irteval output (its sub-folders are passed over)."""


def _read(path, read):
    """``read()``, its error (a truncated, empty or foreign file) naming ``path``."""
    try:
        return read()
    except (ValueError, OSError) as err:  # pandas' and UnicodeDecodeError are ValueErrors
        raise ValueError(f"{path}: cannot be read ({type(err).__name__}: {err}); rerun the "
                         "command that wrote it, or remove the file") from err


def _labelled(file, levels, known):
    """A CSV table whose index (``levels`` columns) and column names are labels, read as text
    as written (``NA`` too; only an empty field is missing), then as the labels of the
    folder's posterior (``known``: text -> label) where it has them all, else as numbers
    where every one reads back exactly (1001, 0.5; not 007 or 1.10)."""
    names = list(pd.read_csv(file, nrows=0).columns)
    if len(names) <= levels:
        raise ValueError(f"{len(names)} columns, where this table has {levels} index columns "
                         "and values")
    table = read_text_columns(file, names, names[:levels])
    if levels:
        table = table.set_index(names[:levels])
        table.index = (table.index.set_levels([_read_labels(lv, known)
                                               for lv in table.index.levels])
                       if levels > 1 else _read_labels(table.index, known))
        if table.index.name == "Unnamed: 0":  # pandas' name for an unnamed index column
            table.index.name = None
    table.columns = _read_labels(table.columns, known, each=True)
    return table


def _read_labels(texts, known, each=False):
    """``texts`` as the ``known`` labels when it has each of them (``each``: those it has, the
    rest as they are: column names, such as p_hardest.csv's bins beside a statistic), else as
    ints or floats when each is the text of that number, else as they are."""
    present = [t for t in texts if not pd.isna(t)]
    if known and present and (all(t in known for t in present)
                              or each and any(t in known for t in present)):
        return pd.Index([known.get(t, t) for t in texts], name=texts.name)
    for kind in (int, float):
        try:
            numbers = [kind(text) for text in texts]
        except (TypeError, ValueError):
            continue
        if all(str(n) == text for n, text in zip(numbers, texts)):
            return pd.Index(numbers, name=texts.name)
    return texts


def _known_labels(*datasets):
    """text -> label of every coordinate value (chains and draws aside) of the datasets."""
    return {str(v): v for ds in datasets if ds is not None for name, coord in ds.coords.items()
            if name not in ("chain", "draw", "sample") for v in coord.values.tolist()}


@dataclass
class Results:
    """One output folder of the CLI. ``res[name]`` is the sub-folder or table ``name`` (in that
    order); a sub-folder is also an attribute (``res.vtab_leaderboard``; ``res.select_items``
    for the folder ``select-items``).

    Attributes
    ----------
    path : Path
    tables : dict of str to DataFrame
        Each CSV table by file name without ``.csv`` (``"difficulty"``, ``"leaderboard"``,
        ...), indexed as when it was written.
    posterior : arviz.InferenceData or None
        ``posterior.nc`` (draws in float32, or 16 bits within 1% of a posterior sd), for
        every downstream function.
    scc : xarray.Dataset or None
        ``scc.nc`` of a robustness folder: the SCCs per posterior draw.
    folders : dict of str to Results
        Sub-folders holding outputs: one per dataset of ``irteval robustness``, one per part
        of ``irteval demo``, one per command under ``irteval-output`` (each command's default
        ``--out`` is ``irteval-output/COMMAND``).
    """

    path: Path
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    posterior: az.InferenceData | None = None
    scc: xr.Dataset | None = None
    folders: dict[str, Results] = field(default_factory=dict)

    def __getitem__(self, name):
        for place in (self.folders, self.tables):
            if name in place:
                return place[name]
        raise KeyError(f"{name!r} is neither a sub-folder ({sorted(self.folders)}) nor a table "
                       f"({sorted(self.tables)}) of {self.path}")

    def __contains__(self, name):
        """Whether ``name`` is a sub-folder or a table (what ``results[name]`` returns)."""
        return name in self.folders or name in self.tables

    def __getattr__(self, name):
        folders = self.__dict__.get("folders", {})
        for folder in (name, name.replace("_", "-")):  # select_items: the folder select-items
            if folder in folders:
                return folders[folder]
        raise AttributeError(f"{type(self).__name__} has no attribute or sub-folder {name!r}")

    def __repr__(self) -> str:
        return (f"Results({str(self.path)!r}, tables={sorted(self.tables)}, posterior="
                f"{self.posterior is not None}, scc={self.scc is not None}, "
                f"folders={sorted(self.folders)})")


def load_results(path) -> Results:
    """Read an ``irteval`` output folder (``--out``, or one of its sub-folders): its CSV
    tables with their index, ``posterior.nc`` as InferenceData, ``scc.nc``, and, recursively,
    its sub-folders that hold outputs.

    Parameters
    ----------
    path : str or pathlib.Path
        The folder an ``irteval`` command wrote (its ``--out``), or one of its sub-folders.

    Returns
    -------
    Results
        Its tables, posterior, SCCs and sub-folders (``res[name]``, ``res.sub_folder``).

    Raises
    ------
    FileNotFoundError
        For a missing folder (or a file).
    NoOutputError
        (a ValueError) For a folder holding no irteval output.
    ValueError
        Naming the file, for one that cannot be read.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"load_results() takes a folder's path (str or pathlib.Path), got "
                        f"{type(path).__name__}")
    path = Path(path)
    if not path.is_dir():
        raise FileNotFoundError(
            f"{path} is a file, not a folder: give the folder the irteval command wrote "
            "(its --out)" if path.exists() else f"no such folder: {path}")

    def table(name, levels):
        return _read(path / f"{name}.csv",
                     lambda: _labelled(path / f"{name}.csv", levels, known))

    def curves(name):
        with xr.open_dataset(path / name) as ds:
            if "kappa" not in ds:
                raise ValueError(f"no 'kappa' variable in it (it has {list(ds.data_vars)[:5]}); "
                                 "scc.nc is the curves irteval robustness writes")
            return ds.load()

    posterior = scc = None
    if (path / "posterior.nc").is_file():
        with az.rc_context({"data.load": "eager"}):  # into memory: the file is not held open
            posterior = _read(path / "posterior.nc", lambda: az.from_netcdf(path / "posterior.nc"))
    if (path / "scc.nc").is_file():
        scc = _read(path / "scc.nc", lambda: curves("scc.nc"))
    known = _known_labels(getattr(posterior, "posterior", None), scc)
    tables = {name: table(name, levels) for name, levels in TABLES.items()
              if (path / f"{name}.csv").is_file()}
    others = sorted(p.name for p in path.glob("*.csv") if p.stem not in TABLES)
    if others:
        warn_user(f"{path}: {', '.join(others[:5])}{' ...' if len(others) > 5 else ''} "
                  f"({plural(len(others), 'CSV file')}) not read: not tables "
                  "an irteval command writes; pandas.read_csv reads them")
    folders = {}
    for sub in sorted(p for p in path.iterdir() if p.is_dir()):
        try:
            folders[sub.name] = load_results(sub)
        except NoOutputError:  # a folder of something else
            continue
    if not (tables or posterior is not None or scc is not None or folders):
        raise NoOutputError(f"{path} holds no irteval output (none of posterior.nc, scc.nc, "
                         f"{', '.join(f'{t}.csv' for t in TABLES)}); give the --out folder of "
                         "an irteval command")
    return Results(path=path, tables=tables, posterior=posterior, scc=scc, folders=folders)
