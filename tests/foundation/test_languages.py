"""The table's languages (``qe_rules._util.i18n``): the German catalog is complete, compiled,
and speaks the glossary's game terms."""

import ast
import gettext
import pathlib
import re

from hypothesis import given
from hypothesis import strategies as st
from jinja2.ext import babel_extract

import qe_rules as qe
from qe_rules._util.i18n import LANGUAGES, LOCALE_FOLDER, gettext_for, negotiate
from qe_rules.apps.lobby import AGENT_LEVELS
from qe_rules.game.scoring import score_board_rows
from qe_rules.game.views import Phase
from qe_rules.simulation.play import play_game
from qe_rules.texts.glossary import GLOSSARY

ROOT = pathlib.Path(__file__).resolve().parents[2]
PO = pathlib.Path(LOCALE_FOLDER) / "de" / "LC_MESSAGES" / "qe_rules.po"
MO = PO.with_suffix(".mo")
SPEAKING = [
    "present/text.py",
    "present/svg.py",
    "apps/terminal.py",
    "apps/panels.py",
    "apps/lobby.py",
    "apps/web.py",
    "apps/table_rules.py",
]


def read_po(path):
    """The catalog of a .po file as {msgid: msgstr} (single-line entries, as ours are)."""
    entries, msgid = {}, None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("msgid "):
            msgid = ast.literal_eval(line[6:])
        elif line.startswith("msgstr ") and msgid is not None:
            entries[msgid] = ast.literal_eval(line[7:])
            msgid = None
    entries.pop("", None)
    return entries


def used_msgids():
    """Every msgid the code and the page templates ask for, and those made at run time."""
    found = set()
    for name in SPEAKING:
        tree = ast.parse((ROOT / "qe_rules" / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "_"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.add(node.args[0].value)
    for page in (ROOT / "qe_rules" / "apps" / "web_static").glob("*.html"):
        with page.open("rb") as template:  # the pages' _("...") texts, as Jinja2 finds them
            for _line, _function, message, _comments in babel_extract(template, ["_"], [], {}):
                found.add(message)
    found |= {industry.label for industry in qe.Industry}
    found |= {phase.value for phase in Phase}
    found |= {line for _name, line in AGENT_LEVELS}
    result = play_game("en", 5, "value", seed=1).result()
    found |= {label for label, _values in score_board_rows(result)} | {"out", "last-tile-tie"}
    return found


def test_the_compiled_catalog_is_the_po_file():
    catalog = read_po(PO)
    with MO.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    assert catalog
    for msgid, msgstr in catalog.items():
        assert compiled.gettext(msgid) == msgstr, f"{MO} is stale: compile {PO} with msgfmt"
    assert len(compiled._catalog) - 1 == len(catalog)  # the header is the one more


def test_every_text_the_table_shows_has_a_german_translation():
    catalog = read_po(PO)
    missing = sorted(used_msgids() - catalog.keys())
    assert not missing, missing
    assert all(catalog.values())
    for msgid, msgstr in catalog.items():  # the placeholders survive translation
        assert set(re.findall(r"\{(\w+)\}", msgid)) == set(re.findall(r"\{(\w+)\}", msgstr)), msgid


def test_game_terms_are_the_glossarys():
    """A msgid that is a glossary term's English form is translated by its German form,
    and a longer text naming an industry names it in German as the glossary does."""
    catalog = read_po(PO)
    german = {}  # an English form: the German forms of every term that has it
    for term in GLOSSARY:
        for english in term.en_forms:
            german.setdefault(english.lower(), set()).update(f.lower() for f in term.de_forms)
    checked = 0
    for msgid, msgstr in catalog.items():
        if msgid.lower() in german:
            checked += 1
            assert msgstr.lower() in german[msgid.lower()], msgid
    assert checked >= 10
    industries = [t for t in GLOSSARY if t.kind == "industry" and t.en != "Industry"]
    for msgid, msgstr in catalog.items():
        for term in industries:
            if re.search(rf"\b{term.en}\b", msgid):
                assert term.de in msgstr, (msgid, term.de)


def test_english_is_the_msgid_and_german_is_read_from_the_catalog():
    assert gettext_for("en")("On sale") == "On sale"
    assert gettext_for("de")("On sale") == "Versteigert wird"
    assert LANGUAGES == ("en", "de")


@given(st.text(max_size=300))
def test_negotiate_always_answers_a_language(header):
    assert negotiate(header) in LANGUAGES


def test_negotiate_follows_the_weights():
    assert negotiate("de-DE,de;q=0.9,en;q=0.8") == "de"
    assert negotiate("en-GB, de;q=0.5") == "en"
    assert negotiate("fr, de;q=0.1") == "de"
    assert negotiate("fr") == "en" and negotiate(None) == "en"
    assert negotiate("de;q=x, en") == "en"


def test_a_german_picture_and_text_hold_no_english_table_words():
    game = play_game("en", 4, "value", seed=2)
    middle = qe.replay({**game.to_record(), "moves": game.to_record()["moves"][:20]})
    from qe_rules.present import svg, text

    for view in (middle.view(1), game.view(1)):
        picture = svg.view(view, lang="de")
        words = text.view_text(view, lang="de")
        for english in ("On sale", "auctioneer", "opening bid", "Score board", "Winner", "seat "):
            assert english not in picture and english not in words, english
    board = text.score_board_text(game.result(), lang="de", you=1)
    assert "(du)" in board and "Endergebnis" in board and "Gesamtausgaben" in board
