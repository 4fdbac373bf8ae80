"""The web table in a real headless Chromium (Debian's ``chromium``, driven by Playwright).

``.ci/run`` installs both. Without them these tests are skipped, with the reason, except
under ``CI=true``, where a missing browser fails them. They are slow (a browser, whole
games): ``pytest -m slow`` runs them, the quick default run leaves them out.
"""

import json
import os
import shutil
import time

import pytest

import qe_rules as qe
from qe_rules._util.i18n import gettext_for
from qe_rules.apps import web
from tests.support.web import key, live_server

pytestmark = pytest.mark.slow

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # the extra [browser] is not installed
    sync_playwright = None

_MISSING = (
    "Playwright is not installed (pip install '.[browser]')"
    if sync_playwright is None
    else f"{CHROMIUM} is missing (apt-get install chromium)"
    if not shutil.which(CHROMIUM)
    else None
)


@pytest.fixture(scope="module")
def chromium():
    """One headless Chromium for the module's tests (started once: about two seconds);
    Playwright gives it a fresh profile folder of its own."""
    if _MISSING:
        if os.environ.get("CI"):
            pytest.fail(f"the browser tests need their browser under CI: {_MISSING}")
        pytest.skip(_MISSING)
    with sync_playwright() as playwright:
        started = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            yield started
        finally:
            started.close()


@pytest.fixture
def browser(chromium):
    """A fresh browser context for each test: no cookies, storage or cache of another."""
    context = chromium.new_context(accept_downloads=True, viewport={"width": 1280, "height": 900})
    try:
        yield context
    finally:
        context.close()


