"""A tensor as self-contained HTML: inline CSS, no JavaScript, no CDN.

Small tensors (up to `TABLE_LIMIT` elements) show every value, as a table for
rank 1 and 2; larger ones show summary statistics computed where the data lives
(on the device for XLA tensors: only the statistics and the first `PREVIEW`
values are copied to the host), and real tensors of rank 2 or more a heatmap
of their first 2-D slice, averaged down on the device, with the axis names on
its edges. Colors are neutral greys with transparency, readable on light and
dark themes.

>>> markup = tensor_html(nbt.tensor([[1, 2], [3, 4]], names=["x", "y"]))
>>> "s32[x: 2][y: 2]" in markup, "<script" in markup
(True, False)
"""

from __future__ import annotations

import functools
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
        header = _format.describe(tensor)
        if tensor.vectorized_axes:  # the values are every entry's, vectorized axes first
            from .._ops.vectorization import devectorize

            tensor = devectorize(tensor)
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
        return _large(tensor)
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


def _large(tensor) -> str:
    """Statistics, leading values and a heatmap, computed without copying the tensor to the host."""
    from . import _heatmap

    data, type_ = tensor.data, tensor.type
    xp = np if isinstance(data, np.ndarray) else _jnp()
    stats = _device_statistics(data, type_, xp)
    leading = [_format.number(value, type_) for value in _leading(data, xp)]
    cells = "".join(
        f"<td style='{_INDEX}'>{escape(label)}</td><td style='{_CELL}'>{escape(value)}</td>" for label, value in stats
    )
    first = ", ".join(leading) + (", ..." if tensor.size > PREVIEW else "")
    parts = [
        f"<div style='{_SCROLL}'><table style='{_TABLE}'><tbody><tr>{cells}</tr></tbody></table></div>",
        f"<div style='margin-top:4px'><span style='{_DIM}'>first {len(leading)} of {tensor.size}:</span> {escape(first)}</div>",
    ]
    if len(tensor.shape) >= 2 and not type_.is_complex:
        plane = data[(0,) * (len(tensor.shape) - 2)] if len(tensor.shape) > 2 else data
        small = np.asarray(_heatmap.downsample(plane if xp is not np else plane.astype(np.float32), xp))
        rows_label, cols_label = _axis_label(tensor.names, tensor.rank - 2), _axis_label(tensor.names, tensor.rank - 1)
        where = "" if tensor.rank == 2 else f" (slice {list((0,) * (tensor.rank - 2))})"
        parts.append(
            f"<figure class='numbat-heatmap' style='margin:6px 0 0 0'>"
            f"<div style='{_DIM}text-align:center'>{escape(cols_label or 'axis ' + str(tensor.rank - 1))} →</div>"
            f"<div style='display:flex;align-items:center;gap:4px'>"
            f"<div style='{_DIM}writing-mode:vertical-rl'>{escape(rows_label or 'axis ' + str(tensor.rank - 2))} →</div>"
            f"<img alt='heatmap{escape(where)}' src='{_heatmap.data_uri(small)}' "
            f"style='width:256px;image-rendering:pixelated;border:1px solid rgba(128,128,128,0.35)'/></div>"
            f"<figcaption style='{_DIM}'>heatmap{escape(where)}, {small.shape[0]}×{small.shape[1]} px</figcaption></figure>"
        )
    return "".join(parts)


def _leading(data, xp) -> np.ndarray:
    """The first `PREVIEW` values in row-major order, copying only those to the host."""
    if xp is np:
        return data.reshape(-1)[:PREVIEW]
    return np.asarray(_kernels()["leading"](data))


@functools.cache
def _kernels() -> dict:
    """Jitted kernels for the summary, built once (a new lambda per call would recompile)."""
    import jax

    return {
        "leading": jax.jit(lambda d: d.reshape(-1)[:PREVIEW]),
        "integer": jax.jit(lambda d: (d.min(), d.max(), d.astype("float32").mean(), d.astype("float32").std())),
    }


def _jnp():
    import jax.numpy as jnp

    return jnp


def _device_statistics(flat, type_, xp) -> list[tuple[str, str]]:
    """`statistics`, computed with `xp` where the data lives; only scalars reach the host."""
    if type_.is_complex or type_.is_integer or xp is np:
        return (
            statistics(np.asarray(flat), type_)
            if xp is np or flat.size <= TABLE_LIMIT * 100
            else _integer_stats(flat, type_, xp)
        )
    import jax

    with jax.enable_x64(True):
        host = _float_statistics(flat, type_.bits == 64)
    low, high, mean, std, nans, infs, zeros, count = host
    rows = []
    if count:
        rows += [("min", _float(low)), ("max", _float(high)), ("mean", _float(mean)), ("std", _float(std))]
    return rows + [("NaN", str(nans)), ("Inf", str(infs)), ("zeros", str(zeros))]


@functools.cache
def _float_statistics_kernel(wide64: bool, masked: bool):
    """Statistics in one jitted kernel. The plain kernel (min, max, sum, sum of squares,
    zeros) vectorizes well on XLA's CPU backend; NaN and infinities need the masked one,
    several times slower, which runs only when min or max shows a non-finite value."""
    import jax
    import jax.numpy as jnp

    def kernel(data):
        wide = data.astype(jnp.float64 if wide64 else jnp.float32)
        if masked:
            finite = jnp.isfinite(wide)
            values = jnp.where(finite, wide, 0)
            low, high = jnp.where(finite, wide, jnp.inf).min(), jnp.where(finite, wide, -jnp.inf).max()
            nan, inf, count = jnp.isnan(wide).sum(), jnp.isinf(wide).sum(), finite.sum()
        else:
            values, low, high = wide, wide.min(), wide.max()
            nan, inf, count = 0, 0, wide.size
        return low, high, values.sum(), (values * values).sum(), nan, inf, (wide == 0).sum(), count

    return jax.jit(kernel)


def _float_statistics(flat, wide64: bool) -> list:
    """`[min, max, mean, std, NaN count, Inf count, zero count, finite count]` of `flat`."""
    low, high, total, squares, nan, inf, zeros, count = (
        v.item() for v in _float_statistics_kernel(wide64, False)(flat)
    )
    if not (math.isfinite(low) and math.isfinite(high)):
        low, high, total, squares, nan, inf, zeros, count = (
            v.item() if hasattr(v, "item") else v for v in _float_statistics_kernel(wide64, True)(flat)
        )
    mean = total / max(count, 1)
    std = math.sqrt(max(squares / max(count, 1) - mean * mean, 0.0))
    return [low, high, mean, std, int(nan), int(inf), int(zeros), int(count)]


def _integer_stats(data, type_, xp) -> list[tuple[str, str]]:
    import jax

    low, high, mean, std = jax.jit(lambda d: (d.min(), d.max(), d.astype("float32").mean(), d.astype("float32").std()))(
        data
    )
    return [
        ("min", _format.number(np.asarray(low), type_)),
        ("max", _format.number(np.asarray(high), type_)),
        ("mean", _float(mean)),
        ("std", _float(std)),
    ]
