"""Fast approximations to the posterior: ADVI, the Laplace approximation and MAP.

Each returns an InferenceData shaped like NUTS output (posterior with chain/draw dims,
observed_data, constant_data), so downstream code does not care which method made it.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pymc as pm
from pymc.blocking import DictToArrayBijection, RaveledVars
from scipy import linalg, optimize
from threadpoolctl import ThreadpoolController

from .._idata import model_idata
from .._validation import percent, quiet_pymc, warn_user
from ..exceptions import ConvergenceWarning


#: the advice of an ADVI fit whose loss still moved
ADVI_FIX = "raise advi_iterations="


def advi(model, n_draws, iterations, seed, progressbar):
    """Mean-field ADVI for ``iterations`` steps, then ``n_draws`` draws (one chain); warns
    when the loss still moved more than 1% over the last tenth of the steps."""
    with model, quiet_pymc(not progressbar):  # PyMC's "Finished [100%]: Average Loss" line
        approx = pm.fit(n=iterations, method="advi", random_seed=seed, progressbar=progressbar)
    idata = approx.sample(n_draws, random_seed=seed + 1, return_inferencedata=True)
    loss = np.asarray(approx.hist)
    tail = max(len(loss) // 10, 1)
    rel_change = abs(loss[-tail:].mean() - loss[-2 * tail:-tail].mean()) / abs(loss[-tail:].mean())
    idata.attrs["advi_final_loss"] = float(loss[-tail:].mean())
    idata.attrs["advi_relative_change"] = float(rel_change)
    if rel_change > 0.01:
        warn_user(
            f"ADVI has not converged: the loss still changed by {rel_change:.1%} over the last "
            f"10% of {iterations} iterations; {ADVI_FIX}", ConvergenceWarning)
    return idata


def _negated(logp_grad):
    """-log density and -gradient, with overflow turned into +inf (so line searches step back)."""
    def neg(x):
        try:
            with np.errstate(over="ignore", invalid="ignore"):  # turned into +inf below
                logp, grad = logp_grad(x)
        except (OverflowError, ValueError, ZeroDivisionError):  # math.exp / math.log far out
            return np.inf, np.zeros_like(x)
        if not (np.isfinite(logp) and np.all(np.isfinite(grad))):
            return np.inf, np.zeros_like(x)
        return -float(logp), -np.array(grad, dtype=float)  # copy: PyTensor reuses buffers
    return neg


@functools.cache  # scanning the loaded libraries took 20 ms a fit
def scipy_own_blas():
    """The BLAS libraries that SciPy's wheels bundle for SciPy alone (under ``scipy.libs``),
    as a threadpoolctl controller; empty where SciPy shares NumPy's (conda, MKL)."""
    controller = ThreadpoolController()
    return controller.select(filepath=[lib.filepath for lib in controller.lib_controllers
                                       if Path(lib.filepath).parent.name == "scipy.libs"])


def _finder(neg, method):
    """``find(x0) -> (mode, log density, max |gradient|)`` by ``method`` from ``x0``, with
    SciPy's own OpenBLAS on one thread: after each of the optimiser's vector operations its
    idle threads spun beside NumPy's, which run the density, and made a collapsed 1PL
    gradient ten times slower (0.45 -> 4.4 ms at 1000 x 20, 10% missing). NumPy keeps its
    threads for large densities (all BLAS on one thread made the 20000 x 2000 one 30%
    slower)."""
    def find(x0):
        with scipy_own_blas().limit(limits=1):
            return _find(x0)

    def _find(x0):
        if method == "L-BFGS-B":
            last = {}

            def tracked(x):
                last["fun"], last["grad"] = neg(x)
                return last["fun"], last["grad"]

            def stop_at_rounding_noise(_):  # after each step: its point was evaluated last
                if np.max(np.abs(last["grad"])) <= 1e-9 * abs(last["fun"]):
                    raise StopIteration

            # near the mode of a log density of millions of terms its relative change reaches
            # rounding noise, where ftol alone let the line search spend a third more
            # evaluations (pairwise Bradley-Terry, 500 000 pairs: a gradient of 5e-4 at a log
            # density of 5.3e6 stays there); small densities reach gtol first, as before
            res = optimize.minimize(tracked, x0, jac=True, method="L-BFGS-B",
                                    callback=stop_at_rounding_noise,
                                    options={"maxiter": 50000, "ftol": 1e-15, "gtol": 1e-6})
            if np.isfinite(res.fun) and _max_grad(res) <= gradient_tolerance(res.fun):
                return res.x, -res.fun, _max_grad(res)
            x0 = res.x if np.isfinite(res.fun) else x0
        res = optimize.minimize(neg, x0, jac=True, method="CG",
                                options={"maxiter": 50000, "gtol": 1e-5})
        return res.x, -res.fun, _max_grad(res)

    find.neg = neg
    return find


