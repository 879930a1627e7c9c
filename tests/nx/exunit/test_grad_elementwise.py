"""Nx 0.13.1 nx/test/nx/defn/grad_test.exs, lines 1990-2163 and 2909-3091: the unary
functions, "tan", the inverse trig and hyperbolic functions, "erf", "erfc", "erf_inv",
"abs", "max", "min", "select rule", "as_type/bitcast". Nx's random points are fixed
points in the same ranges."""

import pytest

import numbat as nbt

from ._support import assert_all_close, assert_same, check_grads, run

TYPES = ("f64", "c128")


def points(low, high, type_, fractions=(0.03, 0.21, 0.5, 0.77, 0.96)):
    return [nbt.tensor(low + (high - low) * f, type=type_) for f in fractions]


def check(path, fun, x, **tolerances):
    check_grads(lambda t: run(path, fun, t), lambda t: run(path, nbt.grad(fun), t), x, **tolerances)


UNARY = ["cbrt", "cos", "exp", "expm1", "log", "log1p", "sigmoid"] + [
    "mean",
    "negate",
    "rsqrt",
    "sin",
    "sqrt",
    "sum",
    "tanh",
]


@pytest.mark.parametrize("fun", UNARY)
def test_unary_computes_gradient(path, fun):
    for type_ in TYPES:
        for t in points(0.1, 10.0, type_):
            check(path, getattr(nbt, fun), t)


@pytest.mark.parametrize("fun", ["real", "imag", "conjugate"])
def test_complex_parts_computes_gradient(path, fun):
    for t in points(0.1, 10.0, "c128"):
        check(path, getattr(nbt, fun), t)


def test_tan_computes_gradient(path):
    for type_ in TYPES:
        for multiplier, offset in [(0, -1.2), (1, 0.3), (4, 1.4), (7, -0.6), (10, 0.9)]:
            t = nbt.add(nbt.multiply(3.14159, nbt.tensor(multiplier, type="u32")), nbt.tensor(offset, type=type_))
            check(path, nbt.tan, t)


def test_inverse_trig_family_computes_gradient_of_inverse_trig_functions(path):
    for type_ in TYPES:
        for t in points(-0.999, 0.999, type_):
            check(path, nbt.asin, t, atol=1.0e-5, rtol=1.0e-2)
            check(path, nbt.atan, t, atol=0.1, rtol=1.0e-2)
            check(path, nbt.atan, nbt.multiply(1000.0, t), atol=1.0e-2)


def test_inverse_trig_family_computes_gradient_for_acos(path):
    for type_ in TYPES:
        for t in points(-0.999, 0.999, type_):
            expected = nbt.negate(nbt.rsqrt(nbt.add(nbt.negate(nbt.pow(t, 2)), 1)))
            assert_all_close(run(path, nbt.grad(nbt.acos), t), expected)


def test_hyperbolics_computes_gradient(path):
    for type_ in TYPES:
        for t in points(-10, 10, type_):
            check(path, nbt.sinh, t)
            check(path, nbt.cosh, t)


def test_inverse_hyperbolic_functions_computes_gradient_of_inverse_hyperbolic_functions(path):
    for type_ in TYPES:
        for t in points(-100.0, 100.0, type_):
            check(path, nbt.asinh, t, atol=1.0e-5, rtol=1.0e-2)
        for t in points(1.01, 100.0, type_):
            check(path, nbt.acosh, t, atol=1.0e-5, rtol=1.0e-2)
        for t in points(-0.999, 0.999, type_):
            check(path, nbt.atanh, t, atol=1.0e-5, rtol=1.0e-2)


def test_erf_computes_the_gradient(path):
    for t in points(-100.0, 100.0, "f64", (0.03, 0.21, 0.495, 0.5, 0.503, 0.77, 0.96)):
        check(path, nbt.erf, t, atol=1.0e-5, rtol=1.0e-2)


def test_erfc_computes_the_gradient(path):
    for t in points(-100.0, 100.0, "f64", (0.03, 0.21, 0.495, 0.5, 0.503, 0.77, 0.96)):
        check(path, nbt.erfc, t, atol=1.0e-4)


@pytest.mark.parametrize(
    ("name", "low", "high"),
    [
        ("computes gradient close to 0.0", 0.0, 0.9),
        ("computes gradient between 0.9 and 0.95", 0.9, 0.95),
        ("computes gradient between 0.95 and 0.98", 0.95, 0.98),
    ],
)
def test_erf_inv_computes_gradient(path, name, low, high):
    for t in points(low, high, "f64"):
        check(path, nbt.erf_inv, t, atol=1.0e-5, rtol=1.0e-2)


