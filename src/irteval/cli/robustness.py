"""``irteval robustness``: how robust each model family is to noise on easy and hard
instances (System Characteristic Curves and a taxonomy, paper 1)."""

from __future__ import annotations

import re
import sys
import time
from contextlib import contextmanager
from functools import partial
from pathlib import Path

from .._validation import listed
from ..robustness.folds import check_data
from ..robustness.perturb import is_integer_coded
from . import fitting, options, reading
from .difficulty import check_bins
from .outputs import Writer


def add_parser(sub):
    """The ``irteval robustness`` sub-command and its options."""
    rob = sub.add_parser("robustness", help="System Characteristic Curves and taxonomy",
                         description="Robustness to noise by instance difficulty (paper 1): "
                                     "1PL difficulty from a model population's responses, "
                                     "clean vs perturbed predictions of one model per family, "
                                     "kappa per difficulty bin and proportion perturbed, and "
                                     "a taxonomy of the families over the datasets; or, with "
                                     "--responses and --predictions, the same for your own "
                                     "models' clean and perturbed predictions.")
    rob.add_argument("--dataset", nargs="+", default=[], metavar="NAME",
                     help="bundled benchmarks (optdigits, letter, wall_robot_navigation); "
                          "their zoo responses are bundled too")
    rob.add_argument("--csv", type=Path, metavar="FILE",
                     help="a data CSV instead: features and a target column")
    rob.add_argument("--target", metavar="COLUMN",
                     help="--csv: the target column (default: class)")
    rob.add_argument("--id", metavar="COLUMN",
                     help="--csv: the column naming each instance, read as text (default: the "
                          "data rows counted from 0)")
    rob.add_argument("--nominal", default="",
                     help="--csv: comma-separated nominal columns (redrawn instead of "
                          "Gaussian noise, and one-hot encoded for the models)")
    rob.add_argument("--responses", type=Path, metavar="FILE",
                     help="a wide 0/1 CSV (row per instance, column per model) to estimate "
                          "difficulty from: with --csv (by default there: cross-validate the "
                          "model zoo) or with --predictions")
    rob.add_argument("--predictions", nargs=2, type=Path, metavar=("CLEAN", "PERTURBED"),
                     help="your own models' predicted classes on the clean and on the "
                          "perturbed instances: two wide CSVs (a row per instance, labelled "
                          "as in --responses; a column per model), with --responses and "
                          "without --csv: nothing is trained")
    rob.add_argument("--families", default="",
                     help="comma-separated families (knn) or their representatives (knn_3) "
                          "(default: all 17; see irteval.robustness.families())")
    rob.add_argument("--noise", type=options.at_least(0.0, float), default=None,
                     help="noise magnitude eps (default: 0.2): Gaussian noise of sd eps x "
                          "the feature's training sd; nominal values redrawn with "
                          "probability 1 - exp(-eps)")
    rob.add_argument("--integer-noise", choices=["redraw", "gaussian"], default=None,
                     help="integer columns (optdigits' and letter's features): redrawn from "
                          "their training values like nominal ones, as the paper's code "
                          "(default), or given Gaussian noise like decimal ones")
    rob.add_argument("--bins", type=options.at_least(2), default=5,
                     help="difficulty bins (default: 5; two at least: the hardest is compared "
                          "with the others)")
    rob.add_argument("--scc-draws", type=options.at_least(1), default=50,
                     help="posterior draws the SCCs are computed for (default: 50)")
    rob.add_argument("--groups", type=options.at_least(2), default=None,
                     help="taxonomy groups (default: 3, or one fewer than the families "
                          "(with --predictions: models) where that is less, but 2 at least)")
    rob.add_argument("--n-jobs", type=options.n_jobs, default=None,
                     help="joblib workers for training the models (default: 1; -1: every "
                          "core)")
    # the model's 1000 draws: at 500 the largest R-hat of the 58 models' abilities on
    # wall_robot_navigation passed 1.01 in three of four seeds (bulk ESS over 2000)
    options.add_fit_options(rob, defaults="the 1PL's: 1000 draws, 500 warm-up steps on nutpie")
    return rob


#: folds of the model zoo's cross-validation on the command line
FOLDS = 5
#: families of the demo's robustness part (fast to train; the full run has 17)
DEMO_FAMILIES = ("naive_bayes", "cart_depth10", "knn_3", "logistic_C1", "random_forest",
                 "mlp_7")


