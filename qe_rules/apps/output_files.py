"""The files a command of ``qe-rules`` writes: every failure to write one (a missing
folder, a full disk, a FIFO nobody reads, a path no file can have) is an
:class:`OutputError`, which the command line reports in one line with status 3.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator

from qe_rules._util.paths import open_output
from qe_rules.errors import RulesError, shown

__all__ = ["OutputError", "check_output_path", "check_writable", "write_file", "writing"]


class OutputError(Exception):
    """The output could not be written; reported in one line."""


@contextlib.contextmanager
def writing(target: str) -> Iterator[None]:
    """Report an output that cannot be written (a missing folder, a full disk, a path no
    file can have: a NUL, a lone surrogate) as status 3."""
    try:
        yield
    except RulesError:
        raise
    except OSError as error:
        raise OutputError(f"cannot write {target}: {error.strerror or error}") from None
    except ValueError as error:
        raise OutputError(f"cannot write {shown(target)}: {error}") from None


def check_output_path(path: str) -> None:
    """Refuse a path that names a FIFO (writing it would wait for a reader) or a folder."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return  # no such file yet: writing it says what is wrong, if anything
    if stat.S_ISFIFO(mode) or stat.S_ISDIR(mode):
        raise OutputError(f"cannot write {path}: it is a folder or a FIFO, not a file")


def write_file(path: str, text: str, *, folders: bool = False) -> None:
    """Write ``text`` to ``path``; with ``folders``, make the missing folders of a
    generated page first (a file the user names goes only into an existing folder)."""
    with writing(path):
        if folders:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open_output(path) as handle:
            handle.write(text)


def check_writable(folder: str) -> None:
    """Refuse a folder no page can be written into before any page is made (status 3)."""
    with writing(f"into {folder}"):
        os.makedirs(folder, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