def mode_finder_of(density, method="CG"):
    """:func:`mode_finder` for a NumPy density (:mod:`irteval.models.densities`): ``find(x0)
    -> (mode, log density, max |gradient|)``, nothing compiled."""
    return _finder(_negated(density.logp_grad), method)


def mode_finder(model, method="CG"):
    """``(find, start)``: ``find(x0)`` maximises the log density (with Jacobian) on the
    unconstrained space from the raveled point ``x0`` and returns (mode, log density,
    max |gradient|); ``start`` is the model's raveled initial point (its layout).

    ``method="CG"`` (conjugate gradients: O(n) memory, and unlike L-BFGS-B's line search it
    recovers from overflowing trial steps far from the mode) suits arbitrary starts;
    ``"L-BFGS-B"`` needs 3-5x fewer evaluations from a good start, and hands over to CG if
    it stops short."""
    ip = model.initial_point(0)
    start = DictToArrayBijection.map({v.name: ip[v.name] for v in model.value_vars})
    fn = model.logp_dlogp_function(ravel_inputs=True, initial_point=ip)
    fn.set_extra_values({})
    return _finder(_negated(fn), method), start


def _max_grad(res):
    return float(np.max(np.abs(res.jac)))


def gradient_tolerance(neg_logp):
    """Largest max |gradient| accepted at a mode: 1e-3, relaxed in proportion to the log
    density beyond 10^6 (a sum of millions of terms carries rounding noise of that order;
    at 40 million cells a gradient of 0.01 moves an ability by ~1e-6)."""
    return 1e-3 * max(1.0, abs(neg_logp) * 1e-6)


#: a hierarchical scale below this at the optimiser's end has run into the corner where the
#: density grows without bound: the log density of N(0, sigma) values near 0 rises as
#: sigma -> 0, so beside any interior mode there is this one, which MAP and Laplace cannot use
#: (the scales at the modes of irteval's hierarchies are ~0.1-10)
COLLAPSED_SCALE = 1e-6


def _mode_and_draws(find, x0, draws, chains, seed, point_only, scales=None):
    """The mode from ``x0`` and (chains, draws, n) draws of N(mode, (-H)^-1), H by central
    differences of the exact gradient (only the mode, as one draw, with ``point_only``).
    ``scales``: {name: slice of x} of log hierarchical scales, refused when collapsed."""
    mode, logp, max_grad = find(x0)
    collapsed = [name.removesuffix("_log__") for name, where in (scales or {}).items()
                 if np.min(mode[where]) < np.log(COLLAPSED_SCALE)]
    if collapsed:
        raise ValueError(
            f"MAP/Laplace found no mode: the optimiser ran into {', '.join(collapsed)} -> 0, "
            "where a hierarchical density grows without bound, and found no mode away from "
            "it (too few answers to pin the spread down); use method='nuts' (the default)")
    if max_grad > gradient_tolerance(logp):
        warn_user(f"the optimiser stopped before the mode (max |gradient| {max_grad:.2g})",
                  ConvergenceWarning)
    if point_only:
        return mode[None, None, :]
    h, n = 1e-5, len(mode)
    hess = np.empty((n, n))
    for k in range(n):
        step = np.zeros(n)
        step[k] = h
        hess[:, k] = (find.neg(mode + step)[1] - find.neg(mode - step)[1]) / (2 * h)
    try:
        chol = linalg.cholesky((hess + hess.T) / 2, lower=True)
    except linalg.LinAlgError as err:
        raise RuntimeError(
            "the Hessian at the mode is not positive definite, so the Laplace "
            "approximation does not exist; use method='nuts' or method='advi'") from err
    z = np.random.default_rng(seed).standard_normal((chains * draws, n))
    return (mode + linalg.solve_triangular(chol.T, z.T, lower=False).T).reshape(
        chains, draws, n)


