"""Window reductions: `window_sum`, `window_product`, `window_max`, `window_min`, `window_mean`.

The family's rule: an op reduces each window of a tensor (a box of given shape, strides,
padding and dilations) to one element, or scatters one value per window back.

`window` is the window's shape (one size per axis); `strides` (default 1), `padding`
("valid", "same", or a (low, high) pair per axis) and `window_dilations` follow Nx.
"""

from __future__ import annotations

from ..._core import _types
from ..._core._errors import ArgumentError
from ..._tensor import _check
from ..._tensor._tensor import Template
from .. import _dispatch
from .elementwise import divide


def _per_axis(value, rank: int, what: str, op: str) -> tuple:
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * rank
    value = _check.sequence(op, what, value, "positive ints")
    if len(value) != rank or not all(isinstance(v, int) and v >= 1 for v in value):
        raise ArgumentError(f"{op}: {what} must be {rank} positive ints, got {value!r}")
    return value


def _real_only(op: str, type_: _types.Type) -> None:
    if type_.is_complex:  # complex numbers have no order (Nx raises too)
        raise ArgumentError(f"{op} is not defined for complex tensors, got {type_}")


def _window(kind: str, tensor, window, strides, padding, window_dilations, op: str, type_=None):
    tensor = _dispatch.to_tensor(tensor)
    if kind in ("max", "min"):
        _real_only(op, tensor.type)
    out, window, strides, pads, dilations = _geometry(tensor, window, strides, padding, window_dilations, op, type_)
    return _dispatch.run(
        "window", out, (tensor,), kind=kind, window=window, strides=strides, padding=pads, dilations=dilations
    )


def _geometry(tensor, window, strides, padding, window_dilations, op: str, type_=None):
    """The output template and the per-axis window, strides, (low, high) pads and dilations."""
    rank = tensor.rank
    window = _per_axis(window, rank, "the window shape", op)
    strides = _per_axis(strides, rank, "strides", op)
    dilations = _per_axis(window_dilations, rank, "window_dilations", op)
    dilated = [(w - 1) * d + 1 for w, d in zip(window, dilations)]
    if padding == "valid":
        pads = ((0, 0),) * rank
    elif padding == "same":
        # Nx.Shape.to_padding_config: the dilated window's span - 1, split low/high, whatever the strides
        pads = tuple(((span - 1) // 2, span - 1 - (span - 1) // 2) for span in dilated)
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
    return out, window, strides, pads, dilations


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
    tensor = _dispatch.to_tensor(tensor)
    total = _window(
        "sum", tensor, window, strides, padding, window_dilations, "window_mean", _types.to_floating(tensor.type)
    )
    count = 1
    for size in _per_axis(window, tensor.rank, "the window shape", "window_mean"):
        count *= size
    return divide(total, count)  # Nx's divide(window_sum, size): a complex Inf becomes Inf+NaN i, as `mean`


def window_reduce(tensor, acc, window, fun, strides=1, padding="valid", window_dilations=1):
    """Reduces each window with `fun(a, b)`, a function of two numbat tensors, starting
    from the scalar `acc` (Nx's `window_reduce(tensor, acc, shape, opts, fun)`). As with
    `reduce`, `fun` must be associative, commutative and element-wise.

    >>> nbt.window_reduce(nbt.tensor([[1, 2, 3], [4, 5, 6]]), 0, (2, 2), lambda a, b: a + b)
    numbat.Tensor<
      s32[1][2]
      [
        [12, 16]
      ]
    >
    >>> nbt.window_reduce(nbt.tensor([4, 1, 3, 2]), -100, (2,), nbt.max, strides=2)
    numbat.Tensor<
      s32[2]
      [4, 3]
    >
    """
    if not callable(fun):
        raise ArgumentError(f"window_reduce: fun must be a function of two tensors, got {fun!r}")
    tensor = _dispatch.to_tensor(tensor)
    if _types.is_number(acc):
        type_ = _types.merge_number(tensor.type, acc)
        acc = _dispatch.scalar(acc, type_, tensor.backend)
    else:
        acc = _dispatch.to_tensor(acc, tensor.backend)
        if acc.shape != ():
            raise ArgumentError(f"window_reduce: the accumulator must be a scalar, got shape {acc.shape}")
        type_ = _types.merge(tensor.type, acc.type)
    out, window, strides, pads, dilations = _geometry(
        tensor, window, strides, padding, window_dilations, "window_reduce", type_
    )
    return _dispatch.run(
        "window_reduce",
        out,
        (tensor, acc),
        fun=fun,
        window=window,
        strides=strides,
        padding=pads,
        dilations=dilations,
    )


def _window_scatter(kind: str, tensor, source, init_value, window, strides, padding, op: str):
    tensor = _dispatch.to_tensor(tensor)
    source = _dispatch.to_tensor(source, tensor.backend)
    windows, window, strides, pads, _ = _geometry(tensor, window, strides, padding, 1, op)
    _real_only(op, tensor.type)
    if source.shape != windows.shape:
        raise ArgumentError(
            f"{op}: source must have one value per window, shape {windows.shape}, got shape {source.shape}"
        )
    if _types.is_number(init_value):
        type_ = _types.merge_number(source.type, init_value)
        init = _dispatch.scalar(init_value, type_, tensor.backend)
    else:
        init = _dispatch.to_tensor(init_value, tensor.backend)
        if init.shape != ():
            raise ArgumentError(f"{op}: init_value must be a scalar, got shape {init.shape}")
        type_ = _types.merge(source.type, init.type)
    _real_only(op, type_)
    out = Template(tensor.shape, type_, tensor.names)
    return _dispatch.run(
        "window_scatter", out, (tensor, source, init), kind=kind, window=window, strides=strides, padding=pads
    )


def window_scatter_max(tensor, source, init_value, window, strides=1, padding="valid"):
    """Adds each value of `source` (one per window) at the position of its window's
    largest element (the last of equals, as in Nx) onto a tensor of `tensor`'s shape
    filled with `init_value`: the gradient of `window_max`.

    >>> t = nbt.tensor([[7, 2, 5, 3, 10, 2], [3, 8, 9, 3, 4, 2], [1, 5, 7, 5, 6, 1], [0, 6, 2, 7, 2, 8]])
    >>> nbt.window_scatter_max(t, nbt.tensor([[2, 6], [3, 1]]), 0, (2, 3), strides=(2, 3))
    numbat.Tensor<
      s32[4][6]
      [
        [0, 0, 0, 0, 6, 0],
        [0, 0, 2, 0, 0, 0],
        [0, 0, 3, 0, 0, 0],
        [0, 0, 0, 0, 0, 1]
      ]
    >
    """
    return _window_scatter("max", tensor, source, init_value, window, strides, padding, "window_scatter_max")


def window_scatter_min(tensor, source, init_value, window, strides=1, padding="valid"):
    """As `window_scatter_max`, at each window's smallest element.

    >>> t = nbt.tensor([[7, 2, 5, 3, 10, 2], [3, 8, 9, 3, 4, 2], [1, 5, 7, 5, 6, 1], [0, 6, 2, 7, 2, 8]])
    >>> nbt.window_scatter_min(t, nbt.tensor([[2, 6], [3, 1]]), 0, (2, 3), strides=(2, 3))
    numbat.Tensor<
      s32[4][6]
      [
        [0, 2, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 6],
        [0, 0, 0, 0, 0, 1],
        [3, 0, 0, 0, 0, 0]
      ]
    >
    """
    return _window_scatter("min", tensor, source, init_value, window, strides, padding, "window_scatter_min")
