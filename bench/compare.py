"""The bit kernel against a plain card-by-card C loop and the general kernel, in the same run.

Builds ``bench/cloop.c`` with ``gcc -O3 -march=native``, then measures each player's marginal
throughput on random standard deals, one worker: ``(N - M) / (t(N) - t(M))`` with ``t`` the best
of three timings of ``N`` (default 2,500,000) and ``M`` (500,000) games, the players measured in
turn so that they share the machine's noise. The numba players are called on chunks of
:data:`beggar.research.simulate.CHUNK` games (16,384), as ``beggar simulate`` calls them (``--chunk 0``:
one call for all, whose result table of 88 bytes a game is then fresh memory, which costs this
virtual machine about a fifth of the bit kernel's speed in page faults). Every player plays the
very same games (the C loop deals with the kernel's random streams), and the script checks that
the C loop and the bit kernel agree on the total cards, tricks and first-hand wins. From the repository root::

    PYTHONPATH=src .venv/bin/python bench/compare.py --runs 5

prints each run's games per second and the ratios to the C loop, then the median and range of
each ratio over the runs (ratios measured in the same run are robust to a shared machine).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from beggar.kernels import bitwise, general
from beggar.research.simulate import CHUNK
from beggar.rules import STANDARD

HERE = Path(__file__).resolve().parent

Timer = Callable[[int], float]
"""Seconds a player takes for ``n`` games (the first ``n`` of the seed)."""


def build_cloop(directory: Path) -> Path:
    """Compile ``cloop.c`` into ``directory``; return the executable."""
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        sys.exit("compare.py: no C compiler (gcc) on the PATH")
    binary = directory / "cloop"
    subprocess.run(
        [compiler, "-O3", "-march=native", "-o", str(binary), str(HERE / "cloop.c")],
        check=True,
    )
    return binary


def deck_digits() -> str:
    """The standard deck's pay values in the kernel's deck order, one digit a card."""
    return "".join(str(int(v)) for v in general.KernelRules.of(STANDARD).values)


def c_run(binary: Path, seed: int, games: int, cpu: bool = False) -> tuple[float, list[int]]:
    """The C loop's own timing of ``games`` games and its totals (cards, tricks, first-hand wins)."""
    out = subprocess.run(
        [str(binary), deck_digits(), str(seed), str(games)], check=True, capture_output=True, text=True
    ).stdout.split()
    wall, _, cards, tricks, first_wins, capped = float(out[0]), *map(int, out[1:6])
    if capped:
        sys.exit(f"compare.py: {capped} games reached the C loop's 20,000-card bound")
    return (float(out[6]) if cpu else wall), [cards, tricks, first_wins]


def python_timer(play: Callable[[int], object], cpu: bool) -> Timer:
    clock = time.thread_time if cpu else time.perf_counter

    def timed(games: int) -> float:
        start = clock()
        play(games)
        return clock() - start

    return timed


def chunked(play: Callable[[int, int], object], chunk: int) -> Callable[[int], None]:
    """Play games ``0 .. n - 1`` as ``play(start, count)`` in chunks of ``chunk`` (0: one batch)."""

    def run(games: int) -> None:
        size = chunk or games
        for start in range(0, games, size):
            play(start, min(size, games - start))

    return run


def players(binary: Path, seed: int, cpu: bool, chunk: int) -> dict[str, Timer]:
    def timer(play: Callable[[int, int], object]) -> Timer:
        return python_timer(chunked(play, chunk), cpu)

    timers: dict[str, Timer] = {
        "C loop (gcc -O3 -march=native)": lambda n: c_run(binary, seed, n, cpu)[0],
        "kernel": timer(lambda start, n: general.play_random(STANDARD, seed, start, n)),
        "bit kernel, lockstep": timer(lambda start, n: bitwise.play_random(STANDARD, seed, start, n)),
        "bit kernel, scalar, cttz": timer(
            lambda start, n: bitwise.play_random(STANDARD, seed, start, n, lockstep=False)
        ),
        "bit kernel, scalar, de Bruijn": timer(
            lambda start, n: bitwise.play_random(STANDARD, seed, start, n, count_zeros="debruijn")
        ),
    }
    return timers


def check_agreement(binary: Path, seed: int, games: int) -> None:
    """The C loop and the bit kernel play the same games to the same totals."""
    _, c_totals = c_run(binary, seed, games)
    batch = bitwise.play_random(STANDARD, seed, 0, games)
    totals = [int(batch.cards.sum()), int(batch.tricks.sum()), int((batch.winner == 0).sum())]
    if totals != c_totals:
        sys.exit(f"compare.py: the C loop and the bit kernel disagree: {c_totals} != {totals}")


def one_run(timers: dict[str, Timer], games: int, base: int, rounds: int) -> dict[str, float]:
    """Marginal games per second of every player, best of ``rounds`` timings, players in turn."""
    best = {name: [float("inf"), float("inf")] for name in timers}
    for _ in range(rounds):
        for name, timer in timers.items():
            best[name][0] = min(best[name][0], timer(games))
            best[name][1] = min(best[name][1], timer(base))
    return {name: (games - base) / (hi - lo) for name, (hi, lo) in best.items()}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=2_500_000, help="N of t(N) - t(M)")
    parser.add_argument("--base", type=int, default=500_000, help="M of t(N) - t(M)")
    parser.add_argument("--rounds", type=int, default=3, help="timings per size; the best is kept")
    parser.add_argument("--runs", type=int, default=1, help="whole comparisons, for the spread")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--chunk",
        type=int,
        default=CHUNK,
        help=f"games per kernel call, as simulate plays them (default {CHUNK}; 0: all in one call)",
    )
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall-clock seconds (the default), or each player's own CPU seconds (steadier when shared)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()

    bitwise.warm_up()
    general.warm_up()
    bitwise.play_random(STANDARD, 0, 0, 1, lockstep=False)
    bitwise.play_random(STANDARD, 0, 0, 1, count_zeros="debruijn")
    with tempfile.TemporaryDirectory(prefix="beggar-cloop-") as tmp:
        binary = build_cloop(Path(tmp))
        check_agreement(binary, args.seed, args.base)
        timers = players(binary, args.seed, args.clock == "cpu", args.chunk)
        runs = []
        for run in range(args.runs):
            speeds = one_run(timers, args.games, args.base, args.rounds)
            runs.append(speeds)
            if not args.json:
                c = next(iter(speeds.values()))
                print(f"run {run + 1}:")
                for name, speed in speeds.items():
                    print(f"  {name:32s} {speed:12,.0f} games/s  {speed / c:5.2f} x the C loop")
    names = list(runs[0])
    ratios = {name: [r[name] / r[names[0]] for r in runs] for name in names[1:]}
    if args.json:
        report = {
            "games": args.games,
            "base": args.base,
            "chunk": args.chunk,
            "clock": args.clock,
            "runs": runs,
            "ratios": ratios,
        }
        print(json.dumps(report))
        return
    print(f"ratio to the C loop over {args.runs} runs (median, min - max):")
    for name, values in ratios.items():
        print(f"  {name:32s} {statistics.median(values):5.2f}  ({min(values):.2f} - {max(values):.2f})")


if __name__ == "__main__":
    main()
