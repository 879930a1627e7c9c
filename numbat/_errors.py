"""numbat's exceptions: each message names what is wrong and how to fix it."""


class ArgumentError(ValueError):
    """A bad argument: wrong shape, type, axis name, option or container.

    >>> raise ArgumentError("unknown axis name 'z' (names are ('x', 'y'))")
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: unknown axis name 'z' (names are ('x', 'y'))
    """

    __module__ = "numbat"


class ClientError(RuntimeError):
    """The XLA client cannot do what was asked in its current state."""

    __module__ = "numbat"


class HookError(RuntimeError):
    """A hook, `print_value` formatter or other run-time callback raised; the computation
    and the defn are intact and can run again."""

    __module__ = "numbat"
