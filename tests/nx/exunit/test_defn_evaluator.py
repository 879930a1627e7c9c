"""Nx 0.13.1 `nx/test/nx/defn/evaluator_test.exs`, ported in part: defns run on the
evaluator (the "numpy" and "xla" paths) and compiled ("jit")."""

import pytest

import numbat as nbt

from ._support import assert_same, run_defn


def test_constant(path):
    result = run_defn(path, lambda t: nbt.add(t, 2), nbt.tensor([1, 2, 3], type="u8"))
    assert (result.shape, str(result.type)) == ((3,), "u8")
    result = run_defn(path, lambda t: nbt.add(t, 2), nbt.tensor([1, 2, 3], type="bf16"))
    assert (result.shape, str(result.type)) == ((3,), "bf16")


def test_iota(path):
    assert_same(run_defn(path, lambda: nbt.iota((2, 2))), nbt.iota((2, 2)))


def test_concatenate(path):
    result = run_defn(path, lambda a, b: nbt.concatenate([a, b]), nbt.tensor([1, 2, 3]), nbt.tensor([4, 5, 6]))
    assert_same(result, nbt.tensor([1, 2, 3, 4, 5, 6]))


def test_slice(path):
    assert_same(
        run_defn(path, lambda a, b: nbt.slice(a, [b], [1]), nbt.tensor([1, 2, 3]), nbt.tensor(0)), nbt.tensor([1])
    )


def test_reshape(path):
    assert_same(run_defn(path, lambda t: nbt.reshape(t, (3, 2)), nbt.iota((2, 3))), nbt.reshape(nbt.iota((6,)), (3, 2)))


def test_window_reduce(path):
    fun = lambda t, acc: nbt.window_reduce(t, acc, (2,), lambda x, acc: x + acc, padding="valid")
    assert_same(run_defn(path, fun, nbt.tensor([1, 2, 3]), 0), nbt.tensor([3, 5]))


def test_decompositions_lu(path):
    p, l, u = run_defn(path, nbt.linalg.lu, nbt.tensor([[1, 0, 0], [0, 1, 0], [0, 0, -1]]))
    assert_same(p, nbt.tensor([[1, 0, 0], [0, 1, 0], [0, 0, 1]]))
    assert_same(l, nbt.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]))
    assert_same(u, nbt.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, -1.0]]))


def test_decompositions_svd(path):
    # numbat's default svd is LAPACK's (as EXLA's), which puts the sign in vt; max_iter (Nx's
    # default 100) selects Nx's algorithm (untranslatable.DELIBERATE).
    svd = lambda t: nbt.linalg.svd(t, max_iter=100)
    u, s, vt = run_defn(path, svd, nbt.tensor([[1, 0, 0], [0, 1, 0], [0, 0, -1]]))
    assert_same(u, nbt.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, -1.0]]))
    assert_same(s, nbt.tensor([1.0, 1.0, 1.0]))
    assert_same(vt, nbt.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]))


# describe "while/3"


def test_while_simple(path):
    upto10 = lambda x: nbt.while_loop(lambda x: nbt.less(x, 10), lambda x: x + 1, x)
    assert_same(run_defn(path, upto10, nbt.tensor(0)), nbt.tensor(10))
    assert_same(run_defn(path, upto10, nbt.tensor(5)), nbt.tensor(10))


def factorial_tuple(x):
    factorial = nbt.tensor(1, type=x.type)
    factorial, _ = nbt.while_loop(lambda s: nbt.greater(s[1], 1), lambda s: (s[0] * s[1], s[1] - 1), (factorial, x))
    return factorial


def factorial_map(x):
    state = {"factorial": nbt.tensor(1, type=x.type), "x": x}
    step = lambda m: {"factorial": m["factorial"] * m["x"], "x": m["x"] - 1}
    return nbt.while_loop(lambda m: nbt.greater(m["x"], 1), step, state)["factorial"]


@pytest.mark.parametrize("fun", [factorial_tuple, factorial_map], ids=["tuple", "map"])
def test_while_factorial(path, fun):
    assert_same(run_defn(path, fun, nbt.tensor(5)), nbt.tensor(120))
    assert_same(run_defn(path, fun, nbt.tensor(10.0)), nbt.tensor(3_628_800.0))


def test_while_factorial_map_input(path):
    def factorial_map_input(state):
        step = lambda m: {"factorial": m["factorial"] * m["x"], "x": m["x"] - 1}
        return nbt.while_loop(lambda m: nbt.greater(m["x"], 1), step, state)["factorial"]

    assert_same(run_defn(path, factorial_map_input, {"factorial": 1, "x": 5}), nbt.tensor(120))
    assert_same(run_defn(path, factorial_map_input, {"factorial": 1.0, "x": 10.0}), nbt.tensor(3_628_800.0))


def test_argsort_and_sort(path):
    assert_same(run_defn(path, nbt.argsort, nbt.tensor([3, 1, 2])), nbt.tensor([1, 2, 0]))
    assert_same(run_defn(path, nbt.sort, nbt.tensor([3, 1, 2])), nbt.tensor([1, 2, 3]))


