"""Nx 0.13.1 nx/test/nx/defn/grad_test.exs, lines 2164-2281, 2619-2908 and 3219-3356:
"broadcast", "concatenate", "stack", "squeeze", "pad", "slice", "put_slice", "reverse", "axes"."""

import numbat as nbt

from ._support import assert_all_close, assert_same, assert_same_rounded, run

I = nbt.tensor(1j)  # Nx.Constants.i()


def grad_sum_broadcast(t):
    return nbt.grad(lambda t: nbt.sum(nbt.broadcast(t, (3, 2, 2))))(t)


def test_broadcast_computes_gradient(path):
    cases = [((3, 2, 2), 1.0), ((1, 2, 2), 3.0), ((3, 1, 2), 2.0), ((3, 2, 1), 2.0), ((3, 1, 1), 4.0)]
    cases += [((1, 1, 1), 12.0), ((2, 2), 3.0), ((1, 2), 6.0), ((2, 1), 6.0), ((2,), 6.0), ((), 12.0)]
    for multiplier in [1, I]:
        for shape, value in cases:
            t = nbt.multiply(nbt.iota(shape), multiplier)
            assert_same(run(path, grad_sum_broadcast, t), nbt.broadcast(value, shape))


def concatenate_grad(t):
    return nbt.grad(lambda t: nbt.sum(nbt.concatenate([t, t], axis=0)))(t)


def concatenate_grad_power(t):
    return nbt.grad(lambda t: nbt.sum(nbt.concatenate([nbt.pow(t, 2), nbt.pow(t, 3)], axis=0)))(t)


def concatenate_grad_composed(t):
    return nbt.grad(lambda t: nbt.sum(nbt.concatenate([nbt.log(nbt.pow(t, 2)), nbt.log(nbt.pow(t, 3))], axis=3)))(t)


def concatenate_grad_log1p(t):
    return nbt.grad(lambda t: nbt.sum(nbt.log1p(nbt.concatenate([nbt.pow(t, 2), nbt.pow(t, 3)], axis=3))))(t)


def test_concatenate_computes_grad_for_1_tensor(path):
    assert_same(run(path, concatenate_grad, nbt.tensor([1.0])), nbt.tensor([2.0]))


def test_concatenate_computes_grad_for_2_2_tensor(path):
    assert_same(run(path, concatenate_grad, nbt.tensor([[1.0, 2.0], [3.0, 4.0]])), nbt.tensor([[2.0, 2.0], [2.0, 2.0]]))


def test_concatenate_computes_grad_for_powers_of_a_2_2_tensor(path):
    assert_same(
        run(path, concatenate_grad_power, nbt.tensor([[1.0, 2.0], [3.0, 4.0]])), nbt.tensor([[5.0, 16.0], [33.0, 56.0]])
    )
    assert_same_rounded(
        run(path, concatenate_grad_power, nbt.tensor([[complex(0, 1), 2], [3, complex(0, 4)]])),
        nbt.tensor([[complex(-3, +2), 16], [33, complex(-48, +8)]]),
    )


def test_concatenate_computes_grad_for_composed_functions_on_a_multidim_tensor(path):
    assert_same_rounded(
        run(path, concatenate_grad_composed, nbt.tensor([[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]]])),
        nbt.tensor([[[[5.0, 2.5], [1.6666667, 1.25], [1.0, 0.8333334]]]]),
    )


def test_concatenate_computes_grad_for_composed_functions_applied_to_concatenate(path):
    assert_same_rounded(
        run(path, concatenate_grad_log1p, nbt.tensor([[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]]])),
        nbt.tensor([[[[2.5, 2.1333334], [1.5642858, 1.2090498], [0.9798535, 0.8220202]]]]),
    )


def stack_grad(t):
    return nbt.grad(lambda t: nbt.sum(nbt.stack([nbt.pow(t, 2), nbt.pow(t, 3), nbt.pow(t, 4)], axis=1)))(t)


