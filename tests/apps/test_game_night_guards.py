"""The game night's routes (names, lobby, joining, rematches, languages) behind the web
server's guards: cross-site posts, strict numbers, bounds, limits, base-URL links,
headers, and the seatings in the table store."""

import contextlib
import json
import sqlite3
import time

import pytest

from qe_rules.apps import web
from qe_rules.apps.lobby import MAX_NAME_LENGTH
from qe_rules.apps.web_store import StorageUnavailable, TableStore
from tests.support.web import serving

LISTED = {
    "ruleset": "en",
    "players": 3,
    "seats": ["person", "person", "zero"],
    "names": ["Anna", "", ""],
    "title": "Abend",
    "listed": True,
}


def _error_of(response, status):
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    message = response.json()["error"]
    assert message and "\n" not in message
    return message


def _token(link):
    return link.rsplit("/", 1)[1]


def _finish(client, server, links):
    """Play a table to its end: its people bid their least, its agents play."""
    table = server.tables[links["table"]]
    deadline = time.monotonic() + 60
    while not table.game.is_over:
        assert time.monotonic() < deadline
        for seat in sorted(table.game.to_act):
            if links["seats"][seat] is not None:
                amount = table.game.view(seat).limits.legal(0)
                client.post(
                    f"/api/seat/{_token(links['seats'][seat])}/bid",
                    json={"amount": amount, "version": table.version},
                )
        time.sleep(0.002)
    return table


def test_the_people_s_posts_from_another_site_are_refused(tmp_path):
    with serving(tmp_path / "t.db") as (client, server):
        links = client.post("/api/tables", json=LISTED).json()
        token = _token(links["seats"][0])
        for headers in ({"sec-fetch-site": "cross-site"}, {"origin": "http://evil.example"}):
            for path, body in (
                (f"/join/{links['table']}", {"seat": "1", "name": "Eve"}),
                (f"/api/seat/{token}/name", {"name": "Eve"}),
                (f"/api/seat/{token}/rematch", {}),
            ):
                refused = client.post(path, json=body, headers=headers)
                assert "another site" in _error_of(refused, 403), path
        table = server.tables[links["table"]]
        assert table.names == ("Anna", "", "") and len(server.entries) == 1


@pytest.mark.parametrize("seat", ["\u0661", "+1", "1.0", "-1", " 1x", 10**40, True, 1.0, [1], "7"])
def test_a_seat_to_join_is_ascii_digits_of_a_free_seat(tmp_path, seat):
    with serving(tmp_path / "t.db") as (client, server):
        links = client.post("/api/tables", json=LISTED).json()
        refused = client.post(f"/join/{links['table']}", json={"seat": seat, "name": "Eve"})
        _error_of(refused, 409)
        assert server.tables[links["table"]].names == ("Anna", "", "")
        taken = client.post(f"/join/{links['table']}", data={"seat": "01", "name": "Eve"})
        assert taken.status_code == 200 and server.tables[links["table"]].names[1] == "Eve"


@pytest.mark.parametrize(
    "change",
    [
        {"names": ["x" * (MAX_NAME_LENGTH + 1), "", ""]},
        {"names": ["a\x00b", "", ""]},
        {"names": ["", ""]},
        {"names": "Anna"},
        {"title": "t" * (MAX_NAME_LENGTH + 1)},
        {"players": "\u0663"},
        {"players": 7},
        {"spec": "en:" + "x" * 600},
        {"spec": "en:no_such_field=1"},
    ],
)
def test_a_host_form_out_of_bounds_makes_no_table(tmp_path, change):
    with serving(tmp_path / "t.db") as (client, server):
        _error_of(client.post("/api/tables", json={**LISTED, **change}), 400)
        assert server.entries == {}


def test_a_rematch_counts_against_the_table_limits(tmp_path):
    limits = web.WebLimits(tables_per_client_per_minute=1)
    with serving(tmp_path / "t.db", limits=limits) as (client, server):
        links = client.post("/api/tables", json=LISTED).json()
        _finish(client, server, links)
        refused = client.post(f"/api/seat/{_token(links['seats'][0])}/rematch")
        assert "a minute from one address" in _error_of(refused, 429)
        assert int(refused.headers["retry-after"]) > 0 and len(server.entries) == 1
    with serving(tmp_path / "t.db", limits=web.WebLimits(max_tables=1)) as (client, server):
        refused = client.post(f"/api/seat/{_token(links['seats'][0])}/rematch")
        assert "most tables (1)" in _error_of(refused, 503) and len(server.entries) == 1


def test_the_people_s_pages_link_from_the_base_url_with_the_headers(tmp_path):
    options = {"base_url": "https://qe.example.org/games/", "allowed_hosts": ["lan-box"]}
    with serving(tmp_path / "t.db", **options) as (client, _):
        links = client.post("/api/tables", json=LISTED).json()
        page = client.get(links["host"], headers={"host": "lan-box"}).text
        assert f"https://qe.example.org/games/join/{links['table']}" in page
        assert "lan-box" not in page
        for path in ("/lobby", f"/join/{links['table']}", links["host"], "/?lang=de"):
            headers = client.get(path, headers={"host": "lan-box"}).headers
            assert "script-src 'self';" in headers["content-security-policy"], path
            assert headers["cache-control"] == "no-store", path
        cookie = client.get("/?lang=de").headers["set-cookie"]
        assert "qe_lang=de" in cookie and "Secure" in cookie and "HttpOnly" in cookie


def test_an_older_database_keeps_its_tables_and_gains_the_seatings(tmp_path):
    database = tmp_path / "old.db"
    with serving(database) as (client, _):
        links = client.post("/api/tables", json=LISTED).json()
    with contextlib.closing(sqlite3.connect(database)) as old:  # as an older server left it
        old.execute("ALTER TABLE tables DROP COLUMN seating")
        old.execute("CREATE TABLE seating (id TEXT PRIMARY KEY, data TEXT NOT NULL)")
        seating = {"title": "Abend", "names": ["Anna", "", ""], "listed": True, "taken": [0]}
        old.execute("INSERT INTO seating VALUES (?, ?)", (links["table"], json.dumps(seating)))
        old.commit()
    store = TableStore(str(database))
    assert json.loads(store.seatings()[links["table"]])["names"] == ["Anna", "", ""]
    tables = [row[0] for row in store.connection.execute("SELECT name FROM sqlite_master")]
    assert "seating" not in tables
    store.close()
    with serving(database) as (client, server):
        assert "Abend" in client.get("/lobby").text and links["table"] not in server.tables
        state = client.get(f"/api/watch/{links['table']}/state").json()
        assert state["names"][:2] == ["Anna", "seat 2"]


def test_a_seating_that_cannot_be_stored_changes_nothing(tmp_path, monkeypatch):
    with serving(tmp_path / "t.db") as (client, server):
        links = client.post("/api/tables", json=LISTED).json()
        token = _token(links["seats"][0])

        def full(*args):
            raise StorageUnavailable("the disk is full")

        monkeypatch.setattr(server.store, "set_seating", full)
        _error_of(client.post(f"/api/seat/{token}/name", json={"name": "Eve"}), 503)
        _error_of(client.post(f"/join/{links['table']}", data={"seat": "1", "name": "Bo"}), 503)
        assert server.tables[links["table"]].names == ("Anna", "", "")
        monkeypatch.undo()
        assert "Abend" in client.get("/lobby").text  # seat 1 is still free
        taken = client.post(f"/join/{links['table']}", data={"seat": "1", "name": "Bo"})
        assert taken.status_code == 200 and server.tables[links["table"]].names[1] == "Bo"
