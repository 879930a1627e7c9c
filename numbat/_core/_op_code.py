"""The code that the op table's entries compute with (`_core/_op_table.py`, each entry's
`compute`): a function of `(xp, *arrays)`, `xp` NumPy or jax.numpy, written once for both
backends. What the array module alone cannot say lives here: jax.lax's primitives on XLA
(`lax_unary`, `lax_binary`), JAX's host functions where NumPy has none (`host`), and the
algorithms of Nx's own rules (rounding half away from zero, the sign of a complex number, the
principal cube root, integer powers that wrap around, truncating integer division, ...). The
other families' entries (`_op_table.STRUCTURED`) compute with the functions of the second half,
of `(xp, out, *arrays, **params)`: slices, gathers, Nx's sort order, cumulative ops, pad,
concatenate, dot_general, the transforms with Nx's clean-up, select, clip and stop_grad.

>>> import numpy as np
>>> round_half_away(np, np.array([-2.5, 0.5, 1.5])).tolist()
[-3.0, 1.0, 2.0]
>>> quotient(np, np.array([7, -7]), np.array([2, 2])).tolist()
[3, -3]
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np


def on_host(jax_fun, x):
    """`jax_fun(x)` for NumPy `x`, computed by XLA on the host CPU, as NumPy."""
    with jax.enable_x64(True):  # keep f64/c128 data 64-bit
        return np.asarray(jax_fun(jax.device_put(x, jax.devices("cpu")[0])))  # x: an array or a tuple


def host(jax_fun):
    """`jax_fun` for both array modules: on NumPy data it runs on the host CPU and returns NumPy."""

    def fun(xp, x):
        return on_host(jax_fun, x) if xp is np else jax_fun(x)

    return fun


def lax_unary(np_name: str, lax_fun):
    """`np.<np_name>` on NumPy; on jax.numpy the lax primitive itself. jax.numpy's function
    binds that very primitive, from inside a jit of its own that a trace pays for op
    after op (about two thirds of tracing a chain of element-wise ops)."""
    np_fun = getattr(np, np_name)
    return lambda xp, x: np_fun(x) if xp is np else lax_fun(x)


def lax_binary(np_name: str, lax_fun, kinds: str = "biufc"):
    """`xp.<np_name>`, or on jax.numpy the lax primitive itself when no broadcasting beyond
    a scalar operand is needed and the operands share one type of `kinds` (NumPy's letters;
    jax.numpy's function binds the same primitive then)."""

    np_fun = getattr(np, np_name)

    def binary(xp, a, b):
        if xp is np:
            return np_fun(a, b)
        if a.dtype == b.dtype and (a.shape == b.shape or not a.shape or not b.shape) and a.dtype.kind in kinds:
            return lax_fun(a, b)
        return getattr(xp, np_name)(a, b)

    return binary


# Float types whose subnormals stay subnormal when XLA computes in f32 (f16 and the 8-bit
# floats widen to normal f32 numbers and keep theirs).
_F32_SUBNORMALS = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(ml_dtypes.bfloat16))


def as_zero(xp, x):
    """`x` with subnormal elements read as (signed) zero, for the ops that XLA on CPU gets
    wrong for subnormal inputs, neither IEEE's answer nor zero's: atan2(1e-45, 1e-45) is NaN
    in f32, atan2(5e-324, -1.0) is -pi in f64, 1e-45 ** 0.5 is 2.6e-23, cbrt(1e-45) is
    -5.6e-16. Reading them as zero (XLA's nominal rule on CPU) on every backend gives one
    answer; other types and ops keep their subnormals (the op table's `subnormals_as_zero`)."""
    if x.dtype not in _F32_SUBNORMALS:
        return x
    tiny = float(ml_dtypes.finfo(x.dtype).smallest_normal)
    return xp.where(xp.abs(x) < tiny, xp.copysign(xp.zeros_like(x), x), x)


