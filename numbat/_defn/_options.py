"""Default defn options: process-wide (`global_default_defn_options`) and scoped to a
`with` block (`default_defn_options`), like the default backend. Options given to
`defn` itself win over both."""

from __future__ import annotations

import contextvars

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


def global_default_defn_options(**opts) -> dict:
    """Sets process-wide default defn options and returns the previous ones (with no
    options, just returns them).

    >>> previous = nbt.global_default_defn_options(precision="high")
    >>> nbt.jit(lambda t: t).precision
    'high'
    >>> _ = nbt.global_default_defn_options(precision=previous.get("precision", "default"))
    """
    global _global
    previous = dict(_global)
    if opts:
        _global = {**_global, **opts}
    return previous
