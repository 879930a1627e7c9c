"""Products of two tensors: dot, dot_general and conv. `Array` implements the family's
methods of the backend contract (`backends/_contract.py`) over `self.xp`: dot and dot_general
from their op table entries' `compute` (`_core/_op_table.STRUCTURED`, filled in by
`_base.fill`), conv (JAX's, on the host CPU for NumPy) written here.

The family's rule: an op sums products of elements of two tensors over contracted axes
(a convolution over its kernel's windows); its output's shape comes from both operands'
shapes, not from broadcasting them.
"""

from __future__ import annotations

import jax
import numpy as np

from . import _base
from ._base import ArrayBase


class Array(ArrayBase):
    def conv(
        self, out, tensor, kernel, strides, padding, input_dilation, kernel_dilation, feature_groups, batch_groups
    ):
        lhs, rhs = self._as(tensor, out), self._as(kernel, out)
        host = self.xp is np  # NumPy has no convolution of this generality: JAX's, on the host CPU
        with jax.enable_x64(host):  # keeps f64/c128 host data 64-bit; XLA data is already typed
            if host:
                lhs, rhs = jax.device_put((lhs, rhs), jax.devices("cpu")[0])
            result = jax.lax.conv_general_dilated(
                lhs,
                rhs,
                strides,
                padding,
                input_dilation,
                kernel_dilation,
                feature_group_count=feature_groups,
                batch_group_count=batch_groups,
            )
        return self._wrap(out, np.asarray(result) if host else result)


FILLED = _base.fill(Array, "products")  # dot, dot_general: their entries' compute
