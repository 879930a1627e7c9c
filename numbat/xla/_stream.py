"""Streaming (EXLA's `stream`): a compiled step function fed one chunk at a time,
carrying state from chunk to chunk.

`fun(chunk, state)` returns `(output, new_state)`. `send(chunk)` runs one step
(asynchronously on the device: JAX dispatches and returns), `recv()` returns the
oldest output not yet received, and `done()` returns the final state. At most
`max_pending` outputs wait to be received: a `send` beyond that raises, so a producer
cannot run unboundedly ahead of its consumer (back-pressure without a second thread).

The step is the defn `nbt.jit(fun, **opts)`, shared by every stream of the same
function and options, so a second stream of the same signature compiles nothing;
`is_stream_cached` asks that defn's cache. A Python number or NumPy scalar sent as a
chunk is weak (docs/design.md, decision 3): it takes the chunk template's type.
"""

from __future__ import annotations

import collections
import numbers
import typing

import jax
import numpy as np

from .._core._errors import ArgumentError
from .._core._types import is_number
from .._defn._jit import jit
from .._defn._signature import Signature
from .._ops import _dispatch
from .._tensor._tensor import Template, Tensor


def _template(value) -> Template:
    if isinstance(value, Template):
        return value
    tensor = _dispatch.to_tensor(value)
    return Template(tensor.shape, tensor.type, tensor.names)


@typing.final
class Stream:
    """A running stream; see `nbt.xla.stream`."""

    def __init__(self, step, chunk: Template, state: Tensor, max_pending: int):
        self._step, self._chunk, self._state = step, chunk, state
        self._pending: collections.deque = collections.deque()
        self._max_pending = max_pending
        self._done = False

    def send(self, chunk) -> None:
        """Runs one step on `chunk` (of the stream's chunk template)."""
        if self._done:
            raise ArgumentError("stream.send after stream.done(): the stream is finished; start a new one")
        if len(self._pending) >= self._max_pending:
            raise ArgumentError(
                f"stream.send: {len(self._pending)} output(s) not received yet; call stream.recv() first"
            )
        chunk = _weak(chunk, self._chunk) if is_number(chunk) else _dispatch.to_tensor(chunk)
        got = Template(chunk.shape, chunk.type, chunk.names)
        if (got.shape, got.type) != (self._chunk.shape, self._chunk.type):
            raise ArgumentError(f"stream.send: expected a chunk of {self._chunk}, got {got}")
        output, self._state = self._step(chunk, self._state)
        self._pending.append(output)

    def recv(self):
        """The oldest output not yet received."""
        if not self._pending:
            raise ArgumentError("stream.recv: no output is waiting; send a chunk first")
        return self._pending.popleft()

    def done(self):
        """Ends the stream and returns the final state (outputs not received are dropped)."""
        if self._done:
            raise ArgumentError("stream.done() was already called")
        self._done = True
        self._pending.clear()
        return self._state


def _weak(value, template: Template) -> Tensor:
    """A Python number or NumPy scalar as a chunk of `template`'s type, when it is
    representable there as a weak value (an int in any numeric type, a float in a
    floating or complex type, a complex number in a complex type)."""
    kind = template.type
    fits = (
        isinstance(value, (numbers.Integral, np.bool_))
        or (isinstance(value, numbers.Real) and (kind.is_float or kind.is_complex))
        or kind.is_complex
    )
    if not fits or template.shape != ():
        raise ArgumentError(
            f"stream.send: expected a chunk of {template}, got the {type(value).__name__} {value!r}"
            + ("" if template.shape == () else " (a number is a scalar chunk)")
        )
    return _dispatch.to_tensor(np.asarray(value, dtype=kind.dtype))


def _state(value, chunk: Template) -> Tensor:
    state = _dispatch.to_tensor(value)
    if state.type != chunk.type and is_number(value) and not isinstance(value, bool):
        state = _weak(value, Template((), chunk.type, ()))
    return state


def _signature(chunk: Template, state) -> Signature:
    """The step's call signature for a chunk template and a state (tensor or template)."""
    treedef = jax.tree_util.tree_structure((Tensor(0, None, (), None),) * 2, is_leaf=lambda v: isinstance(v, Tensor))
    return Signature(treedef, (chunk, Template(state.shape, state.type, state.names)), (), ())


def stream(fun, args, max_pending: int = 1, **opts) -> Stream:
    """A stream over `fun(chunk, state) -> (output, state)`; `args` is
    `[chunk_template, initial_state]`. Its step compiles on the first `send` (for the
    first stream of this function, options and signature; later streams reuse it).

    >>> s = nbt.xla.stream(lambda x, acc: (acc, x + acc), [nbt.template((), "s64"), 0])
    >>> outputs = []
    >>> for chunk in [1, 2, 3, 4, 5]:
    ...     s.send(chunk)
    ...     outputs.append(nbt.to_number(s.recv()))
    >>> outputs, nbt.to_number(s.done())
    ([0, 1, 3, 6, 10], 15)
    """
    if not isinstance(args, (list, tuple)) or len(args) != 2:
        raise ArgumentError("stream(fun, [chunk_template, initial_state]) needs exactly those two arguments")
    if isinstance(max_pending, bool) or not isinstance(max_pending, int) or max_pending < 1:
        raise ArgumentError(f"stream: max_pending must be a positive int, got {max_pending!r}")
    if not callable(fun):
        raise ArgumentError(f"stream needs a function or a defn, got {type(fun).__name__} {fun!r}")
    chunk = _template(args[0])
    target = jit(fun, **opts)
    state = _dispatch.to_tensor(_state(args[1], chunk), target.backend)
    return Stream(target, chunk, state, max_pending)


def is_stream_cached(fun, args, **opts) -> bool:
    """Whether the step of a stream of `fun` (with `opts`) has compiled for these
    templates: False until a stream of it ran its first `send`.

    >>> step = lambda x, acc: (acc, x + acc)
    >>> nbt.xla.is_stream_cached(step, [nbt.template((), "s32"), 0])
    False
    >>> s = nbt.xla.stream(step, [nbt.template((), "s32"), 0])
    >>> nbt.xla.is_stream_cached(step, [nbt.template((), "s32"), 0])
    False
    >>> s.send(1)
    >>> nbt.xla.is_stream_cached(step, [nbt.template((), "s32"), 0])
    True
    """
    if not isinstance(args, (list, tuple)) or len(args) != 2:
        raise ArgumentError("is_stream_cached(fun, [chunk_template, initial_state]) needs exactly those two arguments")
    if not callable(fun):
        raise ArgumentError(f"is_stream_cached needs a function or a defn, got {type(fun).__name__} {fun!r}")
    chunk = _template(args[0])
    state = args[1] if isinstance(args[1], Template) else _state(args[1], chunk)
    return _signature(chunk, state) in jit(fun, **opts)._cache
