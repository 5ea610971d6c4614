"""Bit tricks for the bit-parallel kernel: counting trailing zeros two ways, inside numba.

:func:`tz_llvm` asks LLVM for its ``cttz`` intrinsic (one ``tzcnt``/``bsf`` instruction on x86-64),
through :func:`numba.extending.intrinsic`; :func:`tz_debruijn` is the portable de Bruijn
multiply-and-look-up. Both give 64 for a zero word, so a caller can put a sentinel bit where a
count should stop. :func:`tz` picks one with a flag the compiler folds away.

>>> import numpy as np
>>> int(tz(np.uint64(0b101000), False)), int(tz(np.uint64(0b101000), True)), int(tz(np.uint64(0), True))
(3, 3, 64)

:func:`tz_float` is a third way, for loops that LLVM vectorises (AVX2 has no vector ``tzcnt``):
the lowest set bit, ``2**t``, is made the double ``2.0**t`` exactly, whose exponent field is
``1023 + t``; it is exact while that bit is below bit 52.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.extending import intrinsic

from beggar.kernels.jit import jit, jit_inline

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
def _as_double(typingctx: Any, x: Any) -> Any:
    """The bits of an unsigned 64-bit word read as a double."""
    if x != types.uint64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.bitcast(args[0], ir.DoubleType())

    return types.float64(types.uint64), codegen


@intrinsic
def _as_word(typingctx: Any, x: Any) -> Any:
    """The bits of a double read as an unsigned 64-bit word."""
    if x != types.float64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.bitcast(args[0], ir.IntType(64))

    return types.uint64(types.float64), codegen


def _debruijn_table() -> np.ndarray:
    table = np.zeros(64, dtype=np.uint8)
    for i in range(64):
        table[int((_DEBRUIJN << _U(i)) >> _S58)] = i
    return table


DEBRUIJN_TABLE = _debruijn_table()


@jit
def tz_llvm(x: np.uint64) -> int:
    """Trailing zeros of ``x`` by the LLVM intrinsic (64 when ``x`` is zero)."""
    return int(np.int64(_cttz(x)))  # type: ignore[call-arg]


@jit
def tz_debruijn(x: np.uint64) -> int:
    """Trailing zeros of ``x`` by a de Bruijn sequence: isolate the lowest bit, multiply, look up."""
    if x == _ZERO:
        return 64
    low = x & (~x + _ONE)
    return int(np.int64(DEBRUIJN_TABLE[np.int64((low * _DEBRUIJN) >> _S58)]))


_MAGIC = _U(0x4330000000000000)
"""The double ``2**52``: or-ing an integer below ``2**52`` into its mantissa adds it exactly."""
_TWO52 = float(1 << 52)
_EXPONENT_AT = _U(52)
_BIAS = _U(1023)


@jit_inline
def tz_float(x: np.uint64) -> np.uint64:
    """Trailing zeros of ``x``, whose lowest set bit must be below bit 52, through the float unit.

    The form LLVM vectorises, in six vector instructions: or-ing the lowest set bit into the
    mantissa of ``2**52`` and subtracting ``2**52`` gives ``2.0**t`` exactly.
    """
    low = x & (_ZERO - x)
    exact = _as_double(low | _MAGIC) - _TWO52  # type: ignore[call-arg]
    return (_as_word(exact) >> _EXPONENT_AT) - _BIAS


@jit
def tz(x: np.uint64, debruijn: bool) -> int:
    """Trailing zeros of ``x`` (64 for zero); ``debruijn`` chooses the method (a constant)."""
    if debruijn:
        return tz_debruijn(x)
    return tz_llvm(x)


@jit
def bit(i: int) -> np.uint64:
    """The word with only bit ``i`` set (``0 <= i < 64``)."""
    return _ONE << _U(i)


@jit
def get(x: np.uint64, i: int) -> int:
    """Bit ``i`` of ``x`` as 0 or 1."""
    return int(np.int64((x >> _U(i)) & _ONE))


@jit
def shr(x: np.uint64, k: int) -> np.uint64:
    """``x`` shifted right by ``k < 64`` bits, staying unsigned (numba types ``uint64 >> int64`` signed)."""
    return x >> _U(k)


@jit
def shl(x: np.uint64, k: int) -> np.uint64:
    """``x`` shifted left by ``k < 64`` bits, staying unsigned."""
    return x << _U(k)


__all__ = ["DEBRUIJN_TABLE", "bit", "get", "shl", "shr", "tz", "tz_debruijn", "tz_float", "tz_llvm"]
