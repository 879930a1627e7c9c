"""Issue 40: what Nx users' programs met on numbat (value_and_grad's value, nested defns
under the Evaluator, global defaults, revectorize with no axes, errors that point the
right way, paths that agree). Each test failed before its fix."""

import warnings

import numpy as np
import pytest

import numbat as nbt


def test_value_and_grad_returns_the_output_itself_as_nx():
    value, gradient = nbt.value_and_grad(lambda t: t * t)(nbt.tensor([1.0, 3.0]))
    assert value.shape == (2,) and value.to_numpy().tolist() == [1.0, 9.0]
    assert gradient.to_numpy().tolist() == [2.0, 6.0]


@pytest.mark.parametrize("compiler", ["xla", "evaluator"])
def test_value_and_grad_inside_a_defn_returns_the_output(compiler):
    run = nbt.defn(lambda x: nbt.value_and_grad(lambda t: t * t)(x), compiler=compiler)
    value, gradient = run(nbt.tensor([1.0, 3.0]))
    assert value.to_numpy().tolist() == [1.0, 9.0] and gradient.to_numpy().tolist() == [2.0, 6.0]


@pytest.mark.parametrize("compiler", ["xla", "evaluator"])
def test_value_and_grad_transform_is_nx_three_argument_form(compiler):
    def fun(t):
        return nbt.sum(t * t), t + 1  # a loss and its auxiliary output

    run = nbt.defn(lambda x: nbt.value_and_grad(fun, transform=lambda out: out[0])(x), compiler=compiler)
    (loss, aux), gradient = run(nbt.tensor([1.0, 2.0]))
    assert nbt.to_number(loss) == 5.0
    assert aux.to_numpy().tolist() == [2.0, 3.0]
    assert gradient.to_numpy().tolist() == [2.0, 4.0]


def test_value_and_grad_transform_must_be_a_function():
    with pytest.raises(nbt.ArgumentError, match="transform"):
        nbt.value_and_grad(lambda t: t, transform=3)


def test_a_tuple_output_without_transform_is_still_refused():
    with pytest.raises(nbt.ArgumentError, match="expected a tensor or a number"):
        nbt.value_and_grad(lambda t: (t, t))(nbt.tensor(1.0))


@pytest.mark.parametrize("compiler", ["xla", "evaluator"])
def test_a_nested_defn_keeps_the_callers_python_numbers(compiler):
    inner = nbt.defn(lambda x, n: nbt.broadcast(x, (n,)), compiler=compiler)
    outer = nbt.defn(lambda x: inner(x, 3), compiler=compiler)
    assert outer(nbt.tensor(1.0)).shape == (3,)


def test_a_nested_defn_under_the_evaluator_on_the_numpy_backend():
    inner = nbt.defn(lambda x, n: nbt.broadcast(x, (n,)) * n, compiler="evaluator")
    outer = nbt.defn(lambda x: inner(x, 2), compiler="evaluator")
    with nbt.default_backend(nbt.NumPyBackend()):
        out = outer(nbt.tensor(1.5))
    assert out.to_numpy().tolist() == [3.0, 3.0]


def test_global_default_options_reach_an_existing_defn():
    double = nbt.defn(lambda t: t * 2)
    pinned = nbt.defn(lambda t: t * 2, compiler="xla")
    assert double(nbt.tensor(1.0)).to_numpy() == 2.0  # compiled under the old defaults
    previous = nbt.global_default_defn_options(compiler="evaluator")
    try:
        assert double.compiler == "evaluator"
        assert pinned.compiler == "xla"  # an option given to defn wins
        assert double(nbt.tensor(2.0)).to_numpy() == 4.0
    finally:
        nbt.global_default_defn_options(previous)
    assert double.compiler == "xla"


@pytest.mark.parametrize("axes", [[], ()])
def test_revectorize_with_no_axes_reshapes(axes):
    out = nbt.revectorize(nbt.iota((2, 3)), axes, target_shape=(6,))
    assert out.shape == (6,) and out.vectorized_axes == ()
    assert out.to_numpy().tolist() == list(range(6))


def test_revectorize_with_a_plain_tensors_own_axes():
    t = nbt.vectorize(nbt.iota((2, 3)), "x")
    out = nbt.revectorize(t, nbt.iota((1,)).vectorized_axes, target_shape=(3, 2))
    assert out.shape == (3, 2) and out.vectorized_axes == ()


def _error(fun, *args, **kwargs) -> str:
    with pytest.raises(nbt.ArgumentError) as info:
        fun(*args, **kwargs)
    return str(info.value)


def test_python_and_on_tensors_suggests_bitwise_operators():
    @nbt.defn
    def both(x, y):
        return (x > 0) and (y < 2)

    message = _error(both, nbt.tensor([1.0, 2.0]), nbt.tensor([1.0, 2.0]))
    assert "`&`, `|` and nbt.logical_not" in message


def test_numpy_function_inside_a_defn_suggests_the_numbat_op():
    @nbt.defn
    def exp(x):
        return np.exp(x)

    assert "np.exp(t) is nbt.exp(t)" in _error(exp, nbt.tensor([1.0, 2.0]))


def test_a_ragged_list_of_arrays_says_it_is_a_container():
    @nbt.defn
    def add(x, y):
        return x + y

    assert "nbt.stack" in _error(add, nbt.tensor(1.0), [np.zeros(2), np.zeros(3)])


def test_a_tensor_passed_as_keyword_says_options_are_static():
    @nbt.defn
    def add(x, y):
        return x + y

    message = _error(add, nbt.tensor(1.0), y=nbt.tensor(2.0))
    assert "keyword arguments are static options" in message and "positionally" in message
