"""Reductions over axes given as ints or names: sum, product, reduce_max/min,
argmax/argmin, all/any, and reduce with a function.

The family's rule: an op combines the elements along some axes into one element each.
"""

from __future__ import annotations

from ..._core import _names, _op_table, _shape, _types
from ..._core._errors import ArgumentError
from ..._tensor import _check
from ..._tensor._tensor import Template
from .. import _dispatch


def _reduce(op: str, tensor, axes, keep_axes: bool, type_=None, **params):
    tensor = _dispatch.to_tensor(tensor)
    entry = _op_table.REDUCTIONS.get(op)
    if tensor.type.is_complex and entry is not None and entry.real_only:
        raise ArgumentError(f"{op} is not defined for complex tensors, got {tensor.type}")
    indices = _names.axes_indices(tensor.names, axes)
    keep_axes = _check.boolean(op, "keep_axes", keep_axes)
    shape = _shape.reduce(tensor.shape, indices, keep_axes)
    names = tuple(n for i, n in enumerate(tensor.names) if keep_axes or i not in indices)
    out = Template(shape, type_ or tensor.type, names)
    return _dispatch.run(op, out, (tensor,), axes=indices, keep_axes=keep_axes, **params)


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


def float_sum(tensor, axes=None, keep_axes=False):
    """The sum over `axes` computed in the tensor's float type (integers in f32), as `mean`
    (`composite/statistics.py`) sums before it divides.

    >>> from numbat._ops.primitive.reduction import float_sum
    >>> float_sum(nbt.tensor([[1, 2], [3, 4]], names=["x", "y"]), axes=["x"])
    numbat.Tensor<
      f32[y: 2]
      [4.0, 6.0]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    return _reduce("sum", tensor, axes, keep_axes, _types.to_floating(_types.to_aggregate(tensor.type)))


def reduce_max(tensor, axes=None, keep_axes=False):
    """The largest element over `axes`.

    >>> nbt.reduce_max(nbt.tensor([[1, 5], [3, 2]], names=["x", "y"]), axes=["x"])
    numbat.Tensor<
      s32[y: 2]
      [3, 5]
    >
    """
    return _reduce("reduce_max", tensor, axes, keep_axes)


def shift_max(tensor, axes):
    """The largest element over `axes`, kept as axes of size 1, for shifting `tensor`
    before an `exp` (logsumexp): a group holding a NaN may get any value, since the NaN
    reaches the caller's result anyway, so XLA's CPU backend skips `reduce_max`'s NaN check
    (`test_logsumexp_of_many_values_keeps_a_nan_without_the_check`).
    """
    return _reduce("reduce_max", tensor, axes, True, for_shift=True)


def reduce_min(tensor, axes=None, keep_axes=False):
    """The smallest element over `axes`.

    >>> nbt.reduce_min(nbt.tensor([[1.5, 5.0], [3.0, -2.0]]))
    numbat.Tensor<
      f32
      -2.0
    >
    """
    return _reduce("reduce_min", tensor, axes, keep_axes)


def _arg(op: str, tensor, axis, keep_axis: bool, tie_break: str, type="s32"):
    tensor = _dispatch.to_tensor(tensor)
    if tensor.type.is_complex:
        raise ArgumentError(f"{op} is not defined for complex tensors, got {tensor.type}")
    if tensor.size == 0:
        raise ArgumentError(f"{op} of an empty tensor (shape {tensor.shape}) has no answer")
    tie_break = _check.choice(op, "tie_break", tie_break, ("low", "high"))
    keep_axis = _check.boolean(op, "keep_axis", keep_axis)
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
    type_ = _types.parse(type)
    if not type_.is_integer:
        raise ArgumentError(f"{op}: type must be an integer type, got {type_}")
    out = Template(shape, type_, names)
    return _dispatch.run(op, out, (tensor,), axis=index, keep_axis=keep_axis, tie_break=tie_break)


def argmax(tensor, axis=None, keep_axis=False, tie_break="low", type="s32"):
    """The index of the largest element along `axis` (None: of the flattened tensor);
    `tie_break` picks the "low" or "high" index among equal maxima; `type` is the
    indices' integer type (s32 by default, as in Nx).

    >>> t = nbt.tensor([[1, 3, 3], [4, 0, 4]], names=["x", "y"])
    >>> nbt.argmax(t, axis="y")
    numbat.Tensor<
      s32[x: 2]
      [1, 0]
    >
    >>> nbt.argmax(t, axis="y", tie_break="high", type="u8")
    numbat.Tensor<
      u8[x: 2]
      [2, 2]
    >
    >>> nbt.argmax(t)
    numbat.Tensor<
      s32
      3
    >
    """
    return _arg("argmax", tensor, axis, keep_axis, tie_break, type)


def argmin(tensor, axis=None, keep_axis=False, tie_break="low", type="s32"):
    """The index of the smallest element along `axis` (None: of the flattened tensor).

    >>> nbt.argmin(nbt.tensor([[2, 1], [0, 0]], names=["x", "y"]), axis="x", keep_axis=True)
    numbat.Tensor<
      s32[x: 1][y: 2]
      [
        [1, 1]
      ]
    >
    """
    return _arg("argmin", tensor, axis, keep_axis, tie_break, type)


def product(tensor, axes=None, keep_axes=False):
    """Multiplies over `axes`. Integers multiply in at least 32 bits.

    >>> nbt.product(nbt.tensor([[1, 2], [3, 4]], names=["x", "y"]), axes=["y"])
    numbat.Tensor<
      s32[x: 2]
      [2, 12]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    return _reduce("product", tensor, axes, keep_axes, _types.to_aggregate(tensor.type))


