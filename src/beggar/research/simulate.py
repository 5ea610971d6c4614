"""Simulations: millions of random deals through the compiled kernel, summarised in fixed memory.

Game ``i`` of a run with seed ``S`` is always the same deal with the same result, so a run's
summary depends only on the rules, the seed and the number of games: never on the number of
workers or the chunk size. Workers are threads running the kernel, which releases the GIL.

Game lengths are kept as exact histograms (one count per number of cards or tricks, with a list
for the rare values beyond the histogram), so medians and percentiles are exact, and a run of
a hundred million games holds no per-game rows.

>>> summary = simulate("standard", games=2_000, seed=1)
>>> from beggar.kernels import general
>>> played = general.play_random(seed=1, count=2_000)
>>> summary.games, summary.cards.median == float(np.median(played.cards))
(2000, True)
>>> summary.cards.max == int(played.cards.max()), summary.cards.p90 == float(np.quantile(played.cards, 0.9))
(True, True)
"""

from __future__ import annotations

import csv
import json
import math
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np
import numpy.typing as npt
from rich.table import Table

from beggar.kernels import codes
from beggar.research.cluster import bounded_workers
from beggar.rules import Rules, rules_named

if TYPE_CHECKING:
    from beggar.kernels.general import Batch, KernelRules

# The compiled kernel (and numba) is imported only when games are played, so that importing
# this module, for example to register the command, stays fast.

CHUNK = 1 << 14
"""Games per kernel call (results never depend on it). Small enough that workers finish together:
a million games in chunks of 65,536 left one of two workers idle for most of a chunk at the end
(about 5% of the run); a call costs about 30 microseconds, a third of a percent of a chunk."""

HISTOGRAM_SIZE = 1 << 15
"""Lengths below this are counted in the histogram; longer ones are kept in a list."""

Z95 = 1.959963984540054


# -- exact histograms --------------------------------------------------------------------------------


@dataclass
class Histogram:
    """Exact counts of non-negative integers: an array below ``size``, a list above.

    >>> h = Histogram(size=4)
    >>> h.add(np.array([1, 2, 2, 9]))
    >>> h.count, h.quantile(0.5), h.maximum, h.mean
    (4, 2.0, 9, 3.5)
    """

    size: int = HISTOGRAM_SIZE
    counts: npt.NDArray[np.int64] = field(init=False)
    overflow: list[int] = field(default_factory=list)
    count: int = 0
    total: int = 0

    def __post_init__(self) -> None:
        self.counts = np.zeros(self.size, dtype=np.int64)

    def add(self, values: npt.NDArray[np.int64]) -> None:
        """Count every value of ``values``."""
        if values.size == 0:
            return
        small = values < self.size
        self.counts += np.bincount(values[small], minlength=self.size)
        if not small.all():
            self.overflow.extend(int(v) for v in values[~small])
        self.count += int(values.size)
        self.total += int(values.sum(dtype=np.int64))

    def merge(self, other: Histogram) -> None:
        """Add another histogram's counts to this one."""
        self.counts += other.counts
        self.overflow.extend(other.overflow)
        self.count += other.count
        self.total += other.total

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else math.nan

    @property
    def maximum(self) -> int:
        if self.overflow:
            return max(self.overflow)
        nonzero = np.flatnonzero(self.counts)
        return int(nonzero[-1]) if nonzero.size else 0

    def order_statistic(self, k: int) -> int:
        """The ``k``-th smallest value (0-based)."""
        if not 0 <= k < self.count:
            raise IndexError(k)
        cumulative = np.cumsum(self.counts)
        if k < cumulative[-1]:
            return int(np.searchsorted(cumulative, k, side="right"))
        return sorted(self.overflow)[k - int(cumulative[-1])]

    def quantile(self, q: float) -> float:
        """The ``q`` quantile, interpolated exactly as :func:`numpy.quantile` does by default."""
        if not self.count:
            return math.nan
        position = (self.count - 1) * q
        below = math.floor(position)
        low = self.order_statistic(below)
        if below + 1 >= self.count or position == below:
            return float(low)
        high = self.order_statistic(below + 1)
        return low + (high - low) * (position - below)

    def share_above(self, limit: int) -> npt.NDArray[np.float64]:
        """For n = 0 .. limit - 1, the share of values greater than n (a survival curve)."""
        counts = self.dense(limit)
        at_most = np.cumsum(counts)
        return 1.0 - at_most / max(self.count, 1)

    def dense(self, limit: int) -> npt.NDArray[np.int64]:
        """Counts for every value below ``limit`` (the overflow list included)."""
        counts = np.zeros(limit, dtype=np.int64)
        n = min(limit, self.size)
        counts[:n] = self.counts[:n]
        for value in self.overflow:
            if value < limit:
                counts[value] += 1
        return counts


