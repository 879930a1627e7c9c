"""Nx 0.13.1 nx/test/nx_test.exs (NxTest), describes "dot/2", "dot/4", "dot/6", "clip/3",
"concatenate/2", "sort/1", "sort/2", "argsort/2", "take", "take_diagonal/2",
"make_diagonal/2", "put_diagonal/2", "indexed_add/3"."""

import pytest

import numbat as nbt

from ._support import assert_raises, assert_same, run

# describe "dot/2", "dot/4", "dot/6"


def test_dot_second_arg_can_be_a_scalar(path):
    out = run(path, lambda t: nbt.dot(t, 3), nbt.tensor([[1, 2, 3]]))
    assert nbt.shape(out) == (1, 3)
    assert_same(out, nbt.tensor([[3, 6, 9]]))


def test_dot_does_not_re_sort_the_contracting_axes(path):
    out = run(path, lambda a, b: nbt.dot(a, b, contract_axes=([3, 1, 2], [2, 3, 1])), nbt.iota((2, 7, 8, 3, 1)),
              nbt.iota((1, 8, 3, 7, 3)))  # fmt: skip
    assert nbt.shape(out) == (2, 1, 1, 3)
    assert_same(out, nbt.tensor([[[[3_731_448, 3_745_476, 3_759_504]]], [[[10_801_560, 10_843_812, 10_886_064]]]]))


def test_dot_works_with_batched_dot_and_different_size_non_batch_dims(path):
    out = run(path, lambda a, b: nbt.dot(a, b, contract_axes=([1, 2], [2, 1]), batch_axes=([0], [0])),
              nbt.iota((3, 2, 4, 1)), nbt.iota((3, 4, 2, 2)))  # fmt: skip
    assert_same(out, nbt.tensor([[[252, 280]], [[2172, 2264]], [[6140, 6296]]]))


def test_dot_works_with_multiple_batch_dimensions(path):
    out = run(path, lambda a, b: nbt.dot(a, b, contract_axes=([2], [3]), batch_axes=([0, 1], [0, 1])),
              nbt.iota((3, 2, 1, 3, 2)), nbt.iota((3, 2, 1, 1, 4)))  # fmt: skip
    # each [b0][b1][i][j][0][l] is the product of t1[b0][b1][0][i][j] and t2[b0][b1][0][0][l]
    expected = [
        [
            [[[[(6 * (2 * b0 + b1) + 2 * i + j) * (8 * b0 + 4 * b1 + l) for l in range(4)]] for j in range(2)]
             for i in range(3)]
            for b1 in range(2)
        ]
        for b0 in range(3)
    ]  # fmt: skip
    assert_same(out, nbt.tensor(expected))
    assert nbt.to_list(out)[0][1][0][0][0] == [24, 30, 36, 42]  # Nx's literal spot checks
    assert nbt.to_list(out)[2][1][2][1][0] == [700, 735, 770, 805]


def test_dot_works_with_batch_dimension_of_size_1(path):
    t = nbt.tensor([[[1, 2, 3], [4, 5, 6]]])
    out = run(path, lambda a, b: nbt.dot(a, b, contract_axes=([2], [2]), batch_axes=([0], [0])), t, t)
    assert_same(out, nbt.tensor([[[14, 32], [32, 77]]]))


def test_dot_vectorization_regression(path):
    left = nbt.vectorize(nbt.tile(nbt.tensor([[[[0, 1, 2], [0, -1, -2]]]]), [5, 1, 1, 1]), [("x", 5)])
    assert left.shape == (1, 2, 3)
    right = nbt.tensor([[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]])
    expected = nbt.reshape(nbt.vectorize(nbt.tensor([[[8] * 4, [-8] * 4]] * 5), [("x", 5)]), (1, 2, 4))
    assert_same(run(path, nbt.dot, left, right), expected)


# describe "clip/3"


def test_clip_raises_when_min_or_max_is_non_scalar(path):
    # numbat's clip also takes bounds that broadcast to the tensor (a superset of Nx's scalars): these do not
    assert_raises(path, lambda t, lo: nbt.clip(t, lo, 3), nbt.iota((4,)), nbt.iota((2,)), match="broadcast")
    assert_raises(path, lambda t, lo, hi: nbt.clip(t, lo, hi), nbt.iota((4,)), nbt.iota(()), nbt.iota((3,)),
                  match="broadcast")  # fmt: skip


