"""The op table: one entry per element-wise op (the families `elementwise`, `math`,
`bitwise` and `complex`), the single source of the facts about it (docs/design.md, decision 18).

An entry gives the op's name and family; how the backend converts its operands (`kind`:
`unary`, the operand in the output's type; `own_type`, in its own; `binary`, both in the
output's; `merged`, both in their merged type, whatever the output's: the comparisons, the
logical ops, `complex`); its result-type rule (`result`: `same`; `same_integer`, the operands'
own type, integers only; `floating`, `real`, `u8`, `parts` or `complex`, which the
front-end reads with `_ops/primitive/_generate.result_type`); whether Nx refuses complex operands (`real_only`); the
float-precision flags, each on its own (`narrow`: computed in f32 for the 8-bit floats;
`wide_on_numpy`: every float narrower than f64 computed in f64 on the NumPy backend; `complex_as_xla`: complex data on NumPy computed by jax.numpy
on the host, for XLA's special values; `subnormals_as_zero`: subnormal operands read as zero,
XLA's rule on CPU, for the ops it otherwise gets wrong); the float64 NumPy function the
differential test checks it against (`reference`); the Nx function it mirrors (`nx`); its
computation (`compute`, a function of `(xp, *operands)` written once for NumPy and jax.numpy
alike, every entry has one: what the array module cannot say, jax.lax's primitives on XLA,
JAX's host functions on NumPy, Nx's own algorithms, is `_core/_op_code.py`'s); its one-line
`doc` (the backend contract's docstring of its method, and the front-end function's first
line); its `examples` (a doctest: given, the front-end function is generated from the entry,
`_ops/primitive/_generate.py`; None where the family's module writes a function with logic
of its own, such as `divide` and `pow`); whether it is public (`public`: `floor_divide` and `mod`, which Nx lacks, serve the
operators `//` and `%` only); and the real interval its operands are drawn from
(`domain`, `(low, high)`, the whole line unless given): `tests/test_differential.py` checks
the op against its `reference` at random points of that interval and next to its finite
ends, besides the edge-value grid.

What reads it: the backend families build their method tables from it
(`backends/_families/_tables.build`), the front-end modules generate their functions from it
(`_ops/primitive/_generate.define`), `_ops/primitive/_apply.REAL_ONLY` and
`tests/test_differential.py`'s references are made from it, the backend contract declares
each element-wise entry from it, `numbat/__init__.py` exports every public entry (its
`_table_exports`), and `tests/test_op_table.py` checks it against the front-end functions, the public
API, the API page and `docs/_ext/nx_functions.txt`; the API page's list of the table's ops
(`docs/_ext/numbat_op_table.py`) is made from it. It lives in `_core`, the lowest
layer, so that both the backends and the front-end read it without an import running up.
`docs/guides/adding_an_op.md` adds an op through it.

>>> OPS["exp"].family, OPS["exp"].arity, OPS["exp"].result
('math', 1, 'floating')
>>> sorted(name for name, op in OPS.items() if op.family == "complex")
['complex', 'conjugate', 'imag', 'phase', 'real']
>>> sorted(name for name, op in REDUCTIONS.items() if op.keeps_nan)
['reduce_max', 'reduce_min']

The reductions have entries of their own (`Reduction`, in `REDUCTIONS`): the reduction family
fills in a method for each entry with a `compute`, the backend contract declares an entry it
does not write out, `_ops/primitive/reduction.py` refuses complex tensors for `real_only`, the
XLA profiler's NaN-check note reads `NAN_CHECKED`, and the differential tests' references and
lists of reductions are made from it.
"""

from __future__ import annotations

import dataclasses
import math
import typing

import jax
import jax.scipy.special as jsp
import numpy as np

from ._op_code import (
    as_xla_divides,
    asin,
    atanh,
    cbrt,
    complex_from_parts,
    cosh,
    count_leading_zeros,
    host,
    lax_binary,
    lax_unary,
    phase,
    population_count,
    pow,
    quotient,
    round_half_away,
    sign,
    sinh,
)


@dataclasses.dataclass(frozen=True)
class Op:
    """One element-wise op's facts (the module's docstring says what each field means)."""

    name: str
    family: str
    kind: str
    result: str
    real_only: bool = False
    narrow: bool = False
    wide_on_numpy: bool = False
    complex_as_xla: bool = False
    reference: typing.Callable | None = None
    nx: str | None = None
    compute: typing.Callable | None = None
    public: bool = True
    domain: tuple[float, float] = (-math.inf, math.inf)
    subnormals_as_zero: bool = False
    doc: str = ""
    examples: str | None = None

    @property
    def arity(self) -> int:
        return 1 if self.kind in ("unary", "own_type") else 2


def _erf_reference(fun):
    return np.vectorize(fun, otypes=[float])


def _round_half_away(x):
    """Rounding half away from zero (Nx's `round`), in float64."""
    whole = np.trunc(x)
    return np.where(np.abs(x - whole) >= 0.5, whole + np.sign(x), whole)


