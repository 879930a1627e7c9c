"""Scoped settings: a context variable set for the duration of a `with` block."""

from __future__ import annotations

import contextlib
import contextvars


@contextlib.contextmanager
def scoped(variable: contextvars.ContextVar, value):
    """Sets `variable` to `value` inside the block, restoring it after.

    >>> level = contextvars.ContextVar("level", default=0)
    >>> with scoped(level, 1):
    ...     level.get()
    1
    >>> level.get()
    0
    """
    token = variable.set(value)
    try:
        yield value
    finally:
        variable.reset(token)
