"""The cycle factory: grow never-ending games card by card, then walk back to starting deals.

Random deals almost never loop (none in millions on the full decks), but small positions often
do. So the factory

1. **harvests** small cycles: it samples positions of a few to :data:`HARVEST_HIGH` cards drawn
   from the deck, any split, and keeps every cycle met under its canonical form
   (:mod:`beggar.research.cycles.canon`);
2. **grows** them: a beam of cycles is changed by the moves of :mod:`beggar.kernels.growth` (insert one
   card, two number cards, a pay card with the number cards that pay it, a card in each stack, a
   run of cards; or, keeping the size, swap, shift or exchange cards) at random positions on the
   cycle, and every child that still loops may enter the next beam. The beam keeps the largest
   children whose share of pay cards stays in a band around the deck's, prefers children not yet
   expanded, and chooses its moves adaptively: each growing move gets tries in proportion to
   the cards it has added per try so far. A beam that stops growing starts again from new small
   cycles;
3. walks **backward** from every position of each full-deck cycle within a budget of positions,
   and keeps each balanced starting deal met, checked by forward play: the cycle's *basin*
   (:mod:`beggar.research.cycles.basins`).

Work is done in *units* by independent *walkers*, as in :mod:`beggar.research.search`: a unit is a pure
function of the campaign's arguments, the walker, the unit number and the walker's state, and its
results (cycles, basins, deals, move tallies and the walker's new state) are written in one
transaction, so a factory killed at any moment and started again loses nothing.
"""

from __future__ import annotations

import concurrent.futures as cf
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from beggar.errors import UserError
from beggar.kernels import growth, rng
from beggar.kernels.cycles import cycle_rows
from beggar.research.cluster import CampaignProgress, Schedule, run_campaign
from beggar.research.cycles.basins import BASIN_POSITIONS, walk_basin
from beggar.research.cycles.canon import Alphabet, CanonError, CycleForm, form_from_row, form_of
from beggar.research.store import Campaign, CycleDeal, Find, MoveTally, Store, StoredBasin, StoredCycle
from beggar.research.strategies import BANDS, MIN_TRIES, TRIES_PER_PARENT
from beggar.rules import rules_named

HARVEST_TRIES = 100_000
"""Small positions sampled when a walker (re)starts."""
HARVEST_LOW, HARVEST_HIGH = 6, 16
"""Sizes of the sampled small positions."""
BEAM = 12
"""Cycles a beam holds."""
GENERATIONS = 3
"""Generations in one unit."""
PATIENCE = 8
"""Generations without a larger cycle before a walker starts again from new small cycles."""
WANDER = 4
"""Generations a beam spends among full-deck cycles (fixed-size moves) before it starts again."""
BAND_BASE, BAND_PER_CARD = 1.0, 0.02
"""How far each pay value's count may stray from its share of the deck (the ``kind`` band): this
many cards, plus this many per card of the cycle."""
TOTAL_BAND_BASE, TOTAL_BAND_PER_CARD = 1.0, 0.03
"""How far the number of number cards may stray from its share of the deck (the ``total`` band)."""
LOOSE = 1.25
"""Under the ``loose`` band a cycle may hold up to this many times the deck's cards of each pay
kind (rounded up), and at most the deck's number cards."""
LOOSE_WANDER = 30
"""Generations a ``loose`` beam spends among cycles of the deck's size whose mix is still wrong."""
CHILDREN_PER_PARENT = 3
"""Children of one parent a beam takes at most (lineages stay diverse)."""
PER_MIX = 4
"""Cycles of one composition a beam takes at most: lineages that have used up different kinds of
card are kept side by side (a cycle rich in pay cards resists number cards, and the reverse)."""
FIXED_SHARE = 0.25
"""Share of the tries given to the fixed-size moves while the beam still grows."""
EXPANDED_MEMORY = 4_000
"""Expanded cycles a walker remembers (it prefers others)."""
BASINS_PER_UNIT = 2
"""Backward walks a unit does at most (the others wait for the next units)."""
CAP_BASE, CAP_PER_CARD = 4_000, 150
"""A child that has not repeated a position after ``CAP_BASE + CAP_PER_CARD * cards`` cards counts as
ending: loops are found in a few periods, and long non-looping games are the costly ones."""
MAX_CHILDREN = 2_048
"""Looping children one batch of tries reports at most."""


