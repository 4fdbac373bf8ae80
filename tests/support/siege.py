"""A hostile client of the web table, on localhost: a server process to attack, idle and
half-sent connections from many loopback addresses, floods of tables, a clock on ``GET /``
and the server's log lines counted per second.

Used by ``tests/apps/test_web_siege.py`` (small, quick figures, with assertions) and by
``bench/web_siege.py`` (the issue's full sizes, with figures to report). Every server is a
process of its own, stopped by its id when the ``with`` block ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import attrs
import httpx

ROOT = Path(__file__).resolve().parents[2]
SHAPES = ("silent", "half-line", "trickled-head", "trickled-body")
"""The connections of a slow attack: nothing sent; half a request line; a head sent a
byte every few seconds; a POST whose body is sent a byte every few seconds."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def loopback(count: int, first: int = 2) -> list[str]:
    """``count`` loopback addresses to send from: 127.0.0.2, 127.0.0.3, ..."""
    return [f"127.0.{(first + n) // 250}.{(first + n) % 250 + 1}" for n in range(count)]


@attrs.define
class Server:
    """A ``qe-rules serve`` process: its address, its process and its log file."""

    base: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    def lines(self) -> list[str]:
        """The log's lines so far."""
        return self.log.read_text(encoding="utf-8", errors="replace").splitlines()

    def lines_per_second(self, since: int = 0) -> tuple[int, int]:
        """The log's lines in all after the first ``since`` (a :meth:`mark`), and the
        most in one second (by the time stamps of the lines that have one)."""
        lines = self.lines()[since:]
        seconds = Counter(
            match.group(1)
            for line in lines
            if (match := re.match(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)", line))
        )
        return len(lines), max(seconds.values(), default=0)

    def mark(self) -> int:
        """Where the log is now: count lines from here with :meth:`lines_per_second`."""
        return len(self.lines())


@contextlib.contextmanager
def serving(folder: Path, *options: str, files: int | None = None, nice: int = 0):
    """A server process with ``options`` and a fresh database in ``folder``; ``files``
    is its file limit (``RLIMIT_NOFILE``). Stopped (SIGINT, then SIGKILL) at the end."""
    port = free_port()
    log = folder / f"server-{port}.log"

    def limit() -> None:
        if nice:
            os.nice(nice)
        if files is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    command = [sys.executable, "-m", "qe_rules.apps.cli", "serve", "--port", str(port)]
    command += ["--db", str(folder / f"tables-{port}.sqlite3"), *options]
    with log.open("wb") as output:
        process = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=output,
            preexec_fn=limit,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
    server = Server(f"http://127.0.0.1:{port}", port, process, log)
    try:
        deadline = time.monotonic() + 60
        while not answers(server.base):
            assert process.poll() is None, server.log.read_text()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        yield server
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def answers(base: str, source: str = "127.0.0.1") -> bool:
    try:
        transport = httpx.HTTPTransport(local_address=source)
        with httpx.Client(transport=transport, timeout=2) as client:
            return client.get(base + "/").status_code == 200
    except httpx.HTTPError:
        return False


@attrs.define
class Held:
    """One connection of the attack: its shape, source, when it was opened and when the
    server closed it (``None``: still open), and whether it was refused at once (503)."""

    shape: str
    source: str
    opened: float
    closed: float | None = None
    refused: bool = False


async def _hold(port: int, source: str, shape: str, seconds: float, every: float) -> Held:
    started = time.monotonic()
    held = Held(shape, source, started)
    try:
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", port, local_addr=(source, 0), limit=1 << 16
        )
    except OSError:
        held.closed, held.refused = time.monotonic(), True
        return held
    head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200 + b"\r\n\r\n"
    body_head = (
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 9000\r\n\r\n"
    )
    plan = {
        "silent": b"",
        "half-line": b"GET /lob",
        "trickled-head": b"",
        "trickled-body": body_head,
    }
    trickle = {"trickled-head": head, "trickled-body": b"x" * 9000}.get(shape, b"")

    async def read() -> None:
        try:
            data = await reader.read(1 << 16)
            while data:
                if data.startswith(b"HTTP/1.1 503"):
                    held.refused = True
                data = await reader.read(1 << 16)
        except ConnectionError:  # the server refused and closed before reading a byte
            held.refused = held.refused or time.monotonic() - started < 1.0

    reading = asyncio.ensure_future(read())
    try:
        if plan[shape]:
            writer.write(plan[shape])
        position = 0
        deadline = started + seconds
        while time.monotonic() < deadline and not reading.done():
            if trickle and position < len(trickle):
                writer.write(trickle[position : position + 1])
                position += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(reading), every)
        if reading.done():
            held.closed = time.monotonic()
    except (OSError, ConnectionError):
        held.closed = time.monotonic()
        held.refused = held.refused or held.closed - started < 1.0  # reset after the 503
    finally:
        reading.cancel()
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()
    return held


