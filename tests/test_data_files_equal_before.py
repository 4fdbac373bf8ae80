"""The move of the facts into data files changed nothing: every built-in rule set, register
entry and glossary term equals its form from before the move (a snapshot of the Python
literals' to_data()/to_dict(), taken on main before the move)."""

import json
import pathlib

import attrs

import qe_rules as qe

BEFORE = json.loads(
    (pathlib.Path(__file__).parent / "data" / "before-data-files.json").read_text("utf-8")
)


def test_rule_sets_equal_their_form_before_the_move():
    assert list(qe.RULESETS) == list(BEFORE["rulesets"])
    for rid, rs in qe.RULESETS.items():
        assert rs.to_data() == BEFORE["rulesets"][rid]
        assert qe.RuleSet.from_data(BEFORE["rulesets"][rid]) == rs


def test_register_glossary_and_sources_equal_their_form_before_the_move():
    assert [d.to_dict() for d in qe.DISCREPANCIES] == BEFORE["discrepancies"]
    assert [t.to_dict() for t in qe.GLOSSARY] == BEFORE["glossary"]
    assert {k: attrs.asdict(s) for k, s in qe.SOURCES.items()} == BEFORE["sources"]
    assert dict(qe.GAP_CODES) == BEFORE["gap_codes"]
    assert list(qe.discrepancies.TOPICS) == BEFORE["topics"]
    assert list(qe.glossary.KINDS) == BEFORE["kinds"]
