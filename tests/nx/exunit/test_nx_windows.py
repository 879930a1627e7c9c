"""Nx 0.13.1 nx/test/nx_test.exs (NxTest), the window and convolution describes:
"window aggregates", "aggregate_window_op", "window_reduce/5", "convolution", "conv/3"."""

import pytest

import numbat as nbt

from ._support import assert_raises, assert_same, run


def iota(shape, type="s32"):
    return nbt.iota(shape, type=type)


# describe "window aggregates"


def test_computes_a_window_sum(path):
    t = nbt.tensor([[[4, 2, 1, 3], [4, 2, 1, 7]], [[1, 2, 5, 7], [1, 8, 9, 2]]])
    out = run(
        path,
        lambda t: nbt.window_sum(
            t, (2, 1, 2), strides=[2, 1, 1], padding=[(2, 1), (3, 1), (1, 0)], window_dilations=[1, 2, 2]
        ),
        t,
    )
    zeros = [[0, 0, 0]] * 6
    assert_same(out, nbt.tensor([zeros, [[0, 0, 0]] * 3 + [[4, 11, 14], [10, 15, 19], [0, 0, 0]]]))


F64_SAME = [  # (op, expected) for iota({3, 3}, f64) with window {2, 1}, padding: :same
    ("window_sum", [[3.0, 5.0, 7.0], [9.0, 11.0, 13.0], [6.0, 7.0, 8.0]]),
    ("window_product", [[0.0, 4.0, 10.0], [18.0, 28.0, 40.0], [6.0, 7.0, 8.0]]),
    ("window_max", [[3, 4, 5], [6, 7, 8], [6, 7, 8]]),
    ("window_min", [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]),
]


@pytest.mark.parametrize(("op", "expected"), F64_SAME, ids=[op for op, _ in F64_SAME])
def test_computes_a_same_padding_window_op_f64(path, op, expected):
    out = run(path, lambda t: getattr(nbt, op)(t, (2, 1), padding="same"), iota((3, 3), "f64"))
    assert_same(out, nbt.tensor(expected, type="f64"))


SAME_CASES = [
    # (Nx test name, op, iota shape, add 1, window, options, expected f32)
    ("window max with large kernel and strides", "window_max", (1, 4, 4, 1), False, (1, 3, 3, 1),
     {"strides": [1, 2, 2, 1]}, [[[[5.0], [7.0]], [[13.0], [15.0]]]]),
    ("window max with asymmetric kernel", "window_max", (1, 4, 6, 1), False, (1, 2, 3, 1),
     {"strides": [1, 2, 2, 1]}, [[[[7.0], [9.0], [11.0]], [[19.0], [21.0], [23.0]]]]),
    ("window max with kernel larger than input", "window_max", (1, 2, 2, 1), False, (1, 3, 3, 1),
     {"strides": [1, 1, 1, 1]}, [[[[3.0], [3.0]], [[3.0], [3.0]]]]),
    ("window max with kernel equal to input", "window_max", (4, 4), False, (4, 4),
     {"strides": [2, 2]}, [[10.0, 11.0], [14.0, 15.0]]),
    ("window max 1D", "window_max", (8,), False, (3,), {"strides": [2]}, [1.0, 3.0, 5.0, 7.0]),
    ("window max 2D", "window_max", (4, 4), False, (3, 3), {"strides": [2, 2]}, [[5.0, 7.0], [13.0, 15.0]]),
    ("window max with stride larger than kernel", "window_max", (1, 6, 6, 1), False, (1, 2, 2, 1),
     {"strides": [1, 3, 3, 1]}, [[[[7.0], [10.0]], [[25.0], [28.0]]]]),
    ("window min with same padding and large kernel", "window_min", (1, 4, 4, 1), False, (1, 3, 3, 1),
     {"strides": [1, 2, 2, 1]}, [[[[0.0], [1.0]], [[4.0], [5.0]]]]),
    ("window max with dilations + strides + same padding", "window_max", (1, 4, 4, 1), False, (1, 2, 2, 1),
     {"strides": [1, 2, 2, 1], "window_dilations": [1, 2, 2, 1]}, [[[[5.0], [7.0]], [[13.0], [15.0]]]]),
    ("window min with dilations + strides + same padding", "window_min", (1, 4, 4, 1), False, (1, 2, 2, 1),
     {"strides": [1, 2, 2, 1], "window_dilations": [1, 2, 2, 1]}, [[[[5.0], [5.0]], [[5.0], [5.0]]]]),
    ("window sum with dilations + strides + same padding", "window_sum", (1, 4, 4, 1), False, (1, 2, 2, 1),
     {"strides": [1, 2, 2, 1], "window_dilations": [1, 2, 2, 1]}, [[[[5.0], [12.0]], [[18.0], [40.0]]]]),
    ("window product with same padding and large kernel", "window_product", (1, 4, 4, 1), True, (1, 3, 3, 1),
     {"strides": [1, 2, 2, 1]}, [[[[60.0], [8064.0]], [[4.914e5], [1.4902272e9]]]]),
    ("window product 2D with same padding", "window_product", (4, 4), True, (3, 3),
     {"strides": [2, 2]}, [[60.0, 8064.0], [4.914e5, 1.4902272e9]]),
    ("window product 1D with same padding", "window_product", (8,), True, (3,),
     {"strides": [2]}, [2.0, 24.0, 120.0, 336.0]),
    ("1D window max with dilations", "window_max", (8,), False, (3,),
     {"window_dilations": [2]}, [2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 6.0, 7.0]),
    ("1D window sum with dilations", "window_sum", (8,), False, (3,),
     {"window_dilations": [2]}, [2.0, 4.0, 6.0, 9.0, 12.0, 15.0, 10.0, 12.0]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "op", "shape", "plus_one", "window", "options", "expected"), SAME_CASES, ids=[c[0] for c in SAME_CASES]
)
def test_computes_same_padding_windows(path, name, op, shape, plus_one, window, options, expected):
    t = nbt.add(iota(shape, "f32"), 1) if plus_one else iota(shape, "f32")
    out = run(path, lambda t: getattr(nbt, op)(t, window, padding="same", **options), t)
    assert_same(out, nbt.tensor(expected))


