"""Element-wise ops over two or more broadcast tensors: arithmetic, comparisons, atan2,
min/max, quotient/remainder, select and clip. `Array` implements the family's methods of the
backend contract (`backends/_contract.py`) over `self.xp`.

The family's rule: an op combines two or more tensors of one broadcast shape element by
element (functions of one tensor are `math`; the bitwise and logical ops are `bitwise`,
building complex numbers is `complex`). Its binary ops are the op table's
(`_core/_op_table.py`), computed by their entries' `compute` or, where an entry has none, `CODE`, and filled in by `_tables.build` and
`_tables.fill`.
"""

from __future__ import annotations

import typing

import jax
import numpy as np

from . import _tables
from ._base import ArrayBase
from ._tables import as_zero, lax_binary, truthy


def _integer_pow(xp, base, exponent):
    """Integer power by squaring, wrapping around in the type as every integer op does (u8 2 to
    the 128 is 0 on every backend). A negative exponent (refused by the front-end where its
    values are known) gives XLA's answer: 1 for base 1, +-1 for base -1, else 0."""
    one = xp.ones_like(base)
    result, square = one, base
    bits = exponent.dtype.itemsize * 8 - (exponent.dtype.kind == "i")
    for bit in range(bits):
        result = result * xp.where((exponent >> bit) & 1 == 1, square, one)
        square = square * square
    if exponent.dtype.kind == "u":
        return result
    odd = (exponent % 2) != 0
    negative = xp.where(base == 1, one, xp.where(base == -1, xp.where(odd, -one, one), 0 * one))
    return xp.where(exponent >= 0, result, negative)


def _pow(xp, base, exponent):
    if base.dtype.kind in "iu":
        return _integer_pow(xp, base, exponent)
    if base.dtype.kind == "c":
        return xp.power(base, exponent)
    return xp.power(as_zero(xp, base), as_zero(xp, exponent))


def _quotient(xp, left, right):
    """Integer division truncating toward zero (Nx), not flooring (Python)."""
    safe = xp.where(right == 0, 1, right)
    floor = left // safe
    adjust = (left % safe != 0) & ((left < 0) != (right < 0))
    return xp.where(right == 0, 0, floor + adjust.astype(floor.dtype))


def _as_xla_divides(divide):
    """`divide`, except that a real divisor broadcast to the result's shape divides as XLA on
    the CPU does: XLA rewrites `a / broadcast(b)` as `a * broadcast(1 / b)` (one ulp off the
    quotient for a third of f32 values: 14 / 6 is 2.3333335), and EXLA's answer is the one
    numbat gives on every path where Nx's BinaryBackend (2.3333333) and EXLA disagree. numbat
    writes that product itself, on NumPy and on XLA alike, so the answer does not depend on
    whether a platform's XLA rewrites the division (XLA on an NVIDIA H200 did not: its quotients
    were the correctly rounded ones, an ulp from the CPU's)."""

    def as_xla(xp, a, b):
        if b.dtype.kind == "f" and b.shape != np.broadcast_shapes(a.shape, b.shape):
            # XLA on the CPU multiplies f16, bf16 and the 8-bit floats in f32, rounding the
            # product once; the reciprocal is rounded to the type, except for the 8-bit floats.
            wide = b.dtype if b.dtype.itemsize >= 4 else np.dtype(np.float32)
            with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
                reciprocal = wide.type(1) / b.astype(wide)
                if b.dtype.itemsize >= 2:
                    reciprocal = reciprocal.astype(b.dtype).astype(wide)
                return (a.astype(wide) * reciprocal).astype(b.dtype)
        return divide(xp, a, b)

    return as_xla


# The ops' code (the op table, `_core/_op_table.py`, lists them, their kinds and flags).
CODE: dict[str, typing.Callable] = {
    "add": lax_binary("add", jax.lax.add),
    "subtract": lax_binary("subtract", jax.lax.sub),
    "multiply": lax_binary("multiply", jax.lax.mul),
    "divide": _as_xla_divides(lax_binary("divide", jax.lax.div, kinds="fc")),  # ints as floats
    "pow": _pow,
    "quotient": _quotient,
    "floor_divide": lambda xp, a, b: (
        xp.floor_divide(a, xp.where(b == 0, 1, b)) if a.dtype.kind in "iu" else xp.floor(a / b)
    ),
    "atan2": lambda xp, a, b: xp.arctan2(as_zero(xp, a), as_zero(xp, b)),
    "min": lax_binary("minimum", jax.lax.min),
    "max": lax_binary("maximum", jax.lax.max),
    "equal": lax_binary("equal", jax.lax.eq),
    "not_equal": lax_binary("not_equal", jax.lax.ne),
    "less": lax_binary("less", jax.lax.lt, kinds="biuf"),
    "less_equal": lax_binary("less_equal", jax.lax.le, kinds="biuf"),
    "greater": lax_binary("greater", jax.lax.gt, kinds="biuf"),
    "greater_equal": lax_binary("greater_equal", jax.lax.ge, kinds="biuf"),
}
TABLES = _tables.build("elementwise", CODE)


class Array(ArrayBase):
    def select(self, out, pred, on_true, on_false):
        xp = self.xp
        return self._wrap(out, xp.where(truthy(xp.asarray(pred.data)), self._as(on_true, out), self._as(on_false, out)))

    def clip(self, out, tensor, low, high):
        xp = self.xp
        data, low, high = self._as(tensor, out), self._as(low, out), self._as(high, out)
        if xp is np or not out.type.is_float:
            return self._wrap(out, xp.minimum(xp.maximum(data, low), high))
        return self._wrap(out, _clip(data, low, high))


@jax.custom_jvp
def _clip(data, low, high):
    """`min(max(data, low), high)` with Nx's gradient: an element at a limit passes its
    gradient to the operand; a limit receives it only where the operand exceeds it."""
    return jax.numpy.minimum(jax.numpy.maximum(data, low), high)


def _masked(mask, tangent, ans):
    return jax.numpy.broadcast_to(jax.numpy.where(mask, tangent, 0).astype(ans.dtype), ans.shape)


_clip.defjvps(
    lambda tangent, ans, data, low, high: _masked((data >= low) & (data <= high), tangent, ans),
    lambda tangent, ans, data, low, high: _masked((low > data) & (low < high), tangent, ans),
    lambda tangent, ans, data, low, high: _masked(high < data, tangent, ans),
)

_tables.fill(Array, **TABLES)
