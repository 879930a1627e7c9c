"""Element-wise ops. Binary ops broadcast and merge names; types follow Nx
(`divide` and the transcendental functions return floats, comparisons u8)."""

from __future__ import annotations

import jax
import numpy as np

from ... import _shape, _types
from ..._errors import ArgumentError
from ..._tensor import Template, Tensor
from .. import _dispatch

_template = _dispatch.template  # the cached Template constructor
_FINE_SHAPES = _dispatch._FINE_SHAPES
_current_recorder = _dispatch._current_recorder

# Ops that Nx defines for real numbers only (ordering, rounding, the error function, and
# `complex`, which builds a complex number from real parts).
REAL_ONLY = frozenset(
    [
        "complex",
        "ceil",
        "erf",
        "erf_inv",
        "erfc",
        "floor",
        "floor_divide",
        "greater",
        "greater_equal",
        "less",
        "less_equal",
        "max",
        "min",
        "mod",
        "quotient",
        "remainder",
        "round",
    ]
)


def _real_only(op: str, type_: _types.Type) -> None:
    if type_.is_complex and op in REAL_ONLY:
        raise ArgumentError(f"{op} is not defined for complex tensors, got {type_}")


def _binary(op: str, left, right, result_type=None):
    if type(left) is Tensor and type(right) is Tensor and left.type == right.type:  # the common case, inline
        type_ = left.type
    else:
        left, right, type_ = _dispatch.binary_operands(left, right)
    if type_.kind == "c":  # the field, not the property: this runs on every eager op
        _real_only(op, type_)
    if result_type is not None:
        type_ = result_type(type_)
    shape = left.data.shape
    if left.names == right.names and shape == right.data.shape:  # broadcast_template's common case, inline
        backend = left.backend
        # `run`'s eager case, inline (one frame and one keyword dict less): one backend, no
        # vectorized axes (a vectorized shape is a tuple subclass that equals no plain shape),
        # a shape the allocation guard found small before, and no defn tracing.
        if (
            shape.__class__ is tuple
            and right.backend is backend
            and shape in _FINE_SHAPES
            and _current_recorder() is None
        ):
            return backend.execute_binary(op, _template(shape, type_, left.names), left, right)
        return _dispatch.run(op, _template(tuple(shape), type_, left.names), (left, right))
    return _dispatch.run(op, _dispatch.broadcast_template(left, right, type_), (left, right))


def _unary(op: str, tensor, result_type=None):
    tensor = _dispatch.to_tensor(tensor)
    if tensor.type.kind == "c":
        _real_only(op, tensor.type)
    type_ = result_type(tensor.type) if result_type else tensor.type
    return _dispatch.run(op, _dispatch.template(tensor.data.shape, type_, tensor.names), (tensor,))


def _integers(op: str):
    """The type check of an op on integer tensors only (quotient and the bitwise ops)."""

    def check(type_):
        if not type_.is_integer:
            raise ArgumentError(f"{op} expects integer tensors, got {type_}; cast with nbt.as_type first")
        return type_

    return check


def _u8(_type):
    return _types.U8


def add(left, right):
    """Adds element-wise, broadcasting and merging names.

    >>> nbt.add(nbt.tensor([1, 2, 3], names=["x"]), 10)
    numbat.Tensor<
      s32[x: 3]
      [11, 12, 13]
    >
    >>> nbt.tensor([1, 2], type="u8") + -1
    numbat.Tensor<
      s16[2]
      [0, 1]
    >
    """
    return _binary("add", left, right)


def subtract(left, right):
    """Subtracts element-wise.

    >>> nbt.subtract(nbt.tensor([[1], [2]]), nbt.tensor([1.5, 2.5]))
    numbat.Tensor<
      f32[2][2]
      [
        [-0.5, -1.5],
        [0.5, -0.5]
      ]
    >
    """
    return _binary("subtract", left, right)


def multiply(left, right):
    """Multiplies element-wise.

    >>> nbt.multiply(nbt.tensor([1, 2], type="s64"), nbt.tensor([3, 4], type="u8"))
    numbat.Tensor<
      s64[2]
      [3, 8]
    >
    """
    return _binary("multiply", left, right)


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
        return _complex_of(divide(_real_part(left), right), divide(_imag_part(left), right))
    return _binary("divide", left, right, _types.to_floating)


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
    return _binary("pow", left, right)


def _check_exponent(exponent: Tensor) -> None:
    """Raises for a negative integer exponent whose values are known (not traced by a defn)."""
    data = exponent.data
    if isinstance(data, jax.core.Tracer) or data.__class__ is _dispatch._VectorizedData:
        return  # PLATFORM_DIFFERENCES in tests/_differential.py: XLA's answer inside a defn
    values = np.asarray(data)
    if values.size and values.min() < 0:
        raise ArgumentError(
            f"pow: an integer to a negative integer power has no integer result (exponent {values.min()}); "
            'use a float base, e.g. nbt.pow(nbt.as_type(t, "f32"), n)'
        )


