"""Statistics composed from the primitive ops, as Nx composes them: `all_close`,
`mean`, `variance`, `standard_deviation`, `weighted_mean`, `logsumexp`, `median`, `mode` and
`covariance`."""

from __future__ import annotations

from ..._core import _names, _shape, _types
from ..._core._errors import ArgumentError
from ..._tensor import _check
from .. import _dispatch
from ..primitive import elementwise as ew
from ..primitive import math as _math
from ..primitive import reduction
from ..primitive.bitwise import logical_and, logical_not, logical_or
from ..primitive.complex import conjugate
from ..primitive.creation import as_type, broadcast, iota
from ..primitive.cumulative import cumulative_sum
from ..primitive.elementwise import divide, subtract
from ..primitive.indexing import indexed_add, take_along_axis
from ..primitive.math import is_infinity, is_nan, sqrt, stop_grad
from ..primitive.products import dot
from ..primitive.reduction import all, argmax, shift_max, sum
from ..primitive.shape import concatenate, new_axis, rename, reshape, squeeze, transpose
from ..primitive.sort import sort
from .shape import slice_along_axis, stack


def all_close(a, b, rtol=1e-5, atol=1e-8, equal_nan=False):
    """1 if `|a - b| <= atol + rtol * |b|` everywhere (NaNs equal only with `equal_nan`), else 0 (u8).

    >>> nbt.all_close(nbt.tensor([1.0, 2.0]), nbt.tensor([1.0, 2.000001]))
    numbat.Tensor<
      u8
      1
    >
    >>> nbt.all_close(nbt.tensor([1.0, float("nan")]), nbt.tensor([1.0, float("nan")]), equal_nan=True)
    numbat.Tensor<
      u8
      1
    >
    """
    a, b = _dispatch.to_tensor(a), _dispatch.to_tensor(b)
    integers = a.type.is_integer and b.type.is_integer
    # Nx's rule: integers compare |b| in f64 (|-128| overflows s8); equal infinities are close
    # (inf - inf is NaN); NaNs are close to each other only with `equal_nan`.
    magnitude = _math.abs(as_type(b, _types.F64) if integers else b)
    close = ew.less_equal(_math.abs(ew.subtract(a, b)), ew.add(atol, ew.multiply(rtol, magnitude)))
    if not integers:
        close = ew.select(logical_or(is_infinity(a), is_infinity(b)), ew.equal(a, b), close)
        if equal_nan:
            close = logical_or(close, logical_and(is_nan(a), is_nan(b)))
    return all(close)


def mean(tensor, axes=None, keep_axes=False):
    """The mean over `axes`: a float.

    >>> nbt.mean(nbt.tensor([[1, 2], [3, 4]], names=["x", "y"]), axes=["x"])
    numbat.Tensor<
      f32[y: 2]
      [2.0, 3.0]
    >
    """
    return _mean(tensor, axes, keep_axes)


def _mean(tensor, axes, keep_axes):
    """`mean` under a name that `covariance`'s parameter `mean` does not hide."""
    tensor = _dispatch.to_tensor(tensor)
    count = 1
    for axis in _names.axes_indices(tensor.names, axes):
        count *= tensor.shape[axis]
    total = reduction.float_sum(tensor, axes, keep_axes)
    return divide(total, count)  # Nx's divide(sum, count): a complex Inf sum divides as sum(t) / n does


def variance(tensor, axes=None, keep_axes=False, ddof=0):
    """The variance over `axes`, dividing by `n - ddof`.

    >>> nbt.variance(nbt.tensor([[1, 2], [3, 4]]), axes=[0])
    numbat.Tensor<
      f32[2]
      [1.0, 1.0]
    >
    """
    ddof = _check.integer("variance", "ddof", ddof, minimum=0)
    tensor = _dispatch.to_tensor(tensor)
    indices = _names.axes_indices(tensor.names, axes)
    count = 1
    for axis in indices:
        count *= tensor.shape[axis]
    centered = ew.subtract(tensor, mean(tensor, axes=indices, keep_axes=True))
    total = sum(ew.multiply(centered, centered), axes=indices, keep_axes=keep_axes)
    return ew.divide(total, count - ddof)


def standard_deviation(tensor, axes=None, keep_axes=False, ddof=0):
    """The standard deviation over `axes` (the square root of `variance`).

    >>> nbt.standard_deviation(nbt.tensor([1, 2, 3, 4]))
    numbat.Tensor<
      f32
      1.118034
    >
    """
    return sqrt(variance(tensor, axes=axes, keep_axes=keep_axes, ddof=ddof))