# --- elementwise


def integer_pow(xp, base, exponent):
    """Integer power by squaring, wrapping around in the type as every integer op does (u8 2 to
    the 128 is 0 on every backend). A negative exponent (refused by the front-end where its
    values are known) gives XLA's answer: 1 for base 1, +-1 for base -1, else 0."""
    one = xp.ones_like(base)
    result, square = one, base
    bits = exponent.dtype.itemsize * 8 - (exponent.dtype.kind == "i")
    for bit in range(bits):
        result = result * xp.where((exponent >> bit) & 1 == 1, square, one)
        square = square * square
    if exponent.dtype.kind == "u":
        return result
    odd = (exponent % 2) != 0
    negative = xp.where(base == 1, one, xp.where(base == -1, xp.where(odd, -one, one), 0 * one))
    return xp.where(exponent >= 0, result, negative)


def pow(xp, base, exponent):
    """`base ** exponent`; integers by squaring (`integer_pow`)."""
    if base.dtype.kind in "iu":
        return integer_pow(xp, base, exponent)
    return xp.power(base, exponent)


def quotient(xp, left, right):
    """Integer division truncating toward zero (Nx), not flooring (Python)."""
    safe = xp.where(right == 0, 1, right)
    floor = left // safe
    adjust = (left % safe != 0) & ((left < 0) != (right < 0))
    return xp.where(right == 0, 0, floor + adjust.astype(floor.dtype))


def as_xla_divides(divide):
    """`divide`, except that a real divisor broadcast to the result's shape divides as XLA on
    the CPU does: XLA rewrites `a / broadcast(b)` as `a * broadcast(1 / b)` (one ulp off the
    quotient for a third of f32 values: 14 / 6 is 2.3333335), and EXLA's answer is the one
    numbat gives on every path where Nx's BinaryBackend (2.3333333) and EXLA disagree. numbat
    writes that product itself, on NumPy and on XLA alike, so the answer does not depend on
    whether a platform's XLA rewrites the division (XLA on an NVIDIA H200 did not: its quotients
    were the correctly rounded ones, an ulp from the CPU's)."""

    def as_xla(xp, a, b):
        if b.dtype.kind == "f" and b.shape != np.broadcast_shapes(a.shape, b.shape):
            # XLA on the CPU multiplies f16, bf16 and the 8-bit floats in f32, rounding the
            # product once; the reciprocal is rounded to the type, except for the 8-bit floats.
            wide = b.dtype if b.dtype.itemsize >= 4 else np.dtype(np.float32)
            with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
                reciprocal = wide.type(1) / b.astype(wide)
                if b.dtype.itemsize >= 2:
                    reciprocal = reciprocal.astype(b.dtype).astype(wide)
                return (a.astype(wide) * reciprocal).astype(b.dtype)
        return divide(xp, a, b)

    return as_xla


# --- math


def round_half_away(xp, x):
    """Rounds half away from zero (Nx), not half to even (NumPy)."""
    if x.dtype.kind in "iu":
        return x
    whole = xp.trunc(x)
    return whole + xp.where(xp.abs(x - whole) >= 0.5, xp.sign(x), 0).astype(x.dtype)


def sign(xp, x):
    """-1, 0 or 1; of a complex number `z / |z|` (0 for 0)."""
    if x.dtype.kind == "c":
        magnitude = xp.abs(x)
        return xp.where(magnitude == 0, 0, x / xp.where(magnitude == 0, 1, magnitude)).astype(x.dtype)
    return xp.sign(x)


def cbrt(xp, x):
    """The cube root; of a complex number the principal root `z ** (1/3)` (Nx's Complex.cbrt),
    from the polar form so that an infinite modulus at angle 0 keeps its imaginary part 0
    (cbrt(Inf+3i) is Inf+0i)."""
    if x.dtype.kind == "c":
        modulus, angle = xp.cbrt(xp.abs(x)), xp.angle(x) / 3
        cos, sin = xp.cos(angle), xp.sin(angle)
        return (modulus * cos + 1j * xp.where(sin == 0, sin, modulus * sin)).astype(x.dtype)
    return xp.cbrt(x)