def equal(left, right):
    """1 where `left == right`, else 0 (u8).

    >>> nbt.equal(nbt.tensor([1, 2, 3]), nbt.tensor([1, 0, 3]))
    numbat.Tensor<
      u8[3]
      [1, 0, 1]
    >
    """
    return _binary("equal", left, right, _u8)


def not_equal(left, right):
    """1 where `left != right`, else 0 (u8).

    >>> nbt.not_equal(nbt.tensor([1, 2, 3]), 2)
    numbat.Tensor<
      u8[3]
      [1, 0, 1]
    >
    """
    return _binary("not_equal", left, right, _u8)


def less(left, right):
    """1 where `left < right`, else 0 (u8).

    >>> nbt.less(nbt.tensor([1, 2, 3]), 2)
    numbat.Tensor<
      u8[3]
      [1, 0, 0]
    >
    """
    return _binary("less", left, right, _u8)


def less_equal(left, right):
    """1 where `left <= right`, else 0 (u8).

    >>> nbt.less_equal(nbt.tensor([1, 2, 3]), 2)
    numbat.Tensor<
      u8[3]
      [1, 1, 0]
    >
    """
    return _binary("less_equal", left, right, _u8)


def greater(left, right):
    """1 where `left > right`, else 0 (u8).

    >>> nbt.greater(nbt.tensor([1.0, 2.5]), 2)
    numbat.Tensor<
      u8[2]
      [0, 1]
    >
    """
    return _binary("greater", left, right, _u8)


def greater_equal(left, right):
    """1 where `left >= right`, else 0 (u8).

    >>> nbt.greater_equal(nbt.tensor([1, 2, 3]), 2)
    numbat.Tensor<
      u8[3]
      [0, 1, 1]
    >
    """
    return _binary("greater_equal", left, right, _u8)


def negate(tensor):
    """Negates element-wise.

    >>> nbt.negate(nbt.tensor([1, -2]))
    numbat.Tensor<
      s32[2]
      [-1, 2]
    >
    """
    return _unary("negate", tensor)


def abs(tensor):
    """Absolute value; a complex tensor gives its real magnitude.

    >>> nbt.abs(nbt.tensor([-1.5, 2.0]))
    numbat.Tensor<
      f32[2]
      [1.5, 2.0]
    >
    >>> nbt.abs(nbt.tensor([3 + 4j]))
    numbat.Tensor<
      f32[1]
      [5.0]
    >
    """
    return _unary("abs", tensor, _types.to_real)


def exp(tensor):
    """The exponential, element-wise.

    >>> nbt.exp(nbt.tensor([0.5, 3.0]))
    numbat.Tensor<
      f32[2]
      [1.6487212, 20.085537]
    >
    """
    return _unary("exp", tensor, _types.to_floating)


def log(tensor, base=None):
    """The natural logarithm, element-wise; with `base` (a number or a tensor), the
    logarithm in that base, `log(tensor) / log(base)`, as Nx's `log/2`.

    >>> nbt.log(nbt.tensor([1.0, 0.0]))
    numbat.Tensor<
      f32[2]
      [0.0, -Inf]
    >
    >>> nbt.log(nbt.tensor([3, 9, 27, 81]), 3)
    numbat.Tensor<
      f32[4]
      [1.0, 2.0, 3.0, 4.0]
    >
    >>> nbt.log(8, 1)
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: expected base to be greater than 0 and different than 1, got: 1
    """
    if base is None:
        return _unary("log", tensor, _types.to_floating)
    if _types.is_number(base) and not isinstance(base, complex) and (base <= 0 or base == 1):
        raise ArgumentError(f"expected base to be greater than 0 and different than 1, got: {base!r}")
    return divide(log(tensor), log(base))


def sin(tensor):
    """The sine, element-wise.

    >>> nbt.sin(nbt.tensor([0.0], type="f64"))
    numbat.Tensor<
      f64[1]
      [0.0]
    >
    """
    return _unary("sin", tensor, _types.to_floating)


def cos(tensor):
    """The cosine, element-wise.

    >>> nbt.cos(nbt.tensor([0]))
    numbat.Tensor<
      f32[1]
      [1.0]
    >
    """
    return _unary("cos", tensor, _types.to_floating)


def tanh(tensor):
    """The hyperbolic tangent, element-wise.

    >>> nbt.tanh(nbt.tensor([0.0, 100.0]))
    numbat.Tensor<
      f32[2]
      [0.0, 1.0]
    >
    """
    return _unary("tanh", tensor, _types.to_floating)


