"""`nbt.random`: Nx.Random's counter-based random numbers, number for number.

A key is a u32[2] tensor. Samplers take a key and return `(sample, next_key)`: the
key is split, the second half draws the sample and the first is returned for the
next draw, so the same key always gives the same numbers. The `*_split` samplers
draw with the key as it is and return only the sample. The algorithms are Nx's
(its threefry2x32 counter layout, its integer, float and normal recipes), over
JAX's threefry2x32 primitive and without changing any JAX setting, so a seed gives
the numbers Nx's documentation shows. Every path computes them with the same code
(`numbat.random._threefry`): the XLA backend on its device, a defn as part of its trace,
the NumPy backend (and the evaluator on it) on the host CPU.

>>> key = nbt.random.key(12)
>>> sample, key = nbt.random.uniform(key)
>>> sample
numbat.Tensor<
  f32
  0.7691127
>

A vectorized key (`nbt.vectorize`) draws once per key, as if in a loop: the sample and
the next key are vectorized over the key's axes, each entry the numbers of that key.
Other vectorized operands (bounds, means, tensors to shuffle) draw once per entry too.

>>> keys = nbt.vectorize(nbt.stack([nbt.random.key(1701), nbt.random.key(12)]), "k")
>>> sample, next_keys = nbt.random.uniform(keys)
>>> sample
numbat.Tensor<
  vectorized[k: 2]
  f32
  [0.9728644, 0.7691127]
>
>>> next_keys.vectorized_axes
(('k', 2),)
"""

from __future__ import annotations

import numpy as np

from .._core import _names, _types
from .._core._errors import ArgumentError
from .._ops import _convert, _dispatch
from .._ops.composite.shape import slice_along_axis
from .._ops.primitive import creation as _creation
from .._ops.primitive import indexing as _indexing
from .._ops.primitive import shape as _shape
from .._tensor import _check
from .._tensor._tensor import Tensor
from ..backends import _default
from . import _draw, _threefry

_S32 = _types.Type("s", 32)


def key(seed, backend=None) -> Tensor:
    """The key of an integer `seed` (Nx's `Nx.Random.key`): u32[2], the high and the low
    32 bits of the seed as 64 bits (a negative seed as its s64 bits). `seed` may be an
    integer tensor, inside a defn too.

    >>> nbt.random.key(12)
    numbat.Tensor<
      u32[2]
      [0, 12]
    >
    >>> nbt.random.key(999999999999)
    numbat.Tensor<
      u32[2]
      [232, 3567587327]
    >
    """
    if isinstance(seed, Tensor):
        if not seed.type.is_integer or seed.shape != ():
            raise ArgumentError(f"random.key needs an integer seed, got a {seed.type}{list(seed.shape)} tensor")
        return _draw.run("key", _key_of_seed, (seed,), (_draw.KEY,), {})
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ArgumentError(f"random.key needs an integer seed (or an integer tensor), got {seed!r}")
    if not -(2**63) <= int(seed) < 2**64:
        raise ArgumentError(f"random.key: seed {seed} does not fit in 64 bits (s64 or u64)")
    bits = int(seed) % 2**64
    return _convert.tensor(
        np.asarray([bits >> 32, bits & 0xFFFFFFFF], np.uint32), type="u32", backend=_default.resolve(backend)
    )


def _key_of_seed(seed):
    return _threefry.key(seed.astype(np.uint64))


def split(key, parts: int = 2) -> Tensor:
    """`parts` new keys from `key` (u32[parts][2]).

    >>> nbt.random.split(nbt.random.key(1701))
    numbat.Tensor<
      u32[2][2]
      [
        [56197195, 1801093307],
        [961309823, 1704866707]
      ]
    >
    """
    key = _draw.key_tensor(key, "split")
    parts = _check.integer("random.split", "parts", parts, minimum=1)
    return _draw.run("split", _threefry.split, (key,), (_draw.template((parts, 2), _draw.U32),), {"parts": parts})


def fold_in(key, data) -> Tensor:
    """A new key that mixes `data` into `key`: an integer gives one key, a tensor one key
    per element (u32[*shape][2]); data counts as u64.

    >>> nbt.random.fold_in(nbt.random.key(42), 99)
    numbat.Tensor<
      u32[2]
      [2015327502, 1351855566]
    >
    """
    key = _draw.key_tensor(key, "fold_in")
    if not isinstance(data, Tensor):
        if isinstance(data, bool) or not isinstance(data, (int, np.integer)):
            raise ArgumentError(f"random.fold_in: data must be an integer or a tensor, got {data!r}")
        if not -(2**63) <= int(data) < 2**64:
            raise ArgumentError(f"random.fold_in: data {data} does not fit in 64 bits (s64 or u64)")
        data = np.asarray(int(data) % 2**64, np.uint64)
    return _draw.run("fold_in", _fold_in, (key, data), (_draw.template(np.shape(data) + (2,), _draw.U32),), {})


