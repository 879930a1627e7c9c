"""Indexing and slicing. `Interface` is what a backend implements; `Array` implements it over `self.xp`."""

from __future__ import annotations

import abc
import typing

from ._base import ArrayBase

if typing.TYPE_CHECKING:
    from ..._tensor import Tensor
    from .._abstract import Template


class Interface(abc.ABC):
    """Indexing and slicing."""

    @abc.abstractmethod
    def getitem(self, out: Template, tensor: Tensor, index: tuple) -> Tensor: ...


class Array(ArrayBase, Interface):
    def getitem(self, out, tensor, index):
        return self._wrap(out, self.xp.asarray(tensor.data)[index])
