"""Cumulative and window ops. `Interface` is what a backend implements; `Array` implements it over `self.xp`."""

from __future__ import annotations

import abc
import typing

import jax
import numpy as np

from ._base import ArrayBase

if typing.TYPE_CHECKING:
    from ..._tensor import Tensor
    from .._abstract import Template


class Interface(abc.ABC):
    """Cumulative and window ops."""

    @abc.abstractmethod
    def cumulative(self, out: Template, tensor: Tensor, kind: str, axis: int, reverse: bool) -> Tensor:
        """A running sum, product, min or max (`kind`) along `axis`."""

    @abc.abstractmethod
    def window(
        self, out: Template, tensor: Tensor, kind: str, window: tuple, strides: tuple, padding: tuple, dilations: tuple
    ) -> Tensor:
        """Reduces each window (sum, product, max or min): `padding` is a (low, high) pair per axis."""


class Array(ArrayBase, Interface):
    def cumulative(self, out, tensor, kind, axis, reverse):
        xp, data = self.xp, self._as(tensor, out)
        if reverse:
            data = xp.flip(data, axis)
        if xp is np:
            ufunc = {"sum": np.add, "product": np.multiply, "min": np.fmin, "max": np.fmax}[kind]
            result = ufunc.accumulate(data, axis=axis, dtype=out.type.dtype)
            if kind in ("min", "max") and data.dtype.kind == "f":  # NaN propagates onward, as in XLA
                result = np.where(np.logical_or.accumulate(np.isnan(data), axis=axis), np.nan, result)
        else:
            fun = {"sum": jax.lax.cumsum, "product": jax.lax.cumprod, "min": jax.lax.cummin, "max": jax.lax.cummax}[
                kind
            ]
            result = fun(data, axis=axis)
        if reverse:
            result = xp.flip(result, axis)
        return self._wrap(out, result)

    def window(self, out, tensor, kind, window, strides, padding, dilations):
        init = {"sum": 0, "product": 1, "max": -np.inf, "min": np.inf}[kind]
        xp, data = self.xp, self._as(tensor, out)
        if data.dtype.kind in "iu":
            info = np.iinfo(data.dtype)
            init = {"max": info.min, "min": info.max}.get(kind, init)
        if xp is np:
            padded = np.pad(data, padding, constant_values=init)
            dilated = tuple((w - 1) * d + 1 for w, d in zip(window, dilations))
            views = np.lib.stride_tricks.sliding_window_view(padded, dilated)
            views = views[tuple(slice(None, None, s) for s in strides)]
            views = views[(Ellipsis,) + tuple(slice(None, None, d) for d in dilations)]
            axes = tuple(range(data.ndim, 2 * data.ndim))
            reducer = {"sum": np.sum, "product": np.prod, "max": np.max, "min": np.min}[kind]
            return self._wrap(out, reducer(views, axis=axes).astype(out.type.dtype))
        reducer = {"sum": jax.lax.add, "product": jax.lax.mul, "max": jax.lax.max, "min": jax.lax.min}[kind]
        init_value = jax.numpy.asarray(init, dtype=data.dtype)
        result = jax.lax.reduce_window(data, init_value, reducer, window, strides, padding, window_dilation=dilations)
        return self._wrap(out, result)
