"""Stopping a running loop: Ctrl-C (SIGINT, Jupyter's "Interrupt kernel") and a live
view's Stop button reach a compiled `while_loop` between its iterations (DESIGN
decision 19).

An interruptible loop (the defn option `interruptible=True`, or the default that
`%numbat interruptible on` and the numbat kernel set) compiles as two nested loops:
the inner one runs up to `stride` iterations of the body; between them a host
callback (`jax.experimental.io_callback`) returns a decision that the compiled loop
reads: the next stride, chosen so that checks come about every `TARGET_SECONDS`, or 0,
stop, which ends the outer loop (its condition is "the loop's own condition and the
stride is not 0"). A loop that ends within its first stride never calls back.

The stop does not rely on how a platform reports an exception raised in a host
callback (a GPU reports it late, elsewhere, or not at all). Each interruptible defn
call is a `Call`: it waits for its own result, with the check armed, and raises
`numbat.Interrupted` (naming the loop and its exact iteration count, counted in Python)
when a check stopped one of its loops, never handing back the partial state. Only
where numbat cannot see the result (a loop inside the caller's own `jax.jit`) does the
check raise `Stop` from the callback as well; `with nbt.interruptible():` turns that
error, wherever the platform reports it, or a stop recorded with no error at all, into
`Interrupted`.

A stop request belongs to the call it targets: Ctrl-C stops the main thread's running
call (never a loop another thread runs), `request_stop(thread)` or `request_stop(call)`
a given one. While a call runs on the main thread, `Scope` points `signal.set_wakeup_fd`
at a pipe, so a check sees a SIGINT at once whichever thread runs it, and installs a
SIGINT handler that turns the signal into a request for that call; both are installed
inside the `try` that restores them, and the pipe is drained on entry and exit. A SIGINT
that no check took is raised as an ordinary `KeyboardInterrupt` when the call ends, and
leaves nothing behind for a later call.
"""

from __future__ import annotations

import _signal  # the signal module without its enum conversions (about 50 µs a call)
import atexit
import contextvars
import itertools
import logging
import os
import signal
import threading
import time

import jax
import numpy as np

from .._core import _jax_private
from .._core._errors import ArgumentError, Interrupted
from . import _options

TARGET_SECONDS = 0.05  # about how often a running loop checks
FIRST_STRIDE = 16  # iterations before the first check: shorter loops never call back
GROWTH = 1024  # how much a stride may grow from one check to the next, toward the time target
MAX_STRIDE = 1 << 30
# Whether a check whose result numbat cannot see raises `Stop` from the callback (CPU's
# way). NUMBAT_STOP_RAISES=0 turns it off, to run the tests as a GPU behaves: the error
# is lost and the program ends as if the loop had finished.
RAISE_FROM_CALLBACK = os.environ.get("NUMBAT_STOP_RAISES", "1") != "0"
_MARK = "numbat.Interrupted:"  # how `Stop`'s message starts, wherever a platform reports it

# The defn being traced: (its name, whether its loops compile the check); None outside one.
tracing: contextvars.ContextVar[tuple | None] = contextvars.ContextVar("numbat_interruptible", default=None)
# Set while a defn traces into the caller's own JAX transformation: numbat does not see its result.
unseen: contextvars.ContextVar[bool] = contextvars.ContextVar("numbat_unseen_result", default=False)
traced_checks = [0]  # how many checks tracing has put into compiled code (a defn notes the change)
_lock = threading.Lock()
_stacks: dict = {}  # thread ident -> its running calls, innermost last
_active: list = []  # every running call, oldest first
_runs: dict = {}  # run id -> Run: one execution of a checked loop
_run_ids = itertools.count(1)
_state = {"pipe": None, "late": False}  # the wakeup pipe; a SIGINT that found no call to stop
on_stop: list = []  # called when a call stops: `_effects` drops what its hooks kept


class Stop(Exception):
    """Raised by the check inside a host callback to abort a program numbat cannot see."""


