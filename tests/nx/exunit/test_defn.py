"""Nx 0.13.1 `nx/test/nx/defn_test.exs`, ported in part (up to `cond`).

Nx's defn_test runs most defns under its `Nx.Defn.Debug` compiler and matches the
`%Expr{}` structs they build (`op: :squeeze, args: [slice, [0]]`): numbat's expression
graph is a view of JAX's trace, with its own lowering (a squeeze records as a reshape),
so those struct matches are untranslatable (untranslatable.UNTRANSLATABLE). What they
assert about the result (shape, type, names, which tuple parts come back) is ported,
with the values, by running the defn on each path: "jit" compiles it, "numpy" and
"xla" run it on the evaluator over that backend.
"""

import pytest

import numbat as nbt

from ._support import assert_same, run_defn


def template(tensor):
    return (tensor.shape, str(tensor.type), tensor.names)


# describe "creation ops"


def test_iota(path):
    result = run_defn(path, lambda t: nbt.iota(t.shape), nbt.tensor([1, 2, 3]))
    assert_same(result, nbt.iota((3,)))


def test_eye(path):
    assert_same(run_defn(path, lambda: nbt.eye(2)), nbt.eye(2))


def test_raise_an_error_given_a_shape_tuple_with_tensor_values(path):
    with pytest.raises(nbt.ArgumentError):
        run_defn(path, lambda t: nbt.iota((t,)), nbt.tensor(10))


# describe "tensor ops"


def test_dot_product(path):
    v, m23, m32 = nbt.tensor([1, 2, 3]), nbt.tensor([[1, 2, 3], [1, 2, 3]]), nbt.tensor([[1, 2], [3, 4], [5, 6]])
    assert_same(run_defn(path, nbt.dot, v, m32), nbt.tensor([22, 28]))
    assert_same(run_defn(path, nbt.dot, m23, v), nbt.tensor([14, 14]))
    assert_same(run_defn(path, nbt.dot, m23, m32), nbt.tensor([[22, 28], [22, 28]]))
    dot6 = lambda a, b: nbt.dot(a, b, contract_axes=([-2], [-1]), batch_axes=([], []))
    assert_same(run_defn(path, dot6, m23, m32), nbt.tensor([[3, 7, 11], [6, 14, 22], [9, 21, 33]]))


def test_transpose(path):
    t = nbt.tensor([[1, 2, 3], [1, 2, 3]])
    expected = nbt.tensor([[1, 1], [2, 2], [3, 3]])
    assert_same(run_defn(path, nbt.transpose, t), expected)
    assert_same(run_defn(path, lambda t: nbt.transpose(t, axes=[-1, -2]), t), expected)


def test_reshape(path):
    result = run_defn(path, lambda t: nbt.reshape(t, (2, 3)), nbt.tensor([[1, 2], [3, 4], [5, 6]]))
    assert_same(result, nbt.tensor([[1, 2, 3], [4, 5, 6]]))


# describe "broadcast"


def test_broadcast_with_and_without_axes(path):
    t = nbt.tensor([1, 2, 3])
    assert_same(run_defn(path, lambda t: nbt.broadcast(t, (3, 3, 3)), t), nbt.broadcast(t, (3, 3, 3)))
    result = run_defn(path, lambda t: nbt.broadcast(t, (3, 2), axes=[-2]), t)
    assert_same(result, nbt.tensor([[1, 1], [2, 2], [3, 3]]))


@pytest.mark.parametrize(
    "steps, input, shape",
    [
        ([((5, 3), None), ((7, 5, 3), None)], (3,), (7, 5, 3)),
        ([((3, 5), [0]), ((3, 5, 7), [0, 1])], (3,), (3, 5, 7)),
        ([((3, 5), [0]), ((3, 7, 5), [0, 2])], (3,), (3, 7, 5)),
        ([((3, 5), [0]), ((7, 3, 5), [1, 2])], (3,), (7, 3, 5)),
        ([((5, 3), None), ((7, 5, 3, 9), [1, 2])], (3,), (7, 5, 3, 9)),
        ([((5, 3, 7), [1]), ((9, 5, 3, 7), [1, 2, 3])], (3,), (9, 5, 3, 7)),
        ([((3, 5, 7), [0, 2]), ((3, 9, 5, 7), [0, 2, 3])], (3, 7), (3, 9, 5, 7)),
    ],
)
def test_broadcast_collapses(path, steps, input, shape):
    def fun(t):
        for target, axes in steps:
            t = nbt.broadcast(t, target, axes=axes)
        return t

    t = nbt.iota(input) if len(input) == 2 else nbt.tensor([1, 2, 3])
    result = run_defn(path, fun, t)
    assert result.shape == shape
    assert_same(result, fun(t))  # the same values eagerly


