"""People at the web tables (``qe_rules.apps.lobby``, ``panels``, ``table_rules``): names,
the lobby, joining, rematches, the pages' language, custom rule sets and the rules help."""

import contextlib
import re
import time

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules.apps import web
from qe_rules.apps.lobby import MAX_NAME_LENGTH, check_name, page_environment
from qe_rules.apps.panels import panel_data
from qe_rules.apps.table_rules import RuleChoices, rules_help, rules_help_text
from qe_rules.simulation.play import play_game
from tests.support.web import live_server


@contextlib.contextmanager
def _client(tmp_path, **options):
    """An HTTP client of a live server; ``client.server`` is its TableServer."""
    with (
        live_server(tmp_path / "tables.sqlite3", **options) as (base, server),
        httpx.Client(base_url=base, timeout=30) as client,
    ):
        client.server = server
        yield client


def _make(client, **body):
    data = {"ruleset": "en", "players": 3, "seats": ["person", "person", "zero"], **body}
    response = client.post("/api/tables", json=data)
    assert response.status_code == 201, response.text
    return response.json()


def test_names_reach_every_page_and_a_joining_player_names_their_seat(tmp_path):
    with _client(tmp_path) as client:
        links = _make(client, names=["Anna", "", "Zed <b>"], title="Abend", listed=True)
        table = client.server.tables[links["table"]]
        assert table.names == ("Anna", "", "Zed <b>")
        assert f"/join/{links['table']}" in client.get(links["host"]).text
        lobby = client.get("/lobby", headers={"Accept-Language": "de"}).text
        assert "Abend" in lobby and "freie Plätze: 1" in lobby  # Anna's seat is kept for her
        join = client.get(f"/join/{links['table']}").text
        assert 'value="1"' in join and 'value="0"' not in join
        taken = client.post(
            f"/join/{links['table']}", data={"seat": "1", "name": "Ben"}, follow_redirects=False
        )
        assert taken.status_code == 303
        ben = taken.headers["location"].split("?")[0]
        assert ben == f"/seat/{table.tokens[1]}" and ben != links["seats"][1]  # a new link
        assert "replaced" in client.get(links["seats"][1]).json()["error"]  # the old one ended
        assert "No open table" in client.get("/lobby").text  # no free seat is left
        again = client.post(f"/join/{links['table']}", data={"seat": "1", "name": "Eve"})
        assert again.status_code == 409 and table.names[1] == "Ben"
        state = client.get(f"/api/seat/{ben.rsplit('/', 1)[1]}/state").json()
        assert state["names"] == ["Anna", "Ben", "Zed <b>"]
        assert "Zed <b>" not in state["board"] and "Zed &lt;b&gt;" in state["board"]
        token = links["seats"][0].rsplit("/", 1)[1]
        renamed = client.post(f"/api/seat/{token}/name", json={"name": "Anne"})
        assert renamed.json()["names"][0] == "Anne"
        bad = client.post(f"/api/seat/{token}/name", json={"name": "x" * (MAX_NAME_LENGTH + 1)})
        assert bad.status_code == 409 and table.names[0] == "Anne"


def test_an_unlisted_table_is_in_no_lobby_and_cannot_be_joined(tmp_path):
    with _client(tmp_path) as client:
        links = _make(client)
        assert links["table"] not in client.get("/lobby").text
        assert client.get(f"/join/{links['table']}").status_code == 404


def test_names_and_seats_survive_a_restart(tmp_path):
    with _client(tmp_path) as client:
        links = _make(client, names=["Anna", "Ben", ""], seats=["person"] * 3, listed=True)
        client.get(links["seats"][0])
    with _client(tmp_path) as client:
        assert links["table"] not in client.server.tables  # not replayed at start
        lobby = client.get("/lobby").text
        assert f"/join/{links['table']}" in lobby and links["table"] not in client.server.tables
        state = client.get(links["watch"].replace("/watch/", "/api/watch/") + "/state").json()
        assert state["names"][:2] == ["Anna", "Ben"]
        assert client.server.tables[links["table"]].names == ("Anna", "Ben", "")
        join = client.get(f"/join/{links['table']}").text  # Ben's seat is kept for him
        assert 'value="2"' in join and 'value="1"' not in join and 'value="0"' not in join


