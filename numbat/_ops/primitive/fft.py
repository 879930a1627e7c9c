"""Fast Fourier transforms: `fft`, `ifft`, `fft2`, `ifft2`, `rfft`, `irfft`. Real inputs
become complex (c64, or c128 for f64), as in Nx; `length`/`lengths` pad or cut each axis.

The family's rule: an op is a discrete Fourier transform (or its inverse) over some axes.
"""

from __future__ import annotations

from ..._core import _names, _types
from ..._core._errors import ArgumentError
from ..._tensor import _check
from ..._tensor._tensor import Template
from .. import _dispatch


def _transform(kind: str, tensor, lengths, axes, op: str, eps):
    tensor = _dispatch.to_tensor(tensor)
    axes = _check.sequence(op, "axes", axes, "axes")
    if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not eps > 0:
        raise ArgumentError(f"{op}: eps must be a positive number, got {eps!r}")
    if kind == "rfft" and tensor.type.is_complex:
        raise ArgumentError(f"rfft transforms a real signal, got {tensor.type}; use fft for complex input")
    if not axes:
        raise ArgumentError(f"{op} needs at least one axis to transform")
    if tensor.rank < len(axes):
        raise ArgumentError(f"{op} needs a tensor of rank >= {len(axes)}, got shape {tensor.shape}")
    axes = tuple(_names.axis_index(tensor.names, a) for a in axes)
    if lengths is None:
        lengths = tuple(tensor.shape[a] if kind != "irfft" else 2 * (tensor.shape[a] - 1) for a in axes)
    if isinstance(lengths, (int, str)):
        lengths = (lengths,) * len(axes) if lengths == "power_of_two" else (lengths,)
    lengths = _check.sequence(op, "lengths", lengths, 'positive ints or "power_of_two"')
    if kind != "irfft":  # Nx: "power_of_two" pads each axis to the next power of two
        lengths = tuple(
            1 << max(tensor.shape[a] - 1, 0).bit_length() if n == "power_of_two" else n for a, n in zip(axes, lengths)
        )
    if len(lengths) != len(axes) or not all(
        isinstance(n, int) and not isinstance(n, bool) and 1 <= n < 2**31 for n in lengths
    ):
        options = "positive ints" if kind == "irfft" else 'positive ints or "power_of_two"'
        raise ArgumentError(f"{op}: lengths must be {len(axes)} {options} below 2**31, got {lengths!r}")
    shape = list(tensor.shape)
    for axis, length in zip(axes, lengths):
        shape[axis] = length // 2 + 1 if kind == "rfft" else length
    # Nx's types: fft/ifft/rfft give to_complex(type) (c128 for f64, else c64); irfft gives
    # to_real(type): the real part's type of a complex input, the input's own type otherwise.
    type_ = _types.to_real(tensor.type) if kind == "irfft" else _types.to_complex(tensor.type)
    out = Template(tuple(shape), type_, tensor.names)
    return _dispatch.run("fft", out, (tensor,), kind=kind, lengths=lengths, axes=axes, eps=float(eps))


def fft(tensor, length=None, axis=-1, eps=1.0e-10):
    """The discrete Fourier transform along `axis`. `length` pads or cuts the axis, and
    "power_of_two" pads it to the next power of two (for every transform but `irfft`).
    As Nx's reference backend does, every transform cleans up its result: real and
    imaginary parts with `|x| <= eps` become 0 (fft2 and ifft2 after each axis).

    >>> nbt.fft(nbt.tensor([1.0, 1.0, 1.0, 1.0]))
    numbat.Tensor<
      c64[4]
      [4.0+0.0i, 0.0+0.0i, 0.0+0.0i, 0.0+0.0i]
    >
    >>> nbt.fft(nbt.tensor([1, 1, 0]), length="power_of_two")
    numbat.Tensor<
      c64[4]
      [2.0+0.0i, 1.0-1.0i, 0.0+0.0i, 1.0+1.0i]
    >
    >>> nbt.fft(nbt.tensor([1.0, 0.5, 0.0, 0.0]), eps=0.5)
    numbat.Tensor<
      c64[4]
      [1.5+0.0i, 1.0+0.0i, 0.0+0.0i, 1.0+0.0i]
    >
    """
    return _transform("fft", tensor, length, (axis,), "fft", eps)


def ifft(tensor, length=None, axis=-1, eps=1.0e-10):
    """The inverse discrete Fourier transform along `axis`.

    >>> nbt.ifft(nbt.tensor([4.0, 0.0, 0.0, 0.0]))
    numbat.Tensor<
      c64[4]
      [1.0+0.0i, 1.0+0.0i, 1.0+0.0i, 1.0+0.0i]
    >
    """
    return _transform("ifft", tensor, length, (axis,), "ifft", eps)


def fft2(tensor, lengths=None, axes=(-2, -1), eps=1.0e-10):
    """The two-dimensional discrete Fourier transform over `axes`.

    >>> nbt.fft2(nbt.tensor([[1.0, 1.0], [1.0, 1.0]]))
    numbat.Tensor<
      c64[2][2]
      [
        [4.0+0.0i, 0.0+0.0i],
        [0.0+0.0i, 0.0+0.0i]
      ]
    >
    """
    return _transform("fft", tensor, lengths, axes, "fft2", eps)


def ifft2(tensor, lengths=None, axes=(-2, -1), eps=1.0e-10):
    """The two-dimensional inverse discrete Fourier transform over `axes`.

    >>> nbt.ifft2(nbt.tensor([[4.0, 0.0], [0.0, 0.0]]))
    numbat.Tensor<
      c64[2][2]
      [
        [1.0+0.0i, 1.0+0.0i],
        [1.0+0.0i, 1.0+0.0i]
      ]
    >
    """
    return _transform("ifft", tensor, lengths, axes, "ifft2", eps)


def rfft(tensor, length=None, axis=-1, eps=1.0e-10):
    """The transform of a real signal: only the `length // 2 + 1` non-negative frequencies.

    >>> nbt.rfft(nbt.tensor([1.0, 1.0, 0.0], type="f16"), length="power_of_two")
    numbat.Tensor<
      c64[3]
      [2.0+0.0i, 1.0-1.0i, 0.0+0.0i]
    >

    >>> nbt.rfft(nbt.tensor([1.0, 2.0, 1.0, 0.0]))
    numbat.Tensor<
      c64[3]
      [4.0+0.0i, 0.0-2.0i, 0.0+0.0i]
    >
    """
    return _transform("rfft", tensor, length, (axis,), "rfft", eps)


def irfft(tensor, length=None, axis=-1, eps=1.0e-10):
    """The inverse of `rfft`: a real signal of `length` points (default `2 * (n - 1)`).

    >>> nbt.irfft(nbt.tensor([4.0, -2j, 0.0]))
    numbat.Tensor<
      f32[4]
      [1.0, 2.0, 1.0, 0.0]
    >
    """
    return _transform("irfft", tensor, length, (axis,), "irfft", eps)
