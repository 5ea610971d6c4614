"""Every balanced deal of a deck, played: the complete answer for decks small enough.

A deck (the rules' whole deck or a smaller one, ``--cards`` as for the census) has
:attr:`beggar.deals.Arrangements.total` balanced deals, each named by its index
(:mod:`beggar.deals`). The work is cut into **units**, ranges of indices: a unit is a picklable
:class:`Unit`, :func:`play_unit` is a pure function of it returning a :class:`UnitResult`, and
:meth:`ExhaustStore.save` records the result and marks the unit done in one transaction, so an
exhaust killed at any moment (SIGKILL included) resumes with the units not yet written, nothing
lost or counted twice. Units run on a process pool or on Dask (:func:`run_exhaust`).

Each unit is played by compiled code (:mod:`beggar.kernels.exhaust`: deals in index order, the
bit kernel's play, the general kernel's exact loop detection). Every never-ending deal is replayed
by the reference engine (:func:`beggar.cycle.find_cycle`) before it is returned, and named by the
census's canonical form of its cycle; every longest game is replayed by the engine before it is
stored.

>>> from beggar.rules import rules_named
>>> deck = ExhaustDeck.of(rules_named("half-deck"), "4,1,1")
>>> deck.total
30
>>> result = play_unit(deck.units(0, deck.total, 1000)[0])
>>> result.deals, sum(result.cards.values()), len(result.never_ending)
(30, 30, 0)
"""

from __future__ import annotations

import concurrent.futures as cf
import itertools
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from beggar.deals import Arrangements, DealIndexError, lead_size
from beggar.errors import BeggarError
from beggar.research.cycles.kinds import Composition
from beggar.research.store import FIND_ORDERS, Store
from beggar.rules import Rules, rules_named, shown_text

MEASURES = FIND_ORDERS
"""The two lengths of a game (cards, tricks), each with its histogram and its longest games: the
lengths the store orders its finds by."""

DEFAULT_UNIT = 1 << 24
"""Deals per unit: a few seconds of one core on the half deck."""

CHUNK = 1 << 16
"""Deals per chunk of a unit played in lockstep: each lane plays a chunk's deals in index order,
then takes the next chunk, so the lanes end a unit together within about a chunk."""


class ExhaustError(BeggarError, ValueError):
    """A deck that cannot be exhausted, a range outside it, or results the engine refutes."""


