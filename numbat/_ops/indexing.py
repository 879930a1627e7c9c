"""Indexing a tensor with ints and slices: `t[0]`, `t[1:3]`, `t[:, -1]`."""

from __future__ import annotations

from .._errors import ArgumentError
from ..backends._abstract import Template
from . import _dispatch


def getitem(tensor, index):
    """`tensor[index]`: an int drops its axis, a slice keeps it (and its name).

    >>> t = nbt.tensor([[1, 2, 3], [4, 5, 6]], names=["x", "y"])
    >>> t[1]
    numbat.Tensor<
      s32[y: 3]
      [4, 5, 6]
    >
    >>> t[:, 1:]
    numbat.Tensor<
      s32[x: 2][y: 2]
      [
        [2, 3],
        [5, 6]
      ]
    >
    """
    index = index if isinstance(index, tuple) else (index,)
    if len(index) > tensor.rank:
        raise ArgumentError(
            f"too many indices ({len(index)}) for a tensor of rank {tensor.rank} (shape {tensor.shape})"
        )
    shape, names, normalized = [], [], []
    for axis, item in enumerate(index):
        size = tensor.shape[axis]
        if isinstance(item, slice):
            start, stop, step = item.indices(size)
            normalized.append(slice(start, stop, step))
            shape.append(len(range(start, stop, step)))
            names.append(tensor.names[axis])
        elif isinstance(item, int) and not isinstance(item, bool):
            if not -size <= item < size:
                raise ArgumentError(
                    f"index {item} is out of range for axis {axis} of size {size} (shape {tensor.shape})"
                )
            normalized.append(item % size)
        else:
            raise ArgumentError(f"tensors are indexed with ints and slices, got {item!r} for axis {axis}")
    shape.extend(tensor.shape[len(index) :])
    names.extend(tensor.names[len(index) :])
    out = Template(tuple(shape), tensor.type, tuple(names))
    return _dispatch.run("getitem", out, (tensor,), index=tuple(normalized))
