"""Linear algebra (nbt.linalg). `Interface` is what a backend implements; `Array` implements it over `self.xp`.

Every method works on the last two axes and batches over the others. Decompositions
with several results take `part`, the index of the result to return. LU has no NumPy
implementation, so the NumPy backend computes it with JAX (XLA's LU) on the host.
"""

from __future__ import annotations

import abc
import typing

import jax
import numpy as np

from ._base import ArrayBase

if typing.TYPE_CHECKING:
    from ..._tensor import Tensor
    from .._abstract import Template


class Interface(abc.ABC):
    """Linear algebra (nbt.linalg)."""

    @abc.abstractmethod
    def decompose(self, out: Template, tensor: Tensor, kind: str, part: int, options: tuple) -> Tensor:
        """Result `part` of decomposition `kind` (cholesky, qr, svd, eigh, lu, invert,
        determinant, pinv, matrix_rank, norm) of `tensor`; `options` as (name, value) pairs."""

    @abc.abstractmethod
    def solve(self, out: Template, a: Tensor, b: Tensor, kind: str, options: tuple) -> Tensor:
        """Solves `a x = b` (`kind`: solve, triangular_solve or least_squares)."""


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


def _lu(xp, a, part):
    if xp is np:
        with jax.enable_x64(True):
            return np.asarray(_jax_lu(jax.device_put(a, jax.devices("cpu")[0]), part))
    return _jax_lu(a, part)


class Array(ArrayBase, Interface):
    def decompose(self, out, tensor, kind, part, options):
        xp, options = self.xp, dict(options)
        a = self.xp.asarray(tensor.data).astype(options.pop("compute", out.type.dtype))
        if kind == "cholesky":
            result = xp.linalg.cholesky(a)
        elif kind == "qr":
            result = xp.linalg.qr(a, mode=options["mode"])[part]
        elif kind == "svd":
            result = xp.linalg.svd(a, full_matrices=options["full_matrices"])[part]
        elif kind == "eigh":
            result = xp.linalg.eigh(a)[part]
        elif kind == "lu":
            result = _lu(xp, a, part)
        elif kind == "invert":
            result = xp.linalg.inv(a)
        elif kind == "determinant":
            result = xp.linalg.det(a)
        elif kind == "pinv":
            result = xp.linalg.pinv(a)
        elif kind == "matrix_rank":
            result = xp.linalg.matrix_rank(a)
        else:  # norm
            result = xp.linalg.norm(a, ord=options["ord"], axis=options["axes"], keepdims=options["keep_axes"])
        return self._wrap(out, xp.asarray(result).astype(out.type.dtype))

    def solve(self, out, a, b, kind, options):
        xp, options = self.xp, dict(options)
        left, right = self._as(a, out), self._as(b, out)
        if kind == "solve":
            vector = right.ndim == left.ndim - 1
            result = xp.linalg.solve(left, right[..., None] if vector else right)
            result = result[..., 0] if vector else result
        elif kind == "least_squares":
            result = xp.linalg.lstsq(left, right)[0]
        else:  # triangular_solve
            if options["transform_a"] == "transpose":
                left, lower = xp.swapaxes(left, -1, -2), not options["lower"]
            else:
                lower = options["lower"]
            left = xp.tril(left) if lower else xp.triu(left)
            vector = right.ndim == left.ndim - 1
            if options["left_side"]:
                result = xp.linalg.solve(left, right[..., None] if vector else right)
                result = result[..., 0] if vector else result
            else:  # x a = b  <=>  a^T x^T = b^T
                result = xp.swapaxes(xp.linalg.solve(xp.swapaxes(left, -1, -2), xp.swapaxes(right, -1, -2)), -1, -2)
        return self._wrap(out, xp.asarray(result).astype(out.type.dtype))