def _fold_in(key, data):
    return _threefry.fold_in(key, data.astype(np.uint64))


def _uniform(op, key, min, max, shape, type, names, split_first):
    key, shape = _draw.key_tensor(key, op), _creation.check_shape(shape)
    type_ = _draw.float_type(op, type, min=min, max=max)
    real = _types.to_real(type_).dtype
    low, high = _draw.operand(op, "min", min, shape, real), _draw.operand(op, "max", max, shape, real)
    static = {"shape": shape, "type_": type_}
    return _draw.run(
        op, _threefry.uniform, (key, low, high), (_draw.template(shape, type_, names),), static, split_first
    )


@_draw.takes_options
def uniform(key, min=0.0, max=1.0, *, shape=(), type=None, names=None):
    """`(sample, next_key)`: uniform floats in `[min, max)` of `type` (the floating type
    of `min` and `max` unless given: f32 for numbers). A complex type draws its real and
    imaginary parts so.

    >>> sample, _ = nbt.random.uniform(nbt.random.key(1701), shape=(3, 2), type="f16")
    >>> sample
    numbat.Tensor<
      f16[3][2]
      [
        [0.754, 0.6484],
        [0.7295, 0.2148],
        [0.09766, 0.06934]
      ]
    >
    """
    return _uniform("uniform", key, min, max, shape, type, names, True)


@_draw.takes_options
def uniform_split(key, min=0.0, max=1.0, *, shape=(), type=None, names=None) -> Tensor:
    """`uniform`'s sample drawn with `key` as it is (split by the caller).

    >>> _, sample_key = nbt.random.split(nbt.random.key(1701))
    >>> nbt.random.uniform_split(sample_key)
    numbat.Tensor<
      f32
      0.9728644
    >
    """
    return _uniform("uniform_split", key, min, max, shape, type, names, False)


def _normal(op, key, mean, standard_deviation, shape, type, names, split_first):
    key, shape = _draw.key_tensor(key, op), _creation.check_shape(shape)
    type_ = _draw.float_type(op, type, mean=mean, standard_deviation=standard_deviation)
    real = _types.to_real(type_).dtype
    mean = _draw.operand(op, "mean", mean, shape, real)
    deviation = _draw.operand(op, "standard_deviation", standard_deviation, shape, real)
    static = {"shape": shape, "type_": type_}
    return _draw.run(
        op, _threefry.normal, (key, mean, deviation), (_draw.template(shape, type_, names),), static, split_first
    )


@_draw.takes_options
def normal(key, mean=0.0, standard_deviation=1.0, *, shape=(), type=None, names=None):
    """`(sample, next_key)`: normally distributed floats with `mean` and
    `standard_deviation` (`sqrt(2) erf_inv(u)` for u uniform in (-1, 1)), of `type` (the
    floating type of `mean` and `standard_deviation` unless given); complex types too.

    >>> sample, _ = nbt.random.normal(nbt.random.key(42))
    >>> sample
    numbat.Tensor<
      f32
      1.3694695
    >
    """
    return _normal("normal", key, mean, standard_deviation, shape, type, names, True)


@_draw.takes_options
def normal_split(key, mean=0.0, standard_deviation=1.0, *, shape=(), type=None, names=None) -> Tensor:
    """`normal`'s sample drawn with `key` as it is (split by the caller).

    >>> _, sample_key = nbt.random.split(nbt.random.key(42))
    >>> nbt.random.normal_split(sample_key)
    numbat.Tensor<
      f32
      1.3694695
    >
    """
    return _normal("normal_split", key, mean, standard_deviation, shape, type, names, False)


def _randint(op, key, min, max, shape, type, names, split_first):
    key, shape = _draw.key_tensor(key, op), _creation.check_shape(shape)
    for name, value in (("min", min), ("max", max)):
        if isinstance(value, Tensor) and not value.type.is_integer:
            raise ArgumentError(f"random.{op}: {name} must be an integer or an integer tensor, got {value.type}")
        if not isinstance(value, Tensor):
            _check.integer(f"random.{op}", name, value)
    if not isinstance(min, Tensor) and not isinstance(max, Tensor) and max <= min:
        raise ArgumentError(f"random.{op} needs min < max, got [{min}, {max})")
    type_ = _draw.merged_type(op, min=min, max=max) if type is None else _types.parse(type)
    if not type_.is_integer:
        raise ArgumentError(f"random.{op}: expected an integer type, got {type_}")
    low_type, high_type = _draw.merged_type(op, min=min), _draw.merged_type(op, max=max)
    low, high = (
        _draw.operand(op, "min", min, shape, low_type.dtype),
        _draw.operand(op, "max", max, shape, high_type.dtype),
    )
    static = {"shape": shape, "type_": type_, "low_type": low_type, "high_type": high_type}
    return _draw.run(
        op, _threefry.randint, (key, low, high), (_draw.template(shape, type_, names),), static, split_first
    )


