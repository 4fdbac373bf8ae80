"""The rule sets a table may be played under, a line describing each, and the rules help
shown at the table (web page and terminal ``h``).

:func:`rules_help` is the one place the help is made: today from the rule set's fields
and citations (:func:`qe_rules.texts.reports.ruleset_text`) and a short paraphrase of
the game in the catalog; a generated rulebook can replace its body without any caller
changing.

>>> choices = RuleChoices.of(["en:zero_bid_points=3"])
>>> list(choices.rulesets)[-1]
'en:zero_bid_points=3'
>>> choices.describe("en-early", "en").startswith("QE rulebook, earlier English edition")
True
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Final

import attrs

from qe_rules._util.i18n import DEFAULT_LANGUAGE, gettext_for
from qe_rules.errors import InvalidArgument, RulesError, shown
from qe_rules.rules.files import shipped_rulesets
from qe_rules.rules.model import RULESETS, RuleSet, get_ruleset, load_ruleset
from qe_rules.texts.diffs import diff
from qe_rules.texts.reports import ruleset_text

__all__ = [
    "RuleChoices",
    "RulesHelp",
    "describe_ruleset",
    "load_ruleset_choice",
    "rules_help",
    "rules_help_text",
]

_BASE: Final = "en"


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
            try:
                return get_ruleset(choice[:500])
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
    """``title · language de · 3-5 players · 2 rules differ from en: ...`` in ``lang``."""
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
        shown_fields = ", ".join(RuleSet.field_label(f) for f in changed[:3])
        more = "…" if len(changed) > 3 else ""
        parts.append(
            _("rules that differ from en ({count}): {fields}").format(
                count=len(changed), fields=shown_fields + more
            )
        )
    return " · ".join(parts)


@attrs.frozen
class RulesHelp:
    """What the table shows as rules help: a short account of how the game goes and
    scores (``overview``), how this rule set differs from ``en`` (``differences``), and
    every rule with its citation (``full_text``)."""

    title: str
    overview: tuple[str, ...]
    differences: tuple[str, ...]
    full_text: str


def rules_help(ruleset: RuleSet, players: int, lang: str = DEFAULT_LANGUAGE) -> RulesHelp:
    """The rules help of a table: ``ruleset`` with ``players`` players, in ``lang``."""
    _ = gettext_for(lang)
    overview = [
        _(
            "Each sale offers one company tile. The auctioneer makes an opening bid of at "
            "least {minimum}; every other player writes one secret bid."
        ).format(minimum=ruleset.min_opening_bid),
        _(
            "The highest bid wins the tile and pays that amount to the bank. Equal highest "
            "bids are a tie: the tied players bid again."
        ),
        _(
            "The auctioneer sees every bid of the sale; the others learn who won, and the "
            "amount only when the auctioneer won."
        )
        if ruleset.auctioneer_sees_all_bids
        else _("The others learn who won the tile."),
        _("The auctioneer's turn passes on after every sale; a round ends when all had it."),
    ]
    if ruleset.has_zero_bid_points(players):
        overview.append(
            _(
                "A zero bid scores {points} VP (at most {limit} per round); zero bids only "
                "count in games of {counts} players."
            ).format(
                points=ruleset.zero_bid_points,
                limit=ruleset.zero_bid_limit_per_round or "∞",
                counts=", ".join(map(str, ruleset.zero_bid_player_counts)),
            )
        )
    else:
        overview.append(
            _("With {players} players zero bids score nothing.").format(players=players)
        )
    if players in ruleset.peek_player_counts and ruleset.peeks_per_player:
        overview.append(
            _(
                "With {players} players each player may once look at the amount paid for a "
                "tile they did not see."
            ).format(players=players)
        )
    overview += [
        _(
            "At the end: VP of the companies won, zero bids, nationalization (most tiles of "
            "a nation), monopolization (most tiles of an industry; your secret industry "
            "token can count), diversification (sets of different industries)."
        ),
        _(
            "Money counts too: whoever spent the most is out of the game, and whoever spent "
            "the least gets a bonus. The most VP wins."
        ),
    ]
    differences = tuple(
        f"{RuleSet.field_label(d.field)}: {d.b_cite.summary}" for d in diff(_BASE, ruleset).rules
    )
    return RulesHelp(
        title=_("How to play · rule set {ruleset}").format(ruleset=ruleset.id),
        overview=tuple(overview),
        differences=differences,
        full_text=ruleset_text(ruleset),
    )


def rules_help_text(ruleset: RuleSet, players: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """The rules help as plain text, for the terminal: the overview and the differences."""
    _ = gettext_for(lang)
    found = rules_help(ruleset, players, lang)
    lines = [found.title, *(f"- {line}" for line in found.overview)]
    if found.differences:
        lines += ["", _("Where this rule set differs from en:")]
        lines += [f"- {line}" for line in found.differences]
    lines += [
        "",
        _("Every rule with its citation: qe-rules rules {ruleset}").format(ruleset=ruleset.id),
    ]
    return "\n".join(lines)
