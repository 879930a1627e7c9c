"""N-dimensional ops: dot, and later conv, concatenate, sort. `Interface` is what a backend implements; `Array` implements it over `self.xp`."""

from __future__ import annotations

import abc
import typing

from ._base import ArrayBase

if typing.TYPE_CHECKING:
    from ..._tensor import Tensor
    from .._abstract import Template


class Interface(abc.ABC):
    """N-dimensional ops: dot, and later conv, concatenate, sort."""

    @abc.abstractmethod
    def dot(self, out: Template, left: Tensor, right: Tensor) -> Tensor: ...


class Array(ArrayBase, Interface):
    def dot(self, out, left, right):
        return self._binary(out, left, right, self.xp.dot)
