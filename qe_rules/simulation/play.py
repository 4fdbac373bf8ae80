"""One game of a run: the checks of a run's arguments, and the game loop that plays a game
between agents from ``(seed, game number)`` alone.

>>> from qe_rules.simulation.play import play_game
>>> game = play_game("en", 4, ["value", "random", "random", "zero"], seed=1, index=3)
>>> game.is_over
True
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable, Sequence
from typing import Any

from qe_rules._util.reading import MAX_INTEGER
from qe_rules.errors import AgentError, InvalidArgument, RulesError, shown
from qe_rules.game.draws import (
    DECK,
    NATIONS,
    TOKENS,
    agent_seed,
    first_seat,
    game_key,
    run_key,
    shuffled,
)
from qe_rules.game.engine import Game, new_game
from qe_rules.game.facts import rule_facts
from qe_rules.game.views import Phase
from qe_rules.limits import ROUNDS_PER_SALE
from qe_rules.rules.model import RuleSet, get_ruleset
from qe_rules.simulation.agents import (
    AGENT_NAMES,
    Agent,
    AgentFactory,
    agent_factory,
    agent_label,
)

__all__ = ["ROUNDS_PER_SALE", "AgentSpec", "Progress", "dealt_game", "play_game"]


AgentSpec = str | AgentFactory
"""An agent as a name (``"random"``, ``"zero"``, ``"value"``) or a factory taking a seed."""

Progress = Callable[[int, int], object]
"""Called with ``(games done, games in all)`` as a run goes on."""


# --------------------------------------------------------------------------- arguments


def _check_int(value: object, what: str, least: int) -> int:
    if type(value) is not int or not least <= value <= MAX_INTEGER:
        raise InvalidArgument(
            f"{what} is a whole number from {least} to {MAX_INTEGER}, got {shown(value)}"
        )
    return value


def _check_seed(seed: object) -> int:
    """A run's seed: a whole number of at most 2**63 - 1 either way (what its statistics
    write and read back)."""
    if type(seed) is not int or not -MAX_INTEGER <= seed <= MAX_INTEGER:
        raise InvalidArgument(
            f"seed is a whole number (int) from -{MAX_INTEGER} to {MAX_INTEGER}, got {shown(seed)}"
        )
    return seed


def _check_games(games: object, start: object) -> tuple[int, int]:
    """``games`` and ``start`` of a run: game numbers that stay within 2**63 - 1."""
    games, start = _check_int(games, "games", 1), _check_int(start, "start", 0)
    if start + games > MAX_INTEGER:
        raise InvalidArgument(f"start + games is at most {MAX_INTEGER}, got {start + games}")
    return games, start


def _check_rules(ruleset: object) -> RuleSet:
    if not isinstance(ruleset, RuleSet | str):
        raise InvalidArgument(f"a rule set is a RuleSet or a rule set id, got {shown(ruleset)}")
    return get_ruleset(ruleset)


def _check_agents(agents: object, players: int) -> tuple[AgentSpec, ...]:
    if isinstance(agents, str) or callable(agents):
        specs: tuple[Any, ...] = (agents,) * players
    elif isinstance(agents, Sequence) and not isinstance(agents, bytes):
        specs = tuple(agents)
        if len(specs) != players:
            raise InvalidArgument(
                f"agents: give one per seat ({players}) or one for every seat, got {len(specs)}"
            )
    else:
        raise InvalidArgument(
            f"agents is an agent (a name or a factory) or a list of one per seat, got {shown(agents)}"
        )
    for spec in specs:
        if isinstance(spec, str):
            agent_factory(spec)  # raises for an unknown name
        elif not callable(spec):
            raise InvalidArgument(
                f"an agent is a name ({', '.join(AGENT_NAMES)}) or a factory called with a "
                f"seed, got {shown(spec)}"
            )
    return specs


def _check_progress(progress: object) -> Progress | None:
    if progress is not None and not callable(progress):
        raise InvalidArgument(
            f"progress is a function of (done, total) or None, got {shown(progress)}"
        )
    return progress


def _check_executor(executor: object) -> concurrent.futures.Executor | None:
    if executor is not None and not isinstance(executor, concurrent.futures.Executor):
        raise InvalidArgument(
            "executor is a concurrent.futures.Executor (a process or thread pool, Dask's "
            f"Client.get_executor(), ...) or None, got {shown(executor)}"
        )
    return executor


def _check_rows(rows: object) -> bool:
    if type(rows) is not bool:
        raise InvalidArgument(f"rows is True or False, got {shown(rows)}")
    return rows


# --------------------------------------------------------------------------- one game


def dealt_game(rules: RuleSet, players: int, seed: int, index: int) -> Game:
    """Game ``index`` of a run with ``seed`` before its first move: the deck, nations,
    tokens and first auctioneer drawn as :mod:`qe_rules.game.draws` defines them."""
    game = game_key(run_key(seed), index)
    return new_game(
        rules,
        players,
        deck=shuffled(game, rules.companies(players), DECK),
        nations=shuffled(game, rules.nations(players), NATIONS)[:players],
        industries=shuffled(game, rules.industries(players), TOKENS)[:players],
        first_auctioneer=first_seat(game, players),
    )


def _factories(specs: Sequence[AgentSpec], rules: RuleSet) -> list[AgentFactory]:
    return [agent_factory(spec, ruleset=rules) if isinstance(spec, str) else spec for spec in specs]


def _allowed(game: Game, seat: int, amount: object) -> bool:
    try:
        return type(amount) is int and game.can_bid(seat, amount)
    except RulesError:
        return False


def _peeks(game: Game, agents: Sequence[Agent], failure: _Failure) -> Game:
    """The peek window: ask every seat in it whether it will peek, all from the same
    state, and play each answer."""
    start = game
    for seat in sorted(start.to_act):
        failure.seat = seat
        wants = agents[seat].wants_peek(start.view(seat))
        if type(wants) is not bool:
            raise failure.error(f"wants_peek(view) must return True or False, got {shown(wants)}")
        game = game.peek(seat) if wants else game.decline_peek(seat)
    return game


class _Failure:
    """Which agent a game is waiting on, to name it when something fails."""

    __slots__ = ("factories", "index", "seat", "seed")

    def __init__(self, factories: Sequence[AgentFactory], seed: int, index: int) -> None:
        self.factories = factories
        self.seed = seed
        self.index = index
        self.seat = 0

    def error(self, problem: str, seat: int | None = None) -> AgentError:
        seat = self.seat if seat is None else seat
        agent = agent_label(self.factories[seat])
        return AgentError(
            f"agent {agent!r} at seat {seat}, game {self.index} of seed {self.seed} "
            f"(play_game(..., seed={self.seed}, index={self.index}) replays it): {problem}",
            agent=agent,
            seat=seat,
            seed=self.seed,
            game=self.index,
        )


def _made_agents(factories: Sequence[AgentFactory], game: int, failure: _Failure) -> list[Agent]:
    """Each seat's agent, made from its seed in the game whose key is ``game``."""
    agents = []
    for seat, factory in enumerate(factories):
        failure.seat = seat
        agent = factory(agent_seed(game, seat))
        if not callable(getattr(agent, "bid", None)):
            raise failure.error(f"the factory made {shown(agent)}, which has no bid(view) method")
        agents.append(agent)
    return agents