def test_erf_inv_computes_gradient_approaching_1_0_but_is_sharply_curved(path):
    coords = [(0.9, 3.43), (0.98, 13.26), (0.99, 24.45), (0.991, 26.85), (0.992, 29.84)]
    coords += [(0.993, 33.64), (0.994, 38.64), (0.995, 45.56), (0.999, 198.94)]
    for x, y in coords:
        assert abs(nbt.to_number(run(path, nbt.grad(nbt.erf_inv), nbt.tensor(x))) - y) <= 0.01


# describe "abs"


def grad_abs(t):
    return nbt.grad(lambda t: nbt.sum(nbt.abs(t)))(t)


def grad_abs_squared(t):
    return nbt.grad(lambda t: nbt.pow(nbt.abs(t), 2))(t)


def grad_cos_abs_sin(t):
    return nbt.grad(lambda t: nbt.sum(nbt.cos(nbt.abs(nbt.sin(t)))))(t)


def test_abs_computes_gradient_with_scalars(path):
    for t in points(0.0, 1000.0, "f64"):
        check(path, nbt.abs, t)


def test_abs_computes_gradient_with_tensors(path):
    assert_same(run(path, grad_abs, nbt.tensor([[1.0, 2.0], [3.0, 4.0]])), nbt.tensor([[1.0, 1.0], [1.0, 1.0]]))
    assert_same(run(path, grad_abs, nbt.tensor([[-1.0, 2.0], [-3.0, 4.0]])), nbt.tensor([[-1.0, 1.0], [-1.0, 1.0]]))


def test_abs_works_with_complex(path):
    assert_all_close(run(path, grad_abs, nbt.tensor([0, complex(0, 1), 2])), nbt.tensor([0, complex(0, -1), 1]))
    assert_all_close(run(path, grad_abs_squared, nbt.tensor([0, 1, 2])), nbt.tensor([0, 2, 4]))
    assert_all_close(
        run(path, grad_abs_squared, nbt.tensor([0, complex(0, 1), 2, complex(0, -3)])),
        nbt.tensor([0, complex(0, -2), 4, complex(0, 6)]),
    )
    t = nbt.tensor([0, complex(1, 1), complex(2, +2), complex(3, +3)])
    assert_all_close(
        run(path, grad_abs, t),
        nbt.tensor([0, complex(0.7071, -0.7071), complex(0.7071, -0.7071), complex(0.7071, -0.7071)]),
    )
    assert_all_close(
        run(path, grad_cos_abs_sin, t),
        nbt.tensor(
            [0, complex(-0.3120795, +1.2447729), complex(-0.05693477, -2.053038), complex(-0.00780554, -5.6348686)]
        ),
    )


# describe "max", "min"


def grad_max(t):
    return nbt.grad(lambda t: nbt.sum(nbt.max(nbt.pow(t, 2), nbt.pow(t, 3))))(t)


def grad_min(t):
    return nbt.grad(lambda t: nbt.sum(nbt.min(nbt.pow(t, 2), nbt.pow(t, 3))))(t)


def test_max_computes_gradient_with_tensors(path):
    assert_same(run(path, grad_max, nbt.tensor([[1.0], [2.0], [3.0]])), nbt.tensor([[2.5], [12.0], [27.0]]))
    assert_same(
        run(path, grad_max, nbt.tensor([[1.25, 2.5, 2.75], [1.0, 4.0, 6.0], [2.0, 3.0, 2.0]])),
        nbt.tensor([[4.6875, 18.75, 22.6875], [2.5, 48.0, 108.0], [12.0, 27.0, 12.0]]),
    )


def test_min_computes_gradient_with_tensors(path):
    assert_same(run(path, grad_min, nbt.tensor([[1.0], [2.0], [3.0]])), nbt.tensor([[2.5], [4.0], [6.0]]))
    assert_same(
        run(path, grad_min, nbt.tensor([[1.25, 2.5, 2.75], [1.0, 4.0, 6.0], [2.0, 3.0, 2.0]])),
        nbt.tensor([[2.5, 5.0, 5.5], [2.5, 8.0, 12.0], [4.0, 6.0, 4.0]]),
    )


# describe "select rule"


def grad_sum_select(t):
    return nbt.grad(lambda t: nbt.sum(nbt.select(nbt.greater(t, 0.0), nbt.exp(t), nbt.cos(t))))(t)


def grad_sum_select_2by2(t):
    mask = nbt.tensor([[1, 1], [1, 0]], type="u8")
    return nbt.grad(lambda t: nbt.sum(nbt.select(mask, nbt.exp(t), nbt.cos(t))))(t)


