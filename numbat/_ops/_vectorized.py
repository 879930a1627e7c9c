"""Vectorized tensors (Nx's `vectorized_axes`): running one op over them.

A vectorized tensor keeps its vectorized axes out of its shape: every op sees the
inner shape, and runs once per entry of the vectorized axes (as if in a loop).
Its `data` is a `VectorizedData` (`numbat._tensor._tensor`), the whole array with the
vectorized axes leading.
Ops compute their output template from the inner shapes as usual; `_dispatch.run`
sends an op with any vectorized input here. Vectorized axes of the same name are
the same axis across inputs (sizes equal, or one of them 1); the result has the
union of the inputs' vectorized axes, in order of appearance, as in Nx.

On XLA (and while a defn traces) the op is mapped with `jax.vmap`, once per
vectorized axis; on the NumPy backend it runs per entry and the results are stacked.
"""

from __future__ import annotations

import functools

import jax
import numpy as np

from .._core._errors import ArgumentError
from .._tensor import _expr
from .._tensor._tensor import Tensor, VectorizedData, axes_of
from ..backends import _allocation
from ..backends.numpy_backend import NumPyBackend


def canonical(tensors) -> tuple:
    """The vectorized axes of an op over `tensors`: each name once, in order of
    appearance; a name's sizes must agree or be 1 (the larger wins)."""
    found: dict = {}
    for tensor in tensors:
        for name, size in axes_of(tensor):
            other = found.get(name)
            if other is None or other == size or other == 1 or size == 1:
                found[name] = size if other is None else max(size, other)
            else:
                raise ArgumentError(
                    f"expected vectorized axis {name!r} to have the same size in both tensors "
                    f"or one of them to have size 1, got {size} and {other}"
                )
    return tuple(found.items())


def order_in(own: tuple, axes: tuple) -> list[int]:
    """The positions of a tensor's vectorized axes `own`, listed in the order of `axes`
    (the permutation that puts them in that order)."""
    position = {name: i for i, (name, _) in enumerate(own)}
    return [position[name] for name, _ in axes if name in position]


def aligned(tensor: Tensor, axes: tuple) -> tuple[object, tuple]:
    """`tensor`'s array with its own vectorized axes in the order of `axes`, those it
    only broadcasts (size 1 where `axes` has more) dropped; and which of `axes` it has."""
    data = tensor.data
    if type(data) is not VectorizedData:
        return data, (False,) * len(axes)
    array, count = data.array, len(data.axes)
    positions = order_in(data.axes, axes)
    if positions != list(range(count)):
        array = array.transpose(*positions, *range(count, array.ndim))
    own = dict(data.axes)
    has = tuple(own.get(name) == size for name, size in axes)
    if sum(has) != count:  # drop the size-1 axes this tensor broadcasts
        array = array.reshape((*(size for (_, size), kept in zip(axes, has) if kept), *array.shape[count:]))
    return array, has


def run(op: str, out, inputs: tuple, backend, params: dict) -> Tensor:
    """Runs op `op` (output template `out`, for one entry) over every entry of the
    inputs' vectorized axes; the result is vectorized over all of them."""
    axes = canonical(inputs)
    _allocation.check(op, out, backend, vectorized=axes)  # the whole result: `run` checked one entry
    arrays, has = zip(*(aligned(t, axes) for t in inputs))
    sizes = tuple(size for _, size in axes)
    traced = any(isinstance(a, jax.core.Tracer) for a in arrays)
    if isinstance(backend, NumPyBackend) and not traced:
        array = _per_entry(op, out, inputs, backend, params, arrays, has, sizes)
    else:
        array = _mapped(op, out, inputs, backend, params, arrays, has, len(axes))
    return Tensor(VectorizedData(array, axes), out.type, out.names, backend)


def _per_entry(op, out, inputs, backend, params, arrays, has, sizes) -> np.ndarray:
    results = []
    for index in np.ndindex(*sizes):
        inner = [
            Tensor(array[tuple(i for i, kept in zip(index, flags) if kept)], t.type, t.names, backend)
            for array, flags, t in zip(arrays, has, inputs)
        ]
        results.append(np.asarray(backend.execute(op, out, tuple(inner), params).data))
    if not results:  # a vectorized axis of size 0
        return np.empty((*sizes, *out.shape), dtype=out.type.dtype)
    return np.stack(results).reshape(*sizes, *out.shape)


