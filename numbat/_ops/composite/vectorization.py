"""Vectorization (Nx's `vectorize`, `devectorize`, `revectorize`, `broadcast_vectors`,
`reshape_vectors`): leading axes set aside as vectorized axes, so that every op
runs once per entry of them, as if in a loop (see `_vectorized`).

Nx's atoms are strings here, and its keyword lists are lists of `(name, size)`
pairs or dicts: Nx's `vectorize(t, [:x, y: 3])` is `nbt.vectorize(t, ["x", ("y", 3)])`.
`nbt.vectorize` given a function (not a tensor) is the function transform of
`numbat._defn._vectorize`.
"""

from __future__ import annotations

import jax

from ..._core._errors import ArgumentError
from ..._tensor import _check
from ..._tensor._tensor import Tensor, VectorizedData, is_tensor
from .. import _dispatch, _vectorized
from ..primitive.creation import broadcast
from ..primitive.shape import reshape, transpose
from .vmap import vectorize_function


def vectorize(tensor, axes=None, **options):
    """Makes the leading axes of `tensor` vectorized axes named by `axes` (a name, or a
    list of names and `(name, size)` pairs, or a dict of sizes; a size is checked).
    Ops on a vectorized tensor see only its inner shape and run per entry. Containers
    (tuples, lists, dicts) are vectorized leaf by leaf. Given a function instead of a
    tensor, this is the function transform: `nbt.vectorize(fun, axis=0, name=None)`.

    >>> v = nbt.vectorize(nbt.iota((2, 3)), "x")
    >>> v
    numbat.Tensor<
      vectorized[x: 2]
      s32[3]
      [
        [0, 1, 2],
        [3, 4, 5]
      ]
    >
    >>> nbt.add(nbt.vectorize(nbt.tensor([4, 3, 2, 1]), "x"), nbt.tensor([0, 1]))
    numbat.Tensor<
      vectorized[x: 4]
      s32[2]
      [
        [4, 5],
        [3, 4],
        [2, 3],
        [1, 2]
      ]
    >
    >>> nbt.sum(v)
    numbat.Tensor<
      vectorized[x: 2]
      s32
      [3, 12]
    >
    """
    if callable(tensor) and not isinstance(tensor, Tensor):
        return _vectorize_function(tensor, axes, options)
    if options:
        raise ArgumentError(f"vectorize: unknown option(s) {sorted(options)} for a tensor; it takes only the axes")
    spec = _spec("vectorize", axes)
    if not isinstance(tensor, Tensor) and isinstance(tensor, (tuple, list, dict)):
        _check.nesting("vectorize: the container of tensors", tensor)  # before JAX flattens it
        return jax.tree_util.tree_map(lambda leaf: vectorize(leaf, spec), tensor, is_leaf=is_tensor)
    tensor = _dispatch.to_tensor(tensor)
    if not spec:
        return tensor
    if tensor.rank == 0:
        raise ArgumentError("vectorize: cannot vectorize a tensor of rank 0")
    new = _new_axes(tensor, spec)
    existing = tensor.vectorized_axes
    array = tensor.data.array if existing else tensor.data
    data = VectorizedData(array, (*existing, *new))
    return _vectorized.recorded(
        "vectorize",
        tensor,
        Tensor(data, tensor.type, tensor.names[len(new) :], tensor.backend),
        tuple(name for name, _ in new),
    )


def _vectorize_function(fun, axes, options: dict):
    """`nbt.vectorize(fun, axis=0, name=None)`: the function transform, its options checked."""
    unknown = sorted(set(options) - {"axis", "name"})
    if unknown:
        raise ArgumentError(f"vectorize: unknown option(s) {unknown} for a function; it takes axis and name")
    return vectorize_function(fun, *(() if axes is None else (axes,)), **options)


def _new_axes(tensor: Tensor, spec) -> list:
    """`(name, size)` of each new vectorized axis, `spec`'s entries over `tensor`'s leading
    axes; raises on a size other than one asked for, or a name the tensor already uses."""
    if len(spec) > tensor.rank:
        raise ArgumentError(
            f"vectorize: {len(spec)} vectorized axes is more than the rank of the tensor's shape {tensor.shape}"
        )
    new = []
    for (name, wanted), size in zip(spec, tensor.shape):
        if wanted is not None and wanted != size:
            raise ArgumentError(f"vectorize: expected vectorized axis {name!r} to have size {wanted}, got {size}")
        new.append((name, size))
    for name, _ in new:
        if name in tensor.names[len(new) :]:
            raise ArgumentError(
                f"vectorize: cannot use name {name!r} for a new vectorized axis: an axis of the shape has that name"
            )
        if name in dict(tensor.vectorized_axes):
            raise ArgumentError(f"vectorize: cannot use name {name!r} for a new vectorized axis: it is already one")
    return new


