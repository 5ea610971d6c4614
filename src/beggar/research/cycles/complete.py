"""The complete census of a small deck: every trick-end position played once, every cycle found.

A trick-end position of a two-hand deck of ``N`` cards is the deck's cards in one sequence, the
leader's stack first, cut after the leader's ``n1`` cards (``1 <= n1 < N``); only the cards'
kinds matter, so a deck with ``c_k`` cards of kind ``k`` has ``N! / prod(c_k!) * (N - 1)``
positions (:func:`position_count`). Only the positions some trick can end in
(:func:`playable_count`) can be on a cycle. The positions :mod:`beggar.kernels.positions` indexes
(:func:`indexed_count`: those, when a won pile goes under the stack oldest card first; every
position otherwise) have one bit each recording whether they have been visited: where those bits
fit a memory budget (:func:`fits`), :func:`play_every_position` walks from every position some
trick can end in not yet visited, trick by trick, until the walk meets itself (a new cycle), meets
an earlier walk, or the game ends. So every cycle of the deck, of every period, is found once.

Each cycle is then played by the reference engine (:func:`beggar.cycle.find_cycle`) from its
canonical position, which must give the same cycle, and its figures decide the census: an
instance ``(L, k1, n1)`` is ``sat`` exactly when some cycle of period ``P`` with ``L = m * P``
has a trick end where the leader holds ``n1`` cards, no trick end has a smaller leader's stack
(the census's least leader), and the leader's seat turns ``k1 / m`` cards in one period; every
other instance is ``unsat``. These are the answers the SAT model gives
(:mod:`beggar.research.cycles.census`), found here by playing instead of solving.

>>> from beggar.rules import STANDARD
>>> from beggar.research.cycles.kinds import Composition
>>> deck = Composition.parse("6,2,1,1", STANDARD)
>>> position_count(deck), playable_count(deck), memory_needed(deck)
(22680, 3783, 480)
>>> [(c.deal, c.period_cards, c.leaders) for c in play_every_position(deck).cycles]
[('--J-/Q-K-J-', 30, ((16, 4),))]
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from beggar.cycle import find_cycle
from beggar.research.cluster import bounded_workers
from beggar.research.cycles.canon import played_form
from beggar.research.cycles.census import CensusProgress, instance_count, stored_cycle
from beggar.research.cycles.kinds import Composition, ConstructError
from beggar.research.cycles.model import tapes_of
from beggar.research.cycles.solve import SAT, UNSAT
from beggar.research.store import CensusCycle, CensusInstance, CensusPlay, CycleFigures, Store
from beggar.research.strategies import MEMORY_MIB, METHODS, PLAY, SOLVER
from beggar.rules import PileOrder

if TYPE_CHECKING:
    from beggar.research.cycles.canon import Alphabet

DEFAULT_MEMORY = MEMORY_MIB * 2**20
"""The default memory budget for the visited bits, in bytes."""

_CHUNK = 1 << 22
"""Positions (by index) walked from per call of the kernel: a progress report each call."""


def position_count(composition: Composition) -> int:
    """The trick-end positions of a deck: its arrangements by kind, times the ``N - 1`` cuts."""
    n = composition.size
    arrangements = math.factorial(n)
    for count in composition.counts:
        arrangements //= math.factorial(count)
    return arrangements * (n - 1)


def playable_count(composition: Composition) -> int:
    """The positions a walk plays: those some trick can end in (see :func:`play_every_position`).

    With a won pile going under the stack oldest card first, the leader's stack ends with the
    trick's last pay card, of value ``v``, and the ``v`` number cards paid to it; so for each pay
    kind and each leader's stack of more than ``v`` cards, the other cards are in any order. With
    the newest card first, the pile goes under the stack the other way round: the leader's stack
    holds a pay card with at least its value of number cards just above it (counted by
    :func:`_newest_first_count`).
    """
    if composition.rules.pile_order is not PileOrder.OLDEST_FIRST:
        return _newest_first_count(composition)
    n = composition.size
    total = 0
    for kind, (value, count) in enumerate(zip(composition.values, composition.counts, strict=True)):
        if value == 0 or count == 0 or composition.counts[0] < value:
            continue
        rest = list(composition.counts)
        rest[kind] -= 1
        rest[0] -= value
        orders = math.factorial(n - value - 1)
        for left in rest:
            orders //= math.factorial(left)
        total += orders * max(0, n - 1 - value)
    return total


def _newest_first_count(composition: Composition) -> int:
    """The positions whose leader's stack holds a pay card with at least its value of number cards
    just above it: the positions a trick can end in under the newest-first pile order.

    Counted card by card from the top of the leader's stack: each prefix is summed up by the cards
    it leaves, the number cards just above its next card (as many as the greatest pay value can
    use) and whether it holds such a pay card yet; a prefix that does, cut after its last card,
    is a position for each order of the cards it leaves.
    """
    values, n = composition.values, composition.size
    cap = max(values)
    prefixes: dict[tuple[tuple[int, ...], int, bool], int] = {(composition.counts, 0, False): 1}
    total = 0
    for _ in range(n - 1):  # the leader holds 1 to n - 1 cards
        longer: dict[tuple[tuple[int, ...], int, bool], int] = {}
        for (left, run, held), ways in prefixes.items():
            for kind, count in enumerate(left):
                if count == 0:
                    continue
                rest = (*left[:kind], count - 1, *left[kind + 1 :])
                value = values[kind]
                key = (
                    (rest, 0, True)
                    if held or (value > 0 and run >= value)
                    else (rest, min(run + 1, cap) if value == 0 else 0, False)
                )
                longer[key] = longer.get(key, 0) + ways
        prefixes = longer
        total += sum(ways * _orders(left) for (left, _, held), ways in prefixes.items() if held)
    return total


def _orders(counts: tuple[int, ...]) -> int:
    """The orders of a multiset of cards with these counts."""
    orders = math.factorial(sum(counts))
    for count in counts:
        orders //= math.factorial(count)
    return orders


def indexed_count(composition: Composition) -> int:
    """The positions :mod:`beggar.kernels.positions` indexes, one visited bit each: those some trick
    can end in with the oldest-first pile order (:func:`playable_count`), every position with the
    newest first (there the walk skips those no trick ends in, one arrangement's cuts at a time)."""
    if composition.rules.pile_order is not PileOrder.OLDEST_FIRST:
        return position_count(composition)
    return playable_count(composition)


def memory_needed(composition: Composition) -> int:
    """Bytes of the visited bits: one bit per indexed position (:func:`indexed_count`), in 64-bit
    words."""
    return (indexed_count(composition) + 63) // 64 * 8


def fits(composition: Composition, memory: int) -> bool:
    """Whether every position of the deck can be indexed within ``memory`` bytes (and each stack
    fits the bit kernel's words, which play the walk: at most 64 cards)."""
    from beggar.kernels.bitwise import MAX_CARDS

    return composition.size <= MAX_CARDS and memory_needed(composition) <= memory


def chosen(composition: Composition, method: str, memory: int) -> bool:
    """Whether a census of this deck plays every position (True) or asks the solver (False).

    Raises :class:`ConstructError` for an unknown method, or ``play`` on a deck beyond the budget.
    """
    if method not in METHODS:
        raise ConstructError(f"unknown method {method!r}: choose {', '.join(METHODS)}")
    if method == SOLVER:
        return False
    if fits(composition, memory):
        return True
    from beggar.kernels.bitwise import MAX_CARDS

    if method == PLAY and composition.size > MAX_CARDS:
        raise ConstructError(
            f"the {composition.size}-card deck {composition.describe()} is too large to play every "
            "position: the walk plays decks of at most 64 cards"
        )
    if method == PLAY:
        every = composition.rules.pile_order is not PileOrder.OLDEST_FIRST  # every position indexed
        indexed = "" if every else f", of which {indexed_count(composition):,} can end a trick"
        raise ConstructError(
            f"the {composition.size}-card deck {composition.describe()} has "
            f"{position_count(composition):,} positions{indexed}: their visited bits need "
            f"{_mib(memory_needed(composition))}, more than the budget of {_mib(memory)}"
        )
    return False


def _mib(size: int) -> str:
    return f"{size / 2**20:,.1f} MiB"


@dataclass(frozen=True)
class PlayedCycle(CycleFigures):
    """One cycle found by playing every position, as the engine plays it from its canonical position
    (see :func:`beggar.research.cycles.canon.played_form`): its figures, and its least leaders."""

    leaders: tuple[tuple[int, int], ...]
    """Each ``(k1, n1)`` of a trick end with the least leader's stack ``n1``: the cards the leader's
    seat turns in one period, and ``n1`` (one pair per seat that leads at that stack size)."""


@dataclass(frozen=True)
class Played:
    """What playing every position of a deck gave."""

    positions: int
    """The deck's trick-end positions (:func:`position_count`)."""
    played: int
    """Positions walked: every position some trick can end in (:func:`playable_count`); the others
    are on no cycle."""
    cycles: list[PlayedCycle]
    seconds: float
    walkers: int = 1
    """Threads that walked, each from its own part of the index."""


def play_every_position(
    composition: Composition,
    *,
    workers: int | None = 1,
    memory: int = DEFAULT_MEMORY,
    on_progress: Callable[[int, int], None] | None = None,
) -> Played:
    """Play every position of the deck once and return every cycle, each checked by the engine.

    ``workers`` threads (None: every core; at most the cores, and as many as ``memory`` holds
    visited bits for) each walk from a contiguous part of the index with visited bits of their
    own, so each finds exactly the cycles its walks reach, once; a cycle two of them reach is kept
    once. (One shared set of bits would let two walks that enter one cycle at once each stop at
    the other's marks, and the cycle would be lost.) Positions two walkers reach are walked by
    both: about a seventh more work on the 14-card decks. ``on_progress(done, total)`` is called
    as the indexed positions are worked through. Raises :class:`ConstructError` if the engine does not play a
    cycle the kernel found the same way.
    """
    from beggar.kernels import bitwise, positions  # compiled code: loaded only when positions are played
    from beggar.kernels.codes import CFG_NEWEST_FIRST, CFG_WHEN_EMPTY
    from beggar.kernels.jit import compiling
    from beggar.research.cycles.canon import Alphabet, form_of

    start = time.perf_counter()
    rules = composition.rules
    alphabet = Alphabet.of(rules)
    counts = np.array(composition.counts, np.int64)
    values = np.array(composition.values, np.uint8)
    flags, codes, pays = bitwise.tables(values)
    every_cut = rules.pile_order is not PileOrder.OLDEST_FIRST
    newest, when_empty = bool(alphabet.cfg[CFG_NEWEST_FIRST]), bool(alphabet.cfg[CFG_WHEN_EMPTY])
    total = indexed_count(composition)
    threads = max(1, min(bounded_workers(workers), memory // max(1, memory_needed(composition))))
    done = [0]
    lock = threading.Lock()

    def walk(first: int, stop: int) -> tuple[list[int], npt.NDArray[np.uint64]]:
        """Walk from every position of ``first .. stop - 1`` with visited bits of this walker's own."""
        visited = np.zeros(memory_needed(composition) // 8, np.uint64)
        found: list[int] = []
        for begin in range(first, stop, _CHUNK):
            end = min(stop, begin + _CHUNK)
            cycles, _ = positions.play_range(
                begin, end, counts, values, every_cut, flags, codes, pays, newest, when_empty, visited
            )
            found.extend(int(index) for index in cycles)
            with lock:
                done[0] += end - begin
                if on_progress is not None:
                    on_progress(done[0], total)
        return found, visited

    cuts = [total * k // threads for k in range(threads + 1)]
    with compiling("positions", 60):  # the first run compiles the walk; later runs load it
        if threads == 1:
            parts = [walk(0, total)]
        else:
            with ThreadPoolExecutor(threads) as pool:  # the walk releases the GIL
                parts = list(pool.map(walk, cuts[:-1], cuts[1:]))
    union = parts[0][1]
    for _, visited in parts[1:]:
        union |= visited
    below, strides = positions.rank_tables(counts)
    blocks = positions.index_blocks(counts, values, every_cut, below, strides)
    kinds = np.empty(composition.size, np.uint8)
    result: dict[str, PlayedCycle] = {}
    for found, _ in parts:
        mine: set[str] = set()
        for index in found:
            lead = positions.decode(index, blocks, below, strides, kinds)
            form = form_of(alphabet, values[kinds], lead)
            assert form is not None  # the walk met itself: the position loops
            deal = form[0].deal
            if deal in mine:
                raise ConstructError(f"the cycle {deal} was found twice: the position index is wrong")
            mine.add(deal)
            if deal not in result:  # another walker may have reached it too
                result[deal] = engine_cycle(
                    composition, alphabet, deal, form[0].period_tricks, form[0].period_cards
                )
    return Played(
        positions=position_count(composition),
        played=int(np.bitwise_count(union).sum()),
        cycles=sorted(result.values(), key=lambda c: (c.period_cards, c.deal)),
        seconds=time.perf_counter() - start,
        walkers=threads,
    )


def engine_cycle(
    composition: Composition, alphabet: Alphabet, deal: str, period_tricks: int, period_cards: int
) -> PlayedCycle:
    """The cycle through ``deal`` as the reference engine plays it; an error unless it is the one found."""
    rules = composition.rules
    cycle = find_cycle(deal, rules, first=0, complete=False)
    form = None if cycle is None else played_form(alphabet, cycle)
    if (
        cycle is None
        or form is None
        or cycle.pre_period_tricks != 0
        or (cycle.period_tricks, cycle.period_cards) != (period_tricks, period_cards)
        or form.deal != deal
    ):
        found = "ends" if cycle is None else f"repeats every {cycle.period_cards} cards"
        raise ConstructError(
            f"the compiled play and the engine disagree: {deal} should be on a cycle of "
            f"{period_cards} cards, but the engine says the game {found}"
        )
    index = {value: kind for kind, value in enumerate(composition.values)}
    pay, lead_size = alphabet.parse(deal)
    tapes = tapes_of(composition, [index[int(value)] for value in pay], lead_size, cycle.period_cards)
    stacks = [len(position.stacks.hands[position.leader]) for position in cycle.positions]
    least = min(stacks)
    leaders = sorted(
        {
            (len(tapes[position.leader]), least)
            for position, stack in zip(cycle.positions, stacks, strict=True)
            if stack == least
        }
    )
    return form.into(PlayedCycle, leaders=tuple(leaders))


def decide(
    composition: Composition, played: Played, max_period: int
) -> tuple[list[CensusInstance], list[CensusCycle]]:
    """Every census instance up to ``max_period``, decided from the cycles, and the census's cycle records."""
    key = composition.key()
    witnesses: dict[tuple[int, int, int], int] = {}
    records = []
    for cycle in played.cycles:
        for k1, n1 in cycle.leaders:
            for repeat in range(1, max_period // cycle.period_cards + 1):
                instance = (repeat * cycle.period_cards, repeat * k1, n1)
                witnesses[instance] = witnesses.get(instance, 0) + 1
        k1, n1 = cycle.leaders[0]
        records.append(cycle.into(CensusCycle, deck=key, k1=k1, n1=n1))
    instances = [
        CensusInstance(
            key,
            period,
            k1,
            n1,
            SAT if (period, k1, n1) in witnesses else UNSAT,
            0.0,
            None,
            witnesses.get((period, k1, n1), 0),
        )
        for period in range(2, max_period + 1)
        for k1 in range(1, period)
        for n1 in range(1, composition.size)
    ]
    return instances, records


def method_of(play: CensusPlay | None, period: int) -> str:
    """Which method decided a stored instance of this period: ``play`` or ``solver``."""
    return PLAY if play is not None and period <= play.max_period else SOLVER


def run_play(
    composition: Composition,
    store: Store,
    max_period: int,
    *,
    workers: int | None = None,
    memory: int = DEFAULT_MEMORY,
    on_progress: Callable[[CensusProgress], None] | None = None,
) -> CensusProgress:
    """Decide and store every instance up to ``max_period`` by playing every position of the deck.

    ``workers`` threads walk (None: every core), as many as ``memory`` holds visited bits for
    (:func:`play_every_position`).

    Every cycle, of every period, is stored; the instances, the cycles and the record of the play
    are written in one transaction, so a play cut short leaves the store as it was. A deck already
    played to ``max_period`` or further is not played again.
    """
    start = time.perf_counter()
    progress = CensusProgress(instances=instance_count(composition, max_period))
    earlier = store.census_play(composition.key())
    if earlier is not None and earlier.max_period >= max_period:
        progress.skipped = progress.decided = progress.instances
    else:
        played = play_every_position(composition, workers=workers, memory=memory)
        instances, cycles = decide(composition, played, max_period)
        shown = [stored_cycle(c, composition.rules.spec(), composition.describe()) for c in cycles]
        play = CensusPlay(
            deck=composition.key(),
            max_period=max_period,
            positions=played.positions,
            played=played.played,
            cycles=len(cycles),
            seconds=played.seconds,
        )
        progress.new_cycles = store.save_census_play(
            play, instances, cycles, shown if composition.full else []
        )
        progress.decided = progress.instances
        progress.cpu_seconds = played.seconds
    progress.seconds = time.perf_counter() - start
    if on_progress is not None:
        on_progress(progress)
    return progress
