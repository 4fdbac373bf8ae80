"""A refused move at the web table: its text in the reader's language, with the error's
code and params for a client that shows it in its own words."""

import httpx

from tests.support.web import key, live_server


def test_the_german_table_shows_a_refused_move_in_german_with_its_code(tmp_path):
    with (
        live_server(tmp_path / "tables.sqlite3") as (base, _server),
        httpx.Client(base_url=base, timeout=30) as client,
    ):
        created = client.post(
            "/api/tables", json={"ruleset": "en", "players": 4, "seats": ["person"] * 4}
        )
        links = created.json()
        third = key(links["seats"][2])  # seat 2 of the library: seat 3 for people
        german = client.post(
            f"/api/seat/{third}/bid", json={"amount": 3}, headers={"Accept-Language": "de-DE"}
        )
        assert german.status_code == 409
        answer = german.json()
        assert answer["code"] == "not-to-act"
        assert answer["params"] == {"seat": 2, "sale": 0, "auctioneer": 0}
        assert answer["error"] == (
            "Platz 3 kann jetzt nicht bieten: Versteigerung 1 wartet auf das Eröffnungsgebot "
            "von Platz 1, dem Auktionator."
        )
        english = client.post(f"/api/seat/{third}/bid?lang=en", json={"amount": 3})
        assert english.json()["error"].startswith("seat 3 cannot bid now: sale 1 waits")
        first = key(links["seats"][0])
        low = client.post(f"/api/seat/{first}/bid?lang=de", json={"amount": 0}).json()
        assert low["code"] == "bid-below-minimum" and "mindestens 1" in low["error"]
