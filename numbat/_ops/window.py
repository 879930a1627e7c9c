"""Window reductions: `window_sum`, `window_product`, `window_max`, `window_min`, `window_mean`.

`window` is the window's shape (one size per axis); `strides` (default 1), `padding`
("valid", "same", or a (low, high) pair per axis) and `window_dilations` follow Nx.
"""

from __future__ import annotations

from .. import _types
from .._errors import ArgumentError
from ..backends._abstract import Template
from . import _dispatch


def _per_axis(value, rank: int, what: str, op: str) -> tuple:
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * rank
    value = tuple(value)
    if len(value) != rank or not all(isinstance(v, int) and v >= 1 for v in value):
        raise ArgumentError(f"{op}: {what} must be {rank} positive ints, got {value!r}")
    return value


def _window(kind: str, tensor, window, strides, padding, window_dilations, op: str, type_=None):
    tensor = _dispatch.to_tensor(tensor)
    rank = tensor.rank
    window = _per_axis(window, rank, "the window shape", op)
    strides = _per_axis(strides, rank, "strides", op)
    dilations = _per_axis(window_dilations, rank, "window_dilations", op)
    dilated = [(w - 1) * d + 1 for w, d in zip(window, dilations)]
    if padding == "valid":
        pads = ((0, 0),) * rank
    elif padding == "same":
        pads = []
        for size, span, stride in zip(tensor.shape, dilated, strides):
            total = max((-(-size // stride) - 1) * stride + span - size, 0)
            pads.append((total // 2, total - total // 2))
        pads = tuple(pads)
    else:
        try:
            pads = tuple((int(low), int(high)) for low, high in padding)
        except (TypeError, ValueError):
            pads = ()
        if len(pads) != rank:
            raise ArgumentError(f'{op}: padding must be "valid", "same" or {rank} (low, high) pairs, got {padding!r}')
    shape = []
    for size, (low, high), span, stride in zip(tensor.shape, pads, dilated, strides):
        padded = size + low + high
        if padded < span:
            raise ArgumentError(f"{op}: window {window} does not fit in shape {tensor.shape} with padding {pads}")
        shape.append((padded - span) // stride + 1)
    out = Template(tuple(shape), type_ or tensor.type, tensor.names)
    return _dispatch.run(
        "window", out, (tensor,), kind=kind, window=window, strides=strides, padding=pads, dilations=dilations
    )


def window_sum(tensor, window, strides=1, padding="valid", window_dilations=1):
    """Sums each window.

    >>> nbt.window_sum(nbt.tensor([[1, 2, 3], [4, 5, 6]]), (1, 2))
    numbat.Tensor<
      s32[2][2]
      [
        [3, 5],
        [9, 11]
      ]
    >
    """
    return _window("sum", tensor, window, strides, padding, window_dilations, "window_sum")


def window_product(tensor, window, strides=1, padding="valid", window_dilations=1):
    """Multiplies each window.

    >>> nbt.window_product(nbt.tensor([1, 2, 3, 4]), (2,), strides=2)
    numbat.Tensor<
      s32[2]
      [2, 12]
    >
    """
    return _window("product", tensor, window, strides, padding, window_dilations, "window_product")


def window_max(tensor, window, strides=1, padding="valid", window_dilations=1):
    """The largest element of each window (padding never wins).

    >>> nbt.window_max(nbt.tensor([1, 5, 2, 4]), (2,), padding="same")
    numbat.Tensor<
      s32[4]
      [5, 5, 4, 4]
    >
    """
    return _window("max", tensor, window, strides, padding, window_dilations, "window_max")


def window_min(tensor, window, strides=1, padding="valid", window_dilations=1):
    """The smallest element of each window (padding never wins).

    >>> nbt.window_min(nbt.tensor([3, 1, 2, 0, 5]), (3,), window_dilations=2)
    numbat.Tensor<
      s32[1]
      [2]
    >
    """
    return _window("min", tensor, window, strides, padding, window_dilations, "window_min")


def window_mean(tensor, window, strides=1, padding="valid", window_dilations=1):
    """The mean of each window (padding counts as zeros, as in Nx).

    >>> nbt.window_mean(nbt.tensor([1, 2, 3, 4]), (2,))
    numbat.Tensor<
      f32[3]
      [1.5, 2.5, 3.5]
    >
    """
    from .elementwise import divide

    tensor = _dispatch.to_tensor(tensor)
    total = _window(
        "sum", tensor, window, strides, padding, window_dilations, "window_mean", _types.to_floating(tensor.type)
    )
    count = 1
    for size in _per_axis(window, tensor.rank, "the window shape", "window_mean"):
        count *= size
    return divide(total, count)
