"""Docstring entries that many public functions share, each written once.

A line of a docstring that holds nothing but ``{name}`` stands for ``SHARED[name]``,
indented as that line is; :func:`fill_doc` puts the text in::

    @fill_doc
    def difficulty(idata, *, ci_prob=None, ci_kind=None):
        '''...

        Parameters
        ----------
        {idata_binary}
        {ci_prob_and_kind}
        '''

Entries that only one module's functions share stay in that module, in a dict passed as
``@fill_doc(**ENTRIES)``: they are added to ``SHARED`` for those docstrings (a name that is
in both is refused, not overridden). An entry may hold several parameters
(``ci_prob_and_kind``) or a whole section with its header (``returns_ax``,
:func:`parameters_section`); :func:`panel_labels` and :func:`matrix_df` write one text for
parameters that differ only in their nouns.

Other braces (``{ci_kind}_lower`` in a sentence) are left alone.
"""

from __future__ import annotations

import re

SHARED = {
    "ci_prob": """\
ci_prob : float, optional
    Mass of the intervals, in (0, 1); by default ArviZ's ``rcParams["stats.ci_prob"]``
    (0.94).""",
    "ci_kind": """\
ci_kind : {"hdi", "eti"}, optional
    ``"hdi"``: highest-density intervals (the default, as ArviZ's); ``"eti"``:
    equal-tailed ones, between the (1 - ci_prob)/2 and (1 + ci_prob)/2 quantiles.""",
    "hdi_prob": """\
hdi_prob : float, optional
    The old name of ``ci_prob``: still taken, with a ``FutureWarning``.""",
    "max_draws": """\
max_draws : int or None
    Use at most this many posterior draws (chains pooled), chosen at random with
    ``random_seed``; ``None``: every draw. Fewer draws are faster and cruder.""",
    "random_seed": """\
random_seed : int, numpy.random.Generator or None
    Seeds every random choice (the draws kept, replicated data); the same seed gives the
    same result.""",
    "plot_max_draws": """\
max_draws : int or None, default 200
    With a fit: the ``max_draws`` of the table computed from it, the posterior draws used
    (chosen at random with ``random_seed``; None: all); ignored for a table.""",
    "plot_random_seed": """\
random_seed : int, numpy.random.Generator or None, default 0
    With a fit: the seed of the table computed from it; ignored for a table.""",
    "random_seed_draws": """\
random_seed : int, numpy.random.Generator or None
    Seeds the random choice of the draws kept; the same seed gives the same result.""",
    "random_state": """\
random_state : int, optional
    The old name of ``random_seed``: still taken, with a ``FutureWarning``.""",
    "progressbar": """\
progressbar : bool, default True
    Show a progress bar; ``False`` hides it.""",
    # the fits a function takes: one entry per set of fits it refuses (check_idata, the
    # one-skill check of Items.from_idata, needs_draws)
    "idata_binary": """\
idata : arviz.InferenceData
    A fit of a binary IRT model, the 1PL ... 4PL or the multidimensional 2PL
    (:func:`irteval.fit` of :func:`irteval.models.onepl`); a fit of another family is
    refused.""",
    "idata_binary_draws": """\
idata : arviz.InferenceData
    A fit of a binary IRT model with posterior draws, the 1PL ... 4PL or the
    multidimensional 2PL (:func:`irteval.fit` of :func:`irteval.models.onepl`); a fit of
    another family, or a MAP fit (one point), is refused.""",
    "idata_one_skill": """\
idata : arviz.InferenceData
    A fit of a one-skill binary IRT model, the 1PL ... 4PL (:func:`irteval.fit` of
    :func:`irteval.models.onepl`); a fit of another family, or a multidimensional 2PL, is
    refused.""",
    "idata_one_skill_draws": """\
idata : arviz.InferenceData
    A fit of a one-skill binary IRT model with posterior draws, the 1PL ... 4PL
    (:func:`irteval.fit` of :func:`irteval.models.onepl`); a fit of another family, a
    multidimensional 2PL or a MAP fit (one point) is refused.""",
    "idata_airt": """\
idata : arviz.InferenceData
    A fit of the continuous or the polytomous IRT (:func:`irteval.fit` of
    :func:`irteval.models.continuous_irt` or :func:`irteval.models.polytomous_irt`); a fit
    of another family is refused.""",
    "idata_epp": """\
idata : arviz.InferenceData
    A fit of the Bayesian EPP model (:func:`irteval.fit` of
    :func:`irteval.models.bradley_terry`); a fit of another family is refused.""",
    "ax": """\
ax : matplotlib.axes.Axes, optional
    Where to draw; a new figure when ``None``. In a figure of your own, long labels fit
    with ``plt.subplots(..., layout="constrained")``.""",
    # plots that take a table or the fit (_fits.table_or_fit, _intervals.check_matches)
    "plot_ci_prob": """\
ci_prob : float, optional
    Mass of the intervals computed from a fit, by default ArviZ's
    ``rcParams["stats.ci_prob"]`` (0.94). A table's own intervals are drawn: a value
    contradicting its ``attrs`` is refused (recompute the table); for a table without
    them (read from CSV) it names the intervals drawn.""",
    "plot_ci_kind": """\
ci_kind : {"hdi", "eti"}, optional
    ``"hdi"``: highest-density intervals (the default, as ArviZ's); ``"eti"``:
    equal-tailed ones. With a table, as ``ci_prob`` (a classical EPP table's own kind is
    ``"wald"`` or ``"bootstrap"``).""",
    "returns_ax": """\
Returns
-------
matplotlib.axes.Axes
    The Axes drawn on.""",
    "returns_panels": """\
Returns
-------
matplotlib.axes.Axes or numpy.ndarray of them
    The Axes given; without them, the new grid's 2-d array of Axes.""",
}

