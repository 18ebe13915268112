"""Scoring a new model from a few instances with a fitted 1PL ... 4PL (efficient and adaptive
evaluation, as tinyBenchmarks and computerized adaptive testing do, with a posterior).

For posterior draw s of the fitted items (b_j; a_j, floor c_j and ceiling d_j where the model
has them) the new model's ability has prior N(0, sigma_s) (sigma_theta of the 1PL, 1 from the
2PL on) and likelihood prod_{j answered} p_js(theta)^y_j (1 - p_js(theta))^(1 - y_j), p_js =
c_js + (d_js - c_js) logistic(a_js (theta - b_js)) (:mod:`.item_draws`).
Its posterior is computed on a grid per draw and one theta drawn from each, so the
uncertainty of the items is integrated over, not plugged in. The full-benchmark accuracy is
(sum of the observed answers + sum over the other items of y_j ~ Bernoulli(p_js(theta_s))) / J
per draw: the posterior predictive, observed answers counted as observed.

Person fit: the posterior predictive p-value of the answers' log-likelihood (replicated answers
on the same items at the same draws); a small value says the 1PL/2PL does not describe this
model's answers (it fails differently from the models it was fitted to), and the accuracy then
leans on a misfitting model. The check sees only the items answered: coverage, the share of the
benchmark's items whose posterior mean difficulty lies between the answered items' lowest and
highest, says how much of the accuracy is the IRT's extrapolation. For n items drawn at random
the share left out is about Beta(2, n - 1) (the mass outside the range of n uniform draws);
one far above it (upper tail below 0.01) is warned about, as from the information strategies,
which ask items of one difficulty.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd
import xarray as xr
from rich.progress import Progress, TextColumn
from scipy import stats

from .. import _intervals
from .._docs import fill_doc
from .._draws import stacked_draws
from .._fits import needs_draws, warn_if_point
from .._repr import ShortRepr
from .._validation import (
    count,
    fixed_seed,
    matches_as_text,
    plain,
    seeded_rng,
    spelling_hint,
    warn_user,
)
from ..models.onepl_marginal import z_grid
from .item_draws import Items, answer_logp

STRATEGIES = ("stratified", "information", "random")
ADAPTIVE_STRATEGIES = ("stratified", "information")
#: difficulty strata of adaptive_test's stratified rule
ADAPTIVE_STRATA = 10
#: items adaptive_test asks at least, by default
MIN_ITEMS = 5
#: person-fit p-value below which score_new_model warns (1 in 100 well-fitting models), and
#: the upper tail of a random subset's coverage below which it warns of a narrow one
WARN_P = 0.01
#: the advice of the warnings on how to ask items across the difficulty range (the command
#: line names its own command in their place)
ASK_ACROSS = "select_items and adaptive_test with their default strategy='stratified'"
ASK_SAMPLE = "select_items, adaptive_test with strategy='stratified'"


@dataclass(frozen=True, repr=False)
class NewModelScore(ShortRepr):
    """Result of :func:`score_new_model` (and :func:`adaptive_test`): the posterior of a new
    model's ability and full-benchmark accuracy.

    Attributes
    ----------
    ability : xarray.DataArray
        Posterior draws (dim ``sample``) of the new model's ability.
    accuracy : xarray.DataArray
        Posterior draws (dim ``sample``) of its accuracy on all items of the benchmark
        (posterior predictive, observed answers counted as observed).
    answered : pandas.Series
        The items it ran (index) with its answers (0.0 / 1.0), named ``answer``.
    naive : float
        Its accuracy on the answered items, which leans on no IRT: their mean, or, after
        :func:`adaptive_test`'s stratified rule (which asks more where answers are
        uncertain), the strata's means weighted by their shares of the items (a stratified
        estimate; NaN until every stratum has an answer).
    coverage : float
        Share of the benchmark's items whose posterior mean difficulty lies within the
        answered items' range (``irteval.irt.new_model``'s docstring); the rest is the IRT's
        extrapolation.
    person_fit_p : float
        Posterior predictive p-value of its answers' log-likelihood; small: misfit.
    n_items : int
        Number of items of the benchmark (of the fit).
    ci_prob : float
        Mass of the intervals of :meth:`summary`.
    ci_kind : str
        ``"hdi"`` or ``"eti"``: the kind of those intervals.
    """

    ability: xr.DataArray
    accuracy: xr.DataArray
    answered: pd.Series
    naive: float
    coverage: float
    person_fit_p: float
    n_items: int
    ci_prob: float
    ci_kind: str

    def summary(self) -> pd.DataFrame:
        """Posterior mean, sd and interval of ``ability`` and ``accuracy``; ``naive`` is the
        accuracy estimate that leans on no IRT (:attr:`naive`: the answered items' mean, or
        :func:`adaptive_test`'s stratified estimate).

        Returns
        -------
        pandas.DataFrame
            Rows ``ability`` and ``accuracy`` (index ``quantity``); columns ``mean``, ``sd``,
            ``{ci_kind}_lower``, ``{ci_kind}_upper``, ``naive`` (NaN for the ability). ``attrs``
            holds ``n_answered``, ``n_items``, ``coverage``, ``person_fit_p``, ``ci_prob`` and
            ``ci_kind``.
        """
        rows = {}
        for name in ("ability", "accuracy"):
            columns = _intervals.estimate_columns(getattr(self, name).values[:, None],
                                                  self.ci_prob, self.ci_kind)
            rows[name] = {column: values[0] for column, values in columns.items()}
        table = pd.DataFrame(rows).T.rename_axis("quantity")
        table["naive"] = [np.nan, self.naive]
        table.attrs.update(n_answered=len(self.answered), n_items=self.n_items,
                           coverage=self.coverage, person_fit_p=self.person_fit_p)
        return _intervals.record(table, self.ci_prob, self.ci_kind)


def as_binary(values):
    """``values`` (a Series of anything) as numbers, NaN where not 0 or 1 (True, "true", "1",
    1.0 count as 1: text as a CSV of booleans reads, in any case)."""
    truth = {"true": 1, "false": 0}
    values = values.map(lambda v: truth.get(v.strip().casefold(), v) if isinstance(v, str) else v)
    numbers_ = pd.to_numeric(values, errors="coerce")
    if numbers_.dtype.kind not in "biuf":  # complex
        return pd.Series(np.nan, index=values.index)
    return numbers_.where(numbers_.isin([0, 1]))


def _answers(items, answers):
    """(positions, 0/1 values, the answers as a labelled Series) of ``answers``: a dict or
    Series item -> 0/1; missing (NaN) answers are left out with a warning, and at least one
    must be given."""
    series = pd.Series(answers, dtype=object) if isinstance(answers, dict) else answers
    if not isinstance(series, pd.Series):
        columns = (list(answers.columns) if isinstance(answers, pd.DataFrame)
                   and answers.shape[1] else [items.labels.name, "correct"])
        label = items.labels.name if items.labels.name in columns else columns[0]
        others = [c for c in columns if c != label]
        value = "correct" if "correct" in others else others[-1] if others else None
        if isinstance(answers, pd.DataFrame) and answers.index.isin(items.labels).any():
            table = f"answers[{plain(columns[0])!r}]"  # already indexed by item: one column
        elif value is not None:
            table = f"answers.set_index({plain(label)!r})[{plain(value)!r}]"
        else:
            table = f"answers[{plain(label)!r}]"
        raise TypeError(f"answers must be a dict or a pandas Series item -> 0/1, got "
                        f"{type(answers).__name__}; from a table, e.g. {table}; from an "
                        "array, pd.Series(values, index=items)")
    missing = series.isna()
    if missing.all():
        given = f"all {len(series)} missing" if len(series) else "it is empty"
        raise ValueError(f"answers holds no 0/1 answer ({given}): give the new model's answer "
                         "to at least one item")
    if missing.any():
        warn_user(f"{int(missing.sum())} of {len(series)} answers are missing (NaN) and left out, "
                  f"e.g. items {[plain(x) for x in series.index[missing.to_numpy()][:3]]}; "
                  "drop them first (answers.dropna()) to silence this")
        series = series[~missing]
    where = items.labels.get_indexer(series.index)
    if (where < 0).any():
        unknown = [plain(x) for x in series.index[where < 0][:5]]
        first = plain(items.labels[0])
        hint = ("; they match the fit's labels as text: give them the fit's type (e.g. "
                f"answers.index.astype({type(first).__name__}))"
                if matches_as_text(unknown, items.labels) else
                f"; the fit's labels are text (e.g. {first!r}) and these are numbers: give the "
                "answers the fit's labels (select_items returns them)" if isinstance(first, str)
                and all(isinstance(x, numbers.Number) for x in unknown)
                else spelling_hint(unknown, items.labels)) or (
            "; to score only the fit's items, answers[answers.index.isin("
            "idata.posterior['item'].values)]")
        n_unknown = int((where < 0).sum())
        raise ValueError(f"{n_unknown} answer{'s are' if n_unknown > 1 else ' is'} for items "
                         "not in the fit, e.g. "
                         f"{unknown}; the fit has {len(items.labels)} items (e.g. "
                         f"{[plain(x) for x in items.labels[:3]]}){hint}")
    values = as_binary(series)
    if values.isna().any():
        bad = series[values.isna()]
        raise ValueError(f"answers must be 0 or 1 (correct = 1); got e.g. "
                         f"{[plain(x) for x in bad.unique()[:5]]} for items "
                         f"{[plain(x) for x in bad.index[:3]]}")
    repeated = series.index[series.index.duplicated()]
    if len(repeated):
        raise ValueError(f"answers name {len(repeated.unique())} item(s) more than once, e.g. "
                         f"{[plain(x) for x in repeated.unique()[:5]]}; give one answer per "
                         "item")
    return where, values.to_numpy(dtype=float), pd.Series(values.to_numpy(dtype=float),
                                                          index=series.index, name="answer")


def _score(items, where, y, answered, rng, prob, kind, theta=None, naive=None):
    """The :class:`NewModelScore` of answers ``y`` to the items at ``where``; ``theta``: the
    ability draws, ``naive``: the accuracy estimate without the IRT, when the caller has
    them (else the mean of ``y``)."""
    if theta is None:
        theta = items.draw_abilities(where, y, rng)
    p = items.p_correct(theta[:, None])
    n_items = p.shape[1]
    rest = np.ones(n_items, dtype=bool)
    rest[where] = False
    predicted = (rng.random((len(theta), int(rest.sum()))) < p[:, rest]).sum(axis=1)
    accuracy = (y.sum() + predicted) / n_items
    # person fit: log-likelihood of the answers against replicated answers, draw by draw
    eta, c, d = items.logits(theta[:, None], (slice(None), where))
    loglik = lambda sign: answer_logp(sign, eta, c, d).sum(axis=1)  # noqa: E731
    replicated = np.where(rng.random(eta.shape) < p[:, where], 1.0, -1.0)
    fit_p = float((loglik(replicated) <= loglik(2 * y - 1)).mean()) if len(where) else 1.0
    dims = ("sample",)
    return NewModelScore(ability=xr.DataArray(theta, dims=dims, name="ability"),
                         accuracy=xr.DataArray(accuracy, dims=dims, name="accuracy"),
                         answered=answered, naive=float(y.mean() if naive is None else naive),
                         coverage=_coverage(items, where),
                         person_fit_p=fit_p, n_items=n_items, ci_prob=prob, ci_kind=kind)


@fill_doc
def score_new_model(idata, answers, *, max_draws=1000, random_seed=0, ci_prob=None,
                    ci_kind=None) -> NewModelScore:
    """The posterior of a new model's ability and full-benchmark accuracy from its answers
    to some of the items of a binary IRT fit (the method: ``irteval.irt.new_model``'s
    docstring).
    Warns when its answers misfit the model (person-fit p-value below 0.01), and when the
    answered items span a narrower range of difficulty than a random subset would (the rest
    is then the IRT's extrapolation, which the person fit cannot check). Vectorised over
    ``max_draws`` posterior draws; nothing to compile.

    Parameters
    ----------
    {idata_one_skill_draws}
    answers : dict or pandas.Series
        Item label -> 0/1 (``True``, ``"1"``, ``1.0`` count as 1) for at least one item of
        the fit, each item once; missing (NaN) answers are left out with a warning.
    {max_draws}
    {random_seed}
    {ci_prob_and_kind}

    Returns
    -------
    NewModelScore
        Draws of the ability and accuracy, the answers and the person-fit p-value;
        :meth:`NewModelScore.summary` tabulates them.
    """
    prob, kind = _intervals.resolve(ci_prob, ci_kind)
    items = Items.from_idata(idata, "score_new_model", max_draws, random_seed)
    needs_draws(idata, "score_new_model")  # after the family's check
    warn_if_point(idata, "score_new_model")
    where, y, answered = _answers(items, answers)
    score = _score(items, where, y, answered, seeded_rng(random_seed), prob, kind)
    _warn_if_unreliable(score)
    return score


def _coverage(items, where):
    """Share of the items whose posterior mean difficulty lies within the range of those at
    ``where`` (module docstring)."""
    difficulty = items.mean_difficulty
    lowest, highest = difficulty[where].min(), difficulty[where].max()
    return float(((difficulty >= lowest) & (difficulty <= highest)).mean())


def _narrow(n, coverage):
    """Whether ``n`` items spanning ``coverage`` of the difficulties span far less than ``n``
    random ones would (module docstring)."""
    return n > 1 and stats.beta.sf(1 - coverage, 2, n - 1) < WARN_P


def _warn_if_unreliable(score):
    """Warn of a narrow coverage (module docstring), then of a small person-fit p-value."""
    n = len(score.answered)
    if _narrow(n, score.coverage):
        warn_user(f"the {n} answered items span the difficulties of {score.coverage:.0%} of the "
                  f"benchmark's items, where {n} random ones would span about "
                  f"{1 - 2 / (n + 1):.0%}: the accuracy on the rest is the IRT's "
                  "extrapolation, and the person-fit check cannot see a model that fails there "
                  f"in its own way; ask items across the difficulty range ({ASK_ACROSS})")
    if score.person_fit_p < WARN_P:
        warn_user(f"the new model's answers misfit the fitted IRT (person-fit posterior "
                  f"predictive p = {score.person_fit_p:.3f}): it gets items right and wrong in a "
                  "pattern the difficulties do not explain, so its predicted accuracy leans on "
                  "a model that does not describe it; where the items were a random or "
                  f"stratified sample ({ASK_SAMPLE}), "
                  "trust its accuracy on them more (the naive column, "
                  + (f"{score.naive:.3f})" if np.isfinite(score.naive) else
                     "NaN until adaptive_test has asked every difficulty stratum: ask more)"))


@fill_doc
def select_items(idata, n=100, *, strategy="stratified", random_seed=0) -> pd.Index:
    """``n`` items to run a new model on.

    Parameters
    ----------
    {idata_one_skill}
    n : int, default 100
        Number of items, from 1 to the number of items of the fit.
    strategy : {"stratified", "information", "random"}
        - ``"stratified"`` (default): the items sorted by posterior mean difficulty, cut into
          ``n`` bins of equal count, one item drawn at random from each: the subset spans the
          whole difficulty range as the benchmark does, so a model that fails in its own way
          is still seen on easy, middle and hard items (robust to misfit of the IRT);
        - ``"information"``: the ``n`` items of largest expected Fisher information
          E[I_j(theta)] (:func:`~.item_draws.item_information`) over the posterior draws and
          the ability distribution of the fitted models (best for a model like them, weakest
          when the new model misfits);
        - ``"random"``: a uniform random subset.
    random_seed : int, numpy.random.Generator or None
        Seeds the choice of the (at most 200) posterior draws used and the random picks of
        ``"stratified"`` and ``"random"``; the same seed gives the same items.

    Returns
    -------
    pandas.Index
        The chosen item labels, in the fit's order.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy={strategy!r} is not one of {STRATEGIES}")
    random_seed = fixed_seed(random_seed)  # the fitted abilities from the items' draws
    items = Items.from_idata(idata, "select_items", max_draws=200, random_seed=random_seed)
    n_items = len(items.labels)
    if not 1 <= count(n, "n") <= n_items:
        raise ValueError(f"n must be between 1 and the {n_items} items of the fit, got {n}")
    rng = seeded_rng(random_seed)
    if strategy == "random":
        chosen = rng.choice(n_items, n, replace=False)
    elif strategy == "stratified":
        chosen = np.array([rng.choice(b) for b in _difficulty_strata(items, n)])
    else:
        theta = stacked_draws(idata, "theta", 200, random_seed)  # fitted models' abilities
        info = np.zeros(n_items)
        for t in theta.T:  # a fitted model at a time: its ability per draw
            info += items.information(t[:, None]).mean(axis=0)
        chosen = np.argsort(-info, kind="stable")[:n]
        coverage = _coverage(items, chosen)
        if _narrow(n, coverage):
            warn_user(f"the {n} most informative items span the difficulties of {coverage:.0%} "
                      f"of the {n_items}, where {n} random ones would span about "
                      f"{1 - 2 / (n + 1):.0%}: a new model's accuracy on the rest will be the "
                      "IRT's extrapolation, right only if it fails as the fitted models do; "
                      f"to ask items across the difficulty range: {ASK_ACROSS}")
    return items.labels[np.sort(chosen)]


def _difficulty_strata(items, n):
    """The item positions sorted by posterior mean difficulty, cut into ``n`` strata of
    (nearly) equal count."""
    return np.array_split(np.argsort(items.mean_difficulty, kind="stable"), n)


@fill_doc
def adaptive_test(idata, answer_fn, *, max_items=200, stop_width=0.02, strategy="stratified",
                  min_items=None, answered=None, max_draws=500, random_seed=0, ci_prob=None,
                  ci_kind=None, progressbar=True):
    """Computerized adaptive testing of a new model: ask ``answer_fn(item) -> 0/1`` one item at
    a time until the interval of its full-benchmark accuracy is narrower than ``stop_width``
    (after at least ``min_items``, default 5 or ``max_items`` if fewer) or ``max_items`` were
    asked. The next item:

    - ``"stratified"`` (default): the items cut into :data:`ADAPTIVE_STRATA` difficulty strata
      of equal count; the next item is drawn at random from the stratum furthest below its
      Neyman allocation n_k ∝ W_k sqrt(P_k (1 - P_k)), where W_k is the stratum's share of the
      items and P_k the accuracy the posterior so far predicts there (clipped to [0.02, 0.98],
      so no stratum is left out). Random within strata, as a stratified sample: robust to a
      new model the IRT misfits, while its questions gather where its answers are uncertain;
    - ``"information"``: the unasked item of largest posterior expected Fisher information
      E[I_j(theta) | answers so far] (over the item draws and the new model's ability): the
      fewest items for a model the IRT describes, but the questions then cluster at one
      difficulty and the interval trusts the IRT's extrapolation to the others.

    Warns, as :func:`score_new_model`, when the answers misfit or cover a narrow range of
    difficulty. An error in ``answer_fn`` (a rate limit, a KeyboardInterrupt) keeps the
    answers before it in the error's ``.answers``; ``answered=error.answers`` resumes there
    (after an uncaught error in a notebook, ``sys.last_value.answers``).

    Parameters
    ----------
    {idata_one_skill_draws}
    answer_fn : callable
        ``answer_fn(item) -> 0/1``: the new model run on that item (one answer in an array
        is taken). An answer that is not 0/1 stops the test with a ValueError; that and any
        error ``answer_fn`` raises carry the answers before it in ``.answers``.
    max_items : int, default 200
        Ask at most this many items (all of the fit's where it has fewer), ``answered``
        included.
    stop_width : float, default 0.02
        Stop once the accuracy's interval is narrower than this (after ``min_items``); 0 asks
        ``max_items``. A warning says when ``max_items`` came first.
    strategy : {"stratified", "information"}
        How to choose the next item (above); ``"stratified"`` by default.
    min_items : int, optional
        Ask at least this many items (0 allowed) before stopping on ``stop_width``,
        ``answered`` included; by default 5, or ``max_items`` if fewer. At most
        ``max_items``.
    answered : dict or pandas.Series, optional
        Answers already given (item -> 0/1, as :func:`score_new_model` takes them; e.g. an
        interrupted test's ``.answers``): the test goes on from them, its steps numbered on.
    {max_draws}
    {random_seed}
    {ci_prob_and_kind}
    {progressbar}

    Returns
    -------
    trajectory : pandas.DataFrame
        One row per item asked, index ``step`` (1, 2, ...; after ``answered``, on from its
        count): ``item``, ``answer``, accuracy ``mean``, ``{ci_kind}_lower``,
        ``{ci_kind}_upper``, ``width``. ``attrs`` holds ``ci_prob``, ``ci_kind``,
        ``stop_width`` and ``item_name`` (the fit's); :func:`~irteval.plot_adaptive` draws it.
    score : NewModelScore
        The posterior after the last answer.
    """
    if strategy not in ADAPTIVE_STRATEGIES:
        raise ValueError(f"strategy={strategy!r} is not one of {ADAPTIVE_STRATEGIES}")
    count(max_items, "adaptive_test(): max_items")
    if min_items is None:
        min_items = min(MIN_ITEMS, max_items)
    count(min_items, "adaptive_test(): min_items", minimum=0)
    if min_items > max_items:
        raise ValueError(f"min_items={min_items} is more than max_items={max_items}: the test "
                         "asks at most max_items; lower min_items or raise max_items")
    if not (isinstance(stop_width, numbers.Real) and not isinstance(stop_width, bool)
            and stop_width >= 0):
        raise ValueError(f"stop_width must be a number >= 0 (a width of the accuracy's "
                         f"interval, e.g. 0.02; 0 asks max_items), got {stop_width!r}")
    if not callable(answer_fn):
        raise TypeError(f"answer_fn must be a function item -> 0/1 (e.g. the new model run on "
                        f"that item), got a {type(answer_fn).__name__}; for answers you "
                        "already have use score_new_model")
    prob, kind = _intervals.resolve(ci_prob, ci_kind)
    items = Items.from_idata(idata, "adaptive_test", max_draws, random_seed)
    needs_draws(idata, "adaptive_test")  # after the family's check
    rng = seeded_rng(random_seed)
    n_items = len(items.labels)
    strata = _difficulty_strata(items, min(ADAPTIVE_STRATA, n_items))
    stratum = np.empty(n_items, dtype=int)
    for k, members in enumerate(strata):
        stratum[members] = k
    size = np.bincount(stratum)
    asked, y, rows = [], [], []
    unasked = np.ones(n_items, dtype=bool)
    score = None
    # one grid fine enough for the last step; the log-likelihood grows by one answer a step
    grid = z_grid(max(1, min(max_items, n_items)))
    loglik = np.zeros((len(items.sigma), len(grid)))
    if answered is not None and len(answered):  # none: an error on the first item
        where, given, _ = _answers(items, answered)
        if len(where) >= min(max_items, n_items):
            raise ValueError(
                f"answered holds {len(where)} answers, and the test asks at most "
                + (f"max_items={max_items}: raise max_items" if max_items < n_items else
                   f"the fit's {n_items} items: none is left")
                + ", or score them with score_new_model")
        asked, y = list(where), list(given)
        unasked[where] = False
        loglik += items.log_likelihood(where, given, grid)
    theta = items.draw_abilities(asked, y, rng, grid, loglik)
    first = len(asked)
    steps = range(first, min(max_items, n_items))
    columns = (*Progress.get_default_columns(), TextColumn("{task.fields[width]}"))
    with Progress(*columns, disable=not progressbar) as bar:  # the width beside the count
        task = bar.add_task("adaptive test", total=len(steps), width="")
        for step in steps:
            if strategy == "information":
                info = items.information(theta[:, None]).mean(axis=0)
                nxt = int(np.flatnonzero(unasked)[np.argmax(info[unasked])])
            else:
                p = items.p_correct(theta[:, None]).mean(axis=0)
                level = np.clip(np.bincount(stratum, weights=p) / size, 0.02, 0.98)
                target = size * np.sqrt(level * (1 - level))
                deficit = (step + 1) * target / target.sum() - np.bincount(
                    stratum[asked], minlength=len(strata))
                deficit[np.bincount(stratum, weights=unasked) == 0] = -np.inf
                k = int(np.argmax(deficit))
                nxt = int(rng.choice(strata[k][unasked[strata[k]]]))
            try:
                answer = answer_fn(items.labels[nxt])
                value = np.asarray(answer, dtype=object).ravel()  # one in an array: predict(x) == y
                value = as_binary(pd.Series(value)).iloc[0] if value.size == 1 else np.nan
                if np.isnan(value):
                    raise ValueError(f"answer_fn must return 0 or 1, got {answer!r} for item "
                                     f"{plain(items.labels[nxt])!r}" + _kept(len(asked)))
            except BaseException as error:  # a rate limit, Ctrl-C: what was asked is kept
                _keep_answers(error, pd.Series(y, index=items.labels[asked], name="answer"))
                raise
            answer = float(value)
            asked.append(nxt)
            y.append(float(answer))
            unasked[nxt] = False
            loglik += items.log_likelihood([nxt], [y[-1]], grid)
            theta = items.draw_abilities(asked, y, rng, grid, loglik)
            answers = pd.Series(y, index=items.labels[asked], name="answer")
            naive = _stratified_mean(stratum[asked], y, size) if strategy == "stratified" else None
            score = _score(items, np.array(asked), np.array(y), answers, rng, prob, kind, theta,
                           naive)
            lower, upper = _intervals.interval(score.accuracy.values[:, None], prob, kind)
            rows.append({"item": items.labels[nxt], "answer": int(answer),
                         "mean": float(score.accuracy.mean()), f"{kind}_lower": lower[0],
                         f"{kind}_upper": upper[0],
                         # (accuracies are k / J: 12/400 - 0/400 came out 0.0299999..., which
                         # stopped under stop_width=0.03)
                         "width": round(upper[0] - lower[0], 12)})
            bar.update(task, advance=1, width=f"interval {rows[-1]['width']:.4f} wide, "
                                                  f"stop under {stop_width:g}")
            if step + 1 >= min_items and rows[-1]["width"] < stop_width:
                break
    trajectory = pd.DataFrame(rows, index=pd.RangeIndex(first + 1, first + len(rows) + 1,
                                                        name="step"))
    if stop_width > 0 and rows[-1]["width"] >= stop_width:
        limit, fix = ((f"max_items={max_items}", "raise max_items") if len(asked) == max_items
                      else (f"every one of the fit's {n_items} items", "the fit has no more"))
        warn_user(f"adaptive_test stopped after {limit} with the interval of the accuracy "
                  f"{rows[-1]['width']:.3g} wide, not under stop_width={stop_width}; {fix}, "
                  "or read the wider interval")
    _warn_if_unreliable(score)
    trajectory.attrs.update(stop_width=stop_width, item_name=items.labels.name)
    return _intervals.record(trajectory, prob, kind), score


def _stratified_mean(strata, y, size):
    """The answers ``y`` (in ``strata``) averaged within each stratum, weighted by the
    strata's ``size``: a stratified sample's estimate, where the adaptive rule asks the strata
    unequally; NaN while a stratum has no answer (nothing to weigh for it)."""
    asked = np.bincount(strata, minlength=len(size))
    if not asked.all():
        return np.nan
    return float((np.bincount(strata, weights=y, minlength=len(size)) / asked * size).sum()
                 / size.sum())


def _keep_answers(error, answers):
    """Attach the answers given before ``error`` to it as ``.answers``, and say so."""
    try:
        error.answers = answers
    except Exception:  # an exception that takes no attributes: raised as it is
        return
    if len(answers) and hasattr(error, "add_note") and ".answers" not in str(error):
        error.add_note(_kept(len(answers))[2:])  # Python 3.11 on


def _kept(n):
    """'; the n answers before it are in ...' ('' when none were)."""
    return (f"; the {n} answers before it are in this error's .answers: "
            "adaptive_test(..., answered=error.answers) goes on from them, "
            "score_new_model(idata, error.answers) scores them" if n else "")
