"""Element-wise ops. `Interface` is what a backend implements; `Array` implements it over `self.xp`.

There are many element-wise ops and they differ only in the function applied, so
both classes are filled in from the tables below: every name in `UNARY`,
`BINARY` and `COMPARE` is an abstract method of `Interface` (`op(out, tensor)` or
`op(out, left, right)`) and a method of `Array` that computes in the output's
type (comparisons: in the operands' merged type). A table entry is a function of
`(xp, *arrays)`, written once for NumPy and jax.numpy alike; the few functions
NumPy lacks (erf, erf_inv) are computed with JAX's host implementation there.

Complex special values follow XLA on every path: for complex Inf and NaN, NumPy gives
C99 Annex G's answers (`exp(inf+nanj)` is `inf+nanj`) and XLA its own formulas' (`nan+nanj`).
So the NumPy backend computes the complex transcendental functions (complex `abs`, `phase`,
`divide` and `pow` too) with the same table entry over jax.numpy on the host CPU (`_complex_as_xla`);
real data stays on NumPy.
"""

from __future__ import annotations

import abc
import typing

import jax
import jax.numpy as jnp
import jax.scipy.special as jsp
import ml_dtypes
import numpy as np

from ..._tensor import Template, Tensor
from ..._types import merge
from ._base import ArrayBase


def _on_host(jax_fun, x):
    """`jax_fun(x)` for NumPy `x`, computed by XLA on the host CPU, as NumPy."""
    with jax.enable_x64(True):  # keep f64/c128 data 64-bit
        return np.asarray(jax_fun(jax.device_put(x, jax.devices("cpu")[0])))  # x: an array or a tuple


def _host(jax_fun):
    """`jax_fun` for both array modules: on NumPy data it runs on the host CPU and returns NumPy."""

    def fun(xp, x):
        return _on_host(jax_fun, x) if xp is np else jax_fun(x)

    return fun


def _complex_as_xla(fun):
    """`fun(xp, x)`, except that complex `x` on NumPy is computed as `fun(jax.numpy, x)` on the
    host CPU: XLA's complex special values, not C99's (see the module's docstring)."""

    def wrapped(xp, x, *more):
        if xp is np and x.dtype.kind == "c":
            if more:  # binary: both operands travel
                return _on_host(lambda pair: fun(jnp, *pair), (x, *more))
            return _on_host(lambda y: fun(jnp, y), x)
        return fun(xp, x, *more)

    return wrapped


def _round(xp, x):
    """Rounds half away from zero (Nx), not half to even (NumPy)."""
    if x.dtype.kind in "iu":
        return x
    whole = xp.trunc(x)
    return whole + xp.where(xp.abs(x - whole) >= 0.5, xp.sign(x), 0).astype(x.dtype)


def _sign(xp, x):
    if x.dtype.kind == "c":
        magnitude = xp.abs(x)
        return xp.where(magnitude == 0, 0, x / xp.where(magnitude == 0, 1, magnitude)).astype(x.dtype)
    return xp.sign(x)


def _unsigned(xp, x):
    """The same bits as an unsigned integer array."""
    if x.dtype.kind == "u":
        return x
    return (
        x.view(np.dtype(f"u{x.dtype.itemsize}"))
        if xp is np
        else jax.lax.bitcast_convert_type(x, f"uint{x.dtype.itemsize * 8}")
    )


def _count_leading_zeros(xp, x):
    bits = x.dtype.itemsize * 8
    unsigned = _unsigned(xp, x)
    length = xp.zeros(x.shape, dtype=unsigned.dtype)
    for shift in (32, 16, 8, 4, 2, 1):
        if shift < bits:
            high = unsigned >> shift
            nonzero = high != 0
            length = length + xp.where(nonzero, shift, 0).astype(unsigned.dtype)
            unsigned = xp.where(nonzero, high, unsigned)
    length = length + (unsigned != 0).astype(unsigned.dtype)
    return (bits - length).astype(x.dtype)


