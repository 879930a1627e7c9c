"""Linear algebra (Nx.LinAlg, nbt.linalg): decompose and solve. `Array` implements the
family's methods of the backend contract (`backends/_contract.py`) over `self.xp`.

The family's rule: an op is one of Nx.LinAlg's matrix algorithms (a decomposition, or a
solve), over the last two axes (dot, dot_general and conv are `products`).

Every method works on the last two axes and batches over the others. Decompositions
with several results take `part`, the index of the result to return. Both backends
compute with XLA's linear algebra (the NumPy backend on the host CPU), so a singular or
indefinite matrix gives Nx's NaNs and infinities on every path, where NumPy's LAPACK
wrappers raise; QR is Nx's own Householder algorithm (`_linalg_qr`, over JAX), as are eigh
and SVD when their options are given (Nx's Jacobi and QDWH, `_linalg_eigh_svd`), and Cholesky is
Nx's own loop (`_linalg_cholesky`: a zero pivot gives a zero column, not NaN).
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import jax.scipy.linalg
import numpy as np

from .._cast import cast
from . import _base, _linalg_cholesky, _linalg_eigh_svd, _linalg_qr
from ._base import ArrayBase


@jax.custom_vjp
def _cholesky(a):
    """Nx's Cholesky factor (`_linalg_cholesky`), with Nx's gradient (Nx.LinAlg.Cholesky.cholesky_grad):
    the gradient lands on the lower triangle's terms as Nx writes them, not symmetrized."""
    return _linalg_cholesky.cholesky(a)


def _cholesky_forward(a):
    lower = _linalg_cholesky.cholesky(a)
    return lower, lower


def _cholesky_backward(lower, g):
    n = lower.shape[-1]
    num = jnp.swapaxes(lower, -1, -2) @ jnp.tril(g)
    phi = jnp.tril(num / (jnp.eye(n, dtype=lower.real.dtype) + 1))
    bm = jax.lax.linalg.triangular_solve(lower, phi, left_side=True, lower=True, transpose_a=True)
    return (jax.lax.linalg.triangular_solve(jnp.conj(lower), bm, left_side=False, lower=True),)


_cholesky.defvjp(_cholesky_forward, _cholesky_backward)


@jax.custom_vjp
def _invert(a):
    """XLA's inverse, with Nx's gradient `-adjoint(inv) @ g @ adjoint(inv)` (ChainRules'
    matrix-inversion rule: for complex matrices, the conjugate of JAX's)."""
    return _nx_invert(a)


def _invert_forward(a):
    inverse = _nx_invert(a)
    return inverse, inverse


def _invert_backward(inverse, g):
    adjoint = jnp.conj(jnp.swapaxes(inverse, -1, -2))
    return (-(adjoint @ g @ adjoint),)


_invert.defvjp(_invert_forward, _invert_backward)


@functools.partial(jax.custom_vjp, nondiff_argnums=(1, 2, 3))
def _qr_part(a, mode, eps, part):
    """Part `part` (q or r) of Nx's Householder QR, with Nx's gradient (Nx.LinAlg.QR.qr_grad,
    arXiv:2009.10071 equation 3); linear in (dq, dr), so each part pulls back its own."""
    return _linalg_qr.batched_qr(a, mode, eps)[part]


def _qr_forward(a, mode, eps, part):
    q, r = _linalg_qr.batched_qr(a, mode, eps)
    return (q, r)[part], (q, r)


def _qr_backward(mode, eps, part, residuals, g):
    q, r = residuals
    dq, dr = (g, jnp.zeros_like(r)) if part == 0 else (jnp.zeros_like(q), g)

    def adjoint(x):
        return jnp.conj(jnp.swapaxes(x, -1, -2))

    m = r @ adjoint(dr) - adjoint(dq) @ q
    m_ltu = jnp.tril(m) + adjoint(jnp.tril(m, -1))
    return ((dq + q @ m_ltu) @ adjoint(jnp.linalg.inv(r)),)


_qr_part.defvjp(_qr_forward, _qr_backward)


def _svd(a, full_matrices, max_iter):
    if max_iter is not None:  # Nx's QDWH
        return _linalg_eigh_svd.batched_svd(a, full_matrices, max_iter)
    return jnp.linalg.svd(a, full_matrices=full_matrices)


@functools.partial(jax.custom_vjp, nondiff_argnums=(1, 2, 3))
def _svd_part(a, full_matrices, max_iter, part):
    """Part `part` (u, s or vt) of the SVD (LAPACK's, or Nx's QDWH given `max_iter`), with
    Nx's gradient (Nx.LinAlg.SVD.svd_grad, after Townsend's derivation); linear in
    (du, ds, dvt), so each part pulls back its own."""
    return _svd(a, full_matrices, max_iter)[part]


def _svd_forward(a, full_matrices, max_iter, part):
    u, s, vt = _svd(a, full_matrices, max_iter)
    return (u, s, vt)[part], (u, s, vt)


