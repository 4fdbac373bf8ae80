"""Every text people read goes through a catalog, and a language is only its catalog.

A pseudo-locale (``qps``: every letter of every msgid and rulebook template swapped for
an accented one, the placeholders kept) is made in a temporary folder from the template
``qe_rules.pot`` and the English rulebook catalog. The web table's pages and seat state,
the terminal game, the SVG pictures and a rulebook rendered in it hold no plain ASCII
word but identifiers (codes, ids, names): any other is a text that no catalog translates.
A third language, French, is then added as one catalog file and used everywhere."""

import contextlib
import html.parser
import io
import pathlib
import re
import shutil
import string
import tomllib
import xml.etree.ElementTree as ET

import httpx
import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

import qe_rules as qe
from qe_rules._util import i18n
from qe_rules._util import toml as qe_toml
from qe_rules.apps import cli, table_rules
from qe_rules.apps.terminal import TerminalPlayer
from qe_rules.present import svg, text
from qe_rules.simulation.agents import AGENT_NAMES, agent_factory
from qe_rules.simulation.play import play_game
from qe_rules.texts import catalogs
from tests.support.web import live_server

PSEUDO = "qps"
_ACCENTED = "ȧƀƈḓḗƒɠħīĵķŀḿƞǿƥɋřşŧŭṽẇẋẏẑȦƁƇḒḖƑƓĦĪĴĶĿḾȠǾƤɊŘŞŦŬṼẆẊẎẐ"
_SWAP = str.maketrans(string.ascii_lowercase + string.ascii_uppercase, _ACCENTED)
_PLACEHOLDER = re.compile(r"(\{\w*\})")
NAMES = ["Änne", "Bö", "Çem", "Đan", "Ëva"]


def pseudo(text):
    """``text`` with every ASCII letter accented, ``{placeholders}`` kept."""
    return "".join(
        part if _PLACEHOLDER.fullmatch(part) else part.translate(_SWAP)
        for part in _PLACEHOLDER.split(text)
    )


def identifiers():
    """The ASCII words that may stand in any language: codes, ids, rule fields and the
    titles of the texts (as published)."""
    words = {"QE", "qe", "rules", PSEUDO.upper(), PSEUDO}  # the program's name, language codes
    words |= set(i18n.languages()) | {code.upper() for code in i18n.languages()}
    words |= {nation.code for nation in qe.Nation} | {industry.code for industry in qe.Industry}
    words |= set(AGENT_NAMES)  # the programs a host seats: random, value, zero, ...
    words |= {word for code in qe.GAP_CODES for word in code.split("-")}  # rule-gap codes
    for ruleset in qe.RULESETS.values():
        words |= set(re.findall(r"[A-Za-z]+", ruleset.id + " " + ruleset.title))
    return words | set(qe.RuleSet.rule_fields())


def untranslated(texts):
    """The words of ``texts`` in plain ASCII letters that are no identifier."""
    allowed = identifiers()
    texts = [_PLACEHOLDER.sub("", re.sub(r"https?://\S+", "", t)) for t in texts]  # links
    words = {word for t in texts for word in re.findall(r"[^\W\d]+", t)}
    return sorted(
        w for w in words if re.fullmatch(r"[A-Za-z_]*[A-Za-z]{2}[A-Za-z_]*", w) and w not in allowed
    )


def compile_catalog(folder, language, messages):
    """Write ``folder/<language>/LC_MESSAGES/qe_rules.mo`` from {msgid: msgstr} (a plural:
    (msgid, plural): (form, form))."""
    catalog = Catalog(fuzzy=False)
    for msgid, msgstr in messages.items():
        catalog.add(msgid, msgstr)
    target = pathlib.Path(folder) / language / "LC_MESSAGES"
    target.mkdir(parents=True)
    with (target / "qe_rules.mo").open("wb") as handle:
        write_mo(handle, catalog)


def template():
    with open(pathlib.Path(i18n.LOCALE_FOLDER) / "qe_rules.pot", "rb") as handle:
        return [message for message in read_po(handle) if message.id]


def pseudo_rulebook(value):
    """The English rulebook catalog's tables, every text swapped."""
    if isinstance(value, dict):
        return {key: pseudo_rulebook(item) for key, item in value.items()}
    return pseudo(value) if isinstance(value, str) else value


def forget():
    i18n.forget_catalogs()
    catalogs.catalog.cache_clear()
    table_rules._rulebook.cache_clear()
    table_rules._fragment.cache_clear()
    cli._parser.cache_clear()


