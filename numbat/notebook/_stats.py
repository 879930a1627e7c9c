"""Summary statistics of a tensor, computed where its data lives and in bounded memory.

XLA tensors: one jitted function on the device, in the tensor's own type (integers and
floats narrower than 32 bits are read as f32), so only a few scalars reach the host.
NumPy tensors: min and max in the tensor's own type, sums with a float64 accumulator,
`CHUNK` elements at a time where a temporary is needed, so the extra memory is a few
megabytes whatever the tensor's size. Floats count NaN and infinities and compute
min, max, mean and std over the finite values; complex tensors report the same
statistics of their magnitudes |x| (a complex number has no order).

>>> dict(statistics(np.array([1.0, np.nan, 3.0], np.float32), nbt.Type("f", 32)))
{'min': '1.0', 'max': '3.0', 'mean': '2.0', 'std': '1.0', 'NaN': '1', 'Inf': '0'}
>>> [label for label, _ in statistics(np.array([3 + 4j, 0j]), nbt.Type("c", 128))]
['min |x|', 'max |x|', 'mean |x|', 'std |x|', 'NaN', 'Inf']
"""

from __future__ import annotations

import functools
import math

import jax
import jax.numpy as jnp
import numpy as np

from .._core import _format
from .._core._types import Type

CHUNK = 1 << 18  # elements widened to float64 at a time on the host (2 MiB)


def summary(tensor) -> list[tuple[str, str]]:
    """`statistics` of `tensor`'s elements, computed by its own backend's data: on the
    device for XLA tensors, in chunks on the host for NumPy ones."""
    data = tensor.data
    if isinstance(data, np.ndarray):
        return statistics(data, tensor.type)
    return _device(data, tensor.type)


def statistics(array: np.ndarray, type_: Type) -> list[tuple[str, str]]:
    """Summary rows `(label, value)` of a host array, in chunks of `CHUNK` elements."""
    array = np.asarray(array)
    if type_.is_integer:
        count, mean, m2 = 0, 0.0, 0.0
        for part in _chunks(array):
            count, mean, m2 = _merge(count, mean, m2, part.astype(np.float64))
        return [
            ("min", _format.number(array.min(), type_)),  # exact, in the tensor's own type
            ("max", _format.number(array.max(), type_)),
            ("mean", _float(mean)),
            ("std", _float(math.sqrt(m2 / max(count, 1)))),
        ]
    if not type_.is_complex and array.size:
        low, high = array.min(), array.max()  # in the tensor's own type: no copy; NaN shows here
        if np.isfinite(low) and np.isfinite(high):  # every value finite: no masks needed
            own = array.dtype if type_.bits >= 32 else np.dtype(np.float32)  # bf16, f16 and f8 read as f32
            mean = float(array.mean(dtype=np.float64))  # NumPy sums in buffered float64 blocks
            m2 = sum(
                float(np.square(part.astype(own, copy=False) - own.type(mean)).sum(dtype=np.float64))
                for part in _chunks(array)
            )
            return _float_rows(type_, array.size, low, high, mean, math.sqrt(m2 / array.size), 0, 0)
    count, mean, m2, nans, infs = 0, 0.0, 0.0, 0, 0
    low, high = math.inf, -math.inf
    for part in _chunks(array):
        wide = np.abs(part).astype(np.float64) if type_.is_complex else part.astype(np.float64)
        nan, inf = np.isnan(wide), np.isinf(wide)
        nans, infs = nans + int(nan.sum()), infs + int(inf.sum())
        finite = wide[~(nan | inf)] if nan.any() or inf.any() else wide
        if finite.size:
            low, high = min(low, float(finite.min())), max(high, float(finite.max()))
            count, mean, m2 = _merge(count, mean, m2, finite)
    return _float_rows(type_, count, low, high, mean, math.sqrt(m2 / max(count, 1)), nans, infs)


def _chunks(array: np.ndarray):
    """`array`'s elements in row-major order, `CHUNK` at a time: views of a contiguous
    array, copies of one chunk at a time of any other layout (never the whole array)."""
    flat = array.reshape(-1) if array.flags.c_contiguous else array.flat
    for start in range(0, array.size, CHUNK):
        yield flat[start : start + CHUNK]


