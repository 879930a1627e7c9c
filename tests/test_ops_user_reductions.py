"""mode, reduce with a user function, window_reduce and window_scatter_max/min: against
NumPy references and Nx's documented results, on both backends and inside defn."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import numbat as nbt

NX_T = [[7, 2, 5, 3, 10, 2], [3, 8, 9, 3, 4, 2], [1, 5, 7, 5, 6, 1], [0, 6, 2, 7, 2, 8]]
NX_OVERLAP = [[7, 2, 5, 3, 8], [3, 8, 9, 3, 4], [1, 5, 7, 5, 6], [0, 6, 2, 10, 2]]


def _mode_reference(array, axis):
    """The most frequent value of each slice along `axis`, the smallest on ties."""

    def one(values):
        uniques, counts = np.unique(values, return_counts=True)
        return uniques[np.argmax(counts)]  # np.unique sorts, argmax takes the first (smallest)

    if axis is None:
        return one(array.reshape(-1))
    return np.apply_along_axis(one, axis, array)


@pytest.fixture(params=["eager", "defn"])
def run(request):
    """Calls a function of tensors eagerly, or compiled as a defn."""
    return (lambda fun, *args: fun(*args)) if request.param == "eager" else (lambda fun, *a: nbt.jit(fun)(*a))


@settings(max_examples=20, deadline=None)
@given(
    array=hnp.arrays(
        np.int32, hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5), elements=st.integers(-3, 3)
    ),
    data=st.data(),
)
def test_mode_matches_a_counting_reference(array, data):
    axis = data.draw(st.one_of(st.none(), st.integers(0, array.ndim - 1)))
    for backend in (nbt.NumPyBackend(), nbt.XLABackend()):
        result = nbt.mode(nbt.tensor(array, backend=backend), axis=axis)
        np.testing.assert_array_equal(result.to_numpy(), _mode_reference(array, axis))


def test_mode_in_defn_keeps_axis_names_and_floats(backend, run):
    t = nbt.tensor([[1.5, 2.0, 2.0], [-1.0, -1.0, 3.0]], names=["x", "y"])
    result = run(lambda t: nbt.mode(t, axis="y", keep_axis=True), t)
    assert result.names == ("x", "y") and result.shape == (2, 1)
    np.testing.assert_array_equal(result.to_numpy(), [[2.0], [-1.0]])


@pytest.mark.parametrize(
    "fun, reference, acc",
    [
        (nbt.add, np.sum, 0),
        (nbt.multiply, np.prod, 1),
        (nbt.max, np.max, -100),
        (lambda a, b: nbt.min(a, b), np.min, 100),
    ],
)
@pytest.mark.parametrize("axes", [None, [0], [1, 2], [-1]])
def test_reduce_matches_numpy(backend, run, fun, reference, acc, axes):
    array = np.random.default_rng(1).integers(-4, 5, size=(2, 3, 4)).astype(np.int32)
    result = run(lambda t: nbt.reduce(t, acc, fun, axes=axes), nbt.tensor(array))
    reduced = reference(array, axis=None if axes is None else tuple(axes))
    expected = reference(np.stack([reduced, np.full_like(reduced, acc)]), axis=0)  # `acc` is folded in once
    np.testing.assert_array_equal(result.to_numpy(), expected)
    assert result.type == nbt.tensor(array).type


def test_reduce_keeps_axes_and_takes_the_type_option(backend):
    t = nbt.tensor([[1, 2], [3, 4]], names=["x", "y"])
    result = nbt.reduce(t, 0, nbt.add, axes=["y"], keep_axes=True, type="f64")
    assert str(result.type) == "f64"
    assert result.names == ("x", "y")
    np.testing.assert_array_equal(result.to_numpy(), [[3.0], [7.0]])


def test_reduce_and_window_reduce_record_one_node_in_defn():
    expr = nbt.debug_expr(lambda t: nbt.reduce(t, 0, lambda a, b: a + b * 1))(nbt.iota((3,)))
    ops = [node.op for node in expr.nodes]
    assert ops.count("reduce") == 1 and "multiply" not in ops


@pytest.mark.parametrize("strides, padding", [(1, "valid"), ((2, 1), "valid"), (1, "same"), (2, ((1, 0), (0, 2)))])
def test_window_reduce_agrees_with_window_sum_and_max(backend, run, strides, padding):
    t = nbt.tensor(np.arange(20, dtype=np.float32).reshape(4, 5) - 7)
    summed = run(lambda t: nbt.window_reduce(t, 0, (2, 3), nbt.add, strides=strides, padding=padding), t)
    np.testing.assert_array_equal(
        summed.to_numpy(), nbt.window_sum(t, (2, 3), strides=strides, padding=padding).to_numpy()
    )
    biggest = run(lambda t: nbt.window_reduce(t, -1e9, (2, 3), nbt.max, strides=strides), t)
    np.testing.assert_array_equal(biggest.to_numpy(), nbt.window_max(t, (2, 3), strides=strides).to_numpy())


@pytest.mark.parametrize(
    "op, tensor, strides, expected",
    [
        (
            nbt.window_scatter_max,
            NX_T,
            (2, 3),
            [[0, 0, 0, 0, 6, 0], [0, 0, 2, 0, 0, 0], [0, 0, 3, 0, 0, 0], [0, 0, 0, 0, 0, 1]],
        ),
        (nbt.window_scatter_max, NX_OVERLAP, (2, 2), [[0] * 5, [0, 0, 8, 0, 0], [0, 0, 3, 0, 0], [0, 0, 0, 1, 0]]),
        (
            nbt.window_scatter_min,
            NX_T,
            (2, 3),
            [[0, 2, 0, 0, 0, 0], [0, 0, 0, 0, 0, 6], [0, 0, 0, 0, 0, 1], [3, 0, 0, 0, 0, 0]],
        ),
        (nbt.window_scatter_min, NX_OVERLAP, (2, 2), [[0, 2, 0, 0, 0], [0, 0, 0, 6, 0], [0] * 5, [3, 0, 0, 0, 1]]),
    ],
)
def test_window_scatter_gives_nx_documented_results(backend, run, op, tensor, strides, expected):
    result = run(lambda t, s: op(t, s, 0, (2, 3), strides=strides), nbt.tensor(tensor), nbt.tensor([[2, 6], [3, 1]]))
    np.testing.assert_array_equal(result.to_numpy(), expected)


def test_window_scatter_max_is_the_gradient_of_window_max(backend):
    x = nbt.tensor(np.random.default_rng(2).normal(size=(4, 6)).astype(np.float32))
    grad = nbt.grad(lambda t: nbt.sum(nbt.window_max(t, (2, 3), strides=(2, 3))))(x)
    scattered = nbt.window_scatter_max(x, nbt.broadcast(1.0, (2, 2)), 0.0, (2, 3), strides=(2, 3))
    np.testing.assert_allclose(grad.to_numpy(), scattered.to_numpy())


def test_window_scatter_padding_never_wins(backend):
    t = nbt.tensor([-5, -6, -7])
    result = nbt.window_scatter_max(t, nbt.tensor([1, 1]), 10, (2,), strides=2, padding=((0, 1),))
    np.testing.assert_array_equal(result.to_numpy(), [11, 10, 11])


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: nbt.mode(nbt.tensor([1j])), "complex"),
        (lambda: nbt.mode(nbt.iota((0,))), "empty"),
        (lambda: nbt.mode(nbt.iota((2, 3)), axis="z"), "z"),
        (lambda: nbt.reduce(nbt.iota((3,)), 0, "add"), "fun must be a function"),
        (lambda: nbt.reduce(nbt.iota((3,)), nbt.iota((2,)), nbt.add), "accumulator must be a scalar"),
        (lambda: nbt.reduce(nbt.iota((3,)), 0, lambda a, b: "one"), "must return a tensor"),
        (lambda: nbt.window_reduce(nbt.iota((3,)), 0, (4,), nbt.add), "does not fit"),
        (lambda: nbt.window_scatter_max(nbt.iota((4,)), nbt.iota((3,)), 0, (2,), strides=2), "one value per window"),
        (lambda: nbt.window_scatter_min(nbt.iota((4,)), nbt.iota((2,)), nbt.iota((2,)), (2,), strides=2), "scalar"),
    ],
)
def test_bad_input_names_the_problem(call, message):
    with pytest.raises(nbt.ArgumentError, match=message):
        call()
