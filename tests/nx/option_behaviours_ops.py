"""More of test_honours's checks (see option_behaviours.py): the options of the ops users
call most (reductions' axes and keep_axes, argmax/argmin, sort, cumulative ops, windows,
conv, indexing, structure, creation and vectorization). Each check calls the op with and
without the option and asserts the difference Nx documents; references are NumPy's or
Nx's doctest results. Importing the module registers them in `BEHAVIOURS`.
"""

from __future__ import annotations

import numpy as np

import numbat as nbt

from .option_behaviours import as_lists, behaviour

M = [[1, 5, 2], [4, 0, 6]]  # a 2x3 matrix with distinct entries


def _m(type_="s32"):
    return nbt.tensor(M, type=type_, names=["r", "c"])


# --- reductions: axes (by index and by name) and keep_axes --------------------------------

_REDUCTIONS = {
    "Nx.sum": (nbt.sum, np.sum),
    "Nx.product": (nbt.product, np.prod),
    "Nx.reduce_max": (nbt.reduce_max, np.max),
    "Nx.reduce_min": (nbt.reduce_min, np.min),
    "Nx.all": (nbt.all, lambda a, axis, keepdims=False: np.all(a, axis=axis, keepdims=keepdims).astype(int)),
    "Nx.any": (nbt.any, lambda a, axis, keepdims=False: np.any(a > 2, axis=axis, keepdims=keepdims).astype(int)),
    "Nx.mean": (nbt.mean, np.mean),
    "Nx.logsumexp": (nbt.logsumexp, lambda a, axis, keepdims=False: np.log(np.sum(np.exp(a), axis, keepdims=keepdims))),
    "Nx.standard_deviation": (nbt.standard_deviation, np.std),
    "Nx.variance": (nbt.variance, np.var),
}


def _reduction_input(function):
    """`any` sees a mask (so that rows differ), the others the matrix."""
    data = np.array(M) > 2 if function == "Nx.any" else np.array(M)
    return nbt.tensor(data.astype(np.int32), names=["r", "c"]), np.array(M)


def _check_axes(function):
    op, reference = _REDUCTIONS[function]
    tensor, data = _reduction_input(function)
    whole = as_lists(op(tensor))
    np.testing.assert_allclose(whole, reference(data, axis=None), rtol=1e-6)
    for axes, axis in (([1], 1), (["r"], 0), ([0, 1], (0, 1))):
        result = op(tensor, axes=axes)
        np.testing.assert_allclose(as_lists(result), reference(data, axis=axis), rtol=1e-6)
    assert op(tensor, axes=["r"]).names == ("c",)


def _check_keep_axes(function):
    op, reference = _REDUCTIONS[function]
    tensor, data = _reduction_input(function)
    kept = op(tensor, axes=[1], keep_axes=True)
    assert kept.shape == (2, 1) and kept.names == ("r", "c")
    np.testing.assert_allclose(as_lists(kept), reference(data, axis=1, keepdims=True), rtol=1e-6)
    assert op(tensor, axes=[1]).shape == (2,)
    assert op(tensor, keep_axes=True).shape == (1, 1)


for _function in _REDUCTIONS:
    if _function != "Nx.sum":  # sum:axes is in option_behaviours.py
        behaviour(_function, "axes")(lambda f=_function: _check_axes(f))
    if _function != "Nx.mean":  # mean:keep_axes is in option_behaviours.py
        behaviour(_function, "keep_axes")(lambda f=_function: _check_keep_axes(f))


@behaviour("Nx.weighted_mean", "axes")
def _():
    t, w = nbt.tensor([[1.0, 2.0], [3.0, 4.0]]), nbt.tensor([[1.0, 3.0], [1.0, 1.0]])
    np.testing.assert_allclose(as_lists(nbt.weighted_mean(t, w)), 14 / 6, rtol=1e-6)
    assert as_lists(nbt.weighted_mean(t, w, axes=[1])) == [1.75, 3.5]
    assert as_lists(nbt.weighted_mean(t, w, axes=[0])) == [2.0, 2.5]


