"""Data objects: binary and continuous :class:`Responses` (respondents answering items) and
:class:`Scores` (players scored in rounds), with the scaling of continuous performance."""

from .responses import Responses
from .scores import Scores

__all__ = ["Responses", "Scores"]
