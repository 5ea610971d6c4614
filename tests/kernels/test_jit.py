"""The compile cache: keyed on every compiled source, so that an edit is never hidden by it."""

from __future__ import annotations

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


def _run(root: Path, cache: Path, code: str = PROBE, **env: str) -> str:
    """What ``code`` prints, run on the copy at ``root`` with the compile cache under ``cache``."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(root), "NUMBA_CACHE_DIR": str(cache), **env},
        capture_output=True,
        text=True,
        timeout=240,
        check=True,
    )
    return done.stdout


def _probe(root: Path, cache: Path) -> tuple[str, str]:
    source_hash, result = _run(root, cache).split()
    return source_hash, result


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
    first_hash, first = _probe(root, cache)
    assert first == "17"  # (5 * 3 + 1) + 1
    assert first_hash == jit._source_hash(root / "beggar")  # what the next test edits and hashes
    folders = {path.parent.relative_to(cache / f"beggar-{first_hash}") for path in cache.rglob("*.nbi")}
    assert folders == {Path("kernels")}, "filed by the kernels' folder name, not where the copy lies"

    again = _run(elsewhere, cache, NUMBA_DEBUG_CACHE="1")
    assert "[cache] data loaded" in again and "[cache] data saved" not in again
    assert again.splitlines()[-1] == f"{first_hash} {first}"

    helper = root / "beggar" / "kernels" / "probe_helper.py"
    helper.write_text(HELPER.replace("_STEP = 3", "_STEP = 4"))
    changed_hash, changed = _probe(root, cache)
    assert changed == "22", "the cached probe_caller.run runs the changed helper, not the old one"
    assert changed_hash != first_hash


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