# describe "squeeze"


def test_squeeze_sized_one_dimensions(path):
    assert_same(run_defn(path, nbt.squeeze, nbt.iota((1, 3, 1, 2, 1))), nbt.iota((3, 2)))


@pytest.mark.parametrize(
    "first, second, shape, names",
    [([0, 2], [0, 2], (1,), ("d",)), ([3, 1], [2], (1, 1), ("a", "c")), ([2], [3, 1], (1, 1), ("a", "d"))],
)
def test_squeeze_with_explicit_dimensions_are_collapsed(path, first, second, shape, names):
    t = nbt.iota((1, 1, 1, 1, 1), names=["a", "b", "c", "d", "e"])
    result = run_defn(path, lambda t: nbt.squeeze(nbt.squeeze(t, axes=first), axes=second), t)
    assert_same(result, nbt.tensor([[0]] if len(shape) == 2 else [0], names=list(names)))


# describe "conditional ops"


def test_select_with_tensor_predicate(path):
    result = run_defn(path, nbt.select, nbt.tensor([[1, 1], [0, 0]]), nbt.tensor(1), nbt.tensor(0))
    assert_same(result, nbt.tensor([[1, 1], [0, 0]]))


def test_select_with_scalar_predicate(path):
    result = run_defn(path, nbt.select, nbt.tensor(1), nbt.tensor([1, 2, 3, 4, 5]), nbt.tensor(0))
    assert_same(result, nbt.tensor([1, 2, 3, 4, 5]))
    result = run_defn(path, nbt.select, nbt.tensor(1), nbt.tensor([[1], [2]]), nbt.tensor([[1, 2]]))
    assert_same(result, nbt.tensor([[1, 1], [2, 2]]))


# describe "reduce ops"


def test_reduces_with_function(path):
    assert_same(
        run_defn(path, lambda t, acc: nbt.reduce(t, acc, lambda x, y: x + y), nbt.tensor([1, 2, 3]), 0), nbt.tensor(6)
    )
    fun = lambda t, acc: nbt.reduce(t, acc, lambda x, y: x + y, type="f64", axes=[-1])
    assert_same(run_defn(path, fun, nbt.tensor([[1], [2], [3]]), 0), nbt.tensor([1.0, 2.0, 3.0], type="f64"))


def test_reduces_with_constant(path):
    fun = lambda t, acc: nbt.reduce(t, acc, lambda x, y: 0)
    assert_same(run_defn(path, fun, nbt.tensor([1, 2, 3]), 0), nbt.tensor(0))
    assert_same(run_defn(path, fun, nbt.tensor([1, 2, 3]), 0.0), nbt.tensor(0.0))


def test_reduces_raises_on_non_scalar_functions(path):
    with pytest.raises(nbt.ArgumentError, match="scalar"):
        run_defn(path, lambda t: nbt.reduce(t, 0, lambda x, y: nbt.broadcast(x * y, (1, 1))), nbt.tensor([1, 2, 3]))


# describe "operators" and "kernel functions/macros": Nx matches the op each builds; the port
# checks the value each gives for (1, 2).


