"""Games as text for a terminal: a seat's view, a recorded game sale by sale, and a whole
game played by a person against the built-in agents (``qe-rules play``).

>>> import qe_rules as qe
>>> print(view_text(qe.new_game("en", 3, seed=1).view(0)).splitlines()[0])
QE · rule set en · 3 players · round 1 · sale 1 of 16 · 15 left after it
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, TextIO

from qe_rules._text import table
from qe_rules.agents import Agent, agent_factory
from qe_rules.components import Company
from qe_rules.engine import Game, new_game
from qe_rules.errors import InvalidArgument, RulesError
from qe_rules.events import (
    Awarded,
    NotAwarded,
    OpeningBid,
    Peeked,
    SaleOpened,
    SecretBid,
    Tie,
    ZeroBids,
)
from qe_rules.limits import MAX_BID, MAX_TEXT_LENGTH
from qe_rules.rulesets import RuleSet
from qe_rules.views import Phase, PlayerView, SaleView

__all__ = [
    "GameStopped",
    "TerminalPlayer",
    "game_text",
    "play_in_terminal",
    "sale_text",
    "view_text",
]


# --------------------------------------------------------------------------- text


def _tile(company: Company) -> str:
    return f"{company} ({company.nation.code} {company.industry.label}, {company.vp} VP)"


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(f"seat {s}" for s in seats) or "nobody"


def _allowed(view: PlayerView) -> str:
    """The legal range of this seat's bid, e.g. ``from 1 to 1000000, not 7``."""
    assert view.limits is not None
    text = f"from {view.limits.minimum} to {MAX_BID}"
    if view.limits.forbidden is not None:
        text += f", not {view.limits.forbidden}"
    return text


def view_text(view: PlayerView) -> str:
    """What ``view.seat`` knows, as lines of text: the sale, every seat's nation, tiles,
    zero-bid rounds and peeks, then the seat's own token, spend and bids."""
    head = f"QE · rule set {view.ruleset} · {view.players} players"
    if view.phase is Phase.OVER:
        lines = [f"{head} · game over after {view.sales} sales"]
    else:
        lines = [
            f"{head} · round {view.round + 1} · sale {view.sale + 1} of {view.sales} · "
            f"{view.remaining} left after it"
        ]
    if view.company is not None:
        auctioneer = "none (last tile)" if view.auctioneer is None else f"seat {view.auctioneer}"
        opening = "awaited" if view.opening_bid is None else str(view.opening_bid)
        lines.append(
            f"On sale: {_tile(view.company)} · auctioneer {auctioneer} · opening bid {opening}"
        )
        waiting = f"To act: {_seats(sorted(view.to_act))}"
        if view.tied:
            waiting += f" · tied, rebidding: {_seats(view.tied)}"
        lines.append(waiting)
    rows = []
    for seat in range(view.players):
        marks = []
        if seat == view.seat:
            marks.append("you")
        if seat == view.auctioneer and view.phase is not Phase.OVER:
            marks.append("auctioneer")
        token = ""
        if view.industries is not None:
            token = view.industries[seat].label
        elif seat == view.seat:
            token = view.industry.label
        rows.append(
            [
                f"seat {seat}",
                view.nations[seat].code,
                ", ".join(marks),
                token,
                view.zero_bid_rounds[seat],
                view.peeks_used[seat],
            ]
        )
    header = ["", "nation", "", "token", "zero-bid rounds", "peeks"]
    tiles = ["tiles", *(" ".join(map(str, held)) or "-" for held in view.holdings)]
    columns = table(header, rows, left=4)
    width = max(map(len, columns))
    lines.append("")
    lines += [f"{line.ljust(width)}  {held}" for line, held in zip(columns, tiles, strict=True)]
    mine = [f"You: seat {view.seat}, token {view.industry.label}, spent {view.spent}"]
    if view.my_bids:
        mine.append("your bids this sale: " + ", ".join(map(str, view.my_bids)))
    lines += ["", " · ".join(mine)]
    for number, bids in enumerate(view.seen_bids):
        lines.append(
            f"bidding round {number + 1}: " + ", ".join(f"seat {s} bid {a}" for s, a in bids)
        )
    return "\n".join(lines)


