"""Eager XLA ops through `jax.jit`: one cached jitted function per op signature.

An eager op on the XLA backend runs its backend method (written over `jax.numpy`)
under `jax.jit`, with the op, the output template and the params as static
arguments and the input tensors as the traced pytree (their types and names are
static aux data). jit compiles each signature once; a later call is one trip
through jit's C++ dispatch, which hashes the static arguments and flattens the
tensors, instead of a `jax.numpy` dispatch per primitive plus the Python around it.

64-bit types need JAX's x64 mode while tracing and calling, or JAX would turn
s64/f64 data into 32 bits. numbat never switches x64 on process-wide (the user's
own JAX code keeps its setting); it enters `jax.enable_x64` only for calls that
touch a 64-bit type, so the common 32-bit case pays nothing for it.
"""

from __future__ import annotations

import functools

import jax

from .._tensor._tensor import Template, Tensor, check_concrete
from . import _subbyte


@functools.partial(jax.jit, static_argnums=(0, 1, 2, 3, 4))
def _jitted(backend, op: str, out: Template, params: tuple, types: tuple, *datas):
    """`backend.<op>` over arrays: the inputs' types come in as static `types` (a backend
    reads its inputs' types, never their names), so jit's C++ dispatch takes plain arrays,
    with no Python pytree callback per tensor; a result of the output template comes
    back as its array alone, in a list."""
    inputs = [Tensor(data, type_, (None,) * data.ndim, backend) for data, type_ in zip(datas, types)]
    if _subbyte.involved(out, inputs):  # checked while tracing only: jit caches the function
        result = _subbyte.call(backend, op, out, inputs, dict(params))
    else:
        result = getattr(backend, op)(out, *inputs, **dict(params))
    if type(result) is Tensor and result.type == out.type and result.names == out.names:
        return [result.data]  # a list: the caller tells the common case at a glance
    return {"whole": result}  # several results, or one of another template: as a pytree


MANY_INPUTS = 64  # more inputs than this run eagerly, not as one jitted program


def execute(backend, op: str, out: Template, inputs: tuple, params: dict) -> Tensor:
    """Runs `backend.<op>` through the jitted function for its signature."""
    if params:
        params_key = tuple(params.items())
        try:
            hash(params_key)
        except TypeError:  # an unhashable param (e.g. slices before Python 3.12): run the op directly
            params_key = None
    else:
        params_key = ()
    if params_key is None or not inputs or len(inputs) > MANY_INPUTS:
        # Creation ops place their data themselves. An op of many inputs (concatenate, stack)
        # runs eagerly too: a program of n parameters takes XLA time and memory that grow
        # faster than n (20,000 scalars: 53 s and 4 GB), and jit would keep one per count;
        # eagerly, the backend's concatenate joins 16 at a time, each join a small program
        # that JAX caches by its shapes (tests/test_costs.py).
        with jax.enable_x64(True):
            if _subbyte.involved(out, inputs):
                return _subbyte.call(backend, op, out, inputs, params)
            return getattr(backend, op)(out, *inputs, **params)
    if len(inputs) == 2:  # the common case, spelled out: this runs on every eager binary op
        left, right = inputs
        types, datas = (left.type, right.type), (left.data, right.data)
        wide = out.type.bits >= 64 or left.type.bits >= 64 or right.type.bits >= 64
    else:
        types, datas = tuple(tensor.type for tensor in inputs), tuple(tensor.data for tensor in inputs)
        wide = out.type.bits >= 64 or any(type_.bits >= 64 for type_ in types)
    try:
        if wide:
            with jax.enable_x64(True):
                result = _jitted(backend, op, out, params_key, types, *datas)
        else:
            result = _jitted(backend, op, out, params_key, types, *datas)
    except Exception:
        for tensor in inputs:  # a freed input: say so (checked only when the call failed)
            check_concrete(tensor, f"compute {op} with")
        raise
    if type(result) is list:
        return Tensor(result[0], out.type, out.names, backend)
    return result["whole"]
