"""The web table against hostile requests, broken storage and restarts, on the wire."""

import asyncio
import collections
import contextlib
import json
import logging
import re
import secrets
import sqlite3
import threading
import time

import httpx
import pytest

import qe_rules as qe
from qe_rules.apps import web, web_keys
from tests.support.web import BASE, key, live_server, serving


def _error_of(response, status):
    """The one-line error of a JSON answer with ``status``."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    message = response.json()["error"]
    assert message and "\n" not in message and "Traceback" not in message
    return message


def _stored(database, table_id):
    with contextlib.closing(sqlite3.connect(database)) as connection:
        row = connection.execute("SELECT record FROM tables WHERE id = ?", (table_id,)).fetchone()
    return None if row is None else json.loads(row[0])


def _until(condition, seconds=30.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition did not come true"
        time.sleep(0.005)


PEOPLE = {"ruleset": "en", "players": 3, "seats": ["person", "person", "zero"]}


# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    "players",
    [
        99999999999,
        10**4000,
        "99999999999",
        "\u00b2",
        "\u0667",
        "\uff17",
        "-3",
        "3.0",
        "4x",
        True,
        4.0,
        [4],
    ],
)
@pytest.mark.parametrize("form", [False, True])
def test_a_player_count_is_checked_before_any_work(tmp_path, players, form):
    """A huge count is refused at once (it used to build one seat per player first), and
    digits of other scripts are refused rather than crashing the handler."""
    with serving(tmp_path / "t.db") as (client, server):
        if form:
            if not isinstance(players, int | str) or isinstance(players, bool):
                return  # a form field is text
            response = client.post("/tables", data={"players": str(players)})
        else:
            response = client.post("/api/tables", json={"ruleset": "en", "players": players})
        assert "players" in _error_of(response, 400)
        assert server.entries == {}


@pytest.mark.parametrize(
    ("amount", "form"),
    [
        *[("\u00b2", False), ("\u00b2", True), ("\u0667", False), ("\uff17", True)],
        *[("1e3", False), ("+5", True), ("0x10", False), ("", True), (" ", False)],
        *[("7" * 17, False), ("-1", True)],
    ],
)
def test_a_bid_that_is_not_ascii_digits_is_refused_and_changes_nothing(tmp_path, amount, form):
    with serving(tmp_path / "t.db") as (client, server):
        links = client.post("/api/tables", json=PEOPLE).json()
        table = server.tables[links["table"]]
        before = table.game
        body = (
            {"data": {"amount": amount, "version": "0"}}
            if form
            else {"json": {"amount": amount, "version": 0}}
        )
        response = client.post(f"/api/seat/{key(links['seats'][0])}/bid", **body)
        assert "a bid is a whole number" in _error_of(response, 409).lower()
        assert table.game is before and _stored(tmp_path / "t.db", table.id)["moves"] == []


def test_leading_zeros_give_the_number_written_not_a_cut_one(tmp_path):
    with serving(tmp_path / "t.db") as (client, _):
        links = client.post("/api/tables", json=PEOPLE).json()
        seat = key(links["seats"][0])
        response = client.post(f"/api/seat/{seat}/bid", json={"amount": "000000007", "version": 0})
        assert response.status_code == 200 and response.json()["view"]["opening_bid"] == 7


def test_every_error_is_one_line_of_json(tmp_path):
    with serving(tmp_path / "t.db") as (client, _):
        assert "no such page" in _error_of(client.get("/nowhere"), 404)
        assert "not allowed" in _error_of(client.delete("/"), 405)
        assert "no such page" in _error_of(client.get("/static/../web.py"), 404)
        assert "no such page" in _error_of(client.get("/static/index.html"), 404)
        big = client.post(
            "/api/tables", content=b"{" * 20_000, headers={"content-type": "application/json"}
        )
        assert "over 10000 bytes" in _error_of(big, 400)
        deep = client.post(
            "/api/tables", content=b"[" * 9000, headers={"content-type": "APPLICATION/JSON"}
        )
        assert "JSON" in _error_of(deep, 400)


# --------------------------------------------------------------------------- secrets


def test_the_deal_and_each_agent_draw_from_their_own_256_bit_keys(tmp_path, monkeypatch):
    """Every key comes from ``secrets`` (256 bits each); the deal is a function of its key
    alone and changes with any one of its bits, so the space a seat would have to search
    is 2**256 keys; the agents' keys are other draws, and the deal's key is kept nowhere."""
    drawn = []

    def spy(size):
        value = secrets.SystemRandom().randbytes(size)
        drawn.append(value)
        return value

    monkeypatch.setattr(secrets, "token_bytes", spy)
    seats = ["person", "value", "random", "value"]
    with serving(tmp_path / "t.db") as (client, server):
        links = client.post("/api/tables", json={"ruleset": "en", "players": 4, "seats": seats})
        table = server.tables[links.json()["table"]]
        seat_page = client.get(f"/api/seat/{key(links.json()['seats'][0])}/state").text
    keys = [k for k in drawn if len(k) == web_keys.KEY_BYTES]  # the others are the links' tokens
    deal_key, *agent_keys = keys
    assert len(keys) == 4 and len(set(keys)) == 4 and web_keys.KEY_BYTES * 8 == 256
    rules = qe.get_ruleset("en")
    game = web_keys.deal(rules, 4, deal_key)
    dealt = ("deck", "nations", "industries")
    assert {k: game.to_record()[k] for k in dealt} == {k: table.game.to_record()[k] for k in dealt}
    for bit in range(len(deal_key) * 8):
        flipped = bytearray(deal_key)
        flipped[bit // 8] ^= 1 << (bit % 8)
        assert (
            web_keys.deal(rules, 4, bytes(flipped)).to_record()["deck"] != game.to_record()["deck"]
        )
    assert table.keys == (None, *agent_keys)
    stored = (tmp_path / "t.db").read_bytes() + b"".join(
        p.read_bytes() for p in tmp_path.glob("t.db-*")
    )
    assert deal_key.hex().encode() not in stored and deal_key not in stored
    for agent_key in agent_keys:
        assert agent_key.hex() not in seat_page


def test_agents_resume_exactly_after_restarts(tmp_path):
    """A table of agents stopped twice mid-game: every agent move in the final record is
    the one its own key gives at that moment, as in a game played without a stop."""
    database = tmp_path / "t.db"
    body = {"ruleset": "en", "players": 5, "seats": ["value", "random", "value", "random", "value"]}
    with serving(database, bot_delay=0.002) as (client, server):
        table_id = client.post("/api/tables", json=body).json()["table"]
        _until(lambda: server.tables[table_id].version >= 20)
    for _ in range(2):
        with serving(database, bot_delay=0.002) as (client, server):
            stored = len(_stored(database, table_id)["moves"])
            _until(
                lambda s=server, v=stored: table_id in s.tables and s.tables[table_id].version > v
            )
    with serving(database, bot_delay=0.0) as (client, server):
        _until(lambda: table_id in server.tables and server.tables[table_id].game.is_over)
        table = server.tables[table_id]
    record = _stored(database, table_id)
    game = qe.replay({**record, "moves": []})
    for version, move in enumerate(record["moves"]):
        seat = move["seat"]
        game = web_keys.agent_move(table.kinds[seat], table.keys[seat], game, seat, version)
        assert game.to_record()["moves"][-1] == move, version
    assert game.is_over and len(record["moves"]) > 40


# --------------------------------------------------------------------------- limits


def test_table_creation_is_limited_per_client_and_in_all(tmp_path):
    limits = web.WebLimits(tables_per_client_per_minute=3, max_tables=5)
    with serving(tmp_path / "t.db", limits=limits) as (client, server):
        for _ in range(3):
            assert client.post("/api/tables", json=PEOPLE).status_code == 201
        refused = client.post("/api/tables", json=PEOPLE)
        assert "a minute from one address" in _error_of(refused, 429)
        assert int(refused.headers["retry-after"]) > 0 and len(server.entries) == 3
        server.admit("another address")  # may make tables
        for name in ("b", "c"):
            server.create("en", 3, ["person"] * 3, client=name)
        for table_id in server.entries:  # every table was opened and is in play
            server.use(table_id, opened=True)
        mine = [t for t in server.entries.values() if t.client == "testclient"]
        oldest = min(mine, key=lambda t: t.used).id
        # At the cap a newcomer's table takes the place of the least used table of the
        # address that holds the most, while it holds two more than the newcomer.
        for name in ("d", "e"):
            server.use(server.create("en", 3, ["person"] * 3, client=name).id, opened=True)
        assert oldest not in server.entries and len(server.entries) == 5
        held = collections.Counter(t.client for t in server.entries.values())
        assert held == {"testclient": 1, "b": 1, "c": 1, "d": 1, "e": 1}
        with pytest.raises(web.LimitReached, match="most tables"):  # all alike now
            server.create("en", 3, ["person"] * 3, client="f")
    with serving(tmp_path / "t.db", limits=limits) as (client, server):
        for table_id in server.entries:
            server.use(table_id, opened=True)
        assert "most tables (5)" in _error_of(client.post("/api/tables", json=PEOPLE), 503)


def test_finished_and_abandoned_tables_expire(tmp_path):
    limits = web.WebLimits(keep_finished=100, keep_abandoned=1000)
    with serving(tmp_path / "t.db", limits=limits) as (client, server):
        people = client.post("/api/tables", json=PEOPLE).json()
        agents = client.post(
            "/api/tables", json={"ruleset": "en", "players": 3, "seats": ["zero"] * 3}
        ).json()
        _until(lambda: server.tables[agents["table"]].game.is_over)
        now = time.time()
        assert client.portal.call(server.sweep, now + 50) == []
        assert client.portal.call(server.sweep, now + 150) == [agents["table"]]
        _error_of(client.get(f"/api/watch/{agents['table']}/state"), 404)
        assert client.get(f"/api/watch/{people['table']}/state").status_code == 200
        assert client.portal.call(server.sweep, now + 1500) == [people["table"]]
        _error_of(client.get(people["seats"][0].replace("/seat/", "/api/seat/") + "/state"), 404)
        assert _stored(tmp_path / "t.db", people["table"]) is None


def test_start_up_replays_no_table_until_it_is_asked_for(tmp_path):
    database = tmp_path / "t.db"
    with serving(database) as (client, _):
        ids = [client.post("/api/tables", json=PEOPLE).json()["table"] for _ in range(5)]
    with serving(database) as (client, server):
        assert set(server.entries) == set(ids) and server.tables == {}
        assert client.get(f"/api/watch/{ids[2]}/state").status_code == 200
        assert list(server.tables) == [ids[2]]


# --------------------------------------------------------------------------- storage


def test_a_locked_database_blocks_no_other_request_and_refuses_the_move(tmp_path):
    """Another process holds the database: a bid waits on the storage thread while
    ``GET /`` is answered, and counts once the lock is gone; a bid that waits longer than
    the busy timeout is refused with 503, and nothing shows it."""
    database = tmp_path / "t.db"
    web.TableServer(str(database)).close()  # the server's database, then another process
    holder = sqlite3.connect(database, isolation_level=None)
    for timeout, held in ((30.0, False), (0.3, True)):
        with serving(database, limits=web.WebLimits(busy_timeout=timeout)) as (client, server):
            links = client.post("/api/tables", json=PEOPLE).json()
            table, seat = server.tables[links["table"]], key(links["seats"][0])
            before = table.game
            holder.execute("BEGIN IMMEDIATE")
            answers = []
            bidding = threading.Thread(
                target=lambda s=seat, c=client, a=answers: a.append(
                    c.post(f"/api/seat/{s}/bid", json={"amount": 5, "version": 0})
                )
            )
            bidding.start()
            time.sleep(0.2)  # the bid reaches the storage thread and waits there
            if not held:
                assert client.get("/").status_code == 200 and bidding.is_alive()
                holder.execute("ROLLBACK")
            bidding.join(60)
            if not held:
                assert answers[0].status_code == 200 and table.game is not before
                continue
            assert "database is locked" in _error_of(answers[0], 503)
            assert table.game is before
            assert client.get(f"/api/seat/{seat}/state").json()["view"]["opening_bid"] is None
            holder.execute("ROLLBACK")
            assert _stored(database, table.id)["moves"] == []
            bid = client.post(f"/api/seat/{seat}/bid", json={"amount": 5, "version": 0})
            assert bid.status_code == 200
    holder.close()


def test_a_full_disk_refuses_tables_and_moves_and_changes_nothing(tmp_path):
    database = tmp_path / "t.db"
    with serving(database) as (client, server):
        body = {"ruleset": "en", "players": 3, "seats": ["person"] * 3}
        links = client.post("/api/tables", json=body).json()
        table, tokens = server.tables[links["table"]], [key(s) for s in links["seats"]]
        pages = server.store.connection.execute("PRAGMA page_count").fetchone()[0]
        for connection in (server.store.connection, server.store.at_once):
            connection.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full now
        for _ in range(200):
            response = client.post("/api/tables", json=PEOPLE)
            if response.status_code != 201:
                break
        assert "disk is full" in _error_of(response, 503)
        kept = set(server.entries)
        refused = None
        while not table.game.is_over and refused is None:
            game = table.game
            seat = min(game.to_act)
            amount = game.view(seat).limits.legal(500_000 + table.version)
            response = client.post(
                f"/api/seat/{tokens[seat]}/bid", json={"amount": amount, "version": table.version}
            )
            if response.status_code == 503:
                refused = response
                assert table.game is game and set(server.entries) == kept
                assert len(_stored(database, table.id)["moves"]) == table.version
                watched = client.get(f"/api/watch/{table.id}/state").json()
                assert watched["version"] == table.version
        assert refused is not None and "disk is full" in _error_of(refused, 503)


def test_a_damaged_row_is_set_aside_and_the_others_are_served(tmp_path, caplog):
    database = tmp_path / "t.db"
    server = web.TableServer(str(database))
    good, flipped, no_seats, short = (server.create("en", 3, ["person"] * 3) for _ in range(4))
    server.close()
    with contextlib.closing(sqlite3.connect(database, isolation_level=None)) as connection:
        record = connection.execute("SELECT record FROM tables WHERE id = ?", (flipped.id,))
        text = record.fetchone()[0]
        damaged = text.replace('"moves"', '"moves\x00', 1)  # one byte changed
        connection.execute("UPDATE tables SET record = ? WHERE id = ?", (damaged, flipped.id))
        connection.execute("UPDATE tables SET seats = '[]' WHERE id = ?", (no_seats.id,))
        seats = json.dumps([{"kind": "person", "token": "x" * 24}])
        connection.execute("UPDATE tables SET seats = ? WHERE id = ?", (seats, short.id))
    caplog.set_level(logging.WARNING, logger="qe_rules.apps.web")
    with serving(database) as (client, server):
        assert client.get(f"/api/watch/{good.id}/state").status_code == 200
        for bad in (flipped, no_seats, short):
            _error_of(client.get(f"/api/watch/{bad.id}/state"), 404)
            assert any(
                bad.id in r.getMessage() and r.levelname == "WARNING" for r in caplog.records
            )
        assert set(server.entries) == {good.id}
    with contextlib.closing(sqlite3.connect(database)) as connection:
        aside = {row[0] for row in connection.execute("SELECT CAST(id AS TEXT) FROM quarantine")}
    assert aside == {flipped.id, no_seats.id, short.id}


@pytest.mark.parametrize(
    "damage", ["not a database", "truncated", "wrong schema", "a folder", "a missing folder"]
)
def test_an_unusable_database_stops_the_server_with_one_line(tmp_path, damage, capsys):
    from qe_rules.apps.cli import main

    database = tmp_path / "t.db"
    if damage == "not a database":
        database.write_bytes(b"these are not the tables you are looking for\n" * 100)
    elif damage == "truncated":
        server = web.TableServer(str(database))
        for _ in range(40):
            server.create("en", 5, ["person"] * 5)
        server.close()
        data = database.read_bytes()
        database.write_bytes(data[: len(data) // 2])
    elif damage == "wrong schema":
        with contextlib.closing(sqlite3.connect(database)) as connection:
            connection.execute("CREATE TABLE tables (x)")
    elif damage == "a folder":
        database.mkdir()
    else:
        database = tmp_path / "missing" / "t.db"
    assert main(["serve", "--db", str(database), "--port", "9"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("qe-rules: error: ") and str(database) in err


# --------------------------------------------------------------------------- http hygiene


def test_pages_and_answers_carry_the_security_headers(tmp_path):
    with serving(tmp_path / "t.db") as (client, _):
        links = client.post("/api/tables", json=PEOPLE).json()
        seat = links["seats"][0]
        for path in ["/", links["host"], seat, links["watch"], f"/api{seat}/state", "/nowhere"]:
            headers = client.get(path).headers
            assert "frame-ancestors 'none'" in headers["content-security-policy"]
            assert "script-src 'self';" in headers["content-security-policy"]
            assert headers["referrer-policy"] == "no-referrer"
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["cache-control"] == "no-store", path
        for name in ("table.js", "table.css", "host.js", "favicon.svg"):
            static = client.get(f"/static/{name}")
            assert static.status_code == 200 and "etag" in static.headers  # StaticFiles
            assert static.headers["cache-control"] == "no-cache"
        for page in ("/", links["host"], seat):
            assert not re.search(r"<script(?![^>]*\ssrc=)", client.get(page).text), page
            assert " style=" not in client.get(page).text


def test_cross_site_posts_and_other_hosts_are_refused(tmp_path):
    form = {"ruleset": "en", "players": "3", "seat0": "person", "seat1": "zero", "seat2": "zero"}
    with serving(tmp_path / "t.db") as (client, server):
        for headers in (
            {"sec-fetch-site": "cross-site"},
            {"sec-fetch-site": "same-site"},
            {"origin": "http://evil.example"},
            {"origin": "null"},
        ):
            refused = client.post("/tables", data=form, headers=headers)
            assert "another site" in _error_of(refused, 403)
            refused = client.post("/api/tables", json=PEOPLE, headers=headers)
            assert "another site" in _error_of(refused, 403)
        assert server.entries == {}
        for same in (
            {"sec-fetch-site": "same-origin", "origin": "null"},  # as under no-referrer
            {"origin": BASE},
            {},  # not a browser
        ):
            response = client.post("/tables", data=form, headers=same, follow_redirects=False)
            assert response.status_code == 303
        assert "host" in _error_of(client.get("/", headers={"host": "evil.example"}), 400)
        assert client.get("/", headers={"host": "localhost:8000"}).status_code == 200


def test_links_come_from_the_base_url_not_the_host_header(tmp_path):
    options = {"base_url": "https://qe.example.org/games/", "allowed_hosts": ["lan-box"]}
    with serving(tmp_path / "t.db", **options) as (client, _):
        links = client.post("/api/tables", json=PEOPLE).json()
        for host in ("qe.example.org", "lan-box:8000", "127.0.0.1:8000"):
            page = client.get(links["host"], headers={"host": host}).text
            assert f"https://qe.example.org/games/seat/{key(links['seats'][0])}" in page
            assert f"http://{host}" not in page
        assert client.get("/", headers={"host": "elsewhere.org"}).status_code == 400
        slash = client.get(links["seats"][0] + "/", follow_redirects=False)
        assert slash.status_code == 404 and "location" not in slash.headers


# --------------------------------------------------------------------------- the process


@pytest.mark.slow
def test_ctrl_c_stops_the_server_with_a_page_open(tmp_path):
    """SIGINT while a page's stream is open: the server ends (exit 130, one line, no
    traceback) well within the 5 seconds (this bound is generous, for a loaded machine)."""
    import os
    import signal
    import subprocess
    import sys

    from tests.support.web import free_port

    port = free_port()
    command = [sys.executable, "-m", "qe_rules.apps.cli", "serve", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--db", str(tmp_path / "t.db"), "--log-level", "warning"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    try:
        base = f"http://127.0.0.1:{port}"
        _until(lambda: _answers(base), 30)
        links = httpx.post(f"{base}/api/tables", json=PEOPLE).json()
        lines = []
        with httpx.stream("GET", f"{base}/api{links['watch']}/events", timeout=30) as stream:
            for line in stream.iter_lines():
                lines.append(line)
                if line.startswith("data: "):
                    process.send_signal(signal.SIGINT)
                    started = time.monotonic()
                    break
            status = process.wait(timeout=15)
        elapsed = time.monotonic() - started
    finally:
        process.kill()
        process.wait()
    err = process.stderr.read().decode()
    assert status == 130 and "Traceback" not in err, err
    assert err.strip().splitlines()[-1] == "qe-rules: error: interrupted"
    assert elapsed < 15


def _answers(base):
    try:
        return httpx.get(base + "/", timeout=1).status_code == 200
    except httpx.TransportError:
        return False


def test_a_live_server_stores_each_acknowledged_move(tmp_path):
    """Over real HTTP, each acknowledged bid is already in the database when the answer
    arrives (stored first, then applied)."""
    with live_server(tmp_path / "t.db") as (base, server):
        client = httpx.Client(base_url=base, timeout=30)
        body = {"ruleset": "en", "players": 3, "seats": ["person"] * 3}
        links = client.post("/api/tables", json=body).json()
        tokens = [key(s) for s in links["seats"]]
        table = server.tables[links["table"]]
        for _ in range(6):
            seat = min(table.game.to_act)
            limits = table.game.view(seat).limits
            body = {"amount": limits.legal(3), "version": table.version}
            answer = client.post(f"/api/seat/{tokens[seat]}/bid", json=body)
            assert answer.status_code == 200
            assert len(_stored(tmp_path / "t.db", table.id)["moves"]) >= answer.json()["version"]


@pytest.mark.slow  # about 2 s: kept out of the quick run
def test_agents_never_stall_when_a_person_moves_as_they_stop(tmp_path, monkeypatch):
    """A person who moves while the agents' task is about to stop (it found no agent due,
    and is slowed down here before it ends): every game still reaches its end, as the
    task checks once more whether an agent is due."""
    seats = ["person", "value", "random"]
    with serving(tmp_path / "t.db") as (client, server):
        finish = server._finish

        async def slowly(work):
            done = await finish(work)
            await asyncio.sleep(0.05)
            return done

        monkeypatch.setattr(server, "_finish", slowly)
        for _ in range(1):
            links = client.post("/api/tables", json={"ruleset": "en", "players": 3, "seats": seats})
            token, table_id = key(links.json()["seats"][0]), links.json()["table"]
            deadline = time.monotonic() + 30
            while not server.tables[table_id].game.is_over:
                assert time.monotonic() < deadline, "the agents stopped"
                table = server.tables[table_id]
                view, version = table.game.view(0), table.version
                time.sleep(0.03)  # the agents' task has found no agent due: it is stopping
                if view.can_peek:
                    client.post(f"/api/seat/{token}/decline-peek", json={"version": version})
                elif view.limits is not None and 0 in view.to_act:
                    body = {"amount": view.limits.legal(2), "version": version}
                    client.post(f"/api/seat/{token}/bid", json=body)


@pytest.mark.parametrize(
    ("option", "value"),
    [("--tables-per-minute", "-1"), ("--max-tables", "-5"), ("--keep-finished", "nan")],
)
def test_the_serve_command_refuses_a_negative_limit(option, value, capsys):
    from qe_rules.apps.cli import main

    assert main(["serve", option, value]) == 2
    assert f"{option} is at least 0" in capsys.readouterr().err