def _screenshot(page, name):
    folder = os.environ.get("QE_SCREENSHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, name), full_page=True)


def _until_moved(table, game, seconds=20.0):
    """Wait (bounded) until the server's table has moved on from ``game``."""
    deadline = time.monotonic() + seconds
    while table.game is game and time.monotonic() < deadline:
        time.sleep(0.01)


def _at_version(page, version):
    # Polled from here: pages in the background get no animation frames, and the pages'
    # Content-Security-Policy lets no test script be evaluated in them.
    deadline = time.monotonic() + 20
    while int(page.get_attribute("body", "data-version") or -1) < version:
        assert time.monotonic() < deadline, f"the page did not reach version {version}"
        time.sleep(0.05)


def test_a_person_plays_three_players_against_two_agents_to_the_end(tmp_path, browser):
    with live_server(tmp_path / "tables.sqlite3") as (base, server):
        page = browser.new_page()
        page.goto(base + "/")
        page.select_option("select[name=players]", "3")
        page.select_option("select[name=seat1]", "value")
        page.select_option("select[name=seat2]", "random")
        page.click("button[type=submit]")
        page.wait_for_url("**/host/*")
        page.click("a[href^='/seat/']")
        page.wait_for_selector("#picture svg")
        (table,) = server.tables.values()
        bids = 0
        while not table.game.is_over:
            page.wait_for_selector("#bid:not([hidden]), #download:not([hidden])")
            if page.is_visible("#download"):
                break
            if bids == 2:
                page.fill("#amount", "-3")  # refused by the page, and nothing is sent
                page.click("#bid-button")
                assert page.is_visible("#error")
            if bids == 3:  # a bid the rules forbid: the page says so, nothing changes
                limits = table.game.view(0).limits
                if limits.forbidden is not None:
                    before = table.game
                    page.fill("#amount", str(limits.forbidden))
                    page.click("#bid-button")
                    page.wait_for_selector("#error:not([hidden])")
                    assert "the rules forbid that amount" in page.inner_text("#error")
                    assert table.game is before
            if bids == 5:  # past the largest bid: the server's message, nothing changes
                before = table.game
                page.fill("#amount", "1000001")
                page.click("#bid-button")
                page.wait_for_selector("#error:not([hidden])")
                deadline = time.monotonic() + 20  # polled: the CSP forbids evaluated scripts
                while "1000000" not in page.inner_text("#error"):
                    assert time.monotonic() < deadline, page.inner_text("#error")
                    time.sleep(0.05)
                assert table.game is before
            if bids == 4:
                _screenshot(page, "seat-3-players.png")
            version = table.version
            page.fill("#amount", str(table.game.view(0).limits.legal(bids % 5)))
            page.click("#bid-button")
            _at_version(page, version + 1)
            bids += 1
        page.wait_for_selector("#download:not([hidden])")
        assert page.inner_text("#status").startswith("The game is over")
        assert "Winner" in page.inner_html("#picture") or "winner" in page.inner_html("#picture")
        _screenshot(page, "seat-3-players-over.png")
        with page.expect_download() as download:
            page.click("#record")
        record = json.loads(download.value.path().read_text(encoding="utf-8"))
        assert qe.replay(record) == table.game
        assert bids >= 16


def test_four_people_play_to_the_end_and_no_page_shows_another_seats_secret(tmp_path, browser):
    with live_server(tmp_path / "tables.sqlite3") as (base, server):
        import httpx

        links = httpx.post(
            f"{base}/api/tables", json={"ruleset": "en", "players": 4, "seats": ["person"] * 4}
        ).json()
        tokens = [key(link) for link in links["seats"]]
        table = server.tables[links["table"]]
        pages = []
        for link in links["seats"]:
            page = browser.new_page()
            page.goto(base + link)
            page.wait_for_selector("#picture svg")
            pages.append(page)
        watcher = browser.new_page()
        watcher.goto(base + links["watch"])
        counter = 0
        secret = []  # (seat, amount): every secret bid, each amount unique in the game
        while not table.game.is_over:
            game = table.game
            seat = min(game.to_act)
            page = pages[seat]
            page.bring_to_front()  # a page in the background gets no animation frames
            page.wait_for_selector("#bid:not([hidden])")
            counter += 1
            amount = 500_000 + 1000 * seat + counter
            if game.view(seat).limits.forbidden == amount:
                amount += 1
            if game.auctioneer != seat or game.view(seat).opening_bid is not None:
                secret.append((seat, amount))
            page.fill("#amount", str(amount))
            page.click("#bid-button")
            _until_moved(table, game)  # the click returns before the server has the bid
            version = table.version
            assert version >= 1 and table.game is not game
            for other, other_page in enumerate(pages):
                _at_version(other_page, version)
                if table.game.is_over:
                    continue
                content = other_page.content()
                view = json.dumps(table.game.view(other).to_dict())
                for owner, bid in secret:
                    if owner != other and str(bid) in content:
                        assert str(bid) in view, (other, owner, bid)
                for owner, token in enumerate(tokens):
                    if owner != other:
                        assert token not in content
            if counter == 6:
                _screenshot(pages[1], "seat-4-players.png")
                _screenshot(watcher, "spectator-4-players.png")
        for page in pages:
            page.bring_to_front()
            page.wait_for_selector("#download:not([hidden])")
            assert page.inner_text("#status").startswith("The game is over")
        watcher.bring_to_front()
        watcher.wait_for_selector("#download:not([hidden])")
        _screenshot(pages[2], "seat-4-players-over.png")
        assert counter >= 16 * 4


def test_a_person_peeks_in_a_five_player_game(tmp_path, browser):
    """With 5 players the page asks whether to peek; the answer shows the amount paid."""
    with live_server(tmp_path / "tables.sqlite3") as (base, server):
        import httpx

        links = httpx.post(
            f"{base}/api/tables",
            json={"ruleset": "en", "players": 5, "seats": ["person", *["value"] * 4]},
        ).json()
        table = server.tables[links["table"]]
        page = browser.new_page()
        page.goto(base + links["seats"][0])
        peeked = None
        while True:
            page.wait_for_selector(
                "#bid:not([hidden]), #peek:not([hidden]), #download:not([hidden])"
            )
            if page.is_visible("#download"):
                break
            version = table.version
            if page.is_visible("#peek"):
                if peeked is None:
                    _screenshot(page, "seat-5-players-peek.png")
                    sale = table.game.view(0).history[-1]
                    page.click("#peek-yes")
                    peeked = sale
                else:  # one peek a game: the page asks no more after it
                    page.click("#peek-no")
            else:  # the box starts empty: one Enter bids nothing by mistake
                page.fill("#amount", str(table.game.view(0).limits.legal(0)))
                page.click("#bid-button")
            _at_version(page, version + 1)
        assert peeked is not None
        amount = table.game.view(0).history[peeked.sale].amount
        assert amount is not None
        assert f"sale {peeked.sale + 1}: seat 1 peeks at the amount ({amount})" in page.inner_text(
            "#log"
        )


GAME_NIGHT_SIZES = {
    "desktop": {"width": 1280, "height": 900},
    "phone": {"width": 390, "height": 844},
}


@pytest.mark.parametrize("size", sorted(GAME_NIGHT_SIZES))
def test_a_german_game_night_with_names_lobby_and_rematch(tmp_path, chromium, size):
    """Four seats in German (the browser asks for it): Anna and Ben (who takes his seat in
    the lobby) play two agents to the end, read the placing and every category, and both
    move on to the same rematch table."""
    phone = size == "phone"
    context = chromium.new_context(
        viewport=GAME_NIGHT_SIZES[size], locale="de-DE", is_mobile=phone, has_touch=phone
    )
    try:
        with live_server(tmp_path / "tables.sqlite3") as (base, server):
            host = context.new_page()
            host.goto(base + "/")
            assert host.inner_text("h1") == "QE · ein neuer Tisch"
            assert "Regeln anders als en (" in host.inner_text("select[name=ruleset]")
            host.fill("input[name=title]", "Spieleabend")
            host.select_option("select[name=players]", "4")
            for seat, (kind, name) in enumerate(
                [("person", "Anna"), ("person", ""), ("value", "Vera"), ("random", "")]
            ):
                host.select_option(f"select[name=seat{seat}]", kind)
                host.fill(f"input[name=name{seat}]", name)
            host.check("input[name=listed]")
            _screenshot(host, f"night-{size}-host.png")
            host.click("button[type=submit]")
            host.wait_for_url("**/host/*")
            assert "Spieleabend" in host.inner_text("h1")
            (table,) = server.tables.values()
            anna = context.new_page()
            anna.goto(base + host.get_attribute("a[href^='/seat/']", "href"))
            ben = context.new_page()  # Ben finds the table in the lobby and names himself
            ben.goto(base + "/lobby")
            ben.click("#tables a")
            ben.fill("input[name=name]", "Ben")
            ben.click("button[type=submit]")
            ben.wait_for_url("**/seat/*")
            assert server.tables[table.id].names == ("Anna", "Ben", "Vera", "")
            people = {0: anna, 1: ben}
            for page in people.values():
                page.wait_for_selector("#picture svg" if not phone else "#board article")
            anna.click("#rules summary")  # the rules help: the rulebook in German, on the page
            assert "Spartenplättchen" in anna.inner_text("#rules .qe-rulebook")
            width = anna.evaluate("document.documentElement.scrollWidth")
            assert width <= GAME_NIGHT_SIZES[size]["width"], width  # nothing wider than a phone
            _screenshot(anna, f"night-{size}-rules.png")
            anna.click("#rules summary")
            shots, moves = 0, 0
            while not table.game.is_over:
                due = sorted(table.game.to_act & people.keys())
                if not due:
                    time.sleep(0.01)
                    continue
                seat = due[0]
                page = people[seat]
                page.bring_to_front()
                try:
                    page.wait_for_selector("#bid:not([hidden])", timeout=60_000)
                except Exception:  # say where the page was, beside the server
                    shown = page.evaluate("document.body.dataset.version")
                    pytest.fail(f"seat {seat}: page at {shown}, server at {table.version}")
                _at_version(page, table.version)
                assert page.title().startswith("● Du bist am Zug")
                assert page.get_attribute("#favicon", "href").endswith("favicon-turn.svg")
                limits = table.game.view(seat).limits
                game = table.game
                if moves == 4:
                    _screenshot(page, f"night-{size}-turn.png")
                page.fill("#amount", str(limits.legal(moves % 7)))
                page.click("#bid-button")
                _until_moved(table, game)
                moves += 1
                if moves in (9, 20) and shots < 2:
                    _at_version(page, table.version)
                    assert "Letzte Versteigerung" in page.inner_text("#summary")
                    assert "Anna" in page.inner_text("#totals")
                    _screenshot(page, f"night-{size}-{'ben' if seat else 'anna'}-{moves}.png")
                    shots += 1
            for seat, page in people.items():
                page.bring_to_front()
                page.wait_for_selector("#standings:not([hidden])")
                standings = page.inner_text("#standings")
                assert standings.startswith("Du ")  # your own placing first
                for row in ("Unternehmen", "Null-Gebote", "Nationalisierung", "Monopolisierung",
                            "Diversifikation", "Gesamtausgaben", "Endergebnis", "Rang"):  # fmt: skip
                    assert row in standings, row
                assert page.inner_text("#status").startswith("Das Spiel ist zu Ende")
                assert "(du)" in standings
                page.select_option("#filter", "result")
                kinds = page.eval_on_selector_all(
                    "#log li:not([hidden])", "items => items.map(i => i.dataset.kind)"
                )
                assert kinds and set(kinds) == {"result"}
                if phone:
                    _assert_readable_on_a_phone(page)
                _screenshot(page, f"night-{size}-{'ben' if seat else 'anna'}-end.png")
            for page in (anna, ben):
                old = page.url
                page.click("#rematch")
                page.wait_for_url(lambda url, old=old: url != old and "/seat/" in url)
            new = [t for t in server.tables.values() if t.id != table.id]
            assert len(new) == 1 and new[0].names == ("Anna", "Ben", "Vera", "")
            assert new[0].kinds == table.kinds and new[0].game.ruleset == table.game.ruleset
            assert key(anna.url.split("?")[0]) == new[0].tokens[0]
            assert key(ben.url.split("?")[0]) == new[0].tokens[1]
            anna.wait_for_selector("#board article" if phone else "#picture svg")
            if phone:  # the new game's first sale, as on the phone before
                _assert_readable_on_a_phone(anna)
            _screenshot(anna, f"night-{size}-rematch.png")
    finally:
        context.close()


def _assert_readable_on_a_phone(page):
    """No sideways scrolling, the HTML table instead of the drawing, and no text on the
    page smaller than 12 CSS px, the tiles' captions included (but for the tile pictures
    of the rules help, which are drawings)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    widest = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > 390)
            .map(e => e.tagName + '#' + e.id + '.' + e.className).slice(0, 8)"""
    )
    assert width <= 390, (width, widest)
    assert not page.is_visible("#picture") and page.is_visible("#board")
    smallest = page.evaluate(
        """() => Math.min(...[...document.querySelectorAll('#board *, #act *, #more *')]
            .filter(e => e.offsetParent !== null && e.childNodes.length
                    && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
            .filter(e => !e.closest('.qe-rulebook .tiles'))
            .map(e => parseFloat(getComputedStyle(e).fontSize)))"""
    )
    assert smallest >= 12, smallest


