"""Pictures of QE as SVG text, made with the standard library only (like ``chess.svg``).

- :func:`tile`: one company tile, coloured by its nation, with its industry and VP;
- :func:`holdings`: the tiles a player won, grouped by nation;
- :func:`view`: the table as one seat sees it (a :class:`~qe_rules.PlayerView`), or, with
  ``spectator=True``, only its public part;
- :func:`score_board`: a :class:`~qe_rules.GameResult` as a table, the winner marked.

Each returns an ``<svg>`` document as a string; a picture shows nothing that the object
drawn does not hold. In Jupyter, ``Game``, ``PlayerView`` and ``GameResult`` draw
themselves with these functions.

>>> from qe_rules import Company, svg
>>> picture = svg.tile(Company.parse("JP-HOU-4"))
>>> picture.startswith("<svg") and "JP" in picture and "Housing" in picture
True
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from typing import Any, Final

import attrs

from qe_rules._util.display import register_svg
from qe_rules._util.i18n import DEFAULT_LANGUAGE, check_language, gettext_for, ngettext_for
from qe_rules.components import Company, Industry, Nation
from qe_rules.errors import InvalidArgument, shown
from qe_rules.game.scoring import GameResult, score_board_rows
from qe_rules.game.views import Phase, PlayerView, PublicView
from qe_rules.limits import MAX_TEXT_LENGTH

__all__ = ["INDUSTRY_COLOURS", "NATION_COLOURS", "holdings", "score_board", "tile", "view"]

NATION_COLOURS: Final[dict[Nation, str]] = {
    Nation.US: "#2f5fa8",
    Nation.EU: "#1f8a70",
    Nation.CN: "#c0392b",
    Nation.JP: "#8e44ad",
    Nation.UK: "#d68910",
}
"""The colour of each nation's tiles and seat."""

INDUSTRY_COLOURS: Final[dict[Industry, str]] = {
    Industry.AGRICULTURE: "#7cb342",
    Industry.HOUSING: "#8d6e63",
    Industry.GOVERNMENT: "#546e7a",
    Industry.FINANCE: "#f4c542",
    Industry.MANUFACTURING: "#e67e22",
}
"""The colour of each industry's band on a tile and of its token."""

_FONT: Final = "DejaVu Sans, Verdana, Arial, sans-serif"
_INK: Final = "#222222"
_MUTED: Final = "#777777"
_PAPER: Final = "#fbfaf7"
_LINE: Final = "#d9d4c7"
_HIGHLIGHT: Final = "#fff3c4"
_TILE_RATIO: Final = 1.3  # a tile's height over its width
_GAP: Final = 4


# --------------------------------------------------------------------------- drawing


def _element(
    parent: ET.Element, tag: str, text: str | None = None, **attributes: object
) -> ET.Element:
    """A child element; ``font_size`` becomes ``font-size`` and so on."""
    names = _ATTRIBUTE_NAMES
    node = ET.SubElement(
        parent,
        tag,
        {
            names.get(key) or names.setdefault(key, key.rstrip("_").replace("_", "-")): str(v)
            for key, v in attributes.items()
        },
    )
    if text is not None:
        node.text = _xml_text(text)
    return node


# characters XML 1.0 cannot hold: control characters (but tab, newline, return), lone
# surrogates, U+FFFE and U+FFFF
_NOT_XML: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_text(text: str) -> str:
    """``text`` with each character XML cannot hold written as its escape (``\\x01``):
    the picture stays well-formed, and shows that the character was there."""
    return _NOT_XML.sub(lambda found: ascii(found.group())[1:-1], text)


_LARGEST_SIZE: Final = 2000.0


def _check_size(size: Any) -> float:
    if type(size) not in (int, float) or not 0 < size <= _LARGEST_SIZE:  # NaN compares false
        raise InvalidArgument(
            f"size is a number of pixels above 0 and at most {_LARGEST_SIZE:g}, got {shown(size)}"
        )
    return float(size)


