"""Each command compiles only the kernel entry points it plays, so that its first compile stays short.

Checked in a fresh interpreter by which entry points hold a compiled (or cached) version after
the command's work, never by timing: an entry point that is never called is never compiled. (One
called only from other compiled code may instead be loaded inside their cached code.)
"""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.system

ENTRY_POINTS = (
    "general._play_random_kernel",
    "general._play_deals_kernel",
    "general._orders_kernel",
    "general.score_deal",
    "bitwise._random_any",
    "bitwise._deals_any",
    "bitwise._random_standard",
    "lockstep.random_standard",
)

_REPORT = """
import contextlib, io, sys
with contextlib.redirect_stdout(io.StringIO()):
    exec(sys.argv[1])
from beggar.kernels import bitwise
from beggar.kernels import general
from beggar.kernels import lockstep
for name in sys.argv[2:]:
    module, function = name.split(".")
    if getattr(globals()[module], function).signatures:
        print("compiled", name)
"""


def compiled_after(code: str) -> set[str]:
    """The entry points compiled by running ``code`` in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", _REPORT, code, *ENTRY_POINTS],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return {line.split()[1] for line in done.stdout.splitlines() if line.startswith("compiled ")}


def test_simulate_under_the_standard_rules_compiles_only_the_lockstep_kernel() -> None:
    code = "from beggar.cli import run; assert run(['simulate', '-n', '3000', '--json']) == 0"
    assert compiled_after(code) == {"lockstep.random_standard"}


def test_bench_compiles_what_it_plays() -> None:
    played = compiled_after(
        "from beggar.research.bench import measure; from beggar.rules import STANDARD; "
        "measure(STANDARD, 3000, 5, 1)"
    )
    assert played == {"lockstep.random_standard", "general._play_random_kernel"}
    # Its compile-time probe compiles the same.
    probe = compiled_after(
        "from beggar.kernels import bitwise, general; from beggar.research.bench import COMPILED; "
        "from beggar.rules import STANDARD as rules; exec(COMPILED)"
    )
    assert probe == played


def test_a_search_worker_warms_random_play_not_the_other_kernels() -> None:
    compiled = compiled_after("from beggar.research import search; search._warm()")
    # general.score_deal may be loaded inside the search loop's own cached code, or compiled.
    assert compiled - {"general.score_deal"} == {"lockstep.random_standard"}