def _hyperbolic(odd: bool):
    """sinh (`odd`) or cosh: for |x| > 1 on XLA, `e ** (|x| - 1) * (e / 2) -+ e ** -|x| / 2` (the
    sign of x for sinh), within 3 ulps of the float64 (f32) or long double (f64) reference over
    the whole line; XLA's own sinh and cosh lose up to 24 ulps in f32 past |x| = 5 and 496 in
    f64 past 89 (`|x| - 1` is exact, where XLA's `|x| + log(1/2)` rounds). NumPy's (libm's) and
    complex data are left as they are; both branches of the select stay finite for gradients."""

    def compute(xp, x):
        fun = xp.sinh if odd else xp.cosh
        if xp is np or x.dtype.kind == "c":
            return fun(x)
        magnitude = xp.abs(x)
        big = magnitude > 1
        m = xp.where(big, magnitude, 2)
        half_exp, tail = xp.exp(m - 1) * np.asarray(np.e / 2, x.dtype), 0.5 * xp.exp(-m)
        large = xp.copysign(half_exp - tail, x) if odd else half_exp + tail
        return xp.where(big, large, fun(xp.where(big, 0, x)))

    compute.__name__ = "sinh" if odd else "cosh"
    return compute


sinh, cosh = _hyperbolic(True), _hyperbolic(False)


def _xla_float(xp, x) -> bool:
    """Whether `x` is f32 or f64 data on XLA (where `asin` and `atanh` use their own formulas)."""
    return xp is not np and x.dtype.kind == "f" and x.dtype.itemsize >= 4


def asin(xp, x):
    """The inverse sine; on XLA, `x` itself where `|x| < sqrt(eps) / 2` (asin(x) = x + x**3/6, the
    second term under half an ulp): XLA's f32 asin of a normal number under 2.2e-38 is 0."""
    if not _xla_float(xp, x):
        return xp.arcsin(x)
    tiny = float(np.sqrt(np.finfo(x.dtype).eps) / 2)
    return xp.where(xp.abs(x) < tiny, x, xp.arcsin(x))


def atanh(xp, x):
    """The inverse hyperbolic tangent; on XLA, fdlibm's `log1p(2|x| + 2|x|**2 / (1 - |x|)) / 2`
    under 0.5 and `log1p(2|x| / (1 - |x|)) / 2` above (the sign of x), within 3 ulps: XLA's f64
    atanh is 129 ulps off near 0.42."""
    if not _xla_float(xp, x):
        return xp.arctanh(x)
    magnitude = xp.abs(x)
    twice = magnitude + magnitude
    below = 0.5 * xp.log1p(twice + twice * magnitude / (1 - magnitude))
    above = 0.5 * xp.log1p(twice / (1 - magnitude))
    return xp.copysign(xp.where(magnitude < 0.5, below, above), x)


# --- bitwise


def unsigned(xp, x):
    """The same bits as an unsigned integer array."""
    if x.dtype.kind == "u":
        return x
    return (
        x.view(np.dtype(f"u{x.dtype.itemsize}"))
        if xp is np
        else jax.lax.bitcast_convert_type(x, f"uint{x.dtype.itemsize * 8}")
    )


def count_leading_zeros(xp, x):
    """The zero bits above the highest set bit, by halving the width searched."""
    bits = x.dtype.itemsize * 8
    bits_of = unsigned(xp, x)
    length = xp.zeros(x.shape, dtype=bits_of.dtype)
    for shift in (32, 16, 8, 4, 2, 1):
        if shift < bits:
            high = bits_of >> shift
            nonzero = high != 0
            length = length + xp.where(nonzero, shift, 0).astype(bits_of.dtype)
            bits_of = xp.where(nonzero, high, bits_of)
    length = length + (bits_of != 0).astype(bits_of.dtype)
    return (bits - length).astype(x.dtype)