@pytest.mark.parametrize(
    "fun, expected",
    [
        (lambda a, b: a + b, nbt.tensor(3)),
        (lambda a, b: a - b, nbt.tensor(-1)),
        (lambda a, b: a * b, nbt.tensor(2)),
        (lambda a, b: a / b, nbt.tensor(0.5)),
        (nbt.logical_and, nbt.tensor(1, type="u8")),
        (nbt.logical_or, nbt.tensor(1, type="u8")),
        (lambda a, b: a & b, nbt.tensor(0)),
        (lambda a, b: a | b, nbt.tensor(3)),
        (lambda a, b: a << b, nbt.tensor(4)),
        (lambda a, b: a >> b, nbt.tensor(0)),
        (lambda a, b: a == b, nbt.tensor(0, type="u8")),
        (lambda a, b: a != b, nbt.tensor(1, type="u8")),
        (lambda a, b: a < b, nbt.tensor(1, type="u8")),
        (lambda a, b: a > b, nbt.tensor(0, type="u8")),
        (lambda a, b: a <= b, nbt.tensor(1, type="u8")),
        (lambda a, b: a >= b, nbt.tensor(0, type="u8")),
        (nbt.max, nbt.tensor(2)),
        (nbt.min, nbt.tensor(1)),
    ],
    ids=["+", "-", "*", "/", "and", "or", "&&&", "|||", "<<<", ">>>", "==", "!=", "<", ">", "<=", ">=", "max", "min"],
)
def test_operators(path, fun, expected):
    assert_same(run_defn(path, fun, nbt.tensor(1), nbt.tensor(2)), expected)


def test_unary_plus_and_minus(path):
    assert_same(run_defn(path, lambda a: +a, nbt.tensor(1)), nbt.tensor(1))
    assert_same(run_defn(path, lambda a: -a, nbt.tensor(1)), nbt.tensor(-1))


# describe "access"


def test_single_dimensional_single_access(path):
    assert_same(run_defn(path, lambda t: (t[0], t[-1]), nbt.tensor([1, 2, 3, 4, 5])), (nbt.tensor(1), nbt.tensor(5)))


def test_multi_dimensional_single_access(path):
    t = nbt.iota((3, 4, 5))
    zero, minus_one = run_defn(path, lambda t: (t[0], t[-1]), t)
    assert_same(zero, nbt.reshape(nbt.iota((20,)), (4, 5)))
    assert_same(minus_one, nbt.add(nbt.reshape(nbt.iota((20,)), (4, 5)), 40))


def test_multi_dimensional_multi_access_with_integers_is_collapsed(path):
    assert_same(run_defn(path, lambda t: t[1][2][3], nbt.iota((3, 4, 5))), nbt.tensor(33))


def test_multi_dimensional_multi_access_with_ranges_is_collapsed(path):
    result = run_defn(path, lambda t: t[1][1:3], nbt.iota((3, 4, 5)))
    assert_same(result, nbt.tensor([[25, 26, 27, 28, 29], [30, 31, 32, 33, 34]]))


def test_multi_dimensional_mixed_type_access(path):
    result = run_defn(path, lambda t: t[:, nbt.tensor(0, type="u32")], nbt.iota((3, 4)))
    assert_same(result, nbt.tensor([0, 4, 8]))


def test_multi_dimensional_multi_access_with_keywords_is_collapsed(path):
    t = nbt.iota((3, 4, 5), names=["x", "y", "z"])
    result = run_defn(path, lambda t: nbt.slice_along_axis(nbt.slice_along_axis(t, 1, 3, axis="z"), 1, 2, axis="y"), t)
    assert template(result) == ((3, 2, 3), "s32", ("x", "y", "z"))
    assert_same(result, nbt.slice(t, [0, 1, 1], [3, 2, 3]))


def test_also_works_for_other_elixir_data_structures(path):
    assert_same(run_defn(path, lambda a, axes=(1,): nbt.sum(a, axes=list(axes)), nbt.iota((2, 2))), nbt.tensor([1, 5]))


# describe "optional"


def test_cummulative(path):
    assert_same(run_defn(path, nbt.cumulative_sum, nbt.tensor([1, 2, 3, 4])), nbt.tensor([1, 3, 6, 10]))
    result = run_defn(path, nbt.cumulative_sum, nbt.tensor([1, 2, 3, 4], names=["x"]))
    assert_same(result, nbt.tensor([1, 3, 6, 10], names=["x"]))


# describe "lu", "qr", "svd": the decompositions return tuples


def test_lu_qr_svd_return_tuples(path):
    p, l, u = run_defn(path, nbt.linalg.lu, nbt.iota((3, 3)))
    assert p.shape == l.shape == u.shape == (3, 3)
    left, right = run_defn(path, nbt.linalg.qr, nbt.iota((3, 2)))
    assert (left.shape, right.shape) == ((3, 2), (2, 2))
    u, s, vt = run_defn(path, nbt.linalg.svd, nbt.iota((3, 3)))
    assert (u.shape, s.shape, vt.shape) == ((3, 3), (3,), (3, 3))


