"""The discrepancy register: where the four QE texts differ, and what the library does.

Each :class:`Discrepancy` names a topic, a kind (a rule difference, a wording difference,
a slip, or an ambiguity), what every relevant text says (a paraphrase with its source id
and section, never a quotation), and how the built-in rule sets resolve it: the rule
fields that encode it and the interpretation codes that settle it::

    >>> from qe_rules.discrepancies import DiscrepancyKind, find_discrepancies, get_discrepancy
    >>> entry = get_discrepancy("secret-bid-equal-to-opening")
    >>> entry.kind, entry.fields
    (<DiscrepancyKind.RULE: 'rule'>, ('secret_bid_may_equal_opening',))
    >>> entry.sources
    ('en', 'en-early', 'de', 'de-summary')
    >>> print(entry.readings[1])
    en-early §Gameplay/2. Secret Bids: Any whole number from zero up; the text makes no exception for the auctioneer's amount.
    >>> [d.id for d in find_discrepancies(kind="slip", topic="elimination")]
    ['summary-elimination-in-a-round']

Sections are named as in the rule sets' citations (``RuleSet.cite``).
"""

from __future__ import annotations

import difflib
import enum
import re
from collections.abc import Iterable
from typing import Any, Final

import attrs

from qe_rules._frozen import check_text, text_tuple
from qe_rules.errors import InvalidArgument, shown
from qe_rules.rulesets import SOURCES

__all__ = [
    "DISCREPANCIES",
    "TOPICS",
    "Discrepancy",
    "DiscrepancyKind",
    "Reading",
    "find_discrepancies",
    "get_discrepancy",
]


class DiscrepancyKind(enum.Enum):
    """What sort of difference a register entry records."""

    RULE = "rule"
    """The texts give different rules: play or score changes."""
    WORDING = "wording"
    """The same rule in different words (component names included)."""
    SLIP = "slip"
    """A text contradicts itself or the other texts by mistake."""
    AMBIGUITY = "ambiguity"
    """A text allows more than one reading, or leaves a case open."""


TOPICS: Final[tuple[str, ...]] = (
    "metadata",
    "setup",
    "components",
    "turn order",
    "bidding",
    "ties",
    "zero bids",
    "award and secrecy",
    "scoring tables",
    "scoring order",
    "elimination",
    "tie-breaks",
    "3-player",
    "5-player",
    "end of game",
    "vocabulary",
)
"""The topics of the register, roughly in the order of a game."""

_ID_PATTERN: Final = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def _reading_tuple(value: Iterable[Reading]) -> tuple[Reading, ...]:
    return tuple(value)


def _check_source(instance: Reading, attribute: attrs.Attribute[str], value: str) -> None:
    if value not in SOURCES:
        allowed = ", ".join(SOURCES)
        raise InvalidArgument(f"unknown source {value!r}; sources are {allowed}")


@attrs.frozen
class Reading:
    """What one text says on a discrepancy's topic: a paraphrase with its section.

    >>> print(Reading("de", "Sonderregeln/3-Spieler", "A tie gives the tile to nobody."))
    de §Sonderregeln/3-Spieler: A tie gives the tile to nobody.
    """

    source: str = attrs.field(validator=_check_source)
    """A source id of :data:`qe_rules.rulesets.SOURCES`."""
    section: str = attrs.field(validator=check_text)
    """The section of that text, named as in the rule sets' citations."""
    says: str = attrs.field(validator=check_text)
    """A paraphrase of the text, or ``"silent: ..."`` when it says nothing."""

    def __str__(self) -> str:
        return f"{self.source} §{self.section}: {self.says}"


def _check_id(instance: Discrepancy, attribute: attrs.Attribute[str], value: str) -> None:
    if not isinstance(value, str) or not _ID_PATTERN.fullmatch(value):
        raise InvalidArgument(f"a discrepancy id is kebab-case, got {value!r}")


def _check_topic(instance: Discrepancy, attribute: attrs.Attribute[str], value: str) -> None:
    if value not in TOPICS:
        raise InvalidArgument(f"unknown topic {value!r}; topics are {', '.join(TOPICS)}")


def _check_readings(
    instance: Discrepancy,
    attribute: attrs.Attribute[tuple[Reading, ...]],
    value: tuple[Reading, ...],
) -> None:
    if not value:
        raise InvalidArgument("a discrepancy needs at least one reading")
    if any(not isinstance(r, Reading) for r in value):
        raise InvalidArgument("readings must be Reading objects")


@attrs.frozen
class Discrepancy:
    """One difference between the QE texts, with what each says and how it is resolved."""

    id: str = attrs.field(validator=_check_id)
    """A stable kebab-case id, e.g. ``"secret-bid-equal-to-opening"``."""
    topic: str = attrs.field(validator=_check_topic)
    """One of :data:`TOPICS`."""
    kind: DiscrepancyKind = attrs.field(validator=attrs.validators.instance_of(DiscrepancyKind))
    """Rule, wording, slip or ambiguity."""
    summary: str = attrs.field(validator=check_text)
    """The difference in one line."""
    readings: tuple[Reading, ...] = attrs.field(converter=_reading_tuple, validator=_check_readings)
    """What each relevant text says."""
    resolution: str = attrs.field(validator=check_text)
    """How the built-in rule sets handle it."""
    fields: tuple[str, ...] = attrs.field(default=(), converter=text_tuple)
    """The ``RuleSet`` rule fields that encode it."""
    interpretations: tuple[str, ...] = attrs.field(default=(), converter=text_tuple)
    """The interpretation codes of the built-in rule sets that settle it."""

    @property
    def sources(self) -> tuple[str, ...]:
        """The source ids of the readings, each once, in reading order."""
        return tuple(dict.fromkeys(r.source for r in self.readings))

    def to_dict(self) -> dict[str, Any]:
        """The entry as JSON types."""
        return {
            "id": self.id,
            "topic": self.topic,
            "kind": self.kind.value,
            "summary": self.summary,
            "readings": [
                {"source": r.source, "section": r.section, "says": r.says} for r in self.readings
            ],
            "resolution": self.resolution,
            "fields": list(self.fields),
            "interpretations": list(self.interpretations),
        }


_R, _W, _S, _A = (
    DiscrepancyKind.RULE,
    DiscrepancyKind.WORDING,
    DiscrepancyKind.SLIP,
    DiscrepancyKind.AMBIGUITY,
)

