"""Asking the compile cache: `is_cached(fun, args)`."""

from __future__ import annotations

import inspect
import os

from .._core._errors import ArgumentError
from .._runtime import _disk_cache
from ._definition import Defn
from ._signature import flatten


def is_cached(fun, args, **options) -> bool:
    """Whether defn `fun` has compiled code for the signature of `args` (a list), so
    that calling it with them would not compile: in memory, or (a defn with a disk
    cache) an entry on disk that the call would load.

    >>> double = nbt.defn(lambda t: t * 2)
    >>> _ = double(nbt.tensor([1, 2]))
    >>> nbt.is_cached(double, [nbt.tensor([3, 4])]), nbt.is_cached(double, [nbt.tensor([1, 2, 3])])
    (True, False)
    """
    if not isinstance(fun, Defn):
        raise ArgumentError(f"is_cached needs a defn (nbt.defn or nbt.jit), got {type(fun).__name__} {fun!r}")
    if not isinstance(args, (list, tuple)):
        raise ArgumentError(f"is_cached: args must be a list of arguments, got {args!r}")
    try:  # options are the function's own keyword arguments: one it does not take is a mistake
        inspect.signature(fun.fun).bind(*args, **options)
    except TypeError as error:
        raise ArgumentError(f"is_cached: {fun.name} cannot take these arguments and options: {error}") from None
    except ValueError:  # no signature to check (a builtin): the cache key decides
        pass
    signature, _ = flatten(tuple(args), options, fun._convert)
    if signature in fun._cache:
        return True
    if fun.compiler == "xla" and isinstance(fun.cache, (str, os.PathLike)):  # a call would load it from disk
        lowered, _, _, plain_jit = fun.lower(signature)
        with fun.lowering_context(not plain_jit):  # keyed under the settings a call compiles under
            return _disk_cache.is_stored(lowered, fun.cache)
    return False
