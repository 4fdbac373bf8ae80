"""Bounds on the web table's connections (``qe-rules serve``): how long a request may take
to arrive, how many connections one address and all addresses may hold, and logs that say
so in a few lines.

uvicorn closes a connection only when it is idle *between* requests (``timeout_keep_alive``):
a request head or body that arrives a byte at a time, or never, holds its connection for
ever (timeouts for the head and the body are uvicorn's open issue 157), and it has no limit
per address. Its ``limit_concurrency`` answers 503 but writes a log line per refusal and
counts the idle sockets it never closes. So :func:`bounded_protocol` extends uvicorn's own
h11 protocol by what it lacks, and nothing else:

- the head of each request must arrive within ``head_timeout`` seconds of the connection
  being ready for it (opened, or the previous answer sent), and its body within
  ``body_timeout`` seconds of the head; otherwise the connection is closed. A request that
  has arrived is never timed out (a live page's stream lasts as long as it needs);
- an address may hold ``per_client`` connections, and all together ``most``; one more is
  answered ``503`` at once (with the security headers) and closed. The most is kept below
  the process's file limit (:func:`connection_budget`), so the server never runs out of
  file descriptors and goes on serving the connections it holds. Addresses are counted per
  IPv4 address and per IPv6 ``/64`` (:func:`client_key`), whose addresses one household
  or host holds; the trusted proxies' connections are not counted per address;
- refusals and other repeated warnings are logged at most once per ``period`` with the
  count of those left out (:class:`RepeatFilter`, :class:`Throttle`), never a line each.

>>> client_key("203.0.113.7"), client_key("2001:db8:1:2:aa::1"), client_key("::ffff:10.0.0.1")
('203.0.113.7', '2001:db8:1:2::/64', '10.0.0.1')
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import json
import logging
import time
from collections import Counter
from collections.abc import Sequence
from typing import Final

import attrs

__all__ = [
    "BACKLOG",
    "SECURITY_HEADERS",
    "ConnectionCounts",
    "RepeatFilter",
    "Throttle",
    "bounded_protocol",
    "client_key",
    "connection_budget",
    "trusted_networks",
]

_log = logging.getLogger("qe_rules.apps.web")

SECURITY_HEADERS: Final[tuple[tuple[str, str], ...]] = (
    (
        "content-security-policy",
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    ),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),
    ("x-content-type-options", "nosniff"),
    ("cross-origin-opener-policy", "same-origin"),
)
"""The headers every answer of the web table carries (its pages hold no inline script
or style and load nothing from elsewhere)."""

_Network = ipaddress.IPv4Network | ipaddress.IPv6Network
BACKLOG: Final = 128
"""How many connections wait to be accepted (the listen backlog), which is also how many
asyncio accepts at once before the server counts them: the file budget keeps room for
them."""
_RESERVED_FILES: Final = 64 + BACKLOG  # the database, logs, static files, a burst of accepts


@functools.lru_cache(maxsize=4096)
def client_key(address: str) -> str:
    """The address the server counts a client by: an IPv4 address as it is, an IPv6
    address as its ``/64`` network (an IPv4-mapped one as the IPv4 address), anything
    else (a test client's name) as it is."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


def trusted_networks(addresses: Sequence[str]) -> tuple[_Network, ...]:
    """The networks of ``addresses`` (each an address or a network such as
    ``10.0.0.0/8``); raises ``ValueError`` naming one that is neither."""
    return tuple(ipaddress.ip_network(a.strip(), strict=False) for a in addresses if a.strip())


def _within(address: str, networks: Sequence[_Network]) -> bool:
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(parsed in network for network in networks)


def connection_budget(wanted: int, reserve: int = _RESERVED_FILES) -> int:
    """How many connections the server may hold: ``wanted``, or fewer if the process may
    not open that many files (keeping ``reserve`` for its database, logs and static
    files). The soft file limit is first raised towards the hard one if it is lower than
    needed."""
    try:
        import resource
    except ImportError:  # not a POSIX system: no file limit to respect here
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = wanted + reserve
    if soft != resource.RLIM_INFINITY and soft < need:
        raised = need if hard == resource.RLIM_INFINITY else min(need, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - reserve))


class Throttle:
    """Logs a repeated event at most once per ``period`` seconds, with how many times it
    happened since the last line."""

    def __init__(self, period: float = 10.0) -> None:
        self.period = period
        self._last: dict[str, float] = {}
        self._left_out: Counter[str] = Counter()

    def warn(self, key: str, message: str) -> None:
        """Log ``message`` (as a warning) unless the line of ``key`` was logged lately."""
        now = time.monotonic()
        if now - self._last.get(key, -self.period) < self.period:
            self._left_out[key] += 1
            return
        left_out = self._left_out.pop(key, 0)
        self._last[key] = now
        more = f" ({left_out} more like it in the last {self.period:g} s)" if left_out else ""
        _log.warning("%s%s", message, more)


