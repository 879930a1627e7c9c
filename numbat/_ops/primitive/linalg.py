"""Linear algebra (Nx.LinAlg): the two primitive ops that `numbat.linalg` builds on,
`decompose` (one result of a decomposition, or a norm) and `solve`.

The family's rule: an op is one of Nx.LinAlg's matrix algorithms (a decomposition, or a
solve), over the last two axes (dot and conv are `products`). `numbat.linalg` checks the
matrices and options and names the results; these infer the output template and call
the backend.
"""

from __future__ import annotations

from ..._core import _types
from ..._core._errors import ArgumentError
from ..._tensor._tensor import Template
from .. import _dispatch


def decompose(tensor, kind: str, shape: tuple, type_, part: int = 0, names=None, **options):
    """Result `part` of decomposition `kind` of `tensor` (cholesky, qr, svd, eigh, lu, invert,
    determinant, pinv, matrix_rank, norm): of shape `shape`, type `type_` and names `names`
    (None: the tensor's where the rank is kept, else none); `options` go to the backend
    as sorted (name, value) pairs.

    >>> decompose(nbt.tensor([[4.0, 2.0], [2.0, 2.0]]), "cholesky", (2, 2), _types.F32)
    numbat.Tensor<
      f32[2][2]
      [
        [2.0, 0.0],
        [1.0, 1.0]
      ]
    >
    """
    if names is None:
        names = (None,) * len(shape) if len(shape) != tensor.rank else tensor.names
    out = Template(tuple(shape), type_, names)
    return _dispatch.run("decompose", out, (tensor,), kind=kind, part=part, options=tuple(sorted(options.items())))


def solve(a, b, kind: str, **options):
    """The `x` with `a x = b` (`kind` solve or triangular_solve) for square matrices `a`
    and `b` a vector or matrix of them; `options` go to the backend as sorted (name, value) pairs.

    >>> solve(nbt.tensor([[2.0, 0.0], [0.0, 4.0]]), nbt.tensor([2.0, 2.0]), "solve")
    numbat.Tensor<
      f32[2]
      [1.0, 0.5]
    >
    """
    b = _dispatch.to_tensor(b)
    if b.rank not in (a.rank - 1, a.rank) or b.shape[: a.rank - 2] != a.shape[:-2]:
        raise ArgumentError(f"linalg.{kind}: b of shape {b.shape} does not fit a of shape {a.shape}")
    side = -1 if (kind == "triangular_solve" and not options.get("left_side", True)) else -2
    rows = b.shape[side] if b.rank == a.rank else b.shape[-1]
    if rows != a.shape[-2]:
        raise ArgumentError(f"linalg.{kind}: b of shape {b.shape} does not fit a of shape {a.shape}")
    type_ = _types.to_floating(_types.merge(a.type, b.type))
    out = Template(b.shape, type_, (None,) * b.rank)
    return _dispatch.run("solve", out, (a, b), kind=kind, options=tuple(sorted(options.items())))
