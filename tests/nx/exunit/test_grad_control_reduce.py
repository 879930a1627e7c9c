"""Nx 0.13.1 nx/test/nx/defn/grad_test.exs, lines 3092-3218 and 3357-3674: "if", "while",
"clip", "reduce_max rule", "reduce_min rule", "product"."""

import numbat as nbt

from ._support import assert_all_close, assert_same, check_grads, run


def grad_if(t):
    return nbt.grad(lambda t: nbt.cond(t + 1, lambda: nbt.pow(t, 2), lambda: nbt.pow(t, 3)))(t)


def grad_sum_if(t):
    return nbt.grad(lambda t: nbt.sum(nbt.cond(nbt.all(t), lambda: nbt.pow(t, 2), lambda: nbt.pow(t, 3))))(t)


def grad_if_sum(t):
    return nbt.grad(lambda t: nbt.cond(nbt.all(t), lambda: nbt.sum(nbt.pow(t, 2)), lambda: nbt.sum(nbt.pow(t, 3))))(t)


def grad_if_tuple(t):
    def f(t):
        (a, b), c = nbt.cond(
            t > 0,
            lambda: ((nbt.pow(t, 2), nbt.pow(t, 3)), nbt.pow(t, 4)),
            lambda: ((nbt.pow(t, 4), nbt.pow(t, 3)), nbt.pow(t, 2)),
        )
        d = nbt.cond(t > 0, lambda: 123, lambda: 456)
        return a * b + c - d

    return nbt.grad(f)(t)


def test_if_computes_gradient(path):
    assert_same(run(path, grad_if, nbt.tensor(1)), nbt.tensor(2.0))
    assert_same(run(path, grad_if, nbt.tensor(-1)), nbt.tensor(3.0))


def test_if_computes_gradient_with_sum(path):
    assert_same(run(path, grad_sum_if, nbt.tensor([1, 2, 3])), nbt.tensor([2.0, 4.0, 6.0]))
    assert_same(run(path, grad_sum_if, nbt.tensor([-1, 0, 1])), nbt.tensor([3.0, 0.0, 3.0]))
    assert_same(run(path, grad_if_sum, nbt.tensor([1, 2, 3])), nbt.tensor([2.0, 4.0, 6.0]))
    assert_same(run(path, grad_if_sum, nbt.tensor([-1, 0, 1])), nbt.tensor([3.0, 0.0, 3.0]))


def test_if_computes_gradient_with_tuple(path):
    assert_same(run(path, grad_if_tuple, nbt.tensor(1)), nbt.tensor(9.0))
    assert_same(run(path, grad_if_tuple, nbt.tensor(2)), nbt.tensor(112.0))
    assert_same(run(path, grad_if_tuple, nbt.tensor(-1)), nbt.tensor(5.0))
    assert_same(run(path, grad_if_tuple, nbt.tensor(-2)), nbt.tensor(444.0))


def grad_while_constant(t):
    def f(t):
        _, t = nbt.while_loop(lambda s: s[0] < 3, lambda s: (s[0] + 1, s[1]), (nbt.tensor(0), t))
        return nbt.sum(t)

    return nbt.grad(f)(t)


def test_while_computes_gradient_for_constant_loop(path):
    tensor = nbt.tensor([-2.5, -1.0, 0.0, 1.0, 1.5])
    assert_same(run(path, grad_while_constant, tensor), nbt.tensor([1.0, 1.0, 1.0, 1.0, 1.0]))


def grad_while_param(t, x):
    def f(x):
        _, t2 = nbt.while_loop(lambda s: s[1] < 100, lambda s: (s[0], s[0] * s[1]), (x, t))
        return nbt.sum(t2)

    return nbt.value_and_grad(f)(x)


