"""Nx 0.13.1's own Cholesky factor (`nx/lib/nx/lin_alg/cholesky.ex`), written over JAX, so
that numbat gives Nx's factor on every backend, inside defn and in multivariate normal draws.

Nx runs the Cholesky-Banachiewicz recurrence on the lower triangle (EXLA compiles the same
defn): `l_jj = sqrt(a_jj - sum_k |l_jk|^2)` and `l_ij = (a_ij - sum_k l_ik conj(l_jk)) /
(l_jj + eps)` for `i > j`, then entries with `|x| <= eps` become 0. A positive semi-definite
matrix with a zero pivot thus gets a zero column (`[[25, 25], [25, 25]]` is `[[5, 0], [5, 0]]`)
where LAPACK's potrf stops with NaN, and the upper triangle is never read (XLA's symmetrizes).
The entries are computed a column at a time: each is Nx's formula with its sum over the
columns already done.
"""

from __future__ import annotations

import jax.numpy as jnp
from jax import lax

EPS = 1.0e-10


def cholesky(a, eps: float = EPS):
    """Nx's lower Cholesky factor of the last two axes of `a` (a float or complex array)."""
    n = a.shape[-1]
    rows = jnp.arange(n)
    eps_ = jnp.asarray(eps, a.real.dtype)

    def column(j, lower):
        # Columns j and on are still 0, so the sums run over the columns before j.
        row_j = lax.dynamic_index_in_dim(lower, j, axis=-2, keepdims=False)
        sums = jnp.einsum("...ik,...k->...i", lower, jnp.conj(row_j), precision=lax.Precision.HIGHEST)
        a_j = lax.dynamic_index_in_dim(a, j, axis=-1, keepdims=False)
        diagonal = jnp.sqrt(lax.dynamic_index_in_dim(a_j - sums, j, axis=-1, keepdims=True))
        # Behind a barrier, XLA cannot turn the division by a broadcast pivot into a product
        # with its reciprocal, which rounds differently from Nx's division.
        pivot = lax.optimization_barrier(jnp.broadcast_to(diagonal + eps_, a_j.shape))
        below = (a_j - sums) / pivot
        values = jnp.where(rows == j, diagonal, jnp.where(rows > j, below, jnp.zeros((), a.dtype)))
        return lax.dynamic_update_index_in_dim(lower, values[..., None], j, axis=-1)

    lower = lax.fori_loop(0, n, column, jnp.zeros_like(a))
    return jnp.where(jnp.abs(lower) <= eps_, jnp.zeros((), a.dtype), lower)  # Nx's approximate_zeros
