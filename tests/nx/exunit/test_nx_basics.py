"""Nx 0.13.1 nx/test/nx_test.exs (NxTest), describes "binary broadcast", "pad", "bitshift",
"all_close/3", "reverse", "inspect", "put_slice", "access", "indexed_add", "indexed_put",
"quotient/2", "reshape", "flatten", "broadcast", "tensor/2", "from_binary/3", "to_batched/3",
"compatible?/2", "reshape/3", "new_axis/3", "pad/3", "shape/1", "abs/1", "reduce_min/2",
"reduce_max/2", "argmin/2", "argmax"."""

import math

import numpy as np
import pytest

import numbat as nbt

from ._support import assert_raises, assert_same, nx_inspect, run

INF, NAN = math.inf, math.nan

# describe "binary broadcast": Nx.add(a, b) and Nx.add(b, a) (commute), the binary and the shape

BROADCASTS = [
    ([[1], [2]], [[10, 20]], (2, 2), [11, 21, 12, 22]),
    ([1, 2], [[1, 2], [3, 4]], (2, 2), [2, 4, 4, 6]),
    ([[[10], [20]]], [[[1, 2]], [[3, 4]]], (2, 2, 2), [11, 12, 21, 22, 13, 14, 23, 24]),
    (
        [[[100], [200], [300]]],
        [[[1, 2, 3]], [[4, 5, 6]], [[7, 8, 9]], [[10, 11, 12]]],
        (4, 3, 3),
        [100 * r + c for b in range(4) for r in (1, 2, 3) for c in (3 * b + 1, 3 * b + 2, 3 * b + 3)],
    ),
    ([[[[10], [20]], [[30], [40]]]], [[[1, 2]], [[3, 4]]], (1, 2, 2, 2), [11, 12, 21, 22, 33, 34, 43, 44]),
    (
        [[[[10], [20]], [[30], [40]]]],
        [[[[1, 2]]], [[[3, 4]]]],
        (2, 2, 2, 2),
        [11, 12, 21, 22, 31, 32, 41, 42, 13, 14, 23, 24, 33, 34, 43, 44],
    ),
    ([[[10], [20]], [[30], [40]]], [[[1, 2]], [[3, 4]]], (2, 2, 2), [11, 12, 21, 22, 33, 34, 43, 44]),
]


@pytest.mark.parametrize(("a", "b", "shape", "flat"), BROADCASTS)
def test_binary_broadcast(path, a, b, shape, flat):
    for left, right in ((a, b), (b, a)):
        t = run(path, nbt.add, nbt.tensor(left), nbt.tensor(right))
        assert nbt.to_binary(t) == np.asarray(flat, np.int32).tobytes()
        assert nbt.shape(t) == shape


def test_binary_broadcast_raises_when_it_cannot_broadcast(path):
    assert_raises(path, nbt.add, nbt.tensor([[1, 2], [3, 4]]), nbt.tensor([[1, 2, 3], [4, 5, 6]]), match="broadcast")


# describe "pad"