# describe "if"


def if3(a, b, c):
    return nbt.cond(a, lambda: b, lambda: c)


def if2(a, b):
    return nbt.cond(a, lambda: b, lambda: 0)  # Nx's `if` without `else` gives 0


def test_if_converges_types(path):
    zero = nbt.tensor(0)
    assert template(run_defn(path, if3, zero, nbt.tensor(0, type="s16"), nbt.tensor(0, type="f32"))) == ((), "f32", ())
    assert template(run_defn(path, if3, zero, nbt.tensor(0, type="s32"), nbt.tensor(0, type="f32"))) == ((), "f32", ())
    assert template(run_defn(path, if2, zero, nbt.tensor(0, type="u16"))) == ((), "u16", ())
    assert template(run_defn(path, if2, zero, nbt.tensor(0, type="f32"))) == ((), "f32", ())


def test_if_converges_shapes_and_names(path):
    result = run_defn(
        path, if3, nbt.tensor(0), nbt.tensor([1, 2], names=["y"]), nbt.tensor([[3], [4]], names=["x", None])
    )
    assert_same(result, nbt.tensor([[3, 3], [4, 4]], names=["x", "y"]))


def test_if_preserves_maps(path):
    result = run_defn(path, lambda a, b, c: nbt.cond(a, lambda: {"foo": b}, lambda: {"foo": c}), nbt.tensor(0), 1, 2)
    assert_same(result, {"foo": nbt.tensor(2)})


def test_if_returns_assignment_from_if(path):
    def if_assignment(a, b):
        c = nbt.all(a)
        return c + nbt.cond(c, lambda: b, lambda: -b)

    assert_same(run_defn(path, if_assignment, nbt.tensor([1, 2, 3]), nbt.tensor([1, 2, 3])), nbt.tensor([2, 3, 4]))
    assert_same(run_defn(path, if_assignment, nbt.tensor([0, 1, 2]), nbt.tensor([1, 2, 3])), nbt.tensor([-1, -2, -3]))


def test_if_raises_correct_error_on_incompatible_shapes(path):
    with pytest.raises(nbt.ArgumentError):
        run_defn(path, lambda a: nbt.cond(a, lambda: (1, 2), lambda: (3,)), nbt.tensor(0))


# describe "cond"


def cond4(a, b, c, d):
    return nbt.cond([(nbt.greater(a, 0), lambda: b + 1), (nbt.less(a, 0), lambda: c - 1)], lambda: d * 2)


def test_cond_supports_multiple_clauses(path):
    args = (nbt.tensor(1), nbt.tensor(2), nbt.tensor(3))
    assert_same(run_defn(path, cond4, nbt.tensor(0), *args), nbt.tensor(6))
    assert_same(run_defn(path, cond4, nbt.tensor(1), *args), nbt.tensor(2))
    assert_same(run_defn(path, cond4, nbt.tensor(-1), *args), nbt.tensor(1))


def test_cond_converges_types(path):
    args = (nbt.tensor(1, type="s8"), nbt.tensor(2, type="s16"), nbt.tensor(3, type="s32"))
    assert template(run_defn(path, cond4, nbt.tensor(0), *args)) == ((), "s32", ())


def test_cond_converges_shapes_and_names(path):
    args = (nbt.tensor([1, 2], names=["y"]), nbt.tensor([[3], [4]], names=["x", None]), nbt.tensor(5))
    assert_same(run_defn(path, cond4, nbt.tensor(0), *args), nbt.tensor([[10, 10], [10, 10]], names=["x", "y"]))


def cond_upcast_float_literals(n):
    return nbt.cond([(n == 1, lambda: 1.4), (n == 2, lambda: 2)], lambda: n)


@pytest.mark.parametrize("type", ["f32", "f64", "c64", "c128"])
def test_cond_upcasts_float_literals_based_on_the_accumulated_clause_type(path, type):
    # Nx matches the clauses' constants (1.4 and 2.0 of the input type); the port checks the
    # result's type and each clause's value.
    assert_same(run_defn(path, cond_upcast_float_literals, nbt.tensor(10.0, type=type)), nbt.tensor(10.0, type=type))
    assert_same(run_defn(path, cond_upcast_float_literals, nbt.tensor(1.0, type=type)), nbt.tensor(1.4, type=type))
    assert_same(run_defn(path, cond_upcast_float_literals, nbt.tensor(2.0, type=type)), nbt.tensor(2.0, type=type))


