"""Bitwise ops on integer tensors, and logical ops on any tensor (non-zero is true).

The family's rule, by value domain: an op reads its operands as bits or as truth values,
whatever their number of operands.

The family's ops of the op table (`_core/_op_table.py`) are generated from their entries, each
with its doctest (`_generate.define`, at the end of this module), but the shifts, which check
their amounts and are written here.

>>> nbt.bitwise_and(nbt.tensor([12, 10]), 6)
numbat.Tensor<
  s32[2]
  [4, 2]
>
"""

from __future__ import annotations

from ..._core._errors import ArgumentError
from .. import _dispatch
from ._apply import binary, integers
from ._generate import define, result_type


def _shift(op: str, direction: str, left, right):
    """A shift; a negative amount whose values are known (not traced by a defn) raises, as in Nx."""
    left, right, type_ = _dispatch.binary_operands(left, right)
    integers(op)(type_)  # a float tensor is refused before its values are read (no NumPy warning on NaN)
    values = _dispatch.known_values(right)
    if values is not None and values.size and values.min() < 0:
        raise ArgumentError(f"cannot {direction} shift by {values.min()}")
    return binary(op, left, right, result_type(op))


def left_shift(left, right):
    """Shifts the bits of `left` left by `right` (`<<`).

    >>> nbt.left_shift(nbt.tensor([1, 3]), 2)
    numbat.Tensor<
      s32[2]
      [4, 12]
    >
    >>> nbt.left_shift(nbt.tensor(1), -1)
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: cannot left shift by -1
    """
    return _shift("left_shift", "left", left, right)


def right_shift(left, right):
    """Shifts the bits of `left` right by `right`, keeping the sign of signed types (`>>`).

    >>> nbt.right_shift(nbt.tensor([16, -16]), 2)
    numbat.Tensor<
      s32[2]
      [4, -4]
    >
    """
    return _shift("right_shift", "right", left, right)


# The family's other ops of the op table (`_core/_op_table.py`), generated from their entries.
define(globals(), "bitwise")
