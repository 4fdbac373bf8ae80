"""A German-English glossary of QE: components, phases, scoring, roles and rule words.

Preferred forms are those of the ``en`` and ``de`` rulebooks; variants come from the other
texts (``en-early``, ``de-summary``) or from other places in the same rulebook. Notes warn
about false friends::

    >>> from qe_rules.texts.glossary import lookup_term, translate_term
    >>> translate_term("Sparte"), translate_term("Industrie"), translate_term("Industry Token")
    ('Industry', 'Manufacturing', 'Spartenplättchen')
    >>> [t.en for t in lookup_term("industrieplättchen")]
    ['Industry Token']
    >>> translate_term("Bid")
    Traceback (most recent call last):
    ...
    qe_rules.errors.InvalidArgument: 'Bid' is ambiguous: Total Spent (Gesamtausgaben), Bid (Gebot)
"""

from __future__ import annotations

import functools
import unicodedata
from typing import TYPE_CHECKING, Any, Final

import attrs

from qe_rules._util.frozen import check_text, text_tuple
from qe_rules.errors import InvalidArgument, shown
from qe_rules.rules.files import entry_table, read_entries

__all__ = ["GLOSSARY", "KINDS", "Term", "lookup_term", "translate_term"]

KINDS: Final[tuple[str, ...]] = (
    "component",
    "phase",
    "category",
    "industry",
    "nation",
    "role",
    "rule",
    "scoring",
)
"""The kinds of glossary term."""


def _check_kind(instance: Term, attribute: attrs.Attribute[str], value: str) -> None:
    if value not in KINDS:
        raise InvalidArgument(f"unknown term kind {value!r}; kinds are {', '.join(KINDS)}")


@attrs.frozen
class Term:
    """One glossary entry: the preferred English and German forms and their variants."""

    en: str = attrs.field(validator=check_text)
    """The preferred English form, as in the ``en`` rulebook."""
    de: str = attrs.field(validator=check_text)
    """The preferred German form, as in the ``de`` rulebook."""
    kind: str = attrs.field(validator=_check_kind)
    """One of :data:`KINDS`."""
    note: str = ""
    """False-friend warnings, where a variant comes from, and the like."""
    en_variants: tuple[str, ...] = attrs.field(default=(), converter=text_tuple)
    """Other English forms found in ``en`` or ``en-early``."""
    de_variants: tuple[str, ...] = attrs.field(default=(), converter=text_tuple)
    """Other German forms found in ``de`` or ``de-summary``."""
    en_avoid: tuple[str, ...] = attrs.field(default=(), converter=text_tuple)
    """Forms an English text of the project must not use for this term: slips, calques
    and other texts' words (matched where a word starts, ignoring case; the checker of
    generated texts holds every rulebook to them)."""
    de_avoid: tuple[str, ...] = attrs.field(default=(), converter=text_tuple)
    """Forms a German text of the project must not use for this term, likewise."""

    @property
    def en_forms(self) -> tuple[str, ...]:
        """The preferred English form followed by the variants."""
        return (self.en, *self.en_variants)

    @property
    def de_forms(self) -> tuple[str, ...]:
        """The preferred German form followed by the variants."""
        return (self.de, *self.de_variants)

    def to_dict(self) -> dict[str, Any]:
        """The term as JSON types."""
        return {
            "en": self.en,
            "de": self.de,
            "kind": self.kind,
            "note": self.note,
            "en_variants": list(self.en_variants),
            "de_variants": list(self.de_variants),
            "en_avoid": list(self.en_avoid),
            "de_avoid": list(self.de_avoid),
        }

    def avoided(self, language: str) -> tuple[str, ...]:
        """The forms a text in ``language`` must not use for this term."""
        return {"en": self.en_avoid, "de": self.de_avoid}.get(language, ())


_TERM_KEYS: Final = tuple(a.name for a in attrs.fields(Term))


