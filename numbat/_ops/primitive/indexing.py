"""Indexing and slicing: Python's `t[...]` (ints, slices, `...`, integer tensors, and a
dict of axis name to index), `slice`, `put_slice`, `take`, `take_along_axis`, `gather`,
`indexed_add`, `indexed_put`.

The family's rule: an op chooses or updates elements by their index (slices, take,
gather, indexed updates).
"""

from __future__ import annotations

import builtins

import numpy as np

from ..._core import _names, _types
from ..._core._errors import ArgumentError, IndexTypeError
from ..._tensor import _check
from ..._tensor._tensor import Template, Tensor
from .. import _dispatch


def getitem(tensor, index):
    """`tensor[index]`: an int drops its axis, a slice keeps it (and its name) and follows
    Python's slicing (negative steps included); `...` stands for the remaining axes; a
    scalar integer tensor is a run-time index, clamped into the axis as Nx does; any
    other integer tensor takes along the first axis (a u8 tensor of `tensor`'s shape, a
    comparison's mask, raises: numbat has no boolean masks); a dict indexes by axis name
    (`t[{"x": slice(1, 3)}]` is Nx's `t[x: 1..2]`). NumPy's `None` is `nbt.new_axis`.

    >>> t = nbt.tensor([[1, 2, 3], [4, 5, 6]], names=["x", "y"])
    >>> t[1]
    numbat.Tensor<
      s32[y: 3]
      [4, 5, 6]
    >
    >>> t[:, 1:]
    numbat.Tensor<
      s32[x: 2][y: 2]
      [
        [2, 3],
        [5, 6]
      ]
    >
    >>> t[{"y": -1}]
    numbat.Tensor<
      s32[x: 2]
      [3, 6]
    >
    >>> t[..., ::-1]
    numbat.Tensor<
      s32[x: 2][y: 3]
      [
        [3, 2, 1],
        [6, 5, 4]
      ]
    >
    >>> t[nbt.tensor(5), nbt.tensor(-1)]
    numbat.Tensor<
      s32
      4
    >
    >>> x = nbt.tensor([1, -2, 3])
    >>> x[x > 0]
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: boolean masks are not supported: t[mask] with a u8 tensor of t's shape (3,) would ...
    """
    if isinstance(index, Tensor) and index.rank:
        return _by_integer_tensor(tensor, index)
    if isinstance(index, dict):
        index = _positional(tensor, index)
    tensor, out, normalized = _static_index(tensor, index if isinstance(index, tuple) else (index,))
    return _dispatch.run("getitem", out, (tensor,), index=normalized)


def _by_integer_tensor(tensor: Tensor, index: Tensor) -> Tensor:
    """`tensor[index]` for an integer tensor of rank 1 or more: a take along the first
    axis; a u8 tensor of `tensor`'s shape (a comparison's mask) raises."""
    if index.type == _types.U8 and index.shape == tensor.shape:
        raise ArgumentError(
            f"boolean masks are not supported: t[mask] with a u8 tensor of t's shape {tensor.shape} would "
            "take the positions 0 and 1 (Nx's t[indices] is nbt.take), not the elements where the mask "
            "holds; a selection by mask has a shape that depends on values. Use nbt.select(mask, t, 0) "
            "to keep t's shape, or nbt.take(t, indices) if you mean positions"
        )
    return take(tensor, index, axis=0)


def _positional(tensor: Tensor, index: dict) -> tuple:
    """A dict of axis name (or position) to index as a tuple over all axes, `:` where
    the dict names no index."""
    positional = [builtins.slice(None)] * tensor.rank
    for axis, item in index.items():
        positional[_names.axis_index(tensor.names, axis)] = item
    return tuple(positional)


def _expand_ellipsis(tensor: Tensor, index: tuple, ellipses: int) -> tuple:
    """`index` with its one `...` replaced by `:` for each axis the other items leave."""
    if ellipses > 1:
        raise ArgumentError(f"an index can hold one ... (Ellipsis), got {ellipses}")
    at = index.index(Ellipsis)
    fill = builtins.max(tensor.rank - (len(index) - 1), 0)
    return index[:at] + (builtins.slice(None),) * fill + index[at + 1 :]


