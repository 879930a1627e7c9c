"""Nx 0.13.1's own eigh and SVD algorithms, written over JAX: what `nbt.linalg.eigh` and
`nbt.linalg.svd` run when their `eps`/`max_iter` options are given (left out, both are
LAPACK's, as EXLA's host custom calls).

* `eigh`: the parallel (Brent-Luk) Jacobi iteration of `nx/lib/nx/lin_alg/block_eigh.ex`:
  sweeps until the off-diagonal squared norm is at most `eps**2` of the squared Frobenius
  norm or after `max_iter` sweeps; eigenvalues by decreasing magnitude (stable), entries
  with `|x| <= eps` set to 0. An off-diagonal entry under 1e-5 of its diagonal entries is
  not rotated away, so the vectors are accurate to about `max(eps, 1e-5)` of the matrix's
  norm in any type.
* `svd`: `nx/lib/nx/lin_alg/svd.ex`: with full matrices, the QDWH polar decomposition (at
  most `max_iter` iterations) then `eigh` of its Hermitian factor; else `eigh` of the Gram
  matrix `adjoint(a) @ a`. Both `eigh` calls take Nx's default `eps` (1e-4) and `max_iter`.

Each function takes one matrix; `batched_eigh` and `batched_svd` map it over leading axes
with `jax.vmap`, compiled once per shape and type (`jax.jit`: the options are arguments).
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ._linalg_qr import approximate_zeros, qr

_EPS = 1.1920929e-07  # Nx.LinAlg.SVD's @eps (f32's machine epsilon)
_QR_EPS = 1.0e-10  # Nx.LinAlg.qr's default eps, which svd.ex's qr calls take
_EIGH_EPS = 1.0e-4  # Nx.LinAlg.eigh's default eps, which svd.ex's eigh calls take


def _adjoint(x):
    return jnp.conj(x.T) if jnp.iscomplexobj(x) else x.T


# ---------------------------------------------------------------- eigh (Jacobi)


def _rotation(tl, tr, br):
    """Nx's `calc_rot`: the Jacobi rotation (c, s) of each 2x2 block and the two new
    diagonal entries."""
    complex_ = jnp.iscomplexobj(tl)
    tl, tr, br = jnp.real(jnp.diagonal(tl)), jnp.diagonal(tr), jnp.real(jnp.diagonal(br))
    if complex_:
        abs_tr = jnp.abs(tr)
        w = jnp.where(abs_tr == 0, jnp.ones((), tr.dtype), jnp.conj(tr) / jnp.where(abs_tr == 0, 1, abs_tr))
        tr = abs_tr
    zero = tr == 0
    tau = jnp.where(zero, 0, (br - tl) / (2 * jnp.where(zero, 1, tr)))
    t = jnp.sqrt(1 + tau**2)
    t = 1 / (tau + jnp.where(tau >= 0, t, -t))
    t = jnp.where(jnp.abs(tr) <= 1.0e-5 * jnp.minimum(jnp.abs(br), jnp.abs(tl)), jnp.zeros((), t.dtype), t)
    c = 1.0 / jnp.sqrt(1.0 + t**2)
    s = (t * c).astype(w.dtype) * w if complex_ else t * c
    return tl - t * tr, br + t * tr, c, s


def _permute_rows(top, bottom):
    """Nx's `permute_rows_in_col` (XLA's eigh_expander) of two stacked blocks."""
    k = top.shape[0]
    if k == 1:
        return top, bottom
    return (
        jnp.concatenate([top[:1], bottom[:1], top[1 : k - 1]], axis=0),
        jnp.concatenate([bottom[1:], top[k - 1 :]], axis=0),
    )


def _permute_cols(left, right):
    top, bottom = _permute_rows(left.T, right.T)
    return top.T, bottom.T


def _put_diagonal(x, d):
    return jnp.where(jnp.eye(x.shape[0], dtype=bool), d.astype(x.dtype), x)


def _sweep(blocks):
    """One step of Nx's `perform_sweeps`: rotate every 2x2 block, then permute."""
    tl, tr, bl, br, v_tl, v_tr, v_bl, v_br = blocks
    rt1, rt2, c, s = _rotation(tl, tr, br)
    c_v, s_v, c_h, s_h = c[:, None], s[:, None], c[None, :], s[None, :]
    s_v_conj = jnp.conj(s_v)
    s_h_conj = s_v_conj.T
    tl, tr, bl, br = tl * c_v - bl * s_v_conj, tr * c_v - br * s_v_conj, tl * s_v + bl * c_v, tr * s_v + br * c_v
    tl, tr, bl, br = tl * c_h - tr * s_h, tl * s_h_conj + tr * c_h, bl * c_h - br * s_h, bl * s_h_conj + br * c_h
    zeros = jnp.zeros(c.shape, tl.dtype)
    tl, tr, bl, br = _put_diagonal(tl, rt1), _put_diagonal(tr, zeros), _put_diagonal(bl, zeros), _put_diagonal(br, rt2)
    tl, tr = _permute_cols(tl, tr)
    bl, br = _permute_cols(bl, br)
    tl, bl = _permute_rows(tl, bl)
    tr, br = _permute_rows(tr, br)
    v_tl, v_tr, v_bl, v_br = (
        v_tl * c_v - v_bl * s_v_conj,
        v_tr * c_v - v_br * s_v_conj,
        v_tl * s_v + v_bl * c_v,
        v_tr * s_v + v_br * c_v,
    )
    v_tl, v_bl = _permute_rows(v_tl, v_bl)
    v_tr, v_br = _permute_rows(v_tr, v_br)
    return tl, tr, bl, br, v_tl, v_tr, v_bl, v_br


