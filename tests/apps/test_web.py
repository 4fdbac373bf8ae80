"""The web table on the wire: what each seat receives, bad requests, restarts."""

import json
import random

import httpx
import pytest

import qe_rules as qe
from qe_rules.apps import web
from tests.support import slow_except
from tests.support.web import StreamReader, game_at, key, live_server


def _draw_for(rng, seat):
    """Bids that are unique in the whole game (so a leak can be found by its number)."""
    counter = iter(range(1, 10**6))

    def draw(limits):
        if limits is None:
            return rng.randrange(2)
        amount = 700_000 + seat * 10_000 + next(counter) * 7 + rng.randrange(7)
        return amount if amount != limits.forbidden else amount + 1

    return draw


def _secret_amounts(game):
    """Every (seat, amount) of a secret bid or rebid in the game so far."""
    return {(e.seat, e.amount) for e in game.events if isinstance(e, qe.SecretBid)}


@pytest.mark.parametrize(("players", "seed"), slow_except([(3, 1), (4, 2), (5, 3), (5, 4)], (4, 2)))
def test_every_message_to_a_seat_is_made_from_its_view_alone(tmp_path, players, seed):
    """Four people play a whole game over HTTP with distinctive bids; every server-sent
    message each seat and the spectator received equals the payload made from that seat's
    view (or the public view) at that moment, and holds no other seat's secret bid that
    the view does not hold, nor another seat's token."""
    rng = random.Random(seed)
    with live_server(tmp_path / "tables.sqlite3") as (base, server):
        client = httpx.Client(base_url=base, timeout=30)
        links = client.post(
            "/api/tables", json={"ruleset": "en", "players": players, "seats": ["person"] * players}
        ).json()
        tokens = [key(link) for link in links["seats"]]
        readers = [StreamReader(f"{base}/api/seat/{t}/events") for t in tokens]
        readers.append(
            StreamReader(f"{base}{links['watch'].replace('/watch', '/api/watch')}/events")
        )
        for reader in readers:
            reader.start()
        draws = [_draw_for(rng, seat) for seat in range(players)]
        table = server.tables[links["table"]]
        while not table.game.is_over:
            game = table.game
            seat = rng.choice(sorted(game.to_act))
            view = game.view(seat)
            if view.can_peek:
                move, body = ("peek", {}) if draws[seat](None) else ("decline-peek", {})
            else:
                move, body = "bid", {"amount": draws[seat](view.limits)}
            body = {**body, "version": table.version}
            response = client.post(f"/api/seat/{tokens[seat]}/{move}", json=body)
            assert response.status_code == 200, response.text
            answer = response.json()
            after = table.game
            expected = web.payload(
                after.view(seat), after.events_for(seat), version=answer["version"]
            )
            assert {k: answer[k] for k in expected} == json.loads(json.dumps(expected))
            assert answer.keys() - expected.keys() == {"waited", "wait_limit", "person"}
        for reader in readers:
            reader.join(60)
            assert not reader.is_alive()
        record = client.get(f"/api/seat/{tokens[0]}/record").json()
    final = qe.replay(record)
    secrets_by_seat = _secret_amounts(final)
    for seat, reader in enumerate(readers):
        assert reader.payloads[-1]["view"]["phase"] == "over"
        versions = [p["version"] for p in reader.payloads]
        assert versions == sorted(set(versions))
        for payload in reader.payloads:
            assert payload.pop("waited").keys() <= {str(s) for s in range(players)}
            assert payload.pop("wait_limit") == 180.0 and payload.pop("person") == (seat < players)
            game = game_at(record, payload["version"])
            if seat == players:
                view = game.public_view()
                expected = web.payload(view, game.public_events(), version=payload["version"])
            else:
                view = game.view(seat)
                expected = web.payload(view, game.events_for(seat), version=payload["version"])
            assert payload == json.loads(json.dumps(expected))
            wire = json.dumps(payload)
            known = json.dumps(view.to_dict())
            for other, amount in secrets_by_seat:
                if other != seat and str(amount) in wire and payload["view"]["phase"] != "over":
                    assert str(amount) in known, (seat, other, amount)
            for other, token in enumerate(tokens):
                if other != seat:
                    assert token not in wire and token not in "".join(reader.raw)