def test_what_a_person_types_stays_through_an_update_of_the_same_turn(tmp_path, browser):
    """An update that starts no new turn (here: the person renames their seat) keeps the
    amount being typed; the next turn to bid starts with an empty box."""
    with live_server(tmp_path / "tables.sqlite3") as (base, server):
        page = browser.new_page()
        page.goto(base + "/")
        page.select_option("select[name=players]", "3")
        page.select_option("select[name=seat1]", "value")
        page.select_option("select[name=seat2]", "value")
        page.click("button[type=submit]")
        page.wait_for_url("**/host/*")
        page.click("a[href^='/seat/']")
        page.wait_for_selector("#bid:not([hidden])")
        (table,) = server.tables.values()
        page.fill("#amount", "7")
        page.click("#you summary")  # the name is in a closed panel
        page.fill("#name", "Ada")
        page.click("#rename button")
        deadline = time.monotonic() + 20  # the page draws the table again, with the name
        while "Ada" not in page.inner_text("#picture") + page.inner_text("#board"):
            assert time.monotonic() < deadline, "the page did not show the new name"
            time.sleep(0.05)
        assert page.input_value("#amount") == "7"
        game = table.game
        page.fill("#amount", str(table.game.view(0).limits.legal(7)))
        page.click("#bid-button")
        _until_moved(table, game)
        page.wait_for_selector("#bid:not([hidden]), #download:not([hidden])")
        if page.is_visible("#bid") and not table.game.is_over:
            _at_version(page, table.version)
            assert page.input_value("#amount") == ""