def test_stack_works_on_compound_functions_for_more_than_1_axis(path):
    x = 2.0
    assert_same(run(path, stack_grad, nbt.tensor([[x]])), nbt.tensor([[2 * x + 3 * x**2 + 4 * x**3]]))


def grad_sum_squeeze_broadcast(t):
    return nbt.grad(lambda t: nbt.sum(nbt.squeeze(nbt.broadcast(t, (3, 2, 2)))))(t)


SQUEEZE_CASES = [((3, 2, 2), 1.0), ((1, 2, 2), 3.0), ((1, 1, 2), 6.0), ((1, 1, 1), 12.0), ((2, 2), 3.0)]
SQUEEZE_CASES += [((1, 2), 6.0), ((1, 1), 12.0), ((2,), 6.0), ((1,), 12.0), ((), 12.0)]


def test_squeeze_computes_gradient(path):
    for shape, value in SQUEEZE_CASES:
        assert_same(run(path, grad_sum_squeeze_broadcast, nbt.iota(shape)), nbt.broadcast(value, shape))


def test_squeeze_computes_gradient_for_complex(path):
    for shape, value in SQUEEZE_CASES:
        t = nbt.multiply(I, nbt.iota(shape))
        assert_same(run(path, grad_sum_squeeze_broadcast, t), nbt.broadcast(value, shape))


def grad_sum_pad(t):
    return nbt.grad(lambda t: nbt.sum(nbt.pad(t, 2.0, [(-1, 1, 0), (1, 1, 0)])))(t)


def grad_interior_pad(t):
    return nbt.grad(lambda t: nbt.sum(nbt.pad(t, 2.0, [(0, 0, 1), (0, 0, 1)])))(t)


def grad_lots_of_pad(t):
    return nbt.grad(lambda t: nbt.sum(nbt.pad(t, 2.0, [(-2, 1, 4), (1, 3, 2)])))(t)


def grad_pad_fun(t):
    return nbt.grad(lambda t: nbt.mean(nbt.pad(t, nbt.mean(nbt.cos(t)), [(-2, 1, 4), (1, 3, 2)])))(t)


def test_pad_computes_gradient(path):
    assert_same(run(path, grad_sum_pad, nbt.tensor([[1.0, 2.0], [1.0, 2.0]])), nbt.tensor([[0.0, 0.0], [1.0, 1.0]]))


def test_pad_computes_gradient_with_interior_pad(path):
    t = nbt.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert_same(run(path, grad_interior_pad, t), nbt.tensor([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]))


def test_pad_computes_gradient_with_diverse_pad(path):
    t = nbt.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert_same(run(path, grad_lots_of_pad, t), nbt.tensor([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]))


def test_pad_computes_with_pad_value_from_tensor(path):
    assert_same_rounded(
        run(path, grad_pad_fun, nbt.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])),
        nbt.tensor(
            [
                [-0.13259540498256683, -0.14328321814537048, -0.022237088531255722],
                [0.13743554055690765, 0.16928502917289734, 0.062210917472839355],
            ]
        ),
    )


def test_pad_works_on_complex(path):
    t = nbt.multiply(nbt.tensor([[1.0, 2.0], [1.0, 2.0]], type="c64"), I)
    assert_same(run(path, grad_sum_pad, t), nbt.tensor([[0.0, 0.0], [1.0, 1.0]]))


def grad_mean_slice(t):
    return nbt.grad(lambda t: nbt.mean(nbt.slice(t, [0, 1], [1, 2], strides=[1, 2])))(t)


def grad_mean_dynamic_slice(t):
    return nbt.grad(lambda t: nbt.mean(nbt.slice(t, [nbt.tensor(0), nbt.tensor(1)], [1, 2], strides=[1, 2])))(t)


def grad_sum_slice(t):
    return nbt.grad(lambda t: nbt.sum(nbt.slice(t, [1, 0], [1, 2], strides=[1, 1])))(t)


