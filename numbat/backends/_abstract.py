"""`AbstractBackend`: fills in data. Shapes, types and names are inferred once,
in the front-end, and arrive as the output template `out` (a `Template`)."""

from __future__ import annotations

import abc
import typing

import numpy as np

from .._types import Type

if typing.TYPE_CHECKING:
    from .._tensor import Tensor


class Template(typing.NamedTuple):
    """What an op will return: shape, type and names, with no data.

    >>> str(nbt.template((2, 3), "f32", names=["x", None]))
    'f32[x: 2][3]'
    """

    shape: tuple
    type: Type
    names: tuple

    def __str__(self) -> str:
        from .._format import header

        return header(self.type, self.shape, self.names)


class AbstractBackend(abc.ABC):
    """A place where tensor data lives and ops run; every op takes `out` first."""

    # placement
    @abc.abstractmethod
    def from_numpy(self, out: Template, array: np.ndarray) -> Tensor: ...
    @abc.abstractmethod
    def to_numpy(self, tensor: Tensor) -> np.ndarray: ...
    @abc.abstractmethod
    def describe(self) -> str:
        """One line naming where the data lives, e.g. `NumPy (host)` or `XLA host:0`."""

    # creation
    @abc.abstractmethod
    def iota(self, out: Template, axis: int | None) -> Tensor: ...
    @abc.abstractmethod
    def eye(self, out: Template) -> Tensor: ...
    @abc.abstractmethod
    def broadcast(self, out: Template, tensor: Tensor, axes: tuple) -> Tensor: ...
    @abc.abstractmethod
    def as_type(self, out: Template, tensor: Tensor) -> Tensor: ...

    # element-wise
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

    # reductions
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

    # shape and linear algebra
    @abc.abstractmethod
    def reshape(self, out: Template, tensor: Tensor) -> Tensor: ...
    @abc.abstractmethod
    def transpose(self, out: Template, tensor: Tensor, axes: tuple) -> Tensor: ...
    @abc.abstractmethod
    def getitem(self, out: Template, tensor: Tensor, index: tuple) -> Tensor: ...
    @abc.abstractmethod
    def dot(self, out: Template, left: Tensor, right: Tensor) -> Tensor: ...