def _population_count(xp, x):
    return xp.bitwise_count(_unsigned(xp, x)).astype(x.dtype)  # NumPy counts |x| for signed types


def _integer_pow(xp, base, exponent):
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


# Float types whose subnormals stay subnormal when XLA computes in f32 (f16 and the 8-bit
# floats widen to normal f32 numbers and keep theirs).
_F32_SUBNORMALS = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(ml_dtypes.bfloat16))


def _as_zero(xp, x):
    """`x` with subnormal elements read as (signed) zero, for the ops that XLA on CPU gets
    wrong for subnormal inputs, neither IEEE's answer nor zero's: atan2(1e-45, 1e-45) is NaN
    in f32, atan2(5e-324, -1.0) is -pi in f64, 1e-45 ** 0.5 is 2.6e-23, cbrt(1e-45) is
    -5.6e-16. Reading them as zero (XLA's nominal rule on CPU) on every backend gives one
    answer; other types and ops keep their subnormals."""
    if x.dtype not in _F32_SUBNORMALS:
        return x
    tiny = float(ml_dtypes.finfo(x.dtype).smallest_normal)
    return xp.where(xp.abs(x) < tiny, xp.copysign(xp.zeros_like(x), x), x)


def _pow(xp, base, exponent):
    if base.dtype.kind in "iu":
        return _integer_pow(xp, base, exponent)
    if base.dtype.kind == "c":
        return xp.power(base, exponent)
    return xp.power(_as_zero(xp, base), _as_zero(xp, exponent))


def _cbrt(xp, x):
    """The cube root (of subnormals read as zero: `_subnormals_as_zero` in the table); of a complex number the
    principal root `z ** (1/3)` (Nx's Complex.cbrt), from the polar form so that an
    infinite modulus at angle 0 keeps its imaginary part 0 (cbrt(Inf+3i) is Inf+0i)."""
    if x.dtype.kind == "c":
        modulus, angle = xp.cbrt(xp.abs(x)), xp.angle(x) / 3
        cos, sin = xp.cos(angle), xp.sin(angle)
        return (modulus * cos + 1j * xp.where(sin == 0, sin, modulus * sin)).astype(x.dtype)
    return xp.cbrt(x)


def _complex(xp, real, imag):
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


def _phase(xp, x):
    """The angle, computed in the output's float type (NumPy alone takes int8 as f16)."""
    if x.dtype.kind != "c":
        x = x.astype(np.float64 if x.dtype == np.float64 else np.float32)
    return xp.angle(x)


def _narrow(fun, wide_on_numpy: bool):
    """`fun` computed in a wider float and rounded back: the 8-bit floats in f32 on every
    backend (they have no infinities to overflow into, and XLA lowers few functions for
    them); with `wide_on_numpy`, every float narrower than f64 in f64 on the NumPy backend,
    since NumPy's SIMD loops for f32 (AVX-512's SVML) miss by an ulp where XLA and Nx are
    exact (log10(100) gave 2.0000002 and cbrt(-27) -2.9999998 on an AVX-512 machine)."""

    def wrapped(xp, x):
        if x.dtype.kind in "iubc" or x.dtype == np.float64:
            return fun(xp, x)
        if wide_on_numpy and xp is np:
            return fun(xp, x.astype(np.float64)).astype(x.dtype)
        if x.dtype.itemsize == 1:
            return fun(xp, x.astype(np.float32)).astype(x.dtype)
        return fun(xp, x)

    return wrapped


def _subnormals_as_zero(fun):
    """`fun` of `x` with its subnormal elements read as zero (`_as_zero`), in `x`'s own type."""
    return lambda xp, x: fun(xp, _as_zero(xp, x))


def _quotient(xp, left, right):
    """Integer division truncating toward zero (Nx), not flooring (Python)."""
    safe = xp.where(right == 0, 1, right)
    floor = left // safe
    adjust = (left % safe != 0) & ((left < 0) != (right < 0))
    return xp.where(right == 0, 0, floor + adjust.astype(floor.dtype))


