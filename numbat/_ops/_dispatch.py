"""Turning arguments into tensors, choosing the backend, and running one op: the one
dispatch of every op, `run` (and `run_binary`, its element-wise binary case, which sends the
commonest eager call to the backend's `execute_binary` from its own frame).

While a `defn` traces, every op runs under `jax.named_scope(op)` and is
recorded in the expression graph (docs/design.md, decision 2).
"""

from __future__ import annotations

import contextlib
import functools

import jax
import numpy as np

from .._core import _names, _op_table, _shape, _types
from .._core._errors import ArgumentError
from .._tensor._tensor import Template, Tensor, is_deallocated, recording
from .._tensor._tensor import VectorizedData as _VectorizedData
from ..backends import _allocation, _fp_state, _subbyte
from ..backends._contract import AbstractBackend
from ..backends.numpy_backend import NumPyBackend
from . import _vectorized
from ._convert import to_tensor


def scalar(value, type_: _types.Type, backend: AbstractBackend) -> Tensor:
    """A weak Python scalar as a rank-0 operand of `type_` (host data, folded into the op)."""
    if not _types.is_number(value):
        raise ArgumentError(f"expected a number or a tensor, got {type(value).__name__} {value!r}")
    if type_.kind == "u" and not isinstance(value, complex) and value < 0:
        raise ArgumentError(f"cannot use negative number {value} as a {type_} operand")
    try:
        with np.errstate(over="ignore"):  # a number beyond a float type's range is +-Inf there, as on XLA
            data = np.asarray(value, dtype=type_.dtype)
    except OverflowError:
        raise ArgumentError(f"the number {value} does not fit in {type_}") from None
    return Tensor(data, type_, (), backend)


def backend_of(*tensors: Tensor) -> AbstractBackend:
    """The backend an op over `tensors` runs on. The rule: all on one backend
    runs there; XLA wins over NumPy (host data moves to the device); two
    different XLA devices are an error."""
    backend = tensors[0].backend
    for other in tensors[1:]:
        if other.backend is backend or other.backend == backend or isinstance(other.backend, NumPyBackend):
            continue
        if isinstance(backend, NumPyBackend):
            backend = other.backend
        elif other.backend.device != backend.device:
            raise ArgumentError(
                f"tensors live on different devices ({backend.describe()} and {other.backend.describe()}); "
                "move one with nbt.backend_transfer(t, backend)"
            )
    return backend


def binary_operands(left, right) -> tuple[Tensor, Tensor, _types.Type]:
    """Both operands as tensors, and their merged type (scalars merge by value, as in Nx)."""
    if type(left) is Tensor and type(right) is Tensor:
        return left, right, left.type if left.type == right.type else _types.merge(left.type, right.type)
    if isinstance(left, Tensor) and _types.is_number(right):
        type_ = _types.merge_number(left.type, right)
        return left, scalar(right, type_, left.backend), type_
    if _types.is_number(left) and isinstance(right, Tensor):
        type_ = _types.merge_number(right.type, left)
        return scalar(left, type_, right.backend), right, type_
    backend = next((v.backend for v in (left, right) if isinstance(v, Tensor)), None)
    left, right = to_tensor(left, backend), to_tensor(right, backend)
    return left, right, _types.merge(left.type, right.type)


_FINE_SHAPES = _allocation.FINE
_current_recorder = recording.get  # the recorder of the defn tracing now, read without a call between

# Templates are immutable, and eager code makes the same few again and again: one cached
# instance per (shape, type, names) costs half of building a new NamedTuple.
template = functools.lru_cache(maxsize=4096)(Template)


def broadcast_template(left: Tensor, right: Tensor, type_: _types.Type) -> Template:
    """The template of an element-wise op over `left` and `right`."""
    shape = left.data.shape
    if left.names == right.names and shape == right.data.shape:  # the common case, checked cheaply
        return template(tuple(shape), type_, left.names)
    if not right.names:  # a scalar operand
        return template(tuple(shape), type_, left.names)
    shape = _shape.broadcast(left.shape, right.shape)
    return Template(shape, type_, _names.broadcast_names(left.shape, left.names, right.shape, right.names))


def broadcast_all(tensors: tuple, type_: _types.Type) -> Template:
    """The template of an op that broadcasts all of `tensors` together."""
    shape, names = tensors[0].shape, tensors[0].names
    for other in tensors[1:]:
        names = _names.broadcast_names(shape, names, other.shape, other.names)
        shape = _shape.broadcast(shape, other.shape)
    return Template(shape, type_, names)


# Ops that Nx defines for real numbers only (ordering, rounding, the error function, and
# `complex`, which builds a complex number from real parts): the op table's `real_only`.
REAL_ONLY = frozenset(op.name for op in _op_table.OPS.values() if op.real_only)


def refuse_complex(op: str, type_: _types.Type) -> None:
    """Raises for a complex `type_` when `op` is defined for real numbers only (`REAL_ONLY`)."""
    if type_.is_complex and op in REAL_ONLY:
        raise ArgumentError(f"{op} is not defined for complex tensors, got {type_}")


