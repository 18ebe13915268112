"""Fitting: :func:`fit` dispatches to NUTS (:mod:`.nuts`), ADVI, MAP or Laplace
(:mod:`.approximations`) and checks the draws (:mod:`.diagnostics`)."""

from .diagnostics import diagnostics
from .fit import METHODS, SAMPLERS, fit

__all__ = ["METHODS", "SAMPLERS", "diagnostics", "fit"]
