"""Nx 0.13.1 nx/test/nx/defn/grad_test.exs, lines 5157-5813: "vectorization". The
instances of a vectorized result are independent: each gets its own gradient, vectorized
over the union of the result's and the input's vectorized axes."""

import numpy as np

import numbat as nbt

from ._support import assert_all_close, assert_same, run

la = nbt.linalg


def vec(values, axes, type_="f32"):
    return nbt.vectorize(nbt.tensor(values, type=type_), axes)


def grad_of(fun):
    return lambda t: nbt.grad(fun)(t)


def check_vectorized_grad(path, tensor, fun, atol=1.0e-4):
    """Nx's check_vectorized_grad: the vectorized gradient against the gradients of the
    instances one at a time, stacked."""
    axes = tensor.vectorized_axes
    assert axes, "tensor must be vectorized"
    flat = nbt.devectorize(tensor, keep_names=False)
    inner = tensor.shape
    rows = nbt.reshape(flat, (-1, *inner)) if inner else nbt.reshape(flat, (-1,))
    count = rows.shape[0]
    expected = nbt.stack([run(path, grad_of(fun), rows[i]) for i in range(count)], axis=0)
    expected = nbt.vectorize(nbt.reshape(expected, (*[size for _, size in axes], *inner)), [n for n, _ in axes])
    assert_all_close(run(path, grad_of(fun), tensor), expected, atol=atol)


def test_vectorization_supports_combination_of_vectorized_and_non_vectorized_tensors(path):
    x = vec([[1, 2, 3], [4, 5, 6]], "x", "s32")
    assert_same(run(path, lambda y: nbt.grad(lambda y: nbt.add(x, y))(y), nbt.tensor(1)), vec([3.0, 3.0], "x"))


def test_vectorization_supports_combination_of_vectorized_and_non_vectorized_tensors_over_composed_function(path):
    x = nbt.vectorize(nbt.tensor([[1, 2, 3], [4, 5, 6]], names=["x", "y"]), "x")
    grad = run(path, lambda y: nbt.grad(lambda y: nbt.add(y, nbt.sin(x)))(y), nbt.tensor(1))
    assert_same(grad, vec([3.0, 3.0], "x"))
    grad = run(path, grad_of(lambda x: nbt.add(1, nbt.sin(x))), x)
    assert_all_close(grad, nbt.cos(x))  # Nx: == (XLA's cos rounds apart from Nx's)
    assert grad.vectorized_axes == nbt.cos(x).vectorized_axes


def test_vectorization_supports_heterogenous_vectorization_combinations(path):
    x_vec = vec([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "x")
    y_vec = vec([10.0, 20.0], "y")
    grad_x, grad_y = run(path, lambda x, y: nbt.grad(lambda ab: nbt.multiply(ab[0], ab[1]))((x, y)), x_vec, y_vec)
    assert grad_x.vectorized_axes == (("x", 2), ("y", 2))
    assert grad_y.vectorized_axes == (("x", 2), ("y", 2))


def test_vectorization_supports_same_axis_vectorization_combinations(path):
    x_vec = vec([[1, 2, 3], [4, 5, 6]], "x", "s32")
    y_vec = vec([10, 20], "x", "s32")
    grad_x, grad_y = run(path, lambda x, y: nbt.grad(lambda ab: nbt.multiply(ab[0], ab[1]))((x, y)), x_vec, y_vec)
    assert_same(grad_x, vec([[10.0, 10.0, 10.0], [20.0, 20.0, 20.0]], "x"))
    assert_same(grad_y, vec([6.0, 15.0], "x"))


def test_vectorization_vectorize_devectorize_inside_grad_function(path):
    x = vec([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "batch")
    fun = grad_of(lambda t: nbt.sum(nbt.vectorize(nbt.devectorize(t, keep_names=False), "batch")))
    grad = run(path, fun, x)
    assert grad.vectorized_axes == (("batch", 2),)
    assert_same(grad, vec([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]], "batch"))


def test_vectorization_reshape_then_vectorize_inside_grad(path):
    x = vec([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]], "batch")
    grad = run(path, grad_of(lambda t: nbt.sum(nbt.reshape(t, (2, 2)))), x)
    assert grad.vectorized_axes == (("batch", 2),)


