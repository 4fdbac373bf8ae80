"""A German-English glossary of QE: components, phases, scoring, roles and rule words.

Preferred forms are those of the ``en`` and ``de`` rulebooks; variants come from the other
texts (``en-early``, ``de-summary``) or from other places in the same rulebook. Notes warn
about false friends::

    >>> from qe_rules.glossary import lookup_term, translate_term
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

import unicodedata
from typing import Any, Final

import attrs

from qe_rules._frozen import check_text, text_tuple
from qe_rules.errors import InvalidArgument, shown

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
        }


GLOSSARY: Final[tuple[Term, ...]] = (
    # ------------------------------------------------------------------ components
    Term(
        "Company Tile",
        "Unternehmensplättchen",
        "component",
        "One of the 21 tiles that are auctioned. en-early's component list calls them "
        "'Auction Tiles'. German names single tiles after their industry, e.g. "
        "'Landwirtschaftsplättchen' for an Agriculture tile.",
        en_variants=("Company", "Auction Tile"),
    ),
    Term(
        "Industry Token",
        "Spartenplättchen",
        "component",
        "The secret piece dealt face down to each player; it counts in monopolization and "
        "diversification. English 'Industry Tile' (en scoring introduction, en-early "
        "component list) and German 'Industrieplättchen' (de and de-summary scoring "
        "introductions) mean this token. False friend: 'Industrieplättchen' looks like a "
        "Manufacturing ('Industrie') tile but is not one.",
        en_variants=("Industry Tile",),
        de_variants=("Industrieplättchen",),
    ),
    Term(
        "Bid Tile",
        "Gebotstafel",
        "component",
        "The dry-erase board each player writes bids on. English says 'tile', German "
        "'Tafel' (board); German 'Plättchen' is the English tile or token.",
    ),
    Term(
        "Player Score Board",
        "Wertungstafel",
        "component",
        "Each nation's board, with one side for 3-4 players and one for 5. en-early says "
        "'Player board'.",
        en_variants=("Player board", "Score Board"),
    ),
    Term(
        "Dry Erase Marker",
        "Stift",
        "component",
        "de lists them as wipeable pens ('abwischbar').",
        en_variants=("marker",),
    ),
    Term(
        "First Auctioneer Token",
        "Startspielermarker",
        "component",
        "Marks the first auctioneer for the whole game, so that the table sees when a round "
        "begins. de-summary writes 'Startspielmarker'.",
        de_variants=("Startspielmarker",),
    ),
    Term("Rulebook", "Spielregel", "component", de_variants=("Spielanleitung",)),
    Term(
        "Stack",
        "Stapel",
        "component",
        "The face-down pile of company tiles; each sale reveals its top tile.",
    ),
    Term(
        "Zero Bid space",
        "2-SP-Feld",
        "component",
        "The box on the score board marked off, once per round, for a zero bid.",
        en_variants=("2 VP space",),
    ),
    # ------------------------------------------------------------------ phases
    Term(
        "Opening Bid",
        "Eröffnungsgebot",
        "phase",
        "Phase 1, and the auctioneer's open bid itself: a whole number above zero.",
    ),
    Term(
        "Secret Bids",
        "Geheime Gebote",
        "phase",
        "Phase 2, in which the other players bid hidden amounts.",
    ),
    Term(
        "Award the Company Tile",
        "Vergabe des Unternehmensplättchens",
        "phase",
        "Phase 3: the auctioneer looks at the bids, names the highest bidder and notes the "
        "amount on the tile's back.",
    ),
    Term(
        "Reveal Zero Bids and Record VP",
        "Null-Gebote und SP eintragen",
        "phase",
        "Phase 4, skipped with three players. The German title only says to enter zero bids "
        "and points; the reveal is in the text below it.",
    ),
    Term(
        "End of the Sale",
        "Ende einer Versteigerung",
        "phase",
        "Phase 5: bid tiles go back and the next player auctions.",
    ),
    # ------------------------------------------------------------------ categories
    Term(
        "Companies",
        "Unternehmen",
        "category",
        "The category adding up the VP printed on your tiles. 'Unternehmen' is also the "
        "ordinary German word for a company.",
    ),
    Term(
        "Zero Bids",
        "Null-Gebote",
        "category",
        "2 VP per round in which you made one or more zero bids.",
    ),
    Term(
        "Nationalization",
        "Nationalisierung",
        "category",
        "Points for tiles of your own nation.",
    ),
    Term(
        "Monopolization",
        "Monopolisierung",
        "category",
        "Points per industry for several pieces of it, token included.",
    ),
    Term(
        "Diversification",
        "Diversifikation",
        "category",
        "Points per set of pieces with distinct industries, token included. German uses "
        "'Diversifikation', not 'Diversifizierung'.",
    ),
    Term(
        "Total Spent",
        "Gesamtausgaben",
        "category",
        "The sum of your winning bids: the highest total is eliminated, the lowest earns a "
        "bonus. en-early calls this category 'Bid' and scores it first.",
        en_variants=("Bid",),
    ),
    # ------------------------------------------------------------------ scoring
    Term(
        "Subtotal",
        "Zwischensumme",
        "scoring",
        "The points before the spending category; en-early has no subtotal.",
    ),
    Term(
        "Grand Total",
        "Endergebnis",
        "scoring",
        "Subtotal plus the lowest-spend bonus. The de scoring example says 'Ergebnis'.",
        de_variants=("Ergebnis",),
    ),
    Term(
        "Victory Points",
        "Siegpunkte",
        "scoring",
        "English abbreviates VP, German SP (Siegpunkte); 'SP' is not 'spent' or 'spend'.",
        en_variants=("VP", "VPs", "victory point"),
        de_variants=("SP", "Siegpunkt"),
    ),
    Term(
        "Final Scoring",
        "Schlusswertung",
        "scoring",
        "de also says 'Endwertung' in its introduction; de-summary heads the section "
        "'Ermittlung der Siegpunkte'.",
        de_variants=("Endwertung", "Ermittlung der Siegpunkte"),
    ),
    Term("Scoring Example", "Wertungsbeispiel", "scoring"),
    Term(
        "matching",
        "passend",
        "scoring",
        "Of your nation (nationalization) or of the same industry (monopolization).",
    ),
    # ------------------------------------------------------------------ industries
    Term(
        "Industry",
        "Sparte",
        "industry",
        "False friend: the English 'Industry' (any of the five kinds of company) is German "
        "'Sparte'; German 'Industrie' is only Manufacturing.",
    ),
    Term("Agriculture", "Landwirtschaft", "industry"),
    Term("Housing", "Wohnungsbau", "industry"),
    Term(
        "Government",
        "Regierung",
        "industry",
        "Only in 5-player games as a token; two Government tiles leave 3-4 player games.",
    ),
    Term(
        "Finance",
        "Finanzwirtschaft",
        "industry",
        "en also says 'Financial' (the CN Financial tile, the scoring example).",
        en_variants=("Financial",),
    ),
    Term(
        "Manufacturing",
        "Industrie",
        "industry",
        "False friend: German 'Industrie' is the Manufacturing industry, not English "
        "'Industry', which is German 'Sparte'.",
    ),
    # ------------------------------------------------------------------ nations
    Term(
        "Nation",
        "Nation",
        "nation",
        "The same word in both languages; the scoring example in en says 'country'. The "
        "five nations keep their codes US, EU, CN, JP and UK in both languages.",
        en_variants=("country",),
    ),
    # ------------------------------------------------------------------ roles
    Term("Auctioneer", "Auktionator", "role", "The player running the current sale."),
    Term(
        "First Auctioneer",
        "erster Auktionator",
        "role",
        "The player who runs the first sale and keeps the token; de and de-summary also "
        "call this player 'Startspieler', which is not a separate role.",
        de_variants=("Startspieler",),
    ),
    Term("Player", "Spieler", "role"),
    Term(
        "Winner",
        "Gewinner",
        "role",
        "de uses the verb 'gewinnt'; the noun appears in de-summary.",
    ),
    # ------------------------------------------------------------------ rules vocabulary
    Term("Bid", "Gebot", "rule", "Any amount written on a bid tile."),
    Term(
        "Secret bid",
        "geheimes Gebot",
        "rule",
        "A bid by a player other than the auctioneer, handed over hidden.",
    ),
    Term(
        "Rebid",
        "neues Gebot",
        "rule",
        "The new bid of a player tied for the highest bid; de says the tied players bid "
        "'noch einmal', de-summary 'erneut'.",
        de_variants=("erneutes Gebot",),
    ),
    Term(
        "Zero bid",
        "Null-Gebot",
        "rule",
        "A secret bid of 0; the auctioneer may not open with 0.",
    ),
    Term(
        "Highest bid",
        "höchstes Gebot",
        "rule",
        "Usually the winning bid, but not after the tie fallback.",
        de_variants=("Höchstgebot",),
    ),
    Term(
        "Winning bid",
        "erfolgreiches Gebot",
        "rule",
        "The amount written on the back of the won tile; the sum of a player's winning bids "
        "is their total spent.",
    ),
    Term(
        "Auction",
        "Auktion",
        "rule",
        "One company tile put up for bids. en counts 'turns' and ends each with the 'sale', "
        "en-early says 'Sale', de says 'Auktion' and 'Versteigerung'. Not a round.",
        en_variants=("Sale", "turn"),
        de_variants=("Versteigerung",),
    ),
    Term(
        "Round",
        "Runde",
        "rule",
        "Every player being auctioneer once; it begins when the first auctioneer auctions. "
        "de-summary also uses 'Runde' for a single sale and for a group of players.",
    ),
    Term(
        "Tie",
        "Gleichstand",
        "rule",
        "de says both 'Gleichstand' and 'Unentschieden'; en-early speaks of 'equal bids'.",
        de_variants=("Unentschieden",),
    ),
    Term(
        "Tied Auction",
        "Unentschieden Auktion",
        "rule",
        "The special rule for players sharing the highest bid; en-early's heading is 'Equal bids'.",
        en_variants=("Equal bids",),
        de_variants=("Unentschieden bei einer Auktion",),
    ),
    Term(
        "Tied Game",
        "Unentschieden Schlusswertung",
        "rule",
        "The tie-break by lower spend at the end.",
        de_variants=("Gleichstand bei der Schlusswertung",),
    ),
    Term(
        "Eliminated",
        "scheidet aus",
        "rule",
        "Said of the highest spender, who cannot win; en-early says 'not eligible to win'.",
        en_variants=("not eligible to win",),
        de_variants=("ausscheiden",),
    ),
    Term(
        "See the winning bid",
        "Höchstgebot ansehen",
        "rule",
        "The 5-player peek and its box on the score board. English names the winning bid, "
        "German the highest bid ('Höchstgebot'); they differ only after a tie fallback.",
        en_variants=("One peek", "peek"),
    ),
    Term("Special Rules", "Sonderregeln", "rule"),
    Term(
        "3-Player Last Tile Rule",
        "3-Spieler",
        "rule",
        "The heading in de is just '3-Spieler'; en-early prefixes 'Special'.",
        en_variants=("Special 3-Player Last Tile Rule",),
        de_variants=("3 Spieler",),
    ),
    Term(
        "5-Player One Peek Rule",
        "5-Spieler",
        "rule",
        "The heading in de is just '5-Spieler'.",
        de_variants=("5 Spieler",),
    ),
    Term(
        "Setup",
        "Spielaufbau",
        "rule",
        "A section heading; de-summary says 'Spielvorbereitung'.",
        de_variants=("Spielvorbereitung",),
    ),
    Term(
        "Gameplay",
        "Spielablauf",
        "rule",
        "A section heading; de-summary says 'Der Spielablauf'.",
    ),
    Term("End of Game", "Spielende", "rule"),
    Term(
        "Objective",
        "Spielidee",
        "rule",
        "A section heading; de-summary says 'Die Idee des Spiels'.",
        de_variants=("Die Idee des Spiels",),
    ),
    Term(
        "Contents",
        "Spielmaterial",
        "rule",
        "A section heading; en-early says 'Components', de-summary 'Inhalt des Spiels'.",
        en_variants=("Components",),
        de_variants=("Inhalt des Spiels",),
    ),
    Term(
        "positive whole number",
        "positive ganze Zahl",
        "rule",
        "The smallest opening bid is 1; secret bids may also be 0.",
    ),
)
"""Every glossary term, grouped by kind."""


def _key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


def _entry(term: Term) -> tuple[Term, frozenset[str], frozenset[str], frozenset[str]]:
    en, de = frozenset(map(_key, term.en_forms)), frozenset(map(_key, term.de_forms))
    return term, en, de, en | de


_INDEX: Final = tuple(_entry(t) for t in GLOSSARY)
"""Each term with the keys of its English forms, its German forms and both."""


def _query(term: object) -> str:
    if not isinstance(term, str):
        raise InvalidArgument(f"a glossary query must be a string, got {shown(term)}")
    key = _key(term)
    if not key:
        raise InvalidArgument("a glossary query must not be empty")
    return key


def _containing(key: str) -> tuple[Term, ...]:
    """The terms with a form whose key contains ``key``."""
    return tuple(t for t, _, _, forms in _INDEX if any(key in form for form in forms))


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
    exact = tuple(t for t, _, _, forms in _INDEX if key in forms)
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
    found = [(t, key in en, key in de) for t, en, de, forms in _INDEX if key in forms]
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
    raise InvalidArgument(f"unknown term {term!r}; GLOSSARY lists the {len(GLOSSARY)} terms")


def _matching_form(term: Term, key: str) -> str:
    for form in (*term.en_forms, *term.de_forms):
        if key in _key(form):
            return form
    return term.en  # pragma: no cover - lookup only returns terms with a matching form
