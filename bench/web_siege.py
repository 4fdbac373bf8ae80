"""A hostile client against ``qe-rules serve`` on localhost: the attacks of the web table's
issue 38, at their full sizes, each against a fresh server process with its default
limits (unless named), and the figures to report.

Run: ``nice python bench/web_siege.py [--only NAME ...]`` (needs the extras ``[web]`` and
``httpx``; sends from loopback addresses 127.0.0.2 and up, which Linux routes to the
loopback without set-up). The attacks:

- ``slow``: 400 idle or half-sent connections (four shapes: nothing sent, half a request
  line, a head trickled a byte every 3 s, a POST body trickled likewise) from 100
  addresses, held up to 60 s, while ``GET /`` is timed from another address: when the
  server closed them, and the slowest ``GET /``; then the same 400 from one address
  (refused beyond the per-address cap at once).
- ``files``: a server whose file limit is 256 descriptors, 400 silent connections from 100
  addresses: how many it held and refused, its log lines (in all, most in one second),
  and how soon ``GET /`` is answered once the attackers let go.
- ``tables``: 100 addresses fill ``--max-tables 2000`` (20 tables each; then again with
  every table's seat opened), then a newcomer from a fresh address creates a table.
- ``agents``: 100 addresses make 20 tables of five ``value`` agents each (2,000 tables,
  the default bot delay): ``GET /`` before and during two minutes of play (goal: p99 under
  100 ms), and the agents' moves per second.
- ``seats``: a listed table whose seat 1 was named by the host, seat 2 used only through
  the JSON interface and seat 3 opened while another process held the database: the
  lobby offers none of them; a bid request sent again in a later sale is refused (409).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import pathlib
import sqlite3
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import httpx

from tests.support.siege import (
    Clock,
    answers,
    create_from,
    flood_tables,
    hold,
    loopback,
    serving,
)

PEOPLE = {"ruleset": "en", "players": 4, "seats": ["person", "person", "value", "value"]}
AGENTS = {"ruleset": "en", "players": 5, "seats": ["value"] * 5}


def closed_after(held: list, shape: str | None = None) -> str:
    times = sorted(
        h.closed - h.opened
        for h in held
        if h.closed is not None and not h.refused
        if shape is None or h.shape == shape
    )
    still = sum(1 for h in held if h.closed is None and (shape is None or h.shape == shape))
    if not times:
        return f"none closed, {still} open"
    return f"closed after {times[0]:.1f}-{times[-1]:.1f} s, {still} still open"


def slow(folder: pathlib.Path) -> None:
    with serving(folder) as server:
        with Clock(server.port, every=0.2) as alone:
            time.sleep(10)
        with Clock(server.port, every=0.2) as clock:
            held = hold(server.port, loopback(100), 4, seconds=60)
    print(f"slow: GET / alone: {alone.summary()}")
    print(f"slow: 400 connections from 100 addresses: {closed_after(held)}")
    for shape in ("silent", "half-line", "trickled-head", "trickled-body"):
        print(f"  {shape}: {closed_after(held, shape)}")
    print(f"  GET / meanwhile: {clock.summary()}")
    print(f"  server log: {server.lines_per_second()[0]} lines")
    with serving(folder) as server:
        held = hold(server.port, ["127.0.0.2"], 400, seconds=30)
    refused = sum(h.refused for h in held)
    print(
        f"slow, one address: {refused} of 400 refused at once (503), the others "
        f"{closed_after([h for h in held if not h.refused])}"
    )


def files(folder: pathlib.Path) -> None:
    with serving(folder, "--max-connections", "10000", files=256) as server:
        sources = loopback(100)
        mark = server.mark()
        held: list = []
        attack = threading.Thread(
            target=lambda: held.extend(hold(server.port, sources, 4, seconds=8, every=30))
        )
        attack.start()
        time.sleep(4)
        during = answers(server.base)
        attack.join()
        let_go = time.monotonic()
        while not answers(server.base):
            time.sleep(0.01)
        back = time.monotonic() - let_go
        total, most = server.lines_per_second(mark)
        print(
            f"files: file limit 256: {sum(not h.refused for h in held)} of 400 held, "
            f"{sum(h.refused for h in held)} refused at once (503); GET / while full: "
            f"{'answered' if during else 'refused'}; answered {back:.2f} s after the "
            f"attackers let go; log lines during the attack: {total}, at most {most} in a second"
        )
        for line in server.lines()[mark:]:
            print(f"  | {line}")


def tables(folder: pathlib.Path) -> None:
    for opened in (False, True):
        with serving(folder) as server:
            started = time.monotonic()
            statuses = flood_tables(server.base, loopback(100), 20, PEOPLE, open_seat=opened)
            took = time.monotonic() - started
            newcomer = create_from(server.base, "127.0.1.200", PEOPLE)
            print(
                f"tables ({'every seat opened' if opened else 'untouched'}): 100 addresses x "
                f"20 in {took:.1f} s: {dict(statuses)}; a newcomer then: "
                f"{newcomer.status_code} {newcomer.text[:80] if newcomer.status_code != 201 else ''}"
            )


def agents(folder: pathlib.Path) -> None:
    with serving(folder) as server:
        with Clock(server.port, every=0.05) as before:
            time.sleep(10)
        flood_started = time.monotonic()
        with Clock(server.port, every=0.05) as during:
            statuses = flood_tables(server.base, loopback(100), 20, AGENTS)
            made = time.monotonic() - flood_started
            time.sleep(120)
        moves = _stored_moves(folder, server.port)
        print(f"agents: GET / alone: {before.summary()}")
        print(
            f"agents: 100 addresses x 20 tables of 5 value agents ({dict(statuses)}, made in "
            f"{made:.1f} s); GET / during 2 min of play: {during.summary()}"
        )
        print(
            f"  agents' moves stored: {moves} ({moves / (time.monotonic() - flood_started):.0f}/s)"
        )


def _stored_moves(folder: pathlib.Path, port: int) -> int:
    database = folder / f"tables-{port}.sqlite3"
    with contextlib.closing(sqlite3.connect(database, timeout=10)) as connection:
        row = connection.execute(
            "SELECT SUM(json_array_length(record, '$.moves')) FROM tables"
        ).fetchone()
    return int(row[0] or 0)


def seats(folder: pathlib.Path) -> None:
    body = {
        "ruleset": "en",
        "players": 4,
        "seats": ["person", "person", "person", "value"],
        "names": ["Hanna", "", "", ""],
        "title": "Freitag",
        "listed": True,
    }
    with serving(folder) as server, httpx.Client(base_url=server.base, timeout=30) as client:
        links = client.post("/api/tables", json=body).json()
        api_seat = links["seats"][1].replace("/seat/", "/api/seat/")
        state = client.get(f"{api_seat}/state").json()  # used through the interface only
        holder = sqlite3.connect(folder / f"tables-{server.port}.sqlite3", isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        opened = client.get(links["seats"][2])  # while another process holds the database
        time.sleep(2.5)
        holder.execute("ROLLBACK")
        holder.close()
        join = client.get(f"/join/{links['table']}")
        offered = [s for s in range(4) if f'value="{s}"' in join.text]
        tries = [
            client.post(f"/join/{links['table']}", data={"seat": str(s), "name": "Mallory"})
            for s in range(3)
        ]
        print(
            f"seats: page opened while the database was held: {opened.status_code}; the "
            f"lobby offers seats {offered or 'none'}; joins of seats 0, 1, 2: "
            f"{[t.status_code for t in tries]}"
        )
        token = links["seats"][0].replace("/seat/", "/api/seat/")
        first = client.get(f"{token}/state").json()
        bid = {"amount": first["view"]["limits"]["minimum"], "version": first["version"]}
        answer = client.post(f"{token}/bid", json=bid)
        others = [link.replace("/seat/", "/api/seat/") for link in links["seats"][1:3]]
        deadline = time.monotonic() + 60
        while True:  # the others bid until seat 0 owes a bid in a later sale
            mine = client.get(f"{token}/state").json()
            if mine["view"]["sale"] > 0 and 0 in mine["view"]["to_act"]:
                break
            assert time.monotonic() < deadline, "the game did not come back to seat 0"
            for number, other in enumerate(others, start=1):
                now = client.get(f"{other}/state").json()
                if now["view"]["limits"] and number in now["view"]["to_act"]:
                    least = now["view"]["limits"]["minimum"]
                    least += least == now["view"]["limits"]["forbidden"]
                    client.post(f"{other}/bid", json={"amount": least, "version": now["version"]})
            time.sleep(0.3)
        replayed = client.post(f"{token}/bid", json=bid)
        print(
            f"seats: a bid of sale 1 ({answer.status_code}) sent again when seat 0 owes a bid "
            f"in sale {mine['view']['sale'] + 1}: {replayed.status_code} "
            f"{json.loads(replayed.text)['error'][:100]}"
        )
        assert state["version"] >= 0


ATTACKS = {"slow": slow, "files": files, "tables": tables, "agents": agents, "seats": seats}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=sorted(ATTACKS), default=list(ATTACKS))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for name in args.only:
            started = time.monotonic()
            ATTACKS[name](pathlib.Path(folder))
            print(f"  ({name}: {time.monotonic() - started:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