DISCREPANCIES: Final[tuple[Discrepancy, ...]] = (
    # ------------------------------------------------------------------ metadata
    Discrepancy(
        "playing-time",
        "metadata",
        _W,
        "The stated playing time is 30 minutes in en and de-summary, 45 in en-early; de "
        "states none.",
        (
            Reading("en", "Stats", "Three to five players, half an hour."),
            Reading("en-early", "Components", "Three to five players, three quarters of an hour."),
            Reading("de", "Spielmaterial", "silent: the extracted text gives no playing time."),
            Reading(
                "de-summary",
                "Die Fakten im Überblick",
                "Half an hour, from age 10, first published in 2022.",
            ),
        ),
        "No rule changes: the playing time is box information, not a rule. The player "
        "count, on which all four texts agree, is the rule field player_counts.",
    ),
    # ------------------------------------------------------------------ setup
    Discrepancy(
        "setup-nation-and-first-auctioneer",
        "setup",
        _R,
        "en-early deals nations at random and lets the table pick the first auctioneer; the "
        "other texts leave nations open and start with whoever was last in a bank.",
        (
            Reading(
                "en",
                "Setup 1",
                "Each player receives one nation's bid tile and score board; how the nations "
                "are chosen is not said.",
            ),
            Reading(
                "en",
                "Setup 5",
                "Whoever went to a bank most recently auctions first and keeps the "
                "first-auctioneer token for the rest of the game.",
            ),
            Reading(
                "en-early",
                "Setup",
                "Nations are handed out at random; the players agree on who auctions first.",
            ),
            Reading(
                "de",
                "Spielaufbau",
                "No method for the nations; the player most recently in a bank auctions first "
                "and takes the Startspielermarker.",
            ),
            Reading("de-summary", "Spielvorbereitung", "As de."),
        ),
        "nation_assignment (unspecified or random) and first_auctioneer (bank visit or "
        "table choice) record what each text says. Both are advice to the table: the engine "
        "accepts any nation assignment and any first seat under every rule set.",
        fields=("nation_assignment", "first_auctioneer"),
    ),
    Discrepancy(
        "early-owner-sees-token",
        "setup",
        _A,
        "en-early deals the industry tokens face down and keeps them hidden, but never says "
        "that a player may look at their own; the other three texts say so.",
        (
            Reading(
                "en",
                "Setup 2",
                "Each player looks at the token dealt to them and hides it from the others.",
            ),
            Reading(
                "en-early",
                "Setup",
                "Tokens are dealt face down and stay hidden; whether the owner may look is not "
                "stated.",
            ),
            Reading(
                "de",
                "Spielaufbau",
                "A player may look at their own Spartenplättchen and should keep it secret.",
            ),
            Reading(
                "de-summary",
                "Spielvorbereitung",
                "Everyone may look at their own token and at no other.",
            ),
        ),
        "en-early is read like the other texts: the owner knows their token, nobody else "
        "does until the final scoring. No rule field separates the texts here; "
        "industries_in_play only lists the tokens that are dealt.",
        fields=("industries_in_play",),
        interpretations=("early-owner-knows-token",),
    ),
    # ------------------------------------------------------------------ components
    Discrepancy(
        "en-industry-tiles-vs-tokens",
        "components",
        _W,
        "en names the five industry pieces 'Industry Tokens' everywhere except its "
        "final-scoring introduction, which calls them 'Industry Tiles'.",
        (
            Reading(
                "en",
                "Contents",
                "Five 'Industry Tokens'; setup and the scoring notes use the same name.",
            ),
            Reading(
                "en",
                "Final scoring",
                "The introduction lets company tiles and 'Industry Tiles' each count once per "
                "category.",
            ),
        ),
        "No rule changes: the 'Industry Tiles' of that sentence are the industry tokens, "
        "which count where token_categories says (monopolization and diversification).",
        fields=("token_categories",),
    ),
    Discrepancy(
        "early-component-names",
        "components",
        _W,
        "en-early's component list says 'Auction Tiles' and 'Industry Tiles' where its rules "
        "speak of Company tiles and Industry tokens.",
        (
            Reading(
                "en-early",
                "Components",
                "21 'Auction Tiles', 5 'Industry Tiles', bid tiles, player boards, markers and "
                "the rulebook; as extracted, the list lacks the first-auctioneer token that "
                "setup hands out.",
            ),
            Reading(
                "en-early",
                "Setup",
                "Speaks of Company tiles, Industry tokens, Bid tiles and Player boards.",
            ),
            Reading(
                "en",
                "Contents",
                "21 Company Tiles, 5 Industry Tokens, Player Score Boards and a First "
                "Auctioneer Token.",
            ),
        ),
        "No rule changes: the 'Auction Tiles' are the 21 company tiles and the 'Industry "
        "Tiles' the five industry tokens. The glossary lists both names as variants.",
    ),
    Discrepancy(
        "de-industrieplaettchen",
        "components",
        _S,
        "de calls the industry token 'Spartenplättchen' except in its scoring introduction, "
        "which says 'Industrieplättchen', a word that reads like a Manufacturing tile.",
        (
            Reading(
                "de",
                "Spielmaterial",
                "Five 'Spartenplättchen'; setup and the scoring notes keep that name.",
            ),
            Reading(
                "de",
                "Schlusswertung",
                "The introduction lets company tiles and 'Industrieplättchen' count once in "
                "each category.",
            ),
            Reading(
                "de-summary",
                "Ermittlung der Siegpunkte",
                "Repeats 'Industrieplättchen' in its scoring introduction after calling the "
                "pieces 'Spartenplättchen' in its contents and setup.",
            ),
            Reading(
                "en",
                "Final scoring",
                "Has 'Industry Tiles' at the same place, which the German word appears to "
                "render literally.",
            ),
        ),
        "Read as the industry token in de and de-summary; it counts where token_categories "
        "says. In these texts 'Industrie' is the Manufacturing industry and tiles are named "
        "'<industry>plättchen' (e.g. 'Landwirtschaftsplättchen'), so the glossary flags the "
        "word as a false friend.",
        fields=("token_categories",),
    ),
    Discrepancy(
        "start-player-marker-name",
        "components",
        _W,
        "The first-auctioneer token is the 'Startspielermarker' in de and the "
        "'Startspielmarker' in de-summary; both call its holder the 'Startspieler'.",
        (
            Reading(
                "en",
                "Setup 5",
                "A First Auctioneer Token stays with the first auctioneer and only shows when "
                "a new round starts.",
            ),
            Reading(
                "de",
                "Spielaufbau",
                "The first auctioneer takes the 'Startspielermarker' for the whole game; the "
                "zero-bid phase calls that player the 'Startspieler'.",
            ),
            Reading(
                "de-summary",
                "Spielvorbereitung",
                "Contents and setup write 'Startspielmarker'; the zero-bid phase also says "
                "'Startspieler'.",
            ),
        ),
        "No rule changes: both words name the first-auctioneer token, whose holder starts "
        "every round.",
    ),
    # ------------------------------------------------------------------ turn order
    Discrepancy(
        "left-vs-clockwise",
        "turn order",
        _W,
        "en, de and de-summary pass the auctioneer role to the left; en-early says clockwise.",
        (
            Reading(
                "en",
                "Gameplay/5. End of the sale",
                "The player on the auctioneer's left runs the next sale.",
            ),
            Reading(
                "en-early",
                "Gameplay/5. End of the Sale",
                "The role moves one seat clockwise.",
            ),
            Reading(
                "de",
                "Spielablauf/5. Ende einer Versteigerung",
                "The player 'links' (to the left) of the auctioneer is next.",
            ),
            Reading(
                "de-summary",
                "Der Spielablauf/Ende einer Versteigerung",
                "The player 'zu seiner Linken' takes over the role.",
            ),
        ),
        "No rule changes: around a table seen from above, the neighbour on a player's left "
        "is the next seat clockwise.",
    ),
    # ------------------------------------------------------------------ bidding
    Discrepancy(
        "secret-bid-equal-to-opening",
        "bidding",
        _R,
        "en, de and de-summary forbid a secret bid equal to the auctioneer's opening bid; "
        "en-early allows it.",
        (
            Reading(
                "en",
                "Gameplay/2. Secret bids",
                "Zero or any positive whole number, except the amount the auctioneer opened with.",
            ),
            Reading(
                "en-early",
                "Gameplay/2. Secret Bids",
                "Any whole number from zero up; the text makes no exception for the "
                "auctioneer's amount.",
            ),
            Reading(
                "de",
                "Spielablauf/2. Geheime Gebote",
                "Zero or a positive whole number that differs from the auctioneer's bid.",
            ),
            Reading(
                "de-summary",
                "Der Spielablauf/Geheime Gebote",
                "As de: the amount must differ from the auctioneer's.",
            ),
        ),
        "secret_bid_may_equal_opening is False for en, de and de-summary and True for "
        "en-early, where the auctioneer can therefore be tied (see early-tied-auctioneer).",
        fields=("secret_bid_may_equal_opening",),
        interpretations=("early-tied-auctioneer-rebids",),
    ),
    Discrepancy(
        "early-rebid-vs-opening",
        "bidding",
        _R,
        "In en-early a first secret bid may match the auctioneer's bid but a rebid may not; "
        "in the other texts a single rule forbids both.",
        (
            Reading(
                "en-early",
                "Equal bids",
                "A rebid replaces the earlier bid and may be any amount but the auctioneer's.",
            ),
            Reading(
                "en-early",
                "Gameplay/2. Secret Bids",
                "First secret bids have no such exception.",
            ),
            Reading(
                "en",
                "Special rules/Tied auction",
                "Rebids obey the ordinary bidding rules, so the ban on the opening amount "
                "carries over.",
            ),
            Reading(
                "de",
                "Sonderregeln/Unentschieden Auktion",
                "Rebids follow the ordinary rules, as in en.",
            ),
        ),
        "rebid_may_equal_opening is False in all four rule sets, while "
        "secret_bid_may_equal_opening is True only for en-early; early-tied-auctioneer-rebids "
        "spells out that combination.",
        fields=("rebid_may_equal_opening", "secret_bid_may_equal_opening"),
        interpretations=("early-tied-auctioneer-rebids",),
    ),
    # ------------------------------------------------------------------ ties
    Discrepancy(
        "early-tied-auctioneer",
        "ties",
        _A,
        "Because en-early lets a secret bid match the opening bid, the auctioneer can be "
        "part of a tie, and the text does not say how the auctioneer then rebids.",
        (
            Reading(
                "en-early",
                "Equal bids",
                "Players with equal winning bids rebid and no rebid may match the auctioneer's "
                "bid; whether a tied auctioneer rebids, whether that rebid may be zero, and "
                "which amount is 'the auctioneer's bid' afterwards are left open.",
            ),
            Reading(
                "en-early",
                "Gameplay/1. Opening Bid",
                "The auctioneer bids a whole number and never zero.",
            ),
            Reading(
                "en",
                "Special rules/Tied auction",
                "The case cannot arise: no secret bid may match the auctioneer's, so the "
                "auctioneer is never among the tied.",
            ),
        ),
        "en-early (early-tied-auctioneer-rebids): a tied auctioneer rebids like the other "
        "tied players, at least the smallest opening bid, and no rebid may equal the "
        "auctioneer's opening bid. rebidders is 'tied' in every rule set.",
        fields=("rebidders", "rebid_may_equal_opening"),
        interpretations=("early-tied-auctioneer-rebids",),
    ),
    Discrepancy(
        "summary-rebid-rules",
        "ties",
        _A,
        "de-summary lets tied players write a new bid that need not beat 'the last' one, but "
        "does not say that rebids follow the ordinary bidding rules.",
        (
            Reading(
                "de-summary",
                "Sonderregeln bei QE/Unentschieden bei einer Auktion",
                "Tied players bid again, without having to go above their previous bid; "
                "nothing on zero or on the auctioneer's amount.",
            ),
            Reading(
                "de",
                "Sonderregeln/Unentschieden Auktion",
                "Rebids follow the ordinary rules and need not exceed the first bid.",
            ),
            Reading("en", "Special rules/Tied auction", "As de."),
        ),
        "de-summary is read like de (summary-slips-follow-de): rebid_may_equal_opening is "
        "False, and a rebid may be zero like any secret bid.",
        fields=("rebid_may_equal_opening",),
        interpretations=("summary-slips-follow-de",),
    ),
    Discrepancy(
        "tie-fallback",
        "ties",
        _R,
        "After three ties in a row en, de and de-summary let the highest bid that nobody "
        "matched win; en-early lets the highest amount bid only once in the whole sale win.",
        (
            Reading(
                "en",
                "Special rules/Tied auction",
                "At the third tie running, the highest bid without an equal wins.",
            ),
            Reading(
                "en-early",
                "Equal bids",
                "At the third tie running, the highest amount that exactly one bid of the "
                "sale named wins; which bids take part (replaced ones, the opening bid) and "
                "what happens when no amount is unique are not said.",
            ),
            Reading(
                "de",
                "Sonderregeln/Unentschieden Auktion",
                "At the third tie running, the highest bid involved in no tie wins.",
            ),
            Reading(
                "de-summary",
                "Sonderregeln bei QE/Unentschieden bei einer Auktion",
                "At the third tie running, the highest bid outside 'the' tie wins.",
            ),
        ),
        "tie_fallback is 'highest-untied' for en, de and de-summary and "
        "'highest-unique-in-sale' for en-early. en-early counts every bid made in the sale, "
        "in any bidding round, and sells nothing when no amount is unique (early-unique-bid); "
        "de-summary excludes bids in any tie (summary-untied-bid).",
        fields=("tie_fallback",),
        interpretations=("early-unique-bid", "summary-untied-bid"),
    ),
    Discrepancy(
        "tie-count-three-in-a-row",
        "ties",
        _A,
        "'Three times in a row' may count the comparison of the first bids as the first tie "
        "(two rounds of rebids) or only ties among rebids (three rounds).",
        (
            Reading(
                "en",
                "Special rules/Tied auction",
                "The fallback applies at a third consecutive tie; whether the first bids count "
                "is not said.",
            ),
            Reading(
                "en-early",
                "Equal bids",
                "Speaks of equal winning bids being handed in three times running, which fits "
                "counting the first bids.",
            ),
            Reading(
                "de",
                "Sonderregeln/Unentschieden Auktion",
                "'dreimal in Folge'; the same question.",
            ),
            Reading(
                "de-summary",
                "Sonderregeln bei QE/Unentschieden bei einer Auktion",
                "'dreimal in Folge'; the same question.",
            ),
        ),
        "Every rule set counts the tie of the first bids as the first one "
        "(first-bids-count-as-first-tie): ties_before_fallback is 3, so at most two rounds of "
        "rebids come before the fallback.",
        fields=("ties_before_fallback",),
        interpretations=("first-bids-count-as-first-tie",),
    ),
    Discrepancy(
        "summary-fallback-the-tie",
        "ties",
        _A,
        "de-summary's fallback excludes bids in 'the' tie, which may mean only the tie for "
        "first place or any tie among the standing bids.",
        (
            Reading(
                "de-summary",
                "Sonderregeln bei QE/Unentschieden bei einer Auktion",
                "The winner is the highest bid that had no part in 'dem Gleichstand' (the "
                "tie), with a definite article and in the past tense.",
            ),
            Reading(
                "de",
                "Sonderregeln/Unentschieden Auktion",
                "The winner is the highest bid not caught in 'einen Gleichstand' (a tie), so "
                "two equal lower bids are out as well.",
            ),
        ),
        "Read like de (summary-untied-bid): the winning bid must not equal any other standing bid.",
        fields=("tie_fallback",),
        interpretations=("summary-untied-bid",),
    ),
    # ------------------------------------------------------------------ award and secrecy
    Discrepancy(
        "rebid-visibility",
        "award and secrecy",
        _A,
        "No text says who collects the rebids or who may see them.",
        (
            Reading(
                "en",
                "Gameplay/3. Award the company tile",
                "All bid tiles go to the auctioneer, who looks at them and names the highest bidder.",
            ),
            Reading(
                "en",
                "Special rules/Tied auction",
                "Tied players rebid and all bids are compared again; the handling of the "
                "rebid tiles is not described.",
            ),
            Reading(
                "en-early",
                "Equal bids",
                "Rebids replace earlier bids and everything is evaluated again; the same gap.",
            ),
            Reading(
                "de",
                "Sonderregeln/Unentschieden Auktion",
                "The tied players bid once more and all bids are compared again; the same gap.",
            ),
        ),
        "Every rule set (auctioneer-sees-closed-rounds): the auctioneer sees a bidding "
        "round's bids once all of that round's bids are in, for rebids as for first bids.",
        fields=("auctioneer_sees_all_bids",),
        interpretations=("auctioneer-sees-closed-rounds",),
    ),
    Discrepancy(
        "summary-auctioneer-looks-at-company-tiles",
        "award and secrecy",
        _S,
        "de-summary has the auctioneer look at all 'Unternehmensplättchen' (company tiles) "
        "in the award phase, where the bid tiles are meant, and claims nobody knows the "
        "winning amount.",
        (
            Reading(
                "de-summary",
                "Der Spielablauf/Vergabe des Unternehmensplättchens",
                "The auctioneer looks at all company tiles and names the highest bidder; the "
                "tile lies face up so that nobody learns the amount, yet owners may check "
                "their own tiles at any time.",
            ),
            Reading(
                "de",
                "Spielablauf/3. Vergabe des Unternehmensplättchens",
                "The auctioneer looks at all 'Gebotstafeln' (bid tiles), names the highest "
                "bidder and writes the amount hidden on the back of the tile.",
            ),
            Reading(
                "en",
                "Gameplay/3. Award the company tile",
                "All bid tiles are looked at by the auctioneer.",
            ),
        ),
        "Corrected to the bid tiles, as in de: auctioneer_sees_all_bids is True, and the "
        "amount stays hidden from the other players unless the auctioneer wins "
        "(auctioneer_win_public).",
        fields=("auctioneer_sees_all_bids", "auctioneer_win_public"),
    ),
    Discrepancy(
        "scoring-is-public",
        "award and secrecy",
        _A,
        "The texts keep tokens face down and amounts hidden during play but never say "
        "whether the final count happens in the open.",
        (
            Reading(
                "en",
                "Final scoring/Total spent",
                "Everyone adds up the amounts on their tile backs; the largest total is out "
                "and the smallest earns a bonus, which needs the totals compared, but no "
                "reveal is described.",
            ),
            Reading(
                "en-early",
                "Final Scoring/1. Bid",
                "Lowest and highest totals are compared; no reveal is described.",
            ),
            Reading("de", "Schlusswertung/Gesamtausgaben", "As en."),
            Reading("de-summary", "Ermittlung der Siegpunkte/Gesamtausgaben", "As en."),
        ),
        "Every rule set (scoring-is-public): at the end each player's tiles, token, spend and "
        "scores are public.",
        fields=("scoring_order",),
        interpretations=("scoring-is-public",),
    ),
    # ------------------------------------------------------------------ zero bids
    Discrepancy(
        "summary-zero-bids-without-limit",
        "zero bids",
        _S,
        "de-summary's scoring section pays 2 VP for every zero bid, dropping the "
        "once-per-round limit that its own phase description states.",
        (
            Reading(
                "de-summary",
                "Ermittlung der Siegpunkte/Kategorie Null-Gebote",
                "Each zero bid is worth 2 points; no limit is mentioned.",
            ),
            Reading(
                "de-summary",
                "Der Spielablauf/Null-Gebote und SP eintragen",
                "The 2 points can be earned only once per round (this paragraph also leaves "
                "out that the auctioneer reveals the zero bids).",
            ),
            Reading(
                "de",
                "Schlusswertung/Null-Gebote",
                "2 SP per zero bid, at most once per round.",
            ),
            Reading("en", "Final scoring/Zero bids", "2 VP per zero bid, at most once per round."),
        ),
        "zero_bid_limit_per_round is 1 for de-summary as for the other rule sets "
        "(summary-slips-follow-de).",
        fields=("zero_bid_limit_per_round",),
        interpretations=("summary-slips-follow-de",),
    ),
    Discrepancy(
        "zero-bid-standing-or-unsold",
        "zero bids",
        _A,
        "No text says whether a zero rebid counts as a zero bid, or whether zero bids score "
        "in a sale where nobody gets the tile.",
        (
            Reading(
                "en",
                "Gameplay/4. Reveal zero bids and record VP",
                "After the award the auctioneer reveals the zero bids; which bid counts in a "
                "sale with rebids is not said.",
            ),
            Reading(
                "en-early",
                "Gameplay/4. Reveal zero bids and record VP",
                "The same phase; en-early's fallback can end a sale with no unique amount, and "
                "the text does not say whether zero bids still score then.",
            ),
            Reading(
                "de",
                "Spielablauf/4. Null-Gebote und SP eintragen",
                "Players who bid zero score; the same questions.",
            ),
        ),
        "Every rule set (zero-bid-is-standing-bid): a zero bid counts when it is the "
        "player's standing bid as the sale ends, a zero rebid included; the interpretation "
        "makes no exception for a sale that awards nothing.",
        fields=("zero_bid_points",),
        interpretations=("zero-bid-is-standing-bid",),
    ),
    # ------------------------------------------------------------------ scoring tables
    Discrepancy(
        "diversification-tables",
        "scoring tables",
        _R,
        "Diversification pays 4/8 VP (3-4 players) and 8/12/17 VP (5 players) in en, de and "
        "de-summary, but 6/10 and 10/15/21 VP in en-early.",
        (
            Reading(
                "en",
                "Final scoring/Diversification",
                "3-4 players: 4 VP for a set of three industries, 8 for four. 5 players: 8, 12 "
                "and 17 VP for three, four and five.",
            ),
            Reading(
                "en-early",
                "Final Scoring/6. Diversification",
                "3-4 players: 6 VP for three, 10 for four. 5 players: 10 for three, then 15 "
                "and 21 (see early-diversification-typo).",
            ),
            Reading("de", "Schlusswertung/Diversifikation", "As en."),
            Reading("de-summary", "Ermittlung der Siegpunkte/Kategorie Diversifikation", "As en."),
        ),
        "diversification holds each text's table; en-early's 5-player row is 10/15/21 VP for "
        "3/4/5 industries (early-diversification-five).",
        fields=("diversification",),
        interpretations=("early-diversification-five",),
    ),
    Discrepancy(
        "early-diversification-typo",
        "scoring tables",
        _S,
        "en-early's 5-player diversification line gives both 15 VP and 21 VP 'for 5' "
        "industries, and nothing for four.",
        (
            Reading(
                "en-early",
                "Final Scoring/6. Diversification",
                "10 VP for three industries, then 15 VP for five and 21 VP for five.",
            ),
            Reading(
                "en",
                "Final scoring/Diversification",
                "The matching en row rises with every industry added: 8, 12, 17 for three, "
                "four, five.",
            ),
        ),
        "Corrected in en-early to 15 VP for four and 21 VP for five "
        "(early-diversification-five): one set size cannot score two values, and a table "
        "may not skip a count.",
        fields=("diversification",),
        interpretations=("early-diversification-five",),
    ),
    Discrepancy(
        "monopolization-beyond-table",
        "scoring tables",
        _A,
        "With 3-4 players one player can hold five pieces of an industry (its four tiles "
        "plus the token), but every monopolization table stops at four.",
        (
            Reading(
                "en",
                "Final scoring/Monopolization",
                "3-4 players: 3, 6, 10 VP for two, three, four of an industry, the token "
                "included; five is not covered.",
            ),
            Reading(
                "en-early",
                "Final Scoring/5. Monopolization",
                "The same table and token note.",
            ),
            Reading("de", "Schlusswertung/Monopolisierung", "As en."),
            Reading(
                "de-summary",
                "Ermittlung der Siegpunkte/Kategorie Monopolisierung",
                "The same table; the token is not mentioned (see summary-token-in-scoring).",
            ),
        ),
        "Every rule set scores the last entry, 10 VP, and reports the gap "
        "'monopolization-beyond-table' (beyond-table-scores-last-entry; beyond_table is "
        "'cap'). With 5 players each industry has three tiles, so four is the most and the "
        "table suffices.",
        fields=("beyond_table", "monopolization"),
        interpretations=("beyond-table-scores-last-entry",),
    ),
    Discrepancy(
        "diversification-set-partition",
        "scoring tables",
        _A,
        "Several diversification sets may score, but no text says how a player's pieces are "
        "split into sets when different splits score differently.",
        (
            Reading(
                "en",
                "Final scoring/Diversification",
                "Each set of distinct industries scores, several sets may score, and a piece "
                "counts once per category; forming the sets is left to the player.",
            ),
            Reading(
                "en-early",
                "Final Scoring/6. Diversification",
                "Several sets may score; how to form them is not said.",
            ),
            Reading(
                "de",
                "Schlusswertung/Diversifikation",
                "Several sets may score; each piece once per category.",
            ),
            Reading(
                "de-summary",
                "Ermittlung der Siegpunkte/Kategorie Diversifikation",
                "Each set scores; nothing on how to form the sets.",
            ),
        ),
        "The scorer takes the split that scores most, by an exact search over all splits, "
        "in every rule set; the pieces are the tiles plus the token where token_categories "
        "includes diversification. Example, 3-4 players and four industries held 2, 2, 2 "
        "and 1 times: a set of four plus a set of three scores 12, two sets of three only 8.",
        fields=("diversification", "token_categories"),
        interpretations=("diversification-best-partition",),
    ),
    Discrepancy(
        "summary-nationalization-a-nation",
        "scoring tables",
        _S,
        "de-summary pays nationalization for tiles that belong to 'einer Nation' (a nation) "
        "rather than to the player's own nation.",
        (
            Reading(
                "de-summary",
                "Ermittlung der Siegpunkte/Kategorie Nationalisierung",
                "Points for company tiles belonging to a nation, then a table for 'passende' "
                "(matching) companies without saying what they match.",
            ),
            Reading(
                "de",
                "Schlusswertung/Nationalisierung",
                "Points for the company tiles that match your own nation.",
            ),
            Reading(
                "en",
                "Final scoring/Nationalization",
                "Points for tiles of the player's nation.",
            ),
        ),
        "Read like de (summary-slips-follow-de): only tiles of the player's own nation count. "
        "Taken literally, the page could also mean the tiles of any one nation.",
        fields=("nationalization",),
        interpretations=("summary-slips-follow-de",),
    ),
    Discrepancy(
        "summary-tiles-at-least-once",
        "scoring tables",
        _S,
        "de-summary lets every tile count in each category 'mindestens einmal' (at least "
        "once), where de allows only once per category.",
        (
            Reading(
                "de-summary",
                "Ermittlung der Siegpunkte",
                "Each company tile and 'Industrieplättchen' may score in all categories at "
                "least once.",
            ),
            Reading(
                "de",
                "Schlusswertung",
                "Each piece scores in every category, but never twice in the same one.",
            ),
            Reading("en", "Final scoring", "As de."),
        ),
        "Read like de (summary-slips-follow-de): a piece counts at most once per category, so "
        "it cannot sit in two diversification sets; 'at least once' would let one tile fill "
        "several sets.",
        fields=("diversification",),
        interpretations=("summary-slips-follow-de",),
    ),
    Discrepancy(
        "summary-token-in-scoring",
        "scoring tables",
        _A,
        "de-summary's monopolization and diversification paragraphs count only company "
        "tiles and drop de's note on the face-down token; only its scoring introduction "
        "names the token, as 'Industrieplättchen'.",
        (
            Reading(
                "de-summary",
                "Ermittlung der Siegpunkte/Kategorie Monopolisierung",
                "Counts company tiles of the same Sparte; no word about the token.",
            ),
            Reading(
                "de-summary",
                "Ermittlung der Siegpunkte/Kategorie Diversifikation",
                "Counts sets of company tiles of different Sparten; no word about the token.",
            ),
            Reading(
                "de-summary",
                "Ermittlung der Siegpunkte",
                "The introduction lets company tiles and 'Industrieplättchen' score in all "
                "categories.",
            ),
            Reading(
                "de",
                "Schlusswertung/Monopolisierung",
                "A note adds the face-down Spartenplättchen to monopolization and, in a second "
                "note, to diversification.",
            ),
        ),
        "The token counts in monopolization and diversification for de-summary too "
        "(token_categories; summary-slips-follow-de). The page's scoring introduction names "
        "it among the pieces that score, the page deals and hides the tokens at setup with no "
        "other use for them, and it summarises de, whose notes include it. So the page is "
        "terse here rather than silent.",
        fields=("token_categories",),
        interpretations=("summary-slips-follow-de",),
    ),
    # ------------------------------------------------------------------ scoring order
    Discrepancy(
        "scoring-order",
        "scoring order",
        _R,
        "en-early scores the spending category ('Bid') first and has no subtotal; en, de and "
        "de-summary score it last, after a subtotal.",
        (
            Reading(
                "en",
                "Final scoring",
                "Companies, zero bids, nationalization, monopolization, diversification, "
                "subtotal, total spent, grand total.",
            ),
            Reading(
                "en-early",
                "Final Scoring",
                "Six numbered categories: '1. Bid' (spending) and then companies, zero bids, "
                "nationalization, monopolization, diversification; no subtotal or grand total.",
            ),
            Reading(
                "de",
                "Schlusswertung",
                "The order of en; the extraction scrambles the headings, and the scoring "
                "example confirms it.",
            ),
            Reading("de-summary", "Ermittlung der Siegpunkte", "The order of en."),
        ),
        "scoring_order puts the spending category first for en-early and last for the "
        "others. The totals do not depend on it; the order shapes the score sheet and when "
        "the eliminations are known.",
        fields=("scoring_order",),
    ),
    # ------------------------------------------------------------------ elimination
    Discrepancy(
        "summary-elimination-in-a-round",
        "elimination",
        _S,
        "de-summary's introduction excludes whoever spent most 'in einer Runde' (in a "
        "round); its scoring section and de use the spending of the whole game.",
        (
            Reading(
                "de-summary",
                "Die Idee des Spiels",
                "The biggest spender of a round is left out when the winner is found.",
            ),
            Reading(
                "de-summary",
                "Ermittlung der Siegpunkte/Gesamtausgaben",
                "Each player adds up all their winning bids; the largest sum is out.",
            ),
            Reading(
                "de",
                "Spielidee",
                "The biggest spender over the course of the game drops out at the final scoring.",
            ),
        ),
        "Read like de and the page's own scoring section (summary-slips-follow-de): "
        "eliminate_highest_spender compares totals over the game. The page uses 'Runde' "
        "loosely elsewhere too (see runde-auktion-turn).",
        fields=("eliminate_highest_spender",),
        interpretations=("summary-slips-follow-de",),
    ),
    Discrepancy(
        "early-highest-bid-vs-total",
        "elimination",
        _A,
        "en-early's spending category eliminates whoever has 'the highest bid', which could "
        "mean a single largest bid; its Winner section speaks of the highest total.",
        (
            Reading(
                "en-early",
                "Final Scoring/1. Bid",
                "The lowest total earns the bonus, and elimination goes to 'the highest bid'.",
            ),
            Reading(
                "en-early",
                "Winner",
                "Whoever bid the highest total cannot win; ties take out every tied player.",
            ),
            Reading(
                "en",
                "Final scoring/Total spent",
                "The largest total spent is eliminated.",
            ),
        ),
        "Read as the highest total spend, as in the Winner section "
        "(early-elimination-by-total); eliminate_highest_spender is True in every rule set.",
        fields=("eliminate_highest_spender",),
        interpretations=("early-elimination-by-total",),
    ),
    # ------------------------------------------------------------------ tie-breaks
    Discrepancy(
        "no-winner",
        "tie-breaks",
        _A,
        "No text names a winner when every player ties for the highest spend, or when players "
        "tie on points and on spend.",
        (
            Reading(
                "en",
                "Special rules/Tied game",
                "A tie on points goes to the tied player who spent least; nothing beyond that.",
            ),
            Reading(
                "en",
                "Final scoring/Total spent",
                "Everyone sharing the top spend is out, even if that is every player.",
            ),
            Reading("en-early", "Winner", "The same two rules."),
            Reading(
                "de",
                "Sonderregeln/Unentschieden Schlusswertung",
                "The same tie-break, nothing beyond it.",
            ),
            Reading(
                "de-summary",
                "Sonderregeln bei QE/Gleichstand bei der Schlusswertung",
                "The same tie-break, nothing beyond it.",
            ),
        ),
        "Every rule set (no-winner-stays-open): the result says that no winner is named, "
        "with the gap 'everyone-eliminated' or 'tie-after-tiebreak', instead of choosing one.",
        fields=("eliminate_all_tied_highest", "final_tiebreak"),
        interpretations=("no-winner-stays-open",),
    ),
    # ------------------------------------------------------------------ 3-player
    Discrepancy(
        "three-player-last-tile",
        "3-player",
        _A,
        "The last tile of a 3-player game has no auctioneer, and no text says who handles "
        "the bids or whether the winning amount is public.",
        (
            Reading(
                "en",
                "Special rules/3-player last tile rule",
                "No auctioneer for the final tile; all three bid secretly, the highest wins and "
                "a tie gives the tile to nobody; who looks at the bids is not said.",
            ),
            Reading(
                "en-early",
                "Special 3-Player Last Tile Rule",
                "The same, and the tile is turned face up before the bids.",
            ),
            Reading("de", "Sonderregeln/3-Spieler", "As en."),
            Reading("de-summary", "Sonderregeln bei QE/3 Spieler", "As en."),
        ),
        "Every rule set: last_tile_without_auctioneer is (3,), a tie at the top "
        "awards nothing (last_tile_tie_awards_nothing), and the winning amount is known only "
        "to its winner (last-tile-amount-private).",
        fields=("last_tile_without_auctioneer", "last_tile_tie_awards_nothing"),
        interpretations=("last-tile-amount-private",),
    ),
    # ------------------------------------------------------------------ 5-player
    Discrepancy(
        "early-no-peek",
        "5-player",
        _R,
        "en-early has no 5-player peek; en, de and de-summary let each player see one "
        "winning bid per game.",
        (
            Reading(
                "en",
                "Special rules/5-player one peek rule",
                "Once per game a player may ask to see an auction's winning bid, then crosses "
                "off the matching space on the score board.",
            ),
            Reading(
                "en-early",
                "(no such rule)",
                "silent: its special rules cover only ties and the 3-player last tile.",
            ),
            Reading(
                "de",
                "Sonderregeln/5-Spieler",
                "Once per game, even when not the auctioneer, a player may look at an "
                "auction's highest bid and marks 'Höchstgebot ansehen' on the board.",
            ),
            Reading(
                "de-summary",
                "Sonderregeln bei QE/5 Spieler",
                "Once per game; marking the score board is not mentioned.",
            ),
        ),
        "peek_player_counts is (5,) and peeks_per_player 1 for en, de and de-summary; "
        "en-early has neither (no player counts, 0 peeks).",
        fields=("peek_player_counts", "peeks_per_player"),
    ),
    Discrepancy(
        "peek-window",
        "5-player",
        _A,
        "No text says when a peek may be asked for, who may use it, or, since en says "
        "'winning bid' and de 'höchste Gebot', which amount it shows after a tie fallback.",
        (
            Reading(
                "en",
                "Special rules/5-player one peek rule",
                "Once per game a player may ask for a sale's winning amount; no timing and no "
                "limit on who asks.",
            ),
            Reading(
                "de",
                "Sonderregeln/5-Spieler",
                "Aimed at players who are not the auctioneer; it shows the highest bid of an "
                "auction; no timing.",
            ),
            Reading(
                "de",
                "Sonderregeln/Unentschieden Auktion",
                "After the third tie the winner is a bid below the tied highest ones, so "
                "highest and winning bid can differ.",
            ),
            Reading(
                "de-summary",
                "Sonderregeln bei QE/5 Spieler",
                "Also aimed at non-auctioneers and at the highest bid; no timing.",
            ),
        ),
        "en, de and de-summary (peek-window): a peek may be made from a sale's award until "
        "the next opening bid, by a player who is neither that sale's auctioneer nor its "
        "winner, while the amount written on the won tile is still secret; that winning "
        "amount is what the peek shows.",
        fields=("peek_player_counts",),
        interpretations=("peek-window",),
    ),
    # ------------------------------------------------------------------ end of game
    Discrepancy(
        "end-with-unsold-tile",
        "end of game",
        _A,
        "The game ends when every tile is 'awarded', yet a tied 3-player last tile, or an "
        "en-early sale with no unique amount, gives a tile to nobody.",
        (
            Reading(
                "en",
                "End of game",
                "Play stops when every company tile has gone to a player.",
            ),
            Reading(
                "en",
                "Gameplay/5. End of the sale",
                "Play goes back to phase 1 unless no company is left to put up for auction.",
            ),
            Reading(
                "en-early",
                "End of Game",
                "Over when all tiles are awarded; its tie fallback can leave a sale with no "
                "unique amount and says nothing about that case.",
            ),
            Reading(
                "de",
                "Spielende",
                "Over when all companies have been auctioned ('versteigert'), which also fits "
                "a tile nobody won.",
            ),
        ),
        "The game ends when the stack is empty; a tile nobody wins belongs to nobody and "
        "play goes on with the next tile, if any (last_tile_tie_awards_nothing; "
        "early-unique-bid).",
        fields=("last_tile_tie_awards_nothing", "tie_fallback"),
        interpretations=("early-unique-bid",),
    ),
    # ------------------------------------------------------------------ vocabulary
    Discrepancy(
        "sparte-vs-industrie",
        "vocabulary",
        _W,
        "German 'Sparte' is English 'Industry' (the five kinds of company), but German "
        "'Industrie' is one of them: Manufacturing.",
        (
            Reading(
                "en",
                "Setup 2",
                "Industry Tokens show Agriculture, Housing, Government, Finance or Manufacturing.",
            ),
            Reading(
                "de",
                "Spielaufbau",
                "The industries are Landwirtschaft, Wohnungsbau, Regierung, Finanzwirtschaft "
                "and Industrie; their pieces are 'Spartenplättchen' and scoring counts "
                "'Sparten'.",
            ),
            Reading(
                "de",
                "Wertungsbeispiel",
                "Two companies 'aus der Industrie' are two Manufacturing tiles.",
            ),
            Reading(
                "en",
                "Scoring example",
                "Three Financial and two Manufacturing companies.",
            ),
        ),
        "No rule changes. The glossary maps Sparte to Industry and Industrie to Manufacturing "
        "and warns about both.",
    ),
    Discrepancy(
        "runde-auktion-turn",
        "vocabulary",
        _W,
        "One tile's auction is a 'turn' or 'sale' in English and an 'Auktion' or "
        "'Versteigerung' in German; a round is every player auctioning once, but de-summary "
        "also says 'Runde' for one sale and for a game.",
        (
            Reading(
                "en",
                "Gameplay",
                "Counts 16 or 15 turns, one company per turn; phase 5 ends the sale.",
            ),
            Reading(
                "en",
                "Gameplay/4. Reveal zero bids and record VP",
                "A round is each player auctioning once; it starts whenever the first "
                "auctioneer auctions.",
            ),
            Reading(
                "en-early",
                "Gameplay",
                "Rounds are split into one turn per player; each turn puts one company up for "
                "sale.",
            ),
            Reading(
                "de",
                "Spielablauf",
                "16 or 15 'Auktionen'; phase 5 ends a 'Versteigerung'; 'Runde' as in en.",
            ),
            Reading(
                "de-summary",
                "Der Spielablauf/Vergabe des Unternehmensplättchens",
                "Calls the current sale 'dieser Runde'.",
            ),
            Reading(
                "de-summary",
                "Sonderregeln bei QE/5 Spieler",
                "Its reason for the peek says 'Runde' for a game of five players.",
            ),
        ),
        "No rule changes: the library says 'sale' for one tile's auction and 'round' for one "
        "pass of the auctioneer role around the table; zero_bid_limit_per_round counts "
        "rounds in that sense in every rule set.",
        fields=("zero_bid_limit_per_round",),
    ),
)
"""The register, grouped by topic."""

