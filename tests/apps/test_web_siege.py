"""The web table under siege, on the wire: a server process attacked from many loopback
addresses (``tests.support.siege``; ``bench/web_siege.py`` runs the same attacks at the
issue's full sizes and reports their figures). The bounds asserted here are generous:
they check what happens (closed, refused, served), not how fast."""

import sys
import threading
import time

import pytest

from tests.support.siege import (
    Clock,
    answers,
    create_from,
    flood_tables,
    get_root,
    hold,
    loopback,
    serving,
)

pytestmark = [
    pytest.mark.slow,  # server processes under attack: pytest -m slow runs them
    pytest.mark.skipif(sys.platform != "linux", reason="sends from 127.0.0.2 and up"),
]

PEOPLE = {"ruleset": "en", "players": 3, "seats": ["person", "person", "zero"]}


def test_idle_and_half_sent_connections_are_closed_while_pages_are_served(tmp_path):
    options = ("--head-timeout", "1", "--body-timeout", "2", "--log-level", "warning")
    with serving(tmp_path, *options) as server:
        with Clock(server.port, every=0.1) as clock:
            held = hold(server.port, loopback(10), 4, seconds=20, every=0.5)
        mark = server.mark()
    assert {h.shape for h in held} == {"silent", "half-line", "trickled-head", "trickled-body"}
    assert all(h.closed is not None and not h.refused for h in held), held
    assert max(h.closed - h.opened for h in held) < 10  # head 1 s, body 2 s: bounded
    assert clock.times and None not in clock.times  # GET / was answered all along
    assert server.lines_per_second(mark)[0] <= 3  # no line per connection


def test_an_address_holds_at_most_its_connections(tmp_path):
    with serving(tmp_path, "--connections-per-address", "8", "--head-timeout", "2") as server:
        held = hold(server.port, ["127.0.0.9"], 30, seconds=6, every=1)
        assert sum(h.refused for h in held) == 22
        assert get_root(server.port) is not None  # another address is served


def test_at_the_file_limit_new_connections_are_refused_in_a_few_log_lines(tmp_path):
    with serving(tmp_path, "--max-connections", "5000", files=256) as server:
        assert "the file limit allows 64 connections" in "\n".join(server.lines())
        mark = server.mark()
        held = []
        attack = threading.Thread(
            target=lambda: held.extend(hold(server.port, loopback(50), 6, seconds=4, every=30))
        )
        attack.start()
        time.sleep(2)
        full = answers(server.base)
        attack.join()
        deadline = time.monotonic() + 5
        while not answers(server.base):  # served again as soon as the attackers let go
            assert time.monotonic() < deadline
            time.sleep(0.05)
        lines, most = server.lines_per_second(mark)
        log = "\n".join(server.lines()[mark:])
    assert sum(not h.refused for h in held) == 64 and sum(h.refused for h in held) == 236
    assert not full  # the budget was reached: refused (503), not hung
    assert lines <= 3 and most <= 2, log
    assert "Too many open files" not in log


def test_tables_from_many_addresses_do_not_lock_a_newcomer_out(tmp_path):
    options = ("--max-tables", "60", "--tables-per-minute", "20", "--log-level", "warning")
    for opened in (False, True):
        with serving(tmp_path, *options) as server:
            statuses = flood_tables(server.base, loopback(12), 6, PEOPLE, open_seat=opened)
            if not opened:  # the last twelve each took the place of an untouched one
                assert statuses == {201: 72}
            else:  # the flooders hold alike: some of theirs are refused, none is evicted
                assert statuses[201] + statuses[503] == 72 and statuses[201] >= 60
            newcomer = create_from(server.base, "127.0.1.99", PEOPLE)
            assert newcomer.status_code == 201, newcomer.text


def test_only_the_named_proxy_may_say_whose_request_it_forwards(tmp_path):
    options = ("--trust-proxy", "127.0.0.1", "--tables-per-minute", "2", "--log-level", "warning")
    with serving(tmp_path, *options) as server:
        for client in ("198.51.100.1", "198.51.100.2"):  # the proxy forwards two clients
            answers = [create_from(server.base, "127.0.0.1", PEOPLE, client) for _ in range(3)]
            assert [a.status_code for a in answers] == [201, 201, 429]
        other = [  # another local process names any address: it is counted as itself
            create_from(server.base, "127.0.0.7", PEOPLE, f"203.0.113.{n}").status_code
            for n in range(3)
        ]
        assert other == [201, 201, 429]
