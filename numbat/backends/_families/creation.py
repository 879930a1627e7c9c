"""Creating tensors and converting types. `Array` implements the family's methods of the
backend contract (`backends/_contract.py`) over `self.xp`: iota, eye, as_type and broadcast
from their op table entries' `compute` (`_core/_op_table.STRUCTURED`, filled in by
`_base.fill`), bitcast written here.

The family's rule: an op makes a tensor from a shape or a value (iota, eye, broadcast), or gives
one tensor's elements another type (as_type, bitcast).
"""

from __future__ import annotations

import functools

import jax
import numpy as np

from . import _base
from ._base import ArrayBase


class Array(ArrayBase):
    def bitcast(self, out, tensor):
        data = self.xp.asarray(tensor.data)
        if self.xp is np:
            return self._wrap(out, data.view(out.type.dtype))
        if tensor.type.is_float and out.type.is_float:
            return self._wrap(out, _bitcast(data, out.type.dtype))
        return self._wrap(out, jax.lax.bitcast_convert_type(data, out.type.dtype))


@functools.partial(jax.custom_jvp, nondiff_argnums=(1,))
def _bitcast(data, dtype):
    """The bits of `data` read as `dtype`; as in Nx, the gradient passes through."""
    return jax.lax.bitcast_convert_type(data, dtype)


@_bitcast.defjvp
def _bitcast_jvp(dtype, primals, tangents):
    return _bitcast(primals[0], dtype), tangents[0].astype(dtype)


FILLED = _base.fill(Array, "creation")  # iota, eye, as_type, broadcast: their entries' compute
