"""System Characteristic Curves: how much a model's predictions change under noise, per
difficulty bin, with the difficulty's posterior uncertainty carried along.

Predictions of independent instances do not interact, so a test set in which a proportion p
of each bin is perturbed gives, instance by instance, either the clean or the perturbed
prediction. :func:`noisy_predictions` therefore trains each model once per fold and predicts
every test instance twice (clean, perturbed); :func:`scc` then forms, for every posterior draw
of the difficulties, the bins, the perturbed subsets and Cohen's kappa between clean and
perturbed predictions (folds pooled), without retraining.
"""

from __future__ import annotations

import numbers
from functools import partial

import numpy as np
import pandas as pd
import xarray as xr

from .. import _intervals
from .._compat import renamed
from .._docs import fill_doc
from .._draws import equal_count_bins, stacked_draws
from .._fits import check_idata, warn_if_point
from .._validation import (count, fixed_seed, listed, matches_as_text, plain, spelling_hint,
                           warn_user)
from ..irt.difficulty import check_bins
from ..parallel import map_draws
from .folds import check_data
from .training import NOISE_DOCS, NoisyPredictions, noisy_predictions  # noqa: F401 (pickles)

PROPORTIONS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
#: fewer instances a bin than this: a warning (kappa over so few is mostly chance)
MIN_BIN_SIZE = 20

def _agreement(a, b, n_classes):
    """Cohen's kappa, agreement (accuracy) and macro-F1 of integer labels b against a.

    From the confusion matrix C: kappa = (p_o - p_e) / (1 - p_e), p_o = tr(C) / n,
    p_e = sum_k row_k col_k / n^2; F1_k = 2 C_kk / (row_k + col_k) averaged over the classes
    present. Identical labels give 1 for all three (kappa is 0/0 with a single class).
    """
    if np.array_equal(a, b):
        return 1.0, 1.0, 1.0
    confusion = np.bincount(a * n_classes + b, minlength=n_classes**2).reshape(
        n_classes, n_classes)
    n = len(a)
    rows, cols, diag = confusion.sum(axis=1), confusion.sum(axis=0), np.diag(confusion)
    p_o = diag.sum() / n
    p_e = (rows * cols).sum() / n**2
    present = (rows + cols) > 0
    f1 = (2 * diag[present] / (rows + cols)[present]).mean()
    return (p_o - p_e) / (1 - p_e), p_o, f1


@fill_doc(**NOISE_DOCS)
def scc(idata, estimators, X, y, *, noise=0.2, nominal=(), integer_noise="redraw", cv=5,
        proportions=PROPORTIONS, n_bins=5, max_draws=100, random_seed=0, n_jobs=None,
        progressbar=True, random_state=None) -> xr.Dataset:
    """System Characteristic Curves of ``estimators`` on ``(X, y)`` given a difficulty fit
    ``idata`` of the same instances: :func:`noisy_predictions` then
    :func:`scc_from_predictions`. Every check on the fit and the grid runs before the models
    train.

    Parameters
    ----------
    idata : arviz.InferenceData
        A fit of the binary IRT (:func:`irteval.fit` of :func:`irteval.models.onepl`) on
        responses of the same instances (e.g. :func:`cross_val_responses` of ``X``): its
        items must be ``X``'s rows, each once; a fit of another family is refused.
    {noisy_training}
    proportions : sequence of float, default (0, 0.2, 0.4, 0.6, 0.8, 1)
        Shares of each bin perturbed: distinct, in [0, 1] (sorted here).
    n_bins : int, default 5
        Equal-count difficulty bins (0 = easiest), from 1 to the number of instances.
    max_draws : int or None, default 100
        Use at most this many posterior draws of the difficulties (chains pooled), chosen at
        random with ``random_seed``; ``None``: every draw.
    random_seed : int, numpy.random.Generator or None, default 0
        Seeds every random choice (the folds, the noise, the draws kept and the perturbed
        subsets); the same seed gives the same curves.
    n_jobs : int, optional
        Workers for the (model, fold) fits and for the draws, through joblib: ``None`` runs
        in this process unless a ``joblib.parallel_config`` says otherwise, ``-1`` uses every
        core.
    {progressbar}
    {random_state}

    Returns
    -------
    xarray.Dataset
        ``kappa``, ``agreement`` and ``macro_f1`` over dims (model, bin, proportion, sample),
        as :func:`scc_from_predictions`.
    """
    random_seed = fixed_seed(renamed(random_seed, random_state, "random_state", "random_seed", 0))
    # every check on the fit and the grid before the models train
    proportions = _checked_grid(idata, proportions, n_bins, "scc")
    if max_draws is not None:
        count(max_draws, "max_draws")
    X, y = check_data(X, y, nominal)
    _check_instances(pd.Index(idata.posterior["item"].values), X.index, "X's rows")
    predictions = noisy_predictions(estimators, X, y, noise=noise, nominal=nominal,
                                    integer_noise=integer_noise, cv=cv,
                                    random_seed=random_seed, n_jobs=n_jobs,
                                    progressbar=progressbar)
    return scc_from_predictions(idata, predictions.clean, predictions.perturbed,
                                proportions=proportions, n_bins=n_bins, max_draws=max_draws,
                                random_seed=random_seed, n_jobs=n_jobs, progressbar=progressbar)