def population_count(xp, x):
    """The set bits of each element (of its bits as unsigned: NumPy counts |x| for signed types)."""
    return xp.bitwise_count(unsigned(xp, x)).astype(x.dtype)


# --- complex


def complex_from_parts(xp, real, imag):
    """`real + i imag` in the complex type (c128 for f64, else c64); 8-bit floats have no
    implicit promotion in JAX, so both parts are widened first."""
    wide = np.float64 if real.dtype == np.float64 else np.float32
    real, imag = real.astype(wide), imag.astype(wide)
    if xp is np:  # parts set, not summed: real + 1j * imag turns an infinite part into NaN (1j * Inf)
        real, imag = np.broadcast_arrays(real, imag)
        out = np.empty(real.shape, np.complex128 if wide is np.float64 else np.complex64)
        out.real, out.imag = real, imag
        return out
    return jax.lax.complex(*jnp.broadcast_arrays(real, imag))


def phase(xp, x):
    """The angle, computed in the output's float type (NumPy alone takes int8 as f16)."""
    if x.dtype.kind != "c":
        x = x.astype(np.float64 if x.dtype == np.float64 else np.float32)
    return xp.angle(x)


# --- The other families' entries (`_op_table.STRUCTURED`): `(xp, out, *arrays, **params)`

# --- elementwise's and math's structured ops


def select(xp, out, pred, on_true, on_false):
    """`on_true` where `pred` (its data, in its own type) is non-zero, else `on_false`."""
    return xp.where(xp.asarray(pred) != 0, on_true, on_false)


def clip(xp, out, x, low, high):
    """Each element clamped to [`low`, `high`]; floats on XLA with Nx's gradient (`_clip`)."""
    if xp is np or not out.type.is_float:
        return xp.minimum(xp.maximum(x, low), high)
    return _clip(x, low, high)


@jax.custom_jvp
def _clip(data, low, high):
    """`min(max(data, low), high)` with Nx's gradient: an element at a limit passes its
    gradient to the operand; a limit receives it only where the operand exceeds it."""
    return jnp.minimum(jnp.maximum(data, low), high)


def _masked(mask, tangent, ans):
    return jnp.broadcast_to(jnp.where(mask, tangent, 0).astype(ans.dtype), ans.shape)


_clip.defjvps(
    lambda tangent, ans, data, low, high: _masked((data >= low) & (data <= high), tangent, ans),
    lambda tangent, ans, data, low, high: _masked((low > data) & (low < high), tangent, ans),
    lambda tangent, ans, data, low, high: _masked(high < data, tangent, ans),
)


def stop_grad(xp, out, x):
    """`x` itself; on XLA, gradients do not flow through it."""
    return x if isinstance(x, np.ndarray) else jax.lax.stop_gradient(x)


# --- cumulative

_ACCUMULATE = {"sum": np.add, "product": np.multiply, "min": np.fmin, "max": np.fmax}
_CUMULATIVE = {"sum": jax.lax.cumsum, "product": jax.lax.cumprod, "min": jax.lax.cummin, "max": jax.lax.cummax}


def cumulative(xp, out, x, kind, axis, reverse):
    """A running sum, product, min or max along `axis`; NaN propagates onward in min and max, as
    in XLA (NumPy's fmin/fmax skip it, so the NaNs seen so far are put back, bf16 and f8 too)."""
    if reverse:
        x = xp.flip(x, axis)
    if xp is np:
        result = _ACCUMULATE[kind].accumulate(x, axis=axis, dtype=out.type.dtype)
        if kind in ("min", "max") and out.type.is_float:
            result = np.where(np.logical_or.accumulate(np.isnan(x), axis=axis), np.nan, result)
    else:
        result = _CUMULATIVE[kind](x, axis=axis)
    return xp.flip(result, axis) if reverse else result


