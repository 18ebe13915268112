"""Fitting: :func:`fit` dispatches to NUTS (:mod:`.nuts`), ADVI, MAP or Laplace
(:mod:`.approximations`) and checks the draws (:mod:`.diagnostics`)."""

from .diagnostics import diagnostics
from .fit import METHODS, SAMPLERS, add_log_likelihood, add_posterior_predictive, fit

__all__ = ["METHODS", "SAMPLERS", "add_log_likelihood", "add_posterior_predictive", "diagnostics",
           "fit"]
