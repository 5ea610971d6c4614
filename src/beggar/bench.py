"""``beggar bench``: how fast the compiled kernel and the reference engine play random deals.

Every figure includes dealing: the kernel shuffles inside the kernel, the engine plays deals
shuffled by :func:`beggar.notation.random_deal`. The kernel's first-run compile time is measured
in a fresh interpreter with an empty compile cache; loading the warm cache is measured too.
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

import click
from rich.console import Console
from rich.table import Table

from beggar.engine import play
from beggar.notation import random_deal
from beggar.rules import Rules, RulesError, rules_named
from beggar.simulate import default_workers, run_batches

_COMPILE_SNIPPET = (
    "import time; t = time.perf_counter(); "
    "from beggar import kernel; kernel.warm_up(); "
    "print(time.perf_counter() - t)"
)


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

    def to_dict(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "games_per_second": self.games_per_second,
            "cards_per_second": self.cards_per_second,
        }


def time_kernel(rules: Rules, games: int, workers: int, seed: int = 0, repeat: int = 1) -> Speed:
    """Deal and play ``games`` games on ``workers`` threads; the median time of ``repeat`` runs."""
    from beggar.kernel import KernelRules

    compiled = KernelRules.of(rules)
    times: list[float] = []
    cards = 0
    for _ in range(repeat):
        began = time.perf_counter()
        cards = sum(int(batch.cards.sum()) for _, batch in run_batches(compiled, games, seed, workers))
        times.append(time.perf_counter() - began)
    label = "kernel, 1 worker" if workers == 1 else f"kernel, {workers} workers"
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


def _fresh_python(snippet: str, cache_dir: str | None) -> float:
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    done = subprocess.run(
        [sys.executable, "-c", snippet], env=env, capture_output=True, text=True, check=False, timeout=900
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise click.ClickException(f"the compile-time probe failed: {last}")
    return float(done.stdout.strip().splitlines()[-1])


def compile_seconds() -> float:
    """Seconds to compile every kernel entry point in a fresh interpreter with an empty cache."""
    with tempfile.TemporaryDirectory(prefix="beggar-numba-") as cache:
        return _fresh_python(_COMPILE_SNIPPET, cache)


def load_seconds() -> float:
    """Seconds to import and load the compiled kernel from the warm cache in a fresh interpreter."""
    _fresh_python(_COMPILE_SNIPPET, None)  # make sure the cache is warm
    return _fresh_python(_COMPILE_SNIPPET, None)


def _ratio(a: float, b: float) -> float:
    return a / b if b > 0 else float("inf")


@click.command("bench")
@click.option(
    "-n", "--games", type=click.IntRange(min=1), default=1_000_000, show_default=True, help="Kernel games."
)
@click.option(
    "--engine-games",
    type=click.IntRange(min=1),
    default=2_000,
    show_default=True,
    help="Games for the reference engine (it is much slower).",
)
@click.option("--rules", "spec", default="standard", show_default=True, help="Rules preset or spec.")
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Threads for the all-cores figure  [default: every core].",
)
@click.option(
    "--repeat", type=click.IntRange(min=1), default=1, show_default=True, help="Runs per figure (median)."
)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option(
    "--compile/--no-compile",
    "measure_compile",
    default=True,
    show_default=True,
    help="Measure the first-run compile time in a fresh interpreter (takes a while).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench_command(
    games: int,
    engine_games: int,
    spec: str,
    workers: int | None,
    repeat: int,
    seed: int,
    measure_compile: bool,
    as_json: bool,
) -> None:
    """Games and cards per second: the kernel on one worker and on all cores, and the reference engine."""
    try:
        rules = rules_named(spec)
    except RulesError as exc:
        raise click.BadParameter(str(exc), param_hint="--rules") from None
    cores = workers or default_workers()
    compile_time = compile_seconds() if measure_compile else None
    load_time = load_seconds() if measure_compile else None
    time_kernel(rules, min(games, 10_000), 1, seed)  # load the kernel before timing
    one = time_kernel(rules, games, 1, seed, repeat)
    every = time_kernel(rules, games, cores, seed, repeat)
    engine = time_engine(rules, engine_games, seed, repeat)
    report = {
        "rules": rules.name,
        "cores": cores,
        "kernel_1_worker": one.to_dict(),
        "kernel_all_cores": every.to_dict(),
        "engine": engine.to_dict(),
        "ratios": {
            "all_cores_over_1_worker": _ratio(every.games_per_second, one.games_per_second),
            "kernel_1_worker_over_engine": _ratio(one.games_per_second, engine.games_per_second),
            "kernel_all_cores_over_engine": _ratio(every.games_per_second, engine.games_per_second),
        },
        "compile_seconds": compile_time,
        "cache_load_seconds": load_time,
    }
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    _print_report(rules, [one, every, engine], report)


def _print_report(rules: Rules, speeds: list[Speed], report: dict[str, Any]) -> None:
    engine = speeds[-1]
    table = Table(title=f"beggar bench: random {rules.name} deals, shuffle included")
    for column in ("", "games", "seconds", "games/s", "cards/s", "vs engine"):
        table.add_column(column, justify="left" if not column else "right")
    for speed in speeds:
        table.add_row(
            speed.label,
            f"{speed.games:,}",
            f"{speed.seconds:.3f}",
            f"{speed.games_per_second:,.0f}",
            f"{speed.cards_per_second:,.0f}",
            f"{_ratio(speed.games_per_second, engine.games_per_second):,.0f}x",
        )
    console = Console(width=110)
    console.print(table)
    ratios = report["ratios"]
    console.print(f"all cores / 1 worker: {ratios['all_cores_over_1_worker']:.2f}x")
    if report["compile_seconds"] is not None:
        console.print(
            f"first-run compile: {report['compile_seconds']:.1f} s; "
            f"loading the compiled cache: {report['cache_load_seconds']:.2f} s"
        )


__all__ = ["Speed", "bench_command", "compile_seconds", "load_seconds", "time_engine", "time_kernel"]
