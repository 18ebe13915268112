"""``irteval difficulty``: which test instances are hard (1PL-4PL on 0/1 responses)."""

from __future__ import annotations

import sys
import warnings
from functools import partial
from pathlib import Path

from .._intervals import label
from . import fitting, options
from .outputs import Writer


def add_parser(sub):
    """The ``irteval difficulty`` sub-command and its options."""
    diff = sub.add_parser("difficulty", help="instance difficulty from a CSV of responses",
                          description="Instance difficulty from a CSV of 0/1 responses, long "
                                      "(one row per model and instance) or wide (a matrix).")
    diff.add_argument("responses", type=Path, help="CSV file of 0/1 responses")
    diff.add_argument("--format", choices=["auto", "long", "wide"], default="auto",
                      help="auto (default): long if the --value column exists, else wide")
    diff.add_argument("--respondent", help="column naming the model (default: 'model'; wide "
                                           "with --rows respondent: the row labels)")
    diff.add_argument("--item", help="column naming the instance (default: 'instance'; wide: "
                                     "the column of row labels, by default the first, under "
                                     "its own name)")
    diff.add_argument("--value", help="long: column with 1 = correct, 0 = wrong (default: "
                                      "'correct')")
    diff.set_defaults(label_defaults={"respondent": "model", "item": "instance",
                                      "value": "correct"})
    diff.add_argument("--rows", choices=["item", "respondent"], default="item",
                      help="wide: whether rows are instances (item, default) or models; the "
                           "first column holds the row labels")
    options.add_fit_options(diff, defaults="the model's: 1000 draws; 500 warm-up steps for the "
                                      "1PL and 2PL on nutpie, else 1000")
    _add_irt_options(diff)
    return diff


def _add_irt_options(p):
    p.add_argument("--method", choices=["nuts", "advi", "laplace", "map"], default="nuts",
                   help="nuts: full posterior (default); advi/laplace: fast approximations "
                        "(laplace: the 1PL only); map: point estimate (the 1PL and 2PL)")
    p.add_argument("--model", choices=list(ASYMPTOTES), default="1pl",
                   help="1pl (Rasch, default), 2pl (adds item discrimination), 3pl (adds a "
                        "guessing floor per instance: multiple-choice tests) or 4pl (and a "
                        "ceiling below 1: instances that strong models miss, e.g. wrong labels)")
    p.add_argument("--options", type=options.at_least(2), metavar="N",
                   help="with --model 3pl or 4pl: the number of answer options, which centres "
                        "the floor's prior on 1/N (default: a prior with mean 0.1)")
    p.add_argument("--centred", action="store_true",
                   help="with --model 2pl, 3pl or 4pl: sample the log discriminations centred "
                        "(where each instance has hundreds of answers; the fit says when to "
                        "try it)")
    p.add_argument("--bins", type=options.at_least(1), default=5,
                   help="difficulty bins (default: 5)")


#: --model: the keywords of ``models.onepl`` it sets
ASYMPTOTES = {"1pl": {}, "2pl": {"discrimination": True},
              "3pl": {"discrimination": True, "guessing": True},
              "4pl": {"discrimination": True, "guessing": True, "slip": True}}


def check_bins(bins, n_items, item_name):
    """Refuse more difficulty bins than items, before any fit."""
    if bins > n_items:
        raise ValueError(f"--bins {bins} is more than the {n_items} {item_name}s; give at most "
                         f"{n_items}")


