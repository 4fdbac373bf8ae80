"""What a web table page shows beside the picture, made on the server in the reader's
language from one view and event stream: the status line and whose turn it is, the last
sale's summary, the known spending totals, the table as HTML for narrow screens, the final
standings, and the kind of each log line (for the history filter).

Every piece is made from the view and events it is given, so a seat's page holds nothing
its view does not; every text that came from a person (a name) is escaped.

>>> import qe_rules as qe
>>> game = qe.new_game("en", 4, seed=3).bid(0, 4).bid(1, 6).bid(2, 0).bid(3, 2)
>>> extra = panel_data(game.view(1), game.events_for(1), lang="de")
>>> extra["turn"], "Versteigerung 1" in extra["summary"]
(True, True)
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from qe_rules._util.i18n import DEFAULT_LANGUAGE, gettext_for
from qe_rules.components import Company
from qe_rules.game.events import (
    Awarded,
    Event,
    NotAwarded,
    PeekDeclined,
    Peeked,
    SaleOpened,
    Tie,
    ZeroBids,
)
from qe_rules.game.scoring import GameResult, score_board_rows
from qe_rules.game.views import Phase, PlayerView, PublicView, SaleView
from qe_rules.present.text import placing, placing_text, seat_name, zero_bids_score
from qe_rules.rules.model import RuleSet

__all__ = ["log_kinds", "panel_data", "status_text"]

_View = PlayerView | PublicView


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _own(view: _View) -> int | None:
    return view.seat if isinstance(view, PlayerView) else None


def status_text(
    view: _View, lang: str = DEFAULT_LANGUAGE, names: Sequence[str] | None = None
) -> str:
    """The page's status line: who won at the end, else what this seat owes or whom the
    table waits for."""
    _ = gettext_for(lang)

    def who(seats: Sequence[int]) -> str:
        return ", ".join(seat_name(s, names, lang) for s in seats) or _("nobody")

    if view.phase is Phase.OVER and view.result is not None:
        winners = view.result.winners
        if len(winners) == 1:
            return _("The game is over: {seat} won.").format(seat=who(winners))
        if not winners:
            return _("The game is over: nobody won.")
        return _("The game is over: no single winner ({seats} are level).").format(
            seats=who(winners)
        )
    waiting = _("Waiting for {seats}.").format(seats=who(sorted(view.to_act)))
    seat = _own(view)
    if not isinstance(view, PlayerView) or seat not in view.to_act:
        return waiting
    if view.can_peek:
        return _("You may peek now.")
    if view.limits is not None:
        if seat in view.tied:
            return _("You are tied: rebid.")
        if view.opening_bid is None and view.auctioneer == seat:
            return _("Your opening bid.")
        return _("Your secret bid.")
    return waiting


def log_kinds(events: Sequence[Event]) -> list[str]:
    """For each event its kind (``sale``, ``bid``, ``tie``, ``result``, ``peek``, ``end``)
    and the seats it names, as ``kind:seat,seat``, for the page's history filter.

    >>> from qe_rules.game.events import Tie
    >>> log_kinds([Tie(sale=0, seats=(1, 3), ties=1)])
    ['tie:1,3']
    """
    kinds = []
    for event in events:
        seats: list[int] = []
        if isinstance(event, SaleOpened):
            kind = "sale"
            seats = [] if event.auctioneer is None else [event.auctioneer]
        elif isinstance(event, Tie):
            kind, seats = "tie", list(event.seats)
        elif isinstance(event, Awarded):
            kind, seats = "result", [event.seat]
        elif isinstance(event, NotAwarded):
            kind = "result"
        elif isinstance(event, ZeroBids):
            kind, seats = "result", list(event.seats)
        elif isinstance(event, Peeked | PeekDeclined):
            kind, seats = "peek", [event.seat]
        elif hasattr(event, "seat"):
            kind, seats = "bid", [int(event.seat)]
        else:
            kind = "end"
        kinds.append(f"{kind}:{','.join(map(str, seats))}")
    return kinds


def _tile(company: Company, lang: str, size: str = "") -> str:
    industry = gettext_for(lang)(company.industry.label)
    return (
        f'<span class="tile {size} n-{company.nation.code} i-{company.industry.code}" '
        f'title="{_e(company)} · {_e(industry)}">'
        f'<b class="band">{_e(industry if size else company.industry.code)}</b>'
        f'<span class="vp">{company.vp}</span><span class="nat">{company.nation.code}</span></span>'
    )


def _known_spending(view: _View) -> list[tuple[int, int]]:
    """Per seat: (the amounts it paid that this view knows, the number it paid unseen)."""
    known = [[0, 0] for _ in range(view.players)]
    for sale in view.history:
        if sale.winner is None:
            continue
        if sale.amount is None:
            known[sale.winner][1] += 1
        else:
            known[sale.winner][0] += sale.amount
    own = _own(view)
    if own is not None and isinstance(view, PlayerView):
        known[own] = [view.spent, 0]
    return [(k, u) for k, u in known]


def _spending_text(known: int, unseen: int, lang: str) -> str:
    _ = gettext_for(lang)
    if unseen:
        return _("{known} known + {count} secret").format(known=known, count=unseen)
    return str(known)


def _summary(view: _View, lang: str, names: Sequence[str] | None) -> str:
    """The last finished sale: who won, what this seat knows of the amount, the opening
    bid, zero bids, ties, the auctioneer's view of the bids (ties marked) and a peek."""
    _ = gettext_for(lang)
    if not view.history:
        return ""
    sale: SaleView = view.history[-1]
    parts = [
        f"<h3>{_e(_('Last sale: sale {sale}').format(sale=sale.sale + 1))} {_tile(sale.company, lang)}</h3>"
    ]
    lines = []
    if sale.winner is None:
        lines.append(
            _("Not awarded ({reason}).").format(reason=(_(sale.reason) if sale.reason else ""))
        )
    else:
        winner = seat_name(sale.winner, names, lang)
        amount = _("a secret amount") if sale.amount is None else str(sale.amount)
        if sale.winner == _own(view):
            lines.append(_("You won it for {amount}.").format(amount=amount))
        else:
            lines.append(_("Won by {seat} for {amount}.").format(seat=winner, amount=amount))
        if sale.peeked and sale.peeked_amount is not None and sale.amount is None:
            # the peek showed the highest bid, which a tie made more than the price
            lines.append(
                _("You peeked: the highest bid was {amount}.").format(amount=sale.peeked_amount)
            )
        elif sale.peeked and sale.amount is not None:
            lines.append(
                _("You peeked: {seat} paid {amount}.").format(seat=winner, amount=sale.amount)
            )
    if sale.opening_bid is not None and sale.auctioneer is not None:
        lines.append(
            _("Opening bid {amount} by {seat}.").format(
                amount=sale.opening_bid, seat=seat_name(sale.auctioneer, names, lang)
            )
        )
    if sale.zero_bidders:
        zero = ", ".join(seat_name(s, names, lang) for s in sale.zero_bidders)
        lines.append(_("Zero bids: {seats}.").format(seats=zero))
    for tie in sale.ties:
        tied = ", ".join(seat_name(s, names, lang) for s in tie)
        lines.append(_("Tie between {seats}: they bid again.").format(seats=tied))
    if sale.my_bids:
        lines.append(_("Your bids: {bids}.").format(bids=", ".join(map(str, sale.my_bids))))
    parts.append("<ul>" + "".join(f"<li>{_e(line)}</li>" for line in lines) + "</ul>")
    for number, bids in enumerate(sale.bids):
        amounts = [a for _s, a in bids]
        cells = "".join(
            f'<li class="{"tied" if amounts.count(a) > 1 else ""}">'
            f"{_e(seat_name(s, names, lang))}: <b>{a}</b></li>"
            for s, a in bids
        )
        heading = _("Bids of bidding round {number} (you ran the sale)").format(number=number + 1)
        parts.append(f'<p class="hint">{_e(heading)}</p><ul class="bids">{cells}</ul>')
    return "".join(parts)


