"""Terminal play and text output: ``qe-rules play`` driven through a pseudo-terminal as a
person would use it, ``qe-rules show`` and ``qe-rules score`` on game records."""

import fcntl
import io
import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import termios
import time

import pytest

import qe_rules as qe
from qe_rules.apps.cli import EXIT_END_OF_INPUT, EXIT_INTERRUPTED, main
from qe_rules.present.text import game_text, score_board_text, view_text
from qe_rules.simulation.play import play_game

PROMPT = re.compile(
    r"Your (?:opening bid|bid|rebid) for \S+ \(from (\d+) to \d+(?:, not (\d+))?\): $"
    r"|Peek at sale \d+ \(\S+, won by seat \d+\)\? \[y/n\] $"
)
TIMEOUT = 60  # seconds to wait for one prompt; a game takes well under a second a turn


def _own_terminal():
    """In the child: a new session whose controlling terminal is the pseudo-terminal, so
    that Ctrl-C reaches the program as SIGINT, as in a shell."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    # As a shell starts a job in the foreground: SIGINT with its default action, even when
    # the tests run where it is ignored (a background job of a non-interactive shell).
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Terminal:
    """``qe-rules ARGS`` running on a pseudo-terminal, read and typed into like a person."""

    def __init__(self, *args, cwd=None, env=None):
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "qe_rules.apps.cli", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=env,
            preexec_fn=_own_terminal,
        )
        os.close(slave)
        self.text = ""
        self.consumed = 0  # the text up to here has been matched

    def read_until(self, pattern):
        """Read until ``pattern`` matches the text after the last match; the match."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            found = pattern.search(self.text, self.consumed)
            if found:
                self.consumed = found.end()
                return found
            left = deadline - time.monotonic()
            assert left > 0, f"no {pattern.pattern!r} after:\n{self.text[-2000:]}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the program ended and closed the terminal
                    chunk = b""
                if not chunk:
                    pytest.fail(f"ended before {pattern.pattern!r}:\n{self.text[-2000:]}")
                self.text += chunk.decode("utf-8").replace("\r\n", "\n")

    def type(self, line):
        os.write(self.master, line.encode() + b"\n")

    def finish(self, again=None, every=5.0):
        """Read to the end of output; the exit status. With ``again``, type it once more
        whenever the program says nothing for ``every`` seconds (as a person would)."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            left = deadline - time.monotonic()
            wait = left if again is None else min(left, every)
            ready = left > 0 and select.select([self.master], [], [], wait)[0]
            if not ready and again and time.monotonic() < deadline:
                os.write(self.master, again)
                continue
            if not ready:
                self.process.kill()
                pytest.fail(f"still running:\n{self.text[-2000:]}")
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                break
            if not chunk:
                break
            self.text += chunk.decode("utf-8").replace("\r\n", "\n")
        status = self.process.wait(timeout=TIMEOUT)
        os.close(self.master)
        return status


def legal_answer(prompt):
    """The smallest legal bid the prompt allows, or yes to a peek."""
    if prompt.group(0).startswith("Peek"):
        return "y"
    smallest, forbidden = int(prompt.group(1)), prompt.group(2)
    return str(smallest + 1 if forbidden is not None and smallest == int(forbidden) else smallest)


def play_through(terminal, bad_entries=()):
    """Answer every prompt with a legal amount; the bad entries go first, each once."""
    pending = list(bad_entries)
    while True:
        prompt = terminal.read_until(re.compile(PROMPT.pattern + r"|Winner: .*\n|No single winner"))
        if not prompt.group(0).startswith(("Your", "Peek")):
            return
        if pending and prompt.group(0).startswith("Your"):
            terminal.type(pending.pop(0))
            continue
        terminal.type(legal_answer(prompt))


PROMPT_DE = re.compile(
    r"Dein (?:Eröffnungsgebot|Gebot|neues Gebot) für \S+ \(von (\d+) bis \d+(?:, nicht (\d+))?\): $"
)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_game_in_either_language_shows_the_auctioneer_its_bids_and_h_the_rules(lang):
    """Seat 0 runs sale 1 (seed 3): once it is over, the terminal lists every bid of it."""
    terminal = Terminal("play", "--players", "4", "--agents", "value", "--seed", "3",
                        "--lang", lang, "--ruleset", "en")  # fmt: skip
    prompt = PROMPT if lang == "en" else PROMPT_DE
    words = {
        "en": (
            "How to play · rule set en",
            "bidding round 1: seat 1 bid",
            "seat 1 (you)",
            "Winner: ",
        ),
        "de": (
            "So wird gespielt · Regelwerk en",
            "Bietrunde 1: Platz 1 bot",
            "Platz 1 (du)",
            "Gewinner: ",
        ),
    }[lang]
    first = terminal.read_until(prompt)
    terminal.type("h")
    terminal.read_until(re.compile(re.escape(words[0])))
    terminal.read_until(re.compile(f"qe-rules rulebook en --lang {lang}\n"))  # the last line
    help_text = terminal.text[terminal.text.rindex(words[0]) :]
    book = qe.rulebook("en", lang=lang)
    titles = {section.key: section.title for section in book.sections}
    for key in ("sale", "ties", "scoring", "winner"):  # the generated rulebook's sections
        assert f"## {titles[key]}\n" in help_text.replace("\r\n", "\n"), key
    assert titles["components"] not in help_text  # the terminal shows a part of it
    assert ("Spartenplättchen" if lang == "de" else "industry token") in help_text
    again = terminal.read_until(prompt)
    assert again.group(0) == first.group(0)  # help asks the same question again
    terminal.type(legal_answer(again))
    while True:
        found = terminal.read_until(re.compile(prompt.pattern + "|" + words[3] + ".*\n"))
        if found.group(0).startswith(words[3]):
            break
        terminal.type(legal_answer(found))
    assert terminal.finish() == 0
    text = terminal.text
    after_sale_1 = text[text.index("Sale 1 (" if lang == "en" else "Versteigerung 1 (") :]
    assert words[1] in after_sale_1.splitlines()[1]  # the auctioneer sees its sale's bids
    assert words[2] in text  # the final board marks the person's column
    if lang == "de":
        assert "Landwirtschaft" in text or "Wohnungsbau" in text or "Industrie" in text
        assert "Your bid" not in text and "Winner:" not in text


def test_the_locale_names_the_language_and_the_rules_follow_it():
    """``LANG=de_DE.UTF-8 qe-rules play`` speaks German and plays the German rules;
    seats are counted from 1, as people count them."""
    german = {**os.environ, "LANG": "de_DE.UTF-8"}
    terminal = Terminal("play", "--seat", "2", "--seed", "3", env=german)
    terminal.read_until(PROMPT_DE)
    terminal.type("v")
    shown = terminal.read_until(PROMPT_DE)
    text = terminal.text
    assert "QE · Regelwerk de · 4 Spieler" in text and re.search(r"\nPlatz 2 +[A-Z]{2} +du", text)
    assert "Platz 0" not in text and "Platz 5" not in text
    terminal.type(legal_answer(shown))
    os.write(terminal.master, b"\x04")
    assert terminal.finish() == EXIT_END_OF_INPUT
    english = Terminal("play", "--lang", "en", env=german)  # --lang wins over the locale
    english.read_until(PROMPT)
    os.write(english.master, b"\x04")
    assert english.finish() == EXIT_END_OF_INPUT


def test_a_seat_is_counted_from_1(capsys):
    assert main(["play", "--seat", "0"], out=io.StringIO()) == 2
    assert "--seat is a seat from 1 to 4, got 0" in capsys.readouterr().err
    assert main(["play", "--players", "3", "--seat", "4"], out=io.StringIO()) == 2
    assert "--seat is a seat from 1 to 3, got 4" in capsys.readouterr().err


def test_three_players_see_no_zero_bid_counts_that_never_score():
    game = qe.new_game("en", 3, seed=1)
    assert "zero-bid rounds" not in view_text(game.view(0))
    assert "zero-bid rounds" in view_text(qe.new_game("en", 4, seed=1).view(0))


def test_a_scripted_session_plays_a_full_four_player_game(tmp_path):
    record = tmp_path / "game.json"
    terminal = Terminal(
        "play", "--players", "4", "--seat", "1", "--agents", "value", "--seed", "3",
        "--record", str(record),
    )  # fmt: skip
    play_through(terminal, bad_entries=["-1", "lots", "9" * 5000])
    status = terminal.finish()
    text = terminal.text
    assert status == 0, text[-2000:]
    assert "Not allowed: " in text  # the verify_bid message for -1
    assert "Not a whole number: 'lots'" in text
    assert "A bid is at most 1000000." in text
    assert text.count("Sale 16 (") == 1
    assert "total" in text and re.search(r"Winner: seat \d \([A-Z]{2}\)", text)
    assert f"The game record is saved in {record}" in text
    game = qe.replay(json.loads(record.read_text()))
    assert game.is_over and game.players == 4
    board = score_board_text(game.result(), you=0, scoring_order=game.ruleset.scoring_order)
    assert board in text and "seat 1 (you)" in board


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_verify_message_is_shown_for_an_illegal_bid(lang):
    game = qe.new_game("en", 4, seed=3)
    with pytest.raises(qe.RulesError) as error:
        game.verify_bid(0, -1)
    assert error.value.code == "bid-below-minimum"
    shown = {
        "en": "Not allowed: seat 1: the opening bid must be at least 1, not -1.",
        "de": "Nicht erlaubt: Platz 1: Als Eröffnungsgebot sind mindestens 1 zu bieten, nicht -1.",
    }[lang]
    terminal = Terminal("play", "--seed", "3", "--ruleset", "en", "--lang", lang)
    prompt = PROMPT if lang == "en" else PROMPT_DE
    terminal.read_until(prompt)
    terminal.type("-1")
    terminal.read_until(re.compile(re.escape(shown)))
    terminal.read_until(prompt)  # and it asks again
    os.write(terminal.master, b"\x04")  # Ctrl-D
    assert terminal.finish() == EXIT_END_OF_INPUT


def test_five_players_offer_the_peek_and_show_the_amount():
    terminal = Terminal("play", "--players", "5", "--seat", "2", "--seed", "1")
    play_through(terminal)
    assert terminal.finish() == 0
    assert re.search(r"Peek at sale \d+ \(\S+, won by seat \d\)\? \[y/n\]", terminal.text)
    assert re.search(r"You peeked: seat \d paid \d+ for \S+\.", terminal.text)


def test_end_of_input_leaves_with_one_line_and_saves_the_game_so_far(tmp_path):
    record = tmp_path / "partial.json"
    terminal = Terminal("play", "--record", str(record))
    terminal.read_until(PROMPT)
    os.write(terminal.master, b"\x04")
    assert terminal.finish() == EXIT_END_OF_INPUT
    assert terminal.text.rstrip().splitlines()[-1] == (
        f"qe-rules: game left (end of input); the game so far is saved in {record}"
    )
    assert not qe.replay(json.loads(record.read_text())).is_over


def test_ctrl_c_leaves_with_one_line():
    terminal = Terminal("play")
    terminal.read_until(PROMPT)
    os.write(terminal.master, b"\x03")  # the terminal sends SIGINT
    # A Ctrl-C that lands just before the program blocks in read() waits for the next
    # signal (the interpreter checks for signals only between steps), so press it again.
    assert terminal.finish(again=b"\x03") == EXIT_INTERRUPTED
    assert terminal.text.rstrip().splitlines()[-1] == "qe-rules: game left (interrupted)"
    assert "Traceback" not in terminal.text
    assert signal.SIGINT + 128 == EXIT_INTERRUPTED


# --------------------------------------------------------------------------- show, score


def run(*argv):
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


@pytest.fixture(scope="module")
def finished():
    return play_game("en", 5, "value", seed=3)


def test_show_prints_every_sale_with_every_bid(tmp_path, finished):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(finished.to_record()))
    status, text = run("show", str(path))
    assert status == 0
    assert text == game_text(finished) + "\n"
    assert text.count("\nSale ") == sum(1 for e in finished.events if isinstance(e, qe.SaleOpened))
    secret_bids = [e for e in finished.events if isinstance(e, qe.SecretBid)]
    assert sum(line.count(" seat ") for line in text.splitlines() if line[:7] == "  bids:") == len(
        secret_bids
    )
    assert score_board_text(finished.result(), scoring_order=finished.ruleset.scoring_order) in text
    assert "seat 0" not in text  # people count seats from 1


def test_show_of_an_unfinished_game_says_so(tmp_path, finished):
    data = finished.to_record()
    data["moves"] = data["moves"][:7]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data))
    status, text = run("show", str(path))
    assert status == 0
    assert "the game is not over" in text


def test_score_accepts_a_finished_game_record(tmp_path, finished):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(finished.to_record()))
    status, text = run("score", str(path))
    assert status == 0
    assert text == score_board_text(finished.result()) + "\n"  # seat 1, seat 2, ...
    assert run("score", str(path), "--lang", "de")[1].startswith("Regelwerk en, 5 Spieler")
    status, text = run("score", str(path), "--format", "json")
    assert json.loads(text) == finished.result().to_dict()


def test_score_under_another_rule_set_rescores_the_holdings(tmp_path):
    game = play_game("en", 4, "value", seed=5)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(game.to_record()))
    _, text = run("score", str(path), "--ruleset", "de", "--format", "json")
    assert json.loads(text) == qe.score_game("de", game.player_records()).to_dict()


def test_score_refuses_an_unfinished_game(tmp_path, finished, capsys):
    data = finished.to_record()
    data["moves"] = data["moves"][:7]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data))
    assert run("score", str(path))[0] == 2
    assert "the game is not over" in capsys.readouterr().err