def test_anonymous_functions(path):
    assert_same(run_defn(path, lambda a, b: nbt.add(a, b), 1, 2.0), nbt.tensor(3.0))
    assert_same(run_defn(path, lambda t: nbt.reduce(t, 0, nbt.add), nbt.tensor([1, 2, 3])), nbt.tensor(6))


def test_access(path):
    assert_same(run_defn(path, lambda t: t[1][0], nbt.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]])), nbt.tensor(4))


# describe "vectorization"


def test_vectorize_works_inside_defn(path):
    def vectorize_within_defn(t, a):
        t = nbt.add(nbt.vectorize(t, {"a": 1, "b": 2}), 1)
        return nbt.select(nbt.vectorize(a, {"a": 1}), t, nbt.vectorize(a, {"a": 1}))

    t = nbt.tensor([[1, 2]])
    assert_same(
        run_defn(path, vectorize_within_defn, t, nbt.tensor([1])), nbt.vectorize(nbt.add(t, 1), {"a": 1, "b": 2})
    )
    expected = nbt.vectorize(nbt.tensor([[0, 0]]), {"a": 1, "b": 2})
    assert_same(run_defn(path, vectorize_within_defn, t, nbt.tensor([0])), expected)


def vectorized_while(a, b, i=0):
    return nbt.while_loop(lambda s: s[2] < 2, lambda s: (s[0] + s[1], s[1], s[2] + 1), (a, b, i))


def test_vectorization_while(path):
    t = nbt.iota((2, 3), vectorized_axes=[("a", 1)])
    result, one, i = run_defn(path, vectorized_while, t, 1)
    assert_same(result, nbt.add(t, 2))
    assert_same(one, nbt.tensor(1))
    assert_same(i, nbt.tensor(2))


def test_vectorization_while_raises_on_vectorized_condition(path):
    t = nbt.iota((2, 3), vectorized_axes=[("a", 1)])
    with pytest.raises(nbt.ArgumentError, match="condition must be a scalar tensor"):
        run_defn(path, vectorized_while, t, t, nbt.iota((1,), vectorized_axes=[("x", 1)]))


def test_vectorization_cond(path):
    a, b = nbt.tensor(3), nbt.tensor(2)
    c = nbt.vectorize(nbt.tensor([[1]]), {"x": 1, "y": 1})
    d = nbt.vectorize(nbt.tensor([[1, 2]]), {"x": 1, "y": 2})

    def vectorized_cond(cond_1, on_1, cond_2, on_2, on_3):
        return nbt.cond([(cond_1, lambda: on_1), (cond_2, lambda: on_2)], lambda: on_3)

    assert_same(run_defn(path, vectorized_cond, 0, (c, c), 0, (c, c), (c, c)), (c, c))
    assert_same(run_defn(path, vectorized_cond, 1, a, 0, b, c), nbt.add(c, 2))
    assert_same(run_defn(path, vectorized_cond, 0, a, 1, b, c), nbt.add(c, 1))
    c_vec_d, _ = nbt.broadcast_vectors([c, d])
    assert_same(run_defn(path, vectorized_cond, 0, a, 1, c, d), c_vec_d)
    assert_same(run_defn(path, vectorized_cond, 0, a, 0, c, d), d)


def test_vectorization_metadata_with_expr(path):
    a = nbt.iota((1,), vectorized_axes=[("x", 2)])
    fun = lambda t: nbt.stop_grad(nbt.vectorize(nbt.devectorize(t), list(t.vectorized_axes)))
    assert_same(run_defn(path, fun, a), a)


# describe "if"


def if3(a, b, c):
    return nbt.cond(a, lambda: b, lambda: c)


def test_if_simple(path):
    s16, f32 = nbt.tensor(1, type="s16"), nbt.tensor(2, type="f32")
    assert_same(run_defn(path, if3, nbt.tensor(0), s16, f32), nbt.tensor(2, type="f32"))
    assert_same(run_defn(path, if3, nbt.tensor(1), s16, f32), nbt.tensor(1, type="f32"))
    assert_same(run_defn(path, if3, nbt.tensor(2), s16, f32), nbt.tensor(1, type="f32"))
    row, column = nbt.tensor([1, 2]), nbt.tensor([[3], [4]])
    assert_same(run_defn(path, if3, nbt.tensor(0), row, column), nbt.tensor([[3, 3], [4, 4]]))
    assert_same(run_defn(path, if3, nbt.tensor(1), row, column), nbt.tensor([[1, 2], [1, 2]]))


def if_tuple(a, b, c):
    return nbt.cond(a, lambda: ((a, b), c), lambda: ((c, b), a))


def test_if_with_tuples(path):
    t = nbt.tensor
    assert_same(run_defn(path, if_tuple, t(0), t(10), t(20)), ((t(20), t(10)), t(0)))
    assert_same(run_defn(path, if_tuple, t(1), t(10), t(20)), ((t(1), t(10)), t(20)))
    assert_same(run_defn(path, if_tuple, t(0), t(10), t([20, 30])), ((t([20, 30]), t(10)), t([0, 0])))
    assert_same(run_defn(path, if_tuple, t(1), t(10), t([20, 30])), ((t([1, 1]), t(10)), t([20, 30])))