@behaviour("Nx.weighted_mean", "keep_axes")
def _():
    t, w = nbt.tensor([[1.0, 2.0], [3.0, 4.0]]), nbt.tensor([[1.0, 3.0], [1.0, 1.0]])
    assert as_lists(nbt.weighted_mean(t, w, axes=[1], keep_axes=True)) == [[1.75], [3.5]]


@behaviour("Nx.reduce", "axes")
def _():
    assert as_lists(nbt.reduce(_m(), 0, nbt.add)) == 18
    assert as_lists(nbt.reduce(_m(), 0, nbt.add, axes=["c"])) == [8, 10]
    assert as_lists(nbt.reduce(_m(), 0, nbt.add, axes=[0])) == [5, 5, 8]


@behaviour("Nx.reduce", "keep_axes")
def _():
    assert as_lists(nbt.reduce(_m(), 0, nbt.add, axes=[0], keep_axes=True)) == [[5, 5, 8]]


# --- argmax / argmin ------------------------------------------------------------------------


@behaviour("Nx.argmax", "axis")
def _():
    assert as_lists(nbt.argmax(_m())) == 5  # the flat index
    assert as_lists(nbt.argmax(_m(), axis=1)) == [1, 2]
    assert as_lists(nbt.argmax(_m(), axis="r")) == [1, 0, 1]


@behaviour("Nx.argmax", "keep_axis")
def _():
    assert as_lists(nbt.argmax(_m(), axis=1, keep_axis=True)) == [[1], [2]]
    assert nbt.argmax(_m(), axis=1).shape == (2,)


@behaviour("Nx.argmin", "axis")
def _():
    assert as_lists(nbt.argmin(_m())) == 4
    assert as_lists(nbt.argmin(_m(), axis=1)) == [0, 1]


@behaviour("Nx.argmin", "tie_break")
def _():
    t = nbt.tensor([2, 1, 3, 1])
    assert as_lists(nbt.argmin(t)) == 1
    assert as_lists(nbt.argmin(t, tie_break="high")) == 3


@behaviour("Nx.argmin", "type")
def _():
    assert str(nbt.argmin(nbt.tensor([1, 0]), type="u8").type) == "u8"
    assert str(nbt.argmin(nbt.tensor([1, 0])).type) == "s32"


# --- sort -----------------------------------------------------------------------------------


@behaviour("Nx.sort", "axis")
def _():
    assert as_lists(nbt.sort(_m())) == [[1, 0, 2], [4, 5, 6]]
    assert as_lists(nbt.sort(_m(), axis=1)) == [[1, 2, 5], [0, 4, 6]]
    assert as_lists(nbt.sort(_m(), axis="c", direction="desc")) == [[5, 2, 1], [6, 4, 0]]


@behaviour("Nx.sort", "stable")
def _():
    # -0.0 and 0.0 are equal: a stable sort keeps them in their order, either direction.
    for data in ([0.0, -0.0, -1.0], [-0.0, 0.0, -1.0]):
        for direction in ("asc", "desc"):
            result = nbt.sort(nbt.tensor(data), direction=direction, stable=True).to_numpy()
            zeros = [value for value in result if value == 0]
            assert np.signbit(zeros).tolist() == np.signbit(data[:2]).tolist(), (data, direction, result)


@behaviour("Nx.argsort", "axis")
def _():
    assert as_lists(nbt.argsort(_m())) == [[0, 1, 0], [1, 0, 1]]
    assert as_lists(nbt.argsort(_m(), axis=1)) == [[0, 2, 1], [1, 0, 2]]


# --- cumulative ops -------------------------------------------------------------------------

_CUMULATIVE = {
    "Nx.cumulative_sum": (nbt.cumulative_sum, np.cumsum),
    "Nx.cumulative_product": (nbt.cumulative_product, np.cumprod),
    "Nx.cumulative_max": (nbt.cumulative_max, np.maximum.accumulate),
    "Nx.cumulative_min": (nbt.cumulative_min, np.minimum.accumulate),
}