def test_a_table_of_agents_plays_to_the_end_and_offers_its_record(tmp_path):
    with live_server(tmp_path / "tables.sqlite3") as (base, server):
        client = httpx.Client(base_url=base, timeout=30)
        links = client.post(
            "/api/tables",
            json={"ruleset": "de", "players": 4, "seats": ["value", "random", "zero", "value"]},
        ).json()
        assert links["seats"] == [None] * 4
        watch = f"{base}/api/watch/{links['table']}"
        reader = StreamReader(f"{watch}/events")
        reader.start()
        reader.join(60)
        assert reader.payloads[-1]["record"] is True
        record = client.get(f"{watch}/record")
        assert record.status_code == 200
        assert "attachment" in record.headers["content-disposition"]
        game = qe.replay(record.json())
        assert game == server.tables[links["table"]].game and game.is_over
        assert record.json()["metadata"] == {"event": "qe-rules web table"}


def test_bad_requests_get_a_clear_error_and_change_nothing(tmp_path):
    with live_server(tmp_path / "tables.sqlite3") as (base, server):
        client = httpx.Client(base_url=base, timeout=30)
        links = client.post(
            "/api/tables",
            json={"ruleset": "en", "players": 3, "seats": ["person", "person", "zero"]},
        ).json()
        table = server.tables[links["table"]]
        first, second = (key(link) for link in links["seats"][:2])
        before = table.game
        stored = server.store.connection.execute("SELECT record FROM tables").fetchone()

        def refused(status, method, path, words, **kwargs):
            response = client.request(method, path, **kwargs)
            assert response.status_code == status, response.text
            assert words in response.json()["error"]
            assert table.game is before
            assert server.store.connection.execute("SELECT record FROM tables").fetchone() == stored

        refused(404, "GET", "/api/seat/not-a-token/state", "no seat has this link")
        refused(
            404, "POST", "/api/seat/not-a-token/bid", "no seat has this link", json={"amount": 3}
        )
        refused(404, "GET", "/seat/not-a-token", "no seat has this link")
        refused(404, "GET", "/watch/not-a-table", "no table has this spectator link")
        refused(404, "GET", "/host/not-a-host", "no table has this host link")
        refused(404, "POST", f"/api/seat/{first}/state", "no such move")
        refused(
            409,
            "POST",
            f"/api/seat/{second}/bid",
            "not your turn",
            json={"amount": 3, "version": 0},
        )
        refused(409, "POST", f"/api/seat/{first}/bid", "names the version", json={"amount": 3})
        refused(409, "POST", f"/api/seat/{first}/bid", "moved on", json={"amount": 3, "version": 5})
        refused(409, "POST", f"/api/seat/{first}/bid", "whole number", json={"amount": "three"})
        refused(409, "POST", f"/api/seat/{first}/bid", "whole number", json={"amount": 2.5})
        refused(409, "POST", f"/api/seat/{first}/bid", "whole number", json={"amount": -1})
        refused(409, "POST", f"/api/seat/{first}/bid", "whole number", json={"amount": 10**30})
        refused(409, "POST", f"/api/seat/{first}/bid", "whole number", json={})
        refused(409, "POST", f"/api/seat/{first}/peek", "peek", json={"version": 0})
        refused(
            409,
            "POST",
            f"/api/seat/{first}/bid",
            "not JSON",
            content=b"{",
            headers={"content-type": "application/json"},
        )
        refused(409, "POST", f"/api/seat/{first}/bid", "JSON object", json=[1])
        refused(
            409,
            "POST",
            f"/api/seat/{first}/bid",
            "bytes",
            content=b"x" * 20_000,
            headers={"content-type": "application/json"},
        )
        refused(409, "GET", f"/api/seat/{first}/record", "ready when the game ends")
        refused(409, "GET", f"/api/watch/{links['table']}/record", "ready when the game ends")
        tables = len(server.tables)
        for body, words in [
            ({"ruleset": "xx", "players": 3, "seats": ["person"] * 3}, "unknown rule set"),
            (
                {"ruleset": "en", "players": 7, "seats": ["person"] * 7},
                "en is played by 3, 4, 5 players, not 7",
            ),
            ({"ruleset": "en", "players": 3, "seats": ["person"] * 2}, "one seat kind per player"),
            (
                {"ruleset": "en", "players": 3, "seats": ["person", "god", "zero"]},
                "not a seat kind",
            ),
            ({"ruleset": "en", "players": 3, "seats": "person"}, "must be a list"),
        ]:
            response = client.post("/api/tables", json=body)
            assert response.status_code == 400 and words in response.json()["error"], response.text
        assert len(server.tables) == tables
        good = client.post(f"/api/seat/{first}/bid", json={"amount": 3, "version": 0})
        assert good.status_code == 200 and good.json()["view"]["opening_bid"] == 3