def _check_type(value: Any, kind: type | tuple[type, ...], name: str, what: str) -> None:
    if not isinstance(value, kind):
        raise InvalidArgument(f"{name} must be {what}, got {shown(value)}")


def _check_text(value: Any, name: str) -> str:
    _check_type(value, str, name, "a string")
    if len(value) > MAX_TEXT_LENGTH:
        raise InvalidArgument(f"{name} is longer than MAX_TEXT_LENGTH ({MAX_TEXT_LENGTH})")
    return str(value)


def _document(width: float, height: float) -> ET.Element:
    root = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "version": "1.1",
            "width": _number(width),
            "height": _number(height),
            "viewBox": f"0 0 {_number(width)} {_number(height)}",
            "font-family": _FONT,
        },
    )
    _element(root, "rect", width=_number(width), height=_number(height), fill=_PAPER)
    return root


_ATTRIBUTE_NAMES: dict[str, str] = {}  # keyword -> attribute name, e.g. font_size -> font-size


def _text_of(root: ET.Element) -> str:
    """The document as ``ET.tostring(root, encoding="unicode")`` writes it (the pictures
    use no namespaces, tails or comments), made without its namespace scan."""
    out: list[str] = []
    _write(root, out)
    return "".join(out)


_SPECIAL: Final = re.compile('[&<>"\r\n\t]')


def _escaped(text: str, attribute: bool) -> str:
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    if attribute:
        for plain, escaped in (('"', "&quot;"), ("\r", "&#13;"), ("\n", "&#10;"), ("\t", "&#09;")):
            if plain in text:
                text = text.replace(plain, escaped)
    return text


def _write(node: ET.Element, out: list[str]) -> None:
    out.append("<" + node.tag)
    special = _SPECIAL.search
    for key, value in node.attrib.items():
        out.append(f' {key}="{_escaped(value, True) if special(value) else value}"')
    if node.text or len(node):
        out.append(">")
        if node.text:
            out.append(_escaped(node.text, False) if special(node.text) else node.text)
        for child in node:
            _write(child, out)
        out.append(f"</{node.tag}>")
    else:
        out.append(" />")


def _number(value: float) -> str:
    return f"{value:g}"


def _label(
    parent: ET.Element,
    x: float,
    y: float,
    text: str,
    *,
    size: float = 13,
    anchor: str = "start",
    weight: str = "normal",
    fill: str = _INK,
    strike: bool = False,
) -> None:
    node = _element(
        parent,
        "text",
        text,
        x=_number(x),
        y=_number(y),
        font_size=_number(size),
        text_anchor=anchor,
        font_weight=weight,
        fill=fill,
    )
    if strike:
        node.set("text-decoration", "line-through")


def _draw_tile(
    parent: ET.Element,
    company: Company,
    x: float,
    y: float,
    width: float,
    lang: str = DEFAULT_LANGUAGE,
) -> None:
    """A tile ``width`` wide at (x, y): nation colour, industry band, VP in the middle."""
    height = width * _TILE_RATIO
    group = _element(parent, "g", transform=f"translate({_number(x)},{_number(y)})")
    industry = gettext_for(lang)(company.industry.label)
    _element(group, "title", f"{company} ({company.nation.code} {industry})")
    colour = NATION_COLOURS[company.nation]
    radius = _number(width / 10)
    _element(group, "rect", width=_number(width), height=_number(height), rx=radius, fill=colour)
    band = height * 0.24
    _element(
        group,
        "rect",
        x=_number(width * 0.06),
        y=_number(width * 0.06),
        width=_number(width * 0.88),
        height=_number(band),
        rx=_number(width / 16),
        fill=INDUSTRY_COLOURS[company.industry],
    )
    small = width >= 70
    band_text = industry if small else company.industry.code
    _label(
        group,
        width / 2,
        width * 0.06 + band * 0.7,
        band_text,
        size=min(band * (0.5 if small else 0.62), width * 0.8 / (0.64 * len(band_text))),
        anchor="middle",
        weight="bold",
        fill=_INK if _is_light(INDUSTRY_COLOURS[company.industry]) else "#ffffff",
    )
    _label(
        group, width / 2, height * 0.68, str(company.vp), size=height * 0.34,
        anchor="middle", weight="bold", fill="#ffffff",
    )  # fmt: skip
    _label(
        group, width / 2, height * 0.92, company.nation.code, size=height * 0.15,
        anchor="middle", weight="bold", fill="#ffffff",
    )  # fmt: skip


