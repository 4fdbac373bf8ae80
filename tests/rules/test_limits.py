"""Reading rule sets from untrusted input: every bad input is a RulesError, raised before
any work that grows with the input, and a value beyond a limit names the limit."""

import os

import attrs
import pytest

import qe_rules as qe
from qe_rules import limits

EN = qe.RULESETS["en"]


def _toml(rules="", extra=""):
    return f'id = "t"\nextends = "en"\n{extra}\n[rules]\n{rules}\n'


def _record(ruleset):
    game = qe.new_game("en", 4, seed=1)
    record = game.to_record()
    record["ruleset"] = ruleset
    return record


@pytest.mark.parametrize(
    "rules",
    [
        "monopolization = { 3 = { 1000000000 = 5 }, 4 = { 2 = 3 }, 5 = { 2 = 6 } }",
        "nationalization = { 3 = { 1 = 1, 65 = 2 }, 4 = { 1 = 1 }, 5 = { 1 = 1 } }",
    ],
)
def test_a_huge_table_key_names_the_limit(rules):
    with pytest.raises(qe.InvalidRuleSet, match="MAX_TABLE_COUNT"):
        qe.RuleSet.from_toml(_toml(rules))


def test_a_huge_table_key_inline_in_a_game_record_names_the_limit():
    data = EN.to_dict()
    data["id"] = "huge"
    data["rules"]["monopolization"]["3"] = {"1000000000": 5}
    with pytest.raises(qe.InvalidRecord, match="MAX_TABLE_COUNT"):
        qe.replay(_record(data))


@pytest.mark.parametrize(
    "interpretation",
    [
        "gaps = [[1]]",
        "gaps = [{ a = 1 }]",
        "fields = [[1]]",
        "fields = 3",
        "code = [1]",
        "summary = { a = 1 }",
    ],
)
def test_a_wrong_type_in_an_interpretation_is_an_invalid_rule_set(interpretation):
    body = {"code": 'code = "x"', "summary": 'summary = "y"'}
    key = interpretation.split(" ")[0]
    body[key] = interpretation
    text = _toml() + "[[interpretations]]\n" + "\n".join(body.values()) + "\n"
    with pytest.raises(qe.InvalidRuleSet, match=r"interpretations\[0\]"):
        qe.RuleSet.from_toml(text)


@pytest.mark.parametrize(
    "rules",
    [
        "zero_bid_points = [1]",
        "zero_bid_points = { a = 1 }",
        "player_counts = [[3]]",
        'removed_companies = { 3 = [["x"]], 4 = [], 5 = [] }',
        "scoring_order = [{ a = 1 }]",
        "tie_fallback = [1]",
        "deck_sizes = [1]",
        "lowest_spend_bonus = { x = 1, 4 = 1, 5 = 1 }",
    ],
)
def test_a_wrong_type_anywhere_is_an_invalid_rule_set(rules):
    with pytest.raises(qe.InvalidRuleSet):
        qe.RuleSet.from_toml(_toml(rules))


@pytest.mark.parametrize(
    "data",
    [
        {"rules": {1: 2, "a": 3}},
        {"id": "x", "rules": {}, "provenance": {(1,): 2}},
        {"id": ["x"], "rules": dict(EN.to_dict()["rules"]), "provenance": {}},
        {"id": "x", "rules": dict(EN.to_dict()["rules"]), "provenance": {1: {}}},
        None,
        [],
    ],
)
def test_from_dict_refuses_wrong_types_with_a_rules_error(data):
    with pytest.raises(qe.RulesError):
        qe.RuleSet.from_dict(data)


def test_an_integer_too_long_for_python_is_an_invalid_rule_set():
    with pytest.raises(qe.InvalidRuleSet, match="not valid TOML"):
        qe.RuleSet.from_toml(_toml("zero_bid_points = " + "9" * 5000))


@pytest.mark.parametrize("text", [None, b'id = "x"', 3, ["id"]])
def test_from_toml_needs_a_string(text):
    with pytest.raises(qe.InvalidArgument, match="must be a str"):
        qe.RuleSet.from_toml(text)


@pytest.mark.parametrize("path", [None, 3, b"en.toml", ["en.toml"]])
def test_load_ruleset_needs_a_path(path):
    with pytest.raises(qe.InvalidArgument, match=r"str or os\.PathLike"):
        qe.load_ruleset(path)


@pytest.mark.parametrize("path", ["\x00", "", "no/such/file.toml", "."])
def test_load_ruleset_on_a_bad_path_is_an_invalid_rule_set(path):
    with pytest.raises(qe.InvalidRuleSet, match="cannot read"):
        qe.load_ruleset(path)


