"""Products of two tensors: `dot` (plain, or with contraction and batch axes) and `conv`.

The family's rule: an op sums products of elements of two tensors over contracted axes
(a convolution over its kernel's windows); its output's shape comes from both operands'
shapes, not from broadcasting them.
"""

from __future__ import annotations

import jax
import numpy as np

from ..._core import _names, _shape, _types
from ..._core._errors import ArgumentError
from ..._tensor import _check
from ..._tensor._tensor import Template, Tensor
from .. import _dispatch
from .shape import transpose


def dot(left, right, contract_axes=None, batch_axes=None, *nx_batch_form):
    """Nx's dot: contracts the last axis of `left` with the first axis of a
    vector `right`, or its second-to-last axis otherwise; names of the
    remaining axes are kept.

    >>> nbt.dot(nbt.tensor([[1, 2], [3, 4]], names=["i", None]), nbt.tensor([[5, 6], [7, 8]], names=[None, "j"]))
    numbat.Tensor<
      s32[i: 2][j: 2]
      [
        [19, 22],
        [43, 50]
      ]
    >
    >>> nbt.dot(nbt.tensor([1.0, 2.0]), nbt.tensor([3, 4]))
    numbat.Tensor<
      f32
      11.0
    >

    With `contract_axes=(left_axes, right_axes)` and `batch_axes=(left_axes, right_axes)`
    (ints or names) it is Nx's `dot/6`: batch axes first, then `left`'s free axes, then `right`'s.

    >>> a = nbt.iota((2, 2, 3), names=["batch", "i", "k"])
    >>> nbt.dot(a, a, contract_axes=(["k"], ["k"]), batch_axes=(["batch"], ["batch"]))
    numbat.Tensor<
      s32[batch: 2][i: 2][i: 2]
      [
        [
          [5, 14],
          [14, 50]
        ],
        [
          [149, 212],
          [212, 302]
        ]
      ]
    >

    Nx's positional forms port as written: `dot(t1, axes1, t2, axes2)` and
    `dot(t1, axes1, batch1, t2, axes2, batch2)`.

    >>> nbt.dot(a, [2], [0], a, [2], [0]).shape
    (2, 2, 2)
    """
    if nx_batch_form or _is_operand(contract_axes):
        left, right, contract_axes, batch_axes = _nx_positional(left, right, contract_axes, batch_axes, nx_batch_form)
    left, right = _dispatch.to_tensor(left), _dispatch.to_tensor(right)
    if contract_axes is not None or batch_axes is not None:
        none = ((), ())
        return _dot_general(
            left, right, none if contract_axes is None else contract_axes, none if batch_axes is None else batch_axes
        )
    shape = _shape.dot(left.shape, right.shape)
    if not left.shape or not right.shape:
        names = left.names + right.names
    else:
        contracted = 0 if right.rank == 1 else right.rank - 2
        names = left.names[:-1] + tuple(n for i, n in enumerate(right.names) if i != contracted)
    out = Template(shape, _types.merge(left.type, right.type), names)
    return _dispatch.run("dot", out, (left, right))


def _is_operand(value) -> bool:
    """A tensor, an array or a number: what Nx's positional forms of dot put third or fourth."""
    return isinstance(value, (Tensor, np.ndarray, jax.Array)) or _types.is_number(value)


def _nx_positional(left, second, third, fourth, rest: tuple) -> tuple:
    """`(left, right, contract_axes, batch_axes)` of Nx's `dot(t1, axes1, t2, axes2)` or
    `dot(t1, axes1, batch1, t2, axes2, batch2)`, given as dot's positional arguments."""
    if not rest and _is_operand(third):  # dot(t1, axes1, t2, axes2)
        return left, third, (second, () if fourth is None else fourth), None
    if len(rest) == 2 and _is_operand(fourth):  # dot(t1, axes1, batch1, t2, axes2, batch2)
        return left, fourth, (second, rest[0]), (third, rest[1])
    raise ArgumentError(
        f"dot takes (left, right), Nx's (t1, axes1, t2, axes2) or (t1, axes1, batch1, t2, axes2, batch2), "
        f"or keywords contract_axes= and batch_axes=; got {2 + 2 + len(rest)} positional arguments"
    )