_BY_ID: Final[dict[str, Discrepancy]] = {d.id: d for d in DISCREPANCIES}
if len(_BY_ID) != len(DISCREPANCIES):  # pragma: no cover - a data error, caught by tests
    raise RuntimeError("discrepancy ids must be unique")


def _to_kind(kind: DiscrepancyKind | str) -> DiscrepancyKind:
    try:
        return DiscrepancyKind(kind.strip().lower() if isinstance(kind, str) else kind)
    except ValueError:
        allowed = ", ".join(repr(k.value) for k in DiscrepancyKind)
        raise InvalidArgument(f"unknown discrepancy kind {kind!r}; kinds are {allowed}") from None


def find_discrepancies(
    *,
    kind: DiscrepancyKind | str | None = None,
    source: str | None = None,
    topic: str | None = None,
) -> tuple[Discrepancy, ...]:
    """The register entries matching every filter given, in register order.

    ``kind`` is a :class:`DiscrepancyKind` or its value; ``source`` keeps entries with a
    reading from that text; ``topic`` is one of :data:`TOPICS`.

    >>> len(find_discrepancies()) == len(DISCREPANCIES)
    True
    >>> [d.id for d in find_discrepancies(topic="3-player")]
    ['three-player-last-tile']
    >>> find_discrepancies(kind="typo")
    Traceback (most recent call last):
    ...
    qe_rules.errors.InvalidArgument: unknown discrepancy kind 'typo'; kinds are 'rule', 'wording', 'slip', 'ambiguity'
    """
    for name, value, choices in (
        ("kind", kind, [k.value for k in DiscrepancyKind]),
        ("source", source, SOURCES),
        ("topic", topic, TOPICS),
    ):
        if value is not None and not isinstance(value, str | DiscrepancyKind):
            names = ", ".join(repr(c) for c in choices)
            raise InvalidArgument(f"unknown {name} {shown(value)}; a {name} is one of {names}")
    wanted_kind = None if kind is None else _to_kind(kind)
    if source is not None and (not isinstance(source, str) or source not in SOURCES):
        allowed = ", ".join(repr(s) for s in SOURCES)
        raise InvalidArgument(f"unknown source {source!r}; sources are {allowed}")
    if topic is not None and (not isinstance(topic, str) or topic not in TOPICS):
        allowed = ", ".join(repr(t) for t in TOPICS)
        raise InvalidArgument(f"unknown topic {topic!r}; topics are {allowed}")
    return tuple(
        d
        for d in DISCREPANCIES
        if (wanted_kind is None or d.kind is wanted_kind)
        and (source is None or source in d.sources)
        and (topic is None or d.topic == topic)
    )


def get_discrepancy(id: str) -> Discrepancy:
    """The register entry with this id.

    >>> get_discrepancy("tie-fallback").fields
    ('tie_fallback',)
    >>> get_discrepancy("tie-fallbak")
    Traceback (most recent call last):
    ...
    qe_rules.errors.InvalidArgument: unknown discrepancy 'tie-fallbak' (did you mean 'tie-fallback'?); list the ids with [d.id for d in DISCREPANCIES]
    """
    if not isinstance(id, str):
        raise InvalidArgument(f"a discrepancy id is a string, got {shown(id)}")
    found = _BY_ID.get(id)
    if found is not None:
        return found
    close = difflib.get_close_matches(id, _BY_ID, n=1) if isinstance(id, str) else []
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise InvalidArgument(
        f"unknown discrepancy {id!r}{hint}; list the ids with [d.id for d in DISCREPANCIES]"
    )