# --- shape

GROUP = 16  # operands an XLA concatenate joins at once (as jax.numpy's concatenate does)


def pad(xp, out, x, value, config):
    """`x` padded with `value`: (low, high, interior) per axis, a negative low or high trims (XLA's
    pad; on NumPy an interior spread, a pad and a trim per axis)."""
    if xp is not np:
        return jax.lax.pad(x, value, config)
    for axis, (low, high, interior) in enumerate(config):
        if interior:
            size = x.shape[axis]
            shape = list(x.shape)
            shape[axis] = size + (size - 1) * interior if size else 0
            spread = np.full(shape, value, dtype=x.dtype)
            index = [slice(None)] * x.ndim
            index[axis] = slice(None, None, interior + 1)
            spread[tuple(index)] = x
            x = spread
        widths = [(0, 0)] * x.ndim
        widths[axis] = (max(low, 0), max(high, 0))
        x = np.pad(x, widths, constant_values=value)
        index = [slice(None)] * x.ndim
        index[axis] = slice(-min(low, 0), x.shape[axis] + min(high, 0))
        x = x[tuple(index)]
    return x


def concatenate(xp, out, *arrays, axis):
    """The arrays joined along `axis`. On XLA, GROUP at a time, in a tree: an XLA concatenate of
    n operands (and, eagerly, a program of n parameters) takes time and memory that grow faster
    than n; each level copies the data once, so memory stays within twice the result."""
    if xp is np:
        return np.concatenate(arrays, axis=axis)
    while len(arrays) > GROUP:
        arrays = [jax.lax.concatenate(arrays[i : i + GROUP], axis) for i in range(0, len(arrays), GROUP)]
    return jax.lax.concatenate(arrays, axis) if len(arrays) > 1 else arrays[0]


# --- indexing (index operands arrive as their data, in their own type)


def _starts(xp, shape, starts, lengths) -> list:
    """Start indices clamped so that each slice fits, as Nx does. On NumPy, Python ints (exact
    for every integer type). On XLA, the start arrays as they are when they share one type: XLA's
    dynamic-slice clamps each start itself, in its own type (64-bit and unsigned extremes
    included), with no instruction around it; starts of several types are clamped each in its
    own type first and then meet in one."""
    if xp is np:
        return [min(max(int(np.asarray(s)), 0), size - length) for s, size, length in zip(starts, shape, lengths)]
    if len({s.dtype for s in starts}) <= 1:
        return list(starts)
    common = "int32" if max(shape, default=0) < 2**31 else "int64"
    return [
        jax.lax.clamp(jnp.asarray(0, s.dtype), s, jnp.asarray(size - length, s.dtype)).astype(common)
        for s, size, length in zip(starts, shape, lengths)
    ]


def dynamic_slice(xp, out, x, *starts, lengths, strides):
    """`lengths` elements from `starts` (clamped so the slice fits), every `strides`-th."""
    begins = _starts(xp, x.shape, starts, lengths)
    if xp is np:
        window = x[tuple(slice(b, b + n) for b, n in zip(begins, lengths))]
    else:
        window = jax.lax.dynamic_slice(x, begins, lengths, allow_negative_indices=False)
    return window[tuple(slice(None, None, s) for s in strides)]


def put_slice(xp, out, x, update, *starts):
    """`x` with `update` written from `starts` (clamped so it fits)."""
    begins = _starts(xp, x.shape, starts, update.shape)
    if xp is np:
        x = x.copy()
        x[tuple(slice(b, b + n) for b, n in zip(begins, update.shape))] = update
        return x
    return jax.lax.dynamic_update_slice(x, update, begins, allow_negative_indices=False)


def clamped(xp, index, size):
    """Indices clamped into `0..size - 1`, as XLA's gather (and so Nx) does."""
    return xp.clip(xp.asarray(index), 0, size - 1)