def _play(
    rules: RuleSet, players: int, factories: Sequence[AgentFactory], seed: int, index: int
) -> Game:
    failure = _Failure(factories, seed, index)
    try:
        return _play_game(rules, players, factories, seed, index, failure)
    except AgentError:
        raise
    except RulesError as error:
        if failure.seat < 0:  # the run itself, not an agent (a sale that never ends)
            raise
        raise failure.error(str(error)) from error
    except Exception as error:  # the agent's own code
        raise failure.error(f"{type(error).__name__}: {shown(str(error))}") from error


def _play_game(
    rules: RuleSet,
    players: int,
    factories: Sequence[AgentFactory],
    seed: int,
    index: int,
    failure: _Failure,
) -> Game:
    failure.seat = -1
    game = dealt_game(rules, players, seed, index)
    agents = _made_agents(factories, game_key(run_key(seed), index), failure)
    bid_of = [agent.bid for agent in agents]
    peeks = rule_facts(rules, players).peek
    rounds = 0  # bidding rounds since the last opening bid
    while True:
        to_act = game.to_act
        if not to_act:
            return game
        if peeks and game.phase is Phase.PEEKING:
            game = _peeks(game, agents, failure)
        elif len(to_act) == 1:  # an opening bid (with 2 players, also the secret bid)
            rounds = 0
            (seat,) = to_act
            failure.seat = seat
            game = game.bid(seat, bid_of[seat](game.view(seat)))
        else:
            rounds += 1
            if rounds > ROUNDS_PER_SALE:
                failure.seat = -1
                raise InvalidArgument(
                    f"game {index} does not end: sale {game.sale} is still tied after "
                    f"{ROUNDS_PER_SALE} bidding rounds; under {rules.id} tied players rebid "
                    "without end (no tie fallback), and these agents keep tying"
                )
            # secret bids are made at the same time: every bidder sees the same state
            bids: dict[int, int] = {}
            view = game.view
            for seat in to_act:  # a loop: a comprehension is a function call in Python 3.11
                failure.seat = seat
                bids[seat] = bid_of[seat](view(seat))
            try:
                game = game.bid_many(bids)
            except RulesError:  # name the first seat whose bid the rules refuse
                failure.seat = next(
                    (s for s, amount in bids.items() if not _allowed(game, s, amount)), -1
                )
                raise


def play_game(
    ruleset: RuleSet | str,
    players: int,
    agents: AgentSpec | Sequence[AgentSpec],
    *,
    seed: int,
    index: int = 0,
) -> Game:
    """Play game number ``index`` of a run with ``seed``, exactly as :func:`simulate` does,
    and return the finished :class:`~qe_rules.Game`.

    >>> game = play_game("en", 3, "zero", seed=1)
    >>> game.is_over, [record.spent for record in game.player_records()]
    (True, [5, 5, 5])
    """
    rules = _check_rules(ruleset)
    players = rules.check_players(players)
    specs = _check_agents(agents, players)
    _check_seed(seed)
    _check_int(index, "index", 0)
    return _play(rules, players, _factories(specs, rules), seed, index)
