"""What every array implementation shares: the array module and the helpers
that convert operands to the output type and wrap results."""

from __future__ import annotations

import abc

from ..._tensor._tensor import Template, Tensor
from .._cast import cast


class ArrayBase(abc.ABC):
    """Helpers over `self.xp` (`numpy` or `jax.numpy`); subclasses implement placement."""

    xp = None  # the array module: numpy or jax.numpy

    @abc.abstractmethod
    def _wrap(self, out: Template, data) -> Tensor:
        """Wraps `data` (already of `out`'s dtype and shape) as a tensor of this backend."""

    @abc.abstractmethod
    def _place(self, out: Template, data) -> Tensor:
        """Wraps freshly created `data`, moving it to this backend's device."""

    def _as(self, tensor: Tensor, out: Template):
        if tensor.type == out.type:  # the common case: a tensor's data always has its type's dtype
            return tensor.data
        return cast(self.xp, self.xp.asarray(tensor.data), out.type.dtype)  # Nx's conversion rules

    def _binary(self, out, left, right, fun):
        return self._wrap(out, fun(self._as(left, out), self._as(right, out)))
