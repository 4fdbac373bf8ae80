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
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import pyspiel

from qe_rules.components import COMPANIES, Company, Industry, Nation
from qe_rules.game.engine import Game, new_game
from qe_rules.learning import encode
from qe_rules.learning.pettingzoo_env import Turn
from qe_rules.limits import ROUNDS_PER_SALE
from qe_rules.present import text
from qe_rules.rules.model import RuleSet, TieFallback, get_ruleset

__all__ = ["GAME_TYPE", "QEGame", "QEState"]

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
    provides_information_state_string=False,
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
        params = {**_DEFAULTS, **(params or {})}
        self.rules: RuleSet = get_ruleset(params["ruleset"])
        self.players: int = self.rules.check_players(params["players"])
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
    ) -> QEObserver:
        """The observer of a seat's view: its encoding as the tensor, its text as string."""
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
        assert dealing is not None
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

    def _apply_action(self, action: int) -> None:
        if self.game is None:
            self._deal(action)
            return
        turn = self.turn
        assert turn is not None
        seat = turn.waiting.pop(0)
        turn.actions[seat] = action
        if turn.waiting:
            return
        before = self.game
        self.game = turn.play(before)
        self.turn = turn.next(before, self.game)
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

    def __str__(self) -> str:
        if self.game is None:
            dealt = " ".join(map(str, self.deck))
            return f"dealing: {dealt} | {' '.join(n.code for n in self.nations)}"
        return text.game_text(self.game)


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
