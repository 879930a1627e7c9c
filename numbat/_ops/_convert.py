"""Numbers, nested lists and NumPy or JAX arrays into tensors: `nbt.tensor`, and the
conversion every op applies to its arguments (`to_tensor`)."""

from __future__ import annotations

import builtins
from collections.abc import Sequence

import jax
import ml_dtypes
import numpy as np

from .._core import _names, _types
from .._core._errors import ArgumentError
from .._tensor import _check, _expr
from .._tensor._tensor import Template, Tensor
from ..backends import _allocation, _default
from ..backends._contract import AbstractBackend
from ..backends.xla_backend import XLABackend


def to_tensor(value, backend: AbstractBackend | None = None) -> Tensor:
    """`value` as a tensor: tensors pass through, anything else goes through `nbt.tensor`."""
    if isinstance(value, Tensor):
        return value
    return tensor(value, backend=backend)


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
    if isinstance(data, jax.core.Tracer):
        return _traced(data, type, names, backend)
    requested = None if type is None else _types.parse(type)
    array, inferred = _host_array(data, requested)
    type_ = inferred if requested is None else requested
    if not type_.is_complex and array.dtype.kind == "c":  # NumPy would drop the imaginary parts, with a warning
        raise ArgumentError(
            f"cannot build a {type_} tensor from complex values in {_preview(data)}; pass a complex type, or "
            "the real parts (nbt.real of a complex tensor, .real of an array)"
        )
    if type_.is_integer and array.dtype.kind in "fc" and not isinstance(data, (np.ndarray, jax.Array)):
        raise ArgumentError(
            f"cannot build a {type_} tensor from floats in {_preview(data)}; pass integers or a float type"
        )
    out = Template(array.shape, type_, _names.normalize(names, array.ndim))
    if out.shape not in _allocation.FINE:  # a NumPy view (np.broadcast_to) can claim any size
        _allocation.check("tensor", out, backend)
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


_DLPACK_CPU = 1  # DLPack's kDLCPU: memory NumPy can share


def from_dlpack(array, names=None, backend=None) -> Tensor:
    """A tensor of any DLPack exporter (a NumPy or JAX array, a PyTorch tensor, a numbat
    tensor). The NumPy backend shares the array's memory when it is the host's, and copies an
    array that lives on a device (a GPU) to the host, or, where its exporter cannot copy it,
    raises an error that says how (`to_numpy()`); the XLA backend shares the memory when the
    buffer is aligned as XLA needs (64 bytes on the CPU) and copies it otherwise, so a
    change to the array later may or may not show in the tensor. The Nx type is the dtype's (bool is u8); a numbat tensor keeps its
    type and, unless `names` says otherwise, its names.

    >>> nbt.from_dlpack(np.arange(3, dtype=np.int16), names=["x"])
    numbat.Tensor<
      s16[x: 3]
      [0, 1, 2]
    >
    >>> nbt.from_dlpack([1, 2])
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: from_dlpack takes an array with __dlpack__ (NumPy, JAX, PyTorch, a numbat tensor), got list [1, 2]; nbt.tensor reads lists and numbers
    """
    if not hasattr(array, "__dlpack__"):
        raise ArgumentError(
            f"from_dlpack takes an array with __dlpack__ (NumPy, JAX, PyTorch, a numbat tensor), "
            f"got {builtins.type(array).__name__} {_preview(array)}; nbt.tensor reads lists and numbers"
        )
    backend = _default.resolve(backend)
    _check_logical_size(array, backend)  # a view (zero strides: np.broadcast_to) can claim any size
    on_device = not isinstance(backend, XLABackend) and int(array.__dlpack_device__()[0]) != _DLPACK_CPU
    try:
        if isinstance(backend, XLABackend):
            with jax.enable_x64(True):  # f64 stays f64
                data = jax.dlpack.from_dlpack(array, device=backend.device)
        elif on_device:  # NumPy reads host memory: the exporter copies the array there (DLPack's dl_device)
            data = np.from_dlpack(array, device="cpu", copy=True)
        else:
            data = np.from_dlpack(array)
    except (RuntimeError, BufferError, TypeError, ValueError) as error:  # a dtype, device or layout it cannot take
        if on_device:
            device = tuple(int(part) for part in array.__dlpack_device__())
            raise ArgumentError(
                f"from_dlpack: the NumPy backend reads host memory, and this array lives on a device (DLPack "
                f"device {device}) that its exporter cannot copy to the host ({error}); copy it to the host "
                "first (a numbat tensor: t.to_numpy(); PyTorch: t.cpu()), or import it on the XLA backend"
            ) from None
        other = "the XLA backend takes what JAX does" if not isinstance(backend, XLABackend) else "nbt.tensor copies"
        raise ArgumentError(
            f"from_dlpack: {'JAX' if isinstance(backend, XLABackend) else 'NumPy'} cannot import this array "
            f"({error}); {other}"
        ) from None
    if isinstance(array, Tensor):
        type_, names = array.type, array.names if names is None else names
    else:
        type_ = _types.of_dtype(data.dtype)
    out = Template(tuple(data.shape), type_, _names.normalize(names, data.ndim))
    if out.shape not in _allocation.FINE:  # what every op on it will allocate
        _allocation.check("from_dlpack", out, backend)
    if data.dtype != type_.dtype:  # a bool array, held as u8
        data = data.astype(type_.dtype)
    return Tensor(data, type_, out.names, backend)


