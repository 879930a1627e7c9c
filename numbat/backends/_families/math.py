"""Functions of one tensor, element by element: negate, abs, sign, rounding, exp and log,
the trigonometric and hyperbolic functions, sqrt, cbrt, erf and its kin, is_nan,
is_infinity, and stop_grad (the identity for values). `Array` implements the family's
methods of the backend contract (`backends/_contract.py`) over `self.xp`.

The family's rule: an op takes one tensor and computes each element from that element
alone (the bitwise functions of one tensor are `bitwise`, the complex parts `complex`).
The ops are the `UNARY` (computed in the output's type) and `UNARY_OWN_TYPE` (in the
input's) tables, filled in by `_tables.fill`, plus `stop_grad`.
"""

from __future__ import annotations

import typing

import jax
import jax.scipy.special as jsp
import numpy as np

from . import _tables
from ._base import ArrayBase
from ._tables import as_zero, complex_as_xla, host, lax_unary


def _round(xp, x):
    """Rounds half away from zero (Nx), not half to even (NumPy)."""
    if x.dtype.kind in "iu":
        return x
    whole = xp.trunc(x)
    return whole + xp.where(xp.abs(x - whole) >= 0.5, xp.sign(x), 0).astype(x.dtype)


def _sign(xp, x):
    if x.dtype.kind == "c":
        magnitude = xp.abs(x)
        return xp.where(magnitude == 0, 0, x / xp.where(magnitude == 0, 1, magnitude)).astype(x.dtype)
    return xp.sign(x)


def _cbrt(xp, x):
    """The cube root (of subnormals read as zero: `_subnormals_as_zero` in the table); of a complex number the
    principal root `z ** (1/3)` (Nx's Complex.cbrt), from the polar form so that an
    infinite modulus at angle 0 keeps its imaginary part 0 (cbrt(Inf+3i) is Inf+0i)."""
    if x.dtype.kind == "c":
        modulus, angle = xp.cbrt(xp.abs(x)), xp.angle(x) / 3
        cos, sin = xp.cos(angle), xp.sin(angle)
        return (modulus * cos + 1j * xp.where(sin == 0, sin, modulus * sin)).astype(x.dtype)
    return xp.cbrt(x)


def _narrow(fun, wide_on_numpy: bool):
    """`fun` computed in a wider float and rounded back: the 8-bit floats in f32 on every
    backend (they have no infinities to overflow into, and XLA lowers few functions for
    them); with `wide_on_numpy`, every float narrower than f64 in f64 on the NumPy backend,
    since NumPy's SIMD loops for f32 (AVX-512's SVML) miss by an ulp where XLA and Nx are
    exact (log10(100) gave 2.0000002 and cbrt(-27) -2.9999998 on an AVX-512 machine)."""

    def wrapped(xp, x):
        if x.dtype.kind in "iubc" or x.dtype == np.float64:
            return fun(xp, x)
        if wide_on_numpy and xp is np:
            return fun(xp, x.astype(np.float64)).astype(x.dtype)
        if x.dtype.itemsize == 1:
            return fun(xp, x.astype(np.float32)).astype(x.dtype)
        return fun(xp, x)

    return wrapped


def _subnormals_as_zero(fun):
    """`fun` of `x` with its subnormal elements read as zero (`_tables.as_zero`), in `x`'s own type."""
    return lambda xp, x: fun(xp, as_zero(xp, x))


UNARY: dict[str, typing.Callable] = {
    "negate": lax_unary("negative", jax.lax.neg),
    "sign": _sign,
    "floor": lambda xp, x: x if x.dtype.kind in "iu" else xp.floor(x),
    "ceil": lambda xp, x: x if x.dtype.kind in "iu" else xp.ceil(x),
    "round": _round,
    "exp": lax_unary("exp", jax.lax.exp),
    "expm1": lax_unary("expm1", jax.lax.expm1),
    "log": lax_unary("log", jax.lax.log),
    "log1p": lax_unary("log1p", jax.lax.log1p),
    "log2": lambda xp, x: xp.log2(x),
    "log10": lambda xp, x: xp.log10(x),
    "sigmoid": lambda xp, x: 1 / (1 + xp.exp(-x)),
    "sqrt": lax_unary("sqrt", jax.lax.sqrt),
    "rsqrt": lambda xp, x: 1 / xp.sqrt(x),
    "cbrt": _cbrt,
    "sin": lax_unary("sin", jax.lax.sin),
    "cos": lax_unary("cos", jax.lax.cos),
    "tan": lax_unary("tan", jax.lax.tan),
    "asin": lambda xp, x: xp.arcsin(x),
    "acos": lambda xp, x: xp.arccos(x),
    "atan": lambda xp, x: xp.arctan(x),
    "sinh": lambda xp, x: xp.sinh(x),
    "cosh": lambda xp, x: xp.cosh(x),
    "tanh": lax_unary("tanh", jax.lax.tanh),
    "asinh": lambda xp, x: xp.arcsinh(x),
    "acosh": lambda xp, x: xp.arccosh(x),
    "atanh": lambda xp, x: xp.arctanh(x),
    "erf": host(jsp.erf),
    "erfc": host(jsp.erfc),
    "erf_inv": host(jsp.erfinv),
}

# Unary ops whose input keeps its own type (the output type differs: u8 predicates, real magnitudes).
UNARY_OWN_TYPE: dict[str, typing.Callable] = {
    "abs": complex_as_xla(lambda xp, x: xp.abs(x)),
    "is_nan": lambda xp, x: xp.zeros(x.shape, bool) if x.dtype.kind in "iu" else xp.isnan(x),
    "is_infinity": lambda xp, x: xp.zeros(x.shape, bool) if x.dtype.kind in "iu" else xp.isinf(x),
}

# Functions computed in f32 for the 8-bit float types (the transcendental ones).
NARROW = [
    "exp",
    "expm1",
    "log",
    "log1p",
    "log2",
    "log10",
    "sigmoid",
    "sqrt",
    "rsqrt",
    "cbrt",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "erf",
    "erfc",
    "erf_inv",
]
# Those of them computed in f64 on the NumPy backend: NumPy's own functions whose f32 result
# cannot overflow or underflow where the f64 one does not (exp, sinh, cosh and sigmoid can:
# sigmoid(-100) is 0 in f32 and XLA, a subnormal from f64); erf and its kin run on JAX.
WIDE_ON_NUMPY = ["log", "log1p", "log2", "log10", "sqrt", "rsqrt", "cbrt", "sin", "cos", "tan"]
WIDE_ON_NUMPY += ["asin", "acos", "atan", "tanh", "asinh", "acosh", "atanh"]
for _name in NARROW:
    UNARY[_name] = _narrow(UNARY[_name], wide_on_numpy=_name in WIDE_ON_NUMPY)

# Functions of complex data whose Inf/NaN answers differ between C99 (NumPy) and XLA.
COMPLEX_AS_XLA = [name for name in NARROW if name not in ("erf", "erfc", "erf_inv")]
for _name in COMPLEX_AS_XLA:
    UNARY[_name] = complex_as_xla(UNARY[_name])
UNARY["cbrt"] = _subnormals_as_zero(UNARY["cbrt"])


class Array(ArrayBase):
    def stop_grad(self, out, tensor):
        data = self._as(tensor, out)
        return self._wrap(out, data if isinstance(data, np.ndarray) else jax.lax.stop_gradient(data))


_tables.fill(Array, unary=UNARY, own_type=UNARY_OWN_TYPE)
