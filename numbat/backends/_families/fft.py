"""Fast Fourier transforms. `Interface` is what a backend implements; `Array` implements it over `self.xp`."""

from __future__ import annotations

import abc

import numpy as np

from ..._tensor import Template, Tensor
from .._cast import cast
from ._base import ArrayBase


class Interface(abc.ABC):
    """Fast Fourier transforms."""

    @abc.abstractmethod
    def fft(self, out: Template, tensor: Tensor, kind: str, lengths: tuple, axes: tuple) -> Tensor:
        """Transform `kind` (fft, ifft, rfft, irfft) over `axes`, with `lengths` points each."""


class Array(ArrayBase, Interface):
    def fft(self, out, tensor, kind, lengths, axes):
        xp = self.xp
        data = xp.asarray(tensor.data)
        wide = data.dtype in (np.float64, np.complex128)  # f64/c128 keep 64 bits; the rest compute in f32/c64
        if kind == "rfft":  # XLA transforms f32 and f64 only: narrower floats and integers are widened
            data = data.astype(np.float64 if wide else np.float32)
        else:
            data = data.astype(np.complex128 if wide else np.complex64)
        fun = {"fft": xp.fft.fftn, "ifft": xp.fft.ifftn, "rfft": xp.fft.rfftn, "irfft": xp.fft.irfftn}[kind]
        if kind != "irfft" and all(data.shape[a] == n for a, n in zip(axes, lengths)):
            # The whole axes: no `s`, so jax.numpy adds no zero-length pad (whose 64-bit
            # padding value would keep a 32-bit defn off jit's C++ dispatch).
            return self._wrap(out, cast(xp, fun(data, axes=axes), out.type.dtype))
        return self._wrap(out, cast(xp, fun(data, s=lengths, axes=axes), out.type.dtype))
