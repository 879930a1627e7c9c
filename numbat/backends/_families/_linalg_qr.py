"""Nx 0.13.1's own Householder QR, written over JAX, so that numbat gives Nx's factors
(their signs) on every backend and inside defn.

A decomposition's signs are not fixed by the mathematics: each algorithm picks its own, and
LAPACK's differ from Nx's. Nx's reflector (`nx/lib/nx/lin_alg/qr.ex`) leaves a column whose
part below the diagonal has squared norm under `eps` as it is and gives any other a
non-negative diagonal entry; entries with `|x| <= eps` become 0. Its reflectors have LAPACK's
form (`v_i == 1`, a scale `tau`), so they are computed blocked as LAPACK's geqrf computes its
own (panels, then compact WY products) and `q` is LAPACK's orgqr of them.
Nx's Jacobi eigh and QDWH SVD, which eigh's and svd's options select, are in `_linalg_eigh_svd`.

`qr` takes any leading axes (`jax.vmap`); `batched_qr` is it compiled once per shape and
options (`jax.jit`).
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


# Columns per panel, as measured on the CPU (f32, 2 cores; against 8 and 32): 1.2x to 1.8x
# of JAX's geqrf and orgqr from 256x128 to 512x512, 1.6x at 1024x64, 1.2x for 8x64x64.
BLOCK = 16


def _reflector(x_i, norm_sq_below, eps):
    """Nx's reflector `I - tau v v^H` for a column `x` from its entry `x_i` on the diagonal
    and the squared norm of its part below, as LAPACK stores one: `v = x_below / d + e_i`,
    returned as `(d, tau)`. Nx's real `v` is `x / v_0`, with `v_i == 1`; where the part
    below is small (Nx's test, on `|x|^2 - x_i^2`) it is the identity (tau 0). Nx's complex
    `v` is `u / |u|` with scale 2: the same reflector as `u / u_i`, `tau = 2|u_i|^2/|u|^2`."""
    norm_sq = norm_sq_below + jnp.abs(x_i) ** 2
    norm = jnp.sqrt(norm_sq)
    norm_sq_1on = norm_sq - jnp.abs(x_i) ** 2
    if jnp.iscomplexobj(x_i):
        u_i = x_i + jnp.exp(1j * jnp.angle(x_i)).astype(x_i.dtype) * norm
        return u_i, (2 * jnp.abs(u_i) ** 2 / (norm_sq_1on + jnp.abs(u_i) ** 2)).astype(x_i.dtype)
    v_0 = jnp.where(x_i <= 0, x_i - norm, -norm_sq_1on / (x_i + norm))
    small = norm_sq_1on < eps
    v_0 = jnp.where(small, 1, v_0)
    # Nx's 2 / (v . v), with v . v = 1 + norm_sq_1on / v_0^2
    return v_0, jnp.where(small, 0, 2 / (1 + norm_sq_1on / v_0**2)).astype(x_i.dtype)


def _panel(p, start, count, eps):
    """Nx's reflectors of a panel, one column at a time with rank-1 updates of the panel
    only. `p` is the panel transposed (its columns as rows, so contiguous), over every row of
    the matrix; its first column's diagonal entry is at `start`, and only its first `count`
    columns are reduced (the others get the identity). Returns `(p, taus)`, `p` in LAPACK's
    geqrf form transposed: R on and right of the diagonal, each reflector's `v` right of it.

    One product per column, `y = p @ conj(x_below)`, gives both the norm (`y[i]`) and
    `p @ conj(v) = y / conj(d) + p[:, i]`, so that a step has few kernels to run."""
    cols, rows = jnp.arange(p.shape[0])[:, None], jnp.arange(p.shape[1])

    def step(i, carry):
        p, taus = carry
        diagonal = start + i
        x = lax.dynamic_index_in_dim(p, i, axis=0, keepdims=False)
        x_below = jnp.where(rows > diagonal, x, 0)
        y = p @ jnp.conj(x_below)
        on_i = lax.dynamic_index_in_dim(p, diagonal, axis=1, keepdims=False)
        d, tau = _reflector(lax.dynamic_index_in_dim(x, diagonal, keepdims=False), jnp.real(y[i]), eps)
        active = i < count
        d, tau = jnp.where(active, d, 1), jnp.where(active, tau, 0)  # a column after the k-th: the identity
        v = jnp.where(rows == diagonal, 1, x_below / d)
        w = jnp.where(cols[:, 0] < i, 0, y / jnp.conj(d) + on_i)  # columns before i hold earlier v's
        p = jnp.where((cols == i) & (rows > diagonal) & active, v, p - w[:, None] * (tau * v))
        return p, taus.at[i].set(tau)

    return lax.fori_loop(0, p.shape[0], step, (p, jnp.zeros(p.shape[0], p.dtype)))


def _apply_block(p, start, taus, c):
    """`H_b^H ... H_1^H` applied to the columns `c` (all transposed, as `_panel`'s), in the
    compact WY form `I - V T V^H` (Schreiber and Van Loan): `T^-1 = diag(1/tau) +
    strict_upper(V^H V)`, an identity reflector (tau 0) taken as `v = 0`, `tau = 1`."""
    cols, rows = jnp.arange(p.shape[0])[:, None], jnp.arange(p.shape[1])
    diagonal = start + cols
    v = jnp.where(rows > diagonal, p, (rows == diagonal).astype(p.dtype)) * (taus != 0)[:, None]
    gram = jnp.conj(v) @ v.T
    t_inv = jnp.where(cols < cols.T, gram, 0) + jnp.diag(1 / jnp.where(taus == 0, 1, taus))
    y = lax.linalg.triangular_solve(t_inv, c @ jnp.conj(v).T, left_side=False, lower=False, conjugate_a=True)
    return c - y @ v


def _factor(a, mode, eps):
    """Nx's reflectors of one matrix, blocked: `(q, reduced, kept)`, `reduced` in LAPACK's
    geqrf form and `kept` whether a column left as it is has something below the diagonal.

    Nx multiplies `q` and `r` by each m x m reflector in turn; here, as in LAPACK's geqrf,
    panels of `BLOCK` columns are reduced with rank-1 updates and each panel's reflectors
    reach the columns after it as matrix products, and `q` is LAPACK's orgqr of the
    reflectors (`householder_product`). Nx reduces `min(m - 1, n)` columns (it pads a wide
    matrix with zero rows, Golub and Van Loan 5.4.1, whose extra columns have nothing below
    the diagonal, and stops before the last column of a square one): so does this.

    The panels are one loop of one shape (each over every row, the later columns updated
    under a mask), so that XLA compiles one panel whatever the size: unrolled, each panel
    took a quarter of a second to compile."""
    m, n = a.shape
    k = max(min(m - 1, n), 0)
    panels = -(-k // BLOCK)
    a_t = jnp.pad(a.T, ((0, max(panels * BLOCK - n, 0)), (0, 0)))  # whole panels: zero columns after a's
    later = jnp.arange(a_t.shape[0])[:, None]

    def reduce_panel(index, carry):
        a_t, taus = carry
        start = index * BLOCK
        panel, tau = _panel(lax.dynamic_slice_in_dim(a_t, start, BLOCK), start, k - start, eps)
        updated = _apply_block(panel, start, tau, a_t)
        a_t = lax.dynamic_update_slice_in_dim(jnp.where(later >= start + BLOCK, updated, a_t), panel, start, axis=0)
        return a_t, lax.dynamic_update_slice_in_dim(taus, tau, start, axis=0)

    taus = jnp.zeros(panels * BLOCK, a.dtype)
    if panels:  # none for a single row or column
        a_t, taus = lax.fori_loop(0, panels, reduce_panel, (a_t, taus))
    taus, a_t = taus[:k], a_t[:n]
    q_cols = n if mode == "reduced" and m > n else m
    reduced = a_t.T
    q = lax.linalg.householder_product(jnp.pad(reduced, ((0, 0), (0, max(q_cols - n, 0))))[:, :q_cols], taus)
    kept = (taus == 0)[:, None] & (jnp.arange(m) > jnp.arange(k)[:, None]) & (a_t[:k] != 0)
    return q, reduced, jnp.any(kept)


def qr(a, mode, eps):
    """Nx's Householder QR of each matrix of `a` (any leading axes): `(q, r)` as
    Nx.LinAlg.qr returns them.

    Nx's r is `q^H a`, below the diagonal too: rounding noise there where a column was
    reflected (here 0), but a column left as it is (small below the diagonal, not 0) keeps
    that part, turned by the later reflectors, so that `q r == a`. Only then is r `q^H a`
    (one branch for the whole batch, so that a batch does not compute both)."""
    factor = functools.partial(_factor, mode=mode, eps=eps)
    for _ in range(a.ndim - 2):
        factor = jax.vmap(factor)
    q, reduced, kept = factor(a)
    r = lax.cond(
        jnp.any(kept),
        lambda: jnp.conj(jnp.swapaxes(q, -1, -2)) @ a,
        lambda: jnp.triu(reduced[..., : q.shape[-1], :]),
    )
    return approximate_zeros(q, eps), approximate_zeros(r, eps)


@functools.partial(jax.jit, static_argnames=("mode", "eps"))
def batched_qr(a, mode: str, eps: float):
    """`qr`, compiled once per shape and options."""
    return qr(a, mode, eps)