# -- summaries ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spread:
    """Mean, percentiles and maximum of a game-length measure."""

    mean: float
    median: float
    p10: float
    p90: float
    p99: float
    max: int

    @classmethod
    def of(cls, histogram: Histogram) -> Spread:
        return cls(
            mean=histogram.mean,
            median=histogram.quantile(0.5),
            p10=histogram.quantile(0.1),
            p90=histogram.quantile(0.9),
            p99=histogram.quantile(0.99),
            max=histogram.maximum,
        )

    def to_dict(self) -> dict[str, float]:
        return {
            "mean": self.mean,
            "median": self.median,
            "p10": self.p10,
            "p90": self.p90,
            "p99": self.p99,
            "max": self.max,
        }


@dataclass(frozen=True)
class Rate:
    """A share of games with its Wilson 95% confidence interval."""

    count: int
    games: int

    @property
    def rate(self) -> float:
        return self.count / self.games if self.games else math.nan

    @property
    def ci95(self) -> tuple[float, float]:
        """Wilson score interval at 95%."""
        n = self.games
        if not n:
            return (math.nan, math.nan)
        p = self.count / n
        z2 = Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    def to_dict(self) -> dict[str, Any]:
        low, high = self.ci95
        return {"count": self.count, "rate": self.rate, "ci95": [low, high]}


@dataclass
class Tally:
    """Running totals of a simulation, in fixed memory."""

    cards: Histogram = field(default_factory=Histogram)
    tricks: Histogram = field(default_factory=Histogram)
    games: int = 0
    first_wins: int = 0
    finished: int = 0
    loops: int = 0
    stopped: int = 0
    draws: int = 0
    redeals: int = 0

    def add(self, batch: Batch) -> None:
        """Count a batch of games."""

        self.cards.add(batch.cards)
        self.tricks.add(batch.tricks)
        self.games += len(batch)
        self.first_wins += int(np.count_nonzero(batch.winner == batch.first))
        status = np.bincount(batch.status, minlength=3)
        self.finished += int(status[codes.STATUS_FINISHED])
        self.loops += int(status[codes.STATUS_LOOP])
        self.stopped += int(status[codes.STATUS_STOPPED])
        outcome = np.bincount(batch.outcome, minlength=4)
        self.draws += int(outcome[codes.OUTCOME_DRAW])
        self.redeals += int(outcome[codes.OUTCOME_REDEAL])


@dataclass(frozen=True)
class Summary:
    """What a simulation of one rule set found.

    ``first_player_wins`` is the share of *all* games (loops, stops and draws included) won by
    the player who led the first card.
    """

    rules_name: str
    seed: int
    games: int
    cards: Spread
    tricks: Spread
    first_player_wins: Rate
    finished: int
    loops: int
    stopped: int
    draws: int
    redeals: int
    seconds: float
    card_histogram: Histogram = field(repr=False, compare=False)
    trick_histogram: Histogram = field(repr=False, compare=False)

    @classmethod
    def of(cls, rules_name: str, seed: int, tally: Tally, seconds: float) -> Summary:
        return cls(
            rules_name=rules_name,
            seed=seed,
            games=tally.games,
            cards=Spread.of(tally.cards),
            tricks=Spread.of(tally.tricks),
            first_player_wins=Rate(tally.first_wins, tally.games),
            finished=tally.finished,
            loops=tally.loops,
            stopped=tally.stopped,
            draws=tally.draws,
            redeals=tally.redeals,
            seconds=seconds,
            card_histogram=tally.cards,
            trick_histogram=tally.tricks,
        )

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.inf

    def to_dict(self) -> dict[str, Any]:
        """The JSON summary."""
        return {
            "rules": self.rules_name,
            "seed": self.seed,
            "games": self.games,
            "cards": self.cards.to_dict(),
            "tricks": self.tricks.to_dict(),
            "first_player_wins": self.first_player_wins.to_dict(),
            "finished": self.finished,
            "loops": self.loops,
            "stopped": self.stopped,
            "draws": self.draws,
            "redeals": self.redeals,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
        }