# ci_prob and ci_kind go together: one line for both
SHARED["ci_prob_and_kind"] = SHARED["ci_prob"] + "\n" + SHARED["ci_kind"]


def parameters_section(*entries):
    """A whole ``Parameters`` section of these entries, for functions that take the same
    parameters (one placeholder line where several would repeat)."""
    return "\n".join(["Parameters", "----------", *entries])


def panel_labels(name, label):
    """The entry of a multi-panel plot's parameter ``name`` that picks its panels, one per
    ``label`` (``"algorithm"``, ``"model"``)."""
    return (f"{name} : list, optional\n"
            f"    Labels of the {label}s to draw, one panel each (one label alone is taken too);\n"
            f"    ``None``: every {label}. Unknown or repeated labels are refused.")


def matrix_df(what, row, column):
    """The ``df`` entry of a ``from_wide`` constructor: a matrix of ``what``, a row per ``row``
    (or ``column``)."""
    return (f"df : pandas.DataFrame\n"
            f"    The {what} matrix, a row per {row} (or {column}) and a column per {column} (or\n"
            f"    {row}); optionally a column of row labels.")


_PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)\{(?P<name>\w+)\}[ \t]*$", re.MULTILINE)


def fill_doc(obj=None, /, **entries):
    """Replace each placeholder line ``{name}`` of ``obj.__doc__`` by ``SHARED[name]`` (or
    ``entries[name]``) at the line's indentation; an unknown name raises at import (a typo
    would otherwise show). ``@fill_doc`` or ``@fill_doc(**ENTRIES)``: a module's own
    ``entries`` may not reuse a name of ``SHARED``."""
    clash = sorted(SHARED.keys() & entries.keys())
    if clash:
        raise ValueError(f"fill_doc: the module's entries {clash} are in irteval._docs.SHARED "
                         "already; rename them (a module's entry never overrides a shared one)")
    known = {**SHARED, **entries}

    def fill(obj):
        doc = obj.__doc__
        if doc is None:
            return obj

        def entry(match):
            name, indent = match["name"], match["indent"]
            if name not in known:
                raise KeyError(f"{obj.__qualname__}'s docstring names {{{name}}}, which is not "
                               f"in irteval._docs.SHARED or the module's entries "
                               f"({sorted(known)})")
            return "\n".join(indent + line if line else line for line in known[name].split("\n"))

        obj.__doc__ = _PLACEHOLDER.sub(entry, doc)
        return obj

    return fill if obj is None else fill(obj)