def _german(chromium, size):
    phone = size == "phone"
    return chromium.new_context(
        viewport=GAME_NIGHT_SIZES[size], locale="de-DE", is_mobile=phone, has_touch=phone
    )


def _bid_least(page, table, seat):
    """Bid the seat's least legal amount on its page, and wait until the server has it."""
    page.bring_to_front()
    page.wait_for_selector("#bid:not([hidden])", timeout=60_000)
    _at_version(page, table.version)
    game = table.game
    page.fill("#amount", str(game.view(seat).limits.legal(0)))
    page.click("#bid-button")
    _until_moved(table, game)


@pytest.mark.parametrize("size", sorted(GAME_NIGHT_SIZES))
def test_the_host_names_the_seats_a_friend_joins_and_the_host_opens_her_own_seat(
    tmp_path, chromium, size
):
    """Hanna names her seat and lists the table; she looks at her links first. Jonas
    finds the table in the lobby: only the unnamed seat is offered, and taking it gives
    him a link of his own. Hanna then opens her link: her own seat, her own secrets."""
    host_context, friend_context = _german(chromium, size), _german(chromium, size)
    try:
        with live_server(tmp_path / "tables.sqlite3") as (base, server):
            host = host_context.new_page()
            host.goto(base + "/")
            host.fill("input[name=title]", "Freitag")
            host.select_option("select[name=players]", "4")
            for seat, (kind, name) in enumerate(
                [("person", "Hanna"), ("person", ""), ("value", "Vera"), ("random", "")]
            ):
                host.select_option(f"select[name=seat{seat}]", kind)
                host.fill(f"input[name=name{seat}]", name)
            host.check("input[name=listed]")
            host.click("button[type=submit]")
            host.wait_for_url("**/host/*")
            (table,) = server.tables.values()
            assert "noch nicht geöffnet" in host.inner_text("#seat-0")
            _screenshot(host, f"seats-{size}-host-links.png")
            jonas = friend_context.new_page()
            jonas.goto(base + "/lobby")
            assert "freie Plätze: 1" in jonas.inner_text("#tables")
            jonas.click("#tables a")
            offered = jonas.eval_on_selector_all(
                "select[name=seat] option", "options => options.map(o => o.textContent)"
            )
            assert offered == ["Platz 2"]  # not Hanna's seat
            jonas.fill("input[name=name]", "Jonas")
            _screenshot(jonas, f"seats-{size}-join.png")
            jonas.click("button[type=submit]")
            jonas.wait_for_url("**/seat/*")
            assert key(jonas.url.split("?")[0]) == table.tokens[1]
            host.reload()  # the host page shows Jonas's new link, opened
            assert "Jonas" in host.inner_text("#seat-1") and "geöffnet" in host.inner_text(
                "#seat-1"
            )
            host.click("#seat-0 a[href^='/seat/']")
            host.wait_for_url("**/seat/*")
            assert key(host.url.split("?")[0]) == table.tokens[0]
            for page, seat, name in ((host, 0, "Hanna"), (jonas, 1, "Jonas")):
                page.wait_for_selector("#board article" if size == "phone" else "#picture svg")
                mine = page.inner_text("#board article.you")
                assert name in mine
                token = table.game.view(seat).industry
                chip = page.inner_text("#board article.you header .chip:last-child")
                assert chip == gettext_for("de")(token.label)  # her own token, not his
            _bid_least(host, table, 0)  # Hanna opens the first sale
            _bid_least(jonas, table, 1)
            _screenshot(jonas, f"seats-{size}-jonas.png")
            if size == "phone":
                _assert_readable_on_a_phone(jonas)
    finally:
        host_context.close()
        friend_context.close()


