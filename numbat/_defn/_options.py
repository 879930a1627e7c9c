"""Default defn options: process-wide (`global_default_defn_options`) and scoped to a
`with` block (`default_defn_options`), like the default backend. Options given to
`defn` itself win over both."""

from __future__ import annotations

import contextvars

from .._errors import ArgumentError
from .._scoped import scoped

_global: dict = {}
_scoped: contextvars.ContextVar[dict | None] = contextvars.ContextVar("numbat_defn_options", default=None)


def effective(explicit: dict) -> dict:
    """The options a new defn gets: the global defaults, then the scoped ones, then `explicit`."""
    return {**_global, **(_scoped.get() or {}), **explicit}


def default_defn_options(**opts):
    """A context manager making `opts` the default options of the defns created
    (and `nbt.jit` calls made) inside the `with` block.

    >>> with nbt.default_defn_options(compiler="evaluator"):
    ...     nbt.jit(lambda t: t + 1).compiler
    'evaluator'
    """
    return scoped(_scoped, {**(_scoped.get() or {}), **opts})


def global_default_defn_options(options: dict | None = None, /, **opts) -> dict:
    """Replaces the process-wide default defn options with `opts` (or the dict
    `options`) and returns the previous ones, as Nx's `global_default_options`;
    with no argument, just returns them.

    >>> previous = nbt.global_default_defn_options(precision="high")
    >>> nbt.jit(lambda t: t).precision
    'high'
    >>> nbt.global_default_defn_options(previous)
    {'precision': 'high'}
    """
    global _global
    current = dict(_global)
    if options is not None or opts:
        if options is not None and not isinstance(options, dict):
            raise ArgumentError(f"global_default_defn_options takes a dict or keyword options, got {options!r}")
        _global = {**(options or {}), **opts}
    return current


def key(options: dict) -> tuple:
    """`options` as a hashable value (the `hooks` dict as sorted pairs)."""
    return tuple(
        sorted(
            (name, tuple(sorted(value.items())) if isinstance(value, dict) else value)
            for name, value in options.items()
        )
    )
