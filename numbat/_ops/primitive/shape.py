"""Shape ops: `reshape`, `transpose`, `squeeze`, `new_axis`, `flatten`, `rename`, `pad`,
`concatenate`, `reverse`, and the metadata functions (`shape`, `names`, `axis_size`, ...).

The family's rule: an op gives the same elements in another shape or order (reshape,
transpose, pad, concatenate, reverse).
"""

from __future__ import annotations

import math

from ..._core import _names, _shape, _types
from ..._core._errors import ArgumentError
from ..._tensor import _check
from ..._tensor._tensor import Template, Tensor
from .. import _dispatch


def reshape(tensor, shape, names=None):
    """Gives `tensor` a new shape of the same size; names reset unless given. `shape` is a
    tuple where one size may be "auto" (Nx's `:auto`; -1 also works) and is inferred, or
    a tensor (or template), whose shape is taken and, when `names` is None, its names.

    >>> nbt.reshape(nbt.iota((6,)), (2, 3), names=["x", "y"])
    numbat.Tensor<
      s32[x: 2][y: 3]
      [
        [0, 1, 2],
        [3, 4, 5]
      ]
    >
    >>> nbt.reshape(nbt.iota((6,)), ("auto", 2)).shape
    (3, 2)
    >>> nbt.reshape(nbt.iota((4,)), nbt.template((2, 2), "f32", names=["r", "c"])).names
    ('r', 'c')
    """
    tensor = _dispatch.to_tensor(tensor)
    if isinstance(shape, (Tensor, Template)):
        names = shape.names if names is None else names
        shape = shape.shape
    if isinstance(shape, (int, str)) or not hasattr(shape, "__len__"):
        raise ArgumentError(f"reshape needs a shape tuple, a tensor or a template, got {shape!r}")
    shape = tuple(shape)
    for size in shape:
        if not (isinstance(size, str) and size == "auto") and (
            isinstance(size, bool) or not isinstance(size, int) or size < -1
        ):
            shown = repr(shape) if len(shape) <= 32 else f"{size!r} among {len(shape)} sizes"  # a repr can be huge
            raise ArgumentError(f"reshape: a shape holds sizes >= 0 and at most one 'auto', got {shown}")
    new_shape = _shape.reshape(tensor.shape, tuple(-1 if isinstance(size, str) else size for size in shape))
    out = Template(new_shape, tensor.type, _names.normalize(names, len(new_shape)))
    return _dispatch.run("reshape", out, (tensor,))


def transpose(tensor, axes=None):
    """Permutes the axes (ints or names; default: reversed); names move with their axes.

    >>> nbt.transpose(nbt.tensor([[1, 2, 3]], names=["x", "y"]))
    numbat.Tensor<
      s32[y: 3][x: 1]
      [
        [1],
        [2],
        [3]
      ]
    >
    >>> nbt.transpose(nbt.iota((2, 3), names=["x", "y"]), axes=["y", "x"]).names
    ('y', 'x')
    """
    tensor = _dispatch.to_tensor(tensor)
    if axes is None:
        indices = tuple(reversed(range(tensor.rank)))
    else:
        indices = tuple(_names.axis_index(tensor.names, axis) for axis in _check.sequence("transpose", "axes", axes))
    shape = _shape.transpose(tensor.shape, indices)
    out = Template(shape, tensor.type, tuple(tensor.names[i] for i in indices))
    return _dispatch.run("transpose", out, (tensor,), axes=indices)


def squeeze(tensor, axes=None):
    """Removes axes of size 1 (`axes`: which ones, by int or name; None: all of them).

    >>> nbt.squeeze(nbt.tensor([[[1, 2]]], names=["x", "y", "z"]))
    numbat.Tensor<
      s32[z: 2]
      [1, 2]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    if axes is None:
        indices = tuple(i for i, size in enumerate(tensor.shape) if size == 1)
    else:
        indices = _names.axes_indices(tensor.names, axes)
        for axis in indices:
            if tensor.shape[axis] != 1:
                raise ArgumentError(f"squeeze: axis {axis} has size {tensor.shape[axis]}, not 1 (shape {tensor.shape})")
    keep = [i for i in range(tensor.rank) if i not in indices]
    shape = tuple(tensor.shape[i] for i in keep)
    out = Template(shape, tensor.type, tuple(tensor.names[i] for i in keep))
    return _dispatch.run("reshape", out, (tensor,))


def new_axis(tensor, axis, name=None):
    """Inserts an axis of size 1 at position `axis` (negative counts from the end), named `name`.

    >>> nbt.new_axis(nbt.tensor([1, 2], names=["x"]), -1, "y")
    numbat.Tensor<
      s32[x: 2][y: 1]
      [
        [1],
        [2]
      ]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    rank = tensor.rank + 1
    if isinstance(axis, bool) or not isinstance(axis, int) or not -rank <= axis < rank:
        raise ArgumentError(f"new_axis: axis {axis!r} is out of range for a result of rank {rank}")
    axis %= rank
    if name is not None and not isinstance(name, str):
        raise ArgumentError(f"new_axis: an axis name is a str or None, got {name!r}")
    if name is not None and name in tensor.names:
        raise ArgumentError(f"new_axis: the tensor already has an axis named {name!r} (names {tensor.names!r})")
    shape = tensor.shape[:axis] + (1,) + tensor.shape[axis:]
    out = Template(shape, tensor.type, tensor.names[:axis] + (name,) + tensor.names[axis:])
    return _dispatch.run("reshape", out, (tensor,))


