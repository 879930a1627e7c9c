"""Linear algebra (nbt.linalg). `Interface` is what a backend implements; `Array` implements it over `self.xp`.

Every method works on the last two axes and batches over the others. Decompositions
with several results take `part`, the index of the result to return. Both backends
compute with XLA's linear algebra (the NumPy backend on the host CPU), so a singular or
indefinite matrix gives Nx's NaNs and infinities on every path, where NumPy's LAPACK
wrappers raise; QR is Nx's own Householder algorithm (`_nx_linalg`, over JAX), and so are
eigh and SVD when their options are given (Nx's Jacobi and QDWH, `_nx_eigh_svd`).
"""

from __future__ import annotations

import abc

import jax
import jax.numpy as jnp
import numpy as np

from ..._tensor import Template, Tensor
from .._cast import cast
from . import _nx_eigh_svd, _nx_linalg
from ._base import ArrayBase


class Interface(abc.ABC):
    """Linear algebra (nbt.linalg)."""

    @abc.abstractmethod
    def decompose(self, out: Template, tensor: Tensor, kind: str, part: int, options: tuple) -> Tensor:
        """Result `part` of decomposition `kind` (cholesky, qr, svd, eigh, lu, invert,
        determinant, pinv, matrix_rank, norm) of `tensor`; `options` as (name, value) pairs."""

    @abc.abstractmethod
    def solve(self, out: Template, a: Tensor, b: Tensor, kind: str, options: tuple) -> Tensor:
        """Solves `a x = b` (`kind`: solve or triangular_solve)."""


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


def _lapack_dtype(dtype: np.dtype) -> np.dtype:
    """The type a decomposition or solve computes in: LAPACK (NumPy's and XLA's) has no f16,
    bf16 or 8-bit floats, so those compute in f32 on every backend and round to their type."""
    return np.dtype(np.float32) if dtype.itemsize < 4 and dtype.kind != "c" else dtype


def _pinv(a, eps):
    """Nx's pseudo-inverse: singular values below `eps` count as zero (an all-zero matrix gives zeros).
    The SVD is Nx's (its default 100 iterations), which gives a rank-deficient matrix exact zero
    singular values where LAPACK's leave rounding noise above `eps` to blow up."""
    u, s, vt = _nx_eigh_svd.batched_svd(a, False, 100)
    small = jnp.abs(s) < eps
    inverse = jnp.where(small, 0, 1 / jnp.where(small, 1, s)).astype(s.dtype)
    return jnp.matmul(jnp.conj(jnp.swapaxes(vt, -1, -2)), inverse[..., None] * jnp.conj(jnp.swapaxes(u, -1, -2)))


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
        return jnp.linalg.cholesky(a)
    if kind == "qr":  # Nx's own Householder QR, for Nx's signs
        return _nx_linalg.batched_qr(a, options["mode"], options["eps"])[part]
    if kind == "svd":  # max_iter given: Nx's QDWH; else LAPACK's, as EXLA's host custom call
        if options["max_iter"] is not None:
            return _nx_eigh_svd.batched_svd(a, options["full_matrices"], options["max_iter"])[part]
        return jnp.linalg.svd(a, full_matrices=options["full_matrices"])[part]
    if kind == "eigh":  # eps or max_iter given: Nx's Jacobi; else LAPACK's
        if options["max_iter"] is not None:
            return _nx_eigh_svd.batched_eigh(a, options["eps"], options["max_iter"])[part]
        return jnp.linalg.eigh(a)[part]
    if kind == "lu":
        return _jax_lu(a, part)
    if kind == "invert":
        return jnp.linalg.inv(a)
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


class Array(ArrayBase, Interface):
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
            result = _on_host(xp, _triangular_solve, left, right, options["left_side"], options["lower"], transpose)
        return self._wrap(out, cast(xp, xp.asarray(result), out.type.dtype))
