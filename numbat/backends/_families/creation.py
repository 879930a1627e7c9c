"""Creating tensors and converting types. `Interface` is what a backend implements; `Array` implements it over `self.xp`."""

from __future__ import annotations

import abc
import math

import jax
import numpy as np

from ..._tensor import Template, Tensor
from ._base import ArrayBase


class Interface(abc.ABC):
    """Creating tensors and converting types."""

    @abc.abstractmethod
    def iota(self, out: Template, axis: int | None) -> Tensor: ...

    @abc.abstractmethod
    def eye(self, out: Template) -> Tensor: ...

    @abc.abstractmethod
    def as_type(self, out: Template, tensor: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def broadcast(self, out: Template, tensor: Tensor, axes: tuple) -> Tensor: ...

    @abc.abstractmethod
    def bitcast(self, out: Template, tensor: Tensor) -> Tensor:
        """The same bits read as `out`'s type (of the same bit width)."""


class Array(ArrayBase, Interface):
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

    def bitcast(self, out, tensor):
        data = self.xp.asarray(tensor.data)
        if self.xp is np:
            return self._wrap(out, data.view(out.type.dtype))
        return self._wrap(out, jax.lax.bitcast_convert_type(data, out.type.dtype))
