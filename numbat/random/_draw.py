"""How `numbat.random` runs `numbat.random._threefry`'s array functions on tensors: one code
path for every backend, argument checks that raise numbat errors, and Nx's type
inference for samplers.

`run` calls a function compiled once per signature (`jax.jit`, under a local
`jax.enable_x64`, never a process-wide setting) on the operands' data: on the XLA
backend where the data lives (or as part of the trace inside a defn), on the NumPy
backend on the host CPU, returned as NumPy data. Numbers the caller passed become
host arrays of the type they are drawn in, so compiled work is reused across values.
Vectorized operands (a vectorized key above all) are mapped over with `jax.vmap`, so
each entry draws exactly what one call with that entry would.

>>> run("split", _threefry.split, (nbt.random.key(0),), (template((2, 2), U32),), {"parts": 2}).shape
(2, 2)
"""

from __future__ import annotations

import functools
import inspect
import itertools

import jax
import numpy as np

from .._core import _format, _names, _types
from .._core._errors import ArgumentError
from .._ops import _dispatch, _vectorized
from .._tensor import _check, _expr
from .._tensor._tensor import Template, Tensor, VectorizedData
from ..backends import _allocation
from ..backends.numpy_backend import NumPyBackend
from . import _threefry

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
def _compiled(fun, static: tuple, split_first: bool, has: tuple, keys: tuple):
    """`fun` (after splitting the key with `split_first`) compiled once per signature,
    mapped with `jax.vmap` over the vectorized axes: `has[i][level]` tells whether
    operand `i` has vectorized axis `level`. The outputs at the positions `keys` are
    keys drawn from the first operand alone: they keep only its vectorized axes."""

    def call(*arrays):
        # The operands are opaque to XLA: constants (numbers, or tensors a defn built) must
        # not be folded into the arithmetic differently from values passed at run time.
        arrays = jax.lax.optimization_barrier(arrays)
        if not split_first:
            drawn = fun(*arrays, **dict(static))
            return drawn if isinstance(drawn, tuple) else (drawn,)
        parts = _threefry.split(arrays[0], 2)
        drawn = fun(parts[1], *arrays[1:], **dict(static))
        return (*(drawn if isinstance(drawn, tuple) else (drawn,)), parts[0])

    mapped = call
    for level in reversed(range(len(has[0]) if has else 0)):
        in_axes = tuple(0 if flags[level] else None for flags in has)
        mapped = _looped(mapped, in_axes) if fun in _LOOPED else jax.vmap(mapped, in_axes=in_axes)
    # A key output is the same for every entry of the axes its key operand lacks (or has
    # with size 1): one entry of each is kept.
    own = tuple(slice(None) if flag else slice(0, 1) for flag in (has[0] if has else ()))

    def whole(*arrays):
        # As Nx's `stop_grad` on every draw: no gradient flows through random numbers.
        results = jax.lax.stop_gradient(mapped(*arrays))
        return tuple(result[own] if own and i in keys else result for i, result in enumerate(results))

    return jax.jit(whole)


# Draws whose arithmetic rounds differently when XLA batches it: a matrix product's
# rounding depends on how many rows it multiplies at once. A batch of them runs as a loop
# (`lax.map`), each entry the very computation of one call.
_LOOPED = frozenset({_threefry.multivariate_normal})


def _looped(fun, in_axes: tuple):
    """`jax.vmap(fun, in_axes)` (axes 0 or None) as a loop over the mapped operands."""

    def looped(*arrays):
        def one(mapped):
            entries = iter(mapped)
            return fun(*(next(entries) if axis == 0 else array for array, axis in zip(arrays, in_axes)))

        return jax.lax.map(one, tuple(array for array, axis in zip(arrays, in_axes) if axis == 0))

    return looped


def _vectorized_axes(op: str, tensors: tuple) -> tuple:
    """The vectorized axes of a draw over `tensors` (the key first), refused where Nx's
    order of them would depend on the order its arithmetic meets the operands in."""
    axes = _vectorized.canonical(tensors)
    if axes and len(tensors) > 1:
        names = [name for name, _ in axes]
        for order in itertools.permutations(tensors):
            if [name for name, _ in _vectorized.canonical(order)] != names:
                described = ", ".join(
                    _format.vectorized_header(t.vectorized_axes) if t.vectorized_axes else "not vectorized"
                    for t in tensors
                )
                raise ArgumentError(
                    f"random.{op}: the vectorized axes of its tensors ({described}) have no one order; "
                    "give them the same vectorized axes first (nbt.broadcast_vectors)"
                )
    return axes


def run(op: str, fun, operands: tuple, outputs: tuple, static: dict, split_first: bool = False):
    """`fun(*operands' data, **static)` as tensors of the `outputs` templates, on the
    backend of the tensor operands (other operands are host arrays), recorded as
    `random_{op}`. With `split_first` the first operand is a key that is split first:
    `fun` draws with the second key, and the first comes back as the last output.

    Vectorized operands (a vectorized key above all) draw once per entry, as if in a
    loop: the outputs are vectorized over the operands' vectorized axes, except the keys
    (`KEY` outputs), which are vectorized as the first operand is."""
    tensors = tuple(value for value in operands if isinstance(value, Tensor))
    axes = _vectorized_axes(op, tensors)
    backend = _dispatch.backend_of(*tensors)
    outputs = outputs + (KEY,) if split_first else outputs
    keys = tuple(i for i, out in enumerate(outputs) if out is KEY)
    sizes = tuple(size for _, size in axes)
    for out in outputs:  # before JAX allocates the sample
        _allocation.check(
            f"random.{op}", Template(sizes + out.shape, out.type, (None,) * len(sizes) + out.names), backend
        )
    datas, has = [], []
    for value in operands:
        data, flags = _vectorized.aligned(value, axes) if isinstance(value, Tensor) else (value, (False,) * len(axes))
        datas.append(data)
        has.append(flags)
    host = isinstance(backend, NumPyBackend)
    compiled = _compiled(fun, tuple(sorted(static.items())), split_first, tuple(has) if axes else (), keys)
    with jax.enable_x64(True):  # u64 seeds and s64 steps keep their width (a scoped setting)
        if host:
            cpu = jax.devices("cpu")[0]
            datas = [jax.device_put(np.asarray(data), cpu) for data in datas]
        results = compiled(*datas)
    key_axes = _key_axes(operands[0], axes) if axes else ()
    made = []
    for i, (data, out) in enumerate(zip(results, outputs, strict=True)):
        data = np.asarray(data) if host else data
        own = key_axes if i in keys else axes
        if i in keys and len(own) != len(axes):  # the axes the key lacks were kept as size 1
            data = data.reshape(tuple(size for _, size in own) + out.shape)
        made.append(Tensor(VectorizedData(data, own) if own else data, out.type, out.names, backend))
    recorder = _expr.current()
    if recorder is not None:
        shown = {
            name.rstrip("_"): str(value) if isinstance(value, _types.Type) else value for name, value in static.items()
        }
        recorder.record_many(f"random_{op}", tensors, shown, made)
    return tuple(made) if len(made) > 1 else made[0]


def _key_axes(first, axes: tuple) -> tuple:
    """The vectorized axes of a key drawn from operand `first`: its own, in the order of
    `axes` (with its own sizes: an axis it has with size 1 stays 1)."""
    own = dict(first.vectorized_axes) if isinstance(first, Tensor) else {}
    return tuple((name, own[name]) for name, _ in axes if name in own)


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
