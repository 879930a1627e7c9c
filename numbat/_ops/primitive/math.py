"""Functions of one tensor, element-wise: negate, abs, sign, rounding, the exponential and
logarithms, the trigonometric and hyperbolic functions, roots, the error function,
is_nan, is_infinity, and stop_grad. Integers become f32 (f64 stays f64) for the
transcendental functions; rounding keeps the type.

The family's rule: an op takes one tensor and computes each element from that element
alone (the bitwise functions of one tensor are `bitwise`, the complex parts `complex`);
`stop_grad`, the identity for values, is one too.
"""

from __future__ import annotations

from ..._core import _types
from ..._tensor._tensor import Template
from .. import _dispatch
from ._apply import u8, unary


def negate(tensor):
    """Negates element-wise.

    >>> nbt.negate(nbt.tensor([1, -2]))
    numbat.Tensor<
      s32[2]
      [-1, 2]
    >
    """
    return unary("negate", tensor)


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
    return unary("abs", tensor, _types.to_real)


def exp(tensor):
    """The exponential, element-wise.

    >>> nbt.exp(nbt.tensor([0.5, 3.0]))
    numbat.Tensor<
      f32[2]
      [1.6487212, 20.085537]
    >
    """
    return unary("exp", tensor, _types.to_floating)


def log(tensor):
    """The natural logarithm, element-wise (`nbt.log`, which takes a base too, is
    `composite/math.py`'s, built on this one).

    >>> nbt.log(nbt.tensor([1.0, 0.0]))
    numbat.Tensor<
      f32[2]
      [0.0, -Inf]
    >
    """
    return unary("log", tensor, _types.to_floating)


def sin(tensor):
    """The sine, element-wise.

    >>> nbt.sin(nbt.tensor([0.0], type="f64"))
    numbat.Tensor<
      f64[1]
      [0.0]
    >
    """
    return unary("sin", tensor, _types.to_floating)


def cos(tensor):
    """The cosine, element-wise.

    >>> nbt.cos(nbt.tensor([0]))
    numbat.Tensor<
      f32[1]
      [1.0]
    >
    """
    return unary("cos", tensor, _types.to_floating)


def tanh(tensor):
    """The hyperbolic tangent, element-wise.

    >>> nbt.tanh(nbt.tensor([0.0, 100.0]))
    numbat.Tensor<
      f32[2]
      [0.0, 1.0]
    >
    """
    return unary("tanh", tensor, _types.to_floating)


def sqrt(tensor):
    """The square root, element-wise.

    >>> nbt.sqrt(nbt.tensor([4, 2], type="f64"))
    numbat.Tensor<
      f64[2]
      [2.0, 1.4142135623730951]
    >
    """
    return unary("sqrt", tensor, _types.to_floating)


def expm1(tensor):
    """`exp(x) - 1`, accurate near zero, element-wise.

    >>> nbt.expm1(nbt.tensor([0.0, 1e-10]))
    numbat.Tensor<
      f32[2]
      [0.0, 1.0e-10]
    >
    """
    return unary("expm1", tensor, _types.to_floating)


def log1p(tensor):
    """`log(1 + x)`, accurate near zero, element-wise.

    >>> nbt.log1p(nbt.tensor([0.0, 1e-10]))
    numbat.Tensor<
      f32[2]
      [0.0, 1.0e-10]
    >
    """
    return unary("log1p", tensor, _types.to_floating)


def log2(tensor):
    """The base-2 logarithm, element-wise.

    >>> nbt.log2(nbt.tensor([1, 8, 1024]))
    numbat.Tensor<
      f32[3]
      [0.0, 3.0, 10.0]
    >
    """
    return unary("log2", tensor, _types.to_floating)


def log10(tensor):
    """The base-10 logarithm, element-wise.

    >>> nbt.log10(nbt.tensor([1, 100, 1000]))
    numbat.Tensor<
      f32[3]
      [0.0, 2.0, 3.0]
    >
    """
    return unary("log10", tensor, _types.to_floating)


def sigmoid(tensor):
    """The logistic function `1 / (1 + exp(-x))`, element-wise.

    >>> nbt.sigmoid(nbt.tensor([0.0, 100.0, -100.0]))
    numbat.Tensor<
      f32[3]
      [0.5, 1.0, 0.0]
    >
    """
    return unary("sigmoid", tensor, _types.to_floating)


def rsqrt(tensor):
    """The reciprocal square root `1 / sqrt(x)`, element-wise.

    >>> nbt.rsqrt(nbt.tensor([4.0, 0.25]))
    numbat.Tensor<
      f32[2]
      [0.5, 2.0]
    >
    """
    return unary("rsqrt", tensor, _types.to_floating)


def cbrt(tensor):
    """The cube root, element-wise.

    >>> nbt.cbrt(nbt.tensor([8.0, -27.0]))
    numbat.Tensor<
      f32[2]
      [2.0, -3.0]
    >
    """
    return unary("cbrt", tensor, _types.to_floating)


