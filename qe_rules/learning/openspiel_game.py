"""QE as an OpenSpiel game, ``python_qe`` (needs the ``openspiel`` extra: open_spiel).

Importing this module registers the game, so that OpenSpiel's algorithms and tools load it
by name, with the parameters ``players`` (3 to 5) and ``ruleset`` (a built-in id):

>>> import pyspiel
>>> import qe_rules.learning.openspiel_game
>>> game = pyspiel.load_game("python_qe", {"players": 4})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(4, 33, 21)

The game starts with chance nodes that deal the deck tile by tile, each seat's nation and
industry token, and the first auctioneer (uniformly, as :func:`~qe_rules.new_game` does
from a seed). Then the seats act as in :mod:`qe_rules.learning.pettingzoo_env`: actions are those of
:mod:`qe_rules.learning.encode`, and the seats of one bidding round or peek window act one after
another, in seat order, but every one of them from the same state (the actions are held
until the last has acted). Observation tensors are the encoding of a seat's view, and
observation strings its text. At the end each winner gets ``1 / len(winners)`` and the
others ``0``; a sale still tied after ``max_rounds`` bidding rounds ends the game with
``0`` for everyone.

What a seat may know, and what search may use:

- ``information_state_string`` is a perfect-recall information state: the seat's view
  (which keeps every sale as the seat saw it) and the public record of every move (who
  acted; the amount of an opening bid; who peeked, once a peek window is over; a secret
  bid or a held peek answer shows only that it was made). Two states a seat cannot tell apart give it the same
  string. There is no information-state tensor (the game says so, and asking raises).
- ``resample_from_infostate(seat, sampler)`` is a state the seat cannot tell from this
  one, its hidden parts drawn at random (:func:`~qe_rules.learning.determinize.determinize`:
  the other seats' tokens, the order of the tiles to come, every bid it did not see,
  and the bids held in the round under way, drawn as value agents would bid them), so
  OpenSpiel's ``ISMCTSBot`` runs on the game; :func:`resampler` gives it seeded draws.
- A state itself holds everything (the deck order, every token, the held bids):
  perfect-information search such as ``MCTSBot`` sees them all. Search a seat's
  decision with ``ISMCTSBot``, never with ``MCTSBot``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Final

import numpy as np
import pyspiel

from qe_rules.components import COMPANIES, Company, Industry, Nation
from qe_rules.errors import IllegalAction, InvalidArgument, shown
from qe_rules.game.engine import Game, new_game
from qe_rules.game.views import Phase
from qe_rules.learning import encode
from qe_rules.learning.determinize import determinize
from qe_rules.learning.pettingzoo_env import Turn, check_table, engine_allows
from qe_rules.limits import ROUNDS_PER_SALE
from qe_rules.present import text
from qe_rules.rules.model import RuleSet, TieFallback
from qe_rules.simulation.agents import ValueAgent

__all__ = ["GAME_TYPE", "QEGame", "QEState", "resampler"]

_DEFAULTS: Final = {"players": 4, "ruleset": "en", "max_rounds": ROUNDS_PER_SALE}

GAME_TYPE: Final = pyspiel.GameType(
    short_name="python_qe",
    long_name="Python QE",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=encode.MAX_SEATS,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=_DEFAULTS,
)
"""What OpenSpiel is told about the game."""

_NATIONS: Final = tuple(Nation)
_INDUSTRIES: Final = tuple(Industry)


class QEGame(pyspiel.Game):  # type: ignore[misc]  # open_spiel ships no type information
    """The game for the parameters ``players``, ``ruleset`` and ``max_rounds``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        if params is not None and not isinstance(params, Mapping):
            raise InvalidArgument(f"params is a dict of parameters or None, got {shown(params)}")
        unknown = sorted(shown(key) for key in params or {} if key not in _DEFAULTS)
        if unknown:
            raise InvalidArgument(
                f"unknown parameters {', '.join(unknown)}; the parameters are "
                f"{', '.join(_DEFAULTS)}"
            )
        params = {**_DEFAULTS, **(params or {})}
        if not isinstance(params["ruleset"], str):
            raise InvalidArgument(f"ruleset is a rule set id, got {shown(params['ruleset'])}")
        self.rules, self.players = check_table(
            params["ruleset"], params["players"], params["max_rounds"]
        )
        if self.players < GAME_TYPE.min_num_players:
            raise InvalidArgument(
                f"python_qe is played by {GAME_TYPE.min_num_players} to "
                f"{GAME_TYPE.max_num_players} players, not {self.players}"
            )
        self.max_rounds: int = params["max_rounds"]
        rules, players = self.rules, self.players
        if rules.tie_fallback is TieFallback.NONE:
            rounds = self.max_rounds
        else:
            rounds = rules.ties_before_fallback + 1
        sales = rules.sales(players)
        # each sale: an opening bid, the bidding rounds, a peek window
        longest = sales * (1 + players * rounds + players)
        super().__init__(
            GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=encode.ACTIONS,
                max_chance_outcomes=len(COMPANIES),
                num_players=players,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=longest,
            ),
            params,
        )

    def new_initial_state(self) -> QEState:
        """A state before the deal."""
        return QEState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> QEObserver | QEInformationStateObserver:
        """The observer of a seat's view (its encoding as the tensor, its text as
        string), or for a perfect-recall ``iig_obs_type`` of its information state
        (string only)."""
        if iig_obs_type is not None and getattr(iig_obs_type, "perfect_recall", False):
            return QEInformationStateObserver()
        return QEObserver()


