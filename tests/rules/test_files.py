"""The package's data files: every built-in rule set, register entry and glossary term
reads, writes and reads back equal, is checked on load with one-line errors, and no fact
of the texts is left in a Python module."""

import pathlib
import re
from concurrent.futures import ThreadPoolExecutor

import pytest

import qe_rules as qe
from qe_rules.rules import files as datafiles
from qe_rules.texts import discrepancies, glossary

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILTINS = list(qe.RULESETS.values())


@pytest.mark.parametrize("rs", BUILTINS, ids=lambda r: r.id)
def test_a_built_in_file_loads_like_a_users_file(rs):
    path = qe.shipped_rulesets()[rs.id]
    assert path == datafiles.data_file("rulesets", f"{rs.id}.toml")
    assert qe.load_ruleset(path) == rs
    text = pathlib.Path(path).read_text("utf-8")
    assert qe.RuleSet.from_toml(text, origin=path) == rs


@pytest.mark.parametrize("rs", BUILTINS, ids=lambda r: r.id)
def test_built_ins_round_trip_as_data_and_as_toml(rs):
    assert qe.RuleSet.from_dict(rs.to_dict()) == rs
    assert qe.RuleSet.from_toml(rs.to_toml()) == rs
    for base in qe.RULESETS:
        assert qe.RuleSet.from_toml(rs.to_toml(base=base)) == rs


def test_the_old_data_names_still_work_and_warn():
    en = qe.get_ruleset("en")
    with pytest.warns(
        DeprecationWarning, match="RuleSet.to_data is deprecated; use RuleSet.to_dict"
    ):
        data = en.to_data()
    assert data == en.to_dict()
    with pytest.warns(DeprecationWarning, match="use RuleSet.from_dict"):
        assert qe.RuleSet.from_data(data) == en


def test_built_ins_are_read_once():
    assert qe.RULESETS["en"] is qe.RULESETS["en"]
    assert qe.get_ruleset("de") is qe.RULESETS["de"]
    assert [rs.id for rs in qe.RULESETS.values()] == list(qe.SOURCES)


def test_each_built_in_names_its_source_and_title():
    for rid, rs in qe.RULESETS.items():
        assert rs.source == rid
        assert rs.title == qe.SOURCES[rid].title
        assert rs.language == qe.SOURCES[rid].language


def test_shipped_house_rules_load_by_name():
    shipped = qe.shipped_rulesets()
    house = [name for name in shipped if name not in qe.RULESETS]
    assert "house-equal-bids" in house
    for name in house:
        assert qe.load_ruleset(shipped[name]).id == name


def test_register_entries_and_terms_round_trip():
    for entry in qe.DISCREPANCIES:
        assert discrepancies._entry(entry.to_dict(), "x") == entry
    for term in qe.GLOSSARY:
        assert glossary._term(term.to_dict(), "x") == term


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"topic": "weather"}, r"unknown topic 'weather'"),
        ({"kind": "typo"}, r"unknown discrepancy kind"),
        ({"readings": [{"source": "fr", "section": "s", "says": "t"}]}, r"unknown source 'fr'"),
        ({"readings": [{"source": "en", "section": "s"}]}, r"section|says"),
        ({"readings": "none"}, r"x\.readings: needs a list"),
        ({"colour": "red"}, r"x: unknown keys \['colour'\]"),
        ({"fields": [1]}, r"x\.fields: needs a list of strings"),
    ],
)
def test_a_broken_register_entry_is_one_line_naming_the_key(change, message):
    data = {**qe.DISCREPANCIES[0].to_dict(), **change}
    with pytest.raises(qe.InvalidArgument, match=message) as info:
        discrepancies._entry(data, "x")
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"kind": "verb"}, r"unknown term kind 'verb'"),
        ({"en": ""}, r"en needs a non-empty string"),
        ({"de_variants": "x"}, r"x\.de_variants: needs a list of strings"),
        ({"plural": "x"}, r"x: unknown keys \['plural'\]"),
        ({"note": 3}, r"x\.note: needs a string"),
    ],
)
def test_a_broken_glossary_term_is_one_line_naming_the_key(change, message):
    data = {**qe.GLOSSARY[0].to_dict(), **change}
    with pytest.raises(qe.InvalidArgument, match=message):
        glossary._term(data, "x")


def test_a_broken_data_file_names_the_file():
    with pytest.raises(qe.InvalidArgument, match=r"^qe_rules/data/x\.toml: not valid TOML"):
        datafiles.parse_toml("[[", "qe_rules/data/x.toml", qe.InvalidArgument)


def _python_sources():
    return {p: p.read_text("utf-8") for p in (ROOT / "qe_rules").rglob("*.py")}


def _sentences():
    """What the data files say about the texts: citations, readings, glossary notes."""
    for rs in BUILTINS:
        for cite in rs.provenance.values():
            yield cite.summary
    for entry in qe.DISCREPANCIES:
        for reading in entry.readings:
            yield reading.says
    for term in qe.GLOSSARY:
        yield term.note


def test_no_citation_or_register_sentence_is_left_in_python():
    code = " ".join(" ".join(text.split()) for text in _python_sources().values())
    code = re.sub(r'"\s+"', "", code)  # join implicitly concatenated string literals
    for sentence in _sentences():
        words = sentence.split()
        for start in range(0, max(1, len(words) - 5), 3):
            run = " ".join(words[start : start + 6])
            if len(run) > 30:
                assert run not in code, run


def test_no_rule_value_of_the_texts_is_left_in_python():
    for path, text in _python_sources().items():
        if path.name == "components.py":
            continue  # the 21 tiles are component data
        assert "UK-GOV-2" not in text, path
        assert "most-recent-bank-visit" not in text or path.name == "values.py", path
        assert not re.search(r"\{\s*1:\s*1,\s*2:\s*3,\s*3:\s*6", text), path


def test_built_ins_load_once_when_threads_ask_at_the_same_time():
    loads = []

    def load(rid):
        loads.append(rid)
        return qe.RULESETS[rid]

    registry = datafiles.Builtins(load)
    with ThreadPoolExecutor(8) as pool:
        found = list(pool.map(registry.__getitem__, ["de-summary"] * 16 + ["en"] * 16))
    assert sorted(loads) == ["de-summary", "en"]
    assert found[0] is qe.RULESETS["de-summary"] and found[-1] is qe.RULESETS["en"]