def _is_light(colour: str) -> bool:
    """Whether dark text reads better than white on ``colour`` (``#rrggbb``)."""
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.299 * red + 0.587 * green + 0.114 * blue > 140


def _chip_width(text: str) -> float:
    return 12 + 8.2 * len(text)


def _draw_chip(
    parent: ET.Element, x: float, y: float, text: str, colour: str, kind: str = "chip"
) -> float:
    """A rounded label in ``colour`` with its left edge at x, centred on y; its width.
    ``kind`` is its group's class (``token`` for an industry token)."""
    width = _chip_width(text)
    parent = _element(parent, "g", class_=kind)
    _element(
        parent, "rect", x=_number(x), y=_number(y - 10), width=_number(width), height="20",
        rx="10", fill=colour,
    )  # fmt: skip
    ink = _INK if _is_light(colour) else "#ffffff"
    _label(parent, x + width / 2, y + 4.5, text, size=12, anchor="middle", weight="bold", fill=ink)
    return width


def _tiles_width(count: int, width: float) -> float:
    return count * width + max(count - 1, 0) * _GAP


def _sorted_tiles(companies: Iterable[Company]) -> list[Company]:
    nations, industries = list(Nation), list(Industry)
    return sorted(
        companies,
        key=lambda c: (nations.index(c.nation), industries.index(c.industry)),
    )


# --------------------------------------------------------------------------- pictures


def tile(company: Company, *, size: float = 90, lang: str = DEFAULT_LANGUAGE) -> str:
    """One company tile, ``size`` pixels wide, its industry named in ``lang``.

    >>> from qe_rules import Company
    >>> 'width="90"' in tile(Company.parse("US-FIN-2"))
    True
    """
    _check_type(company, Company, "company", "a Company (Company.parse('US-FIN-2'))")
    size = _check_size(size)
    check_language(lang)
    margin = 4
    root = _document(size + 2 * margin, size * _TILE_RATIO + 2 * margin)
    _draw_tile(root, company, margin, margin, size, lang)
    return _text_of(root)


def holdings(
    companies: Iterable[Company],
    *,
    nation: Nation | None = None,
    industry: Industry | None = None,
    title: str | None = None,
    size: float = 44,
    lang: str = DEFAULT_LANGUAGE,
) -> str:
    """The tiles a player won, grouped by nation; ``nation`` and ``industry`` (the
    player's token), when given, are shown with the title; the words are in ``lang``.

    >>> from qe_rules import Company, Industry, Nation
    >>> picture = holdings([Company.parse("US-FIN-2")], nation=Nation.US, industry=Industry.FINANCE)
    >>> "Finance" in picture and "1 tile" in picture
    True
    """
    if isinstance(companies, str | bytes) or not isinstance(companies, Iterable):
        raise InvalidArgument(f"companies must be a list of Company, got {shown(companies)}")
    given = list(companies)
    if len(given) > MAX_TEXT_LENGTH:
        raise InvalidArgument(f"at most {MAX_TEXT_LENGTH} tiles, got {len(given)}")
    for index, company in enumerate(given):
        _check_type(company, Company, f"companies[{index}]", "a Company")
    if nation is not None:
        _check_type(nation, Nation, "nation", "a Nation (Nation.US) or None")
    if industry is not None:
        _check_type(industry, Industry, "industry", "an Industry (Industry.FINANCE) or None")
    if title is not None:
        title = _check_text(title, "title")
    size = _check_size(size)
    _ = gettext_for(lang)
    tiles = _sorted_tiles(given)
    width = max(_tiles_width(len(tiles), size), 260) + 24
    root = _document(width, size * _TILE_RATIO + 58)
    x = 12.0
    if nation is not None:
        x += _draw_chip(root, x, 20, nation.code, NATION_COLOURS[nation]) + 8
    if industry is not None:
        x += _draw_chip(root, x, 20, _(industry.label), INDUSTRY_COLOURS[industry], "token") + 8
    heading = f"{title} · " if title else ""
    count = ngettext_for(lang)("{count} tile", "{count} tiles", len(tiles))
    _label(root, x, 25, heading + count.format(count=len(tiles)), size=13)
    for index, company in enumerate(tiles):
        _draw_tile(root, company, 12 + index * (size + _GAP), 42, size, lang)
    if not tiles:
        _label(root, 12, 42 + size * 0.7, _("no tiles yet"), size=13, fill=_MUTED)
    return _text_of(root)


