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


# --- Nx's automatic-differentiation guide (nx/guides/advanced/automatic_differentiation.livemd),
# its cells as printed: the value keeps the function's own type; the gradient is a float.

GUIDE_X = [[1, 1], [2, 3], [5, 8]]
GUIDE_F = [[2, 2], [10, 30], [130, 520]]  # x ** 3 + x
GUIDE_GRAD = [[4.0, 4.0], [13.0, 28.0], [76.0, 193.0]]  # 3 x ** 2 + 1


def _guide_f(x):
    return x**3 + x


def test_nx_guide_f_and_grad_f_of_an_integer_tensor():
    # {Math.f(x), Math.grad_f(x)}: s32 then f32 ("the type of the grad ... will always be a floating-point number")
    f = nbt.defn(_guide_f)
    grad_f = nbt.defn(lambda x: nbt.grad(f)(x))
    x = nbt.tensor(GUIDE_X)
    value, gradient = f(x), grad_f(x)
    assert (str(value.type), value.to_numpy().tolist()) == ("s32", GUIDE_F)
    assert (str(gradient.type), gradient.to_numpy().tolist()) == ("f32", GUIDE_GRAD)


@pytest.mark.parametrize("where", ["eager", "defn", "jit"])
def test_nx_guide_value_and_grad_keeps_the_functions_integer_type(where):
    # Nx.Defn.value_and_grad(x, &Math.f/1) gives {s32[3][2] [[2, 2], [10, 30], [130, 520]], f32[3][2] ...}
    f = nbt.defn(_guide_f)
    call = {"eager": nbt.value_and_grad(f), "defn": nbt.defn(lambda x: nbt.value_and_grad(f)(x))}
    call["jit"] = nbt.jit(nbt.value_and_grad(_guide_f))
    value, gradient = call[where](nbt.tensor(GUIDE_X))
    assert (str(value.type), value.shape, value.to_numpy().tolist()) == ("s32", (3, 2), GUIDE_F)
    assert (str(gradient.type), gradient.to_numpy().tolist()) == ("f32", GUIDE_GRAD)


def test_nx_guide_debug_expr_of_value_and_grad_shows_the_value_in_its_type():
    # Nx.Defn.debug_expr(Nx.Defn.value_and_grad(&Math.f/1)).(x): a tuple of the s32 value and the f32 grad
    text = str(nbt.debug_expr(nbt.value_and_grad(nbt.defn(_guide_f)))(nbt.tensor(GUIDE_X)))
    value_line = next(line for line in text.splitlines() if "= value [" in line)
    grad_line = next(line for line in text.splitlines() if "= grad [" in line)
    assert value_line.endswith("s32[3][2]") and grad_line.endswith("f32[3][2]"), text
    assert "pow [ h, 3 ]" in text  # the value's own graph computes on the integers


def test_nx_guide_value_and_grad_with_a_transform_keeps_both_values_integer():
    # {{x_cubed, x}, grad} = Nx.Defn.value_and_grad(x, fn x -> {Nx.pow(x, 3), x} end, transform_fn)
    (x_cubed, x), gradient = nbt.value_and_grad(lambda x: (nbt.pow(x, 3), x), transform=lambda out: out[0] + out[1])(
        nbt.tensor(GUIDE_X)
    )
    assert (str(x_cubed.type), x_cubed.to_numpy().tolist()) == ("s32", [[1, 1], [8, 27], [125, 512]])
    assert (str(x.type), x.to_numpy().tolist()) == ("s32", GUIDE_X)
    assert (str(gradient.type), gradient.to_numpy().tolist()) == ("f32", GUIDE_GRAD)


def test_value_and_grad_of_an_integer_input_is_exact_where_a_float_would_round():
    # 1001 ** 3 = 1003003001 has no f32: the value is computed on the integers, as Nx computes it
    value, gradient = nbt.value_and_grad(lambda x: x**3)(nbt.tensor([1001]))
    assert (str(value.type), value.to_numpy().tolist()) == ("s32", [1003003001])
    assert gradient.to_numpy().tolist() == [3 * 1001.0**2]


def test_value_and_grad_of_a_float_function_of_an_integer_input_is_unchanged():
    value, gradient = nbt.value_and_grad(lambda x: nbt.sum(nbt.exp(x)))(nbt.tensor([0, 1]))
    assert str(value.type) == "f32" and str(gradient.type) == "f32"
    np.testing.assert_allclose(gradient.to_numpy(), np.exp([0.0, 1.0]), rtol=1e-6)


@pytest.mark.parametrize("transform", [nbt.grad, nbt.value_and_grad])
def test_grad_takes_a_list_of_numbers_as_a_defn_does(transform):
    def sq(a):
        return nbt.sum(a * a)

    assert nbt.to_number(nbt.defn(sq)([1.0, 2.0])) == 5.0
    result = transform(sq)([1.0, 2.0])
    gradient = result[1] if transform is nbt.value_and_grad else result
    assert (str(gradient.type), gradient.to_numpy().tolist()) == ("f32", [2.0, 4.0])


@pytest.mark.parametrize("transform", [nbt.grad, nbt.value_and_grad])
def test_keyword_arguments_to_a_differentiated_function_are_a_numbat_error(transform):
    t = nbt.tensor([1.0, 2.0])
    with pytest.raises(nbt.ArgumentError, match=r"by position, as Nx's does; got keyword argument\(s\) y: pass"):
        transform(lambda a, y: nbt.sum(a * y))(t, y=t)


@pytest.mark.parametrize("transform", [nbt.grad, nbt.value_and_grad])
def test_a_freed_tensor_is_a_numbat_error(transform):
    # Before, JAX's RuntimeError "Array has been deleted with shape=float32[2]" came out.
    freed = nbt.tensor([1.0, 2.0], backend=nbt.XLABackend())
    nbt.backend_deallocate(freed)
    with pytest.raises(nbt.ArgumentError, match=r"argument 1 \(f32\[2\]\) was freed by nbt.backend_deallocate"):
        transform(lambda a, b: nbt.sum(a * b["w"]))(nbt.tensor([1.0, 1.0]), {"w": freed})
