"""`NumPyBackend`: the eager reference backend; data lives on the host.

Its `execute_binary` (the eager hot path's end, from `_ops._dispatch.run_binary`) computes
an element-wise binary op whose operands have the output's type with the element-wise
family's table function (`_families.elementwise.TABLES`, read once by name: what the op's
method computes), and builds the result with `_tensor._result.result`."""

from __future__ import annotations

import dataclasses
import typing

import numpy as np

from .._tensor._result import result
from .._tensor._tensor import Template, Tensor
from . import _fp_state, _subbyte
from ._array import ArrayBackend
from ._families import elementwise

# The element-wise family's binary ops by name, each the function `(xp, a, b)` its backend
# method computes with once the operands have the output's type (`_tables.build`).
_BINARY = elementwise.TABLES["binary"]


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
        return result(data, out.type, out.names, self)

    def _place(self, out: Template, data) -> Tensor:
        return result(np.array(data, dtype=out.type.dtype), out.type, out.names, self)

    def execute(self, op: str, out: Template, inputs: tuple, params: dict) -> Tensor:
        token = _fp_state.silence()  # Nx semantics: Inf and NaN, no warnings
        try:
            if _subbyte.involved(out, inputs):
                return _subbyte.call(self, op, out, inputs, params)
            if params:
                return getattr(self, op)(out, *inputs, **params)
            return getattr(self, op)(out, *inputs)  # no keyword dict to unpack (most ops)
        finally:
            _fp_state.restore(token)

    def execute_binary(self, op: str, out: Template, left: Tensor, right: Tensor) -> Tensor:
        # The work of `execute` and the op's method in this one frame, for a binary op of the
        # element-wise family whose operands already have the output's type (not a sub-byte
        # one: see _subbyte): its table function on the operands' arrays.
        fun = _BINARY.get(op)
        type_ = out.type
        if (
            fun is None
            or type_.bits < 8
            or (left.type is not type_ and left.type != type_)
            or (right.type is not type_ and right.type != type_)
        ):
            return self.execute(op, out, (left, right), {})
        token = _silence()  # Nx semantics: Inf and NaN, no warnings
        try:
            data = fun(np, left.data, right.data)
            if data.__class__ is not np.ndarray or data.dtype is not left.data.dtype:
                return self._wrap(out, data)  # a scalar, or computed in another type (converting NaN warns)
        finally:
            _restore(token)
        return result(data, type_, out.names, self)

    def from_numpy(self, out: Template, array: np.ndarray) -> Tensor:
        return self._place(out, array)

    def to_numpy(self, tensor: Tensor) -> np.ndarray:
        return np.asarray(tensor.data)

    def describe(self) -> str:
        return "NumPy (host)"


_silence, _restore = _fp_state.silence, _fp_state.restore
_ONE = object.__new__(NumPyBackend)  # no fields: nothing for __init__ to fill in

__all__ = ["NumPyBackend"]