def _check_cumulative_axis(function):
    op, reference = _CUMULATIVE[function]
    data = np.array(M)
    assert as_lists(op(_m())) == reference(data, axis=0).tolist()
    assert as_lists(op(_m(), axis=1)) == reference(data, axis=1).tolist()
    assert as_lists(op(_m(), axis="c")) == reference(data, axis=1).tolist()


def _check_cumulative_reverse(function):
    op, reference = _CUMULATIVE[function]
    data = np.array(M)
    expected = np.flip(reference(np.flip(data, 1), axis=1), 1)
    assert as_lists(op(_m(), axis=1, reverse=True)) == expected.tolist()
    assert as_lists(op(_m(), axis=1)) == reference(data, axis=1).tolist()


for _function in _CUMULATIVE:
    behaviour(_function, "axis")(lambda f=_function: _check_cumulative_axis(f))
    if _function != "Nx.cumulative_sum":  # cumulative_sum:reverse is in option_behaviours.py
        behaviour(_function, "reverse")(lambda f=_function: _check_cumulative_reverse(f))


@behaviour("Nx.diff", "axis")
def _():
    assert as_lists(nbt.diff(_m())) == [[4, -3], [-4, 6]]
    assert as_lists(nbt.diff(_m(), axis=0)) == [[3, -5, 4]]


# --- statistics with an axis ----------------------------------------------------------------


@behaviour("Nx.median", "axis")
def _():
    t = nbt.tensor([[1, 5, 2], [4, 0, 6]])
    assert as_lists(nbt.median(t)) == 3.0
    assert as_lists(nbt.median(t, axis=1)) == [2, 4]
    assert as_lists(nbt.median(t, axis=0)) == [2.5, 2.5, 4.0]  # an even count: the middles' mean, f32


@behaviour("Nx.mode", "axis")
def _():
    t = nbt.tensor([[1, 1, 2], [3, 2, 2]])
    assert as_lists(nbt.mode(t)) == 2
    assert as_lists(nbt.mode(t, axis=1)) == [1, 2]


# --- windows --------------------------------------------------------------------------------

V = [3, 1, 4, 1, 5, 9]

_WINDOWS = {
    "Nx.window_sum": (nbt.window_sum, np.sum),
    "Nx.window_product": (nbt.window_product, np.prod),
    "Nx.window_max": (nbt.window_max, np.max),
    "Nx.window_min": (nbt.window_min, np.min),
    "Nx.window_mean": (nbt.window_mean, np.mean),
    "Nx.window_reduce": (lambda t, w, **o: nbt.window_reduce(t, 0, w, nbt.add, **o), np.sum),
}


def _windows(data, size, stride=1, dilation=1):
    span = (size - 1) * dilation + 1
    return [data[i : i + span : dilation] for i in range(0, len(data) - span + 1, stride)]


def _check_window_strides(function):
    op, reduce = _WINDOWS[function]
    result = op(nbt.tensor(V), (2,), strides=2)
    assert as_lists(result) == [reduce(w) for w in _windows(V, 2, stride=2)]
    assert op(nbt.tensor(V), (2,)).shape == (5,)


def _check_window_dilations(function):
    op, reduce = _WINDOWS[function]
    result = op(nbt.tensor(V), (2,), window_dilations=2)
    assert as_lists(result) == [reduce(w) for w in _windows(V, 2, dilation=2)]


def _check_window_padding(function):
    op, reduce = _WINDOWS[function]
    identity = {"Nx.window_max": -(2**31), "Nx.window_min": 2**31 - 1, "Nx.window_product": 1}.get(function, 0)
    padded = [identity] + V + [identity]
    result = op(nbt.tensor(V), (3,), padding="same")
    if function == "Nx.window_mean":  # the mean divides by the window's size, padding included
        np.testing.assert_allclose(as_lists(result), [sum(w) / 3 for w in _windows([0] + V + [0], 3)], rtol=1e-6)
    else:
        assert as_lists(result) == [reduce(w) for w in _windows(padded, 3)]
    explicit = op(nbt.tensor(V), (3,), padding=[(2, 0)])
    assert explicit.shape == (6,) and op(nbt.tensor(V), (3,)).shape == (4,)


