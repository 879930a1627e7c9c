"""Heatmap pictures of a tensor's 2-D slices as self-contained PNGs (no matplotlib
needed). A slice larger than `MAX_SIDE` pixels a side is averaged down where its data
lives (one jitted function on an XLA device; bands of bounded size on the host); the
values are colored with a viridis-like ramp and written with zlib. `figure` wraps the
pictures in HTML with the axis names on their edges and the value range as a legend.

>>> png(np.arange(6.0).reshape(2, 3))[:8]
b'\\x89PNG\\r\\n\\x1a\\n'
>>> "numbat-heatmap" in figure(nbt.iota((3, 4, 5), names=["z", "y", "x"]))
True
"""

from __future__ import annotations

import base64
import functools
import html
import struct
import zlib

import jax
import jax.numpy as jnp
import numpy as np

from .._core import _format
from .._core._types import Type
from .._library._heatmap import finite_range
from ._stats import CHUNK

MAX_SIDE = 128  # pixels a side of one picture, at most
MAX_SLICES = 8  # slices drawn side by side for a small tensor of rank 3 or more
SMALL = 4096  # elements up to which every slice is drawn (past it, only the first)
# viridis at five stops, interpolated linearly
_RAMP = np.array([[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]], dtype=np.float64)
_DIM = "opacity:0.7;"


def escape(text) -> str:
    """`text` (any value, as str) escaped for HTML text and attributes.

    >>> escape("<b>x</b>")
    '&lt;b&gt;x&lt;/b&gt;'
    """
    return html.escape(str(text), quote=True)


