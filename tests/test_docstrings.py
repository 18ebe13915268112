"""Every public function, method and result class documents each of its parameters (or
fields) in a numpydoc ``Parameters`` (``Attributes``) section, and nothing it does not take:
what ``help()`` and Jupyter's ``?`` show."""

import importlib
import inspect
import re

import pymc as pm
import pytest

from irteval import _docs

MODULES = ["irteval", "irteval.models", "irteval.robustness", "irteval.datasets",
           "irteval.airt", "irteval.epp", "irteval.irt", "irteval.data", "irteval.inference"]


def public_objects():
    """(qualified name, object) of each public callable once: functions and classes of the
    modules' ``__all__`` and the public methods of those classes (not of the models, whose
    methods are :func:`irteval.fit`'s protocol, nor of warnings)."""
    seen = {}
    for module in MODULES:
        mod = importlib.import_module(module)
        for name in mod.__all__:
            obj = getattr(mod, name)
            if not callable(obj) or id(obj) in seen:
                continue
            if isinstance(obj, type) and issubclass(obj, (Warning, pm.Model)):
                continue
            seen[id(obj)] = (f"{module}.{name}", obj)
            if isinstance(obj, type):
                for attr, value in vars(obj).items():
                    func = getattr(value, "__func__", value)
                    if not attr.startswith("_") and inspect.isfunction(func):
                        seen[id(func)] = (f"{module}.{name}.{attr}", func)
    return sorted(seen.values(), key=lambda pair: pair[0])


def documented(doc):
    """Names in the ``Parameters``/``Attributes`` sections of a numpydoc docstring: the
    ``name : type`` lines at the section's indentation (``a, b : int`` names both)."""
    names = set()
    for section in re.finditer(r"^(?:Parameters|Attributes)\n-+\n(.*?)(?=^\S[^\n]*\n-+\n|\Z)",
                               inspect.cleandoc(doc or ""), re.MULTILINE | re.DOTALL):
        for line in section[1].splitlines():
            if line and not line[0].isspace():
                names.update(n.strip().lstrip("*") for n in line.split(" : ")[0].split(","))
    return names


def parameters(obj):
    """What the user passes: the signature's names (``**kwargs`` as ``kwargs``), for a class
    its ``__init__``'s (a dataclass: its fields), without self/cls."""
    signature = inspect.signature(obj)
    return {name for name in signature.parameters if name not in ("self", "cls")}


OBJECTS = public_objects()


@pytest.mark.parametrize("name, obj", OBJECTS, ids=[name for name, _ in OBJECTS])
def test_every_parameter_is_documented(name, obj):
    doc = inspect.getdoc(obj) or ""
    assert not re.search(r"^\s*\{\w+\}\s*$", doc, re.MULTILINE), \
        f"{name}: a placeholder line is left: decorate it with irteval._docs.fill_doc"
    have, want = documented(doc), parameters(obj)
    assert not want - have, f"{name} does not document {sorted(want - have)}"
    assert not have - want, f"{name} documents {sorted(have - want)}, which it does not take"
    if name.rsplit(".", 1)[-1].startswith("plot_"):
        assert re.search(r"^Returns\n-+\nmatplotlib.axes.Axes", doc, re.MULTILINE), \
            f"{name} does not say it returns the Axes"


def test_placeholders_are_filled_at_the_right_indentation():
    def f(ci_prob=None):
        """Summary.

        Parameters
        ----------
        {ci_prob}
        """
    doc = _docs.fill_doc(f).__doc__
    assert "        ci_prob : float, optional\n            Mass of the intervals" in doc
    assert documented(f.__doc__) == {"ci_prob"}

    def g():
        """{no_such_entry}"""
    with pytest.raises(KeyError, match="no_such_entry"):
        _docs.fill_doc(g)


def test_module_entries_are_filled_and_never_override_shared_ones():
    @_docs.fill_doc(own="own : int\n    A module's entry.")
    def f(own, ci_prob=None):
        """Summary.

        Parameters
        ----------
        {own}
        {ci_prob}
        """
    assert "        own : int\n            A module's entry.\n        ci_prob : float" in f.__doc__
    assert documented(f.__doc__) == {"own", "ci_prob"}

    def g():
        """{own}"""
    with pytest.raises(KeyError, match="own"):  # a module's entry is its own, not shared
        _docs.fill_doc(g)
    with pytest.raises(ValueError, match=r"\['ci_prob'\].*SHARED"):
        _docs.fill_doc(ci_prob="ci_prob : float\n    Another text.")
