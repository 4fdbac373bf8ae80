"""Where the project lives on the web: its URLs (the home page, the documentation, the
issue tracker), written once, in ``[project.urls]`` of ``pyproject.toml``.

An installed package reads them from its metadata; a source checkout run without
installing (``PYTHONPATH``) reads the ``pyproject.toml`` beside the package, so that both
name the same places.
"""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

__all__ = ["project_url"]

_DISTRIBUTION = "qe-rules"


def _checkout_urls() -> dict[str, str] | None:
    """The URLs of the ``pyproject.toml`` of a source checkout, or None outside one."""
    path = Path(__file__).resolve().parents[2] / "pyproject.toml"
    try:
        project = tomllib.loads(path.read_text(encoding="utf-8")).get("project", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    if project.get("name") != _DISTRIBUTION:
        return None
    return {str(label): str(url) for label, url in project.get("urls", {}).items()}


def _installed_urls() -> dict[str, str]:
    """The ``Project-URL`` entries of the installed distribution's metadata."""
    try:
        entries = importlib.metadata.metadata(_DISTRIBUTION).get_all("Project-URL") or []
    except importlib.metadata.PackageNotFoundError:
        return {}
    pairs = (entry.partition(",") for entry in entries)
    return {label.strip(): url.strip() for label, _, url in pairs}


def project_url(label: str) -> str | None:
    """The project's URL with this label of ``[project.urls]`` (``"Issues"``,
    ``"Documentation"``, ...), or None when it is not known.

    >>> project_url("Issues").startswith("https://")
    True
    """
    checkout = _checkout_urls()
    urls = checkout if checkout is not None else _installed_urls()
    return urls.get(label)
