"""The cached call of a `Defn` (DESIGN decision 11): `call` is `Defn.__call__`.

Each compiled signature is traced, lowered and compiled ahead of time under the defn's
lock, and then called on raw arrays: through `jax.jit`'s C++ dispatch when the code is
32-bit throughout (the common case), else through its compiled executable, which needs
no `jax.enable_x64` at call time. Three routes, cheapest first:

1. One tensor with the signature of the last one-tensor call (a loop), for an entry with
   one plain tensor out: compared field by field with `Defn._last_single`, a tuple laid
   out as `SINGLE_FIELDS` (`NO_CALL_YET` until such a call), then the entry runs and its
   result is built without `Tensor.__init__`.
2. Tensors all on the defn's backend (or one naming its device): the entry is found in
   `Defn._hot` by a tuple of `(shape, type, names, id(backend))` per argument (several
   tensors first compare with the last such call, `Defn._last_many`), without flattening
   a pytree or entering a context manager.
3. Everything else (containers, static values, numbers, other backends, keyword options,
   a call while a defn traces, a miss) takes `Defn._call`, which flattens the arguments
   into a `Signature`.

Every route checks what makes the call correct: the arguments' types, names, backends
and shapes; that no defn is tracing (else the call is inlined); a freed argument (named
in the error); and it counts the hit, emitting `("numbat", "cache_hit")` only when a
telemetry handler listens.
"""

from __future__ import annotations

from .. import _expr, telemetry
from .._tensor import Tensor

NO_ARGUMENT = object()  # a defn call with no positional arguments
# `Defn._last_single`: the arguments' (type, names, backend, shape), the entry's call, the
# defn's hit counter, the result's (type, names, backend), and the entry's telemetry key.
SINGLE_FIELDS = ("type", "names", "backend", "shape", "call", "hits", "out_type", "out_names", "out_backend", "key")
NO_CALL_YET = (object(),) * len(SINGLE_FIELDS)  # no tensor's type is this object
_current_recorder = _expr._current.get  # the context variable read without a call in between
_new = object.__new__


def call(self, first=NO_ARGUMENT, /, *rest, **options):
    """Runs the defn on the arguments (`Defn.__call__`); see the module's docstring."""
    # Route 1, spelled out in this frame (no helper call): one tensor, the last one-tensor
    # call's type, names, backend object and shape, no options, no defn tracing. Type and
    # names are usually the very objects of the last call, so `is` decides without a call.
    single = self._last_single
    if not (rest or options):
        try:
            data = first.data
            same = (
                (first.type is single[0] or first.type == single[0])
                and (first.names is single[1] or first.names == single[1])
                and first.backend is single[2]
                and data.aval.shape == single[3]
            )
        except AttributeError:  # not a tensor (or no argument)
            same = False
        if same and _current_recorder() is None:
            try:
                out = single[4](data)
            except RuntimeError:
                self._raise_if_deallocated((first,))
                raise
            single[5][0] += 1
            if telemetry.listened:
                telemetry.cache_hit(self.name, single[9], counted=True)
            result = _new(Tensor)
            result.data = out
            result.type = single[6]
            result.names = single[7]
            result.backend = single[8]
            return result
    args = rest if first is NO_ARGUMENT else (first, *rest)
    hot = self._hot
    if hot is None or options or _current_recorder() is not None:
        return self._call(args, options)
    # Route 2, spelled out in this frame: a comprehension would cost a frame of its own.
    entry = None
    many = self._last_many
    if many is not None and len(args) == len(many[0]):
        # Several tensors with the last such call's signature (a loop): compared in place.
        datas = []
        try:
            for arg, (type_, names, backend, shape) in zip(args, many[0]):
                data = arg.data
                if arg.type != type_ or arg.names != names or arg.backend is not backend:
                    break
                if data.aval.shape != shape:
                    break
                datas.append(data)
            else:
                entry = many[1]
        except AttributeError:  # not a tensor, or data that is not an array
            pass
    if entry is None:
        try:  # tensors on this defn's backend, for a signature compiled before
            if len(args) == 1:
                arg = args[0]
                data = arg.data
                entry = hot[((data.shape, arg.type, arg.names, id(arg.backend)),)]
                if entry.plain is not None:
                    self._last_single = (
                        arg.type,
                        arg.names,
                        arg.backend,
                        data.shape,
                        entry.call,
                        self._hits,
                        *entry.plain,
                        self.backend,
                        entry.key,
                    )
                datas = (data,)
            else:
                key, datas, specs = [], [], []
                for arg in args:
                    data = arg.data
                    key.append((data.shape, arg.type, arg.names, id(arg.backend)))
                    specs.append((arg.type, arg.names, arg.backend, data.shape))
                    datas.append(data)
                entry = hot[tuple(key)]
                self._last_many = (tuple(specs), entry)
        except (KeyError, AttributeError, TypeError):
            return self._call(args, options)  # a new signature, or arguments that are not all tensors
    try:
        out = entry.call(*datas)
    except RuntimeError:
        self._raise_if_deallocated(args)
        raise
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