def _merge(count: int, mean: float, m2: float, values: np.ndarray) -> tuple[int, float, float]:
    """Chan's update of a running count, mean and sum of squared deviations by `values`."""
    n = values.size
    if not n:
        return count, mean, m2
    part_mean = float(values.mean())
    part_m2 = float(np.square(values - part_mean).sum())
    total = count + n
    delta = part_mean - mean
    return total, mean + delta * n / total, m2 + part_m2 + delta * delta * count * n / total


def _float_rows(type_: Type, count, low, high, mean, std, nans, infs) -> list[tuple[str, str]]:
    rows = []
    if count:
        if type_.is_complex:
            rows += [("min |x|", _float(low)), ("max |x|", _float(high))]
            rows += [("mean |x|", _float(mean)), ("std |x|", _float(std))]
        else:
            exact = (type_.dtype.type(v) for v in (low, high))  # values of the tensor, exactly (from float64 too)
            rows += [("min", _format.number(next(exact), type_)), ("max", _format.number(next(exact), type_))]
            rows += [("mean", _float(mean)), ("std", _float(std))]
    return rows + [("NaN", str(int(nans))), ("Inf", str(int(infs)))]


def _float(value) -> str:
    """A statistic, to 6 significant digits."""
    value = float(value)
    if not math.isfinite(value):
        return _format.number(np.float64(value), Type("f", 64))
    return _format.number(np.float64(f"{value:.6g}"), Type("f", 64))


def _device(data, type_: Type) -> list[tuple[str, str]]:
    """`statistics` of XLA data: one kernel on the device; the masked kernel (slower)
    runs only when the plain one meets a NaN or an infinity (tests/test_notebook_views.py:
    `test_a_large_view_counts_a_nan_wherever_it_is`)."""
    with jax.enable_x64(True):  # keeps s64/u64/f64/c128 data 64-bit, without JAX's narrowing warnings
        if type_.is_integer:
            low, high, mean, std = (np.asarray(v) for v in _jitted_statistics("integer", type_.bits == 64)(data))
            return [
                ("min", _format.number(low, type_)),
                ("max", _format.number(high, type_)),
                ("mean", _float(mean)),
                ("std", _float(std)),
            ]
        wide = (type_.bits // 2 if type_.is_complex else type_.bits) == 64
        values = [v.item() for v in _jitted_statistics("plain", wide)(data)]
        # The mean is the witness: a sum keeps every NaN and Inf, where XLA's CPU min and max
        # can lose a NaN (`backends/_families/reduction.keeping_nan`).
        if not all(math.isfinite(v) for v in values[:3]):
            values = [v.item() for v in _jitted_statistics("masked", wide)(data)]
    low, high, mean, std, nans, infs, count = values
    return _float_rows(type_, int(count), low, high, mean, std, nans, infs)


@functools.cache
def _jitted_statistics(kind: str, wide64: bool):
    """A jitted statistics function: `integer` (min, max, mean, std), `plain` (every value
    finite) or `masked` (finite values only, NaN and Inf counted)."""
    real = jnp.float64 if wide64 else jnp.float32

    def statistics_of(data):
        if kind == "integer":
            wide = data.astype(real)
            mean = wide.mean()
            return data.min(), data.max(), mean, jnp.sqrt(jnp.square(wide - mean).mean())
        wide = (jnp.abs(data) if jnp.iscomplexobj(data) else data).astype(real)
        if kind == "plain":
            mean = wide.mean()
            std = jnp.sqrt(jnp.square(wide - mean).mean())
            return wide.min(), wide.max(), mean, std, 0, 0, wide.size
        finite = jnp.isfinite(wide)
        count = finite.sum()
        mean = jnp.where(finite, wide, 0).sum() / jnp.maximum(count, 1)
        std = jnp.sqrt(jnp.where(finite, jnp.square(wide - mean), 0).sum() / jnp.maximum(count, 1))
        low, high = jnp.where(finite, wide, jnp.inf).min(), jnp.where(finite, wide, -jnp.inf).max()
        return low, high, mean, std, jnp.isnan(wide).sum(), jnp.isinf(wide).sum(), count

    return jax.jit(statistics_of)
