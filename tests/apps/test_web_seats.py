"""Who sits where at a web table (issue 38): a seat is its token holder's, named seats are
kept, no-shows and leavers are played by agents, a move names the version it answers,
names are unique, and the page explains refusals, fallbacks and tie-breaks."""

import contextlib
import json
import sqlite3
import time

import pytest

import qe_rules as qe
from qe_rules.apps import panels, web
from qe_rules.apps.lobby import check_unique
from qe_rules.simulation.play import play_game
from qe_rules.texts.rulebooks import catalog, field_sentence
from tests.support.web import serving

NIGHT = {
    "ruleset": "en",
    "players": 4,
    "seats": ["person", "person", "person", "zero"],
    "names": ["Hanna", "", "", ""],
    "title": "Freitag",
    "listed": True,
}


def _api(link):
    return link.replace("/seat/", "/api/seat/")


def _error(response, status):
    assert response.status_code == status, response.text
    return response.json()["error"]


def _offered(client, table_id):
    page = client.get(f"/join/{table_id}").text
    return [seat for seat in range(5) if f'<option value="{seat}"' in page]


def _until(condition, seconds=30.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition did not come true"
        time.sleep(0.01)


# --------------------------------------------------------------------------- claims


@pytest.mark.parametrize("use", ["page", "state", "events", "name", "bid"])
def test_any_use_of_a_token_claims_its_seat(tmp_path, use):
    with serving(tmp_path / "t.db") as (client, _):
        links = client.post("/api/tables", json=NIGHT).json()
        assert _offered(client, links["table"]) == [1, 2]  # Hanna's seat is kept for her
        seat = links["seats"][1] if use != "bid" else links["seats"][0]
        if use == "page":
            client.get(seat)
        elif use == "state":
            client.get(_api(seat) + "/state")
        elif use == "events":
            with client.stream("GET", _api(seat) + "/events") as stream:
                next(stream.iter_lines())
        elif use == "name":
            client.post(_api(seat) + "/name", json={"name": "Jonas"})
        else:  # Hanna, the auctioneer, bids through the interface: her seat is hers anyway
            client.post(_api(seat) + "/bid", json={"amount": 3, "version": 0})
        offered = _offered(client, links["table"])
        assert offered == ([2] if use != "bid" else [1, 2])
        for taken in {0, 1} - set(offered):
            refused = client.post(f"/join/{links['table']}", data={"seat": str(taken)})
            assert "taken, kept for someone" in _error(refused, 409)


def test_a_claim_made_while_the_database_is_held_is_kept_and_stored_later(tmp_path):
    database = tmp_path / "t.db"
    with serving(database, limits=web.WebLimits(busy_timeout=0.2)) as (client, _server):
        links = client.post("/api/tables", json=NIGHT).json()
        holder = sqlite3.connect(database, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        assert client.get(links["seats"][1]).status_code == 200  # opened meanwhile
        assert _offered(client, links["table"]) == [2]  # never handed out
        holder.execute("ROLLBACK")
        holder.close()

        def stored():
            with contextlib.closing(sqlite3.connect(database)) as connection:
                (text,) = connection.execute("SELECT seating FROM tables").fetchone()
            return json.loads(text)["taken"] == [1]

        _until(stored)  # the claim reaches the database once it is free
    with serving(database) as (client, _):
        assert _offered(client, links["table"]) == [2]


def test_a_seat_taken_in_the_lobby_gets_a_new_link_and_the_old_one_ends(tmp_path):
    with serving(tmp_path / "t.db") as (client, _server):
        links = client.post("/api/tables", json=NIGHT).json()
        joined = client.post(
            f"/join/{links['table']}", data={"seat": "2", "name": "Mia"}, follow_redirects=False
        )
        new = joined.headers["location"].split("?")[0]
        assert new != links["seats"][2] and client.get(_api(new) + "/state").status_code == 200
        assert "replaced" in _error(client.get(_api(links["seats"][2]) + "/state"), 404)
        host = client.get(links["host"]).text
        assert new in host and links["seats"][2] not in host
    with serving(tmp_path / "t.db") as (client, _):  # the new link is stored
        assert client.get(_api(new) + "/state").json()["names"][2] == "Mia"


def test_names_are_unique_and_never_a_seats_number(tmp_path):
    with serving(tmp_path / "t.db") as (client, _):
        same = {**NIGHT, "names": ["Hanna", "hanna", "", ""]}
        assert "unique" in _error(client.post("/api/tables", json=same), 400)
        number = {**NIGHT, "names": ["Hanna", "Platz 3", "", ""]}
        assert "number" in _error(client.post("/api/tables", json=number), 400)
        links = client.post("/api/tables", json=NIGHT).json()
        ben = _api(links["seats"][1])
        assert "unique" in _error(client.post(ben + "/name", json={"name": "HANNA"}), 409)
        assert "number" in _error(client.post(ben + "/name", json={"name": "seat 1"}), 409)
        join = client.post(f"/join/{links['table']}", data={"seat": "2", "name": "Hanna"})
        assert "unique" in _error(join, 409)
        assert client.post(ben + "/name", json={"name": "Ben"}).status_code == 200
    check_unique(["Ann", "", ""], 1, "Bo")  # no error
    with pytest.raises(qe.RulesError):
        check_unique(["Ann", "", ""], 2, "seat 12")


def test_a_title_or_name_written_as_template_text_is_shown_as_written(tmp_path):
    with serving(tmp_path / "t.db") as (client, _):
        body = {**NIGHT, "title": "{rows}{{ seats }}", "names": ["{% if 1 %}x", "", "", ""]}
        links = client.post("/api/tables", json=body).json()
        for page in (links["host"], "/lobby", f"/join/{links['table']}", links["seats"][0]):
            text = client.get(page).text
            assert "{rows}{{ seats }}" in text, page
            assert '<a href="/seat/' not in text.split("<h1>")[1][:80]
        assert "{% if 1 %}x" in client.get(links["host"]).text


# --------------------------------------------------------------------------- versions


def test_a_move_names_the_version_it_answers_and_a_replayed_one_is_refused(tmp_path):
    with serving(tmp_path / "t.db") as (client, server):
        links = client.post(
            "/api/tables", json={"ruleset": "en", "players": 3, "seats": ["person"] * 3}
        ).json()
        table = server.tables[links["table"]]
        seats = [_api(link) for link in links["seats"]]
        assert "version" in _error(client.post(seats[0] + "/bid", json={"amount": 3}), 409)
        assert "moved on" in _error(
            client.post(seats[0] + "/bid", json={"amount": 3, "version": 7}), 409
        )
        opening = {"amount": 3, "version": 0}
        assert client.post(seats[0] + "/bid", json=opening).status_code == 200
        assert "not your turn" in _error(client.post(seats[0] + "/bid", json=opening), 409)
        secret = {"amount": 5, "version": 1}
        assert client.post(seats[1] + "/bid", json=secret).status_code == 200
        twice = client.post(seats[1] + "/bid", json=secret)  # a double click
        assert "not your turn" in _error(twice, 409) and table.version == 2
        assert client.post(seats[2] + "/bid", json={"amount": 6, "version": 1}).status_code == 200
        while 1 not in table.game.to_act:  # the game comes back to seat 1 in a later sale
            seat = min(table.game.to_act)
            amount = table.game.view(seat).limits.legal(2)
            body = {"amount": amount, "version": table.version}
            assert client.post(seats[seat] + "/bid", json=body).status_code == 200
        before = table.game
        again = client.post(seats[1] + "/bid", json=secret)  # sent again, a sale later
        assert "moved on" in _error(again, 409) and table.game is before
        german = client.post(seats[1] + "/bid?lang=de", json=secret)
        assert "weitergegangen" in _error(german, 409)


# --------------------------------------------------------------------------- stand-ins


def test_the_host_hands_a_seat_to_an_agent_and_back(tmp_path):
    with serving(tmp_path / "t.db", bot_delay=0.0) as (client, server):
        links = client.post("/api/tables", json=NIGHT).json()
        table = server.tables[links["table"]]
        hanna = _api(links["seats"][0])
        handed = client.post(links["host"], json={"seat": 0, "player": "value"})
        assert handed.json()["seats"][0]["agent"] == "value"
        _until(lambda: table.version >= 1)  # the agent opened for Hanna
        state = client.get(hanna + "/state").json()
        assert state["away"] == [{"seat": 0, "name": "Hanna", "agent": "steady"}]
        assert "agent steady plays" in state["board"]
        watched = client.get(links["watch"].replace("/watch/", "/api/watch/") + "/state").json()
        assert watched["away"] == state["away"]  # every page says it
        refused = client.post(hanna + "/bid", json={"amount": 3, "version": state["version"]})
        assert "come back" in _error(refused, 409)
        host = client.get(links["host"]).text
        assert "an agent plays it (steady)" in host
        back = client.post(links["host"], data={"seat": "0", "player": "person"})
        assert back.status_code == 200 and "agent plays it" not in back.text  # the form's page
        assert client.get(hanna + "/state").json()["away"] == []
        refused = client.post(links["host"], json={"seat": 3, "player": "value"})
        assert "no person's seat" in _error(refused, 409)


def test_a_player_leaves_for_a_while_and_comes_back(tmp_path):
    with serving(tmp_path / "t.db", bot_delay=0.0) as (client, server):
        links = client.post("/api/tables", json=NIGHT).json()
        table = server.tables[links["table"]]
        hanna = _api(links["seats"][0])
        assert client.post(hanna + "/leave", json={}).json() == {"left": False, "agent": "value"}
        _until(lambda: table.version >= 1)
        status = client.get(_api(links["seats"][1]) + "/state").json()["status"]
        assert "(an agent plays)" in status or table.game.to_act == {1, 2}
        assert client.post(hanna + "/back", json={}).json() == {"back": True}
        assert client.get(hanna + "/state").json()["away"] == []


def test_a_player_leaves_for_good_and_the_lobby_offers_the_seat(tmp_path):
    with serving(tmp_path / "t.db", bot_delay=0.0) as (client, _):
        links = client.post("/api/tables", json=NIGHT).json()
        hanna = _api(links["seats"][0])
        client.get(hanna + "/state")
        with client.stream("GET", hanna + "/events") as stream:  # her page is still open
            lines = stream.iter_lines()
            assert next(lines).startswith("id: ")
            assert client.post(hanna + "/leave", json={"for_good": True}).json() == {"left": True}
            rest = list(lines)  # the stream ends: she sees no more of the seat
        assert sum(line.startswith("data: ") for line in rest) == 1  # the first message's
        assert "replaced" in _error(client.get(hanna + "/state"), 404)
        assert 0 in _offered(client, links["table"])  # given up: offered though named
        joined = client.post(
            f"/join/{links['table']}", data={"seat": "0", "name": "Tom"}, follow_redirects=False
        )
        tom = _api(joined.headers["location"].split("?")[0])
        state = client.get(tom + "/state").json()
        assert state["away"] == [] and state["names"][0] == "Tom"  # Tom plays now


def test_the_others_may_hand_over_a_seat_that_keeps_them_waiting(tmp_path):
    limits = web.WebLimits(wait_limit=0.3)
    with serving(tmp_path / "t.db", limits=limits, bot_delay=0.0) as (client, server):
        links = client.post("/api/tables", json=NIGHT).json()
        table = server.tables[links["table"]]
        ben = _api(links["seats"][1])
        early = client.post(ben + "/hand-over", json={"seat": 0})
        assert "after 0 s the others may" in _error(early, 409)
        time.sleep(0.4)
        state = client.get(ben + "/state").json()
        assert state["waited"]["0"] >= 0.3 and state["wait_limit"] == 0.3
        assert "nobody waiting" in _error(client.post(ben + "/hand-over", json={"seat": 1}), 409)
        assert client.post(ben + "/hand-over", json={"seat": 0}).json()["handed"] == 0
        _until(lambda: table.version >= 1)  # an agent opened the sale for Hanna
        assert client.get(ben + "/state").json()["away"][0]["seat"] == 0


def test_a_stand_in_survives_a_restart_and_plays_on(tmp_path):
    database = tmp_path / "t.db"
    with serving(database, bot_delay=0.0) as (client, server):
        body = {"ruleset": "en", "players": 3, "seats": ["person", "zero", "zero"]}
        links = client.post("/api/tables", json=body).json()
        client.post(links["host"], json={"seat": 0, "player": "random"})
    with serving(database, bot_delay=0.0) as (client, server):
        client.get(links["watch"])
        _until(lambda: server.tables[links["table"]].game.is_over)


def test_live_pages_are_limited_per_address(tmp_path):
    limits = web.WebLimits(streams_per_client=2, wait_limit=0)
    with serving(tmp_path / "t.db", limits=limits) as (client, server):
        links = client.post("/api/tables", json=NIGHT).json()
        server.streams["testclient"] = 2  # two pages of this address follow tables already
        events = links["watch"].replace("/watch/", "/api/watch/") + "/events"
        refused = client.get(events)
        assert "at most 2 live pages" in _error(refused, 429) and refused.headers["retry-after"]
        server.streams["testclient"] = 1
        with client.stream("GET", events) as stream:
            assert stream.status_code == 200 and server.streams["testclient"] == 2
        _until(lambda: server.streams["testclient"] == 1)  # counted while it lasts
        ben = _api(links["seats"][1])
        assert "only the host" in _error(client.post(ben + "/hand-over", json={"seat": 0}), 409)


# --------------------------------------------------------------------------- agents


def test_the_agents_of_many_addresses_take_turns():
    server = web.TableServer(":memory:")
    tables = {client: [server.create("en", 3, ["zero"] * 3, client=client)] for client in "ab"}
    tables["a"] += [server.create("en", 3, ["zero"] * 3, client="a") for _ in range(3)]
    for client in ("a", "a", "a", "a", "b"):  # four of a's tables are due, then b's one
        server._due_now(tables[client][len(server._due.get(client, ()))])
    order = [server._next_due().client for _ in range(5)]
    assert order == ["a", "b", "a", "a", "a"]  # b's table does not wait for all of a's
    server.close()


# --------------------------------------------------------------------------- explaining


def test_a_refused_bid_says_why_in_the_readers_language():
    game = qe.new_game("en", 4, seed=3)
    view = game.view(0)
    assert panels.move_refusal(view, "bid", 0) == "Too low: an opening bid is at least 1."
    assert panels.move_refusal(view, "bid", 0, lang="de").startswith("Zu niedrig: ein Eröffnungs")
    after = game.bid(0, 4)
    text = panels.move_refusal(after.view(1), "bid", 4)
    assert text == (
        "You may not bid 4: under these rules no secret bid may equal the opening bid (4)."
    )
    assert panels.bid_help(after.view(1))["range"] == "Legal: from 0 to 1000000, not 4."
    assert panels.move_refusal(after.view(0), "bid", 9, names=["A", "B", "C", "D"]) == (
        "It is not your turn: the table waits for B, C, D."
    )


def test_the_last_sale_says_when_the_tie_fallback_decided_it():
    game = qe.new_game("en", 4, seed=3).bid(0, 3).bid(1, 5).bid(2, 5).bid(3, 2)
    for amount in (6, 7):
        for seat in sorted(game.to_act):
            game = game.bid(seat, amount)
    summary = panels.panel_data(game.view(3), game.events_for(3))["summary"]
    rule = field_sentence(qe.get_ruleset("en"), "tie_fallback", catalog("en"))
    assert rule.startswith("Then the highest")  # the rulebook's own sentence
    assert f"After 3 ties in a row the fallback rule decided the sale: {rule}" in summary
    german = panels.panel_data(game.view(3), game.events_for(3), lang="de")["summary"]
    assert "Nach 3 Gleichständen in Folge entschied die Ersatzregel die Versteigerung: Dann" in (
        german
    )


def _level_at_the_top():
    """A finished game whose top two (still in the game) are level on points, and one
    of them won on lower spending."""
    for seed in range(500):
        game = play_game("en", 4, "value", seed=seed)
        result = game.result()
        standing = [sheet for sheet in result.sheets if not sheet.eliminated]
        top = max(sheet.total for sheet in standing)
        level = [sheet for sheet in standing if sheet.total == top]
        if len(level) == 2 and len(result.winners) == 1:
            return game, level
    raise AssertionError("no game of 500 ended level at the top")


def test_the_standings_say_what_broke_a_tie_at_the_top():
    game, level = _level_at_the_top()
    winner = game.result().sheets[game.result().winners[0]]
    first, second = (sheet.seat for sheet in level)
    standings = panels.panel_data(game.view(0), game.events_for(0))["standings"]
    assert (
        f"seat {first + 1}, seat {second + 1} are level on {level[0].total} VP; the lower "
        f"spending breaks the tie: seat {winner.seat + 1} spent {winner.spent}." in standings
    )
    names = ["Ann", "Bo", "Cy", "Di"]
    named = web.payload(game.view(0), game.events_for(0), version=0, names=names)
    assert f"{names[first]}, {names[second]} are level on" in named["standings"]


def test_seats_count_from_one_for_people():
    game = qe.new_game("en", 3, seed=1)
    sent = web.payload(game.view(0), game.events_for(0), version=0, lang="de")
    assert sent["names"] == ["Platz 1", "Platz 2", "Platz 3"]
    assert "Platz 0" not in json.dumps(sent)


# --------------------------------------------------------------------------- hygiene


def test_a_server_error_carries_the_security_headers(tmp_path, monkeypatch):
    with serving(tmp_path / "t.db", raise_server_exceptions=False) as (client, _):
        links = client.post("/api/tables", json=NIGHT).json()

        def broken(*args, **kwargs):
            raise RuntimeError("a bug")

        monkeypatch.setattr(web, "_render", broken)
        answer = client.get(links["watch"].replace("/watch/", "/api/watch/") + "/state")
        assert answer.status_code == 500 and "failed" in answer.json()["error"]
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["cache-control"] == "no-store"


def test_an_empty_database_file_is_refused(tmp_path, capsys):
    from qe_rules.apps.cli import main

    database = tmp_path / "t.db"
    database.touch()
    assert main(["serve", "--db", str(database), "--port", "9"]) == 2
    err = capsys.readouterr().err
    assert "empty file" in err and err.count("\n") == 1
    folder = tmp_path / "folder"
    folder.mkdir()
    assert main(["serve", "--db", str(folder), "--port", "9"]) == 2
    assert capsys.readouterr().err.count("--db") == 1  # said once


@pytest.mark.parametrize(
    ("value", "words"), [("*", "not an address"), ("", "names the proxies"), ("x.y", "x.y")]
)
def test_trust_proxy_trusts_only_named_addresses(value, words, capsys):
    from qe_rules.apps.cli import main

    assert main(["serve", "--trust-proxy", value, "--port", "9"]) == 2
    assert words in capsys.readouterr().err
    assert main(["serve", "--trust-proxy"]) == 2  # a value is required


@pytest.mark.parametrize(
    ("ruleset", "lang", "question"),
    [
        ("en", "en", "Peek at what seat 2 paid for UK-FIN-4?"),
        ("de", "en", "Peek at the highest bid for UK-FIN-4, won by seat 2?"),
        ("de", "de", "Das Höchstgebot für UK-FIN-4 ansehen (gewonnen von Platz 2)?"),
        ("en:peek_shows=all-bids", "en", "Peek at every bid for UK-FIN-4, won by seat 2?"),
    ],
)
def test_the_peek_question_says_what_the_peek_shows(ruleset, lang, question):
    game = qe.new_game(ruleset, 5, seed=1).bid(0, 3).bid_many({1: 5, 2: 1, 3: 0, 4: 2})
    seat = min(game.to_act)
    assert game.view(seat).can_peek
    data = panels.panel_data(game.view(seat), game.events_for(seat), lang=lang)
    assert data["peek_question"] == question
    assert panels.panel_data(game.view(1), game.events_for(1))["peek_question"] is None
