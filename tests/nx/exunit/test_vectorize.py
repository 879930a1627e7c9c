"""Nx 0.13.1 `nx/test/nx/vectorize_test.exs`, ported: ops on vectorized tensors, while and
cond with vectorized predicates, and access with vectorized indices."""

import math

import pytest

import numbat as nbt

from ._support import assert_same, run, run_defn

BASE = [[[0, 1, 2]], [[3, 4, 5]], [[6, 7, 8]]]
BASE_UNARY = [[[0.1, 0.2, 0.3]], [[0.4, 0.5, 0.6]], [[0.7, 0.8, 0.9]]]
UNARY_MATH = [
    "exp", "expm1", "log", "log1p", "sigmoid", "cos", "sin", "tan", "cosh", "sinh", "tanh", "acos", "asin",
    "atan", "asinh", "atanh", "sqrt", "rsqrt", "cbrt", "erf", "erfc", "erf_inv",
]  # fmt: skip


def base():
    return nbt.tensor(BASE)


def vectorized():
    return nbt.vectorize(base(), "rows")


def vec(values, *names, type=None, **sizes):
    tensor = nbt.tensor(values, type=type) if not isinstance(values, nbt.Tensor) else values
    return nbt.vectorize(tensor, list(names) or sizes)


# describe "vectorize"


def test_adds_new_vectorization_axes_to_the_end_of_the_list():
    v = nbt.vectorize(vectorized(), "cols")
    assert v.vectorized_axes == (("rows", 3), ("cols", 1))
    assert v.shape == (3,)


# describe "unary math ops"


@pytest.mark.parametrize("name", UNARY_MATH)
def test_unary_math_fun_works_on_vectorized_tensor(path, name):
    op = getattr(nbt, name)
    result = run(path, lambda b: nbt.vectorize(op(b), "rows"), nbt.tensor(BASE_UNARY))
    assert_same(result, run(path, op, nbt.vectorize(nbt.tensor(BASE_UNARY), "rows")))


def test_acosh_works_on_vectorized_tensor(path):
    result = run(path, lambda b: nbt.vectorize(nbt.acosh(nbt.add(b, 1)), "rows"), nbt.tensor(BASE_UNARY))
    assert_same(result, run(path, lambda v: nbt.acosh(nbt.add(v, 1)), nbt.vectorize(nbt.tensor(BASE_UNARY), "rows")))


# describe "binary operations" and "predicate operations"

ADDED = [[[2, 3, 4]], [[5, 6, 7]], [[8, 9, 10]]]
ADDED_RANK2 = [[[1, 2, 3], [2, 3, 4]], [[4, 5, 6], [5, 6, 7]], [[7, 8, 9], [8, 9, 10]]]
EQUAL = [[[0, 0, 1]], [[0, 0, 0]], [[0, 0, 0]]]
EQUAL_RANK2 = [[[0, 1, 0], [0, 0, 1]], [[0, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 0]]]


@pytest.mark.parametrize(
    "op, expected, type", [("add", ADDED, None), ("equal", EQUAL, "u8")], ids=["addition", "Nx.equal"]
)
@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("other", [2, [2]], ids=["scalar", "rank-1"])
def test_by_scalar_and_rank_1(path, op, expected, type, side, other):
    fun = getattr(nbt, op)
    if side == "left":
        result = run(path, lambda o, v: fun(o, v), nbt.tensor(other), vectorized())
    else:
        result = run(path, lambda v, o: fun(v, o), vectorized(), nbt.tensor(other))
    assert result.shape == (1, 3)
    assert_same(result, vec(expected, "rows", type=type))


@pytest.mark.parametrize(
    "op, expected, type", [("add", ADDED_RANK2, None), ("equal", EQUAL_RANK2, "u8")], ids=["addition", "Nx.equal"]
)
@pytest.mark.parametrize("side", ["left", "right"])
def test_by_rank_2(path, op, expected, type, side):
    fun = getattr(nbt, op)
    other = nbt.tensor([[1], [2]])
    if side == "left":
        result = run(path, lambda o, v: fun(o, v), other, vectorized())
    else:
        result = run(path, lambda v, o: fun(v, o), vectorized(), other)
    assert result.shape == (2, 3)
    assert_same(result, vec(expected, "rows", type=type))


