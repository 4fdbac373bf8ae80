"""What one player may know: :class:`PlayerView` and :class:`SaleView`; what a spectator
may know: :class:`PublicView`.

``Game.view(seat)`` builds a view from the public state and that seat's own knowledge
only, ``Game.public_view()`` from the public state alone; a view holds no reference to
the game. ``to_dict()`` gives JSON types, ready to send to a client, and ``from_dict()``
reads them back.

Public to everyone: the rule set, seats and nations, the companies each seat won, the
current company, how many tiles remain (not their order), opening bids, ties and who is
tied, winners, zero bids where they are revealed (4-5 players), who is in the peek window
and who peeked or declined, and the amount when the auctioneer won. Known only to the seat: its industry token, its own bids
and spend, every bid of a sale it ran (once a bidding round is complete), the amounts of
the companies it won, and what it peeked at (the winning amount or, after a tie under a
reading of the peek that shows the highest bid, that bid: ``SaleView.peeked_amount``). At the end of the game the scoring is
public: every token, spend and score sheet.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any, Final, NamedTuple, TypeVar

from qe_rules._util.display import svg_of
from qe_rules._util.reading import (
    ARGUMENTS,
    MAX_PLAYERS,
    Fields,
    agree,
    at_most,
    flag,
    listed,
    one_of,
    per_seat,
    seats,
    text,
    whole,
)
from qe_rules.components import COMPANIES, Company, Industry, Nation
from qe_rules.game.sales import UNSOLD_REASONS, BidLimits
from qe_rules.game.scoring import GameResult, given_rules, named_rules, score_holdings
from qe_rules.limits import MAX_BID
from qe_rules.rules.model import RuleSet

__all__ = ["Phase", "PlayerView", "PublicView", "SaleView"]


class Phase(enum.Enum):
    """Where the current sale stands."""

    OPENING = "opening"
    """Waiting for the auctioneer's opening bid."""
    BIDDING = "bidding"
    """Waiting for first secret bids (on a last tile without auctioneer: everyone's)."""
    REBIDDING = "rebidding"
    """Waiting for rebids after a tie."""
    PEEKING = "peeking"
    """The peek window (5 players): the sale just awarded had a secret amount, and the
    next opening bid waits until every seat that may peek at it has peeked or declined."""
    OVER = "over"
    """The deck is empty."""


