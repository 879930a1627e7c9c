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
ends, besides the edge-value grid. An op that counts bits says which (`counts_bits`: `set`
or `leading_zeros`): on a signed sub-byte type it counts the type's own bits, zero-extended
into the byte it computes in (s4 -1 is 0b1111), and a count of leading zeros is then less by
the 8 - bits zeros the byte adds (`backends/_subbyte.py`).

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

Every other backend method (creation, cumulative, window, shape, indexing, sort, products,
linalg, fft, and `select`, `clip`, `stop_grad`, `argmax`, `argmin`, `reduce`) has an `Entry`
(in `STRUCTURED`, at the end of the file; its docstring says what each field means): the
contract declares the method from the entry's signature, `backends/_families/_base.fill` makes
the method of an entry with a `compute`, `numbat/__init__.py` exports its `public` functions,
`NAN_CHECKED` reads `keeps_nan`, and `tests/test_differential_random.py` checks it against its
`reference`. `ENTRIES` holds every op of every family, by name.

>>> STRUCTURED["transpose"].signature, STRUCTURED["window"].keeps_nan
('tensor, axes', True)
"""

from __future__ import annotations

import dataclasses
import math
import typing

import jax
import jax.scipy.special as jsp
import numpy as np

from . import _op_code
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
    counts_bits: str | None = None

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
        counts_bits="set",
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
        counts_bits="leading_zeros",
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


# --- The other families: one entry per backend method --------------------------------------------


@dataclasses.dataclass(frozen=True)
class Entry:
    """One backend method of a family outside the element-wise tables and `REDUCTIONS` (creation,
    elementwise's and math's structured ops, reduction's argmax/argmin/reduce, cumulative,
    window, shape, indexing, sort, products, linalg, fft), in `ENTRIES`.

    `operands` are the method's tensor parameters (after `out`; `*starts`: any number) and
    `params` its static ones (Python values; `*`-less names after a `*operand` are keyword-only,
    a default written `name=value`): the backend contract declares the method from the two
    (`backends/_contract.declare_table_ops`). `doc` is the contract's line on it; `result` the
    name of its result-type rule (`RESULT_RULES`); `compute`, where the op is simple enough, the
    computation itself, `(xp, out, *arrays, **params) -> array` for NumPy and jax.numpy alike
    (`out` the output template; the arrays converted to `out`'s type, or kept in their own with
    `own_type`; the operands named in `as_data` (indices, starts, a predicate) arrive as their
    data, as it is; a result made from nothing, `creates`, is placed on the backend's device),
    from which the family's method is filled in (`backends/_families/_base.fill`); None where
    `backends/_families/<family>.py` keeps the code (linalg's algorithms, conv, NaN checks
    through the backend, a user's function, bitcast's gradient; jax.lax's primitives on XLA are
    the entry's, `_core/_op_code.py`'s helpers). `reference` is the NumPy function of the
    method's arguments (NumPy arrays and params) it must agree with, and `samples` the operand
    shapes (or constant arrays: indices) and params `tests/test_differential_random.py` checks
    it on, at random values. `keeps_nan`: XLA's CPU max and min can lose a NaN that Nx keeps, so
    the method checks for one (`NAN_CHECKED`). `notes`: gradient and vectorization. `nx`: the Nx
    functions it mirrors; `public`: the top-level numbat functions (in
    `_ops/primitive/<family>.py`) that run it, exported from there by `numbat/__init__.py`;
    `kinds`: the values of its `kind` (or `mode`) parameter, where it has one."""

    name: str
    family: str
    operands: tuple[str, ...]
    params: tuple[str, ...]
    doc: str
    result: str
    compute: typing.Callable | None = None
    own_type: bool = False
    as_data: tuple[str, ...] = ()
    creates: bool = False
    reference: typing.Callable | None = None
    samples: tuple = ()
    keeps_nan: bool = False
    notes: str = ""
    nx: tuple[str, ...] = ()
    public: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()

    @property
    def signature(self) -> str:
        """The method's parameters after `self, out`, as Python writes them."""
        return ", ".join(self.operands + self.params)

    @property
    def param_names(self) -> tuple[str, ...]:
        """The static parameters' names (`params` without defaults)."""
        return tuple(p.split("=")[0].strip() for p in self.params)

    def function(self, body: str, namespace: dict, first: str = "self, out"):
        """A function named after the entry, of parameters `first` and the entry's, whose body is
        the line `body` (Python, run in `namespace`)."""
        exec(f"def {self.name}({first}, {self.signature}):\n    {body}\n", namespace)  # noqa: S102 - the entry's own signature
        return namespace[self.name]


RESULT_RULES = {
    "same": "the (first) operand's type and shape, or a shape the op's arguments give",
    "given": "the shape and type the front-end's arguments give (creation, as_type, bitcast)",
    "merged": "the operands' merged type",
    "index": "an integer type for indices (s32 unless asked)",
    "transform": "complex (fft, ifft), real (rfft's input, irfft's output), at least 32-bit",
    "decomposed": "each part's own shape, in the input's float type",
}


def _iota(xp, out, axis):
    """0, 1, 2, ... along `axis` of `out`'s shape (None: through every element in order)."""
    if axis is None:
        return xp.reshape(xp.arange(math.prod(out.shape)).astype(out.type.dtype), out.shape)
    shape = [1] * len(out.shape)
    shape[axis] = out.shape[axis]
    return xp.broadcast_to(xp.arange(out.shape[axis]).astype(out.type.dtype).reshape(shape), out.shape)


def _eye(xp, out):
    """Ones on the diagonal of `out`'s last two axes, in `out`'s type."""
    rows, cols = out.shape[-2:]
    return xp.broadcast_to(xp.eye(rows, cols, dtype=out.type.dtype), out.shape)


def _expanded(xp, out, x, axes):
    """`x` reshaped with its axes landing on `axes` of `out`'s rank, then broadcast to `out`."""
    expanded = [1] * len(out.shape)
    for size, axis in zip(x.shape, axes):
        expanded[axis] = size
    return xp.broadcast_to(xp.reshape(x, expanded), out.shape)


def _cumulative_reference(x, kind, axis, reverse):
    ufunc = {"sum": np.add, "product": np.multiply, "min": np.minimum, "max": np.maximum}[kind]
    data = np.flip(x, axis) if reverse else x
    result = ufunc.accumulate(data, axis=axis)
    return np.flip(result, axis) if reverse else result


def _window_reference(x, kind, window, strides, padding, dilations):
    """Each window's reduction, by a loop over the output's positions (no padding in the samples)."""
    reducer = {"sum": np.sum, "product": np.prod, "max": np.max, "min": np.min}[kind]
    spans = [(w - 1) * d + 1 for w, d in zip(window, dilations)]
    shape = [(n - span) // s + 1 for n, span, s in zip(x.shape, spans, strides)]
    result = np.empty(shape, x.dtype)
    for position in np.ndindex(*shape):
        box = tuple(slice(p * s, p * s + span, d) for p, s, span, d in zip(position, strides, spans, dilations))
        result[position] = reducer(x[box])
    return result


def _fft_reference(x, kind, lengths, axes, eps):
    fun = {"fft": np.fft.fftn, "ifft": np.fft.ifftn, "rfft": np.fft.rfftn}[kind]
    return fun(x, s=lengths, axes=axes)


def _begins(x, starts, lengths) -> list[int]:
    """Start indices clamped so that each slice fits (Nx's rule)."""
    return [min(max(int(s), 0), size - length) for s, size, length in zip(starts, x.shape, lengths)]


def _slice_reference(x, *starts, lengths, strides):
    return x[tuple(slice(b, b + n, s) for b, n, s in zip(_begins(x, starts, lengths), lengths, strides))]


def _put_slice_reference(x, update, *starts):
    x = x.copy()
    x[tuple(slice(b, b + n) for b, n in zip(_begins(x, starts, update.shape), update.shape))] = update
    return x


def _top_k_reference(x, k, part):
    index = np.argsort(-x, axis=-1, stable=True)[..., :k]
    return index if part else np.take_along_axis(x, index, axis=-1)


_SAME_SHAPE = "element-wise in shape: vectorizes by a leading axis"
_LINEAR = "linear: its gradient is the transposed op"

STRUCTURED_TABLE = [
    # creation
    Entry(
        "iota",
        "creation",
        (),
        ("axis",),
        "0, 1, 2, ... along `axis` (None: counting through every element in order).",
        "given",
        nx=("iota",),
        public=("iota",),
        notes="no operand: no gradient",
        compute=_iota,
        creates=True,
    ),
    Entry(
        "eye",
        "creation",
        (),
        (),
        "Ones on the diagonal of the last two axes, zeros elsewhere.",
        "given",
        nx=("eye",),
        public=("eye",),
        notes="no operand: no gradient",
        compute=_eye,
        creates=True,
    ),
    Entry(
        "as_type",
        "creation",
        ("tensor",),
        (),
        "Each element converted to `out`'s type (Nx's conversion rules).",
        "given",
        compute=lambda xp, out, x: x,
        nx=("as_type",),
        public=("as_type",),
        notes="the gradient converted back to the operand's type",
    ),
    Entry(
        "broadcast",
        "creation",
        ("tensor",),
        ("axes",),
        "`tensor` broadcast to `out`'s shape, its axes landing on `axes`.",
        "same",
        compute=_expanded,
        nx=("broadcast",),
        public=("broadcast",),
        notes="the gradient summed over the broadcast axes",
    ),
    Entry(
        "bitcast",
        "creation",
        ("tensor",),
        (),
        "The same bits read as `out`'s type (of the same bit width).",
        "given",
        nx=("bitcast",),
        public=("bitcast",),
        notes="the gradient passes through, as in Nx",
    ),
    # elementwise, math: the structured ops beside the element-wise tables
    Entry(
        "select",
        "elementwise",
        ("pred", "on_true", "on_false"),
        (),
        "`on_true` where `pred` is non-zero, else `on_false`.",
        "same",
        reference=lambda pred, on_true, on_false: np.where(pred != 0, on_true, on_false),
        samples=((((3, 4), (3, 4), (3, 4)), {}),),
        nx=("select",),
        public=("select",),
        notes="the gradient flows to the chosen branch only; " + _SAME_SHAPE,
        compute=_op_code.select,
        as_data=("pred",),
    ),
    Entry(
        "clip",
        "elementwise",
        ("tensor", "low", "high"),
        (),
        "Each element clamped to [`low`, `high`].",
        "same",
        reference=lambda x, low, high: np.minimum(np.maximum(x, low), high),
        samples=((((3, 4), (3, 4), (3, 4)), {}),),
        nx=("clip",),
        public=("clip",),
        notes="the gradient is 1 inside the bounds, 0 outside; " + _SAME_SHAPE,
        compute=_op_code.clip,
    ),
    Entry(
        "stop_grad",
        "math",
        ("tensor",),
        (),
        "The tensor itself; gradients do not flow through it.",
        "same",
        nx=("Defn.Kernel.stop_grad",),
        public=("stop_grad",),
        notes="a zero gradient",
        compute=_op_code.stop_grad,
        reference=lambda x: x,
        samples=((((3, 4),), {}),),
    ),
    # reduction: the methods beside `REDUCTIONS`
    Entry(
        "argmax",
        "reduction",
        ("tensor",),
        ("axis", "keep_axis", "tie_break"),
        "The index of the max along `axis` (None: of the flattened tensor); `tie_break` high or low.",
        "index",
        reference=lambda x, axis, keep_axis, tie_break: np.argmax(x, axis=axis, keepdims=keep_axis),
        samples=((((3, 4),), {"axis": 1, "keep_axis": False, "tie_break": "low"}),),
        nx=("argmax",),
        public=("argmax",),
        notes="an integer result: no gradient",
    ),
    Entry(
        "argmin",
        "reduction",
        ("tensor",),
        ("axis", "keep_axis", "tie_break"),
        "The index of the min along `axis`, as `argmax`.",
        "index",
        reference=lambda x, axis, keep_axis, tie_break: np.argmin(x, axis=axis, keepdims=keep_axis),
        samples=((((3, 4),), {"axis": 0, "keep_axis": True, "tie_break": "low"}),),
        nx=("argmin",),
        public=("argmin",),
        notes="an integer result: no gradient",
    ),
    Entry(
        "reduce",
        "reduction",
        ("tensor", "acc"),
        ("fun", "axes", "keep_axes"),
        "Reduces `axes` with `fun(a, b)` (numbat tensors in, a tensor out), from the scalar `acc`.",
        "same",
        nx=("reduce",),
        public=("reduce",),
        notes="no gradient (Nx's reduce has none)",
    ),
    # cumulative
    Entry(
        "cumulative",
        "cumulative",
        ("tensor",),
        ("kind", "axis", "reverse"),
        "A running sum, product, min or max (`kind`) along `axis`.",
        "same",
        reference=_cumulative_reference,
        samples=(
            (((4, 3),), {"kind": "sum", "axis": 0, "reverse": False}),
            (((4, 3),), {"kind": "product", "axis": 1, "reverse": True}),
            (((5,),), {"kind": "max", "axis": 0, "reverse": False}),
            (((2, 5),), {"kind": "min", "axis": 1, "reverse": True}),
        ),
        nx=("cumulative_sum", "cumulative_product", "cumulative_min", "cumulative_max"),
        public=("cumulative_sum", "cumulative_product", "cumulative_min", "cumulative_max"),
        notes="NaN propagates onward in min and max (as XLA); gradients by JAX's cumulative rules",
        kinds=("sum", "product", "min", "max"),
        compute=_op_code.cumulative,
    ),
    # window
    Entry(
        "window",
        "window",
        ("tensor",),
        ("kind", "window", "strides", "padding", "dilations"),
        "Reduces each window (sum, product, max or min): `padding` is a (low, high) pair per axis.",
        "same",
        reference=_window_reference,
        samples=(
            (
                ((4, 5),),
                {"kind": "sum", "window": (2, 2), "strides": (1, 2), "padding": ((0, 0), (0, 0)), "dilations": (1, 1)},
            ),
            (((6,),), {"kind": "max", "window": (2,), "strides": (1,), "padding": ((0, 0),), "dilations": (2,)}),
            (
                ((3, 4),),
                {"kind": "min", "window": (2, 3), "strides": (1, 1), "padding": ((0, 0), (0, 0)), "dilations": (1, 1)},
            ),
            (((5,),), {"kind": "product", "window": (3,), "strides": (2,), "padding": ((0, 0),), "dilations": (1,)}),
        ),
        keeps_nan=True,
        nx=("window_sum", "window_product", "window_max", "window_min"),
        public=("window_sum", "window_product", "window_max", "window_min", "window_mean"),
        notes="max and min keep a NaN (checked on XLA's CPU); their gradient is window_scatter's",
        kinds=("sum", "product", "max", "min"),
    ),
    Entry(
        "window_reduce",
        "window",
        ("tensor", "acc"),
        ("fun", "window", "strides", "padding", "dilations"),
        "Reduces each window with `fun(a, b)` (numbat tensors in, a tensor out), from the scalar `acc`.",
        "same",
        nx=("window_reduce",),
        public=("window_reduce",),
        notes="no gradient (Nx's has none)",
    ),
    Entry(
        "window_scatter",
        "window",
        ("tensor", "source", "init"),
        ("kind", "window", "strides", "padding"),
        "Adds each `source` value at its window's max (`kind` max) or min onto a tensor of `init`.",
        "same",
        nx=("window_scatter_max", "window_scatter_min"),
        public=("window_scatter_max", "window_scatter_min"),
        notes="the gradient of window max and min",
        kinds=("max", "min"),
    ),
    # shape
    Entry(
        "reshape",
        "shape",
        ("tensor",),
        (),
        "The same elements in `out`'s shape.",
        "same",
        compute=lambda xp, out, x: xp.reshape(x, out.shape),
        own_type=True,
        nx=("reshape", "flatten", "squeeze", "new_axis"),
        public=("reshape", "flatten", "squeeze", "new_axis"),
        notes=_LINEAR,
    ),
    Entry(
        "transpose",
        "shape",
        ("tensor",),
        ("axes",),
        "The axes in the order `axes`.",
        "same",
        compute=lambda xp, out, x, axes: xp.transpose(x, axes),
        own_type=True,
        reference=lambda x, axes: np.transpose(x, axes),
        samples=((((2, 3, 4),), {"axes": (2, 0, 1)}),),
        nx=("transpose",),
        public=("transpose",),
        notes=_LINEAR,
    ),
    Entry(
        "pad",
        "shape",
        ("tensor", "value"),
        ("config",),
        "Pads with `value`: `config` holds (low, high, interior) per axis; negative trims.",
        "same",
        reference=lambda x, value, config: np.pad(x, [(low, high) for low, high, _ in config], constant_values=value),
        samples=((((3, 2), ()), {"config": ((1, 2, 0), (0, 1, 0))}),),
        nx=("pad",),
        public=("pad",),
        notes=_LINEAR + " (and the padding value's, summed)",
        compute=_op_code.pad,
    ),
    Entry(
        "concatenate",
        "shape",
        ("*tensors",),
        ("axis",),
        "The tensors joined along `axis`.",
        "merged",
        reference=lambda *tensors, axis: np.concatenate(tensors, axis=axis),
        samples=((((2, 3), (4, 3), (1, 3)), {"axis": 0}),),
        nx=("concatenate",),
        public=("concatenate",),
        notes=_LINEAR,
        compute=_op_code.concatenate,
    ),
    Entry(
        "reverse",
        "shape",
        ("tensor",),
        ("axes",),
        "The elements in reverse order along `axes`.",
        "same",
        compute=lambda xp, out, x, axes: xp.flip(x, axes),
        reference=lambda x, axes: np.flip(x, axes),
        samples=((((3, 4),), {"axes": (1,)}),),
        nx=("reverse",),
        public=("reverse",),
        notes=_LINEAR,
    ),
    # indexing
    Entry(
        "getitem",
        "indexing",
        ("tensor",),
        ("index",),
        "`tensor`'s data indexed by the static `index`, as NumPy indexes.",
        "same",
        compute=lambda xp, out, x, index: x[index],
        own_type=True,
        reference=lambda x, index: x[index],
        samples=((((4, 5),), {"index": (slice(1, 4, 2), 3)}),),
        nx=("slice", "squeeze"),
        notes=_LINEAR + "; `Tensor.__getitem__` runs it",
    ),
    Entry(
        "slice",
        "indexing",
        ("tensor", "*starts"),
        ("lengths", "strides"),
        "`lengths` elements from `starts` (scalar tensors, clamped so the slice fits) with `strides`.",
        "same",
        nx=("slice",),
        public=("slice",),
        notes=_LINEAR,
        compute=_op_code.dynamic_slice,
        as_data=("starts",),
        reference=_slice_reference,
        samples=((((5, 4), np.array(3), np.array(-2)), {"lengths": (3, 2), "strides": (2, 1)}),),
    ),
    Entry(
        "put_slice",
        "indexing",
        ("tensor", "update", "*starts"),
        (),
        "`tensor` with `update` written from `starts` (clamped so it fits).",
        "same",
        nx=("put_slice",),
        public=("put_slice",),
        notes="linear in both tensors",
        compute=_op_code.put_slice,
        as_data=("starts",),
        reference=_put_slice_reference,
        samples=((((4, 5), (2, 3), np.array(3), np.array(1)), {}),),
    ),
    Entry(
        "take",
        "indexing",
        ("tensor", "indices"),
        ("axis",),
        "The slices at `indices` along `axis` (indices clamped into range, as XLA's gather).",
        "same",
        reference=lambda x, indices, axis: np.take(x, indices, axis=axis, mode="clip"),
        samples=((((4, 3), np.array([0, 3, -1, 5, 2])), {"axis": 0}),),
        nx=("take",),
        public=("take",),
        notes=_LINEAR + " (a scatter-add); no gradient for the indices",
        compute=_op_code.take,
        as_data=("indices",),
    ),
    Entry(
        "take_along_axis",
        "indexing",
        ("tensor", "indices"),
        ("axis",),
        "The elements at `indices` (of `tensor`'s rank) along `axis`, indices clamped into range.",
        "same",
        reference=lambda x, indices, axis: np.take_along_axis(x, np.clip(indices, 0, x.shape[axis] - 1), axis=axis),
        samples=((((3, 4), np.array([[0, 3], [1, 9], [2, -2]])), {"axis": 1}),),
        nx=("take_along_axis",),
        public=("take_along_axis",),
        notes=_LINEAR + "; no gradient for the indices",
        compute=_op_code.take_along_axis,
        as_data=("indices",),
    ),
    Entry(
        "gather",
        "indexing",
        ("tensor", "indices"),
        ("axes",),
        "The slices at the index tuples of `indices`' last axis, one index per axis of `axes`, clamped.",
        "same",
        reference=lambda x, indices, axes: x[
            tuple(np.clip(indices[..., i], 0, x.shape[a] - 1) for i, a in enumerate(axes))
        ],
        samples=((((3, 4), np.array([[0, 1], [2, 3], [5, -1]])), {"axes": (0, 1)}),),
        nx=("gather",),
        public=("gather",),
        notes=_LINEAR + "; no gradient for the indices",
        compute=_op_code.gather,
        as_data=("indices",),
    ),
    Entry(
        "indexed",
        "indexing",
        ("tensor", "indices", "updates"),
        ("axes", "mode"),
        'Adds (`mode="add"`) or writes (`"put"`) `updates` at `indices` along `axes`.',
        "same",
        nx=("indexed_add", "indexed_put"),
        public=("indexed_add", "indexed_put"),
        notes="out-of-range updates dropped; linear in the tensor and the updates",
        kinds=("add", "put"),
    ),
    # sort
    Entry(
        "sort",
        "sort",
        ("tensor",),
        ("axis", "descending"),
        "Sorts along `axis`, stably (equal elements keep their order in either direction).",
        "same",
        reference=lambda x, axis, descending: -np.sort(-x, axis=axis) if descending else np.sort(x, axis=axis),
        samples=((((3, 5),), {"axis": 1, "descending": False}), (((6, 2),), {"axis": 0, "descending": True})),
        nx=("sort",),
        public=("sort",),
        notes="the gradient follows the permutation; NaN sorts above everything",
        compute=_op_code.sort,
    ),
    Entry(
        "argsort",
        "sort",
        ("tensor",),
        ("axis", "descending"),
        "The indices that sort along `axis`, stably (as `sort`).",
        "index",
        reference=lambda x, axis, descending: np.argsort(-x if descending else x, axis=axis, stable=True),
        samples=((((3, 5),), {"axis": 1, "descending": True}), (((6, 2),), {"axis": 0, "descending": False})),
        nx=("argsort",),
        public=("argsort",),
        notes="an integer result: no gradient",
        compute=_op_code.argsort,
        own_type=True,
    ),
    Entry(
        "top_k",
        "sort",
        ("tensor",),
        ("k", "part"),
        "The `k` largest along the last axis, as `argsort` descending: values (`part` 0) or indices (1).",
        "same",
        reference=_top_k_reference,
        samples=((((3, 6),), {"k": 2, "part": 0}), (((7,),), {"k": 3, "part": 1})),
        keeps_nan=True,
        nx=("top_k",),
        public=("top_k",),
        notes="values' gradient follows the indices; a NaN is the largest (checked on XLA's CPU)",
    ),
    # products
    Entry(
        "dot",
        "products",
        ("left", "right"),
        (),
        "NumPy's `dot`: sums of products over `left`'s last axis and `right`'s second-to-last (or only).",
        "merged",
        compute=lambda xp, out, a, b: xp.dot(a, b),
        reference=np.dot,
        samples=((((3, 4), (4, 2)), {}), (((4,), (4,)), {}), (((2, 3, 4), (4, 5)), {})),
        nx=("dot",),
        public=("dot",),
        notes="bilinear: each operand's gradient is a dot with the other's",
    ),
    Entry(
        "dot_general",
        "products",
        ("left", "right"),
        ("contract", "batch"),
        "Contracts `contract` = (left axes, right axes) with batch axes `batch` = (left, right).",
        "merged",
        reference=lambda a, b, contract, batch: (
            np.einsum("bij,bjk->bik", a, b) if batch[0] else np.tensordot(a, b, contract)
        ),
        samples=(
            (((3, 4, 2), (2, 4, 5)), {"contract": ((1, 2), (1, 0)), "batch": ((), ())}),
            (((2, 3, 4), (2, 4, 5)), {"contract": ((2,), (1,)), "batch": ((0,), (0,))}),
        ),
        nx=("dot",),
        notes="bilinear, as `dot`; `nbt.dot` with contraction or batch axes runs it",
        compute=_op_code.dot_general,
    ),
    Entry(
        "conv",
        "products",
        ("tensor", "kernel"),
        ("strides", "padding", "input_dilation", "kernel_dilation", "feature_groups", "batch_groups"),
        "Nx.conv: a convolution of `tensor` with `kernel`, channels first.",
        "merged",
        nx=("conv",),
        public=("conv",),
        notes="bilinear; JAX's conv_general_dilated (on the host CPU for NumPy)",
    ),
    # linalg
    Entry(
        "decompose",
        "linalg",
        ("tensor",),
        ("kind", "part", "options"),
        "Result `part` of `kind` (cholesky, qr, svd, eigh, lu, invert, determinant, ...); `options`: (name, value) pairs.",
        "decomposed",
        nx=(
            "LinAlg.cholesky",
            "LinAlg.qr",
            "LinAlg.svd",
            "LinAlg.eigh",
            "LinAlg.lu",
            "LinAlg.invert",
            "LinAlg.determinant",
        ),
        notes="Nx's own algorithms (`_families/linalg.py`), each part with its gradient; `nbt.linalg` runs it",
        kinds=("cholesky", "qr", "svd", "eigh", "lu", "invert", "determinant", "pinv", "matrix_rank", "norm"),
        reference=lambda x, kind, part, options: np.linalg.det(x),
        samples=((((2, 3, 3),), {"kind": "determinant", "part": 0, "options": ()}),),
    ),
    Entry(
        "solve",
        "linalg",
        ("a", "b"),
        ("kind", "options"),
        "Solves `a x = b` (`kind`: solve or triangular_solve).",
        "merged",
        nx=("LinAlg.solve", "LinAlg.triangular_solve"),
        notes="`nbt.linalg` runs it",
        kinds=("solve", "triangular_solve"),
        reference=lambda a, b, kind, options: np.linalg.solve(a, b),
        samples=((((3, 3), (3, 2)), {"kind": "solve", "options": ()}),),
    ),
    # fft
    Entry(
        "fft",
        "fft",
        ("tensor",),
        ("kind", "lengths", "axes", "eps"),
        "Transform `kind` (fft, ifft, rfft, irfft) over `axes`, `lengths` points each; parts with |x| <= `eps` become 0.",
        "transform",
        reference=_fft_reference,
        samples=(
            (((3, 8),), {"kind": "fft", "lengths": (8,), "axes": (1,), "eps": 0.0}),
            (((4, 6),), {"kind": "ifft", "lengths": (4, 5), "axes": (0, 1), "eps": 0.0}),
            (((6,),), {"kind": "rfft", "lengths": (6,), "axes": (0,), "eps": 0.0}),
        ),
        nx=("fft", "ifft", "rfft", "irfft", "fft2", "ifft2"),
        public=("fft", "ifft", "rfft", "irfft", "fft2", "ifft2"),
        notes="linear: the gradient is the adjoint transform; the clean-up below `eps` changes no gradient",
        kinds=("fft", "ifft", "rfft", "irfft"),
        compute=_op_code.fft,
        own_type=True,
    ),
]

STRUCTURED: dict[str, Entry] = {entry.name: entry for entry in STRUCTURED_TABLE}

# The ops whose float answer keeps a NaN where XLA's CPU max and min can lose one: every entry
# with `keeps_nan` (the names are the backend methods', as the XLA profiler's kernels read them).
NAN_CHECKED = frozenset(
    entry.name for entry in [*REDUCTION_TABLE, *STRUCTURED_TABLE] if getattr(entry, "keeps_nan", False)
)

# Every op of every family, by name: the element-wise ops, the reductions and the other families'.
ENTRIES: dict[str, Op | Reduction | Entry] = {**OPS, **REDUCTIONS, **STRUCTURED}