def test_while_computes_gradient_for_unrelated_param_loop(path):
    # Nx expects {128.0, 5461.0}. The loop computes x**7 * t (7 iterations from t = 1 for
    # x near 2), whose derivative is 7 * 2**6 = 448: numbat's answer, and the finite
    # differences'. A deliberate difference (untranslatable.DELIBERATE).
    assert_same(run(path, grad_while_param, nbt.tensor(1.0), nbt.tensor(2.0)), (nbt.tensor(128.0), nbt.tensor(448.0)))
    check_grads(
        lambda x: run(path, lambda t, x: grad_while_param(t, x)[0], nbt.tensor(1.0, type="f64"), x),
        lambda x: run(path, lambda t, x: grad_while_param(t, x)[1], nbt.tensor(1.0, type="f64"), x),
        nbt.tensor(2.0, type="f64"),
    )


def grad_while_single_var(t):
    return nbt.value_and_grad(lambda t: nbt.while_loop(lambda t: t < 100, lambda t: t * t, t))(t)


def grad_while_single_var_unroll(t):
    def f(v2):
        v4 = v2 * v2
        v16 = v4 * v4
        return v16 * v16

    return nbt.value_and_grad(f)(t)


def test_while_computes_gradient_for_single_var_loop(path):
    assert_same(
        run(path, grad_while_single_var, nbt.tensor(2.0)), run(path, grad_while_single_var_unroll, nbt.tensor(2.0))
    )


def grad_while_3x_sin(t):
    def f(t):
        _, t = nbt.while_loop(lambda s: s[0] < 3, lambda s: (s[0] + 1, nbt.sin(s[1])), (nbt.tensor(0), nbt.pow(t, 3)))
        return nbt.sum(nbt.pow(t, 2))

    return nbt.value_and_grad(f)(t)


def grad_3x_sin(t):
    return nbt.value_and_grad(lambda t: nbt.sum(nbt.pow(nbt.sin(nbt.sin(nbt.sin(nbt.pow(t, 3)))), 2)))(t)


def test_while_computes_gradient_for_while_with_additional_var(path):
    tensor = nbt.tensor([-2.5, -1.0, 0.0, 1.0, 1.5])
    value_while, grad_while = run(path, grad_while_3x_sin, tensor)
    value_unroll, grad_unroll = run(path, grad_3x_sin, tensor)
    assert_same(value_while, value_unroll)
    assert_all_close(grad_while, grad_unroll)


# describe "clip"


def grad_sum_clip(t):
    return nbt.grad(lambda t: nbt.sum(nbt.clip(t, nbt.tensor(1.0), nbt.tensor(4.0))))(t)


def grad_sum_clip_wrt_to_lower_lim(t, lim):
    return nbt.grad(lambda lim: nbt.sum(nbt.clip(t, lim, 10)))(lim)


def grad_sum_clip_wrt_to_upper_lim(t, lim):
    return nbt.grad(lambda lim: nbt.sum(nbt.clip(t, -10, lim)))(lim)


def grad_clip_x_and_lower_lim(t, lim):
    return nbt.grad(lambda tl: nbt.sum(nbt.clip(tl[0], tl[1], 10)))((t, lim))


def test_clip_computes_gradient_with_sum(path):
    t = nbt.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert_same(run(path, grad_sum_clip, t), nbt.tensor([[1.0, 1.0, 1.0], [1.0, 0.0, 0.0]]))


def test_clip_at_an_exact_boundary_the_limit_receives_no_gradient(path):
    assert_same(
        run(path, grad_sum_clip_wrt_to_lower_lim, nbt.tensor([0.0, 5.0, -3.0]), nbt.tensor(0.0)), nbt.tensor(1.0)
    )


def test_clip_partials_sum_to_the_directional_derivative_at_a_lower_limit_tie(path):
    dx, dlim = run(path, grad_clip_x_and_lower_lim, nbt.tensor([0.0, 5.0]), nbt.tensor(0.0))
    assert_same(nbt.add(dx[0], dlim), nbt.tensor(1.0))


def test_clip_computes_gradient_wrt_to_lower_lim(path):
    assert_same(run(path, grad_sum_clip_wrt_to_lower_lim, nbt.iota((5,)), nbt.tensor(2.5)), nbt.tensor(3.0))