def sqrt(tensor):
    """The square root, element-wise.

    >>> nbt.sqrt(nbt.tensor([4, 2], type="f64"))
    numbat.Tensor<
      f64[2]
      [2.0, 1.4142135623730951]
    >
    """
    return _unary("sqrt", tensor, _types.to_floating)


def quotient(left, right):
    """Integer division truncating toward zero (Nx's `quotient`; Python's `//` floors
    instead). Integers only.

    >>> nbt.quotient(nbt.tensor([7, -7]), 2)
    numbat.Tensor<
      s32[2]
      [3, -3]
    >
    >>> nbt.quotient(nbt.tensor([1.0]), 2)
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: quotient expects integer tensors, got f32; cast with nbt.as_type first
    """
    return _binary("quotient", left, right, _integers("quotient"))


def remainder(left, right):
    """The remainder of `left / right` with the sign of `left` (Nx's `remainder`, like C's
    `fmod`; Python's `%` takes the sign of `right` instead).

    >>> nbt.remainder(nbt.tensor([7, -7]), 3)
    numbat.Tensor<
      s32[2]
      [1, -1]
    >
    >>> nbt.remainder(nbt.tensor([5.5, -5.5]), 2)
    numbat.Tensor<
      f32[2]
      [1.5, -1.5]
    >
    """
    return _binary("remainder", left, right)


def floor_divide(left, right):
    """Python's `//`: divides and rounds down (integers stay integers).

    >>> nbt.tensor([7, -7]) // 2
    numbat.Tensor<
      s32[2]
      [3, -4]
    >
    """
    return _binary("floor_divide", left, right)


def mod(left, right):
    """Python's `%`: the remainder with the sign of `right`.

    >>> nbt.tensor([7, -7]) % 3
    numbat.Tensor<
      s32[2]
      [1, 2]
    >
    """
    return _binary("mod", left, right)


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
    return _binary("atan2", left, right, _types.to_floating)


def _complex_atan2(left, right, type_):
    for operand in (left, right):
        data = operand.data
        known = not isinstance(data, jax.core.Tracer) and data.__class__ is not _dispatch._VectorizedData
        if operand.type.is_complex and known and np.any(np.imag(np.asarray(data)) != 0):
            raise ArgumentError("atan2 only accepts real numbers as arguments, got a non-zero imaginary part")
    angle = _binary("atan2", _real_part(left), _real_part(right), _types.to_floating)
    real_only = equal(_binary("add", _imag_part(left) != 0, _imag_part(right) != 0), 0)  # both parts 0
    return _complex_of(select(real_only, angle, float("nan")), select(real_only, 0.0, float("nan")))


def _parts_type(type_: _types.Type) -> _types.Type:
    return _types.to_real(_types.to_floating(type_))


def _real_part(tensor):
    return _unary("real", tensor, _parts_type)


def _imag_part(tensor):
    return _unary("imag", tensor, _parts_type)


def _complex_of(real, imag):
    return _binary("complex", real, imag, lambda type_: _types.to_complex(_types.to_floating(type_)))


def min(left, right):
    """The smaller of two values, element-wise (NaN wins).

    >>> nbt.min(nbt.tensor([1, 5]), nbt.tensor([3, 2]))
    numbat.Tensor<
      s32[2]
      [1, 2]
    >
    """
    return _binary("min", left, right)


def max(left, right):
    """The larger of two values, element-wise (NaN wins).

    >>> nbt.max(nbt.tensor([1, 5]), 3.5)
    numbat.Tensor<
      f32[2]
      [3.5, 5.0]
    >
    """
    return _binary("max", left, right)


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


def stop_grad(tensor):
    """The identity, except that gradients do not flow through it. A tuple or dict of
    tensors (Nx's containers) comes back as the same container, each tensor stopped.

    >>> nbt.grad(lambda x: nbt.sum(x * nbt.stop_grad(x)))(nbt.tensor([1.0, 2.0]))
    numbat.Tensor<
      f32[2]
      [1.0, 2.0]
    >
    >>> nbt.grad(lambda x: nbt.sum(nbt.stop_grad((x, x))[0] * x))(nbt.tensor([1.0, 2.0]))
    numbat.Tensor<
      f32[2]
      [1.0, 2.0]
    >
    """
    if type(tensor) is tuple:
        return tuple(stop_grad(item) for item in tensor)
    if type(tensor) is dict:
        return {key: stop_grad(item) for key, item in tensor.items()}
    tensor = _dispatch.to_tensor(tensor)
    return _dispatch.run("stop_grad", Template(tensor.shape, tensor.type, tensor.names), (tensor,))
