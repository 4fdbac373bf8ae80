"""The German-English glossary: coverage, both directions, false friends, robustness."""

import ast
from pathlib import Path

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules import Category, Industry
from qe_rules.texts.discrepancies import DISCREPANCIES
from qe_rules.texts.glossary import GLOSSARY, KINDS, Term, lookup_term, translate_term

MODULE = Path(__file__).resolve().parents[2] / "qe_rules" / "texts" / "glossary.py"


def _exact(form):
    key = " ".join(form.casefold().split())
    return [
        t
        for t in GLOSSARY
        if key in {" ".join(f.casefold().split()) for f in (*t.en_forms, *t.de_forms)}
    ]


def _unambiguous(form):
    return len(_exact(form)) == 1


# --------------------------------------------------------------------------- coverage


def test_size_kinds_and_types():
    assert len(GLOSSARY) >= 40
    assert len(set(KINDS)) == len(KINDS)
    for term in GLOSSARY:
        assert isinstance(term, Term)
        assert term.kind in KINDS
        assert term.en.strip() and term.de.strip()
    assert {t.kind for t in GLOSSARY} == set(KINDS)


def test_preferred_forms_are_unique():
    ens = [t.en.casefold() for t in GLOSSARY]
    des = [t.de.casefold() for t in GLOSSARY]
    assert len(set(ens)) == len(ens)
    assert len(set(des)) == len(des)


def test_no_term_repeats_a_form():
    for term in GLOSSARY:
        for forms in (term.en_forms, term.de_forms):
            folded = [f.casefold() for f in forms]
            assert len(set(folded)) == len(folded), term.en


def test_every_industry_is_covered():
    for industry in Industry:
        (term,) = lookup_term(industry.label)
        assert term.kind == "industry"
        assert term.en == industry.label


@pytest.mark.parametrize(
    ("en", "kind"),
    [
        ("Company Tile", "component"),
        ("Industry Token", "component"),
        ("Bid Tile", "component"),
        ("Player Score Board", "component"),
        ("First Auctioneer Token", "component"),
        ("Opening Bid", "phase"),
        ("Secret Bids", "phase"),
        ("Award the Company Tile", "phase"),
        ("Reveal Zero Bids and Record VP", "phase"),
        ("End of the Sale", "phase"),
        ("Subtotal", "scoring"),
        ("Grand Total", "scoring"),
        ("Victory Points", "scoring"),
        ("Auctioneer", "role"),
        ("First Auctioneer", "role"),
        ("Player", "role"),
        ("Rebid", "rule"),
        ("Zero bid", "rule"),
        ("Tie", "rule"),
        ("Round", "rule"),
        ("Auction", "rule"),
        ("Eliminated", "rule"),
        ("See the winning bid", "rule"),
    ],
)
def test_required_terms(en, kind):
    matches = [t for t in GLOSSARY if t.en == en]
    assert len(matches) == 1, en
    assert matches[0].kind == kind


def test_every_scoring_category_is_covered():
    names = {
        Category.COMPANIES: "Companies",
        Category.ZERO_BIDS: "Zero Bids",
        Category.NATIONALIZATION: "Nationalization",
        Category.MONOPOLIZATION: "Monopolization",
        Category.DIVERSIFICATION: "Diversification",
        Category.SPENDING: "Total Spent",
    }
    assert set(names) == set(Category)
    for name in names.values():
        assert [t.kind for t in GLOSSARY if t.en == name] == ["category"]


def test_german_words_quoted_by_the_register_are_in_the_glossary():
    for word in (
        "Sparte",
        "Spartenplättchen",
        "Industrieplättchen",
        "Startspielermarker",
        "Startspielmarker",
        "Startspieler",
        "Gebotstafel",
        "Unternehmensplättchen",
        "Höchstgebot ansehen",
    ):
        assert lookup_term(word), word
    text = " ".join(d.summary for d in DISCREPANCIES)
    assert "Startspielmarker" in text and "Industrieplättchen" in text


# --------------------------------------------------------------------------- translate


@pytest.mark.parametrize(
    ("source", "target"),
    [
        ("Sparte", "Industry"),
        ("Industry", "Sparte"),
        ("Industrie", "Manufacturing"),
        ("Manufacturing", "Industrie"),
        ("Spartenplättchen", "Industry Token"),
        ("Industry Token", "Spartenplättchen"),
        ("Industrieplättchen", "Industry Token"),
        ("Industry Tile", "Spartenplättchen"),
        ("Auction Tile", "Unternehmensplättchen"),
        ("Startspielmarker", "First Auctioneer Token"),
        ("Startspieler", "First Auctioneer"),
        ("Null-Gebot", "Zero bid"),
        ("SP", "Victory Points"),
        ("VP", "Siegpunkte"),
        ("Runde", "Round"),
        ("Versteigerung", "Auction"),
        ("turn", "Auktion"),
        ("Höchstgebot ansehen", "See the winning bid"),
        ("Nation", "Nation"),
    ],
)
def test_translate_both_directions(source, target):
    assert translate_term(source) == target


def test_translate_ignores_case_and_whitespace():
    assert translate_term("  sPARTE ") == "Industry"
    assert translate_term("industry\ttoken") == "Spartenplättchen"
    assert translate_term("ZWISCHENSUMME") == "Subtotal"


