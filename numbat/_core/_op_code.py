"""The code that the op table's entries compute with (`_core/_op_table.py`, each entry's
`compute`): a function of `(xp, *arrays)`, `xp` NumPy or jax.numpy, written once for both
backends. What the array module alone cannot say lives here: jax.lax's primitives on XLA
(`lax_unary`, `lax_binary`), JAX's host functions where NumPy has none (`host`), and the
algorithms of Nx's own rules (rounding half away from zero, the sign of a complex number, the
principal cube root, integer powers that wrap around, truncating integer division, ...).

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
