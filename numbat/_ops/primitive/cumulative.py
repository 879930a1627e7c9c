"""Running totals along an axis: `cumulative_sum`, `cumulative_product`, `cumulative_min`, `cumulative_max`.

The family's rule: an op's element `i` along the axis combines the elements up to `i`
(from the end with `reverse`); the output has the input's shape.
"""

from __future__ import annotations

from ..._core import _names, _types
from ..._core._errors import ArgumentError
from ..._tensor._tensor import Template
from .. import _dispatch


def _cumulative(kind: str, tensor, axis, reverse: bool, aggregate: bool):
    tensor = _dispatch.to_tensor(tensor)
    if tensor.type.is_complex and kind in ("min", "max"):  # Nx: its min/max have no complex order
        raise ArgumentError(f"cumulative_{kind} is not defined for complex tensors, got {tensor.type}")
    index = _names.axis_index(tensor.names, axis)
    type_ = _types.to_aggregate(tensor.type) if aggregate else tensor.type
    out = Template(tensor.shape, type_, tensor.names)
    return _dispatch.run("cumulative", out, (tensor,), kind=kind, axis=index, reverse=bool(reverse))


def cumulative_sum(tensor, axis=0, reverse=False):
    """The running sum along `axis` (from the end with `reverse=True`).

    >>> nbt.cumulative_sum(nbt.tensor([1, 2, 3, 4]))
    numbat.Tensor<
      s32[4]
      [1, 3, 6, 10]
    >
    >>> nbt.cumulative_sum(nbt.tensor([[1, 2], [3, 4]], names=["x", "y"]), axis="y", reverse=True)
    numbat.Tensor<
      s32[x: 2][y: 2]
      [
        [3, 2],
        [7, 4]
      ]
    >
    """
    return _cumulative("sum", tensor, axis, reverse, True)


def cumulative_product(tensor, axis=0, reverse=False):
    """The running product along `axis`.

    >>> nbt.cumulative_product(nbt.tensor([1, 2, 3, 4]))
    numbat.Tensor<
      s32[4]
      [1, 2, 6, 24]
    >
    """
    return _cumulative("product", tensor, axis, reverse, True)


def cumulative_min(tensor, axis=0, reverse=False):
    """The running minimum along `axis`.

    >>> nbt.cumulative_min(nbt.tensor([3, 1, 2, 0]))
    numbat.Tensor<
      s32[4]
      [3, 1, 1, 0]
    >

    Complex tensors have no order, as in Nx:

    >>> nbt.cumulative_min(nbt.tensor([1j]))
    Traceback (most recent call last):
    numbat.ArgumentError: cumulative_min is not defined for complex tensors, got c64
    """
    return _cumulative("min", tensor, axis, reverse, False)


def cumulative_max(tensor, axis=0, reverse=False):
    """The running maximum along `axis`.

    >>> nbt.cumulative_max(nbt.tensor([1, 3, 2, 4]), reverse=True)
    numbat.Tensor<
      s32[4]
      [4, 4, 4, 4]
    >
    """
    return _cumulative("max", tensor, axis, reverse, False)