def test_clip_works_with_infinities(path):
    t = nbt.tensor([1.0, 2.0, 3.0])
    out = run(path, lambda t: nbt.clip(t, nbt.constants.neg_infinity(), nbt.constants.infinity()), t)
    assert_same(out, t)


# describe "concatenate/2"


def test_concatenate_middle_axis(path):
    t1 = nbt.iota((2, 2, 2))
    out = run(path, lambda a, b, c: nbt.concatenate([a, b, c], axis=1), t1, nbt.add(t1, 10), nbt.add(t1, 20))
    expected = [
        [[0, 1], [2, 3], [10, 11], [12, 13], [20, 21], [22, 23]],
        [[4, 5], [6, 7], [14, 15], [16, 17], [24, 25], [26, 27]],
    ]
    assert_same(out, nbt.tensor(expected))


def test_concatenate_raises_for_an_empty_list_of_tensors():
    with pytest.raises(nbt.ArgumentError):
        nbt.concatenate([])


# describe "sort/1", "sort/2", "argsort/2"

NON_SYMMETRIC = [
    [[4, 5], [2, 5], [5, 0]],
    [[1, 9], [2, 1], [2, 1]],
    [[0, -1], [-1, 0], [0, -1]],
    [[-1, 0], [0, -1], [-1, 0]],
]


def test_sort_works(path):
    assert_same(run(path, nbt.sort, nbt.tensor([3, 2, 1, 0])), nbt.tensor([0, 1, 2, 3]))


def test_sort_works_with_non_symmetric_tensors(path):
    out = run(path, lambda t: nbt.sort(t, axis="x"), nbt.tensor(NON_SYMMETRIC, names=["x", "y", "z"]))
    expected = [
        [[-1, -1], [-1, -1], [-1, -1]],
        [[0, 0], [0, 0], [0, 0]],
        [[1, 5], [2, 1], [2, 0]],
        [[4, 9], [2, 5], [5, 1]],
    ]
    assert_same(out, nbt.tensor(expected, names=["x", "y", "z"]))


def test_argsort_works_with_non_symmetric_tensors(path):
    out = run(path, lambda t: nbt.argsort(t, axis="x"), nbt.tensor(NON_SYMMETRIC, names=["x", "y", "z"]))
    expected = [[[3, 2], [2, 3], [3, 2]], [[2, 3], [3, 2], [2, 0]], [[1, 0], [0, 1], [1, 3]], [[0, 1], [1, 0], [0, 1]]]
    assert_same(out, nbt.tensor(expected, names=["x", "y", "z"]))


@pytest.mark.parametrize("op", ["sort", "argsort"])
def test_sort_and_argsort_raise_for_invalid_direction(path, op):
    assert_raises(path, lambda t: getattr(nbt, op)(t, direction="invalid"), nbt.tensor([3, 2, 1, 0]), match="direction")


# describe "take"


def test_take_accepts_scalar_and_number_as_index(path):
    assert_same(run(path, lambda t: nbt.take(t, 2), nbt.iota((4,))), nbt.tensor(2))
    assert_same(run(path, nbt.take, nbt.iota((4,)), nbt.tensor(2)), nbt.tensor(2))
    assert_same(run(path, nbt.take, nbt.iota((4,)), nbt.tensor([0, 2])), nbt.tensor([0, 2]))


# describe "take_diagonal/2"


@pytest.mark.parametrize(
    ("shape", "offset", "expected"),
    [
        ((3, 3), 0, [0, 4, 8]),
        ((3, 4), 0, [0, 5, 10]),
        ((4, 3), 0, [0, 4, 8]),
        ((3, 3), 1, [1, 5]),
        ((3, 3), -1, [3, 7]),
        ((2, 3, 3), 0, [[0, 4, 8], [9, 13, 17]]),
    ],
)
def test_take_diagonal_extracts_valid_diagonal(path, shape, offset, expected):
    assert_same(run(path, lambda t: nbt.take_diagonal(t, offset=offset), nbt.iota(shape)), nbt.tensor(expected))


@pytest.mark.parametrize(("shape", "offset"), [((3,), 0), ((3, 3), 4), ((3, 3), -3)])
def test_take_diagonal_raises(path, shape, offset):
    assert_raises(path, lambda t: nbt.take_diagonal(t, offset=offset), nbt.iota(shape))


# describe "make_diagonal/2"