def downsample(data, max_side: int = MAX_SIDE) -> np.ndarray:
    """`data` (2-D; complex data as its magnitude) averaged over blocks so that neither
    side exceeds `max_side`, as float64 on the host. XLA data is reduced by one jitted
    kernel on its device; host data band by band, so no full-size copy is made.

    >>> downsample(np.arange(16.0).reshape(4, 4), max_side=2)
    array([[ 2.5,  4.5],
           [10.5, 12.5]])
    """
    rows, cols = data.shape
    fy, fx = max(1, -(-rows // max_side)), max(1, -(-cols // max_side))
    if not isinstance(data, np.ndarray):
        with jax.enable_x64(True):
            return np.asarray(_pooled_on_device(fy, fx)(data), dtype=np.float64)
    out_rows, out_cols = rows // fy, cols // fx
    out = np.empty((out_rows, out_cols))
    step = max(1, CHUNK // (fy * fx))  # output columns per block
    for r in range(out_rows):
        band = data[r * fy : (r + 1) * fy]
        for c in range(0, out_cols, step):
            end = min(out_cols, c + step)
            block = band[:, c * fx : end * fx]
            block = np.abs(block) if np.iscomplexobj(block) else block
            out[r, c:end] = block.astype(np.float64).reshape(fy, end - c, fx).mean(axis=(0, 2))
    return out  # a NaN makes its pixel grey


@functools.cache
def _pooled_on_device(fy: int, fx: int):
    def pool(data):
        real = jnp.abs(data) if jnp.iscomplexobj(data) else data
        wide = real.astype(jnp.float64 if real.dtype.itemsize == 8 else jnp.float32)
        # a windowed sum reads the blocks in place (a slice to a multiple of the block would be a copy)
        total = jax.lax.reduce_window(wide, jnp.zeros((), wide.dtype), jax.lax.add, (fy, fx), (fy, fx), "VALID")
        return total / (fy * fx)

    return jax.jit(pool)


def png(values: np.ndarray, value_range: tuple[float, float] | None = None) -> bytes:
    """A PNG of 2-D `values`, low values dark purple, high values yellow (NaN grey),
    scaled over `value_range` (default: the finite minimum and maximum of `values`)."""
    values = np.asarray(values, dtype=np.float64)
    finite = np.isfinite(values)
    low, high = value_range if value_range is not None else finite_range(values)
    scaled = np.zeros_like(values) if high == low else (np.where(finite, values, low) - low) / (high - low)
    position = np.clip(scaled, 0, 1) * (len(_RAMP) - 1)
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


def data_uri(values: np.ndarray, value_range: tuple[float, float] | None = None) -> str:
    return "data:image/png;base64," + base64.b64encode(png(values, value_range)).decode()


def _axis(names: tuple, axis: int) -> str:
    name = names[axis] if axis < len(names) else None
    return f"axis {axis}" if name is None else str(name)


def figure(tensor) -> str:
    """HTML pictures of `tensor`'s 2-D slices (its last two axes): every slice, up to
    `MAX_SLICES`, of a tensor of at most `SMALL` elements, on one color scale; the first
    slice, averaged down, of a larger one. Empty for rank < 2 or no elements."""
    shape, rank = tensor.shape, len(tensor.shape)
    if rank < 2 or tensor.size == 0:
        return ""
    data = tensor.data
    slices = int(np.prod(shape[:-2])) if rank > 2 else 1
    if tensor.size <= SMALL:
        array = np.asarray(tensor.to_numpy()).reshape(-1, *shape[-2:])[:MAX_SLICES]
        planes = [np.abs(p).astype(np.float64) if np.iscomplexobj(p) else p.astype(np.float64) for p in array]
    else:
        planes = [downsample(data[(0,) * (rank - 2)] if rank > 2 else data)]
    low, high = finite_range(np.stack(planes)) if len(planes) > 1 else finite_range(planes[0])
    rows_label, cols_label = _axis(tensor.names, rank - 2), _axis(tensor.names, rank - 1)
    pictures = []
    for k, plane in enumerate(planes):
        # pixels on the longer side: at most 160 (96 for small multiples), about 24 per element of a tiny slice
        target = min(160 if len(planes) == 1 else 96, max(48, 24 * max(plane.shape)))
        scale = target / max(plane.shape)
        width, height = max(round(plane.shape[1] * scale), 4), max(round(plane.shape[0] * scale), 4)
        index = list(np.unravel_index(k, shape[:-2])) if rank > 2 else []
        label = f"[{', '.join(str(int(i)) for i in index)}]" if index else ""
        caption = f"<div style='{_DIM}text-align:center'>{escape(label)}</div>" if label else ""
        pictures.append(
            f"<div>{caption}<img alt='heatmap {escape(label)}' src='{data_uri(plane, (low, high))}' "
            f"width='{width}' height='{height}' style='image-rendering:pixelated;display:block;"
            f"border:1px solid rgba(128,128,128,0.35)'/></div>"
        )
    notes = []
    if tensor.type.is_complex:
        notes.append("|x|")
    if tensor.size > SMALL:
        notes.append(f"slice {list((0,) * (rank - 2))}" if rank > 2 else "")
        notes.append(f"averaged to {planes[0].shape[0]}×{planes[0].shape[1]} px")
    elif slices > len(planes):
        notes.append(f"first {len(planes)} of {slices} slices")

    def number(value: float) -> str:
        return _format.number(np.float64(f"{value:.4g}"), Type("f", 64))

    legend = (
        "<span style='display:inline-block;width:60px;height:8px;vertical-align:middle;"
        "background:linear-gradient(90deg,#440154,#3b528b,#21918c,#5ec962,#fde725)'></span>"
    )
    caption = f"{escape(number(low))} {legend} {escape(number(high))}" + "".join(f"; {escape(n)}" for n in notes if n)
    return (
        f"<figure class='numbat-heatmap' style='margin:0'>"
        f"<div style='{_DIM}padding-left:18px'>{escape(cols_label)} →</div>"
        f"<div style='display:flex;align-items:flex-start;gap:4px'>"
        f"<div style='{_DIM}writing-mode:vertical-rl'>{escape(rows_label)} →</div>"
        f"<div style='display:flex;flex-wrap:wrap;gap:6px'>{''.join(pictures)}</div></div>"
        f"<figcaption style='{_DIM}margin-top:2px'>{caption}</figcaption></figure>"
    )
