"""The checker of generated texts (``qe_rules.verification.texts``): every built-in and a
few hundred random variants, in both languages and both editions, say what their rule
set says; a contradiction, a missing rule, a borrowed citation or a glossary slip
planted in the data makes it fail."""

import shutil

import pytest

import qe_rules as qe
from qe_rules.texts import catalogs
from qe_rules.texts.catalogs import catalog, outline
from qe_rules.texts.rulebooks import rulebook
from qe_rules.verification.texts import (
    FINDING_KINDS,
    check_rulebook,
    check_texts,
    random_variants,
)


@pytest.mark.parametrize(
    "variants",
    # CI (.ci/run runs the slow tests too) checks 200 random variants; the quick run 20
    [20, pytest.param(200, marks=pytest.mark.slow)],
)
def test_every_generated_text_says_what_its_rule_set_says(variants):
    report = check_texts(variants=variants, seed=37)
    assert report.counts() == dict.fromkeys(FINDING_KINDS, 0), report.to_text()[:3000]
    # four built-ins and the variants, in two languages and two editions
    assert report.rulebooks == (4 + variants) * 2 * 2
    assert report.checks > 300 * report.rulebooks
    assert report.variants == variants
    assert "0 missing, 0 contradiction, 0 citation, 0 glossary" in report.to_text()


def test_the_random_variants_change_every_kind_of_rule():
    variants = random_variants(60, seed=1)
    changed = {
        field
        for rules in variants
        for field in qe.RuleSet.rule_fields()
        if getattr(rules, field) != getattr(qe.RULESETS[rules.id.partition(":")[0]], field)
    }
    assert changed == set(qe.RuleSet.rule_fields())
    assert random_variants(5, seed=3) == random_variants(5, seed=3)


@pytest.fixture
def planted(tmp_path, monkeypatch):
    """Edit a copy of the catalogs and the outline: ``plant(file, old, new)``."""
    for name in ("outline.toml", "en.toml", "de.toml"):
        shutil.copy(f"{catalogs.CATALOG_FOLDER}/{name}", tmp_path / name)
    monkeypatch.setattr(catalogs, "CATALOG_FOLDER", str(tmp_path))
    catalog.cache_clear()
    outline.cache_clear()

    def plant(name, old, new):
        path = tmp_path / name
        text = path.read_text(encoding="utf-8")
        assert old in text, old
        path.write_text(text.replace(old, new), encoding="utf-8")
        catalog.cache_clear()
        outline.cache_clear()

    yield plant
    catalog.cache_clear()
    outline.cache_clear()


def _findings(spec, lang="en", **options):
    rules = qe.get_ruleset(spec)
    found, _ = check_rulebook(rulebook(rules, lang=lang, **options), rules)
    return found


@pytest.mark.parametrize(
    ("name", "old", "new", "spec", "lang"),
    [
        # the review's slip: en-early's secret bid may equal the opening bid
        (
            "en.toml",
            'false = "A rebid may not equal the opening bid."',
            'false = "A rebid may not equal the opening bid, just as a secret bid may not."',
            "en-early",
            "en",
        ),
        (
            "de.toml",
            'false = "Ein neues Gebot darf nicht genauso hoch sein wie das Eröffnungsgebot."',
            'false = "Auch ein neues Gebot darf nicht genauso hoch sein wie das Eröffnungsgebot."',
            "en-early",
            "de",
        ),
        # a relation keyed to the wrong value of the other rule
        (
            "en.toml",
            '"false|secret_bid_may_equal_opening=false"',
            '"false|secret_bid_may_equal_opening=true"',
            "en-early",
            "en",
        ),
        # two readings' sentences swapped
        (
            "en.toml",
            'true = "A secret bid may equal the opening bid."\n'
            'false = "A secret bid may not equal the opening bid."',
            'true = "A secret bid may not equal the opening bid."\n'
            'false = "A secret bid may equal the opening bid."',
            "en",
            "en",
        ),
        # a number written into a template instead of the rule's value
        (
            "en.toml",
            'text = "Each player who bid zero scores {value} {vp}."',
            'text = "Each player who bid zero scores 2 {vp}."',
            "en:zero_bid_points=3",
            "en",
        ),
        # a frame paragraph that states another value of the rule it depends on
        (
            "en.toml",
            'false = "Spending costs you only the money: nobody is eliminated for it."',
            'false = "But money spent counts against you: whoever spent the most in all is '
            'eliminated at the end, whatever their points."',
            "en:eliminate_highest_spender=false",
            "en",
        ),
    ],
)
def test_a_planted_contradiction_makes_the_checker_fail(planted, name, old, new, spec, lang):
    assert _findings(spec, lang) == []
    planted(name, old, new)
    found = _findings(spec, lang)
    assert found and {f.kind for f in found} == {"contradiction"}, found


def test_a_rule_left_out_is_missing(planted):
    planted("outline.toml", '"secret_bid_may_equal_opening"]', "]")
    found = _findings("en")
    assert [(f.kind, f.where) for f in found] == [("missing", "secret_bid_may_equal_opening")]


def test_a_borrowed_or_unknown_section_is_a_citation_finding(planted, monkeypatch):
    planted(
        "outline.toml",
        '[fixed.deal_tokens]\ncite = { en = "Setup 2", en-early = { section = '
        '"Objective/(untitled setup steps)", basis = "interpretation" },',
        '[fixed.deal_tokens]\ncite = { en = "Setup 2", en-early = "Setup",',
    )
    found = _findings("en-early", cite=True)
    assert [(f.kind, f.where) for f in found] == [("citation", "deal_tokens")]
    assert "a section en-early does not have" in found[0].detail
    from qe_rules.texts import rulebooks

    monkeypatch.setattr(rulebooks._Writer, "_frame_cite", lambda self, key: "en §Setup 2")
    borrowed = _findings("en-early", cite=True)
    assert borrowed and {f.kind for f in borrowed} == {"citation"}
    assert all("borrows en §Setup 2" in f.detail for f in borrowed)


def test_a_paragraph_without_its_citation_is_found(monkeypatch):
    from qe_rules.texts import rulebooks

    original = rulebooks._Writer._cite
    monkeypatch.setattr(
        rulebooks._Writer,
        "_cite",
        lambda self, fields, frame: "" if "tie_streak" in fields else original(self, fields, frame),
    )
    found = _findings("en", cite=True)
    assert [(f.kind, f.where) for f in found] == [("citation", "tie_streak")]


def test_a_word_the_glossary_rules_out_is_a_glossary_slip(planted):
    planted(
        "de.toml",
        '1 = "Ein Gebot ansehen darfst du einmal im Spiel."',
        '1 = "Nachsehen darfst du einmal im Spiel."',
    )
    found = _findings("de", "de")
    assert [(f.kind, f.where) for f in found] == [("glossary", "See the winning bid")]
    assert "'Nachsehen'; the glossary's term is 'Höchstgebot ansehen'" in found[0].detail


def test_the_report_says_what_it_found():
    report = check_texts(["en-early"], variants=1, seed=2, langs=["de"], editions=["print"])
    assert report.rulebooks == 2 and report.findings == ()
    assert report.to_text().startswith("Checked 2 rulebooks (1 random variants")