def test_a_long_extends_chain_names_the_limit(tmp_path):
    depth = limits.MAX_EXTENDS_DEPTH + 5
    for n in range(depth):
        extends = "en" if n == depth - 1 else f"f{n + 1}.toml"
        (tmp_path / f"f{n}.toml").write_text(f'id = "f{n}"\nextends = "{extends}"\n')
    with pytest.raises(qe.InvalidRuleSet, match="MAX_EXTENDS_DEPTH"):
        qe.load_ruleset(tmp_path / "f0.toml")
    ok = tmp_path / f"f{depth - limits.MAX_EXTENDS_DEPTH}.toml"
    assert qe.load_ruleset(ok).id == f"f{depth - limits.MAX_EXTENDS_DEPTH}"


def test_a_file_that_extends_itself_is_refused(tmp_path):
    (tmp_path / "a.toml").write_text('id = "a"\nextends = "b.toml"\n')
    (tmp_path / "b.toml").write_text('id = "b"\nextends = "a.toml"\n')
    with pytest.raises(qe.InvalidRuleSet, match="extends itself"):
        qe.load_ruleset(tmp_path / "a.toml")


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "big.toml"
    with open(path, "wb") as handle:
        handle.write(b'id = "big"\nextends = "en"\n')
        handle.seek(limits.MAX_FILE_BYTES * 64)  # sparse: a huge size, no huge write
        handle.write(b"\n")
    assert os.path.getsize(path) > limits.MAX_FILE_BYTES
    with pytest.raises(qe.InvalidRuleSet, match="MAX_FILE_BYTES"):
        qe.load_ruleset(path)


@pytest.mark.parametrize(
    ("rules", "limit"),
    [
        ("ties_before_fallback = 1000", "MAX_TIES_BEFORE_FALLBACK"),
        ("ties_before_fallback = 1000000000", "MAX_TIES_BEFORE_FALLBACK"),
        ("min_opening_bid = 1000001", "MAX_BID"),
        ("min_secret_bid = 10000000000", "MAX_BID"),
        ("zero_bid_points = 65", "MAX_TABLE_COUNT"),
        ("peeks_per_player = 1000000000", "MAX_TABLE_COUNT"),
        ("zero_bid_limit_per_round = 100", "MAX_TABLE_COUNT"),
        ("deck_sizes = { 3 = 16, 4 = 16, 5 = 1000 }", "MAX_TABLE_COUNT"),
        ("lowest_spend_bonus = { 3 = 6, 4 = 6, 5 = 10000000 }", "MAX_BID"),
        ("diversification = { 3 = { 3 = 4 }, 4 = { 3 = 4 }, 5 = { 3 = 1000000000 } }", "MAX_BID"),
    ],
)
def test_values_beyond_the_limits_are_refused_by_validation(rules, limit):
    with pytest.raises(qe.InvalidRuleSet, match=limit):
        qe.RuleSet.from_toml(_toml(rules))


def test_limits_hold_for_rule_sets_made_in_python_too():
    with pytest.raises(qe.InvalidRuleSet, match="MAX_TIES_BEFORE_FALLBACK"):
        attrs.evolve(EN, id="x", ties_before_fallback=limits.MAX_TIES_BEFORE_FALLBACK + 1)
    at_limit = attrs.evolve(EN, id="x", ties_before_fallback=limits.MAX_TIES_BEFORE_FALLBACK)
    assert at_limit.ties_before_fallback == limits.MAX_TIES_BEFORE_FALLBACK


@pytest.mark.parametrize(
    "extra",
    [
        'title = "' + "x" * (limits.MAX_TEXT_LENGTH + 1) + '"',
        '[provenance.zero_bid_points]\nsection = "s"\nsummary = "' + "x" * 10001 + '"',
    ],
)
def test_strings_longer_than_the_limit_are_refused(extra):
    text = 'id = "t"\nextends = "en"\n' + extra + "\n"
    with pytest.raises(qe.InvalidRuleSet, match="MAX_TEXT_LENGTH"):
        qe.RuleSet.from_toml(text)


def test_a_changed_rule_set_may_not_take_a_built_in_id():
    text = 'id = "de"\nextends = "de"\n[rules]\nzero_bid_points = 3\n'
    with pytest.raises(qe.InvalidRuleSet, match="id of a built-in rule set"):
        qe.RuleSet.from_toml(text)
    changed = attrs.evolve(qe.RULESETS["de"], zero_bid_points=3)
    with pytest.raises(qe.InvalidRuleSet, match="id of a built-in rule set"):
        qe.RuleSet.from_dict(changed.to_dict())
    with pytest.raises(qe.InvalidRecord, match="id of a built-in rule set"):
        qe.replay(_record(changed.to_dict()))


def test_a_rule_set_equal_to_a_built_in_may_keep_its_id():
    for rid, rs in qe.RULESETS.items():
        assert qe.RuleSet.from_toml(rs.to_toml()) == rs
        assert qe.RuleSet.from_dict(rs.to_dict()) is not rs
        assert qe.RuleSet.from_dict(rs.to_dict()) == qe.get_ruleset(rid)
