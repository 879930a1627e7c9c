"""Cumulative and window ops. `Interface` is what a backend implements; `Array` implements it over `self.xp`."""

from __future__ import annotations

import abc

from ._base import ArrayBase


class Interface(abc.ABC):
    """Cumulative and window ops."""


class Array(ArrayBase, Interface):
    pass
