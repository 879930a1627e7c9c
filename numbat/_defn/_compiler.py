"""`Defn`: a numerical definition traced once per input signature and compiled
through JAX to XLA (or run op by op by the Evaluator).

Every compilation emits `("numbat", "compilation")` with `eval_time` (trace and
lowering), `compile_time` (XLA) and `total_time` in µs, and the reason for the
miss; a call that finds its executable in the cache counts a hit and emits
`("numbat", "cache_hit")` only when a handler listens.

Calls take the cached call path of `_cached_call` (docs/design.md, decision 11).

A defn called while another one traces (or inside `grad`, a branch or a loop
body) is inlined into the caller, as in Nx, so composition, recursion with a
static stopping argument and `grad` of a defn never compile or lock on their
own. Compiling takes the defn's re-entrant lock, so concurrent first calls from
several threads compile a signature once; hits take no lock.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import os
import threading
import time
import typing
import warnings
import weakref

import jax
import numpy as np

from .. import telemetry
from .._core._errors import ArgumentError
from .._core._scoped import scoped
from .._core._types import is_number
from .._ops import _dispatch
from .._runtime import _config, _disk_cache
from .._tensor import _check, _expr
from .._tensor._tensor import Template, Tensor, is_tensor
from ..backends import _default
from ..backends.xla_backend import XLABackend
from . import _cached_call, _effects, _evaluator, _interrupt, _options, _signature, _vectorized_call

_logger = logging.getLogger("numbat.defn")
RECOMPILATION_WARNING = 5  # compiles for the same shapes before warning, as EXLA's check_recompilation
# What calling a defn with the wrong arguments typically raises inside it (a different container
# structure, a missing key, JAX's concretization errors): reported as numbat.ArgumentError.
_MISUSE = (TypeError, ValueError, KeyError, IndexError, AttributeError)


class RecompilationWarning(UserWarning):
    """A defn keeps recompiling for the same input shapes (EXLA's `check_recompilation`):
    its types, names or static arguments change from call to call."""

    __module__ = "numbat"


class _Entry(typing.NamedTuple):
    """A compiled signature: `call(*datas)` runs it (one array out for a single tensor
    output, else a tuple), and the outputs are rebuilt from the templates."""

    call: typing.Callable
    out_treedef: object
    out_templates: tuple
    single: bool  # one tensor out, not in a container
    effectful: bool  # the code runs hooks or print_value callbacks
    key: str
    plain: tuple | None  # (type, names) of a single output when there are no callbacks to wait for
    outs: tuple  # (type, names) of each output tensor
    shape: str  # how the outputs come back: "tuple" (a flat tuple), "tree" or "revectorized"


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


def _subbyte_inputs(signature: _signature.Signature) -> list:
    return [str(t.type) for t in signature.templates if t.type.bits < 8]


def refuse_subbyte_executable(what: str, signature: _signature.Signature, instead: str) -> None:
    """Raises for a compiled executable of sub-byte inputs (s2, s4, u2, u4): XLA's executable
    wants them packed, and JAX's device arrays hold one a byte (JAX 0.10 has no way to pass
    it one), so only jit's own dispatch can call such code."""
    types = _subbyte_inputs(signature)
    if types:
        raise ArgumentError(
            f"{what} cannot take sub-byte inputs ({', '.join(sorted(set(types)))}): XLA's compiled "
            f"executables want them packed and JAX's arrays hold one a byte; {instead}, or cast them "
            "to s8 or u8 with nbt.as_type first"
        )


def _in_context(context, fun, *args):
    """`fun(*args)` inside `context(True)` (a defn's lowering context, x64 on)."""
    with context(True):
        return fun(*args)


_WIDE_DTYPES = frozenset(np.dtype(name) for name in ("int64", "uint64", "float64", "complex128"))


