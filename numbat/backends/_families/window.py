"""Window ops: window (sum, product, max, min), window_reduce and window_scatter. `Array`
implements the family's methods of the backend contract (`backends/_contract.py`) over
`self.xp`.

The family's rule: an op reduces each window of a tensor (a box of given shape, strides,
padding and dilations) to one element, or scatters one value per window back.
"""

from __future__ import annotations

import jax
import numpy as np

from . import _base
from ._base import ArrayBase
from .reduction import extreme, keeping_nan, user_combiner


class Array(ArrayBase):
    def window(self, out, tensor, kind, window, strides, padding, dilations):
        xp, data = self.xp, self._as(tensor, out)
        if kind in ("sum", "product"):
            init = 0 if kind == "sum" else 1
        else:  # padding never wins: the type's lowest (max) or highest (min) value
            init = extreme(data.dtype, -1 if kind == "max" else 1)
        if xp is np:
            padded = np.pad(data, padding, constant_values=init) if data.ndim else data  # NumPy: [] is no width
            dilated = tuple((w - 1) * d + 1 for w, d in zip(window, dilations))
            views = np.lib.stride_tricks.sliding_window_view(padded, dilated)
            views = views[tuple(slice(None, None, s) for s in strides)]
            views = views[(Ellipsis,) + tuple(slice(None, None, d) for d in dilations)]
            axes = tuple(range(data.ndim, 2 * data.ndim))
            reducer = {"sum": np.sum, "product": np.prod, "max": np.max, "min": np.min}[kind]
            return self._wrap(out, reducer(views, axis=axes).astype(out.type.dtype))
        reducer = {"sum": jax.lax.add, "product": jax.lax.mul, "max": jax.lax.max, "min": jax.lax.min}[kind]
        init_value = np.asarray(init, dtype=data.dtype)  # concrete, so JAX sees a max/min/add monoid (differentiable)

        def reduce(values, reducer=reducer, init_value=init_value):
            return jax.lax.reduce_window(values, init_value, reducer, window, strides, padding, None, dilations)

        if kind in ("sum", "product"):
            return self._wrap(out, reduce(data))
        zero = np.zeros((), data.dtype)  # a window's NaN: a max of 0s and 1s
        has_nan = lambda values: (
            reduce(jax.lax.stop_gradient(xp.isnan(values).astype(data.dtype)), jax.lax.max, zero) > zero
        )
        return self._wrap(out, keeping_nan(self, data, reduce, has_nan))

    def window_reduce(self, out, tensor, acc, fun, window, strides, padding, dilations):
        combine = user_combiner(self, fun, out)
        data, init = self._as(tensor, out), self._as(acc, out)
        if self.xp is np:  # one call per window element, over every window at once
            windows = _gather_windows(np, data, init, window, strides, padding, dilations)
            slices = windows.reshape(out.shape + (-1,))
            reduced = np.broadcast_to(init, out.shape)
            for i in range(slices.shape[-1]):
                reduced = np.broadcast_to(combine(slices[..., i], reduced), out.shape)
        else:  # XLA folds as computation(acc, x); Nx's function takes (x, acc)
            reduced = jax.lax.reduce_window(
                data, init, lambda acc, x: combine(x, acc), window, strides, padding, None, dilations
            )
        return self._wrap(out, self.xp.asarray(reduced).astype(out.type.dtype))

    def window_scatter(self, out, tensor, source, init, kind, window, strides, padding):
        xp, data = self.xp, self.xp.asarray(tensor.data)
        rank, no_dilation = data.ndim, (1,) * data.ndim
        losing = extreme(data.dtype, -1 if kind == "max" else 1)  # padding never wins a window
        windows = _gather_windows(xp, data, losing, window, strides, padding, no_dilation)
        padded_shape = tuple(size + low + high for size, (low, high) in zip(data.shape, padding))
        positions = xp.arange(int(np.prod(padded_shape))).reshape(padded_shape)
        position_windows = _gather_windows(xp, positions, 0, window, strides, (), no_dilation)
        flat = windows.reshape(windows.shape[:rank] + (-1,))
        select = xp.argmax if kind == "max" else xp.argmin
        chosen = flat.shape[-1] - 1 - select(xp.flip(flat, axis=-1), axis=-1)[..., None]  # the last extreme
        targets = xp.take_along_axis(position_windows.reshape(flat.shape), chosen, axis=-1).reshape(-1)
        values = self._as(source, out).reshape(-1)
        if xp is np:
            total = np.zeros(positions.size, dtype=out.type.dtype)
            np.add.at(total, targets, values)
        else:
            total = xp.zeros(positions.size, dtype=out.type.dtype).at[targets].add(values)
        inside = tuple(slice(low, low + size) for size, (low, _high) in zip(data.shape, padding))
        return self._wrap(out, total.reshape(padded_shape)[inside] + self._as(init, out))


def _gather_windows(xp, data, init, window, strides, padding, dilations):
    """Every window of `data` padded with `init` (`padding` () for none), shape `out + window`."""
    rank = data.ndim
    if padding:
        data = xp.pad(data, padding, constant_values=xp.asarray(init, dtype=data.dtype))
    indices = []
    for axis in range(rank):
        span = (window[axis] - 1) * dilations[axis] + 1
        count = (data.shape[axis] - span) // strides[axis] + 1
        index = xp.arange(count)[:, None] * strides[axis] + xp.arange(window[axis])[None, :] * dilations[axis]
        shape = [1] * (2 * rank)
        shape[axis], shape[rank + axis] = count, window[axis]
        indices.append(index.reshape(shape))
    return data[tuple(indices)]


_base.fill(Array, "window")  # checks that every entry of the family has its method here
