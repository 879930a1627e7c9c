"""Converting array data between Nx types with Nx's rules, the same on NumPy and XLA.

`cast(xp, data, dtype)` is what every backend op uses to bring an operand to the
output type (and what `as_type` is). It follows Nx (and XLA's convert):

- complex to real keeps the real part (no NumPy ComplexWarning, no JAX
  DeprecationWarning);
- float to integer truncates toward zero, and values outside the integer's
  range saturate: NaN becomes 0, +Inf and values above the maximum become the
  maximum, -Inf and values below the minimum the minimum (NumPy alone would give
  -2**31 or wrap around);
- everything else is NumPy's `astype` (float to float rounds to nearest, Inf and
  NaN kept; f8_e4m3fn has no infinities, so Inf becomes NaN on every path).

>>> cast(np, np.array([np.inf, np.nan, -np.inf, 3e10, -2.7]), np.dtype("int32")).tolist()
[2147483647, 0, -2147483648, 2147483647, -2]
>>> cast(np, np.array([300.0, -5.0]), np.dtype("uint8")).tolist()
[255, 0]
>>> cast(np, np.array([1 + 2j]), np.dtype("float32")).tolist()
[1.0]
"""

from __future__ import annotations

import ml_dtypes
import numpy as np


def cast(xp, data, dtype: np.dtype):
    """`data` (a NumPy or JAX array) as `dtype`, with Nx's conversion rules."""
    source = data.dtype
    if source == dtype:
        return data
    kind = dtype.kind
    if source.kind == "c" and kind != "c":
        data = xp.real(data)
        source = data.dtype
    if kind in "iu" and source.kind not in "iub":
        return _float_to_integer(xp, data, dtype)
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