def sale_text(sale: SaleView) -> str:
    """One finished sale as a seat knows it, in one line."""
    text = f"Sale {sale.sale + 1} ({sale.company}): "
    if sale.winner is None:
        return text + f"not awarded ({sale.reason})"
    amount = "a secret amount" if sale.amount is None else str(sale.amount)
    text += f"seat {sale.winner} won it for {amount}"
    if sale.opening_bid is not None:
        text += f" (opening bid {sale.opening_bid} by seat {sale.auctioneer})"
    if sale.zero_bidders:
        text += f"; zero bids: {_seats(sale.zero_bidders)}"
    return text


def game_text(game: Game) -> str:
    """A game sale by sale as the referee saw it: every bid, tie, award, zero bid and peek,
    then the score board once the game is over."""
    lines = [
        f"QE · rule set {game.ruleset.id} · {game.players} players",
        *table(
            ["", "nation", "token"],
            [
                [f"seat {s}", game.nations[s].code, game.industries[s].label]
                for s in range(game.players)
            ],
            left=3,
        ),
    ]
    bids: list[str] = []

    def flush() -> None:
        if bids:
            lines.append("  bids: " + ", ".join(bids))
            bids.clear()

    for event in game.events:
        if isinstance(event, SaleOpened):
            auctioneer = (
                "no auctioneer (last tile)"
                if event.auctioneer is None
                else f"auctioneer seat {event.auctioneer}"
            )
            lines += ["", f"Sale {event.sale + 1}: {_tile(event.company)}, {auctioneer}"]
        elif isinstance(event, OpeningBid):
            lines.append(f"  opening bid {event.amount} by seat {event.seat}")
        elif isinstance(event, SecretBid):
            bids.append(f"seat {event.seat} {event.amount}")
        elif isinstance(event, Tie):
            flush()
            lines.append(f"  tie between {_seats(event.seats)}: they rebid")
        elif isinstance(event, Awarded):
            flush()
            how = "openly" if event.public else "secretly"
            fallback = " (by the tie fallback)" if event.fallback else ""
            lines.append(f"  seat {event.seat} wins for {event.amount}, paid {how}{fallback}")
        elif isinstance(event, NotAwarded):
            flush()
            lines.append(f"  not awarded: {event.reason}")
        elif isinstance(event, ZeroBids):
            scoring = f" (scoring: {_seats(event.scoring)})" if event.scoring != event.seats else ""
            lines.append(f"  zero bids: {_seats(event.seats)}{scoring}")
        elif isinstance(event, Peeked):
            lines.append(f"  seat {event.seat} peeks at the amount of sale {event.sale + 1}")
    flush()
    if game.is_over:
        lines += ["", str(game.result())]
    else:
        lines += ["", f"The record stops during sale {game.sale + 1}; the game is not over."]
    return "\n".join(lines)


# --------------------------------------------------------------------------- play


class GameStopped(Exception):
    """The person left the game (end of input or Ctrl-C); ``game`` is where it stopped."""

    def __init__(self, game: Game, reason: str) -> None:
        super().__init__(reason)
        self.game = game
        self.reason = reason


_HELP: Final = (
    "Type a whole number and press Enter to bid; 'v' shows the table again; "
    "Ctrl-D or Ctrl-C leaves the game."
)


