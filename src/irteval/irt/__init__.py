"""Instance difficulty (papers 1 and the IRT basics): summaries of a 1PL/2PL fit and their
plots, item and person fit (:mod:`.fit_statistics`), information, and scoring a new model from
a few instances (:mod:`.new_model`)."""

from .difficulty import (abilities, characteristic_curves, difficulty, difficulty_bins,
                         difficulty_moments)
from .fit_statistics import item_fit, local_dependence, person_fit
from .information import information
from .new_model import NewModelScore, adaptive_test, score_new_model, select_items
from .plots import (plot_adaptive, plot_characteristic_curves, plot_difficulty_distribution,
                    plot_fit, plot_information, plot_item_characteristic)

__all__ = ["NewModelScore", "abilities", "adaptive_test", "characteristic_curves",
           "difficulty", "difficulty_bins", "difficulty_moments", "information", "item_fit",
           "local_dependence", "person_fit", "plot_adaptive", "plot_characteristic_curves",
           "plot_difficulty_distribution", "plot_fit", "plot_information",
           "plot_item_characteristic", "score_new_model", "select_items"]
