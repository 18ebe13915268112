"""InferenceData of a PyMC model from NumPy arrays: posterior, observed and constant data."""

from __future__ import annotations

import arviz as az
import numpy as np
import pandas as pd
import xarray as xr
from arviz.data.base import make_attrs
from pymc.backends.arviz import find_constants, find_observations


def model_idata(model, posterior=None, dims=None) -> az.InferenceData:
    """``model``'s observed_data and constant_data, and ``posterior`` {name: (chain, draw,
    ...) values} when given, with the model's dims and coords (``dims``: more {name: dims}, a
    density's); a scalar datum is one value long, a dim without coords is numbered from
    ``az.rcParams["data.index_origin"]``, an unnamed one is ``<name>_dim_<i>``, as in
    ``az.from_dict``.

    Every coordinate is converted once for all groups: ``az.from_dict`` deep-copies and
    converts every coordinate for every variable (0.4 s for the 500 000 pairs of a pairwise
    Bradley–Terry)."""
    dims = {**model.named_vars_to_dims, **(dims or {})}
    coords = xr.Coordinates({k: coordinate_index(v) for k, v in model.coords.items()})
    groups = {"observed_data": (find_observations(model), ()),
              "constant_data": (find_constants(model), ())}
    if posterior is not None:
        groups = {"posterior": (posterior, ("chain", "draw")), **groups}
    return az.InferenceData(**{group: _dataset(values, lead, dims, coords)
                               for group, (values, lead) in groups.items() if values})


def assign_coords(idata, coords):
    """``coords`` {name: labels of the dim ``name``, or an ``xarray.Variable`` on its dims}
    onto every group of ``idata`` that has those dims, in place."""
    dims = {k: v.dims if isinstance(v, xr.Variable) else (k,) for k, v in coords.items()}
    for group in idata.groups():
        data = idata[group]
        own = {k: v for k, v in coords.items() if set(dims[k]) <= set(data.dims)}
        if own:
            setattr(idata, group, data.assign_coords(own))


def _dataset(values, lead, dims, coords):
    variables = {}
    for name, value in values.items():
        value = np.asarray(value) if lead else np.atleast_1d(value)
        named = tuple(dims.get(name) or ())
        core = value.ndim - len(lead)
        variables[name] = (lead + named + tuple(f"{name}_dim_{i}"
                                                 for i in range(len(named), core)), value)
    sizes = {d: n for var_dims, value in variables.values() for d, n in zip(var_dims, value.shape)}
    own = {d: coords[d] for d in sizes if d in coords}
    origin = az.rcParams["data.index_origin"]
    numbered = {d: np.arange(origin, n + origin) for d, n in sizes.items() if d not in coords}
    return xr.Dataset(variables, coords={**own, **numbered}, attrs=make_attrs())


def coordinate_index(labels):
    """Coordinate labels as the Index xarray keeps: strings as objects (straight away: pandas
    would first convert them to its str dtype, 0.07 s for 500 000 labels)."""
    if pd.api.types.infer_dtype(labels, skipna=False) == "string":
        return pd.Index(labels, dtype=object)
    index = pd.Index(labels)
    return index.astype(object) if pd.api.types.is_string_dtype(index.dtype) else index
