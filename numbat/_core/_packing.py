"""Nx's binary layout of the sub-byte types (s2, s4, u2, u4): their elements' bits one
after another, the first element in the highest bits of the first byte (an Elixir
bitstring `<<1::4, 2::4>>` is the byte 0x12).

numbat stores such elements one a byte; `to_binary` and `from_binary` pack and unpack
them. Nx gives a bitstring of exactly `bit_size` bits; Python has only whole bytes, so
the last byte is padded with zero bits.

>>> import ml_dtypes
>>> pack(np.array([1, 2, 3], ml_dtypes.uint4), 4)
b'\\x120'
>>> unpack(b"\\x12\\xf0", "s", 4).tolist()
[1, 2, -1, 0]
"""

from __future__ import annotations

import numpy as np


def pack(values: np.ndarray, bits: int) -> bytes:
    """The flat `values` (a sub-byte dtype) as Nx's bitstring, padded to whole bytes."""
    wide = values.reshape(-1).astype(np.int8).view(np.uint8)  # two's complement: the low bits are the value's
    bit_rows = np.unpackbits(wide[:, None], axis=1)[:, 8 - bits :]  # each element's bits, highest first
    return np.packbits(bit_rows.reshape(-1)).tobytes()


def unpack(binary: bytes, kind: str, bits: int) -> np.ndarray:
    """The elements of kind `kind` (`"s"` or `"u"`) and `bits` packed in `binary`, as int8/uint8.
    Besides the result, it takes one byte-sized array at a time: no array per bit."""
    packed = np.frombuffer(binary, dtype=np.uint8)
    per_byte = 8 // bits
    values = np.empty(packed.size * per_byte, dtype=np.uint8)
    for position in range(per_byte):  # the first element sits in the highest bits
        values[position::per_byte] = packed >> (8 - bits * (position + 1))
    values <<= 8 - bits  # each element's bits at the top of its byte, then shifted back down:
    if kind == "u":
        values >>= 8 - bits
        return values
    signed = values.view(np.int8)
    signed >>= 8 - bits  # an arithmetic shift extends the sign
    return signed