def test_addition_by_vectorized_with_same_axes(path):
    assert_same(nbt.vectorize(nbt.add(base(), base()), "rows"), run(path, nbt.add, vectorized(), vectorized()))


def test_nx_equal_by_vectorized_with_same_axes(path):
    expected = nbt.vectorize(nbt.broadcast(nbt.tensor(1, type="u8"), base()), "rows")
    assert_same(expected, run(path, nbt.equal, vectorized(), vectorized()))


@pytest.mark.parametrize("op", ["add", "equal"])
def test_by_vectorized_with_different_axes(path, op):
    fun = getattr(nbt, op)
    v2 = nbt.vectorize(base(), "cols")
    rows = [[[0, 1, 2]], [[3, 4, 5]], [[6, 7, 8]]]
    result = nbt.vectorize(nbt.vectorize(nbt.stack([fun(base(), nbt.tensor(r)) for r in rows]), "rows"), "cols")
    assert_same(result, run(path, fun, vectorized(), v2))


@pytest.mark.parametrize("op", ["add", "equal"])
def test_by_vectorized_with_common_axes(path, op):
    # Deliberate difference (untranslatable.DELIBERATE): Nx's expected value reshapes
    # v2's vectorized axes (x, y, rows) into the result's order (rows, x, y) without
    # transposing, pairing entries of different names; numbat pairs entries by name.
    fun = getattr(nbt, op)
    base_2 = nbt.iota((1, 2, 3, 1, 3))
    v2 = nbt.vectorize(nbt.vectorize(nbt.vectorize(base_2, "x"), "y"), "rows")
    by_name = fun(nbt.reshape(base(), (3, 1, 1, 1, 3)), nbt.transpose(base_2, axes=[2, 0, 1, 3, 4]))
    assert_same(run(path, fun, vectorized(), v2), nbt.vectorize(by_name, ["rows", "x", "y"]))


# describe "unary operations"


@pytest.mark.parametrize("op", ["logical_not", "is_nan", "is_infinity", "negate"])
def test_unary_operation(path, op):
    fun = getattr(nbt, op)
    result = run(path, lambda b: nbt.vectorize(fun(b), "rows"), nbt.tensor(BASE_UNARY))
    assert_same(result, run(path, fun, nbt.vectorize(nbt.tensor(BASE_UNARY), "rows")))


