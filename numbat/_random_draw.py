"""How `numbat.random` runs `numbat._threefry`'s array functions on tensors: one code
path for every backend, argument checks that raise numbat errors, and Nx's type
inference for samplers.

`run` calls a function compiled once per signature (`jax.jit`, under a local
`jax.enable_x64`, never a process-wide setting) on the operands' data: on the XLA
backend where the data lives (or as part of the trace inside a defn), on the NumPy
backend on the host CPU, returned as NumPy data. Numbers the caller passed become
host arrays of the type they are drawn in, so compiled work is reused across values.

>>> run("split", _threefry.split, (nbt.random.key(0),), (template((2, 2), U32),), {"parts": 2}).shape
(2, 2)
"""

from __future__ import annotations

import functools
import inspect

import jax
import numpy as np

from . import _allocation, _check, _expr, _names, _threefry, _types
from ._errors import ArgumentError
from ._ops import _dispatch
from ._tensor import Template, Tensor
from .backends.numpy_backend import NumPyBackend

U32 = _types.Type("u", 32)
KEY = Template((2,), U32, (None,))


def takes_options(fun):
    """Refuses an unknown keyword with a numbat error that lists what `fun` takes (instead
    of Python's TypeError)."""
    parameters = inspect.signature(fun).parameters
    takes = ", ".join(name for name in parameters if name != "key")

    @functools.wraps(fun)
    def checked(*args, **options):
        for name in options:
            if name not in parameters:
                raise ArgumentError(f"random.{fun.__name__}: unknown option {name!r}; it takes {takes}")
        return fun(*args, **options)

    return checked


def template(shape, type_: _types.Type, names=None) -> Template:
    return Template(tuple(shape), type_, _names.normalize(names, len(shape)))


@functools.cache
def _compiled(fun, static: tuple, split_first: bool):
    def call(*arrays):
        # The operands are opaque to XLA: constants (numbers, or tensors a defn built) must
        # not be folded into the arithmetic differently from values passed at run time.
        arrays = jax.lax.optimization_barrier(arrays)
        if not split_first:
            return fun(*arrays, **dict(static))
        keys = _threefry.split(arrays[0], 2)
        drawn = fun(keys[1], *arrays[1:], **dict(static))
        return (*(drawn if isinstance(drawn, tuple) else (drawn,)), keys[0])

    return jax.jit(call)


def run(op: str, fun, operands: tuple, outputs: tuple, static: dict, split_first: bool = False):
    """`fun(*operands' data, **static)` as tensors of the `outputs` templates, on the
    backend of the tensor operands (other operands are host arrays), recorded as
    `random_{op}`. With `split_first` the first operand is a key that is split first:
    `fun` draws with the second key, and the first comes back as the last output."""
    tensors = tuple(value for value in operands if isinstance(value, Tensor))
    for value in tensors:
        if value.vectorized_axes:
            raise ArgumentError(
                f"random.{op} does not take vectorized tensors (vectorized axes {value.vectorized_axes})"
            )
    backend = _dispatch.backend_of(*tensors)
    for out in outputs:
        _allocation.check(f"random.{op}", out, backend)  # before JAX allocates the sample
    host = isinstance(backend, NumPyBackend)
    datas = [value.data if isinstance(value, Tensor) else value for value in operands]
    with jax.enable_x64(True):  # u64 seeds and s64 steps keep their width (a scoped setting)
        if host:
            cpu = jax.devices("cpu")[0]
            datas = [jax.device_put(np.asarray(data), cpu) for data in datas]
        results = _compiled(fun, tuple(sorted(static.items())), split_first)(*datas)
    results = results if isinstance(results, tuple) else (results,)
    outputs = outputs + (KEY,) if split_first else outputs
    made = [
        Tensor(np.asarray(data) if host else data, out.type, out.names, backend)
        for data, out in zip(results, outputs, strict=True)
    ]
    recorder = _expr.current()
    if recorder is not None:
        shown = {
            name.rstrip("_"): str(value) if isinstance(value, _types.Type) else value for name, value in static.items()
        }
        recorder.record_many(f"random_{op}", tensors, shown, made)
    return tuple(made) if len(made) > 1 else made[0]


def key_tensor(key, op: str) -> Tensor:
    """`key`, checked to be a u32[2] tensor (Nx's `assert_key!`)."""
    key = _dispatch.to_tensor(key)
    if key.shape != (2,) or key.type != U32:
        raise ArgumentError(
            f"random.{op}: a key is a u32[2] tensor from nbt.random.key, got {key.type}{list(key.shape)}"
        )
    return key


def type_of(value) -> _types.Type:
    """The type of a tensor, or the type Nx infers for a number."""
    return value.type if isinstance(value, Tensor) else _types.infer(value)


def merged_type(op: str, **values) -> _types.Type:
    """The merged type of the named `values`, each a tensor or a number."""
    for name, value in values.items():
        if not isinstance(value, Tensor):
            _check.number(f"random.{op}", name, value)
    types = [type_of(value) for value in values.values()]
    merged = types[0]
    for other in types[1:]:
        merged = _types.merge(merged, other)
    return merged


def float_type(op: str, type_, **values) -> _types.Type:
    """The requested type, or the floating type of the named `values` (Nx's
    `infer_float_type`), which must be a float or complex type."""
    merged = merged_type(op, **values)
    parsed = _types.to_floating(merged) if type_ is None else _types.parse(type_)
    if not (parsed.is_float or parsed.is_complex):
        raise ArgumentError(f"random.{op}: expected a float or complex type, got {parsed}")
    return parsed


def operand(op: str, name: str, value, shape: tuple, dtype):
    """A tensor that broadcasts to `shape`, or a number as a host array of `dtype`."""
    if isinstance(value, Tensor):
        try:
            fits = np.broadcast_shapes(value.shape, shape) == shape
        except ValueError:
            fits = False
        if not fits:
            raise ArgumentError(f"random.{op}: {name} of shape {value.shape} does not broadcast to shape {shape}")
        return value
    _check.number(f"random.{op}", name, value)
    if isinstance(value, complex):
        raise ArgumentError(f"random.{op}: {name} must be a real number, got {value!r}")
    return np.asarray(value, dtype=dtype)