def test_clip_computes_gradient_wrt_to_upper_lim(path):
    assert_same(run(path, grad_sum_clip_wrt_to_upper_lim, nbt.iota((5,)), nbt.tensor(2.5)), nbt.tensor(2.0))


def grad_mean_clip(t):
    return nbt.grad(lambda t: nbt.mean(nbt.clip(t, -60.0, 60.0)))(t)


def grad_mean_clip_mult(t, u):
    return nbt.grad(lambda t: nbt.mean(nbt.clip(t, -60.0, 60.0) * u))(t)


def grad_mean_max_clip(t):
    return nbt.grad(lambda t: nbt.mean(nbt.max(nbt.clip(t, -60.0, 60.0), 0)))(t)


def grad_mean_softplus_neg_abs_clip(t):
    def f(t):
        c = nbt.clip(t, -60.0, 60.0)
        return nbt.mean(nbt.log(1 + nbt.exp(-nbt.abs(c))))

    return nbt.grad(f)(t)


def stable_binary_cross_entropy(x, t):
    return nbt.mean(nbt.max(x, 0) - x * t + nbt.log(1 + nbt.exp(-nbt.abs(x))))


def grad_bce_clip(t, targets):
    return nbt.grad(lambda t: stable_binary_cross_entropy(nbt.clip(t, -60.0, 60.0), targets))(t)


def grad_bce_min_max(t, targets):
    return nbt.grad(lambda t: stable_binary_cross_entropy(nbt.min(nbt.max(t, -60.0), 60.0), targets))(t)


CLIP_LOGITS = nbt.tensor([-2.0, 0.5, 3.0, -70.0, 65.0, 1.0, -1.0, 0.25])
CLIP_INSIDE_MASK = nbt.tensor([1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0])
CLIP_TARGETS = nbt.tensor([0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0])
N = nbt.size(CLIP_LOGITS)


def test_clip_computes_gradient_through_mean(path):
    expected = nbt.divide(CLIP_INSIDE_MASK, N)
    assert_all_close(run(path, grad_mean_clip, CLIP_LOGITS), expected, atol=1.0e-6)


def test_clip_computes_gradient_through_mean_of_product(path):
    expected = nbt.divide(nbt.multiply(CLIP_TARGETS, CLIP_INSIDE_MASK), N)
    assert_all_close(run(path, grad_mean_clip_mult, CLIP_LOGITS, CLIP_TARGETS), expected, atol=1.0e-6)


def test_clip_computes_gradient_through_mean_of_max_with_a_constant(path):
    step = nbt.as_type(nbt.greater(nbt.clip(CLIP_LOGITS, -60.0, 60.0), 0), "f32")
    expected = nbt.divide(nbt.multiply(step, CLIP_INSIDE_MASK), N)
    assert_all_close(run(path, grad_mean_max_clip, CLIP_LOGITS), expected, atol=1.0e-6)


def test_clip_computes_gradient_through_mean_of_log1p_exp_abs_clip_x(path):
    c = nbt.clip(CLIP_LOGITS, -60.0, 60.0)
    e = nbt.exp(nbt.negate(nbt.abs(c)))
    expected = nbt.multiply(nbt.negate(nbt.sign(c)), nbt.divide(e, nbt.add(1.0, e)))
    expected = nbt.divide(nbt.multiply(expected, CLIP_INSIDE_MASK), N)
    assert_all_close(run(path, grad_mean_softplus_neg_abs_clip, CLIP_LOGITS), expected, atol=1.0e-6)


def expected_bce_clip_grad():
    c = nbt.clip(CLIP_LOGITS, -60.0, 60.0)
    sigmoid = nbt.divide(1.0, nbt.add(1.0, nbt.exp(nbt.negate(c))))
    return nbt.divide(nbt.multiply(nbt.subtract(sigmoid, CLIP_TARGETS), CLIP_INSIDE_MASK), N)


def test_clip_computes_gradient_of_clip_inside_stable_form_bce(path):
    grad = run(path, grad_bce_clip, CLIP_LOGITS, CLIP_TARGETS)
    assert_all_close(grad, expected_bce_clip_grad(), atol=1.0e-5)


