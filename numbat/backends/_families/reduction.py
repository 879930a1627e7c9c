"""Reductions over axes. `Array` implements the family's methods of the backend contract
(`backends/_contract.py`) over `self.xp`.

The family's rule: an op combines the elements along some axes into one element each.
The op table's reductions (`_core/_op_table.REDUCTIONS`) with a `compute` are methods made
by `_reduction_method`; the others are written out in `Array`.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np

from ..._core import _op_table
from ..._core._errors import ArgumentError
from ..._tensor._expr import recording
from ..._tensor._tensor import Template, Tensor
from ._base import ArrayBase
from ._tables import on_host


class Array(ArrayBase):
    def reduce_max(self, out, tensor, axes, keep_axes, for_shift=False):
        return self._reduce_extreme(out, tensor, axes, keep_axes, self.xp.max, -1, for_shift)

    def reduce_min(self, out, tensor, axes, keep_axes):
        return self._reduce_extreme(out, tensor, axes, keep_axes, self.xp.min, 1)

    def _reduce_extreme(self, out, tensor, axes, keep_axes, reduce, sign, for_shift=False):
        # An empty reduction's answer, as a typed scalar (u32/u64 limits stay exact).
        start = self.xp.asarray(extreme(out.type.dtype, sign), dtype=out.type.dtype)
        extremes = lambda data: reduce(data, axis=axes, keepdims=keep_axes, initial=start)
        data = self._as(tensor, out)
        if for_shift:  # a NaN's group may get any value: no NaN check
            return self._wrap(out, extremes(data))
        has_nan = lambda data: self.xp.any(self.xp.isnan(data), axis=axes, keepdims=keep_axes)
        return self._wrap(out, keeping_nan(self, data, extremes, has_nan))

    def argmax(self, out, tensor, axis, keep_axis, tie_break):
        return self._arg(out, tensor, axis, keep_axis, tie_break, self.xp.argmax)

    def argmin(self, out, tensor, axis, keep_axis, tie_break):
        return self._arg(out, tensor, axis, keep_axis, tie_break, self.xp.argmin)

    def _arg(self, out, tensor, axis, keep_axis, tie_break, fun):
        data = self.xp.asarray(tensor.data)
        if axis is None:
            data, axis = self.xp.reshape(data, (-1,)), 0
        size = data.shape[axis]
        if self.xp is not np and size and out.type.is_integer and size - 1 <= np.iinfo(out.type.dtype).max:
            # XLA: lax's own argmax/argmin (what jnp's call) reducing in the output's index type,
            # not in the 64-bit one a defn's x64 trace would give jnp (a reduction and a convert).
            fun = jax.lax.argmax if fun is self.xp.argmax else jax.lax.argmin
            search = lambda values: fun(values, axis, out.type.dtype)
        else:
            search = lambda values: fun(values, axis=axis)
        if tie_break == "high":  # the last of equal values: search the reversed axis
            index = size - 1 - search(self.xp.flip(data, axis=axis))
        else:
            index = search(data)
        return self._wrap(out, self.xp.reshape(index, out.shape).astype(out.type.dtype))

    def product(self, out, tensor, axes, keep_axes):
        data = self._as(tensor, out)
        if self.xp is np and data.dtype.kind == "c":  # XLA's complex products (see elementwise.py's docstring)
            return self._wrap(out, on_host(lambda x: jnp.prod(x, axis=axes, keepdims=keep_axes), data))
        return self._wrap(out, self.xp.prod(data, axis=axes, keepdims=keep_axes))

    def reduce(self, out, tensor, acc, fun, axes, keep_axes):
        combine = user_combiner(self, fun, out)
        data, init = self._as(tensor, out), self._as(acc, out)
        if self.xp is np:  # one call per reduced element, over whole slices
            kept = [axis for axis in range(data.ndim) if axis not in axes]
            slices = np.reshape(np.transpose(data, kept + list(axes)), [data.shape[a] for a in kept] + [-1])
            reduced = np.broadcast_to(init, slices.shape[:-1])
            for i in range(slices.shape[-1]):
                reduced = np.broadcast_to(combine(slices[..., i], reduced), slices.shape[:-1])
        else:
            reduced = jax.lax.reduce(data, init, lambda acc, x: combine(x, acc), axes)
        return self._wrap(out, self.xp.reshape(self.xp.asarray(reduced), out.shape))


def keeping_nan(backend, data, extremes, has_nan):
    """`extremes(data)`, a max or min reduction of float `data` on `backend`, with NaN where
    `has_nan(data)` says a group holds one.

    jaxlib 0.10's CPU compiler hands such reductions (and the non-overlapping windows of
    `window_max`/`window_min`, which it turns into reductions) to YNNPACK, whose answer for a
    group holding a NaN is neither NaN nor always the extreme of the rest; the other groups
    are right. Nx's answer is NaN. A sum of the data (one fast pass) tells whether any NaN
    may be there (+Inf and -Inf together say so too); only then are the groups checked.
    """
    if not (backend.xp is jnp and jnp.issubdtype(data.dtype, jnp.floating) and backend.device.platform == "cpu"):
        return extremes(data)
    checked = lambda values: jnp.where(has_nan(values), jnp.asarray(np.nan, data.dtype), extremes(values))
    return jax.lax.cond(may_hold_nan(data), checked, extremes, data)


def may_hold_nan(data):
    """Whether float `data` may hold a NaN: its sum is NaN. A sum keeps every NaN, where
    XLA's CPU max and min can lose one, and reads the data as fast; +Inf and -Inf together
    give NaN too, so a true answer sends the caller down its exact, slower path."""
    return jnp.isnan(jnp.sum(data))


def extreme(dtype, sign: int):
    """The lowest (`sign` -1) or highest (1) value of `dtype`: the integer limits, +-Inf, or
    +-the largest finite value of a float type without infinities (f8_e4m3fn)."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return info.min if sign < 0 else info.max
    if dtype.kind != "c" and not np.isinf(np.asarray(np.inf).astype(dtype)):
        return sign * float(ml_dtypes.finfo(dtype).max)
    return sign * np.inf


