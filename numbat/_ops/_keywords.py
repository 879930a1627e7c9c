"""Unknown options are numbat errors: `guard_namespace` wraps every public op so that a
keyword the op does not take raises `ArgumentError` naming the op and the options it
takes, instead of Python's bare `TypeError`.

The wrapper has the op's own parameters (plus `**unknown`), so the normal path costs
one extra plain call; the message is only built when an unknown keyword came.

>>> nbt.sort(nbt.tensor([2, 1]), dirction="desc")
Traceback (most recent call last):
...
numbat.ArgumentError: sort: unknown option 'dirction'; sort takes tensor, axis, direction, stable
"""

from __future__ import annotations

import functools
import inspect
import types

from .._core._errors import ArgumentError

_VARIADIC = inspect.CO_VARARGS | inspect.CO_VARKEYWORDS


def _options(fun) -> tuple:
    """The keyword names `fun` takes, in order, or None when it takes any (`**kwargs`)."""
    parameters = inspect.signature(fun).parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return None
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return tuple(p.name for p in parameters if p.kind in kinds)


# NumPy's and JAX's keyword names, and Nx's (numbat's) for the same thing.
_SPELLINGS = {
    "axis": ("axes", "axes=[...] (Nx's name: a list of axes)"),
    "axes": ("axis", "axis=... (one axis)"),
    "dtype": ("type", 'type=... (Nx\'s name: "f32", nbt.Type or a NumPy dtype)'),
    "keepdims": ("keep_axes", "keep_axes=True (Nx's name)"),
    "keep_dims": ("keep_axes", "keep_axes=True (Nx's name)"),
}


def _plain(fun) -> tuple[tuple, tuple] | None:
    """`fun`'s parameter names and trailing defaults when every parameter is positional-or-
    keyword (no `*args`, `**kwargs`, `/` or `*`), else None. Read from the code object when
    `fun` wraps nothing (cheap: numbat guards some 200 ops at import), else from its signature."""
    if getattr(fun, "__wrapped__", None) is None and isinstance(fun, types.FunctionType):
        code = fun.__code__
        if code.co_flags & _VARIADIC or code.co_posonlyargcount or code.co_kwonlyargcount:
            return None
        return code.co_varnames[: code.co_argcount], fun.__defaults__ or ()
    parameters = list(inspect.signature(fun).parameters.values())
    if any(p.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD for p in parameters):
        return None
    defaults = tuple(p.default for p in parameters if p.default is not inspect.Parameter.empty)
    return tuple(p.name for p in parameters), defaults


def unknown_option(name: str, options: tuple, given) -> ArgumentError:
    """The error for keywords `given` that `name` does not take; a NumPy spelling of an
    option `name` takes under Nx's name gets a hint.

    >>> nbt.sum(nbt.tensor([[1, 2], [3, 4]]), axis=1)
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: sum: unknown option 'axis'; sum takes tensor, axes, keep_axes. sum takes axes=[...] (Nx's name: a list of axes), not axis
    """
    unknown = [key for key in given if key not in options]
    listed = ", ".join(options) if options else "no options"
    plural = "s" if len(unknown) > 1 else ""
    hints = []
    for key in unknown:
        spelling = _SPELLINGS.get(key)
        if key in ("keepdims", "keep_dims") and "keep_axis" in options:
            spelling = ("keep_axis", "keep_axis=True (Nx's name)")
        if spelling is not None and spelling[0] in options:
            hints.append(f"{name} takes {spelling[1]}, not {key}")
    hint = "".join(f". {h}" for h in hints)
    return ArgumentError(f"{name}: unknown option{plural} {', '.join(map(repr, unknown))}; {name} takes {listed}{hint}")


def guard(fun, name: str | None = None):
    """`fun`, raising `ArgumentError` for an unknown keyword (a function that takes
    `**kwargs` is returned as it is). `functools.wraps` keeps its name, docstring and
    signature for `help()`, doctests and `inspect.signature`."""
    name = name or fun.__name__
    plain = _plain(fun)
    if plain is not None:
        guarded = _exact(fun, name, *plain)
    else:
        options = _options(fun)
        if options is None:
            return fun
        guarded = _generic(fun, name, options)
    functools.update_wrapper(guarded, fun)
    guarded.__numbat_guarded__ = True
    return guarded


# One compiled wrapper body per parameter list (many ops share `tensor, axes, keep_axes`).
_BODIES: dict[tuple, types.CodeType] = {}


def _exact(fun, name: str, parameters: tuple, defaults: tuple):
    """A wrapper with `fun`'s own parameters and defaults plus `**unknown`: a call passes
    its arguments straight through (no tuple or dict repacking)."""
    body = _BODIES.get(parameters)
    if body is None:
        names = ", ".join(parameters)
        source = (
            f"def guarded({', '.join([*parameters, '**_unknown'])}):\n"
            f"    if _unknown:\n"
            f"        raise _error(_unknown)\n"
            f"    return _fun({names})\n"
        )
        namespace = {}
        exec(compile(source, "<numbat guard>", "exec"), namespace)  # noqa: S102 - our own fixed template
        body = _BODIES[parameters] = namespace["guarded"].__code__
    scope = {"_fun": fun, "_error": lambda unknown: unknown_option(name, parameters, unknown)}
    return types.FunctionType(body, scope, "guarded", defaults)


def _generic(fun, name: str, options: tuple):
    """A `*args, **kwargs` wrapper, for signatures `_exact` does not copy."""

    def guarded(*args, **kwargs):
        try:
            return fun(*args, **kwargs)
        except TypeError:
            # An unknown keyword fails while binding, before the op's body runs; any
            # other TypeError (or one with only known keywords) is not ours to rename.
            if any(key not in options for key in kwargs):
                raise unknown_option(name, options, kwargs) from None
            raise

    return guarded


def guard_namespace(namespace: dict, modules: tuple[str, ...], prefix: str = "") -> list[str]:
    """Replaces each public function in `namespace` (a module's globals) defined in a module
    whose name starts with one of `modules` by its guarded form; returns the names guarded."""
    guarded = []
    for key, value in list(namespace.items()):
        if key.startswith("_") or not isinstance(value, types.FunctionType):
            continue
        if getattr(value, "__numbat_guarded__", False) or not value.__module__.startswith(modules):
            continue
        namespace[key] = guard(value, prefix + key)
        guarded.append(key)
    return guarded
