"""The command-line options: argparse types, the options the commands share, and API
keywords written as the flags they are in messages (``respondent=`` -> ``--respondent``)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

#: exit status when --strict finds failed convergence diagnostics (2: bad input)
EXIT_STRICT = 3
#: keywords of irteval's data constructors and of fit that are command-line flags too
FLAGS = ("respondent", "item", "value", "player", "round", "score", "bounds", "transform",
         "clip", "nominal", "rows", "noise", "player_a", "player_b", "winner", "ties", "weight",
         "cuts", "cut_rule", "method", "draws", "tune", "chains", "target_accept", "likelihood",
         "sampler", "log_likelihood", "reference", "prior_scale", "model", "task")


def n_jobs(text):
    """An argparse type: joblib's n_jobs, an integer other than 0 (-1: every core)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value == 0:
        raise argparse.ArgumentTypeError("0 workers cannot run; give 1 or more, or -1 for "
                                         "every core")
    return value


def between(low, high):
    """An argparse type: a number strictly between ``low`` and ``high``."""
    def parse(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not low < value < high:  # also refuses NaN
            raise argparse.ArgumentTypeError(f"must lie between {low} and {high}, got {text}")
        return value
    return parse


def at_least(minimum, kind=int):
    """An argparse type: a number of ``kind`` that is at least ``minimum``."""
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            what = "an integer" if kind is int else "a number"
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if not value >= minimum:  # also refuses NaN
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {text}")
        return value
    return parse


def add_output_options(p, out=None):
    """--out (default ``out``, else irteval-output/COMMAND: the commands' defaults do not
    collide), --seed and --overwrite."""
    out = out or f"irteval-output/{p.prog.split()[-1]}"
    p.add_argument("--out", type=Path, default=Path(out),
                   help=f"output folder (default: {out})")
    p.add_argument("--seed", type=at_least(0, int), default=0, help="random seed (default: 0)")
    p.add_argument("--overwrite", action="store_true",
                   help="replace existing output files (default: refuse to)")


def add_interval_option(p):
    """--ci-prob: the probability of every interval the command prints, writes and draws."""
    p.add_argument("--ci-prob", type=between(0, 1), default=None, metavar="P",
                   help="probability of every interval in the tables, plots and printout, "
                        "in (0, 1) (default: ArviZ's stats.ci_prob, 0.94 unless your arvizrc "
                        "says otherwise)")


def add_fit_options(p, draws=None, defaults="the model's: 1000 draws, 1000 warm-up steps",
                    out=None):
    """The output options (``out``: the default folder), --ci-prob, the sampler's settings
    and --strict; ``defaults``: the command's draws and warm-up steps in words, for the
    help."""
    add_output_options(p, out)
    add_interval_option(p)
    p.add_argument("--sampler", choices=["pymc", "nutpie", "numpyro"], default=None,
                   help="NUTS implementation (default: the model's choice, mostly nutpie; "
                        "numpyro needs pip install 'irteval[numpyro]')")
    p.add_argument("--draws", type=at_least(1), default=draws,
                   help=f"draws per chain (default: {defaults})")
    p.add_argument("--tune", type=at_least(0), default=None,
                   help="warm-up steps per chain (default: as for --draws)")
    p.add_argument("--chains", type=at_least(1), default=4, help="chains (default: 4)")
    p.add_argument("--target-accept", type=between(0, 1), default=None,
                   help="NUTS target acceptance, in (0, 1) (default: the model's, 0.9 or 0.95); "
                        "raise it (e.g. 0.99) when a fit reports divergences")
    p.add_argument("--log-likelihood", action="store_true", default=None,
                   help="store the pointwise log-likelihood in posterior.nc whatever its size "
                        "(for az.loo, az.compare, irteval.compare_models); by default it is "
                        "stored up to 200 MB and a warning says when it is not")
    p.add_argument("--strict", action="store_true",
                   help=f"exit with status {EXIT_STRICT} when a fit fails its convergence "
                        "diagnostics (divergences, R-hat > 1.01, ESS < 100 per chain; "
                        "R-hat needs --chains 2 or more), "
                        "before writing its outputs")


def as_flags(message):
    """An error message in the command line's words: ``respondent=`` -> ``--respondent``,
    ``bounds='column'`` -> ``--bounds column``, ``bounds=(0, 1)`` -> ``--bounds 0,1``,
    ``log_likelihood=True`` -> ``--log-likelihood``."""
    for python, command in _python_advice().items():
        message = message.replace(python, command)
    names = "|".join(FLAGS)
    message = re.sub(rf"\b({names})=(?:'([^']*)'|\(([^)]*)\)|([0-9.]+\b|\.\.\.))",
                     lambda m: f"{flag(m[1])} " + (m[2] if m[2] is not None else m[4]
                                                   if m[4] is not None
                                                   else m[3].replace(' ', '')),
                     message)
    message = re.sub(rf"\b({names})=True\b", lambda m: flag(m[1]), message)
    return re.sub(rf"\b({names})=", lambda m: flag(m[1]), message)


def _python_advice():
    """{advice in Python's words: the command line's} for the fixes that name no keyword."""
    from .._validation import NA_LABELS
    from ..data.responses import PARTIAL_CREDIT, TEXT_LEVELS
    from ..inference.approximations import ADVI_FIX
    from ..inference.fit import ADD_LATER
    from ..data.scores import LOWER_IS_BETTER_FIX
    from ..irt.new_model import ASK_ACROSS, ASK_SAMPLE
    from ..models.continuous_irt import MODES_FIX
    from ..models.onepl import CENTRED_FIX, EXTREMES_FIX, UNCENTRED_FIX
    from ..robustness.scc import SAME_INSTANCES, SAME_MODELS

    stratified = "irteval select-items with its default --strategy stratified"
    return {NA_LABELS: " (the command reads only an empty cell as missing)",
            ADVI_FIX: "use --method nuts (the default), or in Python raise advi_iterations=",
            ADD_LATER: " (or, in Python, irteval.add_log_likelihood(posterior, model) with the "
                       "model built again from the same data)",
            SAME_INSTANCES: "give --responses and --predictions a row for each of the same "
                            "instances",
            SAME_MODELS: "give both --predictions files the same model columns",
            TEXT_LEVELS: "write text levels in the file as integers in their order (low 1, mid "
                         "2, high 3, ...)",
            ASK_ACROSS: stratified, ASK_SAMPLE: stratified,
            LOWER_IS_BETTER_FIX: "pass --lower-is-better if lower is better",
            PARTIAL_CREDIT: "for partial credit, make it 0/1 in the file first (1 from 0.5 up) "
                            "or fit it as a performance between 0 and 1 with irteval portfolio "
                            "--bounds 0,1 (AIRT: a row per dataset)",
            EXTREMES_FIX: EXTREMES_FIX.replace("Responses.subset drops them",
                                               "leave them out of the data"),
            CENTRED_FIX: "rerun with --centred", UNCENTRED_FIX: "rerun without --centred",
            MODES_FIX: "rerun with another --seed; posterior.nc keeps every chain (in Python, "
                       "idata.sel(chain=[...]) keeps those in the best mode)"}


def flag(keyword):
    """``cut_rule`` -> ``--cut-rule``."""
    return "--" + keyword.replace("_", "-")