@fill_doc
def scc_from_predictions(idata, clean, perturbed, *, proportions=PROPORTIONS, n_bins=5,
                         max_draws=100, random_seed=0, n_jobs=None,
                         progressbar=True, random_state=None) -> xr.Dataset:
    """System Characteristic Curves from a difficulty fit and :func:`noisy_predictions`.

    For each of ``max_draws`` posterior draws: instances are cut into ``n_bins`` equal-count
    difficulty bins by that draw's b (0 = easiest); in every bin a random proportion p of
    the instances (nested as p grows) takes its perturbed prediction; Cohen's kappa,
    agreement (accuracy) and macro-F1 between the clean predictions and these are computed
    per model, bin and p. Returns a Dataset with ``kappa``, ``agreement`` and ``macro_f1``
    over dims (model, bin, proportion, sample); ``.mean("sample")`` gives the curves and
    :func:`scc_summary` a tidy table with intervals. The draws run through joblib
    (``n_jobs``; :func:`irteval.parallel.map_draws`), each with its own seed. Every instance
    of the fit counts: the reference code drops constant instances and |b| > 6, where its
    maximum-likelihood estimates run off; here they have a proper posterior and sit in the
    extreme bins (optdigits: the 17 that every model got right, posterior mean b -6.6, in
    bin 0 of 1124 instances). To follow the reference, subset the instances first.

    Parameters
    ----------
    idata : arviz.InferenceData
        A fit of the binary IRT (:func:`irteval.fit` of :func:`irteval.models.onepl`) of the
        predicted instances; a fit of another family is refused.
    clean, perturbed : pandas.DataFrame
        Predicted classes, instances x models (:func:`noisy_predictions`' ``clean`` and
        ``perturbed``, or a model's ``predict`` on clean and on perturbed inputs): the fit's
        items as index, each once (matched by label), the same models as columns (matched by
        name), no missing values, each class written alike in both.
    proportions : sequence of float, default (0, 0.2, 0.4, 0.6, 0.8, 1)
        Shares of each bin perturbed: distinct, in [0, 1] (sorted here).
    n_bins : int, default 5
        Equal-count difficulty bins, from 1 to the number of instances.
    {max_draws}
    random_seed : int, numpy.random.Generator or None, default 0
        Seeds the draws kept and the perturbed subsets; the same seed gives the same curves.
    n_jobs : int, optional
        Workers for the draws, through joblib: ``None`` runs in this process unless a
        ``joblib.parallel_config`` says otherwise, ``-1`` uses every core.
    {progressbar}
    {random_state}

    Returns
    -------
    xarray.Dataset
        ``kappa``, ``agreement`` and ``macro_f1`` over dims (model, bin, proportion, sample).
    """
    random_seed = fixed_seed(renamed(random_seed, random_state, "random_state", "random_seed", 0))
    proportions = _checked_grid(idata, proportions, n_bins, "scc_from_predictions")
    clean, perturbed = matched_predictions(pd.Index(idata.posterior["item"].values), clean,
                                           perturbed)
    b = stacked_draws(idata, "b", max_draws, random_seed)
    codes, classes = pd.factorize(pd.concat([clean, perturbed]).to_numpy().ravel())
    codes = codes.reshape(2 * len(clean), -1)
    one_draw = partial(_scc_one_draw, clean=codes[:len(clean)], noisy=codes[len(clean):],
                       n_bins=n_bins, proportions=proportions, n_classes=len(classes))
    seeds = np.random.SeedSequence(random_seed).spawn(len(b))
    out = np.stack(map_draws(one_draw, zip(b, seeds), n_jobs=n_jobs, progressbar=progressbar,
                             description="SCC over draws"), axis=-1)
    dims = ("model", "bin", "proportion", "sample")
    coords = {"model": np.asarray(clean.columns), "bin": np.arange(n_bins),
              "proportion": proportions, "sample": np.arange(len(b))}
    return xr.Dataset({name: (dims, values) for name, values in
                       zip(("kappa", "agreement", "macro_f1"), out)}, coords=coords)