def _truthy(x):
    return x != 0


def _lax_unary(np_name: str, lax_fun):
    """`np.<np_name>` on NumPy; on jax.numpy the lax primitive itself. jax.numpy's function
    binds that very primitive, from inside a jit of its own that a trace pays for op
    after op (about two thirds of tracing a chain of element-wise ops)."""
    np_fun = getattr(np, np_name)
    return lambda xp, x: np_fun(x) if xp is np else lax_fun(x)


def _lax_binary(np_name: str, lax_fun, kinds: str = "biufc"):
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

    binary.numpy = np_fun  # what it computes on NumPy: the binary op method calls it directly
    return binary


UNARY: dict[str, typing.Callable] = {
    "negate": _lax_unary("negative", jax.lax.neg),
    "sign": _sign,
    "floor": lambda xp, x: x if x.dtype.kind in "iu" else xp.floor(x),
    "ceil": lambda xp, x: x if x.dtype.kind in "iu" else xp.ceil(x),
    "round": _round,
    "exp": _lax_unary("exp", jax.lax.exp),
    "expm1": _lax_unary("expm1", jax.lax.expm1),
    "log": _lax_unary("log", jax.lax.log),
    "log1p": _lax_unary("log1p", jax.lax.log1p),
    "log2": lambda xp, x: xp.log2(x),
    "log10": lambda xp, x: xp.log10(x),
    "sigmoid": lambda xp, x: 1 / (1 + xp.exp(-x)),
    "sqrt": _lax_unary("sqrt", jax.lax.sqrt),
    "rsqrt": lambda xp, x: 1 / xp.sqrt(x),
    "cbrt": _cbrt,
    "sin": _lax_unary("sin", jax.lax.sin),
    "cos": _lax_unary("cos", jax.lax.cos),
    "tan": _lax_unary("tan", jax.lax.tan),
    "asin": lambda xp, x: xp.arcsin(x),
    "acos": lambda xp, x: xp.arccos(x),
    "atan": lambda xp, x: xp.arctan(x),
    "sinh": lambda xp, x: xp.sinh(x),
    "cosh": lambda xp, x: xp.cosh(x),
    "tanh": _lax_unary("tanh", jax.lax.tanh),
    "asinh": lambda xp, x: xp.arcsinh(x),
    "acosh": lambda xp, x: xp.arccosh(x),
    "atanh": lambda xp, x: xp.arctanh(x),
    "erf": _host(jsp.erf),
    "erfc": _host(jsp.erfc),
    "erf_inv": _host(jsp.erfinv),
    "bitwise_not": lambda xp, x: xp.bitwise_not(x),
    "population_count": _population_count,
    "count_leading_zeros": _count_leading_zeros,
    "conjugate": lambda xp, x: xp.conjugate(x),
}

# Unary ops whose input keeps its own type (the output type differs: u8 predicates, real parts).
UNARY_OWN_TYPE: dict[str, typing.Callable] = {
    "abs": lambda xp, x: xp.abs(x),
    "is_nan": lambda xp, x: xp.zeros(x.shape, bool) if x.dtype.kind in "iu" else xp.isnan(x),
    "is_infinity": lambda xp, x: xp.zeros(x.shape, bool) if x.dtype.kind in "iu" else xp.isinf(x),
    "real": lambda xp, x: xp.real(x),
    "imag": lambda xp, x: xp.imag(x) if x.dtype.kind == "c" else xp.zeros_like(x),
    "phase": _phase,
    "logical_not": lambda xp, x: x == 0,
}

