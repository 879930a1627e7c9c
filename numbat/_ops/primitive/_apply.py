"""How the element-wise families (elementwise, math, bitwise, complex) run one op: `binary`
broadcasts two operands and merges their names, `unary` keeps its tensor's shape and names;
both check the op against complex operands (`REAL_ONLY`) and take the output type from
`result_type` (`integers`, `u8`, or one of `_types`' rules), and both run it through
`_ops._dispatch` (`run_binary`, `run`), the one dispatch of every op (these are the hot
paths of eager code)."""

from __future__ import annotations

from ..._core import _op_table, _types
from ..._core._errors import ArgumentError
from ..._tensor._tensor import Tensor
from .. import _dispatch

# Ops that Nx defines for real numbers only (ordering, rounding, the error function, and
# `complex`, which builds a complex number from real parts): the op table's `real_only`.
REAL_ONLY = frozenset(op.name for op in _op_table.OPS.values() if op.real_only)


def _real_only(op: str, type_: _types.Type) -> None:
    if type_.is_complex and op in REAL_ONLY:
        raise ArgumentError(f"{op} is not defined for complex tensors, got {type_}")


def binary(op: str, left, right, result_type=None):
    if left.__class__ is Tensor and right.__class__ is Tensor and left.type == right.type:  # the common case
        type_ = left.type
    else:
        left, right, type_ = _dispatch.binary_operands(left, right)
    if type_.kind == "c":  # the field, not the property: this runs on every eager op
        _real_only(op, type_)
    if result_type is not None:
        type_ = result_type(type_)
    return _dispatch.run_binary(op, type_, left, right)


def unary(op: str, tensor, result_type=None):
    tensor = _dispatch.to_tensor(tensor)
    if tensor.type.kind == "c":
        _real_only(op, tensor.type)
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