def _checked_grid(idata, proportions, n_bins, caller):
    """The fit's family, ``n_bins`` and ``proportions`` (sorted) checked."""
    check_idata(idata, "binary_irt", caller)
    warn_if_point(idata, caller)
    proportions = np.asarray(proportions, dtype=float)
    if proportions.ndim != 1 or not len(proportions):
        raise ValueError(f"proportions must be a list of shares in [0, 1], e.g. [0, 0.5, 1], "
                         f"got {proportions.tolist()}")
    if not ((proportions >= 0) & (proportions <= 1)).all():  # NaN too
        raise ValueError(f"proportions must lie in [0, 1], got {proportions.tolist()}")
    if len(set(proportions)) < len(proportions):
        raise ValueError(f"proportions must be distinct, got {proportions.tolist()}")
    n_items = idata.posterior.sizes["item"]
    check_bins(n_bins, n_items)
    if n_items // n_bins < MIN_BIN_SIZE:
        warn_user(f"{n_bins} bins of {n_items // n_bins}"
                  f"{f'-{-(-n_items // n_bins)}' if n_items % n_bins else ''} instances: a kappa "
                  f"over fewer than {MIN_BIN_SIZE} is noisy, and the intervals count only which "
                  "instances fall in each bin, not that chance; give fewer bins (n_bins=, CLI "
                  "--bins) or predict more instances")
    return np.sort(proportions)  # the curves run from clean to all perturbed


#: the fixes of mismatched predictions, in Python's words (the command line has its own)
SAME_INSTANCES = ("predict the instances the difficulty was fitted on, or fit it on the "
                  "predicted ones, e.g. responses.subset(items=...)")
SAME_MODELS = ("keep the models both have, e.g. models = clean.columns.intersection("
               "perturbed.columns); clean[models], perturbed[models]")


def _check_instances(items, index, what):
    """``index`` holds the fit's ``items``, each once."""
    if index.hasnans:
        raise ValueError(f"{what} include missing labels (NaN); in Python, pandas.read_csv "
                         "reads labels such as 'NA' or 'n/a' as missing unless given "
                         "keep_default_na=False, na_values=['']")
    only_fit, only_here = items.difference(index), index.difference(items)
    if len(only_fit) or len(only_here) or index.has_duplicates:
        repeated = index[index.duplicated()].unique()
        raise ValueError(
            f"the fit's items and {what} do not match ("
            + (f"{len(only_fit)} of the fit's items missing: {list(only_fit[:5])}; "
               if len(only_fit) else "")
            + (f"{len(only_here)} not in the fit: {list(only_here[:5])}"
               f"{spelling_hint(only_here, items)}{_type_hint(only_here, items)}; "
               if len(only_here) else "")
            + (f"repeated: {list(repeated[:5])}; " if len(repeated) else "")
            + f"every instance of the fit once: {SAME_INSTANCES})")


def _type_hint(unknown, items):
    """'; ...' when the ``unknown`` labels are the fit's ``items`` written as another type
    (text "7" against the number 7: a frame read from a CSV beside a fit of the bundled
    data)."""
    if matches_as_text(unknown, items):
        example = plain(items[0])
        return (f" (the same labels as {type(plain(unknown[0])).__name__}, where the fit's are "
                f"{type(example).__name__}: give both one type, e.g. frame.index = frame.index."
                f"astype({type(example).__name__}))")
    return ""


