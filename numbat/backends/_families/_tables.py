"""The table machinery of the element-wise families (elementwise, math, bitwise, complex).

Those ops differ only in the function applied. The op table (`_core/_op_table.py`) says
which ops a family has, how each converts its operands and, in its `compute`, what it
computes (`(xp, *arrays) -> array`); the family module writes the code of those an entry
cannot hold (jax.lax's primitives on XLA, JAX's host functions on NumPy: its `CODE`),
`build` makes the family's tables from both (the table's `narrow`, `wide_on_numpy` and
`complex_as_xla` flags wrap the function in the wrappers of those names, each on its own), and `fill` makes every name a method of its `Array` (`op(out, tensor)` or
`op(out, left, right)`, as the backend contract, `backends/_contract.py`, declares it). A table entry is
a function of `(xp, *arrays)`, written once for NumPy and jax.numpy alike; the few
functions NumPy lacks (erf, erf_inv) are computed with JAX's host implementation there
(`host`).

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

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np

from ..._core import _op_table
from ..._core._errors import ArgumentError
from ..._core._types import merge
from ..._tensor._tensor import Template


def on_host(jax_fun, x):
    """`jax_fun(x)` for NumPy `x`, computed by XLA on the host CPU, as NumPy."""
    with jax.enable_x64(True):  # keep f64/c128 data 64-bit
        return np.asarray(jax_fun(jax.device_put(x, jax.devices("cpu")[0])))  # x: an array or a tuple


def host(jax_fun):
    """`jax_fun` for both array modules: on NumPy data it runs on the host CPU and returns NumPy."""

    def fun(xp, x):
        return on_host(jax_fun, x) if xp is np else jax_fun(x)

    return fun


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


def lax_unary(np_name: str, lax_fun):
    """`np.<np_name>` on NumPy; on jax.numpy the lax primitive itself. jax.numpy's function
    binds that very primitive, from inside a jit of its own that a trace pays for op
    after op (about two thirds of tracing a chain of element-wise ops)."""
    np_fun = getattr(np, np_name)
    return lambda xp, x: np_fun(x) if xp is np else lax_fun(x)


def lax_binary(np_name: str, lax_fun, kinds: str = "biufc"):
    """`xp.<np_name>`, or on jax.numpy the lax primitive itself when no broadcasting beyond
    a scalar operand is needed and the operands share one type of `kinds` (NumPy's letters;
    jax.numpy's function binds the same primitive then)."""

    np_fun = getattr(np, np_name)

    def binary(xp, a, b):
        if xp is np:
            return np_fun(a, b)
        if a.dtype == b.dtype and (a.shape == b.shape or not a.shape or not b.shape) and a.dtype.kind in kinds:
            return lax_fun(a, b)
        return getattr(xp, np_name)(a, b)

    return binary


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


def build(family: str, code: dict) -> dict[str, dict]:
    """The family's tables, by kind (`unary`, `own_type`, `binary`, `merged`): each op of
    the op table in `family`, computed by its entry's `compute` or, for an op whose entry has
    none (code that needs the family's helpers: jax.lax's primitives on XLA, JAX's host
    functions on NumPy), by the family's `code`; wrapped as its flags say (`narrow`, `wide_on_numpy`, then
    `complex_as_xla`)."""
    ops = [op for op in _op_table.OPS.values() if op.family == family]
    unknown = set(code) - {op.name for op in ops}
    if unknown:
        raise ArgumentError(f"the {family} family has code for ops the op table does not list: {sorted(unknown)}")
    twice = sorted(op.name for op in ops if op.compute is not None and op.name in code)
    missing = sorted(op.name for op in ops if op.compute is None and op.name not in code)
    if twice or missing:
        raise ArgumentError(
            f"each op of the op table needs one computation, its entry's compute or its family's code: "
            f"{family} has both for {twice} and neither for {missing}"
        )
    tables: dict[str, dict] = {"unary": {}, "own_type": {}, "binary": {}, "merged": {}}
    for op in ops:
        fun = op.compute if op.compute is not None else code[op.name]
        if op.narrow:
            fun = narrow(fun)
        if op.wide_on_numpy:
            fun = wide_on_numpy(fun)
        if op.complex_as_xla:
            fun = complex_as_xla(fun)
        tables[op.kind][op.name] = fun
    return tables


def truthy(x):
    return x != 0


# Float types whose subnormals stay subnormal when XLA computes in f32 (f16 and the 8-bit
# floats widen to normal f32 numbers and keep theirs).
_F32_SUBNORMALS = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(ml_dtypes.bfloat16))


def as_zero(xp, x):
    """`x` with subnormal elements read as (signed) zero, for the ops that XLA on CPU gets
    wrong for subnormal inputs, neither IEEE's answer nor zero's: atan2(1e-45, 1e-45) is NaN
    in f32, atan2(5e-324, -1.0) is -pi in f64, 1e-45 ** 0.5 is 2.6e-23, cbrt(1e-45) is
    -5.6e-16. Reading them as zero (XLA's nominal rule on CPU) on every backend gives one
    answer; other types and ops keep their subnormals."""
    if x.dtype not in _F32_SUBNORMALS:
        return x
    tiny = float(ml_dtypes.finfo(x.dtype).smallest_normal)
    return xp.where(xp.abs(x) < tiny, xp.copysign(xp.zeros_like(x), x), x)


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