_VIEW_WIDTH: Final = 800
_SIDE: Final = 230  # the left column: the tile on sale
_ROW: Final = 84  # one seat's row
_SMALL_TILE: Final = 36


def view(
    player_view: PlayerView | PublicView,
    *,
    spectator: bool = False,
    lang: str = DEFAULT_LANGUAGE,
    names: Sequence[str] | None = None,
    zero_bids: bool = True,
) -> str:
    """The table as ``player_view.seat`` sees it: the tile on sale, the opening bid, who is
    to act, every seat's nation, won tiles, zero-bid rounds and peeks, and the seat's own
    token, spend and bids. With ``spectator=True`` only the public part is drawn (what
    anyone at the table sees), and a :class:`~qe_rules.PublicView` always draws so. At the
    end of the game the score board follows. ``lang`` is the language of its words,
    ``names`` name the seats, and ``zero_bids=False`` leaves out the zero-bid counts (for a
    game in which they do not score).

    >>> import qe_rules as qe
    >>> game = qe.new_game("en", 4, seed=1)
    >>> picture = view(game.view(0))
    >>> "You" in picture and "On sale" in picture
    True
    >>> "You" in view(game.view(0), spectator=True)
    False
    >>> view(game.public_view()) == view(game.view(0), spectator=True)
    True
    """
    _check_type(player_view, (PlayerView, PublicView), "player_view", "a PlayerView or PublicView")
    _check_type(spectator, bool, "spectator", "true or false")
    v = player_view
    _ = gettext_for(lang)
    ctx = _Words(lang, names, zero_bids)
    seats = v.players
    table_height = 56 + seats * _ROW
    if isinstance(v, PlayerView) and not spectator:
        own = _own_lines(v, ctx)
        own_height = _own_height(own)
    else:
        own, own_height = [], 0
    height = max(table_height, 56 + _SIDE * _TILE_RATIO * 0.62 + 150) + own_height + 12
    board = None if v.result is None else _score_board_root(v.result, names, lang)
    board_height = 0.0 if board is None else float(board.get("height", "0")) + 8
    root = _document(_VIEW_WIDTH, height + board_height)

    title = _("QE · rule set {ruleset} · {players} players").format(
        ruleset=v.ruleset, players=seats
    )
    _label(root, 16, 28, title, size=17, weight="bold")
    if v.phase is Phase.OVER:
        status = _("game over after {sales} sales").format(sales=v.sales)
    else:
        status = _("round {round} · sale {sale} of {sales} · {remaining} left after it").format(
            round=v.round + 1, sale=v.sale + 1, sales=v.sales, remaining=v.remaining
        )
        status += " · " + _(v.phase.value)
    _label(root, _VIEW_WIDTH - 16, 28, status, size=13, anchor="end", fill=_MUTED)
    _element(root, "line", x1="16", y1="40", x2=str(_VIEW_WIDTH - 16), y2="40", stroke=_LINE)

    _draw_sale(root, v, 16, 56, ctx)
    _draw_seats(root, v, _SIDE + 32, 48, None if spectator else _own_seat(v), ctx)
    if isinstance(v, PlayerView) and own:
        _draw_own(root, v, 16, height - own_height, own, ctx)
    if board is not None:
        board.set("x", "0")
        board.set("y", _number(height))
        root.append(board)
    return _text_of(root)


