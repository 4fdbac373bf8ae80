"""The languages of what people read at the table: GNU gettext catalogs.

Every text a player reads in the pictures, the terminal game and the web table is an
English ``msgid`` looked up in the catalog of the reader's language, so English needs no
catalog. A language is a compiled catalog ``qe_rules/data/locale/<language>/LC_MESSAGES/
qe_rules.mo`` (with its source ``qe_rules.po`` beside it): :func:`languages` finds them on
disk, so adding a language is adding its catalog. The template of every catalog is
``qe_rules/data/locale/qe_rules.pot``, written by ``python -m qe_rules.apps.messages``.
The German catalog's game terms are the glossary's (``qe_rules/data/glossary.toml``,
checked by the tests). After editing a ``.po`` file, compile it with GNU gettext (or
Babel's ``pybabel compile``)::

    msgfmt --check -o qe_rules/data/locale/de/LC_MESSAGES/qe_rules.mo \\
        qe_rules/data/locale/de/LC_MESSAGES/qe_rules.po

(the tests fail while the two differ).

>>> gettext_for("de")("Bid"), gettext_for("en")("Bid")
('Gebot', 'Bid')
>>> negotiate("fr-CH, de;q=0.8, en;q=0.5")
'de'
>>> environment_language({"LANG": "de_DE.UTF-8"}), environment_language({"LANG": "C"})
('de', 'en')
"""

from __future__ import annotations

import functools
import gettext
import os
from collections.abc import Callable, Mapping
from typing import Final

from qe_rules.errors import InvalidArgument, shown

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LOCALE_FOLDER",
    "check_language",
    "environment_language",
    "forget_catalogs",
    "gettext_for",
    "languages",
    "negotiate",
    "ngettext_for",
    "translation",
]

DEFAULT_LANGUAGE: Final = "en"
"""The language when none is asked for, and of the msgids."""

DOMAIN: Final = "qe_rules"
"""The gettext domain: the catalogs' file name."""

LOCALE_FOLDER: Final = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "locale")
"""Where the catalogs are: ``LOCALE_FOLDER/<language>/LC_MESSAGES/qe_rules.mo``."""

_ENVIRONMENT: Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""The variables that name the reader's language, first found first (as GNU gettext and
Python's :func:`gettext.find` read them)."""


@functools.cache
def languages() -> tuple[str, ...]:
    """The languages of the table: English (the msgids) first, then every language with a
    compiled catalog in :data:`LOCALE_FOLDER`, by code."""
    try:
        names = os.listdir(LOCALE_FOLDER)
    except OSError:
        names = []
    found = sorted(
        name
        for name in names
        if name != DEFAULT_LANGUAGE
        and os.path.isfile(os.path.join(LOCALE_FOLDER, name, "LC_MESSAGES", f"{DOMAIN}.mo"))
    )
    return (DEFAULT_LANGUAGE, *found)


def forget_catalogs() -> None:
    """Look for the catalogs again on next use (after one was added or compiled)."""
    languages.cache_clear()
    _translation.cache_clear()


def check_language(language: object) -> str:
    """``language`` if it is one of :func:`languages`; else raises
    :class:`~qe_rules.InvalidArgument` naming the languages."""
    known = languages()
    if not isinstance(language, str) or language not in known:
        raise InvalidArgument(
            f"unknown language {shown(language)}; languages are {', '.join(known)}"
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


def ngettext_for(language: str) -> Callable[[str, str, int], str]:
    """The ``ngettext`` function of ``language``: the singular and plural msgids and a
    count in, the form of the text for that count out (by the catalog's plural rule)."""
    return translation(language).ngettext


def _known(tag: str) -> str | None:
    """The language of :func:`languages` a language tag or locale name names
    (``de-AT``, ``de_DE.UTF-8``, ``pt_BR``), the exact one before its primary language."""
    name = tag.strip().split(".")[0].split("@")[0].replace("-", "_")
    known = languages()
    for candidate in (name, name.split("_")[0].lower()):
        if candidate in known:
            return candidate
    return None


def negotiate(accept_language: str | None, default: str = DEFAULT_LANGUAGE) -> str:
    """The best of :func:`languages` for an HTTP ``Accept-Language`` header (``de-AT,
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
        found = _known(tag)
        weight -= position * 1e-6  # the earlier of equal weights wins
        if found is not None and weight > best_weight:
            best, best_weight = found, weight
    return best


def environment_language(
    environ: Mapping[str, str] | None = None, default: str = DEFAULT_LANGUAGE
) -> str:
    """The reader's language as the locale variables name it: the first of ``LANGUAGE``
    (a colon-separated list), ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set, its
    first entry that is one of :func:`languages`; ``C`` and ``POSIX`` (the plain locale)
    are English; ``default`` when none names a language."""
    environ = os.environ if environ is None else environ
    for variable in _ENVIRONMENT:
        value = environ.get(variable, "")
        if not value:
            continue
        for entry in value[:1000].split(":")[:32]:
            if entry.split(".")[0] in ("C", "POSIX"):
                return DEFAULT_LANGUAGE
            found = _known(entry) if entry else None
            if found is not None:
                return found
        return default
    return default
