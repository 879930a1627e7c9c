"""`nbt.random`: Nx.Random's counter-based random numbers on JAX's threefry generator.

A key is a u32[2] tensor. Samplers take a key and return `(sample, next_key)`: the
key is split, one half draws the sample and the other is returned for the next draw,
so the same key always gives the same numbers. Keys, `split`, `fold_in` and the
bits behind `uniform` are JAX's (`jax.random` with the threefry2x32 implementation),
and so equal Nx's. On the NumPy backend the numbers are computed with JAX on the
host and returned as NumPy data: every backend gives the same numbers. Inside a
defn the sampling is traced like any op.

>>> key = nbt.random.key(42)
>>> sample, key = nbt.random.uniform(key, shape=(3,))
>>> sample.shape, str(sample.type)
((3,), 'f32')
"""

from __future__ import annotations

import contextvars

import jax
import numpy as np

from . import _check, _expr, _names, _types
from ._errors import ArgumentError
from ._ops import _dispatch
from ._tensor import Tensor
from .backends import _default
from .backends._abstract import Template
from .backends.numpy_backend import NumPyBackend


def _wrap(data, template: Template, backend, op: str, inputs: tuple, params: dict) -> Tensor:
    if isinstance(backend, NumPyBackend):
        data = np.asarray(data)
    result = Tensor(data, template.type, template.names, backend)
    recorder = _expr.current()
    if recorder is not None:
        recorder.record(op, inputs, params, result)
    return result


def _key_data(key, op: str) -> Tensor:
    key = _dispatch.to_tensor(key)
    if key.shape[-1:] != (2,) or key.type != _types.Type("u", 32):
        raise ArgumentError(
            f"random.{op}: a key is a u32[2] tensor from nbt.random.key, got {key.type}{list(key.shape)}"
        )
    return key


def _run(op: str, key: Tensor, template: Template, fun, **params) -> Tensor:
    """`fun(jax_key)` as a tensor of `template` on the key's backend, recorded as `op`."""
    wide = template.type.bits >= 64
    with jax.enable_x64(wide):
        data = key.data if isinstance(key.data, jax.Array) else jax.device_put(key.data, jax.devices("cpu")[0])
        jax_key = jax.random.wrap_key_data(data, impl="threefry2x32")
        result = fun(jax_key)
    return _wrap(result, template, key.backend, f"random_{op}", (key,), params)


