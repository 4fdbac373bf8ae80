"""The discrepancy register: well-formed, tied to the rule sets, filterable, paraphrased."""

import ast
import re
from pathlib import Path

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules import RULESETS, SOURCES, RuleSet
from qe_rules.texts.discrepancies import (
    DISCREPANCIES,
    TOPICS,
    Discrepancy,
    DiscrepancyKind,
    Reading,
    find_discrepancies,
    get_discrepancy,
)

MODULE = Path(__file__).resolve().parents[2] / "qe_rules" / "texts" / "discrepancies.py"

IDS = [d.id for d in DISCREPANCIES]
BUILTIN_CODES = {i.code: rs_id for rs_id, rs in RULESETS.items() for i in rs.interpretations}


def _codes_of(rs_id):
    return {i.code for i in RULESETS[rs_id].interpretations}


# --------------------------------------------------------------------------- well-formed


def test_register_size_and_types():
    assert 20 <= len(DISCREPANCIES) <= 60
    for d in DISCREPANCIES:
        assert isinstance(d, Discrepancy)
        assert isinstance(d.kind, DiscrepancyKind)
        assert all(isinstance(r, Reading) for r in d.readings)
        assert isinstance(d.fields, tuple)
        assert isinstance(d.interpretations, tuple)


def test_ids_are_unique_and_kebab_case():
    assert len(set(IDS)) == len(IDS)
    for d_id in IDS:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", d_id), d_id


def test_topics_are_known_and_each_is_used():
    assert len(set(TOPICS)) == len(TOPICS)
    for d in DISCREPANCIES:
        assert d.topic in TOPICS, d.id
    assert {d.topic for d in DISCREPANCIES} == set(TOPICS)


@pytest.mark.parametrize("entry", DISCREPANCIES, ids=IDS)
def test_readings_name_known_sources_and_sections(entry):
    assert entry.readings
    for reading in entry.readings:
        assert reading.source in SOURCES
        assert reading.section.strip()
        assert reading.says.strip()
        assert len(reading.says) >= 5
    assert entry.summary.strip() and "\n" not in entry.summary
    assert entry.resolution.strip()


@pytest.mark.parametrize("entry", DISCREPANCIES, ids=IDS)
def test_reading_count_fits_the_kind(entry):
    if len(entry.readings) == 1:
        assert entry.kind in (DiscrepancyKind.SLIP, DiscrepancyKind.AMBIGUITY), entry.id
    if entry.kind is DiscrepancyKind.RULE:
        assert len(entry.sources) >= 2, entry.id


@pytest.mark.parametrize("entry", DISCREPANCIES, ids=IDS)
def test_fields_are_rule_fields(entry):
    for name in entry.fields:
        assert name in RuleSet.rule_fields(), (entry.id, name)
    assert len(set(entry.fields)) == len(entry.fields)


@pytest.mark.parametrize("entry", DISCREPANCIES, ids=IDS)
def test_interpretation_codes_exist_in_a_builtin_of_a_cited_text(entry):
    for code in entry.interpretations:
        assert code in BUILTIN_CODES, (entry.id, code)
        cited = [s for s in entry.sources if s in RULESETS]
        assert any(code in _codes_of(s) for s in cited), (entry.id, code)
    assert len(set(entry.interpretations)) == len(entry.interpretations)


@pytest.mark.parametrize("entry", DISCREPANCIES, ids=IDS)
def test_every_entry_is_resolved(entry):
    if entry.fields or entry.interpretations:
        return
    assert entry.kind is DiscrepancyKind.WORDING, entry.id
    assert "no rule changes" in entry.resolution.lower(), entry.id


@pytest.mark.parametrize(
    "entry", [d for d in DISCREPANCIES if d.kind is DiscrepancyKind.RULE], ids=lambda d: d.id
)
def test_rule_entries_name_a_field_on_which_the_cited_texts_differ(entry):
    cited = [RULESETS[s] for s in entry.sources]
    assert any(len({getattr(rs, name) for rs in cited}) > 1 for name in entry.fields), entry.id


@pytest.mark.parametrize("entry", DISCREPANCIES, ids=IDS)
def test_names_in_the_text_exist(entry):
    text = " ".join([entry.summary, entry.resolution, *(r.says for r in entry.readings)])
    for name in re.findall(r"\b[a-z]+(?:_[a-z]+)+\b", text):
        assert name in RuleSet.rule_fields(), (entry.id, name)
    for ref in re.findall(r"\bsee ([a-z0-9]+(?:-[a-z0-9]+)+)", text):
        assert ref in IDS, (entry.id, ref)
    for code in re.findall(r"\(([a-z]+(?:-[a-z]+){2,})[;)]", text):
        assert code in BUILTIN_CODES or code in IDS, (entry.id, code)
        if code in BUILTIN_CODES:
            assert code in entry.interpretations, (entry.id, code)


