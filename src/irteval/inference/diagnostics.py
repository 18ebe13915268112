"""Convergence diagnostics of a NUTS fit, and the warning that names the fix."""

from __future__ import annotations

import arviz as az
import numpy as np

from .._validation import warn_user
from ..exceptions import ConvergenceWarning


def diagnostics(idata, var_names=None, max_per_dim=None, subset=None) -> dict:
    """Divergences, worst R-hat and smallest bulk/tail ESS of a NUTS fit.

    ``max_per_dim``: check at most this many entries along each dimension (a seeded random
    subset; ArviZ's per-variable ESS costs seconds per thousand), e.g. 1000 of 20000
    instance difficulties. ``subset``: {dim: positions} to check instead along those dims.
    """
    post = idata.posterior
    if var_names is not None:
        post = post[list(var_names)]
    subset = dict(subset or {})
    if max_per_dim is not None:
        rng = np.random.default_rng(0)
        subset.update({d: np.sort(rng.choice(n, max_per_dim, replace=False))
                       for d, n in post.sizes.items()
                       if d not in ("chain", "draw", *subset) and n > max_per_dim})
    subset = {d: idx for d, idx in subset.items() if d in post.sizes}
    if subset:
        checked = "; ".join(f"{d}: {len(idx)} of {post.sizes[d]}" for d, idx in subset.items())
        post = post.isel(subset)
    # R-hat needs two chains (ArviZ logs a shape warning for one); ESS needs 4 draws
    rhat = az.rhat(post) if post.sizes["chain"] > 1 else None
    ess_bulk = az.ess(post, method="bulk")
    ess_tail = az.ess(post, method="tail")
    div = idata.sample_stats.get("diverging")
    return {
        "divergences": int(div.sum()) if div is not None else 0,
        "max_rhat": _worst(rhat, np.max) if rhat is not None else float("nan"),
        "min_ess_bulk": _worst(ess_bulk, np.min),
        "min_ess_tail": _worst(ess_tail, np.min),
        "chains": int(post.sizes["chain"]),
        "draws": int(post.sizes["draw"]),
        **({"diagnostics_subset": checked} if subset else {}),
    }


def _above(value, limit):
    """``value`` with enough digits to show that it exceeds ``limit`` (1.0104, not 1.010)."""
    for digits in range(3, 8):
        text = f"{value:.{digits}f}"
        if float(text) > limit:
            return text
    return f"{value:.8g}"


def _worst(ds, reduce):
    values = np.concatenate([ds[v].values.ravel() for v in ds.data_vars])
    values = values[np.isfinite(values)]
    return float(reduce(values)) if len(values) else float("nan")


def check_nuts(idata, var_names=None, rhat_max=1.01, ess_per_chain=100, max_per_dim=1000,
               subset=None):
    """Record :func:`diagnostics` in ``idata.attrs`` and warn (ConvergenceWarning) with the
    remedy when a check fails."""
    diag = diagnostics(idata, var_names, max_per_dim, subset)
    idata.attrs.update({k: v for k, v in diag.items() if k not in ("chains", "draws")})
    problems = []
    if diag["divergences"]:
        problems.append(
            f"{diag['divergences']} divergent transitions: raise target_accept (e.g. 0.95-0.99) "
            "or check the priors")
    if diag["chains"] > 1 and diag["max_rhat"] > rhat_max:
        problems.append(
            f"max R-hat {_above(diag['max_rhat'], rhat_max)} > {rhat_max}: chains disagree; run "
            "longer (more tune/draws) and compare the chains (az.plot_trace) for separate modes")
    need = ess_per_chain * diag["chains"]
    low = min(diag["min_ess_bulk"], diag["min_ess_tail"])
    if low < need:
        problems.append(f"smallest bulk/tail ESS {low:.0f} < {need}: draw more (draws=...)")
    if problems:
        warn_user("NUTS diagnostics failed: " + "; ".join(problems), ConvergenceWarning)
