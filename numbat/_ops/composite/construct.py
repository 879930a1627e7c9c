"""Creation and conversion composed from the primitive ops, as Nx composes them:
`linspace`, `tri`/`tril`/`triu`, diagonals, `fill`, `diff`, `outer`, and conversion to
lists and binaries."""

from __future__ import annotations

import numpy as np

from ..._core import _names, _packing, _types
from ..._core._errors import ArgumentError
from ..._tensor import _check
from ..._tensor._tensor import Template
from ...backends import _allocation, _default
from .. import _dispatch
from .._convert import tensor as make  # named so for functions whose argument is `tensor`
from ..primitive.complex import conjugate
from ..primitive.creation import as_type, broadcast, iota
from ..primitive.elementwise import add, divide, greater_equal, multiply, select, subtract
from ..primitive.indexing import gather, indexed_put
from ..primitive.shape import new_axis, rename, reshape, transpose
from .shape import slice_along_axis
from .vectorization import broadcast_vectors


def linspace(start, stop, n: int, type="f32", endpoint=True, name=None, backend=None):
    """`n` evenly spaced values of `type` from `start` to `stop` (included with
    `endpoint=True`). `start` and `stop` are numbers or tensors of one shape; the values
    run along a new last axis named `name`. As in Nx, they are computed in floating point
    and converted to `type` (integer types truncate).

    >>> nbt.linspace(0, 1, 5)
    numbat.Tensor<
      f32[5]
      [0.0, 0.25, 0.5, 0.75, 1.0]
    >
    >>> nbt.linspace(0, 24, 8, type="s32", endpoint=False)
    numbat.Tensor<
      s32[8]
      [0, 3, 6, 9, 12, 15, 18, 21]
    >
    >>> nbt.linspace(nbt.tensor([0, 10]), nbt.tensor([10, 100]), 10, type="u8", name="samples")
    numbat.Tensor<
      u8[2][samples: 10]
      [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 10],
        [10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
      ]
    >
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ArgumentError(f"linspace: n must be a positive int, got {n!r}")
    type_ = _types.parse(type)
    backend = _default.resolve(backend)
    start = as_type(_dispatch.to_tensor(start, backend), type_)
    stop = as_type(_dispatch.to_tensor(stop, backend), type_)
    if start.shape != stop.shape:
        raise ArgumentError(f"linspace: start and stop must have the same shape, got {start.shape} and {stop.shape}")
    if start.vectorized_axes or stop.vectorized_axes:  # start's vectorized axes first, as in Nx
        start, stop = broadcast_vectors([start, stop])
    start = new_axis(start, -1, name)
    if n == 1:
        return start
    step = divide(subtract(new_axis(stop, -1, name), start), (n - 1) if endpoint else n)
    values = iota(start.shape[:-1] + (n,), axis=-1, type=type_, names=start.names, backend=backend)
    return as_type(add(multiply(values, step), start), type_)


def tri(n: int, m: int | None = None, k: int = 0, backend=None):
    """An n×m u8 matrix with ones at and below diagonal `k`.

    >>> nbt.tri(3, k=-1)
    numbat.Tensor<
      u8[3][3]
      [
        [0, 0, 0],
        [1, 0, 0],
        [1, 1, 0]
      ]
    >
    """
    n = _check.integer("tri", "n", n, minimum=0)
    m = n if m is None else _check.integer("tri", "m", m, minimum=0)
    k = _check.integer("tri", "k", k)
    rows, cols = iota((n, m), axis=0, backend=backend), iota((n, m), axis=1, backend=backend)
    return greater_equal(subtract(rows, cols), -k)


def _triangle(tensor, k: int, lower: bool):
    k = _check.integer("tril" if lower else "triu", "k", k)
    tensor = _dispatch.to_tensor(tensor)
    if tensor.rank < 2:
        raise ArgumentError(f"{'tril' if lower else 'triu'} needs a matrix, got shape {tensor.shape}")
    *_, n, m = tensor.shape
    mask = tri(n, m, k if lower else k - 1, backend=tensor.backend)
    if tensor.rank > 2:  # select takes a predicate of the result's shape: one mask per matrix
        mask = broadcast(mask, tensor.shape)
    return select(mask, tensor, 0) if lower else select(mask, 0, tensor)


def tril(tensor, k: int = 0):
    """The tensor with everything above diagonal `k` of its last two axes set to zero.

    >>> nbt.tril(nbt.tensor([[1, 2], [3, 4]]))
    numbat.Tensor<
      s32[2][2]
      [
        [1, 0],
        [3, 4]
      ]
    >
    """
    return _triangle(tensor, k, True)


def triu(tensor, k: int = 0):
    """The tensor with everything below diagonal `k` of its last two axes set to zero.

    >>> nbt.triu(nbt.tensor([[1, 2], [3, 4]]))
    numbat.Tensor<
      s32[2][2]
      [
        [1, 2],
        [0, 4]
      ]
    >
    """
    return _triangle(tensor, k, False)


def take_diagonal(tensor, offset: int = 0):
    """The diagonal of a matrix (shifted right by `offset`, left if negative); of a
    batch of matrices (the last two axes), one diagonal per matrix, as in Nx.

    >>> nbt.take_diagonal(nbt.iota((3, 3)), offset=1)
    numbat.Tensor<
      s32[2]
      [1, 5]
    >
    >>> nbt.take_diagonal(nbt.iota((2, 2, 2)))
    numbat.Tensor<
      s32[2][2]
      [
        [0, 3],
        [4, 7]
      ]
    >
    """
    offset = _check.integer("take_diagonal", "offset", offset)

    tensor = _dispatch.to_tensor(tensor)
    if tensor.rank < 2:
        raise ArgumentError(f"take_diagonal needs a matrix (or a batch of them), got shape {tensor.shape}")
    rows, cols = tensor.shape[-2:]
    start_row, start_col = max(-offset, 0), max(offset, 0)
    count = max(min(rows - start_row, cols - start_col), 0)
    indices = [[start_row + i, start_col + i] for i in range(count)]
    if not indices:
        raise ArgumentError(f"take_diagonal: offset {offset} is outside a {rows}×{cols} matrix")
    batch = tensor.rank - 2
    diagonal = gather(tensor, make(indices, backend=tensor.backend), axes=[batch, batch + 1])
    if not batch:
        return diagonal
    # gather puts the diagonal first; Nx's result is [*batch, diagonal], unnamed
    return rename(transpose(diagonal, [*range(1, batch + 1), 0]), [None] * (batch + 1))


def make_diagonal(tensor, offset: int = 0):
    """A square matrix with `tensor` (a vector) on diagonal `offset` and zeros elsewhere.

    >>> nbt.make_diagonal(nbt.tensor([1, 2]))
    numbat.Tensor<
      s32[2][2]
      [
        [1, 0],
        [0, 2]
      ]
    >
    """
    offset = _check.integer("make_diagonal", "offset", offset)

    tensor = _dispatch.to_tensor(tensor)
    if tensor.rank != 1:
        raise ArgumentError(f"make_diagonal needs a vector, got shape {tensor.shape}")
    size = tensor.shape[0] + abs(offset)
    zeros = broadcast(_dispatch.scalar(0, tensor.type, tensor.backend), (size, size))
    return put_diagonal(zeros, tensor, offset)


def put_diagonal(tensor, diagonal, offset: int = 0):
    """`tensor` (a matrix) with `diagonal` written on its diagonal `offset`.

    >>> nbt.put_diagonal(nbt.iota((2, 3)), nbt.tensor([9, 9]), offset=1)
    numbat.Tensor<
      s32[2][3]
      [
        [0, 9, 2],
        [3, 4, 9]
      ]
    >
    """
    offset = _check.integer("put_diagonal", "offset", offset)

    tensor, diagonal = _dispatch.to_tensor(tensor), _dispatch.to_tensor(diagonal)
    if tensor.rank != 2:
        raise ArgumentError(f"put_diagonal needs a matrix, got shape {tensor.shape}")
    rows, cols = tensor.shape
    start_row, start_col = max(-offset, 0), max(offset, 0)
    count = max(min(rows - start_row, cols - start_col), 0)
    if diagonal.shape != (count,):
        raise ArgumentError(
            f"put_diagonal: diagonal {offset} of a {rows}×{cols} matrix has {count} elements, got {diagonal.shape}"
        )
    indices = make([[start_row + i, start_col + i] for i in range(count)], backend=tensor.backend)
    return indexed_put(tensor, indices, diagonal)


def fill(tensor, value, type=None):
    """A tensor of `tensor`'s shape and names with every element `value`; its type is
    `type`, else `tensor`'s type merged with `value`'s, as in Nx.

    >>> nbt.fill(nbt.tensor([[1, 2]], names=["x", "y"]), 7)
    numbat.Tensor<
      s32[x: 1][y: 2]
      [
        [7, 7]
      ]
    >
    >>> nbt.fill(nbt.tensor([1, 2]), 0.5)
    numbat.Tensor<
      f32[2]
      [0.5, 0.5]
    >
    >>> nbt.fill(nbt.tensor([1, 2]), 0.5, type="f64").type
    Type('f', 64)
    """
    tensor = _dispatch.to_tensor(tensor)
    if type is None:
        if _types.is_number(value):
            type_ = _types.merge_number(tensor.type, value)
        else:
            type_ = _types.merge(tensor.type, _dispatch.to_tensor(value, tensor.backend).type)
    else:
        type_ = _types.parse(type)
    if isinstance(value, complex) and not type_.is_complex:
        raise ArgumentError(f"fill: the complex value {value!r} does not fit in the {type_} tensor")
    if _types.is_number(value) and not (type_.kind == "u" and not isinstance(value, complex) and value < 0):
        value = _dispatch.scalar(value, type_, tensor.backend)
    else:
        value = as_type(_dispatch.to_tensor(value, tensor.backend), type_)
    filled = broadcast(value, tensor.shape, names=tensor.names)
    if tensor.vectorized_axes and not filled.vectorized_axes:  # a tensor's vectorized axes are kept, as in Nx
        filled = broadcast_vectors([filled, tensor])[0]
    return filled


def diff(tensor, order: int = 1, axis=-1):
    """The `order`-th forward difference along `axis`: `t[1:] - t[:-1]`, repeated, as Nx's
    `diff`.

    >>> nbt.diff(nbt.tensor([1, 2, 4, 7, 0]))
    numbat.Tensor<
      s32[4]
      [1, 2, 3, -7]
    >
    >>> nbt.diff(nbt.tensor([1, 2, 4, 7, 0]), order=2)
    numbat.Tensor<
      s32[3]
      [1, 1, -10]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    index = _names.axis_index(tensor.names, axis)
    if isinstance(order, bool) or not isinstance(order, int) or not 0 <= order < max(tensor.shape[index], 1):
        raise ArgumentError(
            f"diff: order must be between 0 and the axis size - 1, got {order!r} for axis of size {tensor.shape[index]}"
        )
    for _ in range(order):
        size = tensor.shape[index]
        tensor = subtract(
            slice_along_axis(tensor, 1, size - 1, axis=index), slice_along_axis(tensor, 0, size - 1, axis=index)
        )
    return tensor


