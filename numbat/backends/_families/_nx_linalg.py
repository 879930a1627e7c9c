"""Nx 0.13.1's own QR, eigh and SVD algorithms, written over JAX, so that numbat gives
Nx's factors (their order and signs) on every backend and inside defn.

A decomposition's signs (and, for repeated eigenvalues, its basis) are not fixed by the
mathematics: each algorithm picks its own. LAPACK's picks differ from Nx's, and no
element-wise rule maps one onto the other (`eigh` of `[[0, 1, 2], [1, 0, 2], [2, 2, 3]]`:
Nx's basis of the eigenvalue -1's plane comes out of its Jacobi rotations), so these are
ports of Nx's algorithms:

* `qr`: Householder reflections with Nx's reflector (`nx/lib/nx/lin_alg/qr.ex`): a column
  whose part below the diagonal has squared norm under `eps` is left as it is, any other
  gets a non-negative diagonal entry; entries with `|x| <= eps` become 0.
* `eigh`: the parallel (Brent-Luk) Jacobi iteration of `nx/lib/nx/lin_alg/block_eigh.ex`,
  sweeps until the off-diagonal norm is under `eps**2` of the Frobenius norm or after
  `max_iter` sweeps; eigenvalues by decreasing magnitude (stable), entries with
  `|x| <= eps` set to 0.
* `svd`: `nx/lib/nx/lin_alg/svd.ex`: the QDWH polar decomposition then `eigh` of the
  Hermitian factor (full matrices), or `eigh` of the Gram matrix (reduced).

Each function takes one matrix; `batched` maps it over leading axes with `jax.vmap`, and
the results are compiled once per shape and options (`jax.jit`).
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
from jax import lax

_EPS = 1.1920929e-07  # Nx.LinAlg.SVD's @eps (f32's machine epsilon)


def _adjoint(x):
    return jnp.conj(x.T) if jnp.iscomplexobj(x) else x.T


def _approximate_zeros(x, eps):
    return jnp.where(jnp.abs(x) <= eps, jnp.zeros((), x.dtype), x)


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
    q, r = _approximate_zeros(q, eps), _approximate_zeros(r, eps)
    if m_in < n_in:
        return q[:m_in, :m_in], r[:m_in, :n_in]
    if mode == "reduced" and m_in > n_in:
        return q[:, :n_in], r[:n_in, :n_in]
    return q, r


# ---------------------------------------------------------------- eigh (Jacobi)


def _rotation(tl, tr, br):
    """The Jacobi rotation (c, s) of each 2x2 block and the two new diagonal entries."""
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
    """XLA's eigh_expander permutation of the rows of two stacked blocks."""
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
    return x + jnp.diag((d - jnp.diagonal(x)).astype(x.dtype))


def _sweep(blocks):
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
    def sq(*blocks):
        return sum(jnp.sum(jnp.abs(b) ** 2) for b in blocks)

    off = sq(
        _put_diagonal(tl, jnp.zeros(tl.shape[0], tl.dtype)), tr, bl, _put_diagonal(br, jnp.zeros(br.shape[0], br.dtype))
    )
    return sq(tl, tr, bl, br), off


def eigh(matrix, eps, max_iter):
    """Nx's Jacobi eigendecomposition of one Hermitian matrix: `(values, vectors)`."""
    n = matrix.shape[0]
    if n == 1:
        return jnp.real(jnp.diagonal(matrix)), jnp.ones((1, 1), matrix.dtype)
    mid = (n + 1) // 2
    tl, tr, bl, br = matrix[:mid, :mid], matrix[:mid, mid:], matrix[mid:, :mid], matrix[mid:, mid:]
    if n % 2:
        tr, bl, br = jnp.pad(tr, ((0, 0), (0, 1))), jnp.pad(bl, ((0, 1), (0, 0))), jnp.pad(br, ((0, 1), (0, 1)))
    eye, zeros = jnp.eye(mid, dtype=matrix.dtype), jnp.zeros((mid, mid), matrix.dtype)
    blocks = (tl, tr, bl, br, eye, zeros, zeros, eye)
    frob, off = _norms(tl, tr, bl, br)

    def cond(state):
        _, frob, off, i = state
        return (off > eps**2 * frob) & (i < max_iter)

    def body(state):
        blocks, _, _, i = state
        blocks = lax.fori_loop(0, n, lambda _, b: _sweep(b), blocks)
        return (blocks, *_norms(*blocks[:4]), i + 1)

    blocks, _, _, _ = lax.while_loop(cond, body, (blocks, frob, off, jnp.int32(0)))
    tl, _, _, br, v_tl, v_tr, v_bl, v_br = blocks
    w = jnp.real(jnp.concatenate([jnp.diagonal(tl), jnp.diagonal(br)]))[:n]
    v = _adjoint(jnp.block([[v_tl, v_tr], [v_bl, v_br]]))[:n, :n]
    order = jnp.argsort(jnp.abs(w), descending=True, stable=True)
    return _approximate_zeros(w[order], eps), _approximate_zeros(v[:, order], eps)


# ---------------------------------------------------------------- SVD (QDWH)