def test_the_host_form_creates_a_table_with_private_links(tmp_path):
    with live_server(tmp_path / "tables.sqlite3") as (base, server):
        client = httpx.Client(base_url=base, timeout=30)
        assert "Create the table" in client.get("/").text
        response = client.post(
            "/tables",
            data={
                "ruleset": "de",
                "players": "3",
                "seat0": "person",
                "seat1": "zero",
                "seat2": "person",
            },
        )
        assert response.status_code == 303
        host = client.get(response.headers["location"])
        (table,) = server.tables.values()
        assert table.game.ruleset.id == "de" and table.kinds == ("person", "zero", "person")
        for token in table.tokens:
            if token is not None:
                assert f"/seat/{token}" in host.text and len(token) >= 24
        assert f"/watch/{table.id}" in host.text and table.host not in host.text


def _least(state):
    """The smallest legal bid of a seat's state."""
    limits = state["view"]["limits"]
    return limits["minimum"] + (limits["minimum"] == limits["forbidden"])


def test_a_restarted_server_carries_on_with_its_tables(tmp_path):
    database = tmp_path / "tables.sqlite3"
    with live_server(database) as (base, server):
        client = httpx.Client(base_url=base, timeout=30)
        links = client.post(
            "/api/tables",
            json={"ruleset": "en", "players": 4, "seats": ["person", "value", "random", "value"]},
        ).json()
        token = key(links["seats"][0])
        for _ in range(3):
            state = client.get(f"/api/seat/{token}/state").json()
            while not state["view"]["limits"]:
                state = client.get(f"/api/seat/{token}/state").json()
            bid = client.post(
                f"/api/seat/{token}/bid",
                json={"amount": _least(state), "version": state["version"]},
            )
            assert bid.status_code == 200, bid.text
    before = server.tables[links["table"]].game  # the agents may have moved on meanwhile
    with live_server(database) as (base, server):
        client = httpx.Client(base_url=base, timeout=30)
        assert client.get(f"/api/seat/{token}/state").status_code == 200  # loads the table
        table = server.tables[links["table"]]
        moves = before.to_record()["moves"]  # the agents due at the stop may play on at once
        assert table.game.to_record()["moves"][: len(moves)] == moves
        assert table.tokens[0] == token
        while not table.game.is_over:
            state = client.get(f"/api/seat/{token}/state").json()
            if state["view"]["limits"]:
                body = {"amount": _least(state), "version": state["version"]}
                bid = client.post(f"/api/seat/{token}/bid", json=body)
                assert bid.status_code in (200, 409), bid.text  # 409: an agent moved first
        assert client.get(f"/api/seat/{token}/record").status_code == 200


def test_the_serve_command_explains_its_options(capsys):
    from qe_rules.apps.cli import main

    assert main(["serve", "--players", "6"]) == 2
    assert "--players: en is played by 3, 4, 5 players, not 6" in capsys.readouterr().err
    assert main(["serve", "--ruleset", "xx"]) == 2
    assert "xx" in capsys.readouterr().err


def test_the_log_line_of_an_event_is_the_text_renderers():
    from qe_rules.present import text

    assert web.event_line is text.event_line
    assert "event_line" in web.__all__ and "event_line" in text.__all__