@attrs.frozen
class _Words:
    """How a picture speaks: its language, the seats' names, whether zero bids count."""

    lang: str
    names: Sequence[str] | None
    zero_bids: bool

    def seat(self, seat: int) -> str:
        if self.names is not None and seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return gettext_for(self.lang)("seat {seat}").format(seat=seat + 1)  # people count from 1


def _seat_name(v: PlayerView | PublicView, seat: int | None, spectator: bool, ctx: _Words) -> str:
    _ = gettext_for(ctx.lang)
    if seat is None:
        return _("nobody")
    you = " " + _("(you)") if _own_seat(v) == seat and not spectator else ""
    return f"{ctx.seat(seat)} {v.nations[seat].code}{you}"


def _own_seat(v: PlayerView | PublicView) -> int | None:
    """The seat whose side is drawn, or None for a spectator's picture."""
    return v.seat if isinstance(v, PlayerView) else None


def _seats_text(seats: Sequence[int], ctx: _Words) -> str:
    """``seat 2`` or ``seats 1, 2, 4`` (or names): short enough for the sale's column."""
    if len(seats) == 1 or ctx.names is not None:
        return ", ".join(ctx.seat(s) for s in seats)
    _ = gettext_for(ctx.lang)
    return _("seats {seats}").format(seats=", ".join(map(str, seats))) if seats else ""


def _draw_sale(
    root: ET.Element, v: PlayerView | PublicView, x: float, y: float, ctx: _Words
) -> None:
    _ = gettext_for(ctx.lang)
    size = _SIDE * 0.62
    if v.company is None:
        _label(root, x, y + 16, _("Game over"), size=15, weight="bold")
        sold = _("all {sales} tiles are sold").format(sales=v.sales)
        _label(root, x, y + 38, sold, size=13, fill=_MUTED)
        return
    _label(root, x, y + 14, _("On sale"), size=15, weight="bold")
    _draw_tile(root, v.company, x + (_SIDE - size) / 2, y + 26, size, ctx.lang)
    line_y = y + 26 + size * _TILE_RATIO + 28
    facts = [
        (
            _("auctioneer"),
            _("none (last tile)")
            if v.auctioneer is None
            else _seat_name(v, v.auctioneer, True, ctx),
        ),
        (_("opening bid"), _("awaited") if v.opening_bid is None else str(v.opening_bid)),
        (_("to act"), _seats_text(sorted(v.to_act), ctx) or _("nobody")),
    ]
    if v.tied:
        facts.append((_("tied"), _seats_text(v.tied, ctx)))
    indent = max(84.0, 7.4 * max(len(label) for label, _value in facts) + 8)
    for label, value in facts:
        _label(root, x, line_y, label, size=12, fill=_MUTED)
        _label(root, x + indent, line_y, value, size=13, weight="bold")
        line_y += 22


def _draw_seats(
    root: ET.Element,
    v: PlayerView | PublicView,
    x: float,
    y: float,
    own_seat: int | None,
    ctx: _Words,
) -> None:
    _ = gettext_for(ctx.lang)
    right: float = _VIEW_WIDTH - 16
    for seat in range(v.players):
        top = y + seat * _ROW
        nation = v.nations[seat]
        if seat in v.to_act:
            _element(
                root, "rect", x=_number(x - 8), y=_number(top), width=_number(right - x + 8),
                height=str(_ROW - 6), rx="8", fill=_HIGHLIGHT,
            )  # fmt: skip
        chip = _draw_chip(root, x, top + 18, nation.code, NATION_COLOURS[nation])
        name = ctx.seat(seat)
        if seat == own_seat:
            name += " · " + _("You")
        if seat == v.auctioneer and v.phase is not Phase.OVER:
            name += " · " + _("auctioneer")
        if seat in v.to_act:
            name += " · " + _("to act")
        _label(root, x + chip + 8, top + 23, name, size=13, weight="bold")
        token = None
        if v.industries is not None:
            token = v.industries[seat]
        elif seat == own_seat and isinstance(v, PlayerView):
            token = v.industry
        notes_end: float = right - 8
        if token is not None:
            label = _(token.label)
            chip_width = _chip_width(label)
            _draw_chip(
                root,
                right - 8 - chip_width,
                top + 18,
                label,
                INDUSTRY_COLOURS[token],
                "token",
            )
            notes_end -= chip_width + 8
        notes = []
        if ctx.zero_bids:
            notes.append(_("zero-bid rounds {count}").format(count=v.zero_bid_rounds[seat]))
        if v.peeks_used[seat]:
            notes.append(_("peeks {count}").format(count=v.peeks_used[seat]))
        _label(root, notes_end, top + 23, " · ".join(notes), size=11, anchor="end", fill=_MUTED)
        held = _sorted_tiles(v.holdings[seat])
        if not held:
            _label(root, x, top + 56, _("no tiles yet"), size=12, fill=_MUTED)
        size: float = _SMALL_TILE
        room = right - x
        if _tiles_width(len(held), size) > room:
            size = (room - _GAP * (len(held) - 1)) / len(held)
        for index, company in enumerate(held):
            _draw_tile(root, company, x + index * (size + _GAP), top + 32, size, ctx.lang)


