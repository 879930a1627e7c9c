"""Nx 0.13.1 nx/test/nx/defn/grad_test.exs, lines 1-470 and 1921-1990: "simple" to
"atan2 rule", "chain rule", "grad grad", "tuples". Nx's random points (`@iters`, from
`random_uniform`) are fixed points in the same ranges; `@types` are f64 and c128."""

import numbat as nbt

from ._support import assert_raises, assert_same, assert_same_rounded, check_grads, run

TYPES = ("f64", "c128")


def points(low, high, type_):
    """Fixed points spread over [low, high] (Nx draws 25 at random), of `type_`."""
    return [nbt.tensor(low + (high - low) * f, type=type_) for f in (0.03, 0.21, 0.5, 0.77, 0.96)]


def checks(path, fun, grad_fun, low, high, types=TYPES, **tolerances):
    for type_ in types:
        for x in points(low, high, type_):
            check_grads(lambda t: run(path, fun, t), lambda t: run(path, grad_fun, t), x, **tolerances)


# describe "simple"


def grad_itself(t):
    return nbt.grad(lambda t: t)(t)


def grad_tensor(t):
    return nbt.grad(lambda _t: nbt.tensor(1.0))(t)


def grad_constant(t):
    return nbt.grad(lambda _t: 10)(t)


def grad_unrelated(t, a):
    return nbt.grad(lambda _t: a)(t)


def grad_old_node(t):
    return nbt.grad(lambda _t: t)(t)


def test_simple_computes_gradient_for_scalars(path):
    assert_same(run(path, grad_itself, nbt.tensor(1.0)), nbt.tensor(1.0))
    assert_same(run(path, grad_tensor, nbt.tensor(1.0)), nbt.tensor(0.0))
    assert_same(run(path, grad_constant, nbt.tensor(1.0)), nbt.tensor(0.0))
    assert_same(run(path, grad_unrelated, nbt.tensor(1.0), nbt.tensor(2.0)), nbt.tensor(0.0))
    assert_same(run(path, grad_old_node, nbt.tensor(1.0)), nbt.tensor(0.0))


def test_simple_computes_gradient_for_tensors(path):
    assert_same(run(path, grad_constant, nbt.tensor([1.0, 2.0, 3.0])), nbt.tensor([0.0, 0.0, 0.0]))
    assert_same(run(path, grad_unrelated, nbt.tensor([1.0, 2.0, 3.0]), nbt.tensor(2.0)), nbt.tensor([0.0, 0.0, 0.0]))


def test_simple_computes_gradient_for_multidimensional(path):
    assert_same(run(path, grad_itself, nbt.tensor([1.0, 2.0])), nbt.tensor([1.0, 1.0]))
    assert_same(run(path, grad_tensor, nbt.tensor([1.0, 2.0])), nbt.tensor([0.0, 0.0]))
    assert_same(run(path, grad_constant, nbt.tensor([1.0, 2.0])), nbt.tensor([0.0, 0.0]))
    assert_same(run(path, grad_unrelated, nbt.tensor([1.0, 2.0]), nbt.tensor([2.0, 3.0])), nbt.tensor([0.0, 0.0]))
    assert_same(run(path, grad_old_node, nbt.tensor([1.0, 2.0])), nbt.tensor([0.0, 0.0]))


def test_simple_raises_on_invalid(path):
    # Nx: grad(:invalid, ...) raises Protocol.UndefinedError; numbat differentiates tensors only.
    assert_raises(path, lambda t: nbt.grad(lambda t: t)("invalid"), nbt.tensor(1))


# describe "value and grad"


def vg(a, b):
    return nbt.value_and_grad(lambda ab: nbt.tanh(ab[0]) + nbt.pow(ab[1], 2))((a, b))


def test_value_and_grad_computes_value_and_grad(path):
    assert_same_rounded(
        run(path, vg, nbt.tensor(1), nbt.tensor(2)),
        (nbt.tensor(4.761594155955764, type="f32"), (nbt.tensor(0.41997434161402614), nbt.tensor(4.0))),
    )


# describe "hooks"


def test_hooks_computes_grad_with_hook():
    seen = []
    fun = nbt.jit(
        lambda t: nbt.value_and_grad(lambda t: nbt.hook(nbt.pow(t, 2), "grad"))(t), hooks={"grad": seen.append}
    )
    assert_same(fun(nbt.tensor(3)), (nbt.tensor(9), nbt.tensor(6.0)))
    assert len(seen) == 1
    assert_same(seen[0], nbt.tensor(9))