def test_computes_window_max_with_dilations_and_explicit_asymmetric_padding(path):
    out = run(
        path,
        lambda t: nbt.window_max(
            t,
            (1, 2, 2, 1),
            padding=[(0, 0), (1, 0), (0, 1), (0, 0)],
            strides=[1, 2, 2, 1],
            window_dilations=[1, 2, 2, 1],
        ),
        iota((1, 4, 4, 1), "f32"),
    )
    assert_same(out, nbt.tensor([[[[6.0], [6.0]], [[14.0], [14.0]]]]))


SCATTER_T = [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15]]


def test_computes_window_scatter_max_with_same_padding(path):
    out = run(
        path,
        lambda t, s: nbt.window_scatter_max(t, s, 0, (2, 3), padding="same", strides=[2, 3]),
        nbt.tensor(SCATTER_T),
        nbt.tensor([[1, 2], [3, 4]]),
    )
    assert_same(out, nbt.tensor([[0, 0, 0, 0, 0], [0, 1, 0, 0, 2], [0, 3, 0, 0, 4]]))


def test_computes_window_scatter_min_with_same_padding(path):
    out = run(
        path,
        lambda t, s: nbt.window_scatter_min(t, s, 0, (2, 3), padding="same", strides=[2, 3]),
        nbt.tensor(SCATTER_T),
        nbt.tensor([[1, 2], [3, 4]]),
    )
    # Nx: [[0, 0, 2, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]] from Nx.BinaryBackend, which pads with the
    # init value 0 and lets it win; DELIBERATE: XLA's select_and_scatter (EXLA) never selects padding
    assert_same(out, nbt.tensor([[1, 0, 2, 0, 0], [0, 0, 0, 0, 0], [3, 0, 4, 0, 0]]))


def test_computes_window_scatter_max_with_explicit_padding(path):
    out = run(
        path,
        lambda t, s: nbt.window_scatter_max(t, s, 0, (2, 3), padding=[(1, 1), (1, 1)], strides=[2, 2]),
        nbt.tensor(SCATTER_T),
        nbt.tensor([[1, 2, 3], [4, 5, 6]]),
    )
    assert_same(out, nbt.tensor([[0, 1, 0, 2, 3], [0, 0, 0, 0, 0], [0, 4, 0, 5, 6]]))


@pytest.mark.parametrize("op", ["window_scatter_max", "window_scatter_min"])
def test_computes_window_scatter_with_f64(path, op):
    init = nbt.tensor(0.0, type="f64")
    out = run(
        path,
        lambda t, s, i: getattr(nbt, op)(t, s, i, (2,), strides=[2], padding="valid"),
        iota((6,), "f64"),
        iota((3,), "f64"),
        init,
    )
    assert str(nbt.type(out)) == "f64" and nbt.shape(out) == (6,)


