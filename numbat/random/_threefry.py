"""Nx.Random's algorithms as JAX array functions: the threefry2x32 bit generator
(Nx's counter layout, which is JAX's original, non-partitionable one), keys, `split`,
`fold_in`, and the samplers' arithmetic, each step in the type Nx computes it in.

Everything here takes and returns raw arrays (`jax.Array` or tracers) and is traced
under x64 (`run`), so that u64/s64 steps keep their width without changing any
process-wide JAX setting. `numbat.random` checks arguments, picks types and turns
the arrays into tensors; on the NumPy backend it runs these same functions on the
host CPU, so that every path computes the same numbers.

>>> import jax
>>> with jax.enable_x64(True):
...     [int(v) for v in split(jnp.asarray([0, 1701], jnp.uint32), 2)[0]]
[56197195, 1801093307]
"""

from __future__ import annotations

import functools
import math

import jax.numpy as jnp
import ml_dtypes
import numpy as np
from jax import lax
from jax.extend.random import threefry_2x32

from .._core._types import Type, merge
from ..backends._families import _linalg_cholesky

# The mantissa width of each float type (Nx's `mantissa_shift`).
_MANTISSA = {("f", 8): 2, ("f8_e4m3fn", 8): 3, ("bf", 16): 7, ("f", 16): 10, ("f", 32): 23, ("f", 64): 52}
_UNSIGNED = {8: jnp.uint8, 16: jnp.uint16, 32: jnp.uint32, 64: jnp.uint64}
_MAX_U32 = np.float32(4294967295)  # Nx's `Nx.Constants.max_finite(:u32)` seen as f32


def bits(key, count: int):
    """u32[count]: threefry2x32 of the counter 0..count-1 under `key` (Nx's `threefry2x32`:
    the first half of the counter is the first word, the second half the second; an odd
    count is padded with one 0 that is dropped)."""
    return threefry_2x32((key[0], key[1]), lax.iota(jnp.uint32, count))


def key(seed):
    """The key of a u64 `seed`: its high and low 32 bits."""
    return jnp.stack([seed >> np.uint64(32), seed & np.uint64(0xFFFFFFFF)]).astype(jnp.uint32)


def split(key, parts: int):
    """u32[parts][2]: `parts` new keys."""
    return bits(key, parts * 2).reshape(parts, 2)


def fold_in(key, data):
    """u32[*data.shape][2]: `key` hashed with each u64 element of `data` (its high word
    first, its low word second)."""
    flat = data.reshape(-1)
    count = flat.shape[0]
    words = jnp.concatenate([(flat >> np.uint64(32)).astype(jnp.uint32), flat.astype(jnp.uint32)])
    hashed = threefry_2x32((key[0], key[1]), words)
    return jnp.stack([hashed[:count], hashed[count:]], axis=-1).reshape(data.shape + (2,))


def random_bits(key, shape: tuple, width: int):
    """u{width}[*shape] random bits (Nx's `random_bits`): 64-bit values join two 32-bit
    draws (the first half high); 2-, 4-, 8- and 16-bit values keep the low bits of a 32-bit
    draw (2 and 4 bits: held in u8)."""
    size = math.prod(shape)
    if width == 64:
        drawn = bits(key, 2 * size).astype(jnp.uint64)
        return ((drawn[:size] << np.uint64(32)) | drawn[size:]).reshape(shape)
    drawn = bits(key, size).reshape(shape)
    if width < 8:
        return drawn.astype(jnp.uint8) & np.uint8((1 << width) - 1)
    return drawn if width == 32 else drawn.astype(_UNSIGNED[width])


