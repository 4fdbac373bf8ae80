"""The rule sets a table may be played under, a line describing each, and the rules help
shown at the table (web page and terminal ``h``).

:func:`rules_help` is the one place the help is made: the rulebook of the table's rule
set (:mod:`qe_rules.apps.rulebook_files`) in the reader's language, its differences from
``en`` marked; :func:`rules_help_text` is the terminal's part of it, as Markdown.

>>> choices = RuleChoices.of(["en:zero_bid_points=3"])
>>> list(choices.rulesets)[-1]
'en:zero_bid_points=3'
>>> choices.describe("en-early", "en").startswith("QE rulebook, earlier English edition")
True
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Mapping
from typing import Final

import attrs

from qe_rules._util.i18n import DEFAULT_LANGUAGE, gettext_for
from qe_rules.apps.rulebook_files import rulebook_fragment
from qe_rules.errors import InvalidArgument, RulesError, shown
from qe_rules.rules.files import shipped_rulesets
from qe_rules.rules.model import RULESETS, RuleSet, get_ruleset, load_ruleset
from qe_rules.texts import catalogs
from qe_rules.texts.diffs import diff
from qe_rules.texts.rulebooks import Rulebook, Section, rulebook

__all__ = [
    "RuleChoices",
    "RulesHelp",
    "describe_ruleset",
    "load_ruleset_choice",
    "rulebook_language",
    "rules_help",
    "rules_help_text",
]

_BASE: Final = "en"
_MAX_SPEC_LENGTH: Final = 500


def load_ruleset_choice(text: str) -> RuleSet:
    """A rule set named as ``qe-rules serve --ruleset`` takes it: a built-in id, a spec
    string (``en:zero_bid_points=3``), a shipped name or a ``.toml`` file."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidArgument(f"a rule set is an id, a spec string or a file, got {shown(text)}")
    text = text.strip()
    if text in RULESETS:
        return RULESETS[text]
    if ":" in text and text.partition(":")[0] in RULESETS:
        return get_ruleset(text)
    shipped = shipped_rulesets()
    if text in shipped:
        return load_ruleset(shipped[text])
    if text.endswith(".toml") or os.path.exists(text):
        return load_ruleset(text)
    raise InvalidArgument(
        f"unknown rule set {shown(text)}: give a built-in id ({', '.join(RULESETS)}), "
        "a spec string (en:field=value), a shipped name or a .toml file"
    )


@attrs.frozen
class RuleChoices:
    """The rule sets a server offers, by the key its host form sends: the built-in ones,
    then those named at start (``--ruleset FILE`` or a spec string)."""

    rulesets: Mapping[str, RuleSet]

    @classmethod
    def of(cls, extra: Iterable[str | RuleSet] = ()) -> RuleChoices:
        """The built-in rule sets and ``extra`` ones (names as :func:`load_ruleset_choice`
        reads them, or rule sets), keyed by their spec or id."""
        found: dict[str, RuleSet] = dict(RULESETS)
        for item in extra:
            ruleset = item if isinstance(item, RuleSet) else load_ruleset_choice(item)
            key = item if isinstance(item, str) and ":" in item else ruleset.id
            if found.get(key, ruleset) != ruleset:
                key = f"{ruleset.id} ({len(found)})"
            found[key] = ruleset
        return cls(rulesets=found)

    def key_of(self, ruleset: RuleSet) -> str | None:
        """The key under which ``ruleset`` is offered, if it is."""
        for key, offered in self.rulesets.items():
            if offered == ruleset:
                return key
        return None

    def resolve(self, choice: object) -> RuleSet:
        """The rule set of a host's choice: a key of :attr:`rulesets`, or a spec string
        built on a built-in one (``de:zero_bid_points=3``)."""
        if isinstance(choice, str) and choice in self.rulesets:
            return self.rulesets[choice]
        if isinstance(choice, str) and ":" in choice and choice.partition(":")[0] in RULESETS:
            if len(choice) > _MAX_SPEC_LENGTH:
                raise InvalidArgument(
                    f"a spec string has at most {_MAX_SPEC_LENGTH} characters, got {len(choice)}"
                )
            try:
                return get_ruleset(choice)
            except RulesError as error:
                raise InvalidArgument(f"the rule set {shown(choice)}: {error}") from None
        raise InvalidArgument(
            f"unknown rule set {shown(choice)}; rule sets are {', '.join(self.rulesets)}, "
            "or a spec string such as en:zero_bid_points=3"
        )

    def describe(self, key: str, lang: str = DEFAULT_LANGUAGE) -> str:
        """One line about a rule set: its title and how far it is from ``en``."""
        return describe_ruleset(self.rulesets[key], lang)