def test_hooks_computes_hook_with_grad():
    seen = []
    fun = nbt.jit(lambda t: nbt.hook(nbt.grad(lambda t: nbt.pow(t, 2))(t), "grad"), hooks={"grad": seen.append})
    assert_same(fun(nbt.tensor(3)), nbt.tensor(6.0))
    assert len(seen) == 1
    assert_same(seen[0], nbt.tensor(6.0))


# describe "metadata"


def stop_grad_meta(t):
    return nbt.grad(lambda t: nbt.stop_grad(nbt.exp(t)))(t)


def stop_grad_tuple_meta(a, b):
    return nbt.grad(lambda ab: nbt.stop_grad(nbt.exp(ab[0]) + nbt.exp(ab[1])))((a, b))


def test_metadata_stops_computing_gradient(path):
    assert_same(run(path, stop_grad_meta, nbt.tensor(1)), nbt.tensor(0.0))
    assert_same(run(path, stop_grad_tuple_meta, nbt.tensor(1), nbt.tensor(1)), (nbt.tensor(0.0), nbt.tensor(0.0)))


def custom_grad_meta(t):
    cos = nbt.grad(nbt.cos)(t)
    custom_cos = nbt.grad(lambda t: nbt.custom_grad(nbt.cos(t), [t], lambda g: [g * -nbt.sin(t)]))(t)
    return cos, custom_cos


def test_metadata_computes_custom_grad(path):
    cos, custom_cos = run(path, custom_grad_meta, nbt.tensor(1))
    assert_same(cos, custom_cos)


# describe "cache"


def subexpressions(x, y):
    z = x * y
    return nbt.sum(z - nbt.log(nbt.sum(nbt.exp(z), axes=[0])))


def grad_subexpressions(x, y):
    return nbt.grad(lambda x: subexpressions(x, y))(x)


def test_cache_considers_current_g(path):
    assert_same(
        run(path, grad_subexpressions, nbt.tensor([1, 2, 3]), nbt.tensor([1, 2, 3])),
        nbt.tensor([0.9990006807109719, 1.9598562710443452, -5.936786448699433]),
    )


# describe "addition rule" ... "atan2 rule"


def addition_rule(t):
    return nbt.tanh(nbt.tanh(nbt.add(nbt.pow(t, 2), nbt.pow(t, 3))))


def grad_addition_rule(t):
    return nbt.grad(addition_rule)(t)


def test_addition_rule_computes_gradient_of_compound_rules(path):
    assert_same(run(path, grad_addition_rule, nbt.tensor(1.0)), nbt.tensor(0.15662670135498047))
    checks(path, addition_rule, grad_addition_rule, -5.0, 5.0)


def product_rule(t):
    return nbt.tanh(nbt.tanh(nbt.multiply(nbt.pow(t, 2), nbt.pow(t, 3))))


def grad_product_rule(t):
    return nbt.grad(product_rule)(t)


def test_product_rule_computes_gradient_for_scalars(path):
    assert_same_rounded(run(path, grad_product_rule, nbt.tensor(1.0)), nbt.tensor(1.2343397629215758))
    checks(path, product_rule, grad_product_rule, -0.5, 0.5)


def grad_sum_product_rule(t):
    return nbt.grad(lambda t: nbt.sum(nbt.multiply(nbt.pow(t, 2), nbt.pow(t, 3))))(t)


def test_product_rule_computes_gradient_for_tensors(path):
    assert_same(
        run(path, grad_sum_product_rule, nbt.tensor([[1.0, 2.0], [3.0, 4.0]])),
        nbt.tensor([[5.0, 80.0], [405.0, 1280.0]]),
    )


def division_rule(t):
    return nbt.divide(nbt.tanh(t), t)


def grad_division_rule(t):
    return nbt.grad(division_rule)(t)


def test_division_rule_computes_gradient(path):
    assert_same_rounded(run(path, grad_division_rule, nbt.tensor(1.0)), nbt.tensor(-0.3416198492050171))
    checks(path, division_rule, grad_division_rule, 0.0, 10.0)


def division_num_rule(t):
    return nbt.divide(nbt.tanh(t), 2)


def division_den_rule(t):
    return nbt.divide(2, nbt.exp(t))


def test_division_rule_computes_gradient_for_constant_denominator(path):
    checks(path, division_num_rule, nbt.grad(division_num_rule), 0.0, 10.0, types=("f64",))


def test_division_rule_computes_gradient_for_constant_numerator(path):
    checks(path, division_den_rule, nbt.grad(division_den_rule), 0.0, 10.0, types=("f64",))


def remainder_rule(t):
    return nbt.remainder(nbt.tanh(t), t)


