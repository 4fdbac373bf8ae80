"""Every value of every switch is a reading a text supports, cited, or a house rule,
labelled so; a variant taking a house rule cites the basis ``house-rule``."""

from __future__ import annotations

import attrs
import pytest

import qe_rules as qe
from qe_rules.rules.files import SOURCES, house_rule_values
from qe_rules.texts.questions import get_open_question, open_questions, uncited_values


def test_every_value_of_every_switch_is_a_cited_reading_or_a_house_rule():
    assert uncited_values() == ()
    for question in open_questions():
        cited = [reading.value for reading in question.readings]
        assert len(cited) >= 2, question.field  # a question has at least two readings
        assert question.values == (*cited, *question.house_rules)
        assert not set(cited) & set(question.house_rules), question.field
        for reading in question.readings:
            assert reading.source in SOURCES, (question.field, reading)
            assert reading.section.strip() and len(reading.note) >= 20, (question.field, reading)


def test_a_value_with_neither_a_citation_nor_the_house_rule_label_is_found():
    question = get_open_question("peek_shows")
    unlabelled = attrs.evolve(question, values=question.values, house_rules=())
    assert uncited_values((unlabelled,)) == (("peek_shows", "all-bids"),)
    half = attrs.evolve(question, readings=question.readings[:1])
    assert ("peek_shows", "highest-bid") in uncited_values((half,))
    # a choice of the field's kind that the data file does not list at all
    fewer = attrs.evolve(question, values=question.values[:2], house_rules=())
    assert uncited_values((fewer,)) == (("peek_shows", "all-bids"),)


def test_a_question_without_two_cited_readings_is_refused(tmp_path, monkeypatch):
    from qe_rules.texts import questions

    with pytest.raises(qe.InvalidArgument, match="at least two"):
        questions._decode(
            {"field": "peek_shows", "register": ["peek-window"], "question": "?", "readings": []},
            "questions[0]",
        )
    with pytest.raises(qe.InvalidArgument, match="not a text id"):
        questions._decode(
            {
                "field": "peek_shows",
                "register": ["peek-window"],
                "question": "?",
                "readings": [
                    {
                        "value": "winning-amount",
                        "source": "xx",
                        "section": "s",
                        "note": "n",
                        "quote": "q",
                    },
                    {"value": "highest-bid", "source": "de", "section": "s", "note": "n"},
                ],
            },
            "questions[0]",
        )


@pytest.mark.parametrize(
    ("reading", "problem"),
    [
        ({"section": "Setup"}, "'Setup' is not a section of en-early"),
        ({"quote": ""}, "needs 1 to 7 words"),
        ({"quote": "one two three four five six seven eight"}, "needs 1 to 7 words"),
    ],
)
def test_a_reading_cites_a_section_its_text_has_and_a_phrase_of_it(reading, problem):
    from qe_rules.texts import questions

    good = {
        "value": "rebids",
        "source": "en-early",
        "section": "Equal bids",
        "note": "a note",
        "quote": "equal winning bids must rebid",
    }
    other = {**good, "value": "stands"}
    entry = {"field": "tied_auctioneer", "register": ["r"], "question": "?"}
    questions._decode({**entry, "readings": [good, other]}, "questions[0]")
    with pytest.raises(qe.InvalidArgument, match=problem):
        questions._decode({**entry, "readings": [{**good, **reading}, other]}, "questions[0]")


def test_house_rules_are_the_values_no_text_supports():
    house = house_rule_values()
    assert house["peek_shows"] == ("all-bids",)
    assert house["beyond_table"] == ("zero",)
    # the rules every text states are no switches; their other values are house rules
    for field, value in [
        ("last_tile_tie_awards_nothing", False),
        ("eliminate_all_tied_highest", False),
        ("final_tiebreak", "none"),
        ("tie_fallback", "none"),
    ]:
        assert value in house[field]
        assert field not in {q.field for q in open_questions()} or field == "tie_fallback"
        for rules in qe.RULESETS.values():
            assert qe.RuleSet.rule_fields()  # every built-in keeps the stated value
            assert rules.to_dict()["rules"][field] != value


@pytest.mark.parametrize(
    ("spec", "basis"),
    [
        ("en:peek_shows=all-bids", qe.Basis.HOUSE_RULE),
        ("en:beyond_table=zero", qe.Basis.HOUSE_RULE),
        ("en:final_tiebreak=none", qe.Basis.HOUSE_RULE),
        ("en:peek_shows=highest-bid", qe.Basis.INTERPRETATION),
        ("en:peek_shows=highest-bid-made", qe.Basis.INTERPRETATION),
        ("en:beyond_table=continue-pattern", qe.Basis.INTERPRETATION),
        # a value every text contradicts is a house rule, listed or not
        ("en:zero_bid_points=3", qe.Basis.HOUSE_RULE),
        ("en:min_opening_bid=0", qe.Basis.HOUSE_RULE),
        ("en:eliminate_highest_spender=false", qe.Basis.HOUSE_RULE),
        ("en:lowest_spend_bonus_to_all_tied=false", qe.Basis.HOUSE_RULE),
        ("en:zero_bid_player_counts=[3,4,5]", qe.Basis.HOUSE_RULE),
        # a value another text states is stated, by that text
        ("en:secret_bid_may_equal_opening=true", qe.Basis.STATED),
        (
            'en:diversification={"3":{"3":6,"4":10},"4":{"3":6,"4":10},"5":{"3":10,"4":15,"5":21}}',
            qe.Basis.CORRECTED,
        ),
    ],
)
def test_a_variant_cites_a_house_rule_as_one(spec, basis):
    field = spec.split(":")[1].split("=")[0]
    assert qe.get_ruleset(spec).cite(field).basis is basis
    assert "[house-rule]" in str(qe.get_ruleset("en:peek_shows=all-bids").cite("peek_shows"))