def _check_logical_size(array, backend) -> None:
    """The allocation guard on an exporter's logical shape (zero strides count every element),
    before anything imports it, where its shape and dtype are NumPy's to read."""
    shape = getattr(array, "shape", None)
    try:
        dtype = np.dtype(array.dtype)
        type_ = _types.U8 if dtype.kind == "b" else _types.of_dtype(dtype)
    except (TypeError, AttributeError, ArgumentError):
        return  # a dtype NumPy does not name (a PyTorch tensor's): checked once imported
    if isinstance(shape, tuple) and all(isinstance(d, int) for d in shape) and shape not in _allocation.FINE:
        _allocation.check("from_dlpack", Template(shape, type_, (None,) * len(shape)), backend)


def _traced(data: jax.core.Tracer, type, names, backend) -> Tensor:
    """A tensor of a JAX tracer (numbat code under `jax.jit`, `grad` or `vmap`; a `jax.numpy`
    result inside a defn): XLA data of its dtype's Nx type (bool is u8), unnamed unless
    `names` says, as `nbt.tensor` reads a concrete `jax.Array`."""
    type_ = _types.of_dtype(data.dtype) if type is None else _types.parse(type)
    if data.dtype != type_.dtype:
        data = data.astype(type_.dtype)
    if not isinstance(backend, XLABackend):  # a tracer's values live where JAX computes them
        backend = XLABackend()
    return Tensor(data, type_, _names.normalize(names, data.ndim), backend)


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
    return _default.transfer(tensor, backend)


def _host_array(data, requested: _types.Type | None = None) -> tuple[np.ndarray, _types.Type]:
    """A host array for `data` and the Nx type `data` implies; Python ints keep their exact
    value (s64 or u64) unless `requested` is a float or complex type."""
    if isinstance(data, (np.ndarray, np.generic, jax.Array)):
        array = np.asarray(data)
        return array, _types.of_dtype(array.dtype)
    if isinstance(data, (list, tuple)):
        _check.nesting("tensor: data", data)  # before the recursive checks below
        _check_rectangular(data, ())
        if not _holds_a_number(data):  # Nx.tensor([]) raises; a zero-size shape comes from nbt.iota((0,))
            raise ArgumentError(
                f"invalid value given to tensor, got: {_preview(data)} (a list with no numbers builds no tensor; "
                "for a zero-size tensor use nbt.iota((0,)) or a NumPy array)"
            )
    elif not _types.is_number(data):
        raise ArgumentError(f"cannot build a tensor from {builtins.type(data).__name__} {_preview(data)}")
        _check_no_tensors(data)
    try:
        array = np.asarray(data)
    except OverflowError:
        array = np.asarray(data, dtype=object)
    except jax.errors.TracerArrayConversionError:
        raise ArgumentError(
            "nbt.tensor reads numbers, and this list holds traced values (under a JAX transformation "
            "or a defn): join them with nbt.stack(values) or nbt.concatenate"
        ) from None
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


def _check_no_tensors(data: Sequence) -> None:
    """A list that holds traced tensors (a defn's container argument) is not one tensor:
    the fix is nbt.stack, and tensors of different shapes join only with nbt.concatenate."""
    traced = [item for item in data if isinstance(item, Tensor) and isinstance(item.data, jax.core.Tracer)]
    if not traced:
        return
    shapes = ", ".join(str(item.type) + "".join(f"[{size}]" for size in item.shape) for item in data)
    ragged = len({item.shape for item in traced}) > 1
    raise ArgumentError(
        f"a list of tensors ({shapes}) is a container inside a defn, not one tensor: "
        + (
            "its tensors have different shapes, so join them with nbt.concatenate (or pad them to one shape)"
            if ragged
            else "join them with nbt.stack(values) (or nbt.concatenate)"
        )
    )


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


def _holds_a_number(data: Sequence) -> bool:
    """Whether a rectangular nested list has an element (all its lists are non-empty)."""
    while isinstance(data, (list, tuple)):
        if not data:
            return False
        data = data[0]
    return True


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
