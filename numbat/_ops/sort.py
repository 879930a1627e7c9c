"""Sorting: `sort`, `argsort` and `top_k`. Sorts are stable; NaN sorts last in ascending
order and first in descending order, as in Nx."""

from __future__ import annotations

from .. import _names, _types
from .._errors import ArgumentError
from ..backends._abstract import Template
from . import _dispatch


def _direction(direction: str) -> bool:
    if not isinstance(direction, str) or direction not in ("asc", "desc"):
        raise ArgumentError(f'direction must be "asc" or "desc", got {direction!r}')
    return direction == "desc"


def sort(tensor, axis=0, direction="asc"):
    """The elements sorted along `axis`.

    >>> nbt.sort(nbt.tensor([3.0, float("nan"), 1.0, 2.0]))
    numbat.Tensor<
      f32[4]
      [1.0, 2.0, 3.0, NaN]
    >
    >>> nbt.sort(nbt.tensor([[3, 1], [2, 4]], names=["x", "y"]), axis="y", direction="desc")
    numbat.Tensor<
      s32[x: 2][y: 2]
      [
        [3, 1],
        [4, 2]
      ]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    descending = _direction(direction)
    index = _names.axis_index(tensor.names, axis)
    out = Template(tensor.shape, tensor.type, tensor.names)
    return _dispatch.run("sort", out, (tensor,), axis=index, descending=descending, stable=True)


def argsort(tensor, axis=0, direction="asc", type="s32"):
    """The indices that sort `tensor` along `axis` (stable: equal elements keep their order).

    >>> nbt.argsort(nbt.tensor([3, 1, 2, 1]))
    numbat.Tensor<
      s32[4]
      [1, 3, 2, 0]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    descending = _direction(direction)
    index = _names.axis_index(tensor.names, axis)
    out = Template(tensor.shape, _types.parse(type), tensor.names)
    return _dispatch.run("argsort", out, (tensor,), axis=index, descending=descending, stable=True)


def top_k(tensor, k=1):
    """The `k` largest elements along the last axis and their indices, as `(values, indices)`.

    >>> values, indices = nbt.top_k(nbt.tensor([1, 5, 3, 4]), k=2)
    >>> values
    numbat.Tensor<
      s32[2]
      [5, 4]
    >
    >>> indices
    numbat.Tensor<
      s32[2]
      [1, 3]
    >
    """
    from .indexing import slice_along_axis, take_along_axis

    tensor = _dispatch.to_tensor(tensor)
    if tensor.rank == 0 or not isinstance(k, int) or not 1 <= k <= tensor.shape[-1]:
        raise ArgumentError(f"top_k: k must be between 1 and the last axis' size, got k={k!r} for {tensor.shape}")
    order = slice_along_axis(argsort(tensor, axis=-1, direction="desc"), 0, k, axis=-1)
    return take_along_axis(tensor, order, axis=-1), order
