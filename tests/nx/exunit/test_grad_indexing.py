"""Nx 0.13.1 nx/test/nx/defn/grad_test.exs, lines 3675-4559 and 4982-5155: "sort",
"take_along_axis", "take", "gather", "fft and ifft", "indexed_put", "indexed_add",
"not implemented", "window_scatter_min/max"."""

import numbat as nbt

from ._support import assert_all_close, assert_equal, assert_raises, assert_same, assert_same_rounded, run


def grad_with(fun):
    return lambda t: nbt.grad(fun)(t)


SORT_INPUT = nbt.tensor([4.0, 8.0, 15.0, 16.0, 23.0, 42.0])


def grad_sum_log_power_sort_cos(**opts):
    return grad_with(lambda t: nbt.sum(nbt.log(nbt.pow(nbt.sort(nbt.cos(t), **opts), 2))))


def test_sort_computes_gradient(path):
    fun = grad_with(lambda t: nbt.sum(nbt.sort(t, direction="desc")))
    assert_same(nbt.tensor([1.0, 1.0, 1.0, 1.0, 1.0, 1.0]), run(path, fun, SORT_INPUT))
    fun = grad_with(lambda t: nbt.sum(nbt.sort(nbt.pow(t, 2), direction="desc")))
    assert_same(nbt.tensor([2.0, 4.0, 6.0, 8.0]), run(path, fun, nbt.tensor([1, 2, 3, 4])))
    fun = grad_with(lambda t: nbt.sum(nbt.pow(nbt.sort(t, direction="desc"), 2)))
    assert_same(nbt.tensor([2.0, 4.0, 6.0, 8.0]), run(path, fun, nbt.tensor([1, 2, 3, 4])))
    assert_same_rounded(
        nbt.tensor([-2.3156426, 0.2850931, 4.370079, -3.1148152]),
        run(path, grad_sum_log_power_sort_cos(), nbt.tensor([4, 3, 2, 1])),
    )


def test_sort_computes_gradient_with_slicing(path):
    fun = grad_with(lambda t: nbt.sum(nbt.slice_along_axis(nbt.sort(t, direction="desc"), 2, 3, axis=0)))
    assert_same(run(path, fun, SORT_INPUT), nbt.tensor([0.0, 1.0, 1.0, 1.0, 0.0, 0.0]))


def test_sort_computes_gradient_with_slicing_and_chain_rule(path):
    t = SORT_INPUT
    definition = nbt.multiply(nbt.multiply(nbt.sin(nbt.pow(t, 2)), -2), t)
    expected = nbt.select(nbt.tensor([0, 1, 1, 1, 0, 0]), definition, 0)
    fun = grad_with(
        lambda t: nbt.sum(nbt.cos(nbt.slice_along_axis(nbt.sort(nbt.pow(t, 2), direction="desc"), 2, 3, axis=0)))
    )
    assert_same_rounded(expected, run(path, fun, t))


def test_sort_computes_gradient_along_axis(path):
    t = nbt.tensor([[[4, 3, 2, 1], [1, 2, 3, 4]]])
    assert_same_rounded(
        nbt.tensor([[[-2.3156426, 0.2850931, 4.370079, -3.1148152], [-3.1148152, 4.370079, 0.2850931, -2.3156426]]]),
        run(path, grad_sum_log_power_sort_cos(axis=1), t),
    )


# describe "take_along_axis"

TAKE_ALONG_INDICES = nbt.tensor([[0, 0, 0], [1, 1, 0], [0, 1, 1]])
INT_3X2 = nbt.tensor([[0, 1], [2, 3], [4, 5]])


def take_along(fun):
    return lambda t, i: nbt.grad(lambda t: fun(t, i))(t)


def test_take_along_axis_computes_gradient(path):
    plain = take_along(lambda t, i: nbt.sum(nbt.take_along_axis(t, i, axis=1)))
    power = take_along(lambda t, i: nbt.sum(nbt.take_along_axis(nbt.pow(t, 2), i, axis=1)))
    log_cos = take_along(lambda t, i: nbt.sum(nbt.log(nbt.pow(nbt.take_along_axis(nbt.cos(t), i, axis=1), 2))))
    assert_same(nbt.tensor([[3.0, 0.0], [1.0, 2.0], [1.0, 2.0]]), run(path, plain, INT_3X2, TAKE_ALONG_INDICES))
    # Nx expects c64 for the complex input: a deliberate difference (untranslatable.DELIBERATE).
    assert_equal(
        nbt.tensor([[3.0, 0.0], [1.0, 2.0], [1.0, 2.0]], type="c64"),
        run(path, plain, nbt.tensor([[0, complex(0, 1)], [complex(0, 2), 3], [4, complex(0, 5)]]), TAKE_ALONG_INDICES),
    )
    assert_same(nbt.tensor([[0.0, 0.0], [4.0, 12.0], [8.0, 20.0]]), run(path, power, INT_3X2, TAKE_ALONG_INDICES))
    assert_same_rounded(
        nbt.tensor([[-0.0, -0.0], [4.370079, 0.5701862], [-2.3156426, 13.522059]]),
        run(path, log_cos, INT_3X2, TAKE_ALONG_INDICES),
    )