def _svd_backward(full_matrices, max_iter, part, residuals, g):
    u, s, vt = residuals
    cotangents = [jnp.zeros_like(u), jnp.zeros_like(s), jnp.zeros_like(vt)]
    cotangents[part] = g
    du, ds, dvt = cotangents
    m, n, k = u.shape[-2], vt.shape[-1], s.shape[-1]
    u, du, vt, dvt = u[..., :k], du[..., :k], vt[..., :k, :], dvt[..., :k, :]

    def adjoint(x):
        return jnp.conj(jnp.swapaxes(x, -1, -2))

    eye_k = jnp.eye(k, dtype=s.dtype)
    s_sq = s**2
    sub = -(s_sq[..., :, None] - s_sq[..., None, :]) + eye_k
    f = jnp.where(eye_k == 1, 0, 1 / sub)
    s_diag = s[..., :, None] * eye_k
    s_inv = (1 / s)[..., :, None] * eye_k
    ut_du = adjoint(u) @ du - adjoint(du) @ u
    du_part = (u @ (f * ut_du) @ s_diag + (jnp.eye(m) - u @ adjoint(u)) @ du @ s_inv) @ vt
    ds_part = u @ (ds[..., :, None] * eye_k) @ vt
    first = s_diag @ ((vt @ adjoint(dvt) - dvt @ adjoint(vt)) * f) @ vt
    second = s_inv @ dvt @ (jnp.eye(n) - adjoint(vt) @ vt)
    return (du_part + ds_part + u @ (first + second),)


_svd_part.defvjp(_svd_forward, _svd_backward)


def _jax_lu(a, part):
    """Part `part` of `(p, l, u)` with `a == p @ l @ u`, batched, from XLA's LU."""
    packed, _, permutation = jax.lax.linalg.lu(a)
    n = a.shape[-1]
    if part == 0:  # a[permutation] == l @ u, so p has a 1 at (permutation[i], i)
        identity = jax.numpy.eye(n, dtype=a.dtype)
        return jax.numpy.swapaxes(identity[permutation], -1, -2)
    if part == 1:
        return jax.numpy.tril(packed, -1) + jax.numpy.eye(n, dtype=a.dtype)
    return jax.numpy.triu(packed)


def _on_host(xp, fun, a, *args):
    """`fun(a, *args)` (written over jax.numpy): on NumPy data, XLA's implementation on the host CPU."""
    if xp is np:
        with jax.enable_x64(True):
            return np.asarray(fun(jax.device_put(a, jax.devices("cpu")[0]), *args))
    return fun(a, *args)


def _triangular_solve(a, b, left_side, lower, transpose):
    """`op(a) @ x == b` (or `x @ op(a) == b`), `op` the transpose or nothing; `b` a vector or matrices."""
    vector = b.ndim == a.ndim - 1
    if vector:
        b = b[..., :, None] if left_side else b[..., None, :]
    x = jax.lax.linalg.triangular_solve(a, b, left_side=left_side, lower=lower, transpose_a=transpose)
    if vector:
        return x[..., 0] if left_side else x[..., 0, :]
    return x


@functools.partial(jax.custom_vjp, nondiff_argnums=(2, 3, 4))
def _complex_triangular_solve(a, b, left_side, lower, transpose):
    """`_triangular_solve` with Nx's gradient (Nx.Defn.Grad's triangular_solve rule), which
    pulls back through `adjoint(a)` where JAX's pulls back through `transpose(a)`: for complex
    matrices the conjugate of JAX's, as for `_invert`."""
    return _triangular_solve(a, b, left_side, lower, transpose)


def _complex_triangular_solve_forward(a, b, left_side, lower, transpose):
    return jax.vjp(lambda a, b: _triangular_solve(a, b, left_side, lower, transpose), a, b)


def _complex_triangular_solve_backward(left_side, lower, transpose, jax_pullback, g):
    return tuple(jnp.conj(cotangent) for cotangent in jax_pullback(jnp.conj(g)))


_complex_triangular_solve.defvjp(_complex_triangular_solve_forward, _complex_triangular_solve_backward)


def _lapack_dtype(dtype: np.dtype) -> np.dtype:
    """The type a decomposition or solve computes in: LAPACK (NumPy's and XLA's) has no f16,
    bf16 or 8-bit floats, so those compute in f32 on every backend and round to their type."""
    return np.dtype(np.float32) if dtype.itemsize < 4 and dtype.kind != "c" else dtype