@_draw.takes_options
def randint(key, min, max, *, shape=(), type=None, names=None):
    """`(sample, next_key)`: integers in `[min, max)` of `type` (the merged type of `min`
    and `max` unless given: s32 for numbers), from two draws of the type's width.

    >>> sample, _ = nbt.random.randint(nbt.random.key(1701), 1, 100, shape=(3, 2), type="u32")
    >>> sample
    numbat.Tensor<
      u32[3][2]
      [
        [9, 20],
        [19, 6],
        [71, 15]
      ]
    >
    """
    return _randint("randint", key, min, max, shape, type, names, True)


@_draw.takes_options
def randint_split(key, min, max, *, shape=(), type=None, names=None) -> Tensor:
    """`randint`'s sample drawn with `key` as it is (split by the caller).

    >>> _, sample_key = nbt.random.split(nbt.random.key(1701))
    >>> nbt.random.randint_split(sample_key, 1, 100)
    numbat.Tensor<
      s32
      91
    >
    """
    return _randint("randint_split", key, min, max, shape, type, names, False)


def _gumbel(op, key, shape, type, names, split_first):
    key, shape = _draw.key_tensor(key, op), _creation.check_shape(shape)
    type_ = _types.parse(type)
    if not type_.is_float:
        raise ArgumentError(f"random.{op}: expected a float type, got {type_}")
    static = {"shape": shape, "type_": type_}
    return _draw.run(op, _threefry.gumbel, (key,), (_draw.template(shape, type_, names),), static, split_first)


@_draw.takes_options
def gumbel(key, *, shape=(), type="f32", names=None):
    """`(sample, next_key)`: standard Gumbel floats, `-log(-log(u))` for u uniform in
    [smallest normal, 1).

    >>> sample, _ = nbt.random.gumbel(nbt.random.key(1))
    >>> sample
    numbat.Tensor<
      f32
      -0.729461
    >
    """
    return _gumbel("gumbel", key, shape, type, names, True)


@_draw.takes_options
def gumbel_split(key, *, shape=(), type="f32", names=None) -> Tensor:
    """`gumbel`'s sample drawn with `key` as it is (split by the caller).

    >>> _, sample_key = nbt.random.split(nbt.random.key(1))
    >>> nbt.random.gumbel_split(sample_key)
    numbat.Tensor<
      f32
      -0.729461
    >
    """
    return _gumbel("gumbel_split", key, shape, type, names, False)


def _multivariate_normal(op, key, mean, covariance, shape, type, names, method, split_first):
    key = _draw.key_tensor(key, op)
    mean, covariance = _dispatch.to_tensor(mean), _dispatch.to_tensor(covariance)
    _check.choice(f"random.{op}", "method", method, ("cholesky", "svd", "eigh"))
    type_ = _draw.float_type(op, type, mean=mean, covariance=covariance)
    if type_.is_complex:
        raise ArgumentError(f"random.{op}: complex types are not supported (got {type_})")
    if mean.rank != 1 or covariance.rank != 2 or covariance.shape != (mean.shape[0],) * 2:
        raise ArgumentError(
            f"random.{op}: mean must have shape (n,) and covariance (n, n), got {mean.shape} and {covariance.shape}"
        )
    shape = (mean.shape[0],) if shape is None else _creation.check_shape(shape) + (mean.shape[0],)
    static = {"shape": shape, "type_": type_, "method": method}
    out = _draw.template(shape, type_, names)
    return _draw.run(op, _threefry.multivariate_normal, (key, mean, covariance), (out,), static, split_first)


@_draw.takes_options
def multivariate_normal(key, mean, covariance, *, shape=None, type=None, names=None, method="cholesky"):
    """`(sample, next_key)`: samples of a multivariate normal with `mean` [n] and a
    positive semi-definite `covariance` [n, n], of shape `shape + (n,)`. `method` factors
    the covariance: "cholesky", or "svd" or "eigh" for a singular one.

    >>> mean, covariance = nbt.tensor([0, 0]), nbt.tensor([[1, 0], [0, 1]])
    >>> sample, _ = nbt.random.multivariate_normal(nbt.random.key(12), mean, covariance)
    >>> sample
    numbat.Tensor<
      f32[2]
      [-1.3425945, -0.4081206]
    >
    """
    return _multivariate_normal("multivariate_normal", key, mean, covariance, shape, type, names, method, True)


