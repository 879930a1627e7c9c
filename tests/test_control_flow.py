"""cond, while_loop and fori_loop: eager, compiled and evaluated agree with Python/NumPy."""

import threading

import numpy as np
import pytest

import numbat as nbt


def _compiled(fun):
    return [fun, nbt.jit(fun), nbt.jit(fun, compiler="evaluator")]


@pytest.mark.parametrize("mode", ["eager", "xla", "evaluator"])
@pytest.mark.parametrize("value", [-3.0, 2.0])
def test_cond_picks_the_branch(mode, value, backend):
    fun = dict(
        zip(["eager", "xla", "evaluator"], _compiled(lambda x: nbt.cond(x < 0, lambda v: -v, lambda v: v * 10, x)))
    )[mode]
    assert nbt.to_number(fun(nbt.tensor(value))) == (-value if value < 0 else value * 10)


@pytest.mark.parametrize("fun", _compiled(lambda p: nbt.cond(p, lambda: nbt.tensor([1, 2]), lambda: 2.5)))
@pytest.mark.parametrize("pred", [0, 1])
def test_cond_merges_branch_types_and_shapes(fun, pred):
    out = fun(nbt.tensor(pred))
    assert str(out.type) == "f32" and out.shape == (2,)
    np.testing.assert_array_equal(out.to_numpy(), [1.0, 2.0] if pred else [2.5, 2.5])


@pytest.mark.parametrize("x", [-5, 0, 5, 50])
def test_cond_with_clauses_takes_the_first_true_one(x):
    def classify(x):
        return nbt.cond([(x < 0, lambda: nbt.tensor(-1)), (x < 10, lambda: nbt.tensor(1))], lambda: nbt.tensor(2))

    expected = -1 if x < 0 else 1 if x < 10 else 2
    for fun in _compiled(classify):
        assert nbt.to_number(fun(nbt.tensor(x))) == expected


def test_cond_errors_name_the_problem():
    with pytest.raises(nbt.ArgumentError, match=r"predicate must be a scalar tensor, got s32\[2\]"):
        nbt.cond(nbt.tensor([1, 0]), lambda: 1, lambda: 2)
    with pytest.raises(nbt.ArgumentError, match="cannot merge"):
        nbt.jit(lambda p: nbt.cond(p, lambda: nbt.tensor([1, 2]), lambda: nbt.tensor([1, 2, 3])))(nbt.tensor(1))
    with pytest.raises(nbt.ArgumentError, match="branch 0 returns"):
        nbt.cond(nbt.tensor(1), lambda: (nbt.tensor(1), nbt.tensor(2)), lambda: nbt.tensor(1))
    with pytest.raises(nbt.ArgumentError, match="branches must be functions"):
        nbt.cond(nbt.tensor(1), 1, 2)


def test_python_if_on_a_traced_tensor_points_to_cond():
    @nbt.defn
    def bad(x):
        return -x if x < 0 else x

    with pytest.raises(nbt.ArgumentError, match="nbt.cond"):
        bad(nbt.tensor(1.0))


def _halvings(x):
    return nbt.while_loop(lambda s: s[0] >= 1, lambda s: (s[0] / 2, s[1] + 1), (x, nbt.tensor(0)))


@pytest.mark.parametrize("fun", _compiled(_halvings))
def test_while_loop_runs_until_the_condition_fails(fun, backend):
    value, count = fun(nbt.tensor(100.0))
    assert nbt.to_number(count) == 7
    assert nbt.to_number(value) == pytest.approx(100 / 2**7)


@pytest.mark.parametrize("unroll", [1, 3])
def test_while_loop_unroll_gives_the_same_state(unroll):
    fun = nbt.jit(lambda n: nbt.while_loop(lambda s: s < n, lambda s: s + 1, nbt.tensor(0), unroll=unroll))
    assert [nbt.to_number(fun(nbt.tensor(n))) for n in (0, 1, 7, 9)] == [0, 1, 7, 9]


