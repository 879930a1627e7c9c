"""Shape ops: reshape and transpose."""

from __future__ import annotations

from .. import _names, _shape
from .._errors import ArgumentError
from ..backends._abstract import Template
from . import _dispatch


def reshape(tensor, shape, names=None):
    """Gives `tensor` a new shape of the same size (one -1 is inferred); names reset unless given.

    >>> nbt.reshape(nbt.iota((6,)), (2, 3), names=["x", "y"])
    numbat.Tensor<
      s32[x: 2][y: 3]
      [
        [0, 1, 2],
        [3, 4, 5]
      ]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    if isinstance(shape, int) or not hasattr(shape, "__len__"):
        raise ArgumentError(f"reshape needs a shape tuple, got {shape!r}")
    new_shape = _shape.reshape(tensor.shape, shape)
    out = Template(new_shape, tensor.type, _names.normalize(names, len(new_shape)))
    return _dispatch.run("reshape", out, (tensor,))


def transpose(tensor, axes=None):
    """Permutes the axes (ints or names; default: reversed); names move with their axes.

    >>> nbt.transpose(nbt.tensor([[1, 2, 3]], names=["x", "y"]))
    numbat.Tensor<
      s32[y: 3][x: 1]
      [
        [1],
        [2],
        [3]
      ]
    >
    >>> nbt.transpose(nbt.iota((2, 3), names=["x", "y"]), axes=["y", "x"]).names
    ('y', 'x')
    """
    tensor = _dispatch.to_tensor(tensor)
    if axes is None:
        indices = tuple(reversed(range(tensor.rank)))
    else:
        indices = tuple(_names.axis_index(tensor.names, axis) for axis in axes)
    shape = _shape.transpose(tensor.shape, indices)
    out = Template(shape, tensor.type, tuple(tensor.names[i] for i in indices))
    return _dispatch.run("transpose", out, (tensor,), axes=indices)