TABLE = [
    # elementwise
    Op(
        "add",
        "elementwise",
        "binary",
        "same",
        reference=np.add,
        compute=lax_binary("add", jax.lax.add),
        nx="add",
        doc="Adds element-wise, broadcasting and merging names.",
        examples="""
            >>> nbt.add(nbt.tensor([1, 2, 3], names=["x"]), 10)
            numbat.Tensor<
              s32[x: 3]
              [11, 12, 13]
            >
            >>> nbt.tensor([1, 2], type="u8") + -1
            numbat.Tensor<
              s16[2]
              [0, 1]
            >
        """,
    ),
    Op(
        "subtract",
        "elementwise",
        "binary",
        "same",
        reference=np.subtract,
        compute=lax_binary("subtract", jax.lax.sub),
        nx="subtract",
        doc="Subtracts element-wise.",
        examples="""
            >>> nbt.subtract(nbt.tensor([[1], [2]]), nbt.tensor([1.5, 2.5]))
            numbat.Tensor<
              f32[2][2]
              [
                [-0.5, -1.5],
                [0.5, -0.5]
              ]
            >
        """,
    ),
    Op(
        "multiply",
        "elementwise",
        "binary",
        "same",
        reference=np.multiply,
        compute=lax_binary("multiply", jax.lax.mul),
        nx="multiply",
        doc="Multiplies element-wise.",
        examples="""
            >>> nbt.multiply(nbt.tensor([1, 2], type="s64"), nbt.tensor([3, 4], type="u8"))
            numbat.Tensor<
              s64[2]
              [3, 8]
            >
        """,
    ),
    Op(
        "divide",
        "elementwise",
        "binary",
        "floating",
        complex_as_xla=True,
        reference=np.divide,
        compute=as_xla_divides(lax_binary("divide", jax.lax.div, kinds="fc")),  # ints as floats
        nx="divide",
        doc="Divides element-wise; integers divide as floats (Nx's rule).",
    ),
    Op(
        "pow",
        "elementwise",
        "binary",
        "same",
        complex_as_xla=True,
        subnormals_as_zero=True,
        reference=np.power,
        compute=pow,
        nx="pow",
        doc="Raises `left` to the power `right`, element-wise. Integers wrap around in their type, and an integer to a negative integer power is an error, as in Nx.",
    ),
    Op(
        "quotient",
        "elementwise",
        "binary",
        "same_integer",
        real_only=True,
        compute=quotient,
        nx="quotient",
        doc="Integer division truncating toward zero (Nx's `quotient`; Python's `//` floors instead). Integers only.",
        examples="""
            >>> nbt.quotient(nbt.tensor([7, -7]), 2)
            numbat.Tensor<
              s32[2]
              [3, -3]
            >
            >>> nbt.quotient(nbt.tensor([1.0]), 2)
            Traceback (most recent call last):
            ...
            numbat.ArgumentError: quotient expects integer tensors, got f32; cast with nbt.as_type first
        """,
    ),
    Op(
        "remainder",
        "elementwise",
        "binary",
        "same",
        real_only=True,
        reference=np.fmod,
        compute=lambda xp, a, b: xp.fmod(a, xp.where(b == 0, 1, b)) if a.dtype.kind in "iu" else xp.fmod(a, b),
        nx="remainder",
        doc="The remainder of `left / right` with the sign of `left` (Nx's `remainder`, like C's `fmod`; Python's `%` takes the sign of `right` instead).",
        examples="""
            >>> nbt.remainder(nbt.tensor([7, -7]), 3)
            numbat.Tensor<
              s32[2]
              [1, -1]
            >
            >>> nbt.remainder(nbt.tensor([5.5, -5.5]), 2)
            numbat.Tensor<
              f32[2]
              [1.5, -1.5]
            >
        """,
    ),
    Op(
        "floor_divide",
        "elementwise",
        "binary",
        "same",
        real_only=True,
        compute=lambda xp, a, b: (
            xp.floor_divide(a, xp.where(b == 0, 1, b)) if a.dtype.kind in "iu" else xp.floor(a / b)
        ),
        public=False,
        doc="Python's `//`: divides and rounds down (integers stay integers).",
        examples="""
            >>> nbt.tensor([7, -7]) // 2
            numbat.Tensor<
              s32[2]
              [3, -4]
            >
        """,
    ),
    Op(
        "mod",
        "elementwise",
        "binary",
        "same",
        real_only=True,
        compute=lambda xp, a, b: xp.mod(a, xp.where(b == 0, 1, b)) if a.dtype.kind in "iu" else xp.mod(a, b),
        public=False,
        doc="Python's `%`: the remainder with the sign of `right`.",
        examples="""
            >>> nbt.tensor([7, -7]) % 3
            numbat.Tensor<
              s32[2]
              [1, 2]
            >
        """,
    ),
    Op(
        "atan2",
        "elementwise",
        "binary",
        "floating",
        subnormals_as_zero=True,
        reference=np.arctan2,
        compute=lambda xp, a, b: xp.arctan2(a, b),
        nx="atan2",
        doc="The angle of the point `(right, left)`, element-wise: `atan(left / right)` in the right quadrant.",
    ),
    Op(
        "min",
        "elementwise",
        "binary",
        "same",
        real_only=True,
        reference=np.minimum,
        compute=lax_binary("minimum", jax.lax.min),
        nx="min",
        doc="The smaller of two values, element-wise (NaN wins).",
        examples="""
            >>> nbt.min(nbt.tensor([1, 5]), nbt.tensor([3, 2]))
            numbat.Tensor<
              s32[2]
              [1, 2]
            >
        """,
    ),
    Op(
        "max",
        "elementwise",
        "binary",
        "same",
        real_only=True,
        reference=np.maximum,
        compute=lax_binary("maximum", jax.lax.max),
        nx="max",
        doc="The larger of two values, element-wise (NaN wins).",
        examples="""
            >>> nbt.max(nbt.tensor([1, 5]), 3.5)
            numbat.Tensor<
              f32[2]
              [3.5, 5.0]
            >
        """,
    ),
    Op(
        "equal",
        "elementwise",
        "merged",
        "u8",
        compute=lax_binary("equal", jax.lax.eq),
        nx="equal",
        doc="1 where `left == right`, else 0 (u8).",
        examples="""
            >>> nbt.equal(nbt.tensor([1, 2, 3]), nbt.tensor([1, 0, 3]))
            numbat.Tensor<
              u8[3]
              [1, 0, 1]
            >
        """,
    ),
    Op(
        "not_equal",
        "elementwise",
        "merged",
        "u8",
        compute=lax_binary("not_equal", jax.lax.ne),
        nx="not_equal",
        doc="1 where `left != right`, else 0 (u8).",
        examples="""
            >>> nbt.not_equal(nbt.tensor([1, 2, 3]), 2)
            numbat.Tensor<
              u8[3]
              [1, 0, 1]
            >
        """,
    ),
    Op(
        "less",
        "elementwise",
        "merged",
        "u8",
        real_only=True,
        compute=lax_binary("less", jax.lax.lt, kinds="biuf"),
        nx="less",
        doc="1 where `left < right`, else 0 (u8).",
        examples="""
            >>> nbt.less(nbt.tensor([1, 2, 3]), 2)
            numbat.Tensor<
              u8[3]
              [1, 0, 0]
            >
        """,
    ),
    Op(
        "less_equal",
        "elementwise",
        "merged",
        "u8",
        real_only=True,
        compute=lax_binary("less_equal", jax.lax.le, kinds="biuf"),
        nx="less_equal",
        doc="1 where `left <= right`, else 0 (u8).",
        examples="""
            >>> nbt.less_equal(nbt.tensor([1, 2, 3]), 2)
            numbat.Tensor<
              u8[3]
              [1, 1, 0]
            >
        """,
    ),
    Op(
        "greater",
        "elementwise",
        "merged",
        "u8",
        real_only=True,
        compute=lax_binary("greater", jax.lax.gt, kinds="biuf"),
        nx="greater",
        doc="1 where `left > right`, else 0 (u8).",
        examples="""
            >>> nbt.greater(nbt.tensor([1.0, 2.5]), 2)
            numbat.Tensor<
              u8[2]
              [0, 1]
            >
        """,
    ),
    Op(
        "greater_equal",
        "elementwise",
        "merged",
        "u8",
        real_only=True,
        compute=lax_binary("greater_equal", jax.lax.ge, kinds="biuf"),
        nx="greater_equal",
        doc="1 where `left >= right`, else 0 (u8).",
        examples="""
            >>> nbt.greater_equal(nbt.tensor([1, 2, 3]), 2)
            numbat.Tensor<
              u8[3]
              [0, 1, 1]
            >
        """,
    ),
    # math
    Op(
        "negate",
        "math",
        "unary",
        "same",
        reference=np.negative,
        compute=lax_unary("negative", jax.lax.neg),
        nx="negate",
        doc="Negates element-wise.",
        examples="""
            >>> nbt.negate(nbt.tensor([1, -2]))
            numbat.Tensor<
              s32[2]
              [-1, 2]
            >
        """,
    ),
    Op(
        "sign",
        "math",
        "unary",
        "same",
        reference=np.sign,
        compute=sign,
        nx="sign",
        doc="-1, 0 or 1 by the sign of each element (`z / |z|` for complex).",
        examples="""
            >>> nbt.sign(nbt.tensor([-2, 0, 5]))
            numbat.Tensor<
              s32[3]
              [-1, 0, 1]
            >
        """,
    ),
    Op(
        "floor",
        "math",
        "unary",
        "same",
        real_only=True,
        reference=np.floor,
        compute=lambda xp, x: x if x.dtype.kind in "iu" else xp.floor(x),
        nx="floor",
        doc="Rounds down to an integer value (integers are unchanged).",
        examples="""
            >>> nbt.floor(nbt.tensor([-1.5, 1.5]))
            numbat.Tensor<
              f32[2]
              [-2.0, 1.0]
            >
        """,
    ),
    Op(
        "ceil",
        "math",
        "unary",
        "same",
        real_only=True,
        reference=np.ceil,
        compute=lambda xp, x: x if x.dtype.kind in "iu" else xp.ceil(x),
        nx="ceil",
        doc="Rounds up to an integer value (integers are unchanged).",
        examples="""
            >>> nbt.ceil(nbt.tensor([-1.5, 1.5]))
            numbat.Tensor<
              f32[2]
              [-1.0, 2.0]
            >
        """,
    ),
    Op(
        "round",
        "math",
        "unary",
        "same",
        real_only=True,
        reference=_round_half_away,
        compute=round_half_away,
        nx="round",
        doc="Rounds to the nearest integer value, halves away from zero (Nx's rule, not NumPy's round-half-to-even).",
        examples="""
            >>> nbt.round(nbt.tensor([-2.5, -1.4, 0.5, 1.5, 2.5]))
            numbat.Tensor<
              f32[5]
              [-3.0, -1.0, 1.0, 2.0, 3.0]
            >
        """,
    ),
    Op(
        "exp",
        "math",
        "unary",
        "floating",
        narrow=True,
        complex_as_xla=True,
        reference=np.exp,
        compute=lax_unary("exp", jax.lax.exp),
        nx="exp",
        doc="The exponential, element-wise.",
        examples="""
            >>> nbt.exp(nbt.tensor([0.5, 3.0]))
            numbat.Tensor<
              f32[2]
              [1.6487212, 20.085537]
            >
        """,
    ),
    Op(
        "expm1",
        "math",
        "unary",
        "floating",
        narrow=True,
        complex_as_xla=True,
        reference=np.expm1,
        compute=lax_unary("expm1", jax.lax.expm1),
        nx="expm1",
        doc="`exp(x) - 1`, accurate near zero, element-wise.",
        examples="""
            >>> nbt.expm1(nbt.tensor([0.0, 1e-10]))
            numbat.Tensor<
              f32[2]
              [0.0, 1.0e-10]
            >
        """,
    ),
    Op(
        "log",
        "math",
        "unary",
        "floating",
        narrow=True,
        wide_on_numpy=True,
        complex_as_xla=True,
        reference=np.log,
        compute=lax_unary("log", jax.lax.log),
        domain=(0.0, math.inf),
        nx="log",
        doc="The natural logarithm, element-wise (`nbt.log`, which takes a base too, is `composite/math.py`'s, built on this one).",
        examples="""
            >>> nbt.log(nbt.tensor([1.0, 0.0]))
            numbat.Tensor<
              f32[2]
              [0.0, -Inf]
            >
        """,
    ),
    Op(
        "log1p",
        "math",
        "unary",
        "floating",
        narrow=True,
        wide_on_numpy=True,
        complex_as_xla=True,
        reference=np.log1p,
        compute=lax_unary("log1p", jax.lax.log1p),
        domain=(-1.0, math.inf),
        nx="log1p",
        doc="`log(1 + x)`, accurate near zero, element-wise.",
        examples="""
            >>> nbt.log1p(nbt.tensor([0.0, 1e-10]))
            numbat.Tensor<
              f32[2]
              [0.0, 1.0e-10]
            >
        """,
    ),
    Op(
        "log2",
        "math",
        "unary",
        "floating",
        narrow=True,
        wide_on_numpy=True,
        complex_as_xla=True,
        reference=np.log2,
        domain=(0.0, math.inf),
        compute=lambda xp, x: xp.log2(x),
        nx="log2",
        doc="The base-2 logarithm, element-wise.",
        examples="""
            >>> nbt.log2(nbt.tensor([1, 8, 1024]))
            numbat.Tensor<
              f32[3]
              [0.0, 3.0, 10.0]
            >
        """,
    ),
    Op(
        "log10",
        "math",
        "unary",
        "floating",
        narrow=True,
        wide_on_numpy=True,
        complex_as_xla=True,
        reference=np.log10,
        domain=(0.0, math.inf),
        compute=lambda xp, x: xp.log10(x),
        nx="log10",
        doc="The base-10 logarithm, element-wise.",
        examples="""
            >>> nbt.log10(nbt.tensor([1, 100, 1000]))
            numbat.Tensor<
              f32[3]
              [0.0, 2.0, 3.0]
            >
        """,
    ),
    Op(
        "sigmoid",
        "math",
        "unary",
        "floating",
        narrow=True,
        complex_as_xla=True,
        reference=lambda x: 1 / (1 + np.exp(-x)),  # not 0.5 * (1 + tanh(x / 2)): 1 + tanh cancels for x < -20
        compute=lambda xp, x: 1 / (1 + xp.exp(-x)),
        nx="sigmoid",
        doc="The logistic function `1 / (1 + exp(-x))`, element-wise.",
        examples="""
            >>> nbt.sigmoid(nbt.tensor([0.0, 100.0, -100.0]))
            numbat.Tensor<
              f32[3]
              [0.5, 1.0, 0.0]
            >
        """,
    ),
    Op(
        "sqrt",
        "math",
        "unary",
        "floating",
        narrow=True,
        wide_on_numpy=True,
        complex_as_xla=True,
        reference=np.sqrt,
        compute=lax_unary("sqrt", jax.lax.sqrt),
        domain=(0.0, math.inf),
        nx="sqrt",
        doc="The square root, element-wise.",
        examples="""
            >>> nbt.sqrt(nbt.tensor([4, 2], type="f64"))
            numbat.Tensor<
              f64[2]
              [2.0, 1.4142135623730951]
            >
        """,
    ),
    Op(
        "rsqrt",
        "math",
        "unary",
        "floating",
        narrow=True,
        wide_on_numpy=True,
        complex_as_xla=True,
        reference=lambda x: 1 / np.sqrt(x),
        domain=(0.0, math.inf),
        compute=lambda xp, x: 1 / xp.sqrt(x),
        nx="rsqrt",
        doc="The reciprocal square root `1 / sqrt(x)`, element-wise.",
        examples="""
            >>> nbt.rsqrt(nbt.tensor([4.0, 0.25]))
            numbat.Tensor<
              f32[2]
              [0.5, 2.0]
            >
        """,
    ),
    Op(
        "cbrt",
        "math",
        "unary",
        "floating",
        narrow=True,
        wide_on_numpy=True,
        complex_as_xla=True,
        subnormals_as_zero=True,
        reference=np.cbrt,
        compute=cbrt,
        nx="cbrt",
        doc="The cube root, element-wise.",
        examples="""
            >>> nbt.cbrt(nbt.tensor([8.0, -27.0]))
            numbat.Tensor<
              f32[2]
              [2.0, -3.0]
            >
        """,
    ),
    Op(
        "sin",
        "math",
        "unary",
        "floating",
        narrow=True,
        wide_on_numpy=True,
        complex_as_xla=True,
        reference=np.sin,
        compute=lax_unary("sin", jax.lax.sin),
        nx="sin",
        doc="The sine, element-wise.",
        examples="""
            >>> nbt.sin(nbt.tensor([0.0], type="f64"))
            numbat.Tensor<
              f64[1]
              [0.0]
            >
        """,
    ),
    Op(
        "cos",
        "math",
        "unary",
        "floating",
        narrow=True,
        wide_on_numpy=True,
        complex_as_xla=True,
        reference=np.cos,
        compute=lax_unary("cos", jax.lax.cos),
        nx="cos",
        doc="The cosine, element-wise.",
        examples="""
            >>> nbt.cos(nbt.tensor([0]))
            numbat.Tensor<
              f32[1]
              [1.0]
            >
        """,
    ),
    Op(
        "tan",
        "math",
        "unary",
        "floating",
        narrow=True,
        wide_on_numpy=True,
        complex_as_xla=True,
        reference=np.tan,
        compute=lax_unary("tan", jax.lax.tan),
        nx="tan",
        doc="The tangent, element-wise.",
        examples="""
            >>> nbt.tan(nbt.tensor([0.0]))
            numbat.Tensor<
              f32[1]
              [0.0]
            >
        """,
    ),
    Op(
        "asin",
        "math",
        "unary",
        "floating",
        narrow=True,
        wide_on_numpy=True,
        complex_as_xla=True,
        reference=np.arcsin,
        domain=(-1.0, 1.0),
        compute=asin,
        nx="asin",
        doc="The inverse sine, element-wise.",
        examples="""
            >>> nbt.asin(nbt.tensor([0.0, 1.0]))
            numbat.Tensor<
              f32[2]
              [0.0, 1.5707964]
            >
        """,
    ),
    Op(
        "acos",
        "math",
        "unary",
        "floating",
        narrow=True,
        wide_on_numpy=True,
        complex_as_xla=True,
        reference=np.arccos,
        domain=(-1.0, 1.0),
        compute=lambda xp, x: xp.arccos(x),
        nx="acos",
        doc="The inverse cosine, element-wise.",
        examples="""
            >>> nbt.acos(nbt.tensor([1.0]))
            numbat.Tensor<
              f32[1]
              [0.0]
            >
        """,
    ),
    Op(
        "atan",
        "math",
        "unary",
        "floating",
        narrow=True,
        wide_on_numpy=True,
        complex_as_xla=True,
        reference=np.arctan,
        compute=lambda xp, x: xp.arctan(x),
        nx="atan",
        doc="The inverse tangent, element-wise.",
        examples="""
            >>> nbt.atan(nbt.tensor([0.0]))
            numbat.Tensor<
              f32[1]
              [0.0]
            >
        """,
    ),
    Op(
        "sinh",
        "math",
        "unary",
        "floating",
        narrow=True,
        complex_as_xla=True,
        reference=np.sinh,
        compute=sinh,
        nx="sinh",
        doc="The hyperbolic sine, element-wise.",
        examples="""
            >>> nbt.sinh(nbt.tensor([0.0]))
            numbat.Tensor<
              f32[1]
              [0.0]
            >
        """,
    ),
    Op(
        "cosh",
        "math",
        "unary",
        "floating",
        narrow=True,
        complex_as_xla=True,
        reference=np.cosh,
        compute=cosh,
        nx="cosh",
        doc="The hyperbolic cosine, element-wise.",
        examples="""
            >>> nbt.cosh(nbt.tensor([0.0]))
            numbat.Tensor<
              f32[1]
              [1.0]
            >
        """,
    ),
    Op(
        "tanh",
        "math",
        "unary",
        "floating",
        narrow=True,
        wide_on_numpy=True,
        complex_as_xla=True,
        reference=np.tanh,
        compute=lax_unary("tanh", jax.lax.tanh),
        nx="tanh",
        doc="The hyperbolic tangent, element-wise.",
        examples="""
            >>> nbt.tanh(nbt.tensor([0.0, 100.0]))
            numbat.Tensor<
              f32[2]
              [0.0, 1.0]
            >
        """,
    ),
    Op(
        "asinh",
        "math",
        "unary",
        "floating",
        narrow=True,
        wide_on_numpy=True,
        complex_as_xla=True,
        reference=np.arcsinh,
        compute=lambda xp, x: xp.arcsinh(x),
        nx="asinh",
        doc="The inverse hyperbolic sine, element-wise.",
        examples="""
            >>> nbt.asinh(nbt.tensor([0.0]))
            numbat.Tensor<
              f32[1]
              [0.0]
            >
        """,
    ),
    Op(
        "acosh",
        "math",
        "unary",
        "floating",
        narrow=True,
        wide_on_numpy=True,
        complex_as_xla=True,
        reference=np.arccosh,
        domain=(1.0, math.inf),
        compute=lambda xp, x: xp.arccosh(x),
        nx="acosh",
        doc="The inverse hyperbolic cosine, element-wise.",
        examples="""
            >>> nbt.acosh(nbt.tensor([1.0]))
            numbat.Tensor<
              f32[1]
              [0.0]
            >
        """,
    ),
    Op(
        "atanh",
        "math",
        "unary",
        "floating",
        narrow=True,
        wide_on_numpy=True,
        complex_as_xla=True,
        reference=np.arctanh,
        domain=(-1.0, 1.0),
        compute=atanh,
        nx="atanh",
        doc="The inverse hyperbolic tangent, element-wise.",
        examples="""
            >>> nbt.atanh(nbt.tensor([0.0]))
            numbat.Tensor<
              f32[1]
              [0.0]
            >
        """,
    ),
    Op(
        "erf",
        "math",
        "unary",
        "floating",
        real_only=True,
        narrow=True,
        reference=_erf_reference(math.erf),
        compute=host(jsp.erf),
        nx="erf",
        doc="The error function, element-wise.",
        examples="""
            >>> nbt.erf(nbt.tensor([0.0]))
            numbat.Tensor<
              f32[1]
              [0.0]
            >
        """,
    ),
    Op(
        "erfc",
        "math",
        "unary",
        "floating",
        real_only=True,
        narrow=True,
        reference=_erf_reference(math.erfc),
        compute=host(jsp.erfc),
        nx="erfc",
        doc="The complementary error function `1 - erf(x)`, element-wise.",
        examples="""
            >>> nbt.erfc(nbt.tensor([0.0]))
            numbat.Tensor<
              f32[1]
              [1.0]
            >
        """,
    ),
    Op(
        "erf_inv",
        "math",
        "unary",
        "floating",
        real_only=True,
        narrow=True,
        domain=(-1.0, 1.0),
        compute=host(jsp.erfinv),
        nx="erf_inv",
        doc="The inverse of the error function, element-wise.",
        examples="""
            >>> nbt.erf_inv(nbt.tensor([0.0]))
            numbat.Tensor<
              f32[1]
              [0.0]
            >
        """,
    ),
    Op(
        "abs",
        "math",
        "own_type",
        "real",
        complex_as_xla=True,
        reference=np.abs,
        compute=lambda xp, x: xp.abs(x),
        nx="abs",
        doc="Absolute value; a complex tensor gives its real magnitude.",
        examples="""
            >>> nbt.abs(nbt.tensor([-1.5, 2.0]))
            numbat.Tensor<
              f32[2]
              [1.5, 2.0]
            >
            >>> nbt.abs(nbt.tensor([3 + 4j]))
            numbat.Tensor<
              f32[1]
              [5.0]
            >
        """,
    ),
    Op(
        "is_nan",
        "math",
        "own_type",
        "u8",
        reference=np.isnan,
        compute=lambda xp, x: xp.zeros(x.shape, bool) if x.dtype.kind in "iu" else xp.isnan(x),
        nx="is_nan",
        doc="1 where an element is NaN, else 0 (u8).",
        examples="""
            >>> nbt.is_nan(nbt.tensor([1.0, float("nan"), float("inf")]))
            numbat.Tensor<
              u8[3]
              [0, 1, 0]
            >
        """,
    ),
    Op(
        "is_infinity",
        "math",
        "own_type",
        "u8",
        reference=np.isinf,
        compute=lambda xp, x: xp.zeros(x.shape, bool) if x.dtype.kind in "iu" else xp.isinf(x),
        nx="is_infinity",
        doc="1 where an element is infinite (either sign), else 0 (u8).",
        examples="""
            >>> nbt.is_infinity(nbt.tensor([1.0, float("nan"), float("-inf")]))
            numbat.Tensor<
              u8[3]
              [0, 0, 1]
            >
        """,
    ),
    # bitwise
    Op(
        "bitwise_not",
        "bitwise",
        "unary",
        "same_integer",
        compute=lambda xp, x: xp.bitwise_not(x),
        nx="bitwise_not",
        doc="Flips every bit of an integer tensor (`~`).",
        examples="""
            >>> nbt.bitwise_not(nbt.tensor([0, 1, 254], type="u8"))
            numbat.Tensor<
              u8[3]
              [255, 254, 1]
            >
            >>> nbt.bitwise_not(nbt.tensor([1.0]))
            Traceback (most recent call last):
            ...
            numbat.ArgumentError: bitwise_not expects integer tensors, got f32; cast with nbt.as_type first
        """,
    ),
    Op(
        "population_count",
        "bitwise",
        "unary",
        "same_integer",
        compute=population_count,
        nx="population_count",
        doc="The number of set bits in each element of an integer tensor.",
        examples="""
            >>> nbt.population_count(nbt.tensor([0, 1, 7, -1], type="s8"))
            numbat.Tensor<
              s8[4]
              [0, 1, 3, 8]
            >
        """,
    ),
    Op(
        "count_leading_zeros",
        "bitwise",
        "unary",
        "same_integer",
        compute=count_leading_zeros,
        nx="count_leading_zeros",
        doc="The number of zero bits before the first set bit, in each element of an integer tensor.",
        examples="""
            >>> nbt.count_leading_zeros(nbt.tensor([0, 1, 255, 256], type="u16"))
            numbat.Tensor<
              u16[4]
              [16, 15, 8, 7]
            >
        """,
    ),
    Op(
        "logical_not",
        "bitwise",
        "own_type",
        "u8",
        compute=lambda xp, x: x == 0,
        nx="logical_not",
        doc="1 where the element is zero, else 0 (u8).",
        examples="""
            >>> nbt.logical_not(nbt.tensor([0, 1, -2]))
            numbat.Tensor<
              u8[3]
              [1, 0, 0]
            >
        """,
    ),
    Op(
        "bitwise_and",
        "bitwise",
        "binary",
        "same_integer",
        compute=lambda xp, a, b: xp.bitwise_and(a, b),
        nx="bitwise_and",
        doc="Bitwise and of two integer tensors (`&`).",
        examples="""
            >>> nbt.bitwise_and(nbt.tensor([12, 10]), nbt.tensor([6, 3]))
            numbat.Tensor<
              s32[2]
              [4, 2]
            >
        """,
    ),
    Op(
        "bitwise_or",
        "bitwise",
        "binary",
        "same_integer",
        compute=lambda xp, a, b: xp.bitwise_or(a, b),
        nx="bitwise_or",
        doc="Bitwise or of two integer tensors (`|`).",
        examples="""
            >>> nbt.bitwise_or(nbt.tensor([12, 10]), 1)
            numbat.Tensor<
              s32[2]
              [13, 11]
            >
        """,
    ),
    Op(
        "bitwise_xor",
        "bitwise",
        "binary",
        "same_integer",
        compute=lambda xp, a, b: xp.bitwise_xor(a, b),
        nx="bitwise_xor",
        doc="Bitwise exclusive or of two integer tensors (`^`).",
        examples="""
            >>> nbt.bitwise_xor(nbt.tensor([12, 10]), 6)
            numbat.Tensor<
              s32[2]
              [10, 12]
            >
        """,
    ),
    Op(
        "left_shift",
        "bitwise",
        "binary",
        "same_integer",
        compute=lambda xp, a, b: xp.left_shift(a, b),
        nx="left_shift",
        doc="Shifts the bits of `left` left by `right` (`<<`).",
    ),
    Op(
        "right_shift",
        "bitwise",
        "binary",
        "same_integer",
        compute=lambda xp, a, b: xp.right_shift(a, b),
        nx="right_shift",
        doc="Shifts the bits of `left` right by `right`, keeping the sign of signed types (`>>`).",
    ),
    Op(
        "logical_and",
        "bitwise",
        "merged",
        "u8",
        compute=lambda xp, a, b: (a != 0) & (b != 0),
        nx="logical_and",
        doc="1 where both are non-zero, else 0 (u8).",
        examples="""
            >>> nbt.logical_and(nbt.tensor([0, 1, 2]), nbt.tensor([1.0, 0.0, -1.0]))
            numbat.Tensor<
              u8[3]
              [0, 0, 1]
            >
        """,
    ),
    Op(
        "logical_or",
        "bitwise",
        "merged",
        "u8",
        compute=lambda xp, a, b: (a != 0) | (b != 0),
        nx="logical_or",
        doc="1 where either is non-zero, else 0 (u8).",
        examples="""
            >>> nbt.logical_or(nbt.tensor([0, 1, 0]), nbt.tensor([0, 0, 3]))
            numbat.Tensor<
              u8[3]
              [0, 1, 1]
            >
        """,
    ),
    Op(
        "logical_xor",
        "bitwise",
        "merged",
        "u8",
        compute=lambda xp, a, b: (a != 0) ^ (b != 0),
        nx="logical_xor",
        doc="1 where exactly one is non-zero, else 0 (u8).",
        examples="""
            >>> nbt.logical_xor(nbt.tensor([0, 1, 1]), nbt.tensor([0, 0, 3]))
            numbat.Tensor<
              u8[3]
              [0, 1, 0]
            >
        """,
    ),
    # complex
    Op(
        "conjugate",
        "complex",
        "unary",
        "complex",
        compute=lambda xp, x: xp.conjugate(x),
        nx="conjugate",
        doc="The complex conjugate (a real tensor becomes complex).",
        examples="""
            >>> nbt.conjugate(nbt.tensor([1 + 2j, 3.0]))
            numbat.Tensor<
              c64[2]
              [1.0-2.0i, 3.0-0.0i]
            >
        """,
    ),
    Op(
        "real",
        "complex",
        "own_type",
        "parts",
        compute=lambda xp, x: xp.real(x),
        nx="real",
        doc="The real part (a real tensor is returned as a float tensor).",
        examples="""
            >>> nbt.real(nbt.tensor([1 + 2j, -3j]))
            numbat.Tensor<
              f32[2]
              [1.0, -0.0]
            >
        """,
    ),
    Op(
        "imag",
        "complex",
        "own_type",
        "parts",
        compute=lambda xp, x: xp.imag(x) if x.dtype.kind == "c" else xp.zeros_like(x),
        nx="imag",
        doc="The imaginary part (zeros for a real tensor).",
        examples="""
            >>> nbt.imag(nbt.tensor([1 + 2j, -3j]))
            numbat.Tensor<
              f32[2]
              [2.0, -3.0]
            >
        """,
    ),
    Op(
        "phase",
        "complex",
        "own_type",
        "parts",
        complex_as_xla=True,
        compute=phase,
        nx="phase",
        doc="The angle of each element in the complex plane, in radians.",
        examples="""
            >>> nbt.phase(nbt.tensor([1.0, -1.0, 0.0]))
            numbat.Tensor<
              f32[3]
              [0.0, 3.1415927, 0.0]
            >
        """,
    ),
    Op(
        "complex",
        "complex",
        "merged",
        "complex",
        real_only=True,
        compute=complex_from_parts,
        nx="complex",
        doc="A complex tensor from its real and imaginary parts.",
        examples="""
            >>> nbt.complex(nbt.tensor([1.0, 2.0]), nbt.tensor([0.5, -1.0]))
            numbat.Tensor<
              c64[2]
              [1.0+0.5i, 2.0-1.0i]
            >
        """,
    ),
]

