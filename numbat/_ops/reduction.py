"""Reductions over axes given as ints or names: sum, mean, reduce_max/min, argmax/argmin."""

from __future__ import annotations

from .. import _names, _shape, _types
from .._errors import ArgumentError
from ..backends._abstract import Template
from . import _dispatch


def _reduce(op: str, tensor, axes, keep_axes: bool, type_=None):
    tensor = _dispatch.to_tensor(tensor)
    indices = _names.axes_indices(tensor.names, axes)
    shape = _shape.reduce(tensor.shape, indices, keep_axes)
    names = tuple(n for i, n in enumerate(tensor.names) if keep_axes or i not in indices)
    out = Template(shape, type_ or tensor.type, names)
    return _dispatch.run(op, out, (tensor,), axes=indices, keep_axes=bool(keep_axes))


def sum(tensor, axes=None, keep_axes=False):
    """Sums over `axes` (ints or names; None: all). Integers sum in at least 32 bits.

    >>> nbt.sum(nbt.tensor([[1, 2], [3, 4]], names=["x", "y"]), axes=["y"])
    numbat.Tensor<
      s32[x: 2]
      [3, 7]
    >
    >>> nbt.sum(nbt.tensor([[1, 2], [3, 4]]), axes=[0], keep_axes=True)
    numbat.Tensor<
      s32[1][2]
      [
        [4, 6]
      ]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    return _reduce("sum", tensor, axes, keep_axes, _types.to_aggregate(tensor.type))


def mean(tensor, axes=None, keep_axes=False):
    """The mean over `axes`: a float.

    >>> nbt.mean(nbt.tensor([[1, 2], [3, 4]], names=["x", "y"]), axes=["x"])
    numbat.Tensor<
      f32[y: 2]
      [2.0, 3.0]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    indices = _names.axes_indices(tensor.names, axes)
    count = 1
    for axis in indices:
        count *= tensor.shape[axis]
    total = _reduce("sum", tensor, axes, keep_axes, _types.to_floating(_types.to_aggregate(tensor.type)))
    from .elementwise import divide

    return divide(total, count)


def reduce_max(tensor, axes=None, keep_axes=False):
    """The largest element over `axes`.

    >>> nbt.reduce_max(nbt.tensor([[1, 5], [3, 2]], names=["x", "y"]), axes=["x"])
    numbat.Tensor<
      s32[y: 2]
      [3, 5]
    >
    """
    return _reduce("reduce_max", tensor, axes, keep_axes)


def reduce_min(tensor, axes=None, keep_axes=False):
    """The smallest element over `axes`.

    >>> nbt.reduce_min(nbt.tensor([[1.5, 5.0], [3.0, -2.0]]))
    numbat.Tensor<
      f32
      -2.0
    >
    """
    return _reduce("reduce_min", tensor, axes, keep_axes)


def _arg(op: str, tensor, axis, keep_axis: bool, tie_break: str):
    tensor = _dispatch.to_tensor(tensor)
    if tie_break not in ("low", "high"):
        raise ArgumentError(f'tie_break must be "low" or "high", got {tie_break!r}')
    if axis is None:
        shape, names, index = (
            ((1,) * tensor.rank if keep_axis else ()),
            ((None,) * tensor.rank if keep_axis else ()),
            None,
        )
    else:
        index = _names.axis_index(tensor.names, axis)
        shape = _shape.reduce(tensor.shape, (index,), keep_axis)
        names = tuple(n for i, n in enumerate(tensor.names) if keep_axis or i != index)
    out = Template(shape, _types.S32, names)
    return _dispatch.run(op, out, (tensor,), axis=index, keep_axis=bool(keep_axis), tie_break=tie_break)


def argmax(tensor, axis=None, keep_axis=False, tie_break="low"):
    """The index of the largest element along `axis` (None: of the flattened tensor);
    `tie_break` picks the "low" or "high" index among equal maxima.

    >>> t = nbt.tensor([[1, 3, 3], [4, 0, 4]], names=["x", "y"])
    >>> nbt.argmax(t, axis="y")
    numbat.Tensor<
      s32[x: 2]
      [1, 0]
    >
    >>> nbt.argmax(t, axis="y", tie_break="high")
    numbat.Tensor<
      s32[x: 2]
      [2, 2]
    >
    >>> nbt.argmax(t)
    numbat.Tensor<
      s32
      3
    >
    """
    return _arg("argmax", tensor, axis, keep_axis, tie_break)


def argmin(tensor, axis=None, keep_axis=False, tie_break="low"):
    """The index of the smallest element along `axis` (None: of the flattened tensor).

    >>> nbt.argmin(nbt.tensor([[2, 1], [0, 0]], names=["x", "y"]), axis="x", keep_axis=True)
    numbat.Tensor<
      s32[x: 1][y: 2]
      [
        [1, 1]
      ]
    >
    """
    return _arg("argmin", tensor, axis, keep_axis, tie_break)
