"""Each command compiles only the kernel entry points it plays, so that its first compile stays short.

Checked by which entry points hold a compiled (or cached) version after the command's work,
never by timing: an entry point that is never called is never compiled. (One called only from
other compiled code may instead be loaded inside their cached code.)

Every command runs in a child forked from one interpreter that has imported the package and
compiled nothing, so each starts from what a fresh interpreter holds after its imports, and the
imports (most of a fresh interpreter's cost) are paid once for all the commands. Anything the
imports themselves compiled would show in every child's answer.
"""

from __future__ import annotations

import json
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

COMMANDS = {
    "simulate": "from beggar.cli import run; assert run(['simulate', '-n', '3000', '--json']) == 0",
    "bench": "from beggar.research.bench import measure; from beggar.rules import STANDARD; "
    "measure(STANDARD, 3000, 5, 1)",
    "bench's compile-time probe": "from beggar.kernels import bitwise, general; "
    "from beggar.research.bench import COMPILED; from beggar.rules import STANDARD as rules; exec(COMPILED)",
    "search worker": "from beggar.research import search; search._warm()",
}
"""What each command runs, by a name for the failure messages."""

_REPORT = """
import contextlib, io, json, os, sys, traceback
import beggar.cli, beggar.research.bench, beggar.research.search
from beggar.kernels import bitwise, general, lockstep

entry_points, commands = json.loads(sys.argv[1]), json.loads(sys.argv[2])
compiled = {}
for name, code in commands.items():
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # runs one command, writes what it compiled, and exits without cleaning up
        os.close(read)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(code, {})
            modules = {"bitwise": bitwise, "general": general, "lockstep": lockstep}
            found = [e for e in entry_points if getattr(modules[e.split(".")[0]], e.split(".")[1]).signatures]
            os.write(write, json.dumps(found).encode())
            os._exit(0)
        except BaseException:
            traceback.print_exc()
            os._exit(1)
    os.close(write)
    with os.fdopen(read) as answer:
        said = answer.read()
    _, status = os.waitpid(child, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{name} failed")
    compiled[name] = json.loads(said)
print(json.dumps(compiled))
"""


def compiled_by_each() -> dict[str, set[str]]:
    """The entry points compiled by each of :data:`COMMANDS`, each run in a child of one interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", _REPORT, json.dumps(ENTRY_POINTS), json.dumps(COMMANDS)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    answers: dict[str, list[str]] = json.loads(done.stdout.splitlines()[-1])
    return {name: set(found) for name, found in answers.items()}


def test_each_command_compiles_only_the_entry_points_it_plays() -> None:
    """simulate under the standard rules compiles only the lockstep kernel; bench compiles what it
    plays (the lockstep kernel and the general kernel's random play), and its compile-time probe
    the same; a search worker warms random play, not the other kernels."""
    compiled = compiled_by_each()
    assert compiled["simulate"] == {"lockstep.random_standard"}, "simulate"
    assert compiled["bench"] == {"lockstep.random_standard", "general._play_random_kernel"}, "bench"
    assert compiled["bench's compile-time probe"] == compiled["bench"], "bench's probe"
    # general.score_deal may be loaded inside the search loop's own cached code, or compiled.
    assert compiled["search worker"] - {"general.score_deal"} == {"lockstep.random_standard"}, "search"