@pytest.fixture
def locale_folders(tmp_path, monkeypatch):
    """Copies of the shipped table and rulebook catalogs in ``tmp_path`` that the package
    reads instead, as (table folder, rulebook folder); a catalog added there is a new
    language."""
    table = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_FOLDER, table)
    books = tmp_path / "rulebook"
    books.mkdir()
    for path in pathlib.Path(catalogs.CATALOG_FOLDER).glob("*.toml"):
        shutil.copy(path, books)
    monkeypatch.setattr(i18n, "LOCALE_FOLDER", str(table))
    monkeypatch.setattr(catalogs, "CATALOG_FOLDER", str(books))
    forget()
    yield table, books
    monkeypatch.undo()
    forget()


@pytest.fixture
def pseudo_locale(locale_folders):
    """The pseudo-locale ``qps`` for the table and the rulebook."""
    table, books = locale_folders
    compile_catalog(
        table,
        PSEUDO,
        {
            (m.id if isinstance(m.id, str) else tuple(m.id)): (
                pseudo(m.id) if isinstance(m.id, str) else tuple(pseudo(i) for i in m.id)
            )
            for m in template()
        },
    )
    english = tomllib.loads((books / "en.toml").read_text(encoding="utf-8"))
    swapped = pseudo_rulebook(english) | {"language": PSEUDO, "name": pseudo("Pseudo")}
    (books / f"{PSEUDO}.toml").write_text(qe_toml.dumps(swapped), encoding="utf-8")
    forget()
    assert PSEUDO in i18n.languages() and PSEUDO in catalogs.languages()
    return PSEUDO


SHOWN = ("title", "placeholder", "aria-label", "alt", "label")
"""The attributes whose text a person reads or hears."""


class _Text(html.parser.HTMLParser):
    """The words of an HTML page a person reads: text outside scripts and styles, and
    the attributes shown or spoken."""

    def __init__(self):
        super().__init__()
        self.parts = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("script", "style")
        button = tag == "input" and dict(attrs).get("type") in ("submit", "button")
        for name, value in attrs:
            data = name.startswith("data-") and value[:1] not in ("{", "[")  # not JSON
            if value and (name in SHOWN or data or (button and name == "value")):
                self.parts.append(value)

    def handle_endtag(self, tag):
        self.hidden -= tag in ("script", "style")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def page_words(page):
    reader = _Text()
    reader.feed(page)
    return reader.parts


def svg_words(picture):
    return list(ET.fromstring(picture).itertext())


def scripted(player, answers):
    """A ``read_line`` for ``player`` that gives ``answers`` first, then legal moves."""
    given = iter(answers)

    def read_line():
        answer = next(given, None)
        if answer is not None:
            return answer + "\n"
        view = player.game.view(player.seat)
        if player.game.phase is qe.Phase.PEEKING:
            return "y\n"
        return f"{view.limits.legal(view.limits.minimum + 1)}\n"

    return read_line


def terminal_game(lang, answers=("h", "v", "x", "99999999999", "-1")):
    """A whole 5-player game of ``de`` (peeks) at the terminal in ``lang``; its text."""
    game = qe.new_game("de", 5, seed=8)
    agents = [None, *(agent_factory("value", ruleset=game.ruleset)(seat) for seat in range(1, 5))]
    out = io.StringIO()
    player = TerminalPlayer(game, 0, agents, read_line=lambda: "", out=out, lang=lang)
    player.read_line = scripted(player, answers)
    player.play()
    return out.getvalue()


def test_the_terminal_game_speaks_only_the_catalogs_words(pseudo_locale):
    played = terminal_game(pseudo_locale)
    assert pseudo("Winner: {seat} ({nation})").split("{")[0] in played
    assert untranslated([played]) == []
    assert untranslated([terminal_game("en")])  # the check finds English where it is


def test_the_pictures_speak_only_the_catalogs_words(pseudo_locale):
    game = play_game("de", 5, "value", seed=3)
    record = game.to_record()
    middle = qe.replay({**record, "moves": record["moves"][:23]})
    pictures = [
        svg.view(middle.view(2), lang=pseudo_locale, names=NAMES),
        svg.view(middle.public_view(), lang=pseudo_locale),
        svg.view(game.view(0), lang=pseudo_locale),
        svg.score_board(game.result(), NAMES, lang=pseudo_locale),
        svg.tile(qe.Company.parse("US-FIN-2"), lang=pseudo_locale),
        svg.holdings(
            game.view(0).holdings[0],
            nation=qe.Nation.US,
            industry=qe.Industry.FINANCE,
            lang=pseudo_locale,
        ),
        svg.holdings([], lang=pseudo_locale),
    ]
    assert untranslated(w for picture in pictures for w in svg_words(picture)) == []
    words = [
        text.view_text(middle.view(2), lang=pseudo_locale, names=NAMES),
        text.game_text(game, lang=pseudo_locale, names=NAMES),
        text.game_text(middle, lang=pseudo_locale),
        text.score_board_text(game.result(), lang=pseudo_locale, names=NAMES, you=0),
        *(text.event_line(e, lang=pseudo_locale) for e in middle.events),
    ]
    assert untranslated(words) == []


