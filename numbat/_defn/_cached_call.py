"""The cached call of a `Defn` (docs/design.md, decision 11): `call` is `Defn.__call__`.

Each compiled signature is traced, lowered and compiled ahead of time under the defn's
lock, and then called on raw arrays: through `jax.jit`'s C++ dispatch when the code is
32-bit throughout (the common case), else through its compiled executable, which needs
no `jax.enable_x64` at call time. Three routes, cheapest first:

1. One tensor with the signature of the last one-tensor call (a loop), for an entry with
   one plain tensor out: compared field by field with `Defn._last_single`, a `SingleCall`
   (`NO_CALL_YET` until such a call), then the entry runs and its result is built without
   `Tensor.__init__`.
2. Tensors, alone or in tuples, lists and dicts (a model's parameters): `hot_key` reads
   the arguments' structure and each tensor's `(shape, type, names, backend)` in one walk,
   and the entry is the last such call's (`Defn._last_hot`) when the keys are equal, else
   `Defn._hot`'s, which the general route fills (`remember`). No pytree is flattened and
   no context manager entered.
3. Everything else (static values, numbers, arrays, other containers, keyword options, a
   call while a defn traces, a miss) takes `Defn._call`, which flattens the arguments
   into a `Signature`.

Each route pays for itself: without route 1, a one-tensor call takes route 2, which builds
its key first (about 5% slower); without route 2, tensors in containers are flattened
into a `Signature` (several times slower).

Every route checks what makes the call correct: the arguments' types, names, backends
and shapes; that no defn is tracing (else the call is inlined); a freed argument (named
in the error); and it counts the hit, emitting `("numbat", "cache_hit")` only when a
telemetry handler listens.
"""

from __future__ import annotations

import jax

from .. import telemetry
from .._tensor import _expr
from .._tensor._tensor import Tensor


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
_current_recorder = _expr._current.get  # the context variable read without a call in between
_new = object.__new__


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


def call(self, *args, **options):
    """Runs the defn on the arguments (`Defn.__call__`); see the module's docstring."""
    # Route 1, spelled out in this frame (no helper call): one tensor, the last one-tensor
    # call's type, names, backend object and shape, no options, no defn tracing. Type and
    # names are usually the very objects of the last call, so `is` decides without a call.
    # (`*args` as it comes: re-packing a first argument and the rest costs more than `[0]`.)
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
        if same and _current_recorder() is None:
            try:
                out = last.call(data)
            except RuntimeError:
                self._raise_if_deallocated((first,))
                raise
            except TypeError:  # a tracer of the caller's JAX transformation, for a compiled executable
                if not isinstance(data, jax.core.Tracer):
                    raise
                return self._call(args, options)
            self._hits[0] += 1
            if telemetry.listened:
                telemetry.cache_hit(self.name, last.key, counted=True)
            result = _new(Tensor)
            result.data = out
            result.type = last.out_type
            result.names = last.out_names
            result.backend = self.backend
            return result
    hot = self._hot
    if hot is None or options or _current_recorder() is not None:
        return self._call(args, options)
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
        return self._call(args, options)
    key = tuple(key)
    last_key, entry = self._last_hot
    if key != last_key:
        entry = hot.get(key)
        if entry is None:
            return self._call(args, options)  # a new signature, or one the general route keeps
        self._last_hot = (key, entry)
        if len(args) == 1 and entry.plain is not None and args[0].__class__ is Tensor:
            first, (out_type, out_names) = args[0], entry.plain
            shape = key[0][0]
            self._last_single = SingleCall(
                first.type, first.names, first.backend, shape, entry.call, out_type, out_names, entry.key
            )
    try:
        out = entry.call(*datas)
    except RuntimeError:
        self._raise_if_deallocated(args)
        raise
    except TypeError:  # a tracer of the caller's JAX transformation, for a compiled executable
        if not any(isinstance(data, jax.core.Tracer) for data in datas):
            raise
        return self._call(args, options)
    self._hits[0] += 1
    if telemetry.listened:
        telemetry.cache_hit(self.name, entry.key, counted=True)
    plain = entry.plain
    if plain is not None:
        result = _new(Tensor)
        result.data = out
        result.type = plain[0]
        result.names = plain[1]
        result.backend = self.backend
        return result
    return self._outputs(entry, out)
