"""Lowering and compiling a defn: the one lowering of a signature that the call, the IR
and fusion views, `serialize`, `to_mlir_module` and the disk-cache key all come from
(docs/design.md, decision 15), and the compiled entry a call runs.

`lower` traces (`_trace.trace`) and lowers under the defn's settings (x64 for 64-bit
inputs, its matmul precision); `compile` turns the lowering into an `Entry`: through
`jax.jit`'s own dispatch for code that is 32-bit throughout, else its compiled
executable, or one loaded from (or stored in) the disk cache, and reports it
(`_report.compiled`).
"""

from __future__ import annotations

import contextlib
import functools
import os
import time
import typing

import jax
import jax.extend.core
import numpy as np

from .. import telemetry
from .._core._errors import ArgumentError
from .._runtime import _config, _disk_cache
from . import _interrupt, _report, _signature, _trace, _vectorized_call


class Entry(typing.NamedTuple):
    """A compiled signature: `call(*datas)` runs it (one array out for a single tensor
    output, else a tuple), and the outputs are rebuilt from the templates."""

    call: typing.Callable
    out_treedef: object
    out_templates: tuple
    single: bool  # one tensor out, not in a container
    effectful: bool  # the code runs hooks or print_value callbacks
    key: str
    plain: tuple | None  # (type, names) of a single output when there are no callbacks to wait for
    outs: tuple  # (type, names) of each output tensor
    shape: str  # how the outputs come back: "tuple" (a flat tuple), "tree" or "revectorized"


def lowering_context(defn, x64: bool) -> contextlib.ExitStack:
    """The settings `defn` traces, lowers and compiles under: x64 when asked, and its
    matmul precision."""
    stack = contextlib.ExitStack()
    if x64:
        stack.enter_context(jax.enable_x64(True))
    if defn.precision != "default":
        stack.enter_context(jax.default_matmul_precision(_config.precision_name(defn.precision)))
    return stack


def lower(defn, signature: _signature.Signature, datas: list | None = None):
    """Traces and lowers `signature` exactly as a call compiles it (see the module's
    docstring). `datas` are the call's arrays, or None for placeholders on the defn's
    device. Returns `(lowered, jitted, traced, plain_jit)`; `plain_jit` says the code is
    32-bit throughout with no precision of its own, so it is called through `jitted`.

    >>> f = nbt.defn(lambda a, b: nbt.dot(a, b), precision="highest")
    >>> signature, _ = nbt._defn._signature.flatten((nbt.iota((2, 2), type="f32"),) * 2, {}, f._convert)
    >>> "HIGHEST" in lower(f, signature)[0].as_text()
    True
    """
    if datas is None:
        sharding = jax.sharding.SingleDeviceSharding(defn.backend.device)
        datas = [jax.ShapeDtypeStruct(t.shape, t.type.dtype, sharding=sharding) for t in signature.templates]
    wide = any(t.type.bits >= 64 for t in signature.templates)
    flat, traced = _trace.trace(defn, signature)
    jitted = jax.jit(flat)
    # Trace as the calls run: under x64 only for 64-bit inputs (without it jit would narrow
    # them), so that jit's own cache finds the executable. Code that is 32-bit throughout
    # lowers and compiles as it is and is called through jit. Code with 64-bit values inside
    # (s64 indices, f64 casts), a precision of its own or a disk cache entry lowers under
    # x64 (and that precision) and is called as its compiled executable, which needs no
    # context at call time.
    with lowering_context(defn, wide):
        staged = jitted.trace(*datas)
    plain_jit = not wide and defn.precision == "default" and defn.cache is True
    plain_jit = plain_jit and not uses_64_bits(staged.jaxpr)
    with lowering_context(defn, not plain_jit):
        lowered = staged.lower()
    return lowered, jitted, traced, plain_jit


def compile(defn, signature: _signature.Signature, datas: list | None = None) -> Entry:
    """Traces, lowers and compiles `signature` (for `datas`, the call's arrays, or for
    placeholders on the defn's device), reports it, and returns its entry."""
    progress = telemetry.listening(telemetry.COMPILATION_START)  # a notebook's "compiling ..." line
    if progress:
        telemetry.execute(telemetry.COMPILATION_START, {}, {"function": defn.name, "signature": signature.describe()})
    try:
        return _compile_now(defn, signature, datas)
    finally:
        if progress:
            telemetry.execute(telemetry.COMPILATION_END, {}, {"function": defn.name})


