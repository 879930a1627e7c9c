"""Sorting: `sort`, `argsort` and `top_k`, in Nx's order: NaN sorts higher than everything
else, Inf included (last ascending, first descending); -0.0 equals 0.0. numbat's sorts are
always stable (equal elements keep their order in either direction), so `stable=False`
(Nx's default, "any order of equals") gives the same answer as `stable=True`.

The family's rule: an op orders the elements along an axis, in Nx's order, and gives
the ordered values, their indices, or the first `k` of them.
"""

from __future__ import annotations

from ..._core import _names, _types
from ..._core._errors import ArgumentError
from ..._tensor._tensor import Template
from .. import _dispatch


def _direction(direction: str, stable, tensor, op: str) -> bool:
    if not isinstance(direction, str) or direction not in ("asc", "desc"):
        raise ArgumentError(f'{op}: direction must be "asc" or "desc", got {direction!r}')
    if not isinstance(stable, bool):
        raise ArgumentError(f"{op}: stable must be True or False, got {stable!r}")
    if tensor.type.is_complex:
        raise ArgumentError(f"{op}: complex tensors have no order (got {tensor.type}); sort their real part or abs")
    return direction == "desc"


def sort(tensor, axis=0, direction="asc", stable=False):
    """The elements sorted along `axis` (an int or name), `direction` "asc" or "desc".
    NaN sorts higher than everything else, infinities included, as in Nx:

    >>> t = nbt.tensor([float("nan"), -float("inf"), 0.0, float("inf")])
    >>> nbt.sort(t)
    numbat.Tensor<
      f32[4]
      [-Inf, 0.0, Inf, NaN]
    >
    >>> nbt.sort(t, direction="desc")
    numbat.Tensor<
      f32[4]
      [NaN, Inf, 0.0, -Inf]
    >
    >>> nbt.sort(nbt.tensor([0, 127, -128, 5], type="s8"), direction="desc")
    numbat.Tensor<
      s8[4]
      [127, 5, 0, -128]
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
    descending = _direction(direction, stable, tensor, "sort")
    index = _names.axis_index(tensor.names, axis)
    out = Template(tensor.shape, tensor.type, tensor.names)
    return _dispatch.run("sort", out, (tensor,), axis=index, descending=descending)


def argsort(tensor, axis=0, direction="asc", stable=False, type="s32"):
    """The indices (of integer type `type`) that sort `tensor` along `axis`, in `sort`'s
    order; equal elements keep their order.

    >>> nbt.argsort(nbt.tensor([3, 1, 2, 1]))
    numbat.Tensor<
      s32[4]
      [1, 3, 2, 0]
    >
    >>> nbt.argsort(nbt.tensor([float("nan"), -float("inf"), float("inf"), 0.0]), direction="desc")
    numbat.Tensor<
      s32[4]
      [0, 2, 3, 1]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    descending = _direction(direction, stable, tensor, "argsort")
    index = _names.axis_index(tensor.names, axis)
    type_ = _types.parse(type)
    if not type_.is_integer:
        raise ArgumentError(f"argsort: type must be an integer type, got {type_}")
    out = Template(tensor.shape, type_, tensor.names)
    return _dispatch.run("argsort", out, (tensor,), axis=index, descending=descending)


def top_k(tensor, k=1):
    """The `k` largest elements along the last axis and their indices, as `(values, indices)`,
    in `argsort`'s descending order: NaN is the largest, equal elements keep their order.
    On XLA it is a partial selection (`lax.top_k`), not a sort of the whole axis.

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
    >>> nbt.top_k(nbt.tensor([1.0, 3.0, float("nan"), 3.0, -0.0, 0.0]), k=6)[1]
    numbat.Tensor<
      s32[6]
      [2, 1, 3, 0, 4, 5]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    if tensor.rank == 0 or not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= tensor.shape[-1]:
        raise ArgumentError(f"top_k: k must be between 1 and the last axis' size, got k={k!r} for {tensor.shape}")
    _direction("desc", False, tensor, "top_k")
    shape = tensor.shape[:-1] + (k,)
    values = _dispatch.run("top_k", Template(shape, tensor.type, tensor.names), (tensor,), k=k, part=0)
    indices = _dispatch.run("top_k", Template(shape, _types.parse("s32"), tensor.names), (tensor,), k=k, part=1)
    return values, indices
