"""Robustness by instance difficulty (paper 1): model zoo and cross-validated responses."""

from .responses import cross_val_responses
from .zoo import FAMILIES, family_of, zoo

__all__ = ["FAMILIES", "cross_val_responses", "family_of", "zoo"]
