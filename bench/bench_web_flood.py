"""Hostile load on the web table: does ``GET /`` stay quick while one client floods it?

Run: ``python bench/bench_web_flood.py [--seconds 20] [--connections 8]`` (needs the
extras ``[web]`` and ``httpx``). It starts ``qe-rules serve`` as one server process with
its default limits and a fresh database, then measures ``GET /`` from this process every
10 ms: first for a few seconds alone, then while a second process (one client address)
sends, over ``--connections`` connections at once and as fast as it can, requests for
tables of five ``value`` agents mixed with hostile ones: a huge player count (form and
JSON), digits of other scripts, bodies of 20 KB and 1 MB. It reports the 50th and 99th
percentile and the worst ``GET /`` time in both phases, and how the flood was answered
(by status). The goal (issue 26) is a p99 under 50 ms during the flood.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import statistics
import subprocess
import sys
import tempfile
import time

import httpx
from bench_web_load import free_port

HOSTILE = [
    ("/api/tables", {"json": {"ruleset": "en", "players": 99999999999}}),
    ("/tables", {"data": {"players": "99999999999"}}),
    ("/api/tables", {"json": {"ruleset": "en", "players": "\u00b2"}}),
    ("/api/tables", {"content": b"{" * 20_000, "headers": {"content-type": "application/json"}}),
    ("/api/tables", {"content": b"x" * 1_000_000, "headers": {"content-type": "text/plain"}}),
]
AGENTS = ("/api/tables", {"json": {"ruleset": "en", "players": 5, "seats": ["value"] * 5}})


async def flood(base: str, seconds: float, connections: int) -> None:
    """Send the flood's requests until the time is up; print the count by status."""
    statuses: collections.Counter[int | str] = collections.Counter()
    limits = httpx.Limits(max_connections=connections)
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as client:

        async def one_connection(number: int) -> None:
            sent = number
            while time.monotonic() < deadline:
                path, request = AGENTS if sent % 2 else HOSTILE[sent // 2 % len(HOSTILE)]
                sent += 1
                try:
                    answer = await client.post(path, **request)  # type: ignore[arg-type]
                    statuses[answer.status_code] += 1
                except httpx.HTTPError as error:
                    statuses[type(error).__name__] += 1

        await asyncio.gather(*(one_connection(n) for n in range(connections)))
    print(" ".join(f"{status}: {count}" for status, count in sorted(statuses.items(), key=str)))


def probe(base: str, seconds: float) -> list[float]:
    """``GET /`` every 10 ms for ``seconds``: each answer's time in seconds."""
    times = []
    with httpx.Client(base_url=base, timeout=30) as client:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            started = time.perf_counter()
            client.get("/").raise_for_status()
            times.append(time.perf_counter() - started)
            time.sleep(0.01)
    return times


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"p50 {statistics.median(ordered) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
        f"worst {ordered[-1] * 1000:.1f} ms ({len(ordered)} requests)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--flood", metavar="BASE", help=argparse.SUPPRESS)  # the flooding process
    args = parser.parse_args()
    if args.flood:
        asyncio.run(flood(args.flood, args.seconds, args.connections))
        return
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [
                sys.executable, "-m", "qe_rules.apps.cli", "serve", "--port", str(port),
                "--db", os.path.join(folder, "tables.sqlite3"), "--log-level", "warning",
            ],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            for _ in range(200):
                try:
                    httpx.get(base + "/", timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.05)
            print(f"GET / alone: {summary(probe(base, 5))}")
            flood_for = ["--seconds", str(args.seconds), "--connections", str(args.connections)]
            flooder = subprocess.Popen(
                [sys.executable, __file__, "--flood", base, *flood_for],
                stdout=subprocess.PIPE,
                text=True,
            )
            time.sleep(0.5)
            during = probe(base, args.seconds - 1)
            answers, _ = flooder.communicate(timeout=120)
            print(f"GET / during the flood: {summary(during)}")
            print(f"the flood's answers by status: {answers.strip()}")
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