def grad_sum_dynamic_slice(t):
    return nbt.grad(lambda t: nbt.sum(nbt.slice(t, [nbt.tensor(1), nbt.tensor(0)], [1, 2], strides=[1, 1])))(t)


def pad_slice(starts):
    def grad_of(t):
        def f(t):
            sliced = nbt.slice(t, starts(), [1, 2], strides=[1, 1])
            return nbt.sum(nbt.pad(sliced, nbt.mean(nbt.sin(t)), [(2, 1, 2), (-1, 2, 0)]))

        return nbt.grad(f)(t)

    return grad_of


def test_slice_computes_gradient(path):
    t = nbt.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert_same(run(path, grad_mean_slice, t), nbt.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]))
    assert_same(run(path, grad_mean_dynamic_slice, t), nbt.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]))
    assert_same(run(path, grad_sum_slice, t), nbt.tensor([[0.0, 0.0, 0.0], [1.0, 1.0, 0.0]]))
    assert_same(run(path, grad_sum_slice, nbt.multiply(t, I)), nbt.tensor([[0.0, 0.0, 0.0], [1.0, 1.0, 0.0]]))
    assert_same(run(path, grad_sum_dynamic_slice, t), nbt.tensor([[0.0, 0.0, 0.0], [1.0, 1.0, 0.0]]))
    rhs = nbt.tensor(
        [
            [0.9905542274249228, -0.7629358670030943, -1.8149862437674833],
            [-1.1983466382499552, 1.520047340015915, 1.7603121921923377],
        ]
    )
    assert_all_close(run(path, pad_slice(lambda: [1, 0]), t), rhs)
    assert_all_close(run(path, pad_slice(lambda: [nbt.tensor(1), nbt.tensor(0)]), t), rhs)


def grad_of_index(t, index):
    return nbt.grad(lambda i: nbt.mean(nbt.slice(t, [i], [2])))(index)


def test_slice_computes_gradient_of_index(path):
    t = nbt.tensor([1.0, 2.0, 3.0, 4.0, 5.0])
    assert_same(run(path, grad_of_index, t, nbt.reduce_max(nbt.tensor([-1, 0, 1]))), nbt.tensor(0.0))


def grad_mean_put_slice_operand(t1, t2):
    return nbt.grad(lambda t: nbt.mean(nbt.put_slice(t, [0, 1], t2)))(t1)


def grad_mean_put_slice_update(t1, t2):
    return nbt.grad(lambda t: nbt.mean(nbt.put_slice(t1, [0, 1], t)))(t2)


def pad_put_slice(operand, update):
    return nbt.sum(
        nbt.pad(
            nbt.put_slice(nbt.cos(operand), [1, 2], nbt.sin(update)),
            nbt.mean(nbt.sin(operand)),
            [(2, 1, 2), (-1, 2, 0)],
        )
    )


def grad_sum_pad_put_slice_cos_operand(t1, t2):
    return nbt.grad(lambda t: pad_put_slice(t, t2))(t1)


def grad_sum_pad_put_slice_sin_update(t1, t2):
    return nbt.grad(lambda t: pad_put_slice(t1, t))(t2)


PUT_T1 = nbt.tensor([[1.0, 2.0, 3.0, 4.0], [4.0, 5.0, 6.0, 7.0], [7.0, 8.0, 9.0, 10.0]])
PUT_T2 = nbt.tensor([[10.0, 11.0], [12.0, 13.0]])


def test_put_slice_computes_gradient_of_operand(path):
    t1 = nbt.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert_all_close(
        run(path, grad_mean_put_slice_operand, t1, nbt.tensor([[10.0, 11.0]])),
        nbt.tensor([[0.16666667, 0.0, 0.0], [0.16666667, 0.16666667, 0.16666667]]),
    )
    assert_all_close(
        run(path, grad_sum_pad_put_slice_cos_operand, PUT_T1, PUT_T2),
        nbt.tensor(
            [
                [1.84603288, -2.33113245, -3.52359437, -1.47647988],
                [-2.23328237, 1.92810341, 3.28058181, 2.5758327],
                [2.5758327, -1.48648336, -3.11302839, -2.86682772],
            ]
        ),
    )