@_draw.takes_options
def multivariate_normal_split(key, mean, covariance, *, shape=None, type=None, names=None, method="cholesky"):
    """`multivariate_normal`'s sample drawn with `key` as it is (split by the caller).

    >>> _, sample_key = nbt.random.split(nbt.random.key(12))
    >>> nbt.random.multivariate_normal_split(sample_key, nbt.tensor([0]), nbt.tensor([[1]]))
    numbat.Tensor<
      f32[1]
      [0.73592794]
    >
    """
    op = "multivariate_normal_split"
    return _multivariate_normal(op, key, mean, covariance, shape, type, names, method, False)


def _permutation(key, shape: tuple, axis: int):
    """(s32 indices of `shape`, next key) of Nx's `shuffle_independent` along `axis`."""
    out = _draw.template(shape, _S32)
    return _draw.run("permutation", _threefry.permutation, (key,), (out, _draw.KEY), {"shape": shape, "axis": axis})


@_draw.takes_options
def shuffle(key, tensor, *, axis=0, independent=False):
    """`(shuffled, next_key)`: `tensor` with its entries along `axis` in a random order; with
    `independent=True` each position of the other axes gets its own order.

    >>> shuffled, _ = nbt.random.shuffle(nbt.random.key(42), nbt.iota((3, 4), axis=0))
    >>> shuffled
    numbat.Tensor<
      s32[3][4]
      [
        [2, 2, 2, 2],
        [0, 0, 0, 0],
        [1, 1, 1, 1]
      ]
    >
    """
    key = _draw.key_tensor(key, "shuffle")
    tensor = _dispatch.to_tensor(tensor)
    independent = _check.boolean("random.shuffle", "independent", independent)
    if tensor.rank < 1:
        raise ArgumentError("random.shuffle: the tensor must have rank 1 or more, got a scalar")
    axis = _names.axis_index(tensor.names, axis)
    if independent:
        indices, next_key = _permutation(key, tensor.shape, axis)
        return _indexing.take_along_axis(tensor, indices, axis=axis), next_key
    indices, next_key = _permutation(key, (tensor.shape[axis],), 0)
    return _indexing.take(tensor, indices, axis=axis), next_key


@_draw.takes_options
def choice(key, tensor, p=None, *, samples=1, axis=None, replace=True):
    """`(chosen, next_key)`: `samples` entries of `tensor` along `axis` (of the flattened
    tensor when `axis` is None), with or without replacement, weighted by the
    probabilities `p` (one per entry) when given.

    >>> chosen, _ = nbt.random.choice(nbt.random.key(1), nbt.iota((4, 3)), samples=4, axis=0)
    >>> chosen
    numbat.Tensor<
      s32[4][3]
      [
        [6, 7, 8],
        [9, 10, 11],
        [6, 7, 8],
        [0, 1, 2]
      ]
    >
    """
    key = _draw.key_tensor(key, "choice")
    tensor = _dispatch.to_tensor(tensor)
    samples = _check.integer("random.choice", "samples", samples, minimum=1)
    replace = _check.boolean("random.choice", "replace", replace)
    if tensor.rank < 1:
        raise ArgumentError("random.choice: the tensor must have rank 1 or more, got a scalar")
    if axis is None:
        tensor, axis = _shape.reshape(tensor, (tensor.size,)), 0
    axis = _names.axis_index(tensor.names, axis)
    size = tensor.shape[axis]
    if not replace and samples > size:
        raise ArgumentError(f"random.choice: cannot take {samples} samples from {size} entries without replacement")
    if p is None:
        if replace:
            indices, next_key = randint(key, 0, size, shape=(samples,), type="u32")
            return _indexing.take(tensor, indices, axis=axis), next_key
        shuffled, next_key = shuffle(key, tensor, axis=axis)
        return slice_along_axis(shuffled, 0, samples, axis=axis), next_key
    p = _dispatch.to_tensor(p)
    if p.rank != 1 or p.size != size:
        raise ArgumentError(f"random.choice: p must have shape ({size},) (one per entry), got {p.shape}")
    if not p.type.is_float:
        raise ArgumentError(f"random.choice: p must be a float tensor, got {p.type}")
    static = {"samples": samples, "replace": replace, "type_": p.type}
    indices, next_key = _draw.run(
        "choice", _threefry.weighted_indices, (key, p), (_draw.template((samples,), _S32), _draw.KEY), static
    )
    return _indexing.take(tensor, indices, axis=axis), next_key


# The public API: what `help()`, `import *`, tab completion and the API pages list.
__all__ = [
    "choice",
    "fold_in",
    "gumbel",
    "gumbel_split",
    "key",
    "multivariate_normal",
    "multivariate_normal_split",
    "normal",
    "normal_split",
    "randint",
    "randint_split",
    "shuffle",
    "split",
    "uniform",
    "uniform_split",
]


def __dir__() -> list[str]:
    """Tab completion lists the public API (`__all__`), not the names this module imports."""
    return sorted(__all__)