BINARY: dict[str, typing.Callable] = {
    "add": _lax_binary("add", jax.lax.add),
    "subtract": _lax_binary("subtract", jax.lax.sub),
    "multiply": _lax_binary("multiply", jax.lax.mul),
    "divide": _lax_binary("divide", jax.lax.div, kinds="fc"),  # integers divide as floats
    "pow": _pow,
    "quotient": _quotient,
    "remainder": lambda xp, a, b: xp.fmod(a, xp.where(b == 0, 1, b)) if a.dtype.kind in "iu" else xp.fmod(a, b),
    "floor_divide": lambda xp, a, b: (
        xp.floor_divide(a, xp.where(b == 0, 1, b)) if a.dtype.kind in "iu" else xp.floor(a / b)
    ),
    "mod": lambda xp, a, b: xp.mod(a, xp.where(b == 0, 1, b)) if a.dtype.kind in "iu" else xp.mod(a, b),
    "atan2": lambda xp, a, b: xp.arctan2(_as_zero(xp, a), _as_zero(xp, b)),
    "min": _lax_binary("minimum", jax.lax.min),
    "max": _lax_binary("maximum", jax.lax.max),
    "bitwise_and": lambda xp, a, b: xp.bitwise_and(a, b),
    "bitwise_or": lambda xp, a, b: xp.bitwise_or(a, b),
    "bitwise_xor": lambda xp, a, b: xp.bitwise_xor(a, b),
    "left_shift": lambda xp, a, b: xp.left_shift(a, b),
    "right_shift": lambda xp, a, b: xp.right_shift(a, b),
}

# Binary ops computed in the operands' merged type, whose output type differs (u8, complex).
COMPARE: dict[str, typing.Callable] = {
    "equal": _lax_binary("equal", jax.lax.eq),
    "not_equal": _lax_binary("not_equal", jax.lax.ne),
    "less": _lax_binary("less", jax.lax.lt, kinds="biuf"),
    "less_equal": _lax_binary("less_equal", jax.lax.le, kinds="biuf"),
    "greater": _lax_binary("greater", jax.lax.gt, kinds="biuf"),
    "greater_equal": _lax_binary("greater_equal", jax.lax.ge, kinds="biuf"),
    "logical_and": lambda xp, a, b: _truthy(a) & _truthy(b),
    "logical_or": lambda xp, a, b: _truthy(a) | _truthy(b),
    "logical_xor": lambda xp, a, b: _truthy(a) ^ _truthy(b),
    "complex": _complex,
}