for _function in _WINDOWS:
    if _function != "Nx.window_sum":  # window_sum's are in option_behaviours.py
        behaviour(_function, "strides")(lambda f=_function: _check_window_strides(f))
        behaviour(_function, "window_dilations")(lambda f=_function: _check_window_dilations(f))
        behaviour(_function, "padding")(lambda f=_function: _check_window_padding(f))


@behaviour("Nx.window_scatter_max", "strides")
def _():
    t = nbt.tensor([1, 5, 2, 7])
    # Nx: each window's source value goes to the window's maximum.
    assert as_lists(nbt.window_scatter_max(t, nbt.tensor([10, 20]), 0, (2,), strides=2)) == [0, 10, 0, 20]
    assert as_lists(nbt.window_scatter_max(t, nbt.tensor([10, 20, 30]), 0, (2,))) == [0, 30, 0, 30]


@behaviour("Nx.window_scatter_min", "strides")
def _():
    t = nbt.tensor([1, 5, 2, 7])
    assert as_lists(nbt.window_scatter_min(t, nbt.tensor([10, 20]), 0, (2,), strides=2)) == [10, 0, 20, 0]
    assert as_lists(nbt.window_scatter_min(t, nbt.tensor([10, 20, 30]), 0, (2,))) == [10, 0, 50, 0]


@behaviour("Nx.window_scatter_max", "padding")
def _():
    t = nbt.tensor([1, 5, 2, 7])
    result = nbt.window_scatter_max(t, nbt.tensor([10, 20, 30, 40]), 0, (2,), padding=[(0, 1)])
    assert as_lists(result) == [0, 30, 0, 70]  # windows [1 5] [5 2] [2 7] [7 pad]: padding never wins


@behaviour("Nx.window_scatter_min", "padding")
def _():
    t = nbt.tensor([-1, -5, -2, -7])  # negative: the padding (Nx pads with init_value) never wins
    result = nbt.window_scatter_min(t, nbt.tensor([10, 20, 30, 40]), 0, (2,), padding=[(1, 0)])
    assert as_lists(result) == [10, 50, 0, 40]  # windows [pad -1] [-1 -5] [-5 -2] [-2 -7]


# --- conv -----------------------------------------------------------------------------------


def _correlate(x, k, stride=1):
    """NumPy's 1-d valid cross-correlation (Nx's conv does not flip the kernel)."""
    return [sum(x[i + j] * k[j] for j in range(len(k))) for i in range(0, len(x) - len(k) + 1, stride)]


X5 = [1.0, 2.0, 3.0, 4.0, 5.0]


def _conv1(x, k, **options):
    return nbt.conv(nbt.tensor([[x]]), nbt.tensor([[k]]), **options)


@behaviour("Nx.conv", "input_dilation")
def _():
    dilated = [1.0, 0.0, 2.0, 0.0, 3.0, 0.0, 4.0, 0.0, 5.0]
    assert as_lists(_conv1(X5, [1.0, 10.0], input_dilation=2)) == [[_correlate(dilated, [1.0, 10.0])]]


@behaviour("Nx.conv", "kernel_dilation")
def _():
    assert as_lists(_conv1(X5, [1.0, 10.0], kernel_dilation=2)) == [[_correlate(X5, [1.0, 0.0, 10.0])]]
    assert as_lists(_conv1(X5, [1.0, 10.0])) == [[_correlate(X5, [1.0, 10.0])]]


@behaviour("Nx.conv", "feature_group_size")
def _():
    x = nbt.tensor([[[1.0, 2.0], [3.0, 4.0]]])  # batch 1, channels 2
    k = nbt.tensor([[[10.0]], [[100.0]]])  # 2 output channels of 1 input channel each
    assert as_lists(nbt.conv(x, k, feature_group_size=2)) == [[[10.0, 20.0], [300.0, 400.0]]]


@behaviour("Nx.conv", "batch_group_size")
def _():
    x = nbt.tensor([[[1.0, 2.0]], [[3.0, 4.0]]])  # batch 2, channels 1
    k = nbt.tensor([[[10.0]], [[100.0]]])
    assert as_lists(nbt.conv(x, k, batch_group_size=2)) == [[[10.0, 20.0], [300.0, 400.0]]]
    assert nbt.conv(x, k).shape == (2, 2, 2)


