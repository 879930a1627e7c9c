"""Ops of the math family built from its primitive ones: `log` with a base (Nx's `log/2`,
`log(tensor) / log(base)`); without a base it is the primitive `log`."""

from __future__ import annotations

from ..._core import _types
from ..._core._errors import ArgumentError
from ..primitive import math as primitive_math
from ..primitive.elementwise import divide


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
        return primitive_math.log(tensor)
    if _types.is_number(base) and not isinstance(base, complex) and (base <= 0 or base == 1):
        raise ArgumentError(f"expected base to be greater than 0 and different than 1, got: {base!r}")
    return divide(primitive_math.log(tensor), primitive_math.log(base))