def all(tensor, axes=None, keep_axes=False):
    """1 if every element over `axes` is non-zero, else 0 (u8).

    >>> nbt.all(nbt.tensor([[1, 0], [2, 3]]), axes=[1])
    numbat.Tensor<
      u8[2]
      [0, 1]
    >
    """
    return _reduce("all", tensor, axes, keep_axes, _types.U8)


def any(tensor, axes=None, keep_axes=False):
    """1 if any element over `axes` is non-zero, else 0 (u8).

    >>> nbt.any(nbt.tensor([[0, 0], [0, 3]]), axes=[1])
    numbat.Tensor<
      u8[2]
      [0, 1]
    >
    """
    return _reduce("any", tensor, axes, keep_axes, _types.U8)


def reduce(tensor, acc, fun, axes=None, keep_axes=False, type=None):
    """Reduces `axes` with `fun(a, b)`, a function of two numbat tensors, starting from
    the scalar `acc` (Nx's `reduce(tensor, acc, opts, fun)`). `fun` must be associative
    and commutative, as the order of its calls is not specified; on the NumPy backend it
    is called on whole slices, so it must be element-wise (as numbat ops are).

    >>> t = nbt.tensor([[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]], names=["x", "y", "z"])
    >>> nbt.reduce(t, 0, nbt.add, axes=["x", 2])
    numbat.Tensor<
      s32[y: 2]
      [30, 48]
    >
    >>> nbt.reduce(nbt.tensor([[1.0, 2.0], [3.0, 4.0]]), 1, lambda a, b: a * b)
    numbat.Tensor<
      f32
      24.0
    >
    """
    if not callable(fun):
        raise ArgumentError(f"reduce: fun must be a function of two tensors, got {fun!r}")
    tensor = _dispatch.to_tensor(tensor)
    if _types.is_number(acc):
        type_ = _types.merge_number(tensor.type, acc)
    else:
        acc = _dispatch.to_tensor(acc, tensor.backend)
        if acc.shape != ():
            raise ArgumentError(f"reduce: the accumulator must be a scalar, got shape {acc.shape}")
        type_ = _types.merge(tensor.type, acc.type)
    if type is not None:
        type_ = _types.parse(type)
    if _types.is_number(acc):
        acc = _dispatch.scalar(acc, type_, tensor.backend)
    indices = _names.axes_indices(tensor.names, axes)
    names = tuple(n for i, n in enumerate(tensor.names) if keep_axes or i not in indices)
    out = Template(_shape.reduce(tensor.shape, indices, keep_axes), type_, names)
    return _dispatch.run("reduce", out, (tensor, acc), fun=fun, axes=indices, keep_axes=bool(keep_axes))