def test_while_loop_state_must_keep_its_type():
    with pytest.raises(nbt.ArgumentError, match=r"changed state from s32 to f32"):
        nbt.jit(lambda x: nbt.while_loop(lambda s: s < 10, lambda s: s * 1.5, x))(nbt.tensor(1))
    with pytest.raises(nbt.ArgumentError, match=r"changed state from s32 to f32"):
        nbt.while_loop(lambda s: s < 10, lambda s: s * 1.5, nbt.tensor(1))


@pytest.mark.parametrize("fun", _compiled(lambda x: nbt.fori_loop(1, 6, lambda i, acc: acc * i * x, nbt.tensor(1.0))))
def test_fori_loop_matches_a_python_loop(fun):
    assert nbt.to_number(fun(nbt.tensor(2.0))) == pytest.approx(120 * 2**5)


def test_loops_are_sub_graphs_of_the_expression():
    lines = [line.rstrip() for line in str(nbt.debug_expr(_halvings)(nbt.tensor(100.0))).splitlines()]
    assert [line.strip().split("  ")[0] for line in lines[3:]] == [
        "parameter a:0",
        "b = while [ a, 0 ]",
        "condition -> e:",
        "parameter c:0",
        "parameter d:1",
        "e = greater_equal [ c, 1.0 ]",
        "body -> h, i:",
        "parameter f:0",
        "parameter g:1",
        "h = divide [ f, 2.0 ]",
        "i = add [ g, 1 ]",
        "j = elem [ b, index: 1 ]",
        ">",
    ]


def test_branches_name_values_of_the_enclosing_graph_by_their_letters():
    text = str(nbt.debug_expr(lambda x: nbt.cond(x < 0, lambda v: -v * x, lambda v: v, x))(nbt.tensor(1.0)))
    assert "c = cond [ b, a ]" in text and "true -> f:" in text and "f = multiply [ e, a ]" in text
    assert "false -> g:" in text and "?" not in text
    expr = nbt.debug_expr(lambda x: nbt.cond(x < 0, lambda v: -v * x, lambda v: v, x))(nbt.tensor(1.0))
    (cond,) = [node for node in expr.nodes if node.op == "cond"]
    assert [label for label, _ in cond.subgraphs] == ["true", "false"]
    (outer,) = [node for node in cond.subgraphs[0][1].nodes if node.op == "outer"]
    assert expr.letters[outer.value] == "a"


def test_debug_expr_limit_prunes_the_text_not_the_graph():
    chain = nbt.debug_expr(lambda x: nbt.exp(nbt.exp(nbt.exp(x))), limit=2)(nbt.tensor(1.0))
    text = str(chain)
    assert "... 2 earlier rows left out ..." in text and "d = exp [ c ]" in text and "parameter" not in text
    assert len(chain.nodes) == 4 and len(chain.rows()) == 4


def _fd(fun, x: np.ndarray, h=1e-6) -> np.ndarray:
    out = np.zeros_like(x)
    for i in range(x.size):
        step = np.zeros_like(x)
        step.flat[i] = h
        up = nbt.to_number(fun(nbt.tensor(x + step, type="f64")))
        down = nbt.to_number(fun(nbt.tensor(x - step, type="f64")))
        out.flat[i] = (up - down) / (2 * h)
    return out


GRAD_CASES = {
    "cond": lambda x: nbt.cond(nbt.sum(x) > 0, lambda v: nbt.sum(nbt.sin(v) * v), lambda v: nbt.sum(v**3), x),
    "fori_loop": lambda x: nbt.sum(nbt.fori_loop(0, 4, lambda i, acc: nbt.tanh(acc * x + i), x)),
    "while_loop": lambda x: nbt.sum(
        nbt.while_loop(lambda s: s[0] < 3, lambda s: (s[0] + 1, nbt.sin(s[1]) * x), (nbt.tensor(0), x))[1]
    ),
    "stop_grad": lambda x: nbt.sum(x * nbt.stop_grad(nbt.exp(x))),
    "custom_grad": lambda x: nbt.sum(nbt.custom_grad(nbt.exp(x), [x], lambda g: [g * nbt.exp(x)])),
}