def weighted_mean(tensor, weights, axes=None, keep_axes=False):
    """The mean over `axes` with each element weighted by `weights`, as Nx: `weights` has the
    tensor's shape, or (with `axes`) one weight per position of the aggregated axes, shape
    `[size of each axis in axes]`.

    >>> nbt.weighted_mean(nbt.tensor([1.0, 2.0, 3.0]), nbt.tensor([3, 1, 0]))
    numbat.Tensor<
      f32
      1.25
    >
    >>> nbt.weighted_mean(nbt.iota((3, 4)), nbt.tensor([1, 2, 3, 4]), axes=[1])
    numbat.Tensor<
      f32[3]
      [2.0, 6.0, 10.0]
    >
    """
    tensor, weights = _dispatch.to_tensor(tensor), _dispatch.to_tensor(weights)
    keep_axes = _check.boolean("weighted_mean", "keep_axes", keep_axes)
    if axes is not None:  # in the order given: Nx places the weights by the first axis
        axes = [_names.axis_index(tensor.names, axis) for axis in _check.sequence("weighted_mean", "axes", axes)]
    if tensor.shape != weights.shape:
        if axes is None:
            raise ArgumentError(
                f"weighted_mean: axes must be given when the weights' shape {weights.shape} differs "
                f"from the tensor's {tensor.shape}"
            )
        if weights.rank != len(axes):
            raise ArgumentError(
                f"weighted_mean: weights of shape {weights.shape} must have one axis per aggregated axis "
                f"{tuple(axes)} when their shape differs from the tensor's {tensor.shape}"
            )
        # Nx's placement: leading 1s, then the weights' axes, with the last axis swapped to axes[0].
        weights = reshape(weights, (1,) * (tensor.rank - len(axes)) + weights.shape)
        order = list(range(tensor.rank))
        order[axes[0]], order[-1] = order[-1], order[axes[0]]
        weights = transpose(weights, order)
    total = sum(ew.multiply(tensor, weights), axes=axes, keep_axes=keep_axes)
    return ew.divide(total, sum(weights, axes=axes, keep_axes=keep_axes))


