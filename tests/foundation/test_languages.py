"""The table's languages (``qe_rules._util.i18n``): found from the catalogs on disk; each
catalog is complete against the template, compiled, and (German) speaks the glossary's
game terms. Catalogs are read with Babel, as a translator's tools write them (wrapped
lines, flags, comments)."""

import gettext
import pathlib
import re

import pytest
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st

from qe_rules._util.i18n import (
    LOCALE_FOLDER,
    environment_language,
    gettext_for,
    languages,
    negotiate,
)
from qe_rules.errors import InvalidArgument
from qe_rules.texts.glossary import GLOSSARY

TEMPLATE = pathlib.Path(LOCALE_FOLDER) / "qe_rules.pot"
TRANSLATED = [code for code in languages() if code != "en"]


def po_path(language):
    return pathlib.Path(LOCALE_FOLDER) / language / "LC_MESSAGES" / "qe_rules.po"


def read_catalog(path):
    """A .po or .pot file as Babel reads it."""
    with path.open("rb") as handle:
        return read_po(handle)


def translations(language):
    """The catalog of ``language`` as {msgid: msgstr}: its translated entries, as msgfmt
    compiles them (no fuzzy entry, no empty one). A text with a plural is
    ``(msgid, msgid_plural)``: ``(msgstr[0], msgstr[1], ...)``."""
    return {
        message.id: message.string
        for message in read_catalog(po_path(language))
        if message.id and message.string and all(message.string) and not message.fuzzy
    }


def template_ids():
    return {message.id for message in read_catalog(TEMPLATE) if message.id}


def placeholders(text):
    texts = text if isinstance(text, tuple) else (text,)
    return {name for one in texts for name in re.findall(r"\{(\w+)\}", one)}


def test_the_languages_are_english_and_every_compiled_catalog():
    on_disk = sorted(
        path.parent.parent.name for path in pathlib.Path(LOCALE_FOLDER).glob("*/LC_MESSAGES/*.mo")
    )
    assert languages() == ("en", *on_disk)
    assert "de" in on_disk


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalog_is_the_po_file(language):
    catalog = translations(language)
    with po_path(language).with_suffix(".mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    assert catalog
    stale = f"{language}: qe_rules.mo is stale: compile qe_rules.po with msgfmt"
    entries = 0
    for msgid, msgstr in catalog.items():
        if isinstance(msgid, tuple):  # a plural: one compiled entry per form
            forms = {compiled.ngettext(*msgid, count) for count in range(30)}
            assert forms == set(msgstr), stale
            entries += len(msgstr)
        else:
            assert compiled.gettext(msgid) == msgstr, stale
            entries += 1
    assert len(compiled._catalog) - 1 == entries, stale  # the header is the one more


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalog_header_has_what_msgfmt_check_asks_for(language):
    header = read_catalog(po_path(language)).mime_headers
    fields = dict(header)
    for name in ("PO-Revision-Date", "Last-Translator", "Language-Team", "Language"):
        assert fields.get(name), f"{language}: the header lacks {name}"
    assert "YEAR" not in fields["PO-Revision-Date"], "the template's placeholder date"
    assert fields["Language"] == language
    assert "charset=utf-8" in fields["Content-Type"].lower()


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_text_of_the_template_is_translated_with_its_placeholders(language):
    template = template_ids()
    catalog = translations(language)
    missing = sorted(template - catalog.keys())
    assert not missing, f"{language} lacks: {missing}"
    stale = sorted(catalog.keys() - template)
    assert not stale, f"{language} translates texts no longer asked for: {stale}"
    for msgid, msgstr in catalog.items():
        assert placeholders(msgid) == placeholders(msgstr), (language, msgid)


def test_game_terms_are_the_glossarys():
    """A msgid that is a glossary term's English form is translated by its German form,
    and a longer text naming an industry names it in German as the glossary does."""
    catalog = translations("de")
    german = {}  # an English form: the German forms of every term that has it
    for term in GLOSSARY:
        for english in term.en_forms:
            german.setdefault(english.lower(), set()).update(f.lower() for f in term.de_forms)
    checked = 0
    for msgid, msgstr in catalog.items():
        if isinstance(msgid, str) and msgid.lower() in german:
            checked += 1
            assert msgstr.lower() in german[msgid.lower()], msgid
    assert checked >= 10
    industries = [t for t in GLOSSARY if t.kind == "industry" and t.en != "Industry"]
    for msgid, msgstr in catalog.items():
        for term in industries:
            if re.search(rf"\b{term.en}\b", str(msgid)):
                assert term.de in str(msgstr), (msgid, term.de)


def test_english_is_the_msgid_and_german_is_read_from_the_catalog():
    assert gettext_for("en")("On sale") == "On sale"
    assert gettext_for("de")("On sale") == "Versteigert wird"
    with pytest.raises(InvalidArgument, match="unknown language 'xx'; languages are en, de"):
        gettext_for("xx")


@given(st.text(max_size=300))
def test_negotiate_always_answers_a_language(header):
    assert negotiate(header) in languages()


def test_negotiate_follows_the_weights():
    assert negotiate("de-DE,de;q=0.9,en;q=0.8") == "de"
    assert negotiate("en-GB, de;q=0.5") == "en"
    assert negotiate("fr, de;q=0.1") == "de"
    assert negotiate("fr") == "en" and negotiate(None) == "en"
    assert negotiate("de;q=x, en") == "en"


@pytest.mark.parametrize(
    ("environment", "language"),
    [
        ({}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "de_AT"}, "de"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX", "LANGUAGE": ""}, "en"),
        ({"LANG": "en_GB.UTF-8", "LC_MESSAGES": "de_CH.UTF-8"}, "de"),
        ({"LANG": "de_DE.UTF-8", "LC_ALL": "C"}, "en"),
        ({"LANG": "de_DE.UTF-8", "LANGUAGE": "fr:de"}, "de"),
        ({"LANG": "de_DE.UTF-8", "LANGUAGE": "en_US:de"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LC_ALL": "de_DE@euro"}, "de"),
    ],
)
def test_the_environment_names_the_language_as_gettext_reads_it(environment, language):
    assert environment_language(environment) == language


@given(st.dictionaries(st.sampled_from(["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"]), st.text()))
def test_any_environment_gives_a_language(environment):
    assert environment_language(environment) in languages()


def test_a_german_picture_and_text_hold_no_english_table_words():
    import qe_rules as qe
    from qe_rules.present import svg, text
    from qe_rules.simulation.play import play_game

    game = play_game("en", 4, "value", seed=2)
    middle = qe.replay({**game.to_record(), "moves": game.to_record()["moves"][:20]})
    for view in (middle.view(1), game.view(1)):
        picture = svg.view(view, lang="de")
        words = text.view_text(view, lang="de")
        for english in ("On sale", "auctioneer", "opening bid", "Score board", "Winner", "seat "):
            assert english not in picture and english not in words, english
    board = text.score_board_text(game.result(), lang="de", you=1)
    assert "(du)" in board and "Endergebnis" in board and "Gesamtausgaben" in board
