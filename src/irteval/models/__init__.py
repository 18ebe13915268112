"""PyMC model builders. Each takes a data object and returns a subclass of ``pymc.Model``
(:class:`~irteval.models.base.BaseModel`) with named dims, which also tells
:func:`irteval.fit` how to run it."""

from .base import BaseModel
from .bradley_terry import BradleyTerry, bradley_terry
from .continuous_irt import ContinuousIRT, continuous_irt
from .onepl import OnePL, onepl
from .polytomous_irt import PolytomousIRT, polytomous_irt

__all__ = ["BaseModel", "BradleyTerry", "ContinuousIRT", "OnePL", "PolytomousIRT",
           "bradley_terry", "continuous_irt", "onepl", "polytomous_irt"]
