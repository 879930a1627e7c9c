"""Shape ops. `Array` implements the family's methods of the backend contract
(`backends/_contract.py`) over `self.xp`: reshape, transpose and reverse from their op table
entries' `compute` (`_core/_op_table.STRUCTURED`, filled in by `_base.fill`), pad and
concatenate written here.

The family's rule: an op gives the same elements in another shape or order (reshape,
transpose, pad, concatenate, reverse).
"""

from __future__ import annotations

import jax
import numpy as np

from . import _base
from ._base import ArrayBase

GROUP = 16  # operands an XLA concatenate joins at once (as jax.numpy's concatenate does)


class Array(ArrayBase):
    def pad(self, out, tensor, value, config):
        xp, data = self.xp, self._as(tensor, out)
        fill = self._as(value, out)
        if xp is not np:
            return self._wrap(out, jax.lax.pad(data, fill, config))
        for axis, (low, high, interior) in enumerate(config):
            if interior:
                size = data.shape[axis]
                shape = list(data.shape)
                shape[axis] = size + (size - 1) * interior if size else 0
                spread = np.full(shape, fill, dtype=data.dtype)
                index = [slice(None)] * data.ndim
                index[axis] = slice(None, None, interior + 1)
                spread[tuple(index)] = data
                data = spread
            widths = [(0, 0)] * data.ndim
            widths[axis] = (max(low, 0), max(high, 0))
            data = np.pad(data, widths, constant_values=fill)
            index = [slice(None)] * data.ndim
            index[axis] = slice(-min(low, 0), data.shape[axis] + min(high, 0))
            data = data[tuple(index)]
        return self._wrap(out, data)

    def concatenate(self, out, *tensors, axis):
        datas = [self._as(t, out) for t in tensors]
        if self.xp is np:
            return self._wrap(out, np.concatenate(datas, axis=axis))
        # Joined GROUP at a time, in a tree: an XLA concatenate of n operands (and, eagerly, a
        # program of n parameters) takes time and memory that grow faster than n. Each level
        # copies the data once, so memory stays within twice the result.
        while len(datas) > GROUP:
            datas = [jax.lax.concatenate(datas[i : i + GROUP], axis) for i in range(0, len(datas), GROUP)]
        return self._wrap(out, jax.lax.concatenate(datas, axis) if len(datas) > 1 else datas[0])


FILLED = _base.fill(Array, "shape")  # reshape, transpose, reverse: their entries' compute
