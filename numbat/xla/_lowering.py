"""One place that turns a function and its arguments into JAX's lowered and compiled
forms, for the IR views, the fusion report, streaming and serialization."""

from __future__ import annotations

import jax

from .._defn._compiler import Defn
from .._defn._signature import flatten
from .._errors import ArgumentError


def as_defn(fun, **opts) -> Defn:
    if isinstance(fun, Defn):
        return fun
    if not callable(fun):
        raise ArgumentError(f"expected a function or a defn, got {type(fun).__name__} {fun!r}")
    return Defn(fun, **opts)


def lower(fun, args, **opts) -> tuple[Defn, jax.stages.Lowered]:
    """The lowered (StableHLO) form of `fun` for `args` (a list of tensors, templates or numbers)."""
    from ..backends._abstract import Template

    target = as_defn(fun, **opts)
    if not isinstance(args, (list, tuple)):
        raise ArgumentError(f"args must be a list of arguments, got {args!r}")
    signature, _ = flatten(
        tuple(_placeholder(a, target) if isinstance(a, Template) else a for a in args), {}, target._convert
    )
    flat, _ = target.trace(signature)
    avals = [jax.ShapeDtypeStruct(t.shape, t.type.dtype) for t in signature.templates]
    with jax.enable_x64(True):
        return target, jax.jit(flat).trace(*avals).lower()


def _placeholder(template, target):
    import numpy as np

    from .._tensor import Tensor

    return Tensor(np.zeros(template.shape, template.type.dtype), template.type, template.names, target.backend)
