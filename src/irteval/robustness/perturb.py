"""Noise injection of the robustness paper, with training-fold statistics only.

    numeric attribute:  x' ~ Normal(x, eps * sd_train)
    nominal attribute:  x' ~ a * p_train + (1 - a) * onehot(x),   a = 1 - exp(-eps)

i.e. a nominal value is redrawn from its training distribution with probability a and kept
otherwise (always redrawn when the training fold lacks it, as in the reference code).
Integer-coded attributes (integer or boolean columns: optdigits' pixel counts, letter's
features) are perturbed as nominal ones, as the reference code does, and stay numbers for the
models; ``integer_noise="gaussian"`` jitters them as numeric ones instead. The user says
which columns are nominal (redrawn, and one-hot encoded for the models).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._compat import renamed
from .._validation import seeded_rng
from .folds import check_features, check_noise, check_nominal


def perturb(X, X_train, *, noise=0.2, nominal=(), integer_noise="redraw", rows=None,
            random_seed=0, eps=None, random_state=None) -> pd.DataFrame:
    """A noisy copy of ``X``, with noise scaled by the statistics of ``X_train``.

    Parameters
    ----------
    X, X_train : DataFrame
        Instances to perturb and the training data of the same columns.
    noise : float, default 0.2
        Noise magnitude eps (the paper's): numeric values get Gaussian noise of sd eps times
        the column's training sd; nominal (and redrawn integer) values are redrawn from the
        training distribution with probability 1 - exp(-eps).
    nominal : sequence of column names
        Columns redrawn from their training distribution instead of getting Gaussian noise.
    integer_noise : {"redraw", "gaussian"}
        How the other integer and boolean columns are perturbed: redrawn like the nominal
        ones (the reference code's rule, the default) or with Gaussian noise like floats.
    rows : boolean mask or integer positions, optional
        Perturb only these rows of ``X`` (default: all).
    random_seed : int or numpy Generator, default 0
        Seeds the noise (the same seed, the same noisy copy).
    eps, random_state
        Old names of ``noise`` and ``random_seed``.

    Returns
    -------
    pandas.DataFrame
        ``X`` with the noise, the same index and columns (only ``rows`` changed).
    """
    noise = renamed(noise, eps, "eps", "noise", default=0.2)
    random_seed = renamed(random_seed, random_state, "random_state", "random_seed", 0)
    for name, frame in (("X", X), ("X_train", X_train)):
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(f"{name} must be a pandas DataFrame, got {type(frame).__name__}")
    if set(X.columns) != set(X_train.columns):
        raise ValueError(f"X and X_train must have the same columns; only one has "
                         f"{sorted(map(str, set(X.columns) ^ set(X_train.columns)))[:5]}")
    X_train = X_train[list(X.columns)]  # matched by name
    check_noise(noise)
    check_nominal(nominal)
    check_integer_noise(integer_noise)
    nominal = list(nominal)
    if len(X_train) < 2:
        raise ValueError(f"X_train has {len(X_train)} row(s): the noise's scale is its "
                         "columns' sd, which needs two rows at least")
    check_features(X, nominal)
    check_features(X_train, nominal, "X_train")
    numeric = [c for c in X.columns if c not in nominal]
    if integer_noise == "redraw":
        integer = [c for c in numeric if is_integer_coded(X[c]) and is_integer_coded(X_train[c])]
        numeric = [c for c in numeric if c not in integer]
        nominal += integer
    mask = _row_mask(rows, len(X))
    rng = seeded_rng(random_seed)
    out = X.copy()
    out[numeric] = out[numeric].astype(float)
    if numeric:
        sd = X_train[numeric].std(ddof=1).fillna(0.0).to_numpy()
        jitter = rng.normal(size=(int(mask.sum()), len(numeric))) * noise * sd
        out.loc[mask, numeric] = X.loc[mask, numeric].to_numpy(dtype=float) + jitter
    redraw_prob = 1 - np.exp(-noise)
    for col in nominal:
        freq = X_train[col].value_counts(normalize=True)
        # a value the training fold lacks has no weight of its own in the mixture: redrawn
        unseen = ~X[col].isin(freq.index).to_numpy() & (noise > 0)
        redraw = mask & ((rng.random(len(X)) < redraw_prob) | unseen)
        if X[col].dtype != X_train[col].dtype:  # e.g. bool here, 0/1/2 there
            out[col] = out[col].astype(_common_dtype(X[col].dtype, X_train[col].dtype))
        out.loc[redraw, col] = rng.choice(freq.index.to_numpy(), size=int(redraw.sum()),
                                          p=freq.to_numpy())
    return out


def is_integer_coded(column) -> bool:
    """An integer or boolean column (R's ``is.integer`` in the reference code; booleans too,
    which OpenML's data, the paper's, hold as nominal)."""
    return pd.api.types.is_integer_dtype(column) or pd.api.types.is_bool_dtype(column)


def _common_dtype(one, other):
    """A dtype that holds the values of both (object where NumPy has none)."""
    try:
        return np.result_type(one, other)
    except TypeError:  # pandas' own dtypes (Int64, category, string)
        return object


def check_integer_noise(integer_noise):
    if integer_noise not in ("redraw", "gaussian"):
        raise ValueError(f"integer_noise must be 'redraw' (integer columns redrawn from their "
                         f"training distribution, as nominal ones) or 'gaussian', got "
                         f"{integer_noise!r}")


def _row_mask(rows, n_rows):
    """``rows=`` of :func:`perturb` (None, a boolean mask or integer positions) as a mask."""
    mask = np.zeros(n_rows, dtype=bool)
    if rows is None:
        return ~mask
    rows = np.asarray(rows)
    if rows.dtype == bool:
        if rows.shape != (n_rows,):
            raise ValueError(f"rows= as a boolean mask needs one value per row of X ({n_rows}), "
                             f"got shape {rows.shape}")
        return rows.copy()
    if rows.ndim == 1 and not rows.size:
        return mask
    if rows.ndim != 1 or not np.issubdtype(rows.dtype, np.integer):
        raise TypeError(f"rows= takes a boolean mask or integer positions of X's rows, got "
                        f"{rows.dtype} values of shape {rows.shape}")
    if not ((rows >= -n_rows) & (rows < n_rows)).all():
        raise ValueError(f"rows= has positions outside X's {n_rows} rows (e.g. "
                         f"{rows[(rows < -n_rows) | (rows >= n_rows)][0]})")
    mask[rows] = True
    return mask
