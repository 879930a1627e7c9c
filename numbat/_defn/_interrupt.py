"""Stopping a running loop: Ctrl-C (SIGINT, Jupyter's "Interrupt kernel") and a live
view's Stop button reach a compiled `while_loop` between its iterations (DESIGN
decision 19).

An interruptible loop (the defn option `interruptible=True`, or the default that
`%numbat interruptible on` and the numbat kernel set) compiles as two nested loops:
the inner one runs up to `stride` iterations of the body; between them a host
callback (`jax.experimental.io_callback`) asks whether a stop was requested and
returns the next stride, chosen so that checks come about every `TARGET_SECONDS`
(a loop that ends within its first stride never calls back). While a defn with such a
loop runs, `watching()` points `signal.set_wakeup_fd` at a pipe, so the callback sees a
SIGINT at once, even on a thread that is not the main one, and a SIGINT handler that
raises KeyboardInterrupt as usual except inside a host callback. The callback raises
an `Exception` (never a KeyboardInterrupt, which would kill the thread it runs on),
XLA aborts the program with a `JaxRuntimeError`, and the call raises
`numbat.Interrupted` naming the loop and how many iterations it ran.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import os
import signal
import threading
import time

import numpy as np

from .._core._errors import Interrupted
from . import _options

TARGET_SECONDS = 0.05  # about how often a running loop checks
FIRST_STRIDE = 16  # iterations before the first check: shorter loops never call back
GROWTH = 1024  # how much a stride may grow from one check to the next, toward the time target
MAX_STRIDE = 1 << 30

# The defn being traced: (its name, whether its loops compile the check); None outside one.
tracing: contextvars.ContextVar[tuple | None] = contextvars.ContextVar("numbat_interruptible", default=None)
_requested = threading.Event()  # a Stop button (or a SIGINT seen by the handler) asked to stop
_stopped: list = []  # (loop, iterations) of the loop that a check stopped
traced_checks = [0]  # how many checks tracing has put into compiled code (a defn notes the change)
_last: dict = {}  # loop label -> (time, count) of its last check
_state = {"pipe": None}  # the wakeup pipe's (read, write) ends, made at the first watch
_local = threading.local()  # depth: how deep this thread's watching() blocks are nested


class Stop(Exception):
    """Raised by the check inside a host callback to abort the compiled program."""


class _QuietStop(logging.Filter):
    """Drops JAX's log of a callback that raised `Stop` (the call raises Interrupted instead)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], Stop))


logging.getLogger("jax._src.callback").addFilter(_QuietStop())


def request_stop() -> None:
    """Asks the running interruptible loop (and the next one to start) to stop, as Ctrl-C does.

    >>> request_stop(); requested()
    True
    >>> clear()
    """
    _requested.set()


def requested() -> bool:
    """Whether a stop was asked for and not yet taken by a loop."""
    return _requested.is_set() or _signal_arrived()


def clear() -> None:
    """Forgets a stop that no loop took."""
    _requested.clear()
    _signal_arrived()


def _signal_arrived() -> bool:
    """Whether a SIGINT wrote its byte to the wakeup pipe since the last look (empties it)."""
    pipe = _state["pipe"]
    if pipe is None:
        return False
    try:
        data = os.read(pipe[0], 512)
    except BlockingIOError:
        return False
    return bytes([signal.SIGINT]) in data


def check(label: str, count, stride):
    """The host callback between strides: raises `Stop` when a stop was asked for, else
    returns the next stride (int32). `count` is the iteration count modulo 2**32; a
    stride is below 2**31, so a count smaller than the last check's has wrapped once. A
    run's first check comes after `FIRST_STRIDE` iterations with that stride."""
    now, count, stride = time.monotonic(), int(count), int(stride)
    if count == stride == FIRST_STRIDE:  # a run's first check
        _last.pop(label, None)
    last_time, last_count, wraps = _last.get(label, (now, -1, 0))
    if last_count >= 0 and count <= last_count % (1 << 32):
        wraps += 1
    count += wraps << 32
    if _signal_arrived() or _requested.is_set():
        _requested.clear()
        _last.pop(label, None)
        _stopped[:] = [(label, count)]
        raise Stop(f"numbat.Interrupted: {label} stopped after {count:,} iterations")
    _last[label] = (now, count, wraps)
    if last_count < 0 or count <= last_count or now <= last_time:
        return np.int32(min(stride * 2, MAX_STRIDE))
    per_iteration = (now - last_time) / (count - last_count)
    return np.int32(max(1, min(int(TARGET_SECONDS / per_iteration), stride * GROWTH, MAX_STRIDE)))


