"""``beggar exhaust``'s kernel against a plain C loop over the same consecutive deals, in the same run.

Builds ``bench/cexhaust.c`` with ``gcc -O3 -march=native``: from a deal, it steps through the
following deals in index order by next permutation and plays each one card by card. The exhaust
kernel (:func:`beggar.research.exhaust.play_unit`) plays the very same deals as it runs (four
games at a time in lockstep, blocks of deals that cannot differ counted at once), and three ways
for comparison: in lockstep with every deal played (``skip=False``), one game at a time each taken
up where the previous deal's left off (``lockstep=False``), and one game at a time, every deal
from its start (both False). Each player's own CPU time is measured (the C loop's thread clock,
this thread's for the kernel), the players in turn on each slice so that they share the
machine's noise, and the script checks that every player gives the same total of cards and of
first-hand wins. From the repository root::

    PYTHONPATH=src .venv/bin/python bench/exhaust_compare.py --rules half-deck --deals 5000000 --runs 5

prints each run's deals per CPU second and the ratios to the C loop, then the median and range of
each ratio over the runs.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from beggar.research.exhaust import ExhaustDeck, play_unit
from beggar.rules import rules_named

HERE = Path(__file__).resolve().parent


def build(directory: Path) -> Path:
    """Compile ``cexhaust.c`` into ``directory``; return the executable."""
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        sys.exit("exhaust_compare.py: no C compiler (gcc) on the PATH")
    binary = directory / "cexhaust"
    subprocess.run(
        [compiler, "-O3", "-march=native", "-o", str(binary), str(HERE / "cexhaust.c")], check=True
    )
    return binary


def c_loop(binary: Path, digits: str, count: int) -> tuple[float, int, int]:
    """``(CPU seconds, cards, first-hand wins)`` of the C loop on ``count`` deals from ``digits``."""
    out = subprocess.run([str(binary), digits, str(count)], capture_output=True, text=True, check=True)
    _, _, cards, _, wins, capped, cpu = out.stdout.split()
    if int(capped):
        sys.exit("exhaust_compare.py: a never-ending deal in the slice; choose another --seed")
    return float(cpu), int(cards), int(wins)


PLAYERS = {
    "exhaust": (True, True),
    "lockstep, every deal": (False, True),
    "one at a time, shared": (True, False),
    "one at a time, every deal": (False, False),
}
"""The exhaust kernel's ways, as ``(skip, lockstep)`` of :func:`play_unit`; the first is the command's."""


def kernel(deck: ExhaustDeck, start: int, count: int, skip: bool, lockstep: bool) -> tuple[float, int, int]:
    """``(CPU seconds, cards, first-hand wins)`` of the exhaust kernel on the same deals."""
    (unit,) = deck.units(start, start + count, deck.total)
    began = time.thread_time()
    result = play_unit(unit, skip=skip, lockstep=lockstep)
    seconds = time.thread_time() - began
    if result.never_ending:
        sys.exit("exhaust_compare.py: a never-ending deal in the slice; choose another --seed")
    return seconds, sum(length * games for length, games in result.cards.items()), result.wins[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="half-deck")
    parser.add_argument("--cards", default=None)
    parser.add_argument("--deals", type=int, default=5_000_000, help="Consecutive deals per slice.")
    parser.add_argument("--runs", type=int, default=5, help="Slices, each at a random index.")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    deck = ExhaustDeck.of(rules_named(args.rules), args.cards)
    draw = random.Random(args.seed)
    for skip, lockstep in PLAYERS.values():  # compile or load the kernels before timing
        play_unit(deck.units(0, 1000, deck.total)[0], skip=skip, lockstep=lockstep)
    with tempfile.TemporaryDirectory() as folder:
        binary = build(Path(folder))
        rates: dict[str, list[float]] = {"C loop": [], **{name: [] for name in PLAYERS}}
        ratios: dict[str, list[float]] = {name: [] for name in PLAYERS}
        print(f"{deck.key}: {args.runs} slices of {args.deals:,} consecutive deals; deals per CPU second")
        for run in range(args.runs):
            start = draw.randrange(deck.total - args.deals)
            digits = "".join(str(v) for v in deck.arrangements.unrank(start))
            c_seconds, c_cards, c_wins = c_loop(binary, digits, args.deals)
            rates["C loop"].append(args.deals / c_seconds)
            line = [f"run {run + 1} (index {start:,}): C {rates['C loop'][-1]:,.0f}"]
            for name, (skip, lockstep) in PLAYERS.items():
                seconds, cards, wins = kernel(deck, start, args.deals, skip, lockstep)
                if (cards, wins) != (c_cards, c_wins):
                    sys.exit(f"exhaust_compare.py: {name} and the C loop disagree at index {start}")
                rates[name].append(args.deals / seconds)
                ratios[name].append(rates[name][-1] / rates["C loop"][-1])
                line.append(f"{name} {rates[name][-1]:,.0f} ({ratios[name][-1]:.2f}x)")
            print("  ".join(line))
        for name, values in rates.items():
            print(
                f"{name}: median {statistics.median(values):,.0f} deals per CPU second "
                f"(range {min(values):,.0f} to {max(values):,.0f})"
            )
        for name, values in ratios.items():
            print(
                f"{name} / C loop: median {statistics.median(values):.2f} "
                f"(range {min(values):.2f} to {max(values):.2f})"
            )


if __name__ == "__main__":
    main()
