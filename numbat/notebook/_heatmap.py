"""Heatmap images of 2-D data as self-contained PNGs (no matplotlib needed): the data is
averaged down to at most `MAX_SIDE` pixels a side on the device it lives on, then
colored with a viridis-like ramp and written with zlib.

>>> png(np.arange(6.0).reshape(2, 3))[:8]
b'\\x89PNG\\r\\n\\x1a\\n'
"""

from __future__ import annotations

import base64
import struct
import zlib

import numpy as np

MAX_SIDE = 128
# viridis at five stops, interpolated linearly
_RAMP = np.array([[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]], dtype=np.float64)


def downsample(data, xp, max_side: int = MAX_SIDE):
    """`data` (2-D, real) averaged over blocks so that neither side exceeds `max_side`;
    on XLA data, one jitted kernel on the device."""
    if xp is not np:
        import jax

        return jax.jit(_downsample, static_argnums=(1, 2))(data.astype("float32"), xp, max_side)
    return _downsample(data, xp, max_side)


def _downsample(data, xp, max_side: int):
    rows, cols = data.shape
    fy, fx = max(1, -(-rows // max_side)), max(1, -(-cols // max_side))
    if fy == 1 and fx == 1:
        return data
    rows, cols = (rows // fy) * fy, (cols // fx) * fx
    blocks = data[:rows, :cols].reshape(rows // fy, fy, cols // fx, fx)
    return blocks.mean(axis=(1, 3))  # a NaN makes its pixel grey


def finite_range(values: np.ndarray) -> tuple[float, float]:
    """The smallest and largest finite value of `values` ((0, 1) when none is finite)."""
    finite = values[np.isfinite(values)]
    return (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)


def png(values: np.ndarray) -> bytes:
    """A PNG of 2-D `values`, low values dark purple, high values yellow (NaN grey)."""
    values = np.asarray(values, dtype=np.float64)
    finite = np.isfinite(values)
    low, high = finite_range(values)
    scaled = np.zeros_like(values) if high == low else (np.where(finite, values, low) - low) / (high - low)
    position = scaled * (len(_RAMP) - 1)
    index = np.minimum(position.astype(int), len(_RAMP) - 2)
    fraction = (position - index)[..., None]
    rgb = _RAMP[index] * (1 - fraction) + _RAMP[index + 1] * fraction
    rgb[~finite] = 160
    pixels = rgb.round().astype(np.uint8)
    height, width = pixels.shape[:2]
    raw = b"".join(b"\x00" + pixels[row].tobytes() for row in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")


def data_uri(values: np.ndarray) -> str:
    return "data:image/png;base64," + base64.b64encode(png(values)).decode()