def test_pad_with_interior_padding(path):
    out = run(path, lambda t: nbt.pad(t, 0, [(0, 0, 1), (0, 0, 1)]), nbt.tensor([[1, 2, 3], [4, 5, 6]]))
    assert_same(out, nbt.tensor([[1, 0, 2, 0, 3], [0, 0, 0, 0, 0], [4, 0, 5, 0, 6]]))
    out = run(path, lambda t: nbt.pad(t, 2.0, [(-2, 1, 4), (1, 3, 2)]), nbt.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
    twos = [2.0] * 11
    assert_same(out, nbt.tensor([twos, twos, twos, [2.0, 4.0, 2.0, 2.0, 5.0, 2.0, 2.0, 6.0, 2.0, 2.0, 2.0], twos]))


# describe "bitshift"


def test_raises_for_negative_numbers_on_the_right(path):
    assert_raises(path, lambda t: nbt.right_shift(t, -1), nbt.tensor(1), match="cannot right shift by -1")


def test_raises_for_negative_numbers_on_the_left(path):
    assert_raises(path, lambda t: nbt.left_shift(t, -1), nbt.tensor(1), match="cannot left shift by -1")


# describe "all_close/3"


def test_all_close_integer_tensors_with_minimum_signed_value_s8(path):
    a, b = nbt.tensor([[5, 6], [7, 8]], type="s8"), nbt.tensor([[1, 2], [3, 4]], type="s8")
    x = run(path, nbt.left_shift, a, b)
    assert nbt.to_number(run(path, nbt.all_close, x, x)) == 1


# describe "reverse"

REVERSES = [
    ((10,), None, list(range(9, -1, -1))),
    ((2, 4), None, [[7, 6, 5, 4], [3, 2, 1, 0]]),
    ((3, 3, 3), None, [[[26 - 9 * b - 3 * r - c for c in range(3)] for r in range(3)] for b in range(3)]),
    ((2, 1, 4, 2), None, [[[[15, 14], [13, 12], [11, 10], [9, 8]]], [[[7, 6], [5, 4], [3, 2], [1, 0]]]]),
    ((2, 3), [1], [[2, 1, 0], [5, 4, 3]]),
    (
        (2, 3, 4),
        [0, 2],
        [[[15, 14, 13, 12], [19, 18, 17, 16], [23, 22, 21, 20]], [[3, 2, 1, 0], [7, 6, 5, 4], [11, 10, 9, 8]]],
    ),
    (
        (2, 2, 1, 3, 4),
        [1, 2, 4],
        [
            [
                [[[15, 14, 13, 12], [19, 18, 17, 16], [23, 22, 21, 20]]],
                [[[3, 2, 1, 0], [7, 6, 5, 4], [11, 10, 9, 8]]],
            ],
            [
                [[[39, 38, 37, 36], [43, 42, 41, 40], [47, 46, 45, 44]]],
                [[[27, 26, 25, 24], [31, 30, 29, 28], [35, 34, 33, 32]]],
            ],
        ],
    ),
]


@pytest.mark.parametrize(("shape", "axes", "expected"), REVERSES)
def test_reverse(path, shape, axes, expected):
    assert_same(run(path, lambda t: nbt.reverse(t, axes=axes), nbt.iota(shape)), nbt.tensor(expected))


def test_reverse_works_across_types(path):
    out = run(path, lambda t: nbt.reverse(t, axes=[1, 2, 4]), nbt.iota((2, 2, 3, 1, 2), type="f32"))
    expected = [
        [[[[11.0, 10.0]], [[9.0, 8.0]], [[7.0, 6.0]]], [[[5.0, 4.0]], [[3.0, 2.0]], [[1.0, 0.0]]]],
        [[[[23.0, 22.0]], [[21.0, 20.0]], [[19.0, 18.0]]], [[[17.0, 16.0]], [[15.0, 14.0]], [[13.0, 12.0]]]],
    ]
    assert_same(out, nbt.tensor(expected))


# describe "reverse/2"


def test_reverse_does_nothing_when_tensor_is_scalar(path):
    t = nbt.tensor(1)
    assert_same(run(path, nbt.reverse, t), t)


# describe "inspect": Nx's #Nx.Tensor<...> is numbat's repr, numbat.Tensor<...>


def test_inspect_scalar():
    assert repr(nbt.tensor(123)) == nx_inspect("#Nx.Tensor<\n  s32\n  123\n>")


def test_inspect_n_dimensional():
    expected = "#Nx.Tensor<\n  s32[2][3]\n  [\n    [1, 2, 3],\n    [4, 5, 6]\n  ]\n>"
    assert repr(nbt.tensor([[1, 2, 3], [4, 5, 6]])) == nx_inspect(expected)
    expected = "#Nx.Tensor<\n  f32[2][3]\n  [\n    [1.0, 2.0, 3.0],\n    [4.0, 5.0, 6.0]\n  ]\n>"
    assert repr(nbt.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])) == nx_inspect(expected)


