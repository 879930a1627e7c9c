"""Creating tensors: `tensor`, `iota`, `eye`, `broadcast`, `template`, `as_type`, `to_number`."""

from __future__ import annotations

import builtins
from collections.abc import Sequence

import jax
import ml_dtypes
import numpy as np

from .. import _check, _expr, _format, _names, _types
from .._errors import ArgumentError
from .._tensor import Tensor
from ..backends import _default
from ..backends._abstract import Template
from . import _dispatch


def tensor(data, type=None, names=None, backend=None) -> Tensor:
    """A tensor from a number, a nested list, a NumPy array or a `jax.Array`.

    Python ints give s32 (s64 beyond its range), floats f32, booleans u8,
    complex c64; NumPy and JAX arrays keep their dtype.

    >>> nbt.tensor([[1, 2], [3, 4]], names=["x", "y"])
    numbat.Tensor<
      s32[x: 2][y: 2]
      [
        [1, 2],
        [3, 4]
      ]
    >
    >>> nbt.tensor([1, 2, 3.0])
    numbat.Tensor<
      f32[3]
      [1.0, 2.0, 3.0]
    >
    >>> nbt.tensor([[1, 2], [3]])
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: ragged nested list: item [1] has length 1, expected 2 like item [0]
    """
    backend = _default.resolve(backend)
    if isinstance(data, Tensor):
        return _transfer(_from_tensor(data, type, names), backend)
    if isinstance(data, Template):
        raise ArgumentError(
            f"a template ({data}) has no data, so ops cannot run on it; pass it to nbt.compile or "
            "nbt.xla.to_mlir_module, or build a tensor with nbt.broadcast(0, shape)"
        )
    requested = None if type is None else _types.parse(type)
    array, inferred = _host_array(data, requested)
    type_ = inferred if requested is None else requested
    if type_.is_integer and array.dtype.kind in "fc" and not isinstance(data, (np.ndarray, jax.Array)):
        raise ArgumentError(
            f"cannot build a {type_} tensor from floats in {_preview(data)}; pass integers or a float type"
        )
    out = Template(array.shape, type_, _names.normalize(names, array.ndim))
    if type_.kind == "f8_e4m3fn" and array.dtype.kind == "f":  # no infinities: saturate, as Nx does
        finite_max = float(ml_dtypes.finfo(type_.dtype).max)
        array = np.where(np.isnan(array), array, np.clip(array, -finite_max, finite_max))
    with np.errstate(over="ignore"):  # a float beyond the type's range is an infinity, as in Nx
        array = array.astype(type_.dtype, copy=False)
    result = backend.from_numpy(out, array)
    recorder = _expr.current()
    if recorder is not None:  # inside a defn: a constant of the graph, with its values
        recorder.constant(result, array)
    return result


_new_tensor = tensor  # for functions whose argument is named `tensor`


def _from_tensor(tensor: Tensor, type, names) -> Tensor:
    """Nx 0.13's `tensor(tensor)`: the type must match, given names must agree with the
    tensor's (they replace them), and without names the result has none."""
    if type is not None and _types.parse(type) != tensor.type:
        raise ArgumentError(
            f"tensor expects a tensor of type {_types.parse(type)} but was given one of type {tensor.type}; "
            "use nbt.as_type to convert"
        )
    if names is None:
        return Tensor(tensor.data, tensor.type, (None,) * tensor.rank, tensor.backend)
    names = _names.normalize(names, tensor.rank)
    for axis, (old, new) in enumerate(zip(tensor.names, names)):
        if old is not None and new is not None and old != new:
            raise ArgumentError(f"tensor: name {new!r} for axis {axis} conflicts with the tensor's name {old!r}")
    return Tensor(tensor.data, tensor.type, names, tensor.backend)


def _transfer(tensor: Tensor, backend) -> Tensor:
    from ..backends import backend_transfer

    return backend_transfer(tensor, backend)