def _norms(tl, tr, bl, br):
    """Nx's `norms`: the squared Frobenius norm and the squared off-diagonal norm."""

    def squared(*blocks):
        return jnp.sum(sum(jnp.abs(b) ** 2 for b in blocks))

    zeros = jnp.zeros(tl.shape[0], tl.dtype)
    return squared(tl, tr, bl, br), squared(_put_diagonal(tl, zeros), tr, bl, _put_diagonal(br, zeros))


def eigh(matrix, eps, max_iter):
    """Nx's Jacobi eigendecomposition of one Hermitian matrix: `(values, vectors)`."""
    n = matrix.shape[0]
    if n == 1:  # as Nx: no iteration and no approximate zeros
        return jnp.real(jnp.diagonal(matrix)), jnp.ones((1, 1), matrix.dtype)
    mid = (n + 1) // 2
    tl, tr, bl, br = matrix[:mid, :mid], matrix[:mid, mid:], matrix[mid:, :mid], matrix[mid:, mid:]
    if n % 2:
        tr, bl, br = jnp.pad(tr, ((0, 0), (0, 1))), jnp.pad(bl, ((0, 1), (0, 0))), jnp.pad(br, ((0, 1), (0, 1)))
    eye, zeros = jnp.eye(mid, dtype=matrix.dtype), jnp.zeros((mid, mid), matrix.dtype)
    blocks = (tl, tr, bl, br, eye, zeros, zeros, eye)

    def cond(state):
        _, frob, off, i = state
        return (off > jnp.square(jnp.asarray(eps)).astype(frob.dtype) * frob) & (i < max_iter)  # Nx: eps**2 a number

    def body(state):
        blocks, _, _, i = state
        blocks = lax.fori_loop(0, n, lambda _, b: _sweep(b), blocks)
        return (blocks, *_norms(*blocks[:4]), i + 1)

    blocks, _, _, _ = lax.while_loop(cond, body, (blocks, *_norms(tl, tr, bl, br), jnp.int32(0)))
    tl, _, _, br, v_tl, v_tr, v_bl, v_br = blocks
    w = jnp.real(jnp.concatenate([jnp.diagonal(tl), jnp.diagonal(br)]))[:n]
    v = _adjoint(jnp.block([[v_tl, v_tr], [v_bl, v_br]]))[:n, :n]
    order = jnp.argsort(jnp.abs(w), descending=True, stable=True)
    return approximate_zeros(w[order], eps), approximate_zeros(v[:, order], eps)


# ---------------------------------------------------------------- SVD (QDWH)


def _qdwh_qr(u, x, a, b, c):
    m = x.shape[0]
    y = jnp.concatenate([jnp.sqrt(c) * u, jnp.eye(u.shape[1], dtype=u.dtype)], axis=0)
    q, _ = qr(y, "reduced", _QR_EPS)
    e = b / c
    return e * u + (a - e) / jnp.sqrt(c) * (q[:m] @ _adjoint(q[m:]))


def _qdwh_cholesky(u, x, a, b, c):
    y = jnp.linalg.cholesky(c * (_adjoint(u) @ u) + jnp.eye(u.shape[1], dtype=u.dtype))
    z = jnp.conj(jax.scipy.linalg.solve_triangular(jnp.conj(y), u.T, lower=True))
    z = _adjoint(jax.scipy.linalg.solve_triangular(_adjoint(y), z, lower=False))
    e = b / c
    return e * u + (a - e) * z


def _qdwh(x, max_iter):
    """Nx's `qdwh`: the polar decomposition `x == u @ h` by at most `max_iter` iterations."""
    alpha = jnp.sqrt(jnp.linalg.norm(x, ord=1)) * jnp.sqrt(jnp.linalg.norm(x, ord=jnp.inf))
    u = x / alpha.astype(x.dtype)
    tol_l = 5 * _EPS
    tol_norm = jnp.cbrt(jnp.float32(tol_l))
    original = u.dtype
    u = u.astype(jnp.promote_types(original, jnp.float32))  # Nx's min_precision_type
    f32 = jnp.float32

    def cond(state):
        _, _, i, unconverged = state
        return unconverged & (i <= max_iter)

    def body(state):
        u, l, i, _ = state
        l2 = jnp.where(l**2 < _EPS, f32(_EPS), l**2)  # keeps dd finite, as in Nx
        dd = jnp.cbrt(4.0 * (1.0 / l2 - 1.0) / l2)
        sqd = jnp.sqrt(1.0 + dd)
        a = sqd + jnp.sqrt(8.0 - 4.0 * dd + 8.0 * (2.0 - l2) / (l2 * sqd)) / 2
        b = (a - 1.0) ** 2 / 4.0
        c = a + b - 1.0
        l = l * (a + b * l2) / (1.0 + c * l2)
        new = lax.cond(c > 100, _qdwh_qr, _qdwh_cholesky, u, x.astype(u.dtype), a, b, c)
        unconverged = (jnp.abs(1.0 - l) > tol_l) | (jnp.linalg.norm(new - u) > tol_norm)
        return new, l, i + 1, unconverged

    u, _, _, _ = lax.while_loop(cond, body, (u, f32(_EPS), jnp.int32(1), jnp.bool_(True)))
    u = u.astype(original)
    u = 1.5 * u - 0.5 * (u @ (_adjoint(u) @ u))
    h = _adjoint(u) @ x
    return u, (h + _adjoint(h)) / 2