def grad_max_select(t):
    return nbt.grad(lambda t: nbt.reduce_max(nbt.select(nbt.greater(t, 0.0), nbt.exp(t), nbt.cos(t))))(t)


def grad_sum_select_sum(t):
    def f(t):
        s = nbt.sum(t, axes=[0])
        return nbt.sum(nbt.select(nbt.greater(s, 0.0), s, 0.0))

    return nbt.grad(f)(t)


def leaky_relu(t):
    return nbt.select(t > 0, t, t * 0.1)


def grad_nested_select(t):
    return nbt.grad(lambda t: nbt.sum(leaky_relu(leaky_relu(t))))(t)


def grad_pred_select(t):
    return nbt.grad(lambda t: nbt.sum(nbt.select(t * t, 1.0, -1.0)))(t)


SELECT_INPUT = nbt.tensor([[-2.0, 1.0, 0.0, 3.0, -3.0], [1.0, 2.0, 0.0, 5.0, -1.0]])


def test_select_rule_computes_gradient_with_sum_select(path):
    assert_all_close(
        run(path, grad_sum_select, SELECT_INPUT),
        nbt.tensor(
            [
                [0.9092974268256817, 2.718281828459045, 0.0, 20.085536923187668, 0.1411200080598672],
                [2.718281828459045, 7.38905609893065, 0.0, 148.4131591025766, 0.8414709848078965],
            ]
        ),
    )


def test_select_rule_computes_gradient_with_sum_select_for_complex_tensor(path):
    assert_all_close(
        run(path, grad_sum_select_2by2, nbt.tensor([[complex(1, 1), complex(2, 1)], [complex(3, 1), complex(-1, -4)]])),
        nbt.tensor(
            [
                [complex(1.4686, +2.2873), complex(3.9923, +6.2176)],
                [complex(10.8522, +16.9013), complex(22.9790, +14.7448)],
            ]
        ),
    )


def test_select_rule_computes_the_gradient_with_max_select(path):
    assert_all_close(
        run(path, grad_max_select, SELECT_INPUT),
        nbt.tensor([[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 148.4131591025766, 0.0]]),
    )


def test_select_rule_computes_the_gradient_with_sum_select_sum(path):
    assert_all_close(
        run(path, grad_sum_select_sum, SELECT_INPUT), nbt.tensor([[0.0, 1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0, 0.0]])
    )


def test_select_rule_computes_the_gradient_with_sum_select_select(path):
    assert_all_close(
        run(path, grad_nested_select, nbt.tensor([-2.0, -1.0, 0.0, 1.0, 2.0])), nbt.tensor([0.01, 0.01, 0.01, 1.0, 1.0])
    )


def test_select_rule_is_zero_when_part_of_pred_only(path):
    assert_same(
        run(path, grad_pred_select, nbt.tensor([-2.0, -1.0, 0.0, 1.0, 2.0])), nbt.tensor([0.0, 0.0, 0.0, 0.0, 0.0])
    )


# describe "as_type/bitcast"


def grad_as_type(t):
    return nbt.grad(lambda t: nbt.sum(nbt.as_type(t, "f32")))(t)


def grad_as_type_complex(t):
    return nbt.grad(lambda t: nbt.sum(nbt.as_type(t, "c64")))(t)


def grad_bitcast(t):
    return nbt.grad(lambda t: nbt.sum(nbt.bitcast(t, "f32")))(t)


def grad_as_type_downcast(t):
    return nbt.grad(lambda t: nbt.sum(nbt.cos(nbt.as_type(t, "f32"))))(t)


def test_as_type_bitcast_as_type_takes_the_real_part_when_downcasting_complex(path):
    t = nbt.tensor([complex(1, 1), complex(2, 1), complex(3, 1)])
    grad = run(path, grad_as_type_downcast, t)
    assert_same(grad, run(path, grad_as_type_downcast, nbt.tensor([1, 2, 3])))
    assert_same(grad, nbt.negate(nbt.sin(nbt.real(t))))


def test_as_type_bitcast_as_type_passes_through_for_non_downcasting_calls(path):
    assert_same(run(path, grad_as_type, nbt.tensor([1, 2, 3])), nbt.tensor([1.0, 1.0, 1.0]))
    assert_same(
        run(path, grad_as_type_complex, nbt.tensor([complex(1, 1), complex(2, 1), complex(3, 1)])),
        nbt.tensor([1.0, 1.0, 1.0]),
    )


def test_as_type_bitcast_bitcast_passes_through(path):
    assert_same(run(path, grad_bitcast, nbt.tensor([1, 2, 3], type="s32")), nbt.tensor([1.0, 1.0, 1.0]))
