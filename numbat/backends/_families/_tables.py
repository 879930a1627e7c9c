"""The table machinery of the element-wise families (elementwise, math, bitwise, complex).

Those ops differ only in the function applied, and the op table (`_core/_op_table.py`) says
it all: which ops a family has, how each converts its operands and, in its `compute`, what
it computes (`(xp, *arrays) -> array`, written once for NumPy and jax.numpy alike; the
helpers it needs, jax.lax's primitives on XLA and JAX's host functions on NumPy, are
`_core/_op_code.py`'s). `build` makes a family's tables from the entries alone (the table's
`narrow`, `wide_on_numpy`, `complex_as_xla` and `subnormals_as_zero` flags wrap the function
in the wrappers of those names, each on its own), and `fill` makes every name a method of its
`Array` (`op(out, tensor)` or `op(out, left, right)`, as the backend contract,
`backends/_contract.py`, declares it).

The tables, by how a method converts its operands:

- `unary`: the operand is converted to the output's type, and the result is of it.
- `own_type`: the operand keeps its own type (the output differs: u8 predicates, real parts).
- `binary`: both operands are converted to the output's type.
- `merged`: both operands are converted to their merged type; the output differs (u8, complex).

Complex special values follow XLA on every path: for complex Inf and NaN, NumPy gives
C99 Annex G's answers (`exp(inf+nanj)` is `inf+nanj`) and XLA its own formulas' (`nan+nanj`).
So the NumPy backend computes the complex transcendental functions (complex `abs`, `phase`,
`divide` and `pow` too) with the same table entry over jax.numpy on the host CPU (`complex_as_xla`);
real data stays on NumPy.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ..._core import _op_table
from ..._core._errors import ArgumentError
from ..._core._op_code import as_zero, on_host
from ..._core._types import merge
from ..._tensor._tensor import Template


def complex_as_xla(fun):
    """`fun(xp, x)`, except that complex `x` on NumPy is computed as `fun(jax.numpy, x)` on the
    host CPU: XLA's complex special values, not C99's (see the module's docstring)."""

    def wrapped(xp, x, *more):
        if xp is np and x.dtype.kind == "c":
            if more:  # binary: both operands travel
                return on_host(lambda pair: fun(jnp, *pair), (x, *more))
            return on_host(lambda y: fun(jnp, y), x)
        return fun(xp, x, *more)

    return wrapped


def narrow(fun):
    """`fun` of an 8-bit float computed in f32 and rounded back, on every backend (they have no
    infinities to overflow into, and XLA lowers few functions for them)."""

    def wrapped(xp, x):
        if x.dtype.kind not in "iubc" and x.dtype.itemsize == 1:
            return fun(xp, x.astype(np.float32)).astype(x.dtype)
        return fun(xp, x)

    return wrapped


def wide_on_numpy(fun):
    """`fun` of every float narrower than f64 computed in f64 on the NumPy backend, and rounded
    back: NumPy's SIMD loops for f32 (AVX-512's SVML) miss by an ulp where XLA and Nx are exact
    (log10(100) gave 2.0000002 and cbrt(-27) -2.9999998 on an AVX-512 machine)."""

    def wrapped(xp, x):
        if xp is np and x.dtype.kind not in "iubc" and x.dtype != np.float64:
            return fun(xp, x.astype(np.float64)).astype(x.dtype)
        return fun(xp, x)

    return wrapped


def subnormals_as_zero(fun):
    """`fun` of operands whose subnormal elements are read as zero in their own type, before any
    other wrapper widens them (`_op_code.as_zero`: the ops XLA on CPU gets wrong for them)."""

    def wrapped(xp, *arrays):
        return fun(xp, *(as_zero(xp, x) for x in arrays))

    return wrapped


def build(family: str) -> dict[str, dict]:
    """The family's tables, by kind (`unary`, `own_type`, `binary`, `merged`): each op of
    the op table in `family`, computed by its entry's `compute`, wrapped as its flags say
    (`narrow`, `wide_on_numpy`, `complex_as_xla`, then `subnormals_as_zero` outermost, on the
    operands as they come)."""
    ops = [op for op in _op_table.OPS.values() if op.family == family]
    missing = sorted(op.name for op in ops if op.compute is None)
    if missing:
        raise ArgumentError(
            f"each op of the op table computes with its entry's compute; {family} has none for {missing}"
        )
    tables: dict[str, dict] = {"unary": {}, "own_type": {}, "binary": {}, "merged": {}}
    for op in ops:
        fun = op.compute
        if op.narrow:
            fun = narrow(fun)
        if op.wide_on_numpy:
            fun = wide_on_numpy(fun)
        if op.complex_as_xla:
            fun = complex_as_xla(fun)
        if op.subnormals_as_zero:
            fun = subnormals_as_zero(fun)
        tables[op.kind][op.name] = fun
    return tables


def _unary_method(name, fun):
    def method(self, out, tensor):
        return self._wrap(out, fun(self.xp, self._as(tensor, out)))

    method.__name__ = name
    return method


def _own_type_method(name, fun):
    def method(self, out, tensor):
        return self._wrap(out, self.xp.asarray(fun(self.xp, self.xp.asarray(tensor.data))).astype(out.type.dtype))

    method.__name__ = name
    return method


def _binary_method(name, fun):
    def method(self, out, left, right):
        type_ = out.type  # the common case inline: operands already of the output type (often the same object)
        a = left.data if left.type is type_ or left.type == type_ else self._as(left, out)
        b = right.data if right.type is type_ or right.type == type_ else self._as(right, out)
        return self._wrap(out, fun(self.xp, a, b))

    method.__name__ = name
    return method


def _merged_method(name, fun):
    def method(self, out, left, right):
        common = Template((), merge(left.type, right.type), ())
        result = fun(self.xp, self._as(left, common), self._as(right, common))
        return self._wrap(out, self.xp.asarray(result).astype(out.type.dtype))

    method.__name__ = name
    return method


def fill(array: type, unary=None, own_type=None, binary=None, merged=None) -> None:
    """Makes every name in the tables a method of `array`."""
    for table, make in (
        (unary, _unary_method),
        (own_type, _own_type_method),
        (binary, _binary_method),
        (merged, _merged_method),
    ):
        for name, fun in (table or {}).items():
            setattr(array, name, make(name, fun))
