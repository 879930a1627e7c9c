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
from ._tensor import Tensor, is_deallocated, is_traced


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


def not_freed(function: str, argument: str, value) -> None:
    """Raises if `value` is a tensor whose memory `nbt.backend_deallocate` freed (or
    `nbt.backend_transfer` moved away): JAX's own error names neither."""
    if isinstance(value, Tensor) and not is_traced(value) and is_deallocated(value):
        raise ArgumentError(
            f"{function}: {argument} ({value.type}{list(value.shape)}) was freed by nbt.backend_deallocate or moved "
            "away by nbt.backend_transfer; compute it anew"
        )


MAX_NESTING = 100  # levels of tuples, lists and dicts in a defn's arguments or results
MAX_ITEMS = 1 << 28  # items in them, a shared sublist counted each time it appears


_CONTAINERS = (list, tuple, dict)


def _items(where: str, value):
    """The items of a tuple, list or dict (None for anything else); an iterator is refused."""
    if isinstance(value, (list, tuple)):
        return value
    if isinstance(value, dict):
        return value.values()
    if isinstance(value, collections.abc.Iterator):  # JAX would take it as one leaf, and warn
        raise ArgumentError(
            f"{where} holds a {type(value).__name__}, which can be read only once; "
            "pass a tuple or list of its values (tuple(...))"
        )
    return None


def _walked(where: str, items, finished: dict) -> tuple[int, int]:
    """The depth and item count of a container whose containers are all in `finished`."""
    depth, count = 1, 0
    for item in items:
        inner = finished.get(id(item)) if isinstance(item, _CONTAINERS) else None
        if inner is None:
            if not isinstance(item, (float, int)):
                _items(where, item)  # refuses an iterator
            count += 1
        else:
            depth, count = max(depth, inner[0] + 1), count + inner[1] + 1
    if count > MAX_ITEMS:
        raise ArgumentError(
            f"{where} holds more than {MAX_ITEMS} items, counting a shared sublist each time it appears; "
            f"numbat takes at most {MAX_ITEMS} (build large tensors with nbt.broadcast, nbt.iota or NumPy)"
        )
    return depth, count


def nesting(where: str, tree) -> None:
    """Raises `numbat.ArgumentError` when `tree` nests tuples, lists or dicts more than
    `MAX_NESTING` levels deep, naming the depth, holds itself (a cycle), holds more than
    `MAX_ITEMS` items counting a shared sublist each time it appears (`d = [d, d]` forty times
    holds 2**41), or holds an iterator (a generator), which JAX's pytree code would take as one
    leaf (with a deprecation warning). Walked without recursion, each distinct container once,
    before JAX flattens it: JAX's pytree code, handed a structure deeper than Python's
    recursion limit, loses count of the interpreter's stack depth, and every later call in the
    process then fails with RecursionError.

    >>> deep = 1.0
    >>> for _ in range(500):
    ...     deep = [deep]
    >>> nesting("defn argument", deep)
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: defn argument is nested 500 levels deep; numbat takes at most 100 levels of tuples, lists and dicts
    >>> loop = []; loop.append(loop)
    >>> nesting("tensor: data", loop)
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: tensor: data holds itself (a list inside itself), so it has no end; ...
    """
    finished: dict[int, tuple[int, int]] = {}  # id of a container walked -> (its depth, its items)
    entered: set[int] = set()  # the containers on the path being walked
    stack = [(tree, False)]
    while stack:
        value, leaving = stack.pop()
        items = _items(where, value)
        if items is None or (not leaving and id(value) in finished):
            continue
        if leaving:
            entered.discard(id(value))
            finished[id(value)] = _walked(where, items, finished)
            continue
        if id(value) in entered:
            raise ArgumentError(
                f"{where} holds itself (a {type(value).__name__} inside itself), so it has no end; "
                "numbat takes tuples, lists and dicts that end"
            )
        entered.add(id(value))
        stack.append((value, True))
        stack.extend((item, False) for item in items if isinstance(item, _CONTAINERS))
    deepest = finished[id(tree)][0] if id(tree) in finished else 0
    if deepest > MAX_NESTING:
        raise ArgumentError(
            f"{where} is nested {deepest} levels deep; numbat takes at most {MAX_NESTING} levels "
            "of tuples, lists and dicts"
        )