def flatten(tensor, axes=None):
    """Merges `axes` (consecutive; default: all) into one axis.

    >>> nbt.flatten(nbt.iota((2, 3)))
    numbat.Tensor<
      s32[6]
      [0, 1, 2, 3, 4, 5]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    indices = _names.axes_indices(tensor.names, axes) if axes is not None else tuple(range(tensor.rank))
    if not indices:
        return reshape(tensor, (1,)) if tensor.rank == 0 else tensor
    if list(indices) != list(range(indices[0], indices[-1] + 1)):
        raise ArgumentError(f"flatten: axes {list(indices)} must be consecutive")
    size = 1
    for axis in indices:
        size *= tensor.shape[axis]
    first, last = indices[0], indices[-1] + 1
    shape = tensor.shape[:first] + (size,) + tensor.shape[last:]
    out = Template(shape, tensor.type, tensor.names[:first] + (None,) + tensor.names[last:])
    return _dispatch.run("reshape", out, (tensor,))


def rename(tensor, names):
    """The same data with new axis names.

    >>> nbt.rename(nbt.tensor([[1, 2]]), ["row", "col"]).names
    ('row', 'col')

    A name of a vectorized axis cannot name an axis of the shape too:

    >>> nbt.rename(nbt.vectorize(nbt.iota((2, 3)), "x"), ["x"])
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: rename: name 'x' is already the name of a vectorized axis
    """
    tensor = _dispatch.to_tensor(tensor)
    names = _names.normalize(names, tensor.rank)
    for name, _ in tensor.vectorized_axes:
        if name in names:
            raise ArgumentError(f"rename: name {name!r} is already the name of a vectorized axis")
    return Tensor(tensor.data, tensor.type, names, tensor.backend)


def pad(tensor, value, config):
    """Pads with `value`: `config` has one `(low, high, interior)` per axis; negative
    `low`/`high` trim, `interior` inserts that many values between elements.

    >>> nbt.pad(nbt.tensor([1, 2, 3]), 0, [(1, 2, 0)])
    numbat.Tensor<
      s32[6]
      [0, 1, 2, 3, 0, 0]
    >
    >>> nbt.pad(nbt.tensor([1, 2, 3]), 9, [(-1, 0, 1)])
    numbat.Tensor<
      s32[4]
      [9, 2, 9, 3]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    try:
        config = tuple((int(low), int(high), int(interior)) for low, high, interior in config)
    except (TypeError, ValueError):
        config = ()
    if len(config) != tensor.rank or any(interior < 0 for _, _, interior in config):
        raise ArgumentError(f"pad: config must be {tensor.rank} (low, high, interior >= 0) triples, got {config!r}")
    shape = []
    for size, (low, high, interior) in zip(tensor.shape, config):
        padded = size + low + high + max(size - 1, 0) * interior
        if padded < 0:
            raise ArgumentError(f"pad: config {config} trims more than axis of size {size} has")
        shape.append(padded)
    type_ = _types.merge_number(tensor.type, value) if _types.is_number(value) else tensor.type
    fill = _dispatch.scalar(value, type_, tensor.backend) if _types.is_number(value) else _dispatch.to_tensor(value)
    if fill.shape != ():
        raise ArgumentError(f"pad: the padding value must be a number or a scalar tensor, got shape {fill.shape}")
    out = Template(tuple(shape), type_, tensor.names)
    return _dispatch.run("pad", out, (tensor, fill), config=config)


def flatten_container(tensors, op: str) -> list:
    """The tensors of a list or container, in order: Nx traverses tuples and dicts (by
    sorted key) recursively; a list inside is one tensor's data."""
    if isinstance(tensors, dict):
        items = [tensors[key] for key in sorted(tensors)]
    elif isinstance(tensors, (list, tuple)):
        items = list(tensors)
    else:
        raise ArgumentError(f"{op} needs a list or container of tensors, got {tensors!r}")
    flat = []
    for item in items:
        if isinstance(item, (tuple, dict)):
            flat.extend(flatten_container(item, op))
        else:
            flat.append(_dispatch.to_tensor(item))
    return flat


