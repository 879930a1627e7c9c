"""Nx 0.13.1 `nx/test/nx/defn_test.exs`, the rest of it: constants, containers as
arguments, unary and binary ops, local and remote functions, case/2 and raise/2,
default arguments, deftransform, boolean values and metadata.

As in test_defn.py, Nx runs these defns under `Nx.Defn.Debug` and matches the `%Expr{}`
structs they build; the port runs each defn (on the evaluator over each backend, and
compiled) and asserts what the match says of the result (shape, type, names) with its
values. Elixir's function heads, macros, pattern matches and compile errors are Python's
own here (untranslatable.py).
"""

import math

import pytest

import numbat as nbt

from ._support import BACKENDS, _on_backend, assert_all_close, assert_same, run_defn


def template(tensor):
    return (tensor.shape, str(tensor.type), tensor.names)


def call_defn(path, fun, *args, **keywords):
    """`fun` as a defn on `path` (as run_defn), called with keyword arguments: Nx's `opts`,
    static arguments of the defn."""
    if path == "jit":
        return nbt.jit(fun)(*args, **keywords)
    backend = BACKENDS[path]()
    with nbt.default_backend(backend):
        return nbt.defn(fun, compiler="evaluator")(*_on_backend(args, backend), **keywords)


# describe "constants"


def test_from_list(path):
    assert_same(run_defn(path, lambda: nbt.tensor([1, 2, 3])), nbt.tensor([1, 2, 3]))


def test_from_binary(path):
    binary = nbt.to_binary(nbt.tensor([1, 2, 3]))
    assert_same(run_defn(path, lambda: nbt.from_binary(binary, "s32")), nbt.tensor([1, 2, 3]))


def test_complex_literals(path):
    result = run_defn(path, lambda: nbt.tensor(complex(1, math.inf)))
    assert_same(result, nbt.tensor(complex(1, math.inf), type="c64"))


def real_constants(x):
    clauses = [(x == 0, lambda: nbt.constants.e(x.type)), (x == 1, lambda: nbt.constants.pi(x.type))]
    return nbt.cond(clauses, lambda: x)


@pytest.mark.parametrize("type_", ["f8", "f16", "f32", "f64", "c64", "c128"])
def test_real_constants_take_the_input_type(path, type_):
    # Nx matches the cond's clauses: e and pi as constants of the input's type.
    for value, expected in ((0, math.e), (1, math.pi), (10, 10.0)):
        result = run_defn(path, lambda x: real_constants(x), nbt.tensor(value, type=type_))
        assert_same(result, nbt.tensor(expected, type=type_))


@pytest.mark.parametrize(
    "type_, expected",
    [("f8", "c64"), ("f16", "c64"), ("f32", "c64"), ("f64", "c128"), ("c64", "c64"), ("c128", "c128")],
)
def test_imaginary_constant(path, type_, expected):
    result = run_defn(path, lambda x: x * nbt.constants.i(), nbt.tensor(10.0, type=type_))
    assert_same(result, nbt.tensor(complex(0, 10), type=expected))


# describe "Nx.tensor"


def test_does_not_warn_on_negative_values(path):
    assert_same(run_defn(path, lambda: nbt.tensor(1) + nbt.tensor(-1)), nbt.tensor(0))


# describe "tuple" and "map": containers as arguments, taken apart in the signature or the body.


def test_tuple_arguments(path):
    assert_same(run_defn(path, lambda pair: pair[0] + pair[1], (1, 2.0)), nbt.tensor(3.0))

    def alias(var):
        a, b = var
        return a + b

    assert_same(run_defn(path, alias, (1, 2.0)), nbt.tensor(3.0))
    nested = lambda t: t[0] + t[1][0] + t[1][1]
    assert_same(run_defn(path, nested, (1, (2.0, 3.0))), nbt.tensor(6.0))


def test_map_arguments(path):
    assert_same(run_defn(path, lambda m: m["a"] + m["b"], {"a": 1, "b": 2.0}), nbt.tensor(3.0))
    result = run_defn(path, lambda a, b: {"add": a + b, "subtract": a - b}, 1, 2.0)
    assert_same(result, {"add": nbt.tensor(3.0), "subtract": nbt.tensor(-1.0)})
    result = run_defn(path, lambda m: {**m, "b": m["a"] + m["b"]}, {"a": 1, "b": 2.0})
    assert_same(result, {"a": nbt.tensor(1), "b": nbt.tensor(3.0)})