# -- running -----------------------------------------------------------------------------------------


RowSink = Callable[[Rules, int, int, "Batch"], None]
"""Receives every chunk's games in order: rules, seed, index of the chunk's first game, batch."""


def chunks(games: int, size: int = CHUNK) -> Iterator[tuple[int, int]]:
    """``(start, count)`` of every chunk of a run of ``games`` games."""
    for start in range(0, games, size):
        yield start, min(size, games - start)


def run_batches(
    rules: Rules | KernelRules,
    games: int,
    seed: int,
    workers: int = 1,
    chunk: int = CHUNK,
    *,
    fast: bool = True,
) -> Iterator[tuple[int, Batch]]:
    """Play ``games`` seeded games on ``workers`` threads; yield ``(start, batch)`` in game order.

    With ``fast`` (the default) the bit kernel plays the rules it covers; the results are the
    same either way, game for game.
    """
    from beggar.kernels import bitwise, general

    compiled = rules if isinstance(rules, general.KernelRules) else general.KernelRules.of(rules)
    play = bitwise.play_random_fastest if fast else general.play_random
    warm(compiled, fast=fast)  # compile or load in this thread first, not in every worker at once

    def work(span: tuple[int, int]) -> tuple[int, Batch]:
        start, count = span
        return start, play(compiled, seed, start, count)

    spans = list(chunks(games, chunk))
    workers = bounded_workers(workers, len(spans))
    if workers <= 1:
        yield from map(work, spans)
        return
    with ThreadPoolExecutor(max_workers=workers) as pool:
        # Keep a bounded number of chunks in flight, and hand them out in order.
        pending = [pool.submit(work, span) for span in spans[: 2 * workers]]
        following = 2 * workers
        while pending:
            result = pending.pop(0).result()
            if following < len(spans):
                pending.append(pool.submit(work, spans[following]))
                following += 1
            yield result


def warm(rules: Rules | KernelRules, *, fast: bool = True) -> None:
    """Compile what :func:`run_batches` plays under ``rules``, or load it from the cache.

    The first time (for these sources) it says so on standard error, with the usual time; speed
    figures are measured after this, so they never include the compile.
    """
    from beggar.kernels import bitwise, general
    from beggar.kernels.jit import compiling

    compiled = rules if isinstance(rules, general.KernelRules) else general.KernelRules.of(rules)
    bit = fast and bitwise.covers(compiled.rules)
    with compiling("bitwise" if bit else "general", 20 if bit else 15):
        (bitwise.play_random_fastest if fast else general.play_random)(compiled, 0, 0, 1)


def simulate(
    rules: Rules | str,
    games: int,
    seed: int = 0,
    workers: int = 1,
    *,
    chunk: int = CHUNK,
    progress: Callable[[int], None] | None = None,
    rows: RowSink | None = None,
) -> Summary:
    """Play ``games`` random deals under ``rules`` and summarise them.

    ``progress`` is called with the number of games finished after each chunk; ``rows`` gets
    every chunk's per-game results (for a CSV file), in game order.
    """
    resolved = rules_named(rules) if isinstance(rules, str) else rules
    warm(resolved)
    began = time.perf_counter()
    tally = Tally()
    for start, batch in run_batches(resolved, games, seed, workers, chunk):
        tally.add(batch)
        if rows is not None:
            rows(resolved, seed, start, batch)
        if progress is not None:
            progress(len(batch))
    return Summary.of(resolved.name, seed, tally, time.perf_counter() - began)


# -- per-game rows -----------------------------------------------------------------------------------

CSV_FIELDS = (
    "rules",
    "seed",
    "game",
    "deal",
    "first",
    "status",
    "reason",
    "outcome",
    "cards",
    "tricks",
    "winner",
)