def test_vectorization_non_vectorized_input_vectorized_output(path):
    x_vec = vec([[1.0, 2.0], [3.0, 4.0]], "batch")
    grad = run(path, grad_of(lambda y: nbt.sum(nbt.add(x_vec, y))), nbt.tensor([1.0, 1.0]))
    assert grad.vectorized_axes == (("batch", 2),)


def test_vectorization_rename_vectorized_axes_inside_grad(path):
    x = vec([[1.0, 2.0], [3.0, 4.0]], "a")
    grad = run(path, grad_of(lambda t: nbt.sum(nbt.vectorize(nbt.devectorize(t, keep_names=False), "b"))), x)
    assert grad.vectorized_axes == (("a", 2),)


def test_vectorization_devectorize_then_compute_then_return_scalar(path):
    x = vec([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "batch")

    def f(t):
        devec = nbt.devectorize(t, keep_names=False)
        return nbt.sum(nbt.multiply(devec, devec))

    assert run(path, grad_of(f), x).vectorized_axes == (("batch", 2),)


def test_vectorization_chained_devectorize_vectorize_with_computation(path):
    x = vec([[1.0, 2.0], [3.0, 4.0]], "batch")

    def f(t):
        doubled = nbt.multiply(nbt.devectorize(t, keep_names=False), 2)
        return nbt.sum(nbt.vectorize(doubled, "batch"))

    grad = run(path, grad_of(f), x)
    assert grad.vectorized_axes == (("batch", 2),)
    assert_same(grad, vec([[2.0, 2.0], [2.0, 2.0]], "batch"))


def test_vectorization_multiple_vectorized_axes_input(path):
    x = nbt.vectorize(nbt.vectorize(nbt.tensor([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]), "a"), "b")
    grad = run(path, grad_of(lambda t: nbt.sum(nbt.multiply(t, t))), x)
    assert grad.vectorized_axes == (("a", 2), ("b", 2))


def test_vectorization_second_order_grad(path):
    x = vec([[1.0, 2.0], [3.0, 4.0]], "batch")
    fun = grad_of(lambda t: nbt.sum(nbt.grad(lambda u: nbt.sum(nbt.pow(u, 3)))(t)))
    assert run(path, fun, x).vectorized_axes == (("batch", 2),)


def test_vectorization_constant_grad_ops_with_vectorized_inputs_all_any_argmax_argmin(path):
    x = vec([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "batch")
    for op in (nbt.argmax, nbt.argmin):
        grad = run(path, grad_of(lambda t, op=op: nbt.sum(nbt.multiply(t, op(t)))), x)
        assert grad.vectorized_axes == (("batch", 2),)


def test_vectorization_window_scatter_max_min_with_vectorized_inputs(path):
    t = vec([[[7.0, 2.0, 5.0, 3.0], [8.0, 9.0, 1.0, 5.0]], [[1.0, 5.0, 7.0, 0.0], [6.0, 2.0, 4.0, 3.0]]], "batch")
    source = nbt.tensor([[2.0, 6.0], [3.0, 1.0]])
    fun = grad_of(lambda t: nbt.window_scatter_max(t, source, 0, (1, 2), strides=[1, 2], padding="valid"))
    assert run(path, fun, t).vectorized_axes == (("batch", 2),)


def test_vectorization_value_and_grad_with_vectorized_target(path):
    x = vec([[1.0, 2.0], [3.0, 4.0]], "batch")
    value, grad = run(path, lambda t: nbt.value_and_grad(lambda t: nbt.sum(nbt.multiply(t, t)))(t), x)
    assert value.vectorized_axes == (("batch", 2),)
    assert grad.vectorized_axes == (("batch", 2),)


def test_vectorization_grad_of_non_vectorized_target_with_vectorized_capture(path):
    x_vec = vec([[1.0, 2.0], [3.0, 4.0]], "batch")
    grad = run(path, grad_of(lambda y: nbt.sum(nbt.multiply(x_vec, y))), nbt.tensor(2.0))
    assert grad.vectorized_axes == (("batch", 2),)


def test_vectorization_grad_w_r_t_tuple_of_vectorized_and_non_vectorized(path):
    x = vec([[1.0, 2.0], [3.0, 4.0]], "batch")
    fun = lambda a, b: nbt.grad(lambda ab: nbt.sum(nbt.multiply(ab[0], ab[1])))((a, b))
    grad_x, grad_y = run(path, fun, x, nbt.tensor(2.0))
    assert grad_x.vectorized_axes == (("batch", 2),)
    assert grad_y.vectorized_axes == (("batch", 2),)


def test_vectorization_large_vectorized_batch(path):
    x = nbt.vectorize(nbt.add(nbt.divide(nbt.iota((64, 4), type="f32"), 256), 0.1), "batch")
    check_vectorized_grad(path, x, lambda x: nbt.sum(nbt.exp(x)))


def two_inputs(op, x, y):
    return nbt.grad(lambda ab: op(ab[0], ab[1]))((x, y))


def test_vectorization_mixed_vectorized_axes_with_add(path):
    grads = run(
        path, lambda x, y: two_inputs(nbt.add, x, y), vec([[1.0, 2.0], [3.0, 4.0]], "x"), vec([10.0, 20.0], "y")
    )
    assert [g.vectorized_axes for g in grads] == [(("x", 2), ("y", 2))] * 2


def test_vectorization_mixed_vectorized_axes_with_multiply(path):
    x, y = vec([[1.0, 2.0], [3.0, 4.0]], "x"), vec([10.0, 20.0], "y")
    grads = run(path, lambda x, y: two_inputs(nbt.multiply, x, y), x, y)
    assert [g.vectorized_axes for g in grads] == [(("x", 2), ("y", 2))] * 2


def foo_bar(values):
    return nbt.vectorize(nbt.tensor(values), [("foo", len(values)), ("bar", len(values[0]))])


def test_vectorization_heterogenous_vec_grad_multiply_per_instance_partials(path):
    fun = lambda x, y: two_inputs(lambda a, b: nbt.sum(nbt.multiply(a, b)), x, y)
    grad_x, grad_y = run(path, fun, vec([2.0, 5.0], "foo"), vec([3.0, 4.0], "bar"))
    assert_same(grad_x, foo_bar([[3.0, 4.0], [3.0, 4.0]]))
    assert_same(grad_y, foo_bar([[2.0, 2.0], [5.0, 5.0]]))


def test_vectorization_heterogenous_vec_grad_add_constant_per_instance_partials(path):
    fun = lambda x, y: two_inputs(lambda a, b: nbt.sum(nbt.add(a, b)), x, y)
    grad_x, grad_y = run(path, fun, vec([2.0, 5.0], "foo"), vec([3.0, 4.0, 6.0], "bar"))
    ones = [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]
    assert_same(grad_x, foo_bar(ones))
    assert_same(grad_y, foo_bar(ones))


def test_vectorization_heterogenous_vec_grad_sin_add_per_instance_partials(path):
    fun = lambda x, y: two_inputs(lambda a, b: nbt.sum(nbt.sin(nbt.add(a, b))), x, y)
    grad_x, grad_y = run(path, fun, vec([0.5, 1.0], "foo"), vec([0.0, 0.3], "bar"))
    expected = nbt.tensor(np.cos([[0.5, 0.8], [1.0, 1.3]]))
    for grad in (grad_x, grad_y):
        assert grad.vectorized_axes == (("foo", 2), ("bar", 2))
        assert_all_close(nbt.devectorize(grad), expected, atol=1.0e-6)


def test_vectorization_heterogenous_vec_grad_x_2_y_asymmetric_per_instance_partials(path):
    fun = lambda x, y: two_inputs(lambda a, b: nbt.sum(nbt.multiply(nbt.pow(a, 2), b)), x, y)
    grad_x, grad_y = run(path, fun, vec([2.0, 5.0], "foo"), vec([3.0, 4.0], "bar"))
    assert_same(grad_x, foo_bar([[12.0, 16.0], [30.0, 40.0]]))
    assert_same(grad_y, foo_bar([[4.0, 4.0], [25.0, 25.0]]))


HIDDEN = nbt.vectorize(nbt.iota((4, 2, 3), type="f32"), "batch")


def test_vectorization_hidden_vec_axes_inside_grad_rename_to_different_names_and_lengths(path):
    fun = grad_of(lambda t: nbt.sum(nbt.vectorize(nbt.devectorize(t, keep_names=False), [("a", 4), ("b", 2)])))
    grad = run(path, fun, HIDDEN)
    devec = nbt.devectorize(grad, keep_names=False)
    assert grad.vectorized_axes == (("batch", 4),)
    assert_same(devec, nbt.broadcast(1.0, devec.shape))


def test_vectorization_hidden_vec_axes_inside_grad_same_outer_name_with_hidden_intermediate_axes(path):
    def f(t):
        s = nbt.sum(nbt.vectorize(nbt.devectorize(t, keep_names=False), [("a", 4), ("b", 2)]))
        return nbt.sum(nbt.vectorize(nbt.devectorize(s, keep_names=False), [("batch", 4)]))

    grad = run(path, grad_of(f), HIDDEN)
    devec = nbt.devectorize(grad, keep_names=False)
    assert grad.vectorized_axes == (("batch", 4),)
    assert_same(devec, nbt.broadcast(1.0, devec.shape))


def test_vectorization_hidden_vec_axes_inside_grad_same_length_different_name(path):
    fun = grad_of(lambda t: nbt.sum(nbt.vectorize(nbt.devectorize(t, keep_names=False), [("other", 4)])))
    assert_same(run(path, fun, HIDDEN), nbt.vectorize(nbt.broadcast(1.0, (4, 2, 3)), [("batch", 4)]))


def qr_sum(t):
    q, r = la.qr(t)
    return nbt.add(nbt.sum(q), nbt.sum(r))


def eigh_sum(t):
    evals, evecs = la.eigh(t)
    return nbt.add(nbt.sum(evals), nbt.sum(evecs))


def test_vectorization_vectorized_grad_through_nx_linalg_qr_custom_grad(path):
    x = vec([[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]], "batch")
    check_vectorized_grad(path, x, qr_sum)


def test_vectorization_vectorized_grad_through_nx_linalg_eigh_autograd_via_defn(path):
    x = vec([[[2.0, 1.0], [1.0, 3.0]], [[4.0, 0.5], [0.5, 5.0]]], "batch")
    check_vectorized_grad(path, x, eigh_sum)


def test_vectorization_vectorized_grad_through_nx_linalg_cholesky(path):
    x = vec([[[4.0, 2.0], [2.0, 5.0]], [[9.0, 3.0], [3.0, 5.0]], [[16.0, 4.0], [4.0, 8.0]]], "batch")
    check_vectorized_grad(path, x, lambda t: nbt.sum(la.cholesky(t)))


def test_vectorization_vectorized_grad_through_nx_linalg_triangular_solve_with_captured_a(path):
    a = nbt.tensor([[1.0, 0.0], [2.0, 3.0]])
    b = vec([[4.0, 5.0], [2.0, 3.0], [1.0, 1.0]], "batch")
    check_vectorized_grad(path, b, lambda b: nbt.sum(la.triangular_solve(a, b)))


SIGNED = vec([[2.0, 3.0], [-5.0, -6.0], [1.0, 1.0]], "batch")


def test_vectorization_vectorized_grad_through_nx_select_abs_via_greater(path):
    check_vectorized_grad(path, SIGNED, lambda x: nbt.sum(nbt.select(nbt.greater(x, 0.0), x, nbt.negate(x))))


def test_vectorization_vectorized_grad_through_nx_select_abs_via_greater_unary_minus_in_defn(path):
    check_vectorized_grad(path, SIGNED, lambda x: nbt.sum(nbt.select(nbt.greater(x, 0.0), x, -x)))


def vectorized_abs_cond(x):
    return nbt.cond(nbt.greater(nbt.sum(x), 0.0), lambda: nbt.multiply(x, 2.0), lambda: nbt.multiply(x, -2.0))


def test_vectorization_vectorized_grad_through_nx_cond(path):
    check_vectorized_grad(path, SIGNED, vectorized_abs_cond)


def test_vectorization_three_different_vectorized_axes(path):
    def fun(x, y, z):
        return nbt.grad(lambda abc: nbt.add(nbt.multiply(abc[0], abc[1]), abc[2]))((x, y, z))

    grads = run(path, fun, vec([[1.0, 2.0], [3.0, 4.0]], "x"), vec([10.0, 20.0], "y"), vec([100.0], "z"))
    assert [g.vectorized_axes for g in grads] == [(("x", 2), ("y", 2), ("z", 1))] * 3


def test_vectorization_two_vectorized_inputs_through_sin_add(path):
    fun = lambda x, y: two_inputs(lambda a, b: nbt.sin(nbt.add(a, b)), x, y)
    grads = run(path, fun, vec([[1.0, 2.0], [3.0, 4.0]], "x"), vec([0.5, 1.0], "y"))
    assert [g.vectorized_axes for g in grads] == [(("x", 2), ("y", 2))] * 2


BATCH_3X3 = vec([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], "batch")
BATCH_3X2X2 = vec([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]], [[9.0, 10.0], [11.0, 12.0]]], "batch")


