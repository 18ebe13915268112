"""Per-draw loops through joblib, so a Dask or Ray backend can spread them over a cluster."""

from __future__ import annotations

from joblib import Parallel, delayed
from rich.progress import track


def map_draws(func, items, *, n_jobs=None, progressbar=False, description="posterior draws"):
    """``[func(x) for x in items]`` through :class:`joblib.Parallel`.

    ``n_jobs=None`` runs in this process unless a ``joblib.parallel_config(...)`` context
    says otherwise; ``n_jobs=-1`` uses every core; inside
    ``joblib.parallel_config(backend="dask")`` (or ``"ray"``) the calls go to that cluster.
    Results come back in the order of ``items``.
    """
    items = list(items)
    results = imap(func, items, n_jobs=n_jobs)
    if progressbar:
        results = track(results, total=len(items), description=description)
    return list(results)


def imap(func, items, *, n_jobs=None):
    """``func(x)`` for each of ``items`` through :class:`joblib.Parallel`, as a generator of
    the results in order (as :func:`map_draws`, without collecting them)."""
    return Parallel(n_jobs=n_jobs, return_as="generator")(delayed(func)(x) for x in items)
