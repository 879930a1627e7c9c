"""Nx's type system: `Type("f", 32)` <-> `"f32"`, defaults, inference and merging.

Types follow Nx, not NumPy or JAX: default integer s32, default float f32,
u8 for booleans, Python scalars are weak and merge by value.

>>> parse("f32")
Type('f', 32)
>>> str(merge(parse("u8"), parse("s8")))
's16'
>>> str(merge_number(parse("u8"), -1)), str(merge_number(parse("u8"), 256))
('s16', 'u16')
"""

from __future__ import annotations

import numbers
import typing
import warnings

import ml_dtypes
import numpy as np

from ._errors import ArgumentError

_SIZES = {
    "s": (2, 4, 8, 16, 32, 64),
    "u": (2, 4, 8, 16, 32, 64),
    "f": (8, 16, 32, 64),
    "bf": (16,),
    "f8_e4m3fn": (8,),
    "c": (64, 128),
}

# The sub-byte integers (s2, s4, u2, u4) are stored one element a byte in ml_dtypes' types;
# backends compute them in s8/u8 and wrap back to the bit size (backends/_subbyte.py).
_DTYPES = {
    ("s", 2): np.dtype(ml_dtypes.int2),
    ("s", 4): np.dtype(ml_dtypes.int4),
    ("s", 8): np.dtype(np.int8),
    ("s", 16): np.dtype(np.int16),
    ("s", 32): np.dtype(np.int32),
    ("s", 64): np.dtype(np.int64),
    ("u", 2): np.dtype(ml_dtypes.uint2),
    ("u", 4): np.dtype(ml_dtypes.uint4),
    ("u", 8): np.dtype(np.uint8),
    ("u", 16): np.dtype(np.uint16),
    ("u", 32): np.dtype(np.uint32),
    ("u", 64): np.dtype(np.uint64),
    ("f", 8): np.dtype(ml_dtypes.float8_e5m2),
    ("f", 16): np.dtype(np.float16),
    ("f", 32): np.dtype(np.float32),
    ("f", 64): np.dtype(np.float64),
    ("bf", 16): np.dtype(ml_dtypes.bfloat16),
    ("f8_e4m3fn", 8): np.dtype(ml_dtypes.float8_e4m3fn),
    ("c", 64): np.dtype(np.complex64),
    ("c", 128): np.dtype(np.complex128),
}

# Nx's precedence when merging two different kinds: c > f = f8_e4m3fn > bf > s > u.
_PRECEDENCE = {"u": 0, "s": 1, "bf": 2, "f8_e4m3fn": 3, "f": 3, "c": 4}


@typing.final
class Type(typing.NamedTuple):
    """An Nx type: a kind (`s`, `u`, `f`, `bf`, `f8_e4m3fn`, `c`) and a size in bits
    (s and u: 2, 4, 8, 16, 32, 64; f: 8, 16, 32, 64; bf: 16; f8_e4m3fn: 8; c: 64, 128).

    >>> Type("s", 64).dtype
    dtype('int64')
    >>> str(Type("bf", 16)), str(Type("u", 4))
    ('bf16', 'u4')
    >>> Type("s", 4).dtype  # one element a byte
    dtype(int4)
    """

    kind: str
    bits: int

    def __str__(self) -> str:
        return self.kind if self.kind == "f8_e4m3fn" else f"{self.kind}{self.bits}"

    def __repr__(self) -> str:
        return f"Type({self.kind!r}, {self.bits})"

    @property
    def dtype(self) -> np.dtype:
        """The NumPy (or ml_dtypes) dtype that stores this type."""
        return _DTYPES[self]  # a Type is the (kind, bits) tuple the table is keyed by

    @property
    def is_integer(self) -> bool:
        return self.kind in ("s", "u")

    @property
    def is_float(self) -> bool:
        """True for real floating types (f, bf, f8_e4m3fn)."""
        return self.kind in ("f", "bf", "f8_e4m3fn")

    @property
    def is_complex(self) -> bool:
        return self.kind == "c"

    # Nx.Type's helpers as methods (`Nx.Type.merge(a, b)` is `a.merge(b)`; `integer?` and
    # `float?` are the properties above).

    def merge(self, other: str | Type) -> Type:
        """The type of a binary op on `self` and `other` (any spelling `parse` reads), as
        `Nx.Type.merge`.

        >>> Type("u", 8).merge("s8"), Type("s", 64).merge(Type("f", 32))
        (Type('s', 16), Type('f', 32))
        """
        return merge(self, parse(other))

    def to_floating(self) -> Type:
        """The floating type for this type, as `Nx.Type.to_floating`.

        >>> Type("s", 64).to_floating(), Type("bf", 16).to_floating(), Type("c", 64).to_floating()
        (Type('f', 32), Type('bf', 16), Type('c', 64))
        """
        return to_floating(self)

    def to_complex(self) -> Type:
        """The complex type holding this type, as `Nx.Type.to_complex`.

        >>> Type("f", 64).to_complex(), Type("s", 8).to_complex()
        (Type('c', 128), Type('c', 64))
        """
        return to_complex(self)

    def to_real(self) -> Type:
        """The real type of this type's magnitude, as `Nx.Type.to_real`.

        >>> Type("c", 128).to_real(), Type("s", 8).to_real()
        (Type('f', 64), Type('s', 8))
        """
        return to_real(self)


