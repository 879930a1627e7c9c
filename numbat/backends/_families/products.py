"""Products of two tensors: dot, dot_general and conv. `Array` implements the family's
methods of the backend contract (`backends/_contract.py`) over `self.xp`: dot from its op
table entry's `compute` (`_core/_op_table.STRUCTURED`, filled in by `_base.fill`), the others
written here.

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
    def dot_general(self, out, left, right, contract, batch):
        a, b = self._as(left, out), self._as(right, out)
        if self.xp is np:
            (lc, rc), (lb, rb) = contract, batch
            letters = iter("abcdefghijklmnopqrstuvwxyz")
            left_labels = [next(letters) for _ in range(a.ndim)]
            right_labels = [next(letters) for _ in range(b.ndim)]
            for x, y in zip(lc + lb, rc + rb):
                right_labels[y] = left_labels[x]
            free_left = [left_labels[i] for i in range(a.ndim) if i not in lc and i not in lb]
            free_right = [right_labels[i] for i in range(b.ndim) if i not in rc and i not in rb]
            result_labels = [left_labels[i] for i in lb] + free_left + free_right
            spec = f"{''.join(left_labels)},{''.join(right_labels)}->{''.join(result_labels)}"
            if a.dtype.kind == "V":  # bf16 and the 8-bit floats: NumPy's einsum has no loop; f32, as XLA
                a, b = a.astype(np.float32), b.astype(np.float32)
            return self._wrap(out, np.einsum(spec, a, b).astype(out.type.dtype))
        dims = (tuple(contract), tuple(batch))
        return self._wrap(out, jax.lax.dot_general(a, b, dims, preferred_element_type=out.type.dtype))

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


FILLED = _base.fill(Array, "products")  # dot: its entry's compute
