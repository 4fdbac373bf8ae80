"""The languages of what people read at the table: gettext catalogs, English and German.

Every text a player reads in the pictures, the terminal game and the web table is an
English ``msgid`` looked up in the catalog of the reader's language, so English needs no
catalog. The German catalog is ``qe_rules/data/locale/de/LC_MESSAGES/qe_rules.po``; its
game terms are the glossary's (``qe_rules/data/glossary.toml``, checked by the tests).
The compiled ``qe_rules.mo`` beside it is what is read at run time; after editing the
``.po`` file, compile it with GNU gettext::

    msgfmt -o qe_rules/data/locale/de/LC_MESSAGES/qe_rules.mo \\
        qe_rules/data/locale/de/LC_MESSAGES/qe_rules.po

(the tests fail while the two differ).

>>> gettext_for("de")("Bid"), gettext_for("en")("Bid")
('Gebot', 'Bid')
>>> negotiate("fr-CH, de;q=0.8, en;q=0.5")
'de'
"""

from __future__ import annotations

import functools
import gettext
import os
from collections.abc import Callable
from typing import Final

from qe_rules.errors import InvalidArgument, shown

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_FOLDER",
    "check_language",
    "gettext_for",
    "negotiate",
    "translation",
]

LANGUAGES: Final[tuple[str, ...]] = ("en", "de")
"""The languages of the table, English first (the language of the msgids)."""

DEFAULT_LANGUAGE: Final = "en"
"""The language when none is asked for."""

DOMAIN: Final = "qe_rules"
"""The gettext domain: the catalogs' file name."""

LOCALE_FOLDER: Final = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "locale")
"""Where the catalogs are: ``LOCALE_FOLDER/<language>/LC_MESSAGES/qe_rules.mo``."""


def check_language(language: object) -> str:
    """``language`` if it is one of :data:`LANGUAGES`; else raises
    :class:`~qe_rules.InvalidArgument` naming the languages."""
    if not isinstance(language, str) or language not in LANGUAGES:
        raise InvalidArgument(
            f"unknown language {shown(language)}; languages are {', '.join(LANGUAGES)}"
        )
    return language


def translation(language: str) -> gettext.NullTranslations:
    """The catalog of ``language`` (read once); English is the identity."""
    return _translation(check_language(language))


@functools.cache
def _translation(language: str) -> gettext.NullTranslations:
    if language == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_FOLDER, languages=[language])


def gettext_for(language: str) -> Callable[[str], str]:
    """The ``gettext`` function of ``language``: a msgid in, the text to show out."""
    return translation(language).gettext


def negotiate(accept_language: str | None, default: str = DEFAULT_LANGUAGE) -> str:
    """The best of :data:`LANGUAGES` for an HTTP ``Accept-Language`` header (``de-AT,
    en;q=0.5``), or ``default`` when it names none of them."""
    best, best_weight = default, 0.0
    for position, part in enumerate((accept_language or "")[:1000].split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                weight = float(params[2:])
            except ValueError:
                continue
        primary = tag.strip().lower().split("-")[0]
        weight -= position * 1e-6  # the earlier of equal weights wins
        if primary in LANGUAGES and weight > best_weight:
            best, best_weight = primary, weight
    return best
