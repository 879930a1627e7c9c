"""grad and value_and_grad through JAX's autodiff, checked against analytic derivatives."""

import numpy as np
import pytest

import numbat as nbt


def test_grad_of_polynomial_matches_analytic(backend):
    x = np.linspace(-2, 2, 7)
    g = nbt.grad(lambda t: nbt.sum(t**3 - 2 * t))(nbt.tensor(x, type="f64"))
    np.testing.assert_allclose(g.to_numpy(), 3 * x**2 - 2, rtol=1e-12)
    assert str(g.type) == "f64"


def test_grad_keeps_names_and_works_on_integer_inputs(backend):
    g = nbt.grad(lambda t: nbt.sum(nbt.exp(t)))(nbt.tensor([0, 1], names=["x"]))
    assert g.names == ("x",) and str(g.type) == "f32"
    np.testing.assert_allclose(g.to_numpy(), np.exp([0.0, 1.0]), rtol=1e-6)


def test_value_and_grad_with_argnums():
    value, (ga, gb) = nbt.value_and_grad(lambda a, b: nbt.sum(a * b), argnums=(0, 1))(
        nbt.tensor([1.0, 2.0]), nbt.tensor([3.0, 4.0])
    )
    assert nbt.to_number(value) == 11.0
    assert ga.to_numpy().tolist() == [3.0, 4.0] and gb.to_numpy().tolist() == [1.0, 2.0]


def test_grad_of_softmax_cross_entropy_matches_closed_form():
    logits = np.array([0.5, -1.0, 2.0])

    def loss(t):
        return -nbt.log(nbt.exp(t[2]) / nbt.sum(nbt.exp(t)))

    g = nbt.jit(nbt.grad(loss))(nbt.tensor(logits, type="f64"))
    softmax = np.exp(logits) / np.exp(logits).sum()
    np.testing.assert_allclose(g.to_numpy(), softmax - np.eye(3)[2], rtol=1e-12)


def test_grad_of_a_non_scalar_output_is_the_grad_of_its_sum():
    g = nbt.grad(lambda t: t * t)(nbt.tensor([1.0, 2.0]))
    np.testing.assert_array_equal(g.to_numpy(), [2.0, 4.0])


def test_grad_needs_a_float_output():
    with pytest.raises(nbt.ArgumentError, match=r"grad needs a function returning a float tensor, got s32\[2\]"):
        nbt.grad(lambda t: nbt.as_type(t, "s32"))(nbt.tensor([1.0, 2.0]))


@pytest.mark.parametrize("window", [nbt.window_max, nbt.window_min, nbt.window_sum])
def test_grad_of_a_window_reduction_inside_a_defn(window):
    # A window reduction with a traced init value is not differentiable in JAX; numbat's is.
    x = nbt.tensor(np.arange(16.0).reshape(1, 4, 4))
    grad = nbt.defn(lambda t: nbt.grad(lambda u: nbt.sum(window(u, (1, 2, 2), strides=(1, 2, 2))))(t))(x)
    expected = {nbt.window_sum: np.ones((4, 4)), nbt.window_max: np.kron(np.ones((2, 2)), [[0, 0], [0, 1]])}
    expected[nbt.window_min] = np.kron(np.ones((2, 2)), [[1, 0], [0, 0]])
    np.testing.assert_array_equal(grad.to_numpy()[0], expected[window])