def devectorize(tensor, keep_names=True):
    """The vectorized axes put back as the leading axes of the shape, named after them
    unless `keep_names` is False. Containers are devectorized leaf by leaf.

    >>> t = nbt.vectorize(nbt.vectorize(nbt.iota((1, 2, 3)), "x"), "y")
    >>> nbt.devectorize(t)
    numbat.Tensor<
      s32[x: 1][y: 2][3]
      [
        [
          [0, 1, 2],
          [3, 4, 5]
        ]
      ]
    >
    >>> nbt.devectorize(t, keep_names=False).names
    (None, None, None)
    """
    keep_names = _check.boolean("devectorize", "keep_names", keep_names)
    if not isinstance(tensor, Tensor) and isinstance(tensor, (tuple, list, dict)):
        _check.nesting("devectorize: the container of tensors", tensor)  # before JAX flattens it
        return jax.tree_util.tree_map(lambda leaf: devectorize(leaf, keep_names), tensor, is_leaf=is_tensor)
    tensor = _dispatch.to_tensor(tensor)
    axes = tensor.vectorized_axes
    if not axes:
        return tensor
    leading = tuple(name if keep_names else None for name, _ in axes)
    result = Tensor(tensor.data.array, tensor.type, leading + tensor.names, tensor.backend)
    return _vectorized.recorded("devectorize", tensor, result, keep_names)


def revectorize(tensor, axes, target_shape=None, target_names=None):
    """Regroups the vectorized axes: the entries are laid out again as `axes` (pairs or a
    dict; one size may be "auto"), over the inner shape `target_shape` (default: the
    current one) named `target_names`. The same as devectorize, reshape, vectorize.

    >>> t = nbt.iota((1,), backend=nbt.NumPyBackend())
    >>> t = nbt.vectorize(nbt.broadcast(t, (2, 3, 4, 1)), ["x", "y", "z"])
    >>> nbt.revectorize(t, [("x", 12), ("y", "auto")]).vectorized_axes
    (('x', 12), ('y', 2))

    With no axes (`[]`, a plain tensor's own `vectorized_axes`), as in Nx, the entries
    become a plain tensor of `target_shape`:

    >>> nbt.revectorize(nbt.vectorize(nbt.iota((2, 3)), "x"), [], target_shape=(6,))
    numbat.Tensor<
      s32[6]
      [0, 1, 2, 3, 4, 5]
    >
    >>> nbt.revectorize(nbt.vectorize(nbt.iota((2, 2, 2)), ["x", "y"]), {"temp": "auto", "x": 2}, target_shape=())
    numbat.Tensor<
      vectorized[temp: 4][x: 2]
      s32
      [
        [0, 1],
        [2, 3],
        [4, 5],
        [6, 7]
      ]
    >
    """
    pairs = _vectorized.pairs("revectorize", axes, auto=True, empty=True)
    if not isinstance(tensor, Tensor) and isinstance(tensor, (tuple, list, dict)):
        _check.nesting("revectorize: the container of tensors", tensor)  # before JAX flattens it
        return jax.tree_util.tree_map(
            lambda leaf: revectorize(leaf, pairs, target_shape, target_names), tensor, is_leaf=is_tensor
        )
    tensor = _dispatch.to_tensor(tensor)
    if target_shape is None:
        target_shape, names = tensor.shape, tensor.names
    else:
        target_shape = _check.sequence("revectorize", "target_shape", target_shape, of="sizes")
        names = (
            (None,) * len(target_shape)
            if target_names is None
            else _check.sequence("revectorize", "target_names", target_names, of="names")
        )
    sizes = [size for _, size in pairs] + list(target_shape)
    if sum(1 for size in sizes if size == "auto") > 1:
        raise ArgumentError("revectorize: at most one 'auto' size between the axes and target_shape")
    if len(names) != len(target_shape):
        raise ArgumentError(f"revectorize: {len(names)} target_names for target_shape {tuple(target_shape)}")
    flat = reshape(devectorize(tensor, keep_names=False), tuple(sizes), names=(None,) * len(pairs) + names)
    return vectorize(flat, [name for name, _ in pairs]) if pairs else flat


