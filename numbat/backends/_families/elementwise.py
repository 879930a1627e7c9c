"""Element-wise ops over two or more broadcast tensors: arithmetic, comparisons, atan2,
min/max, quotient/remainder, select and clip. `Array` implements the family's methods of the
backend contract (`backends/_contract.py`) over `self.xp`.

The family's rule: an op combines two or more tensors of one broadcast shape element by
element (functions of one tensor are `math`; the bitwise and logical ops are `bitwise`,
building complex numbers is `complex`). Its binary ops are the op table's
(`_core/_op_table.py`), computed by their entries' `compute` and filled in by `_tables.build`
and `_tables.fill`; `select` and `clip` are the op table's other entries of the family
(`_core/_op_table.STRUCTURED`), filled in from their `compute` by `_base.fill`.
"""

from __future__ import annotations

from . import _base, _tables
from ._base import ArrayBase

TABLES = _tables.build("elementwise")


class Array(ArrayBase):
    pass


_tables.fill(Array, **TABLES)
FILLED = _base.fill(Array, "elementwise")  # select, clip: their entries' compute
