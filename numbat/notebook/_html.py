"""A tensor as self-contained HTML: inline CSS, no JavaScript, no CDN.

Small tensors (up to `TABLE_LIMIT` elements) show every value, as a table for
rank 1 and 2; larger ones show summary statistics computed on the host in
NumPy and the first `PREVIEW` values, never the whole tensor. Colors are
neutral greys with transparency, readable on light and dark themes.

>>> markup = tensor_html(nbt.tensor([[1, 2], [3, 4]], names=["x", "y"]))
>>> "s32[x: 2][y: 2]" in markup, "<script" in markup
(True, False)
"""

from __future__ import annotations

import html
import math

import numpy as np

from .. import _format
from .._types import Type

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
_PRE = "margin:4px 0 0 0;font-family:inherit;font-size:inherit;white-space:pre;overflow:auto;max-height:24em;"


def escape(text) -> str:
    """`text` (any value, as str) escaped for HTML text and attributes.

    >>> escape("<b>x</b>")
    '&lt;b&gt;x&lt;/b&gt;'
    """
    return html.escape(str(text), quote=True)


def tensor_html(tensor) -> str:
    """The HTML form of `tensor`: header (type, shape with names, device), then
    the values or, past `TABLE_LIMIT` elements, a summary. Never raises: what
    cannot be rendered is said in the output instead.

    >>> markup = tensor_html(nbt.tensor([1.0, 2.0], names=["<b>x</b>"]))
    >>> "f32[&lt;b&gt;x&lt;/b&gt;: 2]" in markup
    True
    """
    try:
        header = _format.header(tensor.type, tensor.shape, tensor.names)
    except Exception as error:  # noqa: BLE001 -- display must never raise; say what failed instead
        return _box(f"<span>numbat.Tensor</span><span>{escape(type(error).__name__)}: {escape(error)}</span>", "")
    try:
        device = tensor.backend.describe()
    except Exception as error:  # noqa: BLE001
        device = f"device unknown ({type(error).__name__}: {error})"
    head = (
        f"<span style='{_DIM}'>numbat.Tensor</span><b>{escape(header)}</b><span style='{_DIM}'>{escape(device)}</span>"
    )
    try:
        body = _body(tensor)
    except Exception as error:  # noqa: BLE001
        body = f"<div style='{_DIM}'>values unavailable: {escape(type(error).__name__)}: {escape(error)}</div>"
    return _box(head, body)


def _box(head: str, body: str) -> str:
    return f"<div class='numbat-tensor' style='{_BOX}'><div style='{_HEAD}'>{head}</div>{body}</div>"


def _body(tensor) -> str:
    size, shape, type_ = tensor.size, tensor.shape, tensor.type
    if size == 0:
        return f"<div style='{_DIM}'>no elements</div>"
    if size > TABLE_LIMIT:
        return _summary(tensor.to_numpy(), type_)
    array = tensor.to_numpy()
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


def statistics(array: np.ndarray, type_) -> list[tuple[str, str]]:
    """Summary rows `(label, value)` for `array`, computed on the host.

    Floats report NaN and infinity counts and compute min, max, mean and std
    over the finite values; complex numbers report the mean and the largest
    magnitude.

    >>> statistics(np.array([1.0, np.nan, 3.0], np.float32), nbt.Type("f", 32))
    [('min', '1.0'), ('max', '3.0'), ('mean', '2.0'), ('std', '1.0'), ('NaN', '1'), ('Inf', '0')]
    """
    flat = array.reshape(-1)
    if type_.is_complex:
        finite = np.isfinite(flat)
        values = flat if finite.all() else flat[finite]
        rows = []
        if values.size:
            mean = values.mean(dtype=np.complex128)
            rows += [("mean", _format.number(mean, Type("c", 128)))]
            rows += [("max |x|", _float(np.abs(values).max()))]
        rows += [("NaN", str(int(np.isnan(flat).sum()))), ("Inf", str(int(np.isinf(flat).sum())))]
        return rows
    if type_.is_integer:
        wide = flat.astype(np.float64)
        return [
            ("min", _format.number(flat.min(), type_)),
            ("max", _format.number(flat.max(), type_)),
            ("mean", _float(wide.mean())),
            ("std", _float(wide.std())),
        ]
    wide = flat.astype(np.float64)  # bf16 and f8 included: ml_dtypes converts exactly
    nan, inf = np.isnan(wide), np.isinf(wide)
    finite = wide[~(nan | inf)] if (nan.any() or inf.any()) else wide
    rows = []
    if finite.size:
        low, high = (type_.dtype.type(v) for v in (finite.min(), finite.max()))  # exact: values of the tensor
        rows += [("min", _format.number(low, type_)), ("max", _format.number(high, type_))]
        rows += [("mean", _float(finite.mean())), ("std", _float(finite.std()))]
    return rows + [("NaN", str(int(nan.sum()))), ("Inf", str(int(inf.sum())))]


def _float(value) -> str:
    """A statistic, to 6 significant digits."""
    value = float(value)
    if not math.isfinite(value):
        return _format.number(np.float64(value), Type("f", 64))
    return _format.number(np.float64(f"{value:.6g}"), Type("f", 64))


def _summary(array: np.ndarray, type_) -> str:
    size = array.size
    stats = statistics(array, type_)
    cells = "".join(
        f"<td style='{_INDEX}'>{escape(label)}</td><td style='{_CELL}'>{escape(value)}</td>" for label, value in stats
    )
    leading = [_format.number(value, type_) for value in array.reshape(-1)[:PREVIEW]]
    first = ", ".join(leading) + (", ..." if size > PREVIEW else "")
    return (
        f"<div style='{_SCROLL}'><table style='{_TABLE}'><tbody><tr>{cells}</tr></tbody></table></div>"
        f"<div style='margin-top:4px'><span style='{_DIM}'>first {len(leading)} of {size}:</span> {escape(first)}</div>"
    )