@contextmanager
def stage(name):
    """Print how long the block took."""
    start = time.perf_counter()
    yield
    print(f"[{time.perf_counter() - start:6.1f} s] {name}")


def estimators(families):
    """The family representatives named in the comma-separated ``families`` (all if empty),
    each by its own name (knn_3) or its family's (knn)."""
    from ..robustness import FAMILIES
    from ..robustness import families as all_families

    models = all_families()
    if not families:
        return models
    representative = {family: configs[0][0] for family, (_, configs) in FAMILIES.items()}
    wanted = [representative.get(f.strip(), f.strip()) for f in families.split(",")
              if f.strip()]
    unknown = [f for f in wanted if f not in models]
    if unknown:
        raise ValueError(f"unknown families {unknown}; choose from {list(FAMILIES)} or their "
                         f"representatives {list(models)}")
    return {f: models[f] for f in wanted}


def data(args):
    """[(name, X, y, nominal, responses or None, (clean, perturbed) predictions or None)]
    from --dataset, --csv or --responses with --predictions."""
    import pandas as pd

    from ..datasets import BENCHMARKS, load_responses

    if args.predictions:
        return [own_predictions(args)]
    if bool(args.dataset) == bool(args.csv):
        raise ValueError("give either --dataset NAME [NAME ...], --csv FILE or --responses "
                         "FILE --predictions CLEAN PERTURBED")
    csv_only = [flag for flag, value in (("--target", args.target), ("--id", args.id),
                                         ("--nominal", args.nominal),
                                         ("--responses", args.responses)) if value]
    if args.dataset and csv_only:  # the bundled benchmarks have their own
        raise ValueError(f"{', '.join(csv_only)} appl{'y' if len(csv_only) > 1 else 'ies'} "
                         "to --csv only; the bundled datasets bring their targets, ids, "
                         "nominal columns and responses")
    if args.csv:
        target = args.target or "class"
        nominal = [c.strip() for c in args.nominal.split(",") if c.strip()]
        # labels, classes and categories as written ("007", "NA"; "01" and "1" are two)
        df = reading.read_csv(args.csv, labels=[c for c in (args.id, target, *nominal) if c])
        for column, flag in ((target, "--target"), (args.id, "--id")):
            if column is not None and column not in df.columns:
                raise ValueError(f"{args.csv}: {flag} {column!r} is not a column; its "
                                 f"columns are {listed(df.columns)}")
        labels = (reading.label_column(df, args.id, args.csv, "--id") if args.id
                  else range(len(df)))
        name = args.id if args.id not in (None, "model") else "instance"  # --id's header
        X = df.drop(columns=[c for c in (target, args.id) if c]).set_axis(
            pd.Index(labels, name=name))
        y = df[target].set_axis(X.index)
        unknown = [c for c in nominal if c not in X.columns]
        if unknown:  # check_data's "not in X" names a frame the command line never showed
            raise ValueError(f"{args.csv}: --nominal names {unknown}, which are not feature "
                             f"columns; the features are {listed(X.columns)} (--target"
                             + (" and --id are" if args.id else " is") + " not)")
        try:  # before any work
            reading.in_file(args.csv, lambda: check_data(X, y, nominal))
        except ValueError as err:
            # text with a different value in (nearly) every row, where labels such as 'NA'
            # read as missing: an id column left among the features
            ids = [c for c in X.columns if c not in nominal
                   and not pd.api.types.is_numeric_dtype(X[c])
                   and X[c].dropna().is_unique and X[c].notna().mean() > 0.5]
            if not ("not numeric" in str(err) or "missing values" in str(err)) or args.id \
                    or not ids:
                raise
            raise ValueError(f"{err}; if {ids[0]!r} labels the instances, pass --id "
                             f"{ids[0]} (its labels are then read as written, 'NA' "
                             "included)") from err
        if not args.id:
            warn_id_feature(X, args.csv)
        largest = y.value_counts().max()
        if largest < FOLDS:
            looks = (f"; it has {y.nunique()} distinct values in {len(y)} rows, like a "
                     "continuous target, and robustness classifies" if y.nunique() > len(y) / 2
                     else "")
            raise ValueError(f"{args.csv}: no class of --target {target!r} has {FOLDS} rows "
                             f"(the largest has {largest}), and the model zoo is "
                             f"cross-validated in {FOLDS} folds{looks}; give at least {FOLDS} "
                             "rows of a class")
        resp = None
        if args.responses:
            resp = read_response_matrix(args.responses, X.index, name)
            unknown = resp.items.difference(X.index, sort=False)
            unanswered = X.index.difference(resp.items, sort=False)
            if len(unknown) or len(unanswered):  # before any fit
                raise ValueError(
                    f"{args.responses}: its instances are not {args.csv.name}'s rows ("
                    + (f"not in {args.csv.name}: {list(unknown[:5])}; " if len(unknown) else "")
                    + (f"without responses: {list(unanswered[:5])}; " if len(unanswered)
                       else "")
                    + "label its rows as --id labels them, or as the data rows counted from 0 "
                      "without --id)")
        return [(args.csv.stem, X, y, nominal, resp, None)]
    unknown = [d for d in args.dataset if d not in BENCHMARKS]
    if unknown:
        raise ValueError(f"unknown datasets {unknown}; bundled: {sorted(BENCHMARKS)}")
    return [(d, *BENCHMARKS[d](return_X_y=True), [], load_responses(d), None)
            for d in args.dataset]


