"""The op table: one entry per element-wise op (the families `elementwise`, `math`,
`bitwise` and `complex`), the single source of the facts about it (docs/design.md, decision 18).

An entry gives the op's name and family; how the backend converts its operands (`kind`:
`unary`, the operand in the output's type; `own_type`, in its own; `binary`, both in the
output's; `merged`, both in their merged type, whatever the output's: the comparisons, the
logical ops, `complex`); its result-type rule (`result`: `same`; `same_integer`, the operands'
own type, integers only; `floating`, `real`, `u8`, `parts` or `complex`, the rules of the
front-end's `_apply.unary`/`binary` calls); whether Nx refuses complex operands (`real_only`); the
float-precision flags, each on its own (`narrow`: computed in f32 for the 8-bit floats;
`wide_on_numpy`: every float narrower than f64 computed in f64 on the NumPy backend; `complex_as_xla`: complex data on NumPy computed by jax.numpy
on the host, for XLA's special values); the float64 NumPy function the differential test
checks it against (`reference`); the Nx function it mirrors (`nx`); its computation
(`compute`, a function of `(xp, *operands)` written once for NumPy and jax.numpy alike; None
for an op whose family module writes its code, `backends/_families/<family>.CODE`: jax.lax's
primitives on XLA, JAX's host functions on NumPy, algorithms of their own);
whether it is public (`public`: `floor_divide` and `mod`, which Nx lacks, serve the
operators `//` and `%` only); and the real interval its operands are drawn from
(`domain`, `(low, high)`, the whole line unless given): `tests/test_differential.py` checks
the op against its `reference` at random points of that interval and next to its finite
ends, besides the edge-value grid.

What reads it: the backend families build their method tables from it
(`backends/_families/_tables.build`), `_ops/primitive/_apply.REAL_ONLY` and
`tests/test_differential.py`'s references are made from it, the backend contract declares
an entry it does not list by name, `numbat/__init__.py` exports every public entry (its
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
    cbrt,
    complex_from_parts,
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
    Op("add", "elementwise", "binary", "same", reference=np.add, compute=lax_binary("add", jax.lax.add), nx="add"),
    Op(
        "subtract",
        "elementwise",
        "binary",
        "same",
        reference=np.subtract,
        compute=lax_binary("subtract", jax.lax.sub),
        nx="subtract",
    ),
    Op(
        "multiply",
        "elementwise",
        "binary",
        "same",
        reference=np.multiply,
        compute=lax_binary("multiply", jax.lax.mul),
        nx="multiply",
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
    ),
    Op("quotient", "elementwise", "binary", "same_integer", real_only=True, compute=quotient, nx="quotient"),
    Op(
        "remainder",
        "elementwise",
        "binary",
        "same",
        real_only=True,
        reference=np.fmod,
        compute=lambda xp, a, b: xp.fmod(a, xp.where(b == 0, 1, b)) if a.dtype.kind in "iu" else xp.fmod(a, b),
        nx="remainder",
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
    ),
    Op(
        "mod",
        "elementwise",
        "binary",
        "same",
        real_only=True,
        compute=lambda xp, a, b: xp.mod(a, xp.where(b == 0, 1, b)) if a.dtype.kind in "iu" else xp.mod(a, b),
        public=False,
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
    ),
    Op("equal", "elementwise", "merged", "u8", compute=lax_binary("equal", jax.lax.eq), nx="equal"),
    Op("not_equal", "elementwise", "merged", "u8", compute=lax_binary("not_equal", jax.lax.ne), nx="not_equal"),
    Op(
        "less",
        "elementwise",
        "merged",
        "u8",
        real_only=True,
        compute=lax_binary("less", jax.lax.lt, kinds="biuf"),
        nx="less",
    ),
    Op(
        "less_equal",
        "elementwise",
        "merged",
        "u8",
        real_only=True,
        compute=lax_binary("less_equal", jax.lax.le, kinds="biuf"),
        nx="less_equal",
    ),
    Op(
        "greater",
        "elementwise",
        "merged",
        "u8",
        real_only=True,
        compute=lax_binary("greater", jax.lax.gt, kinds="biuf"),
        nx="greater",
    ),
    Op(
        "greater_equal",
        "elementwise",
        "merged",
        "u8",
        real_only=True,
        compute=lax_binary("greater_equal", jax.lax.ge, kinds="biuf"),
        nx="greater_equal",
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
    ),
    Op("sign", "math", "unary", "same", reference=np.sign, compute=sign, nx="sign"),
    Op(
        "floor",
        "math",
        "unary",
        "same",
        real_only=True,
        reference=np.floor,
        compute=lambda xp, x: x if x.dtype.kind in "iu" else xp.floor(x),
        nx="floor",
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
        compute=lambda xp, x: xp.arcsin(x),
        nx="asin",
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
    ),
    Op(
        "sinh",
        "math",
        "unary",
        "floating",
        narrow=True,
        complex_as_xla=True,
        reference=np.sinh,
        compute=lambda xp, x: xp.sinh(x),
        nx="sinh",
    ),
    Op(
        "cosh",
        "math",
        "unary",
        "floating",
        narrow=True,
        complex_as_xla=True,
        reference=np.cosh,
        compute=lambda xp, x: xp.cosh(x),
        nx="cosh",
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
        compute=lambda xp, x: xp.arctanh(x),
        nx="atanh",
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
    ),
    Op(
        "is_nan",
        "math",
        "own_type",
        "u8",
        reference=np.isnan,
        compute=lambda xp, x: xp.zeros(x.shape, bool) if x.dtype.kind in "iu" else xp.isnan(x),
        nx="is_nan",
    ),
    Op(
        "is_infinity",
        "math",
        "own_type",
        "u8",
        reference=np.isinf,
        compute=lambda xp, x: xp.zeros(x.shape, bool) if x.dtype.kind in "iu" else xp.isinf(x),
        nx="is_infinity",
    ),
    # bitwise
    Op("bitwise_not", "bitwise", "unary", "same_integer", compute=lambda xp, x: xp.bitwise_not(x), nx="bitwise_not"),
    Op("population_count", "bitwise", "unary", "same_integer", compute=population_count, nx="population_count"),
    Op(
        "count_leading_zeros", "bitwise", "unary", "same_integer", compute=count_leading_zeros, nx="count_leading_zeros"
    ),
    Op("logical_not", "bitwise", "own_type", "u8", compute=lambda xp, x: x == 0, nx="logical_not"),
    Op(
        "bitwise_and",
        "bitwise",
        "binary",
        "same_integer",
        compute=lambda xp, a, b: xp.bitwise_and(a, b),
        nx="bitwise_and",
    ),
    Op(
        "bitwise_or", "bitwise", "binary", "same_integer", compute=lambda xp, a, b: xp.bitwise_or(a, b), nx="bitwise_or"
    ),
    Op(
        "bitwise_xor",
        "bitwise",
        "binary",
        "same_integer",
        compute=lambda xp, a, b: xp.bitwise_xor(a, b),
        nx="bitwise_xor",
    ),
    Op(
        "left_shift", "bitwise", "binary", "same_integer", compute=lambda xp, a, b: xp.left_shift(a, b), nx="left_shift"
    ),
    Op(
        "right_shift",
        "bitwise",
        "binary",
        "same_integer",
        compute=lambda xp, a, b: xp.right_shift(a, b),
        nx="right_shift",
    ),
    Op("logical_and", "bitwise", "merged", "u8", compute=lambda xp, a, b: (a != 0) & (b != 0), nx="logical_and"),
    Op("logical_or", "bitwise", "merged", "u8", compute=lambda xp, a, b: (a != 0) | (b != 0), nx="logical_or"),
    Op("logical_xor", "bitwise", "merged", "u8", compute=lambda xp, a, b: (a != 0) ^ (b != 0), nx="logical_xor"),
    # complex
    Op("conjugate", "complex", "unary", "complex", compute=lambda xp, x: xp.conjugate(x), nx="conjugate"),
    Op("real", "complex", "own_type", "parts", compute=lambda xp, x: xp.real(x), nx="real"),
    Op(
        "imag",
        "complex",
        "own_type",
        "parts",
        compute=lambda xp, x: xp.imag(x) if x.dtype.kind == "c" else xp.zeros_like(x),
        nx="imag",
    ),
    Op("phase", "complex", "own_type", "parts", complex_as_xla=True, compute=phase, nx="phase"),
    Op("complex", "complex", "merged", "complex", real_only=True, compute=complex_from_parts, nx="complex"),
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
