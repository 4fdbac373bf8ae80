"""The open questions: every ambiguity of the register is a switch, and back."""

from __future__ import annotations

import pytest

import qe_rules as qe
from qe_rules.texts.discrepancies import DiscrepancyKind, find_discrepancies, get_discrepancy


def test_every_ambiguity_of_the_register_has_a_switch():
    answered = {entry for q in qe.open_questions() for entry in q.register}
    ambiguities = {d.id for d in find_discrepancies(kind="ambiguity")}
    assert ambiguities - answered == set()


def test_every_switch_answers_an_ambiguity_that_names_it():
    for question in qe.open_questions():
        for entry in question.register:
            found = get_discrepancy(entry)
            assert found.kind is DiscrepancyKind.AMBIGUITY, (question.field, entry)
            assert question.field in found.fields, (question.field, entry)


def test_each_switch_is_a_rule_field_asked_once():
    fields = [q.field for q in qe.open_questions()]
    assert len(fields) == len(set(fields))
    assert set(fields) <= set(qe.RuleSet.rule_fields())


@pytest.mark.parametrize("question", qe.open_questions(), ids=lambda q: q.field)
def test_every_reading_makes_a_rule_set_and_every_built_in_chose_one(question):
    assert len(question.values) >= 2
    for rid, rules in qe.RULESETS.items():
        variants = question.variants(rules)
        assert len({v.id for v in variants}) == len(question.values)
        assert question.choices[rid].value in question.values
        assert question.choices[rid].provenance == rules.cite(question.field)
        for value, variant in zip(question.values, variants, strict=True):
            if variant is not rules:
                assert qe.get_ruleset(question.spec(rid, value)) == variant


def test_an_interpretation_is_cited_as_one_where_the_text_leaves_the_question_open():
    early = qe.get_ruleset("en-early")
    for field in ("tied_auctioneer", "unique_bid_pool", "tie_fallback", "tie_streak"):
        assert early.cite(field).basis is qe.Basis.INTERPRETATION, field


def test_an_unknown_question_names_the_switches():
    with pytest.raises(qe.InvalidArgument, match="tie_streak"):
        qe.get_open_question("min_opening_bid")


def test_the_measured_shares_cover_every_reading_of_every_question():
    from qe_rules.texts.questions import measured_shares, readings_to_measure

    measured = measured_shares()
    for question, base, value, players in readings_to_measure():
        reading = question.spec(base, value).split("=", 1)[1]
        for agents in ("random", "value"):
            found = measured.get((question.field, base, reading, agents, players))
            assert found is not None, (question.field, reading, agents)
            assert 0 <= found["changed"] <= found["games"]


def test_the_open_questions_page_names_every_question_and_reading():
    from qe_rules.apps.pages import open_questions_markdown

    page = open_questions_markdown()
    for question in qe.open_questions():
        assert f"## `{question.field}`" in page
        for entry in question.register:
            assert f"`{entry}`" in page
    assert "not measured" not in page


def test_the_measurement_covers_every_reading_and_the_data_file_names_its_maker():
    from qe_rules.apps.pages import measure_open_questions
    from qe_rules.rules.files import data_file
    from qe_rules.texts.questions import MEASURED_FILE, readings_to_measure

    data = measure_open_questions(2, seed=1)
    assert (data["players"], data["games"], data["seed"]) == (4, 2, 1)
    expected = [
        (question.field, base, question.spec(base, value).split("=", 1)[1], agents, players)
        for question, base, value, players in readings_to_measure()
        for agents in ("random", "value")
    ]
    found = [
        (r["field"], r["base"], r["reading"], r["agents"], r["players"]) for r in data["readings"]
    ]
    assert found == expected
    assert all(0 <= r["changed"] <= r["games"] == 2 for r in data["readings"])
    with open(data_file(MEASURED_FILE), encoding="utf-8") as handle:
        header = handle.read(300)
    assert "(qe_rules.apps.pages.measure_open_questions)" in header