def _dot_general(left, right, contract_axes, batch_axes):
    try:
        (lc, rc), (lb, rb) = contract_axes, batch_axes
        lc, rc, lb, rb = (_check.sequence("dot", "axes", axes, "axes") for axes in (lc, rc, lb, rb))
    except (TypeError, ValueError):
        raise ArgumentError(
            f"dot: contract_axes and batch_axes are (left axes, right axes) pairs, got {contract_axes!r}, {batch_axes!r}"
        ) from None
    lc, rc = tuple(_names.axis_index(left.names, a) for a in lc), tuple(_names.axis_index(right.names, a) for a in rc)
    lb, rb = tuple(_names.axis_index(left.names, a) for a in lb), tuple(_names.axis_index(right.names, a) for a in rb)
    if len(lc) != len(rc) or len(lb) != len(rb):
        raise ArgumentError(f"dot: contract axes {lc}/{rc} and batch axes {lb}/{rb} must pair up")
    for side, contract, batch in (("left", lc, lb), ("right", rc, rb)):
        if set(contract) & set(batch):
            raise ArgumentError(
                f"dot: {side} axes {sorted(set(contract) & set(batch))} cannot be both batch axes and contract axes"
            )
    for a, b, kind in [(a, b, "contract") for a, b in zip(lc, rc)] + [(a, b, "batch") for a, b in zip(lb, rb)]:
        if left.shape[a] != right.shape[b]:
            raise ArgumentError(
                f"dot: {kind} axis {a} of left (size {left.shape[a]}) and axis {b} of right (size {right.shape[b]}) differ"
            )
    free_left = [i for i in range(left.rank) if i not in lc and i not in lb]
    free_right = [i for i in range(right.rank) if i not in rc and i not in rb]
    shape = tuple(left.shape[i] for i in lb) + tuple(left.shape[i] for i in free_left)
    shape += tuple(right.shape[i] for i in free_right)
    names = tuple(left.names[i] for i in lb) + tuple(left.names[i] for i in free_left)
    names += tuple(right.names[i] for i in free_right)
    out = Template(shape, _types.merge(left.type, right.type), names)
    return _dispatch.run("dot_general", out, (left, right), contract=(lc, rc), batch=(lb, rb))


def conv(
    tensor,
    kernel,
    strides=1,
    padding="valid",
    input_dilation=1,
    kernel_dilation=1,
    feature_group_size=1,
    batch_group_size=1,
    input_permutation=None,
    kernel_permutation=None,
    output_permutation=None,
):
    """Nx's convolution: `tensor` is [batch, channels, *spatial], `kernel` is
    [out_channels, in_channels / feature groups, *spatial]; `padding` is "valid",
    "same" or a (low, high) pair per spatial axis. Other layouts are given by
    permutations (axis positions or names), as in Nx: `input_permutation` lists the
    input's [batch, channels, *spatial] axes, `kernel_permutation` the kernel's
    [out, in, *spatial] axes, and `output_permutation` lays the output out as the input
    (its [batch, channels, *spatial] axes named or placed as the input's: channels-last
    in, channels-last out).

    >>> image = nbt.iota((1, 3, 3, 2), type="f32", names=["batch", "height", "width", "channels"])
    >>> kernel = nbt.broadcast(1.0, (4, 2, 2, 2))
    >>> nbt.conv(image, kernel, input_permutation=["batch", "channels", "height", "width"],
    ...          output_permutation=["batch", "channels", "height", "width"]).shape
    (1, 2, 2, 4)

    >>> nbt.conv(nbt.tensor([[[1.0, 2.0, 3.0, 4.0]]]), nbt.tensor([[[1.0, -1.0]]]))
    numbat.Tensor<
      f32[1][1][3]
      [
        [
          [-1.0, -1.0, -1.0]
        ]
      ]
    >
    """
    tensor, kernel = _dispatch.to_tensor(tensor), _dispatch.to_tensor(kernel)
    if tensor.rank < 3 or kernel.rank != tensor.rank:
        raise ArgumentError(f"conv: input {tensor.shape} and kernel {kernel.shape} need the same rank >= 3")
    input_names = tensor.names
    if input_permutation is not None:
        tensor = transpose(tensor, _permutation(input_permutation, input_names, "input_permutation"))
    if kernel_permutation is not None:
        kernel = transpose(kernel, _permutation(kernel_permutation, kernel.names, "kernel_permutation"))
    result = _conv(
        tensor, kernel, strides, padding, input_dilation, kernel_dilation, feature_group_size, batch_group_size
    )
    if output_permutation is None:
        return result
    order = _permutation(output_permutation, input_names, "output_permutation")
    return transpose(result, sorted(range(len(order)), key=order.__getitem__))  # its inverse, as Nx