def matched_predictions(items, clean, perturbed):
    """``clean`` and ``perturbed`` checked and put in the order of the fit's ``items`` (rows,
    by label) and of clean's models (columns, by name): class predictions, no missing values,
    and for each model classes written alike in both (the code 1 and the text "1" never
    agree, so kappa would be 0 everywhere)."""
    for name, frame in (("clean", clean), ("perturbed", perturbed)):
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(f"{name} must be a DataFrame of predictions, instances x models "
                            f"(noisy_predictions(...).{name}), got {type(frame).__name__}")
        _check_instances(items, frame.index, f"the {name} predictions' instances")
    only_clean = clean.columns.difference(perturbed.columns)
    only_perturbed = perturbed.columns.difference(clean.columns)
    if len(only_clean) or len(only_perturbed) or clean.columns.has_duplicates or \
            perturbed.columns.has_duplicates:
        raise ValueError(
            "clean and perturbed predictions need the same models (columns, matched by name, "
            "each once): "
            + (f"only in clean: {listed(only_clean)}; " if len(only_clean) else "")
            + (f"only in perturbed: {listed(only_perturbed)}"
               f"{spelling_hint(only_perturbed, clean.columns)}; " if len(only_perturbed)
               else "")
            + ("repeated names; " if clean.columns.has_duplicates
               or perturbed.columns.has_duplicates else "")
            + SAME_MODELS)
    clean, perturbed = clean.loc[items], perturbed.loc[items, clean.columns]
    for name, frame in (("clean", clean), ("perturbed", perturbed)):
        if frame.isna().to_numpy().any():
            row, col = np.argwhere(frame.isna().to_numpy())[0]
            raise ValueError(f"{name} predictions have missing values (e.g. instance "
                             f"{plain(frame.index[row])!r}, model {frame.columns[col]!r}); "
                             "every model needs a prediction for every instance")
        for model in frame.columns:
            _check_classes(frame[model], f"{name} predictions", model)
    for model in clean.columns:
        classes = pd.unique(pd.concat([clean[model], perturbed[model]], ignore_index=True))
        texts = pd.Series([str(plain(c)) for c in classes])
        alike = texts[texts.duplicated(keep=False)]  # the code 1 and the text "1"
        seen, new = set(pd.unique(clean[model])), set(pd.unique(perturbed[model]))
        # no class in common, numbers (or digits) on one side, names on the other: relabelled
        apart = not seen & new and len({_numeric(c) for c in classes}) > 1
        if len(alike) or apart:
            raise ValueError(
                f"model {model!r}: its classes are written differently in the clean and the "
                f"perturbed predictions (clean {_examples(seen)}, perturbed {_examples(new)}"
                + (f"; {alike.iloc[0]!r} both as text and as a number" if len(alike) else
                   "; not one class in common") + "), so pairs that agree would count as "
                "disagreeing; write them alike, e.g. both as text (.astype(str)), or map "
                "codes back to class names")
    return clean, perturbed


def _check_classes(column, what, model):
    """A column of predicted classes, not scores: no number with a fraction (text such as
    "2.5" is a class name)."""
    if pd.api.types.infer_dtype(column, skipna=True) not in ("floating", "mixed-integer-float",
                                                             "decimal", "mixed"):
        return
    numbers = pd.to_numeric(column, errors="coerce").to_numpy(float)
    fractional = np.flatnonzero(np.isfinite(numbers) & (numbers != np.round(numbers)))
    if len(fractional):
        at = fractional[0]
        raise ValueError(
            f"{what} must be predicted classes, not scores: model {model!r} has "
            f"{numbers[at]:g} at instance {plain(column.index[at])!r}; pass model.predict(X), "
            "or classes from probabilities, e.g. proba.argmax(axis=1) or (p > 0.5).astype(int)")


def _numeric(value):
    """Whether a class is a number or text that reads as one ("3", "2.5")."""
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True


def _examples(values, k=3):
    """A few of a set of class values with their types: "'cat', 'dog' (str)"."""
    values = sorted((plain(v) for v in values), key=str)
    types = sorted({type(v).__name__ for v in values})
    return f"{', '.join(repr(v) for v in values[:k])}{', ...' * (len(values) > k)} " \
           f"({', '.join(types)})"