S32 = Type("s", 32)
S64 = Type("s", 64)
U8 = Type("u", 8)
F32 = Type("f", 32)
F64 = Type("f", 64)
C64 = Type("c", 64)

_BY_NAME = {str(Type(kind, bits)): Type(kind, bits) for kind, bits in _DTYPES}
_BY_DTYPE = {dtype: Type(kind, bits) for (kind, bits), dtype in _DTYPES.items()}
# NumPy's (and ml_dtypes') dtype names, "float64" or "bool": each names one dtype, so one Nx type.
_BY_NUMPY_NAME = {dtype.name: type_ for dtype, type_ in _BY_DTYPE.items()} | {"bool": U8, "bool_": U8}


def parse(spec: str | Type | tuple | np.dtype | type) -> Type:
    """Parses a type from `"f32"`, `("f", 32)`, a `Type`, a NumPy dtype or a NumPy dtype's
    name (`"float64"`, `"bool"`). NumPy's one-letter codes are refused: `"f8"` is Nx's
    8-bit float, where NumPy's `"f8"` is float64.

    >>> parse("s64"), parse(("u", 8)), parse(np.float16), parse("u4"), parse("float64"), parse("bool")
    (Type('s', 64), Type('u', 8), Type('f', 16), Type('u', 4), Type('f', 64), Type('u', 8))
    >>> parse("f31")
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: unknown type 'f31'; types are s2, s4, s8, s16, s32, s64, u2, u4, u8, u16, u32, u64, f8, f16, f32, f64, bf16, f8_e4m3fn, c64, c128
    >>> parse("float")
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: unknown type 'float': NumPy reads it as float64, which numbat spells 'f64' (a NumPy dtype's full name, such as 'float64', works too)
    """
    if isinstance(spec, Type):
        return spec
    if spec is None:
        raise ArgumentError("a type is needed, such as 'f32' or 's64', got None")
    if isinstance(spec, str):
        found = _BY_NAME.get(spec) or _BY_NUMPY_NAME.get(spec)
        if found is not None:
            return found
        _refuse_numpy_spelling(spec)
    elif isinstance(spec, tuple):
        if len(spec) == 2 and all(isinstance(part, (str, int)) for part in spec) and tuple(spec) in _DTYPES:
            return Type(*spec)
    else:
        try:
            dtype = np.dtype(spec)
        except (TypeError, ValueError):
            dtype = None
        if dtype is not None and dtype == np.bool_:
            return U8
        if dtype in _BY_DTYPE:
            return _BY_DTYPE[dtype]
    raise ArgumentError(f"unknown type {spec!r}; types are {', '.join(_BY_NAME)}")