OPS: dict[str, Op] = {op.name: op for op in TABLE}


@dataclasses.dataclass(frozen=True)
class Reduction:
    """One reduction's facts (`REDUCTIONS`): its name; its result-type rule (`result`:
    `aggregate`, integers summed in at least 32 bits; `same`; `u8`, a truth value, whose
    operand keeps its own type where the others' is converted to the output's); whether Nx
    refuses complex tensors (`real_only`); whether XLA's CPU compiler can lose a NaN that Nx
    keeps, so that the backend checks for one and the profiler names the check (`keeps_nan`);
    its computation (`compute`, `(xp, data, axes, keep_axes) -> array`, or None where the
    reduction family writes the method: product's complex data on the host, reduce_max's
    shift); the float64 NumPy reference (`reference`, with `axis` and `keepdims`); the Nx
    function it mirrors (`nx`)."""

    name: str
    result: str
    real_only: bool = False
    keeps_nan: bool = False
    compute: typing.Callable | None = None
    reference: typing.Callable | None = None
    nx: str | None = None
    public: bool = True
    family: str = "reduction"


def _reduced(fun, predicate: bool = False):
    """`fun(x, axis=axes, keepdims=keep_axes)` of the array module, of `x != 0` for a predicate."""
    name = fun.__name__
    if predicate:
        return lambda xp, x, axes, keep_axes: getattr(xp, name)(x != 0, axis=axes, keepdims=keep_axes)
    return lambda xp, x, axes, keep_axes: getattr(xp, name)(x, axis=axes, keepdims=keep_axes)


REDUCTION_TABLE = [
    Reduction("sum", "aggregate", compute=_reduced(np.sum), reference=np.sum, nx="sum"),
    Reduction("product", "aggregate", nx="product"),
    Reduction("reduce_max", "same", real_only=True, keeps_nan=True, reference=np.max, nx="reduce_max"),
    Reduction("reduce_min", "same", real_only=True, keeps_nan=True, reference=np.min, nx="reduce_min"),
    Reduction("all", "u8", compute=_reduced(np.all, predicate=True), nx="all"),
    Reduction("any", "u8", compute=_reduced(np.any, predicate=True), nx="any"),
]

REDUCTIONS: dict[str, Reduction] = {op.name: op for op in REDUCTION_TABLE}

# The ops whose float answer keeps a NaN where XLA's CPU max and min can lose one: the table's
# reductions with `keeps_nan`, and the window and sort ops that check too (their families are
# not entries yet).
NAN_CHECKED = frozenset({op.name for op in REDUCTION_TABLE if op.keeps_nan} | {"window_max", "window_min", "top_k"})
