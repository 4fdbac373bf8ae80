"""Reconciling the texts: diffs, TOML rule sets, generated pages and the commands."""

import contextlib
import io
import json
import pathlib

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules import RULESETS, RuleSet
from qe_rules import strategies as qst
from qe_rules.apps.cli import main
from qe_rules.apps.pages import page_makers
from tests.support import examples

VERIFICATION_PAGE = "verification.md"  # the verifier on every built-in: slow

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "qe_rules" / "data" / "house" / "house-equal-bids.toml"


def run(*argv):
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


# ----------------------------------------------------------------- diffs


def test_en_and_en_early_differ_in_the_known_rules():
    fields = {f.field for f in qe.diff("en", "en-early").rules}
    assert {
        "secret_bid_may_equal_opening",
        "tie_fallback",
        "diversification",
        "scoring_order",
        "nation_assignment",
        "first_auctioneer",
    } <= fields
    assert qe.diff("en", "en-early").field("diversification").players == (3, 4, 5)


def test_en_and_de_differ_only_in_what_a_peek_shows():
    """Literally en's peek shows the winning bid and de's the highest bid."""
    change = qe.diff("en", "de")
    assert not change.rules_agree
    assert [(f.field, f.a, f.b) for f in change.rules] == [
        ("peek_shows", qe.PeekShows.WINNING_AMOUNT, qe.PeekShows.HIGHEST_BID)
    ]
    assert {m.name for m in change.metadata} == {"id", "title", "language", "source"}
    assert len(change.agreeing) == len(RuleSet.rule_fields()) - 1


def test_a_rule_set_does_not_differ_from_itself():
    change = qe.diff("en-early", qe.get_ruleset("en-early"))
    assert not change
    with pytest.raises(qe.InvalidArgument, match="agree on 'tie_fallback'"):
        change.field("tie_fallback")


def test_a_diff_is_true_when_rules_or_metadata_differ():
    assert not qe.diff("en", "en")
    assert bool(qe.diff("en", "en-early"))
    assert bool(qe.diff("en", "de")) and not qe.diff("en", "de").rules_agree
    assert qe.diff("de", "de-summary").rules_agree


@given(qst.rulesets(), qst.rulesets())
@examples(50)
def test_diff_is_symmetric(a, b):
    forward, backward = qe.diff(a, b), qe.diff(b, a)
    assert backward == forward.mirror()
    assert forward.mirror().mirror() == forward
    assert {f.field for f in forward.rules} | set(forward.agreeing) == set(RuleSet.rule_fields())
    for change in forward.rules:
        assert getattr(a, change.field) == change.a != change.b == getattr(b, change.field)
        assert change.a_cite == a.cite(change.field)
    assert json.loads(json.dumps(forward.to_dict())) == forward.to_dict()


# ----------------------------------------------------------------- TOML


@given(qst.rulesets())
@examples(60)
def test_toml_round_trip(ruleset):
    assert RuleSet.from_toml(ruleset.to_toml()) == ruleset
    base = ruleset.id.removesuffix("-variation")
    assert RuleSet.from_toml(ruleset.to_toml(base=base)) == ruleset


@given(
    st.text(max_size=40).filter(lambda text: text.strip() and text.isprintable()),
    st.sampled_from(list(RULESETS)),
)
@examples(60)
def test_toml_strings_round_trip(text, base):
    ruleset = attrs.evolve(RULESETS[base], id="custom", title=text)
    assert RuleSet.from_toml(ruleset.to_toml(base=base)) == ruleset


def test_the_example_house_rules_load_and_play():
    house = qe.load_ruleset(EXAMPLE)
    assert house.id == "house-equal-bids"
    assert house.secret_bid_may_equal_opening and house.rebid_may_equal_opening
    assert house.cite("secret_bid_may_equal_opening").source == "house-equal-bids"
    assert house.cite("tie_fallback") == RULESETS["en"].cite("tie_fallback")
    assert [f.field for f in qe.diff("en", house).rules] == [
        "secret_bid_may_equal_opening",
        "rebid_may_equal_opening",
    ]
    assert qe.new_game(house, 4, seed=1).bid(0, 5).can_bid(1, 5)


