"""What a view read from data must agree with: the state of a game the engine could be in.

:meth:`PlayerView.from_dict` and :meth:`PublicView.from_dict` read a view's fields one by
one and check their shapes (:mod:`qe_rules.game.views`); :func:`check_view` then checks
the view against its rule set, from the engine's own facts (the deck size, each sale's
round and auctioneer, the scoring): the phase and the result in agreement, the sales so
far in order, each seat's holdings the tiles the history shows it winning, the tile on
sale held by nobody, counts within what the sales so far could give, and at the end a
result equal to the scoring of the holdings shown.
"""

from __future__ import annotations

from typing import Final

from qe_rules._util.reading import agree
from qe_rules.game._state import _constants
from qe_rules.game.scoring import score_holdings
from qe_rules.game.views import Phase, PlayerView, PublicView, SaleView
from qe_rules.rules.model import RuleSet

__all__ = ["check_view"]

_ACTING: Final = frozenset({Phase.OPENING, Phase.BIDDING, Phase.REBIDDING})


def check_view(view: PlayerView | PublicView, rules: RuleSet, where: str) -> None:
    """Raise :class:`~qe_rules.InvalidArgument` (a disagreement) where ``view`` is no
    state of a game of ``rules`` that the engine could be in."""
    players = view.players
    agree(
        players in rules.player_counts,
        f"{where}.players",
        f"{rules.id} is played by {', '.join(map(str, rules.player_counts))} players, "
        f"not {players}",
    )
    constants = _constants(rules, players)
    sales = constants.sales
    agree(
        view.sales == sales, f"{where}.sales", f"a {players}-player game of {rules.id} has {sales}"
    )
    for seat, nation in enumerate(view.nations):
        agree(
            nation in constants.nations_in_play,
            f"{where}.nations[{seat}]",
            f"{nation.code} is not in play with {players} players",
        )
    if view.industries is not None:
        for seat, industry in enumerate(view.industries):
            _check_token(industry, constants.industries_in_play, f"{where}.industries[{seat}]")
        agree(len(set(view.industries)) == players, f"{where}.industries", "repeat a token")
    _check_phase(view, sales, where)
    _check_sales(view, rules, where)
    _check_counts(view, rules, where)
    if isinstance(view, PlayerView):
        _check_seat(view, constants.industries_in_play, where)
    if view.result is not None and view.industries is not None:
        scored = score_holdings(
            rules,
            view.nations,
            view.industries,
            view.holdings,
            [sheet.spent for sheet in view.result.sheets],
            view.zero_bid_rounds,
        )
        agree(
            view.result == scored,
            f"{where}.result",
            "differs from the scoring of the holdings, tokens, spends and zero bids shown",
        )


def _check_token(industry: object, in_play: tuple[object, ...], where: str) -> None:
    agree(industry in in_play, where, "is not a token in play")


def _check_phase(view: PlayerView | PublicView, sales: int, where: str) -> None:
    """The phase, the seats to act and the sale in agreement."""
    phase, to_act = view.phase, view.to_act
    over = phase is Phase.OVER
    agree(
        (view.result is not None) is over and (view.industries is not None) is over,
        f"{where}.phase",
        f"is {phase.value!r}, but the result and every token are shown exactly when the "
        "game is over",
    )
    agree(
        view.sale <= sales and (view.sale < sales or phase in (Phase.OVER, Phase.PEEKING)),
        f"{where}.sale",
        f"sale {view.sale} of {sales} is under way in phase {phase.value!r}",
    )
    agree(
        (view.sale == sales) is (view.company is None),
        f"{where}.company",
        "a tile is on sale exactly until the deck is sold",
    )
    remaining = 0 if over or view.sale == sales else sales - view.sale - 1
    agree(view.remaining == remaining, f"{where}.remaining", f"the sales so far leave {remaining}")
    agree(bool(to_act) is not over, f"{where}.to_act", "seats act exactly until the game is over")
    if phase is not Phase.REBIDDING:
        agree(not view.tied, f"{where}.tied", "a tie is rebid only in phase 'rebidding'")
    if phase in (Phase.OVER, Phase.PEEKING, Phase.OPENING):
        agree(
            view.opening_bid is None,
            f"{where}.opening_bid",
            f"no opening bid is made yet in phase {phase.value!r}",
        )
    if phase is Phase.OPENING:
        agree(
            view.auctioneer is not None and to_act == {view.auctioneer},
            f"{where}.to_act",
            "only the auctioneer acts before the opening bid",
        )
    elif phase in (Phase.BIDDING, Phase.REBIDDING):
        agree(
            (view.opening_bid is None) is (view.auctioneer is None),
            f"{where}.opening_bid",
            "a sale with an auctioneer has an opening bid once secret bids are made",
        )
    if phase is Phase.BIDDING:
        agree(
            view.auctioneer not in to_act,
            f"{where}.to_act",
            "the auctioneer has made its bid, the opening bid",
        )
    if phase is Phase.REBIDDING:
        agree(bool(view.tied) and view.ties >= 1, f"{where}.tied", "a rebid follows a tie")