def test_a_rematch_seats_the_same_people_at_one_new_table(tmp_path):
    with _client(tmp_path) as client:
        links = _make(client, names=["Anna", "Ben", "Zoe"], seats=["person", "zero", "person"])
        server = client.server
        table = server.tables[links["table"]]
        tokens = [None if link is None else link.rsplit("/", 1)[1] for link in links["seats"]]
        early = client.post(f"/api/seat/{tokens[0]}/rematch")
        assert early.status_code == 409  # not before the end
        while not table.game.is_over:  # the people bid their least, the agent zero
            people = sorted(s for s in table.game.to_act if tokens[s] is not None)
            for seat in people:
                amount = table.game.view(seat).limits.legal(0)
                body = {"amount": amount, "version": table.version}
                moved = client.post(f"/api/seat/{tokens[seat]}/bid", json=body)
                assert moved.status_code in (200, 409), moved.text  # 409: the game moved on
            if not people:
                time.sleep(0.01)  # the agent's move
        first = client.post(f"/api/seat/{tokens[0]}/rematch").json()
        second = client.post(f"/api/seat/{tokens[2]}/rematch").json()
        assert first["watch"] == second["watch"]
        new = server.tables[first["watch"].rsplit("/", 1)[1]]
        assert new.names == ("Anna", "Ben", "Zoe") and new.kinds == table.kinds
        assert (
            first["seat"] == f"/seat/{new.tokens[0]}" and second["seat"] == f"/seat/{new.tokens[2]}"
        )
        watch = client.get(f"/api/watch/{table.id}/rematch").json()
        assert watch["watch"] == first["watch"]


def test_pages_speak_the_language_asked_for(tmp_path):
    with _client(tmp_path) as client:
        assert "ein neuer Tisch" in client.get("/", headers={"Accept-Language": "de-AT"}).text
        assert "a new table" in client.get("/", headers={"Accept-Language": "fr"}).text
        switched = client.get("/?lang=de")
        assert "ein neuer Tisch" in switched.text and switched.cookies.get("qe_lang") == "de"
        assert "ein neuer Tisch" in client.get("/").text  # the cookie remembers
        links = _make(client)
        page = client.get(links["seats"][0]).text
        assert '<html lang="de">' in page and "So wird gespielt" in page
        assert "{{" not in page and "<script>" not in page and "style=" not in page
        state = client.get(links["watch"].replace("/watch/", "/api/watch/") + "/state?lang=de")
        assert state.json()["lang"] == "de" and "Versteigert wird" in state.json()["picture"]
        english = client.get(links["watch"].replace("/watch/", "/api/watch/") + "/state?lang=en")
        assert "On sale" in english.json()["picture"]


def test_no_page_has_inline_script_or_style(tmp_path):
    with _client(tmp_path) as client:
        links = _make(client, listed=True)
        host = client.get("/", headers={"Accept-Language": "de"}).text
        for page in (host, client.get(links["host"]).text, client.get("/lobby").text,
                     client.get(f"/join/{links['table']}").text,
                     client.get(links["seats"][0]).text):  # fmt: skip
            assert not re.search(r"<script>|<script [^>]*>[^<]", page)
            assert " style=" not in page and "<style" not in page


def test_a_spec_string_and_a_rule_file_are_playable_from_the_host_form(tmp_path):
    rules = tmp_path / "house.toml"
    rules.write_text(qe.get_ruleset("en").evolve(zero_bid_points=3).to_toml(), encoding="utf-8")
    text = rules.read_text(encoding="utf-8").replace('id = "en:zero_bid_points=3"', 'id = "house"')
    rules.write_text(re.sub(r'(?m)^id = ".*"$', 'id = "house"', text), encoding="utf-8")
    with _client(tmp_path, ruleset=str(rules)) as client:
        form = client.get("/").text
        assert '<option value="house" selected>' in form and "rules that differ from en (1)" in form
        links = _make(client, ruleset="house")
        table = client.server.tables[links["table"]]
        assert table.game.ruleset.zero_bid_points == 3 and table.game.ruleset.id == "house"
        spec = _make(client, ruleset="en", spec="de:zero_bid_points=4")
        assert client.server.tables[spec["table"]].game.ruleset.zero_bid_points == 4
        bad = client.post("/api/tables", json={"ruleset": "nonsense", "players": 3,
                                                "seats": ["person"] * 3})  # fmt: skip
        assert bad.status_code == 400 and "rule sets are" in bad.json()["error"]