def test_each_text_chooses_its_literal_peek():
    assert qe.RULESETS["en"].peek_shows is qe.PeekShows.WINNING_AMOUNT
    assert qe.RULESETS["en"].cite("peek_shows").basis is qe.Basis.STATED
    for rid in ("de", "de-summary"):
        # 'the highest bid': standing when the sale is decided, or made in it; a reading
        assert qe.RULESETS[rid].peek_shows is qe.PeekShows.HIGHEST_BID
        assert qe.RULESETS[rid].cite("peek_shows").basis is qe.Basis.INTERPRETATION
    question = get_open_question("peek_shows")
    sources = {r.value: r.source for r in question.readings}
    assert sources == {
        "winning-amount": "en",
        "highest-bid": "de",
        "highest-bid-made": "de-summary",
    }


def test_who_sees_the_rebids_is_stated_where_rebids_follow_the_normal_rules():
    """en and de: rebids follow the normal rules, which hand bids to the auctioneer; the
    other readings are cited to the texts that are silent on it, never to en or de."""
    for rid, basis in (
        ("en", qe.Basis.STATED),
        ("de", qe.Basis.STATED),
        ("en-early", qe.Basis.INTERPRETATION),
        ("de-summary", qe.Basis.INTERPRETATION),
    ):
        assert qe.RULESETS[rid].rebid_visibility is qe.RebidVisibility.AUCTIONEER
        assert qe.RULESETS[rid].cite("rebid_visibility").basis is basis, rid
    question = get_open_question("rebid_visibility")
    sources = {r.value: r.source for r in question.readings}
    assert sources == {"auctioneer": "en", "first-bids": "en-early", "tied-players": "de-summary"}


def test_a_value_no_text_supports_is_a_house_rule_whatever_made_it(tmp_path):
    """A spec, evolve or a file: the label comes from the texts, not from the maker."""
    made = [
        qe.get_ruleset("en:zero_bid_points=3"),
        qe.get_ruleset("en").evolve(zero_bid_points=3),
    ]
    path = tmp_path / "three.toml"
    path.write_text(
        'id = "three"\nextends = "en"\n[rules]\nzero_bid_points = 3\n'
        '[provenance.zero_bid_points]\nsection = "1"\nsummary = "Three."\nbasis = "stated"\n',
        encoding="utf-8",
    )
    made.append(qe.load_ruleset(path))
    for rules in made:
        assert rules.cite("zero_bid_points").basis is qe.Basis.HOUSE_RULE, rules.id
        assert rules.cite("zero_bid_limit_per_round").basis is qe.Basis.STATED
    # a file's value that a text supports keeps its file's label
    kept = qe.load_ruleset(qe.shipped_rulesets()["house-equal-bids"])
    assert kept.cite("secret_bid_may_equal_opening").basis is qe.Basis.STATED
    assert qe.text_support("secret_bid_may_equal_opening", True).source == "en-early"


def test_every_readings_quote_is_words_of_its_text():
    """The texts are not in the repository: ``tests/data/reading-quotes.txt`` holds the
    fingerprints of the quotes found in them (``python -m tests.support.quotations``
    writes it, and refuses a quote its text does not hold); where the texts are at hand,
    each quote is looked up in its text."""
    from tests.support.quotations import (
        BOOKS,
        QUOTES,
        books_folder,
        quote_fingerprint,
        quote_in_text,
    )

    readings = [r for q in open_questions() for r in q.readings]
    committed = set(QUOTES.read_text(encoding="ascii").split())
    assert {quote_fingerprint(r.source, r.quote) for r in readings} == committed
    folder = books_folder()
    if folder is not None:
        for reading in readings:
            text = (folder / BOOKS[reading.source]).read_text(encoding="utf-8", errors="replace")
            assert quote_in_text(reading.quote, text), reading
    assert not quote_in_text("Rebids follow the normal rules", "Rebids follow the rules")


def test_every_citation_names_a_section_of_its_text():
    cited = [
        (rules.id, field, rules.cite(field))
        for rules in qe.RULESETS.values()
        for field in qe.RuleSet.rule_fields()
    ]
    for rid, field, cite in cited:
        assert SOURCES[cite.source].has_section(cite.section), (rid, field, cite.section)
    for entry in qe.DISCREPANCIES:
        for reading in entry.readings:
            assert SOURCES[reading.source].has_section(reading.section), (entry.id, reading)
    assert not SOURCES["en-early"].has_section("Setup")  # its setup has no heading
