"""PyMC model builders; each takes a data object and returns a ``pymc.Model`` with named dims."""

from .onepl import onepl

__all__ = ["onepl"]
