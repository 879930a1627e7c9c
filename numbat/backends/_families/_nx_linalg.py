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

_BLOCK = 16  # columns per panel, measured on the CPU (f32 256x128 to 512x512)


def _reflector(x, i, eps):
    """Nx's reflector `I - tau v v^H` for column `x` (0 above row `i`) as LAPACK stores one:
    `(v, tau)` with `v[i] == 1`. Nx's real `v` is `x` divided by `v_0`, so it has `v[i] == 1`
    already; where the part below row `i` is small it is the identity (tau 0). Nx's complex
    `v` is `u / |u|` with scale 2: the same reflector as `u / u_i` with `tau = 2|u_i|^2/|u|^2`."""
    norm_sq = jnp.real(jnp.dot(x, jnp.conj(x)))
    norm = jnp.sqrt(norm_sq)
    x_i = x[i]
    norm_sq_1on = norm_sq - jnp.abs(x_i) ** 2
    on_i = jnp.arange(x.shape[0]) == i
    if jnp.iscomplexobj(x):
        u_i = x_i + jnp.exp(1j * jnp.angle(x_i)).astype(x.dtype) * norm
        tau = 2 * jnp.abs(u_i) ** 2 / (norm_sq_1on + jnp.abs(u_i) ** 2)
        return jnp.where(on_i, 1, x / u_i), tau.astype(x.dtype)
    v_0 = jnp.where(x_i <= 0, x_i - norm, -norm_sq_1on / (x_i + norm))
    small = norm_sq_1on < eps
    v_0 = jnp.where(small, 1, v_0)
    # Nx's 2 / (v . v), with v . v = 1 + norm_sq_1on / v_0^2 (one reduction fewer)
    return jnp.where(on_i, 1, x / v_0), jnp.where(small, 0, 2 / (1 + norm_sq_1on / v_0**2)).astype(x.dtype)


def _panel(p, eps):
    """Nx's reflectors of a panel, one column at a time with rank-1 updates of the panel
    only. `p` is the panel transposed (its columns as rows, contiguous: half the time), its
    first column starting on the diagonal. Returns `(p, taus)`, `p` in LAPACK's geqrf form
    transposed: R on and right of the diagonal, each reflector's `v` right of it."""
    cols, rows = jnp.arange(p.shape[0])[:, None], jnp.arange(p.shape[1])

    def step(i, carry):
        p, taus = carry
        x = jnp.where(rows < i, 0, lax.dynamic_index_in_dim(p, i, axis=0, keepdims=False))
        v, tau = _reflector(x, i, eps)
        w = jnp.where(cols < i, 0, p @ jnp.conj(v)[:, None])  # columns before i hold earlier v's
        p = jnp.where((cols == i) & (rows > i), v, p - w * (tau * v))
        return p, taus.at[i].set(tau)

    return lax.fori_loop(0, p.shape[0], step, (p, jnp.zeros(p.shape[0], p.dtype)))


def _apply_block(p, taus, c):
    """`H_b^H ... H_1^H` applied to the columns `c` (all transposed, as `_panel`'s), in the
    compact WY form `I - V T V^H` (Schreiber and Van Loan): `T^-1 = diag(1/tau) +
    strict_upper(V^H V)`, an identity reflector (tau 0) taken as `v = 0`, `tau = 1`."""
    cols, rows = jnp.arange(p.shape[0])[:, None], jnp.arange(p.shape[1])
    v = jnp.where(rows > cols, p, (rows == cols).astype(p.dtype)) * (taus != 0)[:, None]
    gram = jnp.conj(v) @ v.T
    t_inv = jnp.where(cols < cols.T, gram, 0) + jnp.diag(1 / jnp.where(taus == 0, 1, taus))
    y = lax.linalg.triangular_solve(t_inv, c @ jnp.conj(v).T, left_side=False, lower=False, conjugate_a=True)
    return c - y @ v


def qr(a, mode, eps):
    """Nx's Householder QR of one matrix: `(q, r)` as Nx.LinAlg.qr returns them.

    Nx multiplies `q` and `r` by each m x m reflector in turn; here, as in LAPACK's geqrf,
    panels of `_BLOCK` columns are reduced with rank-1 updates and each panel's reflectors
    reach the columns after it as matrix products, and `q` is LAPACK's orgqr of the
    reflectors (`householder_product`). Nx reduces `min(m - 1, n)` columns (it pads a wide
    matrix with zero rows, Golub and Van Loan 5.4.1, whose extra columns have nothing below
    the diagonal, and stops before the last column of a square one): so does this."""
    m, n = a.shape
    k = max(min(m - 1, n), 0)
    a_t, taus = a.T, []
    for j in range(0, k, _BLOCK):
        b = min(_BLOCK, k - j)
        panel, tau = _panel(a_t[j : j + b, j:], eps)
        a_t = a_t.at[j : j + b, j:].set(panel)
        if j + b < n:
            a_t = a_t.at[j + b :, j:].set(_apply_block(panel, tau, a_t[j + b :, j:]))
        taus.append(tau)
    a = a_t.T
    taus = jnp.concatenate(taus) if taus else jnp.zeros(0, a.dtype)
    q_cols = n if mode == "reduced" and m > n else m
    q = lax.linalg.householder_product(jnp.pad(a, ((0, 0), (0, max(q_cols - n, 0))))[:, :q_cols], taus)
    r = jnp.triu(a[:q_cols])
    return approximate_zeros(q, eps), approximate_zeros(r, eps)


@functools.partial(jax.jit, static_argnames=("mode", "eps"))
def batched_qr(a, mode: str, eps: float):
    """Nx's `(q, r)` of each matrix of `a` (any leading axes), batched as `a`."""
    fun = functools.partial(qr, mode=mode, eps=eps)
    for _ in range(a.ndim - 2):
        fun = jax.vmap(fun)
    return fun(a)