def test_cond_supports_literals(path):
    cond_list = lambda a: nbt.cond(nbt.any(a), lambda: 1, lambda: -1)
    assert_same(run_defn(path, cond_list, nbt.tensor(0)), nbt.tensor(-1))
    assert_same(run_defn(path, cond_list, nbt.tensor(1)), nbt.tensor(1))


def test_cond_handles_empty_maps_in_branches(path):
    assert run_defn(path, lambda a: nbt.cond(nbt.any(a), dict, dict), nbt.tensor(0)) == {}


def test_cond_access_variable_from_condition(path):
    def cond_branch_variable_access(a):
        b, c = nbt.all(a > 0), nbt.all(a < 0)
        return nbt.cond([(b, lambda: a + b), (c, lambda: a - c)], lambda: a)

    assert_same(run_defn(path, cond_branch_variable_access, nbt.tensor([1, 2, 3])), nbt.tensor([2, 3, 4]))
    assert_same(run_defn(path, cond_branch_variable_access, nbt.tensor([-1, -2, -3])), nbt.tensor([-2, -3, -4]))
    assert_same(run_defn(path, cond_branch_variable_access, nbt.tensor([-1, 0, 1])), nbt.tensor([-1, 0, 1]))


def test_cond_raises_if_given_a_non_scalar_as_condition(path):
    args = (nbt.tensor([0, 0]), nbt.tensor(1), nbt.tensor(2), nbt.tensor(3))
    with pytest.raises(nbt.ArgumentError, match="scalar"):
        run_defn(path, cond4, *args)


def test_cond_supports_vectorized_plain_branches(path):
    a = nbt.iota((2,), vectorized_axes=[("x", 2), ("y", 1)])
    c = nbt.vectorize(nbt.tensor([[1, 2]]), {"x": 1, "y": 2})
    fun = lambda p, a, c: cond4(p, a, 2, c)
    expected = {-1: [[[1, 1], [1, 1]], [[1, 1], [1, 1]]], 0: [[[2, 2], [4, 4]], [[2, 2], [4, 4]]]}
    expected[1] = [[[1, 2], [1, 2]], [[1, 2], [1, 2]]]
    for pred, values in expected.items():
        assert_same(run_defn(path, fun, nbt.tensor(pred), a, c), nbt.vectorize(nbt.tensor(values), {"x": 2, "y": 2}))


def test_cond_supports_vectorized_container_branches(path):
    a = nbt.iota((2,), vectorized_axes=[("x", 2), ("y", 1)])
    c = nbt.vectorize(nbt.tensor([[[1], [2]]]), {"z": 1, "w": 2})
    b_vec_a, _ = nbt.broadcast_vectors([nbt.broadcast(2, a), a])
    b_vec_c, _ = nbt.broadcast_vectors([nbt.broadcast(2, c), c])
    assert (b_vec_a.shape, b_vec_a.vectorized_axes) == ((2,), (("x", 2), ("y", 1)))
    assert (b_vec_c.shape, b_vec_c.vectorized_axes) == ((1,), (("z", 1), ("w", 2)))
    cond_container = lambda p, a, c: nbt.cond(p, lambda: (a, 2), lambda: (2, c))
    assert_same(run_defn(path, cond_container, nbt.tensor(1), a, c), (a, b_vec_c))
    assert_same(run_defn(path, cond_container, nbt.tensor(0), a, c), (b_vec_a, c))


# describe "while/3"


def upto10(x):
    return nbt.while_loop(lambda x: nbt.less(x, 10), lambda x: x + 1, x)


def factorial(x):
    result, _ = nbt.while_loop(lambda s: nbt.greater(s[1], 1), lambda s: (s[0] * s[1], s[1] - 1), (1, x))
    return result


def test_while_simple(path):
    assert_same(run_defn(path, upto10, nbt.tensor(0)), nbt.tensor(10))


def test_while_factorial(path):
    assert_same(run_defn(path, factorial, nbt.tensor(5)), nbt.tensor(120))
    with pytest.raises(nbt.ArgumentError, match="must keep its shapes, types and names"):
        run_defn(path, factorial, nbt.tensor(10.0))


