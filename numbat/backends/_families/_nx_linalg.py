"""Nx 0.13.1's own Householder QR, written over JAX, so that numbat gives Nx's factors
(their signs) on every backend and inside defn.

A decomposition's signs are not fixed by the mathematics: each algorithm picks its own, and
LAPACK's differ from Nx's. Nx's reflector (`nx/lib/nx/lin_alg/qr.ex`) leaves a column whose
part below the diagonal has squared norm under `eps` as it is and gives any other a
non-negative diagonal entry; entries with `|x| <= eps` become 0. It is backward stable as
LAPACK's is and, applied as rank-1 updates, about as fast on the CPU.
Nx's Jacobi eigh and QDWH SVD, which eigh's and svd's options select, are in `_nx_eigh_svd`.

`qr` takes one matrix; `batched_qr` maps it over leading axes with `jax.vmap`, compiled
once per shape and options (`jax.jit`).
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
from jax import lax


def approximate_zeros(x, eps):
    """`x` with the entries of `|x| <= eps` set to 0, as Nx's `approximate_zeros`."""
    magnitude = jnp.abs(x)
    return jnp.where(magnitude <= jnp.asarray(eps).astype(magnitude.dtype), jnp.zeros((), x.dtype), x)


# ---------------------------------------------------------------- QR


def _householder(x, i, eps):
    """Nx's reflector `I - scale * v v^H` for column `x` at row `i`, as `(v, scale)`; `x`
    (and so `v`) is 0 above row `i`, so this is Nx's reflector restricted to rows and
    columns from `i` on."""
    norm_sq = jnp.real(jnp.dot(x, jnp.conj(x)))
    norm = jnp.sqrt(norm_sq)
    x_i = x[i]
    norm_sq_1on = norm_sq - jnp.abs(x_i) ** 2
    if jnp.iscomplexobj(x):
        alpha = jnp.exp(1j * jnp.angle(x_i)).astype(x.dtype) * norm
        u = x.at[i].add(alpha)
        return u / jnp.sqrt(jnp.real(jnp.dot(u, jnp.conj(u)))), 2
    v_0 = jnp.where(x_i <= 0, x_i - norm, -norm_sq_1on / (x_i + norm))
    small = norm_sq_1on < eps
    v = x.at[i].set(jnp.where(small, jnp.ones((), x.dtype), v_0))
    v = v / jnp.where(small, jnp.ones((), x.dtype), v_0)
    return v, jnp.where(small, 0, 2 / jnp.where(small, 1, jnp.dot(v, v)))


def qr(a, mode, eps):
    """Nx's Householder QR of one matrix: `(q, r)` as Nx.LinAlg.qr returns them."""
    m_in, n_in = a.shape
    if m_in < n_in:  # Golub and Van Loan 5.4.1: pad a wide matrix with zero rows
        a = jnp.pad(a, ((0, n_in - m_in), (0, 0)))
        last = n_in - 1
    else:
        last = n_in - 2 if m_in == n_in else n_in - 1
    m = a.shape[0]
    rows = jnp.arange(m)

    def step(i, qr_):
        q, r = qr_
        x = jnp.where(rows < i, jnp.zeros((), a.dtype), lax.dynamic_index_in_dim(r, i, axis=1, keepdims=False))
        v, scale = _householder(x, i, eps)
        v = v.astype(a.dtype)
        # Nx multiplies by the m x m reflector; its rank-1 form costs O(mn) instead of O(m^2 n).
        r = r - jnp.outer(scale * v, jnp.conj(v) @ r)
        q = q - jnp.outer(q @ v, scale * jnp.conj(v))
        return q, r

    q, r = (
        lax.fori_loop(0, last + 1, step, (jnp.eye(m, dtype=a.dtype), a))
        if last >= 0
        else (jnp.eye(m, dtype=a.dtype), a)
    )
    q, r = approximate_zeros(q, eps), approximate_zeros(r, eps)
    if m_in < n_in:
        return q[:m_in, :m_in], r[:m_in, :n_in]
    if mode == "reduced" and m_in > n_in:
        return q[:, :n_in], r[:n_in, :n_in]
    return q, r


@functools.partial(jax.jit, static_argnames=("mode", "eps"))
def batched_qr(a, mode: str, eps: float):
    """Nx's `(q, r)` of each matrix of `a` (any leading axes), batched as `a`."""
    fun = functools.partial(qr, mode=mode, eps=eps)
    for _ in range(a.ndim - 2):
        fun = jax.vmap(fun)
    return fun(a)