def describe_ruleset(ruleset: RuleSet, lang: str = DEFAULT_LANGUAGE) -> str:
    """``title · language de · 3-5 players · 2 rules differ from en: ...`` in ``lang``
    (the rules named as the rulebook of :func:`rulebook_language` names them)."""
    _ = gettext_for(lang)
    counts = ruleset.player_counts
    players = f"{counts[0]}-{counts[-1]}" if len(counts) > 1 else str(counts[0])
    parts = [
        ruleset.title,
        _("language {language}").format(language=ruleset.language),
        _("{players} players").format(players=players),
    ]
    changed = [d.field for d in diff(_BASE, ruleset).rules]
    if not changed:
        parts.append(_("the rules of en"))
    else:
        labels = catalogs.catalog(rulebook_language(lang)).label
        shown_fields = ", ".join(labels(field) for field in changed[:3])
        more = "…" if len(changed) > 3 else ""
        parts.append(
            _("rules that differ from en ({count}): {fields}").format(
                count=len(changed), fields=shown_fields + more
            )
        )
    return " · ".join(parts)


@attrs.frozen
class RulesHelp:
    """What the table shows as rules help: the rulebook of the table's rule set
    (:func:`qe_rules.apps.rulebook_files.rulebook_fragment`) in the reader's language, every
    rule that differs from ``en`` listed first and marked where it is stated."""

    title: str
    article: str
    """The rulebook as an ``<article class="qe-rulebook">`` with its tile pictures and
    no ``<style>``: the page links ``/static/rulebook.css``."""
    differences: tuple[str, ...]
    """The rule fields that differ from ``en`` (empty for ``en`` itself)."""


def rulebook_language(lang: str) -> str:
    """The language of the rulebook shown at a table in ``lang``: ``lang`` where a
    rulebook catalog (``qe_rules/data/rulebook/<lang>.toml``) exists, else English, so that
    a language with only a table catalog still shows its rules."""
    return lang if lang in catalogs.languages() else DEFAULT_LANGUAGE


def rules_help(ruleset: RuleSet, lang: str = DEFAULT_LANGUAGE) -> RulesHelp:
    """The rules help of a table playing ``ruleset``, in ``lang``: its rulebook (in
    :func:`rulebook_language`), with the differences from ``en`` marked when it is not
    ``en``."""
    _ = gettext_for(lang)
    book = _book(ruleset, lang)
    return RulesHelp(
        title=_("How to play · rule set {ruleset}").format(ruleset=ruleset.id),
        article=_article(ruleset, lang),
        differences=book.differences,
    )


_TERMINAL_SECTIONS: Final = ("differences", "sale", "ties", "scoring", "winner")
"""The rulebook's sections the terminal's ``h`` shows (with their subsections): the
differences from ``en``, a sale, ties, the final scoring and the winner."""


def rules_help_text(ruleset: RuleSet, lang: str = DEFAULT_LANGUAGE) -> str:
    """The rules help as Markdown, for the terminal: the sections of the rulebook on
    the differences from ``en``, a sale, ties and the scoring, in ``lang``."""
    _ = gettext_for(lang)
    book = _book(ruleset, lang)
    shown_sections: list[Section] = []
    keep = False
    for section in book.sections:
        if section.level == 2:
            keep = section.key in _TERMINAL_SECTIONS
        if keep:
            shown_sections.append(section)
    part = attrs.evolve(book, sections=tuple(shown_sections))
    lines = [
        _("How to play · rule set {ruleset}").format(ruleset=ruleset.id),
        "",
        *part.to_markdown().splitlines()[4:],
        "",
        _("The whole rulebook: qe-rules rulebook {ruleset} --lang {lang}").format(
            ruleset=ruleset.id, lang=rulebook_language(lang)
        ),
    ]
    return "\n".join(lines)


def _against(ruleset: RuleSet) -> str | None:
    return None if ruleset == RULESETS[_BASE] else _BASE


def _book(ruleset: RuleSet, lang: str) -> Rulebook:
    return _rulebook(ruleset, rulebook_language(lang))


def _article(ruleset: RuleSet, lang: str) -> str:
    return _fragment(ruleset, rulebook_language(lang))


@functools.lru_cache(maxsize=64)
def _rulebook(ruleset: RuleSet, lang: str) -> Rulebook:
    return rulebook(ruleset, lang=lang, against=_against(ruleset))


@functools.lru_cache(maxsize=64)
def _fragment(ruleset: RuleSet, lang: str) -> str:
    return rulebook_fragment(ruleset, lang=lang, against=_against(ruleset), stylesheet=False)
