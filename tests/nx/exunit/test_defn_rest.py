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


# describe "local functions" and "remote functions": a Python function and another defn,
# called from a defn.


def test_local_functions(path):
    def add_two_impl(a, b):
        return a + b

    assert_same(run_defn(path, lambda a, b: add_two_impl(a, b), 1, 2), nbt.tensor(3))
    assert_same(run_defn(path, lambda a, b: _add_two_private(a, b), 1, 2), nbt.tensor(3))


def _add_two_private(a, b):
    return a + b


def test_remote_defn(path):
    remote = nbt.defn(lambda c, d: c + d)
    assert_same(run_defn(path, lambda a, b: remote(a, b), 1, 2), nbt.tensor(3))
    dynamic = lambda a, b, remote=None: remote(a, b)
    assert_same(call_defn(path, dynamic, 1, 2, remote=remote), nbt.tensor(3))


def test_plain_python_functions_and_print_inside_defn(path, capsys):
    # Nx refuses a remote function not defined with defn, and IO.inspect, inside a defn; numbat
    # traces any Python function of numbat ops, and print shows the tensor being traced
    # (untranslatable.DELIBERATE).
    def not_defn(a, b):
        return nbt.add(a, b)

    def add_two_io(a, b):
        print((a, b))
        return not_defn(a, b)

    assert_same(run_defn(path, add_two_io, 1, 2), nbt.tensor(3))
    assert "numbat.Tensor<" in capsys.readouterr().out


# describe "case/2" and "raise/2": Python conditionals on the (static) shapes; a Python
# exception raised while the defn traces reaches the caller as it is.


def simple_rank(tensor):
    return {(): 0, 1: 1, 2: 2}.get(tensor.shape if tensor.shape == () else len(tensor.shape))


def test_case_matches_shapes(path):
    assert_same(run_defn(path, lambda t: simple_rank(t), 123), nbt.tensor(0))
    assert_same(run_defn(path, lambda t: simple_rank(t), nbt.tensor([1, 2, 3])), nbt.tensor(1))
    assert_same(run_defn(path, lambda t: simple_rank(t), nbt.tensor([[1, 2, 3]])), nbt.tensor(2))


def test_case_matches_tuples_shapes(path):
    ranks = {((), ()): 0, ((3,), ()): -1, ((), (3,)): 1}
    tuple_rank = lambda a, b: ranks[(a.shape, b.shape)]
    assert_same(run_defn(path, tuple_rank, 0, 0), nbt.tensor(0))
    assert_same(run_defn(path, tuple_rank, nbt.tensor([1, 2, 3]), 0), nbt.tensor(-1))
    assert_same(run_defn(path, tuple_rank, 0, nbt.tensor([1, 2, 3])), nbt.tensor(1))


def test_case_matches_using_guards(path):
    def guard_rank(tensor):
        x, y = tensor.shape
        return 0 if x == y else -1 if x > y else 1

    assert_same(run_defn(path, guard_rank, nbt.iota((2, 2))), nbt.tensor(0))
    assert_same(run_defn(path, guard_rank, nbt.iota((3, 2))), nbt.tensor(-1))
    assert_same(run_defn(path, guard_rank, nbt.iota((2, 3))), nbt.tensor(1))


def square_side(error):
    def side(tensor):
        n, m = tensor.shape
        if n != m:
            raise error(f"expected a square tensor: {tensor.shape}")
        return n

    return side


@pytest.mark.parametrize("error", [nbt.ArgumentError, RuntimeError])
def test_raise(path, error):
    assert_same(run_defn(path, square_side(error), nbt.iota((4, 4))), nbt.tensor(4))
    # numbat's message goes on to name the defn and its inputs.
    with pytest.raises(error, match=r"^expected a square tensor: \(4, 3\)"):
        run_defn(path, square_side(error), nbt.iota((4, 3)))


# describe "default arguments": Python defaults; keyword arguments are static options.


def sum_axis_opts(a, axes=None):
    return nbt.sum(a, axes=axes)


def test_default_arguments_are_supported(path):
    t = nbt.tensor([[1, 2], [3, 4]])
    assert_same(call_defn(path, sum_axis_opts, t), nbt.tensor(10))
    assert_same(call_defn(path, sum_axis_opts, t, axes=[0]), nbt.tensor([4, 6]))
    assert_same(call_defn(path, sum_axis_opts, t, axes=[1]), nbt.tensor([3, 7]))


def test_default_arguments_accept_any_valid_defn_value(path):
    id_default = lambda empty=(): empty
    assert call_defn(path, id_default) == ()
    assert_same(call_defn(path, id_default, 1), nbt.tensor(1))
    assert_same(call_defn(path, id_default, (1,)), (nbt.tensor(1),))


def test_default_arguments_can_be_called_within_defn(path):
    t = nbt.tensor([[1, 2], [3, 4]])
    assert_same(run_defn(path, lambda a: sum_axis_opts(a), t), nbt.tensor(10))
    remote = nbt.defn(sum_axis_opts)
    assert_same(run_defn(path, lambda a: remote(a), t), nbt.tensor(10))


def test_default_arguments_exclusively(path):
    iota_opts = lambda **opts: nbt.iota((1,), **opts)
    assert str(call_defn(path, iota_opts).type) == "s32"
    assert str(call_defn(path, iota_opts, type="f64").type) == "f64"