def _mapped(op, out, inputs, backend, params, arrays, has, count: int):
    templates = tuple((t.type, t.names) for t in inputs)
    traced = any(isinstance(a, jax.core.Tracer) for a in arrays)
    params_key = _hashable(params)
    if not traced and params_key is not None:
        # Eager on XLA: one jitted kernel, as the op's own eager kernel is, so that XLA
        # fuses (and rounds) an entry as it does the same op on a tensor that is not vectorized.
        arrays = [jax.numpy.asarray(a) if isinstance(a, np.ndarray) else a for a in arrays]
        with jax.enable_x64(True):
            return _mapped_kernel(backend, op, out, params_key, templates, has, count, *arrays)
    return mapped(_one_entry(backend, op, out, templates, params), arrays, has, count)


def _one_entry(backend, op, out, templates, params):
    method = getattr(backend, op)

    def one(*datas):
        inner = [Tensor(d, type_, names, backend) for d, (type_, names) in zip(datas, templates)]
        return method(out, *inner, **params).data

    return one


def _hashable(params: dict):
    key = tuple(params.items())
    try:
        hash(key)
    except TypeError:
        return None
    return key


@functools.partial(jax.jit, static_argnums=(0, 1, 2, 3, 4, 5, 6))
def _mapped_kernel(backend, op, out, params_key, templates, has, count, *arrays):
    return mapped(_one_entry(backend, op, out, templates, dict(params_key)), arrays, has, count)


def mapped(fun, arrays, has, count: int):
    """`fun` over plain arrays, mapped with `jax.vmap` over `count` vectorized axes (the
    output of `aligned` for each input: its array and which of the axes it has)."""
    for level in reversed(range(count)):
        fun = jax.vmap(fun, in_axes=tuple(0 if flags[level] else None for flags in has))
    arrays = [jax.numpy.asarray(a) if isinstance(a, np.ndarray) else a for a in arrays]
    with jax.enable_x64(True):
        return fun(*arrays)


def pairs(function: str, axes, auto: bool, empty: bool = False) -> list:
    """`axes` as `(name, size)` pairs, every size given ("auto" allowed when `auto`; none
    at all when `empty`)."""
    pairs = list(axes.items()) if isinstance(axes, dict) else axes
    if not isinstance(pairs, (list, tuple)) or not (pairs or empty):
        raise ArgumentError(f"{function}: expected the vectorized axes as (name, size) pairs or a dict, got {axes!r}")
    for item in pairs:
        valid = isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)
        size = item[1] if valid else None
        if not valid or not (
            (auto and size == "auto") or (isinstance(size, int) and not isinstance(size, bool) and size > 0)
        ):
            raise ArgumentError(f"{function}: expected a (name, size) pair, got {item!r}")
    unique_names(function, [name for name, _ in pairs])
    return list(pairs)


def unique_names(function: str, names: list) -> None:
    """Raises when vectorized axis `names` repeat one: every op on such a tensor would fail
    (its axes cannot be told apart), so it is refused where it is made.

    >>> unique_names("vectorize", ["v", "w", "v"])
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: vectorize: vectorized axis names must be unique, got ['v', 'w', 'v']
    """
    if len(set(names)) != len(names):
        raise ArgumentError(f"{function}: vectorized axis names must be unique, got {list(names)}")


def over_leading_axes(tensor: Tensor, axes: list) -> Tensor:
    """`tensor` with its leading axes made the vectorized axes `axes` (checked
    `(name, size)` pairs), recorded as a `vectorize` node while a defn traces."""
    data = VectorizedData(tensor.data, tuple(axes))
    result = Tensor(data, tensor.type, tensor.names[len(axes) :], tensor.backend)
    return recorded("vectorize", tensor, result, tuple(name for name, _ in axes))


def recorded(op: str, tensor: Tensor, result: Tensor, param) -> Tensor:
    """`result`, recorded as op `op` of `tensor` while a defn traces."""
    recorder = _expr.current()
    if recorder is not None:
        recorder.record(op, (tensor,), {"axes" if op == "vectorize" else "keep_names": param}, result)
    return result