def _compile_now(defn, signature: _signature.Signature, datas: list | None) -> Entry:
    start = time.perf_counter_ns()
    lowered, jitted, traced, plain_jit = lower(defn, signature, datas)
    lowered_at = time.perf_counter_ns()
    call, from_disk, saved_us = _executable(defn, signature, lowered, jitted, plain_jit)
    done = time.perf_counter_ns()
    if traced["interruptible"]:
        call = _interrupt.watched(call, defn.name)
    entry = Entry(
        call,
        traced["treedef"],
        traced["templates"],
        traced["single"],
        traced["effectful"],
        _report.key(defn.name, signature),
        None if traced["effectful"] or not traced["single"] else traced["templates"][0][1:],
        tuple((t.type, t.names) for t in traced["templates"]),
        output_shape(traced["treedef"]),
    )
    _report.compiled(defn, signature, (lowered_at - start) // 1000, (done - lowered_at) // 1000, from_disk, saved_us)
    return entry


def _executable(defn, signature, lowered, jitted, plain_jit: bool) -> tuple:
    """What a call of the lowered code runs, whether it came from the disk cache, and the
    compile time (µs) that saved: `jitted` itself, its compiled executable, or the disk's."""
    with lowering_context(defn, not plain_jit):
        if isinstance(defn.cache, (str, os.PathLike)):
            refuse_subbyte_executable(f"defn {defn.name} with a disk cache", signature, "use cache=True")
            return _disk_cache.compile(lowered, defn.cache)
        if plain_jit:
            lowered.compile()  # fills jit's caches: the first call runs without tracing again
            return jitted, False, 0
        if _subbyte_inputs(signature):  # see refuse_subbyte_executable; jit's dispatch takes them
            return functools.partial(_in_context, functools.partial(lowering_context, defn), jitted), False, 0
        return lowered.compile(), False, 0


def _subbyte_inputs(signature: _signature.Signature) -> list:
    return [str(t.type) for t in signature.templates if t.type.bits < 8]


def refuse_subbyte_executable(what: str, signature: _signature.Signature, instead: str) -> None:
    """Raises for a compiled executable of sub-byte inputs (s2, s4, u2, u4): XLA's executable
    wants them packed, and JAX's device arrays hold one a byte (JAX 0.10 has no way to pass
    it one), so only jit's own dispatch can call such code."""
    types = _subbyte_inputs(signature)
    if types:
        raise ArgumentError(
            f"{what} cannot take sub-byte inputs ({', '.join(sorted(set(types)))}): XLA's compiled "
            f"executables want them packed and JAX's arrays hold one a byte; {instead}, or cast them "
            "to s8 or u8 with nbt.as_type first"
        )


def _in_context(context, fun, *args):
    """`fun(*args)` inside `context(True)` (a defn's lowering context, x64 on)."""
    with context(True):
        return fun(*args)


_WIDE_DTYPES = frozenset(np.dtype(name) for name in ("int64", "uint64", "float64", "complex128"))


def uses_64_bits(closed) -> bool:
    """Whether a traced computation (a `jax.extend.core.ClosedJaxpr`) holds 64-bit values
    or asks for them (an index dtype), looking into the sub-computations of control flow."""

    def wide(value) -> bool:
        if isinstance(value, jax.extend.core.ClosedJaxpr):
            return walk(value.jaxpr)
        if isinstance(value, jax.extend.core.Jaxpr):
            return walk(value)
        if isinstance(value, (tuple, list)):
            return any(wide(item) for item in value)
        if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
            return np.dtype(value) in _WIDE_DTYPES
        return False

    def walk(jaxpr) -> bool:
        variables = [*jaxpr.constvars, *jaxpr.invars]
        for eqn in jaxpr.eqns:
            variables += eqn.outvars
            if any(wide(value) for value in eqn.params.values()):
                return True
        return any(getattr(getattr(v, "aval", None), "dtype", None) in _WIDE_DTYPES for v in variables)

    return walk(closed.jaxpr)


def output_shape(treedef) -> str:
    """How a compiled entry's outputs are put back together (see `Entry.shape`)."""
    if _vectorized_call.has_revectorize(treedef):
        return "revectorized"
    if treedef == jax.tree_util.tree_structure((0,) * treedef.num_leaves):
        return "tuple"
    return "tree"
