"""A tensor as self-contained HTML: inline CSS, no JavaScript, no CDN.

The header gives the type, the shape with axis names, the bytes the elements take
and the device. Small tensors (up to `TABLE_LIMIT` elements) show every value, as a
table for rank 1 and 2; larger ones show summary statistics computed where the data
lives (`_stats`: only the statistics and the first `PREVIEW` values reach the host).
Beside the numbers, every tensor of rank 2 or more has a picture of its 2-D slices
(`_heatmap_png.figure`), whatever its size, with the axis names on its edges. Colors
are neutral greys with transparency, readable on light and dark themes.

>>> markup = tensor_html(nbt.tensor([[1, 2], [3, 4]], names=["x", "y"]))
>>> "s32[x: 2][y: 2]" in markup, "<script" in markup
(True, False)
"""

from __future__ import annotations

import functools

import jax
import numpy as np

from .._core import _format
from .._ops.composite.vectorization import devectorize
from .._runtime import _client
from ._heatmap_png import escape, figure
from ._stats import summary

TABLE_LIMIT = 1000  # at most this many elements are shown in full
PREVIEW = 10  # leading values shown for larger tensors

_BOX = (
    "display:inline-block;max-width:100%;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;"
    "font-size:12px;line-height:1.4;color:inherit;border:1px solid rgba(128,128,128,0.35);"
    "border-radius:4px;padding:4px 8px;"
)
_HEAD = "display:flex;flex-wrap:wrap;gap:4px 12px;align-items:baseline;"
_DIM = "opacity:0.7;"
_SCROLL = "overflow:auto;max-height:24em;max-width:100%;margin-top:4px;"
_TABLE = "border-collapse:collapse;font-size:12px;border:1px solid rgba(128,128,128,0.25);"
_CELL = "padding:0 6px;text-align:right;white-space:nowrap;"
_INDEX = _CELL + "background:rgba(128,128,128,0.12);font-weight:normal;" + _DIM
_SIDE = "display:flex;flex-wrap:wrap;gap:8px 16px;align-items:flex-start;margin-top:4px;"
_PRE = "margin:4px 0 0 0;font-family:inherit;font-size:inherit;white-space:pre;overflow:auto;max-height:24em;"


def tensor_html(tensor) -> str:
    """The HTML form of `tensor`: header (type, shape with names, device), then
    the values or, past `TABLE_LIMIT` elements, a summary. Never raises: what
    cannot be rendered is said in the output instead.

    >>> markup = tensor_html(nbt.tensor([1.0, 2.0], names=["<b>x</b>"]))
    >>> "f32[&lt;b&gt;x&lt;/b&gt;: 2]" in markup
    True
    """
    try:
        header = _format.describe(tensor)
        if tensor.vectorized_axes:  # the values are every entry's, vectorized axes first
            tensor = devectorize(tensor)
    except Exception as error:  # noqa: BLE001 -- display must never raise; say what failed instead
        return _box(f"<span>numbat.Tensor</span><span>{escape(type(error).__name__)}: {escape(error)}</span>", "")
    try:
        device = device_label(tensor)
    except Exception as error:  # noqa: BLE001
        device = f"device unknown ({type(error).__name__}: {error})"
    head = (
        f"<span style='{_DIM}'>numbat.Tensor</span><b>{escape(header)}</b>"
        f"<span style='{_DIM}'>{escape(nbytes(tensor))}</span><span style='{_DIM}'>{escape(device)}</span>"
    )
    try:
        body = _body(tensor)
    except Exception as error:  # noqa: BLE001
        body = f"<div style='{_DIM}'>values unavailable: {escape(type(error).__name__)}: {escape(error)}</div>"
    return _box(head, body)


def device_label(tensor) -> str:
    """Where `tensor`'s data lives: its backend's device, or, for an array sharded over
    several devices (a `shard_jit` result), how many and of which kind.

    >>> device_label(nbt.tensor([1, 2], backend=nbt.NumPyBackend()))
    'NumPy (host)'
    """
    devices = getattr(getattr(tensor.data, "sharding", None), "device_set", ())
    if len(devices) < 2:
        return tensor.backend.describe()
    client = getattr(tensor.backend, "client", None) or _client.default_client()
    kinds = ", ".join(sorted({device.device_kind for device in devices}))
    return f"XLA {client}, sharded over {len(devices)} devices ({kinds})"