def _triangular_solve(a, b, lower):
    return jax.scipy.linalg.solve_triangular(a, b, lower=lower)


def _qdwh_qr(u, x, a, b, c):
    m = x.shape[0]
    y = jnp.concatenate([jnp.sqrt(c) * u, jnp.eye(u.shape[1], dtype=u.dtype)], axis=0)
    q, _ = qr(y, "reduced", 1.0e-10)
    e = b / c
    return e * u + (a - e) / jnp.sqrt(c) * (q[:m] @ _adjoint(q[m:]))


def _qdwh_cholesky(u, x, a, b, c):
    y = jnp.linalg.cholesky(c * (_adjoint(u) @ u) + jnp.eye(u.shape[1], dtype=u.dtype))
    z = jnp.conj(_triangular_solve(jnp.conj(y), u.T, lower=True))
    z = _adjoint(_triangular_solve(_adjoint(y), z, lower=False))
    e = b / c
    return e * u + (a - e) * z


def _qdwh(x, max_iter):
    """The polar decomposition `x == u @ h` by QDWH (Nx's port of JAX's)."""
    alpha = jnp.sqrt(jnp.linalg.norm(x, ord=1)) * jnp.sqrt(jnp.linalg.norm(x, ord=jnp.inf))
    u = x / alpha.astype(x.dtype)
    tol_l = 5 * _EPS
    tol_norm = jnp.cbrt(jnp.float32(tol_l))
    original = u.dtype
    u = u.astype(jnp.promote_types(original, jnp.float32))  # f16 is too coarse for QDWH, as in Nx
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
    u, r = qr(u, "reduced", 1.0e-10)
    diagonal = jnp.real(jnp.diagonal(r))
    return u * jnp.where(diagonal == 0, 0, jnp.where(diagonal < 0, -1, 1)).astype(u.dtype)


def _svd_square(a, max_iter):
    n = a.shape[1]
    u, h = _qdwh(a, max_iter)
    s, v = eigh((h + _adjoint(h)) / 2, 1.0e-4, max_iter)
    sign = jnp.where(s < 0, -1, 1).astype(s.dtype)
    v, s = v * sign.astype(v.dtype), s * sign
    order = jnp.argsort(s, descending=True, stable=True)
    s_out, v_out = s[order], v[:, order]
    u_out = u @ v_out
    deficient = s[0] < n * _EPS * s_out[0]
    u_out = lax.cond(deficient, _correct_rank_deficiency, lambda u: u, u_out)
    return u_out, s_out, v_out


def _svd_full(a, max_iter):
    m, n = a.shape
    if m == n:
        return _svd_square(a, max_iter)
    q_full, a_full = qr(a, "complete", 1.0e-10)
    u, s, v = _svd_square(a_full[:n], max_iter)
    return jnp.concatenate([q_full[:, :n] @ u, q_full[:, n:]], axis=-1), s, v


def _svd_reduced(a, max_iter):
    n = a.shape[1]
    s_sq, v = eigh(_adjoint(a) @ a, 1.0e-4, max_iter)
    s = jnp.sqrt(jnp.maximum(s_sq, 0))
    order = jnp.argsort(s, descending=True, stable=True)
    s, v = s[order], v[:, order]
    s_inv = jnp.where(s > n * _EPS * s[0], 1 / jnp.where(s == 0, 1, s), 0)
    return (a @ v) * s_inv[None, :].astype(a.dtype), s, v


def _svd_zeros(a, full_matrices):
    m, n = a.shape
    k = min(m, n)
    u_cols, v_rows = (m, n) if full_matrices else (k, k)
    real = jnp.real(a).dtype
    return jnp.eye(m, u_cols, dtype=a.dtype), jnp.zeros(k, real), jnp.eye(v_rows, n, dtype=a.dtype)


def svd(a, full_matrices, max_iter):
    """Nx's SVD of one matrix: `(u, s, vt)` with `s` decreasing."""
    m, n = a.shape
    flipped = m < n
    tall = _adjoint(a) if flipped else a

    def nonzero(tall):
        u, s, v = (_svd_full if full_matrices else _svd_reduced)(tall, max_iter)
        return (v, s, _adjoint(u)) if flipped else (u, s, _adjoint(v))

    return lax.cond(jnp.all(a == 0), lambda _: _svd_zeros(a, full_matrices), nonzero, tall)


@functools.partial(jax.jit, static_argnames=("kind", "options"))
def batched(a, kind: str, options: tuple):
    """Nx's `kind` ("qr", "eigh" or "svd") of each matrix of `a` (any leading axes), with
    `options` as (name, value) pairs; a tuple of the results, batched as `a`."""
    options = dict(options)
    if kind == "qr":
        fun = functools.partial(qr, mode=options["mode"], eps=options["eps"])
    elif kind == "eigh":
        fun = functools.partial(eigh, eps=options["eps"], max_iter=options["max_iter"])
    else:
        fun = functools.partial(svd, full_matrices=options["full_matrices"], max_iter=options["max_iter"])
    for _ in range(a.ndim - 2):
        fun = jax.vmap(fun)
    return fun(a)