def test_vectorization_exp_basic_vectorized_grad(path):
    x = vec([[0.5, 1.0, 1.5], [2.0, 0.3, 0.8], [1.2, 0.7, 0.1]], "batch")
    check_vectorized_grad(path, x, lambda x: nbt.sum(nbt.exp(x)))


def test_vectorization_multiply_then_sum(path):
    check_vectorized_grad(path, BATCH_3X3, lambda x: nbt.sum(nbt.multiply(x, x)))


def test_vectorization_sum_axis_0_on_2d_inner_exercises_reduce_g_fix(path):
    check_vectorized_grad(path, BATCH_3X2X2, lambda x: nbt.sum(nbt.sum(x, axes=[0])))


def test_vectorization_reshape_inside_grad_exercises_reshape_boundary_crossing(path):
    check_vectorized_grad(path, BATCH_3X2X2, lambda x: nbt.sum(nbt.transpose(nbt.reshape(x, (4,)))))


def test_vectorization_concatenate_exercises_concatenate_grad_axis_offset(path):
    check_vectorized_grad(path, BATCH_3X3, lambda x: nbt.sum(nbt.concatenate([x, nbt.multiply(x, 2)], axis=0)))


def test_vectorization_window_sum_exercises_window_scatter_adjust(path):
    x = vec([[[1.0, 2.0, 3.0, 4.0]], [[5.0, 6.0, 7.0, 8.0]], [[-1.0, 0.0, 1.0, 2.0]]], "batch")
    check_vectorized_grad(path, x, lambda x: nbt.sum(nbt.window_sum(x, (1, 2))))


