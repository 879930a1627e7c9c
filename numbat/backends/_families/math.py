"""Functions of one tensor, element by element: negate, abs, sign, rounding, exp and log,
the trigonometric and hyperbolic functions, sqrt, cbrt, erf and its kin, is_nan,
is_infinity, and stop_grad (the identity for values). `Array` implements the family's
methods of the backend contract (`backends/_contract.py`) over `self.xp`.

The family's rule: an op takes one tensor and computes each element from that element
alone (the bitwise functions of one tensor are `bitwise`, the complex parts `complex`).
The ops are the op table's (`_core/_op_table.py`, with their flags: narrow, wide on NumPy,
complex as XLA, subnormals as zero), computed by their entries' `compute` and filled in by
`_tables.build` and `_tables.fill`, plus `stop_grad`, written here.
"""

from __future__ import annotations

import jax
import numpy as np

from . import _tables
from ._base import ArrayBase


class Array(ArrayBase):
    def stop_grad(self, out, tensor):
        data = self._as(tensor, out)
        return self._wrap(out, data if isinstance(data, np.ndarray) else jax.lax.stop_gradient(data))


TABLES = _tables.build("math")
_tables.fill(Array, **TABLES)
