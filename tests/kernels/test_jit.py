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

# A compiled function of one file (walk.mutate) that calls a helper of another (rng.below).
PROBE = """
import numpy as np
from beggar.kernels import jit, walk
deal = np.arange(12, dtype=np.uint8)
lengths = np.array([6, 6], dtype=np.int64)
values = np.array([0, 1, 2, 3], dtype=np.uint8)
state = walk.mutate(deal, lengths, values, np.uint64(7))
print(jit.SOURCE_HASH, int(state), ",".join(map(str, deal)))
"""


def _probe(root: Path, cache: Path) -> tuple[str, str]:
    env = {**os.environ, "PYTHONPATH": str(root), "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=240, check=True
    )
    source_hash, result = done.stdout.split(" ", 1)
    return source_hash, result


@pytest.mark.system
def test_a_changed_helper_in_one_file_reaches_a_cached_function_of_another(tmp_path: Path) -> None:
    root = tmp_path / "copy"
    shutil.copytree(PACKAGE, root / "beggar", ignore=shutil.ignore_patterns("__pycache__"))
    cache = tmp_path / "cache"
    first_hash, first = _probe(root, cache)
    assert list((cache / f"beggar-{first_hash}").rglob("*.nbi")), "the first run fills the cache"
    assert _probe(root, cache) == (first_hash, first)  # loaded from the cache: the same answer

    rng = root / "beggar" / "kernels" / "rng.py"
    source = rng.read_text()
    golden = "_GOLDEN = _U(0x9E3779B97F4A7C15)"
    assert golden in source
    rng.write_text(source.replace(golden, "_GOLDEN = _U(0x9E3779B97F4A7C17)"))
    changed_hash, changed = _probe(root, cache)

    assert changed != first, "the cached walk.mutate runs the changed generator, not the old one"
    assert changed_hash != first_hash
    shutil.rmtree(cache)
    assert _probe(root, cache) == (changed_hash, changed)  # the same as a compile from nothing


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


@pytest.mark.system
def test_two_copies_of_the_same_sources_share_one_compilation(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    copies = [tmp_path / "clone", tmp_path / "elsewhere" / "worktree"]
    for root in copies:
        shutil.copytree(PACKAGE, root / "beggar", ignore=shutil.ignore_patterns("__pycache__"))
    source_hash, result = _probe(copies[0], cache)
    env = {
        **os.environ,
        "PYTHONPATH": str(copies[1]),
        "NUMBA_CACHE_DIR": str(cache),
        "NUMBA_DEBUG_CACHE": "1",
    }
    again = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=240, check=True
    )
    assert "[cache] data loaded" in again.stdout and "[cache] data saved" not in again.stdout
    assert again.stdout.splitlines()[-1] == f"{source_hash} {result}".rstrip("\n")
    folders = {path.parent.relative_to(cache / f"beggar-{source_hash}") for path in cache.rglob("*.nbi")}
    assert folders == {Path("kernels")}
