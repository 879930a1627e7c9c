"""`nbt.linalg`: Nx.LinAlg on numbat tensors. Every function works on the last two axes
(matrices) and batches over the leading ones; integers are computed as f32, as in Nx.

>>> q, r = nbt.linalg.qr(nbt.tensor([[3.0, 0.0], [4.0, 5.0]]))
>>> nbt.all_close(nbt.dot(q, r), nbt.tensor([[3.0, 0.0], [4.0, 5.0]]), atol=1e-5)
numbat.Tensor<
  u8
  1
>
"""

from __future__ import annotations

import numpy as np

from ._core import _names, _types
from ._core._errors import ArgumentError
from ._ops import _dispatch
from ._ops.primitive import elementwise as ew
from ._ops.primitive import linalg as _primitive
from ._ops.primitive.complex import conjugate
from ._ops.primitive.creation import as_type, eye
from ._ops.primitive.math import abs as abs_
from ._ops.primitive.products import dot
from ._ops.primitive.reduction import all as all_
from ._ops.primitive.shape import transpose
from ._tensor import _check


def _matrix(tensor, op: str, square: bool = False):
    tensor = _dispatch.to_tensor(tensor)
    if tensor.rank < 2:
        raise ArgumentError(f"linalg.{op} needs a matrix (rank >= 2), got shape {tensor.shape}")
    if square and tensor.shape[-1] != tensor.shape[-2]:
        raise ArgumentError(f"linalg.{op} needs square matrices, got shape {tensor.shape}")
    if 0 in tensor.shape[-2:]:
        raise ArgumentError(f"linalg.{op} needs non-empty matrices, got shape {tensor.shape}")
    return tensor


def _float(tensor):
    return _types.to_floating(tensor.type)


def _positive(op: str, name: str, value, kind=float):
    """Checks an `eps` (a positive number) or `max_iter` (a positive int) option."""
    valid = isinstance(value, int) if kind is int else isinstance(value, (int, float))
    if isinstance(value, bool) or not valid or value <= 0:
        what = "a positive int" if kind is int else "a positive number"
        raise ArgumentError(f"linalg.{op}: {name} must be {what}, got {value!r}")
    return kind(value)


