"""Nx 0.13.1 `nx/test/nx/defn_test.exs`, describes "transform", "jit" and "compile",
ported: `nbt.jit`, `nbt.jit_apply` and `nbt.compile` on the evaluator and XLA."""

import math

import pytest

import numbat as nbt

from ._support import assert_all_close, assert_same, run, run_defn

COMPILERS = {"numpy": "evaluator", "xla": "evaluator", "jit": None}


def options(path):
    return {"compiler": COMPILERS[path]} if COMPILERS[path] else {}


def defn_jit(ab, c):
    a, b = ab
    return a + b - c


def test_back_and_forth_between_elixir_and_defn(path):
    fun = lambda a: nbt.exp(nbt.tanh(nbt.negate(a)))
    eager = run("xla" if path == "jit" else path, fun, nbt.tensor(1))  # Nx compares on one backend
    assert_same(run_defn(path, fun, nbt.tensor(1)), eager)


def test_jit_compiles_defn_function(path):
    jitted = nbt.jit(defn_jit, **options(path))
    assert_same(jitted((4, 5), 3), nbt.tensor(6))
    assert_same(jitted((4, 5), nbt.tensor(3)), nbt.tensor(6))
    assert_same(nbt.jit(lambda ab: defn_jit(ab, 3), **options(path))((4, 5)), nbt.tensor(6))


def test_jit_applies_with_options(path):
    fun = nbt.jit(nbt.sum, **options(path))
    assert_same(fun(nbt.iota((2, 2)), axes=[1]), nbt.tensor([1, 5]))


def test_jits_or_applies(path):
    assert_same(nbt.jit_apply(defn_jit, [(4, 5), 3], **options(path)), nbt.tensor(6))
    nested = lambda ab, c: nbt.jit_apply(defn_jit, [ab, c])
    assert_same(run_defn(path, nested, (4, 5), 3), nbt.tensor(6))


def test_compiles_defn_function(path):
    fun = nbt.compile(defn_jit, [(4, 5), 3], **options(path))
    assert_same(fun((4, 5), 3), nbt.tensor(6))
    assert_same(fun((40, 50), 30), nbt.tensor(60))
    fun = nbt.compile(lambda ab: defn_jit(ab, 3), [(4, 5)], **options(path))
    assert_same(fun((4, 5)), nbt.tensor(6))
    assert_same(fun((40, 50)), nbt.tensor(87))


def test_compiles_defn_function_with_options(path):
    fun = nbt.compile(lambda t: nbt.sum(t, axes=[1]), [nbt.template((2, 2), "s32")], **options(path))
    assert_same(fun(nbt.iota((2, 2))), nbt.tensor([1, 5]))


def test_compiles_with_vectorized_inputs(path):
    x = nbt.vectorize(nbt.iota((2, 2)), "x")
    fun = nbt.compile(nbt.add, [nbt.vectorize(nbt.iota((2, 2)), "x"), 0], **options(path))
    assert_same(fun(x, 1), nbt.vectorize(nbt.tensor([[1, 2], [3, 4]]), "x"))
    fun = nbt.compile(lambda left, right: nbt.subtract(right, nbt.add(left, left)), [x, 0], **options(path))
    assert_same(fun(x, 1), nbt.vectorize(nbt.tensor([[1, -1], [-3, -5]]), "x"))


def test_supports_broadcast_vectors_inside_defn(path):
    x = nbt.vectorize(nbt.iota((2, 1, 1)), {"x": 2, "y": 1})
    y = nbt.vectorize(nbt.iota((1, 2, 1)), {"x": 1, "y": 2})
    result = nbt.jit_apply(lambda x, y: tuple(nbt.broadcast_vectors([x, y])), [x, y], **options(path))
    expected = (
        nbt.vectorize(nbt.tensor([[[0], [0]], [[1], [1]]]), {"x": 2, "y": 2}),
        nbt.vectorize(nbt.tensor([[[0], [1]], [[0], [1]]]), {"x": 2, "y": 2}),
    )
    assert_same(result, expected)


def test_raises_on_incompatible_shape(path):
    fun = nbt.compile(defn_jit, [(4, 5), 3], **options(path))
    with pytest.raises(nbt.ArgumentError):
        fun((nbt.iota((4,)), 5), 3)


