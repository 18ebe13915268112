"""Warnings irteval raises, so that users can filter or escalate them by category."""


class ConvergenceWarning(UserWarning):
    """A fit whose diagnostics say its draws should not be trusted yet."""


class SeparationWarning(UserWarning):
    """Some players never beat some others: their gap has no finite maximum-likelihood value."""


class IdentificationWarning(UserWarning):
    """Parameters that the data leave to the prior (an instance every model got right, a
    player that never won): their estimates mostly restate the prior."""


class ModelSpecWarning(UserWarning):
    """A model that is not (or no longer) an irteval model: fitted by the generic path, without
    the model-specific steps it would otherwise get."""
