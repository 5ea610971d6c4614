"""Capacity of one ``beggar serve`` process, measured with ``scripts/loadtest.py`` (run by hand).

Runs the load benchmark several times at each number of tables, each run against a fresh server,
the points taken in turn (100, 250, ..., then again) so that a noisy spell on the machine spreads
over all of them rather than spoiling one. Prints a Markdown table to paste into docs/performance.md: for
each number of tables the number of runs, the median p99 delay with its range, and the rest.

    .venv/bin/python scripts/capacity.py                    # instant tables: 100 to 1,000
    .venv/bin/python scripts/capacity.py --pace normal --tables 1000,2000,3000,4000

At ``--pace normal`` (a card a second at every table, a spectator at each) the capacity is the
largest number of tables whose median p99 stays under ``--target`` ms; it is printed under the table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from loadtest import PACES, Result, as_result  # noqa: E402

INSTANT_POINTS = "100,250,500,750,1000"


def one_run(tables: int, pace: str, seconds: float, warmup: float, serve_args: Sequence[str]) -> Result:
    """One load run against a fresh server."""
    command = [sys.executable, str(HERE / "loadtest.py"), "--tables", str(tables), "--pace", pace]
    command += ["--seconds", str(seconds), "--warmup", str(warmup), "--json"]
    for argument in serve_args:
        command += ["--serve-arg", argument]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise SystemExit(f"capacity: loadtest failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return as_result(json.loads(lines[-1]))


def spread(values: Sequence[float | None], digits: int = 1) -> str:
    """``median (min–max)``, or the one value; ``–`` when there is none."""
    known = [v for v in values if v is not None]
    if not known:
        return "–"
    middle = statistics.median(known)
    if len(known) == 1:
        return f"{middle:,.{digits}f}"
    return f"{middle:,.{digits}f} ({min(known):,.{digits}f}–{max(known):,.{digits}f})"


def table(points: dict[int, list[Result]], pace: str) -> str:
    header = (
        "| tables | runs | p99 delay, ms | p50 delay, ms | server-side p99, ms | updates/s | cards/s "
        "| server CPU | load client CPU | errors |"
    )
    lines = [header, "|" + "---|" * 10]
    for tables, results in sorted(points.items()):
        opened = min(r.tables for r in results)
        shown = f"{tables:,}" if opened == tables else f"{tables:,} ({opened:,} opened)"
        cells = [
            shown,
            str(len(results)),
            spread([r.p99 for r in results]),
            spread([r.p50 for r in results]),
            spread([r.server_p99 for r in results]),
            spread([r.updates_per_s for r in results], 0),
            spread([r.cards_per_s for r in results], 0),
            spread([None if r.server_cpu is None else 100 * r.server_cpu for r in results], 0) + " %",
            spread([100 * r.client_cpu for r in results], 0) + " %",
            str(sum(r.errors for r in results)),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def machine() -> str:
    """What the figures were taken on, and how busy it was."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    cpu = model or platform.machine()
    return f"{os.cpu_count()} cores ({cpu}), Python {platform.python_version()}, load {load}"


def commit() -> str:
    describe = ["git", "-C", str(HERE), "describe", "--always", "--dirty"]
    done = subprocess.run(describe, capture_output=True, text=True, check=False)
    return done.stdout.strip() or "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pace", choices=PACES, default="instant")
    parser.add_argument(
        "--tables", default=None, help=f"numbers of tables, comma-separated [instant: {INSTANT_POINTS}]"
    )
    parser.add_argument("--runs", type=int, default=3, help="runs at each number of tables")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds of each run")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--target", type=float, default=100.0, help="the p99 (ms) that counts as keeping up")
    parser.add_argument("--serve-arg", action="append", default=[], help="passed on to loadtest.py")
    args = parser.parse_args()
    spec = args.tables or (INSTANT_POINTS if args.pace == "instant" else "500,1000,2000,3000,4000")
    counts = [int(part) for part in spec.split(",") if part.strip()]
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    before = machine()
    points: dict[int, list[Result]] = {n: [] for n in counts}
    for run in range(args.runs):
        for tables in counts:
            result = one_run(tables, args.pace, args.seconds, args.warmup, args.serve_arg)
            points[tables].append(result)
            print(
                f"run {run + 1}/{args.runs}, {tables} tables: p99 {result.p99} ms, "
                f"{result.updates_per_s:,.0f} updates/s, {result.cards_per_s:,.0f} cards/s, "
                f"server CPU {result.server_cpu}, errors {result.errors}",
                file=sys.stderr,
                flush=True,
            )
    command = " ".join(["scripts/capacity.py", *sys.argv[1:]])
    print(f"`{command}` ({args.pace} pace, {args.seconds:g} s measured per run, one server process)")
    after = machine().rsplit("load ", 1)[1]
    print(f"at {started}, commit {commit()}; machine: {before}; after: load {after}")
    print()
    print(table(points, args.pace))
    print()
    print("Figures are medians with (lowest–highest) over the runs; delays from the oldest change")
    print("an update carries to its arrival at the load client, which shares the machine (the")
    print("server-side p99 leaves the client out); CPU in per cent of one core.")
    keeping = [n for n, results in points.items() if statistics.median(r.p99 for r in results) < args.target]
    if args.pace != "instant":
        best = max(keeping, default=None)
        shown = "none of the numbers tried" if best is None else f"{best:,} tables"
        print(f"Capacity at {args.pace} pace (median p99 under {args.target:g} ms): {shown}.")


if __name__ == "__main__":
    main()
