"""``irteval select-items`` and ``irteval score-new``: which instances to run a new model on,
and its full-benchmark accuracy from its answers to them, with the posterior a ``irteval
difficulty`` run wrote."""

from __future__ import annotations

from pathlib import Path

from .._intervals import label
from .._fits import fit_family
from .._validation import listed, plain, plural, spelling_hint, where
from . import options, reading
from .outputs import Writer


def add_parser(sub):
    """The ``irteval select-items`` and ``irteval score-new`` sub-commands and their options."""
    from ..irt.new_model import STRATEGIES

    pick = sub.add_parser("select-items", help="choose the instances to run a new model on",
                          description="Choose instances of a fitted 1PL/2PL to run a new model "
                                      "on, and write them as items.csv: a row per instance with "
                                      "an empty 'correct' column to fill in with its 0/1 "
                                      "answers for irteval score-new.")
    pick.add_argument("posterior", type=Path, help="posterior.nc written by irteval difficulty")
    pick.add_argument("-n", type=options.at_least(1), default=100,
                      help="number of instances (default: 100)")
    pick.add_argument("--strategy", choices=STRATEGIES, default="stratified",
                      help="stratified (default): one at random from each of n equal-count "
                           "difficulty bins, robust to a new model that fails in its own way; "
                           "information: the most informative at the fitted models' "
                           "abilities; random")
    options.add_output_options(pick)
    new = sub.add_parser("score-new", help="score a new model from its answers to a few "
                                           "instances",
                         description="The posterior of a new model's ability and of its "
                                     "accuracy on all the instances of a fitted 1PL/2PL, from its "
                                     "0/1 answers to some of them (a CSV with a row per "
                                     "answered instance).")
    new.add_argument("posterior", type=Path, help="posterior.nc written by irteval difficulty")
    new.add_argument("answers", type=Path, help="CSV of answers: --item and --value columns")
    new.add_argument("--item", help="column naming the instance (default: the fit's name for "
                                    "them, irteval difficulty's --item: 'instance' unless "
                                    "given there)")
    new.add_argument("--value", default="correct",
                     help="column with the 0/1 answer (default: 'correct')")
    options.add_output_options(new)
    options.add_interval_option(new)
    return new


def select(args):
    """Read the posterior, choose the instances, print and write them."""
    import pandas as pd

    from ..irt import select_items

    idata = _read_posterior(args.posterior, draws=False)  # (a MAP fit orders them too)
    name = idata.attrs.get("item_name") or "instance"
    n_items = idata.posterior.sizes["item"]
    if args.n > n_items:
        raise ValueError(f"-n {args.n}: the fit has {n_items} {name}s; give at most {n_items}")
    chosen = select_items(idata, n=args.n, strategy=args.strategy, random_seed=args.seed)
    writer = Writer(args.out, "select_items")
    writer.table("items.csv", pd.DataFrame({"correct": pd.NA}, index=chosen.rename(name)))
    point = idata.attrs.get("irteval_method") == "map"
    posterior = "<posterior.nc with draws>" if point else args.posterior
    print(f"chose {len(chosen)} of {idata.posterior.sizes['item']} {name}s ({args.strategy}): "
          f"run the new model on them, fill in the 'correct' column of items.csv with its 0/1 "
          f"answers, then: irteval score-new {posterior} {writer.folder / 'items.csv'}")
    if point:  # said now, not after the new model has run
        print(f"{args.posterior} is a MAP fit (one point): score-new needs posterior draws; "
              "rerun irteval difficulty without --method map (or with --method laplace) first")
    print(f"\n{writer.summary()}")


def _read_posterior(path, draws=True):
    """The binary IRT fit that ``irteval difficulty`` wrote at ``path`` (with posterior draws
    unless ``draws`` is False), refusing anything else by what it is."""
    import arviz as az

    if path.is_dir():
        raise ValueError(f"{path} is a folder; give the posterior.nc in it "
                         f"({path / 'posterior.nc'})")
    if not path.is_file():
        raise ValueError(f"{path}: no such file; give the posterior.nc that irteval difficulty "
                         "wrote")
    try:
        idata = az.from_netcdf(path)
    except OSError as err:  # HDF5's "file signature not found" and the like
        raise ValueError(f"{path}: not a netCDF file ({err}); give the posterior.nc that "
                         "irteval difficulty wrote") from err
    found = fit_family(idata)
    if found != "binary_irt":
        written_by = {"bradley_terry": "irteval leaderboard", "continuous_irt": "irteval portfolio",
                      "polytomous_irt": "irteval portfolio"}.get(found)
        raise ValueError(f"{path}: "
                         + (f"the posterior of {written_by}" if written_by else
                            "not a posterior irteval wrote")
                         + "; give the posterior.nc that irteval difficulty wrote (a 1PL/2PL)")
    if draws and idata.attrs.get("irteval_method") == "map":
        raise ValueError(f"{path}: a MAP fit (one point, irteval difficulty --method map): "
                         "scoring needs posterior draws; rerun irteval difficulty without "
                         "--method map (or with --method laplace)")
    return idata


