"""A whole game played in a terminal by a person against the built-in agents
(``qe-rules play``). The text renderers it shows are in :mod:`qe_rules.present.text`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, TextIO

from qe_rules._util.i18n import DEFAULT_LANGUAGE, check_language, gettext_for
from qe_rules.apps.table_rules import rules_help_text
from qe_rules.errors import InvalidArgument, RulesError
from qe_rules.game.engine import Game, new_game
from qe_rules.game.events import Peeked
from qe_rules.game.views import Phase, PlayerView
from qe_rules.limits import MAX_BID, MAX_TEXT_LENGTH
from qe_rules.present.text import (
    bid_range,
    error_text,
    sale_text,
    score_board_text,
    seat_name,
    view_text,
)
from qe_rules.rules.model import PeekTiming, RuleSet
from qe_rules.simulation.agents import Agent, agent_factory

__all__ = ["GameStopped", "TerminalPlayer", "play_in_terminal"]


# --------------------------------------------------------------------------- play


class GameStopped(Exception):
    """The person left the game (end of input or Ctrl-C); ``game`` is where it stopped."""

    def __init__(self, game: Game, reason: str) -> None:
        super().__init__(reason)
        self.game = game
        self.reason = reason


_HELP: Final = (
    "Type a whole number and press Enter to bid; 'v' shows the table again; 'h' shows "
    "the rules and how the game scores; Ctrl-D or Ctrl-C leaves the game."
)


class TerminalPlayer:
    """One person at a terminal playing ``seat``; the built-in agents play the others.

    ``read_line`` returns one line of input ('' at end of input); ``out`` receives the
    text, in ``lang`` (``en`` or ``de``). :meth:`play` runs the game to its end and
    returns it.
    """

    def __init__(
        self,
        game: Game,
        seat: int,
        agents: Sequence[Agent | None],
        *,
        read_line: Callable[[], str],
        out: TextIO,
        lang: str = DEFAULT_LANGUAGE,
    ) -> None:
        self.lang = check_language(lang)
        self._ = gettext_for(lang)
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
        self.say(self._(_HELP))
        while not self.game.is_over:
            game = self.game
            if game.phase is Phase.PEEKING:  # the seats in to_act answer the peek
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
        self.say(self.view_text())
        self.say()
        self.say(
            score_board_text(
                self.game.result(),
                lang=self.lang,
                you=self.seat,
                scoring_order=self.game.ruleset.scoring_order,
            )
        )
        return self.game

    def view_text(self) -> str:
        """The seat's view as text, in the person's language."""
        return view_text(self.game.view(self.seat), lang=self.lang, ruleset=self.game.ruleset)

    def help_text(self) -> str:
        """The keys, then the rules and how the game scores."""
        rules = rules_help_text(self.game.ruleset, self.lang)
        return self._(_HELP) + "\n\n" + rules

    def peek_window(self) -> None:
        """Every seat in the peek window (``to_act``) peeks or declines, from the same state."""
        start = self.game
        for seat in sorted(start.to_act):
            agent = self.agents[seat]
            view = start.view(seat)
            wants = self.ask_peek(view) if agent is None else agent.wants_peek(view)
            if not wants:
                self.game = self.game.decline_peek(seat)
                continue
            self.game = self.game.peek(seat)
            if agent is None:
                self.tell_peek(seat)

    def tell_peek(self, seat: int) -> None:
        """What the person's peek shows (under ``before-bids``: when it will show it)."""
        (peek,) = [e for e in self.game.last_events if isinstance(e, Peeked)]
        if self.game.ruleset.peek_timing is PeekTiming.BEFORE_BIDS:
            self.say(
                self._("You will see the amount of sale {sale} when it ends.").format(
                    sale=peek.sale + 1
                )
            )
            return
        sale = self.game.view(seat).history[peek.sale]
        if sale.amount is None and sale.peeked_amount is not None:
            # the peek showed the highest bid, which a tie made more than the price
            self.say(
                self._("You peeked: the highest bid for {tile} was {amount}.").format(
                    tile=sale.company, amount=sale.peeked_amount
                )
            )
            return
        assert sale.winner is not None  # a peek is at a tile that was sold
        self.say(
            self._("You peeked: {seat} paid {amount} for {tile}.").format(
                seat=seat_name(sale.winner, lang=self.lang), amount=sale.amount, tile=sale.company
            )
        )

    def ask_peek(self, view: PlayerView) -> bool:
        """Ask whether to use a peek; yes or no."""
        self.tell_finished_sales()
        timing = self.game.ruleset.peek_timing
        if timing is PeekTiming.BEFORE_BIDS:
            question = self._("Announce a peek at what {tile} will go for? [y/n] ").format(
                tile=view.company
            )
        elif timing is PeekTiming.ANY_EARLIER_SALE:
            question = self._("Peek at the amount of the latest sale you may see? [y/n] ")
        else:
            last = view.history[-1]
            assert last.winner is not None  # a peek is at a tile that was sold
            question = self._("Peek at sale {sale} ({tile}, won by {seat})? [y/n] ").format(
                sale=last.sale + 1, seat=seat_name(last.winner, lang=self.lang), tile=last.company
            )
        while True:
            answer = self.ask(question).lower()
            if answer in ("y", "yes", "j", "ja"):
                return True
            if answer in ("n", "no", "nein"):
                return False
            if answer in ("?", "h", "help", "hilfe"):
                self.say(self.help_text())
                continue
            self.say(self._("Answer y (peek) or n (do not peek)."))

    def ask_bid(self) -> int:
        """Show the view and ask for a bid until a legal one is entered."""
        _ = self._
        view = self.game.view(self.seat)
        self.say()
        self.say(self.view_text())
        if view.tied:
            kind = _("Your rebid for {tile} ({range}): ")
        elif view.opening_bid is None and view.auctioneer == self.seat:
            kind = _("Your opening bid for {tile} ({range}): ")
        else:
            kind = _("Your bid for {tile} ({range}): ")
        assert view.company is not None
        prompt = kind.format(tile=view.company, range=bid_range(view, lang=self.lang))
        too_big = _("A bid is at most {maximum}.").format(maximum=MAX_BID)
        while True:
            answer = self.ask(prompt)
            if answer.lower() in ("v", "view", "a", "ansicht"):
                self.say(self.view_text())
                continue
            if answer.lower() in ("?", "h", "help", "hilfe"):
                self.say(self.help_text())
                continue
            if answer.isdigit() and len(answer) > len(str(MAX_BID)):
                self.say(too_big)
                continue
            try:
                amount = int(answer)
            except ValueError:
                self.say(
                    _("Not a whole number: {answer}.").format(answer=repr(answer[:40]))
                    + " "
                    + _(_HELP)
                )
                continue
            if amount > MAX_BID:
                self.say(too_big)
                continue
            try:
                self.game.verify_bid(self.seat, amount)
            except RulesError as error:
                self.say(
                    _("Not allowed: {reason}").format(reason=error_text(error, lang=self.lang))
                )
                continue
            return amount

    def tell_finished_sales(self) -> None:
        """One line for each sale finished since the last report, as this seat knows it."""
        history = self.game.view(self.seat).history
        for sale in history[self.reported :]:
            self.say(sale_text(sale, lang=self.lang))
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
    lang: str = DEFAULT_LANGUAGE,
) -> Game:
    """Set up a game (dealt from ``seed``) and let a person play ``seat`` against built-in
    agents: one name for every other seat, or one name per other seat in seat order; the
    game speaks ``lang`` (``en`` or ``de``).

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
    player = TerminalPlayer(game, seat, seated, read_line=read_line, out=out, lang=lang)
    try:
        return player.play()
    except KeyboardInterrupt:  # while the agents think
        player.say()
        raise GameStopped(player.game, "interrupted") from None
