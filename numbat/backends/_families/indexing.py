"""Indexing and slicing. `Array` implements the family's methods of the backend contract
(`backends/_contract.py`) over `self.xp`: getitem from its op table entry's `compute`
(`_core/_op_table.STRUCTURED`, filled in by `_base.fill`), the others written here.

The family's rule: an op chooses or updates elements by their index (slices, take,
gather, indexed updates).
"""

from __future__ import annotations

import jax
import numpy as np

from . import _base
from ._base import ArrayBase


class Array(ArrayBase):
    def _starts(self, tensor, starts, lengths) -> list:
        """Start indices clamped so that each slice fits, as Nx does. On NumPy, Python ints
        (exact for every integer type). On XLA, the start tensors as they are when they share
        one type: XLA's dynamic-slice clamps each start itself, in its own type (64-bit and
        unsigned extremes included), with no instruction around it; starts of several types
        are clamped each in its own type first and then meet in one."""
        if self.xp is np:
            return [
                min(max(int(np.asarray(s.data)), 0), size - length)
                for s, size, length in zip(starts, tensor.shape, lengths)
            ]
        datas = [s.data for s in starts]
        if len({d.dtype for d in datas}) <= 1:
            return datas
        common = "int32" if max(tensor.shape, default=0) < 2**31 else "int64"
        return [
            jax.lax.clamp(jax.numpy.asarray(0, d.dtype), d, jax.numpy.asarray(size - length, d.dtype)).astype(common)
            for d, size, length in zip(datas, tensor.shape, lengths)
        ]

    def slice(self, out, tensor, *starts, lengths, strides):
        data = self._as(tensor, out)
        begins = self._starts(tensor, starts, lengths)
        if self.xp is np:
            window = data[tuple(slice(b, b + n) for b, n in zip(begins, lengths))]
        else:
            window = jax.lax.dynamic_slice(data, begins, lengths, allow_negative_indices=False)
        return self._wrap(out, window[tuple(slice(None, None, s) for s in strides)])

    def put_slice(self, out, tensor, update, *starts):
        xp, data, values = self.xp, self._as(tensor, out), self._as(update, out)
        begins = self._starts(tensor, starts, update.shape)
        if xp is np:
            data = data.copy()
            data[tuple(slice(b, b + n) for b, n in zip(begins, update.shape))] = values
            return self._wrap(out, data)
        return self._wrap(out, jax.lax.dynamic_update_slice(data, values, begins, allow_negative_indices=False))

    def _clamped(self, index, size):
        """Indices clamped into `0..size - 1`, as XLA's gather (and so Nx) does."""
        return self.xp.clip(self.xp.asarray(index), 0, size - 1)

    def take(self, out, tensor, indices, axis):
        data = self._as(tensor, out)
        if self.xp is np:
            index = self._clamped(indices.data, data.shape[axis])
            return self._wrap(out, np.take(data, index, axis=axis, mode="clip"))
        # jnp.take's "clip" mode is XLA's own gather, which clamps every index (negative
        # ones to 0) with no extra instruction: exactly jnp.take(..., mode="clip").
        return self._wrap(out, self.xp.take(data, indices.data, axis=axis, mode="clip"))

    def take_along_axis(self, out, tensor, indices, axis):
        data = self._as(tensor, out)
        index = self._clamped(indices.data, data.shape[axis])
        if self.xp is np:
            return self._wrap(out, np.take_along_axis(data, index, axis=axis))
        return self._wrap(out, self.xp.take_along_axis(data, index, axis=axis, mode="clip"))

    def gather(self, out, tensor, indices, axes):
        data = self._as(tensor, out)
        rest = [a for a in range(data.ndim) if a not in axes]
        if self.xp is np:
            data = np.transpose(data, list(axes) + rest)
            index = np.asarray(indices.data)
            if not axes:  # no index per position: every position takes the whole tensor
                return self._wrap(out, np.broadcast_to(data, out.shape).copy())
            return self._wrap(out, data[tuple(self._clamped(index[..., i], data.shape[i]) for i in range(len(axes)))])
        if 0 in out.shape:  # nothing to gather (an indexed axis may be empty): no slice to take
            return self._wrap(out, self.xp.zeros(out.shape, data.dtype))
        # XLA's gather clamps each start index into range itself, in the indices' own type
        # (64-bit and unsigned extremes included): no instruction around it, as
        # `x.at[i].get(mode="clip")` with 32-bit indices.
        batch = len(out.shape) - len(rest)
        numbers = jax.lax.GatherDimensionNumbers(
            offset_dims=tuple(range(batch, len(out.shape))),
            collapsed_slice_dims=tuple(sorted(axes)),
            start_index_map=tuple(axes),
        )
        sizes = tuple(1 if a in axes else data.shape[a] for a in range(data.ndim))
        gathered = jax.lax.gather(
            data, indices.data, numbers, sizes, mode=jax.lax.GatherScatterMode.CLIP, indices_are_sorted=False
        )
        return self._wrap(out, gathered)

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


FILLED = _base.fill(Array, "indexing")  # getitem: its entry's compute
