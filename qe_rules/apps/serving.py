"""The ``qe-rules serve`` command: its arguments, the checks made before the server starts,
and the start of the web table (:mod:`qe_rules.apps.web`, the extra ``[web]``).

Every refusal is an :class:`~qe_rules.InvalidArgument` naming the option, which the
command line reports in one line with exit status 2.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import socket
from typing import Final, TextIO

from qe_rules.errors import InvalidArgument, shown

__all__ = [
    "add_serve_arguments",
    "check_serve_arguments",
    "serve_from_arguments",
    "trusted_proxies",
]


def add_serve_arguments(server: argparse.ArgumentParser) -> None:
    """Add the options of ``serve`` to its parser."""
    server.add_argument("--port", type=int, default=8000, help="default 8000")
    server.add_argument("--host", default="127.0.0.1", help="address to listen on")
    server.add_argument(
        "--ruleset", default="en", metavar="ID", help="the form's default: an id, spec or file"
    )
    server.add_argument("--players", type=int, default=4, help="the form's default (4)")
    server.add_argument(
        "--db", default="qe-tables.sqlite3", metavar="FILE", help="default qe-tables.sqlite3"
    )
    server.add_argument(
        "--bot-delay",
        type=float,
        default=0.5,
        metavar="SECONDS",
        help="how long an agent waits before each move (default 0.5)",
    )
    server.add_argument(
        "--base-url",
        metavar="URL",
        help="where players reach the server, as the links show it (default "
        "http://HOST:PORT/); requests for other host names are refused",
    )
    server.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another host name to answer for (repeatable; '*' for any)",
    )
    server.add_argument(
        "--trust-proxy",
        metavar="ADDRESSES",
        help="behind a reverse proxy: read the client's address from X-Forwarded-For when "
        "the request comes from one of these addresses or networks (comma-separated, "
        "e.g. 127.0.0.1 or 10.0.0.0/8); nobody else's header is read",
    )
    server.add_argument(
        "--tables-per-minute",
        type=int,
        default=20,
        metavar="N",
        help="new tables a minute from one address (default 20; 0 for no limit)",
    )
    server.add_argument(
        "--tables-per-address",
        type=int,
        default=40,
        metavar="N",
        help="unfinished tables one address may hold (default 40; 0 for no limit)",
    )
    server.add_argument(
        "--max-tables",
        type=int,
        default=2000,
        metavar="N",
        help="tables kept in all (default 2000; 0 for no limit)",
    )
    server.add_argument(
        "--keep-finished",
        type=float,
        default=24.0,
        metavar="HOURS",
        help="hours a finished table is kept after its last move (default 24; 0 for ever)",
    )
    server.add_argument(
        "--keep-abandoned",
        type=float,
        default=168.0,
        metavar="HOURS",
        help="hours an unfinished table is kept without a move (default 168; 0 for ever)",
    )
    server.add_argument(
        "--keep-unopened",
        type=float,
        default=50.0,
        metavar="MINUTES",
        help="minutes a table is kept if no seat of it is opened (default 50; 0 for ever)",
    )
    server.add_argument(
        "--wait-limit",
        type=float,
        default=180.0,
        metavar="SECONDS",
        help="how long a person may keep the table waiting before the others may hand "
        "their seat to an agent (default 180; 0: never)",
    )
    server.add_argument(
        "--agent-share",
        type=float,
        default=0.25,
        metavar="SHARE",
        help="the most of the server's time the agents of all tables take (default 0.25)",
    )
    server.add_argument(
        "--max-connections",
        type=int,
        default=1000,
        metavar="N",
        help="connections held in all (default 1000, fewer if the file limit is lower)",
    )
    server.add_argument(
        "--connections-per-address",
        type=int,
        default=64,
        metavar="N",
        help="connections one address may hold (default 64; 0 for no limit)",
    )
    server.add_argument(
        "--streams-per-address",
        type=int,
        default=12,
        metavar="N",
        help="live pages one address may follow at once (default 12; 0 for no limit)",
    )
    server.add_argument(
        "--head-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="a request's head must arrive within this time (default 10)",
    )
    server.add_argument(
        "--body-timeout",
        type=float,
        default=20.0,
        metavar="SECONDS",
        help="a request's body must arrive within this time after its head (default 20)",
    )
    server.add_argument(
        "--log-level",
        default="info",
        choices=("debug", "info", "warning", "error"),
        help="what the server logs on stderr (default info)",
    )


def serve_from_arguments(args: argparse.Namespace, out: TextIO) -> None:
    """Check the options, then serve until stopped (the rule set is checked by the caller)."""
    check_serve_arguments(args)
    try:
        from qe_rules.apps import web
    except ImportError as error:  # the optional extra is missing
        raise InvalidArgument(
            f"serving needs the web extra ({error.name} is missing): pip install 'qe-rules[web]'"
        ) from None
    for option in _COUNTS:
        value = getattr(args, option)
        if not value >= 0 or value == float("inf"):  # NaN too
            raise InvalidArgument(f"--{option.replace('_', '-')} is at least 0, not {value}")
    if not 0 < args.agent_share <= 1:
        raise InvalidArgument(f"--agent-share is above 0 and at most 1, not {args.agent_share}")
    limits = web.WebLimits(
        tables_per_client_per_minute=args.tables_per_minute,
        tables_per_client=args.tables_per_address,
        max_tables=args.max_tables,
        keep_finished=args.keep_finished * 3600,
        keep_abandoned=args.keep_abandoned * 3600,
        keep_unopened=args.keep_unopened * 60,
        wait_limit=args.wait_limit,
        agent_share=args.agent_share,
        max_connections=args.max_connections,
        connections_per_client=args.connections_per_address,
        streams_per_client=args.streams_per_address,
        head_timeout=args.head_timeout,
        body_timeout=args.body_timeout,
    )
    proxies = trusted_proxies(args.trust_proxy)
    address = args.base_url or f"http://{args.host}:{args.port}/"
    print(f"QE tables at {address} (Ctrl-C stops)", file=out)
    out.flush()
    web.serve(
        host=args.host,
        port=args.port,
        database=args.db,
        ruleset=args.ruleset,
        players=args.players,
        bot_delay=args.bot_delay,
        limits=limits,
        base_url=args.base_url,
        allowed_hosts=args.allowed_host,
        trust_proxy=proxies,
        log_level=args.log_level,
    )


_MOST_BOT_DELAY: Final = 60.0
_COUNTS: Final = (
    "tables_per_minute",
    "tables_per_address",
    "max_tables",
    "keep_finished",
    "keep_abandoned",
    "keep_unopened",
    "wait_limit",
    "max_connections",
    "connections_per_address",
    "streams_per_address",
    "head_timeout",
    "body_timeout",
)


def trusted_proxies(text: str | None) -> list[str]:
    """The proxies ``--trust-proxy`` names: addresses or networks, comma-separated; an
    empty list for none. Every one must be named: ``*`` (anyone) is refused."""
    if text is None:
        return []
    named = [part.strip() for part in text.split(",") if part.strip()]
    if not named:
        raise InvalidArgument("--trust-proxy names the proxies' addresses, comma-separated")
    for part in named:
        try:
            ipaddress.ip_network(part, strict=False)
        except ValueError:
            raise InvalidArgument(
                f"--trust-proxy: {shown(part)} is not an address or a network; name each "
                "proxy (e.g. 127.0.0.1 or 10.0.0.0/8)"
            ) from None
    return named


def check_serve_arguments(args: argparse.Namespace) -> None:
    """Refuse what the server would fail on, before it starts: a port outside 0-65535, a
    host that is not a name or an address, a delay that is not a number of seconds, a
    database path in a folder that does not exist or naming a folder or a FIFO, a host
    and port it cannot listen on (a name that resolves to nothing, an address of another
    machine, a port in use)."""
    if not 0 <= args.port <= 65535:
        raise InvalidArgument(f"--port is a port number from 0 to 65535, got {args.port}")
    host = args.host
    if not host or len(host) > 253 or not all(c.isascii() and c.isprintable() for c in host):
        raise InvalidArgument(f"--host is a host name or an IP address, got {shown(host)}")
    if not 0 <= args.bot_delay <= _MOST_BOT_DELAY:  # NaN compares false
        raise InvalidArgument(
            f"--bot-delay is a number of seconds from 0 to {_MOST_BOT_DELAY:g}, "
            f"got {args.bot_delay}"
        )
    database = args.db
    folder = os.path.dirname(database) or "."
    try:
        is_folder = os.path.isdir(folder)
        not_a_file = os.path.exists(database) and not os.path.isfile(database)
    except ValueError as error:  # a path no file can have: a NUL
        raise InvalidArgument(f"--db: {shown(database)}: {error}") from None
    if not is_folder:
        raise InvalidArgument(f"--db: the folder {folder!r} of {database!r} does not exist")
    if not_a_file:
        raise InvalidArgument(f"--db: {database!r} is not a file")
    _check_listening(host, args.port)


def _check_listening(host: str, port: int) -> None:
    """Refuse a host and port the server could not listen on (a name that resolves to no
    address, an address of another machine, a port in use), by binding a socket to them
    once, as the server will."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as error:
        raise InvalidArgument(
            f"--host: cannot listen on {shown(host)}: {getattr(error, 'strerror', None) or error}"
        ) from None
    family, kind, protocol, _, address = found[0]
    try:
        with socket.socket(family, kind, protocol) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as error:
        raise InvalidArgument(
            f"--host, --port: cannot listen on {shown(host)} port {port}: {error.strerror or error}"
        ) from None
