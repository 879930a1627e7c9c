"""How the element-wise families (elementwise, math, bitwise, complex) run one op: `binary`
broadcasts two operands and merges their names, `unary` keeps its tensor's shape and names;
both check the op against complex operands (`REAL_ONLY`) and take the output type from
`result_type` (`integers`, `u8`, or one of `_types`' rules). `binary` is `_ops._dispatch`'s
`run_binary` itself, and `unary` runs through its `run`: the one dispatch of every op
(these are the hot paths of eager code)."""

from __future__ import annotations

from ..._core import _types
from ..._core._errors import ArgumentError
from .. import _dispatch

REAL_ONLY = _dispatch.REAL_ONLY  # the op table's real-only ops, which refuse complex tensors

# An element-wise op of two operands: `_dispatch.run_binary` itself, so that the hot path of
# eager code has no frame between the op's front-end function and the dispatch.
binary = _dispatch.run_binary


def unary(op: str, tensor, result_type=None):
    tensor = _dispatch.to_tensor(tensor)
    if tensor.type.kind == "c":
        _dispatch.refuse_complex(op, tensor.type)
    type_ = result_type(tensor.type) if result_type else tensor.type
    return _dispatch.run(op, _dispatch.template(tensor.data.shape, type_, tensor.names), (tensor,))


def integers(op: str):
    """The type check of an op on integer tensors only (quotient and the bitwise ops)."""

    def check(type_):
        if not type_.is_integer:
            raise ArgumentError(f"{op} expects integer tensors, got {type_}; cast with nbt.as_type first")
        return type_

    return check


def u8(_type):
    return _types.U8
