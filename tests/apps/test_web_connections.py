"""The web table's bounds on connections (``qe_rules.apps.web_connections``): how clients
are counted, the file budget, and logs of a few lines; on the wire in
``test_web_siege.py``."""

import logging
import time

from qe_rules.apps.web_connections import (
    BACKLOG,
    ConnectionCounts,
    RepeatFilter,
    client_key,
    connection_budget,
    trusted_networks,
)


def test_repeated_warnings_are_logged_once_per_period():
    logger = logging.getLogger("qe-test-repeats")
    seen = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())
    logger.addHandler(handler)
    logger.addFilter(RepeatFilter(period=0.2))
    try:
        for _ in range(5000):
            logger.warning("socket.accept() out of system resource")
        time.sleep(0.25)
        logger.warning("socket.accept() out of system resource")
    finally:
        logger.removeHandler(handler)
    assert seen == [
        "socket.accept() out of system resource",
        "socket.accept() out of system resource (4999 more like it in the last 0.2 s)",
    ]


def test_clients_are_counted_by_address_and_ipv6_by_its_64():
    assert client_key("2001:db8:0:1::5") == client_key("2001:db8:0:1:ffff::9")
    assert client_key("2001:db8:0:2::5") != client_key("2001:db8:0:1::5")
    assert client_key("::ffff:192.0.2.1") == "192.0.2.1" == client_key("192.0.2.1")


def test_the_connections_kept_stay_below_the_file_limit():
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (300, hard))
        assert connection_budget(50) == 50
        allowed = connection_budget(10_000)
        now = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        assert allowed == min(10_000, now - 64 - BACKLOG) and allowed < now
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_connections_are_counted_per_address_but_a_trusted_proxys():
    counts = ConnectionCounts(5, per_client=2, trusted=trusted_networks(["10.0.0.0/8"]))
    keys = [counts.admit(a) for a in ("192.0.2.1", "192.0.2.1", "192.0.2.1", "10.1.2.3")]
    assert keys == ["192.0.2.1", "192.0.2.1", None, ""]  # the third refused; the proxy not counted
    assert counts.admit("10.1.2.3") == "" and counts.admit("192.0.2.9") == "192.0.2.9"
    assert counts.admit("192.0.2.10") is None  # five held: the most in all
    counts.release("192.0.2.1")
    assert counts.total == 4 and counts.refused == 2 and counts.by_client["192.0.2.1"] == 1