def report(args):
    """Read the posterior and the answers, print and write the score."""
    from ..irt import score_new_model
    from ..irt.new_model import WARN_P

    idata = _read_posterior(args.posterior)
    name = idata.attrs.get("item_name") or "instance"
    args.item = args.item or name
    df = reading.read_csv(args.answers, labels=[args.item])
    for column, flag, other in ((args.item, "--item", args.value),
                                (args.value, "--value", args.item)):
        if column not in df.columns:
            rest = [c for c in df.columns if c != other]
            wide = len(df) <= 2 < len(df.columns)  # a row of answers, a column per instance
            raise ValueError(f"{args.answers}: no column {column!r} ({flag}); its columns are "
                             f"{listed(df.columns)}"
                             + (f"; pass {flag} {rest[0]}" if len(rest) == 1 else "")
                             + (f"; score-new reads a row per answered {name} ({name!r} and "
                                "'correct' columns, as select-items writes items.csv), not a "
                                "row of answers: transpose it" if wide else ""))
    answers = _answers(df, args, name)
    known = idata.posterior["item"].values
    answers.index = reading.as_labels(answers.index, known)
    unknown = ~answers.index.isin(known)
    if unknown.any():  # before scoring, by line
        lines = df.index[df[args.item].isin(answers.index[unknown].astype(str))]
        raise ValueError(
            f"{args.answers}: {int(unknown.sum())} {name}(s) in {args.item!r} (--item) are not "
            f"in the fit, e.g. {[plain(x) for x in answers.index[unknown][:5]]} on "
            f"{where(lines, range(len(lines)))}; the fit has {len(known)} (e.g. "
            f"{[plain(x) for x in known[:3]]})" + spelling_hint(answers.index[unknown], known))
    _warn_if_unconverged(idata, args.posterior)  # once the answers are known to be right
    score = reading.in_file(args.answers, lambda: score_new_model(idata, answers,
                                                             random_seed=args.seed))
    table = score.summary()
    misfit = score.person_fit_p < WARN_P  # where score_new_model warns
    print(f"{table.attrs['n_answered']} answers of {table.attrs['n_items']} {name}s; person fit "
          f"p = {score.person_fit_p:.3f} ("
          + (f"below {WARN_P}: the model's answers misfit the IRT, so read its accuracy with "
             "care)" if misfit
             else f"the model's answers fit the IRT; below {WARN_P} they would not)"))
    print(f"the answered {name}s span the difficulties of {score.coverage:.0%} of all "
          f"{score.n_items} (the accuracy on the rest is the IRT's extrapolation)")
    print(f"posterior mean, sd and {label(score.ci_prob, score.ci_kind)}; naive: the accuracy "
          f"on the answered {name}s")
    print(table.to_string(float_format="{:.3f}".format))  # 0.45 beside 0.0738: all 3 decimals
    writer = Writer(args.out, "score_new")
    # the counts and the person fit in the file too (load_results reads no attrs)
    writer.table("score.csv", table.assign(**{k: table.attrs[k] for k in (
        "n_answered", "n_items", "coverage", "person_fit_p")}))
    print(f"\n{writer.summary()}")


def _warn_if_unconverged(idata, path):
    """Warn where the fit in ``path`` failed its NUTS diagnostics (its attrs): the scores
    integrate over those draws."""
    from .._validation import warn_user
    from ..exceptions import ConvergenceWarning
    from ..inference.diagnostics import failed_checks

    failed = failed_checks(idata)
    if failed:
        warn_user(f"{path}: its fit failed the NUTS diagnostics ({failed}): the score "
                  "integrates over those draws; rerun irteval difficulty with more --draws "
                  "(or --tune)", ConvergenceWarning)


def _answers(df, args, name):
    """The answers Series (item -> 0/1) of the CSV, refusing empty labels, repeated items and
    answers other than 0/1 by their lines; empty answers left out with a warning."""
    from .._validation import warn_user
    from ..irt.new_model import as_binary

    item, value = df[args.item], df[args.value]
    empty = value.isna().to_numpy()
    if empty.all():
        raise ValueError(f"{args.answers}: every {args.value!r} cell (--value) is empty: fill "
                         f"in the new model's answer to each {name} it ran (1 correct, 0 "
                         "wrong)")
    repeated = (item.duplicated(keep=False) & item.notna()).to_numpy()
    twice = [plain(x) for x in item[repeated].unique()[:5]]
    not_binary = (as_binary(value).isna() & value.notna()).to_numpy()
    got = [plain(x) for x in value[not_binary].unique()[:5]]
    problems = {
        f"an empty {args.item!r} (--item)": item.isna().to_numpy(),
        f"{plural(len(item[repeated].unique()), name)} more than once in {args.item!r} (--item), "
        f"e.g. {twice},": repeated,
        f"answers other than 0/1 in {args.value!r} (--value), e.g. {got}, where 1, 0, True, "
        "False are taken,": not_binary,
    }
    # several models' answers: a column under which no item repeats
    by = next((c for c in df.columns if c not in (args.item, args.value) and df[c].nunique() > 1
               and df[c].value_counts().min() > 1  # (not a time or a note of each row)
               and not df.duplicated([c, args.item]).any()), None) if repeated.any() else None
    several = (f"; the file holds the answers of {df[by].nunique()} {by!r} values, and "
               f"score-new scores one model: keep the rows of one (e.g. "
               f"{plain(df[by].iloc[0])!r})" if by is not None else "")
    for what, bad in problems.items():
        if bad.any():
            raise ValueError(f"{args.answers}: {what} on {where(df.index, bad.nonzero()[0])} "
                             f"(one row per answered {name}, correct = 1)"
                             + (several if bad is repeated else ""))
    if empty.any():
        warn_user(f"{args.answers}: {int(empty.sum())} empty answer(s) left out, on "
                  f"{where(df.index, empty.nonzero()[0])}")
    return value[~empty].set_axis(item[~empty])