def hold(
    port: int, sources: list[str], per_source: int, seconds: float, every: float = 3.0
) -> list[Held]:
    """Open ``per_source`` connections from each source address, the shapes in turn, and
    keep each as its shape says for up to ``seconds``; what became of each."""

    async def everyone() -> list[Held]:
        work = [
            _hold(port, source, SHAPES[(n + i) % len(SHAPES)], seconds, every)
            for i, source in enumerate(sources)
            for n in range(per_source)
        ]
        return list(await asyncio.gather(*work))

    return asyncio.run(everyone())


def get_root(port: int, timeout: float = 10.0) -> float | None:
    """``GET /`` on a new connection, with a bare socket (an HTTP client library's own
    set-up would be counted otherwise): the seconds to the whole answer, or ``None`` if
    it failed or was not a 200."""
    started = time.perf_counter()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
            connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            answer = b""
            while chunk := connection.recv(1 << 16):
                answer += chunk
    except OSError:
        return None
    return time.perf_counter() - started if answer.startswith(b"HTTP/1.1 200") else None


def _tick(port: int, every: float, stop: Any, out: Any) -> None:
    times: list[float | None] = []
    while not stop.is_set():
        times.append(get_root(port))
        stop.wait(every)
    out.send(times)


@attrs.define
class Clock:
    """``GET /`` (:func:`get_root`) every ``every`` seconds from a process of its own
    (so that the attack's work does not slow the clock), until the ``with`` block ends:
    the times taken (``None``: failed or refused)."""

    port: int
    every: float = 0.1
    times: list[float | None] = attrs.field(factory=list)
    _stop: Any = None
    _process: Any = None
    _pipe: Any = None

    def __enter__(self) -> Clock:
        context = multiprocessing.get_context("fork")
        self._stop = context.Event()
        self._pipe, child = context.Pipe(duplex=False)
        self._process = context.Process(
            target=_tick, args=(self.port, self.every, self._stop, child), daemon=True
        )
        self._process.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self.times = self._pipe.recv() if self._pipe.poll(30) else []
        self._process.join(30)

    def summary(self) -> str:
        done = sorted(t for t in self.times if t is not None)
        if not done:
            return f"no answer of {len(self.times)}"
        return (
            f"p50 {statistics.median(done) * 1000:.1f} ms, p99 {self.p99() * 1000:.1f} ms, "
            f"worst {done[-1] * 1000:.1f} ms, {len(self.times) - len(done)} of "
            f"{len(self.times)} failed"
        )

    def p99(self) -> float:
        done = sorted(t for t in self.times if t is not None)
        return done[min(len(done) - 1, int(0.99 * len(done)))] if done else float("inf")


async def _create(
    base: str, source: str, count: int, body: dict[str, object], open_seat: bool
) -> list[int]:
    transport = httpx.AsyncHTTPTransport(local_address=source)
    statuses = []
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=60) as client:
        for _ in range(count):
            answer = await client.post("/api/tables", json=body)
            statuses.append(answer.status_code)
            if open_seat and answer.status_code == 201:
                seat = next(s for s in answer.json()["seats"] if s is not None)
                await client.get(seat.replace("/seat/", "/api/seat/") + "/state")
    return statuses


def flood_tables(
    base: str,
    sources: list[str],
    per_source: int,
    body: dict[str, object],
    *,
    open_seat: bool = False,
    at_once: int = 20,
) -> Counter[int]:
    """Each source creates ``per_source`` tables of ``body`` (``open_seat``: and opens a
    seat of each, so that none is untouched); the answers by status."""

    async def everyone() -> list[list[int]]:
        gate = asyncio.Semaphore(at_once)

        async def one(source: str) -> list[int]:
            async with gate:
                return await _create(base, source, per_source, body, open_seat)

        return list(await asyncio.gather(*(one(s) for s in sources)))

    return Counter(status for statuses in asyncio.run(everyone()) for status in statuses)


def create_from(
    base: str, source: str, body: dict[str, object], forwarded: str | None = None
) -> httpx.Response:
    """One table from ``source`` (saying, with ``forwarded``, that it is a proxy
    forwarding a request of that address)."""
    transport = httpx.HTTPTransport(local_address=source)
    headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
    with httpx.Client(base_url=base, transport=transport, timeout=30) as client:
        return client.post("/api/tables", json=body, headers=headers)
