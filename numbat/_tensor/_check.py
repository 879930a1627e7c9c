"""Argument checks shared by numbat's public functions: each raises `ArgumentError`
naming the function, the argument and what was expected, so every boundary says
the same thing the same way.

>>> integer("dashboard", "limit", "10")
Traceback (most recent call last):
...
numbat.ArgumentError: dashboard: limit must be an int, got '10'
"""

from __future__ import annotations

import collections.abc
import numbers

import numpy as np

from .._core._errors import ArgumentError
from ._tensor import Tensor


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def integer(function: str, argument: str, value, minimum: int | None = None) -> int:
    """`value` as an int (not a bool), at least `minimum`."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ArgumentError(f"{function}: {argument} must be an int, got {_shown(value)}")
    if minimum is not None and value < minimum:
        raise ArgumentError(f"{function}: {argument} must be >= {minimum}, got {value}")
    return int(value)


def boolean(function: str, argument: str, value) -> bool:
    """`value`, which must be True or False (NumPy's booleans too)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ArgumentError(f"{function}: {argument} must be True or False, got {_shown(value)}")
    return bool(value)


def number(function: str, argument: str, value) -> complex:
    """`value` as a Python number (bool, int, float or complex)."""
    if not isinstance(value, numbers.Number):
        raise ArgumentError(f"{function}: {argument} must be a number, got {_shown(value)}")
    return value


def sequence(function: str, argument: str, value, of: str = "values") -> tuple:
    """`value` as a tuple, from a list or tuple (not a str, dict, tensor or set)."""
    if not isinstance(value, (list, tuple)):
        raise ArgumentError(f"{function}: {argument} must be a list or tuple of {of}, got {_shown(value)}")
    return tuple(value)


def function(function_name: str, argument: str, value):
    """`value`, which must be callable."""
    if not callable(value):
        raise ArgumentError(f"{function_name}: {argument} must be a function, got {_shown(value)}")
    return value


def choice(function: str, argument: str, value, choices) -> str:
    """`value`, one of `choices`."""
    if not isinstance(value, str) or value not in choices:
        raise ArgumentError(
            f"{function}: {argument} must be one of {', '.join(map(repr, choices))}, got {_shown(value)}"
        )
    return value


def tensor(function: str, argument: str, value):
    """`value`, which must be a numbat Tensor (no conversion)."""
    if not isinstance(value, Tensor):
        raise ArgumentError(
            f"{function}: {argument} must be a numbat tensor, got {type(value).__name__} {_shown(value)}"
        )
    return value


MAX_NESTING = 100  # levels of tuples, lists and dicts in a defn's arguments or results


def nesting(where: str, tree) -> None:
    """Raises `numbat.ArgumentError` when `tree` nests tuples, lists or dicts more than
    `MAX_NESTING` levels deep, naming the depth, or holds an iterator (a generator),
    which JAX's pytree code would take as one leaf (with a deprecation warning). Walked without recursion before JAX
    flattens it: JAX's pytree code, handed a structure deeper than Python's recursion
    limit, loses count of the interpreter's stack depth, and every later call in the
    process then fails with RecursionError.

    >>> deep = 1.0
    >>> for _ in range(500):
    ...     deep = [deep]
    >>> nesting("defn argument", deep)
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: defn argument is nested 500 levels deep; numbat takes at most 100 levels of tuples, lists and dicts
    """
    stack, deepest = [(tree, 0)], 0
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (list, tuple)):
            items = value
        elif isinstance(value, dict):
            items = value.values()
        else:
            if isinstance(value, collections.abc.Iterator):  # JAX would take it as one leaf, and warn
                raise ArgumentError(
                    f"{where} holds a {type(value).__name__}, which can be read only once; "
                    "pass a tuple or list of its values (tuple(...))"
                )
            continue
        depth += 1
        deepest = max(deepest, depth)
        stack.extend((item, depth) for item in items)
    if deepest > MAX_NESTING:
        raise ArgumentError(
            f"{where} is nested {deepest} levels deep; numbat takes at most {MAX_NESTING} levels "
            "of tuples, lists and dicts"
        )
