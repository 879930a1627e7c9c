"""Transcendental and rounding functions, element-wise. Integers become f32 (f64
stays f64) for the transcendental functions; rounding keeps the type.
"""

from __future__ import annotations

from ... import _types
from .elementwise import _u8, _unary


def expm1(tensor):
    """`exp(x) - 1`, accurate near zero, element-wise.

    >>> nbt.expm1(nbt.tensor([0.0, 1e-10]))
    numbat.Tensor<
      f32[2]
      [0.0, 1.0e-10]
    >
    """
    return _unary("expm1", tensor, _types.to_floating)


def log1p(tensor):
    """`log(1 + x)`, accurate near zero, element-wise.

    >>> nbt.log1p(nbt.tensor([0.0, 1e-10]))
    numbat.Tensor<
      f32[2]
      [0.0, 1.0e-10]
    >
    """
    return _unary("log1p", tensor, _types.to_floating)


def log2(tensor):
    """The base-2 logarithm, element-wise.

    >>> nbt.log2(nbt.tensor([1, 8, 1024]))
    numbat.Tensor<
      f32[3]
      [0.0, 3.0, 10.0]
    >
    """
    return _unary("log2", tensor, _types.to_floating)


def log10(tensor):
    """The base-10 logarithm, element-wise.

    >>> nbt.log10(nbt.tensor([1, 100, 1000]))
    numbat.Tensor<
      f32[3]
      [0.0, 2.0, 3.0]
    >
    """
    return _unary("log10", tensor, _types.to_floating)


def sigmoid(tensor):
    """The logistic function `1 / (1 + exp(-x))`, element-wise.

    >>> nbt.sigmoid(nbt.tensor([0.0, 100.0, -100.0]))
    numbat.Tensor<
      f32[3]
      [0.5, 1.0, 0.0]
    >
    """
    return _unary("sigmoid", tensor, _types.to_floating)


def rsqrt(tensor):
    """The reciprocal square root `1 / sqrt(x)`, element-wise.

    >>> nbt.rsqrt(nbt.tensor([4.0, 0.25]))
    numbat.Tensor<
      f32[2]
      [0.5, 2.0]
    >
    """
    return _unary("rsqrt", tensor, _types.to_floating)


def cbrt(tensor):
    """The cube root, element-wise.

    >>> nbt.cbrt(nbt.tensor([8.0, -27.0]))
    numbat.Tensor<
      f32[2]
      [2.0, -3.0]
    >
    """
    return _unary("cbrt", tensor, _types.to_floating)


def tan(tensor):
    """The tangent, element-wise.

    >>> nbt.tan(nbt.tensor([0.0]))
    numbat.Tensor<
      f32[1]
      [0.0]
    >
    """
    return _unary("tan", tensor, _types.to_floating)


def asin(tensor):
    """The inverse sine, element-wise.

    >>> nbt.asin(nbt.tensor([0.0, 1.0]))
    numbat.Tensor<
      f32[2]
      [0.0, 1.5707964]
    >
    """
    return _unary("asin", tensor, _types.to_floating)


def acos(tensor):
    """The inverse cosine, element-wise.

    >>> nbt.acos(nbt.tensor([1.0]))
    numbat.Tensor<
      f32[1]
      [0.0]
    >
    """
    return _unary("acos", tensor, _types.to_floating)


def atan(tensor):
    """The inverse tangent, element-wise.

    >>> nbt.atan(nbt.tensor([0.0]))
    numbat.Tensor<
      f32[1]
      [0.0]
    >
    """
    return _unary("atan", tensor, _types.to_floating)


def sinh(tensor):
    """The hyperbolic sine, element-wise.

    >>> nbt.sinh(nbt.tensor([0.0]))
    numbat.Tensor<
      f32[1]
      [0.0]
    >
    """
    return _unary("sinh", tensor, _types.to_floating)


