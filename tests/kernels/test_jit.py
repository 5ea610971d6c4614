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
def test_a_changed_helper_in_one_file_reaches_a_cached_function_of_another(tmp_path: Path) -> None:
    root = _copy(tmp_path / "copy")
    cache = tmp_path / "cache"
    first_hash, first = _probe(root, cache)
    assert first == "17"  # (5 * 3 + 1) + 1
    assert list((cache / f"beggar-{first_hash}").rglob("*.nbi")), "the first run fills the cache"
    assert _probe(root, cache) == (first_hash, first)  # loaded from the cache: the same answer

    helper = root / "beggar" / "kernels" / "probe_helper.py"
    helper.write_text(HELPER.replace("_STEP = 3", "_STEP = 4"))
    changed_hash, changed = _probe(root, cache)

    assert changed == "22", "the cached probe_caller.run runs the changed helper, not the old one"
    assert changed_hash != first_hash
    shutil.rmtree(cache)
    assert _probe(root, cache) == (changed_hash, changed)  # the same as a compile from nothing


def test_the_hash_covers_every_compiled_source(tmp_path: Path) -> None:
    """The real kernels' helpers (rng.py) and the game modules they read change the hash too."""
    root = _copy(tmp_path / "copy")
    cache = tmp_path / "cache"
    code = "from beggar.kernels import jit; print(jit.SOURCE_HASH)"
    hashes = [_run(root, cache, code)]
    for name in ("kernels/rng.py", "rules.py"):
        path = root / "beggar" / name
        path.write_text(path.read_text() + "\n# changed\n")
        hashes.append(_run(root, cache, code))
    assert len(set(hashes)) == 3


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
    copies = [_copy(tmp_path / "clone"), _copy(tmp_path / "elsewhere" / "worktree")]
    source_hash, result = _probe(copies[0], cache)
    again = _run(copies[1], cache, NUMBA_DEBUG_CACHE="1")
    assert "[cache] data loaded" in again and "[cache] data saved" not in again
    assert again.splitlines()[-1] == f"{source_hash} {result}"
    folders = {path.parent.relative_to(cache / f"beggar-{source_hash}") for path in cache.rglob("*.nbi")}
    assert folders == {Path("kernels")}
