"""Nx 0.13.1 `nx/test/nx/defn_test.exs`, describes "transform", "jit" and "compile",
ported: `nbt.jit`, `nbt.jit_apply` and `nbt.compile` on the evaluator and XLA."""

import pytest

import numbat as nbt

from ._support import assert_same, run, run_defn

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
