"""irteval: Bayesian evaluation of ML models and algorithms with IRT and Bradley-Terry models.

One subpackage per workflow: :mod:`irteval.irt` (instance difficulty), :mod:`irteval.epp`
(leaderboards), :mod:`irteval.airt` (algorithm portfolios), :mod:`irteval.robustness`
(robustness by difficulty); models in :mod:`irteval.models`, fitting in
:mod:`irteval.inference`, data in :mod:`irteval.data`. The stable public names are here.
"""

import warnings as _warnings

# two notices at every start that a user of irteval can do nothing about: pip's PyTensor has no
# BLAS (irteval's models do not need one) and ArviZ 0.x announces its 1.0 refactor
_warnings.filterwarnings("ignore", "PyTensor could not link to a BLAS", UserWarning)
_warnings.filterwarnings("ignore", "\nArviZ is undergoing a major refactor", FutureWarning)

from . import datasets, models, robustness
from .airt import (LatentTrait, airt_curves, algorithm_metrics, effectiveness, latent_trait,
                   loo_by_algorithm, model_goodness, plot_auaec_aupec, plot_category_curves,
                   plot_crm_heatmap, plot_effectiveness, plot_goodness, plot_latent_trait,
                   plot_strengths, portfolio)
from .compare import compare_models
from .data import Battles, Responses, Scores
from .epp import (PairwiseProbabilities, WaldTest, bootstrap_epp, goodness_of_fit, leaderboard,
                  mle_epp, pairwise_probabilities, plot_epp_vs_score, plot_leaderboard,
                  plot_rank_distribution, plot_win_calibration, plot_win_heatmap, wald_test,
                  win_probability)
from .exceptions import (ConvergenceWarning, IdentificationWarning, ModelSpecWarning,
                         SeparationWarning)
from .inference import add_log_likelihood, add_posterior_predictive, diagnostics, fit
from .irt import (NewModelScore, abilities, adaptive_test, characteristic_curves, difficulty,
                  difficulty_bins, difficulty_moments, information, item_fit, local_dependence,
                  person_fit, plot_adaptive, plot_characteristic_curves,
                  plot_difficulty_distribution, plot_fit, plot_information,
                  plot_item_characteristic, score_new_model, select_items)
from .results import Results, load_results
from .robustness import plot_dendrogram, plot_scc

__version__ = "0.1.0"

__all__ = [
    # data and models
    "Battles", "Responses", "Scores", "datasets", "models", "fit", "add_log_likelihood",
    "add_posterior_predictive", "diagnostics", "compare_models",
    # instance difficulty
    "abilities", "characteristic_curves", "difficulty", "difficulty_bins", "difficulty_moments",
    "plot_characteristic_curves", "plot_difficulty_distribution", "plot_item_characteristic",
    # model checks
    "information", "item_fit", "local_dependence", "person_fit", "plot_fit", "plot_information",
    # scoring a new model from a few instances
    "NewModelScore", "adaptive_test", "plot_adaptive", "score_new_model", "select_items",
    # leaderboards
    "PairwiseProbabilities", "WaldTest", "bootstrap_epp", "goodness_of_fit", "leaderboard",
    "mle_epp", "pairwise_probabilities", "plot_epp_vs_score", "plot_leaderboard",
    "plot_rank_distribution", "plot_win_calibration", "plot_win_heatmap", "wald_test",
    "win_probability",
    # portfolios
    "LatentTrait", "airt_curves", "algorithm_metrics", "effectiveness", "latent_trait",
    "loo_by_algorithm", "model_goodness", "plot_auaec_aupec", "plot_category_curves",
    "plot_crm_heatmap", "plot_effectiveness", "plot_goodness", "plot_latent_trait",
    "plot_strengths", "portfolio",
    # robustness
    "robustness", "plot_dendrogram", "plot_scc",
    # results and warnings
    "Results", "load_results", "ConvergenceWarning", "IdentificationWarning",
    "ModelSpecWarning", "SeparationWarning",
]
