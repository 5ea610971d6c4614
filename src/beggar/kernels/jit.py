"""The one way code is compiled here: :func:`jit`, with a cache that cannot run stale code.

numba caches a compiled function beside a stamp of *its own* source file only. A function that
calls helpers from other files (the kernels call the generator in :mod:`beggar.kernels.rng`, the
bit kernel calls the general kernel's helpers) keeps running the old helpers after those files
change, until the cache is deleted by hand. So the cache lives in a folder named after a hash of
every file whose code or constants are compiled: the whole ``kernels`` package and the game
modules it reads (cards, rules, engine, notation). Any change to any of them starts a fresh
folder, and nothing compiled from other sources is ever loaded.

The folder is ``$NUMBA_CACHE_DIR/beggar-<hash>`` when ``NUMBA_CACHE_DIR`` is set, otherwise
``$XDG_CACHE_HOME/beggar/numba/<hash>`` (``~/.cache`` by default). Inside it, functions are filed
by the name of their module's folder, not by where the package lies, so every clone or
environment holding the same sources loads what one of them compiled.

>>> len(SOURCE_HASH), CACHE_DIR.name.endswith(SOURCE_HASH)
(16, True)
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numba
from numba import types
from numba.core import caching
from numba.core import config as numba_config
from numba.extending import intrinsic

_PACKAGE = Path(__file__).resolve().parent.parent
_COMPILED_SOURCES = ("cards.py", "rules.py", "engine.py", "notation.py")
"""The game modules whose constants and classes the kernels read when they compile."""


def _source_hash(package: Path = _PACKAGE) -> str:
    """The hash of the compiled sources of the package at ``package`` (a parameter for the tests,
    which hash an edited copy of the package without importing it)."""
    digest = hashlib.sha256()
    files = sorted((package / "kernels").glob("*.py")) + [package / n for n in _COMPILED_SOURCES]
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _cache_dir(source_hash: str) -> Path:
    base = os.environ.get("NUMBA_CACHE_DIR")
    if base:
        return Path(base) / f"beggar-{source_hash}"
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return home / "beggar" / "numba" / source_hash


SOURCE_HASH = _source_hash()
"""A hash of every source compiled into the kernels; it names the cache folder."""
CACHE_DIR = _cache_dir(SOURCE_HASH)
"""Where compiled kernels are kept (see the module's docstring)."""

# numba picks a function's cache folder when the function is decorated, from this setting.
numba_config.CACHE_DIR = str(CACHE_DIR)  # type: ignore[attr-defined]  # a setting, not in the stubs


class _PackageLocator(caching.UserProvidedCacheLocator):
    """Finds this package's compiled functions in :data:`CACHE_DIR` whichever folder the package
    was installed or cloned into.

    numba files a function under a hash of its source file's absolute folder, so each clone, work
    tree or virtual environment compiles everything again. :data:`CACHE_DIR` is already named
    after the sources' content (and numba checks each file's content too), so the folder's name
    alone is enough here: two copies of the same sources share one compilation.
    """

    @classmethod
    def get_suitable_cache_subpath(cls, py_file: str) -> str:
        return Path(py_file).parent.name

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        if Path(py_file).resolve().parent.parent != _PACKAGE:
            return None  # not ours: numba's own locators decide
        return super().from_function(py_func, py_file)  # type: ignore[no-untyped-call]


if _PackageLocator not in caching.CacheImpl._locator_classes:
    caching.CacheImpl._locator_classes.insert(0, _PackageLocator)

jit = numba.njit(cache=True, nogil=True)
"""Compile a function to machine code, cached (see the module's docstring), without the GIL."""

jit_inline = numba.njit(cache=True, nogil=True, inline="always")
"""As :data:`jit`, and inlined into each compiled caller (for small helpers on hot paths)."""

if TYPE_CHECKING:
    jit_borrowing = jit  # numba's stubs do not name its option for no reference counting
else:
    jit_borrowing = numba.njit(cache=True, nogil=True, _nrt=False)
"""As :data:`jit`, without reference counting: for a hot loop that only borrows the arrays it is
given. numba counts references to arrays atomically (a locked instruction each time an array or a
view of one is passed to an inlined helper, or a row of it taken), which cost the exhaust kernel a
quarter of its time. Such a function cannot allocate (numba refuses to compile an allocation in
it) and must not keep an array it is given; the functions it calls that were compiled with
:data:`jit` count their own references as usual.
"""


@intrinsic
def _unliteral(typingctx: Any, value: Any) -> Any:
    plain = types.unliteral(value)  # type: ignore[no-untyped-call]

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return args[0]  # already cast from the literal to ``plain`` by the call

    return plain(plain), codegen


_Flag = TypeVar("_Flag", bool, int)

if TYPE_CHECKING:

    def runtime(value: _Flag) -> _Flag:
        """``value`` typed as a run-time value of its type, never as a literal constant.

        numba compiles a jitted function once for every literal argument it is called with
        (``True`` and ``False`` are two compilations, the int ``2`` a third beside ``int64``); a
        constant passed through this reaches the callee as a plain ``bool`` or ``int64``, so every
        caller shares one compilation of it. LLVM still folds the constant where it inlines the callee.
        """
else:
    runtime = _unliteral


def compiled_before(name: str) -> bool:
    """Whether the kernels behind ``name`` (a command's entry points) are in the cache already."""
    return (CACHE_DIR / f".compiled-{name}").exists()


@contextmanager
def compiling(name: str, seconds: int, *, notify: bool | None = None) -> Iterator[None]:
    """Say on standard error that ``name``'s kernels are being compiled, when they are not cached.

    The first run of a command compiles its kernels (``seconds`` is the usual time on a small
    machine); later runs load them from :data:`CACHE_DIR` in about a second. The notice is
    printed once per source hash, to a person at a terminal (``notify=None``: when standard
    error is one); the body runs either way.
    """
    first = not compiled_before(name)
    started = time.perf_counter()
    if notify is None:
        notify = sys.stderr.isatty()
    if first and notify:
        print(f"compiling the kernels, once: about {seconds} s", file=sys.stderr, flush=True)
    yield
    if first:
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        (CACHE_DIR / f".compiled-{name}").write_text(f"{time.perf_counter() - started:.1f}\n")


__all__ = [
    "CACHE_DIR",
    "SOURCE_HASH",
    "compiled_before",
    "compiling",
    "jit",
    "jit_borrowing",
    "jit_inline",
    "runtime",
]