def test_if_with_matched_and_returned_tuples(path):
    def if_tuple_match(a, b, c):
        (x, y), z = if_tuple(a, b, c)
        return x * y - z

    t = nbt.tensor
    assert_same(run_defn(path, if_tuple_match, t(0), t(10), t(20)), t(200))
    assert_same(run_defn(path, if_tuple_match, t(1), t(10), t(20)), t(-10))
    if_tuple_return = lambda a, b, c: if_tuple(a, b, c)[0]
    assert_same(run_defn(path, if_tuple_return, t(0), t(10), t(20)), (t(20), t(10)))
    assert_same(run_defn(path, if_tuple_return, t(1), t(10), t(20)), (t(1), t(10)))


def test_if_with_map(path):
    def if_map(a, b, c):
        return nbt.cond(a, lambda: ({"a": a, "b": b, "c": 1}, c), lambda: ({"a": c, "b": b, "c": 2}, a))

    t = nbt.tensor
    assert_same(run_defn(path, if_map, t(0), t(10), t(20)), ({"a": t(20), "b": t(10), "c": t(2)}, t(0)))
    assert_same(run_defn(path, if_map, t(1), t(10), t(20)), ({"a": t(1), "b": t(10), "c": t(1)}, t(20)))
    expected = ({"a": t([20, 30]), "b": t(10), "c": t(2)}, t([0, 0]))
    assert_same(run_defn(path, if_map, t(0), t(10), t([20, 30])), expected)
    expected = ({"a": t([1, 1]), "b": t(10), "c": t(1)}, t([20, 30]))
    assert_same(run_defn(path, if_map, t(1), t(10), t([20, 30])), expected)


def test_print_value_with_options(path, capsys):
    run_defn(path, lambda a, b: nbt.print_value(a + b, label="add"), nbt.tensor(1), nbt.tensor(2))
    assert capsys.readouterr().out == f"add: {nbt.tensor(3)!r}\n"


def test_print_value_with_mapping_function(path, capsys):
    result = run_defn(path, lambda a, b: nbt.print_value(a + b, lambda x: repr(x * 2)), nbt.tensor(1), nbt.tensor(2))
    assert_same(result, nbt.tensor(3))
    assert capsys.readouterr().out == f"{nbt.tensor(6)!r}\n"


# describe "hooks": Nx's hooks send messages to the test process; here they append to a list.


def sender(sent, tag):
    return lambda value: sent.append((tag, value))


def test_basic_hook_with_overriddes(path):
    sent = []

    def basic_hook(a, b):
        return nbt.hook(a + b, sender(sent, "default"), name="example")

    assert_same(run_defn(path, basic_hook, 1, 2), nbt.tensor(3))
    assert [tag for tag, _ in sent] == ["default"]
    assert_same(sent.pop()[1], nbt.tensor(3))
    assert_same(run_defn(path, basic_hook, 1, 2, hooks={"example": sender(sent, "custom")}), nbt.tensor(3))
    assert [tag for tag, _ in sent] == ["custom"]
    assert_same(sent.pop()[1], nbt.tensor(3))


def test_hook_on_metadata_wrapped_expression(path):
    sent = []
    metadata_hook = lambda a: nbt.hook(nbt.stop_grad(nbt.add(a, 1)), sender(sent, "default"), name="example")
    assert_same(run_defn(path, metadata_hook, 1), nbt.tensor(2))
    assert len(sent) == 1
    assert_same(sent[0][1], nbt.tensor(2))


def test_container_hook_with_overriddes(path):
    sent = []
    container_hook = lambda a, b: nbt.hook((a, b), sender(sent, "default"), name="example")
    assert_same(run_defn(path, container_hook, 1, 2), (nbt.tensor(1), nbt.tensor(2)))
    assert len(sent) == 1 and sent[0][0] == "default"
    assert_same(sent.pop()[1], (nbt.tensor(1), nbt.tensor(2)))
    result = run_defn(path, container_hook, 1, 2, hooks={"example": sender(sent, "custom")})
    assert_same(result, (nbt.tensor(1), nbt.tensor(2)))
    assert len(sent) == 1 and sent[0][0] == "custom"
    assert_same(sent.pop()[1], (nbt.tensor(1), nbt.tensor(2)))


def test_hooks_inside_loops(path):
    def hook_upto10(x):
        return nbt.while_loop(lambda x: nbt.less(x, 10), lambda x: nbt.hook(x + 1, "while"), x)

    sent = []
    assert_same(run_defn(path, hook_upto10, 5), nbt.tensor(10))
    assert sent == []
    assert_same(run_defn(path, hook_upto10, 5, hooks={"while": sender(sent, "while")}), nbt.tensor(10))
    assert [tag for tag, _ in sent] == ["while"] * 5
    for (_, value), expected in zip(sent, [6, 7, 8, 9, 10]):
        assert_same(value, nbt.tensor(expected))