def test_clip_min_max_clamp_inside_stable_form_bce_gives_the_same_gradient(path):
    grad = run(path, grad_bce_min_max, CLIP_LOGITS, CLIP_TARGETS)
    assert_all_close(grad, expected_bce_clip_grad(), atol=1.0e-5)


# describe "reduce_max rule", "reduce_min rule"

REDUCE_INPUT = nbt.tensor([[1.0, 2.0, 3.0, 4.0], [2.0, 1.0, 3.0, 1.0]])
REDUCE_3D = nbt.tensor([[[1.0, 0.0, 2.0], [3.0, 4.0, 2.0]], [[5.0, 2.0, 3.0], [4.0, 2.0, 1.0]]])


def grad_with(fun):
    return lambda t: nbt.grad(fun)(t)


def test_reduce_max_rule_computes_gradient(path):
    fun = grad_with(lambda t: nbt.reduce_max(nbt.cos(nbt.exp(t))))
    assert_all_close(
        run(path, fun, REDUCE_INPUT),
        nbt.tensor([[0.0, -3.302372203078941, 0.0, 0.0], [-3.302372203078941, 0.0, 0.0, 0.0]]),
    )


def test_reduce_max_rule_computes_gradient_with_sum(path):
    fun = grad_with(lambda t: nbt.sum(nbt.reduce_max(t, axes=[1])))
    assert_all_close(run(path, fun, REDUCE_INPUT), nbt.tensor([[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 0.0]]))


def test_reduce_max_rule_computes_gradient_with_sum_cos(path):
    fun = grad_with(lambda t: nbt.sum(nbt.reduce_max(nbt.cos(t), axes=[1])))
    assert_all_close(
        run(path, fun, REDUCE_INPUT),
        nbt.tensor([[-0.8414709848078965, 0.0, 0.0, 0.0], [0.0, -0.42073549240394825, 0.0, -0.42073549240394825]]),
    )


def test_reduce_max_rule_computes_gradient_with_max_sum(path):
    fun = grad_with(lambda t: nbt.reduce_max(nbt.sum(t, axes=[1])))
    assert_same(run(path, fun, REDUCE_INPUT), nbt.tensor([[1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0]]))


def test_reduce_max_rule_computes_gradient_with_max_min(path):
    fun = grad_with(lambda t: nbt.reduce_max(nbt.reduce_min(t, axes=[0])))
    assert_same(run(path, fun, REDUCE_INPUT), nbt.tensor([[0.0, 0.0, 0.5, 0.0], [0.0, 0.0, 0.5, 0.0]]))


def test_reduce_max_rule_computes_the_gradient_with_max_min_sum(path):
    fun = grad_with(lambda t: nbt.reduce_max(nbt.reduce_min(nbt.sum(t, axes=[1]), axes=[0])))
    assert_all_close(
        run(path, fun, REDUCE_3D),
        nbt.tensor(
            [
                [[0.33333334, 0.16666667, 0.16666667], [0.33333334, 0.16666667, 0.16666667]],
                [[0.0, 0.16666667, 0.16666667], [0.0, 0.16666667, 0.16666667]],
            ]
        ),
    )


def test_reduce_min_rule_computes_gradient(path):
    fun = grad_with(lambda t: nbt.reduce_min(nbt.cos(nbt.exp(t))))
    assert_all_close(
        run(path, fun, REDUCE_INPUT),
        nbt.tensor([[-0.37220643914833773, 0.0, 0.0, 0.0], [0.0, -0.37220643914833773, 0.0, -0.37220643914833773]]),
    )


def test_reduce_min_rule_computes_gradient_with_sum(path):
    fun = grad_with(lambda t: nbt.sum(nbt.reduce_min(t, axes=[1])))
    assert_all_close(run(path, fun, REDUCE_INPUT), nbt.tensor([[1.0, 0.0, 0.0, 0.0], [0.0, 0.5, 0.0, 0.5]]))


