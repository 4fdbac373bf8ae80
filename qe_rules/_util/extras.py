"""The optional extras: a module that needs one says so in one line when it is missing.

>>> require_extra("batch", "numpy")  # installed here: nothing happens
>>> require_extra("web", "no_such_package_qe")
Traceback (most recent call last):
...
ModuleNotFoundError: this needs the extra [web]: pip install 'qe-rules[web]' (no_such_package_qe is not installed)
"""

from __future__ import annotations

import importlib.util

__all__ = ["require_extra"]


def require_extra(extra: str, *packages: str) -> None:
    """Raise :class:`ModuleNotFoundError` naming ``extra`` and how to install it when one
    of ``packages`` (import names) is not installed."""
    for package in packages:
        if importlib.util.find_spec(package) is None:
            raise ModuleNotFoundError(
                f"this needs the extra [{extra}]: pip install 'qe-rules[{extra}]' "
                f"({package} is not installed)",
                name=package,
            )