def to_list(tensor) -> list:
    """The values as nested Python lists; a vectorized tensor's vectorized axes are
    the outer lists. As in Nx, a (plain) scalar is refused: use `nbt.to_number`.

    >>> nbt.to_list(nbt.tensor([[1, 2], [3, 4]]))
    [[1, 2], [3, 4]]
    >>> nbt.to_list(nbt.tensor(7))
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: to_list: cannot convert a scalar tensor to a list (s32); use nbt.to_number
    """
    tensor = _dispatch.to_tensor(tensor)
    if tensor.rank == 0 and not tensor.vectorized_axes:
        raise ArgumentError(f"to_list: cannot convert a scalar tensor to a list ({tensor.type}); use nbt.to_number")
    return tensor.to_numpy().tolist()


def _limited(tensor, limit, op: str) -> np.ndarray:
    """The flat values of `tensor` (vectorized axes included), the first `limit` of them."""
    flat = _dispatch.to_tensor(tensor).to_numpy().reshape(-1)
    if limit is None:
        return flat
    return flat[: _check.integer(op, "limit", limit, minimum=0)]


def to_flat_list(tensor, limit=None) -> list:
    """The values as one flat Python list, in row-major order (the first `limit`).

    >>> nbt.to_flat_list(nbt.tensor([[1, 2], [3, 4]]))
    [1, 2, 3, 4]
    >>> nbt.to_flat_list(nbt.tensor([1.0, 2.0, 3.0]), limit=2)
    [1.0, 2.0]
    """
    return _limited(tensor, limit, "to_flat_list").tolist()


