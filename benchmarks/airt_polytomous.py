"""The polytomous AIRT against airt's ``pirtmodel`` (mirt's GPCM by EM) on the data airt
documents it with (issue 15):

    python benchmarks/airt_polytomous.py        # writes benchmarks/results/airt/polytomous_*.csv

``classification_poly`` (235 datasets x 10 classifiers, airt's vignette) with the default prior
a ~ N(0, 2) and with a ~ N(0, 10), and airt's README example S2 (100 x 3). For each algorithm:
airt's consistency and difficulty limit, our posterior median and 94% equal-tailed interval of
1/|a| and of -d_1 (the number airt prints as the difficulty limit), and whether airt's value
lies inside. airt's reference-page example S5 (100 x 3, levels drawn at random): model
goodness (AUCDF, MSE) and effectiveness (AUAEC, AUPEC) beside airt's, with the same
inside-the-interval flags (``polytomous_s5_goodness.csv``).
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path

import pandas as pd

import irteval as ie

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
OUT = Path(__file__).parent / "results" / "airt"
CASES = {
    "classification_poly": ("airt_classification/classification_poly.csv", "dataset_row",
                            "airt_classification/reference/"
                            "vignette_pirtmodel_poly_vpara_false_metrics.csv"),
    "s2": ("airt_synthetic_examples/s2_readme_polytomous.csv", "instance",
           "airt_synthetic_examples/reference/s2_readme_pirtmodel_metrics.csv"),
}


def compare(name, prior_a):
    data, index, reference = CASES[name]
    df = pd.read_csv(SHARED / data, index_col=index)
    resp = ie.Responses.from_wide(df, respondent="dataset", item="algorithm", kind="ordinal")
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        idata = ie.fit(ie.models.polytomous_irt(resp, prior_a=prior_a), random_seed=0,
                       progressbar=False)
    seconds = time.perf_counter() - start
    ours = ie.algorithm_metrics(idata, ci_kind="eti")
    ref = pd.read_csv(SHARED / reference, index_col="algorithm")
    table = pd.DataFrame({
        "airt_consistency": ref["consistency"], "consistency": ours["consistency"],
        "consistency_lower": ours["consistency_lower"],
        "consistency_upper": ours["consistency_upper"],
        "airt_difficulty_limit": ref["difficulty_limit"],
        "difficulty_limit_first": ours["difficulty_limit_first"],
        "difficulty_limit_first_lower": ours["difficulty_limit_first_lower"],
        "difficulty_limit_first_upper": ours["difficulty_limit_first_upper"],
        "airt_anomalous": ref["anomalousness"], "p_anomalous": ours["p_anomalous"]})
    table["consistency_inside"] = table["airt_consistency"].between(
        table["consistency_lower"], table["consistency_upper"])
    table["difficulty_limit_inside"] = table["airt_difficulty_limit"].between(
        table["difficulty_limit_first_lower"], table["difficulty_limit_first_upper"])
    table.attrs.update(seconds=seconds, max_rhat=idata.attrs["max_rhat"],
                       min_ess_bulk=idata.attrs["min_ess_bulk"],
                       divergences=idata.attrs["divergences"])
    return table


def compare_s5():
    """Goodness and effectiveness areas of S5 beside airt's ``model_goodness_poly`` and
    ``effectiveness_poly``."""
    ref_dir = SHARED / "airt_synthetic_examples" / "reference"
    df = pd.read_csv(SHARED / "airt_synthetic_examples" / "s5_docs_polytomous_x1x2x3.csv",
                     index_col="instance")
    resp = ie.Responses.from_wide(df, respondent="dataset", item="algorithm", kind="ordinal")
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        idata = ie.fit(ie.models.polytomous_irt(resp), random_seed=0, progressbar=False)
    seconds = time.perf_counter() - start
    curves = ie.airt_curves(idata)
    ours = pd.concat([ie.model_goodness(curves, ci_kind="eti"),
                      ie.effectiveness(curves, ci_kind="eti")], axis=1)
    good = pd.read_csv(ref_dir / "s5_docs_model_goodness_poly_summary.csv", index_col=0)
    eff = pd.read_csv(ref_dir / "s5_docs_effectiveness_poly_auc.csv", index_col=0)
    table = pd.DataFrame({"airt_aucdf": good["goodnessAUC"], "airt_mse": good["mse"],
                          "airt_auaec": eff["Actual"], "airt_aupec": eff["Predicted"]})
    table.index.name = "algorithm"
    for name in ("aucdf", "mse", "aupec"):
        table[[name, f"{name}_lower", f"{name}_upper"]] = ours[
            [name, f"{name}_lower", f"{name}_upper"]]
        table[f"{name}_inside"] = table[f"airt_{name}"].between(table[f"{name}_lower"],
                                                                table[f"{name}_upper"])
    table["auaec"] = ours["auaec"]
    table.attrs.update(seconds=seconds, max_rhat=idata.attrs["max_rhat"],
                       min_ess_bulk=idata.attrs["min_ess_bulk"],
                       divergences=idata.attrs["divergences"])
    return table


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for name, prior_a in (("classification_poly", 2.0), ("classification_poly", 10.0),
                          ("s2", 2.0)):
        table = compare(name, prior_a)
        path = OUT / f"polytomous_{name}_prior_a{prior_a:g}.csv"
        table.round(4).to_csv(path)
        a = table.attrs
        print(f"\n## {name}, a ~ N(0, {prior_a:g}): {a['seconds']:.0f} s, max R-hat "
              f"{a['max_rhat']:.3f}, min bulk ESS {a['min_ess_bulk']:.0f}, "
              f"{a['divergences']} divergences; airt inside the 94% interval: consistency "
              f"{int(table['consistency_inside'].sum())}/{len(table)}, difficulty limit "
              f"{int(table['difficulty_limit_inside'].sum())}/{len(table)}\n")
        print(table.round(3).to_string())
    table = compare_s5()
    table.round(4).to_csv(OUT / "polytomous_s5_goodness.csv")
    a = table.attrs
    print(f"\n## s5 goodness and effectiveness: {a['seconds']:.0f} s, max R-hat "
          f"{a['max_rhat']:.3f}, {a['divergences']} divergences\n")
    print(table.round(3).to_string())


if __name__ == "__main__":
    main()
