"""The op implementations NumPy and JAX share: both speak the array API of
`xp` (`numpy` or `jax.numpy`); the final backends supply placement."""

from __future__ import annotations

import abc
import math

from .._tensor import Tensor
from .._types import merge
from ._abstract import AbstractBackend, Template


class ArrayBackend(AbstractBackend):
    """Implements every op with `self.xp`; subclasses implement placement only."""

    xp = None  # the array module: numpy or jax.numpy

    @abc.abstractmethod
    def _wrap(self, out: Template, data) -> Tensor:
        """Wraps `data` (already of `out`'s dtype and shape) as a tensor of this backend."""

    @abc.abstractmethod
    def _place(self, out: Template, data) -> Tensor:
        """Wraps freshly created `data`, moving it to this backend's device."""

    def _as(self, tensor: Tensor, out: Template):
        return self.xp.asarray(tensor.data).astype(out.type.dtype, copy=False)

    def _binary(self, out, left, right, fun):
        return self._wrap(out, fun(self._as(left, out), self._as(right, out)))

    def _compare(self, out, left, right, fun):
        common = Template((), merge(left.type, right.type), ())
        return self._wrap(out, fun(self._as(left, common), self._as(right, common)).astype(out.type.dtype))

    def _unary(self, out, tensor, fun):
        return self._wrap(out, fun(self._as(tensor, out)))

    def iota(self, out, axis):
        if axis is None:
            data = self.xp.reshape(self.xp.arange(math.prod(out.shape)).astype(out.type.dtype), out.shape)
        else:
            shape = [1] * len(out.shape)
            shape[axis] = out.shape[axis]
            data = self.xp.arange(out.shape[axis]).astype(out.type.dtype).reshape(shape)
            data = self.xp.broadcast_to(data, out.shape)
        return self._place(out, data)

    def eye(self, out):
        rows, cols = out.shape[-2:]
        data = self.xp.broadcast_to(self.xp.eye(rows, cols, dtype=out.type.dtype), out.shape)
        return self._place(out, data)

    def as_type(self, out, tensor):
        return self._wrap(out, self._as(tensor, out))

    def broadcast(self, out, tensor, axes):
        expanded = [1] * len(out.shape)
        for size, axis in zip(tensor.shape, axes):
            expanded[axis] = size
        data = self.xp.reshape(self._as(tensor, out), expanded)
        return self._wrap(out, self.xp.broadcast_to(data, out.shape))

    def add(self, out, left, right):
        return self._binary(out, left, right, self.xp.add)

    def subtract(self, out, left, right):
        return self._binary(out, left, right, self.xp.subtract)

    def multiply(self, out, left, right):
        return self._binary(out, left, right, self.xp.multiply)

    def divide(self, out, left, right):
        return self._binary(out, left, right, self.xp.divide)

    def pow(self, out, left, right):
        return self._binary(out, left, right, self.xp.power)

    def equal(self, out, left, right):
        return self._compare(out, left, right, self.xp.equal)

    def not_equal(self, out, left, right):
        return self._compare(out, left, right, self.xp.not_equal)

    def less(self, out, left, right):
        return self._compare(out, left, right, self.xp.less)

    def less_equal(self, out, left, right):
        return self._compare(out, left, right, self.xp.less_equal)

    def greater(self, out, left, right):
        return self._compare(out, left, right, self.xp.greater)

    def greater_equal(self, out, left, right):
        return self._compare(out, left, right, self.xp.greater_equal)

    def negate(self, out, tensor):
        return self._unary(out, tensor, self.xp.negative)

    def abs(self, out, tensor):
        return self._wrap(out, self.xp.abs(self.xp.asarray(tensor.data)).astype(out.type.dtype))

    def exp(self, out, tensor):
        return self._unary(out, tensor, self.xp.exp)

    def log(self, out, tensor):
        return self._unary(out, tensor, self.xp.log)

    def sin(self, out, tensor):
        return self._unary(out, tensor, self.xp.sin)

    def cos(self, out, tensor):
        return self._unary(out, tensor, self.xp.cos)

    def tanh(self, out, tensor):
        return self._unary(out, tensor, self.xp.tanh)

    def sqrt(self, out, tensor):
        return self._unary(out, tensor, self.xp.sqrt)

    def sum(self, out, tensor, axes, keep_axes):
        data = self.xp.sum(self._as(tensor, out), axis=axes, keepdims=keep_axes)
        return self._wrap(out, data)

    def reduce_max(self, out, tensor, axes, keep_axes):
        return self._wrap(out, self.xp.max(self._as(tensor, out), axis=axes, keepdims=keep_axes))

    def reduce_min(self, out, tensor, axes, keep_axes):
        return self._wrap(out, self.xp.min(self._as(tensor, out), axis=axes, keepdims=keep_axes))

    def argmax(self, out, tensor, axis, keep_axis, tie_break):
        return self._arg(out, tensor, axis, keep_axis, tie_break, self.xp.argmax)

    def argmin(self, out, tensor, axis, keep_axis, tie_break):
        return self._arg(out, tensor, axis, keep_axis, tie_break, self.xp.argmin)

    def _arg(self, out, tensor, axis, keep_axis, tie_break, fun):
        data = self.xp.asarray(tensor.data)
        if axis is None:
            data, axis = self.xp.reshape(data, (-1,)), 0
        if tie_break == "high":  # the last of equal values: search the reversed axis
            size = data.shape[axis]
            index = size - 1 - fun(self.xp.flip(data, axis=axis), axis=axis, keepdims=keep_axis)
        else:
            index = fun(data, axis=axis, keepdims=keep_axis)
        return self._wrap(out, self.xp.reshape(index, out.shape).astype(out.type.dtype))

    def reshape(self, out, tensor):
        return self._wrap(out, self.xp.reshape(self.xp.asarray(tensor.data), out.shape))

    def transpose(self, out, tensor, axes):
        return self._wrap(out, self.xp.transpose(self.xp.asarray(tensor.data), axes))

    def getitem(self, out, tensor, index):
        return self._wrap(out, self.xp.asarray(tensor.data)[index])

    def dot(self, out, left, right):
        return self._binary(out, left, right, self.xp.dot)
