"""`Defn`: a numerical definition traced once per input signature and compiled
through JAX to XLA (or run op by op by the Evaluator).

The class holds a defn's options, its caches and its counters, and routes each call
(`Defn.__call__`, through the named routes of `_call`). The jobs live beside it, one
module each: tracing and the graph recorded while tracing (`_trace`), lowering,
compiling and the disk cache (`_lower`), and the compilation's telemetry, log line and
recompilation warning (`_report`).

A defn called while another one traces (or inside `grad`, a branch or a loop
body) is inlined into the caller, as in Nx, so composition, recursion with a
static stopping argument and `grad` of a defn never compile or lock on their
own. Compiling takes the defn's re-entrant lock, so concurrent first calls from
several threads compile a signature once; hits take no lock.
"""

from __future__ import annotations

import functools
import threading
import typing
import weakref

from .. import telemetry
from .._ops import _dispatch
from .._tensor import _expr
from .._tensor._result import result
from .._tensor._tensor import Tensor, recording
from ..backends import _default
from ..backends.xla_backend import XLABackend
from . import _call, _evaluator, _lower, _options, _signature, _trace

_current_recorder = recording.get  # the tracing recorder, read without a call in between
_evaluating = _evaluator.evaluating  # whether a defn body runs under the Evaluator


def _to_tensor(backend):
    """A converter of defn arguments to tensors on `backend`: a tensor already on its
    device (an equal backend, or another XLA backend naming the same device) is not
    transferred."""

    def convert(value):
        tensor = _dispatch.to_tensor(value, backend)
        if tensor.backend == backend:
            return tensor
        if same_device(tensor.backend, backend):
            return Tensor(tensor.data, tensor.type, tensor.names, backend)
        return _default.transfer(tensor, backend)

    return convert


def same_device(one, other) -> bool:
    """Whether two backends are XLA backends on the same device (`XLABackend()` and
    `XLABackend("host", 0)` on the host: equal places, not equal objects)."""
    return isinstance(one, XLABackend) and isinstance(other, XLABackend) and one.device == other.device


def _name(fun) -> str:
    return getattr(fun, "__qualname__", None) or getattr(fun, "__name__", None) or repr(fun)


