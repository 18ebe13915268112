"""``sampler="numpyro"`` on a GPU against the CPU, in one prepared run (issue 14).

    python benchmarks/gpu.py --out DIR [--budget SECONDS]   # where JAX sees a GPU
    python benchmarks/gpu.py --sizes 200x20 --fits 2pl_nuts:200x20:numpyro   # a quick try
    python benchmarks/gpu.py --out DIR --platforms cuda   # JAX's CPU times already known

1. Time per gradient (the log density and its gradient, what NUTS evaluates at every
   leapfrog step) of the 2PL and of the 1PL with 10% of cells missing, in the form a default
   fit samples, at 5000 x 50 and 20000 x 200: irteval's NumPy density on one core (the default
   CPU path: nutpie, one core per chain), the PyMC model through JAX on the CPU (all cores)
   and through JAX on the GPU. Each platform in its own process. Also the three JAX forms of
   the missing-cell likelihood (:func:`missing_cell_forms`).
2. Full fits with ``sampler="numpyro"`` on the GPU: scale.py's cases (4 x 1000 draws, fresh
   process each, compile included), with R-hat, bulk ESS, 90% coverage and the number of
   gradient evaluations. The CPU time of the same fit is projected as the gradients of the
   draws x 2 (warm-up as long as the draws, at the same cost) / 4 chains x the NumPy density's
   time per gradient (the CPU path runs the chains in parallel, one core each).
3. If the budget leaves time: the 5000 x 50 fits with JAX on the CPU.

Cases that outrun the budget are recorded as timeouts. On a machine without the project's
packages, carry them as wheels (benchmarks/README.md, "GPU").

Writes ``gradients.csv``, ``fits.csv`` and ``gpu.json`` (the machine) under ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
import scale  # noqa: E402

SIZES = ("5000x50", "20000x200")
MODELS = ("2pl", "1pl_missing")
#: cheapest first: on 2026-12-04 the 2PL at 20000 x 200, run first, used the whole budget
FITS = ("1pl_missing_nuts:5000x50:numpyro", "2pl_nuts:5000x50:numpyro",
        "1pl_missing_nuts:20000x200:numpyro", "2pl_nuts:20000x200:numpyro")
CPU_FITS = ("1pl_missing_nuts:5000x50:numpyro", "2pl_nuts:5000x50:numpyro")


def default_form(name, size):
    """The PyMC model a default NUTS fit samples (the collapsed 1PL where the rule picks it)
    and its NumPy density."""
    import irteval as ie

    n_items, n_resp = (int(v) for v in size.split("x"))
    y, _ = scale.simulate_binary(n_items, n_resp, missing=0.1 if "missing" in name else 0.0,
                                 discrimination=name == "2pl")
    model = ie.models.onepl(scale.responses(y), discrimination=name == "2pl")
    marginal = model.marginal("nuts")
    return (model, model.density()) if marginal is None else (marginal.model, marginal.density)


def median_time(f, repeats=20):
    f()  # compilation / warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def gradient_times(platform, sizes):
    """Median seconds per log density + gradient for every model and size on ``platform``
    (this process's JAX platform), and of the NumPy density on one thread."""
    import warnings

    import jax
    from pymc.sampling.jax import get_jaxified_logp
    from threadpoolctl import threadpool_limits

    jax.config.update("jax_enable_x64", True)
    rows = []
    for size in sizes:
        for name in MODELS:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model, density = default_form(name, size)
            point = model.initial_point()
            x = [jax.device_put(np.asarray(point[v.name])) for v in model.value_vars]
            logp_grad = jax.jit(jax.value_and_grad(get_jaxified_logp(model)))
            row = {"model": name, "size": size, "platform": platform,
                   "jax_s": median_time(lambda: jax.block_until_ready(logp_grad(x)))}
            z = density.start()
            with threadpool_limits(1):
                row["numpy_s"] = median_time(lambda: density.logp_grad(z))
            print(json.dumps(row), flush=True)
            rows.append(row)
    return rows


def missing_cell_forms(size, missing=0.1, seed=0):
    """Three JAX forms of the 1PL log-likelihood with missing cells, each -> (logp_grad, x):
    ``gather`` (PyMC's graph: theta[j] - b[i] per observed cell; its gradient adds 0.9 x
    items x respondents terms into the respondents' few entries), ``flat`` (the full matrix
    theta - b, then the observed cells by flat index: the gradient writes each cell once) and
    ``masked`` (the full matrix, unobserved cells weighted 0)."""
    import jax
    import jax.numpy as jnp

    n_items, n_resp = (int(v) for v in size.split("x"))
    y, _ = scale.simulate_binary(n_items, n_resp, seed=seed, missing=missing)
    i, j = np.nonzero(~np.isnan(y))
    v, flat = jnp.asarray(y[i, j]), jnp.asarray(i * n_resp + j)
    i, j = jnp.asarray(i), jnp.asarray(j)
    mask, y0 = jnp.asarray(~np.isnan(y)), jnp.asarray(np.nan_to_num(y))

    def bernoulli(y, eta):
        return y * eta - jnp.logaddexp(0.0, eta)

    forms = {
        "gather": lambda x: bernoulli(v, x[1][j] - x[0][i]).sum(),
        "flat": lambda x: bernoulli(v, (x[1][None, :] - x[0][:, None]).ravel()[flat]).sum(),
        "masked": lambda x: jnp.where(mask, bernoulli(y0, x[1][None, :] - x[0][:, None]),
                                      0.0).sum(),
    }
    x = (jnp.asarray(np.linspace(-2, 2, n_items)), jnp.asarray(np.linspace(-1, 1, n_resp)))
    return {k: jax.jit(jax.value_and_grad(f)) for k, f in forms.items()}, x


def form_times(platform, sizes):
    """Median seconds per log-likelihood + gradient of each missing-cell form."""
    import jax

    jax.config.update("jax_enable_x64", True)
    rows = []
    for size in sizes:
        forms, x = missing_cell_forms(size)
        reference = forms["gather"](x)
        for name, f in forms.items():
            value, grad = f(x)
            close = bool(np.allclose(value, reference[0])
                         and all(np.allclose(g, r) for g, r in zip(grad, reference[1])))
            row = {"model": f"1pl_missing:{name}", "size": size, "platform": platform,
                   "jax_s": median_time(lambda: jax.block_until_ready(f(x))),
                   "equal_to_gather": close}
            print(json.dumps(row), flush=True)
            rows.append(row)
    return rows


def run_gradients(platform, sizes, timeout):
    env = {**os.environ, "JAX_PLATFORMS": platform}
    done = subprocess.run([sys.executable, __file__, "--gradients", platform, "--sizes", *sizes],
                          env=env,
                          capture_output=True, text=True, timeout=timeout)
    rows = [json.loads(x) for x in done.stdout.splitlines() if x.startswith("{")]
    if done.returncode:
        print(done.stderr[-2000:], flush=True)
    return rows


def machine():
    """The GPU (nvidia-smi) and the versions, without starting JAX's GPU backend here: it
    would take 75% of the GPU's memory for this process while the cases run in children."""
    import jax
    import numpyro
    import pymc

    try:
        gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,memory.total,driver_version",
                              "--format=csv,noheader"], capture_output=True, text=True).stdout
    except FileNotFoundError:
        gpu = "none"
    return {"gpu": gpu.strip(), "cpu_cores": os.cpu_count(), "jax": jax.__version__,
            "numpyro": numpyro.__version__, "pymc": pymc.__version__}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / "results" / "gpu")
    parser.add_argument("--budget", type=float, default=480, help="seconds for everything")
    parser.add_argument("--sizes", nargs="+", default=SIZES, help="items x respondents")
    parser.add_argument("--fits", nargs="*", default=FITS, help="scale.py cases on the GPU")
    parser.add_argument("--cpu-fits", nargs="*", default=CPU_FITS,
                        help="scale.py cases with JAX on the CPU, after the GPU's")
    parser.add_argument("--platforms", nargs="+", default=("cpu", "cuda"),
                        help="JAX platforms of step 1 (the NumPy density is timed in each)")
    parser.add_argument("--gradients", help=argparse.SUPPRESS)  # child: one JAX platform
    args = parser.parse_args(argv)
    if args.gradients:
        gradient_times(args.gradients, args.sizes)
        form_times(args.gradients, args.sizes)
        return
    start = time.perf_counter()
    left = lambda: args.budget - (time.perf_counter() - start)  # noqa: E731
    args.out.mkdir(parents=True, exist_ok=True)
    info = machine()
    print(json.dumps(info), flush=True)
    (args.out / "gpu.json").write_text(json.dumps(info, indent=1))

    rows = [r for p in args.platforms
            for r in run_gradients(p, args.sizes, timeout=150 if p == "cpu" else 120)]
    grads = pd.DataFrame(rows)
    grads.to_csv(args.out / "gradients.csv", index=False)

    fits, jobs = [], [(c, "cuda") for c in args.fits] + [(c, "cpu") for c in args.cpu_fits]
    for case, platform in jobs:
        if left() < 30:
            break
        os.environ["JAX_PLATFORMS"] = platform
        row = scale.collect([case], timeout=int(left())).reset_index().iloc[0].to_dict()
        row["platform"] = platform
        if isinstance(row.get("error"), str):
            row["error"] = row["error"].strip().splitlines()[-1][:120]
        fits.append(row)
        table = pd.DataFrame(fits)
        if "gradients" in table and not grads.empty:
            per = grads.groupby(["model", "size"])["numpy_s"].median()
            key = [(c.split(":")[0].removesuffix("_nuts"), c.split(":")[1]) for c in table.case]
            table["numpy_cpu_projected_s"] = [
                2 * g / 4 * per.get(k, np.nan) for g, k in zip(table["gradients"], key)]
        table.to_csv(args.out / "fits.csv", index=False)
    print(grads.to_string(index=False))
    if fits:
        cols = [c for c in ("case", "platform", "wall_s", "gradients", "numpy_cpu_projected_s",
                            "max_rhat", "min_ess_bulk", "divergences", "coverage90", "rmse",
                            "error") if c in table]
        print(table[cols].to_string(index=False))


if __name__ == "__main__":
    main()