def cosh(tensor):
    """The hyperbolic cosine, element-wise.

    >>> nbt.cosh(nbt.tensor([0.0]))
    numbat.Tensor<
      f32[1]
      [1.0]
    >
    """
    return _unary("cosh", tensor, _types.to_floating)


def asinh(tensor):
    """The inverse hyperbolic sine, element-wise.

    >>> nbt.asinh(nbt.tensor([0.0]))
    numbat.Tensor<
      f32[1]
      [0.0]
    >
    """
    return _unary("asinh", tensor, _types.to_floating)


def acosh(tensor):
    """The inverse hyperbolic cosine, element-wise.

    >>> nbt.acosh(nbt.tensor([1.0]))
    numbat.Tensor<
      f32[1]
      [0.0]
    >
    """
    return _unary("acosh", tensor, _types.to_floating)


def atanh(tensor):
    """The inverse hyperbolic tangent, element-wise.

    >>> nbt.atanh(nbt.tensor([0.0]))
    numbat.Tensor<
      f32[1]
      [0.0]
    >
    """
    return _unary("atanh", tensor, _types.to_floating)


def erf(tensor):
    """The error function, element-wise.

    >>> nbt.erf(nbt.tensor([0.0]))
    numbat.Tensor<
      f32[1]
      [0.0]
    >
    """
    return _unary("erf", tensor, _types.to_floating)


def erfc(tensor):
    """The complementary error function `1 - erf(x)`, element-wise.

    >>> nbt.erfc(nbt.tensor([0.0]))
    numbat.Tensor<
      f32[1]
      [1.0]
    >
    """
    return _unary("erfc", tensor, _types.to_floating)


def erf_inv(tensor):
    """The inverse of the error function, element-wise.

    >>> nbt.erf_inv(nbt.tensor([0.0]))
    numbat.Tensor<
      f32[1]
      [0.0]
    >
    """
    return _unary("erf_inv", tensor, _types.to_floating)


def sign(tensor):
    """-1, 0 or 1 by the sign of each element (`z / |z|` for complex).

    >>> nbt.sign(nbt.tensor([-2, 0, 5]))
    numbat.Tensor<
      s32[3]
      [-1, 0, 1]
    >
    """
    return _unary("sign", tensor)


def floor(tensor):
    """Rounds down to an integer value (integers are unchanged).

    >>> nbt.floor(nbt.tensor([-1.5, 1.5]))
    numbat.Tensor<
      f32[2]
      [-2.0, 1.0]
    >
    """
    return _unary("floor", tensor)


def ceil(tensor):
    """Rounds up to an integer value (integers are unchanged).

    >>> nbt.ceil(nbt.tensor([-1.5, 1.5]))
    numbat.Tensor<
      f32[2]
      [-1.0, 2.0]
    >
    """
    return _unary("ceil", tensor)


def round(tensor):
    """Rounds to the nearest integer value, halves away from zero (Nx's rule, not NumPy's
    round-half-to-even).

    >>> nbt.round(nbt.tensor([-2.5, -1.4, 0.5, 1.5, 2.5]))
    numbat.Tensor<
      f32[5]
      [-3.0, -1.0, 1.0, 2.0, 3.0]
    >
    """
    return _unary("round", tensor)


def is_nan(tensor):
    """1 where an element is NaN, else 0 (u8).

    >>> nbt.is_nan(nbt.tensor([1.0, float("nan"), float("inf")]))
    numbat.Tensor<
      u8[3]
      [0, 1, 0]
    >
    """
    return _unary("is_nan", tensor, _u8)


def is_infinity(tensor):
    """1 where an element is infinite (either sign), else 0 (u8).

    >>> nbt.is_infinity(nbt.tensor([1.0, float("nan"), float("-inf")]))
    numbat.Tensor<
      u8[3]
      [0, 0, 1]
    >
    """
    return _unary("is_infinity", tensor, _u8)