class FactoryError(UserError, ValueError):
    """A factory that cannot be run as asked."""


@dataclass(frozen=True)
class FactoryArgs:
    """What names a factory campaign: the same arguments resume the same campaign."""

    rules: str = "standard"
    seed: int = 0
    walkers: int = 2
    basin_positions: int = BASIN_POSITIONS
    band: str = BANDS[0]
    """Which composition band keeps lineages near the deck's mix (see :meth:`_Unit._in_band`)."""
    tries: int = TRIES_PER_PARENT
    """Children tried from each cycle of the beam in one generation: fewer make quicker units that
    grow less each."""

    def __post_init__(self) -> None:
        if self.band not in BANDS:
            raise FactoryError(f"unknown band {self.band!r}: choose kind, total or loose")
        if self.walkers < 1:
            raise FactoryError("a factory needs at least one walker")
        if self.seed < 0:
            raise FactoryError("the seed must be 0 or more")
        if self.basin_positions < 1:
            raise FactoryError("a backward walk needs a budget of at least one position")
        if self.tries < MIN_TRIES:
            raise FactoryError(f"a generation needs at least {MIN_TRIES} tries per parent")

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "factory",
            "rules": self.rules,
            "seed": self.seed,
            "walkers": self.walkers,
            "basin_positions": self.basin_positions,
            "band": self.band,
            # Written only when not the default, so campaigns stored before it existed still resume.
            **({} if self.tries == TRIES_PER_PARENT else {"tries": self.tries}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FactoryArgs:
        return cls(
            rules=data["rules"],
            seed=data["seed"],
            walkers=data["walkers"],
            basin_positions=data["basin_positions"],
            band=data.get("band", "kind"),
            tries=data.get("tries", TRIES_PER_PARENT),
        )


def alphabet_of(spec: str) -> Alphabet:
    """The factory's view of a rules spec, or a :class:`FactoryError` that says why it cannot run."""
    try:
        return Alphabet.of(rules_named(spec))
    except CanonError as exc:
        raise FactoryError(str(exc)) from None


# == a walker's state ==============================================================================


@dataclass
class Walker:
    """Everything a walker carries from one unit to the next (saved as JSON)."""

    rng: int
    beam: list[str] = field(default_factory=list)
    """Canonical positions of the beam's cycles."""
    best: int = 0
    """The largest cycle of the current beam's lineage."""
    stall: int = 0
    """Generations since the lineage last grew."""
    wander: int = 0
    """Generations spent among full-deck cycles."""
    expanded: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    """Full-deck cycles waiting for their backward walk."""
    walked: list[str] = field(default_factory=list)
    """Full-deck cycles whose backward walk this walker has done."""
    tallies: dict[str, list[int]] = field(default_factory=dict)
    """Per move: tries, and new children in the band, for the adaptive choice of moves."""
    restarts: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Every field, as :meth:`from_dict` reads it back (a copy: the saved state is not the walker's)."""
        return asdict(self)

    @classmethod
    def start(cls, args: FactoryArgs, walker: int) -> Walker:
        return cls(rng=int(rng.stream(args.seed, walker)))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Walker:
        return cls(**data)


# == one unit ======================================================================================


@dataclass
class UnitResult:
    """What one unit of one walker produced."""

    walker: int
    unit: int
    state: dict[str, Any]
    positions: int
    """Positions played: small samples and children tried."""
    cycles: list[StoredCycle]
    basins: list[StoredBasin]
    deals: list[CycleDeal]
    finds: list[Find]
    moves: list[MoveTally]
    seconds: float = 0.0


class _Unit:
    """The working state of one unit: the alphabet, the walker and what the unit has met."""

    def __init__(self, args: FactoryArgs, walker: Walker) -> None:
        self.args = args
        self.alphabet = alphabet_of(args.rules)
        self.walker = walker
        self.kinds = np.array(list(self.alphabet.deck), dtype=np.uint8)
        self.deck = np.array(
            [v for v, count in self.alphabet.deck.items() for _ in range(count)], dtype=np.uint8
        )
        self.met: dict[str, tuple[CycleForm, int, str]] = {}
        self.tallies = {name: [0, 0, 0, 0.0] for name in growth.MOVES}
        self.positions = 0
        self.rows_cache: dict[str, np.ndarray] = {}

    # -- random numbers ---------------------------------------------------------------------------

    def _seed(self) -> np.uint64:
        """A fresh stream for one compiled call (the walker's generator advances by one)."""
        state, value = rng.next64(np.uint64(self.walker.rng))
        self.walker.rng = int(state)
        return np.uint64(value)

    def _ranks(self, deals: list[str]) -> dict[str, int]:
        """A random but repeatable order of ``deals``, to break ties (the walker's generator advances)."""
        order = np.arange(len(deals), dtype=np.int64)
        rng.shuffle(order, self._seed())
        return {deal: int(order[i]) for i, deal in enumerate(deals)}

    # -- cycles met -------------------------------------------------------------------------------

    def _note(self, form: CycleForm, move: str, keep: bool) -> None:
        """Count a cycle met; ``keep`` stores it (harvested, kept in a beam, or full-deck)."""
        if form.deal in self.met:
            old, count, first = self.met[form.deal]
            self.met[form.deal] = (old, count + 1, first)
        elif (keep or form.full) and self._within_deck(form):
            self.met[form.deal] = (form, 1, move)
        if form.full and form.deal not in self.walker.pending and form.deal not in self.walker.walked:
            self.walker.pending.append(form.deal)

    def _in_band(self, form: CycleForm) -> bool:
        """Is the cycle's mix of cards near the deck's? (Else it could never hold the deck.)

        Under the ``kind`` band each kind of pay card must stay near its share: a cycle that has
        used up the jacks while it has no queen yet must still find room for four queens, and
        single insertions rarely manage that. The ``total`` band only holds the share of number
        cards; it lets lineages grow further on the standard deck
        and less far on the Italian and half decks (see docs/research.md). Under the ``loose`` band the
        caps of the moves (:meth:`_caps`) hold the mix and the beam's score steers it.
        """
        if self.args.band == "loose":  # the caps of the moves hold it; the beam prefers the deck's mix
            return form.cards <= self.alphabet.size
        share = form.cards / self.alphabet.size
        if self.args.band == "total":
            zeros = form.counts[0] if 0 in self.alphabet.deck else 0
            slack = TOTAL_BAND_BASE + TOTAL_BAND_PER_CARD * form.cards
            return abs(zeros - self.alphabet.deck.get(0, 0) * share) <= slack
        slack = BAND_BASE + BAND_PER_CARD * form.cards
        for count, (value, total) in zip(form.counts, self.alphabet.deck.items(), strict=True):
            if value and abs(count - total * share) > slack:
                return False
        return True

    # -- harvest ----------------------------------------------------------------------------------

    def harvest(self) -> list[CycleForm]:
        """Sample small positions and return the distinct cycles met (every one is stored)."""
        high = min(HARVEST_HIGH, self.alphabet.size)
        low = min(HARVEST_LOW, high)
        rows = np.zeros((MAX_CHILDREN, high + 1), np.uint8)
        meta = np.zeros((MAX_CHILDREN, growth.META), np.int64)
        found: dict[str, CycleForm] = {}
        tries = HARVEST_TRIES
        while tries > 0:
            _, count, done = growth.harvest(
                self.deck, low, high, self.alphabet.cfg, self._cap(high), self._seed(), tries, rows, meta
            )
            tries -= done
            self.positions += done
            for i in range(count):
                form = self._form(rows[i], meta[i])
                self._note(form, "harvest", True)
                found.setdefault(form.deal, form)
        return list(found.values())

    def _form(self, row: np.ndarray, meta: np.ndarray) -> CycleForm:
        m = [int(x) for x in meta]
        return form_from_row(
            self.alphabet,
            row[: m[growth.META_CARDS] + 1],
            m[growth.META_PERIOD_TRICKS],
            m[growth.META_PERIOD_CARDS],
            m[growth.META_SPLIT_LOW],
            m[growth.META_SPLIT_HIGH],
            m[growth.META_TIMES],
        )

    def _cap(self, cards: int) -> int:
        return CAP_BASE + CAP_PER_CARD * cards

    # -- growth -----------------------------------------------------------------------------------

    def _parse(self, deal: str) -> tuple[np.ndarray, int]:
        """A beam's position (under the ``loose`` band it may hold more of a pay kind than the deck)."""
        return self.alphabet.parse(deal, within_deck=self.args.band != "loose")

    def _caps(self) -> dict[int, int]:
        """The most cards of each pay value a cycle of the lineage may hold."""
        if self.args.band != "loose":
            return dict(self.alphabet.deck)
        return {v: (c if v == 0 else math.ceil(LOOSE * c)) for v, c in self.alphabet.deck.items()}

    def _score(self, form: CycleForm) -> int:
        """What a beam maximises: the cycle's size (``loose``: then the fewest cards of the wrong kind)."""
        if self.args.band != "loose":
            return form.cards
        deck = list(self.alphabet.deck.values())
        numbers = abs(form.counts[0] - deck[0]) if 0 in self.alphabet.deck else 0
        kinds = sum(abs(c - t) for c, t in zip(form.counts[1:], deck[1:], strict=True))
        # More number cards first: a lineage rich in pay cards stops growing (see docs/research.md).
        return form.cards * 4096 - numbers * 64 - kinds

    def _within_deck(self, form: CycleForm) -> bool:
        return all(c <= t for c, t in zip(form.counts, self.alphabet.deck.values(), strict=True))

    def _cycle(self, deal: str) -> tuple[np.ndarray, int, np.ndarray, np.ndarray]:
        """The positions on a cycle (rows), its size, the cards of each kind it lacks, and how much
        each kind is wanted (kinds below their share of the deck are wanted most)."""
        values, lead = self._parse(deal)
        if deal not in self.rows_cache:
            found = form_of(self.alphabet, values, lead)
            if found is None:
                raise FactoryError(f"{deal} was stored as a cycle but does not loop")
            self.rows_cache[deal] = cycle_rows(
                values, values.size, lead, self.alphabet.cfg, found[0].period_tricks
            )
        composition = self.alphabet.composition(values)
        n = int(values.size)
        caps = self._caps()
        missing = np.array([caps[int(v)] - composition[int(v)] for v in self.kinds], np.int64)
        weights = np.zeros(self.kinds.size, np.float64)
        for i, v in enumerate(self.kinds):
            if self.args.band == "loose":  # any kind the caps allow, alike: steering stalls the growth
                weights[i] = float(missing[i] > 0)
                continue
            deficit = self.alphabet.deck[int(v)] * (n + 1) / self.alphabet.size - composition[int(v)]
            weights[i] = missing[i] * 2.0 ** min(4.0, max(-4.0, 2.0 * deficit))
        return self.rows_cache[deal], n, missing, weights

    def _allocation(self, full: bool, stalled: bool) -> dict[int, int]:
        """Tries per move for one parent: growing moves by the new in-band children they gave per try.

        A cycle of the deck's size only wanders (under the ``loose`` band, recoloring its pay
        cards towards the deck's mix too).
        """
        loose = self.args.band == "loose"
        per_parent = self.args.tries
        if full and loose:
            return {5: per_parent // 4, 6: per_parent // 4, 9: per_parent // 2}
        if full:
            return {5: per_parent // 2, 6: per_parent // 2}
        fixed_kinds = [k for k in growth.FIXED if loose or growth.MOVES[k] != "recolor"]
        fixed = 0.5 if stalled else FIXED_SHARE
        weights = {}
        for kind in growth.GROWING:
            tries, useful = self.walker.tallies.get(growth.MOVES[kind], [0, 0])
            weights[kind] = (useful + 1.0) / (tries + 200.0)
        total = sum(weights.values())
        plan = {k: max(8, int(per_parent * (1 - fixed) * w / total)) for k, w in weights.items()}
        for kind in fixed_kinds:
            plan[kind] = max(8, int(per_parent * fixed / len(fixed_kinds)))
        return plan

    def generation(self) -> None:
        """Expand every cycle of the beam once, and choose the next beam."""
        walker = self.walker
        children: dict[str, tuple[CycleForm, str, str]] = {}
        rows_met: dict[bytes, CycleForm] = {}
        full = False
        for parent in walker.beam:
            rows, n, missing, weights = self._cycle(parent)
            complete = n >= self.alphabet.size
            full = full or complete
            width = n + growth.MAX_ADDED + 1
            out = np.zeros((MAX_CHILDREN, width), np.uint8)
            meta = np.zeros((MAX_CHILDREN, growth.META), np.int64)
            for kind, tries in self._allocation(complete, walker.stall > PATIENCE // 2).items():
                name = growth.MOVES[kind]
                started = time.process_time()
                _, count, done = growth.attempts(
                    rows, n, missing, weights, self.kinds, kind, tries, self.alphabet.cfg,
                    self._cap(n + growth.MAX_ADDED), self._seed(), out, meta,
                )  # fmt: skip
                tally = self.tallies[name]
                tally[0] += done
                tally[1] += count
                tally[2] += int(meta[:count, growth.META_ADDED].sum())
                tally[3] += time.process_time() - started
                self.positions += done
                useful = 0
                for i in range(count):
                    key = out[i, : int(meta[i, growth.META_CARDS]) + 1].tobytes()
                    form = rows_met.get(key)
                    if form is None:
                        form = rows_met[key] = self._form(out[i], meta[i])
                    if form.deal == parent or form.cards > self.alphabet.size:
                        continue
                    self._note(form, name, False)
                    if form.deal not in children and self._in_band(form):
                        useful += 1
                        children[form.deal] = (form, name, parent)
                moved = walker.tallies.setdefault(name, [0, 0])
                moved[0] += done
                moved[1] += useful
            if parent not in walker.expanded:
                walker.expanded.append(parent)
        del walker.expanded[:-EXPANDED_MEMORY]
        self._choose(children, full)

    def _choose(self, children: dict[str, tuple[CycleForm, str, str]], full: bool) -> None:
        """The next beam: the largest in-band cycles among the children and the parents.

        Unexpanded cycles come before expanded ones of the same size, and a parent gives at most
        :data:`CHILDREN_PER_PARENT` children, so a beam wanders among cycles of one size (fixed-size
        moves) instead of collapsing onto one family.
        """
        walker = self.walker
        expanded = set(walker.expanded)
        pool = list(children.values())
        for parent in walker.beam:
            values, lead = self._parse(parent)
            found = form_of(self.alphabet, values, lead)
            if found is not None and parent not in children:
                pool.append((found[0], "kept", parent))
        ranks = self._ranks([item[0].deal for item in pool])
        pool.sort(key=lambda item: (-self._score(item[0]), item[0].deal in expanded, ranks[item[0].deal]))
        beam: list[tuple[CycleForm, str, str]] = []
        taken: dict[str, int] = {}
        mixes: dict[str, int] = {}
        # Under the loose band the mix is steered by the score; limits by parent and mix hold it back.
        free = self.args.band == "loose"
        for item in pool:
            form, _, parent = item
            if free or (
                taken.get(parent, 0) < CHILDREN_PER_PARENT and mixes.get(form.composition, 0) < PER_MIX
            ):
                beam.append(item)
                taken[parent] = taken.get(parent, 0) + 1
                mixes[form.composition] = mixes.get(form.composition, 0) + 1
            if len(beam) == BEAM:
                break
        largest = self._score(beam[0][0]) if beam else 0
        if largest > walker.best:
            walker.best = largest
            walker.stall = 0
        else:
            walker.stall += 1
        if full or (beam and beam[0][0].full):
            walker.wander += 1
        walker.beam = [form.deal for form, _, _ in beam]
        for form, move, _ in beam:
            if move != "kept" and form.deal not in self.met and self._within_deck(form):
                self.met[form.deal] = (form, 1, move)  # counted once, when it was found
        # Under the loose band a beam of the deck's size with the mix still wrong walks longer.
        mixing = self.args.band == "loose" and bool(beam) and not beam[0][0].full
        patience, wander = (LOOSE_WANDER, LOOSE_WANDER) if mixing and full else (PATIENCE, WANDER)
        if walker.stall > patience or walker.wander > wander:
            walker.beam = []

    def restart(self) -> None:
        """A new lineage from freshly harvested small cycles."""
        walker = self.walker
        seeds = [form for form in self.harvest() if self._in_band(form)]
        ranks = self._ranks([form.deal for form in seeds])
        seeds.sort(key=lambda form: (-form.cards, ranks[form.deal]))
        walker.beam = [form.deal for form in seeds[:BEAM]]
        walker.best = max((self._score(form) for form in seeds[:BEAM]), default=0)
        walker.stall = 0
        walker.wander = 0
        walker.restarts += 1

    # -- backward ---------------------------------------------------------------------------------

    def basin(self, deal: str) -> tuple[StoredBasin, list[CycleDeal], list[Find]]:
        """Walk back from every position of a full-deck cycle; keep the balanced deals that reach it."""
        basin = walk_basin(self.alphabet.rules, deal, budget=self.args.basin_positions)
        form = basin.cycle
        finds = [
            Find(
                deal=reaching.deal,
                rules=self.args.rules,
                cards=reaching.pre_period_cards + form.period_cards,
                tricks=reaching.pre_period_tricks + form.period_tricks,
                status="loop",
                winner=None,
                strategy="factory",
                seed=self.args.seed,
            )
            for reaching in basin.deals
        ]
        return basin.stored, basin.deals, finds

    # -- the unit ---------------------------------------------------------------------------------

    def stored_cycles(self) -> list[StoredCycle]:
        return [
            form.into(StoredCycle, rules=self.args.rules, met=count, move=move)
            for form, count, move in self.met.values()
        ]

    def move_tallies(self) -> list[MoveTally]:
        return [
            MoveTally(name, int(t[0]), int(t[1]), int(t[2]), round(float(t[3]), 4))
            for name, t in self.tallies.items()
            if t[0]
        ]


def run_unit(args: dict[str, Any], walker: int, unit: int, state: dict[str, Any]) -> UnitResult:
    """Do unit ``unit`` of ``walker``: a pure function of its arguments (so it can be redone).

    Only the CPU seconds in the move tallies depend on the machine.
    """
    factory = FactoryArgs.from_dict(args)
    started = time.perf_counter()
    work = _Unit(factory, Walker.from_dict(state) if state else Walker.start(factory, walker))
    basins: list[StoredBasin] = []
    deals: list[CycleDeal] = []
    finds: list[Find] = []
    for _ in range(min(BASINS_PER_UNIT, len(work.walker.pending))):
        deal = work.walker.pending.pop(0)
        basin, reaching, found = work.basin(deal)
        work.walker.walked.append(deal)
        basins.append(basin)
        deals += reaching
        finds += found
    for _ in range(GENERATIONS):
        if not work.walker.beam:
            work.restart()
            continue
        work.generation()
    result = UnitResult(
        walker=walker,
        unit=unit,
        state=work.walker.to_dict(),
        positions=work.positions,
        cycles=work.stored_cycles(),
        basins=basins,
        deals=deals,
        finds=finds,
        moves=work.move_tallies(),
    )
    result.seconds = time.perf_counter() - started
    return result


# == running a campaign ============================================================================


@dataclass
class Progress(CampaignProgress):
    """What a running factory has done so far (for the status line and the summary)."""

    positions: int = 0
    new_cycles: int = 0
    small_cycles: int = 0
    full_cycles: int = 0
    largest: int = 0
    balanced_deals: int = 0
    basins: int = 0

    @property
    def rate(self) -> float:
        return self.positions / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "campaign": self.campaign,
            "seconds": round(self.seconds, 2),
            "positions": self.positions,
            "positions_per_second": round(self.rate),
            "units": self.units,
            "new_cycles": self.new_cycles,
            "small_cycles": self.small_cycles,
            "full_deck_cycles": self.full_cycles,
            "largest_cycle": self.largest,
            "balanced_deals": self.balanced_deals,
            "basins": self.basins,
            "resumed_after_units": self.resumed_units,
        }


def _warm() -> None:
    """Compile (or load from the cache) the compiled loops before a worker's first unit."""
    alphabet = alphabet_of("half-deck")
    deck = np.array([v for v, c in alphabet.deck.items() for _ in range(c)], dtype=np.uint8)
    rows = np.zeros((4, 9), np.uint8)
    meta = np.zeros((4, growth.META), np.int64)
    growth.harvest(deck, 6, 8, alphabet.cfg, 1000, np.uint64(1), 10, rows, meta)
    cycle = np.zeros((1, 7), np.uint8)
    cycle[0, :] = [3, 1, 0, 0, 0, 1, 0]
    kinds = np.array(list(alphabet.deck), dtype=np.uint8)
    missing = np.ones(kinds.size, np.int64)
    weights = np.ones(kinds.size, np.float64)
    out = np.zeros((4, 12), np.uint8)
    for kind in range(len(growth.MOVES)):
        growth.attempts(
            cycle, 6, missing, weights, kinds, kind, 2, alphabet.cfg, 1000, np.uint64(2), out, meta
        )


def run_factory(
    args: FactoryArgs,
    store: Store,
    *,
    seconds: float,
    executor: cf.Executor | None = None,
    workers: int | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    units: int | None = None,
) -> Progress:
    """Run (or resume) the factory campaign named by ``args`` for ``seconds``; results go into ``store``.

    ``units`` stops each walker once it has done that many units in all.
    """
    alphabet_of(args.rules)  # refuse bad rules here, not in a worker

    def start(campaign: Campaign) -> Progress:
        progress = Progress(campaign.id)
        progress.full_cycles = len(store.cycles(rules=args.rules, full=True))
        progress.largest = max((c.cards for c in store.cycles(rules=args.rules, limit=1)), default=0)
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
    cycles = [replace(c, campaign=campaign.id) for c in result.cycles]
    finds = [replace(f, campaign=campaign.id) for f in result.finds]
    new_cycles, new_finds = store.save_factory_unit(
        campaign,
        walker=result.walker,
        unit=result.unit,
        state=result.state,
        scored=result.positions,
        seconds=result.seconds,
        cycles=cycles,
        basins=result.basins,
        deals=result.deals,
        finds=finds,
        moves=result.moves,
    )
    progress.positions += result.positions
    progress.units += 1
    progress.new_cycles += new_cycles
    progress.small_cycles += sum(1 for c in result.cycles if c.move == "harvest")
    progress.full_cycles = len(store.cycles(rules=campaign.args["rules"], full=True))
    progress.largest = max([progress.largest, *(c.cards for c in result.cycles)])
    progress.balanced_deals += new_finds
    progress.basins += len(result.basins)


# == what the browser and the commands read ========================================================


def move_report(store: Store, campaign: str | None = None) -> list[dict[str, Any]]:
    """Each move's tries, children kept, cards added, and cards added per CPU-minute."""
    report = []
    for tally in store.move_tallies(campaign):
        per_minute = tally.added / tally.seconds * 60 if tally.seconds > 0 else 0.0
        report.append(
            {
                "move": tally.move,
                "tries": tally.tries,
                "kept": tally.kept,
                "kept_per_try": tally.kept / tally.tries if tally.tries else 0.0,
                "cards_added": tally.added,
                "cpu_seconds": round(tally.seconds, 2),
                "cards_per_cpu_minute": round(per_minute, 1),
            }
        )
    return report