def _check_sales(view: PlayerView | PublicView, rules: RuleSet, where: str) -> None:
    """The finished sales in order, each with its round and auctioneer; the holdings the
    tiles the history shows each seat winning; the tile on sale not sold before."""
    players = view.players
    constants = _constants(rules, players)
    shared = constants.shared_sales[view.first_auctioneer]
    deck = frozenset(constants.companies)
    history = view.history
    agree(
        len(history) == view.sale,
        f"{where}.history",
        f"sale {view.sale} follows {view.sale} finished sales, got {len(history)}",
    )
    seen = set()
    won: list[list[object]] = [[] for _ in range(players)]
    for number, sale in enumerate(history):
        at = f"{where}.history[{number}]"
        _check_sale(sale, number, shared[number].round, shared[number].auctioneer, at)
        agree(sale.company in deck, f"{at}.company", f"{sale.company} is not in the deck")
        agree(sale.company not in seen, f"{at}.company", f"{sale.company} was sold before")
        seen.add(sale.company)
        if sale.winner is not None:
            won[sale.winner].append(sale.company)
    for seat in range(players):
        agree(
            list(view.holdings[seat]) == won[seat],
            f"{where}.holdings[{seat}]",
            "differ from the tiles the history shows the seat winning",
        )
    current = shared[min(view.sale, len(shared) - 1)]
    agree(
        view.round == current.round,
        f"{where}.round",
        f"sale {view.sale} is of round {current.round}",
    )
    auctioneer = (
        None if view.sale >= constants.sales or view.phase is Phase.OVER else current.auctioneer
    )
    agree(
        view.auctioneer == auctioneer,
        f"{where}.auctioneer",
        f"sale {view.sale} is run by {'nobody' if auctioneer is None else f'seat {auctioneer}'}",
    )
    if view.company is not None:
        agree(view.company in deck, f"{where}.company", f"{view.company} is not in the deck")
        agree(view.company not in seen, f"{where}.company", f"{view.company} was sold before")


def _check_sale(
    sale: SaleView, number: int, round_: int, auctioneer: int | None, where: str
) -> None:
    agree(sale.sale == number, f"{where}.sale", f"is {sale.sale}, not {number}")
    agree(sale.round == round_, f"{where}.round", f"sale {number} is of round {round_}")
    agree(
        sale.auctioneer == auctioneer,
        f"{where}.auctioneer",
        f"sale {number} is run by {'nobody' if auctioneer is None else f'seat {auctioneer}'}",
    )
    agree(
        (sale.opening_bid is None) is (auctioneer is None),
        f"{where}.opening_bid",
        "a sale has an opening bid exactly when it has an auctioneer",
    )
    agree(
        sale.winner is not None or sale.amount is None,
        f"{where}.amount",
        "a tile nobody won has no amount",
    )
    agree(
        sale.winner is not None or sale.reason is not None,
        f"{where}.reason",
        "a tile nobody won says why",
    )


def _check_counts(view: PlayerView | PublicView, rules: RuleSet, where: str) -> None:
    """Zero-bid scorings and peeks within what the rules and the sales so far allow."""
    players = view.players
    zeros = min(rules.max_zero_bid_scorings(players), len(view.history))
    for seat, count in enumerate(view.zero_bid_rounds):
        agree(
            count <= zeros,
            f"{where}.zero_bid_rounds[{seat}]",
            f"{count} is more than the {zeros} zero-bid scorings {len(view.history)} sales allow",
        )
    peeks = rules.peeks_per_player if rules.has_peek(players) else 0
    for seat, count in enumerate(view.peeks_used):
        agree(
            count <= peeks,
            f"{where}.peeks_used[{seat}]",
            f"{count} is more than the {peeks} peeks a seat has",
        )


def _check_seat(view: PlayerView, in_play: tuple[object, ...], where: str) -> None:
    """A seat's own fields: its token in play, its spend the amounts of the tiles it won
    (it knows each), its limits exactly when it is to bid."""
    _check_token(view.industry, in_play, f"{where}.industry")
    amounts = [sale.amount for sale in view.history if sale.winner == view.seat]
    agree(
        None not in amounts,
        f"{where}.history",
        "a seat knows the amount of every tile it won",
    )
    spent = sum(amount for amount in amounts if amount is not None)
    agree(
        view.spent == spent,
        f"{where}.spent",
        f"is {view.spent}, but the tiles the seat won cost {spent}",
    )
    if view.result is not None:
        agree(
            view.result.sheets[view.seat].spent == view.spent,
            f"{where}.spent",
            "differs from the seat's sheet in the result",
        )
    bids = view.seat in view.to_act and view.phase in _ACTING
    agree(
        (view.limits is not None) is bids,
        f"{where}.limits",
        "are given exactly when the seat is to bid",
    )
    agree(
        not view.can_peek or (view.phase is Phase.PEEKING and view.seat in view.to_act),
        f"{where}.can_peek",
        "a seat may peek only in the peek window, when it is to act",
    )
