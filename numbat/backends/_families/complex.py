"""Complex numbers: complex (from real and imaginary parts), real, imag, conjugate and
phase. `Array` implements the family's methods of the backend contract
(`backends/_contract.py`) over `self.xp`.

The family's rule, by value domain: an op builds a complex number or takes one apart. All
are the op table's (`_core/_op_table.py`), computed by their entries' `compute` or, where an entry has none, `CODE`, and filled in by
`_tables.build` and `_tables.fill` (`phase` computes XLA's answers for complex Inf and NaN
on NumPy too: its table entry's `complex_as_xla`).
"""

from __future__ import annotations

import typing

import jax
import jax.numpy as jnp
import numpy as np

from . import _tables
from ._base import ArrayBase


def _complex(xp, real, imag):
    """`real + i imag` in the complex type (c128 for f64, else c64); 8-bit floats have no
    implicit promotion in JAX, so both parts are widened first."""
    wide = np.float64 if real.dtype == np.float64 else np.float32
    real, imag = real.astype(wide), imag.astype(wide)
    if xp is np:  # parts set, not summed: real + 1j * imag turns an infinite part into NaN (1j * Inf)
        real, imag = np.broadcast_arrays(real, imag)
        out = np.empty(real.shape, np.complex128 if wide is np.float64 else np.complex64)
        out.real, out.imag = real, imag
        return out
    return jax.lax.complex(*jnp.broadcast_arrays(real, imag))


def _phase(xp, x):
    """The angle, computed in the output's float type (NumPy alone takes int8 as f16)."""
    if x.dtype.kind != "c":
        x = x.astype(np.float64 if x.dtype == np.float64 else np.float32)
    return xp.angle(x)


# The ops' code (the op table, `_core/_op_table.py`, lists them and their kinds).
CODE: dict[str, typing.Callable] = {
    "phase": _phase,
    "complex": _complex,
}


class Array(ArrayBase):
    pass


_tables.fill(Array, **_tables.build("complex", CODE))