def _own_lines(v: PlayerView, ctx: _Words) -> list[str]:
    _ = gettext_for(ctx.lang)
    lines = [_("spent so far: {spent}").format(spent=v.spent)]
    if v.my_bids:
        lines.append(_("your bids this sale: ") + ", ".join(map(str, v.my_bids)))
    if v.limits is not None:
        allowed = _("at least {minimum}").format(minimum=v.limits.minimum)
        if v.limits.forbidden is not None:
            allowed += _(", not {amount}").format(amount=v.limits.forbidden)
        lines.append(_("your bid is awaited: {allowed}").format(allowed=allowed))
    if v.can_peek:
        lines.append(_("you may peek now"))
    peeked = [s for s in v.history if s.peeked and s.peeked_amount is not None]
    if peeked:  # what the seat's latest peek showed
        sale = peeked[-1]
        if sale.amount is None:  # a highest bid the price was below
            shown = _("you peeked at sale {sale}: highest bid {amount}")
        else:
            shown = _("you peeked at sale {sale}: it went for {amount}")
        lines.append(shown.format(sale=sale.sale + 1, amount=sale.peeked_amount))
    for round_number, bids in enumerate(v.seen_bids):
        shown = ", ".join(f"{ctx.seat(s)}: {a}" for s, a in bids)
        lines.append(
            _("bids of bidding round {number}: {bids}").format(number=round_number + 1, bids=shown)
        )
    return lines


def _draw_own(
    root: ET.Element,
    v: PlayerView,
    x: float,
    y: float,
    lines: Sequence[str],
    ctx: _Words,
) -> None:
    _ = gettext_for(ctx.lang)
    right: float = _VIEW_WIDTH - 16
    _element(
        root, "rect", x=_number(x), y=_number(y), width=_number(right - x),
        height=_number(_own_height(lines) - 12), rx="10", fill="#ffffff", stroke=_LINE,
    )  # fmt: skip
    heading = _("Your seat: {seat}").format(seat=_seat_name(v, v.seat, True, ctx))
    _label(root, x + 14, y + 24, heading, size=14, weight="bold")
    token = _(v.industry.label)
    chip_width = _chip_width(token)
    _draw_chip(root, right - 14 - chip_width, y + 19, token, INDUSTRY_COLOURS[v.industry], "token")
    _label(
        root, right - 22 - chip_width, y + 24, _("your token"), size=12, anchor="end", fill=_MUTED
    )
    for index, line in enumerate(lines):
        _label(root, x + 14, y + 50 + index * 18, line, size=13)


def _own_height(lines: Sequence[str]) -> float:
    return 58 + 18 * len(lines)


