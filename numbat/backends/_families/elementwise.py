"""Element-wise ops over two or more broadcast tensors: arithmetic, comparisons, atan2,
min/max, quotient/remainder, select and clip. `Array` implements the family's methods of the
backend contract (`backends/_contract.py`) over `self.xp`.

The family's rule: an op combines two or more tensors of one broadcast shape element by
element (functions of one tensor are `math`; the bitwise and logical ops are `bitwise`,
building complex numbers is `complex`). Its binary ops are the op table's
(`_core/_op_table.py`), computed by their entries' `compute` and filled in by `_tables.build`
and `_tables.fill`; `select` and `clip` are written here.
"""

from __future__ import annotations

import jax
import numpy as np

from . import _tables
from ._base import ArrayBase

TABLES = _tables.build("elementwise")


class Array(ArrayBase):
    def select(self, out, pred, on_true, on_false):
        xp = self.xp
        return self._wrap(out, xp.where(xp.asarray(pred.data) != 0, self._as(on_true, out), self._as(on_false, out)))

    def clip(self, out, tensor, low, high):
        xp = self.xp
        data, low, high = self._as(tensor, out), self._as(low, out), self._as(high, out)
        if xp is np or not out.type.is_float:
            return self._wrap(out, xp.minimum(xp.maximum(data, low), high))
        return self._wrap(out, _clip(data, low, high))


@jax.custom_jvp
def _clip(data, low, high):
    """`min(max(data, low), high)` with Nx's gradient: an element at a limit passes its
    gradient to the operand; a limit receives it only where the operand exceeds it."""
    return jax.numpy.minimum(jax.numpy.maximum(data, low), high)


def _masked(mask, tangent, ans):
    return jax.numpy.broadcast_to(jax.numpy.where(mask, tangent, 0).astype(ans.dtype), ans.shape)


_clip.defjvps(
    lambda tangent, ans, data, low, high: _masked((data >= low) & (data <= high), tangent, ans),
    lambda tangent, ans, data, low, high: _masked((low > data) & (low < high), tangent, ans),
    lambda tangent, ans, data, low, high: _masked(high < data, tangent, ans),
)

_tables.fill(Array, **TABLES)
