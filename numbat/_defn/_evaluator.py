"""The Evaluator compiler (Nx's `Nx.Defn.Evaluator`): a defn run op by op, eagerly,
on the default backend (NumPy included), or on the XLA device that the `client` and
`device_id` options name (tensor arguments move there first; an unavailable client or
a device out of range is an error). The defn itself is not traced or compiled as one
program: control flow runs its branches and loops in Python, hooks and `print_value` run
right away. On the XLA backend each eager op runs as its own small jitted program, so a
first call compiles one per op (tests/test_defn.py counts them). Each call
emits `("numbat", "evaluation")` with its `total_time` (µs) when a handler listens.
"""

from __future__ import annotations

import contextvars
import time

import jax

from .. import telemetry
from .._core._errors import ArgumentError
from .._core._scoped import scoped
from .._core._types import is_number
from .._ops import _dispatch
from .._tensor._tensor import Tensor, is_tensor
from ..backends import _default
from . import _containers, _effects, _interrupt, _signature

EVALUATION: telemetry.Event = ("numbat", "evaluation")

# Whether a defn body runs under the Evaluator now: a defn called there is inlined (its
# Python numbers and static values reach it as they are), as in a traced defn and in Nx.
_evaluating: contextvars.ContextVar[bool] = contextvars.ContextVar("numbat_evaluating", default=False)
# `evaluating()`: whether a defn's body runs under the Evaluator on this thread now. The
# variable's own `get`, a C call: `Defn.__call__` asks it on every call.
evaluating = _evaluating.get


def evaluation_backend(defn):
    """Where `defn` evaluates: the device its options name, or the default backend."""
    if "client" in defn.options or "device_id" in defn.options:
        return defn.backend
    return _default.current()


def evaluate(defn, args: tuple, options: dict):
    """Runs `defn` on `args`: numbers and arrays become tensors, the rest passes through."""
    start = time.perf_counter_ns()
    _signature.refuse_templates(args)
    _containers.register_found(args)
    backend = evaluation_backend(defn)
    if backend is defn.backend:
        # The client and device the options name: checked (an unavailable client or a device
        # out of range is an error, as for the XLA compiler), and tensor arguments move there.
        _ = backend.device
        args = jax.tree_util.tree_map(
            lambda leaf: defn._convert(leaf) if isinstance(leaf, Tensor) else leaf, args, is_leaf=is_tensor
        )
    args = jax.tree_util.tree_map(lambda leaf: _as_tensor(leaf, backend), args, is_leaf=is_tensor)
    with (
        _default.default_backend(backend),
        scoped(_effects.active_hooks, defn.hooks),
        scoped(_interrupt.tracing, (defn.name, defn.interruptible)),
        scoped(_evaluating, True),
    ):
        result = defn.fun(*args, **options)
    result = jax.tree_util.tree_map(lambda leaf: _as_tensor(leaf, backend), result, is_leaf=is_tensor)
    _signature.flatten_outputs(result)  # only tensors come out
    if telemetry.listening(EVALUATION):
        signature, _ = _signature.flatten(args, options, lambda tensor: tensor)
        telemetry.execute(
            EVALUATION,
            {"total_time": (time.perf_counter_ns() - start) // 1000},
            {"function": defn.name, "signature": signature.describe(), "backend": backend.describe()},
        )
    return result


def _as_tensor(leaf, backend):
    if isinstance(leaf, Tensor) or not (is_number(leaf) or hasattr(leaf, "__array__")):
        return leaf
    try:
        return _dispatch.to_tensor(leaf, backend)
    except ArgumentError:
        return leaf  # not numeric data: a static value
