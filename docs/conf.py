"""Sphinx configuration of the docs site: the Markdown guides (MyST) and an API reference
from the docstrings (autodoc, autosummary), one page per layer.

Build it with ``sphinx-build -W docs docs/_build`` (the ``docs`` dependency group).
"""

from __future__ import annotations

import importlib
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

from sphinx.util import logging

logger = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the checkout's package, installed or not

_PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

project = "qe-rules"
author = "the qe-rules maintainers"
copyright = "2026, the qe-rules maintainers"
release = importlib.import_module("qe_rules").__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
]
root_doc = "contents"  # the guide's index.md stays the home page's text, free of toctrees
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "_templates"]
templates_path = ["_templates"]
myst_heading_anchors = 4  # GitHub-style anchors: [text](page.md#a-heading)

autosummary_generate = True
autodoc_default_options = {"members": True, "undoc-members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
# The openspiel extra's 66 MB wheel and the train extra's PyTorch stack: not needed to read
# the modules that use them.
autodoc_mock_imports = ["pyspiel", "stable_baselines3", "sb3_contrib", "torch"]

html_theme = "furo"
html_title = f"qe-rules {release}"
html_theme_options = {"source_repository": _PROJECT["urls"]["Repository"] + "/"}

# The published URLs say where a page lives; the guides link to each other by file.
suppress_warnings = ["myst.header"]

# ---------------------------------------------------------------------------------- names
# Docstrings cite the public names by their short paths (:func:`qe_rules.new_game`,
# :func:`qe_rules.svg.view`); the reference documents each name where it is defined
# (qe_rules.game.engine.new_game). A reference Sphinx cannot find is looked up here.

_FACADES = frozenset(
    {
        "qe_rules",
        "qe_rules.svg",
        "qe_rules.batch",
        "qe_rules.rl",
        "qe_rules.strategies",
        "qe_rules.gymnasium_env",
        "qe_rules.openspiel",
    }
)


def _defining_path(target: str) -> str | None:
    """Where the object of a path that Sphinx could not find is documented, or None."""
    parts = target.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module_name = ".".join(parts[:cut])
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        try:
            value = getattr(module, parts[cut])
        except AttributeError:
            return None
        home = _home(value, parts[cut])
        if home is None or home == module_name:
            return None
        return ".".join([home, *parts[cut:]])
    return None


def _home(value: object, name: str) -> str | None:
    """The module that documents ``value``: among the modules whose ``__all__`` exports
    it, the one that defines it (a class or function's ``__module__``, or the module whose
    source assigns the name); None when no documented module exports it."""
    exporters = [
        module_name
        for module_name, module in sorted(sys.modules.items())
        if module_name.startswith("qe_rules.")
        and module_name not in _FACADES
        and name in getattr(module, "__all__", ())
        and getattr(module, name, None) is value
    ]
    defined_in = getattr(value, "__module__", None) if hasattr(value, "__qualname__") else None
    if defined_in in exporters or (defined_in and not exporters):
        return str(defined_in)
    assigning = re.compile(rf"^{re.escape(name)}\s*[:=]", re.MULTILINE)
    for module_name in exporters:
        source = getattr(sys.modules[module_name], "__file__", None)
        if source and assigning.search(Path(source).read_text(encoding="utf-8")):
            return module_name
    return exporters[0] if exporters else None


def _resolve_short_path(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "").removeprefix("~").removesuffix("()")
    tries = [target]  # a short path, a name imported into the module, a public name
    if node.get("py:module"):
        tries.append(f"{node['py:module']}.{target}")
    if target in _public_names():
        tries.append(f"qe_rules.{target}")
    domain = env.get_domain("py")
    for path in filter(None, map(_defining_path, filter(_ours, tries))):
        found = domain.resolve_xref(
            env, node["refdoc"], app.builder, node["reftype"], path, node, contnode
        )
        if found is not None:
            return found
    if target.startswith("qe_rules.") and target.removeprefix("qe_rules.") in _public_names():
        # every name of qe_rules.__all__ has its documentation: a build with -W fails here
        logger.warning("%s is not documented in the API reference", target, location=node)
    return None


def _ours(path: str) -> bool:
    return path.startswith("qe_rules.")


def _public_names() -> frozenset[str]:
    return frozenset(importlib.import_module("qe_rules").__all__) - {"__version__"}


# A module's __all__ may re-export a name of a module below it: each name is documented
# once, where it is defined (autodoc names the module before its members).
_documenting: list[str] = [""]


def _note_module(app: Any, what: str, name: str, obj: Any, options: Any, lines: Any) -> None:
    if what == "module":
        _documenting[0] = name


def _skip_reexport(app: Any, what: str, name: str, obj: Any, skip: bool, options: Any) -> Any:
    if what == "module" and _documenting[0].startswith("qe_rules."):
        home = _home(obj, name)
        if home is not None and home != _documenting[0]:
            return True
    return None


# ------------------------------------------------------------------------------- language
# The site is English; the example rulebooks in another language say so in <html lang>,
# for screen readers and browsers' translation.


def _page_language(app: Any, pagename: str, templatename: str, context: Any, doctree: Any) -> None:
    from qe_rules.apps.pages import page_languages

    lang = page_languages().get(f"{pagename}.md")
    if lang is not None:
        context["language"] = lang  # the theme writes <html lang="{{ language }}">


def setup(app: Any) -> None:
    app.connect("html-page-context", _page_language)
    app.connect("missing-reference", _resolve_short_path)
    app.connect("autodoc-process-docstring", _note_module)
    app.connect("autodoc-skip-member", _skip_reexport)