def read_response_matrix(path, like=(), item=None):
    """The wide 0/1 CSV of --responses (a row per instance, labelled in its first column;
    labels matched to ``like``'s by text), the instances called ``item`` (default: the first
    column's header, or "instance" where it has none)."""
    import numpy as np
    import pandas as pd

    from .._validation import plain, spelling_hint, where
    from ..data import Responses

    wide = reading.read_csv(path, labels=lambda columns: columns[:1], flag="--responses")
    check_labels_first(wide, path, "--responses")
    lines = wide.index.to_numpy()  # as the file numbers them
    wide = wide.set_index(wide.columns[0])
    wide.index = reading.as_labels(wide.index, like)
    unknown = ~wide.index.isin(like) if len(like) else np.zeros(len(wide), bool)
    if unknown.any():  # before from_wide, which would refuse labels of numbers beside text
        raise ValueError(f"{path}: {int(unknown.sum())} of its {len(wide)} instances are not "
                         f"rows of the data (e.g. {[plain(x) for x in wide.index[unknown][:5]]}; "
                         f"{where(pd.Index(lines, name='line'), np.flatnonzero(unknown))}): "
                         "label its rows as --id labels the data's, or as the data rows "
                         "counted from 0 without --id"
                         + spelling_hint([str(x) for x in wide.index[unknown]],
                                         [str(x) for x in like]))
    empty = wide.isna().all(axis=1).to_numpy()  # (from_wide would leave them out; --id
    if empty.any():  # matches the instances to the data's rows, so they are refused here)
        raise ValueError(f"{path}: {int(empty.sum())} instances have no answer "
                         f"({where(pd.Index(lines, name='line'), np.flatnonzero(empty))}); give "
                         "every instance its models' 0/1 answers")
    header = str(wide.index.name)
    item = item or ("instance" if header.startswith("Unnamed: ") or header == "model"
                    else header)  # the models are the columns
    try:
        return reading.in_file(path, lambda: Responses.from_wide(
            wide, respondent="model", item=item, rows="item"))
    except ValueError as err:
        if not wide.index.has_duplicates:  # (from_wide's hint names its keywords)
            raise ValueError(re.sub(r"if column ('.*') labels the rows, pass .*",
                                    r"if column \1 labels the instances, make it the first "
                                    "column", str(err))) from err
        repeated = wide.index.duplicated(keep=False).nonzero()[0]
        raise ValueError(f"{err} ({where(pd.Index(lines, name='line'), repeated)}); "
                         "--responses takes a matrix, a row per instance and a column per "
                         "model; if it is a long file (a row per answer), pivot it to one in "
                         "Python, e.g. df.pivot(index='instance', columns='model', "
                         "values='correct')") from err


