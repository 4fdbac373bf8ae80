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
from collections.abc import Mapping, Sequence
from typing import Any

from qe_rules._util.i18n import DEFAULT_LANGUAGE, gettext_for
from qe_rules.components import Company
from qe_rules.errors import RulesError
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
from qe_rules.limits import MAX_BID
from qe_rules.present.text import placing, placing_text, seat_name, zero_bids_score
from qe_rules.rules.model import RuleSet, get_ruleset
from qe_rules.rules.values import FallbackFindsNoBid, FinalTieBreak, PeekShows
from qe_rules.texts.catalogs import catalog
from qe_rules.texts.rulebooks import field_sentence

__all__ = ["agent_label", "bid_help", "log_kinds", "move_refusal", "panel_data", "status_text"]

_View = PlayerView | PublicView


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _own(view: _View) -> int | None:
    return view.seat if isinstance(view, PlayerView) else None


def agent_label(kind: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """What people call a built-in agent, in ``lang`` (``value`` is ``steady``)."""
    _ = gettext_for(lang)
    labels = {
        "random": _("beginner"),
        "value": _("steady"),
        "trained": _("strong"),
        "zero": _("always zero"),
    }
    return labels.get(kind, kind)


def _named(
    seat: int, names: Sequence[str] | None, lang: str, away: Mapping[int, str] | None
) -> str:
    """A seat's name, with the agent that plays for it while its person is away."""
    _ = gettext_for(lang)
    name = seat_name(seat, names, lang)
    if away and seat in away:
        return _("{seat} (an agent plays)").format(seat=name)
    return name


def _bid_kind(view: PlayerView) -> str:
    """Which bid the seat owes: ``opening``, ``secret``, ``rebid`` or ``auctioneer-rebid``."""
    if view.auctioneer == view.seat:
        return "opening" if view.opening_bid is None else "auctioneer-rebid"
    return "rebid" if view.ties else "secret"


def bid_help(view: PlayerView, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any] | None:
    """For a seat that owes a bid: ``range`` (the legal amounts), ``low`` (why no smaller
    amount is allowed) and ``forbidden`` (why the forbidden amount is, or ``None``), in
    ``lang``; ``None`` when the seat owes no bid.

    >>> import qe_rules as qe
    >>> bid_help(qe.new_game("en", 4, seed=1).view(0))["low"]
    'Too low: an opening bid is at least 1.'
    """
    limits = view.limits
    if limits is None or view.seat not in view.to_act or view.can_peek:
        return None
    _ = gettext_for(lang)
    minimum, forbidden = limits.minimum, limits.forbidden
    kind = _bid_kind(view)
    least = {
        "opening": _("an opening bid is at least {minimum}."),
        "secret": _("a secret bid is at least {minimum}."),
        "rebid": _("a rebid after a tie is at least {minimum}."),
        "auctioneer-rebid": _("the auctioneer's rebid after a tie is at least {minimum}."),
    }[kind].format(minimum=minimum)
    values = {"minimum": minimum, "maximum": MAX_BID, "amount": forbidden}
    if forbidden is None:
        return {
            "range": _("Legal: from {minimum} to {maximum}.").format(**values),
            "low": _("Too low: {rule}").format(rule=least),
            "forbidden": None,
        }
    rule = {
        "secret": _("under these rules no secret bid may equal the opening bid ({amount})."),
        "rebid": _("under these rules no rebid may equal the opening bid ({amount})."),
        "auctioneer-rebid": _(
            "under these rules the auctioneer's rebid may not repeat the opening bid ({amount})."
        ),
    }.get(kind, _("under these rules no bid may equal the opening bid ({amount})."))
    return {
        "range": _("Legal: from {minimum} to {maximum}, not {amount}.").format(**values),
        "low": _("Too low: {rule}").format(rule=least),
        "forbidden": _("You may not bid {amount}: {rule}").format(
            amount=forbidden, rule=rule.format(amount=forbidden)
        ),
    }


def move_refusal(
    view: PlayerView,
    action: str,
    amount: object = None,
    *,
    lang: str = DEFAULT_LANGUAGE,
    names: Sequence[str] | None = None,
) -> str | None:
    """Why the seat of ``view`` may not make ``action`` (``bid`` with ``amount``, ``peek``
    or ``decline-peek``) now, for a person, in ``lang``; ``None`` when the rules let it
    (the engine has the last word).

    >>> import qe_rules as qe
    >>> view = qe.new_game("en", 4, seed=1).view(2)
    >>> move_refusal(view, "bid", 3, names=["Ann", "Ben", "Cy", "Di"])
    'It is not your turn: the table waits for Ann.'
    """
    _ = gettext_for(lang)
    if view.phase is Phase.OVER:
        return _("The game is over.")
    if view.seat not in view.to_act:
        waiting = ", ".join(seat_name(s, names, lang) for s in sorted(view.to_act))
        return _("It is not your turn: the table waits for {seats}.").format(seats=waiting)
    if action != "bid":
        return None if view.can_peek else _("There is nothing to peek at now.")
    if view.can_peek:
        return _("First say whether you peek.")
    helped = bid_help(view, lang)
    if helped is None or type(amount) is not int:
        return None
    assert view.limits is not None
    if amount < view.limits.minimum:
        return str(helped["low"])
    if amount == view.limits.forbidden:
        return str(helped["forbidden"])
    return None


def status_text(
    view: _View,
    lang: str = DEFAULT_LANGUAGE,
    names: Sequence[str] | None = None,
    away: Mapping[int, str] | None = None,
) -> str:
    """The page's status line: who won at the end, else what this seat owes or whom the
    table waits for (``away``: the seats an agent plays for their person, by the agent's
    name)."""
    _ = gettext_for(lang)

    def who(seats: Sequence[int]) -> str:
        return ", ".join(_named(s, names, lang, away) for s in seats) or _("nobody")

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
    if away and seat in away:
        return _("An agent plays for you now.") + " " + waiting
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


def _decided_by(sale: SaleView, events: Sequence[Event], rules: RuleSet, lang: str) -> str | None:
    """Why the tie fallback decided a sale, when it did, in ``lang``: the rule as the
    rulebook states it."""
    _ = gettext_for(lang)
    award = next(
        (e for e in reversed(events) if isinstance(e, Awarded) and e.sale == sale.sale), None
    )
    if award is None or not award.fallback:
        return None
    book = catalog(lang)
    text = _("After {ties} ties in a row the fallback rule decided the sale:").format(
        ties=rules.ties_before_fallback
    )
    text += " " + field_sentence(rules, "tie_fallback", book)
    if (
        rules.fallback_finds_no_bid is FallbackFindsNoBid.AUCTIONEER_WINS
        and sale.winner is not None
        and sale.winner == sale.auctioneer
    ):
        text += " " + field_sentence(rules, "fallback_finds_no_bid", book)
    return text


def _summary(
    view: _View,
    lang: str,
    names: Sequence[str] | None,
    events: Sequence[Event] = (),
    rules: RuleSet | None = None,
) -> str:
    """The last finished sale: who won, what this seat knows of the amount, the opening
    bid, zero bids, ties, why a fallback decided it, the auctioneer's view of the bids
    (ties marked) and a peek."""
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
    decided = _decided_by(sale, events, rules, lang) if rules is not None else None
    if decided:
        lines.append(decided)
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


def _board(
    view: _View,
    lang: str,
    names: Sequence[str] | None,
    zero: bool,
    away: Mapping[int, str] | None = None,
) -> str:
    """The table as HTML: the tile on sale with its facts, then a card per seat (a seat
    in ``away`` marked with the agent that plays for it)."""
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
            (_("to act"), ", ".join(_named(s, names, lang, away) for s in sorted(view.to_act))),
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
        if away and seat in away:
            classes.append("away")
            marks.append(_("away: agent {agent} plays").format(agent=away[seat]))
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
    """At the end: this seat's placing, what broke a tie for first place, then every
    category of every seat, and the tiles each seat won."""
    _ = gettext_for(lang)
    out = []
    if own is not None:
        out.append(f'<p class="placing">{_e(placing_text(result, own, lang=lang))}</p>')
    level = _level_at_the_top(result, lang, names, order or _known_rules(result.ruleset))
    if level:
        out.append(f'<p class="tiebreak">{_e(level)}</p>')
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


def _level_at_the_top(
    result: GameResult, lang: str, names: Sequence[str] | None, rules: RuleSet | None
) -> str | None:
    """When seats still in the game are level on the most points: what decided between
    them (the lower spending) or that nothing did, in ``lang``."""
    _ = gettext_for(lang)
    standing = [sheet for sheet in result.sheets if not sheet.eliminated]
    if not standing:
        return None
    top = max(sheet.total for sheet in standing)
    level = [sheet for sheet in standing if sheet.total == top]
    if len(level) < 2:
        return None
    seats = ", ".join(seat_name(sheet.seat, names, lang) for sheet in level)
    if len(result.winners) != 1:
        return _("{seats} are level on {total} VP, and nothing breaks the tie.").format(
            seats=seats, total=top
        )
    winner = result.sheets[result.winners[0]]
    breaks = rules is None or rules.final_tiebreak is FinalTieBreak.LOWER_SPEND
    if not breaks:
        return None
    return _(
        "{seats} are level on {total} VP; the lower spending breaks the tie: {winner} spent {spent}."
    ).format(seats=seats, total=top, winner=seat_name(winner.seat, names, lang), spent=winner.spent)


def _known_rules(ruleset: str) -> RuleSet | None:
    """The rule set of an id, or ``None`` for one that is no built-in nor a spec string."""
    try:
        return get_ruleset(ruleset)
    except RulesError:
        return None


def _rules_of(view: _View, ruleset: RuleSet | None) -> RuleSet | None:
    return ruleset if ruleset is not None else _known_rules(str(view.ruleset))


def peek_question(
    view: _View, lang: str, names: Sequence[str] | None, rules: RuleSet | None
) -> str | None:
    """The question of the peek window, when the seat may peek: what the peek would show
    of the last sale, as the rule set's ``peek_shows`` has it."""
    if not isinstance(view, PlayerView) or not view.can_peek or not view.history:
        return None
    _ = gettext_for(lang)
    sale = view.history[-1]
    seat = "" if sale.winner is None else seat_name(sale.winner, names, lang)
    tile = str(sale.company)
    shows = PeekShows.WINNING_AMOUNT if rules is None else rules.peek_shows
    if shows is PeekShows.ALL_BIDS:
        return _("Peek at every bid for {tile}, won by {seat}?").format(tile=tile, seat=seat)
    if shows is PeekShows.WINNING_AMOUNT:
        return _("Peek at what {seat} paid for {tile}?").format(seat=seat, tile=tile)
    return _("Peek at the highest bid for {tile}, won by {seat}?").format(tile=tile, seat=seat)


def panel_data(
    view: _View,
    events: Sequence[Event],
    *,
    lang: str = DEFAULT_LANGUAGE,
    names: Sequence[str] | None = None,
    ruleset: RuleSet | None = None,
    away: Mapping[int, str] | None = None,
) -> dict[str, Any]:
    """The page's pieces beside the picture, made from ``view`` and ``events`` only (and
    ``away``, the seats an agent plays for their person, by the agent's name): ``status``,
    ``turn`` (this seat owes a move), ``bid_help`` (:func:`bid_help`), ``peek_question``
    (:func:`peek_question`), ``summary`` (HTML), ``totals`` (HTML), ``board`` (HTML),
    ``standings`` (HTML, at the end) and ``log_kinds``."""
    own = _own(view)
    zero = zero_bids_score(ruleset or view.ruleset, view.players)
    standings = ""
    if view.result is not None:
        standings = _standings(view.result, own, lang, names, ruleset, view.holdings)
    helped = bid_help(view, lang) if isinstance(view, PlayerView) else None
    return {
        "status": status_text(view, lang, names, away),
        "turn": own is not None and own in view.to_act and not (away and own in away),
        "bid_help": helped,
        "peek_question": peek_question(view, lang, names, _rules_of(view, ruleset)),
        "summary": _summary(view, lang, names, events, _rules_of(view, ruleset)),
        "totals": _totals(view, lang, names),
        "board": _board(view, lang, names, zero, away),
        "standings": standings,
        "log_kinds": log_kinds(events),
    }
