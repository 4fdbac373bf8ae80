"""A live web table server for the tests: uvicorn in a thread, on a free local port."""

import contextlib
import json
import socket
import threading
import time

import httpx
import uvicorn

import qe_rules as qe
from qe_rules.apps import web


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
