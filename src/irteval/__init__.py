"""irteval: Bayesian evaluation of ML models and algorithms with IRT and Bradley-Terry models."""

from . import datasets, models, robustness
from .data import Responses
from .difficulty import characteristic_curves, difficulty, difficulty_bins
from .inference import ConvergenceWarning, diagnostics, fit
from .plots import plot_characteristic_curves, plot_difficulty_distribution, plot_item_characteristic

__version__ = "0.1.0"

__all__ = [
    "ConvergenceWarning", "Responses", "characteristic_curves", "datasets", "diagnostics",
    "difficulty", "difficulty_bins", "fit", "models", "plot_characteristic_curves",
    "plot_difficulty_distribution", "plot_item_characteristic", "robustness",
]