def own_predictions(args):
    """(name, None, None, [], responses, (clean, perturbed)) from --responses and
    --predictions, checked against each other before any fit."""
    import pandas as pd

    from ..robustness.scc import matched_predictions

    given = [flag for flag, value in (("--csv", args.csv), ("--dataset", args.dataset),
                                      ("--target", args.target), ("--id", args.id),
                                      ("--nominal", args.nominal),
                                      ("--families", args.families),
                                      ("--noise", args.noise is not None),
                                      ("--integer-noise", args.integer_noise),
                                      ("--n-jobs", args.n_jobs is not None)) if value]
    if given or not args.responses:
        raise ValueError("--predictions brings the predictions of your own models: give it "
                         "with --responses (the answers to fit the difficulty on) and without "
                         + (", ".join(given) if given else "--csv or --dataset")
                         + " (nothing is trained)")
    resp = read_response_matrix(args.responses)
    frames = []
    for path, which in zip(args.predictions, ("clean", "perturbed")):
        # every column as text (a column of digits beside one with a word would be read as
        # numbers and as text), then as_classes reads both files' columns alike
        wide = reading.read_csv(path, labels=lambda columns: columns,
                                flag=f"--predictions, the {which} predictions")
        check_labels_first(wide, path, "--predictions")
        labels = reading.as_labels(wide.iloc[:, 0], resp.items)  # matched by text
        frames.append(wide.iloc[:, 1:].set_axis(pd.Index(labels, name=resp.item_name)))
    frames = as_classes(frames)
    clean, perturbed = reading.in_file(  # the message says "clean" or "perturbed"
        "--predictions (clean: {}, perturbed: {})".format(*args.predictions),
        lambda: matched_predictions(resp.items, *frames))
    return args.responses.stem, None, None, [], resp, (clean, perturbed)


def warn_id_feature(X, path):
    """Warn of a feature that looks like the instances' labels, a distinct value in every row
    that is named id, index, ... or counts up row by row (1001, 1002, ...): the models would
    learn from it and the noise perturb it, where --id would label the instances by it (pandas'
    own row numbers, ``Unnamed: 0``, are no labels: the file is better written without)."""
    import shlex

    import pandas as pd

    for column in X.columns:
        values = X[column].dropna()
        if len(values) <= 10 or not values.is_unique:  # (a nominal id is an id too)
            continue
        named = re.fullmatch(r"(.*[_ ])?(id|index|row|instance)", str(column), re.IGNORECASE)
        counted = (pd.api.types.is_integer_dtype(values) and values.is_monotonic_increasing
                   and values.iloc[-1] - values.iloc[0] == len(values) - 1)
        used = ("is used as a feature, which the models learn from and the noise perturbs")
        if str(column).startswith("Unnamed: ") and counted:
            message = (f"its column {column!r} holds pandas' row numbers (df.to_csv(path) "
                       f"without index=False), and {used}; write the file with index=False, or "
                       "drop that column")
        elif named or counted:
            what = (f"integers counting up from {values.iloc[0]} to {values.iloc[-1]}"
                    if counted else "a distinct value in every row")
            message = (f"column {column!r} ({what}) looks like the instances' labels, and "
                       f"{used}; if it labels the instances, pass --id "
                       f"{shlex.quote(str(column))}")
        else:
            continue
        print(f"irteval: warning: {path}: {message}", file=sys.stderr)
        return


def check_labels_first(wide, path, flag):
    """Refuse a first column that is not the instances' labels where ``flag``'s file needs
    them first: pandas' row numbers (``df.to_csv(path)`` without ``index=False``: no name, 0,
    1, 2, ... down the rows), or repeated values beside a column of distinct texts."""
    import pandas as pd

    first = wide.iloc[:, 0]
    labels = [name for name, values in wide.iloc[:, 1:].items() if values.is_unique
              and pd.to_numeric(values, errors="coerce").isna().all()]
    if not labels:  # (row numbers are the labels of data without any: --csv without --id)
        return
    if str(wide.columns[0]).startswith("Unnamed: ") and \
            first.tolist() == [str(k) for k in range(len(first))]:
        raise ValueError(f"{path}: its first column has no name and counts 0, 1, 2, ... down "
                         "the rows, as the index pandas writes with df.to_csv(path), where "
                         f"column {labels[0]!r} holds a distinct text on every row; {flag} "
                         "takes the instances' labels in the first column: write it with "
                         f"df.to_csv(path, index=False) (column {labels[0]!r} first), or remove "
                         "that column")
    if not first.is_unique:
        raise ValueError(f"{path}: {flag} takes the instances' labels in the first column, "
                         f"and its first column {wide.columns[0]!r} repeats values where column "
                         f"{labels[0]!r} holds a distinct text on every row: make that column "
                         "the first")