# describe "take"

INT_3X4 = nbt.tensor([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]])
TAKE_INDICES = nbt.tensor([[0, 1, 2, 2, 2], [0, 1, 2, 2, 2]])


def grad_sum_take(axis=0):
    return take_along(lambda t, i: nbt.sum(nbt.take(t, i, axis=axis)))


GRAD_TAKE_AXIS_1_POWER = take_along(lambda t, i: nbt.sum(nbt.take(nbt.pow(t, 2), i, axis=1)))
GRAD_TAKE_LOG_COS = take_along(lambda t, i: nbt.sum(nbt.log(nbt.pow(nbt.take(nbt.cos(t), i, axis=1), 2))))


def test_take_computes_gradient(path):
    assert_same(
        nbt.tensor([[2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0], [6.0, 6.0, 6.0, 6.0]]),
        run(path, grad_sum_take(), INT_3X4, TAKE_INDICES),
    )
    assert_same(
        nbt.tensor([[0.0, 4.0, 24.0, 0.0], [16.0, 20.0, 72.0, 0.0], [32.0, 36.0, 120.0, 0.0]]),
        run(path, GRAD_TAKE_AXIS_1_POWER, INT_3X4, TAKE_INDICES),
    )
    assert_same_rounded(
        nbt.tensor([[0, complex(0, 4), 24, complex(0, -12)]]),
        run(
            path,
            GRAD_TAKE_AXIS_1_POWER,
            nbt.tensor([[0, complex(0, 1), 2, complex(0, -3)]]),
            nbt.tensor([[0, 1, 2, 2, 2, 3], [0, 1, 2, 2, 2, 3]]),
        ),
    )
    assert_same_rounded(
        nbt.tensor(
            [
                [-0.0, -6.2296305, 26.220474, -0.0],
                [-4.631285, 13.522059, 3.4920743, -0.0],
                [27.198847, 1.8092626, -7.7803297, 0.0],
            ]
        ),
        run(path, GRAD_TAKE_LOG_COS, INT_3X4, TAKE_INDICES),
    )


def test_take_works_with_more_dimensions(path):
    assert_same(
        nbt.tensor([[3.0, 3.0, 3.0, 3.0], [3.0, 3.0, 3.0, 3.0], [3.0, 3.0, 3.0, 3.0]]),
        run(path, grad_sum_take(), INT_3X4, nbt.tensor([[[[0], [1], [2]], [[2], [1], [0]], [[0], [1], [2]]]])),
    )
    assert_same(
        nbt.tensor([[1.0, 2.0, 1.0, 0.0], [1.0, 2.0, 1.0, 0.0], [1.0, 2.0, 1.0, 0.0]]),
        run(path, grad_sum_take(axis=1), INT_3X4, nbt.tensor([[[[0], [1]], [[2], [1]]]])),
    )


# describe "gather"

GATHER_INDICES = nbt.tensor(
    [[[[0, 0], [0, 1], [0, 2]], [[2, 0], [1, 0], [0, 1]], [[0, 1], [1, 1], [2, 2]], [[2, 3], [2, 3], [2, 3]]]]
)


def gather(fun):
    return lambda t, i: nbt.grad(lambda t: fun(t, i))(t)


def grad_sum_log_power_gather_cos(**opts):
    return gather(lambda t, i: nbt.sum(nbt.log(nbt.pow(nbt.gather(nbt.cos(t), i, **opts), 2))))


