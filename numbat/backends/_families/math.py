"""Functions of one tensor, element by element: negate, abs, sign, rounding, exp and log,
the trigonometric and hyperbolic functions, sqrt, cbrt, erf and its kin, is_nan,
is_infinity, and stop_grad (the identity for values). `Array` implements the family's
methods of the backend contract (`backends/_contract.py`) over `self.xp`.

The family's rule: an op takes one tensor and computes each element from that element
alone (the bitwise functions of one tensor are `bitwise`, the complex parts `complex`).
The ops are the op table's (`_core/_op_table.py`, with their flags: narrow, wide on NumPy,
complex as XLA, subnormals as zero), computed by their entries' `compute` and filled in by
`_tables.build` and `_tables.fill`, and `stop_grad`, the op table's other entry of the family
(`_core/_op_table.STRUCTURED`), filled in from its `compute` by `_base.fill`.
"""

from __future__ import annotations

from . import _base, _tables
from ._base import ArrayBase


class Array(ArrayBase):
    pass


TABLES = _tables.build("math")
_tables.fill(Array, **TABLES)
FILLED = _base.fill(Array, "math")  # stop_grad: its entry's compute