class QEState(pyspiel.State):  # type: ignore[misc]
    """A state of the game: the deal so far, then a :class:`~qe_rules.Game`."""

    def __init__(self, game: QEGame) -> None:
        super().__init__(game)
        self.rules, self.players, self.max_rounds = game.rules, game.players, game.max_rounds
        self.deck: list[Company] = []
        self.nations: list[Nation] = []
        self.industries: list[Industry] = []
        self.game: Game | None = None
        self.turn: Turn | None = None
        self.truncated = False
        # the public record of the seats' moves, one entry a move: "seat:amount" where
        # the amount is public (opening bids, peek answers), else "seat:*"
        self.moves: list[str] = []
        self.windows: list[tuple[int, ...]] = []  # who peeked in each peek window
        self.rebids: list[tuple[int, ...]] = []  # who rebids in each rebid round of the sale
        self.resamples = 0  # resample_from_infostate calls on this state, for its draws

    # ------------------------------------------------------------------ chance: the deal

    def _dealing(self) -> tuple[str, tuple[Any, ...]] | None:
        """What chance deals next, and from what is left; ``None`` once dealt."""
        rules, players = self.rules, self.players
        if len(self.deck) < rules.sales(players):
            left = [c for c in rules.companies(players) if c not in self.deck]
            return "tile", tuple(left)
        if len(self.nations) < players:
            return "nation", tuple(n for n in rules.nations(players) if n not in self.nations)
        if len(self.industries) < players:
            chosen = self.industries
            return "industry", tuple(i for i in rules.industries(players) if i not in chosen)
        if self.game is None:
            return "first auctioneer", tuple(range(players))
        return None

    def _code(self, kind: str, item: Any) -> int:
        if kind == "tile":
            return COMPANIES.index(item)
        if kind == "nation":
            return _NATIONS.index(item)
        if kind == "industry":
            return _INDUSTRIES.index(item)
        return int(item)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the next deal, all equally likely."""
        dealing = self._dealing()
        if dealing is None:
            raise InvalidArgument("the deal is over: this is not a chance node")
        kind, left = dealing
        return [(self._code(kind, item), 1.0 / len(left)) for item in left]

    def _deal(self, action: int) -> None:
        dealing = self._dealing()
        assert dealing is not None
        kind = dealing[0]
        if kind == "tile":
            self.deck.append(COMPANIES[action])
        elif kind == "nation":
            self.nations.append(_NATIONS[action])
        elif kind == "industry":
            self.industries.append(_INDUSTRIES[action])
        else:
            self.game = new_game(
                self.rules,
                self.players,
                deck=self.deck,
                nations=self.nations,
                industries=self.industries,
                first_auctioneer=action,
            )
            self.turn = Turn(self.game)

    # ------------------------------------------------------------------ the seats

    def current_player(self) -> int:
        """The seat to act, or chance, or terminal."""
        if self.game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        assert self.turn is not None
        return self.turn.waiting[0]

    def _legal_actions(self, player: int) -> list[int]:
        """The actions the mask of ``player``'s view allows (none for a held seat)."""
        if self.game is None or self.turn is None or player not in self.turn.waiting:
            return []
        mask = encode.action_mask(self.game.view(player))
        return [int(action) for action in np.flatnonzero(mask)]

    def apply_action(self, action: Any) -> None:
        """Play ``action`` (OpenSpiel's ``apply_action``), checked first here, so that a
        number no C++ int holds is refused as any other illegal action is."""
        self._check_action(action)
        super().apply_action(int(action))

    def _check_action(self, action: Any) -> int:
        """``action`` as an int if it is legal now: an outcome of the deal, or an action of
        the seat to act; else :class:`~qe_rules.IllegalAction` (or
        :class:`~qe_rules.InvalidArgument` for what is no whole number)."""
        if not isinstance(action, int | np.integer) or isinstance(action, bool):
            raise InvalidArgument(f"an action is a whole number, got {shown(action)}")
        number = int(action)
        if self.game is None:
            if number not in {code for code, _ in self.chance_outcomes()}:
                raise IllegalAction(
                    f"{shown(number)} is not an outcome of this deal; chance_outcomes() lists them"
                )
            return number
        if self.is_terminal():
            raise IllegalAction(f"the game is over: no action is legal, got {shown(number)}")
        assert self.turn is not None
        if not engine_allows(self.game, self.turn.waiting[0], number):
            raise IllegalAction(
                f"seat {self.turn.waiting[0]} cannot take action {shown(number)} now; "
                "legal_actions() lists the legal ones"
            )
        return number

    def _apply_action(self, action: int) -> None:
        """Play ``action``: a deal, or the action of the seat to act. An action that is
        not one of the legal ones raises :class:`~qe_rules.IllegalAction` and changes
        nothing."""
        action = self._check_action(action)
        if self.game is None:
            self._deal(action)
            return
        turn = self.turn
        assert turn is not None
        seat = turn.waiting.pop(0)
        public = self.game.phase is Phase.OPENING and len(turn.actions) == 0 and not turn.waiting
        self.moves.append(f"{seat}:{action}" if public else f"{seat}:*")
        turn.actions[seat] = action
        if turn.waiting:
            return
        before = self.game
        if before.phase is Phase.PEEKING:  # the window's answers are seen once all are in
            peeked = tuple(s for s, answer in sorted(turn.actions.items()) if answer == encode.PEEK)
            self.windows.append(peeked)
            self.moves.append("peeked:" + ",".join(map(str, peeked)))
        self.game = after = turn.play(before)
        if after.sale != before.sale:
            self.rebids = []
        elif after.phase is Phase.REBIDDING and before.phase is not Phase.PEEKING:
            self.rebids.append(tuple(sorted(after.to_act)))
        self.turn = turn.next(before, after)
        self.truncated = self.turn.rounds >= self.max_rounds

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            dealing = self._dealing()
            kind = "deal" if dealing is None else dealing[0]
            return f"{kind} {action}"
        what = encode.action_bid(action)
        return f"seat {player}: " + (f"bid {what}" if isinstance(what, int) else what)

    def is_terminal(self) -> bool:
        """Whether the game is over (or was cut short by endless ties)."""
        return self.game is not None and (self.game.is_over or self.truncated)

    def returns(self) -> list[float]:
        """Each seat's ``1 / len(winners)`` if it won a finished game, else ``0``."""
        shares = [0.0] * self.players
        if self.game is not None and self.game.is_over:
            winners = self.game.result().winners
            for seat in winners:
                shares[seat] = 1.0 / len(winners)
        return shares

    def information_state(self, player: int) -> str:
        """``player``'s perfect-recall information state (``information_state_string``)."""
        if self.game is None:
            return f"seat {player}: dealing, {len(self.history())} dealt"
        return text.view_text(self.game.view(player)) + "\nmoves: " + " ".join(self.moves)

    def resample_from_infostate(self, player: int, sampler: Callable[[], float]) -> QEState:
        """A state ``player`` cannot tell from this one, its hidden parts drawn with the
        numbers of ``sampler`` (a callable giving floats in ``[0, 1)``)."""
        self.resamples += 1
        rng = random.Random(f"{float(sampler())!r}/{self.resamples}")
        return self.resampled(player, rng)

    def resampled(self, player: int, rng: random.Random) -> QEState:
        """:meth:`resample_from_infostate` with the draws of ``rng``: the deal and the
        moves of a drawn game played from a new initial state, so the state has its own
        history."""
        if self.game is None or self.turn is None:
            raise InvalidArgument("no seat decides during the deal: nothing to resample")
        game = determinize(
            self.game.view(player),
            rng,
            ruleset=self.rules,
            most=encode.BID_CAP,
            peeks=self.windows,
            rebids=self.rebids,
        )
        state: QEState = self.get_game().new_initial_state()
        industries = [game.view(seat).industry for seat in range(self.players)]
        for tile in game.deck[: len(self.deck)]:
            state.apply_action(COMPANIES.index(tile))
        for nation in game.nations:
            state.apply_action(_NATIONS.index(nation))
        for industry in industries:
            state.apply_action(_INDUSTRIES.index(industry))
        state.apply_action(game.first_auctioneer)
        moves = game.to_record()["moves"]
        while moves:
            assert state.turn is not None
            block, moves = moves[: len(state.turn.waiting)], moves[len(state.turn.waiting) :]
            for move in sorted(block, key=lambda move: move["seat"]):
                state.apply_action(_action_of(move))
        assert state.game is not None and state.turn is not None
        held = self.turn.actions
        for seat in sorted(held):
            own = held[seat] if seat == player else None
            state.apply_action(
                _drawn_action(state.game, seat, rng, self.rules) if own is None else own
            )
        return state

    def __str__(self) -> str:
        if self.game is None:
            dealt = " ".join(map(str, self.deck))
            return f"dealing: {dealt} | {' '.join(n.code for n in self.nations)}"
        return text.game_text(self.game)


