"""`AbstractBackend`: fills in data. Shapes, types and names are inferred once,
in the front-end, and arrive as the output template `out` (a `Template`).

The abstract methods are grouped by op family in `backends/_families/`."""

from __future__ import annotations

import abc
import typing

import numpy as np

from .._tensor._tensor import Template
from ._families import (
    bitwise,
    complex,
    creation,
    cumulative,
    elementwise,
    fft,
    indexing,
    linalg,
    math,
    products,
    reduction,
    shape,
    sort,
    window,
)

if typing.TYPE_CHECKING:
    from .._tensor._tensor import Tensor


class AbstractBackend(
    creation.Interface,
    elementwise.Interface,
    math.Interface,
    bitwise.Interface,
    complex.Interface,
    reduction.Interface,
    cumulative.Interface,
    window.Interface,
    shape.Interface,
    indexing.Interface,
    sort.Interface,
    products.Interface,
    linalg.Interface,
    fft.Interface,
):
    """A place where tensor data lives and ops run; every op takes `out` first."""

    @abc.abstractmethod
    def execute(self, op: str, out: Template, inputs: tuple, params: dict) -> Tensor:
        """Runs op `op` eagerly: `self.<op>(out, *inputs, **params)`, plus whatever the
        backend needs around it (NumPy: no floating-point warnings; XLA: a cached kernel)."""

    @abc.abstractmethod
    def execute_binary(self, op: str, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """`execute(op, out, (left, right), {})` for an element-wise binary op, the commonest
        eager call, in as few Python frames as the backend can."""

    @abc.abstractmethod
    def from_numpy(self, out: Template, array: np.ndarray) -> Tensor: ...
    @abc.abstractmethod
    def to_numpy(self, tensor: Tensor) -> np.ndarray: ...
    @abc.abstractmethod
    def describe(self) -> str:
        """One line naming where the data lives, e.g. `NumPy (host)` or `XLA host:0`."""
