"""Nx 0.13.1 nx/test/nx_test.exs (NxTest), describes "linspace/3", "reflect/2", "mode",
"reshape_vectors", "broadcast_vectors", "vectorization", "select", "fft/ifft", "split/2",
"logsumexp", "quantized types", "slice of scalar tensor"."""

import math

import pytest

import numbat as nbt

from ._support import assert_all_close, assert_raises, assert_same, run

INF = math.inf


def vec(tensor, *axes):
    return nbt.vectorize(tensor, list(axes))


# describe "linspace/3"


def test_linspace_works_for_f64(path):
    out = run(path, lambda: nbt.linspace(0.0, 0.5, 6, type="f64"))
    assert_all_close(out, nbt.tensor([0.0, 0.1, 0.2, 0.3, 0.4, 0.5], type="f64"), atol=1.0e-15, rtol=1.0e-15)


def test_linspace_n_1_returns_start_value(path):
    assert_same(run(path, lambda: nbt.linspace(0, 10, 1)), nbt.tensor([0.0]))
    assert_same(run(path, lambda: nbt.linspace(5, 5, 1)), nbt.tensor([5.0]))


# describe "reflect/2"


def test_reflect_reflects_over_axes_of_size_1(path):
    assert_same(run(path, lambda t: nbt.pad_outer(t, "reflect", [(2, 1)]), nbt.tensor([1])), nbt.tensor([1, 1, 1, 1]))
    out = run(path, lambda t: nbt.pad_outer(t, "reflect", [(0, 0), (0, 0), (2, 1)]), nbt.tensor([[[1]]]))
    assert_same(out, nbt.tensor([[[1, 1, 1, 1]]]))


def test_reflect_semantic_error_on_invalid_padding_config(path):
    assert_raises(path, lambda t: nbt.pad_outer(t, "reflect", [(0,)]), nbt.tensor([0]), match="pad_outer")
    assert_raises(path, lambda t: nbt.pad_outer(t, "reflect", [(0, 0), (0, 0), (-1, 0)]), nbt.tensor([[[0]]]),
                  match="axis 2")  # fmt: skip


# describe "mode"


def test_mode_axis(path):
    assert_same(run(path, lambda t: nbt.mode(t, axis=0), nbt.tensor([[1, 2, 3]])), nbt.tensor([1, 2, 3]))
    assert_same(
        run(path, lambda t: nbt.mode(t, axis=0, keep_axis=True), nbt.tensor([[1, 2, 3]])), nbt.tensor([[1, 2, 3]])
    )
    assert_same(run(path, lambda t: nbt.mode(t, axis=1), nbt.tensor([[1], [2], [1], [3]])), nbt.tensor([1, 2, 1, 3]))


def test_mode_keep_axis(path):
    assert_same(run(path, lambda t: nbt.mode(t, keep_axis=True), nbt.tensor(1)), nbt.tensor([1]))
    assert_same(run(path, lambda t: nbt.mode(t, keep_axis=True), nbt.tensor([[[1]]])), nbt.tensor([[[1]]]))


# describe "reshape_vectors", "broadcast_vectors"


def test_reshape_vectors_returns_correct_axes_order():
    x = nbt.iota((1,), vectorized_axes=[("x", 1)])
    xy = nbt.iota((1,), vectorized_axes=[("x", 1), ("y", 2)])
    x2 = nbt.iota((1,), vectorized_axes=[("x", 2)])
    expected = [
        nbt.iota((1,), vectorized_axes=[("x", 1), ("y", 1)]),
        xy,
        nbt.iota((1,), vectorized_axes=[("x", 2), ("y", 1)]),
    ]
    assert_same(nbt.reshape_vectors([x, xy, x2]), expected)


def test_broadcast_vectors_returns_correct_axes_order():
    x = nbt.iota((1,), vectorized_axes=[("x", 1)])
    xy = nbt.iota((1, 2), vectorized_axes=[("x", 1), ("y", 2)])
    x2 = nbt.iota((1, 2, 3), vectorized_axes=[("x", 2)])
    both = [("x", 2), ("y", 2)]
    result = [nbt.iota(shape, vectorized_axes=both) for shape in ((1,), (1, 2), (1, 2, 3))]
    assert_same(nbt.broadcast_vectors([x, xy, x2]), result)
    assert_same(nbt.broadcast_vectors([x, xy, x2], align_ranks=False), result)
    aligned = [nbt.iota(shape, vectorized_axes=both) for shape in ((1, 1, 1), (1, 1, 2), (1, 2, 3))]
    assert_same(nbt.broadcast_vectors([x, xy, x2], align_ranks=True), aligned)


