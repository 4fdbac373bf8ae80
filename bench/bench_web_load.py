"""Load on the web table: many tables of agents play to the end at once on one server.

Run: ``python bench/bench_web_load.py [--tables 50] [--players 4] [--agent value]``
(needs the extras ``[web]`` and ``httpx``). It starts ``qe-rules serve --bot-delay 0``
(with no limit on new tables, nor on the streams and connections of its one address) as one server process with a fresh database, creates the tables at once (every seat an
agent), and follows each table on its spectator stream (server-sent events) until every
game is over. The time per move is measured on the wire: the time between two messages of
a table's stream divided by the moves between them (a slow client may receive several
moves in one message). It reports the 50th and 99th percentile, the moves per second of
the whole server, and the ratio of the median to the floor's time per move
(``floor_sim.py``, found as ``bench/common.py`` finds it; a bare game loop, run in the same process first).
The goal (issue: web table) is that 50 tables of 4 agents all finish on this machine.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import httpx
from common import FLOOR_PATH

FLOOR = str(FLOOR_PATH)


def floor_seconds_per_move(players: int = 4, games: int = 3000) -> float | None:
    """The floor's time per bid: its time per game over the bids of a game (one per seat
    and sale, 16 sales)."""
    if not os.path.exists(FLOOR):
        return None
    out = subprocess.run(
        [sys.executable, FLOOR, str(games)], capture_output=True, text=True, check=True
    ).stdout
    match = re.search(r"\(([\d.]+) us/game\)", out)
    return None if match is None else float(match.group(1)) / 1e6 / (16 * players)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def follow(client: httpx.AsyncClient, table: str, seen: list[tuple[float, int]]) -> None:
    """Record (arrival time, version) of each message of a table's spectator stream."""
    async with client.stream("GET", f"/api/watch/{table}/events") as response:
        async for line in response.aiter_lines():
            if line.startswith("data: "):
                payload = json.loads(line[6:])
                seen.append((time.perf_counter(), payload["version"]))
                if payload["view"]["phase"] == "over":
                    return


async def load(base: str, tables: int, players: int, agent: str) -> dict[str, float]:
    limits = httpx.Limits(max_connections=tables * 2 + 10)
    async with httpx.AsyncClient(base_url=base, timeout=600, limits=limits) as client:
        body = {"ruleset": "en", "players": players, "seats": [agent] * players}
        started = time.perf_counter()
        created = await asyncio.gather(
            *(client.post("/api/tables", json=body) for _ in range(tables))
        )
        ids = [response.json()["table"] for response in created]
        streams: list[list[tuple[float, int]]] = [[] for _ in ids]
        await asyncio.gather(*(follow(client, t, s) for t, s in zip(ids, streams, strict=True)))
        wall = time.perf_counter() - started
        records = await asyncio.gather(*(client.get(f"/api/watch/{t}/record") for t in ids))
    moves = sum(len(r.json()["moves"]) for r in records)
    per_move: list[float] = []
    for seen in streams:
        for (t1, v1), (t2, v2) in itertools.pairwise(seen):
            if v2 > v1:
                per_move += [(t2 - t1) / (v2 - v1)] * (v2 - v1)
    per_move.sort()
    return {
        "tables": tables,
        "moves": moves,
        "wall": wall,
        "p50": statistics.median(per_move),
        "p99": per_move[min(len(per_move) - 1, int(0.99 * len(per_move)))],
        "over": sum(1 for r in records if r.status_code == 200),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--agent", default="value")
    args = parser.parse_args()
    floor = floor_seconds_per_move(args.players)
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [
                sys.executable, "-m", "qe_rules.apps.cli", "serve", "--port", str(port),
                "--db", os.path.join(folder, "tables.sqlite3"), "--bot-delay", "0",
                "--tables-per-minute", "0", "--tables-per-address", "0", "--streams-per-address", "0",
                "--connections-per-address", "0", "--log-level", "warning",
            ],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(200):
                try:
                    httpx.get(base + "/", timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.05)
            result = asyncio.run(load(base, args.tables, args.players, args.agent))
        finally:
            server.terminate()
            server.wait(10)
    print(
        f"{result['over']}/{args.tables} tables of {args.players} {args.agent} agents played "
        f"to the end: {result['moves']} moves in {result['wall']:.1f} s "
        f"({result['moves'] / result['wall']:.0f} moves/s on one server process)"
    )
    print(
        f"time per move on the wire: p50 {result['p50'] * 1000:.1f} ms, "
        f"p99 {result['p99'] * 1000:.1f} ms"
    )
    if floor is not None:
        print(f"floor: {floor * 1e6:.2f} us per bid; p50 / floor = {result['p50'] / floor:.0f}")
    else:
        print(f"floor: {FLOOR} not found, no ratio")


if __name__ == "__main__":
    main()
