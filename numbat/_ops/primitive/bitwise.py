"""Bitwise ops on integer tensors, and logical ops on any tensor (non-zero is true).

The family's rule, by value domain: an op reads its operands as bits or as truth values,
whatever their number of operands.

>>> nbt.bitwise_and(nbt.tensor([12, 10]), 6)
numbat.Tensor<
  s32[2]
  [4, 2]
>
"""

from __future__ import annotations

from ..._core._errors import ArgumentError
from .. import _dispatch
from ._apply import binary, integers, u8, unary


def _integer_binary(op: str, left, right):
    return binary(op, left, right, integers(op))


def _shift(op: str, direction: str, left, right):
    """A shift; a negative amount whose values are known (not traced by a defn) raises, as in Nx."""
    left, right, type_ = _dispatch.binary_operands(left, right)
    integers(op)(type_)  # a float tensor is refused before its values are read (no NumPy warning on NaN)
    values = _dispatch.known_values(right)
    if values is not None and values.size and values.min() < 0:
        raise ArgumentError(f"cannot {direction} shift by {values.min()}")
    return _integer_binary(op, left, right)


def _integer_unary(op: str, tensor):
    return unary(op, tensor, integers(op))


def bitwise_and(left, right):
    """Bitwise and of two integer tensors (`&`).

    >>> nbt.bitwise_and(nbt.tensor([12, 10]), nbt.tensor([6, 3]))
    numbat.Tensor<
      s32[2]
      [4, 2]
    >
    """
    return _integer_binary("bitwise_and", left, right)


def bitwise_or(left, right):
    """Bitwise or of two integer tensors (`|`).

    >>> nbt.bitwise_or(nbt.tensor([12, 10]), 1)
    numbat.Tensor<
      s32[2]
      [13, 11]
    >
    """
    return _integer_binary("bitwise_or", left, right)


def bitwise_xor(left, right):
    """Bitwise exclusive or of two integer tensors (`^`).

    >>> nbt.bitwise_xor(nbt.tensor([12, 10]), 6)
    numbat.Tensor<
      s32[2]
      [10, 12]
    >
    """
    return _integer_binary("bitwise_xor", left, right)


def bitwise_not(tensor):
    """Flips every bit of an integer tensor (`~`).

    >>> nbt.bitwise_not(nbt.tensor([0, 1, 254], type="u8"))
    numbat.Tensor<
      u8[3]
      [255, 254, 1]
    >
    >>> nbt.bitwise_not(nbt.tensor([1.0]))
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: bitwise_not expects integer tensors, got f32; cast with nbt.as_type first
    """
    return _integer_unary("bitwise_not", tensor)


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


def population_count(tensor):
    """The number of set bits in each element of an integer tensor.

    >>> nbt.population_count(nbt.tensor([0, 1, 7, -1], type="s8"))
    numbat.Tensor<
      s8[4]
      [0, 1, 3, 8]
    >
    """
    return _integer_unary("population_count", tensor)


def count_leading_zeros(tensor):
    """The number of zero bits before the first set bit, in each element of an integer tensor.

    >>> nbt.count_leading_zeros(nbt.tensor([0, 1, 255, 256], type="u16"))
    numbat.Tensor<
      u16[4]
      [16, 15, 8, 7]
    >
    """
    return _integer_unary("count_leading_zeros", tensor)


def logical_and(left, right):
    """1 where both are non-zero, else 0 (u8).

    >>> nbt.logical_and(nbt.tensor([0, 1, 2]), nbt.tensor([1.0, 0.0, -1.0]))
    numbat.Tensor<
      u8[3]
      [0, 0, 1]
    >
    """
    return binary("logical_and", left, right, u8)


def logical_or(left, right):
    """1 where either is non-zero, else 0 (u8).

    >>> nbt.logical_or(nbt.tensor([0, 1, 0]), nbt.tensor([0, 0, 3]))
    numbat.Tensor<
      u8[3]
      [0, 1, 1]
    >
    """
    return binary("logical_or", left, right, u8)


def logical_xor(left, right):
    """1 where exactly one is non-zero, else 0 (u8).

    >>> nbt.logical_xor(nbt.tensor([0, 1, 1]), nbt.tensor([0, 0, 3]))
    numbat.Tensor<
      u8[3]
      [0, 1, 0]
    >
    """
    return binary("logical_xor", left, right, u8)


def logical_not(tensor):
    """1 where the element is zero, else 0 (u8).

    >>> nbt.logical_not(nbt.tensor([0, 1, -2]))
    numbat.Tensor<
      u8[3]
      [1, 0, 0]
    >
    """
    return unary("logical_not", tensor, u8)
