"""Rulebooks as files and page fragments: :mod:`qe_rules.texts.rulebooks` with the tile
pictures of :mod:`qe_rules.present.svg`.

The texts and the pictures are siblings (level 3) and do not import each other; the
rulebook's HTML takes its picture function as an argument, and this module (level 6)
passes ``svg.tile``. The command line (``qe-rules rulebook``) and the web table's rules
help call :func:`write_rulebook` and :func:`rulebook_fragment`::

    >>> page = write_rulebook("en", lang="de", format="html")
    >>> page.startswith("<!DOCTYPE html>") and "<svg" in page and "Spartenplättchen" in page
    True
    >>> rulebook_fragment("en").startswith('<article class="qe-rulebook"')
    True
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Final

from qe_rules._util.i18n import languages
from qe_rules.components import Company
from qe_rules.errors import InvalidArgument, shown
from qe_rules.present.svg import tile
from qe_rules.rules.model import RuleSet
from qe_rules.texts.rulebooks import rulebook

__all__ = ["FORMATS", "rulebook_fragment", "write_rulebook"]

FORMATS: Final = ("md", "html")
"""The formats of :func:`write_rulebook`: Markdown and a whole HTML page."""


def write_rulebook(
    ruleset: RuleSet | str,
    *,
    lang: str = "en",
    format: str = "md",
    against: RuleSet | str | None = None,
    cite: bool = False,
    paper: str = "a4",
    edition: str = "reference",
) -> str:
    """The rulebook of ``ruleset`` as Markdown (``format="md"``) or as an HTML page with
    the tile pictures and a print stylesheet for ``paper`` (``"a4"``, ``"letter"``);
    ``lang``, ``against``, ``cite`` and ``edition`` as in :func:`qe_rules.rulebook`."""
    if format not in FORMATS:
        raise InvalidArgument(f"format must be one of {', '.join(FORMATS)}, got {shown(format)}")
    book = rulebook(ruleset, lang=lang, against=against, cite=cite, edition=edition)
    if format == "md":
        return book.to_markdown()
    return book.to_html(picture=_small_tile(lang), paper=paper)


def rulebook_fragment(
    ruleset: RuleSet | str,
    *,
    lang: str = "en",
    against: RuleSet | str | None = None,
    cite: bool = False,
    stylesheet: bool = True,
) -> str:
    """The rulebook as an ``<article>`` with its scoped stylesheet and the tile
    pictures, without an ``<html>`` wrapper: for a page that shows the rules.

    ``stylesheet=False`` leaves out the ``<style>`` element: the page then links
    :func:`~qe_rules.texts.rulebooks.rulebook_stylesheet` as a file (the web table
    serves it as ``/static/rulebook.css``), and the fragment has no inline style or
    script, so it shows under a Content-Security-Policy of ``style-src 'self'``. The
    tile pictures are SVG with presentation attributes, no ``style``."""
    book = rulebook(ruleset, lang=lang, against=against, cite=cite)
    return book.to_html(fragment=True, picture=_small_tile(lang), stylesheet=stylesheet)


def _small_tile(lang: str) -> Callable[[Company], str]:
    """The rulebook's tile picture, its industry named in ``lang`` where the table has a
    catalog of it (else in English)."""
    return functools.partial(tile, size=60, lang=lang if lang in languages() else "en")