def take(xp, out, x, indices, axis):
    """The slices at `indices` along `axis`, clamped. jnp.take's "clip" mode is XLA's own gather,
    which clamps every index (negative ones to 0) with no extra instruction."""
    if xp is np:
        return np.take(x, clamped(np, indices, x.shape[axis]), axis=axis, mode="clip")
    return jnp.take(x, indices, axis=axis, mode="clip")


def take_along_axis(xp, out, x, indices, axis):
    """The elements at `indices` along `axis`, clamped."""
    index = clamped(xp, indices, x.shape[axis])
    if xp is np:
        return np.take_along_axis(x, index, axis=axis)
    return jnp.take_along_axis(x, index, axis=axis, mode="clip")


def gather(xp, out, x, indices, axes):
    """The slices at the index tuples of `indices`' last axis, one index per axis of `axes`, clamped."""
    rest = [a for a in range(x.ndim) if a not in axes]
    if xp is np:
        x = np.transpose(x, list(axes) + rest)
        index = np.asarray(indices)
        if not axes:  # no index per position: every position takes the whole tensor
            return np.broadcast_to(x, out.shape).copy()
        return x[tuple(clamped(np, index[..., i], x.shape[i]) for i in range(len(axes)))]
    if 0 in out.shape:  # nothing to gather (an indexed axis may be empty): no slice to take
        return jnp.zeros(out.shape, x.dtype)
    # XLA's gather clamps each start index into range itself, in the indices' own type (64-bit
    # and unsigned extremes included): no instruction around it, as `x.at[i].get(mode="clip")`
    # with 32-bit indices.
    batch = len(out.shape) - len(rest)
    numbers = jax.lax.GatherDimensionNumbers(
        offset_dims=tuple(range(batch, len(out.shape))),
        collapsed_slice_dims=tuple(sorted(axes)),
        start_index_map=tuple(axes),
    )
    sizes = tuple(1 if a in axes else x.shape[a] for a in range(x.ndim))
    return jax.lax.gather(x, indices, numbers, sizes, mode=jax.lax.GatherScatterMode.CLIP, indices_are_sorted=False)


# --- sort
# Nx's order: NaN sorts above everything (last ascending, first descending), -0.0 equals 0.0,
# and equal elements keep their order either way. XLA's sort comparator (lax.sort's, as jnp.sort
# uses) is that order ascending; descending is the ascending sort of the reversed axis, reversed:
# nothing is negated, so no integer minimum overflows. On XLA a sort moves the values themselves
# (one sort, as jnp.sort), and an argsort sorts an iota of the index type along (as jnp.argsort).


def sort(xp, out, x, axis, descending):
    """`x` sorted along `axis`, stably, in Nx's order."""
    if xp is np:
        return np.take_along_axis(x, argsort_nx(np, x, axis, descending), axis=axis)
    if not descending:
        return jax.lax.sort(x, dimension=axis, is_stable=True)
    if x.dtype.kind in "iub":  # equal integers are indistinguishable: one reverse, as jnp.sort
        return jax.lax.rev(jax.lax.sort(x, dimension=axis), (axis,))
    return jax.lax.rev(jax.lax.sort(jax.lax.rev(x, (axis,)), dimension=axis, is_stable=True), (axis,))


def argsort(xp, out, x, axis, descending):
    """The indices that sort `x` along `axis`, in `out`'s type."""
    return argsort_nx(xp, x, axis, descending, out.type.dtype).astype(out.type.dtype)


