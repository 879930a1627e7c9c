"""The call routes of a `Defn` (docs/design.md, decision 11), named: `Defn.__call__`
takes the first that fits.

Each compiled signature is traced, lowered and compiled ahead of time under the defn's
lock (`_lower.compile`), and then called on raw arrays: through `jax.jit`'s C++ dispatch
when the code is 32-bit throughout (the common case), else through its compiled
executable, which needs no `jax.enable_x64` at call time. `Defn.__call__` first asks,
once for every route, whether the call is inlined into its caller (a defn tracing, or a body
under the Evaluator: `inline`). The routes, cheapest first:

1. One tensor with the signature of the last one-tensor call (a loop), for an entry with
   one plain tensor out: compared field by field with `Defn._last_single`, a `SingleCall`
   (`NO_CALL_YET` until such a call), then the entry runs and its result is built by
   `_tensor._result.result`. This route is spelled out in `Defn.__call__` itself (see there why).
2. `tensors`: tensors, alone or in tuples, lists and dicts (a model's parameters):
   `hot_key` reads the arguments' structure and each tensor's `(shape, type, names,
   backend)` in one walk, and the entry is the last such call's (`Defn._last_hot`) when
   the keys are equal, else `Defn._hot`'s, which the general route fills (`remember`).
   No pytree is flattened and no context manager entered.
3. `general`: everything else (static values, numbers, arrays, other containers, keyword
   options, a miss) flattens the arguments into a `Signature` and takes one of `evaluated`
   (the Evaluator compiler), `vectorized` (vectorized tensors), `traced` (under the
   caller's own JAX transformation) or `compiled` (the cache, compiling a miss).

Each route pays for itself: without route 1, a one-tensor call takes route 2, which builds
its key first (about 5% slower); without route 2, tensors in containers are flattened
into a `Signature` (several times slower).

Each route compares what makes the call correct, in its own key: the arguments' types,
names, backends and shapes. The checks of a call that failed are one function for all
three, `failed`: it names a freed argument in the error and hands a tracer of the caller's
own JAX transformation back to `general`. A hit is counted by `count_hit` (route 1 spells
out the entry's call and `count_hit`'s two lines: one shared function doing both measured
1.7% of `numbat bench dispatch`'s ratio there, 1.285x against 1.263x), emitting
`("numbat", "cache_hit")` only when a telemetry handler listens
(`tests/test_defn_calls.py::test_a_compiled_defn_called_under_the_evaluator_is_inlined_on_every_route`,
`test_repeated_calls_of_one_tensor_check_the_argument_each_call`).
"""

from __future__ import annotations

import logging

import jax

from .. import telemetry
from .._core._errors import ArgumentError
from .._core._scoped import scoped
from .._tensor import _check
from .._tensor._result import result
from .._tensor._tensor import Tensor, is_tensor
from . import _effects, _evaluator, _interrupt, _lower, _signature, _trace, _vectorized_call

_logger = logging.getLogger("numbat.defn")


class SingleCall:
    """Route 1's record of a defn's last one-tensor call (`Defn._last_single`): the
    argument's `type`, `names`, `backend` and `shape`, the compiled entry's `call`, the
    result's `out_type` and `out_names`, and the entry's telemetry `key`. (Slots, not a
    NamedTuple: a slot is read as fast as a tuple's item, a NamedTuple's field is not.)"""

    __slots__ = ("backend", "call", "key", "names", "out_names", "out_type", "shape", "type")

    def __init__(self, type, names, backend, shape, call, out_type, out_names, key):
        self.type, self.names, self.backend, self.shape = type, names, backend, shape
        self.call, self.out_type, self.out_names, self.key = call, out_type, out_names, key


_NEVER = object()  # no tensor's type, names or backend is this object
NO_CALL_YET = SingleCall(_NEVER, _NEVER, _NEVER, _NEVER, None, None, None, None)
NO_HOT_CALL_YET = ((object(),), None)  # `Defn._last_hot` before a call on route 2: (key, entry)
MAX_DEPTH = 16  # containers nested deeper take the general route, which checks the nesting


class NotHot(Exception):
    """An argument route 2 does not read (a number, an array, another container)."""


def hot_key(args, key: list, datas: list, depth: int = 0) -> None:
    """Appends route 2's key of each of `args` to `key` (a tensor's `(shape, type, names,
    backend)`; a tuple's or list's type and length, or a dict's keys, then its items) and
    each tensor's array to `datas`, in the order `jax.tree_util` flattens them.

    >>> key, datas, xla = [], [], nbt.XLABackend()
    >>> hot_key(({"b": nbt.tensor(1.0, backend=xla), "a": nbt.tensor([1, 2], backend=xla)},), key, datas)
    >>> [str(k[1]) if len(k) == 4 else k[1] for k in key]
    [('a', 'b'), 's32', 'f32']
    """
    for arg in args:
        cls = arg.__class__
        if cls is Tensor:
            data = arg.data
            key.append((data.aval.shape, arg.type, arg.names, arg.backend))
            datas.append(data)
        elif (cls is tuple or cls is list) and depth < MAX_DEPTH:
            key.append((cls, len(arg)))
            hot_key(arg, key, datas, depth + 1)
        elif cls is dict and depth < MAX_DEPTH:
            names = tuple(sorted(arg))
            key.append((dict, names))
            hot_key([arg[name] for name in names], key, datas, depth + 1)
        else:
            raise NotHot