def test_put_slice_computes_gradient_of_update(path):
    t1 = nbt.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert_all_close(
        run(path, grad_mean_put_slice_update, t1, nbt.tensor([[10.0, 11.0]])), nbt.tensor([[0.16666667, 0.16666667]])
    )
    assert_all_close(
        run(path, grad_sum_pad_put_slice_sin_update, PUT_T1, PUT_T2),
        nbt.tensor([[-0.83907153, 0.0044257], [0.84385396, 0.90744678]]),
    )


def test_put_slice_works_on_complex(path):
    t1 = nbt.multiply(nbt.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], type="c64"), I)
    t2 = nbt.multiply(nbt.tensor([[10.0, 11.0]], type="c64"), I)
    assert_all_close(
        run(path, grad_mean_put_slice_operand, t1, t2),
        nbt.tensor([[0.16666667, 0.0, 0.0], [0.16666667, 0.16666667, 0.16666667]]),
    )
    assert_all_close(run(path, grad_mean_put_slice_update, t1, t2), nbt.tensor([[0.16666667, 0.16666667]]))


def grad_sum_reverse_exp(t):
    return nbt.grad(lambda t: nbt.sum(nbt.reverse(nbt.exp(t))))(t)


def grad_sum_exp_reverse(t):
    return nbt.grad(lambda t: nbt.sum(nbt.exp(nbt.reverse(t))))(t)


def test_reverse_computes_gradient(path):
    t = nbt.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    expected = nbt.tensor(
        [
            [2.718281828459045, 7.38905609893065, 20.085536923187668],
            [54.598150033144236, 148.4131591025766, 403.4287934927351],
        ]
    )
    assert_same_rounded(run(path, grad_sum_exp_reverse, t), expected)
    assert_all_close(
        run(path, grad_sum_exp_reverse, nbt.tensor([1, complex(0, -2), 3])),
        nbt.tensor([2.7182, complex(-0.4161, -0.9092), 20.0855]),
    )
    assert_same_rounded(run(path, grad_sum_reverse_exp, t), expected)


# describe "axes"

INT_2X3 = nbt.tensor([[1, 2, 3], [4, 5, 6]])


def grad_with(fun):
    return lambda t: nbt.grad(fun)(t)


def test_axes_computes_gradient_in_full(path):
    t = nbt.tensor([[1, 2], [3, 4]])
    assert_same(run(path, grad_with(nbt.sum), t), nbt.tensor([[1.0, 1.0], [1.0, 1.0]]))
    assert_same(run(path, grad_with(nbt.mean), t), nbt.tensor([[0.25, 0.25], [0.25, 0.25]]))


def log_sum_sin_sum(axis, keep_axes=False):
    return grad_with(lambda t: nbt.sum(nbt.sin(nbt.sum(nbt.log(t), axes=[axis], keep_axes=keep_axes))))


def test_axes_computes_log_sum_axis_sin_sum(path):
    assert_all_close(
        run(path, log_sum_sin_sum(0), INT_2X3),
        nbt.tensor(
            [
                [0.18345697474330172, -0.33410075509515635, -0.3228698817445151],
                [0.04586424368582543, -0.13364030203806254, -0.16143494087225754],
            ]
        ),
    )
    assert_all_close(
        run(path, log_sum_sin_sum(1), INT_2X3),
        nbt.tensor(
            [
                [-0.21916944995978982, -0.10958472497989491, -0.07305648331992994],
                [0.01875804509762369, 0.015006436078098952, 0.012505363398415794],
            ]
        ),
    )