@pytest.mark.parametrize(
    ("type_", "words", "fmt", "expected"),
    [
        ("bf16", [0xFF80, 0x7F80, 0xFFC1, 0xFF81], "<u2", "[-Inf, Inf, NaN, NaN]"),
        ("f16", [0xFC00, 0x7C00, 0xFC01, 0xFC0F], "<u2", "[-Inf, Inf, NaN, NaN]"),
        ("f32", [0xFF800000, 0x7F800000, 0xFF800001, 0xFFC00001], "<u4", "[-Inf, Inf, NaN, NaN]"),
        ("f32", [0x7F800001, 0xFF800002, 0x7FC00000, 0xFFC00000], "<u4", "[NaN, NaN, NaN, NaN]"),
        ("f64", [0xFFF0000000000000, 0x7FF0000000000000, 0x7FF0000000000001, 0x7FF8000000000001], "<u8",
         "[-Inf, Inf, NaN, NaN]"),
        ("f64", [0xFFF0000000000001, 0x7FF0000000000002, 0xFFF8000000000000, 0x7FF8000000000000], "<u8",
         "[NaN, NaN, NaN, NaN]"),
    ],
)  # fmt: skip
def test_inspect_infinity_and_nan(type_, words, fmt, expected):
    t = nbt.from_binary(np.asarray(words, dtype=fmt).tobytes(), type_)
    assert repr(t) == nx_inspect(f"#Nx.Tensor<\n  {type_}[4]\n  {expected}\n>")


def test_inspect_cannot_build_an_empty_tensor():
    with pytest.raises(nbt.ArgumentError, match="cannot build an empty tensor"):
        nbt.from_binary(b"", "f64")


def test_inspect_all_and_some_dimensions_named():
    data = [[[1, 2, 3], [4, 5, 6], [7, 8, 9]]]
    body = "\n  [\n    [\n      [1, 2, 3],\n      [4, 5, 6],\n      [7, 8, 9]\n    ]\n  ]\n>"
    assert repr(nbt.tensor(data, names=["batch", "x", "y"])) == nx_inspect(
        "#Nx.Tensor<\n  s32[batch: 1][x: 3][y: 3]" + body
    )
    assert repr(nbt.tensor(data, names=["batch", None, None])) == nx_inspect(
        "#Nx.Tensor<\n  s32[batch: 1][3][3]" + body
    )


# describe "put_slice"


def test_put_slice_with_mixed_types_and_sizes(path):
    out = run(path, lambda t, u: nbt.put_slice(t, [0], u), nbt.tensor([0.0, 0.0]), nbt.tensor([1]))
    assert_same(out, nbt.tensor([1.0, 0.0]))


# describe "access"


def test_access_supports_an_empty_list(path):
    t = nbt.tensor([1, 2, 3])
    assert_same(run(path, lambda t: t[()], t), t)  # Nx's tensor[[]]


def test_access_supports_a_dynamic_tensor(path):
    t = nbt.tensor([1, 2, 3], names=["row"])
    assert_same(run(path, lambda t, i: t[i], t, nbt.tensor(1)), nbt.tensor(2))
    assert_same(run(path, lambda t, i: t[(i,)], t, nbt.tensor(1)), nbt.tensor(2))
    assert_same(run(path, lambda t, i: t[{"row": i}], t, nbt.tensor(1)), nbt.tensor(2))
    assert_same(run(path, lambda t, i: t[i], t, nbt.tensor(-1)), nbt.tensor(1))  # clamped, as Nx


# describe "indexed_add" and "indexed_put"

GRID = [[row, col] for row in range(5) for col in range(5)]


@pytest.mark.parametrize("op", ["indexed_add", "indexed_put"])
def test_indexed_property(path, op):
    updates = nbt.tensor([1] * 25)
    out = run(path, lambda t, i, u: getattr(nbt, op)(t, i, u), nbt.broadcast(0, (5, 5)), nbt.tensor(GRID), updates)
    assert_same(out, nbt.broadcast(1, (5, 5)))
    indices = nbt.tensor([[0, *pair] for pair in GRID])
    out = run(path, lambda t, i, u: getattr(nbt, op)(t, i, u), nbt.broadcast(0, (1, 5, 5)), indices, updates)
    assert_same(out, nbt.broadcast(1, (1, 5, 5)))