def _host_array(data, requested: _types.Type | None = None) -> tuple[np.ndarray, _types.Type]:
    """A host array for `data` and the Nx type `data` implies; Python ints keep their exact
    value (s64 or u64) unless `requested` is a float or complex type."""
    if isinstance(data, (np.ndarray, np.generic, jax.Array)):
        array = np.asarray(data)
        return array, _types.of_dtype(array.dtype)
    if isinstance(data, (list, tuple)):
        _check.nesting("tensor: data", data)  # before the recursive checks below
        _check_rectangular(data, ())
    elif not _types.is_number(data):
        raise ArgumentError(f"cannot build a tensor from {builtins.type(data).__name__} {_preview(data)}")
    try:
        array = np.asarray(data)
    except OverflowError:
        array = np.asarray(data, dtype=object)
    if array.dtype.kind == "O" or (array.dtype.kind == "f" and array.size and np.abs(array).max() >= 2**63):
        # NumPy holds ints from 2**63 mixed with smaller ones as floats (or objects): keep them exact
        objects = np.asarray(data, dtype=object)
        if requested is not None and not requested.is_integer:
            array = objects.astype(np.complex128 if requested.is_complex else np.float64)
        elif all(isinstance(item, (int, np.integer)) and not isinstance(item, bool) for item in objects.flat):
            array = _int_array(objects, data)
    if array.dtype.kind not in "biufc":
        raise ArgumentError(f"a tensor holds numbers, got {_preview(data)}")
    if array.dtype.kind in "iu":
        fits_s32 = array.size == 0 or (array.min() >= -(2**31) and array.max() < 2**31)
        return array, _types.S32 if fits_s32 else _types.of_dtype(array.dtype)
    return array, {"b": _types.U8, "f": _types.F32, "c": _types.C64}[array.dtype.kind]


def _int_array(array: np.ndarray, data) -> np.ndarray:
    """Python ints as s64 or u64, whichever holds them all; else the largest type's range."""
    low, high = min(array.flat, default=0), max(array.flat, default=0)
    if low >= -(2**63) and high < 2**63:
        return array.astype(np.int64)
    if low >= 0 and high < 2**64:
        return array.astype(np.uint64)
    raise ArgumentError(
        f"the integer {high if high >= 2**63 else low} in {_preview(data)} is out of range for every Nx type: "
        f"the largest integer types hold s64 {-(2**63)}..{2**63 - 1} and u64 0..{2**64 - 1} "
        "(ints mixing negatives and values from 2**63 fit neither); pass type='f64' for an approximation"
    )


def _check_rectangular(data: Sequence, where: tuple) -> int:
    """Checks nested lists are rectangular; returns the depth."""
    if not data or not isinstance(data[0], (list, tuple)):
        for i, item in enumerate(data):
            if isinstance(item, (list, tuple)):
                raise ArgumentError(
                    f"ragged nested list: item {list(where + (i,))} is a list where numbers were expected"
                )
        return 1
    expected = len(data[0])
    for i, item in enumerate(data):
        if not isinstance(item, (list, tuple)):
            raise ArgumentError(f"ragged nested list: item {list(where + (i,))} is {item!r} where a list was expected")
        if len(item) != expected:
            raise ArgumentError(
                f"ragged nested list: item {list(where + (i,))} has length {len(item)}, "
                f"expected {expected} like item {list(where + (0,))}"
            )
    depths = {_check_rectangular(item, where + (i,)) for i, item in enumerate(data)}
    return 1 + depths.pop()


def _preview(data) -> str:
    text = repr(data)
    return text if len(text) <= 60 else text[:57] + "..."


def template(shape: Sequence[int], type="f32", names=None) -> Template:
    """A tensor's shape, type and names with no data, for `nbt.compile`.

    >>> nbt.template((3,), "s32")
    Template(shape=(3,), type=Type('s', 32), names=(None,))
    """
    shape = _check_shape(shape)
    return Template(shape, _types.parse(type), _names.normalize(names, len(shape)))


def _check_shape(shape) -> tuple:
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
    out = template(shape, type, names)
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
    out = template(shape, type, names)
    if vectorized_axes and len(out.shape) == 1:  # Nx: the first row of an identity matrix
        from .shape import reshape

        row = eye((1, out.shape[0]), type=type, backend=backend)
        return _vectorized_over(reshape(row, out.shape, names=out.names), vectorized_axes, "eye")
    if len(out.shape) < 2:
        raise ArgumentError(f"eye needs a shape of rank 2 or more, got {out.shape}")
    result = _dispatch.run("eye", out, (), _default.resolve(backend))
    return _vectorized_over(result, vectorized_axes, "eye")


def _vectorized_over(tensor: Tensor, axes, function: str) -> Tensor:
    """`tensor` repeated over the vectorized axes `axes` (`(name, size)` pairs or a dict)."""
    if axes is None or (isinstance(axes, (list, tuple, dict)) and not axes):
        return tensor
    from .vectorization import _pairs, vectorize

    pairs = _pairs(function, axes, auto=False)
    sizes = tuple(size for _, size in pairs)
    whole = broadcast(tensor, sizes + tensor.shape, names=(None,) * len(sizes) + tensor.names)
    return vectorize(whole, [name for name, _ in pairs])


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
    shape = _check_shape(shape)
    if axes is None:
        axes = tuple(range(len(shape) - tensor.rank, len(shape)))
    else:
        axes = _check.sequence("broadcast", "axes", axes, of="axis positions")
    if not builtins.all(isinstance(a, int) and not isinstance(a, bool) for a in axes):
        raise ArgumentError(f"broadcast axes must be ints, got {list(axes)!r}")
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