def _correct_rank_deficiency(u):
    u, r = qr(u, "reduced", _QR_EPS)
    diagonal = jnp.real(jnp.diagonal(r))
    return u * jnp.where(diagonal == 0, 0, jnp.where(diagonal < 0, -1, 1)).astype(u.dtype)


def _svd_square(a, max_iter):
    """Nx's `svd_tall_and_square` of a square matrix."""
    n = a.shape[1]
    u, h = _qdwh(a, max_iter)
    s, v = eigh((h + _adjoint(h)) / 2, _EIGH_EPS, max_iter)
    sign = jnp.where(s < 0, -1, 1).astype(s.dtype)
    v, s = v * sign.astype(v.dtype), s * sign
    order = jnp.argsort(s, descending=True, stable=True)
    s_out, v_out = s[order], v[:, order]
    u_out = u @ v_out
    deficient = s[0] < n * _EPS * s_out[0]
    return lax.cond(deficient, _correct_rank_deficiency, lambda u: u, u_out), s_out, v_out


def _svd_full(a, max_iter):
    m, n = a.shape
    if m == n:
        return _svd_square(a, max_iter)
    q_full, a_full = qr(a, "complete", _QR_EPS)
    u, s, v = _svd_square(a_full[:n], max_iter)
    return jnp.concatenate([q_full[:, :n] @ u, q_full[:, n:]], axis=-1), s, v


def _svd_reduced(a, max_iter):
    """Nx's `svd_non_full`: eigh of the Gram matrix."""
    n = a.shape[1]
    s_sq, v = eigh(_adjoint(a) @ a, _EIGH_EPS, max_iter)
    s = jnp.sqrt(jnp.maximum(s_sq, 0))
    order = jnp.argsort(s, descending=True, stable=True)
    s, v = s[order], v[:, order]
    s_inv = jnp.where(s > n * _EPS * s[0], 1 / jnp.where(s == 0, 1, s), 0)
    return (a @ v) * s_inv[None, :].astype(a.dtype), s, v


def _svd_zeros(a, full_matrices):
    m, n = a.shape
    k = min(m, n)
    u_cols, v_rows = (m, n) if full_matrices else (k, k)
    return jnp.eye(m, u_cols, dtype=a.dtype), jnp.zeros(k, jnp.real(a).dtype), jnp.eye(v_rows, n, dtype=a.dtype)


def svd(a, full_matrices, max_iter):
    """Nx's SVD of one matrix: `(u, s, vt)` with `s` decreasing."""
    m, n = a.shape
    flipped = m < n
    tall = _adjoint(a) if flipped else a

    def nonzero(tall):
        u, s, v = (_svd_full if full_matrices else _svd_reduced)(tall, max_iter)
        return (v, s, _adjoint(u)) if flipped else (u, s, _adjoint(v))

    return lax.cond(jnp.all(a == 0), lambda _: _svd_zeros(a, full_matrices), nonzero, tall)


def _batched(fun, a, *options):
    for _ in range(a.ndim - 2):
        fun = jax.vmap(fun, in_axes=(0, *(None for _ in options)))
    return fun(a, *options)


@jax.jit
def _batched_eigh(a, eps, max_iter):
    return _batched(eigh, a, eps, max_iter)


@functools.partial(jax.jit, static_argnames="full_matrices")
def _batched_svd(a, max_iter, full_matrices):
    return _batched(lambda a, max_iter: svd(a, full_matrices, max_iter), a, max_iter)


def _count(max_iter: int):
    """`max_iter` as the loops' s32 counter (a larger bound is never reached either)."""
    return np.int32(min(max_iter, np.iinfo(np.int32).max))


def batched_eigh(a, eps: float, max_iter: int):
    """Nx's `(values, vectors)` of each matrix of `a` (any leading axes), batched as `a`;
    compiled once per shape and type, whatever the options."""
    return _batched_eigh(a, np.float64(eps), _count(max_iter))


def batched_svd(a, full_matrices: bool, max_iter: int):
    """Nx's `(u, s, vt)` of each matrix of `a` (any leading axes), batched as `a`."""
    return _batched_svd(a, _count(max_iter), full_matrices=full_matrices)