def _image():
    return nbt.iota((1, 2, 3, 4), type="f32")  # batch, channels, height, width


def _kernel():
    return nbt.iota((5, 2, 2, 2), type="f32") - 7.0  # output, input, height, width


@behaviour("Nx.conv", "input_permutation")
def _():
    channels_last = nbt.transpose(_image(), axes=[0, 2, 3, 1])
    result = nbt.conv(channels_last, _kernel(), input_permutation=[0, 3, 1, 2])
    assert as_lists(result) == as_lists(nbt.conv(_image(), _kernel()))


@behaviour("Nx.conv", "kernel_permutation")
def _():
    io_kernel = nbt.transpose(_kernel(), axes=[1, 0, 2, 3])
    result = nbt.conv(_image(), io_kernel, kernel_permutation=[1, 0, 2, 3])
    assert as_lists(result) == as_lists(nbt.conv(_image(), _kernel()))


@behaviour("Nx.conv", "output_permutation")
def _():
    # [0, 3, 1, 2]: batch at 0, channels at 3, spatial at 1 and 2 (channels last).
    result = nbt.conv(_image(), _kernel(), output_permutation=[0, 3, 1, 2])
    assert result.shape == (1, 2, 3, 5)
    assert as_lists(result) == as_lists(nbt.transpose(nbt.conv(_image(), _kernel()), axes=[0, 2, 3, 1]))


# --- indexing -------------------------------------------------------------------------------


@behaviour("Nx.gather", "axes")
def _():
    t = nbt.tensor([[1, 2, 3], [4, 5, 6]])
    assert as_lists(nbt.gather(t, nbt.tensor([[1], [0], [2], [1]]), axes=[1])) == [[2, 5], [1, 4], [3, 6], [2, 5]]
    assert as_lists(nbt.gather(t, nbt.tensor([[1], [0]]))) == [[4, 5, 6], [1, 2, 3]]


@behaviour("Nx.indexed_put", "axes")
def _():
    indices, updates = nbt.tensor([[0, 0], [0, 2]]), nbt.tensor([[0, 30], [20, 50]])
    result = nbt.indexed_put(nbt.iota((1, 2, 3)), indices, updates, axes=[0, 2])
    assert as_lists(result) == [[[0, 1, 20], [30, 4, 50]]]


@behaviour("Nx.indexed_add", "axes")
def _():
    indices, updates = nbt.tensor([[0, 0], [0, 2]]), nbt.tensor([[0, 30], [20, 50]])
    result = nbt.indexed_add(nbt.iota((1, 2, 3)), indices, updates, axes=[0, 2])
    assert as_lists(result) == [[[0, 1, 22], [33, 4, 55]]]
    plain = nbt.indexed_add(nbt.iota((2, 3)), nbt.tensor([[1, 2]]), nbt.tensor([10]))
    assert as_lists(plain) == [[0, 1, 2], [3, 4, 15]]


@behaviour("Nx.take_along_axis", "axis")
def _():
    t = nbt.tensor([[1, 2, 3], [4, 5, 6]])
    assert as_lists(nbt.take_along_axis(t, nbt.tensor([[2, 0], [1, 1]]), axis=1)) == [[3, 1], [5, 5]]
    assert as_lists(nbt.take_along_axis(t, nbt.tensor([[1, 0, 1]]))) == [[4, 2, 6]]


@behaviour("Nx.put_diagonal", "offset")
def _():
    zeros = nbt.broadcast(0, (3, 3))
    assert as_lists(nbt.put_diagonal(zeros, nbt.tensor([1, 2]), offset=1)) == [[0, 1, 0], [0, 0, 2], [0, 0, 0]]
    assert as_lists(nbt.put_diagonal(zeros, nbt.tensor([1, 2]), offset=-1)) == [[0, 0, 0], [1, 0, 0], [0, 2, 0]]