class TerminalPlayer:
    """One person at a terminal playing ``seat``; the built-in agents play the others.

    ``read_line`` returns one line of input ('' at end of input); ``out`` receives the
    text. :meth:`play` runs the game to its end and returns it.
    """

    def __init__(
        self,
        game: Game,
        seat: int,
        agents: Sequence[Agent | None],
        *,
        read_line: Callable[[], str],
        out: TextIO,
    ) -> None:
        self.game = game
        self.seat = seat
        self.agents = agents
        self.read_line = read_line
        self.out = out
        self.reported = 0  # finished sales already told to the person

    def say(self, text: str = "") -> None:
        """Write a line to the person."""
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str:
        """One line from the person; raises :class:`GameStopped` at end of input."""
        self.out.write(prompt)
        self.out.flush()
        try:
            line = self.read_line()
        except KeyboardInterrupt:
            self.say()
            raise GameStopped(self.game, "interrupted") from None
        if not line:
            self.say()
            raise GameStopped(self.game, "end of input")
        return line[:MAX_TEXT_LENGTH].strip()

    def play(self) -> Game:
        """Play to the end of the game; returns the finished game."""
        self.say(_HELP)
        peeks_asked = -1  # the sale whose peek window was last offered
        while not self.game.is_over:
            game = self.game
            # the peek window is open between an award and the next opening bid
            if game.phase is Phase.OPENING and peeks_asked != game.sale:
                peeks_asked = game.sale
                self.peek_window()
                continue
            self.tell_finished_sales()
            bids = {}
            if self.seat in game.to_act:
                bids[self.seat] = self.ask_bid()
            for seat in sorted(game.to_act - {self.seat}):
                agent = self.agents[seat]
                if agent is not None:
                    bids[seat] = agent.bid(game.view(seat))  # all from the same state
            self.game = game.bid_many(bids) if len(bids) > 1 else game.bid(*bids.popitem())
        self.tell_finished_sales()
        self.say()
        self.say(view_text(self.game.view(self.seat)))
        self.say()
        self.say(str(self.game.result()))
        return self.game

    def peek_window(self) -> None:
        """Every seat that may peek at the sale just awarded decides, from the same state."""
        start = self.game
        for seat in range(start.players):
            if not start.can_peek(seat):
                continue
            agent = self.agents[seat]
            if agent is None:
                wants = self.ask_peek(start.view(seat))
            else:
                wants = agent.wants_peek(start.view(seat))
            if wants:
                self.game = self.game.peek(seat)
                if agent is None:
                    last = self.game.view(seat).history[-1]
                    self.say(
                        f"You peeked: seat {last.winner} paid {last.amount} for {last.company}."
                    )

    def ask_peek(self, view: PlayerView) -> bool:
        """Ask whether to use a peek; yes or no."""
        self.tell_finished_sales()
        last = view.history[-1]
        while True:
            answer = self.ask(
                f"Peek at what seat {last.winner} paid for {last.company}? [y/n] "
            ).lower()
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no"):
                return False
            self.say("Answer y (peek) or n (do not peek).")

    def ask_bid(self) -> int:
        """Show the view and ask for a bid until a legal one is entered."""
        view = self.game.view(self.seat)
        self.say()
        self.say(view_text(view))
        kind = "opening bid" if view.opening_bid is None and view.auctioneer == self.seat else "bid"
        if view.tied:
            kind = "rebid"
        assert view.company is not None
        prompt = f"Your {kind} for {view.company} ({_allowed(view)}): "
        while True:
            answer = self.ask(prompt)
            if answer.lower() in ("v", "view"):
                self.say(view_text(self.game.view(self.seat)))
                continue
            if answer in ("?", "h", "help"):
                self.say(_HELP)
                continue
            if answer.isdigit() and len(answer) > len(str(MAX_BID)):
                self.say(f"A bid is at most {MAX_BID}.")
                continue
            try:
                amount = int(answer)
            except ValueError:
                self.say(f"Not a whole number: {answer[:40]!r}. {_HELP}")
                continue
            if amount > MAX_BID:
                self.say(f"A bid is at most {MAX_BID}.")
                continue
            try:
                self.game.verify_bid(self.seat, amount)
            except RulesError as error:
                self.say(f"Not allowed: {error}")
                continue
            return amount

    def tell_finished_sales(self) -> None:
        """One line for each sale finished since the last report, as this seat knows it."""
        history = self.game.view(self.seat).history
        for sale in history[self.reported :]:
            self.say(sale_text(sale))
        self.reported = len(history)


def play_in_terminal(
    ruleset: RuleSet,
    players: int,
    seat: int,
    agents: str | Sequence[str],
    *,
    seed: int = 0,
    read_line: Callable[[], str],
    out: TextIO,
) -> Game:
    """Set up a game (dealt from ``seed``) and let a person play ``seat`` against built-in
    agents: one name for every other seat, or one name per other seat in seat order.

    Raises :class:`GameStopped` when the person leaves.
    """
    game = new_game(ruleset, players, seed=seed)
    if type(seat) is not int or not 0 <= seat < players:
        raise InvalidArgument(f"--seat is a seat from 0 to {players - 1}, got {seat}")
    others = [agents] * (players - 1) if isinstance(agents, str) else list(agents)
    if len(others) != players - 1:
        raise InvalidArgument(
            f"give one agent for every other seat, or {players - 1} agents separated by commas"
        )
    names = iter(others)
    seated: list[Agent | None] = [
        None if s == seat else agent_factory(next(names), ruleset=ruleset)(seed * 8 + s)
        for s in range(players)
    ]
    player = TerminalPlayer(game, seat, seated, read_line=read_line, out=out)
    try:
        return player.play()
    except KeyboardInterrupt:  # while the agents think
        player.say()
        raise GameStopped(player.game, "interrupted") from None