def test_silent_readings_are_marked():
    for d in DISCREPANCIES:
        for r in d.readings:
            if r.section.startswith("("):
                assert r.says.startswith("silent:"), d.id


def test_at_least_three_entries_of_each_kind():
    for kind in DiscrepancyKind:
        assert len(find_discrepancies(kind=kind)) >= 3, kind


# --------------------------------------------------------------------------- content


@pytest.mark.parametrize(
    ("d_id", "kind"),
    [
        ("secret-bid-equal-to-opening", DiscrepancyKind.RULE),
        ("early-rebid-vs-opening", DiscrepancyKind.RULE),
        ("early-tied-auctioneer", DiscrepancyKind.AMBIGUITY),
        ("tie-fallback", DiscrepancyKind.RULE),
        ("tie-count-three-in-a-row", DiscrepancyKind.AMBIGUITY),
        ("summary-fallback-the-tie", DiscrepancyKind.AMBIGUITY),
        ("diversification-tables", DiscrepancyKind.RULE),
        ("early-diversification-typo", DiscrepancyKind.SLIP),
        ("scoring-order", DiscrepancyKind.RULE),
        ("setup-nation-and-first-auctioneer", DiscrepancyKind.RULE),
        ("summary-elimination-in-a-round", DiscrepancyKind.SLIP),
        ("summary-tiles-at-least-once", DiscrepancyKind.SLIP),
        ("summary-zero-bids-without-limit", DiscrepancyKind.SLIP),
        ("summary-token-in-scoring", DiscrepancyKind.AMBIGUITY),
        ("summary-auctioneer-looks-at-company-tiles", DiscrepancyKind.SLIP),
        ("de-industrieplaettchen", DiscrepancyKind.SLIP),
        ("en-industry-tiles-vs-tokens", DiscrepancyKind.WORDING),
        ("early-component-names", DiscrepancyKind.WORDING),
        ("early-no-peek", DiscrepancyKind.RULE),
        ("early-highest-bid-vs-total", DiscrepancyKind.SLIP),
        ("peek-window", DiscrepancyKind.AMBIGUITY),
        ("monopolization-beyond-table", DiscrepancyKind.AMBIGUITY),
        ("no-winner", DiscrepancyKind.AMBIGUITY),
        ("playing-time", DiscrepancyKind.WORDING),
        ("left-vs-clockwise", DiscrepancyKind.WORDING),
        ("sparte-vs-industrie", DiscrepancyKind.WORDING),
        ("start-player-marker-name", DiscrepancyKind.WORDING),
        ("summary-nationalization-a-nation", DiscrepancyKind.SLIP),
        ("summary-rebid-rules", DiscrepancyKind.AMBIGUITY),
        ("zero-bid-standing-or-unsold", DiscrepancyKind.AMBIGUITY),
        ("three-player-last-tile", DiscrepancyKind.AMBIGUITY),
    ],
)
def test_required_entries_are_present(d_id, kind):
    assert get_discrepancy(d_id).kind is kind


@pytest.mark.parametrize(
    ("d_id", "term"),
    [
        ("summary-elimination-in-a-round", "in einer Runde"),
        ("summary-tiles-at-least-once", "mindestens einmal"),
        ("summary-zero-bids-without-limit", "once-per-round"),
    ],
)
def test_the_three_summary_slips(d_id, term):
    entry = get_discrepancy(d_id)
    assert entry.kind is DiscrepancyKind.SLIP
    assert "de-summary" in entry.sources and "de" in entry.sources
    assert term in entry.summary
    assert "summary-slips-follow-de" in entry.interpretations
    assert entry in find_discrepancies(kind="slip", source="de-summary")


def test_rule_entries_match_the_rule_set_values():
    early, en = RULESETS["en-early"], RULESETS["en"]
    assert not en.secret_bid_may_equal_opening and early.secret_bid_may_equal_opening
    assert en.tie_fallback is not early.tie_fallback
    assert early.diversification[5] == {3: 10, 4: 15, 5: 21}
    assert early.scoring_order[0] is qe.Category.SPENDING
    assert en.scoring_order[-1] is qe.Category.SPENDING
    assert not early.has_peek(5) and en.has_peek(5)


# --------------------------------------------------------------------------- filters


def test_filters_by_kind_enum_or_value():
    for kind in DiscrepancyKind:
        by_enum = find_discrepancies(kind=kind)
        assert by_enum == find_discrepancies(kind=kind.value)
        assert by_enum == tuple(d for d in DISCREPANCIES if d.kind is kind)
    assert find_discrepancies() == DISCREPANCIES


