"""Shape and indexing ops composed from the primitive ones: `pad_outer`, `reflect`,
`tile`, `stack`, `slice_along_axis`, `split` and `to_batched`."""

from __future__ import annotations

import builtins
import math

import numpy as np

from ..._core import _names, _types
from ..._core._errors import ArgumentError
from ..._tensor import _check
from ..._tensor._tensor import Template
from ...backends import _allocation
from .. import _dispatch
from ..primitive.creation import broadcast
from ..primitive.indexing import slice, take
from ..primitive.shape import concatenate, flatten_container, new_axis, pad, rename, reshape
from .vectorization import devectorize, vectorize

_PAD_MODES = {"cyclic": "wrap", "mirror": "symmetric", "reflect": "reflect", "replicate": "edge"}


def pad_outer(tensor, value, config):
    """Pads the outside of each axis: `config` has one `(low, high)` pair per axis.
    `value` is a number or scalar tensor (constant padding; negative pads trim), or one
    of Nx's padding types: "cyclic" (the values in order), "mirror" (reversed, outer
    values included), "reflect" (reversed, outer values skipped) or "replicate" (the
    outer values repeated).

    >>> nbt.pad_outer(nbt.tensor([0, 1, 2]), "reflect", [(3, 1)])
    numbat.Tensor<
      s32[7]
      [1, 2, 1, 0, 1, 2, 1]
    >
    >>> nbt.pad_outer(nbt.tensor([[0, 1, 2], [3, 4, 5]], names=["x", "y"]), "cyclic", [(2, 0), (2, 1)])
    numbat.Tensor<
      s32[x: 4][y: 6]
      [
        [1, 2, 0, 1, 2, 0],
        [4, 5, 3, 4, 5, 3],
        [1, 2, 0, 1, 2, 0],
        [4, 5, 3, 4, 5, 3]
      ]
    >
    >>> nbt.pad_outer(nbt.tensor([0, 1, 2]), 9, [(1, -1)])
    numbat.Tensor<
      s32[3]
      [9, 0, 1]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    try:
        pairs = tuple((int(low), int(high)) for low, high in config)
    except (TypeError, ValueError):
        pairs = ()
    if len(pairs) != tensor.rank:
        raise ArgumentError(f"pad_outer: config must be {tensor.rank} (low, high) pairs, got {config!r}")
    if not isinstance(value, str):
        return pad(tensor, value, [(low, high, 0) for low, high in pairs])
    if value not in _PAD_MODES:
        raise ArgumentError(
            f"pad_outer: the padding type must be a number or one of {sorted(_PAD_MODES)}, got {value!r}"
        )
    for axis, ((low, high), size) in enumerate(zip(pairs, tensor.shape)):
        if low < 0 or high < 0:
            raise ArgumentError(f"pad_outer: {value} padding must be >= 0, got {(low, high)} for axis {axis}")
        if size == 0 and low + high:
            raise ArgumentError(f"pad_outer: cannot {value}-pad axis {axis} of size 0")
    padded = tuple(size + low + high for (low, high), size in zip(pairs, tensor.shape))
    vectorized = tensor.vectorized_axes
    _allocation.check("pad_outer", Template(padded, tensor.type, tensor.names), tensor.backend, vectorized)
    for size in padded:  # the host's index arrays below
        _allocation.check("pad_outer", Template((size,), _types.S64, (None,)), None)
    result = tensor
    for axis, ((low, high), size) in enumerate(zip(pairs, tensor.shape)):
        if low or high:  # the source index of every output position, worked out on the host
            positions = np.pad(np.arange(size), (low, high), mode=_PAD_MODES[value]).astype(np.int32)
            indices = _dispatch.to_tensor(positions, tensor.backend)
            result = rename(take(result, indices, axis=axis), tensor.names)
    return result


def reflect(tensor, padding_config):
    """Pads each axis with reflections of its values (Nx's deprecated `reflect`, which is
    `pad_outer(tensor, "reflect", padding_config)`).

    >>> nbt.reflect(nbt.tensor([0, 1, 2]), padding_config=[(3, 1)])
    numbat.Tensor<
      s32[7]
      [1, 2, 1, 0, 1, 2, 1]
    >
    """
    return pad_outer(tensor, "reflect", padding_config)


def tile(tensor, multiples):
    """Repeats the tensor `multiples[i]` times along each axis. Fewer multiples than axes
    apply to the trailing axes (the leading ones repeat once); more add leading axes, as
    in Nx.

    >>> nbt.tile(nbt.tensor([1, 2]), [2])
    numbat.Tensor<
      s32[4]
      [1, 2, 1, 2]
    >
    >>> nbt.tile(nbt.tensor([[1, 2], [3, 4]]), [2])
    numbat.Tensor<
      s32[2][4]
      [
        [1, 2, 1, 2],
        [3, 4, 3, 4]
      ]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    multiples = _check.sequence("tile", "multiples", multiples, "non-negative ints")
    if not all(isinstance(m, int) and not isinstance(m, bool) and m >= 0 for m in multiples):
        raise ArgumentError(f"tile: multiples must be non-negative ints, got {multiples!r}")
    multiples = (1,) * (tensor.rank - len(multiples)) + tuple(multiples)
    extra = len(multiples) - tensor.rank
    shape = (1,) * extra + tensor.shape
    interleaved = tuple(s for pair in zip(multiples, shape) for s in pair)
    spread = broadcast(reshape(tensor, shape), interleaved, axes=tuple(range(1, 2 * len(shape), 2)))
    return reshape(spread, tuple(m * s for m, s in zip(multiples, shape)))


