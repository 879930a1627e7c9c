"""Nx 0.13.1 nx/test/nx_test.exs (NxTest), describes "convolution" and "conv/3"."""

import pytest

import numbat as nbt

from ._support import assert_all_close, assert_raises, assert_same, run


def iota(shape, type="f32"):
    return nbt.iota(shape, type=type)


# describe "convolution"


def test_valid_padding_no_stride(path):
    t1 = iota((2, 2, 4, 4))
    conv = lambda t, k: nbt.conv(t, k, strides=[1, 1], padding="valid")
    assert_same(
        run(path, conv, t1, iota((1, 2, 2, 2))),
        nbt.tensor(
            [
                [[[440.0, 468.0, 496.0], [552.0, 580.0, 608.0], [664.0, 692.0, 720.0]]],
                [[[1336.0, 1364.0, 1392.0], [1448.0, 1476.0, 1504.0], [1560.0, 1588.0, 1616.0]]],
            ]
        ),
    )
    first = [10416.0, 26288.0, 42160.0, 58032.0, 73904.0, 89776.0, 105_648.0, 121_520.0]
    second = [26288.0, 74928.0, 123_568.0, 172_208.0, 220_848.0, 269_488.0, 318_128.0, 366_768.0]
    assert_same(run(path, conv, t1, iota((8, 2, 4, 4))), nbt.tensor([[[[v]] for v in first], [[[v]] for v in second]]))
    assert_same(
        run(path, conv, t1, iota((2, 2, 3, 3))),
        nbt.tensor(
            [
                [[[2793.0, 2946.0], [3405.0, 3558.0]], [[7005.0, 7482.0], [8913.0, 9390.0]]],
                [[[7689.0, 7842.0], [8301.0, 8454.0]], [[22269.0, 22746.0], [24177.0, 24654.0]]],
            ]
        ),
    )


def test_valid_padding_stride(path):
    out = run(
        path, lambda t, k: nbt.conv(t, k, strides=[2, 1], padding="valid"), iota((2, 2, 4, 4)), iota((1, 2, 2, 2))
    )
    expected = [
        [[[440.0, 468.0, 496.0], [664.0, 692.0, 720.0]]],
        [[[1336.0, 1364.0, 1392.0], [1560.0, 1588.0, 1616.0]]],
    ]
    assert_same(out, nbt.tensor(expected))


def test_same_padding_no_stride(path):
    out = run(path, lambda t, k: nbt.conv(t, k, strides=[1, 1], padding="same"), iota((2, 2, 4, 4)), iota((1, 2, 3, 3)))
    expected = [
        [
            [
                [1196.0, 1796.0, 1916.0, 1264.0],
                [1881.0, 2793.0, 2946.0, 1923.0],
                [2313.0, 3405.0, 3558.0, 2307.0],
                [1424.0, 2072.0, 2156.0, 1380.0],
            ]
        ],
        [
            [
                [3884.0, 5636.0, 5756.0, 3696.0],
                [5337.0, 7689.0, 7842.0, 4995.0],
                [5769.0, 8301.0, 8454.0, 5379.0],
                [3344.0, 4760.0, 4844.0, 3044.0],
            ]
        ],
    ]
    assert_same(out, nbt.tensor(expected))


def test_3d_conv(path):
    out = run(
        path,
        lambda t, k: nbt.conv(t, k, strides=[1, 1, 1], padding="same"),
        iota((1, 3, 2, 2, 2)),
        iota((3, 3, 2, 2, 2)),
    )
    expected = [
        [
            [[[4324.0, 2156.0], [2138.0, 1060.0]], [[2066.0, 1018.0], [997.0, 488.0]]],
            [[[10948.0, 5612.0], [5738.0, 2932.0]], [[5954.0, 3034.0], [3085.0, 1568.0]]],
            [[[17572.0, 9068.0], [9338.0, 4804.0]], [[9842.0, 5050.0], [5173.0, 2648.0]]],
        ]
    ]
    assert_same(out, nbt.tensor(expected))


