"""Creating tensors: `iota`, `eye`, `broadcast`, `template`, `as_type`, `bitcast`, `to_number`
(`nbt.tensor` itself is in `numbat._ops._convert`).

The family's rule: an op makes a tensor from a shape or a value (iota, eye, broadcast), or gives
one tensor's elements another type (as_type, bitcast).
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence

import jax
import numpy as np

from ..._core import _format, _names, _types
from ..._core._errors import ArgumentError
from ..._tensor import _check
from ..._tensor._tensor import Template, Tensor, check_concrete
from ...backends import _allocation, _default
from .. import _dispatch, _vectorized
from .._convert import tensor as _new_tensor  # named so for functions whose argument is `tensor`
from .shape import reshape


def template(shape: Sequence[int], type="f32", names=None) -> Template:
    """A tensor's shape, type and names with no data, for `nbt.compile`.

    >>> nbt.template((3,), "s32")
    Template(shape=(3,), type=Type('s', 32), names=(None,))
    """
    out = _template(shape, type, names)
    _allocation.check_extent("template", out)  # what XLA would abort on when it compiles for it
    return out


def _template(shape, type, names) -> Template:
    """The template of a creation op (its allocation guard checks it when the op runs)."""
    shape = check_shape(shape)
    return Template(shape, _types.parse(type), _names.normalize(names, len(shape)))


def check_shape(shape) -> tuple:
    if isinstance(shape, (int, str, bytes)) or not isinstance(shape, Sequence):
        raise ArgumentError(f"a shape is a tuple of non-negative ints, got {shape!r}")
    shape = tuple(shape)
    if not builtins.all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) and 0 <= s < 2**63 for s in shape):
        raise ArgumentError(f"a shape is a tuple of non-negative ints (below 2**63), got {shape!r}")
    return tuple(int(s) for s in shape)


def iota(shape, axis=None, type="s32", names=None, backend=None, vectorized_axes=None) -> Tensor:
    """Counts up from 0 along `axis` (an int or name), or over all elements when `axis` is None.
    With `vectorized_axes` (`(name, size)` pairs or a dict), the result is vectorized
    over them, every entry the same iota, as in Nx.

    >>> nbt.iota((2, 3), axis=1)
    numbat.Tensor<
      s32[2][3]
      [
        [0, 1, 2],
        [0, 1, 2]
      ]
    >
    >>> nbt.iota((4,), type="f32")
    numbat.Tensor<
      f32[4]
      [0.0, 1.0, 2.0, 3.0]
    >
    >>> nbt.iota((3,), vectorized_axes={"x": 2})
    numbat.Tensor<
      vectorized[x: 2]
      s32[3]
      [
        [0, 1, 2],
        [0, 1, 2]
      ]
    >
    """
    out = _template(shape, type, names)
    index = None if axis is None else _names.axis_index(out.names, axis)
    result = _dispatch.run("iota", out, (), _default.resolve(backend), axis=index)
    return _vectorized_over(result, vectorized_axes, "iota")


def eye(shape, type="s32", names=None, backend=None, vectorized_axes=None) -> Tensor:
    """The identity matrix (ones on the diagonal of the last two axes). With
    `vectorized_axes` (`(name, size)` pairs or a dict), the result is vectorized over
    them, every entry the same; then, as in Nx, a shape of rank 1 is allowed and gives
    the first row of the identity matrix.

    >>> nbt.eye((2, 2))
    numbat.Tensor<
      s32[2][2]
      [
        [1, 0],
        [0, 1]
      ]
    >
    """
    if isinstance(shape, int):
        shape = (shape, shape)
    out = _template(shape, type, names)
    if vectorized_axes and len(out.shape) == 1:  # Nx: the first row of an identity matrix
        row = eye((1, out.shape[0]), type=type, backend=backend)
        return _vectorized_over(reshape(row, out.shape, out.names), vectorized_axes, "eye")
    if len(out.shape) < 2:
        raise ArgumentError(f"eye needs a shape of rank 2 or more, got {out.shape}")
    result = _dispatch.run("eye", out, (), _default.resolve(backend))
    return _vectorized_over(result, vectorized_axes, "eye")


def _vectorized_over(tensor: Tensor, axes, function: str) -> Tensor:
    """`tensor` repeated over the vectorized axes `axes` (`(name, size)` pairs or a dict)."""
    if axes is None or (isinstance(axes, (list, tuple, dict)) and not axes):
        return tensor
    pairs = _vectorized.pairs(function, axes, auto=False)
    sizes = tuple(size for _, size in pairs)
    whole = broadcast(tensor, sizes + tensor.shape, names=(None,) * len(sizes) + tensor.names)
    return _vectorized.over_leading_axes(whole, pairs)


def broadcast(tensor, shape, axes=None, names=None) -> Tensor:
    """Broadcasts `tensor` to `shape` (a tuple, or a tensor whose shape and names are
    taken); `axes` says which axes of `shape` the tensor's axes map to (default: the
    trailing ones). As in Nx, broadcasting drops the tensor's names: the result has
    `names`, else the shape tensor's names, else none.

    >>> nbt.broadcast(nbt.iota((2, 2), names=["x", "y"]), (2, 2)).names
    (None, None)

    >>> nbt.broadcast(nbt.tensor([1, 2]), (2, 2), names=["x", "y"])
    numbat.Tensor<
      s32[x: 2][y: 2]
      [
        [1, 2],
        [1, 2]
      ]
    >
    >>> nbt.broadcast(nbt.tensor([1, 2]), (2, 2), axes=[0])
    numbat.Tensor<
      s32[2][2]
      [
        [1, 1],
        [2, 2]
      ]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    if isinstance(shape, Tensor):  # as Nx: a tensor gives its shape and, without names, its names
        names = shape.names if names is None else names
        shape = shape.shape
    shape = check_shape(shape)
    if axes is None:
        axes = tuple(range(len(shape) - tensor.rank, len(shape)))
    else:
        axes = _check.sequence("broadcast", "axes", axes, of="axis positions")
    if not builtins.all(isinstance(a, int) and not isinstance(a, bool) for a in axes):
        raise ArgumentError(f"broadcast axes must be ints, got {list(axes)!r}")
    axes = tuple(a + len(shape) if -len(shape) <= a < 0 else a for a in axes)  # negative axes count from the end
    if len(axes) != tensor.rank or sorted(axes) != list(axes) or any(not 0 <= a < len(shape) for a in axes):
        raise ArgumentError(f"broadcast axes {list(axes)} must be {tensor.rank} increasing axes of shape {shape}")
    for size, axis in zip(tensor.shape, axes):
        if size not in (1, shape[axis]):
            raise ArgumentError(f"cannot broadcast axis of size {size} to axis {axis} of size {shape[axis]} in {shape}")
    out = Template(shape, tensor.type, _names.normalize(names, len(shape)))
    return _dispatch.run("broadcast", out, (tensor,), axes=axes)