class SaleView(NamedTuple):
    """A finished sale as one seat (or a spectator) knows it.

    ``amount`` is ``None`` when the seat may not know it (or nobody won); ``bids`` holds
    every bid by bidding round, as ``(seat, amount)``, only for the seat that ran the sale.
    ``peeked`` says that the seat peeked at the sale and ``peeked_amount`` what the peek
    showed: the winning amount, or, where the rule set's peek shows the highest bid, that
    bid, which after a tie can be more than the price (then ``amount`` stays ``None``).
    A spectator's sale has no ``my_bids``, no ``bids`` and no peek.
    """

    sale: int
    round: int
    company: Company
    auctioneer: int | None
    opening_bid: int | None
    ties: tuple[tuple[int, ...], ...]
    winner: int | None
    amount: int | None
    reason: str | None
    zero_bidders: tuple[int, ...]
    my_bids: tuple[int, ...]
    bids: tuple[tuple[tuple[int, int], ...], ...]
    peeked: bool
    peeked_amount: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The sale as JSON types; :meth:`from_dict` reads it back."""
        return {
            "sale": self.sale,
            "round": self.round,
            "company": str(self.company),
            "auctioneer": self.auctioneer,
            "opening_bid": self.opening_bid,
            "ties": [list(t) for t in self.ties],
            "winner": self.winner,
            "amount": self.amount,
            "reason": self.reason,
            "zero_bidders": list(self.zero_bidders),
            "my_bids": list(self.my_bids),
            "bids": [[list(bid) for bid in rnd] for rnd in self.bids],
            "peeked": self.peeked,
            "peeked_amount": self.peeked_amount,
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "sale") -> SaleView:
        """Read the output of :meth:`to_dict`; raises :class:`~qe_rules.InvalidArgument`
        naming the key that is missing, unknown or wrong."""
        fields = Fields(data, where, _SALE_KEYS)
        get, optional = fields.get, fields.optional
        sale = cls(
            sale=get("sale", _sale_number),
            round=get("round", _sale_number),
            company=get("company", _company),
            auctioneer=optional("auctioneer", _seat),
            opening_bid=optional("opening_bid", _amount),
            ties=get("ties", _seat_lists),
            winner=optional("winner", _seat),
            amount=optional("amount", _amount),
            reason=optional("reason", text),
            zero_bidders=get("zero_bidders", _seat_list),
            my_bids=get("my_bids", _amounts),
            bids=get("bids", _bidding_rounds),
            peeked=get("peeked", flag),
            peeked_amount=optional("peeked_amount", _amount),
        )
        sale._check_outcome(where)
        return sale

    def _check_outcome(self, where: str) -> None:
        """Check that the sale's outcome agrees with itself: a reason exactly when nobody
        won (one of the engine's), an amount only when someone did, each tie a set of
        seats named once, no more bidding rounds than ties allow."""
        sold = self.winner is not None
        agree(
            (self.reason is None) is sold,
            f"{where}.reason",
            "a sale has a reason exactly when nobody won it",
        )
        agree(
            self.reason is None or self.reason in UNSOLD_REASONS,
            f"{where}.reason",
            f"is one of {', '.join(UNSOLD_REASONS)}, got {self.reason!r}",
        )
        agree(sold or self.amount is None, f"{where}.amount", "a tile nobody won has no amount")
        for index, tie in enumerate(self.ties):
            agree(
                bool(tie) and list(tie) == sorted(set(tie)),
                f"{where}.ties[{index}]",
                "a tie names its seats once each, in order",
            )
        agree(
            list(self.zero_bidders) == sorted(set(self.zero_bidders)),
            f"{where}.zero_bidders",
            "names each seat once, in order",
        )
        rounds = len(self.ties) + 1
        agree(
            len(self.my_bids) <= rounds and len(self.bids) <= rounds,
            f"{where}.bids",
            f"a sale with {len(self.ties)} ties has at most {rounds} bidding rounds",
        )

    def _check_seats(self, players: int, where: str) -> None:
        """Check that every seat the sale names is one of ``players``."""
        named = [self.auctioneer, self.winner, *self.zero_bidders]
        named += [seat for tie in self.ties for seat in tie]
        named += [seat for rnd in self.bids for seat, _ in rnd]
        seats(named, players, where)


_SALE_KEYS: Final = SaleView._fields
bidding_pair = ARGUMENTS.pair
_company = one_of({str(c): c for c in COMPANIES}, "a tile code such as 'US-FIN-2'")
_nation = one_of({n.code: n for n in Nation}, "one of " + ", ".join(repr(n.code) for n in Nation))
_industry = one_of(
    {i.name: i for i in Industry}, "one of " + ", ".join(repr(i.name) for i in Industry)
)


_seat = at_most(MAX_PLAYERS - 1, "a game has at most 5 seats")
_amount = at_most(MAX_BID, "qe_rules.limits.MAX_BID")
_sale_number = at_most(len(COMPANIES) * 3, "a deck has at most 63 tiles")
_spent = at_most(len(COMPANIES) * MAX_BID, "21 winning bids of at most MAX_BID")


def _seat_list(value: Any, where: str) -> tuple[int, ...]:
    return listed(value, where, _seat)


def _amounts(value: Any, where: str) -> tuple[int, ...]:
    return listed(value, where, _amount)


def _seat_lists(value: Any, where: str) -> tuple[tuple[int, ...], ...]:
    return listed(value, where, _seat_list)


def _bid(value: Any, where: str) -> tuple[int, int]:
    seat, amount = bidding_pair(value, where)
    agree(seat < MAX_PLAYERS, where, f"seat {seat} is not a seat")
    agree(amount <= MAX_BID, where, f"a bid is at most MAX_BID ({MAX_BID}), got {amount}")
    return seat, amount


def _bidding_rounds(value: Any, where: str) -> tuple[tuple[tuple[int, int], ...], ...]:
    return listed(value, where, lambda rnd, at: listed(rnd, at, _bid))


def _limits(value: Any, where: str) -> BidLimits:
    fields = Fields(value, where, ("minimum", "forbidden"))
    # the smallest legal amount may be one above MAX_BID only in a game nobody can move on
    return BidLimits(fields.get("minimum", _amount), fields.optional("forbidden", _amount))


_phase = one_of({p.value: p for p in Phase}, "one of " + ", ".join(repr(p.value) for p in Phase))


class PlayerView(NamedTuple):
    """Everything ``seat`` may know about the game now (an immutable record).

    Seats, sales and rounds count from 0. The fields up to ``result`` are public, the same
    for every seat (they are :class:`PublicView`'s); the rest are the seat's own.
    ``limits`` is set when the seat is to bid: the smallest legal amount and an amount it
    may not bid (the opening bid, where the rule set forbids equalling it). ``can_peek``
    is set when the seat is in the peek window and may peek (phase ``PEEKING``).
    ``seen_bids`` holds the completed bidding rounds of the current sale when this seat
    runs it. ``industries`` and ``result`` are set once the game is over.
    """

    ruleset: str
    players: int
    nations: tuple[Nation, ...]
    first_auctioneer: int
    sales: int
    sale: int
    round: int
    phase: Phase
    auctioneer: int | None
    company: Company | None
    remaining: int
    to_act: frozenset[int]
    opening_bid: int | None
    tied: tuple[int, ...]
    ties: int
    holdings: tuple[tuple[Company, ...], ...]
    zero_bid_rounds: tuple[int, ...]
    peeks_used: tuple[int, ...]
    industries: tuple[Industry, ...] | None
    result: GameResult | None
    seat: int
    industry: Industry
    spent: int
    my_bids: tuple[int, ...]
    seen_bids: tuple[tuple[tuple[int, int], ...], ...]
    limits: BidLimits | None
    can_peek: bool
    history: tuple[SaleView, ...]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.OVER

    def _repr_svg_(self) -> str:
        return svg_of(self)

    def _repr_html_(self) -> str:
        return f'<div class="qe-rules">{self._repr_svg_()}</div>'

    @property
    def to_bid(self) -> bool:
        """Whether this seat's bid is awaited (in the peek window nobody bids)."""
        return self.seat in self.to_act and self.phase is not Phase.PEEKING

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON types only (dict, list, str, int, bool, None);
        :meth:`from_dict` reads it back."""
        return {
            "seat": self.seat,
            **_public_dict(self),
            "industry": self.industry.name,
            "spent": self.spent,
            "my_bids": list(self.my_bids),
            "seen_bids": [[list(bid) for bid in rnd] for rnd in self.seen_bids],
            "limits": None
            if self.limits is None
            else {"minimum": self.limits.minimum, "forbidden": self.limits.forbidden},
            "can_peek": self.can_peek,
            "history": [sale.to_dict() for sale in self.history],
        }

    @classmethod
    def from_dict(cls, data: Any, *, ruleset: RuleSet | str | None = None) -> PlayerView:
        """Read the output of :meth:`to_dict`; raises :class:`~qe_rules.InvalidArgument`
        naming the key that is missing, unknown or wrong, or the fields that disagree.

        A view is accepted only where it is a state the engine could be in under its
        rule set (``docs/limits.md`` lists what is checked): the rule set the document
        names, or, for a rule set loaded from a file, the one given as ``ruleset``.

        >>> import qe_rules as qe
        >>> view = qe.new_game("en", 4, seed=1).view(2)
        >>> qe.PlayerView.from_dict(view.to_dict()) == view
        True
        """
        fields = Fields(data, "view", _VIEW_KEYS)
        get, optional = fields.get, fields.optional
        rules = _rules_of(fields, ruleset)
        view = cls(
            **_public_fields(fields, rules),
            seat=get("seat", _seat),
            industry=get("industry", _industry),
            spent=get("spent", _spent),
            my_bids=get("my_bids", _amounts),
            seen_bids=get("seen_bids", _bidding_rounds),
            limits=optional("limits", _limits),
            can_peek=get("can_peek", flag),
            history=get("history", _history),
        )
        _check_public(view, "view")
        seats([view.seat], view.players, "view.seat")
        seats([s for rnd in view.seen_bids for s, _ in rnd], view.players, "view.seen_bids")
        if view.industries is not None:
            agree(
                view.industries[view.seat] is view.industry,
                "view.industry",
                "differs from the seat's token in view.industries",
            )
        _check_game(view, rules, "view")
        return view


class PublicView(NamedTuple):
    """What someone watching the table knows now: a spectator, a replay viewer, a
    broadcast. The public fields of :class:`PlayerView`, and the finished sales with only
    their public amounts (the auctioneer's wins)."""

    ruleset: str
    players: int
    nations: tuple[Nation, ...]
    first_auctioneer: int
    sales: int
    sale: int
    round: int
    phase: Phase
    auctioneer: int | None
    company: Company | None
    remaining: int
    to_act: frozenset[int]
    opening_bid: int | None
    tied: tuple[int, ...]
    ties: int
    holdings: tuple[tuple[Company, ...], ...]
    zero_bid_rounds: tuple[int, ...]
    peeks_used: tuple[int, ...]
    industries: tuple[Industry, ...] | None
    result: GameResult | None
    history: tuple[SaleView, ...]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.OVER

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON types only; :meth:`from_dict` reads it back."""
        return {**_public_dict(self), "history": [sale.to_dict() for sale in self.history]}

    @classmethod
    def from_dict(cls, data: Any, *, ruleset: RuleSet | str | None = None) -> PublicView:
        """Read the output of :meth:`to_dict`; raises :class:`~qe_rules.InvalidArgument`
        naming the key that is missing, unknown or wrong, or the fields that disagree
        (as :meth:`PlayerView.from_dict` does)."""
        fields = Fields(data, "public view", _PUBLIC_VIEW_KEYS)
        rules = _rules_of(fields, ruleset)
        view = cls(**_public_fields(fields, rules), history=fields.get("history", _history))
        _check_public(view, "public view")
        _check_game(view, rules, "public view")
        return view


def _public_dict(view: PlayerView | PublicView) -> dict[str, Any]:
    """The public fields of a view as JSON types."""
    return {
        "ruleset": view.ruleset,
        "players": view.players,
        "nations": [n.code for n in view.nations],
        "first_auctioneer": view.first_auctioneer,
        "sales": view.sales,
        "sale": view.sale,
        "round": view.round,
        "phase": view.phase.value,
        "auctioneer": view.auctioneer,
        "company": None if view.company is None else str(view.company),
        "remaining": view.remaining,
        "to_act": sorted(view.to_act),
        "opening_bid": view.opening_bid,
        "tied": list(view.tied),
        "ties": view.ties,
        "holdings": [[str(c) for c in held] for held in view.holdings],
        "zero_bid_rounds": list(view.zero_bid_rounds),
        "peeks_used": list(view.peeks_used),
        "industries": None if view.industries is None else [i.name for i in view.industries],
        "result": None if view.result is None else view.result.to_dict(),
    }


def _rules_of(fields: Fields, ruleset: object) -> RuleSet:
    """The rule set of a view document: the one it names, or the one given."""
    return named_rules(fields.get("ruleset", text), given_rules(ruleset), f"{fields.where}.ruleset")


def _public_fields(fields: Fields, rules: RuleSet) -> dict[str, Any]:
    """The public fields of a view read from JSON, by name (its result scored under
    ``rules``)."""
    get, optional = fields.get, fields.optional
    return {
        "ruleset": get("ruleset", text),
        "players": get("players", _players),
        "nations": get("nations", lambda v, at: listed(v, at, _nation)),
        "first_auctioneer": get("first_auctioneer", _seat),
        "sales": get("sales", _sale_number),
        "sale": get("sale", _sale_number),
        "round": get("round", _sale_number),
        "phase": get("phase", _phase),
        "auctioneer": optional("auctioneer", _seat),
        "company": optional("company", _company),
        "remaining": get("remaining", _sale_number),
        "to_act": frozenset(get("to_act", _seat_list)),
        "opening_bid": optional("opening_bid", _amount),
        "tied": get("tied", _seat_list),
        "ties": get("ties", whole),
        "holdings": get(
            "holdings", lambda v, at: listed(v, at, lambda h, a: listed(h, a, _company))
        ),
        "zero_bid_rounds": get("zero_bid_rounds", _sale_number_list),
        "peeks_used": get("peeks_used", _sale_number_list),
        "industries": optional("industries", lambda v, at: listed(v, at, _industry)),
        "result": optional("result", lambda v, at: GameResult.from_dict(v, at, ruleset=rules)),
    }


def _sale_number_list(value: Any, where: str) -> tuple[int, ...]:
    return listed(value, where, _sale_number)


_players = at_most(MAX_PLAYERS, "a game has 2 to 5 players", least=2)


def _check_public(view: PlayerView | PublicView, where: str) -> None:
    """Check that the public fields of a view agree with each other: one entry per seat
    in every per-seat list, every seat named among the players, the sale within the
    deck, each tile held once."""
    players = view.players
    for key in ("nations", "holdings", "zero_bid_rounds", "peeks_used"):
        per_seat(getattr(view, key), players, f"{where}.{key}")
    if view.industries is not None:
        per_seat(view.industries, players, f"{where}.industries")
    agree(len(set(view.nations)) == players, f"{where}.nations", "repeats a nation")
    for key in ("first_auctioneer", "auctioneer"):
        seats([getattr(view, key)], players, f"{where}.{key}")
    seats(view.to_act, players, f"{where}.to_act")
    seats(view.tied, players, f"{where}.tied")
    agree(view.sale <= view.sales, f"{where}.sale", f"is beyond the {view.sales} sales")
    agree(view.remaining <= view.sales, f"{where}.remaining", "is more than the sales")
    held = [tile for tiles in view.holdings for tile in tiles]
    agree(len(set(held)) == len(held), f"{where}.holdings", "holds a tile twice")
    if view.result is not None:
        per_seat(view.result.sheets, players, f"{where}.result.sheets")
    for index, sale in enumerate(view.history):
        sale._check_seats(players, f"{where}.history[{index}]")


# --------------------------------------------------------------------------- a state of a game
#
# What a view read from data must agree with, beyond the shape of each field: a state of a
# game the engine could be in under its rule set: the phase and the result in agreement,
# the sales so far in order (each with its round and auctioneer), each seat's holdings the
# tiles the history shows it winning, the tile on sale held by nobody, counts within what
# the sales so far allow, and at the end a result equal to the scoring of what is shown.

_ACTING: Final = frozenset({Phase.OPENING, Phase.BIDDING, Phase.REBIDDING})


def _check_game(view: PlayerView | PublicView, rules: RuleSet, where: str) -> None:
    """Raise :class:`~qe_rules.InvalidArgument` (a disagreement) where ``view`` is no
    state of a game of ``rules`` that the engine could be in."""
    players = view.players
    agree(
        players in rules.player_counts,
        f"{where}.players",
        f"{rules.id} is played by {', '.join(map(str, rules.player_counts))} players, "
        f"not {players}",
    )
    sales = rules.sales(players)
    agree(
        view.sales == sales, f"{where}.sales", f"a {players}-player game of {rules.id} has {sales}"
    )
    tokens = rules.industries(players)
    for seat, nation in enumerate(view.nations):
        agree(
            nation in rules.nations(players),
            f"{where}.nations[{seat}]",
            f"{nation.code} is not in play with {players} players",
        )
    if view.industries is not None:
        for seat, industry in enumerate(view.industries):
            _check_token(industry, tokens, f"{where}.industries[{seat}]")
        agree(len(set(view.industries)) == players, f"{where}.industries", "repeat a token")
    _check_phase(view, sales, where)
    _check_sales(view, rules, where)
    _check_counts(view, rules, where)
    if isinstance(view, PlayerView):
        _check_seat(view, tokens, where)
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
    players, first = view.players, view.first_auctioneer
    deck = frozenset(rules.companies(players))
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
        _check_sale(
            sale,
            number,
            rules.round_of_sale(players, number),
            rules.auctioneer_of_sale(players, first, number),
            at,
        )
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
    sales = rules.sales(players)
    round_ = rules.round_of_sale(players, min(view.sale, sales - 1))
    agree(view.round == round_, f"{where}.round", f"sale {view.sale} is of round {round_}")
    auctioneer = rules.auctioneer_of_sale(players, first, view.sale)
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


def _history(value: Any, where: str) -> tuple[SaleView, ...]:
    return listed(value, where, SaleView.from_dict)


_VIEW_KEYS: Final = PlayerView._fields
_PUBLIC_VIEW_KEYS: Final = PublicView._fields


# --------------------------------------------------------------------------- making views

_View = TypeVar("_View", bound=tuple[Any, ...])


def _split_fields(cls: type[_View], shared: tuple[str, ...]) -> tuple[tuple[str, ...], list[str]]:
    """The fields of the NamedTuple ``cls``, and those of them not in ``shared``."""
    fields: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
    unknown = set(shared) - set(fields)
    assert not unknown, f"{cls.__name__} has no field {sorted(unknown)}"
    return fields, [name for name in fields if name not in shared]


def _maker(cls: type[_View], shared: tuple[str, ...]) -> Callable[..., _View]:
    """A constructor of the NamedTuple ``cls``, ``make(source, **own)``, that takes the
    fields named in ``shared`` from the attributes of the same names of ``source`` and
    the others as keyword arguments: every field by name, at the cost of a call with only
    a few arguments.

    The engine makes a view for every decision, and a call with one keyword argument per
    field (28 for a :class:`PlayerView`) costs three times one with a few. The body is
    generated from ``cls._fields``, as ``collections.namedtuple`` generates ``__new__``,
    so it cannot put a value in the wrong field.
    """
    fields, own = _split_fields(cls, shared)
    values = ", ".join(f"source.{name}" if name in shared else name for name in fields)
    code = f"def make(source, *, {', '.join(own)}):\n    return new(cls, ({values},))\n"
    namespace: dict[str, Any] = {"new": tuple.__new__, "cls": cls}
    exec(compile(code, f"<make {cls.__name__}>", "exec"), namespace)
    make: Callable[..., _View] = namespace["make"]
    make.__doc__ = f"A {cls.__name__} from the attributes {shared} of a source and the others."
    return make


PUBLIC_FIELDS: Final = tuple(name for name in PublicView._fields if name != "history")
"""The fields every seat's view of one state shares (a spectator's too)."""

make_player_view: Final[Callable[..., PlayerView]] = _maker(PlayerView, PUBLIC_FIELDS)
"""``make_player_view(public, seat=..., industry=..., spent=..., my_bids=...,
seen_bids=..., limits=..., can_peek=..., history=...)``: a :class:`PlayerView` from the
:data:`PUBLIC_FIELDS` of ``public`` (attributes of those names) and the seat's own
fields."""

make_public_view: Final[Callable[..., PublicView]] = _maker(PublicView, PUBLIC_FIELDS)
"""``make_public_view(public, history=...)``: a :class:`PublicView` likewise."""

SALE_SHARED_FIELDS: Final = (
    "sale",
    "round",
    "company",
    "auctioneer",
    "opening_bid",
    "ties",
    "winner",
    "reason",
    "zero_bidders",
)
"""The fields of a :class:`SaleView` that are the same for every seat."""

make_sale_view: Final[Callable[..., SaleView]] = _maker(SaleView, SALE_SHARED_FIELDS)
"""``make_sale_view(shared, amount=..., my_bids=..., bids=..., peeked=...,
peeked_amount=...)``: a
:class:`SaleView` from the :data:`SALE_SHARED_FIELDS` of ``shared`` (attributes of those
names) and one seat's own fields."""


def _each_maker(cls: type[_View], shared: tuple[str, ...]) -> Callable[..., list[_View]]:
    """A constructor of several ``cls`` at once, ``make_each(source, **own)``: each keyword
    names one of the other fields and gives a sequence with one value per record; the
    fields named in ``shared`` are read from ``source`` once, for all of them.

    Generated from ``cls._fields`` as :func:`_maker` is. The sequences must be equally long
    (they are not checked: the engine makes them one item per seat).
    """
    fields, own = _split_fields(cls, shared)
    lines = [f"def make_each(source, *, {', '.join(own)}):"]
    lines += [f"    {name}_ = source.{name}" for name in shared]
    lines.append("    made = []")
    lines.append(f"    for {', '.join(n + '_' for n in own)} in zip({', '.join(own)}):")
    lines.append(f"        made.append(new(cls, ({', '.join(n + '_' for n in fields)},)))")
    lines.append("    return made")
    namespace: dict[str, Any] = {"new": tuple.__new__, "cls": cls}
    exec(compile("\n".join(lines) + "\n", f"<make each {cls.__name__}>", "exec"), namespace)
    make_each: Callable[..., list[_View]] = namespace["make_each"]
    make_each.__doc__ = f"Several {cls.__name__} sharing the attributes {shared} of a source."
    return make_each


make_sale_views: Final[Callable[..., list[SaleView]]] = _each_maker(SaleView, SALE_SHARED_FIELDS)
"""``make_sale_views(shared, amount=[...], my_bids=[...], bids=[...], peeked=[...],
peeked_amount=[...])``: one
:class:`SaleView` per seat, from the :data:`SALE_SHARED_FIELDS` of ``shared`` and each
seat's own fields (``amount[seat]`` and so on)."""
