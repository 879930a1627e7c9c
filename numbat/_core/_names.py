"""Named axes, as in Nx: a name is a `str` or `None`; axes resolve by int or name.

>>> broadcast_names((2, 3), ("x", None), (3,), ("y",))
('x', 'y')
>>> axis_index(("batch", "x"), "x")
1
"""

from __future__ import annotations

from collections.abc import Sequence

from ._errors import ArgumentError

Names = tuple  # tuple[str | None, ...], one per axis


def normalize(names: Sequence | None, rank: int) -> Names:
    """Checks `names` against `rank`; `None` means every axis is unnamed.

    >>> normalize(["x", None], 2)
    ('x', None)
    >>> normalize(["x"], 2)
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: got 1 name(s) ['x'] for a tensor of rank 2; give one name (str or None) per axis
    """
    if names is None:
        return (None,) * rank
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise ArgumentError(f"names must be a list of str or None, one per axis, got {names!r}")
    names = tuple(names)
    if len(names) != rank:
        raise ArgumentError(
            f"got {len(names)} name(s) {list(names)!r} for a tensor of rank {rank}; "
            "give one name (str or None) per axis"
        )
    for name in names:
        if name is not None and not isinstance(name, str):
            raise ArgumentError(f"an axis name must be a str or None, got {name!r} in {list(names)!r}")
    named = [name for name in names if name is not None]
    if len(set(named)) != len(named):
        raise ArgumentError(f"axis names must be unique, got {list(names)!r}")
    return names


def axis_index(names: Names, axis: int | str) -> int:
    """The position of `axis`, given as an int (negative counts from the end) or a name.

    >>> axis_index(("x", "y"), -1)
    1
    >>> axis_index(("x", "y"), "z")
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: unknown axis name 'z' (the tensor's names are ('x', 'y'))
    """
    rank = len(names)
    if isinstance(axis, str):
        if axis not in names:
            raise ArgumentError(f"unknown axis name {axis!r} (the tensor's names are {names!r})")
        return names.index(axis)
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise ArgumentError(f"an axis must be an int or an axis name, got {axis!r}")
    if not -rank <= axis < rank:
        raise ArgumentError(f"axis {axis} is out of range for a tensor of rank {rank} (names {names!r})")
    return axis % rank


def axes_indices(names: Names, axes: Sequence | None) -> tuple[int, ...]:
    """Resolves a list of axes (ints or names), sorted and unique; `None` is every axis.

    >>> axes_indices(("x", "y", "z"), ["z", 0])
    (0, 2)
    """
    if axes is None:
        return tuple(range(len(names)))
    if isinstance(axes, (int, str)):
        raise ArgumentError(f"axes must be a list of ints or names, got {axes!r}; did you mean [{axes!r}]?")
    if not isinstance(axes, (list, tuple)):
        raise ArgumentError(f"axes must be a list of ints or names, got {type(axes).__name__} {axes!r}")
    indices = [axis_index(names, axis) for axis in axes]
    if len(set(indices)) != len(indices):
        raise ArgumentError(f"axes {list(axes)!r} repeat an axis (names {names!r})")
    return tuple(sorted(indices))


def broadcast_names(left_shape, left_names: Names, right_shape, right_names: Names) -> Names:
    """The names of a broadcast result: axes align from the right, a name merges
    with None, and two different names on one axis raise.

    >>> broadcast_names((2,), ("x",), (2,), ("y",))
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: cannot merge name 'x' on axis 0 with name 'y' on axis 0 (left names ('x',), right names ('y',))
    """
    rank = max(len(left_shape), len(right_shape))
    left = (None,) * (rank - len(left_names)) + tuple(left_names)
    right = (None,) * (rank - len(right_names)) + tuple(right_names)
    merged = []
    for axis, (a, b) in enumerate(zip(left, right)):
        if a is not None and b is not None and a != b:
            raise ArgumentError(
                f"cannot merge name {a!r} on axis {axis} with name {b!r} on axis {axis} "
                f"(left names {tuple(left_names)!r}, right names {tuple(right_names)!r})"
            )
        merged.append(a if a is not None else b)
    return tuple(merged)
