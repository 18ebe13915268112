"""Robustness by instance difficulty (paper 1): model zoo, cross-validated responses, noise."""

from .perturb import perturb
from .responses import cross_val_responses
from .zoo import FAMILIES, family_of, zoo

__all__ = ["FAMILIES", "cross_val_responses", "family_of", "perturb", "zoo"]
