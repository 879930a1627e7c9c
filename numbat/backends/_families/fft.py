"""Fast Fourier transforms. `Interface` is what a backend implements; `Array` implements it over `self.xp`."""

from __future__ import annotations

import abc

from ._base import ArrayBase


class Interface(abc.ABC):
    """Fast Fourier transforms."""


class Array(ArrayBase, Interface):
    pass