def test_axes_computes_log_sum_keep_axes_sin_sum(path):
    assert_all_close(
        run(path, log_sum_sin_sum(1, keep_axes=True), INT_2X3),
        nbt.tensor(
            [
                [-0.21916944995978982, -0.10958472497989491, -0.07305648331992994],
                [0.01875804509762369, 0.015006436078098952, 0.012505363398415794],
            ]
        ),
    )


def test_axes_computes_sum_axis_mean(path):
    assert_same(
        run(path, grad_with(lambda t: nbt.mean(nbt.sum(t, axes=[0]))), INT_2X3),
        nbt.tensor(
            [
                [0.3333333333333333, 0.3333333333333333, 0.3333333333333333],
                [0.3333333333333333, 0.3333333333333333, 0.3333333333333333],
            ]
        ),
    )
    assert_same(
        run(path, grad_with(lambda t: nbt.mean(nbt.sum(t, axes=[1]))), INT_2X3),
        nbt.tensor([[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]]),
    )


def test_axes_computes_mean_axis_sum(path):
    assert_same(
        run(path, grad_with(lambda t: nbt.sum(nbt.mean(t, axes=[0]))), INT_2X3),
        nbt.tensor([[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]]),
    )
    assert_same(
        run(path, grad_with(lambda t: nbt.sum(nbt.mean(t, axes=[1]))), INT_2X3),
        nbt.tensor(
            [
                [0.3333333333333333, 0.3333333333333333, 0.3333333333333333],
                [0.3333333333333333, 0.3333333333333333, 0.3333333333333333],
            ]
        ),
    )


def reshape_mean_sum(axis):
    return grad_with(lambda t: nbt.sum(nbt.mean(nbt.reshape(nbt.log(t), (3, 2)), axes=[axis])))


def test_axes_computes_log_reshape_mean_axis_sum(path):
    assert_same(
        run(path, reshape_mean_sum(0), INT_2X3),
        nbt.tensor(
            [
                [0.3333333333333333, 0.16666666666666666, 0.1111111111111111],
                [0.08333333333333333, 0.06666666666666667, 0.05555555555555555],
            ]
        ),
    )
    assert_all_close(
        run(path, reshape_mean_sum(0), nbt.tensor([1, complex(0, 2), 3, 1, complex(0, -2), -1])),
        nbt.tensor([0.3333333, complex(0, -0.166666), 0.111111, 0.3333333, complex(0, 0.1666666), -0.333333]),
    )
    assert_same(
        run(path, reshape_mean_sum(0), nbt.tensor([1, 2, 3, 4, 5, 6])),
        nbt.tensor(
            [
                0.3333333333333333,
                0.16666666666666666,
                0.1111111111111111,
                0.08333333333333333,
                0.06666666666666667,
                0.05555555555555555,
            ]
        ),
    )
    assert_same(
        run(path, reshape_mean_sum(1), INT_2X3),
        nbt.tensor([[0.5, 0.25, 0.16666666666666666], [0.125, 0.1, 0.08333333333333333]]),
    )


def transpose_mean_sum(axis):
    return grad_with(lambda t: nbt.sum(nbt.mean(nbt.transpose(nbt.log(t)), axes=[axis])))


def test_axes_computes_log_transpose_mean_axis_sum(path):
    assert_same(
        run(path, transpose_mean_sum(0), INT_2X3),
        nbt.tensor(
            [
                [0.3333333333333333, 0.16666666666666666, 0.1111111111111111],
                [0.08333333333333333, 0.06666666666666667, 0.05555555555555555],
            ]
        ),
    )
    assert_all_close(
        run(path, transpose_mean_sum(0), nbt.tensor([[1, complex(0, 2), 3, 1, complex(0, -2), -1]])),
        nbt.tensor([[0.1666, complex(0, -0.0833), 0.0555, 0.1666, complex(0, 0.0833), -0.1666]]),
    )
    assert_same(
        run(path, transpose_mean_sum(1), INT_2X3),
        nbt.tensor([[0.5, 0.25, 0.16666666666666666], [0.125, 0.1, 0.08333333333333333]]),
    )