def label(body, eager: bool = False) -> str | None:
    """How messages name a loop with this `body`, or None when a compiled loop traced now
    is not interruptible (the tracing defn's option, else the default defn options).

    >>> def step(state): return state
    >>> label(step, eager=True)
    'while_loop step'
    """
    where = tracing.get()
    on = _options.effective({}).get("interruptible", False) if where is None else where[1]
    if not (on or eager):
        return None
    name = getattr(body, "__name__", "<lambda>")
    loop = "while_loop" if name == "<lambda>" else f"while_loop {name}"
    return loop + (f" (in defn {where[0]})" if where is not None else "")


def interrupted(loop: str, count: int) -> Interrupted:
    """The error for `loop` stopped after `count` iterations.

    >>> interrupted("while_loop step", 4096)
    Interrupted('while_loop step stopped after 4,096 iterations: interrupted (Ctrl-C, Interrupt kernel or a Stop button). The kernel and its variables are intact; the loop state is lost (bound the loop with a counter in its condition, or run it in shorter calls, to keep it)')
    """
    return Interrupted(
        f"{loop} stopped after {count:,} iterations: interrupted (Ctrl-C, Interrupt kernel or a Stop button). "
        "The kernel and its variables are intact; the loop state is lost (bound the loop with a counter in "
        "its condition, or run it in shorter calls, to keep it)"
    )


_CALLBACK_FILES = tuple(os.path.join("jax", "_src", name) for name in ("callback.py", "debugging.py"))


def _in_callback(frame) -> bool:
    """Whether `frame` runs inside a JAX host callback (an `io_callback`, or a hook's
    `jax.debug.callback`), where raising would kill the program's thread or be kept."""
    while frame is not None:
        if frame.f_code.co_filename.endswith(_CALLBACK_FILES):
            return True
        frame = frame.f_back
    return False


def _on_sigint(signum, frame) -> None:
    """SIGINT while watching: inside a host callback, a request to stop; after a check
    already took this signal, nothing; elsewhere, KeyboardInterrupt as usual."""
    if _in_callback(frame):
        _requested.set()
        return
    if _stopped:
        return
    raise KeyboardInterrupt


@contextlib.contextmanager
def watching():
    """Routes SIGINT to the interrupt checks for the `with` block, and raises
    `numbat.Interrupted` when a check stopped a loop in it (`nbt.interruptible()`; a
    defn with interruptible loops watches its own calls). SIGINT is routed in the main
    thread only (elsewhere only stop requests reach the loop; nested, the outer block
    does it all); the previous SIGINT handler and wakeup fd come back after, also on error.

    >>> with nbt.interruptible():
    ...     signal.getsignal(signal.SIGINT) is _on_sigint
    True
    >>> signal.getsignal(signal.SIGINT) is _on_sigint
    False
    """
    if getattr(_local, "depth", 0):  # nested: the outer block converts
        yield
        return
    install = threading.current_thread() is threading.main_thread()  # else only stop requests reach it
    if install and _state["pipe"] is None:
        read, write = os.pipe()
        os.set_blocking(read, False)
        os.set_blocking(write, False)
        _state["pipe"] = (read, write)
    if install:
        previous_handler = signal.signal(signal.SIGINT, _on_sigint)
        previous_fd = signal.set_wakeup_fd(_state["pipe"][1], warn_on_full_buffer=False)
    _local.depth = 1
    _stopped.clear()
    try:
        yield
    except Exception:
        stopped = stopped_error()
        if stopped is None:
            raise
        raise stopped from None
    finally:
        _local.depth = 0
        if install:
            signal.set_wakeup_fd(previous_fd)
            # A handler installed outside Python reads as None: the default is the closest.
            signal.signal(signal.SIGINT, signal.SIG_DFL if previous_handler is None else previous_handler)


interruptible = watching  # the public name: `with nbt.interruptible(): jax.jit(f)(x)`


def stopped_error() -> Interrupted | None:
    """The `Interrupted` error for a call that a check stopped (else None)."""
    if not _stopped:
        return None
    (loop, count), _stopped[:] = _stopped[0], []
    return interrupted(loop, count)


def watched(call, name: str):
    """`call` (a compiled defn entry) run under `watching()`."""

    def run(*datas):
        with watching():
            return call(*datas)

    run.__name__ = f"interruptible_{name}"
    return run
