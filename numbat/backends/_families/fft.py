"""Fast Fourier transforms. `Array` implements the family's methods of the backend contract
(`backends/_contract.py`) over `self.xp`.

The family's rule: an op is a discrete Fourier transform (or its inverse) over some axes.
"""

from __future__ import annotations

import jax
import numpy as np

from .._cast import cast
from . import _base
from ._base import ArrayBase


class Array(ArrayBase):
    def fft(self, out, tensor, kind, lengths, axes, eps):
        xp = self.xp
        data = xp.asarray(tensor.data)
        wide = data.dtype in (np.float64, np.complex128)  # f64/c128 keep 64 bits; the rest compute in f32/c64
        if kind == "rfft":  # XLA transforms f32 and f64 only: narrower floats and integers are widened
            data = data.astype(np.float64 if wide else np.float32)
        else:
            data = data.astype(np.complex128 if wide else np.complex64)
        fun = {"fft": xp.fft.fft, "ifft": xp.fft.ifft, "rfft": xp.fft.rfft, "irfft": xp.fft.irfft}[kind]
        # As Nx: fft2 and ifft2 transform their second axis, clean up, then their first.
        for axis, length in reversed(tuple(zip(axes, lengths))):
            # The whole axis: no `n`, so jax.numpy adds no zero-length pad (whose 64-bit
            # padding value would keep a 32-bit defn off jit's C++ dispatch).
            whole = kind != "irfft" and data.shape[axis] == length
            data = _cleaned(xp, fun(data, axis=axis) if whole else fun(data, n=length, axis=axis), eps)
        return self._wrap(out, cast(xp, data, out.type.dtype))


def _limit(dtype: np.dtype, eps: float):
    """The largest value of `dtype`'s real type that is at most `eps`: |x| <= it in that
    type exactly when |x| <= eps (Nx compares in f64)."""
    real = np.dtype(np.float64 if dtype in (np.float64, np.complex128) else np.float32)
    with np.errstate(over="ignore"):
        limit = real.type(eps)
    return np.nextafter(limit, real.type(0)) if float(limit) > eps else limit


def _cleaned(xp, data, eps: float):
    """Nx's clean-up of a transform: real and imaginary parts with |x| <= eps become +0.
    The clean-up changes values, not the gradient (Nx differentiates the transform itself):
    traced, a cleaned part is `x - stop_gradient(x)`, zero with x's derivative."""
    limit = _limit(data.dtype, eps)
    zero = (lambda x: xp.zeros_like(x)) if xp is np else (lambda x: x - jax.lax.stop_gradient(x))
    if data.dtype.kind != "c":
        return xp.where(xp.abs(data) <= limit, zero(data), data)
    real, imag = xp.real(data), xp.imag(data)
    real = xp.where(xp.abs(real) <= limit, zero(real), real)
    imag = xp.where(xp.abs(imag) <= limit, zero(imag), imag)
    if xp is np:
        cleaned = np.empty_like(data)
        cleaned.real, cleaned.imag = real, imag
        return cleaned
    return jax.lax.complex(real, imag)


_base.fill(Array, "fft")  # checks that every entry of the family has its method here
