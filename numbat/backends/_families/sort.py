"""Sorting: sort, argsort and top_k. `Array` implements the family's methods of the backend
contract (`backends/_contract.py`) over `self.xp`.

The family's rule: an op orders the elements along an axis, in Nx's order (below), and
gives the ordered values, their indices, or the first `k` of them.
"""

from __future__ import annotations

import functools

import jax
import numpy as np

from . import _base
from ._base import ArrayBase
from .reduction import may_hold_nan


class Array(ArrayBase):
    # Nx's order: NaN sorts above everything (last ascending, first descending), -0.0
    # equals 0.0, and equal elements keep their order either way. XLA's sort comparator
    # (lax.sort's, as jnp.sort uses) is that order ascending; descending is the ascending
    # sort of the reversed axis, reversed: nothing is negated, so no integer minimum
    # overflows. On XLA a sort moves the values themselves (one sort, as jnp.sort), and an
    # argsort sorts an iota of the index type along (as jnp.argsort).

    def sort(self, out, tensor, axis, descending):
        data = self._as(tensor, out)
        if self.xp is np:
            index = self._argsort(data, axis, descending)
            return self._wrap(out, np.take_along_axis(data, index, axis=axis))
        if not descending:
            return self._wrap(out, jax.lax.sort(data, dimension=axis, is_stable=True))
        if data.dtype.kind in "iub":  # equal integers are indistinguishable: one reverse, as jnp.sort
            return self._wrap(out, jax.lax.rev(jax.lax.sort(data, dimension=axis), (axis,)))
        flipped = jax.lax.sort(jax.lax.rev(data, (axis,)), dimension=axis, is_stable=True)
        return self._wrap(out, jax.lax.rev(flipped, (axis,)))

    def argsort(self, out, tensor, axis, descending):
        index = self._argsort(self.xp.asarray(tensor.data), axis, descending, out.type.dtype)
        return self._wrap(out, index.astype(out.type.dtype))

    def _argsort(self, data, axis, descending, index_dtype=np.int32):
        """A stable argsort in Nx's order (above), as indices of `index_dtype` where the
        axis fits in it (int32 otherwise)."""
        xp, size = self.xp, data.shape[axis]
        if xp is np:
            if data.dtype.kind not in "iuf":  # bf16, f8: NumPy sorts them wrongly around NaN
                data = data.astype(np.float64)  # exact for every narrower float
            if not descending:
                return np.argsort(data, axis=axis, stable=True)
            index = np.argsort(np.flip(data, axis), axis=axis, stable=True)
            return (size - 1) - np.flip(index, axis)
        if size - 1 > np.iinfo(index_dtype).max:
            index_dtype = np.int32
        keys = jax.lax.rev(data, (axis,)) if descending else data
        iota = jax.lax.broadcasted_iota(index_dtype, data.shape, axis)
        _, index = jax.lax.sort((keys, iota), dimension=axis, is_stable=True, num_keys=1)
        return (size - 1) - jax.lax.rev(index, (axis,)) if descending else index

    def top_k(self, out, tensor, k, part):
        data = self.xp.asarray(tensor.data)
        if self.xp is np:
            index = self._argsort(data, data.ndim - 1, True)[..., :k]
            result = index if part else np.take_along_axis(data, index, axis=-1)
            return self._wrap(out, result.astype(out.type.dtype))
        # lax.top_k (a partial selection, as JAX's own) compares floats in total order, where
        # a NaN with its sign bit set is the smallest and -0.0 < 0.0; Nx's order needs every
        # NaN largest and -0.0 equal to 0.0. The two orders pick the same elements unless a
        # NaN is present or a zero is among those picked: lax.top_k runs on the data as it
        # is, and only then (a sum of the data says a NaN may be there) on a canonical copy, whose values
        # are gathered back (k per row). Ties go to the lower index, as in Nx.
        values, index = jax.lax.top_k(data, k)
        if jax.numpy.issubdtype(data.dtype, jax.numpy.floating):
            differ = may_hold_nan(data) | jax.numpy.any(values == np.zeros((), data.dtype))
            index = jax.lax.cond(differ, functools.partial(_nx_top_k, k=k), lambda _: index, data)
            values = jax.numpy.take_along_axis(data, index, axis=-1, mode="promise_in_bounds")
        return self._wrap(out, index.astype(out.type.dtype) if part else values)


def _nx_top_k(data, k: int):
    """The indices `lax.top_k` picks in Nx's order: on a copy where every NaN is one NaN
    and -0.0 is 0.0."""
    zero, nan = np.zeros((), data.dtype), np.full((), np.nan, data.dtype)  # typed: no 64-bit constant in a defn
    keys = jax.numpy.where(jax.numpy.isnan(data), nan, jax.numpy.where(data == zero, zero, data))
    return jax.lax.top_k(keys, k)[1]


_base.fill(Array, "sort")  # checks that every entry of the family has its method here
