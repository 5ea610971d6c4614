"""The hunt for record-long and never-ending deals.

A search is a *campaign* of *walkers*. A walker is a random sampler, a hill climber or an
annealer; it works in small *units* (a batch of random deals, or some thousands of moves), and
after each unit its finds and its new state go into the :class:`~beggar.research.store.Store` in one
transaction. So a search killed at any moment resumes, with the same arguments, from the last unit
written, and a unit cut off is done again with the same result: no find is lost.

Every candidate is scored by the compiled kernel (:mod:`beggar.kernels.general`), which plays it exactly as
the reference engine would. Local search moves are: swap two cards, move a pay card elsewhere, or
rotate a hand. Units run in a process pool over all cores, or on a Dask cluster (the executor is
the only difference).
"""

from __future__ import annotations

import concurrent.futures as cf
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from beggar.engine import GameRecord, play
from beggar.errors import UserError
from beggar.kernels import bitwise, codes, general, rng
from beggar.kernels.jit import compiling
from beggar.kernels.walk import walk
from beggar.notation import compact_hands, compact_symbol, deal_cards, parse_deal
from beggar.research.cluster import CampaignProgress, Schedule, run_campaign
from beggar.research.store import Campaign, Find, Store
from beggar.research.strategies import STRATEGIES, TARGETS
from beggar.rules import Rules, rules_named

RANDOM_UNIT = 1_000_000
"""Random deals per unit of the random strategy."""
RANDOM_CHUNK = 1 << 16
"""Random deals per kernel call within a unit. A unit's table in one piece (88 bytes a game) would
be fresh memory on every unit, whose page faults cost this virtual machine a fifth of the kernel's
speed; chunks of this size reuse the same memory."""
MOVES_UNIT = 20_000
"""Candidates per unit of the local-search strategies."""
PATIENCE = 60_000
"""A hill climber that has not improved for this many moves starts again from a fresh deal."""
ANNEAL_LENGTH = 400_000
"""Moves in one annealing run, from its hot start to its cold end; then it starts again."""
MAX_NOTES = 64
"""Never-ending deals a unit reports at most (each is a find)."""


class SearchError(UserError, ValueError):
    """A search that cannot be run as asked."""


