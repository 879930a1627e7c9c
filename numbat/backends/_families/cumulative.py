"""Cumulative ops: running sums, products, minima and maxima along an axis. `Array`
implements the family's methods of the backend contract (`backends/_contract.py`): its one
method, `cumulative`, is filled in from its op table entry's `compute`
(`_core/_op_table.STRUCTURED`, `_core/_op_code.cumulative`) by `_base.fill`.

The family's rule: an op's element `i` along the axis combines the elements up to `i`
(from the end with `reverse`); the output has the input's shape.
"""

from __future__ import annotations

from . import _base
from ._base import ArrayBase


class Array(ArrayBase):
    pass


FILLED = _base.fill(Array, "cumulative")  # cumulative: its entry's compute
