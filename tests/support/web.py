"""A web table for the tests: the app in Starlette's test client, or a live server
(uvicorn in a thread, on a free local port)."""

import contextlib
import json
import socket
import threading
import time
import warnings

import httpx
import uvicorn

with warnings.catch_warnings():  # Starlette would rather have httpx2; httpx works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import qe_rules as qe
from qe_rules.apps import web

BASE = "http://127.0.0.1:8000"
"""The address the test client's requests name."""


@contextlib.contextmanager
def serving(database, *, raise_server_exceptions=True, **options):
    """``web.create_app(database, **options)`` in a test client (its start and stop run
    too); yields (client, the TableServer)."""
    app = web.create_app(str(database), **options)
    with TestClient(app, base_url=BASE, raise_server_exceptions=raise_server_exceptions) as client:
        yield client, app.state.tables


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def live_server(database, *, bot_delay=0.0, **options):
    """Serve ``web.create_app(database, **options)``; yields (base address, the
    TableServer)."""
    app = web.create_app(str(database), bot_delay=bot_delay, **options)
    port = free_port()
    config = web.server_config(app, host="127.0.0.1", port=port, log_level="error")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", app.state.tables
    finally:
        tables = app.state.tables
        if tables._loop is not None:  # the pages' streams end first, as on Ctrl-C
            tables._loop.call_soon_threadsafe(tables.end_streams)
        server.should_exit = True
        thread.join(20)


def key(link):
    """The last part of a link: a seat's token or a table's id."""
    return link.rsplit("/", 1)[1]


class StreamReader(threading.Thread):
    """Reads a page's server-sent events until the game ends; ``payloads`` holds them."""

    def __init__(self, address):
        super().__init__(daemon=True)
        self.address = address
        self.payloads = []
        self.raw = []

    def run(self):
        with httpx.stream("GET", self.address, timeout=60) as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            for line in response.iter_lines():
                self.raw.append(line)
                if line.startswith("data: "):
                    payload = json.loads(line[len("data: ") :])
                    self.payloads.append(payload)
                    if payload["view"]["phase"] == "over":
                        return


def game_at(record, version):
    """The game after the first ``version`` moves of ``record``."""
    return qe.replay({**record, "moves": record["moves"][:version]})


def play_legal(game, seat, draw):
    """A legal move for ``seat`` in ``game`` as (move, body): a peek answer or a bid drawn
    by ``draw(limits)``."""
    view = game.view(seat)
    if view.can_peek:
        return ("peek", {}) if draw(None) % 2 else ("decline-peek", {})
    return "bid", {"amount": draw(view.limits)}
