"""Converting array data between Nx types with Nx's rules, the same on NumPy and XLA.

`cast(xp, data, dtype)` is what every backend op uses to bring an operand to the
output type (and what `as_type` is). It follows Nx (and XLA's convert):

- complex to real keeps the real part (no NumPy ComplexWarning, no JAX
  DeprecationWarning);
- float to integer truncates toward zero, and values outside the integer's
  range saturate: NaN becomes 0, +Inf and values above the maximum become the
  maximum, -Inf and values below the minimum the minimum (NumPy alone would give
  -2**31 or wrap around);
- integer to a sub-byte integer (s2, s4, u2, u4) keeps the low bits, as every
  integer narrowing does (Nx's binary backend writes the value in the type's bits);
- one sub-byte type to another, on XLA, reads its answer from a table of the target
  type indexed by the source's bits (`_table_cast`), so no kernel extends or narrows
  one sub-byte integer to another: XLA on an NVIDIA GPU (jax 0.11.2, H200) gave [0, 1]
  for a u2 [2, 3] cast to u4 through u8 and a mask. The table is used on every
  platform, so the CPU runs the code a GPU runs (tests/test_subbyte_types.py: every
  pair of sub-byte types, every value, every path);
- everything else is NumPy's `astype` (float to float rounds to nearest, Inf and
  NaN kept; f8_e4m3fn has no infinities, so Inf becomes NaN on every path).

>>> cast(np, np.array([np.inf, np.nan, -np.inf, 3e10, -2.7]), np.dtype("int32")).tolist()
[2147483647, 0, -2147483648, 2147483647, -2]
>>> cast(np, np.array([300.0, -5.0]), np.dtype("uint8")).tolist()
[255, 0]
>>> cast(np, np.array([1 + 2j]), np.dtype("float32")).tolist()
[1.0]
>>> cast(np, np.array([7, 8, -9, 300]), np.dtype(ml_dtypes.int4)).tolist()
[7, -8, 7, -4]
>>> cast(np, np.array([7.5, 8.0, -9.0, np.nan]), np.dtype(ml_dtypes.int4)).tolist()
[7, 7, -8, 0]
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

# The sub-byte integer dtypes, and the byte-wide dtype each computes in.
SUBBYTE_WIDE = {
    np.dtype(ml_dtypes.int2): np.dtype(np.int8),
    np.dtype(ml_dtypes.int4): np.dtype(np.int8),
    np.dtype(ml_dtypes.uint2): np.dtype(np.uint8),
    np.dtype(ml_dtypes.uint4): np.dtype(np.uint8),
}


def cast(xp, data, dtype: np.dtype):
    """`data` (a NumPy or JAX array) as `dtype`, with Nx's conversion rules."""
    source = data.dtype
    if source == dtype:
        return data
    if dtype in SUBBYTE_WIDE:
        return _to_subbyte(xp, data, dtype)
    if source in SUBBYTE_WIDE:  # through the byte-wide type: NumPy's int4 casts are not all defined
        data = data.astype(SUBBYTE_WIDE[source])
        source = data.dtype
    kind = dtype.kind
    if source.kind == "c" and kind != "c":
        data = xp.real(data)
        source = data.dtype
    if kind in "iu" and source.kind not in "iub":
        return _float_to_integer(xp, data, dtype)
    return data.astype(dtype)


def wrap(data, dtype: np.dtype):
    """Integer `data` (s8/u8 or wider) wrapped to the sub-byte `dtype`'s bits, as `dtype`."""
    wide = SUBBYTE_WIDE[dtype]
    data = data.astype(wide)  # the low 8 bits (astype wraps integers on NumPy and XLA)
    shift = 8 - ml_dtypes.iinfo(dtype).bits
    if wide.kind == "i":  # sign-extend the low bits
        data = (data << shift) >> shift
    else:
        data = data & (0xFF >> shift)
    return data.astype(dtype)  # every value in range: exact


def _to_subbyte(xp, data, dtype: np.dtype):
    wide = SUBBYTE_WIDE[dtype]
    if data.dtype in SUBBYTE_WIDE:
        if xp is not np:
            return _table_cast(xp, data, dtype)
        data = data.astype(SUBBYTE_WIDE[data.dtype])
    if data.dtype.kind in "iub":
        return wrap(data, dtype)
    info = ml_dtypes.iinfo(dtype)  # float (or complex): saturate to the sub-byte range
    data = xp.clip(cast(xp, data, wide), info.min, info.max)
    return data.astype(dtype)


def _float_to_integer(xp, data, dtype: np.dtype):
    info = np.iinfo(dtype)
    # Compared in the float type: max rounds up there (2**31 in f32), so `>=` is exactly "does not
    # fit"; a maximum beyond the float type's range leaves only +Inf above it.
    top, bottom, largest = float(info.max), float(info.min), float(ml_dtypes.finfo(data.dtype).max)
    high = data >= (top if top <= largest else np.inf)
    low = data <= (bottom if bottom >= -largest else -np.inf)
    safe = xp.where(high | low | xp.isnan(data), 0, data)
    result = safe.astype(dtype)
    result = xp.where(high, xp.asarray(info.max, dtype=dtype), result)
    return xp.where(low, xp.asarray(info.min, dtype=dtype), result)


def _table_cast(xp, data, dtype: np.dtype):
    """Sub-byte `data` as another sub-byte `dtype` on XLA: the answer for each bit pattern of
    the source (the low bits of its byte-wide value) read from a constant table of `dtype`.
    The table is stored last pattern first: in order, u2 to u4's table is an iota, which XLA
    rewrites as one and may fold with the look-up back into the two converts."""
    info = ml_dtypes.iinfo(data.dtype)
    values = np.arange(info.min, info.max + 1)
    last = values.size - 1
    table = np.empty(values.size, dtype)
    table[last - (values & last)] = wrap(values, dtype)
    index = last - (data.astype(SUBBYTE_WIDE[data.dtype]).astype(np.int32) & last)
    return xp.take(xp.asarray(table), index, mode="clip")