def score_board(
    result: GameResult, names: Sequence[str] | None = None, *, lang: str = DEFAULT_LANGUAGE
) -> str:
    """The score board of a finished game: a column per seat in its nation's colour, a row
    per scoring line; the winner's column is highlighted, an eliminated total struck.

    >>> import qe_rules as qe
    >>> from qe_rules.simulation.play import play_game
    >>> picture = score_board(play_game("en", 3, "zero", seed=1).result())
    >>> "Score board" in picture and "total" in picture
    True
    """
    _check_type(result, GameResult, "result", "a GameResult (game.result())")
    if names is not None:
        if isinstance(names, str) or not isinstance(names, Sequence):
            raise InvalidArgument(f"names must be a list of strings, got {shown(names)}")
        if len(names) != len(result.sheets):
            raise InvalidArgument(
                f"give one name per seat ({len(result.sheets)}), got {len(names)}"
            )
        names = [_check_text(name, f"names[{index}]") for index, name in enumerate(names)]
    return _text_of(_score_board_root(result, names, lang))


def _score_board_root(
    result: GameResult, names: Sequence[str] | None = None, lang: str = DEFAULT_LANGUAGE
) -> ET.Element:
    _ = gettext_for(lang)
    rows = score_board_rows(result)
    sheets = result.sheets
    words = _Words(lang, names, True)
    labels = [words.seat(s.seat) for s in sheets]
    # the rows' labels in the reader's language set the first column (13 px text)
    longest = max((len(_(label)) for label, _values in rows[1:]), default=0)
    label_width, column = max(170.0, 7.4 * longest + 24), 100.0
    width = 32 + label_width + column * len(sheets)
    row_height = 24
    height = 70 + row_height * (len(rows) + 1) + 34 + 18 * len(result.gaps)
    root = _document(width, height)
    heading = _("Score board · rule set {ruleset}").format(ruleset=result.ruleset)
    _label(root, 16, 28, heading, size=17, weight="bold")
    top = 48.0
    for seat, sheet in enumerate(sheets):
        left = 16 + label_width + seat * column
        if seat in result.winners:
            _element(
                root, "rect", x=_number(left + 2), y=_number(top), width=_number(column - 4),
                height=_number(row_height * len(rows) + 14), rx="8", fill=_HIGHLIGHT,
            )  # fmt: skip
        _element(
            root, "rect", x=_number(left + 6), y=_number(top + 6), width=_number(column - 12),
            height="22", rx="11", fill=NATION_COLOURS[sheet.nation],
        )  # fmt: skip
        heading = f"{labels[seat]} · {sheet.nation.code}"
        _label(root, left + column / 2, top + 22, heading, size=12, anchor="middle",
               weight="bold", fill="#ffffff")  # fmt: skip
    for index, (label, values) in enumerate(rows[1:], start=1):
        y = top + 8 + row_height * (index + 0.7)
        strong = label in ("subtotal", "total")
        if strong:
            _element(root, "line", x1="16", y1=_number(y - 17), x2=_number(width - 16),
                     y2=_number(y - 17), stroke=_LINE)  # fmt: skip
        _label(root, 22, y, _(label), size=13, weight="bold" if strong else "normal")
        for seat, value in enumerate(values):
            out = label == "total" and sheets[seat].eliminated
            _label(
                root,
                16 + label_width + (seat + 1) * column - 18,
                y,
                _(value) if value == "out" else value,
                size=14 if label == "total" else 13,
                anchor="end",
                weight="bold" if strong else "normal",
                fill=_MUTED if out or value in ("0", "-") else _INK,
                strike=out,
            )
    y = top + 8 + row_height * (len(rows) + 1) + 26
    if result.winner is not None:
        text = _("Winner: {seat} ({nation})").format(
            seat=labels[result.winner], nation=sheets[result.winner].nation.code
        )
    else:
        level = ", ".join(labels[s] for s in result.winners) or _("nobody")
        text = _("No single winner; still level: {seats}").format(seats=level)
    _label(root, 16, y, text, size=15, weight="bold")
    for gap in result.gaps:
        y += 18
        _label(root, 16, y, _("Rule gap {gap}").format(gap=gap.code), size=12, fill=_MUTED)
    return root


register_svg(PlayerView, view)
register_svg(PublicView, view)
register_svg(GameResult, score_board)