def test_grouped_convolutions(path):
    out = run(
        path,
        lambda t, k: nbt.conv(t, k, strides=1, padding="valid", feature_group_size=2),
        iota((2, 4, 2, 2)),
        iota((6, 2, 2, 2)),
    )
    expected = [
        [[[140.0]], [[364.0]], [[588.0]], [[2572.0]], [[3308.0]], [[4044.0]]],
        [[[588.0]], [[1836.0]], [[3084.0]], [[6092.0]], [[7852.0]], [[9612.0]]],
    ]
    assert_same(out, nbt.tensor(expected))


def test_vectorization(path):
    t = nbt.vectorize(nbt.tensor([[[[0, 1, 2]]], [[[3, 4, 5]]]]), [("x", 2)])
    k = nbt.tensor([[[[2]]], [[[10]]]])
    # same vectorized axis case
    assert_same(
        run(path, lambda t, k: nbt.conv(t, nbt.vectorize(k, [("x", 2)])), t, k),
        nbt.vectorize(nbt.tensor([[[[0.0, 2.0, 4.0]]], [[[30.0, 40.0, 50.0]]]]), [("x", 2)]),
    )
    # cross-product case
    cross = run(
        path, lambda t, k: nbt.conv(t, nbt.vectorize(nbt.reshape(k, (1, 2, 1, 1, 1)), [("z", 1), ("y", 2)])), t, k
    )
    expected = [[[[[[0.0, 2.0, 4.0]]], [[[0.0, 10.0, 20.0]]]]], [[[[[6.0, 8.0, 10.0]]], [[[30.0, 40.0, 50.0]]]]]]
    assert_same(cross, nbt.vectorize(nbt.tensor(expected), [("x", 2), ("z", 1), ("y", 2)]))
    # vectorized tensor and devec kernel
    assert_same(
        run(path, lambda t, k: nbt.conv(t, k[0]), t, k),
        nbt.vectorize(nbt.tensor([[[[0.0, 2.0, 4.0]]], [[[6.0, 8.0, 10.0]]]]), [("x", 2)]),
    )
    # devec tensor and vectorized kernel
    assert_same(
        run(path, lambda t, k: nbt.conv(nbt.devectorize(t)[0], nbt.vectorize(k, [("x", 2)])), t, k),
        nbt.vectorize(nbt.tensor([[[[0.0, 2.0, 4.0]]], [[[0.0, 10.0, 20.0]]]]), [("x", 2)]),
    )


def test_vectorization_batch_group_size(path):
    base = run(path, lambda t, k: nbt.conv(t, k, batch_group_size=3), nbt.iota((3, 10, 1, 1)), nbt.iota((3, 10, 1, 1)))
    assert nbt.shape(base) == (1, 3, 1, 1)
    t = nbt.iota((3, 10, 1, 1), vectorized_axes=[("x", 2), ("y", 1), ("z", 7)])
    k = nbt.iota((3, 10, 1, 1), vectorized_axes=[("x", 1), ("y", 5), ("z", 7)])
    out = run(path, lambda t, k: nbt.conv(t, k, batch_group_size=3), t, k)
    assert tuple(out.vectorized_axes) == (("x", 2), ("y", 5), ("z", 7)) and nbt.shape(out) == (1, 3, 1, 1)


# describe "conv/3"


def test_raises_when_input_rank_is_below_3(path):
    assert_raises(path, nbt.conv, nbt.tensor([[1, 2]]), nbt.broadcast(nbt.tensor(0), (2, 2, 2)), match="rank")


def test_raises_when_kernel_rank_is_below_3(path):
    assert_raises(path, nbt.conv, nbt.iota((4, 4, 4)), nbt.broadcast(nbt.tensor(0), (2, 2)), match="rank")


def test_raises_when_input_channels_are_mismatched(path):
    assert_raises(path, nbt.conv, nbt.iota((4, 4, 4)), nbt.broadcast(nbt.tensor(0), (2, 2, 2)), match="channels")


