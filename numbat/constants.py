"""`nbt.constants`: Nx.Constants. Each returns a scalar tensor of the given type (default
f32 for the float constants); integer types have no NaN or infinity.

>>> nbt.constants.max("u8"), nbt.constants.min("s8")
(numbat.Tensor<
  u8
  255
>, numbat.Tensor<
  s8
  -128
>)
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np

from ._core import _types
from ._core._errors import ArgumentError
from ._ops._convert import tensor


def _scalar(value, type_, backend):
    array = np.asarray(value, dtype=type_.dtype)
    if isinstance(value, float) and math.isinf(value) and not np.isinf(array):  # f8_e4m3fn has no infinity:
        array = np.asarray(math.copysign(float(_info(type_).max), value), dtype=type_.dtype)  # Nx saturates
    return tensor(array, type=type_, backend=backend)


def _float(type_, name: str):
    parsed = _types.parse(type_)
    if not (parsed.is_float or parsed.is_complex):
        raise ArgumentError(f"constants.{name} is defined for float types, got {parsed}")
    return parsed


def _info(type_):
    if type_.is_integer:
        return ml_dtypes.iinfo(type_.dtype)
    return ml_dtypes.finfo(_types.to_real(type_).dtype)


def pi(type="f32", backend=None):
    """π.

    >>> nbt.constants.pi("f64")
    numbat.Tensor<
      f64
      3.141592653589793
    >
    """
    return _scalar(math.pi, _float(type, "pi"), backend)


def e(type="f32", backend=None):
    """Euler's number.

    >>> nbt.constants.e()
    numbat.Tensor<
      f32
      2.7182817
    >
    """
    return _scalar(math.e, _float(type, "e"), backend)


def i(type="c64", backend=None):
    """The imaginary unit (a complex type).

    >>> nbt.constants.i()
    numbat.Tensor<
      c64
      0.0+1.0i
    >
    >>> nbt.constants.i("f32")
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: invalid type for complex number. Expected c64 or c128, got: f32
    """
    parsed = _types.parse(type)
    if not parsed.is_complex:
        raise ArgumentError(f"invalid type for complex number. Expected c64 or c128, got: {parsed}")
    return _scalar(1j, parsed, backend)


def nan(type="f32", backend=None):
    """Not a number.

    >>> nbt.constants.nan()
    numbat.Tensor<
      f32
      NaN
    >
    """
    return _scalar(math.nan, _float(type, "nan"), backend)


def infinity(type="f32", backend=None):
    """Positive infinity.

    >>> nbt.constants.infinity("bf16")
    numbat.Tensor<
      bf16
      Inf
    >

    A type without infinities saturates, as in Nx:

    >>> nbt.constants.infinity("f8_e4m3fn")
    numbat.Tensor<
      f8_e4m3fn
      450.0
    >
    """
    return _scalar(math.inf, _float(type, "infinity"), backend)


def neg_infinity(type="f32", backend=None):
    """Negative infinity.

    >>> nbt.constants.neg_infinity()
    numbat.Tensor<
      f32
      -Inf
    >
    """
    return _scalar(-math.inf, _float(type, "neg_infinity"), backend)


def max_finite(type, backend=None):
    """The largest finite value of `type`.

    >>> nbt.constants.max_finite("f16")
    numbat.Tensor<
      f16
      6.55e4
    >
    """
    parsed = _types.parse(type)
    return _scalar(_info(parsed).max, parsed, backend)


def min_finite(type, backend=None):
    """The smallest (most negative) finite value of `type`.

    >>> nbt.constants.min_finite("s16")
    numbat.Tensor<
      s16
      -32768
    >
    """
    parsed = _types.parse(type)
    return _scalar(_info(parsed).min, parsed, backend)


def max(type, backend=None):
    """The largest value of `type`: infinity for floats, the largest integer otherwise.

    >>> nbt.constants.max("s32")
    numbat.Tensor<
      s32
      2147483647
    >
    """
    parsed = _types.parse(type)
    return infinity(parsed, backend) if not parsed.is_integer else max_finite(parsed, backend)


def min(type, backend=None):
    """The smallest value of `type`: negative infinity for floats, the smallest integer otherwise.

    >>> nbt.constants.min("f32")
    numbat.Tensor<
      f32
      -Inf
    >
    """
    parsed = _types.parse(type)
    return neg_infinity(parsed, backend) if not parsed.is_integer else min_finite(parsed, backend)


def epsilon(type="f32", backend=None):
    """The difference between 1 and the next larger value of a float type.

    >>> nbt.constants.epsilon("f64")
    numbat.Tensor<
      f64
      2.220446049250313e-16
    >
    """
    parsed = _float(type, "epsilon")
    return _scalar(_info(parsed).eps, parsed, backend)


def smallest_positive_normal(type="f32", backend=None):
    """The smallest positive normal value of a float type.

    >>> nbt.constants.smallest_positive_normal("f32")
    numbat.Tensor<
      f32
      1.1754944e-38
    >
    """
    parsed = _float(type, "smallest_positive_normal")
    return _scalar(_info(parsed).smallest_normal, parsed, backend)


# The public API: what `help()`, `import *`, tab completion and the API pages list.
__all__ = [
    "e",
    "epsilon",
    "i",
    "infinity",
    "max",
    "max_finite",
    "min",
    "min_finite",
    "nan",
    "neg_infinity",
    "pi",
    "smallest_positive_normal",
]


def __dir__() -> list[str]:
    """Tab completion lists the public API (`__all__`), not the names this module imports."""
    return sorted(__all__)