def deal_strings(rules: Rules, seed: int, start: int, count: int) -> list[str]:
    """The deals of games ``start .. start + count - 1``: compact notation, or ranks where a number
    rank pays (then ``-`` would be ambiguous).

    >>> from beggar.rules import STANDARD
    >>> from beggar.kernels.general import random_deals
    >>> deal_strings(STANDARD, 3, 5, 1)[0] == random_deals(STANDARD, 3, 5, 1)[0][0].compact()
    True
    """
    cards = rules.deck.cards()
    ranks = rules.number_ranks_pay
    symbols = [
        (card.rank.symbol if card.rank is not None else "-")
        if ranks or not (card.rank is None or card.rank.is_number)
        else "-"
        for card in cards
    ]
    table = np.array([s.encode() for s in symbols], dtype="S1")
    from beggar.kernels import general

    orders, _ = general.deal_orders(rules, seed, start, count)
    players = rules.players
    size = rules.deck.size
    columns: list[npt.NDArray[np.bytes_]] = []
    for hand in range(players):
        if hand:
            columns.append(np.full((count, 1), b"/", dtype="S1"))
        columns.append(table[orders[:, hand:size:players]])
    joined = np.ascontiguousarray(np.concatenate(columns, axis=1))
    width = joined.shape[1]
    return [s.decode() for s in joined.view(f"S{width}").ravel()]


class CsvRows:
    """Writes one CSV row per game as the chunks arrive."""

    def __init__(self, stream: TextIO) -> None:
        self.writer = csv.writer(stream)
        self.writer.writerow(CSV_FIELDS)

    def __call__(self, rules: Rules, seed: int, start: int, batch: Batch) -> None:

        deals = deal_strings(rules, seed, start, len(batch))
        statuses = [str(s) for s in codes.STATUSES]
        reasons = [str(r) for r in codes.REASONS]
        outcomes = [str(o) for o in codes.OUTCOMES]
        table = batch.table.tolist()
        self.writer.writerows(
            (
                rules.spec(),
                seed,
                start + i,
                deals[i],
                row[codes.COL_FIRST],
                statuses[row[codes.COL_STATUS]],
                reasons[row[codes.COL_REASON]],
                outcomes[row[codes.COL_OUTCOME]],
                row[codes.COL_CARDS],
                row[codes.COL_TRICKS],
                "" if row[codes.COL_WINNER] < 0 else row[codes.COL_WINNER],
            )
            for i, row in enumerate(table)
        )


# -- output ------------------------------------------------------------------------------------------


def _number(value: float) -> str:
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.1f}"


def _spread_cell(measure: str, key: str, summary: Summary) -> str:
    return _number(getattr(getattr(summary, measure), key))


def _count_cell(key: str, summary: Summary) -> str:
    return f"{getattr(summary, key):,}"


def summary_table(summaries: Sequence[Summary]) -> Table:
    """The summaries side by side, one column per rule set."""
    table = Table(title=f"{summaries[0].games:,} games per rule set, seed {summaries[0].seed}")
    table.add_column("")
    for summary in summaries:
        table.add_column(summary.rules_name, justify="right")

    def row(label: str, cell: Callable[[Summary], str]) -> None:
        table.add_row(label, *(cell(s) for s in summaries))

    row("games", lambda s: f"{s.games:,}")
    for measure in ("cards", "tricks"):
        for key in ("mean", "median", "p10", "p90", "p99", "max"):
            row(f"{measure} {key}", partial(_spread_cell, measure, key))
    row("first player wins", lambda s: f"{s.first_player_wins.rate:.2%}")
    row(
        "  95% interval",
        lambda s: f"{s.first_player_wins.ci95[0]:.2%} to {s.first_player_wins.ci95[1]:.2%}",
    )
    for key in ("finished", "loops", "stopped", "draws", "redeals"):
        row(key, partial(_count_cell, key))
    row("seconds", lambda s: f"{s.seconds:.2f}")
    row("games per second", lambda s: f"{s.games_per_second:,.0f}")
    return table


def summaries_json(summaries: Sequence[Summary]) -> str:
    """One JSON object for one rule set, an array of them for several."""
    data: Any = [s.to_dict() for s in summaries]
    return json.dumps(data[0] if len(data) == 1 else data, indent=2)


__all__ = [
    "CHUNK",
    "CsvRows",
    "Histogram",
    "Rate",
    "Spread",
    "Summary",
    "Tally",
    "chunks",
    "deal_strings",
    "run_batches",
    "simulate",
    "summaries_json",
    "summary_table",
]