def _totals(view: _View, lang: str, names: Sequence[str] | None) -> str:
    _ = gettext_for(lang)
    rows = []
    own = _own(view)
    for seat, (known, unseen) in enumerate(_known_spending(view)):
        name = seat_name(seat, names, lang) + (" " + _("(you)") if seat == own else "")
        tiles = len(view.holdings[seat])
        rows.append(
            f'<tr class="{"you" if seat == own else ""}"><th>{_e(name)}</th>'
            f"<td>{_e(_spending_text(known, unseen, lang))}</td><td>{tiles}</td></tr>"
        )
    head = f"<tr><th></th><th>{_e(_('spent (known)'))}</th><th>{_e(_('tiles'))}</th></tr>"
    return f'<table class="totals">{head}{"".join(rows)}</table>'


def _board(view: _View, lang: str, names: Sequence[str] | None, zero: bool) -> str:
    """The table as HTML: the tile on sale with its facts, then a card per seat."""
    _ = gettext_for(lang)
    own = _own(view)
    out = ['<section class="onsale">']
    if view.company is None:
        out.append(f"<h3>{_e(_('Game over'))}</h3>")
    else:
        auctioneer = (
            _("none (last tile)")
            if view.auctioneer is None
            else seat_name(view.auctioneer, names, lang)
        )
        opening = _("awaited") if view.opening_bid is None else str(view.opening_bid)
        facts = [
            (_("auctioneer"), auctioneer),
            (_("opening bid"), opening),
            (_("to act"), ", ".join(seat_name(s, names, lang) for s in sorted(view.to_act))),
        ]
        if view.tied:
            facts.append((_("tied"), ", ".join(seat_name(s, names, lang) for s in view.tied)))
        status = _("round {round} · sale {sale} of {sales} · {remaining} left after it").format(
            round=view.round + 1, sale=view.sale + 1, sales=view.sales, remaining=view.remaining
        )
        out.append(f'<h3>{_e(_("On sale"))}</h3><p class="hint">{_e(status)}</p>')
        out.append(_tile(view.company, lang, "big"))
        out.append(
            "<dl>" + "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in facts) + "</dl>"
        )
    out.append("</section>")
    for seat in range(view.players):
        classes = ["seatcard"]
        marks = []
        if seat == own:
            classes.append("you")
            marks.append(_("you"))
        if seat == view.auctioneer and view.phase is not Phase.OVER:
            marks.append(_("auctioneer"))
        if seat in view.to_act:
            classes.append("to-act")
            marks.append(_("to act"))
        token = None
        if view.industries is not None:
            token = view.industries[seat]
        elif seat == own and isinstance(view, PlayerView):
            token = view.industry
        token_html = (
            ""
            if token is None
            else f'<span class="chip i-{token.code}">{_e(_(token.label))}</span>'
        )
        nation = view.nations[seat].code
        notes = []
        if zero:
            notes.append(_("zero-bid rounds {count}").format(count=view.zero_bid_rounds[seat]))
        if view.peeks_used[seat]:
            notes.append(_("peeks {count}").format(count=view.peeks_used[seat]))
        held = sorted(view.holdings[seat], key=lambda c: (c.nation.code, c.industry.code, c.vp))
        tiles = (
            "".join(_tile(c, lang) for c in held)
            or f'<span class="hint">{_e(_("no tiles yet"))}</span>'
        )
        out.append(
            f'<article class="{" ".join(classes)}"><header>'
            f'<span class="chip n-{nation}">{nation}</span> '
            f"<b>{_e(seat_name(seat, names, lang))}</b> "
            f"<small>{_e(' · '.join(marks))}</small> {token_html}</header>"
            f'<div class="tiles">{tiles}</div>'
            f'<p class="hint">{_e(" · ".join(notes))}</p></article>'
        )
    return "".join(out)


