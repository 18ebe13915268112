"""Convergence diagnostics of a NUTS fit, and the warning that names the fix."""

from __future__ import annotations

import numbers

import numpy as np
from scipy import fft
from scipy.special import ndtri

from .._validation import count, plural, seeded_rng, warn_user
from ..exceptions import ConvergenceWarning


# ---------------------------------------------------------------------- vectorised
# ArviZ's rank-normalised split R-hat and bulk/tail ESS (Vehtari et al. 2021), computed for
# many parameters at once: ArviZ loops over parameters in Python (3.7 s for 1000
# difficulties x 4 x 1000 draws). The same numbers (tests/test_inference.py checks them
# against az.rhat and az.ess). :func:`convergence` takes (chain, draw, parameter) draws;
# inside, parameters come first, (parameter, chain, draw), so that every sort, scan and FFT
# runs along contiguous memory.

def _by_parameter(x):
    return np.ascontiguousarray(np.moveaxis(np.asarray(x, dtype=float), 2, 0))


def _split(x):
    half = x.shape[2] // 2
    return np.concatenate([x[:, :, :half], x[:, :, x.shape[2] - half:]], axis=1)


def _z_scale(x):
    """Normal scores of the pooled ranks (ties averaged; Blom's offset 3/8), and the pooled
    draws sorted (parameter, draw). Without ties (the rule for continuous draws) the ranks are
    a permutation, and the scores one table put in sorted order: a third of the time."""
    p, m, n = x.shape
    size = m * n
    flat = x.reshape(p, size)
    order = np.argsort(flat, axis=1)
    ordered = np.take_along_axis(flat, order, axis=1)
    differs = ordered[:, 1:] != ordered[:, :-1]
    if differs.all():
        rank = np.broadcast_to(np.arange(1.0, size + 1), flat.shape)
        z = np.empty(flat.shape)
        np.put_along_axis(z, order, ndtri((rank - 3 / 8) / (size + 1 / 4)), axis=1)
        return z.reshape(x.shape), ordered
    rank = _average_ranks(order, differs)
    return ndtri((rank - 3 / 8) / (size + 1 / 4)).reshape(x.shape), ordered


def _sorted_quantile(ordered, q):
    """``np.quantile(..., q, axis=1)`` (its default, linear interpolation) of rows already
    sorted."""
    h = (ordered.shape[1] - 1) * q
    lo = int(h)
    return ordered[:, lo] + (h - lo) * (ordered[:, min(lo + 1, ordered.shape[1] - 1)]
                                        - ordered[:, lo])


def _average_ranks(order, differs):
    """Ranks 1..n along each row, tied values sharing their mean rank (scipy's
    ``rankdata(method="average")``, without its loop over rows), from each row's ``order``
    (argsort) and where its sorted values differ from the next."""
    p, n = order.shape
    pos = np.arange(n)
    edge = np.ones((p, 1), bool)
    first = np.maximum.accumulate(np.where(np.hstack([edge, differs]), pos, 0), axis=1)
    last = np.minimum.accumulate(np.where(np.hstack([differs, edge]), pos, n - 1)[:, ::-1],
                                 axis=1)[:, ::-1]
    rank = np.empty(order.shape)
    np.put_along_axis(rank, order, (first + last) / 2 + 1, axis=1)
    return rank


def _rhat(z):
    n = z.shape[2]
    between = n * z.mean(axis=2).var(axis=1, ddof=1)
    within = z.var(axis=2, ddof=1).mean(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):  # constant: NaN, as ArviZ
        return np.sqrt((between / within + n - 1) / n)


def convergence(x, block=500):
    """(R-hat, bulk ESS, tail ESS) per parameter of (chain, draw, parameter) draws, as
    ``az.rhat`` (rank-normalised split R-hat, the larger of the bulk's and the folded
    draws') and ``az.ess(method="bulk" | "tail")`` (the tail's: the smaller ESS of the
    indicators x <= q_5%, x <= q_95%), ``block`` parameters at a time. NaN where a
    parameter has a NaN draw, R-hat NaN with one chain, everything NaN under 4 draws."""
    x = np.asarray(x, dtype=float)
    n_chain, n_draw, p = x.shape
    out = np.full((3, p), np.nan)
    if n_draw < 4:
        return tuple(out)
    for lo in range(0, p, block):
        part = _by_parameter(x[:, :, lo:lo + block])
        split = _split(part)
        z, ordered = _z_scale(split)
        if n_chain > 1:
            folded = np.abs(split - _sorted_quantile(ordered, 0.5)[:, None, None])
            out[0, lo:lo + block] = np.maximum(_rhat(z), _rhat(_z_scale(folded)[0]))
        out[1, lo:lo + block] = _ess(z)
        if split.shape[2] < part.shape[2]:  # an odd number of draws: split left one out
            ordered = np.sort(part.reshape(len(part), -1), axis=1)
        q = (_sorted_quantile(ordered, 0.05), _sorted_quantile(ordered, 0.95))
        out[2, lo:lo + block] = np.minimum(
            *(_ess(_split((part <= qk[:, None, None]).astype(float))) for qk in q))
    out[:, np.isnan(x).any(axis=(0, 1))] = np.nan
    return tuple(out)