def test_the_last_sale_panel_shows_the_auctioneer_its_bids_with_ties_marked():
    game = qe.new_game("en", 4, seed=3).bid(0, 4).bid(1, 6).bid(2, 6).bid(3, 2)
    assert game.view(0).tied  # seats 1 and 2 tie at 6
    seat = min(game.to_act)
    game = game.bid(seat, 7)
    other = min(game.to_act)
    game = game.bid(other, 8)
    extra = panel_data(game.view(0), game.events_for(0))
    assert 'class="tied"' in extra["summary"] and "Tie between seat 2, seat 3" in extra["summary"]
    assert "you ran the sale" in extra["summary"]
    outsider = panel_data(game.view(3), game.events_for(3))
    assert "you ran the sale" not in outsider["summary"]
    assert [k.split(":")[0] for k in extra["log_kinds"]].count("tie") == 1


def test_known_spending_counts_what_the_seat_knows():
    game = play_game("en", 4, "value", seed=5)
    for seat in range(4):
        totals = panel_data(game.view(seat), game.events_for(seat))["totals"]
        assert f"<td>{game.view(seat).spent}</td>" in totals  # one's own spend is exact
    public = panel_data(game.public_view(), game.public_events())
    assert "secret" in public["totals"] or "known" not in public["totals"]


def test_the_final_standings_give_the_placing_and_every_category():
    game = play_game("en", 5, "value", seed=4)
    result = game.result()
    for seat in range(5):
        standings = panel_data(game.view(seat), game.events_for(seat))["standings"]
        assert standings.startswith('<p class="placing">You ')
        for row in ("companies", "zero bids", "nationalization", "monopolization",
                    "diversification", "spent", "total", "place", "tiles won"):  # fmt: skip
            assert f">{row}<" in standings, row
    winner = result.winner if result.winner is not None else result.winners[0]
    assert "You won" in panel_data(game.view(winner), ())["standings"] or result.winner is None


def test_rules_help_is_the_rulebook_in_the_readers_language_with_a_variants_differences():
    early = rules_help(qe.get_ruleset("en-early"), "de")
    assert early.title.startswith("So wird gespielt")
    assert early.differences == tuple(c.field for c in qe.diff("en", "en-early").rules)
    article = early.article
    assert article.startswith('<article class="qe-rulebook" lang="de">') and "<style" not in article
    assert "Spartenplättchen" in article and "Unterschiede zu en" in article  # the glossary's
    assert article.count('class="differs"') >= len(early.differences) and "<svg" in article
    plain = rules_help(qe.get_ruleset("en"), "en")
    assert plain.differences == () and 'class="differs"' not in plain.article
    assert "industry token" in plain.article
    text = rules_help_text(qe.get_ruleset("en-early"), "de")
    assert "## Unterschiede zu en" in text and "▲ " in text and "Gleichstand" in text
    assert RuleChoices.of().describe("en-early").count(" · ") >= 3


def test_a_table_page_embeds_the_rulebook_and_serves_its_stylesheet(tmp_path):
    with _client(tmp_path) as client:
        links = _make(client, ruleset="en-early")
        german = client.get(links["seats"][0] + "?lang=de").text
        assert '<article class="qe-rulebook" lang="de">' in german and "Spartenplättchen" in german
        assert 'class="differs"' in german and "Unterschiede zu en" in german
        assert '<link rel="stylesheet" href="/static/rulebook.css">' in german
        english = client.get(links["watch"] + "?lang=en").text
        assert '<article class="qe-rulebook" lang="en">' in english
        assert "Spartenplättchen" not in english and "industry token" in english
        sheet = client.get("/static/rulebook.css")
        assert sheet.headers["content-type"].startswith("text/css") and ".qe-rulebook" in sheet.text


@given(st.text(max_size=40))
def test_a_name_is_accepted_cleaned_or_refused(text):
    try:
        name = check_name(text)
    except qe.RulesError:
        return
    assert len(name) <= MAX_NAME_LENGTH and name == name.strip()


def test_page_texts_are_translated_and_escaped():
    render = page_environment("de").from_string('{{ _("Rules") }} {{ _("Bid") }} {{ x }}').render
    assert render(x="<b>") == "Spielregel Gebot &lt;b&gt;"
    assert page_environment("en").from_string('{{ _("a <b>") }}').render() == "a &lt;b&gt;"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_payload_in_either_language_is_a_function_of_the_view(lang):
    game = play_game("en", 4, "value", seed=6)
    early = qe.replay({**game.to_record(), "moves": game.to_record()["moves"][:13]})
    for seat in range(4):
        one = web.payload(early.view(seat), early.events_for(seat), version=13, lang=lang)
        two = web.payload(early.view(seat), early.events_for(seat), version=13, lang=lang)
        assert one == two and one["lang"] == lang