def _real(type_: Type, fun, key, shape: tuple):
    """Nx's `float_or_complex`: a complex sample is a real sample with a last axis of 2
    (real part, imaginary part)."""
    if type_.is_complex:
        real = fun(key, Type("f", type_.bits // 2), shape + (2,))
        return lax.complex(real[..., 0], real[..., 1])
    return fun(key, type_, shape)


def _cast(value, type_: Type):
    """`value` as `type_` (a complex value to a real type keeps its real part, as Nx's `as_type`)."""
    value = jnp.asarray(value)
    if jnp.iscomplexobj(value) and not type_.is_complex:
        value = jnp.real(value)
    return value.astype(type_.dtype)


def uniform(key, low, high, shape: tuple, type_: Type):
    """Floats in [low, high): random mantissa bits under the exponent of 1.0, minus 1,
    scaled, each step in `type_` (complex: both parts so)."""

    def draw(key, real: Type, shape):
        width = real.bits
        unsigned = _UNSIGNED[width]
        one = jnp.asarray(1, real.dtype)
        lo, hi = _cast(low, real), _cast(high, real)
        raw = random_bits(key, shape, width) >> np.asarray(width - _MANTISSA[real], unsigned)
        unit = lax.bitcast_convert_type(raw | lax.bitcast_convert_type(one, unsigned), real.dtype) - one
        return jnp.maximum(unit * (hi - lo) + lo, lo)

    return _real(type_, draw, key, shape)


def _next_after_minus_1(real: Type) -> float:
    """The float just above -1 in the IEEE format of `real`'s width (Nx's
    `next_after_minus_1`: so bf16 gets f16's value, which rounds to -1.0 in bf16);
    8-bit types, which have no IEEE format, use their own."""
    dtype = {16: np.float16, 32: np.float32, 64: np.float64}.get(real.bits, real.dtype)
    minus_one = np.asarray(-1, dtype)
    unsigned = np.dtype(f"u{minus_one.itemsize}")
    return float((minus_one.view(unsigned) - unsigned.type(1)).view(dtype))


def _in_f64(fun, x):
    """`fun(x)` computed in f64 and rounded to `x`'s type, as Nx's reference backend
    computes its transcendental functions."""
    return fun(x.astype(jnp.float64)).astype(x.dtype)


# Nx's erf_inv (its `Complex.erf_inv`): Giles' polynomials, for w = -log(1 - z^2) below
# 5 (in w - 2.5) and above (in sqrt(w) - 3), highest power first, evaluated in f64.
_ERF_INV_SMALL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087)
_ERF_INV_SMALL += (-0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_ERF_INV_LARGE = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773)
_ERF_INV_LARGE += (-0.0076224613, 0.00943887047, 1.00167406, 2.83297682)


def _horner(coefficients: tuple, t):
    acc = jnp.full_like(t, coefficients[0])
    for coefficient in coefficients[1:]:
        acc = acc * t + coefficient
    return acc


# fdlibm's log (e_log.c): log(1 + f) = f - f^2/2 + s (f^2/2 + R(s^2)), s = f / (2 + f).
_LG = (6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01, 2.222219843214978396e-01)
_LG += (1.818357216161805012e-01, 1.531383769920937332e-01, 1.479819860511658591e-01)
_LN2_HI, _LN2_LO = 6.93147180369123816490e-01, 1.90821492927058770002e-10


def _log(x):
    """The natural log of f64 `x`, positive and normal or 0 (-inf), by fdlibm's algorithm
    in lax operations (within 1 ulp). XLA's CPU log of f64 is a scalar libm call; this one
    vectorizes, which halves the time of a normal draw. Its last bit differs from libm's
    for some inputs, so it serves only draws rounded to 32 bits or fewer, where it gives
    the very numbers of libm's log (as Nx's): the tests check every f32, f16, bf16 and
    8-bit uniform."""
    bits = lax.bitcast_convert_type(x, jnp.uint64)
    high = (bits >> np.uint64(32)).astype(jnp.int64)
    mantissa = high & 0x000FFFFF
    half = (mantissa + 0x95F64) & 0x100000  # the mantissa in [sqrt(2)/2, sqrt(2)), the exponent to match
    exponent = ((high >> 20) - 1023 + (half >> 20)).astype(jnp.float64)
    scaled = ((mantissa | (half ^ 0x3FF00000)).astype(jnp.uint64) << np.uint64(32)) | (bits & np.uint64(0xFFFFFFFF))
    f = lax.bitcast_convert_type(scaled, jnp.float64) - 1.0
    s = f / (2.0 + f)
    z = s * s
    w = z * z
    r = w * (_LG[1] + w * (_LG[3] + w * _LG[5])) + z * (_LG[0] + w * (_LG[2] + w * (_LG[4] + w * _LG[6])))
    half_square = 0.5 * f * f
    far = ((mantissa - 0x6147A) | (0x6B851 - mantissa)) > 0  # f far from 0: fdlibm's two forms
    near_one = exponent * _LN2_HI - ((s * (f - r) - exponent * _LN2_LO) - f)
    far_from_one = exponent * _LN2_HI - ((half_square - (s * (half_square + r) + exponent * _LN2_LO)) - f)
    return jnp.where(x == 0, -jnp.inf, jnp.where(far, far_from_one, near_one))


def _erf_inv(z, log=jnp.log):
    """Nx's inverse error function of f64 `z` in (-1, 1], with erf_inv(±1) = ±inf."""
    w = -log((1 - z) * (1 + z))
    small = _horner(_ERF_INV_SMALL, w - 2.5)
    large = _horner(_ERF_INV_LARGE, jnp.sqrt(w) - 3)
    result = jnp.where(w < 5, small, large) * z
    return jnp.where(jnp.abs(z) == 1, jnp.copysign(jnp.inf, z), result)


def normal(key, mean, deviation, shape: tuple, type_: Type):
    """Normal floats: `sqrt(2) * erf_inv(u)` for u uniform in (-1, 1), scaled and shifted,
    each step rounded to the type in the order Nx's defn runs them: its expression builder
    moves the constant `sqrt(2)` of `deviation * (sqrt(2) * erf_inv(u))` to the left, so the
    draw is `sqrt(2) * (deviation * erf_inv(u)) + mean`."""

    def draw(key, real: Type, shape):
        u = uniform(key, _next_after_minus_1(real), 1.0, shape, real)
        erf_inv = functools.partial(_erf_inv, log=_log if real.bits <= 32 else jnp.log)
        sqrt_2 = _in_f64(jnp.sqrt, jnp.asarray(2, real.dtype))
        return sqrt_2 * (_cast(deviation, real) * _in_f64(erf_inv, u)) + _cast(mean, real)

    return _real(type_, draw, key, shape)


def gumbel(key, shape: tuple, type_: Type):
    """Standard Gumbel floats: `-log(-log(u))` for u uniform in [smallest normal, 1)."""
    u = uniform(key, float(ml_dtypes.finfo(type_.dtype).smallest_normal), 1.0, shape, type_)
    return -_in_f64(jnp.log, -_in_f64(jnp.log, u))


def randint(key, low, high, low_type: Type, high_type: Type, shape: tuple, type_: Type):
    """Integers in [low, high) of `type_` from two draws of its width, as Nx computes
    them: `(high_bits % span * (2**(w/2) % span)**2 % span + low_bits % span) % span`,
    the mixed steps in s64 (wrapping, as Nx's merged types do)."""
    width = type_.bits
    unsigned = _UNSIGNED[max(width, 8)]  # a sub-byte width's values are held in u8
    merged = merge(low_type, high_type)
    low = jnp.broadcast_to(_cast(low, low_type), shape)
    high = jnp.broadcast_to(_cast(high, high_type), shape)
    drawn = random_bits(key, (2,) + shape, width)
    span = lax.sub(high.astype(merged.dtype), low.astype(merged.dtype)).astype(unsigned)
    if width < 8:  # Nx's `as_type(max - min, {:u, width})`: the low bits
        span = span & np.uint8((1 << width) - 1)
    wide_span = span.astype(jnp.int64)
    multiplier = lax.rem(jnp.asarray(2 ** (width // 2), jnp.int64), wide_span)
    multiplier = lax.rem(multiplier * multiplier, wide_span)
    offset = lax.rem(drawn[0], span).astype(jnp.int64) * multiplier + lax.rem(drawn[1], span).astype(jnp.int64)
    offset = lax.rem(offset, wide_span)
    return (low.astype(jnp.int64) + offset).astype(type_.dtype)


def permutation(key, shape: tuple, axis: int):
    """(indices, next key): Nx's `shuffle_independent` of `shape` along `axis` as
    s32 indices. Each round splits the key and sorts by fresh 32-bit draws; there are
    ceil(3 log(size) / log(2**32 - 1)) rounds, computed in f32 as Nx does (none for
    one element)."""
    size = math.prod(shape)
    with np.errstate(divide="ignore"):
        rounds = np.ceil(np.float32(3) * np.log(np.float32(size)) / np.log(_MAX_U32))
    indices = lax.broadcasted_iota(jnp.int32, shape, axis)
    for _ in range(int(rounds) if np.isfinite(rounds) else 0):
        keys = split(key, 2)
        order = jnp.argsort(random_bits(keys[1], shape, 32), axis=axis, stable=True)
        indices = jnp.take_along_axis(indices, order, axis=axis)
        key = keys[0]
    return indices, key


def weighted_indices(key, p, samples: int, replace: bool, type_: Type):
    """(indices, next key) of `samples` draws weighted by `p`: with replacement, by
    inverting the cumulative sum at `total * (1 - u)`; without, the smallest of
    `-gumbel - log(p)`."""
    keys = split(key, 2)
    if replace:
        cumulative = jnp.cumsum(p)
        u = uniform(keys[1], 0.0, 1.0, (samples,), type_)
        r = cumulative[-1] * (1 - u)
        return jnp.argmin(cumulative[None, :] <= r[:, None], axis=1).astype(jnp.int32), keys[0]
    g = -gumbel(keys[1], p.shape, type_) - _in_f64(jnp.log, p)
    return jnp.argsort(g, stable=True)[:samples].astype(jnp.int32), keys[0]


def multivariate_normal(key, mean, covariance, shape: tuple, type_: Type, method: str):
    """`mean + z a^T` for standard normal z, where `a a^T = covariance` (Cholesky, or
    `u sqrt(s)` of the SVD or eigendecomposition); the factor is computed in at least
    f32 and rounded to `type_`."""
    work = covariance.astype(jnp.float32 if type_.dtype.itemsize < 4 else type_.dtype)  # f16, bf16, f8: f32
    if method == "cholesky":
        factor = _linalg_cholesky.cholesky(work)
    elif method == "svd":
        u, s, _ = jnp.linalg.svd(work)
        factor = u * jnp.sqrt(s)
    else:
        s, u = jnp.linalg.eigh(work)
        factor = u * jnp.sqrt(s)
    dim = mean.shape[0]
    z = normal(key, 0.0, 1.0, shape, type_).reshape(-1, dim)
    product = jnp.dot(z, factor.astype(type_.dtype).T, precision=lax.Precision.HIGHEST)
    return (mean.astype(type_.dtype) + product).reshape(shape)