def remainder_num_rule(t):
    return nbt.remainder(nbt.tanh(t), 2)


def remainder_den_rule(t):
    return nbt.remainder(2, nbt.exp(t))


def test_remainder_rule_computes_gradient(path):
    assert_same_rounded(run(path, nbt.grad(remainder_rule), nbt.tensor(1.0)), nbt.tensor(0.41997434161402614))
    checks(path, remainder_rule, nbt.grad(remainder_rule), 0.0, 10.0, types=("f64",))


def test_remainder_rule_computes_gradient_for_constant_denominator(path):
    checks(path, remainder_num_rule, nbt.grad(remainder_num_rule), 0.0, 10.0, types=("f64",))


def test_remainder_rule_computes_gradient_for_constant_numerator(path):
    checks(path, remainder_den_rule, nbt.grad(remainder_den_rule), 0.0, 10.0, types=("f64",))


def power_rule(t):
    return nbt.pow(t, 3)


def test_power_rule_computes_gradient(path):
    assert_same(run(path, nbt.grad(power_rule), nbt.tensor(5.0)), nbt.tensor(75.0))
    checks(path, power_rule, nbt.grad(power_rule), 0.0, 10.0)


def exp_rule(t):
    return nbt.add(nbt.pow(nbt.tanh(t), 2), nbt.pow(nbt.tanh(t), 3))


def test_exponential_rule_computes_gradient(path):
    assert_same(run(path, nbt.grad(exp_rule), nbt.tensor(1.0)), nbt.tensor(1.3704876904488987))
    checks(path, exp_rule, nbt.grad(exp_rule), 0.0, 10.0)


def atan2_rule(t):
    return nbt.atan2(nbt.tanh(t), t)


def test_atan2_rule_computes_gradient(path):
    assert_same_rounded(run(path, nbt.grad(atan2_rule), nbt.tensor(1.0)), nbt.tensor(-0.21621156120382867))
    checks(path, atan2_rule, nbt.grad(atan2_rule), 0.0, 10.0, types=("f64",))


# describe "chain rule", "grad grad"


def tanh_exp(t):
    return nbt.tanh(nbt.exp(t))


def test_chain_rule_computes_gradient(path):
    assert_same_rounded(run(path, nbt.grad(tanh_exp), nbt.tensor(1.0)), nbt.tensor(0.046936701983213425))
    checks(path, tanh_exp, nbt.grad(tanh_exp), 0.0, 10.0, types=("f64",))


def grad_tanh_base(t):
    return nbt.grad(nbt.tanh)(t)


def grad_grad_tanh(t):
    return nbt.grad(lambda t: nbt.grad(nbt.tanh)(t))(t)


def test_grad_grad_computes_gradient(path):
    assert_same(run(path, grad_grad_tanh, nbt.tensor(1.0)), nbt.tensor(-0.6397000084492246))
    checks(path, grad_tanh_base, grad_grad_tanh, 0.0, 10.0, types=("f64",))


# describe "tuples"


def tuple_pattern(ab):
    return nbt.pow(ab[0], 2) + ab[1]


def grad_tuple_pattern(t):
    return nbt.grad(lambda t: tuple_pattern((t, 2.0)))(t)


def test_tuples_as_patterns(path):
    assert_same(run(path, grad_tuple_pattern, nbt.tensor(1.0)), nbt.tensor(2.0))


def grad_tuple_input2(a, b):
    return nbt.grad(lambda ab: nbt.pow(ab[0], 2) * nbt.pow(ab[1], 3))((a, b))


def grad_tuple_input3(a, b, c):
    return nbt.grad(lambda abc: nbt.pow(abc[0], 2) * nbt.pow(abc[1], 3) * nbt.pow(abc[2], 4))((a, b, c))


def grad_tuple_unused(a, b):
    return nbt.grad(lambda ab: nbt.pow(ab[0], ab[0]))((a, b))


def test_tuples_as_multiple_inputs(path):
    one = nbt.tensor(1.0)
    assert_same(run(path, grad_tuple_input2, one, one), (nbt.tensor(2.0), nbt.tensor(3.0)))
    assert_same(run(path, grad_tuple_input3, one, one, one), (nbt.tensor(2.0), nbt.tensor(3.0), nbt.tensor(4.0)))
    assert_same(run(path, grad_tuple_unused, one, one), (nbt.tensor(1.0), nbt.tensor(0.0)))


def grad_tuple_output(a):
    return nbt.grad(lambda t: (t + 1, t - 1))(a)


def test_tuples_raises_on_tuple_output(path):
    assert_raises(path, grad_tuple_output, nbt.tensor(1.0), match="expected a tensor or a number")
