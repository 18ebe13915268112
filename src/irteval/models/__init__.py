"""PyMC model builders; each takes a data object and returns a ``pymc.Model`` with named dims."""

from .bradley_terry import bradley_terry
from .continuous import continuous_irt
from .onepl import onepl

__all__ = ["bradley_terry", "continuous_irt", "onepl"]
