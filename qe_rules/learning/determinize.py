"""Games a seat cannot tell from the real one: the hidden parts of a game drawn at random,
consistent with what one seat knows (pure Python, no extra needed).

:func:`determinize` takes a seat's :class:`~qe_rules.PlayerView` and returns a
:class:`~qe_rules.Game` whose view from that seat is the same view: the other seats'
industry tokens, the order of the tiles not yet on sale, and every bid and winning amount
the seat did not see are drawn at random; everything it saw is kept. Information-set
search (:mod:`qe_rules.learning.search`, and OpenSpiel's ``resample_from_infostate``)
searches such games, so that nothing the seat cannot know steers its choice.

>>> import random
>>> import qe_rules as qe
>>> from qe_rules.learning.determinize import determinize
>>> from qe_rules.simulation.play import play_game
>>> from qe_rules.simulation.agents import ValueAgent
>>> real = qe.new_game("en", 4, seed=5)
>>> agents = [ValueAgent(seat) for seat in range(4)]
>>> while real.sale < 6:
...     seats = sorted(real.to_act)
...     bids = {seat: agents[seat].bid(real.view(seat)) for seat in seats}
...     real = real.bid(*bids.popitem()) if len(seats) == 1 else real.bid_many(bids)
>>> view = real.view(2)
>>> drawn = determinize(view, random.Random(1))
>>> drawn.view(2) == view
True
>>> [drawn.view(s).industry for s in range(4)] == [real.view(s).industry for s in range(4)]
False
>>> drawn.deck[:7] == real.deck[:7], drawn.deck == real.deck
(True, False)

The bids are drawn by proposing amounts that give each sale's known outcome (its ties,
winner, zero bids, and the amounts the seat saw) and keeping those the rules settle the
same way; a sale the proposals cannot match in :data:`ATTEMPTS` tries raises
:class:`~qe_rules.InvalidArgument`.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from typing import Final

from qe_rules.errors import InvalidArgument
from qe_rules.game.engine import Game, new_game
from qe_rules.game.views import Phase, PlayerView, SaleView
from qe_rules.rules.model import RebidScope, RuleSet, get_ruleset

__all__ = ["ATTEMPTS", "MEAN_EXCESS", "SPREAD", "determinize"]

ATTEMPTS: Final = 1000
"""How many proposals one sale (or the sale under way) gets before :func:`determinize`
gives up (every other one drawn with hints: see ``_legal_below``)."""

SPREAD: Final = 12
"""An amount the seat did not see is drawn from its least possible value to at most this
much above it."""

MEAN_EXCESS: Final = 3.0
"""How much an amount the seat did not see is drawn above its least possible value, on
average (exponentially: winning bids seldom exceed what they had to by much)."""


def _legal_below(
    game: Game,
    seat: int,
    below: int,
    rng: random.Random,
    zero: bool | None,
    hints: Collection[int] = (),
) -> int | None:
    """A legal bid of ``seat`` under ``below``: 0 if ``zero`` and allowed, else drawn
    uniformly from the legal amounts from 1 (or the minimum), or where it is not known
    whether the seat bid 0 (``zero`` is ``None``) from the minimum; half the time from the
    ``hints`` among them (amounts the sale is known to hold: bids that tie with them or
    win a fallback are then drawn often enough); ``None`` if there is none."""
    limits = game.bid_limits(seat)
    if limits is None:
        return None
    if zero and limits.allows(0):
        return 0
    low = max(limits.minimum, 1 if limits.allows(0) and zero is False else limits.minimum)
    hinted = sorted(a for a in set(hints) if low <= a < below and limits.allows(a))
    if hinted and rng.random() < 0.5:
        return rng.choice(hinted)
    choices = [a for a in range(low, below) if limits.allows(a)]
    if not choices:
        choices = [a for a in range(limits.minimum, below) if limits.allows(a)]
    return rng.choice(choices) if choices else None


def _legal_at_least(
    game: Game, seat: int, least: int, rng: random.Random, most: int | None
) -> int | None:
    limits = game.bid_limits(seat)
    if limits is None:
        return None
    low = max(least, limits.minimum)
    high = low + SPREAD if most is None else min(low + SPREAD, most)
    if high < low:
        return None
    amount = limits.legal(min(high, low + int(rng.expovariate(1 / MEAN_EXCESS))))
    return None if most is not None and amount > most else amount


def _round_bids(
    game: Game,
    seat: int,
    own: int | None,
    rng: random.Random,
    *,
    standing: dict[int, int],
    top: Sequence[int],
    amount: int | None,
    zeros: Sequence[int] | None,
    most: int | None,
    again: Collection[int] = (),
    hints: Collection[int] = (),
    settled: tuple[int, int] | None = None,
) -> dict[int, int] | None:
    """Bids for one round of the seats to act, the others' bids ``standing``: the seats
    of ``top`` end with the highest bid (``amount`` if known), the others with less: 0 for
    the seats of ``zeros`` and more for the rest where this is their last bid in the sale
    (the seats of ``again`` bid later), anything where ``zeros`` is not known, often one of
    the ``hints``. The seat itself bids ``own``. ``settled`` is the sale's winner and the
    amount it paid, where known: a winner that bids here for the last time bids it."""
    to_act = sorted(game.to_act)
    last_bid = None  # the amount the winner bids here for the last time in the sale
    if settled is not None and settled[0] in set(to_act) - set(top) - set(again) - {seat}:
        last_bid = settled[1]
    if amount is None:
        fixed = [standing[s] for s in top if s not in to_act and s in standing]
        if seat in top and own is not None:
            amount = own
        elif fixed:
            amount = fixed[0]
        else:
            least = 0 if own is None else own + 1
            if last_bid is not None:
                least = max(least, last_bid + 1)
            for other, bid in standing.items():
                if other not in to_act and other not in top:
                    least = max(least, bid + 1)
            bidder = next((s for s in top if s in to_act), None)
            if bidder is None:
                return None
            amount = _legal_at_least(game, bidder, least, rng, most)
            if amount is None:
                return None
    bids: dict[int, int] = {}
    settled_seat = None if settled is None else settled[0]
    for other in to_act:
        if other == seat:
            if own is None:
                return None
            bids[other] = own
        elif other in top:
            bids[other] = amount
        elif other == settled_seat and last_bid is not None:
            if last_bid >= amount:
                return None
            bids[other] = last_bid
        else:
            zero = None if zeros is None or other in again else other in zeros
            # equal standing bids tie later: the bids of this round are hints too
            drawn = _legal_below(
                game, other, amount, rng, zero, (*hints, *bids.values()) if hints else ()
            )
            if drawn is None:
                return None
            bids[other] = drawn
    return bids


def _play_round(game: Game, bids: dict[int, int]) -> Game | None:
    if not game.can_bid_many(bids):
        return None
    return game.bid_many(bids)


def _sale(
    game: Game, sold: SaleView, seat: int, rng: random.Random, most: int | None, hinted: bool
) -> Game | None:
    """One proposal for the finished sale ``sold`` (``hinted``: unseen bids drawn from the
    sale's known amounts half the time): the game after it, or ``None``."""
    if sold.auctioneer is not None and sold.opening_bid is not None:
        game = game.bid(sold.auctioneer, sold.opening_bid)
    if sold.auctioneer == seat and sold.bids:  # the seat saw every bid
        return _play_seen(game, sold.bids, seat)
    own = iter(sold.my_bids[1:] if sold.auctioneer == seat else sold.my_bids)
    standing = _opening(game)
    hints = {*sold.my_bids, *standing.values(), *([] if sold.amount is None else [sold.amount])}
    if not hinted:
        hints = set()
    # where only tied seats rebid, a winner's last bid before the last round is its price
    settled = None
    only_tied = game.ruleset.rebidders is RebidScope.TIED
    if only_tied and sold.winner is not None and sold.amount is not None:
        settled = (sold.winner, sold.amount)
    for number in range(len(sold.ties) + 1):
        if game.sale != sold.sale or not game.to_act or game.phase is Phase.PEEKING:
            break
        mine = next(own, None) if seat in game.to_act else None
        if number < len(sold.ties):
            top: Sequence[int] = sold.ties[number]
            amount = None
        else:
            top = () if sold.winner is None else (sold.winner,)
            amount = sold.amount
        if not top:  # nobody won: any bids
            top = tuple(rng.sample(sorted(game.to_act), min(2, len(game.to_act))))
        proposed = _round_bids(
            game,
            seat,
            mine,
            rng,
            standing=standing,
            top=top,
            amount=amount,
            zeros=sold.zero_bidders,
            most=most,
            again=set().union(*sold.ties[number:]),  # tied now or later: they bid again
            hints=hints,
            settled=settled,
        )
        played = None if proposed is None else _play_round(game, proposed)
        if played is None or proposed is None:
            return None
        standing.update(proposed)
        game = played
    return game


def _play_seen(game: Game, rounds: Sequence[Sequence[tuple[int, int]]], seat: int) -> Game | None:
    """The rounds an auctioneer ``seat`` saw, played as seen (its own opening bid, in the
    first round, is played already); ``None`` if the rules refuse them."""
    for number, rnd in enumerate(rounds):
        bids = {s: a for s, a in rnd if not (number == 0 and s == seat)}
        played = _play_round(game, bids) if bids else game
        if played is None:
            return None
        game = played
    return game


def _opening(game: Game) -> dict[int, int]:
    """The standing bids at the start of a sale's secret bidding: the opening bid."""
    auctioneer, opening = game.auctioneer, game.opening_bid
    return {} if auctioneer is None or opening is None else {auctioneer: opening}


def _answer_peeks(
    game: Game, seat: int, peeked: bool, wanted: Sequence[int], known: Collection[int] | None
) -> Game:
    """The peek window after a sale: the seat peeks as it did; the others as ``known``
    says, or without it as soon as they may until they have peeked as often as the view
    says."""
    for other in sorted(game.to_act):
        if other == seat:
            peek = peeked
        elif known is not None:
            peek = other in known
        else:
            used = game.view(other).peeks_used[other]
            peek = used < wanted[other] and game.can_peek(other)
        game = game.peek(other) if peek and game.can_peek(other) else game.decline_peek(other)
    return game


def _current(
    game: Game,
    view: PlayerView,
    rng: random.Random,
    most: int | None,
    rebids: Sequence[Collection[int]] | None,
    hinted: bool,
) -> Game | None:
    """One proposal for the sale under way: its opening bid and its rounds so far, each
    rebid round asking the seats ``rebids`` names (where given)."""
    seat = view.seat
    if (
        view.opening_bid is not None
        and view.auctioneer is not None
        and game.to_act == frozenset({view.auctioneer})
        and game.opening_bid is None
    ):
        game = game.bid(view.auctioneer, view.opening_bid)
    if view.auctioneer == seat and view.seen_bids:
        return _play_seen(game, view.seen_bids, seat)
    own = list(view.my_bids[1:] if view.auctioneer == seat else view.my_bids)
    standing = _opening(game)
    hints = {*view.my_bids, *standing.values()} if hinted else set()
    for number in range(view.ties):
        mine = own.pop(0) if seat in game.to_act and own else None
        asked = None if rebids is None or number >= len(rebids) else frozenset(rebids[number])
        if number == view.ties - 1:
            top = list(view.tied)
        elif asked is not None:  # the seats asked to rebid next were tied, maybe others too
            top = sorted(asked)
            top += [s for s in sorted(game.to_act) if s not in top and rng.random() < 0.5]
        else:  # an earlier tie: the seats tied at last, the seat if it bids again, maybe others
            top = list(view.tied)
            if own and seat not in top:
                top.append(seat)
            top += [s for s in sorted(game.to_act) if s not in top and rng.random() < 0.5]
        proposed = _round_bids(
            game, seat, mine, rng, standing=standing, top=top, amount=None, zeros=None,
            most=most, hints=hints,
        )  # fmt: skip
        played = None if proposed is None else _play_round(game, proposed)
        if played is None or proposed is None or played.sale != game.sale:
            return None
        if asked is not None and played.to_act != asked:
            return None  # the next round would ask other seats than the seat saw asked
        standing.update(proposed)
        game = played
    return game


def determinize(
    view: PlayerView,
    rng: random.Random,
    *,
    ruleset: RuleSet | str | None = None,
    most: int | None = None,
    peeks: Sequence[Collection[int]] | None = None,
    rebids: Sequence[Collection[int]] | None = None,
) -> Game:
    """A game whose view from ``view.seat`` is ``view``, its hidden parts drawn with
    ``rng``. ``ruleset`` is needed only for a rule set that is not built in; ``most``
    bounds the amounts drawn (players who never bid more, such as learning agents, whose
    actions stop at :data:`~qe_rules.learning.encode.BID_CAP`). ``peeks`` says which
    seats peeked in each peek window so far, where the seat saw it (a view keeps only
    how often each seat peeked): without it, the others peek as early as they may.
    ``rebids`` says which seats were asked to rebid in each rebid round of the sale under
    way so far, where the seat saw it (a view shows only who is tied now): without it,
    the seats tied in the earlier rounds are drawn."""
    if not isinstance(view, PlayerView):
        raise InvalidArgument("determinize takes a PlayerView (game.view(seat))")
    if view.is_over:
        raise InvalidArgument(
            "the game is over: its result shows every spend, and nothing is left to decide"
        )
    rules = get_ruleset(view.ruleset if ruleset is None else ruleset)
    seat, players = view.seat, view.players
    shown = [sold.company for sold in view.history]
    if view.company is not None:
        shown.append(view.company)
    rest = list(rules.companies(players))
    for company in shown:
        rest.remove(company)
    rng.shuffle(rest)
    if view.industries is not None:
        industries = list(view.industries)
    else:
        pool = [i for i in rules.industries(players) if i is not view.industry]
        industries = rng.sample(pool, players - 1)
        industries.insert(seat, view.industry)
    game = new_game(
        rules,
        players,
        deck=shown + rest,
        nations=view.nations,
        industries=industries,
        first_auctioneer=view.first_auctioneer,
    )
    windows = 0
    for number, sold in enumerate(view.history):
        window = not (number == len(view.history) - 1 and view.phase is Phase.PEEKING)
        for attempt in range(ATTEMPTS):
            played = _sale(game, sold, seat, rng, most, hinted=attempt % 2 == 1)
            if played is None:
                continue
            answered = window and played.phase is Phase.PEEKING
            if answered:
                known = None if peeks is None or windows >= len(peeks) else peeks[windows]
                played = _answer_peeks(played, seat, sold.peeked, view.peeks_used, known)
            seen = played.view(seat).history
            if len(seen) > number and seen[number] == sold:
                break
        else:
            raise InvalidArgument(
                f"no bids found that give sale {number} as seat {seat} saw it; "
                "the view may not be of a game played under these rules"
            )
        windows += answered
        game = played
    if view.phase is Phase.PEEKING:
        if game.view(seat) != view:
            raise InvalidArgument(f"no game found that seat {seat} sees as this view")
        return game
    for attempt in range(ATTEMPTS):
        played = _current(game, view, rng, most, rebids, hinted=attempt % 2 == 1)
        if played is not None and played.view(seat) == view:
            return played
    raise InvalidArgument(
        f"no bids found that give the sale under way as seat {seat} sees it (sale {view.sale})"
    )
