"""Deprecated ways of reading results, kept for one release with a FutureWarning."""

from __future__ import annotations

from dataclasses import fields

from ._validation import warn_user


class UnpacksWithWarning:
    """A frozen dataclass that was a tuple: ``a, b = result`` still works, and warns."""

    def __iter__(self):
        names = [f.name for f in fields(self)]
        warn_user(f"unpacking {type(self).__name__} is deprecated; read its fields "
                  f"({', '.join(names)}) instead", FutureWarning)
        return iter(getattr(self, n) for n in names)


class IndexesWithWarning:
    """A frozen dataclass that was a dict: ``result["key"]`` still works, and warns."""

    def __getitem__(self, key):
        warn_user(f"{type(self).__name__}[{key!r}] is deprecated; use .{key}", FutureWarning)
        return getattr(self, key)


def renamed(new_value, old_value, old, new, default=None):
    """The value of a keyword renamed from ``old`` to ``new`` (the old one warns); both given
    (``new`` other than its ``default``) and different is refused."""
    if old_value is None:
        return new_value
    if new_value is not None and new_value != default and new_value != old_value:
        raise TypeError(f"{old}={old_value!r} and {new}={new_value!r} disagree: {old}= is the "
                        f"old name of {new}=; give {new}= alone")
    warn_user(f"{old}= is deprecated and will be removed in the next release; use {new}=",
              FutureWarning)
    return old_value
