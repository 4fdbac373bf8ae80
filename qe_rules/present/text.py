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

from qe_rules._util.i18n import DEFAULT_LANGUAGE, gettext_for
from qe_rules._util.tables import table
from qe_rules.components import Company
from qe_rules.errors import RulesError
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
from qe_rules.game.scoring import GameResult, score_board_rows
from qe_rules.game.views import Phase, PlayerView, SaleView
from qe_rules.limits import MAX_BID
from qe_rules.rules.model import Category, RuleSet, get_ruleset

__all__ = [
    "bid_range",
    "error_text",
    "event_line",
    "game_text",
    "placing",
    "placing_text",
    "sale_text",
    "score_board_text",
    "seat_name",
    "view_text",
    "zero_bids_score",
]


def _tile(company: Company, lang: str = DEFAULT_LANGUAGE) -> str:
    _ = gettext_for(lang)
    return _("{tile} ({nation} {industry}, {vp} VP)").format(
        tile=company, nation=company.nation.code, industry=_(company.industry.label), vp=company.vp
    )


def seat_name(seat: int, names: Sequence[str] | None = None, lang: str = DEFAULT_LANGUAGE) -> str:
    """What a seat is called for people: its name from ``names`` if it has one, else
    ``seat 3`` for seat 2 (in ``lang``): people count seats from 1, the library from 0."""
    if names is not None and seat < len(names) and names[seat]:
        return names[seat]
    return gettext_for(lang)("seat {seat}").format(seat=seat + 1)


def _seats(
    seats: Sequence[int], lang: str = DEFAULT_LANGUAGE, names: Sequence[str] | None = None
) -> str:
    return ", ".join(seat_name(s, names, lang) for s in seats) or gettext_for(lang)("nobody")


def _amount(amount: int | None, lang: str = DEFAULT_LANGUAGE) -> str:
    return gettext_for(lang)("a secret amount") if amount is None else str(amount)


def event_line(
    event: Event, *, lang: str = DEFAULT_LANGUAGE, names: Sequence[str] | None = None
) -> str:
    """One event as a line of text, as the web table's log shows it (sales counted from 1),
    in ``lang``, seats called by ``names`` where given.

    >>> event_line(SecretBid(sale=0, seat=2, amount=None, rebid=0))  # seat 2 is the third
    'sale 1: seat 3 bids a secret amount'
    >>> event_line(SecretBid(sale=0, seat=2, amount=None, rebid=0), lang="de", names=["A", "B", "Cy"])
    'Versteigerung 1: Cy bietet einen geheimen Betrag'
    """
    _ = gettext_for(lang)
    head = _("sale {sale}: ").format(sale=event.sale + 1) if hasattr(event, "sale") else ""

    def who(seat: int) -> str:
        return seat_name(seat, names, lang)

    if isinstance(event, SaleOpened):
        auctioneer = _("no auctioneer") if event.auctioneer is None else who(event.auctioneer)
        text = _("{tile} on sale, auctioneer {auctioneer}")
        return head + text.format(tile=event.company, auctioneer=auctioneer)
    if isinstance(event, OpeningBid):
        return head + _("{seat} opens at {amount}").format(
            seat=who(event.seat), amount=event.amount
        )
    if isinstance(event, SecretBid):
        text = _("{seat} rebids {amount}") if event.rebid else _("{seat} bids {amount}")
        return head + text.format(seat=who(event.seat), amount=_amount(event.amount, lang))
    if isinstance(event, Tie):
        return head + _("tie between {seats}: they rebid").format(
            seats=_seats(event.seats, lang, names)
        )
    if isinstance(event, Awarded):
        return head + _("{seat} wins {tile} for {amount}").format(
            seat=who(event.seat), tile=event.company, amount=_amount(event.amount, lang)
        )
    if isinstance(event, NotAwarded):
        return head + _("{tile} is not sold ({reason})").format(
            tile=event.company, reason=_(event.reason)
        )
    if isinstance(event, ZeroBids):
        return head + _("zero bids: {seats}").format(seats=_seats(event.seats, lang, names))
    if isinstance(event, Peeked):
        if event.amount is None:
            return head + _("{seat} peeks at the amount").format(seat=who(event.seat))
        return head + _("{seat} peeks at the amount ({amount})").format(
            seat=who(event.seat), amount=event.amount
        )
    if isinstance(event, PeekDeclined):
        return head + _("{seat} declines to peek").format(seat=who(event.seat))
    if isinstance(event, GameEnded):
        return _("the game is over")
    return str(event)