def remember(defn, args: tuple, tensors: list, entry) -> None:
    """Lets route 2 find `entry` for calls like this one (of `args`, whose parameters are
    `tensors`): when the walk reads exactly those arrays, in that order, none moved to
    another device or converted from a number."""
    key, datas = [], []
    try:
        hot_key(args, key, datas)
    except (NotHot, AttributeError, TypeError):
        return
    if len(datas) == len(tensors) and all(data is tensor.data for data, tensor in zip(datas, tensors)):
        defn._hot[tuple(key)] = entry


def tensors(defn, args: tuple):
    """Route 2: tensors alone or in containers, with the signature of an earlier call on
    the general route; any other call goes on to `general`."""
    key, datas = [], []
    try:
        for arg in args:  # `hot_key`'s tensor case in this frame: a call less, 3% of a two-tensor call
            if arg.__class__ is Tensor:
                data = arg.data
                key.append((data.aval.shape, arg.type, arg.names, arg.backend))
                datas.append(data)
            else:
                hot_key((arg,), key, datas)
    except (NotHot, AttributeError, TypeError):  # TypeError: a dict's keys that do not sort
        return general(defn, args, {})
    key = tuple(key)
    last_key, entry = defn._last_hot
    if key != last_key:
        entry = defn._hot.get(key)
        if entry is None:
            return general(defn, args, {})  # a new signature, or one the general route keeps
        _remember_last(defn, args, key, entry)
    try:
        out = entry.call(*datas)
    except (RuntimeError, TypeError) as error:
        failed(defn, args, datas, error)
        return general(defn, args, {})
    count_hit(defn, entry.key)
    plain = entry.plain
    if plain is not None:
        return result(out, plain[0], plain[1], defn.backend)
    return outputs(defn, entry, out)


def _remember_last(defn, args: tuple, key: tuple, entry) -> None:
    """Keeps route 2's last call, and route 1's when it was one tensor with one plain tensor out."""
    defn._last_hot = (key, entry)
    if len(args) == 1 and entry.plain is not None and args[0].__class__ is Tensor:
        first, (out_type, out_names) = args[0], entry.plain
        defn._last_single = SingleCall(
            first.type, first.names, first.backend, key[0][0], entry.call, out_type, out_names, entry.key
        )


def failed(defn, args: tuple, datas, error: Exception) -> None:
    """The checks of a compiled entry's call that raised `error`, the same for every route: on
    a freed argument it raises the numbat error naming it (`raise_if_deallocated`); on arrays
    that are tracers of the caller's own JAX transformation, which a compiled executable
    refuses (a TypeError), it returns, and the route hands the call to `general` (its
    `traced`); any other error is raised as it is."""
    if isinstance(error, RuntimeError):
        raise_if_deallocated(defn, args)
    elif any(isinstance(data, jax.core.Tracer) for data in datas):
        return
    raise error


def count_hit(defn, key) -> None:
    """Counts a cache hit of `defn`'s entry (telemetry `key`), emitting `("numbat",
    "cache_hit")` only when a telemetry handler listens. (Route 1 spells out these lines.)"""
    defn._hits[0] += 1
    if telemetry.listened:
        telemetry.cache_hit(defn.name, key, counted=True)


def checked(defn, args: tuple, options: dict) -> tuple:
    """The arguments of a call that `general` or `inline` takes, checked: no container nested
    too deeply (`_check.nesting`), and lists of numbers read as tensors."""
    for position, arg in enumerate(args):
        _check.nesting(f"argument {position} of defn {defn.name}", arg)
    for name, value in options.items():
        _check.nesting(f"option {name!r} of defn {defn.name}", value)
    return _signature.lists_as_tensors(args)


def general(defn, args: tuple, options: dict):
    """Route 3: the Evaluator, containers, statics and misses (a call to inline never gets here:
    `Defn.__call__` asks that first)."""
    args = checked(defn, args, options)
    if defn.compiler == "evaluator":
        return evaluated(defn, args, options)
    try:
        signature, tensors = _signature.flatten(args, options, defn._convert)
    except _signature.VectorizedArgument:  # found while flattening, so plain calls pay nothing for it
        return vectorized(defn, args, options)
    except RuntimeError:
        raise_if_deallocated(defn, args)
        raise
    datas = [t.data for t in tensors]
    if any(isinstance(data, jax.core.Tracer) for data in datas):
        return traced(defn, signature, datas)
    return compiled(defn, args, signature, tensors, datas)