@pytest.mark.parametrize("op", ["indexed_add", "indexed_put"])
def test_indexed_single_index_regression(path, op):
    fun = lambda t, i, u: getattr(nbt, op)(t, i, u)
    for i in range(5):
        expected = [0] * 5
        expected[i] = 1
        assert_same(run(path, fun, nbt.tensor([0] * 5), nbt.tensor([[i]]), nbt.tensor([1])), nbt.tensor(expected))
        grid = [[0] * 5 for _ in range(5)]
        zeros = nbt.tensor(grid)
        grid[i][i] = 1
        assert_same(run(path, fun, zeros, nbt.tensor([[i, i]]), nbt.tensor([1])), nbt.tensor(grid))


@pytest.mark.parametrize("op", ["indexed_add", "indexed_put"])
def test_indexed_complex_regression(path, op):
    out = run(path, lambda t, i, u: getattr(nbt, op)(t, i, u), nbt.broadcast(0, (2,)), nbt.tensor([[1], [0]]),
              nbt.tensor([2 + 0j, 1]))  # fmt: skip
    assert_same(out, nbt.tensor([1, 2], type="c64"))


def test_indexed_add_vectorized_target_and_non_vectorized_index(path):
    t = nbt.vectorize(nbt.tensor([[0, 1, 2], [3, 4, 5]]), [("x", 2)])
    out = run(path, nbt.indexed_add, t, nbt.tensor([[0], [1], [1], [0]]), nbt.tensor([1, 2, 3, 4]))
    assert_same(out, nbt.vectorize(nbt.tensor([[5, 6, 2], [8, 9, 5]]), [("x", 2)]))


def test_indexed_add_non_vectorized_target_and_vectorized_index_and_updates(path):
    index = nbt.vectorize(nbt.reshape(nbt.tensor([[0, 0], [0, 1], [1, 0], [1, 1]]), (2, 2, 2, 1)), [("x", 2), ("y", 2)])
    assert nbt.shape(index) == (2, 1)
    updates = nbt.vectorize(nbt.tensor([[1, 2], [3, 4]]), [("x", 2)])
    out = run(path, nbt.indexed_add, nbt.tensor([0, 1, 2]), index, updates)
    expected = [[[3, 1, 2], [1, 3, 2]], [[4, 4, 2], [0, 8, 2]]]
    assert_same(out, nbt.vectorize(nbt.tensor(expected), [("x", 2), ("y", 2)]))


# describe "quotient/2"


def test_quotient_raises_for_non_integer_values(path):
    assert_raises(path, nbt.quotient, nbt.tensor(10), nbt.tensor(1.0), match="integer")
    assert_raises(path, nbt.quotient, nbt.tensor(10.0), nbt.tensor(2), match="integer")


# describe "reshape", "broadcast"


def test_reshape_correctly_adds_names_with_same_shape(path):
    out = run(path, lambda t: nbt.reshape(t, (2, 2), names=["x", "y"]), nbt.tensor([[1, 2], [3, 4]]))
    assert_same(out, nbt.tensor([[1, 2], [3, 4]], names=["x", "y"]))


def test_broadcast_correctly_adds_names_with_same_shape(path):
    out = run(path, lambda t: nbt.broadcast(t, (2, 2), names=["x", "y"]), nbt.tensor([[1, 2], [3, 4]]))
    assert_same(out, nbt.tensor([[1, 2], [3, 4]], names=["x", "y"]))


# describe "flatten"


def test_flatten(path):
    t = nbt.iota((3, 3, 3))
    assert nbt.shape(run(path, nbt.flatten, t)) == (nbt.size(t),)
    assert_same(
        run(path, lambda t: nbt.flatten(t, axes=[2, 3, 4]), nbt.iota((1, 2, 3, 4, 5, 6))), nbt.iota((1, 2, 60, 6))
    )
    assert_same(run(path, nbt.flatten, nbt.iota((10,))), nbt.iota((10,)))


