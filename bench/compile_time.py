"""How long numba takes to compile the kernels from an empty cache, and which functions cost most.

Each target is compiled in a fresh interpreter with an empty ``NUMBA_CACHE_DIR``; the script
prints the CPU seconds of the whole compile (steadier than the wall clock on a shared machine)
and the longest single compiles, from numba's own compile events (a function's time includes the
functions it compiles first). From the repository root::

    PYTHONPATH=src .venv/bin/python bench/compile_time.py                 # every target
    PYTHONPATH=src .venv/bin/python bench/compile_time.py standard        # one
    PYTHONPATH=src .venv/bin/python bench/compile_time.py --runs 3 bench  # median of three

Targets: ``standard`` (random games under the standard rules: what ``beggar simulate``
compiles for them), ``bench`` (what ``beggar bench`` compiles: random games by both kernels,
:data:`beggar.research.bench.COMPILED`), ``search`` (what each ``beggar search`` worker compiles before
its first unit), ``bitkernel`` (the bit kernel's ``warm_up``: every entry point) and ``both``
(every entry point of both kernels, both ``warm_up`` functions).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from beggar.research.bench import COMPILED

TARGETS = {
    "standard": "bitwise.play_random(STANDARD, 0, 0, 1)",
    "bench": COMPILED,
    "search": "search._warm()",
    "bitkernel": "bitwise.warm_up()",
    "both": "general.warm_up(); bitwise.warm_up()",
}

_PROBE = """
import json, sys, time
from numba.core import event

with event.install_recorder("numba:compile") as recorder:
    from beggar.kernels import bitwise
    from beggar.kernels import general
    from beggar.research import search
    from beggar.rules import STANDARD
    rules = STANDARD
    began = time.process_time()
    exec(sys.argv[1])
    cpu = time.process_time() - began
starts, spans = {}, []
for stamp, ev in recorder.buffer:
    function = ev.data["dispatcher"].py_func
    key = (function.__module__, function.__qualname__, str(ev.data.get("args")))
    if ev.is_start:
        starts[key] = stamp
    else:
        spans.append((stamp - starts.pop(key), function.__module__ + "." + function.__qualname__))
spans.sort(reverse=True)
print(json.dumps({"cpu": cpu, "compiles": len(spans), "longest": spans[:8]}))
"""


def measure(target: str) -> dict[str, object]:
    """Compile ``target`` in a fresh interpreter with an empty cache; its CPU time and longest compiles."""
    with tempfile.TemporaryDirectory(prefix="beggar-numba-") as cache:
        done = subprocess.run(
            [sys.executable, "-c", _PROBE, TARGETS[target]],
            env={**os.environ, "NUMBA_CACHE_DIR": cache},
            capture_output=True,
            text=True,
            check=True,
        )
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("targets", nargs="*", help=f"any of {', '.join(TARGETS)} (default: all)")
    parser.add_argument("--runs", type=int, default=1, help="compiles of each target (median and range)")
    args = parser.parse_args()
    unknown = [t for t in args.targets if t not in TARGETS]
    if unknown:
        parser.error(f"unknown target {unknown[0]!r}: choose from {', '.join(TARGETS)}")
    if args.runs < 1:
        parser.error("--runs: at least 1")
    for target in args.targets or list(TARGETS):
        results = [measure(target) for _ in range(args.runs)]
        cpu = [float(r["cpu"]) for r in results]  # type: ignore[arg-type]
        result = results[0]
        spread = f" (median of {len(cpu)}: {', '.join(f'{c:.1f}' for c in cpu)})" if len(cpu) > 1 else ""
        print(
            f"{target}: {statistics.median(cpu):.1f} s of CPU{spread}, "
            f"{result['compiles']} functions compiled; longest (first run):"
        )
        for seconds, name in result["longest"]:  # type: ignore[attr-defined]
            print(f"  {seconds:6.2f} s  {name}")


if __name__ == "__main__":
    main()