def _flag(op: str, name: str, value) -> bool:
    """Checks a True/False option (an array's truth is ambiguous; a number is a mistake)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ArgumentError(f"linalg.{op}: {name} must be True or False, got {value!r}")
    return bool(value)


def _real_only(tensor, op: str):
    if tensor.type.is_complex:
        raise ArgumentError(f"linalg.{op} is not implemented for complex inputs (as in Nx), got {tensor.type}")


def cholesky(tensor):
    """The lower-triangular `L` with `L @ adjoint(L) == tensor`, for a symmetric
    positive-definite matrix.

    >>> nbt.linalg.cholesky(nbt.tensor([[4.0, 2.0], [2.0, 5.0]]))
    numbat.Tensor<
      f32[2][2]
      [
        [2.0, 0.0],
        [1.0, 2.0]
      ]
    >
    """
    tensor = _matrix(tensor, "cholesky", square=True)
    return _primitive.decompose(tensor, "cholesky", tensor.shape, _float(tensor))


def qr(tensor, mode="reduced", eps=1.0e-10):
    """The QR decomposition `(q, r)`: `q` orthonormal, `r` upper triangular, `q @ r == tensor`.
    `mode` is "reduced" (`q` is m×k, k = min(m, n)) or "complete" (`q` is m×m).
    Nx's Householder algorithm on every backend, so the signs are Nx's: a column whose part
    below the diagonal has squared norm under `eps` keeps its sign, any other gets a
    positive diagonal entry in `r`; entries of `q` and `r` with `|x| <= eps` become 0.

    >>> q, r = nbt.linalg.qr(nbt.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    >>> q.shape, r.shape
    ((3, 2), (2, 2))
    >>> _, r = nbt.linalg.qr(nbt.tensor([[-2.0, 1.0], [0.0, 3.0]]))
    >>> r
    numbat.Tensor<
      f32[2][2]
      [
        [-2.0, 1.0],
        [0.0, 3.0]
      ]
    >
    """
    tensor = _matrix(tensor, "qr")
    eps = _positive("qr", "eps", eps)
    if not isinstance(mode, str) or mode not in ("reduced", "complete"):
        raise ArgumentError(f'linalg.qr: mode must be "reduced" or "complete", got {mode!r}')
    *batch, m, n = tensor.shape
    k = min(m, n) if mode == "reduced" else m
    type_ = _float(tensor)
    q = _primitive.decompose(tensor, "qr", (*batch, m, k), type_, 0, mode=mode, eps=eps)
    r = _primitive.decompose(tensor, "qr", (*batch, k, n), type_, 1, mode=mode, eps=eps)
    return q, r


def svd(tensor, full_matrices=True, max_iter=None):
    """The singular value decomposition `(u, s, vt)` with `u @ diag(s) @ vt == tensor`;
    singular values in decreasing order. Left out, `max_iter` means LAPACK's SVD (EXLA's
    host custom call), to the type's precision; given, Nx's own QDWH algorithm with at most
    `max_iter` iterations, with Nx's signs and accuracy.

    >>> u, s, vt = nbt.linalg.svd(nbt.tensor([[3.0, 0.0], [0.0, -2.0]]))
    >>> s
    numbat.Tensor<
      f32[2]
      [3.0, 2.0]
    >
    >>> u, s, vt = nbt.linalg.svd(nbt.tensor([[2.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, -1.0]]), max_iter=100)
    >>> u
    numbat.Tensor<
      f32[3][3]
      [
        [0.0, 1.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 0.0, -1.0]
      ]
    >
    """
    tensor = _matrix(tensor, "svd")
    if max_iter is not None:
        max_iter = _positive("svd", "max_iter", max_iter, int)
    *batch, m, n = tensor.shape
    k = min(m, n)
    type_ = _float(tensor)
    full = _flag("svd", "full_matrices", full_matrices)
    options = {"full_matrices": full, "max_iter": max_iter, "compute": type_.dtype}  # s is real, the input not
    u = _primitive.decompose(tensor, "svd", (*batch, m, m if full else k), type_, 0, **options)
    s = _primitive.decompose(tensor, "svd", (*batch, k), _types.to_real(type_), 1, **options)
    vt = _primitive.decompose(tensor, "svd", (*batch, n if full else k, n), type_, 2, **options)
    return u, s, vt


def eigh(tensor, max_iter=None, eps=None):
    """Eigenvalues and eigenvectors (columns) of a symmetric (Hermitian) matrix, both of the
    input's floating type (complex eigenvalues, real-valued, for a complex input, as Nx). Left out,
    `max_iter` and `eps` mean LAPACK's eigh (EXLA's host custom call): eigenvalues ascending,
    to the type's precision; given (the other then takes Nx's default, 1_000 or 1.0e-4), Nx's
    own Jacobi algorithm, honoured as Nx: at most `max_iter` sweeps, stopping once the
    off-diagonal norm is under `eps` of the matrix's, eigenvalues by decreasing magnitude,
    entries with `|x| <= eps` set to 0.

    >>> values, vectors = nbt.linalg.eigh(nbt.tensor([[2.0, 0.0], [0.0, 1.0]]))
    >>> values
    numbat.Tensor<
      f32[2]
      [1.0, 2.0]
    >
    >>> values, vectors = nbt.linalg.eigh(nbt.tensor([[0, 1, 2], [1, 0, 2], [2, 2, 3]]), eps=1e-4)
    >>> vectors
    numbat.Tensor<
      f32[3][3]
      [
        [0.40824828, -0.1825742, 0.8944272],
        [0.4082483, 0.9128709, 0.0],
        [0.81649655, -0.3651484, -0.4472136]
      ]
    >
    """
    tensor = _matrix(tensor, "eigh", square=True)
    *batch, n, _ = tensor.shape
    type_ = _float(tensor)
    options = {"max_iter": None, "eps": None, "compute": type_.dtype}
    if max_iter is not None or eps is not None:
        options["max_iter"] = 1_000 if max_iter is None else _positive("eigh", "max_iter", max_iter, int)
        options["eps"] = 1.0e-4 if eps is None else _positive("eigh", "eps", eps)
    values = _primitive.decompose(tensor, "eigh", (*batch, n), type_, 0, **options)  # complex for complex input, as Nx
    vectors = _primitive.decompose(tensor, "eigh", tensor.shape, type_, 1, **options)
    return values, vectors


def lu(tensor):
    """The LU decomposition `(p, l, u)` with partial pivoting: `p @ l @ u == tensor`.
    The permutation `p` has the input's type (s32 for an s32 matrix), as in Nx.

    >>> p, l, u = nbt.linalg.lu(nbt.tensor([[1, 2], [3, 4]]))
    >>> p
    numbat.Tensor<
      s32[2][2]
      [
        [0, 1],
        [1, 0]
      ]
    >

    >>> p, l, u = nbt.linalg.lu(nbt.tensor([[1.0, 2.0], [3.0, 4.0]]))
    >>> u
    numbat.Tensor<
      f32[2][2]
      [
        [3.0, 4.0],
        [0.0, 0.6666666]
      ]
    >
    """
    tensor = _matrix(tensor, "lu", square=True)
    type_ = _float(tensor)
    return tuple(
        _primitive.decompose(tensor, "lu", tensor.shape, tensor.type if part == 0 else type_, part, compute=type_.dtype)
        for part in range(3)
    )


def invert(tensor):
    """The inverse matrix (XLA's LU inverse on every backend); a singular matrix (its
    determinant within 1000 times the type's smallest normal number of 0) gives NaNs
    everywhere, never an error, as in Nx.

    >>> nbt.linalg.invert(nbt.tensor([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 1, 1]]))
    numbat.Tensor<
      f32[4][4]
      [
        [NaN, NaN, NaN, NaN],
        [NaN, NaN, NaN, NaN],
        [NaN, NaN, NaN, NaN],
        [NaN, NaN, NaN, NaN]
      ]
    >

    >>> nbt.linalg.invert(nbt.tensor([[2.0, 0.0], [0.0, 4.0]]))
    numbat.Tensor<
      f32[2][2]
      [
        [0.5, 0.0],
        [0.0, 0.25]
      ]
    >
    """
    tensor = _matrix(tensor, "invert", square=True)
    return _primitive.decompose(tensor, "invert", tensor.shape, _float(tensor))


def determinant(tensor):
    """The determinant of each matrix.

    >>> nbt.linalg.determinant(nbt.tensor([[1.0, 2.0], [3.0, 4.0]]))
    numbat.Tensor<
      f32
      -2.0
    >
    """
    tensor = _matrix(tensor, "determinant", square=True)
    return _primitive.decompose(tensor, "determinant", tensor.shape[:-2], _float(tensor))


def pinv(tensor, eps=1.0e-10):
    """The Moore-Penrose pseudo-inverse, as Nx computes it: of a number `1 / x`, of a
    vector `conj(x) / norm(x)**2`, of matrices from the SVD with singular values below
    `eps` counted as zero (and those within the type's rounding of zero, `max(m, n) *
    epsilon` of the largest, as Nx's SVD gives them); a tensor with every `|x| <= eps`
    gives zeros.

    >>> nbt.linalg.pinv(2)
    numbat.Tensor<
      f32
      0.5
    >
    >>> nbt.linalg.pinv(nbt.tensor([0, 1, 2]))
    numbat.Tensor<
      f32[3]
      [0.0, 0.2, 0.4]
    >

    >>> nbt.linalg.pinv(nbt.tensor([[2.0, 0.0], [0.0, 0.0]]))
    numbat.Tensor<
      f32[2][2]
      [
        [0.5, 0.0],
        [0.0, 0.0]
      ]
    >
    """

    eps = _positive("pinv", "eps", eps)
    tensor = _dispatch.to_tensor(tensor)
    if tensor.rank >= 2:
        tensor = _matrix(tensor, "pinv")
        *batch, m, n = tensor.shape
        return _primitive.decompose(tensor, "pinv", (*batch, n, m), _float(tensor), eps=eps)
    tensor = as_type(tensor, _float(tensor))
    zero = all_(ew.less_equal(abs_(tensor), eps))
    if tensor.rank == 0:
        inverse = ew.divide(1, ew.select(zero, 1, tensor))
    else:
        inverse = ew.divide(conjugate(tensor) if tensor.type.is_complex else tensor, ew.pow(norm(tensor), 2))
    return ew.select(zero, ew.multiply(tensor, 0), inverse)


def matrix_rank(tensor, eps=1.0e-7):
    """The rank of each matrix: the number of singular values above
    `eps * max(m, n) * max(singular values)`, as a u32 (Nx's type and rule).

    >>> nbt.linalg.matrix_rank(nbt.tensor([[1.0, 2.0], [2.0, 4.0]]))
    numbat.Tensor<
      u32
      1
    >
    """
    eps = _positive("matrix_rank", "eps", eps)
    tensor = _matrix(tensor, "matrix_rank")
    _real_only(tensor, "matrix_rank")
    return _primitive.decompose(
        tensor, "matrix_rank", tensor.shape[:-2], _types.Type("u", 32), compute=_float(tensor).dtype, eps=eps
    )


_VECTOR_ORDS = (None, 0, 1, 2, float("inf"), float("-inf"))
_MATRIX_ORDS = (None, "frobenius", "nuclear", 1, -1, 2, -2, float("inf"), float("-inf"))


def norm(tensor, ord=None, axes=None, keep_axes=False):
    """The vector norm (rank 1, or one axis in `axes`) or matrix norm (rank 2, or two
    axes). `ord`: None (2 or Frobenius), 0, 1, 2, any p, inf, -inf for vectors;
    "frobenius", "nuclear", 1, -1, 2, -2, inf, -inf for matrices.

    >>> nbt.linalg.norm(nbt.tensor([3.0, 4.0]))
    numbat.Tensor<
      f32
      5.0
    >
    >>> nbt.linalg.norm(nbt.tensor([[1.0, -2.0], [3.0, 4.0]]), ord=float("inf"))
    numbat.Tensor<
      f32
      7.0
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    indices = tuple(range(tensor.rank)) if axes is None else _names.axes_indices(tensor.names, axes)
    if len(indices) not in (1, 2):
        raise ArgumentError(f"linalg.norm works over 1 or 2 axes, got axes {list(indices)} of shape {tensor.shape}")
    if ord is not None and not isinstance(ord, (str, int, float, np.integer, np.floating)):
        raise ArgumentError(f"linalg.norm: ord must be None, a name or a number, got {ord!r}")
    keep_axes = _flag("norm", "keep_axes", keep_axes)
    if len(indices) == 1 and not (ord in _VECTOR_ORDS or (isinstance(ord, (int, float)) and ord > 0)):
        raise ArgumentError(f"linalg.norm: invalid vector ord {ord!r}")
    if len(indices) == 2 and ord not in _MATRIX_ORDS:
        raise ArgumentError(f"linalg.norm: invalid matrix ord {ord!r}; matrix ords are {_MATRIX_ORDS}")
    numpy_ord = {"frobenius": "fro", "nuclear": "nuc"}.get(ord, ord)
    shape = tuple(1 if i in indices else s for i, s in enumerate(tensor.shape) if keep_axes or i not in indices)
    names = tuple(n for i, n in enumerate(tensor.names) if keep_axes or i not in indices)
    type_, compute = _types.to_real(_float(tensor)), _float(tensor).dtype
    return _primitive.decompose(
        tensor,
        "norm",
        shape,
        type_,
        names=names,
        axes=indices,
        compute=compute,
        keep_axes=keep_axes,
        ord=numpy_ord,
    )


def _solve(a, b, kind: str, **options):
    return _primitive.solve(_matrix(a, kind, square=True), b, kind, **options)


def solve(a, b):
    """The `x` with `a @ x == b`, for a square `a` and `b` a vector or matrix.

    >>> nbt.linalg.solve(nbt.tensor([[2.0, 0.0], [0.0, 4.0]]), nbt.tensor([2.0, 2.0]))
    numbat.Tensor<
      f32[2]
      [1.0, 0.5]
    >
    """
    return _solve(a, b, "solve")


def triangular_solve(a, b, left_side=True, lower=True, transform_a="none"):
    """Solves `a @ x == b` (or `x @ a == b` with `left_side=False`) for a triangular `a`
    (`lower` or upper: the other triangle is not read); `transform_a` is "none",
    "transpose" (solve with `a`'s transpose) or "conjugate" (with its complex conjugate).
    A zero on `a`'s diagonal is Nx's ArgumentError wherever the values are known; inside
    a defn they are not, and the result has infinities or NaNs (as EXLA's). Its gradient
    on complex matrices is Nx's, through `adjoint(a)`: the conjugate of JAX's.

    >>> nbt.linalg.triangular_solve(nbt.tensor([[1.0, 0.0], [1.0, 2.0]]), nbt.tensor([1.0, 5.0]))
    numbat.Tensor<
      f32[2]
      [1.0, 2.0]
    >
    >>> nbt.linalg.triangular_solve(nbt.tensor([[1.0, 0.0], [1.0, 0.0]]), nbt.tensor([1.0, 5.0]))
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: linalg.triangular_solve: can't solve for singular matrix (a has a 0 on its diagonal)
    """
    if not isinstance(transform_a, str) or transform_a not in ("none", "transpose", "conjugate"):
        raise ArgumentError(
            f'linalg.triangular_solve: transform_a must be "none", "transpose" or "conjugate", got {transform_a!r}'
        )
    left_side = _check.boolean("linalg.triangular_solve", "left_side", left_side)
    lower = _check.boolean("linalg.triangular_solve", "lower", lower)
    result = _solve(a, b, "triangular_solve", left_side=left_side, lower=lower, transform_a=transform_a)
    _check_diagonal(_dispatch.to_tensor(a))
    return result


def _check_diagonal(a) -> None:
    """Nx's error for a zero on a triangular matrix's diagonal, when its values are known."""
    values = _dispatch.known_values(a)  # traced: PLATFORM_DIFFERENCES in tests/_differential.py, XLA's inf/NaN
    if values is not None and not np.all(np.diagonal(values, axis1=-2, axis2=-1)):
        raise ArgumentError("linalg.triangular_solve: can't solve for singular matrix (a has a 0 on its diagonal)")


def least_squares(a, b, eps=1.0e-15):
    """The `x` minimizing `|a @ x - b|` for a real matrix `a` and vector `b`, as Nx computes
    it: `dot(pinv(a, eps=eps), b)`.

    >>> nbt.linalg.least_squares(nbt.tensor([[1.0, 0.0], [0.0, 2.0], [0.0, 0.0]]), nbt.tensor([1.0, 4.0, 5.0]))
    numbat.Tensor<
      f32[2]
      [1.0, 2.0]
    >
    >>> nbt.linalg.least_squares(nbt.tensor([[1, 2], [2, 3]]), nbt.tensor([[1, 2], [3, 4]]))
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: linalg.least_squares: b must be a vector (rank 1), got shape (2, 2)
    """

    eps = _positive("least_squares", "eps", eps)
    a, b = _dispatch.to_tensor(a), _dispatch.to_tensor(b)
    if a.rank != 2:
        raise ArgumentError(f"linalg.least_squares: a must be a matrix (rank 2), got shape {a.shape}")
    if b.rank != 1:
        raise ArgumentError(f"linalg.least_squares: b must be a vector (rank 1), got shape {b.shape}")
    _real_only(a, "least_squares")
    _real_only(b, "least_squares")
    if a.shape[0] != b.shape[0]:
        raise ArgumentError(f"linalg.least_squares: a of shape {a.shape} and b of shape {b.shape} need as many rows")
    return dot(pinv(a, eps=eps), b)


def adjoint(tensor):
    """The conjugate transpose of each matrix (the transpose, for real tensors).

    >>> nbt.linalg.adjoint(nbt.tensor([[1, 2], [3, 4]]))
    numbat.Tensor<
      s32[2][2]
      [
        [1, 3],
        [2, 4]
      ]
    >
    """

    tensor = _matrix(tensor, "adjoint")
    axes = list(range(tensor.rank - 2)) + [tensor.rank - 1, tensor.rank - 2]
    transposed = transpose(tensor, axes=axes)
    return conjugate(transposed) if tensor.type.is_complex else transposed


def matrix_power(tensor, power: int):
    """The matrix multiplied by itself `power` times (a negative power inverts first).

    >>> nbt.linalg.matrix_power(nbt.tensor([[1, 1], [0, 1]]), 3)
    numbat.Tensor<
      s32[2][2]
      [
        [1, 3],
        [0, 1]
      ]
    >
    """

    tensor = _matrix(tensor, "matrix_power", square=True)
    if isinstance(power, bool) or not isinstance(power, int):
        raise ArgumentError(f"linalg.matrix_power: power must be an int, got {power!r}")
    if power < 0:
        tensor, power = invert(tensor), -power
    result = eye(tensor.shape, type=tensor.type, backend=tensor.backend)
    base = tensor
    while power:
        if power & 1:
            result = _batched_dot(result, base, dot)
        base = _batched_dot(base, base, dot) if power > 1 else base
        power >>= 1
    return result


def _batched_dot(a, b, dot):
    if a.rank == 2:
        return dot(a, b)
    batch = list(range(a.rank - 2))
    return dot(a, b, contract_axes=([a.rank - 1], [b.rank - 2]), batch_axes=(batch, batch))


# The public API: what `help()`, `import *`, tab completion and the API pages list.
__all__ = [
    "adjoint",
    "cholesky",
    "determinant",
    "eigh",
    "invert",
    "least_squares",
    "lu",
    "matrix_power",
    "matrix_rank",
    "norm",
    "pinv",
    "qr",
    "solve",
    "svd",
    "triangular_solve",
]


def __dir__() -> list[str]:
    """Tab completion lists the public API (`__all__`), not the names this module imports."""
    return sorted(__all__)