def test_gather_computes_gradient(path):
    plain = gather(lambda t, i: nbt.sum(nbt.gather(t, i)))
    power = gather(lambda t, i: nbt.sum(nbt.gather(nbt.pow(t, 2), i)))
    assert_same(
        nbt.tensor([[1.0, 3.0, 1.0, 0.0], [1.0, 1.0, 0.0, 0.0], [1.0, 0.0, 1.0, 3.0]]),
        run(path, plain, INT_3X4, GATHER_INDICES),
    )
    assert_same(
        nbt.tensor([[0.0, 6.0, 4.0, 0.0], [8.0, 10.0, 0.0, 0.0], [16.0, 0.0, 20.0, 66.0]]),
        run(path, power, INT_3X4, GATHER_INDICES),
    )
    assert_same_rounded(
        nbt.tensor([[0, complex(0, 2), 0, 0], [complex(0, 8), 0, 0, 0], [16, 0, 0, 0]]),
        run(
            path,
            power,
            nbt.tensor(
                [
                    [0, complex(0, 1), 2, complex(0, -3)],
                    [complex(0, 4), 5, complex(0, 6), 7],
                    [8, complex(0, 9), 10, complex(0, 11)],
                ]
            ),
            nbt.tensor([[[[0, 0], [0, 1]], [[2, 0], [1, 0]]]]),
        ),
    )
    result = nbt.tensor(
        [
            [-0.0, -9.34444522857666, 4.370079040527344, -0.0],
            [-2.3156425952911377, 6.7610297203063965, 0.0, -0.0],
            [13.5994234085083, -0.0, -1.2967215776443481, 1355.705078125],
        ]
    )
    assert_same_rounded(result, run(path, grad_sum_log_power_gather_cos(), INT_3X4, GATHER_INDICES))
    assert_same_rounded(
        nbt.new_axis(result, 1),
        run(path, grad_sum_log_power_gather_cos(axes=[0, 2]), nbt.new_axis(INT_3X4, 1), GATHER_INDICES),
    )


# describe "fft and ifft"

FFT_INPUT = nbt.tensor([[5, 5, 0, 0], [2, 2, 2, 2], [0, complex(0, 1), 0, 0]])


def fft_grad(fft, composed=False, **opts):
    if composed:
        return grad_with(lambda t: nbt.sum(nbt.exp(fft(nbt.cos(t), **opts))))
    return grad_with(lambda t: nbt.sum(fft(t, **opts)))


def test_fft_and_ifft_fft(path):
    padded = nbt.pad(FFT_INPUT, 0, [(0, 0, 0), (0, 2, 0)])
    assert_all_close(nbt.tensor([[4, 0, 0, 0], [4, 0, 0, 0], [4, 0, 0, 0]]), run(path, fft_grad(nbt.fft), FFT_INPUT))
    assert_all_close(
        nbt.tensor([[8, 0, 0, 0], [8, 0, 0, 0], [8, 0, 0, 0]]), run(path, fft_grad(nbt.fft, length=8), FFT_INPUT)
    )
    assert_all_close(
        nbt.tensor(
            [
                [14.16124, 12.1516, 0, 0, 0, 0],
                [-2.89999, 0.737196, 0.737196, 0.737196, 0, 0],
                [0, complex(0, -108.54785), 0, 0, 0, 0],
            ]
        ),
        run(path, fft_grad(nbt.fft, composed=True, length=4), padded),
    )


def test_fft_and_ifft_ifft(path):
    padded = nbt.pad(FFT_INPUT, 0, [(0, 0, 0), (0, 2, 0)])
    assert_all_close(nbt.tensor([[1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]]), run(path, fft_grad(nbt.ifft), FFT_INPUT))
    assert_all_close(
        nbt.tensor([[1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]]), run(path, fft_grad(nbt.ifft, length=8), FFT_INPUT)
    )
    assert_all_close(
        nbt.tensor(
            [
                [1.0896463, 0.28715, 0, 0, 0, 0],
                [-0.8319124, 0.077385, 0.077385, 0.077385, 0, 0],
                [0, complex(0, -0.57873374), 0, 0, 0, 0],
            ]
        ),
        run(path, fft_grad(nbt.ifft, composed=True, length=4), padded),
    )


# describe "indexed_put", "indexed_add"

T = nbt.iota((3, 4))
I = nbt.tensor([[0, 0], [2, 2], [1, 0], [0, 1], [2, 3]])
U = nbt.tensor([1, -1, 2, -2, 3])


def target(op, twice=False):
    def grad_of(t, i, u):
        def f(t):
            out = op(t, i, u)
            return nbt.sum(op(out, i, u) if twice else out)

        return nbt.grad(f)(t)

    return grad_of


def target_composite(op, **opts):
    return lambda t, i, u: nbt.grad(lambda t: nbt.sum(nbt.sin(op(nbt.cos(t), i, u, **opts))))(t)


def updates(op, twice=False):
    def grad_of(t, i, u):
        def f(u):
            out = op(t, i, u)
            return nbt.sum(op(out, i, u) if twice else out)

        return nbt.grad(f)(u)

    return grad_of


