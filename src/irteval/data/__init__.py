"""Data objects: binary, continuous and ordinal :class:`Responses` (respondents answering
items), :class:`Scores` (players scored in rounds) and :class:`Battles` (pairwise battles),
with the scaling of continuous performance."""

from .battles import Battles
from .responses import Responses
from .scores import Scores

__all__ = ["Battles", "Responses", "Scores"]
