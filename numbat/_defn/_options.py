"""Default defn options: process-wide (`global_default_defn_options`) and scoped to a
`with` block (`default_defn_options`), like the default backend. Options given to
`defn` itself win over both. Every option is checked where it is given (`check`):
a bad default is refused when it is set, and changes nothing, instead of breaking
every later defn."""

from __future__ import annotations

import contextvars
import os
import weakref

from .._core._errors import ArgumentError
from .._core._scoped import scoped
from .._runtime import _client, _config

COMPILERS = ("xla", "evaluator")
OPTIONS = (
    "compiler",
    "client",
    "device_id",
    "precision",
    "cache",
    "debug",
    "hooks",
    "lazy_transfers",
    "interruptible",
)
LAZY_TRANSFERS = ("opt_in", "never")  # both transfer every argument when the call starts, as jax.jit does

_global: dict = {}
_followers: weakref.WeakSet = weakref.WeakSet()  # the live defns, re-settled when the global defaults change


_scoped: contextvars.ContextVar[dict | None] = contextvars.ContextVar("numbat_defn_options", default=None)


def follow(defn) -> None:
    """Registers `defn`, whose `_settle()` runs again whenever the global defaults change."""
    _followers.add(defn)


def global_defaults() -> dict:
    """The process-wide default options now (`global_default_defn_options`'s)."""
    return _global


def scoped_defaults() -> dict:
    """The default options of the `default_defn_options` block being run, if any."""
    return _scoped.get() or {}


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
    return scoped(_scoped, {**(_scoped.get() or {}), **check(opts, "default_defn_options")})


def global_default_defn_options(options: dict | None = None, /, **opts) -> dict:
    """Replaces the process-wide default defn options with `opts` (or the dict
    `options`) and returns the previous ones, as Nx's `global_default_options`;
    with no argument, just returns them. They reach every defn, existing ones included,
    for the options it was not given.

    >>> previous = nbt.global_default_defn_options(precision="high")
    >>> nbt.jit(lambda t: t).precision
    'high'
    >>> double = nbt.defn(lambda t: t * 2)
    >>> _ = nbt.global_default_defn_options(compiler="evaluator")
    >>> double.compiler
    'evaluator'
    >>> _ = nbt.global_default_defn_options(precision="high")
    >>> nbt.global_default_defn_options(previous)
    {'precision': 'high'}
    >>> nbt.global_default_defn_options({"compiler": 3})
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: global_default_defn_options: unknown defn compiler 3; compilers are xla, evaluator
    """
    global _global
    current = dict(_global)
    if options is not None or opts:
        if options is not None and not isinstance(options, dict):
            raise ArgumentError(f"global_default_defn_options takes a dict or keyword options, got {options!r}")
        _global = check({**(options or {}), **opts}, "global_default_defn_options")
        for defn in list(_followers):
            defn._settle()
    return current


def check(options: dict, where: str) -> dict:
    """`options` when every one is known and valid; else `numbat.ArgumentError` naming
    `where`, the option and the accepted values. A client and device id are checked
    against the devices once the XLA client has started (before, the name and the
    form: checking more would start it).

    >>> check({"cache": 3.5}, "defn")
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: defn: option cache must be True, False or a directory path, got 3.5
    """
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise ArgumentError(
            f"{where}: unknown defn option(s) {sorted(unknown, key=str)}; options are {', '.join(OPTIONS)}"
        )
    compiler = options.get("compiler", "xla")
    if not isinstance(compiler, str) or compiler not in COMPILERS:
        raise ArgumentError(f"{where}: unknown defn compiler {compiler!r}; compilers are {', '.join(COMPILERS)}")
    if options.get("lazy_transfers") == "always":
        # EXLA's "always" feeds an argument to the device only when the running computation first
        # needs it (an infeed inside a loop or branch); jax.jit has no such infeed.
        raise ArgumentError(
            f'{where}: option lazy_transfers="always" is not supported: JAX transfers every argument to the '
            'device when the call starts; use "opt_in" or "never" (both do that), or keep large inputs '
            "on the host and slice them before the call"
        )
    _one_of(options, "lazy_transfers", LAZY_TRANSFERS, where)
    if "precision" in options:
        _one_of(options, "precision", tuple(_config.PRECISIONS), where)
    client, device_id = options.get("client"), options.get("device_id", 0)
    if client is not None and (not isinstance(client, str) or client not in _client.PLATFORMS):
        raise ArgumentError(
            f"{where}: option client must be one of {', '.join(_client.PLATFORMS)} or None, got {client!r}"
        )
    if isinstance(device_id, bool) or not isinstance(device_id, int) or device_id < 0:
        raise ArgumentError(f"{where}: option device_id must be a non-negative int, got {device_id!r}")
    if _client.started() and ("client" in options or "device_id" in options):
        try:
            _client.device(client, device_id)
        except Exception as error:  # noqa: BLE001 -- ArgumentError or ClientError: said with the option's name
            raise ArgumentError(f"{where}: option client/device_id: {error}") from None
    cache = options.get("cache", True)
    if not isinstance(cache, (bool, str, os.PathLike)):
        raise ArgumentError(f"{where}: option cache must be True, False or a directory path, got {cache!r}")
    for flag in ("debug", "interruptible"):
        if not isinstance(options.get(flag, False), bool):
            raise ArgumentError(f"{where}: option {flag} must be True or False, got {options[flag]!r}")
    hooks = options.get("hooks") or {}
    if not isinstance(hooks, dict) or not all(isinstance(k, str) and callable(v) for k, v in hooks.items()):
        raise ArgumentError(f"{where}: option hooks must map hook names to functions, got {hooks!r}")
    return options


def _one_of(options: dict, name: str, accepted: tuple, where: str) -> None:
    if name in options:
        value = options[name]
        if not isinstance(value, str) or value not in accepted:
            raise ArgumentError(f"{where}: option {name} must be one of {', '.join(accepted)}, got {value!r}")


def key(options: dict) -> tuple:
    """`options` as a hashable value (the `hooks` dict as sorted pairs)."""
    return tuple(
        sorted(
            (name, tuple(sorted(value.items())) if isinstance(value, dict) else value)
            for name, value in options.items()
        )
    )