#: a cell of predicted classes that a program wrote for a missing value (R's NA, pandas' NaN)
MISSING_TEXT = frozenset({"NA", "NaN", "nan", "N/A", "NULL", "null", "None"})


def as_classes(frames):
    """Predicted classes read as text (frames of instances x models: the clean and the
    perturbed file), a model's column read alike in every frame: where all its cells read as
    finite numbers below 2^53 (or as missing-value text such as R's NA, then missing), as
    numbers, whole ones as integers, so that "4.0" and "4" are one class and scores
    ("0.9973") are refused as scores; else as written (class names)."""
    import numpy as np
    import pandas as pd

    def numeric(values):  # (numbers or None, missing)
        missing = values.isin(MISSING_TEXT) | values.isna()
        numbers = pd.to_numeric(values.mask(missing), errors="coerce").astype(float)
        # every cell a number (NaN, inf and integers that floats would merge stay text)
        read = (numbers.abs() < 2**53).sum() == (~missing).sum()
        return (numbers if read else None), missing

    models = pd.Index([]).append([frame.columns for frame in frames]).unique()
    out = [frame.copy() for frame in frames]
    for model in models:
        read = [numeric(frame[model]) for frame in frames if model in frame.columns]
        if any(numbers is None for numbers, _ in read):
            continue  # names ("cat", "4a") somewhere: text everywhere
        whole = all((n.dropna() == np.round(n.dropna())).all() for n, _ in read)
        for frame, (numbers, missing) in zip([f for f in out if model in f.columns], read):
            frame[model] = (numbers.astype("int64") if whole and not missing.any()
                            else numbers)
    return out


def report(name, X, y, args, out, *, estimators, nominal=(), resp=None, idata=None, bins=5,
           noise=0.2, integer_noise="redraw", scc_draws=50, n_jobs=None, predictions=None):
    """Difficulty (unless ``idata`` is given), SCCs and p_hardest for one dataset; returns
    the SCC Dataset. Prints the time of every stage. ``predictions``: the user's own (clean,
    perturbed) predictions, instead of training ``estimators`` on ``X``, ``y``."""
    from .. import models
    from ..irt import difficulty
    from ..robustness import (
        cross_val_responses,
        noisy_predictions,
        p_hardest_most_sensitive,
        plot_scc,
        scc_from_predictions,
        scc_summary,
        zoo,
    )

    writer = Writer(out, "robustness_difficulty", "scc")
    check_bins(bins, len(X) if predictions is None else len(predictions[0]), "instance")
    if idata is None:
        if resp is None:
            with stage("responses: cross-validating the model zoo"):
                resp = cross_val_responses(zoo(population=True), X, y, nominal=nominal, cv=FOLDS,
                                           random_seed=args.seed, n_jobs=n_jobs)
        print(resp)
        with stage("difficulty: 1PL fit"):
            idata = fitting.fit(models.onepl(resp), args)
        table = difficulty(idata, n_bins=bins)
        writer.table("difficulty.csv", table)
        fitting.save(idata, writer, {})
    else:
        table = difficulty(idata, n_bins=bins)
    varied = (table["accuracy"] > 0) & (table["accuracy"] < 1)
    post = idata.posterior
    n_constant = int((~varied).sum())
    print(f"difficulty of {name}: mean {table['mean'].mean():.2f} +- {table['mean'].std():.2f} "
          f"(all {len(table)} instances"
          + (f"); {table['mean'][varied].mean():.2f} +- {table['mean'][varied].std():.2f} "
             f"without the {n_constant} that every model got right or wrong" if n_constant else
             ", none of which every model got right or wrong)")
          + f"; population mu_b {float(post['mu_b'].mean()):.2f}, sigma_b "
          f"{float(post['sigma_b'].mean()):.2f}")
    constant = (~varied).groupby(table["bin"]).mean()  # bins of the posterior means
    if (constant > 0.5).any():
        crowded = list(constant.index[constant > 0.5])
        print(f"irteval: warning: bin{'s' * (len(crowded) > 1)} {', '.join(map(str, crowded))} "
              f"{'are' if len(crowded) > 1 else 'is'} mostly instances that every model got "
              "right or wrong ("
              + ", ".join(f"{constant[k]:.0%}" for k in crowded) + "), whose order only the "
              "prior sets: kappas there compare instances of one difficulty; more models, or "
              "fewer --bins, spread them", file=sys.stderr)
    if predictions is None:
        integers = sum(is_integer_coded(X[c]) for c in X.columns if c not in nominal)
        how = {"redraw": "redrawn as nominal ones",
               "gaussian": "with Gaussian noise"}[integer_noise]
        flag = ": --integer-noise" if hasattr(args, "integer_noise") else ""  # not the demo's
        with stage(f"noisy predictions: {len(estimators)} families x 5 folds, noise {noise}"
                   + (f" ({integers} integer columns {how}{flag})" if integers else "")):
            noisy = noisy_predictions(estimators, X, y, noise=noise, nominal=nominal,
                                      integer_noise=integer_noise, random_seed=args.seed,
                                      n_jobs=n_jobs)
        predictions = noisy.clean, noisy.perturbed
    with stage(f"SCC over {scc_draws} posterior draws"):
        scc = scc_from_predictions(idata, *predictions, n_bins=bins, max_draws=scc_draws,
                                   random_seed=args.seed)
    summary = scc_summary(scc)
    writer.table("scc.csv", summary)
    writer.table("predictions.csv", flips(*predictions, idata.attrs.get("item_name", "instance")))
    scc.to_netcdf(writer.path("scc.nc"))
    at_one = summary.xs(1.0, level="proportion")["kappa"].unstack("bin")
    table = at_one.assign(p_hardest_most_sensitive=p_hardest_most_sensitive(scc))
    writer.table("p_hardest.csv", table)
    print("\nkappa with every instance of a bin perturbed (bin 0 = easiest), and "
          "P(hardest bin most sensitive):")
    print(table.round(3).to_string())
    fitting.pyplot()
    fitting.save_figure(writer.path("scc.png"), plot_scc(scc).ravel()[0].figure, dpi=90)
    print(writer.summary())
    return scc


