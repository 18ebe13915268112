"""Docstring entries that many public functions share, each written once.

A line of a docstring that holds nothing but ``{name}`` stands for ``SHARED[name]``,
indented as that line is; :func:`fill_doc` puts the text in::

    @fill_doc
    def difficulty(idata, *, ci_prob=None, ci_kind=None):
        '''...

        Parameters
        ----------
        idata : arviz.InferenceData
            A 1PL/2PL fit from :func:`irteval.fit`.
        {ci_prob}
        {ci_kind}
        '''

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
    "ax": """\
ax : matplotlib.axes.Axes, optional
    Where to draw; a new figure when ``None``.""",
    "returns_ax": """\
Returns
-------
matplotlib.axes.Axes
    The Axes drawn on.""",
}

_PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)\{(?P<name>\w+)\}[ \t]*$", re.MULTILINE)


def fill_doc(obj):
    """Replace each placeholder line ``{name}`` of ``obj.__doc__`` by ``SHARED[name]`` at the
    line's indentation; an unknown name raises at import (a typo would otherwise show)."""
    doc = obj.__doc__
    if doc is None:
        return obj

    def entry(match):
        name, indent = match["name"], match["indent"]
        if name not in SHARED:
            raise KeyError(f"{obj.__qualname__}'s docstring names {{{name}}}, which is not in "
                           f"irteval._docs.SHARED ({sorted(SHARED)})")
        return "\n".join(indent + line if line else line for line in SHARED[name].split("\n"))

    obj.__doc__ = _PLACEHOLDER.sub(entry, doc)
    return obj

