"""Sorting: sort, argsort and top_k. `Array` implements the family's methods of the backend
contract (`backends/_contract.py`) over `self.xp`: sort and argsort from their op table entries'
`compute` (`_core/_op_table.STRUCTURED`, filled in by `_base.fill`; Nx's order is
`_core/_op_code.py`'s), top_k (XLA's partial selection, with its NaN check) written here.

The family's rule: an op orders the elements along an axis, in Nx's order (`_core/_op_code.py`), and
gives the ordered values, their indices, or the first `k` of them.
"""

from __future__ import annotations

import functools

import jax
import numpy as np

from ..._core._op_code import argsort_nx
from . import _base
from ._base import ArrayBase
from .reduction import may_hold_nan


class Array(ArrayBase):
    def top_k(self, out, tensor, k, part):
        data = self.xp.asarray(tensor.data)
        if self.xp is np:
            index = argsort_nx(np, data, data.ndim - 1, True)[..., :k]
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


FILLED = _base.fill(Array, "sort")  # sort, argsort: their entries' compute
