"""Bit tricks for the bit-parallel kernel: counting trailing zeros two ways, inside numba.

:func:`tz_llvm` asks LLVM for its ``cttz`` intrinsic (one ``tzcnt``/``bsf`` instruction on x86-64),
through :func:`numba.extending.intrinsic`; :func:`tz_debruijn` is the portable de Bruijn
multiply-and-look-up. Both give 64 for a zero word, so a caller can put a sentinel bit where a
count should stop. :func:`tz` picks one with a flag the compiler folds away.

>>> import numpy as np
>>> int(tz(np.uint64(0b101000), False)), int(tz(np.uint64(0b101000), True)), int(tz(np.uint64(0), True))
(3, 3, 64)

:func:`tz_lanes` is a third way, ``popcount((x & -x) - 1)``, for loops that LLVM vectorises.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.extending import intrinsic

_U = np.uint64
_DEBRUIJN = _U(0x03F79D71B4CB0A89)
_S58 = _U(58)
_ZERO = _U(0)
_ONE = _U(1)


@intrinsic
def _cttz(typingctx: Any, x: Any) -> Any:
    """LLVM's ``llvm.cttz.i64`` on an unsigned 64-bit word (defined at zero: 64)."""
    if x != types.uint64:
        return None
    sig = types.uint64(types.uint64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def _ctpop(typingctx: Any, x: Any) -> Any:
    """LLVM's ``llvm.ctpop.i64``: the set bits of an unsigned 64-bit word."""
    if x != types.uint64:
        return None
    sig = types.uint64(types.uint64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return sig, codegen


_jit = numba.njit(cache=True, nogil=True)


def _debruijn_table() -> np.ndarray:
    table = np.zeros(64, dtype=np.uint8)
    for i in range(64):
        table[int((_DEBRUIJN << _U(i)) >> _S58)] = i
    return table


DEBRUIJN_TABLE = _debruijn_table()


@_jit
def tz_llvm(x: np.uint64) -> int:
    """Trailing zeros of ``x`` by the LLVM intrinsic (64 when ``x`` is zero)."""
    return int(np.int64(_cttz(x)))  # type: ignore[call-arg]


@_jit
def tz_debruijn(x: np.uint64) -> int:
    """Trailing zeros of ``x`` by a de Bruijn sequence: isolate the lowest bit, multiply, look up."""
    if x == _ZERO:
        return 64
    low = x & (~x + _ONE)
    return int(np.int64(DEBRUIJN_TABLE[np.int64((low * _DEBRUIJN) >> _S58)]))


@numba.njit(cache=True, nogil=True, inline="always")
def tz_lanes(x: np.uint64) -> np.uint64:
    """Trailing zeros of ``x`` (64 for zero) as a bit count, ``popcount((x & -x) - 1)``.

    The form LLVM vectorises: AVX2 has no vector ``tzcnt`` but lowers a vector ``ctpop`` to
    byte look-ups, so a loop over games that counts zeros this way runs four games an instruction.
    """
    return _ctpop((x & (_ZERO - x)) - _ONE)  # type: ignore[call-arg]


@_jit
def tz(x: np.uint64, debruijn: bool) -> int:
    """Trailing zeros of ``x`` (64 for zero); ``debruijn`` chooses the method (a constant)."""
    if debruijn:
        return tz_debruijn(x)
    return tz_llvm(x)


@_jit
def bit(i: int) -> np.uint64:
    """The word with only bit ``i`` set (``0 <= i < 64``)."""
    return _ONE << _U(i)


@_jit
def get(x: np.uint64, i: int) -> int:
    """Bit ``i`` of ``x`` as 0 or 1."""
    return int(np.int64((x >> _U(i)) & _ONE))


@_jit
def shr(x: np.uint64, k: int) -> np.uint64:
    """``x`` shifted right by ``k < 64`` bits, staying unsigned (numba types ``uint64 >> int64`` signed)."""
    return x >> _U(k)


@_jit
def shl(x: np.uint64, k: int) -> np.uint64:
    """``x`` shifted left by ``k < 64`` bits, staying unsigned."""
    return x << _U(k)


__all__ = ["DEBRUIJN_TABLE", "bit", "get", "shl", "shr", "tz", "tz_debruijn", "tz_lanes", "tz_llvm"]
