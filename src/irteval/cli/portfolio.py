"""``irteval portfolio``: which algorithms belong in a portfolio (AIRT: the continuous IRT, or
the polytomous IRT on ordered levels with ``--levels`` / ``--cuts``)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from .._intervals import label
from ..data.responses import SCALE_OPTIONS
from . import fitting, options, reading
from .outputs import Writer

CONTINUOUS = SCALE_OPTIONS["continuous"]  # the defaults of --bounds, --transform, --clip


def add_parser(sub):
    """The ``irteval portfolio`` sub-command and its options."""
    port = sub.add_parser("portfolio", help="algorithm portfolio from a CSV of performances",
                          description="Continuous IRT (AIRT) of algorithms (items) on datasets "
                                      "(respondents) from a wide CSV (a row per dataset, a "
                                      "column per algorithm) or a long one. Higher is "
                                      "better (--lower-is-better turns errors or run times "
                                      "around). "
                                      "With --levels (integer levels) or --cuts C (performances "
                                      "binned into C levels) the polytomous IRT (GPCM) instead.")
    port.add_argument("performance", type=Path, help="CSV file of performances")
    port.add_argument("--format", choices=["auto", "long", "wide"], default="auto",
                      help="auto (default): long if the --value column exists, else wide")
    port.add_argument("--respondent", help="column naming the dataset (default: 'dataset'; wide: "
                                           "the column of row labels, by default the first, "
                                           "under its own name)")
    port.add_argument("--item", help="long: column naming the algorithm (default: 'algorithm')")
    port.add_argument("--value", help="long: the performance column (default: 'performance')")
    port.set_defaults(label_defaults={"respondent": "dataset", "item": "algorithm",
                                      "value": "performance"})
    port.add_argument("--bounds", default=CONTINUOUS["bounds"],
                      help="'column' (each algorithm's min and max, default), 'global' (of "
                           "the whole table) or LO,HI")
    port.add_argument("--transform", choices=["logit", "airt"], default=CONTINUOUS["transform"],
                      help="logit of the scaled performance (default) or airt's preprocessing")
    port.add_argument("--clip", type=options.between(0, 0.5), default=CONTINUOUS["clip"],
                      help="logit transform: scaled values are clipped to [clip, 1 - clip] "
                           "(default: 0.01)")
    port.add_argument("--lower-is-better", action="store_true",
                      help="lower performances are better (error rates, run times): each is "
                           "analysed as lower + upper - x within its --bounds (with --cuts: "
                           "the levels reversed), so every output reads higher = better")
    port.add_argument("--levels", action="store_true",
                      help="the values are ordered integer levels: fit the polytomous IRT")
    port.add_argument("--cuts", type=options.at_least(2, int),
                      help="bin the performances into CUTS levels (airt's rule, see "
                           "--cut-rule) and fit the polytomous IRT")
    port.add_argument("--cut-rule", choices=["equal_width", "quantile"],
                      default=SCALE_OPTIONS["ordinal"]["cut_rule"],
                      help="--cuts: equal-width bins after global min-max scaling (default) "
                           "or global quantiles")
    port.add_argument("--model", choices=["gpcm", "graded"], default=reading.POLYTOMOUS_MODEL,
                      help="polytomous IRT: generalised partial credit (default) or graded "
                           "response")
    port.add_argument("--epsilon", type=options.at_least(0.0, float), default=0.01,
                      help="performance (levels: level) within epsilon of the best counts as "
                           "strong (default: 0.01)")
    options.add_fit_options(port, defaults="the model's: 2000 draws and 2000 warm-up steps for "
                                      "the continuous IRT, 1000 and 1000 for --levels")
    return port


def report(perf, args, out, epsilon=0.01):
    """Fit the continuous IRT (the polytomous one for levels), print the metrics, portfolio
    and goodness tables, write the outputs."""
    from .. import models
    from ..airt import (
        airt_curves,
        algorithm_metrics,
        effectiveness,
        latent_trait,
        model_goodness,
        plot_auaec_aupec,
        plot_category_curves,
        plot_crm_heatmap,
        plot_effectiveness,
        plot_goodness,
        plot_latent_trait,
        plot_strengths,
        portfolio,
    )

    print(perf)
    source = getattr(args, "performance", None)  # the file (the demo's data are bundled)
    metrics_note = "posterior means; consistency and difficulty limits as medians"
    if perf.kind == "ordinal":
        idata = fitting.fit(reading.in_file(source, lambda: models.polytomous_irt(
            perf, model=getattr(args, "model", "gpcm"))), args)
        cols = ["a_mean", "p_anomalous", "consistency", "difficulty_limit",
                "difficulty_limit_first"]
        metrics_note += ("; difficulty_limit = -d of the top level, difficulty_limit_first = "
                         "-d of the first step (what airt prints)")
        report_name, heatmap = "portfolio_levels", "category_curves.png"
        plot_model = plot_category_curves
    else:
        idata = fitting.fit(reading.in_file(source, lambda: models.continuous_irt(perf)), args)
        cols = ["alpha_mean", "beta_median", "gamma_mean", "p_anomalous", "consistency",
                "difficulty_limit"]
        metrics_note += ", as beta is heavy-tailed"
        report_name, heatmap, plot_model = "portfolio", "crm_heatmap.png", plot_crm_heatmap
    metrics = algorithm_metrics(idata)
    print(f"\nalgorithm metrics ({metrics_note}):")
    print(metrics[cols].round(3).to_string())
    lt = latent_trait(idata, epsilon=epsilon)
    board = portfolio(lt)
    print(f"\nportfolio (latent trait occupancy, epsilon = {epsilon:g}; lto: airt's, on the "
          "mean spectrum; in_portfolio: p_in_portfolio > 0.5, the share of draws with lto > 0; "
          f"lto_mean, {label(board.attrs['ci_prob'], board.attrs['ci_kind'])}: over draws):")
    print(board.round(3).to_string())
    curves = airt_curves(idata)
    effect = effectiveness(curves)
    goodness = model_goodness(curves).join(effect)
    print("\ngoodness of fit (aucdf: area under the ECDF of the absolute scaled residuals, 1 = "
          "perfect; mse: their mean square) and effectiveness (auaec: area under the actual "
          "effectiveness curve, from the data; aupec: under the model's predicted one; "
          "goodness.csv has their intervals):")
    print(goodness[["aucdf", "mse", "auaec", "aupec"]].round(3).to_string())
    writer = Writer(out, report_name)
    writer.table("algorithm_metrics.csv", metrics)
    writer.table("portfolio.csv", board)
    # (the easiness theta's sign flipped: named so, as a bare 'mean' reads either way)
    writer.table("spectrum.csv", lt.spectrum.add_prefix("difficulty_"))
    writer.table("goodness.csv", goodness)
    fitting.save(idata, writer, {
        "latent_trait.png": partial(plot_latent_trait, lt),
        "strengths.png": partial(plot_strengths, lt),
        "goodness.png": partial(plot_goodness, curves),
        "effectiveness.png": partial(plot_effectiveness, curves),
        "predicted_effectiveness.png": partial(plot_effectiveness, curves, kind="predicted"),
        "auaec_aupec.png": partial(plot_auaec_aupec, effect)})
    fitting.save_figure(writer.path(heatmap), plot_model(idata).ravel()[0].figure, dpi=80)
    print(f"\n{writer.summary()}")
