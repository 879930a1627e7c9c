"""Functions of one tensor, element by element: negate, abs, sign, rounding, exp and log,
the trigonometric and hyperbolic functions, sqrt, cbrt, erf and its kin, is_nan,
is_infinity, and stop_grad (the identity for values). `Array` implements the family's
methods of the backend contract (`backends/_contract.py`) over `self.xp`.

The family's rule: an op takes one tensor and computes each element from that element
alone (the bitwise functions of one tensor are `bitwise`, the complex parts `complex`).
The ops are the op table's (`_core/_op_table.py`, with their flags: narrow, wide on NumPy,
complex as XLA), computed by their entries' `compute` or, where an entry has none, `CODE`, and filled in by `_tables.build` and `_tables.fill`,
plus `stop_grad`.
"""

from __future__ import annotations

import typing

import jax
import jax.scipy.special as jsp
import numpy as np

from . import _tables
from ._base import ArrayBase
from ._tables import as_zero, host, lax_unary


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
    """The cube root (subnormals read as zero: `TABLES` wraps it in `_subnormals_as_zero` below); of a complex number the
    principal root `z ** (1/3)` (Nx's Complex.cbrt), from the polar form so that an
    infinite modulus at angle 0 keeps its imaginary part 0 (cbrt(Inf+3i) is Inf+0i)."""
    if x.dtype.kind == "c":
        modulus, angle = xp.cbrt(xp.abs(x)), xp.angle(x) / 3
        cos, sin = xp.cos(angle), xp.sin(angle)
        return (modulus * cos + 1j * xp.where(sin == 0, sin, modulus * sin)).astype(x.dtype)
    return xp.cbrt(x)


def _subnormals_as_zero(fun):
    """`fun` of `x` with its subnormal elements read as zero (`_tables.as_zero`), in `x`'s own type."""
    return lambda xp, x: fun(xp, as_zero(xp, x))


# The ops' code (the op table, `_core/_op_table.py`, lists them and their flags).
CODE: dict[str, typing.Callable] = {
    "negate": lax_unary("negative", jax.lax.neg),
    "sign": _sign,
    "round": _round,
    "exp": lax_unary("exp", jax.lax.exp),
    "expm1": lax_unary("expm1", jax.lax.expm1),
    "log": lax_unary("log", jax.lax.log),
    "log1p": lax_unary("log1p", jax.lax.log1p),
    "sqrt": lax_unary("sqrt", jax.lax.sqrt),
    "cbrt": _cbrt,
    "sin": lax_unary("sin", jax.lax.sin),
    "cos": lax_unary("cos", jax.lax.cos),
    "tan": lax_unary("tan", jax.lax.tan),
    "tanh": lax_unary("tanh", jax.lax.tanh),
    "erf": host(jsp.erf),
    "erfc": host(jsp.erfc),
    "erf_inv": host(jsp.erfinv),
}
TABLES = _tables.build("math", CODE)
TABLES["unary"]["cbrt"] = _subnormals_as_zero(TABLES["unary"]["cbrt"])


class Array(ArrayBase):
    def stop_grad(self, out, tensor):
        data = self._as(tensor, out)
        return self._wrap(out, data if isinstance(data, np.ndarray) else jax.lax.stop_gradient(data))


_tables.fill(Array, **TABLES)