@behaviour("Nx.slice_along_axis", "axis")
def _():
    t = nbt.iota((2, 4))
    assert as_lists(nbt.slice_along_axis(t, 1, 2, axis=1)) == [[1, 2], [5, 6]]
    assert as_lists(nbt.slice_along_axis(t, 1, 1)) == [[4, 5, 6, 7]]


@behaviour("Nx.slice_along_axis", "strides")
def _():
    assert as_lists(nbt.slice_along_axis(nbt.iota((6,)), 1, 5, strides=2)) == [1, 3, 5]


# --- structure ------------------------------------------------------------------------------


@behaviour("Nx.concatenate", "axis")
def _():
    a, b = nbt.tensor([[1, 2]]), nbt.tensor([[3, 4]])
    assert as_lists(nbt.concatenate([a, b])) == [[1, 2], [3, 4]]
    assert as_lists(nbt.concatenate([a, b], axis=1)) == [[1, 2, 3, 4]]


@behaviour("Nx.stack", "axis")
def _():
    a, b = nbt.tensor([1, 2]), nbt.tensor([3, 4])
    assert as_lists(nbt.stack([a, b])) == [[1, 2], [3, 4]]
    assert as_lists(nbt.stack([a, b], axis=1)) == [[1, 3], [2, 4]]


@behaviour("Nx.split", "axis")
def _():
    left, right = nbt.split(nbt.iota((2, 4)), 1, axis=1)
    assert as_lists(left) == [[0], [4]] and as_lists(right) == [[1, 2, 3], [5, 6, 7]]
    top, _bottom = nbt.split(nbt.iota((2, 4)), 1)
    assert as_lists(top) == [[0, 1, 2, 3]]


@behaviour("Nx.flatten", "axes")
def _():
    t = nbt.iota((2, 3, 4))
    assert nbt.flatten(t, axes=[1, 2]).shape == (2, 12)
    assert nbt.flatten(t, axes=[0, 1]).shape == (6, 4)
    assert nbt.flatten(t).shape == (24,)


@behaviour("Nx.squeeze", "axes")
def _():
    t = nbt.iota((1, 2, 1))
    assert nbt.squeeze(t, axes=[0]).shape == (2, 1)
    assert nbt.squeeze(t).shape == (2,)


@behaviour("Nx.reverse", "axes")
def _():
    assert as_lists(nbt.reverse(_m(), axes=["c"])) == [[2, 5, 1], [6, 0, 4]]
    assert as_lists(nbt.reverse(_m())) == [[6, 0, 4], [2, 5, 1]]


@behaviour("Nx.transpose", "axes")
def _():
    t = nbt.iota((2, 3, 4), names=["a", "b", "c"])
    assert nbt.transpose(t, axes=[2, 0, 1]).names == ("c", "a", "b")
    assert nbt.transpose(t).names == ("c", "b", "a")
    assert as_lists(nbt.transpose(t, axes=[2, 0, 1])) == np.arange(24).reshape(2, 3, 4).transpose(2, 0, 1).tolist()


@behaviour("Nx.broadcast", "names")
def _():
    assert nbt.broadcast(nbt.tensor([1, 2]), (3, 2), names=["x", "y"]).names == ("x", "y")
    assert nbt.broadcast(nbt.tensor([1, 2]), (3, 2)).names == (None, None)


@behaviour("Nx.reflect", "padding_config")
def _():
    assert as_lists(nbt.reflect(nbt.tensor([0, 1, 2]), padding_config=[(3, 1)])) == [1, 2, 1, 0, 1, 2, 1]
    t = nbt.tensor([[0, 1], [2, 3]])
    assert as_lists(nbt.reflect(t, padding_config=[(0, 0), (1, 0)])) == [[1, 0, 1], [3, 2, 3]]


# --- creation -------------------------------------------------------------------------------


@behaviour("Nx.tensor", "names")
def _():
    assert nbt.tensor([[1, 2]], names=["x", "y"]).names == ("x", "y")
    assert nbt.tensor([[1, 2]]).names == (None, None)


@behaviour("Nx.template", "names")
def _():
    assert nbt.template((2, 3), "f32", names=["x", None]).names == ("x", None)