# describe "tensor/2"


def test_tensor_with_non_finite():
    assert_same(nbt.tensor(-INF), nbt.constants.neg_infinity())
    assert_same(nbt.tensor(INF), nbt.constants.infinity())
    assert_same(nbt.tensor(NAN), nbt.constants.nan())


@pytest.mark.parametrize(
    ("data", "match"),
    [([], "invalid value given to tensor, got: \\[\\]"), (["error"], "numbers"), ([[1, 2, 3], [1, 2]], "ragged")],
    ids=["empty list", "non-numeric list", "nested lists with different shapes"],
)
def test_tensor_raises(data, match):
    with pytest.raises(nbt.ArgumentError, match=match):
        nbt.tensor(data)


# describe "from_binary/3"


def test_from_binary_raises_for_empty_bitstring():
    with pytest.raises(nbt.ArgumentError, match="cannot build an empty tensor"):
        nbt.from_binary(b"", "u32")


# describe "to_batched/3"


def test_to_batched_works_for_all_batch_sizes():
    for rows in range(1, 11):
        for cols in range(1, 11):
            t = nbt.iota((rows, cols))
            for batch_size in range(1, rows + 1):
                batches = nbt.to_batched(t, batch_size, leftover="discard")
                assert not isinstance(batches, list) and len(list(batches)) == rows // batch_size
                batches = nbt.to_batched(t, batch_size, leftover="repeat")
                assert not isinstance(batches, list) and len(list(batches)) == -(-rows // batch_size)


def test_to_batched_raises_for_scalars():
    with pytest.raises(nbt.ArgumentError, match="scalar"):
        list(nbt.to_batched(nbt.tensor(1), 1))


# describe "compatible?/2"


def test_compatible_non_composite_types():
    assert not nbt.compatible(2j, 2)
    assert not nbt.compatible(2, 2j)
    assert not nbt.compatible(2j, nbt.tensor([2]))
    assert not nbt.compatible(nbt.tensor([2]), 2j)
    assert not nbt.compatible(2, nbt.tensor([2j]))
    assert not nbt.compatible(nbt.tensor([2j]), 2)
    assert not nbt.compatible(nbt.tensor([2]), nbt.tensor([2j]))
    assert nbt.compatible(complex(2), 2j)
    assert nbt.compatible(2, 0)


def test_compatible_containers():
    args = (1, complex(1), nbt.tensor(1))
    container = {"a": args, "b": args}
    assert nbt.compatible(container, container)


# describe "reshape/3", "new_axis/3", "pad/3", "shape/1"


def test_reshape_raises_when_shapes_are_not_compatible(path):
    assert_raises(path, lambda t: nbt.reshape(t, (7,)), nbt.tensor([3, 3, 3]))


def test_new_axis_raises_when_axis_is_out_of_range_of_the_rank(path):
    assert_raises(path, lambda t: nbt.new_axis(t, 3), nbt.tensor([1, 2, 3]))


def test_new_axis_can_shift_the_existing_axes_to_the_left(path):
    t = run(path, lambda t: nbt.new_axis(t, 0, "batch"), nbt.tensor([1, 2, 3], names=["x"]))
    assert t.shape == (1, 3) and t.names == ("batch", "x")


def test_pad_raises_for_non_scalar_pad_value(path):
    assert_raises(path, lambda t, v: nbt.pad(t, v, []), nbt.tensor(1), nbt.tensor([0]), match="scalar")


def test_shape_raises_for_invalid_values():
    with pytest.raises(nbt.ArgumentError):
        nbt.shape("something else")
    with pytest.raises(nbt.ArgumentError, match="shape"):
        nbt.shape((1, 2, "blep"))


# describe "abs/1"


@pytest.mark.parametrize("type_", ["u8", "u16", "u32", "u64"])
def test_abs_changes_nothing_for_unsigned_types(path, type_):
    t = nbt.tensor(10, type=type_)
    assert_same(run(path, nbt.abs, t), t)


# describe "reduce_min/2", "reduce_max/2", "argmin/2", "argmax"

NON_FINITES = [
    [-INF, INF, 1], [-INF, NAN, 1], [-INF, -INF, 1], [-INF, 0, 1],
    [INF, INF, 1], [INF, NAN, 1], [INF, -INF, 1], [INF, 0, 1],
    [NAN, INF, 1], [NAN, NAN, 1], [NAN, -INF, 1], [NAN, 0, 1],
]  # fmt: skip


def test_reduce_min_works_with_non_finites(path):
    out = run(path, lambda t: nbt.reduce_min(t, axes=[1]), nbt.tensor(NON_FINITES))
    assert_same(out, nbt.tensor([-INF, NAN, -INF, -INF, 1, NAN, -INF, 0, NAN, NAN, NAN, NAN]))


def test_reduce_max_works_with_non_finites(path):
    out = run(path, lambda t: nbt.reduce_max(t, axes=[1]), nbt.tensor(NON_FINITES))
    assert_same(out, nbt.tensor([INF, NAN, 1, 1, INF, NAN, INF, INF, NAN, NAN, NAN, NAN]))


def test_argmin_works_with_non_finites(path):
    out = run(path, lambda t: nbt.argmin(t, axis=1), nbt.tensor(NON_FINITES))
    # Nx: [0, 1, 0, 0, 2, 1, 1, 1, 0, 1, 0, 0]; DELIBERATE: of [NaN, NaN, 1] numbat picks the first NaN
    # (0) as EXLA's argmin does, Nx.BinaryBackend the second
    assert_same(out, nbt.tensor([0, 1, 0, 0, 2, 1, 1, 1, 0, 0, 0, 0]))


def test_argmin_raises_for_invalid_tie_break_option(path):
    assert_raises(path, lambda t: nbt.argmin(t, tie_break="blep"), nbt.tensor(1), match="tie_break")


def test_argmax_works_with_non_finites(path):
    out = run(path, lambda t: nbt.argmax(t, axis=1), nbt.tensor(NON_FINITES))
    # Nx: [1, 1, 2, 2, 0, 1, 0, 0, 0, 1, 0, 0]; DELIBERATE as argmin: the first of two NaNs, as EXLA
    assert_same(out, nbt.tensor([1, 1, 2, 2, 0, 1, 0, 0, 0, 0, 0, 0]))


SMALL = [[1, 2, 3], [3, 1, 2]]


def test_reduce_min_axes_and_keep_axes(path):
    t = nbt.tensor(SMALL)
    assert_same(run(path, nbt.reduce_min, t), nbt.tensor(1))
    out = run(path, lambda t: nbt.reduce_min(t, axes=[0]), t)
    assert_same(out, nbt.tensor([1, 1, 2]))
    out = run(path, lambda t: nbt.reduce_min(t, axes=[0], keep_axes=True), t)
    assert_same(out, nbt.tensor([[1, 1, 2]]))
    out = run(path, lambda t: nbt.reduce_min(t, keep_axes=True), t)
    assert_same(out, nbt.tensor([[1]]))


@pytest.mark.parametrize("op", ["indexed_add", "indexed_put"])
def test_indexed_raises_when_out_of_bounds(path, op):
    # Nx.BinaryBackend raises "index 3 is out of bounds for axis 0 in shape {2, 2}"; DELIBERATE: numbat drops
    # updates at out-of-range indices on every path, as EXLA (XLA's scatter) does
    t = nbt.tensor([[1, 2], [3, 4]])
    fun = lambda t, i, u: getattr(nbt, op)(t, i, u)
    assert_same(run(path, fun, t, nbt.tensor([[3, -10]]), nbt.tensor([1])), t)
    assert_same(run(path, fun, t, nbt.tensor([[0, -1]]), nbt.tensor([1])), t)
