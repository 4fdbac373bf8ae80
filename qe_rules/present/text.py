"""Games as plain text: a seat's view, one finished sale, a whole game sale by sale, and
one event as a line.

Used by the terminal game, the web table's log, the learning environments' ``ansi``
rendering and OpenSpiel's observation strings.

>>> import qe_rules as qe
>>> print(view_text(qe.new_game("en", 3, seed=1).view(0)).splitlines()[0])
QE · rule set en · 3 players · round 1 · sale 1 of 16 · 15 left after it
"""

from __future__ import annotations

from collections.abc import Sequence

from qe_rules._util.text import table
from qe_rules.components import Company
from qe_rules.game.engine import Game
from qe_rules.game.events import (
    Awarded,
    Event,
    GameEnded,
    NotAwarded,
    OpeningBid,
    PeekDeclined,
    Peeked,
    SaleOpened,
    SecretBid,
    Tie,
    ZeroBids,
)
from qe_rules.game.views import Phase, PlayerView, SaleView
from qe_rules.limits import MAX_BID

__all__ = ["bid_range", "event_line", "game_text", "sale_text", "view_text"]


def _tile(company: Company) -> str:
    return f"{company} ({company.nation.code} {company.industry.label}, {company.vp} VP)"


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(f"seat {s}" for s in seats) or "nobody"


def _amount(amount: int | None) -> str:
    return "a secret amount" if amount is None else str(amount)


def event_line(event: Event) -> str:
    """One event as a line of text, as the web table's log shows it (sales counted from 1).

    >>> event_line(SecretBid(sale=0, seat=2, amount=None, rebid=0))
    'sale 1: seat 2 bids a secret amount'
    """
    head = f"sale {event.sale + 1}: " if hasattr(event, "sale") else ""
    if isinstance(event, SaleOpened):
        auctioneer = "no auctioneer" if event.auctioneer is None else f"seat {event.auctioneer}"
        return f"{head}{event.company} on sale, auctioneer {auctioneer}"
    if isinstance(event, OpeningBid):
        return f"{head}seat {event.seat} opens at {event.amount}"
    if isinstance(event, SecretBid):
        verb = "rebids" if event.rebid else "bids"
        return f"{head}seat {event.seat} {verb} {_amount(event.amount)}"
    if isinstance(event, Tie):
        return f"{head}tie between {_seats(event.seats)}: they rebid"
    if isinstance(event, Awarded):
        return f"{head}seat {event.seat} wins {event.company} for {_amount(event.amount)}"
    if isinstance(event, NotAwarded):
        return f"{head}{event.company} is not sold ({event.reason})"
    if isinstance(event, ZeroBids):
        return f"{head}zero bids: {_seats(event.seats)}"
    if isinstance(event, Peeked):
        return f"{head}seat {event.seat} peeks at the amount ({_amount(event.amount)})"
    if isinstance(event, PeekDeclined):
        return f"{head}seat {event.seat} declines to peek"
    if isinstance(event, GameEnded):
        return "the game is over"
    return str(event)


def bid_range(view: PlayerView) -> str:
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
        elif isinstance(event, PeekDeclined):
            lines.append(f"  seat {event.seat} declines to peek at sale {event.sale + 1}")
    flush()
    if game.is_over:
        lines += ["", str(game.result())]
    else:
        lines += ["", f"The record stops during sale {game.sale + 1}; the game is not over."]
    return "\n".join(lines)