def inline(defn, args: tuple, options: dict):
    """A call while another defn (or grad, or a control-flow branch) traces, or runs under
    the Evaluator: the body is inlined into the caller, as Nx does, instead of compiling on
    its own (the caller's Python numbers stay numbers)."""
    return defn.fun(*checked(defn, args, options), **options)


def evaluated(defn, args: tuple, options: dict):
    """A call of a defn whose compiler is the Evaluator: run op by op."""
    if _vectorized_call.is_vectorized_call(args):
        return vectorized(defn, args, options)
    return _evaluator.evaluate(defn, args, options)


def compiled(defn, args: tuple, signature: _signature.Signature, tensors: list, datas: list):
    """A call through the cache: the signature's compiled entry (compiling it on a miss,
    once however many threads ask), run on the arguments' arrays."""
    entry = defn._cache.get(signature)
    hit = entry is not None
    if entry is None:
        with defn._lock:  # re-entrant: a hook or a nested call on this thread cannot deadlock
            entry = defn._cache.get(signature)
            if entry is None:
                entry = _lower.compile(defn, signature, datas)
                if defn.cache is not False:
                    defn._cache[signature] = entry
    elif defn.debug:
        _logger.info("defn %s: cache hit for %s", defn.name, signature.describe())
    if defn._hot is not None and not (signature.statics or signature.options):
        remember(defn, args, tensors, entry)
    try:
        out = entry.call(*datas)
    except (RuntimeError, TypeError) as error:  # no tracer reaches here: `traced` takes those
        failed(defn, args, datas, error)
        raise
    if hit:
        count_hit(defn, entry.key)
    return outputs(defn, entry, out)


def traced(defn, signature: _signature.Signature, datas: list):
    """A call under the caller's own JAX transformation (`jax.jit`, `grad`, `vmap`,
    `lax.scan`): the body traces into the caller's computation under the defn's settings
    (x64 for 64-bit inputs, precision) and compiles with it, so the defn compiles no
    executable of its own and emits no compilation event."""
    flat, info = _trace.trace(defn, signature)
    wide = any(t.type.bits >= 64 for t in signature.templates)
    with _lower.lowering_context(defn, wide), scoped(_interrupt.unseen, True):  # its loop checks raise to stop
        out = jax.jit(flat)(*datas)
    outs = (out,) if info["single"] else out
    results = [result(data, t.type, t.names, defn.backend) for data, t in zip(outs, info["templates"])]
    shape = _lower.output_shape(info["treedef"])
    if shape == "tuple":
        return tuple(results)
    if shape == "tree":
        return jax.tree_util.tree_unflatten(info["treedef"], results)
    return _vectorized_call.unflatten_outputs(info["treedef"], results)


def vectorized(defn, args: tuple, options: dict):
    """A call with vectorized tensors: a companion defn (same options and name) compiles
    the function over their devectorized arrays, keyed by where the vectorized axes are."""
    with defn._lock:
        if defn._devectorized is None:
            companion = type(defn)(_vectorized_call.devectorized(defn.fun), defn.compiler, **defn.options)
            companion.name = defn.name
            defn._devectorized = companion
    layout, plain = _vectorized_call.split(args)
    return _vectorized_call.revectorized(defn._devectorized(layout, *plain, **options))


def raise_if_deallocated(defn, args: tuple) -> None:
    """Raises the numbat error for a call on a tensor freed with `backend_deallocate`
    (JAX's own says only "Array has been deleted"), when that is why the call failed."""
    leaves = jax.tree_util.tree_leaves(args, is_leaf=is_tensor)
    for position, leaf in enumerate(leaves):
        data = getattr(leaf, "data", None)
        if isinstance(leaf, Tensor) and isinstance(data, jax.Array) and data.is_deleted():
            raise ArgumentError(
                f"defn {defn.name}: tensor argument {position} ({leaf.type}{list(leaf.shape)}) was freed with "
                "nbt.backend_deallocate and cannot be used again; compute it anew"
            ) from None


def outputs(defn, entry: _lower.Entry, out):
    """The call's result: tensors on the defn's backend, in the function's output structure."""
    if entry.effectful:
        _effects.raise_pending()
    backend = defn.backend
    datas = (out,) if entry.single else out
    results = [result(data, type_, names, backend) for data, (type_, names) in zip(datas, entry.outs)]
    if entry.shape == "tuple":
        return tuple(results)
    if entry.shape == "tree":
        return jax.tree_util.tree_unflatten(entry.out_treedef, results)
    return _vectorized_call.unflatten_outputs(entry.out_treedef, results)