def report(resp, args, out, method="nuts", model="1pl", bins=5, name=None):
    """Fit, print the hardest instances and the per-bin table, write the outputs; returns the
    fit. ``name``: the data's name in the plots (the file's, by default)."""
    from .. import models
    from ..irt import (
        abilities,
        characteristic_curves,
        difficulty,
        plot_characteristic_curves,
        plot_difficulty_distribution,
        plot_item_characteristic,
    )
    from ..irt.difficulty import moment_draws

    centred = bool(getattr(args, "centred", False))
    n_options = getattr(args, "options", None)
    if centred and model == "1pl":
        raise ValueError("--centred sets the form of the 2PL's discriminations: pass --model "
                         "2pl (or 3pl, 4pl) with it (or drop --centred)")
    if n_options is not None and model not in ("3pl", "4pl"):
        raise ValueError(f"--options {n_options} sets the prior of the 3PL's guessing floor: "
                         "pass --model 3pl (or 4pl) with it (or drop --options)")
    print(resp)
    check_bins(bins, resp.n_items, resp.item_name)
    if resp.n_items < 2 * bins and resp.n_respondents > resp.n_items:  # about one a bin
        other = "respondent" if getattr(args, "rows", "item") == "item" else "item"
        print(f"irteval: warning: {resp.n_items} {resp.item_name}s, fewer than the "
              f"{resp.n_respondents} {resp.respondent_name}s, in {bins} difficulty bins: about "
              f"one a bin; if the file is wide with a row per {other}, pass --rows {other}; else "
              f"--bins {max(1, resp.n_items // 2)}", file=sys.stderr)
    if method != "nuts":  # what only NUTS reads (MAP: one point), given anyway
        nuts_only = {"tune": None, "sampler": None, "target_accept": None,
                     **({"draws": None, "chains": 4, "log_likelihood": None, "ci_prob": None}
                        if method == "map" else {})}
        given = [options.flag(k) for k, default in nuts_only.items()
                 if getattr(args, k, default) != default]
        if given:
            print(f"irteval: warning: {', '.join(given)} "
                  + ("applies" if len(given) == 1 else "apply") + " to --method nuts"
                  + (" (--draws, --chains, --log-likelihood and --ci-prob to laplace and "
                     "advi too)" if method == "map" else "")
                  + f"; --method {method} ignores " + ("it" if len(given) == 1 else "them"),
                  file=sys.stderr)
        if method == "map":  # one point: no draws to store a log-likelihood for
            args.log_likelihood = None
    keywords = {**ASYMPTOTES[model], **({"centred": True} if centred else {}),
                **({"n_options": n_options} if n_options is not None else {})}
    idata = fitting.fit(models.onepl(resp, **keywords), args, method=method)
    if method == "map":  # asked for, and said below: not each summary's warning again
        warnings.filterwarnings("ignore", message=r".*this fit is one point \(MAP\)")
    point = method == "map"  # one draw: no sd, no interval
    table = without_spread(difficulty(idata, n_bins=bins), point)
    print(f"\nhardest {resp.item_name}s (difficulty b; "
          + ("MAP, a point estimate: no sd or interval; --method nuts for the posterior):"
             if point else f"{label(table.attrs['ci_prob'], table.attrs['ci_kind'])}):"))
    print(shown(table.sort_values("mean", ascending=False).head(10), point))
    print(f"\ndifficulty distribution ({'MAP' if point else 'posterior means'}):")
    print(table["mean"].describe(percentiles=[.1, .25, .5, .75, .9]).round(3).to_string())
    if not point:  # the plot's legend: b's spread within each draw, wider than the means'
        mean, sd = moment_draws(idata.posterior["b"])
        print(f"per posterior draw: mean {float(mean.mean()):.3f}, sd over {resp.item_name}s "
              f"{float(sd.mean()):.3f} (averaged over draws; the posterior means above shrink)")
    print(f"\nper bin of the {'MAP difficulties' if point else 'posterior means'} (0 = "
          + ("easiest):" if point else "easiest; curves.csv bins each draw, so its b_mean "
             "differs):"))
    per_bin = table.groupby("bin").agg(n=("mean", "size"), b_mean=("mean", "mean"),
                                       accuracy=("accuracy", "mean"),
                                       **({} if point else {"p_bin": ("p_bin", "mean")}))
    print(per_bin.round(3).to_string())
    skills = without_spread(abilities(idata), point)
    interval = "MAP" if point else label(skills.attrs["ci_prob"], skills.attrs["ci_kind"])
    print(f"\nstrongest {resp.respondent_name}s (ability theta; {interval}):")
    print(shown(skills.head(5), point))
    writer = Writer(out, "difficulty")
    curves = characteristic_curves(idata, n_bins=bins)
    writer.table("difficulty.csv", table)
    writer.table("abilities.csv", skills)
    writer.table("curves.csv", without_spread(curves, point))
    fitting.save(idata, writer, {
        "difficulty_distribution.png": partial(plot_difficulty_distribution,
                                               {name or resp.item_name + "s": idata}),
        "item_characteristic.png": partial(plot_item_characteristic, idata),
        "characteristic_curves.png": partial(plot_characteristic_curves, curves)})
    print(f"\n{writer.summary()}")
    return idata


def without_spread(table, point):
    """``table``, and for a fit of one point (MAP) without its sd, interval bounds and
    probability of a bin: one point has none, and widths of 0 would read as certainty."""
    if not point:
        return table
    spread = [c for c in table.columns
              if c in ("sd", "p_bin") or str(c).endswith(("_lower", "_upper"))]
    return table.assign(**dict.fromkeys(spread, float("nan")))


def shown(table, point):
    """``table`` for the terminal: 3 decimals, and a point fit's empty columns left out."""
    return (table.dropna(axis=1, how="all") if point else table).round(3).to_string()
