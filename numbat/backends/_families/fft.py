"""Fast Fourier transforms. `Interface` is what a backend implements; `Array` implements it over `self.xp`."""

from __future__ import annotations

import abc
import typing

from ._base import ArrayBase

if typing.TYPE_CHECKING:
    from ..._tensor import Tensor
    from .._abstract import Template


class Interface(abc.ABC):
    """Fast Fourier transforms."""

    @abc.abstractmethod
    def fft(self, out: Template, tensor: Tensor, kind: str, lengths: tuple, axes: tuple) -> Tensor:
        """Transform `kind` (fft, ifft, rfft, irfft) over `axes`, with `lengths` points each."""


class Array(ArrayBase, Interface):
    def fft(self, out, tensor, kind, lengths, axes):
        xp = self.xp
        data = xp.asarray(tensor.data)
        fun = {"fft": xp.fft.fftn, "ifft": xp.fft.ifftn, "rfft": xp.fft.rfftn, "irfft": xp.fft.irfftn}[kind]
        return self._wrap(out, fun(data, s=lengths, axes=axes).astype(out.type.dtype))
