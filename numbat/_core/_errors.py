"""numbat's exceptions: each message names what is wrong and how to fix it."""


class ArgumentError(ValueError):
    """A bad argument: wrong shape, type, axis name, option or container.

    >>> raise ArgumentError("unknown axis name 'z' (names are ('x', 'y'))")
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: unknown axis name 'z' (names are ('x', 'y'))
    """

    __module__ = "numbat"


class IndexTypeError(ArgumentError):
    """An index (a slice start, the indices of take, gather or indexed_*) that is not an
    integer tensor. `grad` catches it: an integer argument used as an index is passed as
    an integer, not differentiated as a float."""

    __module__ = "numbat"


class ClientError(RuntimeError):
    """The XLA client cannot do what was asked in its current state."""

    __module__ = "numbat"


class HookError(RuntimeError):
    """A hook, `print_value` formatter or other run-time callback raised; the computation
    and the defn are intact and can run again."""

    __module__ = "numbat"


class AllocationError(MemoryError):
    """A tensor that cannot be allocated: it needs more bytes than its device has,
    or a dimension does not fit in 64 bits. Raised before anything is allocated, so the
    process (and a notebook's kernel) carries on.

    >>> raise AllocationError("iota needs 64 EiB for s32[2**62], more than host:0 has (16 GiB)")
    Traceback (most recent call last):
    ...
    numbat.AllocationError: iota needs 64 EiB for s32[2**62], more than host:0 has (16 GiB)
    """

    __module__ = "numbat"


class Interrupted(RuntimeError):
    """A running loop stopped because the user asked (Ctrl-C, Jupyter's "Interrupt kernel",
    a live view's Stop button); the kernel, its variables and the defn are intact.

    >>> raise Interrupted("while_loop step (in defn train) stopped after 4,096 iterations")
    Traceback (most recent call last):
    ...
    numbat.Interrupted: while_loop step (in defn train) stopped after 4,096 iterations
    """

    __module__ = "numbat"