def user_combiner(backend, fun, out: Template):
    """`fun(a, b)` over numbat tensors as a function of arrays of `out`'s type, for XLA's
    reducers; callers pass the element first and the accumulator second, as Nx's `fun(x, acc)`. Its ops are not recorded: they belong to the reduction, not the defn's graph."""

    def combine(left, right):
        with recording(None):
            result = fun(Tensor(left, out.type, (), backend), Tensor(right, out.type, (), backend))
        if isinstance(result, (bool, int, float, complex)) and not isinstance(result, bool):
            return backend.xp.full((), result, dtype=out.type.dtype)  # a constant, as in Nx
        if not isinstance(result, Tensor):
            raise ArgumentError(f"the reducing function must return a tensor, got {type(result).__name__} {result!r}")
        if result.shape != np.broadcast_shapes(np.shape(left), np.shape(right)):  # scalars, or NumPy's rows at once
            raise ArgumentError(f"reduce function must return a scalar tensor, got: {result.shape}")
        return backend.xp.asarray(result.data).astype(out.type.dtype)

    return combine


def _reduction_method(op: _op_table.Reduction):
    """The method of a table reduction with a `compute`: `op(out, tensor, axes, keep_axes)`, its
    operand in the output's type (a truth value's in its own), NaN kept where `keeps_nan` says."""
    compute, own_type = op.compute, op.result == "u8"

    def method(self, out, tensor, axes, keep_axes):
        xp = self.xp
        data = xp.asarray(tensor.data) if own_type else self._as(tensor, out)
        if op.keeps_nan:
            reduce = lambda values: compute(xp, values, axes, keep_axes)
            result = keeping_nan(
                self, data, reduce, lambda values: xp.any(xp.isnan(values), axis=axes, keepdims=keep_axes)
            )
        else:
            result = compute(xp, data, axes, keep_axes)
        dtype = out.type.dtype
        return self._wrap(out, result if result.dtype == dtype else xp.asarray(result).astype(dtype))

    method.__name__ = method.__qualname__ = op.name
    method.from_table = True  # fill may run again (a test adding an op): it replaces its own methods
    return method


def fill(array: type) -> list[str]:
    """Makes each table reduction with a `compute` a method of `array`; refuses one with neither
    a `compute` nor a method written out. Returns the names filled in."""
    filled = []
    for op in _op_table.REDUCTIONS.values():
        if op.compute is not None:
            if op.name in vars(array) and not getattr(vars(array)[op.name], "from_table", False):
                raise ArgumentError(
                    f"reduction {op.name!r} has both a compute in the op table and a method in its family"
                )
            setattr(array, op.name, _reduction_method(op))
            filled.append(op.name)
        elif op.name not in vars(array):
            raise ArgumentError(f"reduction {op.name!r} of the op table has no compute and no method in its family")
    return filled


FILLED = fill(Array)