def key(seed: int, backend=None) -> Tensor:
    """A key for seed `seed` (JAX's `PRNGKey(seed)`: u32[2]).

    >>> nbt.random.key(42)
    numbat.Tensor<
      u32[2]
      [0, 42]
    >
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ArgumentError(f"random.key needs an integer seed, got {seed!r}")
    from ._ops.creation import tensor

    try:
        data = np.asarray(jax.random.key_data(jax.random.PRNGKey(int(seed))))
    except OverflowError:
        raise ArgumentError(f"random.key: seed {seed} does not fit in 64 bits") from None
    return tensor(data, type="u32", backend=_default.resolve(backend))


def split(key, parts: int = 2) -> Tensor:
    """`parts` new independent keys from `key` (u32[parts][2]).

    >>> nbt.random.split(nbt.random.key(0)).shape
    (2, 2)
    """
    key = _key_data(key, "split")
    if isinstance(parts, bool) or not isinstance(parts, int) or parts < 1:
        raise ArgumentError(f"random.split: parts must be a positive int, got {parts!r}")
    template = Template((parts, 2), key.type, (None, None))
    return _run("split", key, template, lambda k: jax.random.key_data(jax.random.split(k, parts)), parts=parts)


def fold_in(key, data: int) -> Tensor:
    """A new key that mixes the integer `data` into `key`.

    >>> nbt.random.fold_in(nbt.random.key(0), 1).shape
    (2,)
    """
    key = _key_data(key, "fold_in")
    template = Template((2,), key.type, (None,))
    return _run("fold_in", key, template, lambda k: jax.random.key_data(jax.random.fold_in(k, data)), data=data)


def _sample(op: str, key, shape, type_, names, fun, **params):
    key = _key_data(key, op)
    from ._ops.creation import _check_shape

    shape = _check_shape(shape)
    template = Template(shape, _types.parse(type_), _names.normalize(names, len(shape)))
    if _already_split.get():  # a *_split sampler: this key draws, and no next key is made
        next_key, sample_key = None, key
    else:
        keys = split(key)
        next_key, sample_key = keys[0], keys[1]
    sample = _run(op, sample_key, template, lambda k: fun(k, shape, template.type.dtype), **params)
    return sample, next_key


_already_split = contextvars.ContextVar("numbat_random_already_split", default=False)


def _drawn_with(sampler, key, *args, **options) -> Tensor:
    """`sampler`'s sample drawn with `key` itself (Nx's `*_split` samplers: the caller split it)."""
    token = _already_split.set(True)
    try:
        return sampler(key, *args, **options)[0]
    finally:
        _already_split.reset(token)


def _float_type(type_, op):
    parsed = _types.parse(type_)
    if not parsed.is_float:
        raise ArgumentError(f"random.{op} draws floats; type {parsed} is not a float type")
    return parsed


def uniform(key, min=0.0, max=1.0, shape=(), type="f32", names=None):
    """Uniform floats in `[min, max)`.

    >>> sample, next_key = nbt.random.uniform(nbt.random.key(1), shape=(2,), type="f64")
    >>> bool(nbt.all((sample >= 0) & (sample < 1)))
    True
    """
    _float_type(type, "uniform")
    return _sample(
        "uniform",
        key,
        shape,
        type,
        names,
        lambda k, s, d: jax.random.uniform(k, s, d, minval=min, maxval=max),
        min=min,
        max=max,
    )


def normal(key, mean=0.0, standard_deviation=1.0, shape=(), type="f32", names=None):
    """Normally distributed floats with `mean` and `standard_deviation`.

    >>> sample, _ = nbt.random.normal(nbt.random.key(0), 10.0, 0.001, shape=(1000,))
    >>> abs(nbt.to_number(nbt.mean(sample)) - 10) < 0.01
    True
    """
    _float_type(type, "normal")
    return _sample(
        "normal",
        key,
        shape,
        type,
        names,
        lambda k, s, d: jax.random.normal(k, s, d) * standard_deviation + mean,
        mean=mean,
        standard_deviation=standard_deviation,
    )


def randint(key, min, max, shape=(), type="s32", names=None):
    """Uniform integers in `[min, max)`.

    >>> sample, _ = nbt.random.randint(nbt.random.key(0), 5, 8, shape=(100,))
    >>> sorted(set(sample.to_numpy().tolist()))
    [5, 6, 7]
    """
    if not _types.parse(type).is_integer:
        raise ArgumentError(f"random.randint draws integers; type {type} is not an integer type")
    min, max = (_check.integer("random.randint", name, v) for name, v in (("min", min), ("max", max)))
    if max <= min:
        raise ArgumentError(f"random.randint needs min < max, got [{min}, {max})")
    return _sample(
        "randint", key, shape, type, names, lambda k, s, d: jax.random.randint(k, s, min, max, d), min=min, max=max
    )


def gumbel(key, shape=(), type="f32", names=None):
    """Samples of the standard Gumbel distribution.

    >>> sample, _ = nbt.random.gumbel(nbt.random.key(0), shape=(4,))
    >>> sample.shape
    (4,)
    """
    _float_type(type, "gumbel")
    return _sample("gumbel", key, shape, type, names, lambda k, s, d: jax.random.gumbel(k, s, d))


def shuffle(key, tensor, axis=0):
    """`tensor` with its elements along `axis` in a random order; returns `(shuffled, next_key)`.

    >>> shuffled, _ = nbt.random.shuffle(nbt.random.key(0), nbt.iota((5,)))
    >>> sorted(shuffled.to_numpy().tolist())
    [0, 1, 2, 3, 4]
    """
    from ._ops.indexing import take

    tensor = _dispatch.to_tensor(tensor)
    index = _names.axis_index(tensor.names, axis)
    size = tensor.shape[index]
    order, next_key = _sample("shuffle", key, (size,), "s32", None, lambda k, s, d: jax.random.permutation(k, size))
    return take(tensor, order, axis=index), next_key


def choice(key, tensor, samples=1, replace=True, probabilities=None):
    """`samples` elements of a 1-D `tensor`, with or without replacement, optionally
    weighted by `probabilities`; returns `(chosen, next_key)`.

    >>> chosen, _ = nbt.random.choice(nbt.random.key(0), nbt.tensor([10, 20, 30]), samples=3, replace=False)
    >>> sorted(chosen.to_numpy().tolist())
    [10, 20, 30]
    """
    from ._ops.indexing import take

    tensor = _dispatch.to_tensor(tensor)
    if tensor.rank != 1:
        raise ArgumentError(f"random.choice picks from a 1-D tensor, got shape {tensor.shape}")
    samples = _check.integer("random.choice", "samples", samples, minimum=0)
    if not isinstance(replace, bool):
        raise ArgumentError(f"random.choice: replace must be True or False, got {replace!r}")
    if tensor.shape[0] == 0:
        raise ArgumentError("random.choice: cannot pick from an empty tensor")
    if not replace and samples > tensor.shape[0]:
        raise ArgumentError(f"random.choice: {samples} samples without replacement from {tensor.shape[0]} elements")
    weights = None if probabilities is None else _dispatch.to_tensor(probabilities)

    def draw(k, s, d):
        p = None if weights is None else jax.numpy.asarray(weights.data)
        return jax.random.choice(k, tensor.shape[0], (samples,), replace=replace, p=p)

    indices, next_key = _sample("choice", key, (samples,), "s32", None, draw, samples=samples, replace=replace)
    return take(tensor, indices), next_key


def multivariate_normal(key, mean, covariance, shape=(), type="f32"):
    """Samples of a multivariate normal with `mean` [n] and `covariance` [n, n]; the
    sample has shape `shape + (n,)`.

    >>> sample, _ = nbt.random.multivariate_normal(nbt.random.key(0), nbt.tensor([1.0, 2.0]), nbt.eye(2, type="f32"), shape=(3,))
    >>> sample.shape
    (3, 2)
    """
    mean, covariance = _dispatch.to_tensor(mean), _dispatch.to_tensor(covariance)
    n = mean.shape[-1] if mean.rank else 0
    if mean.rank != 1 or covariance.shape != (n, n):
        raise ArgumentError(
            f"random.multivariate_normal: mean [n] and covariance [n, n], got {mean.shape}, {covariance.shape}"
        )
    _float_type(type, "multivariate_normal")

    def draw(k, s, d):
        return jax.random.multivariate_normal(
            k, jax.numpy.asarray(mean.data, d), jax.numpy.asarray(covariance.data, d), s[:-1], d
        )

    return _sample("multivariate_normal", key, tuple(shape) + (n,), type, None, draw)


def uniform_split(key, min=0.0, max=1.0, shape=(), type="f32", names=None) -> Tensor:
    """`uniform` drawn with `key` as it is (already split by the caller); only the sample.

    >>> key, sample_key = nbt.random.split(nbt.random.key(7))
    >>> drawn = nbt.random.uniform_split(sample_key, shape=(3,))
    >>> bool(nbt.all(drawn == nbt.random.uniform(nbt.random.key(7), shape=(3,))[0]))
    True
    """
    return _drawn_with(uniform, key, min, max, shape, type, names)


def normal_split(key, mean=0.0, standard_deviation=1.0, shape=(), type="f32", names=None) -> Tensor:
    """`normal` drawn with `key` as it is (already split by the caller); only the sample.

    >>> sample_key = nbt.random.split(nbt.random.key(7))[1]
    >>> bool(nbt.all(nbt.random.normal_split(sample_key, shape=(2,)) == nbt.random.normal(nbt.random.key(7), shape=(2,))[0]))
    True
    """
    return _drawn_with(normal, key, mean, standard_deviation, shape, type, names)


def randint_split(key, min, max, shape=(), type="s32", names=None) -> Tensor:
    """`randint` drawn with `key` as it is (already split by the caller); only the sample.

    >>> sample_key = nbt.random.split(nbt.random.key(7))[1]
    >>> bool(nbt.all(nbt.random.randint_split(sample_key, 0, 9, shape=(4,)) == nbt.random.randint(nbt.random.key(7), 0, 9, shape=(4,))[0]))
    True
    """
    return _drawn_with(randint, key, min, max, shape, type, names)


def gumbel_split(key, shape=(), type="f32", names=None) -> Tensor:
    """`gumbel` drawn with `key` as it is (already split by the caller); only the sample.

    >>> sample_key = nbt.random.split(nbt.random.key(7))[1]
    >>> bool(nbt.all(nbt.random.gumbel_split(sample_key, shape=(2,)) == nbt.random.gumbel(nbt.random.key(7), shape=(2,))[0]))
    True
    """
    return _drawn_with(gumbel, key, shape, type, names)


def multivariate_normal_split(key, mean, covariance, shape=(), type="f32") -> Tensor:
    """`multivariate_normal` drawn with `key` as it is (already split by the caller); only the sample.

    >>> mean, covariance = nbt.tensor([0.0, 1.0]), nbt.eye(2, type="f32")
    >>> sample_key = nbt.random.split(nbt.random.key(7))[1]
    >>> drawn = nbt.random.multivariate_normal_split(sample_key, mean, covariance, shape=(3,))
    >>> bool(nbt.all(drawn == nbt.random.multivariate_normal(nbt.random.key(7), mean, covariance, shape=(3,))[0]))
    True
    """
    return _drawn_with(multivariate_normal, key, mean, covariance, shape, type)


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
