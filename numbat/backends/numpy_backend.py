"""`NumPyBackend`: the eager reference backend; data lives on the host."""

from __future__ import annotations

import dataclasses
import typing

import numpy as np

from .._errors import ArgumentError
from .._tensor import Template, Tensor
from . import _fp_state
from ._array import ArrayBackend


@typing.final
@dataclasses.dataclass(frozen=True, eq=False)
class NumPyBackend(ArrayBackend):
    """Host NumPy arrays, computed eagerly.

    >>> nbt.tensor([1, 2], backend=nbt.NumPyBackend()).backend
    NumPyBackend()

    There is one instance (as with `XLABackend`, equal backends are one object):

    >>> nbt.NumPyBackend() is nbt.NumPyBackend()
    True
    """

    xp: typing.ClassVar = np

    def __new__(cls):
        return _ONE

    def __reduce__(self):  # copies and pickles come back as the one instance
        return (NumPyBackend, ())

    def _wrap(self, out: Template, data) -> Tensor:
        if type(data) is not np.ndarray or data.dtype != out.type.dtype:  # NumPy scalars, other dtypes
            data = np.asarray(data, dtype=out.type.dtype)  # (the op computed in another type, or gave a scalar)
        return Tensor(data, out.type, out.names, self)

    def _place(self, out: Template, data) -> Tensor:
        return Tensor(np.array(data, dtype=out.type.dtype), out.type, out.names, self)

    def execute(self, op: str, out: Template, inputs: tuple, params: dict) -> Tensor:
        token = _fp_state.silence()  # Nx semantics: Inf and NaN, no warnings
        try:
            if params:
                return getattr(self, op)(out, *inputs, **params)
            return getattr(self, op)(out, *inputs)  # no keyword dict to unpack (most ops)
        except np.linalg.LinAlgError as error:  # XLA gives NaN here; NumPy refuses, so say why
            raise ArgumentError(f"linalg.{params.get('kind', op)} on the NumPy backend: {error}") from None
        finally:
            _fp_state.restore(token)

    def from_numpy(self, out: Template, array: np.ndarray) -> Tensor:
        return self._place(out, array)

    def to_numpy(self, tensor: Tensor) -> np.ndarray:
        return np.asarray(tensor.data)

    def describe(self) -> str:
        return "NumPy (host)"


_ONE = object.__new__(NumPyBackend)  # no fields: nothing for __init__ to fill in
