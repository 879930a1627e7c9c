"""Complex numbers: `complex`, `real`, `imag`, `conjugate`, `phase`.

Real parts and phases are of the matching real type (f32 for c64, f64 for c128);
integers count as f32, as in Nx.

The family's rule, by value domain: an op builds a complex number or takes one apart.
"""

from __future__ import annotations

from ..._core import _types
from ._apply import binary, unary


def _parts_type(type_: _types.Type) -> _types.Type:
    return _types.to_real(_types.to_floating(type_))


def complex(real, imag):
    """A complex tensor from its real and imaginary parts.

    >>> nbt.complex(nbt.tensor([1.0, 2.0]), nbt.tensor([0.5, -1.0]))
    numbat.Tensor<
      c64[2]
      [1.0+0.5i, 2.0-1.0i]
    >
    """
    return binary("complex", real, imag, lambda type_: _types.to_complex(_types.to_floating(type_)))


def real(tensor):
    """The real part (a real tensor is returned as a float tensor).

    >>> nbt.real(nbt.tensor([1 + 2j, -3j]))
    numbat.Tensor<
      f32[2]
      [1.0, -0.0]
    >
    """
    return unary("real", tensor, _parts_type)


def imag(tensor):
    """The imaginary part (zeros for a real tensor).

    >>> nbt.imag(nbt.tensor([1 + 2j, -3j]))
    numbat.Tensor<
      f32[2]
      [2.0, -3.0]
    >
    """
    return unary("imag", tensor, _parts_type)


def conjugate(tensor):
    """The complex conjugate (a real tensor becomes complex).

    >>> nbt.conjugate(nbt.tensor([1 + 2j, 3.0]))
    numbat.Tensor<
      c64[2]
      [1.0-2.0i, 3.0-0.0i]
    >
    """
    return unary("conjugate", tensor, lambda type_: _types.to_complex(_types.to_floating(type_)))


def phase(tensor):
    """The angle of each element in the complex plane, in radians.

    >>> nbt.phase(nbt.tensor([1.0, -1.0, 0.0]))
    numbat.Tensor<
      f32[3]
      [0.0, 3.1415927, 0.0]
    >
    """
    return unary("phase", tensor, _parts_type)
