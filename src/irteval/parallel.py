"""Per-draw loops through joblib, so a Dask or Ray backend can spread them over a cluster;
NUTS chains in worker processes forked from this one (:func:`map_processes`)."""

from __future__ import annotations

import multiprocessing
import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from joblib import Parallel, cpu_count, delayed
from joblib.parallel import BACKENDS, get_active_backend
from rich.progress import track
from threadpoolctl import threadpool_limits


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
    checked_n_jobs(n_jobs)
    return Parallel(n_jobs=n_jobs, return_as="generator")(delayed(func)(x) for x in items)


def checked_n_jobs(n_jobs):
    """``n_jobs`` where joblib takes it (None, or a whole number other than 0; -1: every core),
    else an error naming the keyword (joblib's said "n_jobs == 0 in Parallel has no
    meaning", and took the text "2")."""
    if n_jobs is not None and (isinstance(n_jobs, (bool, np.bool_))
                               or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0):
        raise (ValueError if n_jobs == 0 else TypeError)(
            f"n_jobs={n_jobs!r}: give None (this process), a number of workers, or -1 (every "
            "core)")
    return n_jobs


def can_fork() -> bool:
    """Whether :func:`map_processes` forks its workers: on Linux, outside daemonic processes
    (a ``multiprocessing.Pool`` worker may not have children), unless a joblib backend other
    than the default (loky) is configured (Dask, Ray; inside a joblib worker, where joblib
    runs nested calls in threads)."""
    return (sys.platform.startswith("linux") and not multiprocessing.current_process().daemon
            and isinstance(get_active_backend()[0], BACKENDS["loky"]))


#: the function a forked worker runs: set before the workers are forked, so that each one
#: inherits it (a density of a large matrix is not pickled once per task)
_FORKED_FUNC = None


def map_processes(func, items, *, n_jobs, progressbar=False):
    """``[func(x) for x in items]`` in ``n_jobs`` worker processes, results in order.

    Where :func:`can_fork`, the workers are forked from this process: they start in about
    0.1 s with ``func`` and everything else already in memory (joblib's loky workers import
    irteval again, ~3.5 s once a session), run with one BLAS thread per core they share, and
    end with the call; an interrupt or an error stops them, and a worker that dies (killed
    for memory) raises ``BrokenProcessPool`` instead of hanging. Elsewhere (macOS and
    Windows, where fork is unsafe or absent, or another joblib backend) through
    :func:`map_draws`.
    """
    global _FORKED_FUNC
    items = list(items)
    if not can_fork():
        return map_draws(func, items, n_jobs=n_jobs, progressbar=progressbar,
                         description="chains")
    threads = max(1, cpu_count() // n_jobs)
    _FORKED_FUNC = func
    executor = ProcessPoolExecutor(n_jobs, mp_context=multiprocessing.get_context("fork"),
                                   initializer=threadpool_limits, initargs=(threads,))
    try:
        results = executor.map(_call_forked, items)
        if progressbar:
            results = track(results, total=len(items), description="chains")
        return list(results)
    except BaseException:
        for process in list(getattr(executor, "_processes", {}).values()):
            process.terminate()  # (Python 3.14 has executor.terminate_workers())
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
        _FORKED_FUNC = None


def _call_forked(x):
    return _FORKED_FUNC(x)
