"""The runner: a run's games cut into chunks, played here or by a pool of worker processes
(or any :class:`concurrent.futures.Executor`), the results back in game order. Both
engines run through it: the reference engine in chunks of up to 1,000 games, the batch in
larger ones.

Its names serve :mod:`qe_rules.simulation.stats` and :mod:`qe_rules.simulation.comparison`,
which give each chunk its work; none is public.
"""

from __future__ import annotations

import concurrent.futures
import math
import pickle
from collections.abc import Callable, Sequence
from typing import Any, Final, NamedTuple

from qe_rules.errors import InvalidArgument
from qe_rules.rules.model import RULESETS, RuleSet, get_ruleset
from qe_rules.simulation.play import AgentSpec, Progress

__all__: list[str] = []


class _Task(NamedTuple):
    """A chunk of a run, as sent to a worker process."""

    rulesets: tuple[RuleSet | str, ...]  # a built-in rule set as its id
    players: int
    specs: tuple[AgentSpec, ...]
    seed: int
    start: int
    stop: int
    rows: bool


_INTERNED: Final[dict[RuleSet, RuleSet]] = {}


def _portable(rules: RuleSet) -> RuleSet | str:
    """A rule set as sent to a worker: a built-in one as its id."""
    return rules.id if RULESETS.get(rules.id) == rules else rules


def _local(rules: RuleSet | str) -> RuleSet:
    """A rule set as a worker uses it: one object per rule set, so that the caches keyed
    by rule set find it at once."""
    if isinstance(rules, str):
        return get_ruleset(rules)
    if len(_INTERNED) >= 64:  # keep a long-lived process from holding every rule set
        _INTERNED.clear()
    return _INTERNED.setdefault(rules, rules)


def _chunks(games: int, workers: int) -> list[tuple[int, int]]:
    """Split ``range(games)`` into ``(start, stop)`` chunks.

    One worker gets even chunks (for a smooth progress report). Several get chunks that
    shrink as the run goes on, each about a third of an equal share of what is left: few
    tasks to send, and a short wait at the end for the last one.
    """
    if workers == 1:
        size = max(1, min(1000, math.ceil(games / 50)))
        return [(start, min(start + size, games)) for start in range(0, games, size)]
    chunks = []
    start = 0
    while start < games:
        size = max(16, min(1000, (games - start) // (3 * workers)))
        chunks.append((start, min(start + size, games)))
        start += size
    return chunks


BATCH_CHUNK: Final = 6144
"""The games the batch plays at a time (``batch.CHUNK``, which a test holds equal)."""

_BATCH_LEAST: Final = 256  # the fewest games of a batch chunk sent to a worker


def _batch_chunks(games: int, workers: int) -> list[tuple[int, int]]:
    """Split ``range(games)`` into ``(start, stop)`` chunks for the batch.

    One worker plays :data:`BATCH_CHUNK` games at a time. Several share the games in
    about two chunks each, of at least ``_BATCH_LEAST`` games and at most 8 batch chunks:
    the batch plays a chunk of many games at about the speed of many chunks, so a few
    large chunks waste little at the end and send little.
    """
    size = BATCH_CHUNK
    if workers > 1:
        size = min(8 * BATCH_CHUNK, max(_BATCH_LEAST, -(-games // (2 * workers))))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


class _Run(NamedTuple):
    """What a run plays: the games ``start`` to ``start + games`` of ``seed``, on the
    reference engine or, with ``batched``, on the batch."""

    rulesets: tuple[RuleSet, ...]
    players: int
    specs: tuple[AgentSpec, ...]
    games: int
    seed: int
    start: int
    rows: bool
    batched: bool = False


def _run(
    work: Callable[[_Task], Any],
    run: _Run,
    workers: int,
    executor: concurrent.futures.Executor | None,
    progress: Progress | None,
) -> list[Any]:
    """Run ``work`` over chunks of the games; the results come back in game order.

    Without an executor, one worker plays the chunks here and several share them in a
    process pool made for the run; a given executor runs them and is left running.
    """
    sent = tuple(map(_portable, run.rulesets))
    chunks = _batch_chunks(run.games, workers) if run.batched else _chunks(run.games, workers)
    tasks = [
        _Task(sent, run.players, run.specs, run.seed, run.start + start, run.start + stop, run.rows)
        for start, stop in chunks
    ]
    results: list[Any] = [None] * len(tasks)
    done = 0
    if progress is not None:
        progress(0, run.games)
    if workers == 1 and executor is None:
        for number, task in enumerate(tasks):
            results[number] = work(task)
            done += task.stop - task.start
            if progress is not None:
                progress(done, run.games)
        return results
    if executor is None:
        _check_picklable(run.specs, run.rulesets)
        pool: concurrent.futures.Executor = concurrent.futures.ProcessPoolExecutor(
            max_workers=min(workers, len(tasks))
        )
    else:
        pool = executor
    futures = {pool.submit(work, task): number for number, task in enumerate(tasks)}
    try:
        for future in concurrent.futures.as_completed(futures):
            number = futures[future]
            results[number] = future.result()
            done += tasks[number].stop - tasks[number].start
            if progress is not None:
                progress(done, run.games)
    finally:
        for future in futures:
            future.cancel()  # after a failure, nothing more is started
        if executor is None:
            pool.shutdown(wait=True, cancel_futures=True)
    return results


def _check_picklable(specs: tuple[AgentSpec, ...], rulesets: Sequence[RuleSet]) -> None:
    try:
        pickle.dumps((specs, tuple(rulesets)))
    except Exception as error:
        raise InvalidArgument(
            "with workers > 1 every agent factory must be picklable (a class or a function "
            f"defined at the top of a module, or a functools.partial of one): {error}"
        ) from None