def test_reduce_min_rule_computes_gradient_with_sum_cos(path):
    fun = grad_with(lambda t: nbt.sum(nbt.reduce_min(nbt.cos(t), axes=[1])))
    assert_all_close(
        run(path, fun, REDUCE_INPUT),
        nbt.tensor([[0.0, 0.0, -0.1411200080598672, 0.0], [0.0, 0.0, -0.1411200080598672, 0.0]]),
    )


def test_reduce_min_rule_computes_gradient_with_min_sum(path):
    fun = grad_with(lambda t: nbt.reduce_min(nbt.sum(t, axes=[1])))
    assert_same(run(path, fun, REDUCE_INPUT), nbt.tensor([[0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0]]))


def test_reduce_min_rule_computes_gradient_with_min_max(path):
    fun = grad_with(lambda t: nbt.reduce_min(nbt.reduce_max(t, axes=[0])))
    assert_same(run(path, fun, REDUCE_INPUT), nbt.tensor([[0.0, 0.5, 0.0, 0.0], [0.5, 0.0, 0.0, 0.0]]))


def test_reduce_min_rule_computes_the_gradient_with_min_max_sum(path):
    fun = grad_with(lambda t: nbt.reduce_min(nbt.reduce_max(nbt.sum(t, axes=[1]), axes=[0])))
    assert_same(
        run(path, fun, REDUCE_3D),
        nbt.tensor([[[0.0, 0.25, 0.25], [0.0, 0.25, 0.25]], [[0.0, 0.25, 0.25], [0.0, 0.25, 0.25]]]),
    )


# describe "product"


def grad_product(**opts):
    return grad_with(lambda t: nbt.sum(nbt.product(t, **opts)))


def composed_grad_product(**opts):
    return grad_with(lambda t: nbt.sum(nbt.sin(nbt.product(nbt.cos(t), **opts))))


def test_product_computes_gradient(path):
    assert_all_close(
        run(path, grad_product(), nbt.tensor([[[[1, 2, 3, 4], [2, 1, 3, -1]]]])),
        nbt.tensor([[[[-144, -72, -48, -36], [-72, -144, -48, 144]]]]),
    )
    assert_all_close(
        run(path, grad_product(), nbt.tensor([[[[1, 2, 3, 4], [2, 1, 3, -1], [3, 2, 3, 0]]]])),
        nbt.tensor([[[[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, -2592]]]]),
    )


def test_product_computes_gradient_with_axes_option(path):
    assert_all_close(
        run(path, grad_product(axes=[3]), nbt.tensor([[[[1, 2, 3, 4], [2, 1, 3, -1], [3, 2, 3, 0], [0, 2, 3, 0]]]])),
        nbt.tensor([[[[24, 12, 8, 6], [-3, -6, -2, 6], [0, 0, 0, 18], [0, 0, 0, 0]]]]),
    )


def test_product_computes_gradient_keep_axes_true(path):
    assert_all_close(
        run(path, grad_product(keep_axes=True), nbt.tensor([[[[1, 2, 3, 4], [2, 1, 3, -1]]]])),
        nbt.tensor([[[[-144, -72, -48, -36], [-72, -144, -48, 144]]]]),
    )


def test_product_computes_gradient_with_axes_option_keep_axes_true(path):
    assert_all_close(
        run(path, grad_product(axes=[3], keep_axes=True), nbt.tensor([[[[1, 2, 3, 4], [2, 1, 3, -1]]]])),
        nbt.tensor([[[[24, 12, 8, 6], [-3, -6, -2, 6]]]]),
    )


def test_product_computes_composed_gradient(path):
    assert_all_close(
        run(path, composed_grad_product(), nbt.tensor([[[[1, 2, 3, 4], [2, 1, 3, -1]]]])),
        nbt.tensor(
            [[[[0.0272486, -0.03822973, -0.00249401, 0.02025739], [-0.03822973, 0.0272486, -0.00249401, -0.0272486]]]]
        ),
    )
