"""Streaming (EXLA's `stream`): a compiled step function fed one chunk at a time,
carrying state from chunk to chunk.

`fun(chunk, state)` returns `(output, new_state)`. `send(chunk)` runs one step
(asynchronously on the device: JAX dispatches and returns), `recv()` returns the
oldest output not yet received, and `done()` returns the final state. At most
`max_pending` outputs wait to be received: a `send` beyond that raises, so a producer
cannot run unboundedly ahead of its consumer (back-pressure without a second thread).
"""

from __future__ import annotations

import collections
import typing

from .._errors import ArgumentError
from .._ops import _dispatch
from .._tensor import Tensor
from ..backends._abstract import Template
from . import _lowering

_compiled: dict = {}


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
        chunk = _dispatch.to_tensor(chunk)
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


def stream(fun, args, max_pending: int = 1, **opts) -> Stream:
    """A stream over `fun(chunk, state) -> (output, state)`; `args` is
    `[chunk_template, initial_state]`.

    >>> s = nbt.xla.stream(lambda x, acc: (acc, x + acc), [nbt.template((), "s64"), 0])
    >>> outputs = []
    >>> for chunk in [1, 2, 3, 4, 5]:
    ...     s.send(nbt.tensor(chunk, type="s64"))
    ...     outputs.append(nbt.to_number(s.recv()))
    >>> outputs, nbt.to_number(s.done())
    ([0, 1, 3, 6, 10], 15)
    """
    if not isinstance(args, (list, tuple)) or len(args) != 2:
        raise ArgumentError("stream(fun, [chunk_template, initial_state]) needs exactly those two arguments")
    if isinstance(max_pending, bool) or not isinstance(max_pending, int) or max_pending < 1:
        raise ArgumentError(f"stream: max_pending must be a positive int, got {max_pending!r}")
    chunk = _template(args[0])
    target = _lowering.as_defn(fun, **opts)
    state = _dispatch.to_tensor(args[1], target.backend)
    if state.type != chunk.type and isinstance(args[1], (int, float)):
        from .._ops.creation import as_type

        state = as_type(state, chunk.type)
    _compiled[(target.fun, chunk, Template(state.shape, state.type, state.names))] = True
    return Stream(target, chunk, state, max_pending)


def is_stream_cached(fun, args) -> bool:
    """Whether a stream of `fun` was started for these templates in this process."""
    if not isinstance(args, (list, tuple)) or len(args) != 2:
        raise ArgumentError("is_stream_cached(fun, [chunk_template, initial_state]) needs exactly those two arguments")
    chunk = _template(args[0])
    state = _dispatch.to_tensor(args[1])
    if state.type != chunk.type and isinstance(args[1], (int, float)):
        state = Template(state.shape, chunk.type, state.names)
    key = (fun.fun if hasattr(fun, "fun") else fun, chunk, _template(state))
    try:
        return key in _compiled
    except TypeError:  # an unhashable function was never streamed
        return False
