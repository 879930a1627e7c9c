"""Eager XLA ops as cached `jax.jit` kernels.

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
import typing

import jax

from .._tensor import _check_concrete

if typing.TYPE_CHECKING:
    from .._tensor import Tensor
    from ._abstract import Template


@functools.partial(jax.jit, static_argnums=(0, 1, 2, 3))
def _kernel(backend, op: str, out: Template, params: tuple, *inputs: Tensor) -> Tensor:
    return getattr(backend, op)(out, *inputs, **dict(params))


def execute(backend, op: str, out: Template, inputs: tuple, params: dict) -> Tensor:
    """Runs `backend.<op>` through the jitted kernel for its signature."""
    if not params:  # most ops: nothing to hash
        params_key = ()
    else:
        try:
            params_key = tuple(params.items())
            hash(params_key)
        except TypeError:  # an unhashable param (e.g. slices before Python 3.12): run the op directly
            params_key = None
    if params_key is None or not inputs:  # creation ops place their data themselves
        with jax.enable_x64(True):
            return getattr(backend, op)(out, *inputs, **params)
    wide = out.type.bits >= 64
    if not wide:
        for tensor in inputs:
            if tensor.type.bits >= 64:
                wide = True
                break
    try:
        if wide:
            with jax.enable_x64(True):
                return _kernel(backend, op, out, params_key, *inputs)
        return _kernel(backend, op, out, params_key, *inputs)
    except Exception:
        for tensor in inputs:  # a freed input: say so (checked only when the call failed)
            _check_concrete(tensor, f"compute {op} with")
        raise
