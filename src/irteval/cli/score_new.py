"""``irteval score-new``: a new model's full-benchmark accuracy from its answers to a few
instances, with the posterior a ``irteval difficulty`` run wrote."""

from __future__ import annotations

from pathlib import Path

from .._intervals import label
from .._fits import fit_family
from .._validation import plain, spelling_hint, where
from . import options, reading
from .outputs import Writer


def add_parser(sub):
    """The ``irteval score-new`` sub-command and its options."""
    new = sub.add_parser("score-new", help="score a new model from its answers to a few "
                                           "instances",
                         description="The posterior of a new model's ability and of its "
                                     "accuracy on every instance of a fitted 1PL/2PL, from its "
                                     "0/1 answers to some of them (a CSV with a row per "
                                     "answered instance).")
    new.add_argument("posterior", type=Path, help="posterior.nc written by irteval difficulty")
    new.add_argument("answers", type=Path, help="CSV of answers: --item and --value columns")
    new.add_argument("--item", help="column naming the instance (default: the fit's name for "
                                    "them, irteval difficulty's --item: 'instance' unless "
                                    "given there)")
    new.add_argument("--value", default="correct",
                     help="column with the 0/1 answer (default 'correct')")
    options.add_output_options(new)
    return new


def report(args):
    """Read the posterior and the answers, print and write the score."""
    import arviz as az

    from ..irt import score_new_model
    from ..irt.new_model import MISFIT_P

    if args.posterior.is_dir():
        raise ValueError(f"{args.posterior} is a folder; give the posterior.nc in it "
                         f"({args.posterior / 'posterior.nc'})")
    if not args.posterior.is_file():
        raise ValueError(f"{args.posterior}: no such file; give the posterior.nc that "
                         "irteval difficulty wrote")
    try:
        idata = az.from_netcdf(args.posterior)
    except OSError as err:  # HDF5's "file signature not found" and the like
        raise ValueError(f"{args.posterior}: not a netCDF file ({err}); give the posterior.nc "
                         "that irteval difficulty wrote") from err
    found = fit_family(idata)
    if found != "binary_irt":
        written_by = {"bradley_terry": "irteval leaderboard", "continuous_irt": "irteval portfolio",
                      "polytomous_irt": "irteval portfolio"}.get(found)
        raise ValueError(f"{args.posterior}: "
                         + (f"the posterior of {written_by}" if written_by else
                            "not a posterior irteval wrote")
                         + "; give the posterior.nc that irteval difficulty wrote (a 1PL/2PL)")
    if idata.attrs.get("irteval_method") == "map":
        raise ValueError(f"{args.posterior}: a MAP fit (one point, irteval difficulty --method "
                         "map): scoring needs posterior draws; rerun irteval difficulty "
                         "without --method map (or with --method laplace)")
    name = idata.attrs.get("item_name") or "instance"
    args.item = args.item or name
    df = reading.read_csv(args.answers, labels=[args.item])
    for column, flag in ((args.item, "--item"), (args.value, "--value")):
        if column not in df.columns:
            raise ValueError(f"{args.answers}: no column {column!r} ({flag}); its columns are "
                             f"{list(df.columns)[:10]}")
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
    score = reading.in_file(args.answers, lambda: score_new_model(idata, answers,
                                                             random_seed=args.seed))
    table = score.summary().rename_axis("quantity")
    misfit = score.person_fit_p < MISFIT_P  # where score_new_model warns
    print(f"{table.attrs['n_answered']} answers of {table.attrs['n_items']} {name}s; person fit "
          f"p = {score.person_fit_p:.3f} ("
          + (f"below {MISFIT_P}: the model's answers misfit the IRT, so read its accuracy with "
             "care)" if misfit
             else f"the model's answers fit the IRT; below {MISFIT_P} they would not)"))
    print(f"posterior mean, sd and {label(score.ci_prob, score.ci_kind)}; naive: the accuracy "
          f"on the answered {name}s")
    print(table.round(4).to_string())
    writer = Writer(args.out, "score_new")
    # the counts and the person fit in the file too (load_results reads no attrs)
    writer.table("score.csv", table.assign(**{k: table.attrs[k] for k in (
        "n_answered", "n_items", "person_fit_p")}))
    print(f"\n{writer.summary()}")


def _answers(df, args, name):
    """The answers Series (item -> 0/1) of the CSV, refusing empty labels, repeated items and
    answers other than 0/1 by their lines; empty answers left out with a warning."""
    from .._validation import warn_user
    from ..irt.new_model import as_binary

    item, value = df[args.item], df[args.value]
    repeated = (item.duplicated(keep=False) & item.notna()).to_numpy()
    first = plain(item[repeated].iloc[0]) if repeated.any() else None
    problems = {
        f"an empty {args.item!r} (--item)": item.isna().to_numpy(),
        f"{name} {first!r} more than once ({args.item!r}, --item)": repeated,
        f"an answer other than 0/1 in {args.value!r} (--value)":
            (as_binary(value).isna() & value.notna()).to_numpy(),
    }
    for what, bad in problems.items():
        if bad.any():
            raise ValueError(f"{args.answers}: {what} on {where(df.index, bad.nonzero()[0])} "
                             f"(one row per answered {name}, correct = 1)")
    empty = value.isna().to_numpy()
    if empty.any():
        warn_user(f"{args.answers}: {int(empty.sum())} empty answer(s) left out, on "
                  f"{where(df.index, empty.nonzero()[0])}")
    return value[~empty].set_axis(item[~empty])