def _standings(
    result: GameResult,
    own: int | None,
    lang: str,
    names: Sequence[str] | None,
    order: RuleSet | None,
    holdings: Sequence[Sequence[Company]],
) -> str:
    """At the end: this seat's placing, then every category of every seat, and the tiles
    each seat won."""
    _ = gettext_for(lang)
    out = []
    if own is not None:
        out.append(f'<p class="placing">{_e(placing_text(result, own, lang=lang))}</p>')
    rows = score_board_rows(result, None if order is None else order.scoring_order)
    heads = "".join(
        f'<th class="{"winner" if s in result.winners else ""}{" you" if s == own else ""}">'
        f"{_e(seat_name(s, names, lang))}"
        f"{'<br><small>' + _e(_('(you)')) + '</small>' if s == own else ''}</th>"
        for s in range(len(result.sheets))
    )
    body = []
    for label, values in rows:
        strong = label in ("subtotal", "total")
        cells = "".join(
            f'<td class="{"out" if label == "total" and result.sheets[s].eliminated else ""}">'
            f"{_e(_(v) if v == 'out' else v)}</td>"
            for s, v in enumerate(values)
        )
        body.append(f'<tr class="{"strong" if strong else ""}"><th>{_e(_(label))}</th>{cells}</tr>')
    places = "".join(f"<td>{placing(result, s)}.</td>" for s in range(len(result.sheets)))
    body.append(f'<tr class="strong"><th>{_e(_("place"))}</th>{places}</tr>')
    won = "".join(
        f"<li><b>{_e(seat_name(s, names, lang))}</b> "
        f"{''.join(_tile(c, lang) for c in held) or '-'}</li>"
        for s, held in enumerate(holdings)
    )
    out.append(
        f'<div class="scroll"><table class="scores"><tr><th></th>{heads}</tr>{"".join(body)}</table></div>'
        f'<h4>{_e(_("tiles won"))}</h4><ul class="won">{won}</ul>'
    )
    return "".join(out)


def panel_data(
    view: _View,
    events: Sequence[Event],
    *,
    lang: str = DEFAULT_LANGUAGE,
    names: Sequence[str] | None = None,
    ruleset: RuleSet | None = None,
) -> dict[str, Any]:
    """The page's pieces beside the picture, made from ``view`` and ``events`` only:
    ``status``, ``turn`` (this seat owes a move), ``summary`` (HTML), ``totals`` (HTML),
    ``board`` (HTML), ``standings`` (HTML, at the end) and ``log_kinds``."""
    own = _own(view)
    zero = zero_bids_score(ruleset or view.ruleset, view.players)
    standings = ""
    if view.result is not None:
        standings = _standings(view.result, own, lang, names, ruleset, view.holdings)
    return {
        "status": status_text(view, lang, names),
        "turn": own is not None and own in view.to_act,
        "summary": _summary(view, lang, names),
        "totals": _totals(view, lang, names),
        "board": _board(view, lang, names, zero),
        "standings": standings,
        "log_kinds": log_kinds(events),
    }
