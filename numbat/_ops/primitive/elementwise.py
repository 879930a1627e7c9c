"""Element-wise ops over two or more broadcast tensors: arithmetic, comparisons, atan2,
min/max, quotient/remainder, select and clip. Binary ops broadcast and merge names;
types follow Nx (`divide` returns floats, comparisons u8).

The family's rule: an op combines two or more tensors of one broadcast shape element by
element (functions of one tensor are `math`; the bitwise and logical ops are `bitwise`,
building complex numbers is `complex`).

The family's ops of the op table (`_core/_op_table.py`) are generated from their entries, each
with its doctest (`_generate.define`, at the end of this module), but those with logic of
their own, written here: `divide` (a complex by a real divisor), `pow` (negative integer
exponents), `atan2` (complex operands); and `select` and `clip`.
"""

from __future__ import annotations

import numpy as np

from ..._core import _shape, _types
from ..._core._errors import ArgumentError
from ..._tensor._tensor import Tensor
from .. import _dispatch
from ._apply import binary
from ._generate import define, result_type
from .complex import complex as make_complex
from .complex import imag, real

# The result-type rules of the entries whose functions are written here.
_DIVIDE = result_type("divide")
_POW = result_type("pow")
_ATAN2 = result_type("atan2")


def divide(left, right):
    """Divides element-wise; integers divide as floats (Nx's rule).

    >>> nbt.divide(nbt.tensor([1, 2]), 3)
    numbat.Tensor<
      f32[2]
      [0.33333334, 0.6666667]
    >

    A complex tensor divided by a real one divides its parts: (Inf+2i) / 2 is Inf+1i, where a
    complex division by 2+0i (which XLA rewrites inside a defn) would give NaN parts.

    >>> nbt.divide(nbt.tensor(complex("inf+2j")), 2)
    numbat.Tensor<
      c64
      Inf+1.0i
    >
    """
    if type(left) is Tensor and left.type.kind == "c" and _real_divisor(right):
        return make_complex(divide(real(left), right), divide(imag(left), right))
    return binary("divide", left, right, _DIVIDE)


def _real_divisor(right) -> bool:
    if isinstance(right, Tensor):
        return right.type.kind != "c"
    return isinstance(right, (int, float))


def pow(left, right):
    """Raises `left` to the power `right`, element-wise. Integers wrap around in their type,
    and an integer to a negative integer power is an error, as in Nx.

    >>> nbt.pow(nbt.tensor([1, 2, 3]), 2)
    numbat.Tensor<
      s32[3]
      [1, 4, 9]
    >
    >>> nbt.pow(nbt.tensor([2], type="u8"), 128)
    numbat.Tensor<
      u8[1]
      [0]
    >
    >>> nbt.pow(nbt.tensor([2, 3]), nbt.tensor([1, -1]))
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: pow: an integer to a negative integer power has no integer result (exponent -1); use a float base, e.g. nbt.pow(nbt.as_type(t, "f32"), n)
    """
    left, right, type_ = _dispatch.binary_operands(left, right)
    if type_.kind in "su" and right.type.kind == "s":
        _check_exponent(right)
    return binary("pow", left, right, _POW)


def _check_exponent(exponent: Tensor) -> None:
    """Raises for a negative integer exponent whose values are known (not traced by a defn)."""
    values = _dispatch.known_values(exponent)  # traced: PLATFORM_DIFFERENCES in tests/_differential.py, XLA's answer
    if values is not None and values.size and values.min() < 0:
        raise ArgumentError(
            f"pow: an integer to a negative integer power has no integer result (exponent {values.min()}); "
            'use a float base, e.g. nbt.pow(nbt.as_type(t, "f32"), n)'
        )