@pytest.mark.parametrize("size", sorted(GAME_NIGHT_SIZES))
def test_a_player_leaves_for_good_the_host_hands_her_seat_to_an_agent_and_the_game_ends(
    tmp_path, chromium, size
):
    """Anna hosts Ben and Carla. Carla leaves for a while and comes back, then closes her
    page for good: the table waits for her, and Ben's page offers to hand her seat over.
    Anna hands it to an agent on her host page; every page says who plays for Carla, and
    Anna and Ben play to the end."""
    context = _german(chromium, size)
    limits = web.WebLimits(wait_limit=1.0)
    try:
        with live_server(tmp_path / "tables.sqlite3", limits=limits) as (base, server):
            import httpx

            body = {
                "ruleset": "de",
                "players": 4,
                "seats": ["person", "person", "person", "value"],
                "names": ["Anna", "Ben", "Carla", ""],
            }
            links = httpx.post(f"{base}/api/tables", json=body).json()
            table = server.tables[links["table"]]
            pages = {}
            for seat in range(3):
                pages[seat] = context.new_page()
                pages[seat].goto(base + links["seats"][seat])
            carla = pages[2]
            carla.click("#you summary")
            carla.click("#leave")  # for a while: an agent plays for her
            carla.wait_for_selector("#come-back:not([hidden])")
            assert "Du bist fort" in carla.inner_text("#away")
            _screenshot(carla, f"leave-{size}-away.png")
            carla.click("#come-back")
            carla.wait_for_selector("#away", state="hidden")
            carla.close()  # and now she is gone for good
            people = {0: pages[0], 1: pages[1]}
            while True:  # Anna and Ben play until the table waits for Carla alone
                due = sorted(table.game.to_act & people.keys())
                if due:
                    _bid_least(people[due[0]], table, due[0])
                elif 2 in table.game.to_act:
                    break
                else:
                    time.sleep(0.02)
            ben = pages[1]
            ben.bring_to_front()
            ben.wait_for_selector("#waiting:not([hidden]) button", timeout=30_000)
            assert "Carla" in ben.inner_text("#waiting")
            _screenshot(ben, f"leave-{size}-waiting.png")
            host = context.new_page()
            host.goto(base + links["host"])
            assert "wartet darauf" in host.inner_text("#seat-2")
            host.select_option("#seat-2 select[name=player]", "value")
            host.click("#seat-2 button:not([name])")
            host.wait_for_selector("#seat-2 small")
            assert "ein Programm spielt ihn (solide)" in host.inner_text("#seat-2")
            _screenshot(host, f"leave-{size}-host.png")
            for page in people.values():
                page.bring_to_front()
                deadline = time.monotonic() + 20
                while "Carla ist fort" not in page.inner_text("#away"):
                    assert time.monotonic() < deadline, page.inner_text("#act")
                    time.sleep(0.05)
            watcher = context.new_page()
            watcher.goto(base + links["watch"])
            watcher.wait_for_selector("#away:not([hidden])")
            assert "Carla ist fort" in watcher.inner_text("#away")
            shot = False
            while not table.game.is_over:
                due = sorted(table.game.to_act & people.keys())
                if not due:
                    time.sleep(0.02)
                    continue
                _bid_least(people[due[0]], table, due[0])
                if not shot and table.version > 30:
                    _screenshot(people[0], f"leave-{size}-playing.png")
                    shot = True
            for page in people.values():
                page.bring_to_front()
                page.wait_for_selector("#standings:not([hidden])")
                assert page.inner_text("#status").startswith("Das Spiel ist zu Ende")
            _screenshot(people[1], f"leave-{size}-end.png")
            if size == "phone":
                _assert_readable_on_a_phone(people[1])
    finally:
        context.close()
