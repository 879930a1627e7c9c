"""Side effects at run time: `hook`, `print_value`, `inspect_value` (and `print_expr`, at
trace time, in the expression module).

Inside a defn they run through `jax.debug.callback` when the compiled code runs, with
the value as a NumPy-backed tensor; outside one, right away. A named hook does nothing
unless the defn's `hooks={name: function}` option names it (the option is part of the
cache key). A hook that raises does not kill the computation's process: the error is
kept and raised as `numbat.HookError` when the call returns, and the defn can be called
again.
"""

from __future__ import annotations

import contextvars
import threading

import jax
import numpy as np

from .. import _expr
from .._errors import ArgumentError, HookError
from .._ops import _dispatch
from .._tensor import Tensor
from ..backends.numpy_backend import NumPyBackend

# The hooks of the defn being traced (its `hooks=` option), and whether the trace used any.
_hooks: contextvars.ContextVar[dict | None] = contextvars.ContextVar("numbat_hooks", default=None)
_errors: list = []
_errors_lock = threading.Lock()
traced_callbacks = 0  # how many callbacks tracing has put into compiled code (a defn notes the change)


def _host_tensor(value, template: Tensor) -> Tensor:
    return Tensor(np.asarray(value), template.type, template.names, NumPyBackend())


def _run(fun, tensor: Tensor, what: str) -> None:
    """Calls `fun` on the value of `tensor`: now, or when the compiled code runs."""
    if not isinstance(tensor.data, jax.core.Tracer):
        try:
            fun(_host_tensor(tensor.data, tensor))
        except Exception as error:
            raise HookError(f"{what} raised {type(error).__name__}: {error}") from error
        return

    def callback(value):
        try:
            fun(_host_tensor(value, tensor))
        except Exception as error:  # noqa: BLE001 -- kept and raised as a HookError after the call
            keep_error(what, error)

    note_traced_callback()
    jax.debug.callback(callback, tensor.data, ordered=True)


def keep_error(what: str, error: BaseException) -> None:
    """Keeps an error a callback raised in compiled code, for `raise_pending`."""
    with _errors_lock:
        _errors.append((what, error))


def note_traced_callback() -> None:
    """Counts a callback put into compiled code, so the defn checks for errors after calls."""
    global traced_callbacks
    traced_callbacks += 1


def raise_pending() -> None:
    """Waits for the callbacks of the calls so far, then raises the first error a hook
    raised, as a `HookError`."""
    jax.effects_barrier()
    with _errors_lock:
        pending, _errors[:] = list(_errors), []
    if pending:
        what, error = pending[0]
        raise HookError(f"{what} raised {type(error).__name__}: {error}") from error


def hook(tensor, fun_or_name, name=None):
    """Calls `fun_or_name(value)` with the tensor's value when the code runs, and returns
    `tensor`. With a name (a string) instead of a function, the defn's `hooks=` option
    supplies the function, or nothing happens.

    >>> @nbt.defn(hooks={"seen": lambda t: print("seen", t.to_numpy())})
    ... def double(t):
    ...     return nbt.hook(t * 2, "seen")
    >>> _ = double(nbt.tensor([1, 2]))
    seen [2 4]
    """
    tensor = _dispatch.to_tensor(tensor)
    if isinstance(fun_or_name, str):
        label = fun_or_name
        fun = (_hooks.get() or {}).get(fun_or_name)
        if fun is None:
            return tensor
    elif callable(fun_or_name):
        fun, label = fun_or_name, name or getattr(fun_or_name, "__name__", "hook")
    else:
        raise ArgumentError(f"hook needs a function or a hook name, got {type(fun_or_name).__name__} {fun_or_name!r}")
    _run(fun, tensor, f"hook {label!r}")
    recorder = _expr.current()
    if recorder is not None:
        recorder.record("hook", (tensor,), {"name": label}, tensor)
    return tensor


def print_value(tensor, formatter=None, label: str | None = None):
    """Prints the tensor's value when the code runs (with `formatter(tensor)` instead of
    the tensor's text form, if given) and returns `tensor`.

    >>> _ = nbt.jit(lambda t: nbt.print_value(t + 1, label="plus one"))(nbt.tensor([1, 2]))
    plus one: numbat.Tensor<
      s32[2]
      [2, 3]
    >
    """
    if formatter is not None and not callable(formatter):
        raise ArgumentError(f"print_value: formatter must be a function, got {formatter!r}")

    def show(value):
        text = formatter(value) if formatter is not None else repr(value)
        print(f"{label}: {text}" if label else text)

    return hook(tensor, show, name="print_value")


def inspect_value(tensor, label: str | None = None):
    """Prints the tensor's value when the code runs, labelled (Nx's `inspect_value`).

    >>> _ = nbt.inspect_value(nbt.tensor(3), label="x")
    x: numbat.Tensor<
      s32
      3
    >
    """
    return print_value(tensor, label=label)