class _QuietStop(logging.Filter):
    """Drops JAX's log of a callback that raised `Stop` (the call raises Interrupted instead)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], Stop))


logging.getLogger("jax._src.callback").addFilter(_QuietStop())


class Call:
    """One running interruptible call (or `nbt.interruptible()` block, or eager loop) on
    `thread`: whether a stop was asked for it (`requested`; `sigint` when by Ctrl-C), and
    the loop a check stopped in it, `(label, iterations)`."""

    __slots__ = ("requested", "runs", "sigint", "stopped", "thread")

    def __init__(self, thread: threading.Thread):
        self.thread, self.requested, self.sigint, self.stopped, self.runs = thread, False, False, None, []

    def __repr__(self) -> str:
        return f"<numbat call on {self.thread.name}{', stop requested' if self.requested else ''}>"


class Run:
    """One execution of a checked loop: its call, its exact iteration count, its last check."""

    __slots__ = ("call", "count", "last_count", "last_time")

    def __init__(self, call: Call | None, now: float):
        self.call, self.count, self.last_count, self.last_time = call, 0, 0, now


def current_call(thread: threading.Thread | None = None) -> Call | None:
    """The innermost interruptible call running on `thread` (default: this one), or None."""
    stack = _stacks.get((thread or threading.current_thread()).ident)
    return stack[-1] if stack else None


def request_stop(target: Call | threading.Thread | None = None) -> Call | None:
    """Asks a running interruptible call to stop at its next check, as Ctrl-C does, and
    returns it (None when no such call runs: nothing is kept for a later one). `target`
    is a `Call`, a thread (the call it runs), or None: the call running on this thread
    (a hook asking), else the main thread's, else the only one running.

    >>> request_stop(threading.current_thread()) is None  # no call runs here
    True
    """
    if isinstance(target, Call):
        call = target
    elif isinstance(target, threading.Thread):
        call = current_call(target)
    elif target is None:
        call = current_call() or current_call(threading.main_thread())
        if call is None and len(_active) == 1:
            call = _active[0]
    else:
        raise ArgumentError(f"request_stop takes a call, a thread or nothing, got {type(target).__name__} {target!r}")
    if call is not None:
        call.requested = True
    return call


def requested(call: Call | None = None) -> bool:
    """Whether a stop was asked for `call` (default: this thread's) and not yet taken."""
    call = call or current_call()
    _take_signals()
    return call is not None and call.requested


def _take_signals() -> None:
    """Turns the SIGINTs written to the wakeup pipe since the last look into a request for
    the main thread's running call (empties the pipe)."""
    pipe = _state["pipe"]
    if pipe is None:
        return
    try:
        data = os.read(pipe[0], 512)
    except (BlockingIOError, OSError):
        return
    if bytes([signal.SIGINT]) in data:
        call = current_call(threading.main_thread())
        if call is not None:
            call.requested = call.sigint = True


def _drain() -> None:
    pipe = _state["pipe"]
    if pipe is None:
        return
    try:
        while os.read(pipe[0], 512):
            pass
    except (BlockingIOError, OSError):
        pass


def _bind() -> Call | None:
    """The call a run starting now belongs to: the one running on this thread (the
    program runs on its caller's thread), else the oldest running call (the program ran
    on a runtime thread, after the work queued before it)."""
    call = current_call()
    if call is None and _active:
        call = _active[0]
    return call


def check(label: str, raising: bool, run_id, done, stride):
    """The host callback between strides. `run_id` is 0 at a run's first check (the
    reply gives its id), `done` the iterations since the last check, `stride` the last
    stride. Returns `[run_id, next stride]` (int32), the next stride 0 when the run's call
    was asked to stop; with `raising` (numbat does not see the result) it raises `Stop`
    instead, as long as `RAISE_FROM_CALLBACK`."""
    now, run_id, done, stride = time.monotonic(), int(run_id), int(done), int(stride)
    run = _runs.get(run_id)
    if run is None:
        run = Run(_bind(), now)
        run_id = next(_run_ids) % ((1 << 31) - 1) or next(_run_ids)
        _runs[run_id] = run
        if run.call is not None:
            run.call.runs.append(run_id)
        elif len(_runs) > 4096:  # runs of no call that ended without a stop
            for stale in [k for k, r in _runs.items() if r.call is None][:2048]:
                _runs.pop(stale, None)
    run.count += done
    _take_signals()
    call = run.call
    if call is not None and (call.requested or call.stopped is not None):  # stopped: its other loops end too
        call.requested = False
        if call.stopped is None:
            call.stopped = (label, run.count)
        _runs.pop(run_id, None)
        if raising and RAISE_FROM_CALLBACK:
            raise Stop(f"{_MARK} {label} stopped after {run.count:,} iterations")
        return np.array([run_id, 0], np.int32)
    last_time, last_count = run.last_time, run.last_count
    run.last_time, run.last_count = now, run.count
    if last_count == 0 or run.count <= last_count or now <= last_time:
        return np.array([run_id, min(stride * 2, MAX_STRIDE)], np.int32)
    per_iteration = (now - last_time) / (run.count - last_count)
    return np.array([run_id, max(1, min(int(TARGET_SECONDS / per_iteration), stride * GROWTH, MAX_STRIDE))], np.int32)


def raising() -> bool:
    """Whether a check traced now must raise to stop: numbat will not see the result (a
    loop in the caller's own `jax.jit`, outside any defn or through one)."""
    return tracing.get() is None or unseen.get()


def label(body, eager: bool = False, kind: str = "while_loop") -> str | None:
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
    loop = kind if name == "<lambda>" else f"{kind} {name}"
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


def reported_stop(error: BaseException) -> Interrupted | None:
    """The `Interrupted` for an error by which a platform reported a check's `Stop` (a
    `JaxRuntimeError` at the call, at `block_until_ready` or at `effects_barrier`), else None."""
    text = str(error)
    if isinstance(error, Stop) or _MARK in text:
        loop = text.split(_MARK, 1)[1].strip() if _MARK in text else "a while_loop"
        loop = loop.split(" stopped after ")
        count = loop[1].split(" iterations")[0] if len(loop) > 1 else "0"
        try:
            return interrupted(loop[0], int(count.replace(",", "")))
        except ValueError:
            return interrupted(loop[0], 0)
    return None


def _on_sigint(signum, frame) -> None:
    """SIGINT while an interruptible call runs on the main thread: a request to stop it
    (its next check takes it; if none does, the call raises KeyboardInterrupt when it
    ends). Never raises, so it cannot break a hook or the scope's own bookkeeping."""
    call = current_call(threading.main_thread())
    if call is not None:
        call.requested = call.sigint = True
    else:
        _state["late"] = True


class Scope:
    """A running interruptible call on this thread (see the module's docstring): pushes a
    `Call`, and on the main thread, when it is the outermost, installs the SIGINT handler
    and the wakeup fd. On exit it restores both, drains the pipe and forgets the call;
    it raises `Interrupted` when a check stopped a loop in it (an error the platform
    reported for that stop included), and `KeyboardInterrupt` for a SIGINT no check took."""

    __slots__ = ("call", "installed", "previous_fd", "previous_handler")

    def __enter__(self) -> Call:
        self.installed = 0
        thread = threading.current_thread()
        call = self.call = Call(thread)
        try:
            with _lock:
                stack = _stacks.setdefault(thread.ident, [])
                stack.append(call)
                _active.append(call)
            if thread is threading.main_thread() and len(stack) == 1:
                if _state["pipe"] is None:
                    read, write = os.pipe()
                    os.set_blocking(read, False)
                    os.set_blocking(write, False)
                    _state["pipe"] = (read, write)
                _state["late"] = False
                # The handler first: from here on a SIGINT is a request, never an exception.
                self.previous_handler = _signal.signal(signal.SIGINT, _on_sigint)
                self.installed = 1
                self.previous_fd = _signal.set_wakeup_fd(_state["pipe"][1], warn_on_full_buffer=False)
                self.installed = 2
                _drain()
        except BaseException:
            self._leave()
            raise
        return call

    def _leave(self) -> bool:
        """Restores what `__enter__` installed; returns whether a SIGINT no check took came."""
        call = self.call
        if self.installed == 2:
            _signal.set_wakeup_fd(self.previous_fd)
        if self.installed:
            _take_signals()
            _drain()
        with _lock:
            stack = _stacks.get(call.thread.ident)
            if stack and stack[-1] is call:
                stack.pop()
            elif stack and call in stack:
                stack.remove(call)
            if not stack:
                _stacks.pop(call.thread.ident, None)
            if call in _active:
                _active.remove(call)
        for run_id in call.runs:
            _runs.pop(run_id, None)
        late = call.sigint and call.requested  # a SIGINT for this call that no check took
        if self.installed:
            previous = self.previous_handler
            # A handler installed outside Python reads as None: the default is the closest.
            _signal.signal(signal.SIGINT, _signal.SIG_DFL if previous is None else previous)
            late = late or _state["late"]  # one that came once the call was forgotten
            _state["late"] = False
        elif late and call.thread is not threading.main_thread():
            late = False  # another thread's call: Ctrl-C is the main thread's
        return late

    def __exit__(self, kind, error, traceback) -> None:
        late = self._leave()
        stopped = self.call.stopped
        if stopped is not None:
            if error is None or isinstance(error, Exception):
                raise interrupted(*stopped) from None
            return
        if isinstance(error, Exception) and not isinstance(error, Interrupted):
            converted = reported_stop(error)
            if converted is not None:
                raise converted from None
        if late and error is None:
            raise KeyboardInterrupt


def interruptible() -> Scope:
    """`with nbt.interruptible(): jax.jit(f)(x)`: the interruptible loops run in the block
    (also defns inside the caller's own `jax.jit`) stop on Ctrl-C with `numbat.Interrupted`,
    whether the platform reports the check's error at the call, later, or not at all (a
    stop recorded in the block raises when it ends: read the result inside the block).
    The SIGINT handler and wakeup fd come back after, also on error.

    >>> with nbt.interruptible():
    ...     signal.getsignal(signal.SIGINT) is _on_sigint
    True
    >>> signal.getsignal(signal.SIGINT) is _on_sigint
    False
    """
    return Scope()


def _ready(out) -> None:
    """Waits for a call's result (one array or a tuple of them)."""
    for data in out if isinstance(out, tuple) else (out,):
        data.block_until_ready()


def watched(call, name: str):
    """`call` (a compiled defn entry) run as an interruptible call: it waits for its own
    result with the check armed (so a call queued behind earlier work stops too), and
    raises `Interrupted` when a check stopped one of its loops, dropping what the stopped
    program's hooks left (`on_stop`). Called with tracers (inside the caller's `jax.jit`)
    it raises TypeError, and the defn's call traces anew, with checks that raise."""

    def run(*datas):
        for data in datas:
            if isinstance(data, jax.core.Tracer):  # the caller's own `jax.jit`: the defn traces anew
                raise TypeError("an interruptible defn called with tracers traces into the caller's transformation")
        try:
            with Scope():
                out = call(*datas)
                _ready(out)
            return out
        except Interrupted:
            for drop in on_stop:
                drop()
            raise

    run.__name__ = f"interruptible_{name}"
    return run


def barrier() -> Interrupted | None:
    """`jax.effects_barrier()`: waits for the callbacks of the calls so far. A check's
    `Stop` that the platform reports only there is returned as `Interrupted` (and JAX's
    tokens that carry it are forgotten, else every later barrier, JAX's own at exit
    included, would report it again); any other error is raised."""
    try:
        jax.effects_barrier()
    except Exception as error:
        stopped = reported_stop(error)
        if stopped is None:
            raise
        _jax_private.forget_runtime_tokens()
        return stopped
    return None


atexit.register(barrier)  # after JAX's own: runs before it, so a stop is not printed at exit