@pytest.mark.parametrize(
    ("offset", "expected"),
    [
        (0, [[1, 0, 0], [0, 2, 0], [0, 0, 3]]),
        (1, [[0, 1, 0, 0], [0, 0, 2, 0], [0, 0, 0, 3], [0, 0, 0, 0]]),
        (-1, [[0, 0, 0, 0], [1, 0, 0, 0], [0, 2, 0, 0], [0, 0, 3, 0]]),
    ],
)
def test_make_diagonal_constructs_valid_diagonal(path, offset, expected):
    assert_same(run(path, lambda t: nbt.make_diagonal(t, offset=offset), nbt.tensor([1, 2, 3])), nbt.tensor(expected))


def test_make_diagonal_raises_given_tensor_with_invalid_rank(path):
    assert_raises(path, nbt.make_diagonal, nbt.iota((3, 3, 3)), match="vector")


# describe "put_diagonal/2"


@pytest.mark.parametrize(
    ("target", "offset", "expected"),
    [
        (nbt.iota((3, 3)), 0, [[1, 1, 2], [3, 2, 5], [6, 7, 3]]),
        (nbt.broadcast(0, (4, 4)), 1, [[0, 1, 0, 0], [0, 0, 2, 0], [0, 0, 0, 3], [0, 0, 0, 0]]),
        (nbt.broadcast(0, (4, 4)), -1, [[0, 0, 0, 0], [1, 0, 0, 0], [0, 2, 0, 0], [0, 0, 3, 0]]),
    ],
)
def test_put_diagonal_puts_valid_diagonal(path, target, offset, expected):
    out = run(path, lambda t, d: nbt.put_diagonal(t, d, offset=offset), target, nbt.tensor([1, 2, 3]))
    assert_same(out, nbt.tensor(expected))


@pytest.mark.parametrize(
    ("shape", "diagonal", "offset"),
    [((3, 3, 3), (3,), 0), ((3, 3), (3, 3), 0), ((3, 3), (2,), 0), ((3, 3), (3,), 1), ((3, 3), (3,), 4),
     ((3, 3), (3,), -3)],
    ids=["tensor rank", "diagonal rank", "length, no offset", "length, valid offset", "positive offset",
         "negative offset"],
)  # fmt: skip
def test_put_diagonal_raises(path, shape, diagonal, offset):
    assert_raises(path, lambda t, d: nbt.put_diagonal(t, d, offset=offset), nbt.iota(shape), nbt.iota(diagonal))


# describe "indexed_add/3"


def test_indexed_add_can_emulate_take_along_axis(path):
    t = nbt.tensor([[4, 5], [2, 3], [1, 0]])
    i = run(path, lambda t: nbt.argsort(t, axis=1, direction="desc"), t)
    assert_same(i, nbt.tensor([[1, 0], [1, 0], [0, 1]]))
    count = 6
    iotas = [nbt.reshape(nbt.iota((3, 2), axis=axis), (count, 1)) for axis in range(2)]
    iotas[1] = nbt.reshape(i, (count, 1))
    indices = nbt.concatenate(iotas, axis=1)
    out = run(path, lambda i, u: nbt.indexed_add(nbt.broadcast(0, (3, 2)), i, u), indices, nbt.reshape(t, (count,)))
    assert_same(out, nbt.tensor([[5, 4], [3, 2], [1, 0]]))


@pytest.mark.parametrize("type_", [f"{kind}{width}" for kind in "us" for width in (2, 4, 8, 16, 32, 64)])
def test_indexed_add_works_with_all_integer_types_in_indices(path, type_):
    indices = nbt.tensor([[0, 0], [0, 1], [1, 0], [1, 1]], type=type_)
    out = run(path, lambda i, u: nbt.indexed_add(nbt.broadcast(0, (2, 2)), i, u), indices, nbt.tensor([1, 2, 3, 4]))
    assert_same(out, nbt.add(nbt.iota((2, 2)), 1))


@pytest.mark.parametrize("type_", ["f16", "bf16", "f32", "f64", "c64", "c128"])
def test_indexed_add_fails_for_all_non_integer_types_in_indices(path, type_):
    indices = nbt.tensor([[0, 0], [0, 1], [1, 0], [1, 1]], type=type_)
    assert_raises(path, lambda i, u: nbt.indexed_add(nbt.broadcast(0, (2, 2)), i, u), indices, nbt.tensor([1, 2, 3, 4]),
                  match="integer")  # fmt: skip