class RepeatFilter(logging.Filter):
    """A log filter that lets a message (by its template) through at most once per
    ``period`` seconds and says, on the next one let through, how many were left out.
    The server puts it on uvicorn's and asyncio's loggers: a client that sends broken
    requests, or a file limit reached, writes a line every few seconds, not one each."""

    def __init__(self, period: float = 10.0) -> None:
        super().__init__()
        self.period = period
        self._last: dict[tuple[str, object], float] = {}
        self._left_out: Counter[tuple[str, object]] = Counter()

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.msg)
        now = time.monotonic()
        if now - self._last.get(key, -self.period) < self.period:
            self._left_out[key] += 1
            return False
        self._last[key] = now
        left_out = self._left_out.pop(key, 0)
        if left_out:
            record.msg = f"{record.msg} ({left_out} more like it in the last {self.period:g} s)"
        if record.exc_info and left_out:
            record.exc_info = None  # the first one had the traceback
        return True


@attrs.define(eq=False)
class ConnectionCounts:
    """The connections a server holds, in all and by :func:`client_key`, against the
    most it may hold (``most``) and the most one address may (``per_client``; ``0``: no
    limit); ``trusted`` are the proxies' networks, not counted per address. ``timed_out``
    and ``refused`` count the connections closed for a late request and refused."""

    most: int
    per_client: int = 0
    trusted: tuple[_Network, ...] = ()
    total: int = 0
    by_client: Counter[str] = attrs.field(factory=Counter)
    timed_out: int = 0
    refused: int = 0
    throttle: Throttle = attrs.field(factory=Throttle)

    def admit(self, address: str) -> str | None:
        """Count a new connection from ``address``: the key it is counted under, or
        ``None`` when it must be refused (then a warning line is logged, at most once
        per ten seconds)."""
        if self.total >= self.most:
            self.refused += 1
            self.throttle.warn(
                "total",
                f"new connections refused: the server holds its most ({self.most}); the "
                "open ones are served, and idle ones close within seconds",
            )
            return None
        key = "" if _within(address, self.trusted) else client_key(address)
        if key and self.per_client and self.by_client[key] >= self.per_client:
            self.refused += 1
            self.throttle.warn(
                "client",
                f"new connections refused: an address holds its most ({self.per_client})",
            )
            return None
        self.total += 1
        if key:
            self.by_client[key] += 1
        return key

    def release(self, key: str) -> None:
        """Count a connection admitted under ``key`` as closed."""
        self.total -= 1
        if key:
            self.by_client[key] -= 1
            if self.by_client[key] <= 0:
                del self.by_client[key]


def _answer(status: int, reason: str, message: str, *, retry_after: int | None = None) -> bytes:
    """An HTTP/1.1 answer that closes the connection: ``{"error": message}`` with the
    security headers."""
    body = json.dumps({"error": message}).encode()
    lines = [
        f"HTTP/1.1 {status} {reason}",
        "content-type: application/json",
        f"content-length: {len(body)}",
        "connection: close",
        "cache-control: no-store",
        *(f"{name}: {value}" for name, value in SECURITY_HEADERS),
    ]
    if retry_after is not None:
        lines.append(f"retry-after: {retry_after}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


_BUSY: Final = _answer(
    503,
    "Service Unavailable",
    "the server holds as many connections as it may (in all, or from your address); "
    "try again in a few seconds",
    retry_after=5,
)


def bounded_protocol(
    counts: ConnectionCounts, *, head_timeout: float, body_timeout: float
) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol with the bounds of this module: a request's head within
    ``head_timeout`` seconds and its body within ``body_timeout`` seconds (``0``: no
    limit), and the connections counted in ``counts``. Give it to ``uvicorn.Config`` as
    ``http``."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class BoundedH11Protocol(H11Protocol):
        """uvicorn's h11 protocol, with deadlines for a request's head and body and the
        connection counted per address and in all."""

        _key: str | None = None
        _stage = ""  # what the deadline is for: "head", "body" or "" (none)
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)  # type: ignore[arg-type]
            self._key = counts.admit(self.client[0] if self.client else "")
            if self._key is None:
                self.transport.write(_BUSY)
                self.transport.close()
                return
            self._expect("head")

        def connection_lost(self, exc: Exception | None) -> None:
            self._expect("")
            if self._key is not None:
                counts.release(self._key)
                self._key = None
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._follow()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._follow()

        def send_400_response(self, msg: str) -> None:
            self.transport.write(_answer(400, "Bad Request", "the request is not valid HTTP"))
            self.transport.close()

        def _follow(self) -> None:
            """Set the deadline for what the connection waits for now."""
            if self.transport.is_closing():
                self._expect("")
                return
            state = self.conn.their_state
            if state is h11.IDLE:
                self._expect("head")
            elif state is h11.SEND_BODY:
                self._expect("body")
            else:
                self._expect("")

        def _expect(self, stage: str) -> None:
            if stage == self._stage:
                return  # the deadline already set stays: a byte more does not move it
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            self._stage = stage
            seconds = {"head": head_timeout, "body": body_timeout}.get(stage, 0)
            if seconds:
                self._deadline = self.loop.call_later(seconds, self._too_late)

        def _too_late(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                counts.timed_out += 1
                self.transport.close()

    return BoundedH11Protocol