def bid_range(view: PlayerView, *, lang: str = DEFAULT_LANGUAGE) -> str:
    """The legal range of this seat's bid, e.g. ``from 1 to 1000000, not 7``."""
    assert view.limits is not None
    _ = gettext_for(lang)
    text = _("from {minimum} to {maximum}").format(minimum=view.limits.minimum, maximum=MAX_BID)
    if view.limits.forbidden is not None:
        text += _(", not {amount}").format(amount=view.limits.forbidden)
    return text


def zero_bids_score(ruleset: str | RuleSet, players: int) -> bool:
    """Whether zero bids can score in this game (a rule set unknown here: assumed so)."""
    if isinstance(ruleset, str):
        try:
            ruleset = get_ruleset(ruleset)
        except RulesError:
            return True
    return ruleset.has_zero_bid_points(players)


def view_text(
    view: PlayerView,
    *,
    lang: str = DEFAULT_LANGUAGE,
    names: Sequence[str] | None = None,
    ruleset: RuleSet | None = None,
) -> str:
    """What ``view.seat`` knows, as lines of text: the sale, every seat's nation, tiles,
    zero-bid rounds (where zero bids score) and peeks, then the seat's own token, spend and
    bids, and, for the auctioneer, the bids of the sale.  ``ruleset`` is the game's rule
    set when it is not a built-in one."""
    _ = gettext_for(lang)
    head = _("QE · rule set {ruleset} · {players} players").format(
        ruleset=view.ruleset, players=view.players
    )
    if view.phase is Phase.OVER:
        lines = [head + _(" · game over after {sales} sales").format(sales=view.sales)]
    else:
        lines = [
            head
            + _(" · round {round} · sale {sale} of {sales} · {remaining} left after it").format(
                round=view.round + 1, sale=view.sale + 1, sales=view.sales, remaining=view.remaining
            )
        ]
    if view.company is not None:
        auctioneer = (
            _("none (last tile)")
            if view.auctioneer is None
            else seat_name(view.auctioneer, names, lang)
        )
        opening = _("awaited") if view.opening_bid is None else str(view.opening_bid)
        lines.append(
            _("On sale: {tile} · auctioneer {auctioneer} · opening bid {opening}").format(
                tile=_tile(view.company, lang), auctioneer=auctioneer, opening=opening
            )
        )
        waiting = _("To act: {seats}").format(seats=_seats(sorted(view.to_act), lang, names))
        if view.tied:
            waiting += _(" · tied, rebidding: {seats}").format(seats=_seats(view.tied, lang, names))
        lines.append(waiting)
    zero = zero_bids_score(ruleset or view.ruleset, view.players)
    rows = []
    for seat in range(view.players):
        marks = []
        if seat == view.seat:
            marks.append(_("you"))
        if seat == view.auctioneer and view.phase is not Phase.OVER:
            marks.append(_("auctioneer"))
        token = ""
        if view.industries is not None:
            token = _(view.industries[seat].label)
        elif seat == view.seat:
            token = _(view.industry.label)
        row: list[object] = [seat_name(seat, names, lang), view.nations[seat].code]
        row += [", ".join(marks), token]
        if zero:
            row.append(view.zero_bid_rounds[seat])
        row.append(view.peeks_used[seat])
        rows.append(row)
    header = ["", _("nation"), "", _("token")]
    if zero:
        header.append(_("zero-bid rounds"))
    header.append(_("peeks"))
    tiles = [_("tiles"), *(" ".join(map(str, held)) or "-" for held in view.holdings)]
    columns = table(header, rows, left=4)
    width = max(map(len, columns))
    lines.append("")
    lines += [f"{line.ljust(width)}  {held}" for line, held in zip(columns, tiles, strict=True)]
    mine = [
        _("You: {seat}, token {token}, spent {spent}").format(
            seat=seat_name(view.seat, names, lang), token=_(view.industry.label), spent=view.spent
        )
    ]
    if view.my_bids:
        mine.append(_("your bids this sale: ") + ", ".join(map(str, view.my_bids)))
    lines += ["", " · ".join(mine)]
    for number, bids in enumerate(view.seen_bids):
        lines.append(_bidding_round(number, bids, lang, names))
    return "\n".join(lines)