@dataclass(frozen=True)
class ExhaustDeck:
    """A deck to play every balanced deal of: the rules (limits off) and the cards of each kind."""

    composition: Composition

    @classmethod
    def of(cls, rules: Rules, cards: str | None = None) -> ExhaustDeck:
        """The rules' whole deck, or the smaller one ``cards`` writes (``6,2,1,1``, as for the census).

        Raises :class:`beggar.research.cycles.kinds.ConstructError` for a bad ``cards`` or rules the cycle
        model cannot take (more than two players).
        """
        return cls(Composition.named(rules, cards))

    def check_playable(self) -> None:
        """Refuse a deck the exhaust kernel cannot play or count."""
        from beggar.kernels.bitwise import MAX_CARDS

        size = self.composition.size
        if size > MAX_CARDS:
            raise ExhaustError(f"exhaust plays decks of at most {MAX_CARDS} cards, not {size}")
        if self.total >= 1 << 62:
            raise ExhaustError(
                f"the {self.composition.describe()} deck has {self.total:,} deals: "
                "more than exhaust can count, whatever --from and --to: give a smaller deck with --cards"
            )

    def index_of(self, text: str) -> int:
        """The index of a balanced deal of this deck written in any notation (``-`` for every card
        that pays nothing, as the published Italian deals are written, is read too)."""
        from beggar.research.cycles.canon import Alphabet

        values, lead = Alphabet.of(self.composition.rules).parse(text, within_deck=False)
        if lead != lead_size(int(values.size)):
            raise DealIndexError(
                f"{shown_text(text)}: a balanced deal's first hand holds {lead_size(int(values.size))} "
                f"of its {values.size} cards, not {lead}"
            )
        return self.arrangements.rank([int(v) for v in values])

    @property
    def rules(self) -> Rules:
        """The rules the deals are played by: the deck's, with no limit and repeats found at trick ends."""
        return self.composition.rules.unlimited()

    @property
    def arrangements(self) -> Arrangements:
        return Arrangements.of_counts(
            dict(zip(self.composition.values, self.composition.counts, strict=True))
        )

    @property
    def total(self) -> int:
        """Balanced deals of the deck."""
        return self.arrangements.total

    @property
    def key(self) -> str:
        """The deck's name in the store (the census's: the rules spec, and the counts if not whole)."""
        return self.composition.key()

    @property
    def lead(self) -> int:
        """Cards in the leading hand."""
        return lead_size(self.composition.size)

    def deal(self, index: int) -> str:
        """The deal of ``index`` in compact notation."""
        return self.compact(self.arrangements.unrank(index))

    def deals(self, indices: Iterable[int]) -> dict[int, str]:
        """The deal of each of ``indices`` in compact notation, by index: :meth:`deal` for many
        indices at once, with one alphabet for them all (making it is most of the time of one)."""
        from beggar.research.cycles.canon import Alphabet  # compiled code: loaded only when a deal is written

        alphabet = Alphabet.of(self.composition.rules)
        return {i: alphabet.compact(list(self.arrangements.unrank(i)), self.lead) for i in set(indices)}

    def compact(self, pays: Iterable[int]) -> str:
        """Pay values, the leading hand first, in compact notation."""
        kind = {value: k for k, value in enumerate(self.composition.values)}
        return self.composition.compact([kind[int(v)] for v in pays], self.lead)

    def units(self, first: int, last: int, size: int) -> list[Unit]:
        """The units of indices ``first`` to ``last - 1``, cut on multiples of ``size``."""
        deals = f"the deck's {self.total:,} deals (indices 0 to {self.total - 1:,})"
        if not 0 <= first < self.total:
            raise ExhaustError(f"--from {first:,} is past {deals}")
        if last > self.total:
            raise ExhaustError(f"--to {last:,} is past {deals}: --to is the index after the last")
        if first >= last:
            raise ExhaustError(f"--to {last:,} must be above --from {first:,}: the range holds no deal")
        cuts = [first, *range((first // size + 1) * size, last, size), last]
        name = self.composition.rules.spec()
        return [Unit(name, self.composition.counts, a, b) for a, b in itertools.pairwise(cuts)]


@dataclass(frozen=True)
class Unit:
    """One unit of work: the deals of indices ``start`` to ``stop - 1`` of a deck."""

    rules: str
    counts: tuple[int, ...]
    start: int
    stop: int

    def deck(self) -> ExhaustDeck:
        rules = rules_named(self.rules)
        return ExhaustDeck(Composition(rules, Composition.of(rules).values, self.counts))


@dataclass(frozen=True)
class NeverEndingDeal:
    """A deal that never ends, checked by the engine, with the cycle it enters."""

    index: int
    deal: str
    cycle: str
    """The cycle's canonical position (:mod:`beggar.research.cycles.canon`)."""
    period_cards: int
    period_tricks: int
    lead_in_cards: int
    lead_in_tricks: int


@dataclass(frozen=True)
class LongGame:
    """One of the longest finished games."""

    index: int
    deal: str
    cards: int
    tricks: int
    winner: int


@dataclass
class UnitResult:
    """What one unit gave: every count is exact."""

    unit: Unit
    deals: int
    cards: dict[int, int]
    """Finished games by their length in cards."""
    tricks: dict[int, int]
    wins: tuple[int, int]
    """Finished games won by the first hand, by the second."""
    never_ending: list[NeverEndingDeal]
    longest: dict[str, list[LongGame]]
    """The unit's longest games by cards and by tricks (not yet checked by the engine)."""
    seconds: float
    games: int = 0
    """Games played to count the deals: fewer where blocks of equal games were counted at once."""


def play_unit(unit: Unit, *, skip: bool = True, lockstep: bool = True) -> UnitResult:
    """Play every deal of ``unit`` (a pure function of it: runs in a worker).

    ``skip`` counts blocks of deals whose games cannot differ at once (and, one game at a time,
    takes a game up again where the previous deal's left off); ``lockstep`` plays four games at a
    time where the settings allow (:func:`beggar.kernels.exhaust.play_range_lanes`). Neither
    changes a result; ``skip=False, lockstep=False`` plays every deal from its start, one game at a
    time, for the tests and the benchmark.
    """
    # numpy and the kernels here, not at the top: the command line imports this module for its
    # options, and every other command (the table server among them) then starts without numpy.
    import numpy as np

    from beggar.kernels import exhaust as kernel
    from beggar.kernels import lockstep as lanes
    from beggar.kernels.bitwise import tables
    from beggar.kernels.codes import CFG_NEWEST_FIRST, CFG_WHEN_EMPTY
    from beggar.kernels.general import KernelRules

    began = time.perf_counter()
    deck = unit.deck()
    compiled = KernelRules.of(deck.rules)
    flags, codes, pays = tables(compiled.values)
    current = np.array(deck.arrangements.unrank(unit.start), dtype=np.uint8)
    count = unit.stop - unit.start
    cards_hist = np.zeros(kernel.HISTOGRAM, np.int64)
    tricks_hist = np.zeros(kernel.HISTOGRAM, np.int64)
    wins = np.zeros(2, np.int64)
    loops = np.zeros(kernel.LOOPS, np.int64)
    loop_rows = np.zeros((kernel.LOOPS, 4), np.int64)
    by_cards = np.zeros((kernel.CANDIDATES, kernel.C_WIDTH), np.int64)
    by_tricks = np.zeros((kernel.CANDIDATES, kernel.C_WIDTH), np.int64)
    state = np.zeros(kernel.S_SIZE, np.int64)
    never: list[NeverEndingDeal] = []
    standard = not compiled.cfg[CFG_NEWEST_FIRST] and not compiled.cfg[CFG_WHEN_EMPTY] and pays.size <= 4
    in_lanes = standard and lockstep and deck.composition.size <= lanes.MAX_CARDS
    if in_lanes:
        # Chunks of consecutive deals, each lane playing one chunk at a time in index order.
        cuts = chunk_cuts(count, lanes.LANES)
        decks = np.array([deck.arrangements.unrank(unit.start + cut) for cut in cuts[:-1]], dtype=np.uint8)
        pos = np.array(cuts[:-1], dtype=np.int64)
        stop = np.array(cuts[1:], dtype=np.int64)
    play = kernel.play_range if standard else kernel.play_range_any
    while True:
        if in_lanes:
            status = kernel.play_range_lanes(
                decks, pos, stop, deck.lead, flags, codes, pays, compiled.cfg, skip,
                cards_hist, tricks_hist, wins, loops, loop_rows, by_cards, by_tricks, state,
            )  # fmt: skip
        else:
            status = play(
                current, deck.lead, count, flags, codes, pays, compiled.cfg, skip,
                cards_hist, tricks_hist, wins, loops, loop_rows, by_cards, by_tricks, state,
            )  # fmt: skip
        for k in range(int(state[kernel.S_LOOPS])):
            never.append(_never_ending(deck, unit.start + int(loops[k]), loop_rows[k]))
        state[kernel.S_LOOPS] = 0
        if status == kernel.TOO_LONG:
            raise ExhaustError(f"a game of {deck.key} is longer than {kernel.HISTOGRAM:,} cards or tricks")
        if status == kernel.DONE:
            break
    if int(state[kernel.S_DONE]) != count:
        raise ExhaustError(f"the unit {unit.start:,} to {unit.stop:,} played {state[kernel.S_DONE]:,} deals")
    never.sort(key=lambda deal: deal.index)  # games in lockstep end out of order
    tops = {
        "cards": _longest(unit.start, by_cards, int(state[kernel.S_BY_CARDS]), kernel.C_CARDS),
        "tricks": _longest(unit.start, by_tricks, int(state[kernel.S_BY_TRICKS]), kernel.C_TRICKS),
    }
    # Most games are among the longest by both measures: each deal is written once.
    named = deck.deals(game[3] for games in tops.values() for game in games)
    longest = {
        measure: [LongGame(i, named[i], cards, tricks, winner) for cards, tricks, winner, i in games]
        for measure, games in tops.items()
    }
    return UnitResult(
        unit=unit,
        deals=count,
        cards={int(i): int(cards_hist[i]) for i in np.flatnonzero(cards_hist)},
        tricks={int(i): int(tricks_hist[i]) for i in np.flatnonzero(tricks_hist)},
        wins=(int(wins[0]), int(wins[1])),
        never_ending=never,
        longest=longest,
        seconds=time.perf_counter() - began,
        games=int(state[kernel.S_PLAYED]),
    )


def chunk_cuts(count: int, lanes: int) -> list[int]:
    """Where a unit of ``count`` deals is cut into chunks for ``lanes`` lanes: ``0``, ..., ``count``.

    Chunks of :data:`CHUNK` deals, shrinking towards the unit's end (each a ``2 * lanes``-th of
    the deals left, down to a 64th of a chunk): a lane that takes the last chunk plays it while
    the others, done, play nothing, so the last chunks are small and the lanes end together. With
    chunks of equal size, the lanes' idle time at the end cost some 3% of a unit of 3,000,000
    deals. A small unit is cut into a chunk a lane.

    >>> chunk_cuts(10, 4)
    [0, 2, 4, 6, 8, 10]
    >>> sizes = [b - a for a, b in itertools.pairwise(chunk_cuts(3_000_000, 4))]
    >>> sizes[:2], sizes[-3:], len(sizes)
    ([65536, 65536], [1024, 1024, 954], 77)
    """
    smallest = max(1, min(CHUNK // 64, count // lanes))
    cuts = [0]
    while cuts[-1] < count:
        left = count - cuts[-1]
        cuts.append(cuts[-1] + min(CHUNK, left, max(left // (2 * lanes), smallest)))
    return cuts


def _longest(start: int, rows: Any, count: int, column: int) -> list[tuple[int, int, int, int]]:
    """The unit's longest games from the kernel's candidates (a block of equal games expanded),
    each as ``(cards, tricks, winner, index)``."""
    from beggar.kernels import exhaust as kernel

    games: list[tuple[int, int, int, int]] = []
    for r in range(count):
        offset, cards, tricks, winner, times = (int(x) for x in rows[r])
        for i in range(min(times, kernel.LONGEST)):
            games.append((cards, tricks, winner, start + offset + i))
    key = 0 if column == kernel.C_CARDS else 1
    games.sort(key=lambda g: (-g[key], g[3]))
    return games[: kernel.LONGEST]


def _never_ending(deck: ExhaustDeck, index: int, row: Any) -> NeverEndingDeal:
    """A never-ending deal the kernel found, replayed by the engine and named by its cycle."""
    import numpy as np

    from beggar.cycle import find_cycle
    from beggar.research.cycles.canon import Alphabet, form_of, played_form

    pays = deck.arrangements.unrank(index)
    text = deck.compact(pays)
    lead_in_cards, lead_in_tricks, period_cards, period_tricks = (int(x) for x in row)
    cycle = find_cycle(text, deck.rules, first=0, complete=deck.composition.full)
    engine = (
        None
        if cycle is None
        else (cycle.pre_period_cards, cycle.pre_period_tricks, cycle.period_cards, cycle.period_tricks)
    )
    if engine != (lead_in_cards, lead_in_tricks, period_cards, period_tricks):
        raise ExhaustError(f"the engine plays deal {index} ({text}) otherwise: {engine}")
    alphabet = Alphabet.of(deck.rules)
    found = form_of(alphabet, np.array(pays, dtype=np.uint8), deck.lead)
    assert cycle is not None and found is not None
    form = found[0].deal
    if played_form(alphabet, cycle).deal != form:
        raise ExhaustError(f"the engine names the cycle of deal {index} ({text}) otherwise")
    return NeverEndingDeal(index, text, form, period_cards, period_tricks, lead_in_cards, lead_in_tricks)


def check_longest(deck: ExhaustDeck, games: Iterable[LongGame]) -> None:
    """Replay long games by the reference engine; a disagreement is an error, never a result."""
    from beggar.engine import Game, Status

    for game in games:
        record = Game(game.deal, deck.rules, first=0, complete=deck.composition.full).run()
        seen = (record.status, record.cards, record.tricks, record.winner)
        if seen != (Status.FINISHED, game.cards, game.tricks, game.winner):
            raise ExhaustError(f"the engine plays deal {game.index} ({game.deal}) otherwise: {seen}")


# == the store ========================================================================================


class ExhaustStore:
    """Reads and writes the exhaust's tables of a research database: they are part of the store's
    schema (:class:`beggar.research.store.Store` creates, versions and migrates them), and each
    write goes through its transaction (a full disk is a :class:`~beggar.research.store.StoreWriteError`,
    nothing of the unit kept)."""

    def __init__(self, store: Store) -> None:
        # The tables are the store's (its schema's step 4), versioned and migrated with it.
        self.store = store
        self.db = store.db

    def done(self, deck: str) -> list[tuple[int, int]]:
        """The units of ``deck`` already stored, as ``(start, stop)``, in order."""
        rows = self.db.execute(
            "SELECT start, stop FROM exhaust_units WHERE deck = ? ORDER BY start", (deck,)
        ).fetchall()
        return [(int(a), int(b)) for a, b in rows]

    def pending(self, deck: str, units: list[Unit]) -> list[Unit]:
        """The parts of ``units`` not stored yet: a unit that a run cut otherwise has already
        covered in part is cut down to the deals still missing, so nothing is played twice."""
        done = self.done(deck)
        left: list[Unit] = []
        for unit in units:
            start = unit.start
            for a, b in done:
                if b <= start or a >= unit.stop:
                    continue
                if a > start:
                    left.append(Unit(unit.rules, unit.counts, start, a))
                start = max(start, b)
            if start < unit.stop:
                left.append(Unit(unit.rules, unit.counts, start, unit.stop))
        return left

    def threshold(self, deck: str, measure: str, most: int) -> tuple[int, int] | None:
        """The ``most``-th longest stored game by ``measure`` as ``(length, -index)``, or None."""
        row = self.db.execute(
            f"SELECT {measure}, idx FROM exhaust_longest WHERE deck = ? AND measure = ? "
            f"ORDER BY {measure} DESC, idx ASC LIMIT 1 OFFSET ?",
            (deck, measure, most - 1),
        ).fetchone()
        return None if row is None else (int(row[0]), -int(row[1]))

    def save(self, deck: str, result: UnitResult, most: int) -> None:
        """Record a unit's result and mark it done, in one transaction.

        A unit that another run (on the same database and deck, at the same time) stored deals of
        meanwhile is refused whole (:class:`ExhaustError`): no deal is counted twice, and the same
        command, run again, plays only what is still missing.
        """
        with self.store.transaction():
            self._save(deck, result, most)

    def _save(self, deck: str, result: UnitResult, most: int) -> None:
        unit = result.unit
        # Read inside the transaction, which holds the write lock. Stored units never overlap, so
        # the one starting last before this unit's end is the only one that can reach into it.
        before = self.db.execute(
            "SELECT start, stop FROM exhaust_units WHERE deck = ? AND start < ? ORDER BY start DESC LIMIT 1",
            (deck, unit.stop),
        ).fetchone()
        if before is not None and int(before[1]) > unit.start:
            raise ExhaustError(
                f"another run stored deals of the unit of indices {unit.start:,} to {unit.stop - 1:,} "
                f"of {deck} meanwhile ({before[0]:,} to {before[1] - 1:,}): nothing of this unit was "
                "kept; give the same command again once the other run ends"
            )
        self.db.execute(
            "INSERT INTO exhaust_units (deck, start, stop, deals, seconds) VALUES (?, ?, ?, ?, ?)",
            (deck, unit.start, unit.stop, result.deals, result.seconds),
        )
        for measure, lengths in (("cards", result.cards), ("tricks", result.tricks)):
            self.db.executemany(
                "INSERT INTO exhaust_lengths (deck, measure, length, games) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (deck, measure, length) DO UPDATE SET games = games + excluded.games",
                [(deck, measure, length, games) for length, games in lengths.items()],
            )
        self.db.executemany(
            "INSERT INTO exhaust_wins (deck, seat, games) VALUES (?, ?, ?) "
            "ON CONFLICT (deck, seat) DO UPDATE SET games = games + excluded.games",
            [(deck, seat, games) for seat, games in enumerate(result.wins)],
        )
        for never in result.never_ending:
            self.db.execute(
                "INSERT OR IGNORE INTO exhaust_cycles (deck, cycle, period_cards, period_tricks) "
                "VALUES (?, ?, ?, ?)",
                (deck, never.cycle, never.period_cards, never.period_tricks),
            )
            self.db.execute(
                "INSERT INTO exhaust_never_ending VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (deck, never.index, never.deal, never.cycle, never.period_cards,
                 never.period_tricks, never.lead_in_cards, never.lead_in_tricks),
            )  # fmt: skip
        for measure, games in result.longest.items():
            for game in games:
                self.db.execute(
                    "INSERT INTO exhaust_longest VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (deck, measure, game.index, game.deal, game.cards, game.tricks, game.winner),
                )
            self.db.execute(
                f"DELETE FROM exhaust_longest WHERE deck = ? AND measure = ? AND idx NOT IN ("
                f"SELECT idx FROM exhaust_longest WHERE deck = ? AND measure = ? "
                f"ORDER BY {measure} DESC, idx ASC LIMIT ?)",
                (deck, measure, deck, measure, most),
            )

    def summary(self, deck: ExhaustDeck) -> dict[str, Any]:
        """Everything stored for ``deck``: the ``--json`` object of ``beggar exhaust``."""
        key = deck.key
        deals = self.db.execute(
            "SELECT COALESCE(SUM(deals), 0) FROM exhaust_units WHERE deck = ?", (key,)
        ).fetchone()[0]
        never = [
            {
                "index": int(r[0]),
                "deal": r[1],
                "cycle": r[2],
                "period_cards": int(r[3]),
                "period_tricks": int(r[4]),
                "lead_in_cards": int(r[5]),
                "lead_in_tricks": int(r[6]),
            }
            for r in self.db.execute(
                "SELECT idx, deal, cycle, period_cards, period_tricks, lead_in_cards, lead_in_tricks "
                "FROM exhaust_never_ending WHERE deck = ? ORDER BY idx",
                (key,),
            )
        ]
        # A cycle is printed through its one description (CycleFigures.to_dict), its figures
        # computed again from the stored canonical position: one kernel call a cycle, and the
        # store keeps no second copy of the figures.
        from beggar.research.cycles.canon import canonical_form

        cycles = [
            {**canonical_form(r[0], deck.rules).to_dict(), "deals": int(r[1])}
            for r in self.db.execute(
                "SELECT c.cycle, COUNT(n.idx) FROM exhaust_cycles c "
                "JOIN exhaust_never_ending n ON n.deck = c.deck AND n.cycle = c.cycle WHERE c.deck = ? "
                "GROUP BY c.cycle ORDER BY c.period_cards, c.cycle",
                (key,),
            )
        ]
        longest = {
            measure: [
                {
                    "index": int(r[0]),
                    "deal": r[1],
                    "cards": int(r[2]),
                    "tricks": int(r[3]),
                    "winner": int(r[4]),
                }
                for r in self.db.execute(
                    "SELECT idx, deal, cards, tricks, winner FROM exhaust_longest "
                    f"WHERE deck = ? AND measure = ? ORDER BY {measure} DESC, idx ASC",
                    (key, measure),
                )
            ]
            for measure in MEASURES
        }
        lengths = {
            measure: {
                str(r[0]): int(r[1])
                for r in self.db.execute(
                    "SELECT length, games FROM exhaust_lengths WHERE deck = ? AND measure = ? "
                    "ORDER BY length",
                    (key, measure),
                )
            }
            for measure in MEASURES
        }
        wins = dict(self.db.execute("SELECT seat, games FROM exhaust_wins WHERE deck = ?", (key,)).fetchall())
        return {
            "rules": deck.composition.rules.spec(),
            "composition": deck.composition.describe(),
            "total": deck.total,
            "deals": int(deals),
            "never_ending": never,
            "cycles": cycles,
            "longest": longest["cards"],
            "longest_tricks": longest["tricks"],
            "lengths": lengths,
            "wins": {"first": int(wins.get(0, 0)), "second": int(wins.get(1, 0))},
        }


# == the run ==========================================================================================


@dataclass
class ExhaustProgress:
    """Where an exhaust stands: deals of the range, those done before and in this run."""

    deals: int = 0
    done: int = 0
    skipped: int = 0
    never_ending: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    units: int = 0
    started: float = field(default_factory=time.perf_counter)


def run_exhaust(
    deck: ExhaustDeck,
    store: ExhaustStore,
    first: int,
    last: int,
    *,
    unit_size: int = DEFAULT_UNIT,
    workers: int | None = None,
    executor: cf.Executor | None = None,
    on_progress: Callable[[ExhaustProgress], None] | None = None,
) -> ExhaustProgress:
    """Play and store every deal of indices ``first`` to ``last - 1`` that the store does not hold yet.

    The units run through the one runner of :mod:`beggar.research.cluster`: a unit is an index
    range, :func:`play_unit` its work, and :meth:`ExhaustStore.save` records it in one transaction.
    """
    from beggar.research.cluster import Schedule, UnitList, run_units

    deck.check_playable()
    units = deck.units(first, last, unit_size)
    todo = store.pending(deck.key, units)
    progress = ExhaustProgress(deals=last - first)
    progress.skipped = progress.deals - sum(u.stop - u.start for u in todo)
    progress.done = progress.skipped
    if on_progress is not None:
        on_progress(progress)

    def record(result: UnitResult) -> None:
        _check_new_longest(deck, store, result)
        store.save(deck.key, result, _most())
        progress.done += result.deals
        progress.units += 1
        progress.never_ending += len(result.never_ending)
        progress.cpu_seconds += result.seconds
        progress.seconds = time.perf_counter() - progress.started

    run_units(
        UnitList(todo, play_unit, record),
        Schedule(executor=executor, workers=workers),
        on_round=None if on_progress is None else lambda: on_progress(progress),
    )
    progress.seconds = time.perf_counter() - progress.started
    return progress


def _most() -> int:
    from beggar.kernels.exhaust import LONGEST

    return LONGEST


def _check_new_longest(deck: ExhaustDeck, store: ExhaustStore, result: UnitResult) -> None:
    """Replay by the engine each of the unit's long games that will enter the stored longest."""
    for measure, games in result.longest.items():
        bar = store.threshold(deck.key, measure, _most())
        entering = [game for game in games if bar is None or (getattr(game, measure), -game.index) > bar]
        check_longest(deck, entering)


__all__ = [
    "DEFAULT_UNIT",
    "ExhaustDeck",
    "ExhaustError",
    "ExhaustProgress",
    "ExhaustStore",
    "LongGame",
    "NeverEndingDeal",
    "Unit",
    "UnitResult",
    "play_unit",
    "run_exhaust",
]