def to_binary(tensor, limit=None) -> bytes:
    """The raw bytes of the values, row-major, in the machine's byte order (the first
    `limit` values).

    >>> nbt.to_binary(nbt.tensor([1, 2], type="u8"))
    b'\\x01\\x02'
    >>> nbt.to_binary(nbt.tensor([1, 2, 3], type="u8"), limit=2)
    b'\\x01\\x02'

    Sub-byte types are packed as Nx packs them, the first element in the highest bits;
    Nx's bitstring of `bit_size` bits is padded with zero bits to whole bytes here:

    >>> nbt.to_binary(nbt.tensor([1, 2, 15], type="u4"))
    b'\\x12\\xf0'
    >>> nbt.to_binary(nbt.tensor([-2, -1, 0, 1], type="s2"))
    b'\\xb1'
    """
    values = _limited(tensor, limit, "to_binary")
    type_ = _types.of_dtype(values.dtype)
    if type_.bits < 8:
        return _packing.pack(values, type_.bits)
    return values.tobytes()


def from_binary(binary: bytes, type, backend=None):
    """A flat tensor of `type` read from raw bytes (the inverse of `to_binary`).

    >>> nbt.from_binary(b"\\x01\\x02", "u8")
    numbat.Tensor<
      u8[2]
      [1, 2]
    >
    >>> nbt.from_binary(b"\\x12\\xf0", "s4")
    numbat.Tensor<
      s4[4]
      [1, 2, -1, 0]
    >
    >>> nbt.from_binary(b"", "u32")
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: cannot build an empty tensor (from_binary got no bytes)
    """
    type_ = _types.parse(type)
    if not isinstance(binary, (bytes, bytearray, memoryview)):
        raise ArgumentError(f"from_binary needs bytes, got {binary.__class__.__name__}")
    backend = _default.resolve(backend)
    size = memoryview(binary).nbytes  # len() of a memoryview counts its first axis only
    if not size:
        raise ArgumentError("cannot build an empty tensor (from_binary got no bytes)")
    count = size * 8 // type_.bits if type_.bits < 8 else size // type_.dtype.itemsize
    _allocation.check("from_binary", Template((count,), type_, (None,)), backend)
    if type_.bits < 8:  # Nx's packing: every bit of the bytes is part of an element
        array = _packing.unpack(bytes(binary), type_.kind, type_.bits).view(type_.dtype)  # the same bytes
    elif size % type_.dtype.itemsize:
        raise ArgumentError(f"from_binary: {size} bytes are not a whole number of {type_} values")
    else:
        array = np.frombuffer(bytes(binary), dtype=type_.dtype)
    return backend.from_numpy(Template(array.shape, type_, (None,)), array)


def outer(left, right):
    """Every product of an element of `left` with an element of `right` (both flattened;
    `right` conjugated when complex); the axes keep `left`'s first name and `right`'s
    last, as in Nx.

    >>> nbt.outer(nbt.tensor([1, 2]), nbt.tensor([1, 10, 100]))
    numbat.Tensor<
      s32[2][3]
      [
        [1, 10, 100],
        [2, 20, 200]
      ]
    >
    """
    left, right = _dispatch.to_tensor(left), _dispatch.to_tensor(right)
    # As Nx: the result is named after left's first axis and right's last one, and a complex
    # product conjugates `right`.
    names = (left.names[0] if left.names else None, right.names[-1] if right.names else None)
    left, right = reshape(left, (left.size, 1)), reshape(right, (1, right.size))
    if left.type.is_complex or right.type.is_complex:
        right = conjugate(right)
    product = multiply(left, right)
    return reshape(product, product.shape, names=list(names))