def test_keeps_map_ordering_across_different_sizes(path):
    size = 50
    given = {str(i): nbt.iota((i,)) for i in range(1, size + 1)}

    def verify_maps(tensors):
        assert [value.shape for value in tensors.values()] == [(int(key),) for key in tensors]
        return tensors

    result = run_defn(path, verify_maps, given)
    assert sorted(result) == sorted(given)
    for key, value in result.items():
        assert value.shape == (int(key),)


# describe "anonymous functions args": functions are static arguments of the defn.


def test_anonymous_function_arguments(path):
    calls_binary_fun = lambda fun, a, b: fun(a, b)
    assert_same(run_defn(path, calls_binary_fun, nbt.add, 1, 2.0), nbt.tensor(3.0))
    result = run_defn(path, lambda fun, t: nbt.reduce(t, 0, fun), nbt.add, nbt.tensor([1, 2, 3]))
    assert_same(result, nbt.tensor(6))
    calls_binary_funs = lambda funs, a, b: (funs[0](a, b), funs[1](a, b))
    result = run_defn(path, calls_binary_funs, (nbt.add, nbt.subtract), 1, 2.0)
    assert_same(result, (nbt.tensor(3.0), nbt.tensor(-1.0)))


# describe "unary ops" and "binary ops" and "aggregate axes ops": the types and shapes.


def test_unary_to_expr(path):
    for type_, expected in ((None, "f32"), ("f32", "f32"), ("bf16", "bf16")):
        result = run_defn(path, nbt.exp, nbt.tensor([1, 2, 3], type=type_))
        assert template(result) == ((3,), expected, (None,))
        assert_all_close(
            result, nbt.tensor([math.exp(1), math.exp(2), math.exp(3)]), rtol=1e-2 if type_ == "bf16" else 1e-6
        )


def test_unary_plus_and_minus_on_options(path):
    def unary_plus_minus(value=None):
        return -1 if value == -2 else 1 if value == +2 else None

    assert_same(call_defn(path, unary_plus_minus, value=-2), nbt.tensor(-1))
    assert_same(call_defn(path, unary_plus_minus, value=2), nbt.tensor(1))


def test_binary_to_expr(path):
    m = [[1, 2], [3, 4]]
    assert_same(run_defn(path, nbt.add, nbt.tensor([1, 2, 3]), nbt.tensor(1)), nbt.tensor([2, 3, 4]))
    assert_same(run_defn(path, nbt.add, nbt.tensor(m), nbt.tensor([1, 2])), nbt.tensor([[2, 4], [4, 6]]))
    expected = nbt.tensor([[2.0, 4.0], [4.0, 6.0]])
    assert_same(run_defn(path, nbt.add, nbt.tensor(m, type="f32"), nbt.tensor([1, 2])), expected)
    assert_same(run_defn(path, nbt.add, nbt.tensor(m, type="f32"), nbt.tensor([1, 2], type="s32")), expected)


def test_binary_constant(path):
    add_two = lambda t: nbt.add(t, 2)
    assert_same(run_defn(path, add_two, nbt.tensor([1, 2, 3], type="u8")), nbt.tensor([3, 4, 5], type="u8"))
    assert_same(run_defn(path, add_two, nbt.tensor([1, 2, 3], type="bf16")), nbt.tensor([3, 4, 5], type="bf16"))


def test_aggregate_axes_to_expr(path):
    row = [[1, 2, 3], [1, 2, 3]]
    sum_pos = lambda t: nbt.sum(t, axes=[0, 1])
    sum_neg = lambda t: nbt.sum(t, axes=[-1, -2])
    assert_same(run_defn(path, nbt.sum, nbt.tensor([1, 2, 3])), nbt.tensor(6))
    assert_same(run_defn(path, sum_pos, nbt.tensor(row, type="s8")), nbt.tensor(12))
    assert_same(run_defn(path, sum_pos, nbt.tensor([row], type="f32")), nbt.tensor([2.0, 4.0, 6.0]))
    assert_same(run_defn(path, sum_neg, nbt.tensor(row, type="u8")), nbt.tensor(12, type="u32"))
    assert_same(run_defn(path, sum_neg, nbt.tensor([row], type="bf16")), nbt.tensor([12], type="bf16"))
    result = run_defn(path, lambda t: nbt.sum(t, axes=[0, 1], keep_axes=True), nbt.tensor([row], type="f32"))
    assert_same(result, nbt.tensor([[[2.0, 4.0, 6.0]]]))
