"""Cumulative ops: running sums, products, minima and maxima along an axis. `Array`
implements the family's methods of the backend contract (`backends/_contract.py`) over
`self.xp`.

The family's rule: an op's element `i` along the axis combines the elements up to `i`
(from the end with `reverse`); the output has the input's shape.
"""

from __future__ import annotations

import jax
import numpy as np

from . import _base
from ._base import ArrayBase


class Array(ArrayBase):
    def cumulative(self, out, tensor, kind, axis, reverse):
        xp, data = self.xp, self._as(tensor, out)
        if reverse:
            data = xp.flip(data, axis)
        if xp is np:
            ufunc = {"sum": np.add, "product": np.multiply, "min": np.fmin, "max": np.fmax}[kind]
            result = ufunc.accumulate(data, axis=axis, dtype=out.type.dtype)
            if kind in ("min", "max") and out.type.is_float:  # NaN propagates onward, as in XLA (bf16, f8 too)
                result = np.where(np.logical_or.accumulate(np.isnan(data), axis=axis), np.nan, result)
        else:
            fun = {"sum": jax.lax.cumsum, "product": jax.lax.cumprod, "min": jax.lax.cummin, "max": jax.lax.cummax}[
                kind
            ]
            result = fun(data, axis=axis)
        if reverse:
            result = xp.flip(result, axis)
        return self._wrap(out, result)


_base.fill(Array, "cumulative")  # checks that every entry of the family has its method here