def test_computes_window_reduce_sum_of_squares_with_same_padding(path):
    out = run(
        path,
        lambda t: nbt.window_reduce(
            t, 0.0, (3, 3), lambda elem, acc: nbt.add(acc, nbt.multiply(elem, elem)), padding="same", strides=[2, 2]
        ),
        iota((4, 4), "f32"),
    )
    assert_same(out, nbt.tensor([[42.0, 124.0], [499.0, 1002.0]]))


def test_computes_window_reduce_custom_sum_matches_window_sum_with_same_padding(path):
    t = iota((4, 4), "f32")
    reduce_sum = run(path, lambda t: nbt.window_reduce(t, 0.0, (3, 3), nbt.add, padding="same", strides=[2, 2]), t)
    window_sum = run(path, lambda t: nbt.window_sum(t, (3, 3), padding="same", strides=[2, 2]), t)
    assert_same(reduce_sum, window_sum)


@pytest.mark.parametrize(
    ("shape", "window", "options", "expected"),
    [
        ((2, 2), (3, 3), {}, (2, 2)),  # kernel larger than input
        ((1, 1), (5, 5), {}, (1, 1)),  # kernel much larger than input
        ((4, 4), (2, 2), {"strides": [2, 2]}, (2, 2)),  # stride > kernel, evenly divisible
        ((5, 5), (3, 3), {"strides": [2, 2]}, (3, 3)),  # non-divisible dimensions
        ((4, 4), (2, 2), {"window_dilations": [2, 2]}, (4, 4)),  # dilated kernel
        ((2, 2), (2, 2), {"window_dilations": [2, 2]}, (2, 2)),  # dilated kernel larger than input
    ],
)
def test_same_padding_produces_correct_output_shapes_for_edge_cases(path, shape, window, options, expected):
    out = run(path, lambda t: nbt.window_max(t, window, padding="same", **options), iota(shape, "f32"))
    assert nbt.shape(out) == expected


# describe "aggregate_window_op"


def test_option_window_dilations_can_be_an_integer(path):
    out = run(path, lambda t: nbt.window_max(t, (2,), window_dilations=4), nbt.tensor([1, 2, 3, 4, 5, 6, 7]))
    assert_same(out, nbt.tensor([5, 6, 7]))


def test_option_padding_can_be_same(path):
    assert_same(
        run(path, lambda t: nbt.window_max(t, (2,), padding="same"), nbt.tensor([1, 2, 3])), nbt.tensor([2, 3, 3])
    )


def test_aggregate_window_op_raises_for_invalid_padding_option(path):
    assert_raises(path, lambda t: nbt.window_max(t, (2,), padding="whatever"), nbt.tensor([1, 2, 3]), match="padding")


# describe "reduce/4"


def test_reduce_keeps_the_reduced_dimension_with_keep_axes(path):
    out = run(path, lambda t: nbt.reduce(t, 0, nbt.add, keep_axes=True), nbt.tensor([1, 2, 3]))
    assert nbt.shape(out) == (1,)
    assert_same(out, nbt.tensor([6]))


# describe "window_reduce/5"

SQUARE = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]


def test_window_reduce_works_with_window_dilations_as_an_integer(path):
    out = run(path, lambda t: nbt.window_reduce(t, 0, (2, 2), nbt.max, window_dilations=2), nbt.tensor(SQUARE))
    assert_same(out, nbt.tensor([[9]]))


def test_window_reduce_works_with_strides_as_an_integer(path):
    out = run(path, lambda t: nbt.window_reduce(t, 0, (2, 2), nbt.max, strides=1), nbt.tensor(SQUARE))
    assert_same(out, nbt.tensor([[5, 6], [8, 9]]))


def test_window_reduce_works_with_padding_as_a_list_of_pairs(path):
    out = run(path, lambda t: nbt.window_reduce(t, 0, (2, 2), nbt.max, padding=[(0, 0), (0, 1)]), nbt.tensor(SQUARE))
    assert nbt.shape(out) == (2, 3)
    assert_same(out, nbt.tensor([[5, 6, 6], [8, 9, 9]]))


def test_window_reduce_raises_for_invalid_padding_option(path):
    assert_raises(
        path,
        lambda t: nbt.window_reduce(t, 0, (2, 2), nbt.max, padding="whatever"),
        nbt.tensor(SQUARE),
        match="padding",
    )
