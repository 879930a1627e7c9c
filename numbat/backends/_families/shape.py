"""Shape ops. `Array` implements the family's methods of the backend contract
(`backends/_contract.py`): every one (reshape, transpose, pad, concatenate, reverse) is filled
in from its op table entry's `compute` (`_core/_op_table.STRUCTURED`) by `_base.fill`.

The family's rule: an op gives the same elements in another shape or order (reshape,
transpose, pad, concatenate, reverse).
"""

from __future__ import annotations

from . import _base
from ._base import ArrayBase


class Array(ArrayBase):
    pass


FILLED = _base.fill(Array, "shape")  # every method: its entry's compute