def stack(tensors, axis=0, name=None):
    """Joins tensors of one shape along a new `axis`, named `name`; `tensors` is a list
    or any container, traversed recursively as in `concatenate`.

    >>> nbt.stack([nbt.tensor([1, 2]), nbt.tensor([3, 4])], name="pair")
    numbat.Tensor<
      s32[pair: 2][2]
      [
        [1, 2],
        [3, 4]
      ]
    >
    >>> nbt.stack((nbt.tensor([1, 2]), (nbt.tensor([3, 4]), nbt.tensor([5, 6])))).shape
    (3, 2)
    """
    tensors = flatten_container(tensors, "stack")
    if not tensors:
        raise ArgumentError("stack: no tensors were given")
    return concatenate([new_axis(t, axis, name) for t in tensors], axis=axis)


def slice_along_axis(tensor, start_index, length, axis=0, strides=1):
    """`slice` on one `axis` (an int or name), keeping the others whole.

    >>> nbt.slice_along_axis(nbt.iota((2, 4), names=["x", "y"]), 1, 2, axis="y")
    numbat.Tensor<
      s32[x: 2][y: 2]
      [
        [1, 2],
        [5, 6]
      ]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    index = _names.axis_index(tensor.names, axis)
    starts = [0] * tensor.rank
    starts[index] = start_index
    lengths = list(tensor.shape)
    lengths[index] = length
    stride_list = [1] * tensor.rank
    stride_list[index] = strides
    return slice(tensor, starts, lengths, stride_list)


def split(tensor, split, axis=0):
    """Splits along `axis` in two, as Nx's `split`: an int is the size of the first part
    (a negative one counts from the end), a float between 0 and 1 the fraction of the
    axis in the first part, rounded up. A list of sizes (numbat's addition) gives one
    part per size.

    >>> [part.shape for part in nbt.split(nbt.iota((3, 4)), 2)]
    [(2, 4), (1, 4)]
    >>> [part.shape for part in nbt.split(nbt.iota((3, 4)), 0.5)]
    [(2, 4), (1, 4)]
    >>> [nbt.to_flat_list(part) for part in nbt.split(nbt.tensor([1, 2, 3, 4]), -1)]
    [[1, 2, 3], [4]]
    >>> [nbt.to_number(nbt.sum(part)) for part in nbt.split(nbt.iota((6,)), [2, 4])]
    [1, 14]
    """
    tensor = _dispatch.to_tensor(tensor)
    index = _names.axis_index(tensor.names, axis)
    total = tensor.shape[index]
    if isinstance(split, (list, tuple)):
        if not builtins.all(_is_size(s) and s >= 0 for s in split) or builtins.sum(split) != total:
            raise ArgumentError(
                f"split: sizes {list(split)} must be non-negative ints adding up to axis {index}'s {total}"
            )
        sizes = [int(s) for s in split]
    elif total < 2 and (_is_size(split) or isinstance(split, float)):
        raise ArgumentError(f"split: axis {index} has {total} element(s), too few to split in two parts")
    elif _is_size(split):
        if not (0 < split < total or -total < split < 0):
            raise ArgumentError(
                f"split: an int split must be between 1 and {total - 1} (or -{total - 1} and -1) "
                f"for axis {index} of size {total}, got {split}"
            )
        first = split if split > 0 else total + split
        sizes = [first, total - first]
    elif isinstance(split, float):
        first = math.ceil(split * total)
        if not 0 < first < total:
            raise ArgumentError(
                f"split: a float split must give 0 < ceil(split * {total}) < {total} for axis {index}, got {split}"
            )
        sizes = [first, total - first]
    else:
        raise ArgumentError(f"split: split is an int, a float or a list of sizes, got {split!r}")
    parts, start = [], 0
    for size in sizes:
        parts.append(slice_along_axis(tensor, start, size, axis=index))
        start += size
    return tuple(parts)


def _is_size(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def to_batched(tensor, batch_size, leftover="repeat"):
    """An iterator over batches of `batch_size` along the first axis. When the size is
    not a multiple of `batch_size`, the last batch is completed with elements from the
    start (`leftover="repeat"`, as Nx) or dropped (`"discard"`).

    >>> [nbt.to_flat_list(b) for b in nbt.to_batched(nbt.iota((5,)), 2)]
    [[0, 1], [2, 3], [4, 0]]
    >>> [nbt.to_flat_list(b) for b in nbt.to_batched(nbt.iota((5,)), 2, leftover="discard")]
    [[0, 1], [2, 3]]

    A vectorized tensor is batched along its first vectorized axis, as in Nx:

    >>> [b.vectorized_axes for b in nbt.to_batched(nbt.vectorize(nbt.iota((3, 2)), "x"), 2)]
    [(('x', 2),), (('x', 2),)]
    """
    tensor = _dispatch.to_tensor(tensor)
    if tensor.vectorized_axes:
        (name, _), *rest = tensor.vectorized_axes
        plain = devectorize(tensor, keep_names=False)
        batched = to_batched(plain, batch_size, leftover)
        return (vectorize(batch, [(name, batch_size), *rest]) for batch in batched)
    if tensor.rank == 0:
        raise ArgumentError("to_batched: cannot batch a scalar (rank 0) tensor")
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ArgumentError(f"to_batched: batch_size must be a positive int, got {batch_size!r}")
    if leftover not in ("repeat", "discard"):
        raise ArgumentError(f'to_batched: leftover must be "repeat" or "discard", got {leftover!r}')
    total = tensor.shape[0]
    if total < batch_size:  # Nx's "cannot batch beyond original tensor"
        raise ArgumentError(
            f"to_batched: cannot batch beyond the original tensor: batch_size {batch_size} is larger "
            f"than its first axis (size {total})"
        )

    def batches():
        for start in range(0, total, batch_size):
            if start + batch_size <= total:
                yield slice_along_axis(tensor, start, batch_size, axis=0)
            elif leftover == "repeat":
                tail = slice_along_axis(tensor, start, total - start, axis=0)
                head = slice_along_axis(tensor, 0, batch_size - (total - start), axis=0)
                yield concatenate([tail, head], axis=0)

    return batches()