def _uses_64_bits(closed) -> bool:
    """Whether a traced computation (a `jax.extend.core.ClosedJaxpr`) holds 64-bit values
    or asks for them (an index dtype), looking into the sub-computations of control flow."""
    # Imported at the first compile, not with numbat: `jax.extend` pulls in Pallas (60 ms).
    import jax.extend.core

    def wide(value) -> bool:
        if isinstance(value, jax.extend.core.ClosedJaxpr):
            return walk(value.jaxpr)
        if isinstance(value, jax.extend.core.Jaxpr):
            return walk(value)
        if isinstance(value, (tuple, list)):
            return any(wide(item) for item in value)
        if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
            return np.dtype(value) in _WIDE_DTYPES
        return False

    def walk(jaxpr) -> bool:
        variables = [*jaxpr.constvars, *jaxpr.invars]
        for eqn in jaxpr.eqns:
            variables += eqn.outvars
            if any(wide(value) for value in eqn.params.values()):
                return True
        return any(getattr(getattr(v, "aval", None), "dtype", None) in _WIDE_DTYPES for v in variables)

    return walk(closed.jaxpr)


_new = object.__new__


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
            self._cache: dict[_signature.Signature, _Entry] = {}
            # Route 2's entries by `_cached_call.hot_key` (tensors in containers); None turns it off.
            self._hot: dict | None = {} if compiler == "xla" and self.cache is not False and not self.debug else None
            self._last_hot: tuple = _cached_call.NO_HOT_CALL_YET  # route 2's last (key, entry)
            self._last: _signature.Signature | None = None
            # The last one-tensor call with one plain tensor out: a loop calls with the same
            # signature again and again.
            self._last_single: _cached_call.SingleCall = _cached_call.NO_CALL_YET
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

    __call__ = _cached_call.call  # the cached call path, in its own module

    def _call(self, args: tuple, options: dict):
        """The general path: inlining, the Evaluator, containers, statics and misses."""
        for position, arg in enumerate(args):
            _check.nesting(f"argument {position} of defn {self.name}", arg)
        for name, value in options.items():
            _check.nesting(f"option {name!r} of defn {self.name}", value)
        args = _signature.lists_as_tensors(args)
        if _expr.current() is not None or _evaluator.evaluating():
            # Called while another defn (or grad, or a control-flow branch) traces, or runs
            # under the Evaluator: inline the body into the caller, as Nx does, instead of
            # compiling it on its own (the caller's Python numbers stay numbers).
            return self.fun(*args, **options)
        if self.compiler == "evaluator":
            if _vectorized_call.is_vectorized_call(args):
                return self._call_vectorized(args, options)
            return _evaluator.evaluate(self, args, options)
        try:
            signature, tensors = _signature.flatten(args, options, self._convert)
        except _signature.VectorizedArgument:  # found while flattening, so plain calls pay nothing for it
            return self._call_vectorized(args, options)
        except RuntimeError:
            self._raise_if_deallocated(args)
            raise
        datas = [t.data for t in tensors]
        if any(isinstance(data, jax.core.Tracer) for data in datas):
            return self._call_traced(signature, datas)
        entry = self._cache.get(signature)
        if entry is None:
            with self._lock:  # re-entrant: a hook or a nested call on this thread cannot deadlock
                entry = self._cache.get(signature)
                if entry is None:
                    entry = self._compile(signature, datas)
                    if self.cache is not False:
                        self._cache[signature] = entry
        else:
            self._hits[0] += 1
            telemetry.cache_hit(self.name, entry.key, counted=True)
            if self.debug:
                _logger.info("defn %s: cache hit for %s", self.name, signature.describe())
        if self._hot is not None and not (signature.statics or signature.options):
            _cached_call.remember(self, args, tensors, entry)
        try:
            out = entry.call(*datas)
        except RuntimeError:
            self._raise_if_deallocated(args)
            raise
        return self._outputs(entry, out)

    def _call_traced(self, signature: _signature.Signature, datas: list):
        """A call under the caller's own JAX transformation (`jax.jit`, `grad`, `vmap`,
        `lax.scan`): the body traces into the caller's computation under this defn's settings
        (x64 for 64-bit inputs, precision) and compiles with it, so the defn compiles no
        executable of its own and emits no compilation event."""
        flat, traced = self.trace(signature)
        with self.lowering_context(any(t.type.bits >= 64 for t in signature.templates)):
            out = jax.jit(flat)(*datas)
        outs = (out,) if traced["single"] else out
        results = [Tensor(data, t.type, t.names, self.backend) for data, t in zip(outs, traced["templates"])]
        shape = _output_shape(traced["treedef"])
        if shape == "tuple":
            return tuple(results)
        if shape == "tree":
            return jax.tree_util.tree_unflatten(traced["treedef"], results)
        return _vectorized_call.unflatten_outputs(traced["treedef"], results)

    def _raise_if_deallocated(self, args: tuple) -> None:
        """Raises the numbat error for a call on a tensor freed with `backend_deallocate`
        (JAX's own says only "Array has been deleted"), when that is why the call failed."""
        leaves = jax.tree_util.tree_leaves(args, is_leaf=is_tensor)
        for position, leaf in enumerate(leaves):
            data = getattr(leaf, "data", None)
            if isinstance(leaf, Tensor) and isinstance(data, jax.Array) and data.is_deleted():
                raise ArgumentError(
                    f"defn {self.name}: tensor argument {position} ({leaf.type}{list(leaf.shape)}) was freed with "
                    "nbt.backend_deallocate and cannot be used again; compute it anew"
                ) from None

    def _call_vectorized(self, args: tuple, options: dict):
        """A call with vectorized tensors: a companion defn (same options and name) compiles
        the function over their devectorized arrays, keyed by where the vectorized axes are."""
        with self._lock:
            if self._devectorized is None:
                self._devectorized = Defn(_vectorized_call.devectorized(self.fun), self.compiler, **self.options)
                self._devectorized.name = self.name
        layout, plain = _vectorized_call.split(args)
        return _vectorized_call.revectorized(self._devectorized(layout, *plain, **options))

    def _outputs(self, entry: _Entry, out):
        """The call's result: tensors on this defn's backend, in the function's output structure."""
        if entry.effectful:
            _effects.raise_pending()
        backend = self.backend
        datas = (out,) if entry.single else out
        results = []
        for data, (type_, names) in zip(datas, entry.outs):  # Tensor's __init__, inline
            result = _new(Tensor)
            result.data, result.type, result.names, result.backend = data, type_, names, backend
            results.append(result)
        if entry.shape == "tuple":
            return tuple(results)
        if entry.shape == "tree":
            return jax.tree_util.tree_unflatten(entry.out_treedef, results)
        return _vectorized_call.unflatten_outputs(entry.out_treedef, results)

    def run(self, entry: _Entry, tensors: list[Tensor]):
        """Runs a compiled entry on the parameters' tensors."""
        return self._outputs(entry, entry.call(*[t.data for t in tensors]))

    def trace(self, signature: _signature.Signature, recorder: _expr.Recorder | None = None):
        """A flat function of the parameters' data for JAX, and a dict that receives the
        output structure (`treedef`), tensors (`outputs`) and templates once it has traced.
        The function returns one array for a single tensor output, else a tuple."""
        traced = {}

        def flat(*datas):
            params = [Tensor(d, t.type, t.names, self.backend) for d, t in zip(datas, signature.templates)]
            callbacks, checks = _effects.traced_callbacks, _interrupt.traced_checks[0]
            treedef, outputs = self._run_body(signature, params, recorder or _expr.Recorder())
            traced["treedef"], traced["outputs"] = treedef, outputs
            traced["templates"] = tuple(Template(t.shape, t.type, t.names) for t in outputs)
            traced["single"] = treedef == _SINGLE
            traced["effectful"] = _effects.traced_callbacks != callbacks
            traced["interruptible"] = _interrupt.traced_checks[0] != checks
            return outputs[0].data if traced["single"] else tuple(t.data for t in outputs)

        flat.__name__ = getattr(self.fun, "__name__", "defn")  # HLO op names read jit(<name>)/<op>/...
        return flat, traced

    def _run_body(self, signature: _signature.Signature, params: list[Tensor], recorder: _expr.Recorder):
        """Runs the function on traced `params` under `recorder`; returns the output structure
        and tensors. Misuse while tracing becomes a numbat error naming the defn and its inputs."""
        for position, tensor in enumerate(params):
            recorder.parameter(tensor, position)
        args = _signature.unflatten(signature, params)
        inputs = signature.describe()
        with (
            _expr.recording(recorder),
            _default.default_backend(self.backend),
            scoped(_effects._hooks, self.hooks),
            scoped(_interrupt.tracing, (self.name, self.interruptible)),
        ):
            try:
                result = self.fun(*args, **dict(signature.options))
            except ArgumentError as error:
                if "(in defn " in str(error):  # a nested defn's error already says where
                    raise
                raise ArgumentError(f"{error} (in defn {self.name}, traced for inputs {inputs})") from error
            except _MISUSE as error:
                message = str(error).split("\n-----")[0]  # without JAX's note on its filtered traceback
                raise ArgumentError(
                    f"defn {self.name} failed while tracing inputs {inputs}: {type(error).__name__}: {message}"
                ) from error
            except Exception as error:
                error.add_note(f"(while numbat traced defn {self.name} for inputs {inputs})")
                raise
            _check.nesting(f"the result of defn {self.name}", result)
            result = jax.tree_util.tree_map(_tensor_output(self.backend), result, is_leaf=is_tensor)
            return _signature.flatten_outputs(_vectorized_call.devectorized_outputs(result))

    def _traced_call(self, *tensors):
        """The body as a function of tensors, returning its output structure (for JAX
        transformations of the whole defn, such as `shard_jit`)."""
        signature, _ = _signature.flatten(tensors, {}, _same)
        treedef, outputs = self._run_body(signature, list(tensors), _expr.Recorder())
        return _vectorized_call.unflatten_outputs(treedef, outputs)

    def lower(self, signature: _signature.Signature, datas: list | None = None):
        """Traces and lowers `signature` exactly as a call compiles it, with this defn's
        options (precision, x64): the one lowering that the call, `to_mlir_module`, the HLO
        and fusion views, `serialize` and the disk-cache key all come from
        (docs/design.md, decision 15). `datas` are the call's arrays, or None for placeholders on this defn's device.
        Returns `(lowered, jitted, traced, plain_jit)`; `plain_jit` says the code is 32-bit
        throughout with no precision of its own, so it is called through `jitted`.

        >>> f = nbt.defn(lambda a, b: nbt.dot(a, b), precision="highest")
        >>> signature, _ = nbt._defn._signature.flatten((nbt.iota((2, 2), type="f32"),) * 2, {}, f._convert)
        >>> "HIGHEST" in f.lower(signature)[0].as_text()
        True
        """
        if datas is None:
            sharding = jax.sharding.SingleDeviceSharding(self.backend.device)
            datas = [jax.ShapeDtypeStruct(t.shape, t.type.dtype, sharding=sharding) for t in signature.templates]
        wide = any(t.type.bits >= 64 for t in signature.templates)
        flat, traced = self.trace(signature)
        jitted = jax.jit(flat)
        # Trace as the calls run: under x64 only for 64-bit inputs (without it jit would narrow
        # them), so that jit's own cache finds the executable. Code that is 32-bit throughout
        # lowers and compiles as it is and is called through jit. Code with 64-bit values inside
        # (s64 indices, f64 casts), a precision of its own or a disk cache entry lowers under
        # x64 (and that precision) and is called as its compiled executable, which needs no
        # context at call time.
        with self.lowering_context(wide):
            staged = jitted.trace(*datas)
        plain_jit = not wide and self.precision == "default" and self.cache is True
        plain_jit = plain_jit and not _uses_64_bits(staged.jaxpr)
        with self.lowering_context(not plain_jit):
            lowered = staged.lower()
        return lowered, jitted, traced, plain_jit

    def lowering_context(self, x64: bool) -> contextlib.ExitStack:
        """The settings this defn traces, lowers and compiles under: x64 when asked, and
        its matmul precision."""
        stack = contextlib.ExitStack()
        if x64:
            stack.enter_context(jax.enable_x64(True))
        if self.precision != "default":
            stack.enter_context(jax.default_matmul_precision(_config.precision_name(self.precision)))
        return stack

    def _compile(self, signature: _signature.Signature, datas: list | None = None) -> _Entry:
        """Traces, lowers and compiles `signature` (for `datas`, the call's arrays, or for
        placeholders on this defn's device), reports it, and returns its entry."""
        progress = telemetry.listening(telemetry.COMPILATION_START)  # a notebook's "compiling ..." line
        if progress:
            telemetry.execute(
                telemetry.COMPILATION_START, {}, {"function": self.name, "signature": signature.describe()}
            )
        try:
            return self._compile_now(signature, datas)
        finally:
            if progress:
                telemetry.execute(telemetry.COMPILATION_END, {}, {"function": self.name})

    def _compile_now(self, signature: _signature.Signature, datas: list | None) -> _Entry:
        from_disk, saved_us = False, 0
        start = time.perf_counter_ns()
        lowered, jitted, traced, plain_jit = self.lower(signature, datas)
        lowered_at = time.perf_counter_ns()
        with self.lowering_context(not plain_jit):
            if isinstance(self.cache, (str, os.PathLike)):
                refuse_subbyte_executable(f"defn {self.name} with a disk cache", signature, "use cache=True")
                call, from_disk, saved_us = _disk_cache.compile(lowered, self.cache)
            elif plain_jit:
                lowered.compile()  # fills jit's caches: the first call runs without tracing again
                call = jitted
            elif _subbyte_inputs(signature):  # see refuse_subbyte_executable; jit's dispatch takes them
                call = functools.partial(_in_context, self.lowering_context, jitted)
            else:
                call = lowered.compile()
        done = time.perf_counter_ns()
        if traced["interruptible"]:
            call = _interrupt.watched(call, self.name)
        entry = _Entry(
            call,
            traced["treedef"],
            traced["templates"],
            traced["single"],
            traced["effectful"],
            _key(self.name, signature),
            None if traced["effectful"] or not traced["single"] else traced["templates"][0][1:],
            tuple((t.type, t.names) for t in traced["templates"]),
            _output_shape(traced["treedef"]),
        )
        self._report(signature, (lowered_at - start) // 1000, (done - lowered_at) // 1000, from_disk, saved_us)
        return entry

    def _report(
        self, signature: _signature.Signature, eval_us: int, compile_us: int, from_disk: bool, saved_us: int
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
        if self.cache is False and self._last == signature:
            reason = "cache=False"
        self._last = signature
        shapes = tuple(t.shape for t in signature.templates)
        self._compiles_per_shapes[shapes] = self._compiles_per_shapes.get(shapes, 0) + 1
        if self._compiles_per_shapes[shapes] == RECOMPILATION_WARNING and self.cache is not False:
            warnings.warn(
                f"defn {self.name} compiled {RECOMPILATION_WARNING} times for the input shapes {list(shapes)} "
                f"(last: {reason}); types, names or static arguments keep changing. Pass values as tensors "
                "of a fixed type, or keep static arguments fixed",
                RecompilationWarning,
                stacklevel=6,
            )
        telemetry.execute(
            telemetry.COMPILATION,
            {"eval_time": eval_us, "compile_time": compile_us, "total_time": eval_us + compile_us},
            {
                "key": _key(self.name, signature),
                "function": self.name,
                "signature": signature.describe(),
                "client": self.backend.client or "default",
                "device": str(self.backend.device),
                "cached_on_disk": from_disk,
                "disk_saved_time": saved_us,
                "reason": reason,
            },
        )


_SINGLE = jax.tree_util.tree_structure(Tensor(0, None, (), None), is_leaf=is_tensor)


def _same(tensor: Tensor) -> Tensor:
    return tensor


def _output_shape(treedef) -> str:
    """How a compiled entry's outputs are put back together (see `_Entry.shape`)."""
    if _vectorized_call.has_revectorize(treedef):
        return "revectorized"
    if treedef == jax.tree_util.tree_structure((0,) * treedef.num_leaves):
        return "tuple"
    return "tree"


def _key(name: str, signature: _signature.Signature) -> str:
    return hashlib.sha1(repr((name, signature)).encode()).hexdigest()[:12]


def _tensor_output(backend):
    """Numbers and JAX arrays a defn returns become tensors (a `jax.numpy` result is a
    tracer: an unnamed tensor of its dtype's Nx type), as the Evaluator makes them."""

    def convert(value):
        return _dispatch.to_tensor(value, backend) if is_number(value) or isinstance(value, jax.Array) else value

    return convert