def flips(clean, perturbed, item_name):
    """The predictions as a table, a row per (instance, model): ``clean``, ``perturbed`` and
    ``changed`` (which instances the noise flips)."""
    import pandas as pd

    table = pd.DataFrame({name: frame.rename_axis(index=item_name, columns="model").stack()
                          for name, frame in (("clean", clean), ("perturbed", perturbed))})
    return table.assign(changed=table["clean"] != table["perturbed"])


def taxonomy_report(sccs, out, groups):
    """The taxonomy of the families over the datasets' SCCs."""
    from .._validation import plural
    from ..robustness import plot_dendrogram, taxonomy

    # the families that trained on every dataset (the others were skipped, with a warning)
    common = [m for m in sccs[0]["model"].values
              if all(m in s["model"].values for s in sccs[1:])]
    sccs = [s.sel(model=common) for s in sccs]
    n_models = len(common)
    if n_models < 2:
        print("\nno robustness taxonomy: it groups two models at least")
        return None
    if groups > n_models:  # families skipped on these data (their warnings said which)
        print(f"\nirteval: warning: {n_models} families trained, fewer than --groups {groups}: "
              f"the taxonomy has {n_models} groups", file=sys.stderr)
        groups = n_models
    tax = taxonomy(sccs, k=groups)
    table = tax.summary()
    found = table["group"].nunique()  # fewer where profiles tie (all alike: one)
    print(f"\nrobustness taxonomy ({plural(found, 'group')}, complete linkage on kappa "
          f"profiles averaged over {len(sccs)} dataset(s))"
          + (f"; --groups {groups} asked, but the profiles tie" if found < groups else "")
          + ":")
    print(table.sort_values("group").round(2).to_string())
    if table["p_same_group_as_members"].isna().any():
        print("(p_same_group_as_members is NaN for a model alone in its group: no member to "
              "share it with; p_alone says how sure that is)")
    unsure = table.index[table["p_same_group_as_members"] < 0.5]
    if len(unsure):
        print(f"unsure places (in one group with its members in under half of the posterior "
              f"draws; co_assignment.csv has every pair): {', '.join(map(str, unsure))}")
    writer = Writer(out, "taxonomy")
    writer.table("taxonomy.csv", table)
    writer.table("co_assignment.csv", tax.co_assignment)
    fitting.save_plot(writer.path("dendrogram.png"), partial(plot_dendrogram, tax))
    print(writer.summary())
    return tax