def transform_inspect(a, b, label=None):
    expr = nbt.add(nbt.tanh(a), nbt.pow(b, 3))
    return nbt.print_expr(expr) if label is None else nbt.print_expr(expr, label=label)


def test_transform_executes_the_transformation(capsys):
    # Nx's print_expr text (printed while the defn traces), in numbat's form: the same ops, order and types
    rows = [
        "parameter a:0                             s32",
        "parameter b:1                             s32",
        "c = tanh [ a ]                            f32",
        "d = pow [ b, 3 ]                          s32",
        "e = add [ c, d ]                          f32",
    ]
    expected = "\n".join(["numbat.Expr<", "  f32", "", *(f"  {row}" for row in rows), ">", ""])
    assert_all_close(nbt.jit(transform_inspect)(1, 2), math.tanh(1.0) + 8.0)
    assert capsys.readouterr().out == expected
    nbt.jit(lambda a, b: transform_inspect(a, b, label="HELLO"))(1, 2)
    assert capsys.readouterr().out == "HELLO: " + expected


# describe "debug expression"


def test_debug_expr_and_debug_expr_apply():
    expected = [("parameter a:0", "s32"), ("parameter b:1", "s32"), ("c = add [ a, b ]", "s32")]
    assert nbt.debug_expr(lambda a, b: a + b)(1, 2).rows() == expected
    assert nbt.debug_expr_apply(lambda a, b: a + b, [1, 2]).rows() == expected


# describe "jit": Nx's Debug compiler answers with the expression (numbat's debug_expr); a
# plain Python function (Nx's `def`) jits as a defn does.


def elixir_jit(ab, c):
    a, b = ab
    return nbt.subtract(nbt.add(a, b), c)


def test_jit_compiles_defn_and_python_functions_and_debug_gives_the_expression(path):
    for fun in (defn_jit, elixir_jit):
        assert nbt.debug_expr(fun)((1, 2), 3).rows()[-1][0].split(" = ")[1].startswith("subtract [ ")
        jitted = nbt.jit(fun, **options(path))
        assert_same(jitted((4, 5), 3), nbt.tensor(6))
        assert_same(jitted((4, 5), nbt.tensor(3)), nbt.tensor(6))
        assert_same(nbt.jit(lambda ab, fun=fun: fun(ab, 3), **options(path))((4, 5)), nbt.tensor(6))
    nested = lambda ab, c: nbt.jit_apply(defn_jit, [ab, c])
    assert nbt.debug_expr_apply(nested, [(1, 2), 3]).rows()[-1][0].startswith("e = subtract [ ")


def test_jit_of_a_constant_function(path):
    assert_same(nbt.jit(lambda: nbt.tensor(0), **options(path))(), nbt.tensor(0))


def test_jit_raises_if_it_does_not_return_tensors(path):
    with pytest.raises(nbt.ArgumentError, match="a defn must return tensors"):
        nbt.jit(lambda: "ok", **options(path))()


def test_jit_uses_the_default_backend_on_iota():
    # Nx's test backend raises from iota; here the evaluator's iota lands on the default backend
    with nbt.default_backend(nbt.NumPyBackend()):
        assert isinstance(nbt.jit(lambda: nbt.iota((3, 3)), compiler="evaluator")().backend, nbt.NumPyBackend)
        assert isinstance(nbt.jit(jit_iota, compiler="evaluator")().backend, nbt.NumPyBackend)


def jit_iota():
    return nbt.iota((3, 3))


def test_nested_jit_and_compile_inline(path):
    # Nx raises for a jit or compiled function called while a jit compiles, unless
    # on_conflict: :force; numbat inlines it into the enclosing defn (untranslatable.DELIBERATE)
    def nested_jit():
        eleven = nbt.tensor(11)
        return nbt.jit(nbt.multiply)(eleven, eleven)

    def nested_compile():
        eleven = nbt.tensor(11)
        return nbt.compile(nbt.multiply, [eleven, eleven])(eleven, eleven)

    assert_same(nbt.jit(nested_jit, **options(path))(), nbt.tensor(121))
    assert_same(nbt.jit(nested_compile, **options(path))(), nbt.tensor(121))