def test_translate_rejects_unknown_and_ambiguous_terms():
    with pytest.raises(qe.InvalidArgument, match="unknown term"):
        translate_term("Quantitative Easing")
    with pytest.raises(qe.InvalidArgument, match="Gebotstafel"):
        translate_term("tafel")
    with pytest.raises(qe.InvalidArgument, match="ambiguous") as info:
        translate_term("bid")
    assert "Gebot" in str(info.value) and "Gesamtausgaben" in str(info.value)
    for bad in ("", "   ", None, 3):
        with pytest.raises(qe.InvalidArgument):
            translate_term(bad)  # type: ignore[arg-type]


@given(st.sampled_from(GLOSSARY))
def test_preferred_forms_round_trip(term):
    if _unambiguous(term.en):
        assert translate_term(term.en) == term.de
    if _unambiguous(term.de):
        assert translate_term(term.de) == term.en
    if _unambiguous(term.en) and _unambiguous(term.de):
        assert translate_term(translate_term(term.en)) == term.en
        assert translate_term(translate_term(term.de)) == term.de


@given(st.sampled_from(GLOSSARY), st.data())
def test_variants_translate_to_the_preferred_form(term, data):
    forms = [f for f in term.en_variants if _unambiguous(f)]
    if forms:
        assert translate_term(data.draw(st.sampled_from(forms))) == term.de
    forms = [f for f in term.de_variants if _unambiguous(f)]
    if forms:
        assert translate_term(data.draw(st.sampled_from(forms))) == term.en


def test_preferred_forms_are_unambiguous_except_known_cases():
    ambiguous = sorted({f for t in GLOSSARY for f in (t.en, t.de) if not _unambiguous(f)})
    assert ambiguous == ["Bid"]


# --------------------------------------------------------------------------- false friends


def test_false_friend_notes():
    (sparte,) = lookup_term("Sparte")
    (industrie,) = lookup_term("Industrie")
    (token,) = lookup_term("Industrieplättchen")
    assert sparte.en == "Industry" and "Industrie" in sparte.note
    assert industrie.en == "Manufacturing" and "Sparte" in industrie.note
    assert "false friend" in sparte.note.lower() and "false friend" in industrie.note.lower()
    assert token.en == "Industry Token" and "Industrieplättchen" in token.de_variants
    assert "false friend" in token.note.lower()
    (round_,) = lookup_term("Runde")
    assert "sale" in round_.note
    (auction,) = lookup_term("Auktion")
    assert {"Sale", "turn"} <= set(auction.en_variants) and "round" in auction.note.lower()
    (points,) = lookup_term("SP")
    assert "VP" in points.en_variants and "SP" in points.note


def test_variants_from_the_other_texts():
    assert [t.en for t in lookup_term("Auction Tile")] == ["Company Tile"]
    assert [t.en for t in lookup_term("industry tile")] == ["Industry Token"]
    assert [t.en for t in lookup_term("Startspielmarker")] == ["First Auctioneer Token"]
    assert [t.en for t in lookup_term("Player board")] == ["Player Score Board"]
    assert [t.en for t in lookup_term("Financial")] == ["Finance"]
    assert [t.en for t in lookup_term("Equal bids")] == ["Tied Auction"]


# --------------------------------------------------------------------------- lookup


def test_lookup_prefers_exact_matches():
    assert [t.en for t in lookup_term("Industrie")] == ["Manufacturing"]
    assert [t.en for t in lookup_term("INDUSTRY")] == ["Industry"]
    assert {t.en for t in lookup_term("bid")} == {"Bid", "Total Spent"}


def test_lookup_falls_back_to_substrings():
    found = [t.en for t in lookup_term("plättchen")]
    assert "Company Tile" in found and "Industry Token" in found
    assert lookup_term("no such word at all") == ()


def test_lookup_rejects_empty_and_non_strings():
    for bad in ("", "  \n", None, 3, b"Sparte"):
        with pytest.raises(qe.InvalidArgument) as info:
            lookup_term(bad)  # type: ignore[arg-type]
        assert isinstance(info.value, qe.RulesError)


@given(st.text())
def test_lookup_raises_nothing_but_rules_errors(text):
    try:
        result = lookup_term(text)
    except qe.RulesError:
        assert not text.strip()
        return
    assert isinstance(result, tuple)
    assert all(isinstance(t, Term) for t in result)


@given(st.text())
def test_translate_raises_nothing_but_rules_errors(text):
    try:
        result = translate_term(text)
    except qe.RulesError:
        return
    assert isinstance(result, str) and result


def test_terms_are_frozen_and_validated():
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        GLOSSARY[0].en = "x"  # type: ignore[misc]
    with pytest.raises(qe.InvalidArgument, match="kinds are"):
        Term("Meeple", "Meeple", "figure")
    with pytest.raises(qe.InvalidArgument):
        Term("", "Wort", "rule")
    made = Term("a", "b", "rule", en_variants=["c"])
    assert made.en_variants == ("c",) and made.en_forms == ("a", "c")


def test_module_imports_only_allowed_modules():
    tree = ast.parse(MODULE.read_text(encoding="utf-8"))
    allowed = {"qe_rules.errors", "qe_rules.rules.files", "qe_rules._util.frozen"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("qe_rules"):
            assert node.module in allowed, node.module
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith("qe_rules") for a in node.names)
