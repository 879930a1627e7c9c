"""Nx's text form of a tensor: header `s32[x: 2][y: 2]`, then the values.

Floats print as the shortest string that round-trips at the tensor's own
precision (an f32 1/3 is `0.33333334`), Elixir-style (`1.0e-10`, `NaN`,
`Inf`, `-Inf`, `1.0-1.0i`); past `limit` elements the rest is cut with `...`.
"""

from __future__ import annotations

import decimal
import math

import numpy as np

from ._types import Type

LIMIT = 50


def header(type_: Type, shape: tuple, names: tuple) -> str:
    """`s32[x: 2][y: 2]`: the type, then one bracket per axis.

    >>> header(Type("s", 32), (2, 2), ("x", None))
    's32[x: 2][2]'
    """
    axes = "".join(f"[{name}: {size}]" if name is not None else f"[{size}]" for size, name in zip(shape, names))
    return f"{type_}{axes}"


def vectorized_header(axes: tuple) -> str:
    """`vectorized[x: 2][y: 3]`: a vectorized tensor's axes, as Nx prints them.

    >>> vectorized_header((("x", 2), ("y", 3)))
    'vectorized[x: 2][y: 3]'
    """
    return "vectorized" + "".join(f"[{name}: {size}]" for name, size in axes)


def describe(tensor) -> str:
    """A tensor's header, its vectorized axes first if any: `vectorized[x: 2] s32[3]`."""
    text = header(tensor.type, tensor.shape, tensor.names)
    axes = tensor.vectorized_axes
    return f"{vectorized_header(axes)} {text}" if axes else text


def number(value, type_: Type) -> str:
    """One element as Nx prints it.

    >>> number(np.float32(1 / 3), Type("f", 32)), number(np.float64(1e-10), Type("f", 64))
    ('0.33333334', '1.0e-10')
    >>> number(np.complex64(1 - 1j), Type("c", 64)), number(np.float32("-inf"), Type("f", 32))
    ('1.0-1.0i', '-Inf')
    """
    if type_.is_integer:
        return str(int(value))
    if type_.is_complex:
        real_type = Type("f", type_.bits // 2)
        imag = _float(value.imag, real_type)
        sign = "" if imag.startswith("-") else "+"
        return f"{_float(value.real, real_type)}{sign}{imag}i"
    return _float(value, type_)


def _float(value, type_: Type) -> str:
    value = type_.dtype.type(value)
    as_float = float(value)
    if math.isnan(as_float):
        return "NaN"
    if math.isinf(as_float):
        return "Inf" if as_float > 0 else "-Inf"
    if type_.kind == "f" and type_.bits >= 16:
        text = str(value)  # NumPy's shortest round-trip (Dragon4) at this precision
    else:
        text = _shortest(value, type_)
    return _elixir_style(text)


def _shortest(value, type_: Type) -> str:
    """Shortest decimal that round-trips for types NumPy can't print exactly (bf16, f8), laid
    out as Nx's Ryu does (448 in f8_e4m3fn is 450.0, not 4.5e2)."""
    for digits in range(1, 18):
        text = f"{float(value):.{digits}g}"
        if type_.dtype.type(float(text)) == value:
            return _nx_layout(text)
    return repr(float(value))


def _nx_layout(text: str) -> str:
    """`text`'s digits in decimal or scientific notation, whichever Nx.Ryu's `insert_decimal` picks."""
    sign, digits, place = decimal.Decimal(text).as_tuple()
    digits = "".join(map(str, digits)).rstrip("0")
    if not digits:
        return "-0.0" if sign else "0.0"
    place += len("".join(map(str, decimal.Decimal(text).as_tuple()[1]))) - len(digits)
    length, exponent = len(digits), place + len(digits) - 1
    cost = len(str(exponent)) + 2
    scientific = digits[0] + ("." + digits[1:] if length > 1 else "") + f"e{exponent}"
    if place < 0:
        if exponent >= 0:
            laid = digits[: length + place] + "." + digits[length + place :]
        elif 2 - place - length <= cost:
            laid = "0." + "0" * (-place - length) + digits
        else:
            laid = scientific
    else:
        laid = digits + "0" * place + ".0" if cost + (length == 1) >= place + 2 else scientific
    return ("-" if sign else "") + laid


def _elixir_style(text: str) -> str:
    mantissa, _, exponent = text.partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    if not exponent:
        return mantissa
    return f"{mantissa}e{int(exponent)}"


def values(array: np.ndarray, type_: Type, limit: int = LIMIT) -> str:
    """The nested-list body, innermost axis on one line, indented by two per level.

    >>> print(values(np.array([[1, 2], [3, 4]]), Type("s", 32)))
    [
      [1, 2],
      [3, 4]
    ]
    >>> print(values(np.arange(60), Type("s", 32)))
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, ...]
    """
    if array.ndim == 0:
        return number(array[()], type_)
    budget = [limit]
    return _nested(array, type_, budget, indent="")


def _nested(array: np.ndarray, type_: Type, budget: list, indent: str) -> str:
    if array.ndim == 1:
        shown = min(len(array), budget[0])
        budget[0] -= shown
        items = [number(item, type_) for item in array[:shown]]
        if shown < len(array):
            items.append("...")
        return "[" + ", ".join(items) + "]"
    inner = indent + "  "
    rows = []
    for row in array:
        if budget[0] <= 0:
            rows.append(inner + "...")
            break
        rows.append(inner + _nested(row, type_, budget, inner))
    return "[\n" + ",\n".join(rows) + "\n" + indent + "]"


def text(type_: Type, shape: tuple, names: tuple, body: str, device_line: str | None = None, vectorized=()) -> str:
    """The whole block: `numbat.Tensor<`, the vectorized axes if any (`vectorized[x: 2]`),
    the header, an optional device line, the body, `>`."""
    lines = ["numbat.Tensor<"]
    if vectorized:
        lines.append("  " + vectorized_header(vectorized))
    lines.append("  " + header(type_, shape, names))
    if device_line:
        lines.append("  " + device_line)
    lines.extend("  " + line for line in body.split("\n"))
    lines.append(">")
    return "\n".join(lines)