def laplace(model, draws, chains, seed, point_only, start_point=None):
    """Mode of the log density on the unconstrained space (with Jacobian), and the
    Gaussian N(mode, (-H)^-1) around it. The optimiser starts at ``start_point`` (a dict of
    value-variable values) or the model's initial point."""
    find, start = mode_finder(model)
    x0 = start.data
    if start_point is not None:
        x0 = DictToArrayBijection.map({v.name: start_point[v.name]
                                       for v in model.value_vars}).data
    return draws_to_idata(model, _mode_and_draws(find, x0, draws, chains, seed, point_only),
                          start)


def laplace_density(density, model, draws, chains, seed, point_only, start=None):
    """:func:`laplace` for a NumPy density (:mod:`irteval.models.densities`), by L-BFGS
    from ``start`` (by default the density's own): no compilation. A collapse of the
    density's ``hierarchical_scales`` (if it names any) is refused."""
    find = mode_finder_of(density, "L-BFGS-B")
    start = density.start() if start is None else start
    scales = {name: density.layout.slices[name]
              for name in getattr(density, "hierarchical_scales", ())}
    flat = _mode_and_draws(find, start, draws, chains, seed, point_only, scales)
    return density_idata(density, model, flat)


def density_idata(density, model, flat):
    """Unconstrained draws (chain, draw, n) of a density -> InferenceData of ``model``
    (posterior with the density's dims and the model's coords, observed and constant data)."""
    n_chain, n_draw, _ = flat.shape
    with np.errstate(over="ignore", invalid="ignore"):  # said below, in the fit's words
        expanded = [density.expand(x) for x in flat.reshape(n_chain * n_draw, -1)]
        posterior = {name: np.stack([e[name] for e in expanded]).reshape(
            n_chain, n_draw, *density.shapes[name]) for name in density.names}
    bad = {name: (~np.isfinite(v)).reshape(n_chain * n_draw, -1).any(axis=1)
           for name, v in posterior.items()}
    overflow = [name for name, b in bad.items() if b.any()]
    if overflow:
        n_bad = int(np.any([bad[name] for name in overflow], axis=0).sum())
        what = (f"the Laplace approximation is too wide for these data: "
                f"{percent(n_bad, n_chain * n_draw)} of its draws" if n_chain * n_draw > 1
                else "the MAP point")
        warn_user(f"{what} of {', '.join(overflow)} overflow to inf or nan (a log scale with a "
                  "huge sd: too few answers to pin it down), so the fit means little; use "
                  "method='nuts' (the default)", ConvergenceWarning)
    return model_idata(model, posterior, density.dims)


def draws_to_idata(model, flat, start):
    """Unconstrained raveled draws (chain, draw, n) -> InferenceData like pm.sample's."""
    outputs = [v for v in model.unobserved_value_vars if not v.name.endswith("__")]
    fn = model.compile_fn(outputs, inputs=model.value_vars, on_unused_input="ignore",
                          point_fn=False)
    names = [v.name for v in outputs]
    n_chain, n_draw, _ = flat.shape
    values = {name: [] for name in names}
    for x in flat.reshape(n_chain * n_draw, -1):
        point = DictToArrayBijection.rmap(RaveledVars(x, start.point_map_info))
        for name, val in zip(names, fn(*[point[v.name] for v in model.value_vars])):
            values[name].append(val)
    posterior = {k: np.stack(v).reshape(n_chain, n_draw, *np.shape(v[0]))
                 for k, v in values.items()}
    return model_idata(model, posterior)
