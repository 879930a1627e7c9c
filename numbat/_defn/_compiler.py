"""`defn`, `jit`, `jit_apply`, `compile`, `debug_expr`: numerical definitions
that trace once per input signature and compile through JAX to XLA.

Every compilation emits `("numbat", "compilation")` with `eval_time` (trace
and lowering), `compile_time` (XLA) and `total_time` in µs; a call that finds
its executable in the cache emits `("numbat", "cache_hit")` instead.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import threading
import time
import typing
import warnings

import jax

from .. import _expr, telemetry
from .._errors import ArgumentError
from .._ops import _dispatch
from .._scoped import scoped
from .._tensor import Tensor, is_tensor
from .._types import is_number
from ..backends import _default, backend_transfer
from ..backends._abstract import Template
from ..backends.xla_backend import XLABackend
from ..xla import _config
from . import _effects, _options, _signature

_logger = logging.getLogger("numbat.defn")
RECOMPILATION_WARNING = 5  # compiles for the same shapes before warning, as EXLA's check_recompilation


class RecompilationWarning(UserWarning):
    """A defn keeps recompiling for the same input shapes."""


COMPILERS = ("xla", "evaluator")
# What calling a defn with the wrong arguments typically raises inside it (a different container
# structure, a missing key, JAX's concretization errors): reported as numbat.ArgumentError.
_MISUSE = (TypeError, ValueError, KeyError, IndexError, AttributeError)
OPTIONS = ("client", "device_id", "precision", "cache", "debug", "hooks")


class _Entry(typing.NamedTuple):
    executable: object
    out_treedef: object
    out_templates: tuple
    key: str


def _to_tensor(backend):
    """A converter of defn arguments to tensors on `backend`."""

    def convert(value):
        tensor = _dispatch.to_tensor(value, backend)
        return tensor if tensor.backend == backend else backend_transfer(tensor, backend)

    return convert


def _name(fun) -> str:
    return getattr(fun, "__qualname__", None) or getattr(fun, "__name__", None) or repr(fun)


@typing.final
class Defn:
    """A numerical definition: calling it runs `fun` compiled for the
    arguments' signature (shapes, types, names, static values)."""

    def __init__(self, fun, compiler: str | None = None, **opts):
        opts = _options.effective(opts)
        compiler = opts.pop("compiler", "xla") if compiler is None else compiler
        if compiler not in COMPILERS:
            raise ArgumentError(f"unknown defn compiler {compiler!r}; compilers are {', '.join(COMPILERS)}")
        unknown = set(opts) - set(OPTIONS)
        if unknown:
            raise ArgumentError(f"unknown defn option(s) {sorted(unknown)}; options are {', '.join(OPTIONS)}")
        self.fun = fun
        self.compiler = compiler
        self.backend = XLABackend(opts.get("client"), opts.get("device_id", 0))
        self.precision = opts.get("precision", "default")
        _config.precision_name(self.precision)  # checks the value
        self.cache = opts.get("cache", True)
        if not isinstance(self.cache, (bool, str, os.PathLike)):
            raise ArgumentError(f"defn option cache must be True, False or a directory path, got {self.cache!r}")
        self.debug = bool(opts.get("debug", False))
        self.hooks = opts.get("hooks") or {}
        if not isinstance(self.hooks, dict) or not all(
            isinstance(k, str) and callable(v) for k, v in self.hooks.items()
        ):
            raise ArgumentError(f"defn option hooks must map hook names to functions, got {self.hooks!r}")
        self._effectful = False  # set when tracing put run-time callbacks (hooks, print_value) into the code
        # jit's C++ dispatch serves calls that need nothing else: the in-memory cache, default precision.
        self._dispatch_fast = self.cache is True and self.precision == "default" and not self.debug
        self.name = _name(fun)
        self._convert = _to_tensor(self.backend)
        self._cache: dict[_signature.Signature, _Entry] = {}
        self._last: _signature.Signature | None = None
        self._lock = threading.RLock()
        self._jitted = jax.jit(self._traced_call)
        self._jitted_signatures: set[_signature.Signature] = set()
        self._traced = None
        self._compiles_per_shapes: dict[tuple, int] = {}
        self.hits = 0
        functools.update_wrapper(self, fun, updated=())  # name and docstring, not the wrapped object's state

    def __repr__(self) -> str:
        return f"<numbat.defn {self.name} ({self.compiler}, {self.cache_info()['compiled']} compiled)>"

    def cache_info(self) -> dict[str, int]:
        """How many signatures are compiled and how many calls hit the cache."""
        return {"compiled": len(self._jitted_signatures | set(self._cache)), "hits": self.hits}

    def __call__(self, *args, **options):
        if _expr.current() is not None:
            # Called while another defn (or grad, or a control-flow branch) traces: inline the
            # body into the caller's graph, as Nx does, instead of compiling it on its own.
            return self.fun(*args, **options)
        if self.compiler == "evaluator":
            with _default.default_backend(self.backend):
                return self.fun(*args, **options)
        fast = None if options or not self._dispatch_fast else self._fast_args(args)
        if fast is not None:
            result = self._call_jitted(fast)
            if self._effectful:
                _effects.raise_pending()
            return result
        signature, tensors = _signature.flatten(args, options, self._convert)
        entry = self._cache.get(signature)
        if entry is None:
            with self._lock:
                entry = self._cache.get(signature) or self._compile(signature)
                if self.cache is False:
                    del self._cache[signature]
        else:
            self.hits += 1
            telemetry.cache_hit(self.name, lambda: entry.key)
            if self.debug:
                _logger.info("defn %s: cache hit for %s", self.name, signature.describe())
        result = self.run(entry, tensors)
        if self._effectful:
            _effects.raise_pending()
        return result

    def run(self, entry: _Entry, tensors: list[Tensor]):
        """Runs a compiled entry on the parameters' tensors."""
        with jax.enable_x64(True):
            outputs = entry.executable(*[t.data for t in tensors])
        results = [Tensor(data, t.type, t.names, self.backend) for data, t in zip(outputs, entry.out_templates)]
        return jax.tree_util.tree_unflatten(entry.out_treedef, results)

    def trace(self, signature: _signature.Signature, recorder: _expr.Recorder | None = None):
        """A flat function of the parameters' data for JAX, and a dict that
        receives the output structure and templates once it has traced."""
        traced = {}

        def flat(*datas):
            params = [Tensor(d, t.type, t.names, self.backend) for d, t in zip(datas, signature.templates)]
            treedef, outputs = self._run_body(signature, params, recorder or _expr.Recorder())
            traced["treedef"], traced["outputs"] = treedef, outputs
            traced["templates"] = tuple(Template(t.shape, t.type, t.names) for t in outputs)
            return tuple(t.data for t in outputs)

        flat.__name__ = getattr(self.fun, "__name__", "defn")  # HLO op names read jit(<name>)/<op>/...
        return flat, traced

    def _run_body(self, signature: _signature.Signature, params: list[Tensor], recorder: _expr.Recorder):
        """Runs the function on traced `params` under `recorder`; returns the output structure
        and tensors. Misuse while tracing becomes a numbat error naming the defn and its inputs."""
        for position, tensor in enumerate(params):
            recorder.parameter(tensor, position)
        args = _signature.unflatten(signature, params)
        callbacks = _effects.traced_callbacks
        with _expr.recording(recorder), _default.default_backend(self.backend), scoped(_effects._hooks, self.hooks):
            try:
                result = self.fun(*args, **dict(signature.options))
            except _MISUSE as error:
                if isinstance(error, ArgumentError):
                    error.add_note(f"(while numbat traced defn {self.name} for inputs {signature.describe()})")
                    raise
                raise ArgumentError(
                    f"defn {self.name} failed while tracing inputs {signature.describe()}: "
                    f"{type(error).__name__}: {error}"
                ) from error
            except Exception as error:
                error.add_note(f"(while numbat traced defn {self.name} for inputs {signature.describe()})")
                raise
            result = jax.tree_util.tree_map(_tensor_output(self.backend), result, is_leaf=is_tensor)
            self._effectful = self._effectful or _effects.traced_callbacks != callbacks
            return _signature.flatten_outputs(result)

    def _fast_args(self, args: tuple) -> list | None:
        """`args` as tensors on this defn's backend when every one is a tensor there or a
        number (the common call), else None: the general path handles the rest."""
        fast = []
        for arg in args:
            if type(arg) is Tensor:
                if arg.backend is not self.backend and arg.backend != self.backend:
                    return None
                fast.append(arg)
            elif is_number(arg):
                fast.append(self._convert(arg))
            else:
                return None
        return fast

    def _call_jitted(self, tensors: list[Tensor]):
        """Calls `jax.jit`'s C++ dispatch on the tensors directly (a Tensor is a pytree whose
        type and names are static aux data, so jit's own cache key is numbat's signature).
        Only a miss runs Python: the traced body notes its signature and trace time, and
        the compilation event is emitted after the call, which also compiled."""
        wide = False
        for tensor in tensors:
            wide = wide or tensor.type.bits >= 64
        with self._lock:  # one compile per signature, even for concurrent first calls
            self._traced = None
            start = time.perf_counter_ns()
            if wide:  # 64-bit inputs must reach jit under x64, or JAX narrows them
                with jax.enable_x64(True):
                    result = self._jitted(*tensors)
            else:
                result = self._jitted(*tensors)
            traced = self._traced
        if traced is None:
            self.hits += 1
            telemetry.cache_hit(self.name, lambda: _key(self.name, _signature.flatten(tuple(tensors), {}, _same)[0]))
            return result
        signature, trace_ns = traced
        total_us = (time.perf_counter_ns() - start) // 1000
        self._report(signature, trace_ns // 1000, total_us - trace_ns // 1000, jitted=True)
        return result

    def _traced_call(self, *tensors):
        start = time.perf_counter_ns()
        signature, _ = _signature.flatten(tensors, {}, _same)
        treedef, outputs = self._run_body(signature, list(tensors), _expr.Recorder())
        self._traced = (signature, time.perf_counter_ns() - start)
        return jax.tree_util.tree_unflatten(treedef, outputs)

    def _compile(self, signature: _signature.Signature) -> _Entry:
        device = self.backend.device
        sharding = jax.sharding.SingleDeviceSharding(device)
        avals = [jax.ShapeDtypeStruct(t.shape, t.type.dtype, sharding=sharding) for t in signature.templates]
        flat, traced = self.trace(signature)
        start = time.perf_counter_ns()
        from_disk, saved_us = False, 0
        with jax.enable_x64(True), jax.default_matmul_precision(_config.precision_name(self.precision)):
            lowered = jax.jit(flat).trace(*avals).lower()
            lowered_at = time.perf_counter_ns()
            if isinstance(self.cache, (str, os.PathLike)):
                from ..xla import _disk_cache

                executable, from_disk, saved_us = _disk_cache.compile(lowered, self.cache)
            else:
                executable = lowered.compile()
        done = time.perf_counter_ns()
        entry = _Entry(executable, traced["treedef"], traced["templates"], _key(self.name, signature))
        self._cache[signature] = entry
        self._report(signature, (lowered_at - start) // 1000, (done - lowered_at) // 1000, from_disk, saved_us)
        return entry

    def _report(
        self,
        signature: _signature.Signature,
        eval_us: int,
        compile_us: int,
        from_disk: bool = False,
        saved_us: int = 0,
        jitted: bool = False,
    ) -> None:
        """Records a compilation of `signature` and emits its telemetry event."""
        if self.debug:
            _logger.info(
                "defn %s: compiled %s (trace %d µs, compile %d µs%s)",
                self.name,
                signature.describe(),
                eval_us,
                compile_us,
                ", loaded from the disk cache" if from_disk else "",
            )
        reason = "first call" if self._last is None else signature.difference(self._last)
        self._last = signature
        shapes = tuple(t.shape for t in signature.templates)
        self._compiles_per_shapes[shapes] = self._compiles_per_shapes.get(shapes, 0) + 1
        if self._compiles_per_shapes[shapes] == RECOMPILATION_WARNING:
            warnings.warn(
                f"defn {self.name} compiled {RECOMPILATION_WARNING} times for the input shapes {list(shapes)} "
                f"(last: {reason}); types, names or static arguments keep changing. Pass values as tensors "
                "of a fixed type, or keep static arguments fixed",
                RecompilationWarning,
                stacklevel=5,
            )
        if jitted:
            self._jitted_signatures.add(signature)
        device = self.backend.device
        telemetry.execute(
            telemetry.COMPILATION,
            {"eval_time": eval_us, "compile_time": compile_us, "total_time": eval_us + compile_us},
            {
                "key": _key(self.name, signature),
                "function": self.name,
                "signature": signature.describe(),
                "client": self.backend.client or "default",
                "device": str(device),
                "cached_on_disk": from_disk,
                "disk_saved_time": saved_us,
                "reason": reason,
            },
        )


def _same(tensor: Tensor) -> Tensor:
    return tensor


def _key(name: str, signature: _signature.Signature) -> str:
    return hashlib.sha1(repr((name, signature)).encode()).hexdigest()[:12]


def _tensor_output(backend):
    def convert(value):
        return _dispatch.to_tensor(value, backend) if is_number(value) else value

    return convert


def defn(fun=None, *, compiler: str | None = None, **opts):
    """Turns `fun` into a numerical definition compiled with XLA per input signature.

    Use as `@nbt.defn` or `@nbt.defn(compiler="evaluator", client="host")`.

    >>> @nbt.defn
    ... def softmax(t):
    ...     return nbt.exp(t) / nbt.sum(nbt.exp(t))
    >>> softmax(nbt.tensor([1.0, 2.0, 3.0]))
    numbat.Tensor<
      f32[3]
      [0.09003057, 0.24472848, 0.66524094]
    >
    """
    if fun is None:
        return functools.partial(defn, compiler=compiler, **opts)
    if not callable(fun):
        raise ArgumentError(f"defn needs a function, got {fun!r}")
    return Defn(fun, compiler, **opts)


def jit(fun, **opts) -> Defn:
    """`fun` as a defn, without decorating it (`nbt.jit(fun, client="host")`).

    >>> nbt.jit(lambda a, b: a * b)(nbt.tensor([1, 2]), 3)
    numbat.Tensor<
      s32[2]
      [3, 6]
    >
    """
    return defn(fun, **opts)


def jit_apply(fun, args, **opts):
    """Compiles and calls `fun` on `args` (a list) in one step.

    >>> nbt.jit_apply(nbt.negate, [nbt.tensor([1, -2])])
    numbat.Tensor<
      s32[2]
      [-1, 2]
    >
    """
    return defn(fun, **opts)(*args)


def compile(fun, args, **opts):
    """Compiles `fun` ahead of time for `args` (templates, tensors, or
    containers of them); the result only accepts that signature.

    >>> double = nbt.compile(lambda t: t * 2, [nbt.template((3,), "s32")])
    >>> double(nbt.tensor([1, 2, 3]))
    numbat.Tensor<
      s32[3]
      [2, 4, 6]
    >
    >>> double(nbt.tensor([1.0, 2.0]))
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: <lambda> was compiled for (s32[3]) and cannot take (f32[2]): input 0 changed from s32[3] to f32[2]
    """
    target = Defn(fun, **opts)
    is_leaf = lambda value: isinstance(value, (Template, Tensor))
    leaves, treedef = jax.tree_util.tree_flatten(tuple(args), is_leaf=is_leaf)
    templates = []
    for position, leaf in enumerate(leaves):
        if not is_leaf(leaf):
            raise ArgumentError(
                f"compile takes templates or tensors (nbt.template(shape, type)); leaf {position} is {leaf!r}"
            )
        templates.append(Template(tuple(leaf.shape), leaf.type, leaf.names))
    expected = _signature.Signature(treedef, tuple(templates), (), ())
    entry = target._compile(expected)

    def compiled(*call_args):
        got, tensors = _signature.flatten(call_args, {}, target._convert)
        if got != expected:
            raise ArgumentError(
                f"{target.name} was compiled for {expected.describe()} and cannot take {got.describe()}: "
                f"{got.difference(expected)}"
            )
        return target.run(entry, tensors)

    return compiled


def debug_expr(fun, **opts):
    """A function that traces `fun` on its arguments and returns the expression
    graph (an `Expr`) instead of running it.

    >>> nbt.debug_expr(lambda t: nbt.sum(t * 2, axes=["x"]))(nbt.tensor([[1, 2]], names=["x", "y"]))
    numbat.Expr<
      s32[y: 2]
    <BLANKLINE>
      parameter a:0                               s32[x: 1][y: 2]
      b = multiply [ a, 2 ]                       s32[x: 1][y: 2]
      c = sum [ b, axes: [0], keep_axes: False ]  s32[y: 2]
    >
    """
    target = fun if isinstance(fun, Defn) else Defn(fun, **opts)

    def traced(*args, **options):
        signature, _ = _signature.flatten(args, options, target._convert)
        recorder = _expr.Recorder()
        flat, result = target.trace(signature, recorder)
        avals = [jax.ShapeDtypeStruct(t.shape, t.type.dtype) for t in signature.templates]
        with jax.enable_x64(True):
            jax.eval_shape(flat, *avals)
        return recorder.expr(result["outputs"])

    return traced


def debug_expr_apply(fun, args, **opts):
    """The expression graph of `fun` traced on `args` (a list), without running it.

    >>> nbt.debug_expr_apply(lambda a, b: a + b, [nbt.tensor([1]), 2])
    numbat.Expr<
      s32[1]
    <BLANKLINE>
      parameter a:0                             s32[1]
      parameter b:1                             s32
      c = add [ a, b ]                          s32[1]
    >
    """
    if not isinstance(args, (list, tuple)):
        raise ArgumentError(f"debug_expr_apply: args must be a list of arguments, got {args!r}")
    return debug_expr(fun, **opts)(*args)
