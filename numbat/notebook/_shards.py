"""`nbt.notebook.shards`: which device holds which piece of a tensor, as a picture.

A sharded result (`nbt.xla.shard_jit`) is one logical tensor whose pieces live on
several devices. The view draws the tensor's elements as a grid (a rank-1 tensor is one
row), each element tinted with the color of the device(s) holding it and showing its
value, then one line per device: the piece it holds (index ranges) and its values.
"""

from __future__ import annotations

import typing

import numpy as np

from .._core import _format
from .._core._errors import ArgumentError
from .._ops import _dispatch
from ._heatmap_png import escape

MAX_CELLS = 400  # elements drawn in the grid, at most
_COLORS = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2", "#edc948", "#9c755f")
_CELL = "padding:2px 6px;text-align:right;white-space:nowrap;border:1px solid rgba(128,128,128,0.35);"


def _pieces(tensor) -> list[tuple[str, tuple, np.ndarray]]:
    """`(device, index, values)` for every piece of `tensor`'s data, in device order."""
    data = tensor.data
    if isinstance(data, np.ndarray):
        return [("host", tuple(slice(0, n) for n in tensor.shape), data)]
    shards = sorted(data.addressable_shards, key=lambda s: s.device.id)
    return [(str(s.device), tuple(s.index), np.asarray(s.data)) for s in shards]


def _ranges(index: tuple, shape: tuple) -> str:
    parts = []
    for part, size in zip(index, shape):
        start, stop, _ = part.indices(size) if isinstance(part, slice) else (part, part + 1, 1)
        parts.append(f"{start}:{stop}")
    return "[" + ", ".join(parts) + "]"


@typing.final
class Shards:
    """See `shards`."""

    def __init__(self, tensor):
        self.tensor = tensor
        self.pieces = _pieces(tensor)

    def __repr__(self) -> str:
        lines = [f"{_format.describe(self.tensor)} on {len(self.pieces)} device(s)"]
        for device, index, values in self.pieces:
            shown = _format.values(values, self.tensor.type, limit=12).replace("\n", " ")
            lines.append(f"  {device} holds {_ranges(index, self.tensor.shape)}: {' '.join(shown.split())}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        tensor = self.tensor
        grid = np.asarray(tensor.to_numpy()).reshape(-1, tensor.shape[-1]) if tensor.rank else None
        owners = np.empty(grid.shape, dtype=object)
        for number, (_, index, _) in enumerate(self.pieces):
            block = np.zeros(tensor.shape, dtype=bool)
            block[index] = True
            for position in zip(*np.nonzero(block.reshape(grid.shape))):
                owners[position] = [*(owners[position] or []), number]
        rows = []
        for i, row in enumerate(grid[: MAX_CELLS // max(grid.shape[1], 1) or 1]):
            cells = []
            for j, value in enumerate(row[:MAX_CELLS]):
                colors = [_COLORS[k % len(_COLORS)] for k in owners[i, j] or []]
                share = 100 / max(len(colors), 1)  # hard stripes, one per device holding the element
                stripes = ",".join(
                    f"{c}55 {k * share:.0f}% {(k + 1) * share:.0f}%" for k, c in enumerate(colors) if len(colors) > 1
                )
                background = f"linear-gradient(90deg,{stripes})" if stripes else f"{colors[0]}55" if colors else "none"
                cells.append(
                    f"<td style='{_CELL}background:{background}'>{escape(_format.number(value, tensor.type))}</td>"
                )
            rows.append(f"<tr>{''.join(cells)}</tr>")
        legend = "".join(
            f"<div><span style='display:inline-block;width:10px;height:10px;background:{_COLORS[k % len(_COLORS)]};"
            f"margin-right:6px'></span>{escape(device)} holds {escape(_ranges(index, tensor.shape))}: "
            f"{escape(' '.join(_format.values(values, tensor.type, limit=12).split()))}</div>"
            for k, (device, index, values) in enumerate(self.pieces)
        )
        return (
            "<div class='numbat-shards' style='font-family:ui-monospace,monospace;font-size:12px'>"
            f"<div style='opacity:0.7'>{escape(_format.describe(tensor))} on {len(self.pieces)} device(s)</div>"
            f"<table style='border-collapse:collapse;margin:4px 0'>{''.join(rows)}</table>{legend}</div>"
        )


def shards(tensor) -> Shards:
    """A view of where `tensor`'s pieces live: its elements tinted by device, then each
    device's piece. A tensor on one device (or on the NumPy backend) is one piece.

    >>> print(repr(shards(nbt.tensor([[1, 2], [3, 4]], backend=nbt.NumPyBackend()))))
    s32[2][2] on 1 device(s)
      host holds [0:2, 0:2]: [ [1, 2], [3, 4] ]
    """
    tensor = _dispatch.to_tensor(tensor)
    if tensor.rank == 0 or tensor.size == 0:
        raise ArgumentError(f"shards draws a tensor with elements and at least one axis, got shape {tensor.shape}")
    if tensor.vectorized_axes:
        raise ArgumentError("shards draws a plain tensor; devectorize it first (nbt.devectorize)")
    return Shards(tensor)