def without_citations(text):
    """``text`` without its citations (``*[en §Gameplay]*``, ``<span class="cite">``):
    they name a section of a source text as that text titles it, in its own language."""
    text = re.sub(r'<span class="cite">[^<]*</span>', "", text)
    return re.sub(r"\[[^\]\n]*§[^\]\n]*\]", "", text)


def test_a_rulebook_speaks_only_its_catalogs_words(pseudo_locale):
    book = qe.rulebook("en-early", lang=pseudo_locale, against="en", cite=True)
    assert untranslated([without_citations(book.to_markdown())]) == []
    assert untranslated(page_words(without_citations(book.to_html()))) == []
    assert untranslated([book.to_markdown()])  # the citations are the texts' own words


@contextlib.contextmanager
def web_client(tmp_path):
    with (
        live_server(tmp_path / "tables.sqlite3") as (base, _server),
        httpx.Client(base_url=base, timeout=30) as client,
    ):
        yield client


def test_the_web_table_speaks_only_the_catalogs_words(pseudo_locale, tmp_path):
    with web_client(tmp_path) as client:
        asked = {"lang": pseudo_locale}
        pages = [client.get("/", params=asked).text, client.get("/lobby", params=asked).text]
        links = client.post(
            "/api/tables",
            json={"ruleset": "de", "players": 5, "seats": ["person", *["zero"] * 4],
                  "names": NAMES, "listed": True, "title": "Äbend"},
        ).json()  # fmt: skip
        token = links["seats"][0].rsplit("/", 1)[1]
        pages += [
            client.get(links["host"], params=asked).text,
            client.get(links["seats"][0], params=asked).text,
            client.get(links["watch"], params=asked).text,
            client.get(f"/join/{links['table']}", params=asked).text,
        ]
        state = client.get(f"/api/seat/{token}/state", params=asked).json()
        assert state["lang"] == pseudo_locale
        for page in pages:
            assert "<html" in page
        words = [w for page in pages for w in page_words(page)]
        for value in state.values():  # log_kinds, lang: identifiers in a list or a string
            if isinstance(value, str) and value.lstrip().startswith("<svg"):
                words += svg_words(value)
            elif isinstance(value, str) and "<" in value:
                words += page_words(value)
        words += [line for line in state.get("log", []) if isinstance(line, str)]
        refused = client.post(f"/api/seat/{token}/bid", params=asked, json={"amount": -1}).json()
        assert refused["code"] == "bid-out-of-range"  # the table refuses it before the rules
        words.append(refused["error"])
        assert untranslated(words) == [], untranslated(words)


FRENCH = {
    "Bid": "Enchère",
    "On sale": "En vente",
    "seat {seat}": "place {seat}",
    "Winner: {seat} ({nation})": "Gagnant : {seat} ({nation})",
}


def test_a_third_language_needs_only_its_catalog(locale_folders, tmp_path, capsys):
    table, _books = locale_folders
    assert "fr" not in i18n.languages()
    compile_catalog(table, "fr", FRENCH)  # one file: qe_rules/data/locale/fr/.../qe_rules.mo
    i18n.forget_catalogs()
    cli._parser.cache_clear()
    assert i18n.languages() == ("en", "de", "fr")
    assert i18n.gettext_for("fr")("On sale") == "En vente"
    assert i18n.negotiate("fr-CH, de;q=0.5") == "fr"
    assert i18n.environment_language({"LANG": "fr_FR.UTF-8"}) == "fr"
    game = play_game("en", 4, "value", seed=1)
    assert "Gagnant : place " in text.score_board_text(game.result(), lang="fr")
    assert "En vente" in svg.view(game.view(0), lang="fr") or game.is_over
    played = terminal_game("fr", answers=("h",))  # h: the rules, from the English rulebook
    assert "Gagnant : place " in played and "How to play" in played
    assert table_rules.rulebook_language("fr") == "en"
    with web_client(tmp_path) as client:
        page = client.get("/", headers={"Accept-Language": "fr"}).text
        assert '<html lang="fr">' in page and 'hreflang="de"' in page
        assert client.get("/?lang=de").text.count('hreflang="fr"') == 1