def _scc_one_draw(draw, *, clean, noisy, n_bins, proportions, n_classes):
    """Kappa, agreement and macro-F1 (3, model, bin, proportion) for one draw of b."""
    b, seed = draw
    rng = np.random.default_rng(seed)
    out = np.empty((3, clean.shape[1], n_bins, len(proportions)))
    item_bin = equal_count_bins(b, n_bins)
    for k in range(n_bins):
        members = rng.permutation(np.flatnonzero(item_bin == k))
        for q, p in enumerate(proportions):
            chosen = members[:int(round(p * len(members)))]
            for m in range(clean.shape[1]):
                mixed = clean[members, m].copy()
                mixed[:len(chosen)] = noisy[chosen, m]
                out[:, m, k, q] = _agreement(clean[members, m], mixed, n_classes)
    return out


def check_scc(scc, caller):
    """``scc`` is the per-draw SCCs of :func:`scc` (a Dataset with kappa over samples)."""
    if not isinstance(scc, xr.Dataset) or "kappa" not in scc or "sample" not in scc.dims:
        raise TypeError(f"{caller} takes the per-draw SCCs of scc() or scc_from_predictions() "
                        f"(an xarray Dataset), got a {type(scc).__name__}")


@fill_doc
def scc_summary(scc, *, ci_prob=None, ci_kind=None, hdi_prob=None) -> pd.DataFrame:
    """Posterior means of the SCCs and their intervals over the draws, as a tidy table.

    Parameters
    ----------
    scc : xarray.Dataset
        The per-draw SCCs of :func:`scc` or :func:`scc_from_predictions`.
    {ci_prob_and_kind}
    {hdi_prob}

    Returns
    -------
    pandas.DataFrame
        One row per (model, bin, proportion) (a MultiIndex): the posterior means of
        ``kappa``, ``agreement`` and ``macro_f1``, each followed by its interval over the
        draws (``kappa_lower``, ``kappa_upper``, ...). ``attrs`` holds ``ci_prob`` and
        ``ci_kind``.
    """
    prob, kind = _intervals.resolve(ci_prob, ci_kind, hdi_prob)
    check_scc(scc, "scc_summary")
    index = scc["kappa"].isel(sample=0, drop=True).to_series().index  # (model, bin, proportion)
    columns = {}
    for name in ("kappa", "agreement", "macro_f1"):
        draws = scc[name].transpose("sample", *index.names).values
        columns |= {column: values.ravel() for column, values in
                    _intervals.quantity_columns(draws, prob, kind, name).items()}
    return _intervals.record(pd.DataFrame(columns, index=index), prob, kind)


def p_hardest_most_sensitive(scc, proportion=1.0) -> pd.Series:
    """Per model, the posterior probability that its kappa at ``proportion`` is lowest in
    the hardest bin (the paper's main finding), from :func:`scc` draws.

    Parameters
    ----------
    scc : xarray.Dataset
        The per-draw SCCs of :func:`scc` or :func:`scc_from_predictions`, with two bins at
        least.
    proportion : float, default 1.0
        The share perturbed at which to compare the bins: one of the SCCs' proportions.

    Returns
    -------
    pandas.Series
        Indexed by model, named ``p_hardest_most_sensitive``.
    """
    check_scc(scc, "p_hardest_most_sensitive")
    if scc.sizes["bin"] < 2:
        raise ValueError("p_hardest_most_sensitive compares the hardest bin with the others: "
                         "the SCCs need two bins at least (n_bins=)")
    grid = scc["proportion"].values
    if isinstance(proportion, (bool, np.bool_)) or not isinstance(proportion, numbers.Real):
        raise TypeError(f"proportion={proportion!r}: give a number, one of the SCCs' "
                        f"proportions ({grid.tolist()})")
    close = np.flatnonzero(np.isclose(grid, proportion, rtol=0, atol=1e-9))
    if not len(close):  # 0.1 * 6 is 0.6000000000000001
        raise ValueError(f"proportion {proportion} is not in the SCCs ({grid.tolist()})")
    at = scc["kappa"].isel(proportion=close[0])
    hardest = at.isel(bin=-1) < at.isel(bin=slice(None, -1)).min("bin")
    return hardest.mean("sample").to_series().rename("p_hardest_most_sensitive")
