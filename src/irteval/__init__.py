"""irteval: Bayesian evaluation of ML models and algorithms with IRT and Bradley-Terry models."""

from . import datasets, models, robustness
from .data import Responses
from .difficulty import characteristic_curves, difficulty, difficulty_bins
from .epp import SeparationWarning, mle_epp, wald_test
from .inference import ConvergenceWarning, diagnostics, fit
from .leaderboard import leaderboard, pairwise_probabilities, win_probability
from .plots import plot_characteristic_curves, plot_difficulty_distribution, plot_item_characteristic
from .scores import Scores

__version__ = "0.1.0"

__all__ = [
    "ConvergenceWarning", "Responses", "Scores", "SeparationWarning", "characteristic_curves",
    "datasets", "diagnostics", "difficulty", "difficulty_bins", "fit", "leaderboard",
    "mle_epp", "models", "pairwise_probabilities", "plot_characteristic_curves",
    "plot_difficulty_distribution", "plot_item_characteristic", "robustness", "wald_test",
    "win_probability",
]