def _permutation(axes, names: tuple, what: str) -> list:
    """`axes` (positions or names) as a permutation of `len(names)` positions."""
    indices = [_names.axis_index(names, axis) for axis in axes]
    if sorted(indices) != list(range(len(names))):
        raise ArgumentError(f"conv: {what} must list each of the {len(names)} axes once, got {list(axes)!r}")
    return indices


def _conv_per_axis(value, what: str, spatial: int) -> tuple:
    """`value` (an int, or a list or tuple of them) as one positive int per spatial axis."""
    if isinstance(value, int):
        value = (value,) * spatial
    elif isinstance(value, (list, tuple)):
        value = tuple(value)
    if not isinstance(value, tuple) or len(value) != spatial or not all(isinstance(v, int) and v >= 1 for v in value):
        raise ArgumentError(f"conv: {what} must be {spatial} positive ints, got {value!r}")
    return value


def _check_conv_groups(tensor, kernel, feature_group_size: int, batch_group_size: int) -> None:
    """Raises unless the feature and batch groups divide the input and kernel as Nx's
    conv requires (at most one of them above 1)."""
    if feature_group_size > 1 and batch_group_size > 1:
        raise ArgumentError(
            f"conv: either batch groups or feature groups must be 1, got {batch_group_size} and {feature_group_size}"
        )
    if tensor.shape[0] % batch_group_size:
        raise ArgumentError(
            f"conv: batch groups must evenly divide input batch size, got {batch_group_size} for {tensor.shape[0]}"
        )
    for groups, what in ((feature_group_size, "feature"), (batch_group_size, "batch")):
        if kernel.shape[0] % groups:
            raise ArgumentError(
                f"conv: size of kernel output channels must be evenly divisible by {what} groups, "
                f"got {kernel.shape[0]} for {groups}"
            )
    if tensor.shape[1] != kernel.shape[1] * feature_group_size:
        raise ArgumentError(
            f"conv: input has {tensor.shape[1]} channels, kernel expects {kernel.shape[1]} x {feature_group_size} groups"
        )


def _conv_padding(padding, spans: list, spatial: int) -> tuple:
    """`padding` ("valid", "same", or (low, high) pairs) as one (low, high) pair per
    spatial axis; "same" splits each dilated kernel span's padding, the extra on high."""
    if padding == "valid":
        return ((0, 0),) * spatial
    if padding == "same":
        return tuple(((span - 1) // 2, span - 1 - (span - 1) // 2) for span in spans)
    try:
        pads = tuple((int(low), int(high)) for low, high in padding)
    except (TypeError, ValueError):
        pads = ()
    if len(pads) != spatial:
        raise ArgumentError(f'conv: invalid padding, must be "valid", "same" or {spatial} (low, high) pairs')
    return pads


def _conv(tensor, kernel, strides, padding, input_dilation, kernel_dilation, feature_group_size, batch_group_size):
    spatial = tensor.rank - 2
    strides = _conv_per_axis(strides, "strides", spatial)
    input_dilation = _conv_per_axis(input_dilation, "input_dilation", spatial)
    kernel_dilation = _conv_per_axis(kernel_dilation, "kernel_dilation", spatial)
    _check_conv_groups(tensor, kernel, feature_group_size, batch_group_size)
    sizes = [(s - 1) * d + 1 for s, d in zip(tensor.shape[2:], input_dilation)]
    spans = [(k - 1) * d + 1 for k, d in zip(kernel.shape[2:], kernel_dilation)]
    pads = _conv_padding(padding, spans, spatial)
    out_spatial = tuple(
        (size + low + high - span) // stride + 1 for size, (low, high), span, stride in zip(sizes, pads, spans, strides)
    )
    if any(s < 1 for s in out_spatial):
        raise ArgumentError(f"conv: kernel {kernel.shape} does not fit input {tensor.shape} with padding {pads}")
    shape = (tensor.shape[0] // batch_group_size, kernel.shape[0], *out_spatial)
    type_ = _types.to_floating(_types.merge(tensor.type, kernel.type))
    # As Nx.Shape.conv: the output takes the (permuted) input's names.
    out = Template(shape, type_, tensor.names)
    return _dispatch.run(
        "conv",
        out,
        (tensor, kernel),
        strides=strides,
        padding=pads,
        input_dilation=input_dilation,
        kernel_dilation=kernel_dilation,
        feature_groups=feature_group_size,
        batch_groups=batch_group_size,
    )