def _bidding_round(
    number: int,
    bids: Sequence[tuple[int, int]],
    lang: str,
    names: Sequence[str] | None,
) -> str:
    _ = gettext_for(lang)
    shown = ", ".join(
        _("{seat} bid {amount}").format(seat=seat_name(s, names, lang), amount=a) for s, a in bids
    )
    return _("bidding round {number}: ").format(number=number + 1) + shown


def sale_text(
    sale: SaleView, *, lang: str = DEFAULT_LANGUAGE, names: Sequence[str] | None = None
) -> str:
    """One finished sale as a seat knows it, in one line; the auctioneer's text adds the
    bids it saw (lines after the first), and a peek's answer is told with the sale."""
    _ = gettext_for(lang)
    text = _("Sale {sale} ({tile}): ").format(sale=sale.sale + 1, tile=sale.company)
    if sale.winner is None:
        return text + _("not awarded ({reason})").format(
            reason=(_(sale.reason) if sale.reason else "")
        )
    text += _("{seat} won it for {amount}").format(
        seat=seat_name(sale.winner, names, lang), amount=_amount(sale.amount, lang)
    )
    if sale.peeked and sale.peeked_amount is not None:
        if sale.amount is None:  # the peek showed a higher bid than the price
            text += _(" (you peeked: highest bid {amount})").format(amount=sale.peeked_amount)
        else:
            text += _(" (you peeked)")
    if sale.opening_bid is not None:
        text += _(" (opening bid {amount} by {seat})").format(
            amount=sale.opening_bid, seat=seat_name(sale.auctioneer or 0, names, lang)
        )
    if sale.zero_bidders:
        text += _("; zero bids: {seats}").format(seats=_seats(sale.zero_bidders, lang, names))
    for number, bids in enumerate(sale.bids):
        text += "\n  " + _bidding_round(number, bids, lang, names)
    return text


def score_board_text(
    result: GameResult,
    *,
    lang: str = DEFAULT_LANGUAGE,
    names: Sequence[str] | None = None,
    you: int | None = None,
    scoring_order: Sequence[Category] | None = None,
) -> str:
    """The score board as text in ``lang``, like ``result.score_board()``, the column of
    seat ``you`` marked; then the winner, and where ``you`` placed."""
    _ = gettext_for(lang)
    sheets = result.sheets
    heads = [seat_name(s, names, lang) for s in range(len(sheets))]
    if you is not None:
        heads[you] += " " + _("(you)")
    rows = [
        [_(label), *(_(value) if value == "out" else value for value in values)]
        for label, values in score_board_rows(result, scoring_order)
    ]
    text = [
        _("Rule set {ruleset}, {players} players").format(
            ruleset=result.ruleset, players=len(sheets)
        ),
        "",
        *table(["", *heads], rows),
        "",
    ]
    if result.winner is not None:
        text.append(
            _("Winner: {seat} ({nation})").format(
                seat=seat_name(result.winner, names, lang),
                nation=sheets[result.winner].nation.code,
            )
        )
    else:
        level = _seats(result.winners, lang, names)
        text.append(_("No single winner; still level: {seats}").format(seats=level))
    if you is not None:
        text.append(placing_text(result, you, lang=lang))
    text.extend(_("Rule gap {gap}").format(gap=gap.code) for gap in result.gaps)  # an id
    return "\n".join(text)


def placing(result: GameResult, seat: int) -> int:
    """``seat``'s place (1 = first): one more than the number of seats ahead of it. An
    eliminated seat places behind every seat still in; the winners share place 1."""
    if seat in result.winners:
        return 1

    def key(s: int) -> tuple[bool, int]:
        sheet = result.sheets[s]
        return (not sheet.eliminated, sheet.total)

    ahead = sum(1 for s in range(len(result.sheets)) if s in result.winners or key(s) > key(seat))
    return ahead + 1