@dataclass(frozen=True)
class SearchArgs:
    """What names a campaign: the same arguments resume the same campaign."""

    rules: str = "standard"
    """The rules spec (:meth:`beggar.rules.Rules.spec`), as the store keys finds by it."""
    strategy: str = STRATEGIES[0]
    target: str = TARGETS[0]
    seed: int = 0
    walkers: int = 2

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise SearchError(f"unknown strategy {self.strategy!r}: choose {', '.join(STRATEGIES)}")
        if self.target not in TARGETS:
            raise SearchError(f"unknown target {self.target!r}: choose {', '.join(TARGETS)}")
        if self.walkers < 1:
            raise SearchError("a search needs at least one walker")
        if self.seed < 0:
            raise SearchError("the seed must be 0 or more")

    def to_dict(self) -> dict[str, Any]:
        """The arguments as stored; they name the campaign."""
        return {
            "rules": self.rules,
            "strategy": self.strategy,
            "target": self.target,
            "seed": self.seed,
            "walkers": self.walkers,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SearchArgs:
        return cls(data["rules"], data["strategy"], data["target"], data["seed"], data["walkers"])


@dataclass(frozen=True)
class Space:
    """The deals a search moves through: the deck as card classes, and how it is dealt.

    A card's class is what the game sees of it: class 0 for every card that pays nothing, then
    one class per pay rank. A candidate is written in compact notation (``-`` and the pay ranks).
    """

    rules: Rules
    symbols: str
    """The compact symbol of each class: ``-JQKA`` under the standard rules."""
    classes: np.ndarray
    """The deck as class indices into :attr:`symbols`, in the deck's own order."""
    values: np.ndarray
    """Pay value of each class."""
    lengths: np.ndarray
    """Cards in each hand."""
    first: int
    compiled: general.KernelRules

    @classmethod
    def of(cls, rules: Rules) -> Space:
        symbols = "-" + "".join(rank.symbol for rank, _ in rules.pay)
        values = np.array([0, *(value for _, value in rules.pay)], dtype=np.uint8)
        deck = rules.deck.cards()
        classes = np.array([symbols.index(compact_symbol(card, rules)) for card in deck], dtype=np.uint8)
        sizes = [len(hand) for hand in deal_cards(deck, rules.players).hands]
        # Local search scores each candidate with one leader: the rules' own, or the first hand
        # under a random lead (the finds record it).
        first = max(general.fixed_first(rules), 0)
        compiled = general.KernelRules.of(rules.unlimited())
        return cls(rules, symbols, classes, values, np.array(sizes, dtype=np.int64), first, compiled)

    def compact(self, deal: np.ndarray) -> str:
        """A candidate (card classes, hands in seat order) in compact notation."""
        return compact_hands([self.symbols[c] for c in deal], [int(size) for size in self.lengths])

    def parse(self, text: str) -> np.ndarray:
        deal = parse_deal(text, self.rules.deck, rules=self.rules)
        return np.array(
            [self.symbols.index(compact_symbol(card, self.rules)) for hand in deal.hands for card in hand],
            dtype=np.uint8,
        )


# == the compiled search loop ======================================================================


# == units of work =================================================================================


@dataclass
class UnitResult:
    """What one unit of one walker produced."""

    walker: int
    unit: int
    state: dict[str, Any]
    scored: int
    finds: list[Find]
    seconds: float


def _find(space: Space, args: SearchArgs, deal: str, lead: int, scored: GameRecord | None = None) -> Find:
    """Replay a deal with the reference engine, led by ``lead``, to record it exactly as scored.

    ``scored`` is the kernel's record of the same game; a replay that disagrees with it is a
    defect, and is refused rather than stored.
    """
    record = play(deal, space.compiled.rules, first=lead)
    if scored is not None and record != scored:
        raise SearchError(
            f"the kernel scored {deal} (seat {lead} leading) as {scored}, but it plays as {record}"
        )
    return Find(
        deal=deal,
        rules=args.rules,
        cards=record.cards,
        tricks=record.tricks,
        status=str(record.status),
        winner=record.winner,
        strategy=args.strategy,
        seed=args.seed,
        lead=lead,
    )


def run_unit(args: dict[str, Any], walker: int, unit: int, state: dict[str, Any]) -> UnitResult:
    """Do unit ``unit`` of ``walker``: a pure function of its arguments (so it can be redone)."""
    search = SearchArgs.from_dict(args)
    space = Space.of(rules_named(search.rules))
    started = time.perf_counter()
    if search.strategy == "random":
        result = _random_unit(search, space, walker, unit, state)
    else:
        result = _local_unit(search, space, walker, unit, state)
    result.seconds = time.perf_counter() - started
    return result


def _random_unit(
    search: SearchArgs, space: Space, walker: int, unit: int, state: dict[str, Any]
) -> UnitResult:
    # Walker w's units are the run's games w, w + walkers, ... in blocks: disjoint for every walker.
    block = unit * search.walkers + walker
    start = block * RANDOM_UNIT
    # Played in chunks, each reduced to its loops and its best before the next (the same picks
    # as one table of the whole unit: loops in game order, the first of the longest games).
    picks: dict[int, GameRecord] = {}  # the unit's first loops, by game
    best_index, best, best_record = -1, -1, None
    for offset in range(0, RANDOM_UNIT, RANDOM_CHUNK):
        count = min(RANDOM_CHUNK, RANDOM_UNIT - offset)
        batch = bitwise.play_random_fastest(space.compiled, search.seed, start + offset, count)
        measure = (batch.tricks if search.target == "tricks" else batch.cards).copy()
        in_loop = batch.status == codes.STATUS_LOOP
        measure[in_loop] = -1
        for i in np.flatnonzero(in_loop)[: MAX_NOTES - len(picks)]:
            picks[offset + int(i)] = batch.record(int(i))
        index = int(np.argmax(measure))
        if best_record is None or measure[index] > best:
            best_index, best, best_record = offset + index, int(measure[index]), batch.record(index)
    best_before = int(state.get("best", -1))
    if best > best_before and best_record is not None:
        picks[best_index] = best_record
    finds = []
    for index in sorted(picks):
        deals, leads = general.random_deals(space.compiled.rules, search.seed, start + index, 1)
        finds.append(_find(space, search, deals[0].compact(space.rules), leads[0], picks[index]))
    new_best = max(best_before, best)
    return UnitResult(walker, unit, {"best": new_best}, RANDOM_UNIT, finds, 0.0)


def _local_unit(
    search: SearchArgs, space: Space, walker: int, unit: int, state: dict[str, Any]
) -> UnitResult:
    size = space.classes.size
    if state:
        current = space.parse(state["current"])
        best = space.parse(state["best_deal"])
        scores = np.array(state["scores"], dtype=np.int64)
        counters = np.array(state["counters"], dtype=np.int64)
        random_state = np.uint64(int(state["rng"]))
    else:
        current = space.classes.copy()
        best = space.classes.copy()
        scores = np.array([-1, -1, 0, 0], dtype=np.int64)
        counters = np.zeros(2, dtype=np.int64)
        random_state = np.uint64(rng.stream(search.seed, walker))
    best_before = int(scores[1])
    loops = np.zeros((MAX_NOTES, size), dtype=np.uint8)
    anneal = search.strategy == "anneal"
    hot, cold = (300.0, 5.0) if search.target == "cards" else (40.0, 0.7)
    random_state, found = walk(
        current,
        best,
        space.lengths,
        space.values,
        space.first,
        space.compiled.cfg,
        search.target == "tricks",
        search.target == "loops",
        random_state,
        MOVES_UNIT,
        scores,
        counters,
        anneal,
        hot,
        cold,
        ANNEAL_LENGTH,
        PATIENCE,
        loops,
    )
    deals = {space.compact(loops[i]) for i in range(found)}
    if scores[1] > best_before:
        deals.add(space.compact(best))
    finds = [_find(space, search, deal, space.first) for deal in sorted(deals)]
    new_state = {
        "current": space.compact(current),
        "best_deal": space.compact(best),
        "scores": [int(x) for x in scores],
        "counters": [int(x) for x in counters],
        "rng": int(np.uint64(random_state)),
    }
    return UnitResult(walker, unit, new_state, MOVES_UNIT, finds, 0.0)


# == running a campaign ============================================================================


@dataclass
class Progress(CampaignProgress):
    """What a running search has done so far (for the status line and the summary)."""

    scored: int = 0
    new_finds: int = 0
    loops: set[str] = field(default_factory=set)
    best: Find | None = None

    @property
    def rate(self) -> float:
        return self.scored / self.seconds if self.seconds > 0 else 0.0

    def summary(self, args: SearchArgs, db: str) -> dict[str, Any]:
        """What ``beggar search --json`` prints at the end."""
        return {
            "campaign": self.campaign,
            **args.to_dict(),
            "db": db,
            "seconds": round(self.seconds, 2),
            "scored": self.scored,
            "deals_per_second": round(self.rate),
            "new_finds": self.new_finds,
            "loops": sorted(self.loops),
            "resumed_after_units": self.resumed_units,
            "best": None if self.best is None else self.best.to_dict(),
        }


Executor = cf.Executor


def _warm() -> None:
    """Compile (or load from the cache) random play and the search loop before a worker's first unit.

    Only what a standard campaign runs; anything else compiles at its first use.
    """
    bitwise.play_random_fastest()
    run_unit(SearchArgs(strategy="hill-climb", walkers=1).to_dict(), 0, 0, {})


def run_search(
    args: SearchArgs,
    store: Store,
    *,
    seconds: float,
    executor: Executor | None = None,
    workers: int | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    units: int | None = None,
) -> Progress:
    """Run (or resume) the campaign named by ``args`` for ``seconds``; finds go into ``store``.

    ``units`` stops each walker once it has done that many units in all (runs that can be
    compared exactly, whatever the machine's speed).
    """
    rules = rules_named(args.rules)
    Space.of(rules)  # refuse bad rules here, not in a worker
    with compiling("search", 25):  # here once, so that the workers load it rather than each compile it
        _warm()

    def start(campaign: Campaign) -> Progress:
        progress = Progress(campaign.id)
        progress.best = _best_of(store, args)
        return progress

    return run_campaign(
        run_unit,
        args.to_dict(),
        args.walkers,
        store,
        start,
        lambda campaign, progress, result: _record(store, campaign, progress, result),
        Schedule(seconds, executor, workers, units),
        initializer=_warm,
        on_progress=on_progress,
    )


def _record(store: Store, campaign: Campaign, progress: Progress, result: UnitResult) -> None:
    finds = [Find(**{**f.to_dict(), "campaign": campaign.id}) for f in result.finds]
    progress.new_finds += store.save_unit(
        campaign,
        walker=result.walker,
        unit=result.unit,
        state=result.state,
        scored=result.scored,
        finds=finds,
        seconds=result.seconds,
    )
    progress.scored += result.scored
    progress.units += 1
    for find in finds:
        if find.status == "loop":
            progress.loops.add(find.deal)
        if progress.best is None or _better(find, progress.best, campaign.args["target"]):
            progress.best = find


def _better(a: Find, b: Find, target: str) -> bool:
    """Is ``a`` a better find than ``b`` for this target? Loops rank first only when sought."""
    if target == "loops" and (a.status == "loop") != (b.status == "loop"):
        return a.status == "loop"
    if a.status == "loop" or b.status == "loop":
        return b.status == "loop" and a.status != "loop"
    key = (a.tricks, a.cards) if target == "tricks" else (a.cards, a.tricks)
    return key > ((b.tricks, b.cards) if target == "tricks" else (b.cards, b.tricks))


def _best_of(store: Store, args: SearchArgs) -> Find | None:
    by = "tricks" if args.target == "tricks" else "cards"
    top = store.top(rules=args.rules, by=by, limit=1, status="finished")
    return top[0] if top else None
