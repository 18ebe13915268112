"""EPP leaderboards (paper 2): the Bayesian leaderboard from a Bradley–Terry / Plackett–Luce
fit (:mod:`.bayes`), the classical maximum-likelihood EPP (:mod:`.mle`), and their plots."""

from .bayes import (PairwiseProbabilities, goodness_of_fit, leaderboard, pairwise_probabilities,
                    win_probability)
from .mle import WaldTest, bootstrap_epp, components, mle_epp, wald_test
from .plots import (plot_epp_vs_score, plot_leaderboard, plot_rank_distribution,
                    plot_win_calibration, plot_win_heatmap)

__all__ = ["PairwiseProbabilities", "WaldTest", "bootstrap_epp", "components",
           "goodness_of_fit", "leaderboard", "mle_epp", "pairwise_probabilities",
           "plot_epp_vs_score", "plot_leaderboard", "plot_rank_distribution",
           "plot_win_calibration", "plot_win_heatmap", "wald_test", "win_probability"]
