"""Loops over the games of a chunk, compiled: the batch's parts where many small numpy
calls would cost more than the arithmetic they do.

A function marked :func:`compiled_loop` is plain Python over arrays and whole numbers (a
loop over the games, a few branches a game) that numba compiles to machine code on first
use and caches on disk. The same function is the one statement of what it computes:
with ``NUMBA_DISABLE_JIT=1`` numba runs it as the Python it reads as (slowly), which is
how to step through it. Each such function writes its results into arrays it is handed,
so that the chunk's arrays keep their types and places.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

__all__ = ["compiled_loop", "compiled_step"]

Function = TypeVar("Function", bound=Callable[..., Any])


def compiled_loop(function: Function) -> Function:
    """``function`` compiled by numba (no Python objects inside, cached on disk, releasing
    the interpreter lock), keeping its signature for type checkers."""
    return cast(Function, numba.njit(cache=True, nogil=True)(function))


def compiled_step(function: Function) -> Function:
    """A small function that compiled loops call for each game, compiled into each of
    them (numba's ``inline="always"``: no call a game), keeping its signature."""
    return cast(Function, numba.njit(cache=True, nogil=True, inline="always")(function))