# describe "vectorization"


def test_vectorizes_and_devectorizes_containers():
    container = (nbt.tensor([1]), {"a": nbt.tensor([2]), "b": (nbt.tensor([3]), nbt.tensor([[4, 5]]))})
    vectorized = nbt.vectorize(container, [("x", 1)])
    expected = (
        vec(nbt.tensor([1]), ("x", 1)),
        {
            "a": vec(nbt.tensor([2]), ("x", 1)),
            "b": (vec(nbt.tensor([3]), ("x", 1)), vec(nbt.tensor([[4, 5]]), ("x", 1))),
        },
    )
    assert_same(vectorized, expected)
    assert_same(nbt.devectorize((1, vectorized), keep_names=False), (nbt.tensor(1), container))


BROADCAST_CASES = [
    # (v, t's vectorized axes, result, result's vectorized axes)
    ([0, 1], None, [[[0, 1, 2], [3, 4, 5]], [[1, 2, 3], [4, 5, 6]]], [("x", 2)]),
    ([[0, 1, 2], [10, 20, 30]], None, [[[0, 2, 4], [3, 5, 7]], [[10, 21, 32], [13, 24, 35]]], [("x", 2)]),
    ([0, 1], [("x", 1), ("y", 2)], [[[[0, 1, 2], [3, 4, 5]]] * 2, [[[1, 2, 3], [4, 5, 6]]] * 2],
     [("x", 2), ("y", 2)]),
    ([[0, 1, 2], [10, 20, 30]], [("x", 1), ("y", 2)],
     [[[[0, 2, 4], [3, 5, 7]]] * 2, [[[10, 21, 32], [13, 24, 35]]] * 2], [("x", 2), ("y", 2)]),
]  # fmt: skip


@pytest.mark.parametrize(("v", "t_axes", "result", "result_axes"), BROADCAST_CASES)
def test_broadcasts_work_for_vectorized_operands(path, v, t_axes, result, result_axes):
    v = vec(nbt.tensor(v), ("x", 2))
    t = nbt.iota((2, 3), vectorized_axes=t_axes) if t_axes else nbt.iota((2, 3))
    expected = vec(nbt.tensor(result), *result_axes)
    assert_same(run(path, nbt.add, t, v), expected)
    assert_same(run(path, nbt.add, v, t), expected)


# describe "select"


def test_select_works_with_vectorized_scalar_pred(path):
    pred = vec(nbt.tensor([0, 1]), ("x", 2))
    out = run(path, nbt.select, pred, nbt.tensor([[0, 1, 2]]), nbt.tensor([[3, 4, 5]]))
    assert_same(out, vec(nbt.tensor([[[3, 4, 5]], [[0, 1, 2]]]), ("x", 2)))
    out = run(path, nbt.select, pred, vec(nbt.tensor([[0, 1, 2]]), ("x", 1)), vec(nbt.tensor([[3, 4, 5]]), ("x", 1)))
    assert_same(out, vec(nbt.tensor([[3, 4, 5], [0, 1, 2]]), ("x", 2)))


def test_select_works_with_scalar_pred_and_vectorized_inputs(path):
    out = run(path, lambda a, b: nbt.select(1, a, b), nbt.iota((2,), vectorized_axes=[("x", 2)]),
              vec(nbt.tensor([[3, 4]]), ("x", 1)))  # fmt: skip
    assert_same(out, vec(nbt.tensor([[0, 1], [0, 1]]), ("x", 2)))


# describe "fft/ifft"


def test_fft_bluestein_clause(path):
    x = nbt.tile(nbt.tensor([1, 1, 1, 0, 0, 0]), [400])
    x_fft = run(path, nbt.fft, x)
    non_zero_idx = nbt.tensor([0, 400, 1200, 2000])
    # Nx: == ~VEC[1200 400-692.820323i 400 400+692.820323i], exact on Nx.BinaryBackend; compared here to
    # the float32 rounding error of a 2400-point transform (see DELIBERATE)
    assert_all_close(nbt.take(x_fft, non_zero_idx), nbt.tensor([1200, 400 - 692.820323j, 400, 400 + 692.820323j]),
                     atol=1e-3, rtol=1e-6)  # fmt: skip
    zeros_check = nbt.indexed_put(x_fft, nbt.new_axis(non_zero_idx, 1), nbt.tensor([0, 0, 0, 0]))
    zeros = nbt.broadcast(0, x_fft.shape)
    assert_all_close(nbt.real(zeros_check), zeros, atol=1.0e-3)
    assert_all_close(nbt.imag(zeros_check), zeros, atol=1.0e-3)
    x_ifft = run(path, nbt.ifft, x_fft)
    assert_all_close(x, nbt.real(x_ifft), atol=1.0e-5)
    assert_all_close(zeros, nbt.imag(x_ifft), atol=1.0e-5)