def test_while_complex_numbers(path):
    assert_same(run_defn(path, lambda t: nbt.complex(t, 2), nbt.tensor(1)), nbt.tensor(1 + 2j))


def test_while_underscored_vars(path):
    def while_last(t):
        _, last, _ = nbt.while_loop(lambda s: s[0] <= s[2], lambda s: (s[0] + 1, s[0], s[2]), (0, 0, t))
        return last

    assert_same(run_defn(path, while_last, nbt.tensor(10)), nbt.tensor(10))


def test_while_tensor_generator(path):
    # Nx's `while acc = tensor[0] * 0, part <- tensor do acc + part end`
    def while_generator_sum(tensor):
        return nbt.fori_loop(0, tensor.shape[0], lambda i, acc: acc + tensor[i], tensor[0] * 0)

    assert_same(run_defn(path, while_generator_sum, nbt.tensor([0, 1, 2, 3, 4])), nbt.tensor(10))
    assert_same(run_defn(path, while_generator_sum, nbt.iota((3, 3))), nbt.tensor([9, 12, 15]))


def generator_sum(acc, values, unroll=1):
    """Nx's `while acc, part <- values, unroll: n do acc + part end` over a tensor's
    leading axis or a Python range: a counted while_loop, `unroll` bodies per iteration
    (`True`: all of them)."""
    count = len(values) if isinstance(values, range) else values.shape[0]
    unroll = max(count, 1) if unroll is True else unroll
    part = (lambda i: values.start + i * values.step) if isinstance(values, range) else (lambda i: values[i])
    _, acc = nbt.while_loop(lambda s: s[0] < count, lambda s: (s[0] + 1, s[1] + part(s[0])), (0, acc), unroll=unroll)
    return acc


def test_while_tensor_generator_unrolled_integer_result(path):
    fun = lambda t: generator_sum(0, t, unroll=3)
    assert_same(run_defn(path, fun, nbt.tensor([1, 2, 3])), nbt.tensor(6))
    assert_same(run_defn(path, fun, nbt.tensor([1, 2, 3, 4, 5, 6])), nbt.tensor(21))
    assert_same(run_defn(path, fun, nbt.tensor([1, 2, 3, 4, 5, 6, 7, 8])), nbt.tensor(36))


@pytest.mark.parametrize("unroll", [1, True, 3], ids=["plain", "unroll true", "unroll 3"])
@pytest.mark.parametrize(
    "acc, values, expected",
    [
        (0, range(5), 10),
        (100, range(1, 11), 155),
        (0, range(0), 0),
        (100, range(0), 100),
        (0, range(4, -1, -1), 10),
        (100, range(10, 0, -1), 155),
        (0, range(1, 4), 6),  # Nx's "range generator unrolled" (its inspect shows add 6, a)
    ],
    ids=["0..4", "1..10", "0..-1//1 from 0", "0..-1//1 from 100", "4..0//-1", "10..1//-1", "1..3"],
)
def test_while_range_generator(path, acc, values, expected, unroll):
    fun = lambda acc: generator_sum(acc, values, unroll=unroll)
    assert_same(run_defn(path, fun, nbt.tensor(acc)), nbt.tensor(expected))


def test_while_raises_on_mixed_return(path):
    fun = lambda a, b: nbt.while_loop(lambda s: nbt.less(s[0], 10), lambda s: {"a": s[0], "b": s[1]}, (a, b))
    with pytest.raises(nbt.ArgumentError, match="structure"):
        run_defn(path, fun, nbt.tensor(0), nbt.tensor(1))


def test_while_closes_over_an_outer_value(path):
    # Nx raises "expressions come from different contexts" for an outer b inside the body;
    # numbat's body closes over b as JAX's while_loop does (untranslatable.DELIBERATE)
    fun = lambda a, b: nbt.while_loop(lambda a: nbt.less(a, 10), lambda a: a + b, a)
    assert_same(run_defn(path, fun, nbt.tensor(0), nbt.tensor(1)), nbt.tensor(10))


def test_while_raises_if_given_a_non_scalar_as_condition(path):
    with pytest.raises(nbt.ArgumentError, match="scalar"):
        run_defn(path, upto10, nbt.tensor([0, 0]))