CONV_OPTION_ERRORS = [
    # (Nx test name, input shape, kernel shape, options)
    ("feature_group_size cannot divide evenly", (3, 2, 2), (3, 1, 1), {"feature_group_size": 2}),
    ("both feature_group_size and batch_group_size > 1", (3, 2, 2), (1, 1, 1),
     {"feature_group_size": 2, "batch_group_size": 2}),
    ("batch_group_size does not evenly divide batch size", (3, 2, 2), (1, 1, 1), {"batch_group_size": 2}),
    ("batch_group_size is not a multiple of output feature channels", (3, 2, 3, 3), (8, 2, 2, 2),
     {"batch_group_size": 3}),
    ("strides length does not match spatial dims", (4, 2, 4), (2, 2, 2), {"strides": [1, 1, 1, 1]}),
    ("input_dilation is not positive", (4, 2, 4), (2, 2, 2), {"input_dilation": 0}),
    ("input_dilation list is not the same length as spatial dims", (4, 2, 4), (2, 2, 2), {"input_dilation": [1, 1, 1]}),
    ("input_dilation list has a non-positive int", (4, 2, 4), (2, 2, 2), {"input_dilation": [-1]}),
    ("input_dilation list has a non-int", (4, 2, 4), (2, 2, 2), {"input_dilation": [1.0]}),
    ("input_dilation is invalid type", (4, 2, 4), (2, 2, 2), {"input_dilation": 1.0}),
    ("kernel_dilation is not positive", (4, 2, 4), (2, 2, 2), {"kernel_dilation": 0}),
    ("kernel_dilation list is not the same length as spatial dims", (4, 2, 4), (2, 2, 2),
     {"kernel_dilation": [1, 1, 1]}),
    ("kernel_dilation list has a non-positive int", (4, 2, 4), (2, 2, 2), {"kernel_dilation": [-1]}),
    ("kernel_dilation list has a non-int", (4, 2, 4), (2, 2, 2), {"kernel_dilation": [1.0]}),
    ("kernel_dilation is invalid type", (4, 2, 4), (2, 2, 2), {"kernel_dilation": 1.0}),
    ("padding is an invalid type", (4, 2, 4), (2, 2, 2), {"padding": "bad_value"}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "shape", "kernel_shape", "options"), CONV_OPTION_ERRORS, ids=[c[0] for c in CONV_OPTION_ERRORS]
)
def test_conv_raises_for_options(path, name, shape, kernel_shape, options):
    assert_raises(
        path, lambda t, k: nbt.conv(t, k, **options), nbt.iota(shape), nbt.broadcast(nbt.tensor(1.0), kernel_shape)
    )


@pytest.mark.parametrize("options", [{"input_dilation": [1]}, {"padding": [(0, 0)]}], ids=["input_dilation", "padding"])
def test_works_with_valid_input_dilation_and_padding_lists(path, options):
    out = run(
        path, lambda t, k: nbt.conv(t, k, **options), nbt.iota((2, 2, 2)), nbt.broadcast(nbt.tensor(1.0), (1, 2, 1))
    )
    assert nbt.shape(out) == (2, 1, 2)
    assert_same(out, nbt.tensor([[[2.0, 4.0]], [[10.0, 12.0]]]))


@pytest.mark.parametrize(("tensor_type", "kernel_type"), [("f32", "c64"), ("c64", "f32"), ("c64", "c64")])
def test_supports_complex_values(path, tensor_type, kernel_type):
    first = [[[[0.0] * 3] * 3, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]]]
    first[0].append([[0.0, 2.0, 4.0], [6.0, 8.0, 10.0], [12.0, 14.0, 16.0]])
    first[0].append([[0.0, 3.0, 6.0], [9.0, 12.0, 15.0], [18.0, 21.0, 24.0]])
    out = run(
        path,
        lambda t, k: nbt.conv(t, k, strides=[1, 1]),
        iota((1, 1, 3, 3), tensor_type),
        iota((4, 1, 1, 1), kernel_type),
    )
    assert str(out.type) == "c64"
    assert_all_close(nbt.tensor(first, type="c64"), out)
    second = [[[[3.0, 5.0], [0.0, 0.0]], [[9.0, 15.0], [6.0, 10.0]], [[15.0, 25.0], [12.0, 20.0]]]]
    second[0].append([[21.0, 35.0], [18.0, 30.0]])
    out = run(
        path,
        lambda t, k: nbt.conv(t, k, strides=2, padding="same", kernel_dilation=[2, 1]),
        iota((1, 1, 3, 3), tensor_type),
        iota((4, 1, 2, 1), kernel_type),
    )
    assert_all_close(nbt.tensor(second, type="c64"), out)
