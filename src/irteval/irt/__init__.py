"""Instance difficulty (papers 1 and the IRT basics): summaries of a 1PL/2PL fit and their
plots."""

from .difficulty import (abilities, characteristic_curves, difficulty, difficulty_bins,
                         difficulty_moments)
from .plots import (plot_characteristic_curves, plot_difficulty_distribution,
                    plot_item_characteristic)

__all__ = ["abilities", "characteristic_curves", "difficulty", "difficulty_bins",
           "difficulty_moments", "plot_characteristic_curves", "plot_difficulty_distribution",
           "plot_item_characteristic"]