def logsumexp(tensor, axes=None, keep_axes=False, exp_scaling_factor=None):
    """`log(sum(exp(tensor)))` over `axes`, computed without overflow; with
    `exp_scaling_factor` (a number or a tensor that broadcasts with `tensor`),
    `log(sum(exp_scaling_factor * exp(tensor)))`, as Nx.

    >>> nbt.logsumexp(nbt.tensor([1000.0, 1000.0], type="f64"))
    numbat.Tensor<
      f64
      1000.6931471805599
    >
    >>> nbt.logsumexp(nbt.tensor([0.0, 0.0]), exp_scaling_factor=nbt.tensor([1.0, 3.0]))
    numbat.Tensor<
      f32
      1.3862944
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    keep_axes = _check.boolean("logsumexp", "keep_axes", keep_axes)
    indices = _names.axes_indices(tensor.names, axes)
    top = shift_max(tensor, indices)

    top = stop_grad(ew.select(_isfinite(top), top, 0))
    exponentials = _math.exp(ew.subtract(tensor, top))
    if exp_scaling_factor is not None:
        exponentials = ew.multiply(exp_scaling_factor, exponentials)
    total = _math.log(sum(exponentials, axes=indices, keep_axes=True))
    result = ew.add(total, top)
    if not keep_axes:
        result = squeeze(result, axes=indices)
    return result


def _isfinite(tensor):
    return logical_not(is_infinity(tensor))


def median(tensor, axis=None, keep_axis=False):
    """The median along `axis` (None: of all elements): the middle element, or the mean
    of the two middle ones (a float) when the count is even, as in Nx.

    >>> nbt.median(nbt.tensor([[1, 2, 3], [4, 5, 6]], names=["x", "y"]), axis="y")
    numbat.Tensor<
      s32[x: 2]
      [2, 5]
    >
    >>> nbt.median(nbt.tensor([[1, 2, 3], [4, 5, 6]], names=["x", "y"]), axis="x")
    numbat.Tensor<
      f32[y: 3]
      [2.5, 3.5, 4.5]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    keep_axis = _check.boolean("median", "keep_axis", keep_axis)
    if axis is None:
        tensor = reshape(tensor, (tensor.size,))
        index = 0
    else:
        index = _names.axis_index(tensor.names, axis)
    size = tensor.shape[index]
    if size == 0:
        raise ArgumentError(f"median of an empty axis {index} (shape {tensor.shape})")
    ordered = sort(tensor, axis=index)
    middle = slice_along_axis(ordered, (size - 1) // 2, 1, axis=index)
    if size % 2 == 0:
        upper = slice_along_axis(ordered, size // 2, 1, axis=index)
        middle = ew.divide(ew.add(middle, upper), 2)
    if keep_axis and axis is not None:
        return middle
    return squeeze(middle, axes=[index]) if axis is not None else reshape(middle, ())


def mode(tensor, axis=None, keep_axis=False):
    """The most frequent value along `axis` (None: of all elements); the smallest of
    equally frequent values, as in Nx.

    >>> nbt.mode(nbt.tensor([[1, 2, 2, 3, 5], [1, 1, 76, 8, 1]]), axis=1)
    numbat.Tensor<
      s32[2]
      [2, 1]
    >
    >>> nbt.mode(nbt.tensor([[1, 2, 2, 3, 5], [1, 1, 76, 8, 1]]))
    numbat.Tensor<
      s32
      1
    >
    >>> nbt.mode(nbt.tensor([[1, 2], [2, 1]], names=["x", "y"]), axis="x", keep_axis=True)
    numbat.Tensor<
      s32[x: 1][y: 2]
      [
        [1, 1]
      ]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    keep_axis = _check.boolean("mode", "keep_axis", keep_axis)
    if tensor.type.is_complex:
        raise ArgumentError(f"mode is not defined for complex tensors, got {tensor.type}")
    if tensor.size == 0:
        raise ArgumentError(f"mode of an empty tensor (shape {tensor.shape})")
    if tensor.rank == 0 and axis is None:  # Nx: a scalar is its own mode, with keep_axis a [1] tensor
        return new_axis(tensor, 0) if keep_axis else tensor
    if axis is None:
        shape, names = ((1,) * tensor.rank, (None,) * tensor.rank) if keep_axis else ((), ())
        rows = reshape(tensor, (1, tensor.size))
    else:
        index = _names.axis_index(tensor.names, axis)
        shape = _shape.reduce(tensor.shape, (index,), keep_axis)
        names = tuple(n for i, n in enumerate(tensor.names) if keep_axis or i != index)
        order = [i for i in range(tensor.rank) if i != index] + [index]
        rows = reshape(transpose(tensor, order), (-1, tensor.shape[index]))
    # Nx's algorithm: sort each row, number its runs of equal values, count each run with a
    # scatter-add, and take the first element of the longest run (the smallest on ties).
    count, length = rows.shape
    ordered = sort(rows, axis=1)
    changes = ew.not_equal(
        slice_along_axis(ordered, 1, length - 1, axis=1), slice_along_axis(ordered, 0, length - 1, axis=1)
    )
    runs = cumulative_sum(concatenate([broadcast(0, (count, 1)), as_type(changes, "s32")], axis=1), axis=1)
    row_index = iota((count, length), axis=0)
    indices = reshape(stack([row_index, runs], axis=2), (count * length, 2))
    sizes = indexed_add(broadcast(0, (count, length)), indices, broadcast(1, (count * length,)))
    longest = argmax(sizes, axis=1, keep_axis=True)
    first = argmax(ew.equal(runs, longest), axis=1, keep_axis=True)
    result = take_along_axis(ordered, first, axis=1)
    return reshape(result, shape, names=list(names))


def covariance(tensor, mean=None, ddof: int = 0):
    """The covariance matrix of the columns of `tensor` ([..., samples, features] gives
    [..., features, features]), as Nx: about `mean` (shape [..., features]; default the
    columns' mean), divided by `samples - ddof`; complex tensors use the conjugate.

    >>> nbt.covariance(nbt.tensor([[1.0, 2.0], [3.0, 6.0]]))
    numbat.Tensor<
      f32[2][2]
      [
        [1.0, 2.0],
        [2.0, 4.0]
      ]
    >
    >>> nbt.covariance(nbt.tensor([[1, 2], [3, 4], [5, 8]]), nbt.tensor([3, 4]), ddof=1)
    numbat.Tensor<
      f32[2][2]
      [
        [4.0, 6.0],
        [6.0, 10.0]
      ]
    >
    """
    ddof = _check.integer("covariance", "ddof", ddof, minimum=0)
    tensor = _dispatch.to_tensor(tensor)
    if tensor.rank < 2:
        raise ArgumentError(f"covariance needs [..., samples, features], got shape {tensor.shape}")
    if mean is None:
        mean = _mean(tensor, [tensor.rank - 2], False)
    mean = _dispatch.to_tensor(mean, tensor.backend)
    if mean.rank == 0:
        raise ArgumentError("covariance: the mean must have rank at least 1 ([..., features]), got a scalar")
    centered = subtract(tensor, new_axis(mean, mean.rank - 1))  # a batched mean adds batch axes, as in Nx
    centered = rename(centered, [None] * centered.rank)
    left = conjugate(centered) if centered.type.is_complex else centered
    rank = centered.rank
    batch = list(range(rank - 2))
    product = dot(left, centered, contract_axes=([rank - 2], [rank - 2]), batch_axes=(batch, batch))
    return divide(product, centered.shape[-2] - ddof)
