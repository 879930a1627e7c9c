"""Nx's sub-byte integer types (s2, s4, u2, u4) on every backend.

Their data is stored one element a byte, in ml_dtypes' int2/int4/uint2/uint4 (what
`np.asarray` of a tensor gives). Neither NumPy's ufuncs nor XLA compute every op in
them, so an op that reads or returns one computes in the byte-wide type of the same
signedness (s8, u8) and wraps the result back to the bit size: Nx's binary backend
writes each result in the type's bits, so integer arithmetic wraps around
(u4 15 + 1 is 0; s4 7 + 1 is -8). The one mechanism serves the NumPy backend, the
eager XLA kernels, a defn while it traces and the evaluator.

>>> x = nbt.tensor([15, 7], type="u4")
>>> x + nbt.tensor([1, 10], type="u4")
numbat.Tensor<
  u4[2]
  [0, 1]
>
"""

from __future__ import annotations

from .._core import _types
from .._core._op_table import OPS
from .._tensor._tensor import Template, Tensor
from ._cast import SUBBYTE_WIDE, cast, wrap

# Each sub-byte type and the byte-wide type it computes in (_cast's table, as Nx types).
_WIDE = {_types.parse(narrow): _types.parse(wide) for narrow, wide in SUBBYTE_WIDE.items()}


def involved(out: Template, inputs: tuple) -> bool:
    """Whether the op reads or returns a sub-byte type."""
    if out.type.bits < 8:
        return True
    for tensor in inputs:
        if tensor.type.bits < 8:
            return True
    return False


def call(backend, op: str, out: Template, inputs: tuple, params: dict) -> Tensor:
    """`backend.<op>(out, *inputs, **params)`, computed in s8/u8 where a type is sub-byte."""
    if op == "as_type":  # the cast itself knows the sub-byte types (saturating from floats)
        return backend.as_type(out, *inputs)
    xp = backend.xp
    entry = OPS.get(op)
    # An op that counts bits (its entry's `counts_bits`) reads the zero-extended bits: s4 -1 is
    # 0b1111, not 0b11111111.
    counts_bits = entry.counts_bits if entry is not None else None
    wide_inputs = []
    for tensor in inputs:
        wide = _WIDE.get(tensor.type)
        if wide is not None:
            data = cast(xp, xp.asarray(tensor.data), wide.dtype)
            if counts_bits and wide.kind == "s":
                data = data & ((1 << tensor.type.bits) - 1)
            tensor = Tensor(data, wide, tensor.names, backend)
        wide_inputs.append(tensor)
    wide_out = _WIDE.get(out.type)
    result = getattr(backend, op)(out if wide_out is None else out._replace(type=wide_out), *wide_inputs, **params)
    if wide_out is None:
        return result
    data = result.data
    if counts_bits == "leading_zeros":  # the byte-wide count has 8 - bits leading zeros more
        data = data - (8 - out.type.bits)
    return Tensor(wrap(data, out.type.dtype), out.type, out.names, backend)