class Interface(abc.ABC):
    """Element-wise ops: one abstract method per name in the tables, plus these."""

    @abc.abstractmethod
    def select(self, out: Template, pred: Tensor, on_true: Tensor, on_false: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def clip(self, out: Template, tensor: Tensor, low: Tensor, high: Tensor) -> Tensor: ...

    @abc.abstractmethod
    def stop_grad(self, out: Template, tensor: Tensor) -> Tensor: ...


class Array(ArrayBase, Interface):
    def select(self, out, pred, on_true, on_false):
        xp = self.xp
        return self._wrap(
            out, xp.where(_truthy(xp.asarray(pred.data)), self._as(on_true, out), self._as(on_false, out))
        )

    def clip(self, out, tensor, low, high):
        xp = self.xp
        data, low, high = self._as(tensor, out), self._as(low, out), self._as(high, out)
        if xp is np or not out.type.is_float:
            return self._wrap(out, xp.minimum(xp.maximum(data, low), high))
        return self._wrap(out, _clip(data, low, high))

    def stop_grad(self, out, tensor):
        data = self._as(tensor, out)
        return self._wrap(out, data if isinstance(data, np.ndarray) else jax.lax.stop_gradient(data))


@jax.custom_jvp
def _clip(data, low, high):
    """`min(max(data, low), high)` with Nx's gradient: an element at a limit passes its
    gradient to the operand; a limit receives it only where the operand exceeds it."""
    return jax.numpy.minimum(jax.numpy.maximum(data, low), high)


def _masked(mask, tangent, ans):
    return jax.numpy.broadcast_to(jax.numpy.where(mask, tangent, 0).astype(ans.dtype), ans.shape)


_clip.defjvps(
    lambda tangent, ans, data, low, high: _masked((data >= low) & (data <= high), tangent, ans),
    lambda tangent, ans, data, low, high: _masked((low > data) & (low < high), tangent, ans),
    lambda tangent, ans, data, low, high: _masked(high < data, tangent, ans),
)


# Functions computed in f32 for the 8-bit float types (the transcendental ones).
NARROW = [
    "exp",
    "expm1",
    "log",
    "log1p",
    "log2",
    "log10",
    "sigmoid",
    "sqrt",
    "rsqrt",
    "cbrt",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "erf",
    "erfc",
    "erf_inv",
]
# Those of them computed in f64 on the NumPy backend: NumPy's own functions whose f32 result
# cannot overflow or underflow where the f64 one does not (exp, sinh, cosh and sigmoid can:
# sigmoid(-100) is 0 in f32 and XLA, a subnormal from f64); erf and its kin run on JAX.
WIDE_ON_NUMPY = ["log", "log1p", "log2", "log10", "sqrt", "rsqrt", "cbrt", "sin", "cos", "tan"]
WIDE_ON_NUMPY += ["asin", "acos", "atan", "tanh", "asinh", "acosh", "atanh"]
for _name in NARROW:
    UNARY[_name] = _narrow(UNARY[_name], wide_on_numpy=_name in WIDE_ON_NUMPY)

# Functions of complex data whose Inf/NaN answers differ between C99 (NumPy) and XLA.
COMPLEX_AS_XLA = [name for name in NARROW if name not in ("erf", "erfc", "erf_inv")]
for _name in COMPLEX_AS_XLA:
    UNARY[_name] = _complex_as_xla(UNARY[_name])
for _name in ("abs", "phase"):
    UNARY_OWN_TYPE[_name] = _complex_as_xla(UNARY_OWN_TYPE[_name])
UNARY["cbrt"] = _subnormals_as_zero(UNARY["cbrt"])
for _name in ("divide", "pow"):
    BINARY[_name] = _complex_as_xla(BINARY[_name])


def numpy_functions() -> dict:
    """The binary ops whose table entry computes with one NumPy function on NumPy data, and that
    function (the NumPy backend calls it directly for operands of the output's type)."""
    return {name: fun.numpy for name, fun in BINARY.items() if getattr(fun, "numpy", None) is not None}


def _unary_method(name, fun):
    def method(self, out, tensor):
        return self._wrap(out, fun(self.xp, self._as(tensor, out)))

    method.__name__ = name
    return method


def _own_type_method(name, fun):
    def method(self, out, tensor):
        return self._wrap(out, self.xp.asarray(fun(self.xp, self.xp.asarray(tensor.data))).astype(out.type.dtype))

    method.__name__ = name
    return method


def _binary_method(name, fun):
    def method(self, out, left, right):
        type_ = out.type  # the common case inline: operands already of the output type (often the same object)
        a = left.data if left.type is type_ or left.type == type_ else self._as(left, out)
        b = right.data if right.type is type_ or right.type == type_ else self._as(right, out)
        return self._wrap(out, fun(self.xp, a, b))

    method.__name__ = name
    return method


def _compare_method(name, fun):
    def method(self, out, left, right):
        common = Template((), merge(left.type, right.type), ())
        result = fun(self.xp, self._as(left, common), self._as(right, common))
        return self._wrap(out, self.xp.asarray(result).astype(out.type.dtype))

    method.__name__ = name
    return method


def _abstract(name, arity):
    def method(self, out, *tensors): ...

    method.__name__ = name
    return abc.abstractmethod(method)


for _table, _make, _arity in (
    (UNARY, _unary_method, 1),
    (UNARY_OWN_TYPE, _own_type_method, 1),
    (BINARY, _binary_method, 2),
    (COMPARE, _compare_method, 2),
):
    for _name, _fun in _table.items():
        setattr(Interface, _name, _abstract(_name, _arity))
        setattr(Array, _name, _make(_name, _fun))
abc.update_abstractmethods(Interface)
abc.update_abstractmethods(Array)
