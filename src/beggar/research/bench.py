"""How fast the compiled kernel and the reference engine play random deals.

Every figure includes dealing: the kernel shuffles inside the kernel, the engine plays deals
shuffled by :func:`beggar.notation.random_deal`. The kernels' first-run compile time is measured
in a fresh interpreter with an empty compile cache, for what the benchmark plays (:data:`COMPILED`:
random games by the fastest kernel for the rules and by the general kernel); loading the warm
cache is measured too.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from typing import Any

from beggar.engine import play
from beggar.errors import BeggarError
from beggar.notation import random_deal
from beggar.research.simulate import run_batches
from beggar.rules import STANDARD, Rules

COMPILED = "bitwise.play_random_fastest(rules, count=1); general.play_random(rules, count=1)"
"""What the benchmark plays, so what its compile time measures: a random game by each kernel it
times (``rules`` is the benchmark's rules; ``bench/compile_time.py`` measures the same)."""

_COMPILE_SNIPPET = (
    "import json, sys, time; t = time.perf_counter(); "
    "from beggar.kernels import bitwise; from beggar.kernels import general; from beggar.rules import Rules; "
    f"rules = Rules.from_dict(json.loads(sys.argv[1])); {COMPILED}; "
    "print(time.perf_counter() - t)"
)


class BenchError(BeggarError, RuntimeError):
    """A measurement that could not be made."""


@dataclass(frozen=True)
class Speed:
    """One measurement: games and cards played, and the seconds it took (median of the repeats)."""

    label: str
    workers: int
    games: int
    cards: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    @property
    def cards_per_second(self) -> float:
        return self.cards / self.seconds if self.seconds > 0 else float("inf")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Speed:
        return cls(data["label"], data["workers"], data["games"], data["cards"], data["seconds"])

    def to_dict(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "games_per_second": self.games_per_second,
            "cards_per_second": self.cards_per_second,
        }


def time_kernel(
    rules: Rules, games: int, workers: int, seed: int = 0, repeat: int = 1, *, fast: bool = True
) -> Speed:
    """Deal and play ``games`` games on ``workers`` threads; the median time of ``repeat`` runs.

    ``fast`` plays with the bit kernel where it covers the rules (:func:`run_batches`), else
    with the general kernel only.
    """
    from beggar.kernels.bitwise import covers
    from beggar.kernels.general import KernelRules

    compiled = KernelRules.of(rules)
    times: list[float] = []
    cards = 0
    for _ in range(repeat):
        began = time.perf_counter()
        batches = run_batches(compiled, games, seed, workers, fast=fast)
        cards = sum(int(batch.cards.sum()) for _, batch in batches)
        times.append(time.perf_counter() - began)
    name = "bit kernel" if fast and covers(rules) else "general kernel"
    label = f"{name}, 1 worker" if workers == 1 else f"{name}, {workers} workers"
    return Speed(label, workers, games, cards, statistics.median(times))


def time_engine(rules: Rules, games: int, seed: int = 0, repeat: int = 1) -> Speed:
    """Deal and play ``games`` games with the reference engine; the median time of ``repeat`` runs."""
    times: list[float] = []
    cards = 0
    for _ in range(repeat):
        began = time.perf_counter()
        cards = 0
        for game in range(games):
            cards += play(random_deal(rules, seed=seed + game), rules, seed=seed + game).cards
        times.append(time.perf_counter() - began)
    return Speed("reference engine", 1, games, cards, statistics.median(times))


def _fresh_python(snippet: str, rules: Rules, cache_dir: str | None) -> float:
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    done = subprocess.run(
        [sys.executable, "-c", snippet, json.dumps(rules.to_dict())],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise BenchError(f"the compile-time probe failed: {last}")
    return float(done.stdout.strip().splitlines()[-1])


def compile_seconds(rules: Rules = STANDARD) -> float:
    """Seconds to compile what the benchmark plays (:data:`COMPILED`) in a fresh interpreter, empty cache."""
    with tempfile.TemporaryDirectory(prefix="beggar-numba-") as cache:
        return _fresh_python(_COMPILE_SNIPPET, rules, cache)


def load_seconds(rules: Rules = STANDARD) -> float:
    """Seconds to import and load it from the warm cache in a fresh interpreter."""
    _fresh_python(_COMPILE_SNIPPET, rules, None)  # make sure the cache is warm
    return _fresh_python(_COMPILE_SNIPPET, rules, None)


def ratio(a: float, b: float) -> float:
    """``a / b``, or infinity when ``b`` is nothing."""
    return a / b if b > 0 else float("inf")


def measure(
    rules: Rules,
    games: int,
    engine_games: int,
    workers: int,
    repeat: int = 1,
    seed: int = 0,
    measure_compile: bool = False,
) -> dict[str, Any]:
    """Every figure of ``beggar bench`` as JSON-ready data (speeds, ratios, compile times)."""
    compile_time = compile_seconds(rules) if measure_compile else None
    load_time = load_seconds(rules) if measure_compile else None
    from beggar.research.simulate import warm

    for fast in (True, False):  # compile or load both kernels before timing
        warm(rules, fast=fast)
        time_kernel(rules, min(games, 10_000), 1, seed, fast=fast)
    one = time_kernel(rules, games, 1, seed, repeat)
    every = time_kernel(rules, games, workers, seed, repeat)
    general = time_kernel(rules, games, 1, seed, repeat, fast=False)
    engine = time_engine(rules, engine_games, seed, repeat)
    return {
        "rules": rules.spec(),
        "cores": workers,
        "kernel_1_worker": one.to_dict(),
        "kernel_all_cores": every.to_dict(),
        "general_kernel_1_worker": general.to_dict(),
        "engine": engine.to_dict(),
        "ratios": {
            "all_cores_over_1_worker": ratio(every.games_per_second, one.games_per_second),
            "kernel_over_general_kernel": ratio(one.games_per_second, general.games_per_second),
            "kernel_1_worker_over_engine": ratio(one.games_per_second, engine.games_per_second),
            "kernel_all_cores_over_engine": ratio(every.games_per_second, engine.games_per_second),
        },
        "compile_seconds": compile_time,
        "cache_load_seconds": load_time,
    }


__all__ = [
    "COMPILED",
    "BenchError",
    "Speed",
    "compile_seconds",
    "load_seconds",
    "measure",
    "ratio",
    "time_engine",
    "time_kernel",
]