@typing.final
class Defn:
    """A numerical definition: calling it runs `fun` compiled for the
    arguments' signature (shapes, types, names, static values)."""

    def __init__(self, fun, compiler: str | None = None, **opts):
        if isinstance(fun, Defn):  # a defn given new options: its function, with them over its own
            opts = {"compiler": fun.compiler, **fun.options, **opts}
            fun = fun.fun
        if compiler is not None:
            opts["compiler"] = compiler
        _options.check(opts, "defn")
        # The options given here win; the defaults fill the rest, now and (the global ones,
        # as Nx's global default options) again whenever they change.
        self._explicit = {**_options.scoped_defaults(), **opts}
        self.fun = fun
        self._lock = threading.RLock()
        self._settle()
        _options.follow(self)
        self.name = _name(fun)
        self._compiles_per_shapes: dict[tuple, int] = {}
        self._earlier_hits = 0  # hits counted under an earlier name
        functools.update_wrapper(self, fun, updated=())  # name and docstring, not the wrapped object's state

    def _settle(self) -> None:
        """Applies the effective options (the global defaults under this defn's own) and
        empties the caches, which were compiled under the previous ones."""
        opts = {**_options.global_defaults(), **self._explicit}
        compiler = opts.pop("compiler", "xla")
        self.compiler = compiler
        self.options = dict(opts)
        self.backend = XLABackend(opts.get("client"), opts.get("device_id"))
        if self.backend == _default.current():
            self.backend = _default.current()  # the same object as the tensors' backend: an identity check on calls
        self.precision = opts.get("precision", "default")
        self.cache = opts.get("cache", True)
        self.debug = opts.get("debug", False)
        self.hooks = opts.get("hooks") or {}
        self.interruptible = opts.get("interruptible", False)  # its while_loops stop on Ctrl-C
        # EXLA's lazy_transfers (checked above) decides when host arguments reach the device;
        # jax.jit transfers them when the call starts, so every value behaves as "opt_in".
        self._convert = _to_tensor(self.backend)
        with self._lock:
            self._cache: dict[_signature.Signature, _lower.Entry] = {}
            # Route 2's entries by `_call.hot_key` (tensors in containers); None turns it off.
            self._hot: dict | None = {} if compiler == "xla" and self.cache is not False and not self.debug else None
            self._last_hot: tuple = _call.NO_HOT_CALL_YET  # route 2's last (key, entry)
            self._last: _signature.Signature | None = None
            # The last one-tensor call with one plain tensor out: a loop calls with the same
            # signature again and again.
            self._last_single: _call.SingleCall = _call.NO_CALL_YET
            self._devectorized: Defn | None = None  # compiles calls with vectorized tensors

    @property
    def name(self) -> str:
        """The name telemetry and messages use (the function's qualified name; settable)."""
        return self._name

    @name.setter
    def name(self, name: str) -> None:
        if hasattr(self, "_hits"):  # renamed: the hits so far stay with the old name
            self._release_hits()
            self._earlier_hits += self._hits[0]
        self._name = name
        # One live counter serves both cache_info() and telemetry.counts(): a hit bumps it once.
        self._hits = telemetry.hit_cell(name)
        self._release_hits = weakref.finalize(self, telemetry.release_cell, name, self._hits)

    @property
    def hits(self) -> int:
        """How many calls were served by a compiled entry."""
        return self._earlier_hits + self._hits[0]

    def __repr__(self) -> str:
        return f"<numbat.defn {self.name} ({self.compiler}, {self.cache_info()['compiled']} compiled)>"

    def cache_info(self) -> dict[str, int]:
        """How many times this defn compiled (an executable loaded from the disk cache
        counts; with `cache=False`, every call compiles) and how many calls hit the cache.

        >>> double = nbt.defn(lambda t: t * 2)
        >>> _ = double(nbt.tensor([1])), double(nbt.tensor([2])), double(nbt.tensor([1, 2]))
        >>> double.cache_info()
        {'compiled': 2, 'hits': 1}
        """
        compiled, hits = sum(self._compiles_per_shapes.values()), self.hits
        if self._devectorized is not None:  # calls with vectorized tensors compile in the companion
            companion = self._devectorized.cache_info()
            compiled, hits = compiled + companion["compiled"], hits + companion["hits"]
        return {"compiled": compiled, "hits": hits}

    def __call__(self, *args, **options):
        """Runs the defn on the arguments: inlined into a caller that traces or evaluates
        (`_call.inline`), else route 1 here, `_call.tensors` (route 2) or `_call.general`
        (route 3); `_call`'s docstring describes the routes."""
        # Whether the call is inlined is asked once, here, for every route: a defn tracing
        # (its recorder), or a defn body under the Evaluator.
        if _current_recorder() is not None or _evaluating():
            return _call.inline(self, args, options)
        # Route 1 is spelled out in this frame, not a route function of `_call`: it is the
        # loop's call that `numbat bench dispatch` times, and a function call more costs
        # 50-100 ns of its 4 µs. One tensor, the last one-tensor call's type, names, backend
        # object and shape, no options. Type and names are usually the very objects of the
        # last call, so `is` decides without a call. (`*args` as it comes: re-packing a first
        # argument and the rest costs more than `[0]`.)
        if not options and len(args) == 1:
            first = args[0]
            last = self._last_single
            try:
                data = first.data
                same = (
                    (first.type is last.type or first.type == last.type)
                    and (first.names is last.names or first.names == last.names)
                    and first.backend is last.backend
                    and data.aval.shape == last.shape
                )
            except AttributeError:  # not a tensor (or no argument)
                same = False
            if same:
                try:
                    out = last.call(data)
                except (RuntimeError, TypeError) as error:
                    _call.failed(self, args, (data,), error)  # the routes' one check of a failed call
                    return _call.general(self, args, options)  # a tracer of the caller's transformation
                self._hits[0] += 1  # `_call.count_hit`, spelled out
                if telemetry.listened:
                    telemetry.cache_hit(self.name, last.key, counted=True)
                return result(out, last.out_type, last.out_names, self.backend)
        if self._hot is None or options:
            return _call.general(self, args, options)
        return _call.tensors(self, args)

    def run(self, entry: _lower.Entry, tensors: list[Tensor]):
        """Runs a compiled entry on the parameters' tensors."""
        return _call.outputs(self, entry, entry.call(*[t.data for t in tensors]))

    def trace(self, signature: _signature.Signature, recorder: _expr.Recorder | None = None):
        """`_trace.trace` of this defn: a flat function of the parameters' data for JAX and
        the dict that receives its outputs' structure once traced."""
        return _trace.trace(self, signature, recorder)

    def lower(self, signature: _signature.Signature, datas: list | None = None):
        """`_lower.lower` of this defn: `(lowered, jitted, traced, plain_jit)`, the one
        lowering every view and the call share."""
        return _lower.lower(self, signature, datas)

    def lowering_context(self, x64: bool):
        """The settings this defn traces, lowers and compiles under (`_lower.lowering_context`)."""
        return _lower.lowering_context(self, x64)

    def _compile(self, signature: _signature.Signature, datas: list | None = None) -> _lower.Entry:
        """`_lower.compile` of this defn: the compiled entry of `signature`, reported."""
        return _lower.compile(self, signature, datas)

    def _traced_call(self, *tensors):
        """The body as a function of tensors, returning its output structure (`_trace.traced_call`)."""
        return _trace.traced_call(self, *tensors)