def write(tmp_path, text, name="custom.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_overrides_without_provenance_cite_the_file(tmp_path):
    path = write(tmp_path, 'id = "mine"\nextends = "de"\n[rules]\nzero_bid_points = 3\n')
    mine = qe.load_ruleset(path)
    cite = mine.cite("zero_bid_points")
    assert (cite.source, cite.section) == ("mine", "custom.toml")
    assert mine.language == "de" and mine.interpretations == RULESETS["de"].interpretations


def test_a_file_can_extend_another_file(tmp_path):
    write(tmp_path, 'id = "a"\nextends = "en"\n[rules]\nzero_bid_points = 3\n', "a.toml")
    path = write(tmp_path, 'id = "b"\nextends = "a.toml"\n[rules]\npeeks_per_player = 2\n')
    b = qe.load_ruleset(path)
    assert (b.zero_bid_points, b.peeks_per_player) == (3, 2)
    write(tmp_path, 'id = "c"\nextends = "d.toml"\n', "c.toml")
    write(tmp_path, 'id = "d"\nextends = "c.toml"\n', "d.toml")
    with pytest.raises(qe.InvalidRuleSet, match="extends itself"):
        qe.load_ruleset(tmp_path / "c.toml")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('id = "x"\nextends = "en"\n[rules]\nbids = 3\n', "unknown rule fields \\['bids'\\]"),
        (
            'id = "x"\nextends = "en"\n[rules]\nzero_bid_points = "two"\n',
            "rules.zero_bid_points: needs a whole number",
        ),
        (
            'id = "x"\nextends = "en"\n[rules]\nsecret_bid_may_equal_opening = 1\n',
            "needs true or false",
        ),
        (
            'id = "x"\nextends = "en"\n[rules.monopolization]\n3 = {2 = 3, 4 = 10}\n'
            "4 = {2 = 3}\n5 = {2 = 6}\n",
            "skips a count",
        ),
        (
            'id = "x"\nextends = "en"\n[rules.removed_companies]\n3 = ["UK-HOU-9"]\n'
            "4 = []\n5 = []\n",
            r"removed_companies.3\[0\].*not one of the 21 company tiles",
        ),
        ('id = "x"\nextends = "en"\n[rules]\ntie_fallback = "coin"\n', "needs one of"),
        ('id = "x"\nextends = "fr"\n', "'fr' is neither a built-in rule set"),
        ('id = "x"\nextends = "en"\ncolour = "red"\n', "unknown keys \\['colour'\\]"),
        ('extends = "en"\n', "id: needs a non-empty string"),
        ('id = "x"\n[rules]\nzero_bid_points = 3\n', "missing rule fields"),
        (
            'id = "x"\nextends = "en"\n[provenance.zero_bid_points]\nsection = "s"\n',
            "missing 'summary'",
        ),
        (
            'id = "x"\nextends = "en"\n[[interpretations]]\ncode = "c"\nsummary = "s"\n'
            'gaps = ["nope"]\n',
            "'nope' is not a gap code",
        ),
        ("id = = 3\n", "not valid TOML"),
    ],
)
def test_malformed_toml_names_the_file_and_the_key(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(qe.InvalidRuleSet, match=message) as info:
        qe.load_ruleset(path)
    assert str(info.value).startswith(str(path))


def test_deeply_nested_toml(tmp_path):
    path = write(tmp_path, "a = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(qe.InvalidRuleSet, match="nested too deeply"):
        qe.load_ruleset(path)


def test_unreadable_files(tmp_path):
    with pytest.raises(qe.InvalidRuleSet, match="cannot read"):
        qe.load_ruleset(tmp_path / "missing.toml")
    path = tmp_path / "latin.toml"
    path.write_bytes(b'id = "\xe9"\n')
    with pytest.raises(qe.InvalidRuleSet, match="not UTF-8"):
        qe.load_ruleset(path)


TOML_VALUES = st.recursive(
    st.booleans() | st.integers(-3, 30) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@given(
    st.dictionaries(
        st.sampled_from(
            [
                "id",
                "extends",
                "rules",
                "provenance",
                "interpretations",
                "title",
                "inherit_interpretations",
                "x",
            ]
        ),
        TOML_VALUES,
    ),
    st.dictionaries(st.sampled_from(RuleSet.rule_fields()), TOML_VALUES, max_size=3),
)
@examples(200)
def test_random_toml_raises_only_rules_errors(top, rules):
    from qe_rules._util.toml import dumps

    data = {"id": "x", "extends": "en", **top}
    if isinstance(data.get("rules"), dict):
        data["rules"] = {**data["rules"], **rules}
    try:
        text = dumps(data)
    except TypeError:
        return
    with contextlib.suppress(qe.RulesError):
        RuleSet.from_toml(text)


@given(st.text(max_size=60))
@examples(100)
def test_random_text_raises_only_rules_errors(text):
    with contextlib.suppress(qe.RulesError):
        RuleSet.from_toml(text)


def test_extending_a_custom_rule_set_is_refused():
    house = attrs.evolve(RULESETS["en"], id="house")
    with pytest.raises(qe.InvalidArgument, match="only a built-in rule set"):
        RULESETS["en"].to_toml(base=house)


# ----------------------------------------------------------------- generated pages


def check_pages_are_current(names):
    for name, make in page_makers().items():
        if name not in names:
            continue
        path = ROOT / "docs" / name
        assert path.exists(), f"docs/{name} is missing: run qe-rules docs"
        text = make()
        assert path.read_text(encoding="utf-8") == text, f"docs/{name} is stale: run qe-rules docs"


def test_generated_pages_are_current():
    check_pages_are_current(set(page_makers()) - {VERIFICATION_PAGE})


@pytest.mark.slow
def test_the_generated_verification_page_is_current(commands_verify_once):
    check_pages_are_current({VERIFICATION_PAGE})


def test_the_docs_command_writes_and_checks(tmp_path, commands_verify_at_once):
    assert run("docs", "--check", str(tmp_path))[0] == 1
    status, text = run("docs", str(tmp_path), "--force")  # a folder without pages yet
    assert status == 0 and "reconciliation.md" in text
    assert run("docs", "--check", str(tmp_path)) == (0, "")
    (tmp_path / "verification.md").write_text("old", encoding="utf-8")
    status, text = run("docs", "--check", str(tmp_path))
    assert status == 1 and "verification.md" in text


def test_every_builtin_has_a_page_listing_every_rule():
    for ruleset in RULESETS.values():
        page = (ROOT / "docs" / "rulesets" / f"{ruleset.id}.md").read_text(encoding="utf-8")
        for name in RuleSet.rule_fields():
            assert f"`{name}`" in page
        for item in ruleset.interpretations:
            assert f"`{item.code}`" in page


# ----------------------------------------------------------------- commands


def test_cli_diff():
    status, text = run("diff", "en", "en-early")
    assert status == 0
    for field in (
        "secret_bid_may_equal_opening",
        "tie_fallback",
        "diversification",
        "scoring_order",
        "nation_assignment",
    ):
        assert f"[{field}]" in text
    status, text = run("diff", "en", "de")
    assert "[peek_shows]" in text and "agree on every rule" not in text
    status, text = run("diff", "de", "de-summary")
    assert "agree on every rule" in text
    status, text = run("diff", "en", str(EXAMPLE), "--format", "json")
    assert [r["field"] for r in json.loads(text)["rules"]] == [
        "secret_bid_may_equal_opening",
        "rebid_may_equal_opening",
    ]
    status, text = run("diff", "en-early", "en", "--format", "markdown")
    assert text.startswith("| rule | `en-early` | `en` |")


def test_cli_rules_and_toml_output(tmp_path):
    status, text = run("rules", "de-summary")
    assert status == 0 and "de-summary §Sonderregeln bei QE/5 Spieler" in text
    status, text = run("rules", "en-early", "--format", "toml", "--base", "en")
    path = write(tmp_path, text)
    assert qe.load_ruleset(path) == RULESETS["en-early"]
    status, text = run("rules", "en", "--format", "json")
    assert RuleSet.from_dict(json.loads(text)) == RULESETS["en"]


def test_cli_discrepancies_lists_the_summary_slips():
    status, text = run("discrepancies", "--class", "slip", "--format", "json")
    entries = json.loads(text)
    assert status == 0 and {e["kind"] for e in entries} == {"slip"}
    summary = [e for e in entries if any(r["source"] == "de-summary" for r in e["readings"])]
    ids = {e["id"] for e in summary}
    assert {
        "summary-elimination-in-a-round",
        "summary-tiles-at-least-once",
        "summary-zero-bids-without-limit",
    } <= ids
    assert all(e["resolution"] for e in summary)


def test_cli_glossary():
    status, text = run("glossary", "Sparte")
    assert status == 0 and "Industry" in text and "False friend" in text
    status, text = run("glossary", "--format", "json")
    assert len(json.loads(text)) == len(qe.GLOSSARY)


def test_cli_errors(capsys, tmp_path):
    assert run("diff", "en", "fr")[0] == 2
    assert "unknown rule set 'fr'" in capsys.readouterr().err
    bad = write(tmp_path, 'id = "x"\nextends = "en"\n[rules]\nbids = 1\n')
    assert run("rules", str(bad))[0] == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown rule fields" in err
    assert run("glossary", "zzzz")[0] == 2
