"""One place that turns a function and its arguments into JAX's lowered and compiled
forms, for the IR views, the fusion report, streaming and serialization: the defn's
own `lower`, the very lowering its calls compile (docs/design.md, decision 15), so every
option (precision, x64) shows in every view."""

from __future__ import annotations

import jax
import numpy as np

from .._core._errors import ArgumentError
from .._defn._definition import Defn
from .._defn._signature import flatten
from .._tensor._tensor import Template, Tensor


def as_defn(fun, **opts) -> Defn:
    """`fun` as a defn with `opts`: a defn given options runs with them over its own, as
    `nbt.defn(d, **opts)` does (given none, it is itself, with its compiled entries)."""
    if isinstance(fun, Defn) and not opts:
        return fun
    if not callable(fun):
        raise ArgumentError(f"expected a function or a defn, got {type(fun).__name__} {fun!r}")
    return Defn(fun, **opts)


def lower(fun, args, **opts) -> tuple[Defn, jax.stages.Lowered]:
    """The lowered (StableHLO) form of `fun` for `args` (a list of tensors, templates or
    numbers): what a call of the defn (with `opts`) compiles for that signature.

    >>> _, lowered = lower(lambda a: a * 2, [nbt.template((3,), "f32")])
    >>> "stablehlo.multiply" in lowered.as_text()
    True
    """
    target, signature = signature_of(fun, args, **opts)
    return target, target.lower(signature)[0]


def compiled(fun, args, **opts) -> tuple[Defn, jax.stages.Compiled]:
    """`lower(fun, args, **opts)` compiled as a call compiles it."""
    target, signature = signature_of(fun, args, **opts)
    lowered, _, _, plain_jit = target.lower(signature)
    with target.lowering_context(not plain_jit):
        return target, lowered.compile()


def signature_of(fun, args, **opts):
    """The defn for `fun` (with `opts`) and the signature of `args` (templates allowed)."""
    target = as_defn(fun, **opts)
    if not isinstance(args, (list, tuple)):
        raise ArgumentError(f"args must be a list of arguments, got {args!r}")
    signature, _ = flatten(
        tuple(placeholder(a, target) if isinstance(a, Template) else a for a in args), {}, target._convert
    )
    return target, signature


def placeholder(template, target):
    """Zeros of `template`'s shape and type on `target`'s backend: what a template argument is traced with."""
    return Tensor(np.zeros(template.shape, template.type.dtype), template.type, template.names, target.backend)
