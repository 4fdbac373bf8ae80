"""Old names kept working: one warning for a renamed function, method or attribute."""

from __future__ import annotations

import warnings

__all__ = ["renamed"]


def renamed(old: str, new: str) -> None:
    """Warn that ``old`` is a deprecated name of ``new`` (a :class:`DeprecationWarning`
    pointing at the caller's caller)."""
    warnings.warn(f"{old} is deprecated; use {new}", DeprecationWarning, stacklevel=3)