def _ess(x):
    """ESS of (parameter, chain, draw) draws by Geyer's initial monotone sequence of the
    autocorrelations, as ArviZ's ``_ess`` (one parameter at a time there)."""
    p, m, n = x.shape
    size = m * n
    centred = x - x.mean(axis=2, keepdims=True)
    length = fft.next_fast_len(2 * n)
    # scipy's FFT in threads, one per core
    spectrum = fft.rfft(centred, n=length, axis=2, workers=-1)
    acov = fft.irfft(spectrum * np.conjugate(spectrum), n=length, axis=2, workers=-1)[:, :, :n] / n
    mean_var = acov[:, :, 0].mean(axis=1) * n / (n - 1.0)
    var_plus = mean_var * (n - 1.0) / n
    if m > 1:
        var_plus = var_plus + x.mean(axis=2).var(axis=1, ddof=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        rho = (1.0 - (mean_var[:, None] - acov.mean(axis=1)) / var_plus[:, None]).T  # lag, p
    rho_t = np.zeros((n, p))
    rho_t[0], rho_t[1] = 1.0, rho[1]
    even, odd = np.ones(p), rho[1].copy()
    last = np.ones(p, dtype=int)  # each parameter's t when Geyer's positive sequence ends
    t = 1
    active = (even + odd) > 0
    while t < n - 3 and active.any():  # initial positive sequence
        even = np.where(active, rho[t + 1], even)
        odd = np.where(active, rho[t + 2], odd)
        keep = active & (even + odd >= 0)
        rho_t[t + 1] = np.where(keep, even, rho_t[t + 1])
        rho_t[t + 2] = np.where(keep, odd, rho_t[t + 2])
        last = np.where(active, t + 2, last)
        t += 2
        active &= (even + odd) > 0
    max_t = last - 2
    cols = np.arange(p)
    rho_t[max_t + 1, cols] = np.where(even > 0, even, rho_t[max_t + 1, cols])
    t = 1
    while (t <= max_t - 2).any():  # initial monotone sequence
        before = rho_t[t - 1] + rho_t[t]
        lower = (t <= max_t - 2) & (rho_t[t + 1] + rho_t[t + 2] > before)
        rho_t[t + 1] = np.where(lower, before / 2, rho_t[t + 1])
        rho_t[t + 2] = np.where(lower, before / 2, rho_t[t + 2])
        t += 2
    lags = np.arange(n)[:, None]
    tau = (-1.0 + 2.0 * np.where(lags <= max_t, rho_t, 0.0).sum(axis=0)
           + np.where(lags == max_t + 1, rho_t, 0.0).sum(axis=0))
    tau = np.maximum(tau, 1 / np.log10(size))
    ess = size / tau
    ess[np.isnan(rho_t).any(axis=0)] = np.nan
    ess[np.ptp(x.reshape(p, -1), axis=1) < np.finfo(float).resolution] = size
    return ess


def diagnostics(idata, var_names=None, max_per_dim=None, subset=None, *,
                random_seed=0) -> dict:
    """Divergences, worst R-hat and smallest bulk/tail ESS of a NUTS fit (over the entries
    where they are defined), and ``undefined``: (entries where R-hat or ESS is not, entries
    checked).

    Parameters
    ----------
    idata : arviz.InferenceData
        A NUTS fit (:func:`irteval.fit` with ``method="nuts"``) of any model: one with
        ``sample_stats``; MAP, Laplace and ADVI fits, which draw independently, are refused.
    var_names : str or list of str, optional
        The posterior variables to check; by default all of them.
    max_per_dim : int, optional
        Check at most this many entries along each dimension (a random subset drawn with
        ``random_seed``; the checks cost ~2 s per thousand parameters of 4 x 1000 draws),
        e.g. 1000 of 20000 instance difficulties; ``None``: every entry.
    subset : dict, optional
        {dim: positions} to check instead along those dims; a dim the posterior lacks is
        refused.
    random_seed : int, numpy.random.Generator or None
        Seeds the random subset of ``max_per_dim``; the same seed checks the same entries.

    Returns
    -------
    dict
        ``divergences`` (int), ``max_rhat``, ``min_ess_bulk``, ``min_ess_tail`` (floats, NaN
        where no entry has one; R-hat needs two chains), ``chains``, ``draws`` (per chain),
        ``undefined`` (a tuple: entries where R-hat or ESS is undefined, not counting those
        constant in every draw, and entries checked) and, where a subset was checked,
        ``diagnostics_subset`` (e.g. ``"item: 1000 of 20000"``).
    """
    return _diagnose(idata, var_names, max_per_dim, subset, random_seed)[0]


def _diagnose(idata, var_names, max_per_dim, subset, random_seed=0):
    """:func:`diagnostics`' dict, and the entries with the worst R-hat and the smallest
    bulk/tail ESS, as "name[label, ...]" (None where undefined)."""
    if not hasattr(idata, "groups"):
        raise TypeError(f"diagnostics() takes a fit (an InferenceData), got "
                        f"{type(idata).__name__}")
    if "sample_stats" not in idata.groups():
        raise ValueError(f"diagnostics() checks NUTS draws; this fit "
                         f"({idata.attrs.get('irteval_method', 'no sampler')}) has none (MAP, "
                         "Laplace and ADVI draw independently: nothing to converge)")
    post = idata.posterior
    if var_names is not None:
        var_names = [var_names] if isinstance(var_names, str) else list(var_names)
        unknown = [v for v in var_names if v not in post.data_vars]
        if unknown:
            raise ValueError(f"var_names={unknown} are not posterior variables; it has "
                             f"{list(post.data_vars)}")
        post = post[var_names]
    if subset is not None and not isinstance(subset, dict):
        raise TypeError(f"subset= takes {{dim: positions}}, e.g. {{'item': range(100)}}; got "
                        f"{type(subset).__name__}")
    subset = dict(subset or {})
    unknown = set(subset) - set(idata.posterior.sizes)
    if unknown:
        raise ValueError(f"subset= names dims {sorted(unknown)} that the posterior does not "
                         f"have (it has "
                         f"{sorted(set(idata.posterior.sizes) - {'chain', 'draw'})})")
    for dim, idx in subset.items():
        given = np.asarray(list(idx) if isinstance(idx, (set, frozenset)) else idx)
        n = idata.posterior.sizes[dim]
        if given.dtype.kind == "b":
            raise ValueError(f"subset={{{dim!r}: ...}} takes positions, not a boolean mask: give "
                             "np.flatnonzero(mask)")
        idx = subset[dim] = np.atleast_1d(given)
        if idx.dtype.kind not in "iu" or idx.ndim != 1 or not ((-n <= idx) & (idx < n)).all():
            raise ValueError(f"subset={{{dim!r}: ...}} takes positions 0 to {n - 1} (labels: "
                             f"np.flatnonzero(idata.posterior[{dim!r}].isin(labels))); got "
                             f"{np.ravel(idx).tolist()[:5]}")
    if max_per_dim is not None:
        count(max_per_dim, "max_per_dim")
        rng = seeded_rng(random_seed)
        subset.update({d: np.sort(rng.choice(n, max_per_dim, replace=False))
                       for d, n in post.sizes.items()
                       if d not in ("chain", "draw", *subset) and n > max_per_dim})
    subset = {d: idx for d, idx in subset.items() if d in post.sizes}
    post = post.assign_coords({d: np.arange(n) for d, n in post.sizes.items()  # (positions
                               if d not in post.coords and d not in ("chain", "draw")})  # named)
    if subset:
        checked = "; ".join(f"{d}: {len(idx)} of {post.sizes[d]}" for d, idx in subset.items())
        post = post.isel(subset)
    n_chain, n_draw = post.sizes["chain"], post.sizes["draw"]
    draws = np.concatenate([post[v].transpose("chain", "draw", ...).values.reshape(
        n_chain, n_draw, -1) for v in post.data_vars], axis=2)
    rhat, ess_bulk, ess_tail = convergence(draws)
    ess = np.fmin(ess_bulk, ess_tail)
    undefined = ~(np.isfinite(ess_bulk) & np.isfinite(ess_tail))
    if n_chain > 1:
        undefined |= ~np.isfinite(rhat)
    undefined &= ~(np.ptp(draws, axis=(0, 1)) == 0)  # fixed by the model (reference=): no check
    div = idata.sample_stats.get("diverging")
    worst = [_entry_name(post, int(np.argmax(np.where(np.isfinite(v), sign * v, -np.inf))))
             if np.isfinite(v).any() else None for v, sign in ((rhat, 1), (ess, -1))]
    return {
        "divergences": int(div.sum()) if div is not None else 0,
        "max_rhat": _worst(rhat, np.max),
        "min_ess_bulk": _worst(ess_bulk, np.min),
        "min_ess_tail": _worst(ess_tail, np.min),
        "chains": int(post.sizes["chain"]),
        "draws": int(post.sizes["draw"]),
        "undefined": (int(undefined.sum()), int(undefined.size)),
        **({"diagnostics_subset": checked} if subset else {}),
    }, *worst


def _entry_name(post, k):
    """"name[label, ...]" of the k-th entry of the posterior's variables flattened in order
    (as :func:`diagnostics` concatenates them)."""
    for name, values in post.data_vars.items():
        values = values.transpose("chain", "draw", ...)
        shape, dims = values.shape[2:], values.dims[2:]
        size = int(np.prod(shape))
        if k < size:
            position = np.unravel_index(k, shape) if shape else ()
            labels = [str(post[d].values[i]) for d, i in zip(dims, position)]
            return f"{name}[{', '.join(labels)}]" if labels else str(name)
        k -= size
    raise IndexError(k)


#: R-hat above this fails the NUTS diagnostics (check_nuts' default; the CLI prints against it)
RHAT_MAX = 1.01
#: the bulk and tail ESS check_nuts asks of every chain
ESS_PER_CHAIN = 100


def as_compared(value, limit):
    """``value`` to 3 decimals, or as many more as show that it exceeds ``limit`` (1.0104,
    not 1.010 beside 1.01)."""
    if not value > limit:
        return f"{value:.3f}"
    for digits in range(3, 8):
        text = f"{value:.{digits}f}"
        if float(text) > limit:
            return text
    return f"{value:.8g}"


def failed_checks(idata):
    """What failed of the NUTS diagnostics a fit recorded in its attrs (:func:`check_nuts`),
    e.g. ``"max R-hat 1.012, 1 divergence"``; "" where nothing failed or nothing was
    recorded (MAP, ADVI, Laplace)."""
    attrs = idata.attrs
    failed = []
    if attrs.get("max_rhat", 1.0) > RHAT_MAX:
        failed.append(f"max R-hat {as_compared(attrs['max_rhat'], RHAT_MAX)}")
    divergences = int(attrs.get("divergences", 0))  # (numpy's int64 once read from netCDF)
    if divergences:
        failed.append(plural(divergences, "divergence"))
    chains = idata.posterior.sizes.get("chain", 1) if "posterior" in idata.groups() else 1
    low = min((float(attrs[k]) for k in ("min_ess_bulk", "min_ess_tail")
               if np.isfinite(attrs.get(k, np.nan))), default=np.inf)
    if low < ESS_PER_CHAIN * chains:
        failed.append(f"smallest ESS {low:.0f}")
    return ", ".join(failed)


def _worst(values, reduce):
    values = values[np.isfinite(values)]
    return float(reduce(values)) if len(values) else float("nan")


def check_nuts(idata, var_names=None, rhat_max=RHAT_MAX, ess_per_chain=ESS_PER_CHAIN,
               max_per_dim=1000, subset=None):
    """Record :func:`diagnostics` in ``idata.attrs`` and warn (ConvergenceWarning) with the
    remedy when a check fails."""
    diag, worst_rhat, least_ess = _diagnose(idata, var_names, max_per_dim, subset)
    idata.attrs.update({k: v for k, v in diag.items()
                        if k not in ("chains", "draws", "undefined")})
    problems = []
    if diag["divergences"]:
        problems.append(
            f"{diag['divergences']} divergent transitions: raise target_accept= (e.g. 0.95-0.99) "
            "or check the priors")
    if diag["chains"] > 1 and diag["max_rhat"] > rhat_max:
        problems.append(
            f"max R-hat {as_compared(diag['max_rhat'], rhat_max)} > {rhat_max} ({worst_rhat}): "
            "chains disagree; run longer (more tune= and draws=) and compare the chains "
            "(az.plot_trace) for separate modes")
    need = ess_per_chain * diag["chains"]
    low = min((v for v in (diag["min_ess_bulk"], diag["min_ess_tail"]) if v == v), default=need)
    undefined, checked = diag["undefined"]
    if undefined:
        problems.append(f"R-hat or ESS is undefined for {undefined} of {checked} checked "
                        f"entries (NaN or constant draws in a chain, or too few draws: "
                        f"{diag['draws']} per chain): draw more (draws=...) and look at their "
                        "traces (az.plot_trace)")
    if low < need:
        problems.append(f"smallest bulk/tail ESS {low:.0f} < {need} ({least_ess}): draw more "
                        "(draws=...)")
    if problems:
        warn_user(f"NUTS diagnostics failed{_which_fit(idata.attrs)}: " + "; ".join(problems),
                  ConvergenceWarning)


def _which_fit(attrs):
    """" (3pl)", " (m2pl, 2 skills)", " (graded)" ... for a warning: which of several fits in
    a loop or a notebook cell it is about ("" where the fit does not say)."""
    name = attrs.get("irteval_model")
    if not name:
        return ""
    dims = attrs.get("dims")
    return f" ({name}{f', {dims} skills' if isinstance(dims, numbers.Integral) else ''})"
