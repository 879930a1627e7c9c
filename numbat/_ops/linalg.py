"""Linear algebra: `dot`."""

from __future__ import annotations

from .. import _shape, _types
from ..backends._abstract import Template
from . import _dispatch


def dot(left, right):
    """Nx's dot: contracts the last axis of `left` with the first axis of a
    vector `right`, or its second-to-last axis otherwise; names of the
    remaining axes are kept.

    >>> nbt.dot(nbt.tensor([[1, 2], [3, 4]], names=["i", None]), nbt.tensor([[5, 6], [7, 8]], names=[None, "j"]))
    numbat.Tensor<
      s32[i: 2][j: 2]
      [
        [19, 22],
        [43, 50]
      ]
    >
    >>> nbt.dot(nbt.tensor([1.0, 2.0]), nbt.tensor([3, 4]))
    numbat.Tensor<
      f32
      11.0
    >
    """
    left, right = _dispatch.to_tensor(left), _dispatch.to_tensor(right)
    shape = _shape.dot(left.shape, right.shape)
    if not left.shape or not right.shape:
        names = left.names + right.names
    else:
        contracted = 0 if right.rank == 1 else right.rank - 2
        names = left.names[:-1] + tuple(n for i, n in enumerate(right.names) if i != contracted)
    out = Template(shape, _types.merge(left.type, right.type), names)
    return _dispatch.run("dot", out, (left, right))
