"""irteval: Bayesian evaluation of ML models and algorithms with IRT and Bradley-Terry models."""

from . import datasets, models, robustness
from .data import Responses
from .difficulty import characteristic_curves, difficulty, difficulty_bins, difficulty_moments
from .goodness import (effectiveness, goodness_curves, loo_by_algorithm, model_goodness,
                       posterior_predictive_z)
from .epp import SeparationWarning, mle_epp, wald_test
from .inference import ConvergenceWarning, diagnostics, fit
from .leaderboard import goodness_of_fit, leaderboard, pairwise_probabilities, win_probability
from .plots import (plot_characteristic_curves, plot_dendrogram, plot_difficulty_distribution,
                    plot_epp_vs_score, plot_item_characteristic, plot_leaderboard,
                    plot_rank_distribution, plot_scc, plot_win_calibration, plot_win_heatmap)
from .portfolio_plots import (plot_auaec_aupec, plot_crm_heatmap, plot_effectiveness,
                              plot_goodness, plot_latent_trait, plot_strengths)
from .portfolio import LatentTrait, algorithm_metrics, latent_trait, portfolio
from .results import Results, load_results
from .scores import Scores

__version__ = "0.1.0"

__all__ = [
    "LatentTrait", "algorithm_metrics", "effectiveness", "goodness_curves", "latent_trait",
    "loo_by_algorithm", "model_goodness", "plot_auaec_aupec", "plot_crm_heatmap",
    "plot_effectiveness", "plot_goodness", "plot_latent_trait", "plot_strengths", "portfolio",
    "posterior_predictive_z", "Results", "load_results",
    "ConvergenceWarning", "Responses", "Scores", "SeparationWarning", "characteristic_curves",
    "datasets", "diagnostics", "difficulty", "difficulty_bins",
    "difficulty_moments", "fit", "goodness_of_fit",
    "leaderboard", "mle_epp", "models", "pairwise_probabilities", "plot_characteristic_curves",
    "plot_dendrogram", "plot_difficulty_distribution", "plot_epp_vs_score",
    "plot_item_characteristic", "plot_leaderboard", "plot_rank_distribution", "plot_scc",
    "plot_win_calibration", "plot_win_heatmap",
    "robustness", "wald_test", "win_probability",
]
