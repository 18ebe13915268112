"""Robustness by instance difficulty (paper 1): model zoo, cross-validated responses, noise,
System Characteristic Curves, taxonomy, and their plots."""

from .perturb import perturb
from .plots import plot_dendrogram, plot_scc
from .scc import p_hardest_most_sensitive, scc, scc_from_predictions, scc_summary
from .training import NoisyPredictions, cross_val_responses, noisy_predictions
from .taxonomy import Taxonomy, taxonomy
from .zoo import FAMILIES, families, family_of, zoo

__all__ = ["FAMILIES", "NoisyPredictions", "Taxonomy", "cross_val_responses", "families",
           "family_of", "noisy_predictions", "p_hardest_most_sensitive", "perturb",
           "plot_dendrogram", "plot_scc", "scc", "scc_from_predictions", "scc_summary",
           "taxonomy", "zoo"]