def concatenate(tensors, axis=0):
    """Joins tensors along an existing `axis` (the other axes must match; types merge).
    `tensors` is a list or any container (tuples, dicts), traversed recursively as in Nx.

    >>> nbt.concatenate([nbt.tensor([1, 2]), nbt.tensor([3.5])])
    numbat.Tensor<
      f32[3]
      [1.0, 2.0, 3.5]
    >
    >>> nbt.concatenate((nbt.tensor([1, 2]), (nbt.tensor([3, 4]), nbt.tensor([5, 6]))))
    numbat.Tensor<
      s32[6]
      [1, 2, 3, 4, 5, 6]
    >
    """
    tensors = flatten_container(tensors, "concatenate")
    if not tensors:
        raise ArgumentError("concatenate: no tensors were given")
    first = tensors[0]
    index = _names.axis_index(first.names, axis)
    type_, names = first.type, first.names
    for position, other in enumerate(tensors[1:], start=1):
        if other.rank != first.rank or any(
            a != b for i, (a, b) in enumerate(zip(first.shape, other.shape)) if i != index
        ):
            raise ArgumentError(
                f"concatenate: tensor {position} has shape {other.shape}, which does not match {first.shape} "
                f"outside axis {index}"
            )
        type_ = _types.merge(type_, other.type)
        names = _names.broadcast_names(first.shape, names, other.shape, other.names)
    shape = first.shape[:index] + (sum(t.shape[index] for t in tensors),) + first.shape[index + 1 :]
    return _dispatch.run("concatenate", Template(shape, type_, names), tuple(tensors), axis=index)