def run_binary(op: str, left, right, result_type=None) -> Tensor:
    """Runs element-wise op `op` of two operands (tensors or numbers), broadcasting them: their
    merged type (`binary_operands`; refused for a complex type when `op` is real-only), the
    result's type `result_type` of it when given, and `run` with their template, except that
    the commonest eager case (operands of one type, shape and names on one backend, no
    vectorized axes, a shape the allocation guard found small before, no defn tracing) goes
    from this frame to the backend's `execute_binary`, having checked what `run` checks.
    The element-wise families' `binary` (`_ops/primitive/_apply.py`) is this function.

    >>> a = nbt.tensor([1, 2], backend=nbt.NumPyBackend())
    >>> run_binary("add", a, a).to_numpy().tolist()
    [2, 4]
    """
    if left.__class__ is Tensor and right.__class__ is Tensor and left.type == right.type:  # the common case
        type_ = left.type
    else:
        left, right, type_ = binary_operands(left, right)
    if type_.kind == "c":  # the field, not the property: this runs on every eager op
        refuse_complex(op, type_)
    if result_type is not None:
        type_ = result_type(type_)
    shape, names = left.data.shape, left.names
    if names == right.names and shape == right.data.shape:  # broadcast_template's common case
        backend = left.backend
        out = _small_templates.get((shape, type_, names))  # also the allocation guard's answer
        if out is not None and right.backend is backend and _current_recorder() is None:
            return backend.execute_binary(op, out, left, right)
        out = template(tuple(shape), type_, names)
        result = run(op, out, (left, right))
        if shape.__class__ is tuple and shape in _FINE_SHAPES:  # not vectorized, and found small
            if len(_small_templates) >= _SMALL_TEMPLATES_LIMIT:
                _small_templates.clear()
            _small_templates[shape, type_, names] = out
        return result
    return run(op, broadcast_template(left, right, type_), (left, right))


# `run_binary`'s templates of shapes the allocation guard found small, by (shape, type, names):
# one lookup both checks the shape and finds the template (a vectorized shape is a tuple
# subclass that equals no plain shape, so it finds none).
_small_templates: dict = {}
_SMALL_TEMPLATES_LIMIT = 4096


def run(op: str, out: Template, inputs: tuple, backend: AbstractBackend | None = None, **params) -> Tensor:
    """Runs backend op `op` with template `out`; records it while a defn traces."""
    try:  # the allocation guard, eager and traced: a shape seen small before costs one set lookup
        fine = out.shape in _FINE_SHAPES
    except TypeError:  # a shape given as a list
        fine = False
    if not fine:
        _allocation.check(op, out, backend or inputs[0].backend)
    if backend is None:
        backend = inputs[0].backend
        for tensor in inputs:
            if tensor.backend is not backend or tensor.data.__class__ is _VectorizedData:
                return _run_mixed(op, out, inputs, params)
    recorder = _current_recorder()
    if recorder is None:
        return backend.execute(op, out, inputs, params)
    # The op runs under a named scope, so XLA's metadata maps kernels back to ops; in the
    # top-level graph the scope also carries the node the result will be ("add#5"), so
    # the fusion report can say which kernel computes each node.
    scope = op
    if recorder.parent is None:
        for tensor in inputs:
            recorder.node(tensor)  # the inputs first (constants get their nodes), then the result's id is next
        scope = f"{op}#{len(recorder.nodes)}"
    # A defn traces under x64 throughout; entering it again per op would cost a config change.
    token = _fp_state.silence()
    try:
        with _ALREADY if jax.config.jax_enable_x64 else jax.enable_x64(True), jax.named_scope(scope):
            if _subbyte.involved(out, inputs):
                result = _subbyte.call(backend, op, out, inputs, params)
            else:
                result = getattr(backend, op)(out, *inputs, **params)
    finally:
        _fp_state.restore(token)
    recorder.record(op, inputs, params, result)
    return result


_ALREADY = contextlib.nullcontext()


def _run_mixed(op: str, out: Template, inputs: tuple, params: dict) -> Tensor:
    """`run` for inputs on different backends or with vectorized axes (the uncommon case)."""
    backend = backend_of(*inputs)
    if not any(tensor.data.__class__ is _VectorizedData for tensor in inputs):
        return run(op, out, inputs, backend, **params)
    recorder = _current_recorder()
    result = _vectorized.run(op, out, inputs, backend, params)
    if recorder is not None:
        recorder.record(op, inputs, params, result)
    return result


def known_values(tensor: Tensor):
    """`tensor`'s values as a NumPy array when they are known now, else None: not while a
    defn traces it, not vectorized, not freed (the op's own check names a freed tensor).

    >>> known_values(nbt.tensor([1, 2])).tolist()
    [1, 2]
    """
    data = tensor.data
    if isinstance(data, jax.core.Tracer) or data.__class__ is _VectorizedData or is_deallocated(tensor):
        return None
    return np.asarray(data)