def atan2(left, right):
    """The angle of the point `(right, left)`, element-wise: `atan(left / right)` in the right quadrant.

    >>> nbt.atan2(nbt.tensor([0.0, 1.0]), nbt.tensor([1.0, 0.0]))
    numbat.Tensor<
      f32[2]
      [0.0, 1.5707964]
    >

    Of complex numbers with zero imaginary parts (Nx's Complex.atan2), the angle of the
    real parts, complex; a non-zero imaginary part raises, or gives NaN where a defn traces it.

    >>> nbt.atan2(nbt.tensor(7 + 0j), nbt.tensor(2 + 0j))
    numbat.Tensor<
      c64
      1.2924967+0.0i
    >
    """
    left, right, type_ = _dispatch.binary_operands(left, right)
    if type_.is_complex:
        return _complex_atan2(left, right, type_)
    return binary("atan2", left, right, _ATAN2)


def _complex_atan2(left, right, type_):
    for operand in (left, right):
        values = _dispatch.known_values(operand) if operand.type.is_complex else None
        if values is not None and np.any(np.imag(values) != 0):
            raise ArgumentError("atan2 only accepts real numbers as arguments, got a non-zero imaginary part")
    angle = binary("atan2", real(left), real(right), _ATAN2)
    real_only = binary("add", imag(left) != 0, imag(right) != 0) == 0  # both parts 0
    return make_complex(select(real_only, angle, float("nan")), select(real_only, 0.0, float("nan")))


def select(pred, on_true, on_false):
    """`on_true` where `pred` is non-zero, else `on_false`: the result has the merged type
    of `on_true` and `on_false`, and the predicate's shape and names (the branches
    broadcast to it), or the branches' broadcast shape when `pred` is a scalar, as in Nx.

    >>> nbt.select(nbt.tensor([1, 0, 1]), nbt.tensor([1, 2, 3]), 0.5)
    numbat.Tensor<
      f32[3]
      [1.0, 0.5, 3.0]
    >
    """
    pred = _dispatch.to_tensor(pred)
    on_true, on_false, type_ = _dispatch.binary_operands(on_true, on_false)
    if pred.rank == 0:  # as Nx: a scalar predicate takes the branches' broadcast shape and names
        out = _dispatch.broadcast_all((on_true, on_false), type_)
    else:  # otherwise the predicate's shape and names, which both branches must broadcast to
        for branch in (on_true, on_false):
            if _shape.broadcast(pred.shape, branch.shape) != pred.shape:
                raise ArgumentError(
                    f"select: a branch of shape {branch.shape} does not broadcast to the predicate's {pred.shape}"
                )
        out = _dispatch.template(pred.shape, type_, pred.names)
    return _dispatch.run("select", out, (pred, on_true, on_false))


def clip(tensor, min, max):
    """Limits every element to the range `[min, max]` (numbers, or tensors that broadcast
    to `tensor`'s shape); the type merges with the bounds'.

    >>> nbt.clip(nbt.tensor([-2, 0, 7]), 0, 5)
    numbat.Tensor<
      s32[3]
      [0, 0, 5]
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    bounds = [bound if _types.is_number(bound) else _dispatch.to_tensor(bound, tensor.backend) for bound in (min, max)]
    min, max = bounds
    type_ = tensor.type
    for bound in (min, max):
        type_ = _types.merge_number(type_, bound) if _types.is_number(bound) else _types.merge(type_, bound.type)
    if type_.is_complex:  # complex numbers have no order (Nx raises too)
        raise ArgumentError(f"clip is not defined for complex tensors, got {type_}")
    low, high = (
        _dispatch.scalar(bound, type_, tensor.backend) if _types.is_number(bound) else _dispatch.to_tensor(bound)
        for bound in (min, max)
    )
    out = _dispatch.broadcast_all((tensor, low, high), type_)
    if out.shape != tensor.shape:
        raise ArgumentError(
            f"clip bounds of shapes {low.shape} and {high.shape} do not fit tensor shape {tensor.shape}"
        )
    return _dispatch.run("clip", out, (tensor, low, high))


# The family's other ops of the op table (`_core/_op_table.py`), generated from their entries.
define(globals(), "elementwise")
