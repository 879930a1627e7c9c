"""Linear algebra (nbt.linalg). `Interface` is what a backend implements; `Array` implements it over `self.xp`."""

from __future__ import annotations

import abc

from ._base import ArrayBase


class Interface(abc.ABC):
    """Linear algebra (nbt.linalg)."""


class Array(ArrayBase, Interface):
    pass
