"""Robustness by instance difficulty (paper 1): model zoo, cross-validated responses, noise,
System Characteristic Curves, taxonomy."""

from .perturb import perturb
from .responses import cross_val_responses
from .scc import (noisy_predictions, p_hardest_most_sensitive, scc, scc_from_predictions,
                  scc_summary)
from .taxonomy import taxonomy
from .zoo import FAMILIES, families, family_of, zoo

__all__ = ["FAMILIES", "cross_val_responses", "families", "family_of", "noisy_predictions",
           "p_hardest_most_sensitive", "perturb", "scc", "scc_from_predictions",
           "scc_summary", "taxonomy", "zoo"]
