"""Ops on the bits of integers and on truth values: bitwise and/or/xor/not, the shifts,
population_count, count_leading_zeros, and the logical ops. `Array` implements the family's
methods of the backend contract (`backends/_contract.py`) over `self.xp`.

The family's rule, by value domain: an op reads its operands as bits or as truth values
(non-zero is true), whatever their number of operands. All are the op table's
(`_core/_op_table.py`), computed by their entries' `compute` and filled in by `_tables.build` and `_tables.fill`.
"""

from __future__ import annotations

from . import _tables
from ._base import ArrayBase


class Array(ArrayBase):
    pass


_tables.fill(Array, **_tables.build("bitwise"))
