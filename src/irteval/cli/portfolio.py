"""``irteval portfolio``: which algorithms belong in a portfolio (continuous IRT, AIRT)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from .._intervals import label
from . import io
from .outputs import Writer


def add_parser(sub):
    """The ``irteval portfolio`` sub-command and its options."""
    port = sub.add_parser("portfolio", help="algorithm portfolio from a CSV of performances",
                          description="Continuous IRT (AIRT) of algorithms (items) on datasets "
                                      "(respondents) from a wide CSV (a row per dataset, a "
                                      "column per algorithm) or a long one. Higher must be "
                                      "better: transform run times first, e.g. 1 / (t + 1).")
    port.add_argument("performance", type=Path, help="CSV file of performances")
    port.add_argument("--format", choices=["auto", "long", "wide"], default="auto",
                      help="auto (default): long if the --value column exists, else wide")
    port.add_argument("--respondent", help="column naming the dataset (default 'dataset'; wide: "
                                           "the row labels, else the first column)")
    port.add_argument("--item", help="long: column naming the algorithm (default 'algorithm')")
    port.add_argument("--value", help="long: the performance column (default 'performance')")
    port.set_defaults(label_defaults={"respondent": "dataset", "item": "algorithm",
                                      "value": "performance"})
    port.add_argument("--bounds", default="column",
                      help="'column' (each algorithm's min and max, default), 'global' (of "
                           "the whole table) or LO,HI")
    port.add_argument("--transform", choices=["logit", "airt"], default="logit",
                      help="logit of the scaled performance (default) or airt's preprocessing")
    port.add_argument("--clip", type=float, default=0.01,
                      help="logit transform: scaled values are clipped to [clip, 1 - clip] "
                           "(default 0.01)")
    port.add_argument("--epsilon", type=io.at_least(0.0, float), default=0.01,
                      help="performance within epsilon of the best counts as strong (0.01)")
    io.add_fit_options(port)
    return port


def report(perf, args, out, epsilon=0.01):
    """Fit the continuous IRT, print the metrics, portfolio and goodness tables, write the
    outputs."""
    from .. import models
    from ..airt import (
        airt_curves,
        algorithm_metrics,
        effectiveness,
        latent_trait,
        model_goodness,
        plot_auaec_aupec,
        plot_crm_heatmap,
        plot_effectiveness,
        plot_goodness,
        plot_latent_trait,
        plot_strengths,
        portfolio,
    )

    print(perf)
    idata = io.fit(models.continuous_irt(perf), args)
    metrics = algorithm_metrics(idata)
    cols = ["alpha", "beta_median", "gamma", "p_anomalous", "consistency", "difficulty_limit"]
    print("\nalgorithm metrics (posterior means; beta, consistency and difficulty limit as "
          "medians, as beta is heavy-tailed):")
    print(metrics[cols].round(3).to_string())
    lt = latent_trait(idata, epsilon=epsilon)
    board = portfolio(lt)
    print(f"\nportfolio (latent trait occupancy with epsilon = {epsilon:g}; "
          f"{label(board.attrs['ci_prob'], board.attrs['ci_kind'])} over posterior draws):")
    print(board.round(3).to_string())
    curves = airt_curves(idata)
    effect = effectiveness(curves)
    goodness = model_goodness(curves).join(effect)
    print("\ngoodness of fit (AUCDF: 1 = perfect) and effectiveness (AUAEC actual, AUPEC "
          "predicted):")
    print(goodness[["aucdf", "mse", "auaec", "aupec"]].round(3).to_string())
    writer = Writer(out, "portfolio")
    writer.table("algorithm_metrics.csv", metrics)
    writer.table("portfolio.csv", board)
    writer.table("spectrum.csv", lt.spectrum)
    writer.table("goodness.csv", goodness)
    io.save(idata, writer, {
        "latent_trait.png": partial(plot_latent_trait, lt),
        "strengths.png": partial(plot_strengths, lt),
        "goodness.png": partial(plot_goodness, curves),
        "effectiveness.png": partial(plot_effectiveness, curves),
        "auaec_aupec.png": partial(plot_auaec_aupec, effect)})
    io.save_figure(writer.path("crm_heatmap.png"), plot_crm_heatmap(idata).ravel()[0].figure,
                   dpi=80)
    print(f"\n{writer.summary()}")
