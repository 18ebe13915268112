"""Reprs of result dataclasses that fit on a screen: each field's kind and size, not its data
(the dataclass default printed every table in full)."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pandas as pd
import xarray as xr


def describe(value):
    """'DataFrame (player: 16) x 16 columns', 'DataArray (chain: 4, draw: 1000)', '0.031'..."""
    if isinstance(value, pd.DataFrame):
        return f"DataFrame ({_axis(value.index)}) x {value.shape[1]} columns"
    if isinstance(value, pd.Series):
        return f"Series ({_axis(value.index)})"
    if isinstance(value, (xr.DataArray, xr.Dataset)):
        sizes = ", ".join(f"{dim}: {size}" for dim, size in value.sizes.items())
        return f"{type(value).__name__} ({sizes})"
    if isinstance(value, np.ndarray):
        return f"ndarray {value.shape}"
    if isinstance(value, (float, np.floating)):
        return f"{value:.4g}"
    return repr(value)


def counted(n, name, role):
    """'16 models (players)': a count in the user's name, with the role where they differ."""
    return f"{n} {name}s" + (f" ({role}s)" if name != role else "")


def _axis(index):
    names = [name for name in index.names if name is not None]
    return f"{', '.join(map(str, names)) or 'rows'}: {len(index)}"


class ShortRepr:
    """A dataclass printed as its name and one line a field (declare it ``repr=False``)."""

    def __repr__(self):
        lines = [f"    {f.name}: {describe(getattr(self, f.name))}" for f in fields(self)]
        return "\n".join([f"{type(self).__name__}("] + lines + [")"])