@pytest.mark.parametrize(
    "op, given, expected",
    [
        ("sign", nbt.tensor([-10, 0, 10]), nbt.tensor([-1, 0, 1])),
        ("abs", nbt.tensor([-10, 0, 10]), nbt.tensor([10, 0, 10])),
        ("conjugate", nbt.tensor([-1j, 1j, 10 - 1j]), nbt.tensor([1j, -1j, 10 + 1j])),
        ("phase", nbt.tensor([1j, 0, 10]), nbt.tensor([math.pi / 2, 0, 0])),
        ("real", nbt.tensor([-1j, 0, 10]), nbt.tensor([0, 0, 10], type="f32")),
        ("imag", nbt.tensor([-1j, 0, 10]), nbt.tensor([-1, 0, 0], type="f32")),
        ("bitwise_not", nbt.tensor([15, 240, 0], type="u8"), nbt.tensor([240, 15, 255], type="u8")),
        ("population_count", nbt.tensor([15, 240, 3], type="u8"), nbt.tensor([4, 4, 2], type="u8")),
        ("count_leading_zeros", nbt.tensor([15, 240, 3], type="u8"), nbt.tensor([4, 0, 6], type="u8")),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_elementwise_unary(path, op, given, expected):
    assert_same(nbt.vectorize(expected, "rows"), run(path, getattr(nbt, op), nbt.vectorize(given, "rows")))


def test_sort(path):
    result = run(path, lambda t: nbt.sort(t, axis=0), vec([[1, 2, 3], [3, 2, 1]], "rows"))
    assert_same(vec([[1, 2, 3], [1, 2, 3]], "rows"), result)


def test_argsort(path):
    result = run(path, lambda t: nbt.argsort(t, axis=0), vec([[1, 2, 3], [3, 2, 1]], "rows"))
    assert_same(vec([[0, 1, 2], [2, 1, 0]], "rows"), result)


def test_top_k(path):
    result = run(path, lambda t: nbt.top_k(t, k=2), vec([[[1, 2, 3]], [[5, 4, 3]]], "rows"))
    assert_same(result, (vec([[[3, 2]], [[5, 4]]], "rows"), vec([[[2, 1]], [[0, 1]]], "rows")))


def test_reflect(path):
    result = run(path, lambda t: nbt.pad_outer(t, "reflect", [(3, 1)]), vec([[0, 1, 2], [5, 4, 3]], "rows"))
    assert_same(vec([[1, 2, 1, 0, 1, 2, 1], [4, 3, 4, 5, 4, 3, 4]], "rows"), result)


# describe "while/3"


def double_n_times(x, n):
    _i, v = nbt.while_loop(lambda s: s[0] > 0, lambda s: (s[0] - 1, s[1] * 2), (n, x))
    return v


def double_x_triple_y_n_times(x, y, n):
    _i, v, z = nbt.while_loop(lambda s: s[0] > 0, lambda s: (s[0] - 1, s[1] * 2, s[2] * 3), (n, x, y))
    return (v, z)


def y_plus_each_x(x, y):
    # Nx's `while y, t <- x do y + t end`: a loop over the leading axis of x, its state
    # vectorized over the generator's vectorized axes first.
    _, y = nbt.broadcast_vectors([x, y])
    return nbt.fori_loop(0, x.shape[0], lambda i, acc: acc + x[i], y)


def test_while_simple(path):
    assert_same(run_defn(path, double_n_times, nbt.tensor(3), nbt.tensor(5)), nbt.tensor(96))
    result = run_defn(path, double_n_times, vec([1, 2, 3], "x"), vec([5, 6, 3], "x"))
    assert_same(result, vec([32, 128, 24], "x"))


def test_while_different_axes(path):
    result = run_defn(path, double_n_times, vec([1, 2, 3], "init"), vec([4, 5], "pred"))
    assert_same(result, vec([[16, 32, 48], [32, 64, 96]], pred=2, init=3))


def test_while_mix_of_common_and_different_axes(path):
    # Deliberate difference (untranslatable.DELIBERATE): Nx reshapes x's vectorized axes
    # (other, pred) to (pred, other) without transposing; numbat keeps each entry's values,
    # so pred 0 (n = 3) doubles x's column [1, 3, 5] (Nx: [1, 2, 3]).
    x = vec([[1, 2], [3, 4], [5, 6]], other=3, pred=2)
    result = run_defn(path, double_x_triple_y_n_times, x, vec([1, 2], "pred"), vec([3, 4], "pred"))
    assert_same(result, (vec([[8, 24, 40], [32, 64, 96]], pred=2, other=3), vec([27, 162], pred=2)))


def test_while_simple_with_multiple_pred_axes(path):
    result = run_defn(path, double_n_times, vec([1, 2, 3], "x"), vec([[0, 1, 2], [5, 6, 3]], y=2, x=3))
    assert_same(result, vec([[1, 4, 12], [32, 128, 24]], y=2, x=3))


def test_while_vectorized_generator(path):
    x_devec = nbt.iota((3, 4))
    x = nbt.vectorize(x_devec, {"x": 3})
    y = vec([[10, 20, 30, 40], [-10, -20, -30, -40]], y=2)
    results = [run_defn(path, y_plus_each_x, x_devec[i], y) for i in range(3)]
    result = run_defn(path, y_plus_each_x, x, y)
    expected = nbt.vectorize(nbt.stack(nbt.devectorize(tuple(results)), axis=0), {"x": 3, "y": 2})
    assert_same(result, expected)


# describe "cond"


def vectorized_if(pred, then, other):
    return nbt.cond(pred, lambda: nbt.print_value(then, label="if"), lambda: nbt.print_value(other, label="else"))


def vectorized_cond(pred1, clause1, pred2, clause2, clause3):
    return nbt.cond(
        [
            (pred1, lambda: nbt.print_value(clause1, label="clause_1")),
            (pred2, lambda: nbt.print_value(clause2, label="clause_2")),
        ],
        lambda: nbt.print_value(clause3, label="clause_3"),
    )


def vectorized_cond_with_number_literal(value):
    return nbt.cond(value == 1, lambda: (value + 1, 2, nbt.constants.i()), lambda: (value - 1, 1, 0))


def test_simple_if(path, capsys):
    # a single vectorized predicate
    assert_same(run_defn(path, vectorized_if, vec([0, 1, 0], "pred"), 1, 2), vec([2, 1, 2], "pred"))
    assert capsys.readouterr().out == f"if: {nbt.tensor(1)!r}\nelse: {nbt.tensor(2)!r}\n"


def test_simple_cond(path, capsys):
    # two vectorized predicates; the clause for pred2 never runs
    result = run_defn(path, vectorized_cond, vec([1, 0, 0], "pred"), 1, vec([0, 0, 0], "pred"), 2, 3)
    assert_same(result, vec([1, 3, 3], "pred"))
    assert capsys.readouterr().out == f"clause_1: {nbt.tensor(1)!r}\nclause_3: {nbt.tensor(3)!r}\n"


def test_if_with_container_result(path, capsys):
    result = run_defn(path, vectorized_if, vec([2, 0, 0], "pred"), (1, 2, 3), (7, 8, vec([9, 10, 11], "x")))
    expected = (vec([1, 7, 7], "pred"), vec([2, 8, 8], "pred"), vec([[3, 3, 3], [9, 10, 11], [9, 10, 11]], pred=3, x=3))
    assert_same(result, expected)
    then = (nbt.tensor(1), nbt.tensor(2), nbt.tensor(3))
    other = (nbt.tensor(7), nbt.tensor(8), nbt.tensor([9, 10, 11], names=["x"]))
    assert capsys.readouterr().out == f"if: {then!r}\nelse: {other!r}\n"


def cond4(sent):
    def send_value(value, clause):
        return nbt.hook(value, lambda t: sent.append((t, clause)))

    def fun(p1, c1, p2, c2, p3, c3, c4):
        return nbt.cond(
            [
                (p1, lambda: send_value(c1, "c1")),
                (p2, lambda: send_value(c2, "c2")),
                (p3, lambda: send_value(c3, "c3")),
            ],
            lambda: send_value(c4, "c4"),
        )

    return fun


def test_only_executes_selected_branches(path):
    t, f = vec([1], "pred"), vec([0], "pred")
    for args, value, clause in [
        ((t, 10, 0, 20, 0, 30, 40), 10, "c1"),
        ((0, 10, t, 20, 0, 30, 40), 20, "c2"),
        ((0, 10, 0, 20, t, 30, 40), 30, "c3"),
        ((f, 10, 0, 20, 0, 30, 40), 40, "c4"),
    ]:
        sent = []
        result = run_defn(path, cond4(sent), *args)
        assert_same(nbt.vectorize(nbt.new_axis(nbt.tensor(value), 0), "pred"), result)
        assert len(sent) == 1 and sent[0][1] == clause  # assert_received, refute_received _
        assert_same(sent[0][0], nbt.tensor(value))


@pytest.mark.parametrize(
    "args, expected",
    [
        # 1 vectorized pred in the beginning
        (([0, 1], 10, 0, 20, 0, 30, 40), [40, 10]),
        (([0, 0], 10, 1, 20, 0, 30, 40), [20, 20]),
        (([0, 0], 10, 0, 20, 1, 30, 40), [30, 30]),
        (([0, 0], 10, 0, 20, 0, 30, 40), [40, 40]),
        # 1 vectorized pred in the second but not last position
        ((0, 10, [0, 1], 20, 0, 30, 40), [40, 20]),
        ((1, 10, [0, 1], 20, 0, 30, 40), [10, 10]),
        ((0, 10, [0, 0], 20, 1, 30, 40), [30, 30]),
        ((0, 10, [0, 0], 20, 0, 30, 40), [40, 40]),
        # 1 vectorized pred in the last position
        ((0, 10, 0, 20, [0, 1], 30, 40), [40, 30]),
        ((1, 10, 0, 20, [0, 1], 30, 40), [10, 10]),
        ((0, 10, 1, 20, [0, 1], 30, 40), [20, 20]),
        ((0, 10, 0, 20, [0, 0], 30, 40), [40, 40]),
    ],
)
def test_1_vectorized_pred(path, args, expected):
    args = [vec(a, "pred") if isinstance(a, list) else a for a in args]
    assert_same(run_defn(path, cond4([]), *args), vec(expected, "pred"))


def test_2_vectorized_preds_with_different_axes(path):
    result = run_defn(path, cond4([]), vec([0, 1, 0], "pred1"), 10, vec([1, 0], "pred2"), 20, 0, 30, 40)
    assert_same(result, vec([[20, 40], [10, 10], [20, 40]], pred1=3, pred2=2))


def test_2_vectorized_preds_with_different_axes_and_clauses_that_match_either(path):
    p1, c1, p2, c2 = (
        vec([0, 1, 0], "pred1"),
        vec([10, 100], "pred2"),
        vec([1, 0], "pred2"),
        vec([20, 200, 2000], "pred1"),
    )
    result = run_defn(path, cond4([]), p1, c1, p2, c2, 0, 30, 40)
    assert_same(result, vec([[20, 40], [10, 100], [2000, 40]], pred1=3, pred2=2))


def test_vectorized_pred_with_number_literal(path):
    result = run_defn(path, vectorized_cond_with_number_literal, vec([1, 2], "x"))
    assert_same(result, (vec([2, 1], "x"), vec([2, 1], "x"), vec([1j, 0], "x")))


# describe "access"


def test_get_vectorized_tensor_unvectorized_indices(path):
    t = nbt.iota((3,), vectorized_axes=[("x", 2)])
    for i in range(3):
        assert_same(run(path, lambda t, i=i: t[i], t), vec([i, i], x=2))
    t = nbt.iota((3, 4), vectorized_axes=[("x", 2)])
    assert_same(run(path, lambda t: t[0, 1:3], t), vec([[1, 2], [1, 2]], x=2))
    assert_same(run(path, lambda t: t[1, 1:2], t), vec([[5], [5]], x=2))
    assert_same(run(path, lambda t: t[2, 2:4], t), vec([[10, 11], [10, 11]], x=2))


def test_get_unvectorized_tensor_vectorized_indices(path):
    i = vec([0, 2, 4], "i")
    assert_same(run(path, lambda t, i: t[i], nbt.iota((6,)), i), vec([0, 2, 4], i=3))
    assert_same(run(path, lambda t, i: t[i, 0:2], nbt.iota((6, 2)), i), vec([[0, 1], [4, 5], [8, 9]], i=3))


def test_get_vectorized_tensor_vectorized_indices(path):
    t = nbt.vectorize(nbt.iota((3, 6)), {"i": 3})
    i = vec([0, 2, 4], i=3)
    assert_same(run(path, lambda t, i: t[i], t, i), vec([0, 8, 16], i=3))
    t = nbt.vectorize(nbt.iota((2, 6, 2)), {"j": 2})
    expected = vec([[[0, 1], [4, 5], [8, 9]], [[12, 13], [16, 17], [20, 21]]], j=2, i=3)
    assert_same(run(path, lambda t, i: t[i, 0:2], t, i), expected)


def test_broadcast_regression(path):
    t = nbt.vectorize(nbt.iota((2, 3, 4)), ["a", "b"])
    result = run(path, lambda t: nbt.broadcast(t[0], t.shape, names=t.names), t)
    expected = [[[0] * 4, [4] * 4, [8] * 4], [[12] * 4, [16] * 4, [20] * 4]]
    assert_same(result, vec(expected, a=2, b=3))