def _term(data: Any, path: str) -> Term:
    data = entry_table(data, path, _TERM_KEYS)
    for key in ("en_variants", "de_variants", "en_avoid", "de_avoid"):
        value = data.get(key, [])
        if not isinstance(value, list) or any(not isinstance(v, str) for v in value):
            raise InvalidArgument(f"{path}.{key}: needs a list of strings")
    note = data.get("note", "")
    if not isinstance(note, str):
        raise InvalidArgument(f"{path}.note: needs a string")
    return Term(
        data.get("en", ""),
        data.get("de", ""),
        data.get("kind", ""),
        note,
        en_variants=data.get("en_variants", ()),
        de_variants=data.get("de_variants", ()),
        en_avoid=data.get("en_avoid", ()),
        de_avoid=data.get("de_avoid", ()),
    )


@functools.cache
def _glossary() -> tuple[Term, ...]:
    """The glossary, read from its data file on first use."""
    return read_entries("glossary.toml", "terms", _term)


if TYPE_CHECKING:
    GLOSSARY: tuple[Term, ...]
    """Every glossary term, grouped by kind (read from ``qe_rules/data/glossary.toml``)."""


def __getattr__(name: str) -> Any:
    # GLOSSARY is read on first use, so that importing the library stays cheap.
    if name == "GLOSSARY":
        return _glossary()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


def _entry(term: Term) -> tuple[Term, frozenset[str], frozenset[str], frozenset[str]]:
    en, de = frozenset(map(_key, term.en_forms)), frozenset(map(_key, term.de_forms))
    return term, en, de, en | de


@functools.cache
def _index() -> tuple[tuple[Term, frozenset[str], frozenset[str], frozenset[str]], ...]:
    """Each term with the keys of its English forms, its German forms and both."""
    return tuple(_entry(t) for t in _glossary())


def _query(term: object) -> str:
    if not isinstance(term, str):
        raise InvalidArgument(f"a glossary query must be a string, got {shown(term)}")
    key = _key(term)
    if not key:
        raise InvalidArgument("a glossary query must not be empty")
    return key


def _containing(key: str) -> tuple[Term, ...]:
    """The terms with a form whose key contains ``key``."""
    return tuple(t for t, _, _, forms in _index() if any(key in form for form in forms))


def lookup_term(term: str) -> tuple[Term, ...]:
    """The terms that have ``term`` as an English or German form or variant.

    Case and surrounding whitespace are ignored. Exact matches win; when there is none,
    every term with a form containing ``term`` is returned (possibly none).

    >>> [t.de for t in lookup_term("auction tile")]
    ['Unternehmensplättchen']
    >>> [t.en for t in lookup_term("gebot")]
    ['Bid']
    >>> [t.en for t in lookup_term("plättchen")][:2]
    ['Company Tile', 'Industry Token']
    """
    key = _query(term)
    exact = tuple(t for t, _, _, forms in _index() if key in forms)
    return exact or _containing(key)


def translate_term(term: str) -> str:
    """The preferred form of ``term`` in the other language (German in, English out).

    Only exact forms are translated; an unknown or ambiguous term raises
    :class:`~qe_rules.errors.InvalidArgument` naming the candidates.

    >>> translate_term("Runde"), translate_term("round"), translate_term("Startspielmarker")
    ('Round', 'Runde', 'First Auctioneer Token')
    >>> translate_term("Tafel")
    Traceback (most recent call last):
    ...
    qe_rules.errors.InvalidArgument: unknown term 'Tafel'; terms containing it: Gebotstafel, Wertungstafel
    """
    key = _query(term)
    found = [(t, key in en, key in de) for t, en, de, forms in _index() if key in forms]
    if len(found) == 1:
        entry, is_en, is_de = found[0]
        return entry.en if is_de and not is_en else entry.de
    if found:
        names = ", ".join(f"{t.en} ({t.de})" for t, _, _ in found)
        raise InvalidArgument(f"{term!r} is ambiguous: {names}")
    near = _containing(key)
    if near:
        names = ", ".join(_matching_form(t, key) for t in near[:5])
        raise InvalidArgument(f"unknown term {term!r}; terms containing it: {names}")
    raise InvalidArgument(f"unknown term {term!r}; GLOSSARY lists the {len(_glossary())} terms")


def _matching_form(term: Term, key: str) -> str:
    for form in (*term.en_forms, *term.de_forms):
        if key in _key(form):
            return form
    return term.en  # pragma: no cover - lookup only returns terms with a matching form