def test_default_arguments_have_their_own_cache_key():
    # Nx's Debug compiler caches per option; numbat's compiled defns do (the evaluator compiles nothing).
    t = nbt.tensor([[1, 2], [3, 4]])
    sum_axis_expr = nbt.jit(lambda a, axes=None: nbt.sum(a, axes=axes))
    sum_axis_expr(t, axes=[0])
    assert nbt.is_cached(sum_axis_expr, [t], axes=[0]) and not nbt.is_cached(sum_axis_expr, [t], axes=[1])
    sum_axis_expr(t, axes=[1])
    assert nbt.is_cached(sum_axis_expr, [t], axes=[0]) and nbt.is_cached(sum_axis_expr, [t], axes=[1])


def test_private_definitions(path):
    assert_same(run_defn(path, _add_two_private, 1, 2), nbt.tensor(3))
    assert_same(run_defn(path, lambda a, b: _add_two_private(a, b), 1, 2), nbt.tensor(3))


# describe "deftransform": a Python function called while the defn traces, on Python values
# (the defn's static options) or on tensors.


def test_deftransform_called_from_defn(path):
    sent = []

    def transformation(b=None, c=None):
        if b is None or c is None:
            raise RuntimeError("missing :b or :c")
        return b, c

    def deftransform_test(a, b, /, **opts):
        c, d = transformation(**opts)
        sent.extend([c, d])
        return (a + c) * (b + d)

    result = call_defn(path, deftransform_test, nbt.tensor(1), nbt.tensor(2), b=3, c=4)
    assert_same(result, nbt.tensor(24))
    assert sent == [3, 4]


def test_transforms_with_default_arguments(path):
    def default_args(*args):
        arg1, arg2, arg3 = {1: (1, *args, 3), 2: (*args, 3), 3: args}[len(args)]
        return arg1, arg2, arg3

    public_default_args = lambda arg1, arg2=2: (arg1, arg2)
    remote_with_defaults = lambda x, y=0: nbt.add(x, y)
    tensors = lambda *values: tuple(nbt.tensor(value) for value in values)
    assert_same(run_defn(path, lambda x: default_args(x), 20), tensors(1, 20, 3))
    assert_same(run_defn(path, lambda x, y: default_args(x, y), 10, 20), tensors(10, 20, 3))
    assert_same(run_defn(path, lambda x, y, z: default_args(x, y, z), 10, 20, 30), tensors(10, 20, 30))
    assert_same(run_defn(path, lambda x: public_default_args(x), 10), tensors(10, 2))
    assert_same(run_defn(path, lambda x, y: public_default_args(x, y), 10, 20), tensors(10, 20))
    assert_same(run_defn(path, lambda x: remote_with_defaults(x), 1), nbt.tensor(1))
    assert_same(run_defn(path, lambda x: remote_with_defaults(x, x + 1), 1), nbt.tensor(3))


def test_transform_of_a_function_or_numbers(path):
    def multi_clause_transform(x, y):
        return y(x) if callable(y) else x**y

    assert_same(run_defn(path, lambda x: multi_clause_transform(x, lambda v: v + v), 2), nbt.tensor(4))
    second = lambda x=None, y=None: multi_clause_transform(x, y)
    assert_same(call_defn(path, second, x=2, y=3), nbt.tensor(8))


# describe "boolean values": comparisons and logical ops of booleans and 0/1 give u8.


@pytest.mark.parametrize("left", [True, False, 1, 0])
@pytest.mark.parametrize("right", [True, False, 1, 0])
def test_supports_booleans(path, left, right):
    def supports_booleans(l, r):
        return nbt.stack(
            [l < r, l <= r, l > r, l >= r, l == r, l != r]
            + [nbt.logical_and(l, r), nbt.logical_or(l, r), nbt.logical_not(l), nbt.logical_not(r)]
        )

    ln, rn = int(bool(left)), int(bool(right))
    expected = [ln < rn, ln <= rn, ln > rn, ln >= rn, ln == rn, ln != rn, ln and rn, ln or rn, not ln, not rn]
    result = run_defn(path, supports_booleans, left, right)
    assert_same(result, nbt.tensor([int(bool(value)) for value in expected], type="u8"))


# describe "metadata": stop_grad of vectorized tensors and of a tuple (the values; Nx's
# inspect of the expression is untranslatable).


def test_metadata_supports_vectorization(path):
    # Nx.iota({2}, vectorized_axes: ...): every entry is [0, 1].
    x = nbt.vectorize(nbt.broadcast(nbt.iota((2,)), (1, 2, 2)), [("x", 1), ("y", 2)])
    y = nbt.vectorize(nbt.broadcast(nbt.iota((2,)), (2, 1, 2)), [("x", 2), ("y", 1)])
    z = nbt.tensor([1])
    vectorized_metadata = lambda x, y: nbt.stop_grad(x) + y

    def vectorized_metadata_tuple(x, y):
        x, y = nbt.stop_grad((x, y))
        return x + y

    vectorized_result = nbt.vectorize(nbt.tensor([[[0, 2], [0, 2]], [[0, 2], [0, 2]]]), [("x", 2), ("y", 2)])
    assert_same(run_defn(path, vectorized_metadata, x, y), vectorized_result)
    assert_same(run_defn(path, vectorized_metadata_tuple, x, y), vectorized_result)
    vec_nonvec_result = nbt.vectorize(nbt.tensor([[[1, 2], [1, 2]]]), [("x", 1), ("y", 2)])
    assert_same(run_defn(path, vectorized_metadata, x, z), vec_nonvec_result)
    assert_same(run_defn(path, vectorized_metadata_tuple, x, z), vec_nonvec_result)