def reshape_vectors(tensors, align_ranks=False):
    """Gives every tensor the same vectorized axes, in order of first appearance: the
    axes a tensor lacks get size 1. With `align_ranks`, inner shapes also get leading
    1s up to the largest rank. Vectorized axes of one name must have the same size or 1.

    >>> x = nbt.vectorize(nbt.tensor([1, 2, 3]), "x")
    >>> y = nbt.vectorize(nbt.tensor([4]), "y")
    >>> [t.vectorized_axes for t in nbt.reshape_vectors([x, y])]
    [(('x', 3), ('y', 1)), (('x', 1), ('y', 1))]
    """
    return _aligned("reshape_vectors", tensors, align_ranks, broadcast_sizes=False)


def broadcast_vectors(tensors, align_ranks=False):
    """Broadcasts the vectorized axes of every tensor to the same sizes, in order of
    first appearance; inner shapes are unchanged (with `align_ranks`, padded with
    leading 1s to the largest rank).

    >>> x = nbt.vectorize(nbt.tensor([1, 2]), "x")
    >>> xy = nbt.vectorize(nbt.vectorize(nbt.tensor([[[5]], [[6]]]), "y"), "x")
    >>> bx, bxy = nbt.broadcast_vectors([x, xy], align_ranks=True)
    >>> bx
    numbat.Tensor<
      vectorized[x: 2][y: 2]
      s32[1]
      [
        [
          [1],
          [1]
        ],
        [
          [2],
          [2]
        ]
      ]
    >
    >>> bxy.vectorized_axes, bxy.shape
    ((('x', 2), ('y', 2)), (1,))
    """
    return _aligned("broadcast_vectors", tensors, align_ranks, broadcast_sizes=True)


def _aligned(function: str, tensors, align_ranks, broadcast_sizes: bool) -> list:
    tensors = [_dispatch.to_tensor(t) for t in _check.sequence(function, "tensors", tensors, of="tensors")]
    align_ranks = _check.boolean(function, "align_ranks", align_ranks)
    axes = _vectorized.canonical(tensors)
    if not axes or len(tensors) == 1:
        return tensors
    rank = max(t.rank for t in tensors)
    results = []
    for tensor in tensors:
        own = dict(tensor.vectorized_axes)
        plain = devectorize(tensor, keep_names=False)
        positions = _vectorized.order_in(tensor.vectorized_axes, axes)
        plain = transpose(plain, [*positions, *range(len(own), plain.rank)])
        pad = rank - tensor.rank if align_ranks else 0
        inner = (1,) * pad + tensor.shape
        sizes = tuple(own.get(name, 1) for name, _ in axes)
        names = (None,) * (len(axes) + pad) + tensor.names
        plain = reshape(plain, sizes + inner, names=names)
        if broadcast_sizes:
            plain = broadcast(plain, tuple(size for _, size in axes) + inner, names=names)
        results.append(vectorize(plain, [name for name, _ in axes]))
    return results


def _spec(function: str, axes) -> list:
    """`axes` as `(name, size or None)` pairs."""
    if axes is None:
        raise ArgumentError(
            f"{function}: give the vectorized axes: a name, a list of names and (name, size) pairs, or a dict"
        )
    if isinstance(axes, str):
        axes = [axes]
    if isinstance(axes, dict):
        axes = list(axes.items())
    if not isinstance(axes, (list, tuple)):
        raise ArgumentError(f"{function}: vectorized axes must be a name, a list or a dict, got {axes!r}")
    spec = []
    for item in axes:
        if isinstance(item, str):
            spec.append((item, None))
        elif (
            isinstance(item, tuple)
            and len(item) == 2
            and isinstance(item[0], str)
            and isinstance(item[1], int)
            and not isinstance(item[1], bool)
            and item[1] > 0
        ):
            spec.append(item)
        else:
            raise ArgumentError(
                f"{function}: expected a vectorized axis to be a name or a (name, positive size) pair, got {item!r}"
            )
    _vectorized.unique_names(function, [name for name, _ in spec])
    return spec