def placing_text(result: GameResult, seat: int, *, lang: str = DEFAULT_LANGUAGE) -> str:
    """``You placed 2nd of 4 with 31 VP.`` (or that the seat was eliminated), in ``lang``."""
    _ = gettext_for(lang)
    sheet = result.sheets[seat]
    if sheet.eliminated:
        return _("You spent the most and are out of the game ({total} VP).").format(
            total=sheet.total
        )
    place = placing(result, seat)
    if place == 1 and result.winner == seat:
        return _("You won with {total} VP!").format(total=sheet.total)
    if place == 1:
        return _("You are level at the top with {total} VP.").format(total=sheet.total)
    return _("You placed {place} of {players} with {total} VP.").format(
        place=place, players=len(result.sheets), total=sheet.total
    )


def game_text(
    game: Game, *, lang: str = DEFAULT_LANGUAGE, names: Sequence[str] | None = None
) -> str:
    """A game sale by sale as the referee saw it, in ``lang``: every bid, tie, award,
    zero bid and peek, then the score board once the game is over."""
    _ = gettext_for(lang)

    def who(seat: int) -> str:
        return seat_name(seat, names, lang)

    lines = [
        _("QE · rule set {ruleset} · {players} players").format(
            ruleset=game.ruleset.id, players=game.players
        ),
        *table(
            ["", _("nation"), _("token")],
            [
                [who(s), game.nations[s].code, _(game.industries[s].label)]
                for s in range(game.players)
            ],
            left=3,
        ),
    ]
    bids: list[str] = []

    def flush() -> None:
        if bids:
            lines.append("  " + _("bids: {bids}").format(bids=", ".join(bids)))
            bids.clear()

    def say(text: str, **values: object) -> None:
        lines.append("  " + text.format(**values))

    for event in game.events:
        if isinstance(event, SaleOpened):
            auctioneer = (
                _("no auctioneer (last tile)")
                if event.auctioneer is None
                else _("auctioneer {seat}").format(seat=who(event.auctioneer))
            )
            sale = _("Sale {sale}: {tile}, {auctioneer}").format(
                sale=event.sale + 1, tile=_tile(event.company, lang), auctioneer=auctioneer
            )
            lines += ["", sale]
        elif isinstance(event, OpeningBid):
            say(_("opening bid {amount} by {seat}"), amount=event.amount, seat=who(event.seat))
        elif isinstance(event, SecretBid):
            bids.append(_("{seat} {amount}").format(seat=who(event.seat), amount=event.amount))
        elif isinstance(event, Tie):
            flush()
            say(_("tie between {seats}: they rebid"), seats=_seats(event.seats, lang, names))
        elif isinstance(event, Awarded):
            flush()
            paid = {
                (True, False): _("{seat} wins for {amount}, paid openly"),
                (False, False): _("{seat} wins for {amount}, paid secretly"),
                (True, True): _("{seat} wins for {amount}, paid openly (by the tie fallback)"),
                (False, True): _("{seat} wins for {amount}, paid secretly (by the tie fallback)"),
            }[event.public, event.fallback]
            say(paid, seat=who(event.seat), amount=event.amount)
        elif isinstance(event, NotAwarded):
            flush()
            say(_("not awarded: {reason}"), reason=_(event.reason))
        elif isinstance(event, ZeroBids):
            if event.scoring != event.seats:
                say(
                    _("zero bids: {seats} (scoring: {scoring})"),
                    seats=_seats(event.seats, lang, names),
                    scoring=_seats(event.scoring, lang, names),
                )
            else:
                say(_("zero bids: {seats}"), seats=_seats(event.seats, lang, names))
        elif isinstance(event, Peeked):
            say(
                _("{seat} peeks at the amount of sale {sale}"),
                seat=who(event.seat),
                sale=event.sale + 1,
            )
        elif isinstance(event, PeekDeclined):
            say(
                _("{seat} declines to peek at sale {sale}"),
                seat=who(event.seat),
                sale=event.sale + 1,
            )
    flush()
    if game.is_over:
        board = score_board_text(
            game.result(), lang=lang, names=names, scoring_order=game.ruleset.scoring_order
        )
        lines += ["", board]
    else:
        lines += [
            "",
            _("The record stops during sale {sale}; the game is not over.").format(
                sale=game.sale + 1
            ),
        ]
    return "\n".join(lines)


