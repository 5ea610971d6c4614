"""The compile cache: keyed on every compiled source, so that an edit is never hidden by it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from beggar.kernels import jit

PACKAGE = Path(jit.__file__).resolve().parent.parent

# Two throwaway modules, written into the kernels of a copy of the package: a compiled function of
# one file (probe_caller.run) that calls a compiled helper of another (probe_helper.step). They
# are compiled through jit as the real kernels are (a cross-file call, as walk.mutate calls
# rng.below), and take a second where the real kernels take many.
HELPER = """
from beggar.kernels.jit import jit

_STEP = 3


@jit
def step(x):
    return x * _STEP + 1
"""
CALLER = """
from beggar.kernels import probe_helper
from beggar.kernels.jit import jit


@jit
def run(x):
    return probe_helper.step(x) + 1
"""
PROBE = """
from beggar.kernels import jit, probe_caller
print(jit.SOURCE_HASH, probe_caller.run(5))
"""


def _copy(root: Path) -> Path:
    """A copy of the package under ``root``, with the probe modules among its kernels."""
    shutil.copytree(PACKAGE, root / "beggar", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "beggar" / "kernels" / "probe_helper.py").write_text(HELPER)
    (root / "beggar" / "kernels" / "probe_caller.py").write_text(CALLER)
    return root


_FORKS = """
import importlib.util, json, os, sys, traceback
import numba  # paid once here; each probe is a child forked after it, as fresh as a new interpreter
from numba.core import config

steps, code = json.loads(sys.argv[1]), sys.argv[2]
said = []
for root, env, write in steps:
    if write:  # an edit between two probes, made before the next one starts
        with open(write[0], "w") as changed:
            changed.write(write[1])
        # Python takes a module's byte code for current when the source's size and its mtime in
        # whole seconds match: an edit of the same size within the second of the first import
        # would run the old code, which no editor's edit does
        stale = importlib.util.cache_from_source(write[0])
        if os.path.exists(stale):
            os.remove(stale)
    read, out = os.pipe()
    child = os.fork()
    if child == 0:  # imports the package at ``root`` for the first time, prints, and exits
        os.close(read)
        os.dup2(out, 1)
        try:
            os.environ.update(env)
            config.reload_config()  # numba's settings, read again from the environment
            sys.path.insert(0, root)
            exec(code, {})
            sys.stdout.flush()
            os._exit(0)
        except BaseException:
            traceback.print_exc()
            os._exit(1)
    os.close(out)
    with os.fdopen(read) as answer:
        said.append(answer.read())
    _, status = os.waitpid(child, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"probe {len(said)} failed")
print(json.dumps(said))
"""

Step = tuple[Path, dict[str, str], tuple[Path, str] | None]
"""A probe: the copy of the package it imports, its environment, and a file to write before it."""


def _probes(cache: Path, steps: list[Step], code: str = PROBE) -> list[str]:
    """What ``code`` prints in each step, one after another, with the compile cache under ``cache``.

    Each step runs in a child forked from one interpreter that has imported numba and nothing of
    the package, so each meets the package and the cache as a fresh interpreter does, and numba's
    own import (most of a fresh interpreter's cost) is paid once.
    """
    plain = [
        (str(root), env, None if write is None else (str(write[0]), write[1])) for root, env, write in steps
    ]
    done = subprocess.run(
        [sys.executable, "-c", _FORKS, json.dumps(plain), code],
        env={**os.environ, "NUMBA_CACHE_DIR": str(cache)},
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    said: list[str] = json.loads(done.stdout.splitlines()[-1])
    return said


@pytest.mark.system
def test_copies_share_one_compilation_and_a_changed_helper_in_one_file_reaches_a_cached_caller(
    tmp_path: Path,
) -> None:
    """Three fresh interpreters over one cache: the first compiles the probe; the second, on a
    copy of the same sources in another folder, loads it (it saves nothing, and gives the same
    answer); the third, after the helper's file changed (the caller's did not, so numba's own
    stamp would load the caller's cached code and the old helper in it), gives the changed
    helper's answer, compiled into a cache folder of its own."""
    cache = tmp_path / "cache"
    root, elsewhere = _copy(tmp_path / "clone"), _copy(tmp_path / "elsewhere" / "worktree")
    helper = root / "beggar" / "kernels" / "probe_helper.py"
    hashed = jit._source_hash(root / "beggar")  # what the next test edits and hashes
    first, again, changed = _probes(
        cache,
        [
            (root, {}, None),
            (elsewhere, {"NUMBA_DEBUG_CACHE": "1"}, None),
            (root, {}, (helper, HELPER.replace("_STEP = 3", "_STEP = 4"))),
        ],
    )
    first_hash, first_result = first.split()
    assert first_result == "17"  # (5 * 3 + 1) + 1
    assert first_hash == hashed
    folders = {
        path.parent.relative_to(cache / f"beggar-{first_hash}")
        for path in cache.rglob("*.nbi")
        if (cache / f"beggar-{first_hash}") in path.parents
    }
    assert folders == {Path("kernels")}, "filed by the kernels' folder name, not where the copy lies"

    assert "[cache] data loaded" in again and "[cache] data saved" not in again
    assert again.splitlines()[-1] == first.strip()

    changed_hash, changed_result = changed.split()
    assert changed_result == "22", "the cached probe_caller.run runs the changed helper, not the old one"
    assert changed_hash != first_hash and changed_hash == jit._source_hash(root / "beggar")
    assert list((cache / f"beggar-{changed_hash}").rglob("*.nbi")), "compiled into a folder of its own"


def test_the_hash_covers_every_compiled_source(tmp_path: Path) -> None:
    """The real kernels' helpers (rng.py) and the game modules they read change the hash too."""
    package = _copy(tmp_path / "copy") / "beggar"
    hashes = [jit._source_hash(package)]
    for name in ("kernels/rng.py", "rules.py"):
        path = package / name
        path.write_text(path.read_text() + "\n# changed\n")
        hashes.append(jit._source_hash(package))
    assert len(set(hashes)) == 3
    assert jit._source_hash() == jit.SOURCE_HASH  # the package's own, as it was imported


def test_the_first_compile_says_so_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(jit, "CACHE_DIR", tmp_path)
    with jit.compiling("probe", 20, notify=True):
        pass
    assert capsys.readouterr().err == "compiling the kernels, once: about 20 s\n"
    assert jit.compiled_before("probe")
    with jit.compiling("probe", 20, notify=True):
        pass
    assert capsys.readouterr().err == ""