def _pinv(a, eps):
    """Nx's pseudo-inverse: singular values below `eps` count as zero (an all-zero matrix gives zeros),
    and so do those within the type's rounding of zero: below `max(m, n) * epsilon` times the
    largest (NumPy's rule), as LAPACK's SVD leaves a rank-deficient f32 matrix zero singular values
    of about 1e-7 of the largest, which Nx's own SVD gives as 0 and which `eps` alone would blow up."""
    u, s, vt = jnp.linalg.svd(a, full_matrices=False)
    noise = jnp.max(s, axis=-1, keepdims=True) * max(a.shape[-2:]) * jnp.finfo(s.dtype).eps
    small = (jnp.abs(s) < eps) | (s <= noise)
    inverse = jnp.where(small, 0, 1 / jnp.where(small, 1, s)).astype(s.dtype)
    return jnp.matmul(jnp.conj(jnp.swapaxes(vt, -1, -2)), inverse[..., None] * jnp.conj(jnp.swapaxes(u, -1, -2)))


def _nx_invert(a):
    """XLA's LU inverse, with Nx's rule for a singular matrix: where `|determinant|` is at most
    1000 times the type's smallest normal number, the inverse is all NaN (Nx.LinAlg.invert),
    rather than whatever mix of NaN and Inf the LU's divisions by zero leave on this CPU."""
    lu, pivots, _ = jax.lax.linalg.lu(a)  # one LU: its diagonal's product is |det|, its solve the inverse
    singular = jnp.abs(jnp.prod(jnp.diagonal(lu, axis1=-2, axis2=-1), axis=-1)) <= jnp.finfo(a.dtype).tiny * 1.0e3
    inverse = jax.scipy.linalg.lu_solve((lu, pivots), jnp.broadcast_to(jnp.eye(a.shape[-1], dtype=a.dtype), a.shape))
    return jnp.where(singular[..., None, None], jnp.nan, inverse).astype(a.dtype)


def _matrix_rank(a, eps):
    """Nx's rank: the singular values above `eps * max(m, n) * max(singular values)`."""
    s = jnp.linalg.svd(a, compute_uv=False)
    tolerance = eps * max(a.shape[-2:]) * jnp.max(s, axis=-1, keepdims=True)
    return jnp.sum(s > tolerance, axis=-1)


def _decomposition(a, kind: str, part: int, options: dict):
    """Part `part` of decomposition `kind` of `a`, over jax.numpy: XLA's on every backend, so
    a singular or indefinite matrix, NaN or Inf gives NaNs or infinities everywhere, as in Nx
    (NumPy's LAPACK wrappers raise there)."""
    if kind == "cholesky":
        return _cholesky(a)
    if kind == "qr":  # Nx's own Householder QR, for Nx's signs
        return _qr_part(a, options["mode"], options["eps"], part)
    if kind == "svd":  # max_iter given: Nx's QDWH; else LAPACK's, as EXLA's host custom call
        return _svd_part(a, options["full_matrices"], options["max_iter"], part)
    if kind == "eigh":  # eps or max_iter given: Nx's Jacobi; else LAPACK's
        if options["max_iter"] is not None:
            return _linalg_eigh_svd.batched_eigh(a, options["eps"], options["max_iter"])[part]
        return jnp.linalg.eigh(a)[part]
    if kind == "lu":
        return _jax_lu(a, part)
    if kind == "invert":  # Nx's gradient differs from JAX's for complex matrices only
        return _invert(a) if jnp.iscomplexobj(a) else _nx_invert(a)
    if kind == "determinant":
        return jnp.linalg.det(a)
    if kind == "pinv":
        return _pinv(a, options["eps"])
    if kind == "matrix_rank":
        return _matrix_rank(a, options["eps"])
    return jnp.linalg.norm(a, ord=options["ord"], axis=options["axes"], keepdims=options["keep_axes"])


def _solve(a, b):
    """`a @ x == b` for square `a`, `b` a vector or matrices (XLA's LU solve)."""
    vector = b.ndim == a.ndim - 1
    x = jnp.linalg.solve(a, b[..., None] if vector else b)
    return x[..., 0] if vector else x


class Array(ArrayBase):
    def decompose(self, out, tensor, kind, part, options):
        xp, options = self.xp, dict(options)
        a = cast(xp, xp.asarray(tensor.data), _lapack_dtype(np.dtype(options.pop("compute", out.type.dtype))))
        result = _on_host(xp, _decomposition, a, kind, part, options)
        return self._wrap(out, cast(xp, xp.asarray(result), out.type.dtype))

    def solve(self, out, a, b, kind, options):
        xp, options = self.xp, dict(options)
        dtype = _lapack_dtype(out.type.dtype)
        left, right = (cast(xp, xp.asarray(self._as(t, out)), dtype) for t in (a, b))
        if kind == "solve":
            result = _on_host(xp, _solve, left, right)
        else:  # triangular_solve (the other triangle of `a` is never read)
            if options["transform_a"] == "conjugate":
                left = xp.conj(left)
            transpose = options["transform_a"] == "transpose"
            solver = _complex_triangular_solve if dtype.kind == "c" else _triangular_solve
            result = _on_host(xp, solver, left, right, options["left_side"], options["lower"], transpose)
        return self._wrap(out, cast(xp, xp.asarray(result), out.type.dtype))


_base.fill(Array, "linalg")  # checks that every entry of the family has its method here