def _static_index(tensor: Tensor, index: tuple) -> tuple:
    """`(tensor, out, normalized)` for a tuple index of `tensor`: scalar tensor indices
    applied as a run-time slice (`tensor` is then that window), the output's template,
    and the index with ints made non-negative and slices made explicit, as the
    `getitem` kernel takes it."""
    if builtins.any(item is None for item in index):
        raise ArgumentError(
            "tensors are not indexed with None (NumPy's new axis); use nbt.new_axis(t, axis) to add an axis"
        )
    ellipses = builtins.sum(1 for item in index if item is Ellipsis)
    if ellipses:
        index = _expand_ellipsis(tensor, index, ellipses)
    if len(index) > tensor.rank:
        raise ArgumentError(
            f"too many indices ({len(index)}) for a tensor of rank {tensor.rank} (shape {tensor.shape})"
        )
    if builtins.any(isinstance(item, Tensor) for item in index):
        tensor, index = _dynamic_indices(tensor, index)
    shape, names, normalized = [], [], []
    for axis, item in enumerate(index):
        size = tensor.shape[axis]
        if isinstance(item, builtins.slice):
            if item.step == 0:
                raise ArgumentError(f"slice step cannot be zero (axis {axis}, shape {tensor.shape})")
            start, stop, step = item.indices(size)
            # A negative step that runs to the front stops "before 0": None, since -1 means the end.
            normalized.append(builtins.slice(start, None if stop < 0 else stop, step))
            shape.append(len(range(start, stop, step)))
            names.append(tensor.names[axis])
        elif isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_)):
            if not -size <= item < size:
                raise ArgumentError(
                    f"index {item} is out of range for axis {axis} of size {size} (shape {tensor.shape})"
                )
            normalized.append(int(item) % size)
        else:
            raise ArgumentError(
                f"tensors are indexed with ints, slices, ..., integer tensors or a dict of axis names; "
                f"got {item!r} for axis {axis}"
            )
    shape.extend(tensor.shape[len(index) :])
    names.extend(tensor.names[len(index) :])
    return tensor, Template(tuple(shape), tensor.type, tuple(names)), tuple(normalized)


def _dynamic_indices(tensor: Tensor, index: tuple) -> tuple:
    """Scalar tensor indices as Nx's Access runs them: a slice of length 1 starting at the
    index (clamped into the axis), whose axis the static index then drops."""
    starts, lengths = [], []
    for axis, item in enumerate(index):
        if isinstance(item, Tensor):
            if item.rank or not item.type.is_integer:
                raise IndexTypeError(
                    f"a tensor index among others must be an integer scalar, got {item.type}{list(item.shape)} "
                    f"for axis {axis}; use nbt.take or nbt.gather for tensors of indices"
                )
            if tensor.shape[axis] == 0:
                raise ArgumentError(f"cannot index axis {axis} of shape {tensor.shape}: it is empty")
            starts.append(item)
            lengths.append(1)
        else:
            starts.append(0)
            lengths.append(tensor.shape[axis])
    starts.extend([0] * (tensor.rank - len(index)))
    lengths.extend(tensor.shape[len(index) :])
    window = slice(tensor, starts, lengths)
    return window, tuple(0 if isinstance(item, Tensor) else item for item in index)


def _start_tensors(tensor: Tensor, starts, op: str) -> tuple:
    if len(starts) != tensor.rank:
        raise ArgumentError(f"{op}: {len(starts)} start indices for a tensor of rank {tensor.rank}")
    out = []
    for start in starts:
        start = _dispatch.to_tensor(start, tensor.backend)
        if start.shape != () or not start.type.is_integer:
            raise IndexTypeError(f"{op}: start indices must be integer scalars, got {start.type}{list(start.shape)}")
        out.append(start)
    return tuple(out)


