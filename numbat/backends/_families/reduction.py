"""Reductions over axes. `Interface` is what a backend implements; `Array` implements it over `self.xp`."""

from __future__ import annotations

import abc
import typing

from ._base import ArrayBase

if typing.TYPE_CHECKING:
    from ..._tensor import Tensor
    from .._abstract import Template


class Interface(abc.ABC):
    """Reductions over axes."""

    @abc.abstractmethod
    def sum(self, out: Template, tensor: Tensor, axes: tuple, keep_axes: bool) -> Tensor: ...

    @abc.abstractmethod
    def reduce_max(self, out: Template, tensor: Tensor, axes: tuple, keep_axes: bool) -> Tensor: ...

    @abc.abstractmethod
    def reduce_min(self, out: Template, tensor: Tensor, axes: tuple, keep_axes: bool) -> Tensor: ...

    @abc.abstractmethod
    def argmax(self, out: Template, tensor: Tensor, axis: int | None, keep_axis: bool, tie_break: str) -> Tensor: ...

    @abc.abstractmethod
    def argmin(self, out: Template, tensor: Tensor, axis: int | None, keep_axis: bool, tie_break: str) -> Tensor: ...

    @abc.abstractmethod
    def product(self, out: Template, tensor: Tensor, axes: tuple, keep_axes: bool) -> Tensor: ...

    @abc.abstractmethod
    def all(self, out: Template, tensor: Tensor, axes: tuple, keep_axes: bool) -> Tensor: ...

    @abc.abstractmethod
    def any(self, out: Template, tensor: Tensor, axes: tuple, keep_axes: bool) -> Tensor: ...


class Array(ArrayBase, Interface):
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

    def product(self, out, tensor, axes, keep_axes):
        return self._wrap(out, self.xp.prod(self._as(tensor, out), axis=axes, keepdims=keep_axes))

    def all(self, out, tensor, axes, keep_axes):
        data = self.xp.asarray(tensor.data) != 0
        return self._wrap(out, self.xp.all(data, axis=axes, keepdims=keep_axes).astype(out.type.dtype))

    def any(self, out, tensor, axes, keep_axes):
        data = self.xp.asarray(tensor.data) != 0
        return self._wrap(out, self.xp.any(data, axis=axes, keepdims=keep_axes).astype(out.type.dtype))