def _refuse_numpy_spelling(spec: str) -> None:
    """An error naming the Nx type for a NumPy spelling that is not a dtype's name (`"float"`,
    `"f4"`, `"<i8"`): such codes are ambiguous beside Nx's names."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # NumPy 2's deprecated aliases ("a")
            dtype = np.dtype(spec)
    except (TypeError, ValueError):
        return
    found = _BY_NUMPY_NAME.get(dtype.name)
    if found is not None:
        raise ArgumentError(
            f"unknown type {spec!r}: NumPy reads it as {dtype.name}, which numbat spells '{found}' "
            f"(a NumPy dtype's full name, such as {dtype.name!r}, works too)"
        )


def of_dtype(dtype: np.dtype) -> Type:
    """The Nx type of a NumPy/JAX dtype (bool becomes u8).

    >>> of_dtype(np.dtype("int16"))
    Type('s', 16)
    """
    return parse(dtype)


def merge(left: Type, right: Type) -> Type:
    """Merges two types exactly as `Nx.Type.merge`: the same kind takes the larger size;
    otherwise the kind with precedence wins (c > f = f8_e4m3fn > bf > s > u; between f and
    f8_e4m3fn, the left one), u with s widens the signed type, and f with c widens the
    complex type to hold the float.

    >>> str(merge(Type("s", 64), F32)), str(merge(Type("f", 16), Type("bf", 16)))
    ('f32', 'f16')
    >>> str(merge(Type("u", 32), Type("s", 8))), str(merge(F64, C64))
    ('s64', 'c128')
    >>> str(merge(Type("u", 4), Type("s", 4))), str(merge(Type("u", 2), Type("s", 2))), str(merge(Type("s", 4), U8))
    ('s8', 's4', 's16')
    """
    if left.kind == right.kind:
        return left if left.bits >= right.bits else right
    if _PRECEDENCE[left.kind] < _PRECEDENCE[right.kind]:
        low, high = left, right
    else:
        low, high = right, left
    if low.kind == "u" and high.kind == "s":
        return Type("s", max(min(low.bits * 2, 64), high.bits))
    if low.kind == "f" and high.kind == "c":
        return Type("c", max(low.bits * 2, high.bits))
    return high


def merge_number(type_: Type, number: complex | bool) -> Type:
    """Merges a tensor type with a weak Python scalar, keeping the tensor's type
    when the value fits (Nx's `merge_number`).

    >>> str(merge_number(Type("s", 8), 128)), str(merge_number(Type("s", 32), 1.5))
    ('s16', 'f32')
    >>> str(merge_number(Type("f", 64), 2j))
    'c128'

    As in Nx, 0 and 1 (and -1, -2 for signed types) keep a sub-byte type; other integers
    need 8 bits:

    >>> str(merge_number(Type("u", 4), 1)), str(merge_number(Type("u", 4), 2)), str(merge_number(Type("s", 2), -2))
    ('u4', 'u8', 's2')
    >>> str(merge_number(Type("u", 2), -1))
    's4'
    """
    if isinstance(number, complex):
        return type_ if type_.is_complex else to_complex(type_)
    if isinstance(number, float):
        return type_ if type_.is_float or type_.is_complex else F32
    number = int(number)
    if type_.kind == "u":
        if number >= 0:
            return Type("u", max(_unsigned_size(number), type_.bits))
        return merge_number(Type("s", min(type_.bits * 2, 64)), number)
    if type_.kind == "s":
        return Type("s", max(_signed_size(number), type_.bits))
    return type_


def is_number(value) -> bool:
    """Whether `value` is a Python or NumPy scalar (a weak operand in Nx's rules).

    >>> is_number(1.5), is_number(np.int8(1)), is_number(np.array(1))
    (True, True, False)
    """
    return isinstance(value, (numbers.Number, np.bool_)) and not isinstance(value, np.ndarray)


def infer(value) -> Type:
    """The type of a Python scalar: bool u8, int s32 (s64 beyond s32's range),
    float f32, complex c64.

    >>> infer(True), infer(1), infer(2**40), infer(1.0), infer(1j)
    (Type('u', 8), Type('s', 32), Type('s', 64), Type('f', 32), Type('c', 64))
    """
    if isinstance(value, (bool, np.bool_)):
        return U8
    if isinstance(value, (int, np.integer)):
        if not -(2**63) <= int(value) < 2**64:
            raise ArgumentError(f"integer {value} does not fit in any Nx type (s64 or u64)")
        if -(2**31) <= int(value) < 2**31:
            return S32
        return S64 if int(value) < 2**63 else Type("u", 64)
    if isinstance(value, (float, np.floating)):
        return F32
    if isinstance(value, (complex, np.complexfloating)):
        return C64
    raise ArgumentError(f"expected a number, got {type(value).__name__} {value!r}")


def to_floating(type_: Type) -> Type:
    """The floating type an op such as `exp` or `divide` returns for `type_`.

    >>> to_floating(Type("s", 64)), to_floating(Type("bf", 16))
    (Type('f', 32), Type('bf', 16))
    """
    return type_ if type_.is_float or type_.is_complex else merge(type_, F32)


def to_complex(type_: Type) -> Type:
    """The complex type holding `type_`: c128 for f64 and c128, else c64."""
    return Type("c", 128) if type_ in (F64, Type("c", 128)) else C64


def to_real(type_: Type) -> Type:
    """The real type of `type_`'s magnitude: f32 for c64, f64 for c128."""
    return Type("f", type_.bits // 2) if type_.is_complex else type_


def to_aggregate(type_: Type) -> Type:
    """The type `sum` accumulates in: at least 32-bit for integers.

    >>> to_aggregate(Type("u", 8)), to_aggregate(Type("s", 64)), to_aggregate(F32)
    (Type('u', 32), Type('s', 64), Type('f', 32))
    """
    return Type(type_.kind, max(type_.bits, 32)) if type_.is_integer else type_


def _unsigned_size(number: int) -> int:
    if number <= 1:  # Nx's unsigned_size: 1 bit, so that 0 and 1 keep a sub-byte type
        return 1
    for bits in (8, 16, 32):
        if number < 2**bits:
            return bits
    return 64


def _signed_size(number: int) -> int:
    magnitude = -number - 1 if number < 0 else number
    if magnitude <= 1:  # Nx's signed_size: -2..1 keep a sub-byte type
        return 1
    for bits in (8, 16, 32):
        if magnitude < 2 ** (bits - 1):
            return bits
    return 64