def slice(tensor, start_indices, lengths, strides=1):
    """`lengths[i]` elements from `start_indices[i]` on each axis, every `strides[i]`-th.
    Starts may be tensors (computed at run time); they are clamped so the slice fits.

    >>> nbt.slice(nbt.tensor([1, 2, 3, 4, 5]), [1], [3])
    numbat.Tensor<
      s32[3]
      [2, 3, 4]
    >
    >>> nbt.slice(nbt.tensor([1, 2, 3, 4, 5]), [4], [2])
    numbat.Tensor<
      s32[2]
      [4, 5]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    starts = _start_tensors(tensor, list(_check.sequence("slice", "start_indices", start_indices)), "slice")
    lengths = _check.sequence("slice", "lengths", lengths, "ints")
    strides = (strides,) * tensor.rank if isinstance(strides, int) else _check.sequence("slice", "strides", strides)
    if len(lengths) != tensor.rank or len(strides) != tensor.rank:
        raise ArgumentError(f"slice: lengths {lengths} and strides {strides} need {tensor.rank} entries")
    for axis, (length, size, stride) in enumerate(zip(lengths, tensor.shape, strides)):
        _check.integer("slice", f"the length of axis {axis}", length)
        _check.integer("slice", f"the stride of axis {axis}", stride)
        if not 0 <= length <= size or stride < 1:
            raise ArgumentError(f"slice: length {length} (stride {stride}) does not fit axis {axis} of size {size}")
    shape = tuple(-(-length // stride) for length, stride in zip(lengths, strides))
    out = Template(shape, tensor.type, tensor.names)
    return _dispatch.run("slice", out, (tensor, *starts), lengths=lengths, strides=strides)


def put_slice(tensor, start_indices, update):
    """`tensor` with `update` written at `start_indices` (clamped so that it fits).

    >>> nbt.put_slice(nbt.tensor([1, 2, 3, 4]), [1], nbt.tensor([8, 9]))
    numbat.Tensor<
      s32[4]
      [1, 8, 9, 4]
    >
    """
    tensor, update = _dispatch.to_tensor(tensor), _dispatch.to_tensor(update)
    starts = _start_tensors(tensor, list(_check.sequence("put_slice", "start_indices", start_indices)), "put_slice")
    if update.rank != tensor.rank or builtins.any(u > s for u, s in zip(update.shape, tensor.shape)):
        raise ArgumentError(f"put_slice: an update of shape {update.shape} does not fit in {tensor.shape}")
    type_ = _types.merge(tensor.type, update.type)
    out = Template(tensor.shape, type_, tensor.names)
    return _dispatch.run("put_slice", out, (tensor, update, *starts))


def _indices(indices, op: str) -> Tensor:
    indices = _dispatch.to_tensor(indices)
    if not indices.type.is_integer:
        raise IndexTypeError(f"{op}: indices must be integers, got {indices.type}")
    return indices


def take(tensor, indices, axis=0):
    """The elements at `indices` (an integer tensor) along `axis`; that axis is replaced
    by the indices' axes (rank-1 indices keep its name, as in Nx). Out-of-range indices
    are clamped into the axis, as Nx (on XLA) does.

    >>> nbt.take(nbt.tensor([[1, 2], [3, 4]], names=["x", "y"]), nbt.tensor([1, 0, 1]), axis="x")
    numbat.Tensor<
      s32[x: 3][y: 2]
      [
        [3, 4],
        [1, 2],
        [3, 4]
      ]
    >
    """
    tensor, indices = _dispatch.to_tensor(tensor), _indices(indices, "take")
    index = _names.axis_index(tensor.names, axis)
    if tensor.shape[index] == 0 and indices.size:
        raise ArgumentError(f"take: axis {index} of shape {tensor.shape} is empty; there is nothing to take")
    shape = tensor.shape[:index] + indices.shape + tensor.shape[index + 1 :]
    taken = indices.names
    if indices.rank == 1:  # as Nx: rank-1 indices keep the taken axis' name (merged with theirs)
        taken = _names.broadcast_names((1,), (tensor.names[index],), (1,), indices.names)
    names = tensor.names[:index] + taken + tensor.names[index + 1 :]
    return _dispatch.run("take", Template(shape, tensor.type, names), (tensor, indices), axis=index)


def take_along_axis(tensor, indices, axis=0):
    """The elements at `indices` along `axis`, where `indices` has the tensor's shape
    except on that axis (as `argsort` returns). Out-of-range indices are clamped.

    >>> t = nbt.tensor([[3, 1, 2], [6, 5, 4]])
    >>> nbt.take_along_axis(t, nbt.argsort(t, axis=1), axis=1)
    numbat.Tensor<
      s32[2][3]
      [
        [1, 2, 3],
        [4, 5, 6]
      ]
    >
    """
    tensor, indices = _dispatch.to_tensor(tensor), _indices(indices, "take_along_axis")
    index = _names.axis_index(tensor.names, axis)
    if tensor.shape[index] == 0 and indices.size:
        raise ArgumentError(f"take_along_axis: axis {index} of shape {tensor.shape} is empty; there is nothing to take")
    if indices.rank != tensor.rank or builtins.any(
        a != b for i, (a, b) in enumerate(zip(indices.shape, tensor.shape)) if i != index
    ):
        raise ArgumentError(
            f"take_along_axis: indices of shape {indices.shape} do not fit {tensor.shape} on axis {index}"
        )
    out = Template(indices.shape, tensor.type, tensor.names)
    return _dispatch.run("take_along_axis", out, (tensor, indices), axis=index)


def _gather_axes(tensor: Tensor, indices: Tensor, axes, op: str) -> tuple:
    if indices.rank == 0:
        raise ArgumentError(f"{op}: indices need a last axis holding one index per gathered axis")
    count = indices.shape[-1]
    if count > tensor.rank:
        raise ArgumentError(f"{op}: indices hold {count} indices per position, the tensor has rank {tensor.rank}")
    axes = tuple(range(count)) if axes is None else _names.axes_indices(tensor.names, axes)
    if len(axes) != count:
        raise ArgumentError(f"{op}: indices have {count} entries per position but axes {list(axes)} has {len(axes)}")
    return axes


def gather(tensor, indices, axes=None):
    """The elements (or slices) at `indices`: the last axis of `indices` holds one index
    per axis in `axes` (default: the leading ones). Out-of-range indices are clamped.

    >>> nbt.gather(nbt.tensor([[1, 2], [3, 4]]), nbt.tensor([[1, 1], [0, 1]]))
    numbat.Tensor<
      s32[2]
      [4, 2]
    >
    """
    tensor, indices = _dispatch.to_tensor(tensor), _indices(indices, "gather")
    axes = _gather_axes(tensor, indices, axes, "gather")
    if indices.size and builtins.any(tensor.shape[a] == 0 for a in axes):
        raise ArgumentError(f"gather: an indexed axis of shape {tensor.shape} is empty; there is nothing to gather")
    rest = [a for a in range(tensor.rank) if a not in axes]
    shape = indices.shape[:-1] + tuple(tensor.shape[a] for a in rest)
    names = indices.names[:-1] + tuple(tensor.names[a] for a in rest)
    return _dispatch.run("gather", Template(shape, tensor.type, names), (tensor, indices), axes=axes)


def _indexed(mode: str, tensor, indices, updates, axes):
    op = f"indexed_{mode}"
    tensor, indices, updates = _dispatch.to_tensor(tensor), _indices(indices, op), _dispatch.to_tensor(updates)
    axes = _gather_axes(tensor, indices, axes, op)
    rest = tuple(tensor.shape[a] for a in range(tensor.rank) if a not in axes)
    expected = indices.shape[:-1] + rest
    if updates.shape != expected:
        raise ArgumentError(
            f"{op}: updates must have shape {expected} for indices {indices.shape}, got {updates.shape}"
        )
    out = Template(tensor.shape, _types.merge(tensor.type, updates.type), tensor.names)
    return _dispatch.run("indexed", out, (tensor, indices, updates), axes=axes, mode=mode)


def indexed_add(tensor, indices, updates, axes=None):
    """`tensor` with `updates` added at `indices` (repeated indices add up). Updates at
    out-of-range indices are dropped, as XLA's scatter (and so Nx on EXLA) does.

    >>> nbt.indexed_add(nbt.tensor([0, 0, 0]), nbt.tensor([[0], [2], [0]]), nbt.tensor([1, 5, 1]))
    numbat.Tensor<
      s32[3]
      [2, 0, 5]
    >
    """
    return _indexed("add", tensor, indices, updates, axes)


def indexed_put(tensor, indices, updates, axes=None):
    """`tensor` with `updates` written at `indices`. Updates at out-of-range indices are
    dropped, as in `indexed_add`.

    >>> nbt.indexed_put(nbt.tensor([[0, 0], [0, 0]]), nbt.tensor([[0, 1], [1, 0]]), nbt.tensor([7, 8]))
    numbat.Tensor<
      s32[2][2]
      [
        [0, 7],
        [8, 0]
      ]
    >
    """
    return _indexed("put", tensor, indices, updates, axes)
