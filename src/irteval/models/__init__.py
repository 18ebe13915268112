"""PyMC model builders; each takes a data object and returns a ``pymc.Model`` with named dims."""

from .bradley_terry import bradley_terry
from .onepl import onepl

__all__ = ["bradley_terry", "onepl"]
