"""What the benchmarks share: the floor, its bid distribution, its scoring step, timing.

Every figure of ``bench/`` is a ratio to the floor, ``floor_sim.py``: a minimal hand-written
QE game loop (no validation, no views, mutable lists) kept next to the repository, at
``../shared/bench/floor_sim.py`` from its root. Absolute times on a shared machine vary from
run to run; a ratio measured in the same run does not vary much. Floor and library runs
alternate, and each keeps its best time of ``repeat`` runs, so that both see the same
machine.
"""

from __future__ import annotations

import datetime
import importlib.util
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import qe_rules as qe

ROOT = Path(__file__).resolve().parent.parent


def floor_path() -> Path:
    """Where the floor is: ``$QE_FLOOR`` if set, else ``shared/bench/floor_sim.py`` in the
    repository's parent folder (``../shared/bench/floor_sim.py``) or, for a worktree kept
    deeper, the nearest folder above that has it."""
    if os.environ.get("QE_FLOOR"):
        return Path(os.environ["QE_FLOOR"])
    for folder in ROOT.parents:
        candidate = folder / "shared" / "bench" / "floor_sim.py"
        if candidate.is_file():
            return candidate
    return ROOT.parent / "shared" / "bench" / "floor_sim.py"


FLOOR_PATH = floor_path()