def test_filters_by_source_and_topic():
    early = find_discrepancies(source="en-early")
    assert early and all("en-early" in d.sources for d in early)
    assert get_discrepancy("early-no-peek") in early
    ties = find_discrepancies(topic="ties")
    assert ties and {d.topic for d in ties} == {"ties"}
    for source in SOURCES:
        assert find_discrepancies(source=source), source


@given(
    kind=st.none() | st.sampled_from(list(DiscrepancyKind)),
    source=st.none() | st.sampled_from(list(SOURCES)),
    topic=st.none() | st.sampled_from(TOPICS),
    as_value=st.booleans(),
)
def test_filters_combine_as_an_intersection(kind, source, topic, as_value):
    arg = kind.value if (kind is not None and as_value) else kind
    result = find_discrepancies(kind=arg, source=source, topic=topic)
    expected = tuple(
        d
        for d in DISCREPANCIES
        if (kind is None or d.kind is kind)
        and (source is None or source in d.sources)
        and (topic is None or d.topic == topic)
    )
    assert result == expected


@pytest.mark.parametrize(
    ("kwargs", "allowed"),
    [
        ({"kind": "typo"}, "'ambiguity'"),
        ({"kind": 3}, "'rule'"),
        ({"source": "fr"}, "'de-summary'"),
        ({"source": "EN"}, "'en-early'"),
        ({"topic": "auction"}, "'tie-breaks'"),
    ],
)
def test_filters_reject_unknown_values(kwargs, allowed):
    with pytest.raises(qe.InvalidArgument) as info:
        find_discrepancies(**kwargs)
    assert isinstance(info.value, qe.RulesError)
    assert allowed in str(info.value)


KNOWN = {
    "kind": {k.value for k in DiscrepancyKind},
    "topic": set(TOPICS),
    "source": set(SOURCES),
}
MATCHES = {
    "kind": lambda d, value: d.kind.value == value,
    "topic": lambda d, value: d.topic == value,
    "source": lambda d, value: value in d.sources,
}


@given(st.text() | st.sampled_from(sorted(set().union(*KNOWN.values()))))
def test_unknown_kinds_and_topics_raise_only_invalid_argument(text):
    for name in ("kind", "topic", "source"):
        try:
            result = find_discrepancies(**{name: text})
        except qe.InvalidArgument:
            assert text not in KNOWN[name]
            continue
        assert text in KNOWN[name]
        assert result == tuple(d for d in DISCREPANCIES if MATCHES[name](d, text))


def test_get_discrepancy():
    assert get_discrepancy("tie-fallback").fields == ("tie_fallback",)
    for entry in DISCREPANCIES:
        assert get_discrepancy(entry.id) is entry
    with pytest.raises(qe.InvalidArgument, match=r"DISCREPANCIES"):
        get_discrepancy("no-such-entry")
    with pytest.raises(qe.InvalidArgument, match="did you mean 'no-winner'"):
        get_discrepancy("no-winer")
    with pytest.raises(qe.InvalidArgument):
        get_discrepancy(None)  # type: ignore[arg-type]


def test_entries_are_frozen_and_validated():
    entry = DISCREPANCIES[0]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        entry.id = "other"  # type: ignore[misc]
    with pytest.raises(qe.InvalidArgument, match="sources are"):
        Reading("fr", "Règles", "Something.")
    with pytest.raises(qe.InvalidArgument):
        Reading("en", " ", "Something.")
    reading = Reading("en", "Setup 1", "Something.")
    assert str(reading) == "en §Setup 1: Something."
    with pytest.raises(qe.InvalidArgument, match="kebab-case"):
        Discrepancy("Not_Kebab", "ties", DiscrepancyKind.RULE, "s", (reading,), "r")
    with pytest.raises(qe.InvalidArgument, match="topics are"):
        Discrepancy("fine-id", "weather", DiscrepancyKind.RULE, "s", (reading,), "r")
    with pytest.raises(qe.InvalidArgument, match="at least one reading"):
        Discrepancy("fine-id", "ties", DiscrepancyKind.RULE, "s", (), "r")
    made = Discrepancy("fine-id", "ties", DiscrepancyKind.RULE, "s", [reading], "r", ["a"])
    assert made.readings == (reading,) and made.fields == ("a",)


def test_module_imports_only_allowed_modules():
    tree = ast.parse(MODULE.read_text(encoding="utf-8"))
    allowed = {
        "qe_rules.errors",
        "qe_rules.rules.files",
        "qe_rules.rules.model",
        "qe_rules._util.frozen",
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("qe_rules"):
            assert node.module in allowed, node.module
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith("qe_rules") for a in node.names)
