"""Side effects at run time: `hook`, `print_value`, `inspect_value` (and `print_expr`, at
trace time, in the expression module).

Inside a defn they run through `jax.debug.callback` when the compiled code runs, with
the value as a NumPy-backed tensor; outside one, right away. A named hook does nothing
unless the defn's `hooks={name: function}` option names it (the option is part of the
cache key). A hook that raises does not kill the computation's process: the error is
kept and raised as `numbat.HookError` when the call returns (a KeyboardInterrupt as
itself: JAX never sees it), and the defn can be called again.
"""

from __future__ import annotations

import contextvars
import threading

import jax
import numpy as np

from .._core._errors import ArgumentError, HookError
from .._ops import _dispatch
from .._ops.composite.vectorization import devectorize
from .._tensor import _check, _expr
from .._tensor._tensor import Tensor, is_tensor
from ..backends.numpy_backend import NumPyBackend
from . import _interrupt

# The hooks of the defn being traced (its `hooks=` option), and whether the trace used any.
active_hooks: contextvars.ContextVar[dict | None] = contextvars.ContextVar("numbat_hooks", default=None)
# Set while control flow traces a branch abstractly, for its result's templates only.
abstract: contextvars.ContextVar[bool] = contextvars.ContextVar("numbat_abstract", default=False)
_errors: list = []
_errors_lock = threading.Lock()
traced_callbacks = 0  # how many callbacks tracing has put into compiled code (a defn notes the change)


def _host_tensor(value, template: Tensor) -> Tensor:
    return Tensor(np.asarray(value), template.type, template.names, NumPyBackend())


def _run(fun, value, what: str) -> None:
    """Calls `fun` on `value` (a tensor or a container of them) with host tensors: now,
    or when the compiled code runs (never while control flow only finds its result's
    templates). A vectorized tensor comes devectorized, its vectorized axes named, as in Nx."""
    if abstract.get():
        return
    leaves, treedef = jax.tree_util.tree_flatten(value, is_leaf=is_tensor)
    leaves = [devectorize(leaf) if leaf.vectorized_axes else leaf for leaf in leaves]
    if not any(isinstance(leaf.data, jax.core.Tracer) for leaf in leaves):
        try:
            fun(jax.tree_util.tree_unflatten(treedef, [_host_tensor(t.data, t) for t in leaves]))
        except Exception as error:
            raise HookError(f"{what} raised {type(error).__name__}: {error}") from error
        return

    def callback(*arrays):
        try:
            fun(jax.tree_util.tree_unflatten(treedef, [_host_tensor(a, t) for a, t in zip(arrays, leaves)]))
        except BaseException as error:  # noqa: BLE001 -- kept and raised after the call (an interrupt too)
            keep_error(what, error)

    note_traced_callback()
    jax.debug.callback(callback, *[t.data for t in leaves], ordered=True)


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
    raised, as a `HookError`; a KeyboardInterrupt (or other exception that is not an
    error, such as SystemExit) is raised as it is, so an interrupt inside a callback
    reaches the caller as an interrupt, and the defn runs again on the next call. A loop
    check's stop that the platform reports only here is raised as `numbat.Interrupted`."""
    stopped = _interrupt.barrier()
    if stopped is not None:
        drop_pending()
        raise stopped
    with _errors_lock:
        pending, _errors[:] = list(_errors), []
    if pending:
        what, error = pending[0]
        if not isinstance(error, Exception):
            raise error
        raise HookError(f"{what} raised {type(error).__name__}: {error}") from error


def drop_pending() -> None:
    """Drops what the callbacks of a stopped call kept (its result is never read)."""
    _interrupt.barrier()
    with _errors_lock:
        _errors.clear()


_interrupt.on_stop.append(drop_pending)


def hook(tensor, fun_or_name, name=None):
    """Calls `fun_or_name(value)` with the tensor's value when the code runs, and returns
    `tensor`. With a name (a string) instead of a function, the defn's `hooks=` option
    supplies the function, or nothing happens. A name and a function, in either order
    (`nbt.hook(t, "seen", fun)` as Nx's hook/3, or `nbt.hook(t, fun, name="seen")`), name
    a hook whose function `hooks=` may replace.

    >>> @nbt.defn(hooks={"seen": lambda t: print("seen", t.to_numpy())})
    ... def double(t):
    ...     return nbt.hook(t * 2, "seen")
    >>> _ = double(nbt.tensor([1, 2]))
    seen [2 4]
    """
    if not isinstance(tensor, (tuple, list, dict)):  # a container of tensors passes whole, as in Nx
        tensor = _dispatch.to_tensor(tensor)
    if isinstance(fun_or_name, str):
        if name is None:
            return io_call(tensor, fun_or_name)
        if not callable(name):
            raise ArgumentError(
                f"hook got the name {fun_or_name!r} and then {type(name).__name__} {name!r}: "
                "give a name and a function, as nbt.hook(t, name, fun) or nbt.hook(t, fun, name=name)"
            )
        return io_call(tensor, fun_or_name, name, _kind="hook")
    if not callable(fun_or_name):
        raise ArgumentError(f"hook needs a function or a hook name, got {type(fun_or_name).__name__} {fun_or_name!r}")
    if name is not None and not isinstance(name, str):  # found by the fuzz: an array as the name
        raise ArgumentError(f"hook's name must be a string, got {type(name).__name__} {name!r}")
    return io_call(tensor, name or getattr(fun_or_name, "__name__", "hook"), fun_or_name, _kind="hook")


def io_call(tensors, fun_or_name, fun=None, *, _kind="io_call"):
    """Nx's `io_call`: calls a function for its side effects with the value of `tensors`
    (a tensor or a tuple, list or dict of them) when the code runs, and returns `tensors`
    unchanged. `fun_or_name` is the function, or a name: the defn's `hooks=` option then
    supplies the function, else `fun`, else nothing happens.

    >>> totals = []
    >>> step = nbt.jit(lambda t: nbt.io_call({"t": t, "sum": nbt.sum(t)}, lambda d: totals.append(int(d["sum"])))["t"] + 1)
    >>> step(nbt.tensor([1, 2, 3]))
    numbat.Tensor<
      s32[3]
      [2, 3, 4]
    >
    >>> totals
    [6]
    """
    if isinstance(fun_or_name, str):
        label, fun = fun_or_name, (active_hooks.get() or {}).get(fun_or_name, fun)
        if fun is None:
            return tensors
    else:
        label, fun = getattr(fun_or_name, "__name__", "io_call"), fun_or_name
    if not callable(fun):
        raise ArgumentError(f"{_kind} needs a function or a name, got {type(fun).__name__} {fun!r}")
    if not isinstance(tensors, Tensor) and not isinstance(tensors, (tuple, list, dict)):
        tensors = _dispatch.to_tensor(tensors)
    _check.nesting(f"the value of {_kind} {label!r}", tensors)
    leaves, treedef = jax.tree_util.tree_flatten(tensors, is_leaf=is_tensor)
    leaves = [_dispatch.to_tensor(leaf) for leaf in leaves]
    value = jax.tree_util.tree_unflatten(treedef, leaves)
    _run(fun, value, f"{_kind} {label!r}")
    recorder = _expr.current()
    if recorder is not None:
        recorder.record_many(_kind, tuple(leaves), {"name": label}, leaves)
    return value


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
