"""Element-wise ops. `Interface` is what a backend implements; `Array` implements it over `self.xp`."""

from __future__ import annotations

import abc
import typing

import jax
import numpy as np

from ._base import ArrayBase

if typing.TYPE_CHECKING:
    from ..._tensor import Tensor
    from .._abstract import Template


class Interface(abc.ABC):
    """Element-wise ops."""

    @abc.abstractmethod
    def add(self, out: Template, left: Tensor, right: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def subtract(self, out: Template, left: Tensor, right: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def multiply(self, out: Template, left: Tensor, right: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def divide(self, out: Template, left: Tensor, right: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def pow(self, out: Template, left: Tensor, right: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def equal(self, out: Template, left: Tensor, right: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def not_equal(self, out: Template, left: Tensor, right: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def less(self, out: Template, left: Tensor, right: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def less_equal(self, out: Template, left: Tensor, right: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def greater(self, out: Template, left: Tensor, right: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def greater_equal(self, out: Template, left: Tensor, right: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def negate(self, out: Template, tensor: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def abs(self, out: Template, tensor: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def exp(self, out: Template, tensor: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def log(self, out: Template, tensor: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def sin(self, out: Template, tensor: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def cos(self, out: Template, tensor: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def tanh(self, out: Template, tensor: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def sqrt(self, out: Template, tensor: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def stop_grad(self, out: Template, tensor: Tensor) -> Tensor: ...


class Array(ArrayBase, Interface):
    def stop_grad(self, out, tensor):
        data = self._as(tensor, out)
        return self._wrap(out, data if isinstance(data, np.ndarray) else jax.lax.stop_gradient(data))

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