def reverse(tensor, axes=None):
    """Reverses the order of elements along `axes` (default: all).

    >>> nbt.reverse(nbt.tensor([[1, 2], [3, 4]]), axes=[1])
    numbat.Tensor<
      s32[2][2]
      [
        [2, 1],
        [4, 3]
      ]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    indices = _names.axes_indices(tensor.names, axes)
    return _dispatch.run("reverse", Template(tensor.shape, tensor.type, tensor.names), (tensor,), axes=indices)


def axis_size(tensor, axis) -> int:
    """The size of `axis` (an int or a name).

    >>> nbt.axis_size(nbt.iota((2, 3), names=["x", "y"]), "y")
    3
    """
    tensor = _dispatch.to_tensor(tensor)
    return tensor.shape[_names.axis_index(tensor.names, axis)]


def axis_index(tensor, axis) -> int:
    """The position of `axis` (an int, negative counting from the end, or a name).

    >>> nbt.axis_index(nbt.iota((2, 3), names=["x", "y"]), "y")
    1
    """
    return _names.axis_index(_dispatch.to_tensor(tensor).names, axis)


def size(tensor) -> int:
    """The number of elements (of a tensor, or of a shape tuple, as in Nx).

    >>> nbt.size(nbt.iota((2, 3)))
    6
    >>> nbt.size((1, 2, 3, 2))
    12
    """
    return math.prod(_shape_of("size", tensor))


def rank(tensor) -> int:
    """The number of axes (of a tensor, or of a shape tuple, as in Nx).

    >>> nbt.rank(nbt.iota((2, 3)))
    2
    >>> nbt.rank((1, 2, 3))
    3
    """
    return len(_shape_of("rank", tensor))


def byte_size(tensor) -> int:
    """The number of bytes the elements take (rounded down for the sub-byte types, as in
    Nx: `bit_size` is exact).

    >>> nbt.byte_size(nbt.iota((2, 3), type="f64"))
    48
    >>> nbt.byte_size(nbt.tensor([1, 2, 3], type="u4")), nbt.bit_size(nbt.tensor([1, 2, 3], type="u4"))
    (1, 12)
    """
    return bit_size(tensor) // 8


def flat_size(tensor) -> int:
    """The number of elements, those of every entry of the vectorized axes included
    (`size` counts one entry's).

    >>> nbt.flat_size(nbt.iota((2, 3)))
    6
    >>> v = nbt.vectorize(nbt.iota((4, 3, 2)), "x")
    >>> nbt.flat_size(v), nbt.size(v)
    (24, 6)
    """
    tensor = _dispatch.to_tensor(tensor)
    return tensor.size * math.prod(size for _, size in tensor.vectorized_axes)


def bit_size(tensor) -> int:
    """The number of bits the elements take.

    >>> nbt.bit_size(nbt.iota((2, 3), type="u8"))
    48
    >>> nbt.bit_size(nbt.tensor([[1, 2, 3], [3, 2, 1]], type="u2"))
    12
    """
    tensor = _dispatch.to_tensor(tensor)
    return flat_size(tensor) * tensor.type.bits


def axes(tensor) -> list:
    """The axis positions, `[0, 1, ..., rank - 1]` (of a tensor, or of a shape tuple, as in Nx).

    >>> nbt.axes(nbt.iota((2, 3, 4)))
    [0, 1, 2]
    >>> nbt.axes((5, 5))
    [0, 1]
    """
    return list(range(len(_shape_of("axes", tensor))))


def compatible(left, right) -> bool:
    """Whether two tensors (or templates) have the same shape, type and vectorized axes
    and compatible names, so a function compiled for one runs on the other (Nx's
    `compatible?`). Names are compatible when they are equal or one of them is None.
    Containers (tuples, lists, dicts) are compatible when they have the same structure
    (the same keys) and their leaves are compatible, as defn arguments are compared.

    >>> nbt.compatible(nbt.iota((2,)), nbt.template((2,), "s32"))
    True
    >>> nbt.compatible(nbt.iota((2,)), nbt.iota((2,), type="f32"))
    False
    >>> nbt.compatible(nbt.iota((2,), names=["x"]), nbt.iota((2,)))
    True
    >>> nbt.compatible(nbt.iota((2,), names=["x"]), nbt.iota((2,), names=["y"]))
    False
    >>> nbt.compatible({"a": nbt.iota((2,)), "b": 1}, {"a": nbt.iota((2,)), "b": 2})
    True
    """
    if _is_container(left) or _is_container(right):
        if left.__class__ is not right.__class__ or len(left) != len(right):
            return False
        if isinstance(left, dict):
            return left.keys() == right.keys() and all(compatible(left[key], right[key]) for key in left)
        return all(compatible(a, b) for a, b in zip(left, right))
    left, right = (t if isinstance(t, Template) else _dispatch.to_tensor(t) for t in (left, right))
    if (left.shape, left.type) != (right.shape, right.type):
        return False
    if getattr(left, "vectorized_axes", ()) != getattr(right, "vectorized_axes", ()):
        return False
    return all(a == b or a is None or b is None for a, b in zip(left.names, right.names))


def _is_container(value) -> bool:
    return isinstance(value, (tuple, list, dict)) and not isinstance(value, Template)  # a Template is a NamedTuple


def to_template(tensor):
    """The tensor's shape, type and names with no data. Containers (tuples, lists,
    dicts) give the same container of templates, as in Nx.

    >>> nbt.to_template(nbt.iota((2,), names=["x"]))
    Template(shape=(2,), type=Type('s', 32), names=('x',))
    >>> [str(t) for t in nbt.to_template((1, 2.0))]
    ['s32', 'f32']
    """
    if _is_container(tensor):
        items = tensor.items() if isinstance(tensor, dict) else enumerate(tensor)
        templates = {key: to_template(value) for key, value in items}
        if isinstance(tensor, dict):
            return templates
        kind = tensor.__class__
        return kind(*templates.values()) if hasattr(tensor, "_fields") else kind(templates.values())  # namedtuples
    tensor = _dispatch.to_tensor(tensor)
    return Template(tensor.shape, tensor.type, tensor.names)


def shape(tensor) -> tuple:
    """The shape, as a tuple. As in Nx, a tuple is read as a shape and returned as it
    is (checked), so `nbt.shape((1, 2, 3))` is `(1, 2, 3)`; the shape of the data
    `(1, 2, 3)` is `nbt.shape(nbt.tensor((1, 2, 3)))` (or of the list `[1, 2, 3]`).
    `rank`, `size` and `axes` read a tuple the same way.

    >>> nbt.shape(nbt.tensor([[1, 2, 3]]))
    (1, 3)
    >>> nbt.shape((1, 2, 3)), nbt.shape([1, 2, 3]), nbt.shape(7)
    ((1, 2, 3), (3,), ())
    """
    return _shape_of("shape", tensor)


def _shape_of(function: str, value) -> tuple:
    """The shape of a tensor, template or tensor data; a tuple is a shape (Nx's reading)."""
    if isinstance(value, Template):
        return value.shape
    if isinstance(value, tuple):
        if not all(isinstance(size, int) and not isinstance(size, bool) and size >= 0 for size in value):
            raise ArgumentError(
                f"{function}: a tuple is read as a shape (as in Nx) and must hold sizes >= 0, got {value!r}; "
                f"for tensor data pass a list or nbt.tensor(...)"
            )
        return value
    return _dispatch.to_tensor(value).shape


def names(tensor) -> tuple:
    """The axis names (None for unnamed axes).

    >>> nbt.names(nbt.tensor([[1, 2]], names=["x", None]))
    ('x', None)
    """
    return _dispatch.to_tensor(tensor).names


def type(tensor):
    """The Nx type.

    >>> str(nbt.type(nbt.tensor([1.5])))
    'f32'
    """
    return _dispatch.to_tensor(tensor).type