def tan(tensor):
    """The tangent, element-wise.

    >>> nbt.tan(nbt.tensor([0.0]))
    numbat.Tensor<
      f32[1]
      [0.0]
    >
    """
    return unary("tan", tensor, _types.to_floating)


def asin(tensor):
    """The inverse sine, element-wise.

    >>> nbt.asin(nbt.tensor([0.0, 1.0]))
    numbat.Tensor<
      f32[2]
      [0.0, 1.5707964]
    >
    """
    return unary("asin", tensor, _types.to_floating)


def acos(tensor):
    """The inverse cosine, element-wise.

    >>> nbt.acos(nbt.tensor([1.0]))
    numbat.Tensor<
      f32[1]
      [0.0]
    >
    """
    return unary("acos", tensor, _types.to_floating)


def atan(tensor):
    """The inverse tangent, element-wise.

    >>> nbt.atan(nbt.tensor([0.0]))
    numbat.Tensor<
      f32[1]
      [0.0]
    >
    """
    return unary("atan", tensor, _types.to_floating)


def sinh(tensor):
    """The hyperbolic sine, element-wise.

    >>> nbt.sinh(nbt.tensor([0.0]))
    numbat.Tensor<
      f32[1]
      [0.0]
    >
    """
    return unary("sinh", tensor, _types.to_floating)


def cosh(tensor):
    """The hyperbolic cosine, element-wise.

    >>> nbt.cosh(nbt.tensor([0.0]))
    numbat.Tensor<
      f32[1]
      [1.0]
    >
    """
    return unary("cosh", tensor, _types.to_floating)


def asinh(tensor):
    """The inverse hyperbolic sine, element-wise.

    >>> nbt.asinh(nbt.tensor([0.0]))
    numbat.Tensor<
      f32[1]
      [0.0]
    >
    """
    return unary("asinh", tensor, _types.to_floating)


def acosh(tensor):
    """The inverse hyperbolic cosine, element-wise.

    >>> nbt.acosh(nbt.tensor([1.0]))
    numbat.Tensor<
      f32[1]
      [0.0]
    >
    """
    return unary("acosh", tensor, _types.to_floating)


def atanh(tensor):
    """The inverse hyperbolic tangent, element-wise.

    >>> nbt.atanh(nbt.tensor([0.0]))
    numbat.Tensor<
      f32[1]
      [0.0]
    >
    """
    return unary("atanh", tensor, _types.to_floating)


def erf(tensor):
    """The error function, element-wise.

    >>> nbt.erf(nbt.tensor([0.0]))
    numbat.Tensor<
      f32[1]
      [0.0]
    >
    """
    return unary("erf", tensor, _types.to_floating)


def erfc(tensor):
    """The complementary error function `1 - erf(x)`, element-wise.

    >>> nbt.erfc(nbt.tensor([0.0]))
    numbat.Tensor<
      f32[1]
      [1.0]
    >
    """
    return unary("erfc", tensor, _types.to_floating)


def erf_inv(tensor):
    """The inverse of the error function, element-wise.

    >>> nbt.erf_inv(nbt.tensor([0.0]))
    numbat.Tensor<
      f32[1]
      [0.0]
    >
    """
    return unary("erf_inv", tensor, _types.to_floating)


def sign(tensor):
    """-1, 0 or 1 by the sign of each element (`z / |z|` for complex).

    >>> nbt.sign(nbt.tensor([-2, 0, 5]))
    numbat.Tensor<
      s32[3]
      [-1, 0, 1]
    >
    """
    return unary("sign", tensor)


def floor(tensor):
    """Rounds down to an integer value (integers are unchanged).

    >>> nbt.floor(nbt.tensor([-1.5, 1.5]))
    numbat.Tensor<
      f32[2]
      [-2.0, 1.0]
    >
    """
    return unary("floor", tensor)


def ceil(tensor):
    """Rounds up to an integer value (integers are unchanged).

    >>> nbt.ceil(nbt.tensor([-1.5, 1.5]))
    numbat.Tensor<
      f32[2]
      [-1.0, 2.0]
    >
    """
    return unary("ceil", tensor)


def round(tensor):
    """Rounds to the nearest integer value, halves away from zero (Nx's rule, not NumPy's
    round-half-to-even).

    >>> nbt.round(nbt.tensor([-2.5, -1.4, 0.5, 1.5, 2.5]))
    numbat.Tensor<
      f32[5]
      [-3.0, -1.0, 1.0, 2.0, 3.0]
    >
    """
    return unary("round", tensor)


def is_nan(tensor):
    """1 where an element is NaN, else 0 (u8).

    >>> nbt.is_nan(nbt.tensor([1.0, float("nan"), float("inf")]))
    numbat.Tensor<
      u8[3]
      [0, 1, 0]
    >
    """
    return unary("is_nan", tensor, u8)


def is_infinity(tensor):
    """1 where an element is infinite (either sign), else 0 (u8).

    >>> nbt.is_infinity(nbt.tensor([1.0, float("nan"), float("-inf")]))
    numbat.Tensor<
      u8[3]
      [0, 0, 1]
    >
    """
    return unary("is_infinity", tensor, u8)


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