def _action_of(move: dict[str, Any]) -> int:
    """The action of a move of a game record."""
    kind = move["move"]
    if kind == "peek":
        return encode.PEEK
    if kind == "decline-peek":
        return encode.DECLINE_PEEK
    return int(move["amount"])


def _drawn_action(game: Game, seat: int, rng: random.Random, rules: RuleSet) -> int:
    """An action of ``seat`` in ``game`` as a value agent would take it (the nearest
    legal one within the actions)."""
    agent = ValueAgent(rng.getrandbits(31), ruleset=rules)
    view = game.view(seat)
    if game.phase is Phase.PEEKING:
        return encode.PEEK if agent.wants_peek(view) else encode.DECLINE_PEEK
    legal = np.flatnonzero(encode.action_mask(view))
    wanted = agent.bid(view)
    return int(legal[np.argmin(np.abs(legal - wanted))])


def resampler(seed: int) -> Callable[[QEState, int], QEState]:
    """A resampler for ``ISMCTSBot.set_resampler`` drawing from ``random.Random(seed)``:
    the bot's search is then the same for the same seed. (``ISMCTSBot`` otherwise asks
    :meth:`QEState.resample_from_infostate` with a sampler of its own, seeded afresh.)"""
    rng = random.Random(seed)

    def resample(state: QEState, player: int) -> QEState:
        return state.resampled(player, rng)

    return resample


