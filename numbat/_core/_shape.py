"""Pure shape inference: broadcast, reduce, dot, reshape, transpose.

>>> broadcast((2, 1), (3,))
(2, 3)
>>> reduce((2, 3, 4), (1,), keep_axes=False)
(2, 4)
"""

from __future__ import annotations

import math

from ._errors import ArgumentError


def broadcast(left: tuple, right: tuple) -> tuple:
    """The shape of broadcasting `left` with `right` (aligned from the right; 1 stretches).

    >>> broadcast((2, 3), (4,))
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: cannot broadcast shapes (2, 3) and (4,): axis 1 has sizes 3 and 4
    """
    rank = max(len(left), len(right))
    padded_left = (1,) * (rank - len(left)) + tuple(left)
    padded_right = (1,) * (rank - len(right)) + tuple(right)
    out = []
    for axis, (a, b) in enumerate(zip(padded_left, padded_right)):
        if a != b and 1 not in (a, b):
            raise ArgumentError(
                f"cannot broadcast shapes {tuple(left)} and {tuple(right)}: axis {axis} has sizes {a} and {b}"
            )
        out.append(b if a == 1 else a)
    return tuple(out)


def broadcast_to(shape: tuple, target: tuple) -> None:
    """Checks that `shape` broadcasts to `target` without changing `target`.

    >>> broadcast_to((3,), (2, 3))
    >>> broadcast_to((2,), (2, 3))
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: cannot broadcast shape (2,) to (2, 3)
    """
    padded = (1,) * (len(target) - len(shape)) + tuple(shape)
    if len(shape) > len(target) or any(s not in (1, t) for s, t in zip(padded, target)):
        raise ArgumentError(f"cannot broadcast shape {tuple(shape)} to {tuple(target)}")


def reduce(shape: tuple, axes: tuple, keep_axes: bool) -> tuple:
    """The shape after reducing `axes` (already resolved to ints)."""
    if keep_axes:
        return tuple(1 if axis in axes else size for axis, size in enumerate(shape))
    return tuple(size for axis, size in enumerate(shape) if axis not in axes)


def reshape(shape: tuple, new_shape: tuple) -> tuple:
    """Checks a reshape keeps the size; one `-1` (Nx's `:auto`) is inferred.

    >>> reshape((2, 3), (3, -1))
    (3, 2)
    >>> reshape((2, 3), (4, 2))
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: cannot reshape (2, 3) (size 6) to (4, 2) (size 8)
    """
    new_shape = tuple(int(size) for size in new_shape)
    size = math.prod(shape)
    if new_shape.count(-1) > 1:
        raise ArgumentError(f"reshape to {new_shape} has more than one -1 (inferred) axis")
    if -1 in new_shape:
        known = math.prod(s for s in new_shape if s != -1)
        if known == 0 or size % known:
            raise ArgumentError(f"cannot reshape {tuple(shape)} (size {size}) to {new_shape}")
        new_shape = tuple(size // known if s == -1 else s for s in new_shape)
    if any(s < 0 for s in new_shape) or math.prod(new_shape) != size:
        raise ArgumentError(f"cannot reshape {tuple(shape)} (size {size}) to {new_shape} (size {math.prod(new_shape)})")
    return new_shape


def transpose(shape: tuple, axes: tuple) -> tuple:
    """The shape after permuting by `axes` (ints, already resolved)."""
    if sorted(axes) != list(range(len(shape))):
        raise ArgumentError(f"transpose axes {tuple(axes)} are not a permutation of the {len(shape)} axes")
    return tuple(shape[axis] for axis in axes)


def dot(left: tuple, right: tuple) -> tuple:
    """The shape of Nx's `dot`: contract the last axis of `left` with the
    first axis of `right` (a vector's only axis), scalars multiply.

    >>> dot((2, 3), (3, 4)), dot((3,), (3,)), dot((2, 3), (3,))
    ((2, 4), (), (2,))
    >>> dot((2, 3), (2, 3))
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: dot: cannot contract axis 1 of size 3 in shape (2, 3) with axis 0 of size 2 in shape (2, 3)
    """
    if not left or not right:
        return tuple(left) + tuple(right)
    right_axis = 0 if len(right) == 1 else len(right) - 2
    if left[-1] != right[right_axis]:
        raise ArgumentError(
            f"dot: cannot contract axis {len(left) - 1} of size {left[-1]} in shape {tuple(left)} "
            f"with axis {right_axis} of size {right[right_axis]} in shape {tuple(right)}"
        )
    return tuple(left[:-1]) + tuple(right[:right_axis]) + tuple(right[right_axis + 1 :])


EXTENT_LIMIT = 1 << 63  # XLA and NumPy count sizes in int64


def extent(shape) -> int:
    """The product of `shape`'s nonzero dimensions: what XLA and NumPy multiply out (and
    refuse when it overflows 64 bits, in bytes) even when another dimension is 0, so an
    empty tensor's dimensions are bounded too (docs/design.md, decision 22).

    >>> extent((2**33, 2**33, 0)), extent((2, 0, 3)), extent(())
    (73786976294838206464, 6, 1)
    """
    return math.prod(int(size) for size in shape if size)
