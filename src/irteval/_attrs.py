"""A labelled matrix kept in ``DataFrame.attrs``.

pandas deep-copies ``attrs`` on every operation of a table (``table["epp"]``, ``sort_values``)
and compares them with ``==`` in ``pd.concat``: a nested dict of a 1000 x 1000 matrix made
every operation on a 1000-player leaderboard take half a second, and arrays make ``==``
ambiguous. :class:`FrameInAttrs` is read-only, so its copy is itself, and it compares by value.
"""

from __future__ import annotations

import pandas as pd


class FrameInAttrs(dict):
    """``{column label: Series}`` of a DataFrame; ``pd.DataFrame(it)`` rebuilds the frame.
    Read-only: do not modify it (copies share it)."""

    def __init__(self, frame: pd.DataFrame):
        super().__init__(frame.items())
        self._frame = frame

    def __deepcopy__(self, memo):
        return self

    def __eq__(self, other):
        return isinstance(other, FrameInAttrs) and (
            other is self or self._frame.equals(other._frame))

    def __ne__(self, other):
        return not self == other

    __hash__ = None  # like dict

    def __reduce__(self):  # pickles (joblib workers) as the frame it holds
        return FrameInAttrs, (self._frame,)