def updates_composite(op, **opts):
    return lambda t, i, u: nbt.grad(lambda u: nbt.sum(nbt.sin(op(t, i, nbt.cos(u), **opts))))(u)


def indices(op):
    return lambda t, i, u: nbt.grad(lambda i: nbt.sum(op(t, i, u)))(i)


def indices_composite(op, **opts):
    return lambda t, i, u: nbt.grad(lambda i: nbt.sum(nbt.sin(op(t, nbt.multiply(i, 2), u, **opts))))(i)


def simultaneous_composite(op, **opts):
    return lambda t, i: nbt.grad(lambda t: nbt.sum(nbt.sin(op(t, i, nbt.cos(t), **opts))))(t)


def new_axis_args():
    return nbt.new_axis(T, 1), I, nbt.new_axis(U, 1)


def test_indexed_put_grad_wrt_to_target(path):
    op = nbt.indexed_put
    assert_all_close(nbt.tensor([[0, 0, 1, 1], [0, 1, 1, 1], [1, 1, 0, 0]]), run(path, target(op), T, I, U))
    assert_all_close(
        nbt.tensor([[0, 0, -0.8316, -0.0774], [0, 0.9206, 0.1602, -0.4789], [-0.9789, -0.2525, 0, 0]]),
        run(path, target_composite(op), T, I, U),
    )
    assert_all_close(
        nbt.new_axis(nbt.tensor([[0, 0, -0.8316, -0.0774], [0, 0.9206, 0.1602, -0.4789], [-0.9789, -0.2525, 0, 0]]), 1),
        run(path, target_composite(op, axes=[0, 2]), *new_axis_args()),
    )


def test_indexed_put_grad_wrt_to_source(path):
    op = nbt.indexed_put
    assert_all_close(nbt.broadcast(1, U), run(path, updates(op), T, I, U))
    expected = nbt.negate(nbt.multiply(nbt.cos(nbt.cos(U)), nbt.sin(U)))
    assert_all_close(expected, run(path, updates_composite(op), T, I, U))
    assert_all_close(nbt.new_axis(expected, 1), run(path, updates_composite(op, axes=[0, 2]), *new_axis_args()))


def test_indexed_put_grad_wrt_to_indices(path):
    op = nbt.indexed_put
    assert_all_close(nbt.broadcast(0, I), run(path, indices(op), T, I, U))
    assert_all_close(nbt.broadcast(0, I), run(path, indices_composite(op), T, I, U))
    assert_all_close(nbt.broadcast(0, I), run(path, indices_composite(op, axes=[0, 2]), *new_axis_args()))


def test_indexed_put_grad_wrt_to_both_source_and_target_simultaneously(path):
    t, i = nbt.iota((2,)), nbt.tensor([[0], [1]])
    expected = nbt.negate(nbt.multiply(nbt.cos(nbt.cos(t)), nbt.sin(t)))
    assert_all_close(expected, run(path, simultaneous_composite(nbt.indexed_put), t, i))
    fun = simultaneous_composite(nbt.indexed_put, axes=[0])
    assert_all_close(nbt.new_axis(expected, 1), run(path, fun, nbt.new_axis(t, 1), i))