def argsort_nx(xp, x, axis, descending, index_dtype=np.int32):
    """A stable argsort in Nx's order (above), as indices of `index_dtype` where the axis fits in
    it (int32 otherwise)."""
    size = x.shape[axis]
    if xp is np:
        if x.dtype.kind not in "iuf":  # bf16, f8: NumPy sorts them wrongly around NaN
            x = x.astype(np.float64)  # exact for every narrower float
        if not descending:
            return np.argsort(x, axis=axis, stable=True)
        index = np.argsort(np.flip(x, axis), axis=axis, stable=True)
        return (size - 1) - np.flip(index, axis)
    if size - 1 > np.iinfo(index_dtype).max:
        index_dtype = np.int32
    keys = jax.lax.rev(x, (axis,)) if descending else x
    iota = jax.lax.broadcasted_iota(index_dtype, x.shape, axis)
    _, index = jax.lax.sort((keys, iota), dimension=axis, is_stable=True, num_keys=1)
    return (size - 1) - jax.lax.rev(index, (axis,)) if descending else index


# --- products


def dot_general(xp, out, a, b, contract, batch):
    """Contracts `contract` = (left axes, right axes) with batch axes `batch` = (left, right): on
    NumPy an einsum (bf16 and the 8-bit floats, which it has no loop for, in f32, as XLA), on XLA
    its dot_general in the output's type."""
    if xp is not np:
        return jax.lax.dot_general(a, b, (tuple(contract), tuple(batch)), preferred_element_type=out.type.dtype)
    (lc, rc), (lb, rb) = contract, batch
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    left_labels = [next(letters) for _ in range(a.ndim)]
    right_labels = [next(letters) for _ in range(b.ndim)]
    for x, y in zip(lc + lb, rc + rb):
        right_labels[y] = left_labels[x]
    free_left = [left_labels[i] for i in range(a.ndim) if i not in lc and i not in lb]
    free_right = [right_labels[i] for i in range(b.ndim) if i not in rc and i not in rb]
    result_labels = [left_labels[i] for i in lb] + free_left + free_right
    spec = f"{''.join(left_labels)},{''.join(right_labels)}->{''.join(result_labels)}"
    if a.dtype.kind == "V":
        a, b = a.astype(np.float32), b.astype(np.float32)
    return np.einsum(spec, a, b).astype(out.type.dtype)


# --- fft


def fft(xp, out, x, kind, lengths, axes, eps):
    """Transform `kind` over `axes`, `lengths` points each, in f32/c64 (f64/c128 keep 64 bits;
    XLA transforms f32 and f64 only: narrower floats and integers are widened). As Nx, fft2 and
    ifft2 transform their second axis, clean up, then their first."""
    wide = x.dtype in (np.float64, np.complex128)
    if kind == "rfft":
        x = x.astype(np.float64 if wide else np.float32)
    else:
        x = x.astype(np.complex128 if wide else np.complex64)
    fun = getattr(xp.fft, kind)
    for axis, length in reversed(tuple(zip(axes, lengths))):
        # The whole axis: no `n`, so jax.numpy adds no zero-length pad (whose 64-bit padding
        # value would keep a 32-bit defn off jit's C++ dispatch).
        whole = kind != "irfft" and x.shape[axis] == length
        x = _cleaned(xp, fun(x, axis=axis) if whole else fun(x, n=length, axis=axis), eps)
    return x if x.dtype == out.type.dtype else x.astype(out.type.dtype)


def _limit(dtype: np.dtype, eps: float):
    """The largest value of `dtype`'s real type that is at most `eps`: |x| <= it in that type
    exactly when |x| <= eps (Nx compares in f64)."""
    real = np.dtype(np.float64 if dtype in (np.float64, np.complex128) else np.float32)
    with np.errstate(over="ignore"):
        limit = real.type(eps)
    return np.nextafter(limit, real.type(0)) if float(limit) > eps else limit


def _cleaned(xp, data, eps: float):
    """Nx's clean-up of a transform: real and imaginary parts with |x| <= eps become +0. The
    clean-up changes values, not the gradient (Nx differentiates the transform itself): traced,
    a cleaned part is `x - stop_gradient(x)`, zero with x's derivative."""
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
