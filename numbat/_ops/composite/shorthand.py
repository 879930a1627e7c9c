"""Nx's shorthand constructors, one per type: `nbt.u8(data)` is `nbt.tensor(data,
type="u8")`, as `Nx.u8(data)` is `Nx.tensor(data, type: :u8)`, for the nineteen types of
Nx 0.13.1 (u2 ... u64, s2 ... s64, f8, f16, f32, f64, bf16, c64, c128)."""

from __future__ import annotations

from .._convert import tensor

# (type, an example value that the type holds exactly, how the tensor prints it)
_EXAMPLES = {
    "u2": ("[1, 3]", "u2[2]\n      [1, 3]"),
    "u4": ("[1, 15]", "u4[2]\n      [1, 15]"),
    "u8": ("[1, 255]", "u8[2]\n      [1, 255]"),
    "u16": ("[1, 65535]", "u16[2]\n      [1, 65535]"),
    "u32": ("[1, 2]", "u32[2]\n      [1, 2]"),
    "u64": ("[1, 2]", "u64[2]\n      [1, 2]"),
    "s2": ("[-2, 1]", "s2[2]\n      [-2, 1]"),
    "s4": ("[-8, 7]", "s4[2]\n      [-8, 7]"),
    "s8": ("[-128, 127]", "s8[2]\n      [-128, 127]"),
    "s16": ("[-1, 2]", "s16[2]\n      [-1, 2]"),
    "s32": ("[-1, 2]", "s32[2]\n      [-1, 2]"),
    "s64": ("[-1, 2]", "s64[2]\n      [-1, 2]"),
    "f8": ("[1.5, -2.0]", "f8[2]\n      [1.5, -2.0]"),
    "f16": ("[1.5, -2.0]", "f16[2]\n      [1.5, -2.0]"),
    "f32": ("[1.5, -2.0]", "f32[2]\n      [1.5, -2.0]"),
    "f64": ("[1.5, -2.0]", "f64[2]\n      [1.5, -2.0]"),
    "bf16": ("[1.5, -2.0]", "bf16[2]\n      [1.5, -2.0]"),
    "c64": ("[1.5, -2.0]", "c64[2]\n      [1.5+0.0i, -2.0+0.0i]"),
    "c128": ("[1.5, -2.0]", "c128[2]\n      [1.5+0.0i, -2.0+0.0i]"),
}


def _constructor(type_name: str):
    value, shown = _EXAMPLES[type_name]

    def construct(data, names=None, backend=None):
        return tensor(data, type=type_name, names=names, backend=backend)

    construct.__name__ = construct.__qualname__ = type_name
    construct.__doc__ = f"""A tensor of type {type_name} from a number, a nested list or an array, as Nx's
    `Nx.{type_name}/1`: `nbt.tensor(data, type="{type_name}", names=names, backend=backend)`.

    >>> nbt.{type_name}({value})
    numbat.Tensor<
      {shown}
    >
    """
    return construct


u2, u4, u8, u16, u32, u64 = (_constructor(f"u{bits}") for bits in (2, 4, 8, 16, 32, 64))
s2, s4, s8, s16, s32, s64 = (_constructor(f"s{bits}") for bits in (2, 4, 8, 16, 32, 64))
f8, f16, f32, f64 = (_constructor(f"f{bits}") for bits in (8, 16, 32, 64))
bf16, c64, c128 = (_constructor(name) for name in ("bf16", "c64", "c128"))
