"""The census against the code of the day its speed was first asked for, whole periods side by side.

The census's code of that day (commit ``4245f0e``: the row census, which asks every hand size
``n1`` of every row under the least leader) runs from a checkout of its own, in a child process
with that checkout's ``src`` on its path; the census now runs in another child, as
``bench/census_sat.py`` runs its ``stack-extremes`` variant (every row of the period built and
solved, every position replayed by the engine, the instances decided from the cycles found). Each
child measures its own CPU seconds (``time.process_time``) and gives its findings, which must
agree: the same cycles, and ``sat`` exactly at the same instances. From the repository root::

    git worktree add --detach /tmp/then 4245f0e
    PYTHONPATH=src .venv/bin/python bench/census_then.py --then /tmp/then --periods 41-44

With ``--together`` the two children of a run share the machine's two cores at once (each on a core
of its own, so both see the same load); without it they run one after the other, in an order that
turns from run to run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from census_sat import span  # beside this script

THEN = """
import json, sys, time
from beggar.research.cycles.census import rows, solve_row
from beggar.research.cycles.construct import Composition
from beggar.rules import rules_named

period = int(sys.argv[1])
rules = rules_named("standard")
composition = Composition.of(rules)
start = time.process_time()
sat, cycles = [], set()
for row in rows(composition, period, min_period=period):
    result = solve_row(rules.name, composition.counts, row, None)
    sat += [[i.k1, i.n1] for i in result.instances if i.status == "sat"]
    cycles |= {c.deal for c in result.cycles}
print(json.dumps({"cpu": time.process_time() - start, "sat": sorted(sat), "cycles": sorted(cycles)}))
"""
"""The code of that day's census, for one whole period of the standard deck."""

NOW = """
import json, sys
sys.path.insert(0, "bench")
from census_sat import decide_rows
from beggar.research.cycles.kinds import Composition
from beggar.rules import rules_named

period = int(sys.argv[1])
done = decide_rows(Composition.of(rules_named("standard")), period, list(range(1, period)), "stack-extremes")
print(json.dumps({"cpu": done.cpu, "sat": sorted(map(list, done.sat)), "cycles": sorted(done.cycles)}))
"""
"""The census now, for the same period."""


def _child(code: str, root: Path, period: int) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(root / "src"))
    return subprocess.Popen(
        [sys.executable, "-c", code, str(period)], cwd=root, env=env, stdout=subprocess.PIPE, text=True
    )


def _answer(child: subprocess.Popen[str], side: str) -> dict[str, object]:
    out, _ = child.communicate()
    if child.returncode != 0:
        sys.exit(f"census_then.py: the {side} side failed (exit {child.returncode})")
    answer: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return answer


def _spread(seconds: list[float]) -> str:
    return f"{min(seconds):.2f} to {max(seconds):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--then",
        required=True,
        type=Path,
        help="A checkout of commit 4245f0e (git worktree add --detach DIR 4245f0e).",
    )
    parser.add_argument("--periods", default="36-38", help="A period or a range, e.g. 41-44.")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--together", action="store_true", help="Run both sides at once, a core each.")
    args = parser.parse_args()
    if not (args.then / "src" / "beggar" / "research" / "cycles" / "census.py").is_file():
        sys.exit(f"census_then.py: {args.then} is not a checkout of the census's first code")
    now_root, then_root = Path.cwd(), args.then.resolve()
    print("standard deck, whole periods, CPU seconds (process_time of each side's own process)")
    print("| period | rows | then: CPU s | range | now: CPU s | range | then / now |")
    print("|---|---|---|---|---|---|---|")
    failures = 0
    for period in span(args.periods):
        times: dict[str, list[float]] = {"then": [], "now": []}
        found: dict[str, tuple[object, object]] = {}
        for run in range(args.runs):
            sides = [("then", THEN, then_root), ("now", NOW, now_root)]
            if run % 2:
                sides.reverse()
            if args.together:
                children = [(side, _child(code, root, period)) for side, code, root in sides]
                answers = [(side, _answer(child, side)) for side, child in children]
            else:
                answers = [(side, _answer(_child(code, root, period), side)) for side, code, root in sides]
            for side, answer in answers:
                times[side].append(float(answer["cpu"]))  # type: ignore[arg-type]
                found.setdefault(side, (answer["sat"], answer["cycles"]))
                if found[side] != (answer["sat"], answer["cycles"]):
                    failures += 1
                    print(f"period {period}: the {side} side found something else in run {run + 1}")
                print(f"  period {period}, run {run + 1}, {side}: CPU {answer['cpu']:.2f} s", file=sys.stderr)
        if found["then"] != found["now"]:
            failures += 1
            print(f"period {period}: then and now disagree: {found['then']} against {found['now']}")
        then, now = statistics.median(times["then"]), statistics.median(times["now"])
        print(
            f"| {period} | {period - 1} | {then:.2f} | {_spread(times['then'])} | "
            f"{now:.2f} | {_spread(times['now'])} | {then / now:.2f} |",
            flush=True,
        )
        sat, cycles = found["now"]
        print(f"period {period}: sat instances (k1, n1) {sat or 'none'}, cycles {cycles or 'none'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