def error_text(
    error: RulesError, *, lang: str = DEFAULT_LANGUAGE, names: Sequence[str] | None = None
) -> str:
    """An error about a move or a seat as a person reads it, in ``lang``: from its
    ``code`` and ``params`` (seats and sales counted from 1, seats called by ``names``);
    an error without such a code gives its English message.

    >>> import qe_rules as qe
    >>> try:
    ...     qe.new_game("en", 4, seed=1).bid(2, 3)
    ... except qe.RulesError as error:
    ...     print(error_text(error, lang="de"))
    Platz 3 kann jetzt nicht bieten: Versteigerung 1 wartet auf das Eröffnungsgebot von Platz 1, dem Auktionator.
    """
    _ = gettext_for(lang)
    params = dict(error.params)
    template = {
        "not-to-act": _(
            "{seat} cannot bid now: sale {sale} waits for the opening bid of {auctioneer}, "
            "the auctioneer."
        ),
        "waiting-for-peeks": _(
            "{seat} cannot bid now: sale {sale} waits until {waiting} answer the peek."
        ),
        "not-tied": _("{seat} is not tied in sale {sale}; only {tied} rebid."),
        "already-bid": _(
            "{seat} has already bid in this round of sale {sale}; waiting for {waiting}."
        ),
        "game-over": _("The game is over; no more moves are possible."),
        "bid-below-minimum": _("{seat}: the {bid} must be at least {minimum}, not {amount}."),
        "bid-equals-opening-bid": _(
            "{seat}: the {bid} may not equal the opening bid ({amount}) under these rules; "
            "bid any other whole number from {minimum}."
        ),
        "bid-too-large": _("{seat}: a bid is at most {maximum}."),
        "bid-out-of-range": _("A bid is a whole number from {minimum} to {maximum}, not {amount}."),
        "bid-not-a-whole-number": _("A bid is a whole number, not {value}."),
        "not-a-seat": _("A seat is one of the {players} seats at the table, not {value}."),
        "no-peek": _("These rules have no peek with {players} players."),
        "no-peek-window": _(
            "There is nothing to peek at now: a peek window opens when a sale is "
            "awarded at a secret amount."
        ),
        "peek-other-sale": _("A peek now looks at sale {sale}."),
        "peek-unsold": _("Nothing to peek at: sale {sale} was not awarded."),
        "peek-public": _("The amount of sale {sale} is public: its auctioneer won it."),
        "peek-ran-sale": _("{seat} ran sale {sale} and saw every bid."),
        "peek-won-sale": _("{seat} won sale {sale} and knows the amount."),
        "peek-seen": _("{seat} has already seen the amount of sale {sale}."),
        "peeks-used": _("{seat} has used every peek of this game."),
        "peek-declined": _("{seat} has already answered the peek at sale {sale}."),
        "peek-runs-sale": _("{seat} runs sale {sale} and will see every bid."),
        "no-peekable-sale": _("{seat} has no earlier sale whose amount it may see."),
        "peek-sale-not-over": _("Sale {sale} is not over yet."),
        "not-in-peek-window": _(
            "{seat} may peek only after a sale is awarded, before the next opening bid."
        ),
    }.get(error.code)
    if template is None:
        return str(error)
    for key in ("seat", "auctioneer"):
        if isinstance(params.get(key), int):
            params[key] = seat_name(params[key], names, lang)
    for key in ("waiting", "tied"):
        if isinstance(params.get(key), list):
            params[key] = _seats(params[key], lang, names)
    for key in ("sale", "last"):
        if isinstance(params.get(key), int):
            params[key] += 1
    if "bid" in params:
        kinds = {
            "opening bid": _("opening bid"),
            "secret bid": _("secret bid"),
            "rebid": _("rebid"),
        }
        params["bid"] = kinds.get(params["bid"], params["bid"])
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):  # params not as the code promises
        return str(error)
