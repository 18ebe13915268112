"""The 2PL's discriminations written non-centred (irteval's a = exp(sigma_log_a a_z)) or centred
(log a ~ N(0, sigma_log_a)) where every item has thousands of answers: how well sigma_log_a
mixes. 2PL answers of 2000 respondents to 50 items (``tails_check.answers("2pl", seed)``);
irteval's default fit, then the same model in plain PyMC both ways on nutpie (4 x 1000, 500
warm-up steps, target_accept 0.95, as irteval's 2PL).

    python benchmarks/discrimination_form.py --seed 0   # results/discrimination_form_seed0.csv
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import arviz as az
import nutpie
import pandas as pd
import pymc as pm

import irteval as ie
from tails_check import answers

HERE = Path(__file__).parent


def plain_pymc(wide, centred):
    """The 2PL with irteval's priors, the discriminations centred or not."""
    n_items, n_respondents = wide.shape
    with pm.Model() as model:
        mu_b = pm.Normal("mu_b", 0, 3)
        b = pm.Normal("b", mu_b, pm.HalfNormal("sigma_b", 2), shape=n_items)
        theta = pm.ZeroSumNormal("theta", sigma=1.0, shape=n_respondents)
        sigma_log_a = pm.HalfNormal("sigma_log_a", 0.5)
        log_a = (pm.Normal("log_a", 0, sigma_log_a, shape=n_items) if centred else
                 pm.Deterministic("log_a", sigma_log_a * pm.Normal("a_z", 0, 1, shape=n_items)))
        eta = pm.math.exp(log_a)[:, None] * (theta[None, :] - b[:, None])
        pm.Bernoulli("y", logit_p=eta, observed=wide)
    return model


def row(name, idata, seconds):
    d = az.summary(idata, var_names=["sigma_log_a", "b", "mu_b", "sigma_b", "theta"],
                   kind="diagnostics")
    return {"fit": name, "seconds": round(seconds), "rhat_sigma_log_a": d.loc["sigma_log_a",
                                                                              "r_hat"],
            "ess_sigma_log_a": d.loc["sigma_log_a", "ess_bulk"], "max_rhat": d["r_hat"].max(),
            "min_ess_bulk": d["ess_bulk"].min(),
            "divergences": int(idata.sample_stats["diverging"].sum())}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    seed = parser.parse_args().seed
    warnings.simplefilter("ignore")
    resp = answers("2pl", seed)
    rows = []
    start = time.perf_counter()
    fit = ie.fit(ie.models.onepl(resp, discrimination=True), random_seed=seed,
                 log_likelihood=False, progressbar=False)
    rows.append(row("irteval default (non-centred)", fit, time.perf_counter() - start))
    print(rows[-1], flush=True)
    wide = resp.to_wide(rows="item").to_numpy()
    for centred in (True, False):
        start = time.perf_counter()
        compiled = nutpie.compile_pymc_model(plain_pymc(wide, centred))
        trace = nutpie.sample(compiled, draws=1000, tune=500, chains=4, seed=seed,
                              target_accept=0.95, progress_bar=False)
        rows.append(row(f"plain PyMC, {'centred' if centred else 'non-centred'}", trace,
                        time.perf_counter() - start))
        print(rows[-1], flush=True)
    table = pd.DataFrame(rows)
    table.to_csv(HERE / "results" / f"discrimination_form_seed{seed}.csv", index=False)
    print(table.to_string(index=False))


if __name__ == "__main__":
    main()
