"""The ``irteval`` command line (parser and dispatch in :mod:`irteval.cli.commands`)."""

from .commands import main

__all__ = ["main"]