def test_indexed_add_grad_wrt_to_target(path):
    op = nbt.indexed_add
    assert_all_close(nbt.tensor([[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]), run(path, target(op, twice=True), T, I, U))
    assert_all_close(
        nbt.tensor(
            [[0, -0.0932, -0.8316, -0.0774], [0.1684, 0.9206, 0.1602, -0.4789], [-0.9789, -0.2525, -0.1442, -0.9905]]
        ),
        run(path, target_composite(op), T, I, U),
    )
    assert_all_close(
        nbt.new_axis(
            nbt.tensor(
                [
                    [0, -0.0932, -0.8316, -0.0774],
                    [0.1684, 0.9206, 0.1602, -0.4789],
                    [-0.9789, -0.2525, -0.1442, -0.9905],
                ]
            ),
            1,
        ),
        run(path, target_composite(op, axes=[0, 2]), *new_axis_args()),
    )


def test_indexed_add_grad_wrt_to_source(path):
    op = nbt.indexed_add
    assert_all_close(nbt.broadcast(2, U), run(path, updates(op, twice=True), T, I, U))
    cosx_tn = nbt.add(nbt.cos(U), nbt.gather(T, I))
    expected = nbt.negate(nbt.multiply(nbt.cos(cosx_tn), nbt.sin(U)))
    assert_all_close(expected, run(path, updates_composite(op), T, I, U))
    assert_all_close(nbt.new_axis(expected, 1), run(path, updates_composite(op, axes=[0, 2]), *new_axis_args()))


def test_indexed_add_grad_wrt_to_indices(path):
    op = nbt.indexed_add
    assert_all_close(nbt.broadcast(0, I), run(path, indices(op), T, I, U))
    assert_all_close(nbt.broadcast(0, I), run(path, indices_composite(op), T, I, U))
    assert_all_close(nbt.broadcast(0, I), run(path, indices_composite(op, axes=[0, 2]), *new_axis_args()))


def test_indexed_add_grad_wrt_to_both_source_and_target_simultaneously(path):
    t, i = nbt.iota((2,)), nbt.tensor([[0], [1]])
    cosx_tn = nbt.add(nbt.cos(t), t)
    expected = nbt.multiply(nbt.cos(cosx_tn), nbt.subtract(1, nbt.sin(t)))
    assert_all_close(expected, run(path, simultaneous_composite(nbt.indexed_add), t, i))
    fun = simultaneous_composite(nbt.indexed_add, axes=[0])
    assert_all_close(nbt.new_axis(expected, 1), run(path, fun, nbt.new_axis(t, 1), i))


# describe "not implemented"


def test_not_implemented_raises_on_reduce(path):
    # Nx raises "cannot compute gradient for Nx.reduce/4"; numbat differentiates the
    # reduction (JAX can): a deliberate difference (untranslatable.DELIBERATE).
    fun = grad_with(lambda t: nbt.reduce(t, 0, lambda x, y: x + y))
    assert_same(run(path, fun, nbt.tensor(3)), nbt.tensor(1.0))


def test_not_implemented_raises_on_quotient(path):
    # Nx: "cannot compute gradient for Nx.quotient/2"; numbat differentiates the integer as a
    # float, which quotient refuses.
    assert_raises(
        path, grad_with(lambda t: nbt.quotient(t, 2)), nbt.tensor(2), match="quotient expects integer tensors"
    )


def test_not_implemented_raises_on_window_prod(path):
    assert_raises(path, grad_with(lambda t: nbt.window_product(t, ())), nbt.tensor(2), match="no gradient rule")


# describe "window_scatter_min/max"

WS_T = nbt.tensor([[7, 2, 5, 3, 10, 2], [3, 8, 9, 3, 4, 2], [1, 5, 7, 5, 6, 1], [0, 6, 2, 7, 2, 8]])
WS_SOURCE = nbt.tensor([[2, 6], [3, 1]])


def window_scatter(op, composed=False):
    def grad_of(t, source, init):
        def f(args):
            t, source, init = args
            if composed:
                scattered = op(nbt.pow(t, 2), source, init, (2, 3), strides=[2, 3], padding="valid")
                return nbt.add(nbt.exp(scattered), nbt.multiply(init, 2))
            return op(t, source, init, (2, 3), strides=[2, 3], padding="valid")

        return nbt.grad(f)((t, source, init))

    return grad_of


def check_window_scatter(path, op):
    input_grad, source_grad, init_value_grad = run(path, window_scatter(op), WS_T, WS_SOURCE, nbt.tensor(0))
    # Nx's input gradient is Nx.broadcast(0, t), an s32 tensor: numbat's is f32 (DELIBERATE).
    assert_equal(input_grad, nbt.broadcast(0, WS_T))
    assert_same(source_grad, nbt.broadcast(1.0, WS_SOURCE))
    assert_same(init_value_grad, nbt.tensor(24.0))


def test_window_scatter_min_max_window_scatter_max(path):
    check_window_scatter(path, nbt.window_scatter_max)


def test_window_scatter_min_max_window_scatter_min(path):
    check_window_scatter(path, nbt.window_scatter_min)


def check_composed_window_scatter(path, op):
    expected_source_grad = nbt.grad(nbt.exp)(WS_SOURCE)
    input_grad, source_grad, init_value_grad = run(path, window_scatter(op, True), WS_T, WS_SOURCE, nbt.tensor(0))
    assert_same(input_grad, nbt.broadcast(0.0, WS_T))
    assert_same(source_grad, expected_source_grad)
    assert_same_rounded(init_value_grad, nbt.add(nbt.tensor(2 * 24 + 20), nbt.sum(expected_source_grad)))


def test_window_scatter_min_max_grad_composed_window_scatter_max(path):
    check_composed_window_scatter(path, nbt.window_scatter_max)


def test_window_scatter_min_max_grad_composed_window_scatter_min(path):
    check_composed_window_scatter(path, nbt.window_scatter_min)
