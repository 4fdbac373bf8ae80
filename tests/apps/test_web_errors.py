"""A refused move at the web table: its text in the reader's language, with the error's
code and params for a client that shows it in its own words."""

import httpx

from tests.support.web import key, live_server


def test_the_german_table_shows_a_refused_move_in_german_with_its_code(tmp_path):
    with (
        live_server(tmp_path / "tables.sqlite3") as (base, server),
        httpx.Client(base_url=base, timeout=30) as client,
    ):
        created = client.post(
            "/api/tables", json={"ruleset": "en", "players": 4, "seats": ["person"] * 4}
        )
        links = created.json()
        table = server.tables[links["table"]]
        third = key(links["seats"][2])  # seat 2 of the library: seat 3 for people
        german = client.post(
            f"/api/seat/{third}/bid",
            json={"amount": 3, "version": table.version},
            headers={"Accept-Language": "de-DE"},
        )
        assert german.status_code == 409
        answer = german.json()
        assert answer["code"] == "not-to-act"
        assert answer["params"] == {"seat": 2, "sale": 0, "auctioneer": 0}
        assert answer["error"] == "Du bist nicht am Zug: der Tisch wartet auf Platz 1."
        english = client.post(
            f"/api/seat/{third}/bid?lang=en", json={"amount": 3, "version": table.version}
        )
        assert english.json()["error"] == "It is not your turn: the table waits for seat 1."
        first = key(links["seats"][0])
        low = client.post(
            f"/api/seat/{first}/bid?lang=de", json={"amount": 0, "version": table.version}
        ).json()
        assert low["code"] == "bid-below-minimum" and low["params"]["minimum"] == 1
        assert low["error"] == "Zu niedrig: ein Eröffnungsgebot ist mindestens 1."