class QEInformationStateObserver:
    """A seat's perfect-recall information state: a string, no tensor."""

    def __init__(self) -> None:
        self.tensor = np.zeros(0, np.float32)
        self.dict = {"information_state": self.tensor}

    def set_from(self, state: QEState, player: int) -> None:
        """Refused: the game has no information-state tensor."""
        raise InvalidArgument(
            "python_qe has no information-state tensor; use information_state_string, "
            "or observation_tensor (the encoding of the seat's view, not perfect recall)"
        )

    def string_from(self, state: QEState, player: int) -> str:
        """``player``'s information state (:meth:`QEState.information_state`)."""
        return state.information_state(player)


class QEObserver:
    """A seat's observation: the encoding of its view, and its view as text."""

    def __init__(self) -> None:
        self.tensor = np.zeros(encode.OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: QEState, player: int) -> None:
        """Fill :attr:`tensor` from ``player``'s view (zeros during the deal)."""
        if state.game is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = encode.observation(state.game.view(player))

    def string_from(self, state: QEState, player: int) -> str:
        """``player``'s view as text (the deal so far: only its count)."""
        if state.game is None:
            return f"seat {player}: dealing, {len(state.history())} dealt"
        return text.view_text(state.game.view(player))


pyspiel.register_game(GAME_TYPE, QEGame)