@behaviour("Nx.eye", "names")
def _():
    assert nbt.eye(2, names=["r", "c"]).names == ("r", "c")


@behaviour("Nx.eye", "backend")
def _():
    assert isinstance(nbt.eye(2, backend=nbt.NumPyBackend()).backend, nbt.NumPyBackend)
    assert isinstance(nbt.eye(2, backend=nbt.XLABackend()).backend, nbt.XLABackend)


@behaviour("Nx.eye", "vectorized_axes")
def _():
    t = nbt.eye(2, vectorized_axes=[("v", 3)])
    assert t.vectorized_axes == (("v", 3),) and t.shape == (2, 2)
    assert as_lists(nbt.devectorize(t)) == [[[1, 0], [0, 1]]] * 3


@behaviour("Nx.from_binary", "backend")
def _():
    data = np.array([1, 2], np.int32).tobytes()
    assert isinstance(nbt.from_binary(data, "s32", backend=nbt.NumPyBackend()).backend, nbt.NumPyBackend)
    assert isinstance(nbt.from_binary(data, "s32", backend=nbt.XLABackend()).backend, nbt.XLABackend)


@behaviour("Nx.linspace", "n")
def _():
    assert as_lists(nbt.linspace(0, 10, n=5)) == [0.0, 2.5, 5.0, 7.5, 10.0]
    assert nbt.linspace(0, 10, n=3).shape == (3,)


@behaviour("Nx.tri", "k")
def _():
    assert as_lists(nbt.tri(3, 3, k=1)) == [[1, 1, 0], [1, 1, 1], [1, 1, 1]]
    assert as_lists(nbt.tri(3, 3, k=-1)) == [[0, 0, 0], [1, 0, 0], [1, 1, 0]]


@behaviour("Nx.tril", "k")
def _():
    t = nbt.broadcast(1, (3, 3))
    assert as_lists(nbt.tril(t, k=1)) == [[1, 1, 0], [1, 1, 1], [1, 1, 1]]
    assert as_lists(nbt.tril(t)) == [[1, 0, 0], [1, 1, 0], [1, 1, 1]]


# --- vectorization --------------------------------------------------------------------------


@behaviour("Nx.reshape_vectors", "align_ranks")
def _():
    ys = nbt.vectorize(nbt.tensor([[[1], [1]], [[2], [2]], [[3], [3]]]), "y")
    one, _ = nbt.reshape_vectors([1, ys])
    assert one.shape == ()
    one, _ = nbt.reshape_vectors([1, ys], align_ranks=True)
    assert one.shape == (1, 1) and one.vectorized_axes == (("y", 1),)


@behaviour("Nx.broadcast_vectors", "align_ranks")
def _():
    x = nbt.vectorize(nbt.tensor([1, 2]), "x")
    xy = nbt.vectorize(nbt.vectorize(nbt.tensor([[[5]], [[6]]]), "y"), "x")
    bx, _ = nbt.broadcast_vectors([x, xy])
    assert bx.shape == ()
    bx, _ = nbt.broadcast_vectors([x, xy], align_ranks=True)
    assert bx.shape == (1,) and as_lists(bx) == [[[1], [1]], [[2], [2]]]


@behaviour("Nx.revectorize", "target_shape")
def _():
    t = nbt.vectorize(nbt.iota((2, 2, 2)), ["x", "y"])
    assert nbt.revectorize(t, {"temp": "auto", "x": 2}).shape == (2,)
    revec = nbt.revectorize(t, {"temp": "auto", "x": 2}, target_shape=())
    assert revec.vectorized_axes == (("temp", 4), ("x", 2)) and revec.shape == ()


@behaviour("Nx.revectorize", "target_names")
def _():
    t = nbt.vectorize(nbt.iota((2, 2, 2)), ["x", "y"])
    again = nbt.revectorize(t, [("new_vec", 2)], target_shape=(1, 4), target_names=["x", "last"])
    assert again.names == ("x", "last") and as_lists(again) == [[[0, 1, 2, 3]], [[4, 5, 6, 7]]]
    assert nbt.revectorize(t, [("new_vec", 2)], target_shape=(1, 4)).names == (None, None)
