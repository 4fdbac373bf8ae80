"""Opening files named by untrusted paths without waiting on them.

A path may name a FIFO, a socket or a device rather than a file: opening a FIFO blocks
until a writer (or a reader) comes, and reading a device may never end. :func:`open_input`
opens only a regular file, and never waits to open; :func:`open_output` opens a file for
writing without waiting for a reader of a FIFO (one without a reader is refused).
"""

from __future__ import annotations

import errno
import os
import stat
from typing import IO, Final

__all__ = ["NotAFile", "open_input", "open_output"]


class NotAFile(OSError):
    """A path that names something other than a regular file (a folder, a FIFO, a
    device)."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


_NONBLOCK: Final = getattr(os, "O_NONBLOCK", 0)  # where the system has no FIFOs, none


def _blocking(fd: int) -> None:
    if _NONBLOCK:
        os.set_blocking(fd, True)


def open_input(path: str) -> IO[bytes]:
    """``path`` opened for reading in binary, if it is a regular file; anything else
    raises :class:`NotAFile` (an ``OSError``) without waiting. Raises ``OSError`` and
    ``ValueError`` as ``open`` does for a path that cannot be opened."""
    fd = os.open(path, os.O_RDONLY | _NONBLOCK | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotAFile(f"{_kind(mode)}, not a file")
        _blocking(fd)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def open_output(path: str) -> IO[str]:
    """``path`` opened for writing UTF-8 text (created or emptied), without waiting for
    the reader of a FIFO: a FIFO nobody reads raises ``OSError`` at once. Raises
    :class:`NotAFile` for a folder, and ``OSError`` / ``ValueError`` as ``open`` does."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | _NONBLOCK, 0o666)
    except OSError as error:
        if error.errno == errno.ENXIO:  # a FIFO with no reader
            raise NotAFile("a FIFO (named pipe) that nobody reads") from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISREG(mode):
            os.ftruncate(fd, 0)
        elif stat.S_ISDIR(mode):
            raise NotAFile("a folder, not a file")
        _blocking(fd)
        return os.fdopen(fd, "w", encoding="utf-8", newline="")
    except BaseException:
        os.close(fd)
        raise