def load_floor() -> ModuleType:
    """The floor module; exits with a clear message if it is missing."""
    if not FLOOR_PATH.is_file():
        sys.exit(
            f"bench: the floor {FLOOR_PATH} is missing. Every benchmark figure is a ratio to "
            "it: put floor_sim.py in ../shared/bench/ (from the repository root) or name it "
            "with QE_FLOOR=path, and run again."
        )
    spec = importlib.util.spec_from_file_location("floor_sim", FLOOR_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


floor = load_floor()


# ----------------------------------------------------------------- the floor's bids


def floor_bid(randint: Callable[[int, int], int], opening: int | None, auctioneer: bool) -> int:
    """A bid drawn as the floor draws it: an opening bid of 1 to 6, any other bid 0 to 7
    and one more when it equals the opening bid. The floor lets an auctioneer rebid 0,
    which the rules do not: such a draw becomes 1 (the smallest opening bid)."""
    if opening is None:
        return randint(1, 6)
    amount = randint(0, 7)
    if auctioneer and amount == 0:
        amount = 1
    if amount == opening:
        amount += 1
    return amount


def play_engine(ruleset: str, players: int, seed: int) -> qe.Game:
    """One game through the public API (``new_game``, ``to_act``, ``bid``), every bid
    drawn as the floor draws it."""
    randint = random.Random(seed).randint
    game = qe.new_game(ruleset, players, seed=seed)
    while not game.is_over:
        for seat in sorted(game.to_act):
            if game.phase is _PEEKING:  # the floor never peeks
                game = game.decline_peek(seat)  # type: ignore[attr-defined]
                continue
            opening = game.opening_bid
            game = game.bid(seat, floor_bid(randint, opening, seat == game.auctioneer))
    return game


_PEEKING = getattr(qe.Phase, "PEEKING", None)  # a phase of the engine once peeks are turns


class FloorBidder:
    """A :class:`qe_rules.simulation.agents.Agent` that bids as the floor's bidders do, from its view."""

    def __init__(self, seed: int) -> None:
        self.randint = random.Random(seed).randint

    def bid(self, view: qe.PlayerView) -> int:
        return floor_bid(self.randint, view.opening_bid, view.seat == view.auctioneer)

    def wants_peek(self, view: qe.PlayerView) -> bool:
        return False


# ----------------------------------------------------------------- the floor's scoring


def floor_deal(rng: random.Random, n: int = 4) -> tuple[Any, ...]:
    """The floor's ``game`` up to its scoring step: what each seat ends with.

    The same statements as ``floor_sim.game`` in the same order, so the same random draws;
    :func:`check_floor_split` checks that deal and score together are the floor's game.
    """
    deck = floor.TILES[:]
    rng.shuffle(deck)
    nations = ["US", "CN", "JP", "EU"][:n]
    toks = floor.IND[:]
    rng.shuffle(toks)
    won: list[list[Any]] = [[] for _ in range(n)]
    spent = [0] * n
    zeros: list[set[int]] = [set() for _ in range(n)]
    for t, tile in enumerate(deck):
        a = t % n
        bids = [0] * n
        ob = bids[a] = rng.randint(1, 6)
        for p in range(n):
            if p != a:
                b = rng.randint(0, 7)
                if b == ob:
                    b += 1
                bids[p] = b
        for _ in range(3):
            hi = max(bids)
            tied = [p for p in range(n) if bids[p] == hi]
            if len(tied) == 1:
                break
            for p in tied:
                b = rng.randint(0, 7)
                if b == ob:
                    b += 1
                bids[p] = b
        hi = max(bids)
        tied = [p for p in range(n) if bids[p] == hi]
        if len(tied) > 1:
            cand = sorted((b for b in set(bids) if bids.count(b) == 1), reverse=True)
            w = bids.index(cand[0])
        else:
            w = tied[0]
        won[w].append(tile)
        spent[w] += bids[w]
        for p in range(n):
            if bids[p] == 0:
                zeros[p].add(t // n)
    return n, nations, toks, won, spent, zeros


def floor_score(
    n: int,
    nations: list[str],
    toks: list[str],
    won: list[list[Any]],
    spent: list[int],
    zeros: list[set[int]],
) -> tuple[int | None, list[int]]:
    """The floor's scoring step, statement for statement (it uses the floor's own tables
    and diversification memo): the winner, and the totals."""
    IND, NAT, MON, div = floor.IND, floor.NAT, floor.MON, floor.div  # noqa: N806
    totals = []
    for p in range(n):
        cnt = {i: 0 for i in IND}  # noqa: C420 (the floor's statement as it is)
        cnt[toks[p]] += 1
        for _nat, _vp, ind in won[p]:
            cnt[ind] += 1
        s = sum(vp for _, vp, _ in won[p]) + 2 * len(zeros[p])
        s += NAT[sum(1 for nat, _, _ in won[p] if nat == nations[p])]
        s += sum(MON[min(c, 5)] for c in cnt.values())
        s += div(tuple(sorted(cnt.values())))
        totals.append(s)
    lo = min(spent)
    hi = max(spent)
    best = None
    for p in range(n):
        if spent[p] == lo:
            totals[p] += 6
        if spent[p] == hi:
            continue
        if best is None or (totals[p], -spent[p]) > (totals[best], -spent[best]):
            best = p
    return best, totals


def check_floor_split(games: int = 200) -> None:
    """Exit if :func:`floor_deal` and :func:`floor_score` together are not the floor's
    game (the floor file changed)."""
    for seed in range(games):
        split = floor_score(*floor_deal(random.Random(seed)))[0]
        if split != floor.game(random.Random(seed)):
            sys.exit(f"bench: {FLOOR_PATH} changed; update floor_deal and floor_score to match")


_INDUSTRIES = {"AGR": "AGRICULTURE", "HOU": "HOUSING", "FIN": "FINANCE", "MAN": "MANUFACTURING"}


def as_records(dealt: tuple[Any, ...]) -> list[qe.PlayerRecord]:
    """A dealt floor game as the library's scoring input."""
    _n, nations, toks, won, spent, zeros = dealt
    return [
        qe.PlayerRecord(
            nations[p],
            _INDUSTRIES[toks[p]],
            [qe.Company.parse(f"{nation}-{industry}-{vp}") for nation, vp, industry in won[p]],
            spent=spent[p],
            zero_bid_rounds=len(zeros[p]),
        )
        for p in range(len(nations))
    ]


# ----------------------------------------------------------------- timing


def race(contenders: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """The best time of each contender over ``repeat`` rounds; in each round every
    contender runs once, one after the other, so that all see the same machine."""
    best = dict.fromkeys(contenders, float("inf"))
    for _ in range(repeat):
        for name, run in contenders.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def floor_games(count: int) -> Callable[[], None]:
    """A run of ``count`` floor games."""

    def run() -> None:
        game = floor.game
        for seed in range(count):
            game(random.Random(seed))

    return run


def ratio_line(what: str, library: float, floor_time: float, count: int, unit: str) -> str:
    """One result line: the library's time per unit, and its speed as a ratio to the floor
    (above 1: faster than the floor)."""
    return (
        f"{what}: {library / count * 1e6:,.1f} us per {unit}, floor {floor_time / count * 1e6:,.1f}"
        f" us; ratio {floor_time / library:.2f}x the floor"
    )


def machine() -> str:
    """The machine and the date, for the record."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if "model name" in line)
    except (OSError, StopIteration):
        pass
    return (
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, {cpu}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load {os.getloadavg()[0]:.1f}, qe_rules {'compiled' if compiled() else 'pure Python'}"
    )


def compiled() -> bool:
    """Whether the hot modules are compiled (``docs/performance.md``, "Compiling with mypyc")."""
    from qe_rules.game import scoring

    return not scoring.__file__.endswith(".py")