def nbytes(tensor) -> str:
    """The memory `tensor`'s elements take, in B, KiB, MiB or GiB.

    >>> nbytes(nbt.iota((8, 8), type="f32")), nbytes(nbt.iota((1000, 1000), type="bf16"))
    ('256 B', '1.9 MiB')
    """
    size = tensor.size * tensor.type.bits // 8
    for unit in ("B", "KiB", "MiB"):
        if size < 1024 or unit == "B" and size < 10_000:
            return f"{size} B" if unit == "B" else f"{size:.1f} {unit}".replace(".0 ", " ")
        size /= 1024
    return f"{size:.1f} GiB"


def _box(head: str, body: str) -> str:
    return f"<div class='numbat-tensor' style='{_BOX}'><div style='{_HEAD}'>{head}</div>{body}</div>"


def _body(tensor) -> str:
    """The values (or their summary) with, beside them, a picture of the 2-D slices."""
    size, shape = tensor.size, tensor.shape
    if size == 0:
        return f"<div style='{_DIM}'>no elements</div>"
    numbers = _large(tensor) if size > TABLE_LIMIT else _values(tensor)
    picture = figure(tensor) if len(shape) >= 2 else ""
    if not picture:
        return numbers
    return f"<div style='{_SIDE}'><div style='min-width:0;max-width:100%'>{numbers}</div>{picture}</div>"


def _values(tensor) -> str:
    array, shape, type_ = tensor.to_numpy(), tensor.shape, tensor.type
    if len(shape) == 0:
        return f"<div>{escape(_format.number(array[()], type_))}</div>"
    if len(shape) <= 2:
        return _table(array, type_, tensor.names)
    return f"<pre style='{_PRE}'>{escape(_format.values(array, type_, limit=TABLE_LIMIT))}</pre>"


def _axis_label(names: tuple, axis: int) -> str:
    name = names[axis] if axis < len(names) else None
    return "" if name is None else str(name)


def _table(array: np.ndarray, type_, names: tuple) -> str:
    if array.ndim == 1:
        label = _axis_label(names, 0)
        corner = [f"<th style='{_INDEX}'>{escape(label)}</th>"] if label else []
        head = corner + [f"<th style='{_INDEX}'>{j}</th>" for j in range(array.shape[0])]
        lead = [f"<th style='{_INDEX}'></th>"] if label else []
        body = [lead + [_td(value, type_) for value in array]]
    else:
        corner = " \\ ".join(label for label in (_axis_label(names, 0), _axis_label(names, 1)) if label)
        head = [f"<th style='{_INDEX}'>{escape(corner)}</th>"]
        head += [f"<th style='{_INDEX}'>{j}</th>" for j in range(array.shape[1])]
        body = [
            [f"<th style='{_INDEX}'>{i}</th>"] + [_td(value, type_) for value in row] for i, row in enumerate(array)
        ]
    rows = "".join(f"<tr>{''.join(cells)}</tr>" for cells in body)
    return (
        f"<div style='{_SCROLL}'><table style='{_TABLE}'><thead><tr>{''.join(head)}</tr></thead>"
        f"<tbody>{rows}</tbody></table></div>"
    )


def _td(value, type_) -> str:
    return f"<td style='{_CELL}'>{escape(_format.number(value, type_))}</td>"


def _large(tensor) -> str:
    """Statistics and leading values, computed without copying the tensor to the host."""
    stats = summary(tensor)
    leading = [_format.number(value, tensor.type) for value in _leading(tensor.data)]
    cells = "".join(
        f"<td style='{_INDEX}'>{escape(label)}</td><td style='{_CELL}'>{escape(value)}</td>" for label, value in stats
    )
    first = ", ".join(leading) + (", ..." if tensor.size > PREVIEW else "")
    return (
        f"<div style='{_SCROLL}'><table style='{_TABLE}'><tbody><tr>{cells}</tr></tbody></table></div>"
        f"<div style='margin-top:4px'><span style='{_DIM}'>first {len(leading)} of {tensor.size}:</span> "
        f"{escape(first)}</div>"
    )


def _leading(data) -> np.ndarray:
    """The first `PREVIEW` values in row-major order, copying only those to the host."""
    if isinstance(data, np.ndarray):
        return data.flat[:PREVIEW]  # copies only these, whatever the layout
    with jax.enable_x64(True):
        return np.asarray(_jitted_leading()(data))


@functools.cache
def _jitted_leading():
    """Jitted once (a new lambda per call would recompile)."""
    return jax.jit(lambda d: d.reshape(-1)[:PREVIEW])