# describe "split/2"


def test_split_is_less_than_zero(path):
    tensor = nbt.iota((10, 3), names=["x", "y"])
    assert_same(run(path, lambda t: nbt.split(t, -1, axis=1), tensor), (tensor[:, 0:2], tensor[:, 2:3]))


@pytest.mark.parametrize(
    ("split", "axis"), [(-0.5, 0), (1.0, 0), (3, 1), (2, 2), (2, "z")],
    ids=["negative float", "float out of bounds", "greater than length", "axis out of bounds", "named axis invalid"],
)  # fmt: skip
def test_split_raises(path, split, axis):
    assert_raises(path, lambda t: nbt.split(t, split, axis=axis), nbt.iota((10, 2), names=["x", "y"]))


@pytest.mark.parametrize(
    ("shape", "names", "split", "axis", "shapes"),
    [
        ((4, 4), ["rows", "columns"], 0.5, "columns", ((4, 2), (4, 2))),
        ((100, 6), ["rows", "columns"], 70, "rows", ((70, 6), (30, 6))),
        ((2, 100), ["rows", "columns"], 90, "columns", ((2, 90), (2, 10))),
        ((100, 10), None, 5, 1, ((100, 5), (100, 5))),
        ((100, 10), None, 61, 0, ((61, 10), (39, 10))),
        ((99, 4), None, 60, 0, ((60, 4), (39, 4))),
    ],
)
def test_split_into_train_and_test(path, shape, names, split, axis, shapes):
    train, test = run(path, lambda t: nbt.split(t, split, axis=axis), nbt.iota(shape, names=names))
    assert (nbt.shape(train), nbt.shape(test)) == shapes


# describe "logsumexp"


def test_logsumexp_removes_the_right_axes(path):
    tensor = nbt.tensor([[[11.0], [12.0], [13.0]]])
    assert_same(run(path, lambda t: nbt.logsumexp(t, axes=[0]), tensor), nbt.tensor([[11.0], [12.0], [13.0]]))
    assert_same(run(path, lambda t: nbt.logsumexp(t, axes=[2]), tensor), nbt.tensor([[11.0, 12.0, 13.0]]))


def test_logsumexp_works_with_infinities(path):
    values = (INF, -INF, 0.0)
    rows = [[a, b, c] for a in values for b in values for c in values][:26]
    log2 = 0.6931471824645996
    expected = [INF] * 13 + [-INF, 0.0, INF, 0.0, log2, INF, INF, INF, INF, 0.0, log2, INF, log2]
    assert_same(run(path, lambda t: nbt.logsumexp(t, axes=[1]), nbt.tensor(rows)), nbt.tensor(expected))


# describe "quantized types": Nx.s2(list) is nbt.tensor(list, type="s2")


@pytest.mark.parametrize(
    ("type_", "values", "bits", "more", "more_bytes"),
    [
        ("s2", [-2, -1, 1], 6, [-2, -1, 0, 1, 0, -1, -2], 1),
        ("s4", [-8, -1, 7], 12, [-8, -3, 0, 7, 0, -3, -8], 3),
        ("u2", [1, 2, 3], 6, [0, 1, 2, 3, 2, 1, 0], 1),
        ("u4", [0, 7, 15], 12, [0, 1, 2, 3, 13, 14, 15], 3),
    ],
)
def test_quantized_types(type_, values, bits, more, more_bytes):
    tensor = nbt.tensor(values, type=type_)
    assert str(tensor.type) == type_
    assert nbt.from_binary(nbt.to_binary(tensor), type_)[: len(values)].to_numpy().tolist() == values
    assert nbt.to_flat_list(tensor) == values
    assert nbt.byte_size(tensor) == bits // 8 and nbt.bit_size(tensor) == bits
    tensor = nbt.tensor(more, type=type_)
    bits = len(more) * int(type_[1])
    assert nbt.byte_size(tensor) == more_bytes and nbt.bit_size(tensor) == bits


# describe "slice of scalar tensor"


def test_slice_of_scalar_returns_scalar(path):
    assert nbt.to_number(run(path, lambda t: nbt.slice(t, [], []), nbt.tensor(42))) == 42
    result = run(path, lambda t: nbt.slice(t, [], []), nbt.tensor(3.14, type="f64"))
    assert abs(nbt.to_number(result) - 3.14) <= 1.0e-10