def as_type(tensor, type) -> Tensor:
    """Converts `tensor` to `type` with Nx's rules: floats to integers truncate toward
    zero and saturate (NaN becomes 0, Inf and values too large the type's maximum, -Inf
    and values too small its minimum); complex to real keeps the real part. A number is
    `nbt.tensor(number, type=type)`, so it keeps every digit the type can hold.

    >>> nbt.as_type(nbt.tensor([1.5, -2.5]), "s32")
    numbat.Tensor<
      s32[2]
      [1, -2]
    >
    >>> nbt.as_type(nbt.tensor([float("inf"), float("nan"), float("-inf"), 300.0]), "u8")
    numbat.Tensor<
      u8[4]
      [255, 0, 0, 255]
    >
    >>> nbt.as_type(nbt.tensor([-1 + 2j, 3 - 4j]), "s64")
    numbat.Tensor<
      s64[2]
      [-1, 3]
    >
    >>> nbt.as_type(1.0e-128, "f64")
    numbat.Tensor<
      f64
      1.0e-128
    >
    """
    if _types.is_number(tensor):  # Nx: an alias of tensor(number, type: type), never through f32
        return _new_tensor(tensor, type=type)
    tensor = _dispatch.to_tensor(tensor)
    out = Template(tensor.shape, _types.parse(type), tensor.names)
    return _dispatch.run("as_type", out, (tensor,))


def to_number(tensor) -> int | float | complex:
    """The single value of a rank-0 (or size-1) tensor as a Python number.

    >>> nbt.to_number(nbt.sum(nbt.tensor([1, 2, 3])))
    6
    """
    tensor = _dispatch.to_tensor(tensor)
    check_concrete(tensor, "read the value (nbt.to_number) of")
    if tensor.size != 1 or tensor.vectorized_axes:
        raise ArgumentError(f"to_number needs a tensor with one element, got {_format.describe(tensor)}")
    return tensor.to_numpy().reshape(()).item()


def to_tensor(value) -> Tensor:
    """`value` as a tensor, the way every op converts its arguments: a tensor is returned
    as it is, a number becomes a scalar of its inferred type, and a NumPy or JAX array
    keeps its shape and dtype (on the default backend). A list is refused, as in Nx:
    `nbt.tensor` reads nested lists.

    >>> nbt.to_tensor(2.5)
    numbat.Tensor<
      f32
      2.5
    >
    >>> t = nbt.iota((2,))
    >>> nbt.to_tensor(t) is t
    True
    >>> nbt.to_tensor(np.array([1.0, 2.0]))
    numbat.Tensor<
      f64[2]
      [1.0, 2.0]
    >
    """
    if not isinstance(value, (Tensor, np.ndarray, jax.Array)) and not _types.is_number(value):
        raise ArgumentError(
            f"to_tensor converts numbers, tensors and NumPy or JAX arrays, got {type(value).__name__}; "
            "build a tensor from nested lists with nbt.tensor"
        )
    return _dispatch.to_tensor(value)


def bitcast(tensor, type):
    """The same bits read as another type of the same width.

    >>> nbt.bitcast(nbt.tensor([1.0], type="f32"), "u32")
    numbat.Tensor<
      u32[1]
      [1065353216]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    target = _types.parse(type)
    if target.bits != tensor.type.bits or target.is_complex != tensor.type.is_complex:
        raise ArgumentError(f"bitcast needs a type of the same width: {tensor.type} cannot become {target}")
    return _dispatch.run("bitcast", Template(tensor.shape, target, tensor.names), (tensor,))
