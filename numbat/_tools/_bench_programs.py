"""The programs `numbat bench kernels` times (`_bench_kernels`): for each row, the inputs
it makes from the size `n`, the numbat defn and its twin hand-written in `jax.numpy`/`lax`.

The hand-written side is what a JAX user would write for Nx's semantics: where Nx
clamps out-of-range indices, it uses `mode="clip"`; the random rows' JAX side is Nx's
algorithm written in jax.lax (the same numbers).
"""

from __future__ import annotations

import jax
import jax.extend.random
import jax.numpy as jnp
import numpy as np

import numbat as nbt


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _normal(shape, seed=0):
    return _rng(seed).standard_normal(shape).astype(np.float32)


def _side(n: int, per: int, lo: int = 1) -> int:
    """How many of `per`-element items make about `n` elements (at least `lo`)."""
    return max(lo, n // per)


def _dim(n: int, divisor: int, lo: int, hi: int) -> int:
    """A matrix side that grows with sqrt(n), between `lo` and `hi`."""
    return int(min(hi, max(lo, int(np.sqrt(n)) // divisor)))


# -- inputs -----------------------------------------------------------------------


def rows_by(width: int):
    return lambda n: [_normal((_side(n, width), width))]


def vector(divisor: int = 1):
    return lambda n: [_normal((_side(n, divisor, 16),))]


def table_and_indices(n):
    rows = _side(n, 16, 8)
    return [_normal((rows, 16)), _rng(1).integers(0, rows, rows).astype(np.int32)]


def table_and_index_pairs(n):
    table, index = table_and_indices(n)
    return [table, index[:, None]]


def indexed_inputs(n):
    table, index = table_and_index_pairs(n)
    return [table, index, _normal(table.shape, 2)]


def with_start(n):
    x = vector()(n)[0]
    return [x, np.asarray(x.size // 8, np.int32)]


def put_slice_inputs(n):
    x, start = with_start(n)
    return [x, _normal((x.size // 4,), 3), start]


def images(n):
    return [_normal((_side(n, 64 * 64), 64, 64))]


def conv_inputs(n):
    return [_normal((_side(n, 16 * 32 * 32 * 4), 16, 32, 32)), _normal((32, 16, 3, 3), 1) * 0.1]


def batched_matrices(n):
    d = _dim(n, 8, 4, 128)
    return [_normal((16, d, d)), _normal((16, d, d), 1)]


def square(divisor: int, hi: int):
    return lambda n: [_normal((_dim(n, divisor, 4, hi),) * 2)]


def solve_inputs(n):
    d = _dim(n, 4, 4, 256)
    a = _normal((d, d)) + d * np.eye(d, dtype=np.float32)  # well conditioned
    return [a, _normal((d, max(1, d // 4)), 1)]


def qr_inputs(n):
    d = _dim(n, 4, 4, 256)
    return [_normal((d, max(2, d // 2)))]


def spd_inputs(n):
    (m,) = square(4, 256)(n)
    return [m @ m.T + m.shape[0] * np.eye(m.shape[0], dtype=np.float32)]


def key_inputs(n):
    return [np.asarray([0, 42], np.uint32), np.zeros(_side(n, 1, 16), np.float32)]


def while_inputs(n):
    return [np.asarray(0, np.int32), _normal((_side(n, 1024, 16),))]


def mlp_inputs(n):
    batch = _side(n, 8192, 8)
    return [
        _normal((256, 512)) * 0.05,
        np.zeros(512, np.float32),
        _normal((512, 10), 1) * 0.05,
        np.zeros(10, np.float32),
        _normal((batch, 256), 2),
        np.eye(10, dtype=np.float32)[_rng(3).integers(0, 10, batch)],
    ]


def cnn_inputs(n):
    batch = _side(n, 65536, 2)
    return [
        _normal((16, 3, 3, 3)) * 0.2,
        _normal((16 * 15 * 15, 10), 1) * 0.01,
        _normal((batch, 3, 32, 32), 2),
        np.eye(10, dtype=np.float32)[_rng(3).integers(0, 10, batch)],
    ]


def attention_inputs(n):
    batch = _side(n, 4 * 256 * 64, 1)
    return [_normal((batch, 256, 64), seed) for seed in range(3)]


# -- the computations, numbat (nb_*) and JAX (jx_*) ---------------------------------


def nb_elementwise(x):
    return nbt.tanh(x) * 2.0 + nbt.exp(-x * x) - nbt.sigmoid(x) / (1.0 + nbt.abs(x))


def jx_elementwise(x):
    return jnp.tanh(x) * 2.0 + jnp.exp(-x * x) - jax.nn.sigmoid(x) / (1.0 + jnp.abs(x))


def nb_reductions(x):
    return nbt.sum(x, axes=[1]), nbt.reduce_max(x, axes=[0])


def jx_reductions(x):
    return jnp.sum(x, axis=1), jnp.max(x, axis=0)


def nb_mlp_step(w1, b1, w2, b2, x, y):
    def loss(params):
        w1, b1, w2, b2 = params
        h = nbt.max(nbt.dot(x, w1) + b1, 0.0)
        logits = nbt.dot(h, w2) + b2
        return -nbt.mean(nbt.sum(y * (logits - nbt.logsumexp(logits, axes=[1], keep_axes=True)), axes=[1]))

    value, grads = nbt.value_and_grad(loss)((w1, b1, w2, b2))
    return value, tuple(p - 0.01 * g for p, g in zip((w1, b1, w2, b2), grads))


def jx_mlp_step(w1, b1, w2, b2, x, y):
    def loss(params):
        w1, b1, w2, b2 = params
        h = jnp.maximum(x @ w1 + b1, 0.0)
        logits = h @ w2 + b2
        return -jnp.mean(jnp.sum(y * (logits - jax.nn.logsumexp(logits, axis=1, keepdims=True)), axis=1))

    value, grads = jax.value_and_grad(loss)((w1, b1, w2, b2))
    return value, tuple(p - 0.01 * g for p, g in zip((w1, b1, w2, b2), grads))


def nb_cnn_step(kernel, w, x, y):
    def loss(params):
        kernel, w = params
        h = nbt.max(nbt.conv(x, kernel), 0.0)
        pooled = nbt.window_max(h, (1, 1, 2, 2), strides=(1, 1, 2, 2))
        logits = nbt.dot(nbt.reshape(pooled, (x.shape[0], w.shape[0])), w)
        return -nbt.mean(nbt.sum(y * (logits - nbt.logsumexp(logits, axes=[1], keep_axes=True)), axes=[1]))

    value, (dk, dw) = nbt.value_and_grad(loss)((kernel, w))
    return value, kernel - 0.01 * dk, w - 0.01 * dw


def jx_cnn_step(kernel, w, x, y):
    def loss(params):
        kernel, w = params
        h = jnp.maximum(jax.lax.conv_general_dilated(x, kernel, (1, 1), "VALID"), 0.0)
        pooled = jax.lax.reduce_window(h, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")
        logits = pooled.reshape(x.shape[0], w.shape[0]) @ w
        return -jnp.mean(jnp.sum(y * (logits - jax.nn.logsumexp(logits, axis=1, keepdims=True)), axis=1))

    value, (dk, dw) = jax.value_and_grad(loss)((kernel, w))
    return value, kernel - 0.01 * dk, w - 0.01 * dw


def nb_attention(q, k, v):
    scores = nbt.dot(q, k, contract_axes=([2], [2]), batch_axes=([0], [0])) / float(np.sqrt(q.shape[-1]))
    weights = nbt.exp(scores - nbt.logsumexp(scores, axes=[2], keep_axes=True))
    return nbt.dot(weights, v, contract_axes=([2], [1]), batch_axes=([0], [0]))


def jx_attention(q, k, v):
    scores = jnp.einsum("bqd,bkd->bqk", q, k) / np.sqrt(q.shape[-1])
    weights = jnp.exp(scores - jax.nn.logsumexp(scores, axis=2, keepdims=True))
    return jnp.einsum("bqk,bkd->bqd", weights, v)


def nb_while(i, x):
    return nbt.while_loop(lambda s: s[0] < 100, lambda s: (s[0] + 1, s[1] * 0.99 + 0.01), (i, x))


def jx_while(i, x):
    return jax.lax.while_loop(lambda s: s[0] < 100, lambda s: (s[0] + 1, s[1] * 0.99 + 0.01), (i, x))


def nb_cond(x):
    return nbt.cond(nbt.sum(x) > 0, lambda v: v * 2.0, lambda v: v - 1.0, x)


def jx_cond(x):
    return jax.lax.cond(jnp.sum(x) > 0, lambda v: v * 2.0, lambda v: v - 1.0, x)


def nb_random(sampler):
    def draw(key, like):
        return sampler(key, shape=like.shape)

    return draw


# Nx's erf_inv (Giles' polynomials in f64, highest power first), for the reference below.
_ERF_INV_SMALL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087)
_ERF_INV_SMALL += (-0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_ERF_INV_LARGE = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773)
_ERF_INV_LARGE += (-0.0076224613, 0.00943887047, 1.00167406, 2.83297682)


def _nx_uniform(key, like, low):
    """Nx's `Nx.Random.uniform` written directly in `jax.lax`, as a JAX user would for Nx's
    numbers: threefry2x32 over Nx's counter layout, the split, and f32 uniforms in
    [low, 1) from 23 random mantissa bits. Returns them (flat) and the next key."""
    threefry = jax.extend.random.threefry_2x32
    keys = threefry((key[0], key[1]), jax.lax.iota(jnp.uint32, 4)).reshape(2, 2)
    bits = threefry((keys[1, 0], keys[1, 1]), jax.lax.iota(jnp.uint32, like.size))
    one = np.float32(1)
    unit = jax.lax.bitcast_convert_type((bits >> np.uint32(9)) | np.uint32(0x3F800000), jnp.float32) - one
    return jnp.maximum(unit * (one - low) + low, low), keys[0]


def jx_nx_uniform(key, like):
    uniform, next_key = _nx_uniform(key, like, np.float32(0))
    return uniform.reshape(like.shape), next_key


def jx_nx_normal(key, like):
    """Nx's `Nx.Random.normal` in `jax.lax`: `sqrt(2) erf_inv(u)` for Nx's uniforms u in
    (-1, 1), with Nx's erf_inv in f64."""
    with jax.enable_x64(True):  # the f64 steps (a scoped setting, as numbat's)
        u, next_key = _nx_uniform(key, like, np.float32(np.nextafter(np.float32(-1), np.float32(0))))
        z = u.astype(jnp.float64)
        w = -jnp.log((1 - z) * (1 + z))
        small, large = jnp.full_like(w, _ERF_INV_SMALL[0]), jnp.full_like(w, _ERF_INV_LARGE[0])
        for a, b in zip(_ERF_INV_SMALL[1:], _ERF_INV_LARGE[1:]):
            small, large = small * (w - 2.5) + a, large * (jnp.sqrt(w) - 3) + b
        erf_inv = jnp.where(jnp.abs(z) == 1, jnp.copysign(jnp.inf, z), jnp.where(w < 5, small, large) * z)
        normal = np.float32(np.sqrt(2.0)) * erf_inv.astype(jnp.float32)
        return normal.reshape(like.shape), next_key


NX_RANDOM_NOTE = (
    "the JAX side is Nx's algorithm written in jax.lax (the same numbers, checked); jax.random's "
    "own samplers use another counter layout, and normal an f32 erf_inv"
)


def jx_nx_fft(x):
    """Nx's fft written in jax.numpy: XLA's FFT, then Nx's clean-up (real and imaginary parts
    with |x| <= eps, 1e-10 by default, become 0)."""
    y = jnp.fft.fft(x.astype(jnp.complex64))
    real, imag = jnp.real(y), jnp.imag(y)
    return jax.lax.complex(jnp.where(jnp.abs(real) <= 1e-10, 0.0, real), jnp.where(jnp.abs(imag) <= 1e-10, 0.0, imag))
