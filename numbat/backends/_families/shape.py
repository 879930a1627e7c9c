"""Shape ops. `Interface` is what a backend implements; `Array` implements it over `self.xp`."""

from __future__ import annotations

import abc
import typing

from ._base import ArrayBase

if typing.TYPE_CHECKING:
    from ..._tensor import Tensor
    from .._abstract import Template


class Interface(abc.ABC):
    """Shape ops."""

    @abc.abstractmethod
    def reshape(self, out: Template, tensor: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def transpose(self, out: Template, tensor: Tensor, axes: tuple) -> Tensor: ...


class Array(ArrayBase, Interface):
    def reshape(self, out, tensor):
        return self._wrap(out, self.xp.reshape(self.xp.asarray(tensor.data), out.shape))

    def transpose(self, out, tensor, axes):
        return self._wrap(out, self.xp.transpose(self.xp.asarray(tensor.data), axes))
