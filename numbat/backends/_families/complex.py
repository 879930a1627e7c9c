"""Complex numbers: complex (from real and imaginary parts), real, imag, conjugate and
phase. `Array` implements the family's methods of the backend contract
(`backends/_contract.py`) over `self.xp`.

The family's rule, by value domain: an op builds a complex number or takes one apart. All
are the op table's (`_core/_op_table.py`), computed by their entries' `compute` and filled in by
`_tables.build` and `_tables.fill` (`phase` computes XLA's answers for complex Inf and NaN
on NumPy too: its table entry's `complex_as_xla`).
"""

from __future__ import annotations

from . import _tables
from ._base import ArrayBase


class Array(ArrayBase):
    pass


_tables.fill(Array, **_tables.build("complex"))
