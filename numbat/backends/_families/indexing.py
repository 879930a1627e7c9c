"""Indexing and slicing. `Array` implements the family's methods of the backend contract
(`backends/_contract.py`) over `self.xp`: getitem, slice, put_slice, take, take_along_axis and
gather from their op table entries' `compute` (`_core/_op_table.STRUCTURED`, filled in by
`_base.fill`), `indexed` (scatter, with its dropped out-of-range updates) written here.

The family's rule: an op chooses or updates elements by their index (slices, take,
gather, indexed updates).
"""

from __future__ import annotations

import numpy as np

from . import _base
from ._base import ArrayBase


class Array(ArrayBase):
    def indexed(self, out, tensor, indices, updates, axes, mode):
        """Updates at out-of-range indices (negative ones included) are dropped, as XLA's
        scatter (and so Nx) does."""
        xp, data, values = self.xp, self._as(tensor, out), self._as(updates, out)
        rest = [a for a in range(data.ndim) if a not in axes]
        order = list(axes) + rest
        data = xp.transpose(data, order)
        index = xp.asarray(indices.data)
        columns = [index[..., i] for i in range(len(axes))]
        valid = xp.ones(index.shape[:-1], dtype=bool)
        for column, size in zip(columns, data.shape):
            valid = valid & (column >= 0) & (column < size)
        if xp is np:
            data = data.copy()
            chosen = tuple(column[valid] for column in columns)
            if mode == "add":
                np.add.at(data, chosen, values[valid])
            else:
                data[chosen] = values[valid]
        else:
            if index.dtype.itemsize <= 4:
                # XLA's scatter itself drops out-of-range (negative too) updates: no instruction
                # beyond it, as `.at[].add(mode="drop", wrap_negative_indices=False)`.
                chosen = tuple(columns)
            else:
                # jax.numpy takes 64-bit indices to 32 bits: move every invalid one past the end first.
                chosen = tuple(xp.where(valid, column, size) for column, size in zip(columns, data.shape))
            at = data.at[chosen]
            drop = {"mode": "drop", "wrap_negative_indices": False}
            data = at.add(values, **drop) if mode == "add" else at.set(values, **drop)
        return self._wrap(out, xp.transpose(data, np.argsort(order)))


FILLED = _base.fill(Array, "indexing")  # all but indexed: their entries' compute