def test_vectorization_dot_with_captured_matrix_exercises_concrete_tensor_handling(path):
    w = nbt.tensor([[1.0, 2.0], [3.0, 4.0]])
    check_vectorized_grad(path, BATCH_3X2X2, lambda x: nbt.sum(nbt.dot(x, w)))


def test_vectorization_cumulative_sum_exercises_axis_name_collision_fix(path):
    check_vectorized_grad(path, BATCH_3X3, lambda x: nbt.sum(nbt.cumulative_sum(x)))


def test_vectorization_conv_with_vectorized_exercises_conv_grad(path):
    k = nbt.tensor([[[1.0, 0.0, -1.0]]])
    x = vec([[[[1.0, 2.0, 3.0, 4.0]]], [[[5.0, 6.0, 7.0, 8.0]]]], "batch")
    check_vectorized_grad(path, x, lambda x: nbt.sum(nbt.conv(x, k)))


def while_square_n(x):
    _, result = nbt.while_loop(lambda s: nbt.less(s[0], 3), lambda s: (s[0] + 1, nbt.multiply(s[1], s[1])), (0, x))
    return nbt.sum(result)


def test_vectorization_while_loop_repeated_squaring_exercises_while_boundary(path):
    x = vec([[0.5, 0.8], [1.2, 0.3], [0.9, 0.4]], "batch")
    check_vectorized_grad(path, x, while_square_n)


def test_vectorization_mixed_vectorized_x_non_vectorized_y_exercises_broadcast_vectors(path):
    y = nbt.tensor([10.0, 20.0, 30.0])
    check_vectorized_grad(path, BATCH_3X3, lambda x: nbt.sum(nbt.multiply(x, y)))


def test_vectorization_two_vectorized_axes_exercises_unbroadcast_for_multiple_axes(path):
    x = nbt.vectorize(nbt.tensor([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]), ["a", "b"])
    check_vectorized_grad(path, x, lambda x: nbt.sum(nbt.multiply(x, x)))


def test_vectorization_composed_sigmoid_x_w_b_exercises_composed_chain_with_captures(path):
    w = nbt.tensor([[0.5, -0.3], [0.2, 0.8]])
    b = nbt.tensor([0.1, -0.1])
    x = vec([[1.0, 2.0], [3.0, 4.0], [-1.0, 0.5]], "batch")
    check_vectorized_grad(path, x, lambda x: nbt.sum(nbt.sigmoid(nbt.add(nbt.dot(x, w), b))))