@pytest.mark.parametrize("case", sorted(GRAD_CASES))
@pytest.mark.parametrize("point", [[0.3, -0.7], [-1.2, 0.4]])
def test_gradients_match_float64_finite_differences(case, point):
    fun = GRAD_CASES[case]
    x = np.array(point)
    expected = _fd(fun, x)
    if case == "stop_grad":  # the stopped factor is a constant for the gradient
        expected = np.exp(x)
    for grad in (nbt.grad(fun), nbt.jit(nbt.grad(fun))):
        np.testing.assert_allclose(grad(nbt.tensor(x, type="f64")).to_numpy(), expected, rtol=1e-6, atol=1e-8)


def test_defn_inside_defn_is_inlined():
    @nbt.defn
    def inner(x):
        return x * 2

    @nbt.defn
    def outer(x):
        return inner(x) + 1

    np.testing.assert_array_equal(outer(nbt.tensor([1.0, 2.0])).to_numpy(), [3.0, 5.0])
    assert "multiply [ a, 2.0 ]" in str(nbt.debug_expr(outer)(nbt.tensor([1.0, 2.0])))
    assert inner.cache_info()["compiled"] == 0


def test_grad_of_a_defn_inside_and_outside_a_defn():
    @nbt.defn
    def cube_sum(x):
        return nbt.sum(x * x * x)

    x = nbt.tensor([1.0, 2.0])
    np.testing.assert_array_equal(nbt.grad(cube_sum)(x).to_numpy(), [3.0, 12.0])
    np.testing.assert_array_equal(nbt.jit(nbt.grad(cube_sum))(x).to_numpy(), [3.0, 12.0])


def test_recursive_defn_with_a_static_option_does_not_deadlock():
    @nbt.defn
    def power(x, *, n):
        return x if n == 1 else x * power(x, n=n - 1)

    done = []
    thread = threading.Thread(target=lambda: done.append(nbt.to_number(power(nbt.tensor(2.0), n=5))), daemon=True)
    thread.start()
    thread.join(timeout=60)
    assert done == [32.0]


def test_concurrent_first_calls_compile_each_signature_once():
    @nbt.defn
    def scale(x):
        return x * 3

    inputs = [nbt.tensor([1.0] * (1 + i % 2)) for i in range(16)]
    results = [None] * len(inputs)

    def call(i):
        results[i] = scale(inputs[i]).to_numpy()

    threads = [threading.Thread(target=call, args=(i,)) for i in range(len(inputs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert scale.cache_info()["compiled"] == 2
    for i, result in enumerate(results):
        np.testing.assert_array_equal(result, [3.0] * (1 + i % 2))


def test_every_construct_records_its_inputs_in_the_expression():
    @nbt.defn
    def inner(v):
        return nbt.custom_grad(nbt.exp(v), [v], lambda g: [g * nbt.exp(v)])

    def everything(x):
        y = nbt.cond(nbt.sum(x) > 0, lambda v: inner(v) * x, lambda v: v, x)
        y = nbt.while_loop(lambda s: nbt.sum(s) < 100.0, lambda s: s * 2 + nbt.stop_grad(x), nbt.abs(y) + 1)
        y = y + nbt.grad(lambda v: nbt.sum(inner(v) * y))(x)
        return nbt.vectorize(lambda row: nbt.hook(row * 2, lambda value: None))(y)

    text = str(nbt.debug_expr(everything)(nbt.tensor([0.5, 1.5])))
    assert "?" not in text
    for op in ("cond", "custom_grad", "while", "stop_grad", "grad", "vectorize", "hook"):
        assert f" = {op} [" in text, op


def test_fori_loop_takes_an_int_and_a_tensor_bound_and_refuses_float_bounds():
    fun = lambda n: nbt.fori_loop(0, n, lambda i, total: total + i, nbt.tensor(0))
    assert nbt.to_number(nbt.jit(fun)(nbt.tensor(4))) == 6
    assert "fori_loop [ a, 0, start: 0 ]" in str(nbt.debug_expr(fun)(nbt.tensor(4)))
    with pytest.raises(nbt.ArgumentError, match="start must be an int or an integer scalar tensor, got f64"):
        nbt.fori_loop(np.float64(2.5), 3, lambda i, total: total, nbt.tensor(0))
