"""The pictures behind the display hooks (``_repr_svg_``), reached without an upward import.

The classes a notebook displays (views and results, level ``game``) sit below the module
that draws them (:mod:`qe_rules.present.svg`, level ``present``), which imports them. So the
picture module registers one drawer per class here when it is imported, and a display hook
asks for its class's drawer. ``qe_rules/__init__`` imports the picture module, and every
``qe_rules`` module is loaded after ``qe_rules/__init__``, so a drawer is always registered
before a display hook can run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

__all__ = ["register_svg", "svg_of"]

_DRAWERS: Final[dict[type, Callable[[Any], str]]] = {}


def register_svg(cls: type, drawer: Callable[[Any], str]) -> None:
    """Make ``drawer`` draw the instances of ``cls`` as SVG text."""
    _DRAWERS[cls] = drawer


def svg_of(obj: object) -> str:
    """The SVG picture of ``obj`` from the drawer registered for its class."""
    for cls in type(obj).__mro__:
        drawer = _DRAWERS.get(cls)
        if drawer is not None:
            return drawer(obj)
    raise LookupError(f"no picture is registered for {type(obj).__name__}")
