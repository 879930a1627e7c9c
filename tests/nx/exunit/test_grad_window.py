"""Nx 0.13.1 nx/test/nx/defn/grad_test.exs, lines 1116-1920: "window sum rule" and
"window_min/max rule" (with pad and conv under same padding)."""

import numbat as nbt

from ._support import assert_all_close, run


def grad_window(window_fun, window, inner=None, outer=None, **opts):
    """grad(t, &Nx.sum(outer(window_fun(inner(&1), window, opts))))."""

    def grad_of(t):
        def f(t):
            x = inner(t) if inner else t
            y = window_fun(x, window, **opts)
            return nbt.sum(outer(y) if outer else y)

        return nbt.grad(f)(t)

    return grad_of


I = nbt.tensor(1j)  # Nx.Constants.i()


def iota(shape, type_="f32"):
    return nbt.iota(shape, type=type_)


def test_window_sum_rule_computes_the_gradient_of_a_basic_window_sum(path):
    fun = grad_window(nbt.window_sum, (2, 1, 2, 1))
    assert_all_close(
        run(path, fun, iota((2, 1, 3, 3))),
        nbt.tensor(
            [
                [[[1.0, 1.0, 1.0], [2.0, 2.0, 2.0], [1.0, 1.0, 1.0]]],
                [[[1.0, 1.0, 1.0], [2.0, 2.0, 2.0], [1.0, 1.0, 1.0]]],
            ]
        ),
    )


def test_window_sum_rule_computes_the_gradient_with_an_inner_function(path):
    fun = grad_window(nbt.window_sum, (2, 1, 2, 1), inner=nbt.cos)
    assert_all_close(
        run(path, fun, iota((2, 1, 3, 3))),
        nbt.tensor(
            [
                [
                    [
                        [0.0, -0.84147096, -0.9092974],
                        [-0.28224, 1.513605, 1.9178486],
                        [0.2794155, -0.6569866, -0.98935825],
                    ]
                ],
                [
                    [
                        [-0.4121185, 0.5440211, 0.9999902],
                        [1.0731459, -0.84033406, -1.9812148],
                        [-0.65028787, 0.2879033, 0.96139747],
                    ]
                ],
            ]
        ),
    )


def test_window_sum_rule_computes_the_gradient_with_dilations(path):
    fun = grad_window(nbt.window_sum, (1, 1, 3, 2), window_dilations=[2, 2, 1, 1])
    assert_all_close(
        run(path, fun, iota((4, 2, 4, 2))),
        nbt.tensor(
            [
                [[[1.0, 1.0], [2.0, 2.0], [2.0, 2.0], [1.0, 1.0]], [[1.0, 1.0], [2.0, 2.0], [2.0, 2.0], [1.0, 1.0]]],
                [[[1.0, 1.0], [2.0, 2.0], [2.0, 2.0], [1.0, 1.0]], [[1.0, 1.0], [2.0, 2.0], [2.0, 2.0], [1.0, 1.0]]],
                [[[1.0, 1.0], [2.0, 2.0], [2.0, 2.0], [1.0, 1.0]], [[1.0, 1.0], [2.0, 2.0], [2.0, 2.0], [1.0, 1.0]]],
                [[[1.0, 1.0], [2.0, 2.0], [2.0, 2.0], [1.0, 1.0]], [[1.0, 1.0], [2.0, 2.0], [2.0, 2.0], [1.0, 1.0]]],
            ]
        ),
    )


def test_window_sum_rule_computes_the_gradien_with_general_padding(path):
    fun = grad_window(nbt.window_sum, (2, 1, 1, 2), padding=[(0, 1), (2, 1), (3, 0), (0, 0)])
    assert_all_close(
        run(path, fun, nbt.iota((3, 2, 1, 2))),
        nbt.tensor([[[[1.0, 1.0]], [[1.0, 1.0]]], [[[2.0, 2.0]], [[2.0, 2.0]]], [[[2.0, 2.0]], [[2.0, 2.0]]]]),
    )


def test_window_sum_rule_computes_the_gradient_with_stride_padding_dilation_inner_function(path):
    fun = grad_window(
        nbt.window_sum,
        (2, 1, 1, 2),
        inner=lambda t: nbt.cos(nbt.sin(t)),
        strides=[1, 2, 2, 1],
        padding=[(0, 1), (2, 1), (3, 0), (0, 0)],
        window_dilations=[1, 2, 1, 1],
    )
    assert_all_close(
        run(path, fun, nbt.iota((3, 2, 3, 2))),
        nbt.tensor(
            [
                [[[0.0, 0.0], [0.32836998, 0.1392445], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]],
                [[[0.0, 0.0], [-0.22872283, 0.9198537], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]],
                [[[0.0, 0.0], [-0.89374965, 0.47741777], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]],
            ]
        ),
    )


def grad_nested_window_sum(x):
    return nbt.grad(lambda x: nbt.sum(nbt.window_sum(nbt.window_sum(x, (2, 1, 1, 1)), (1, 2, 1, 1))))(x)


def test_window_sum_rule_works_with_nested_window_sums(path):
    assert_all_close(
        run(path, grad_nested_window_sum, nbt.iota((4, 3, 4, 4))),
        nbt.tensor(
            [
                [
                    [[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]],
                    [[2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0]],
                    [[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]],
                ],
                [
                    [[2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0]],
                    [[4.0, 4.0, 4.0, 4.0], [4.0, 4.0, 4.0, 4.0], [4.0, 4.0, 4.0, 4.0], [4.0, 4.0, 4.0, 4.0]],
                    [[2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0]],
                ],
                [
                    [[2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0]],
                    [[4.0, 4.0, 4.0, 4.0], [4.0, 4.0, 4.0, 4.0], [4.0, 4.0, 4.0, 4.0], [4.0, 4.0, 4.0, 4.0]],
                    [[2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0]],
                ],
                [
                    [[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]],
                    [[2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0]],
                    [[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]],
                ],
            ]
        ),
    )


def test_window_sum_rule_works_with_complex(path):
    x = nbt.multiply(nbt.iota((2, 1, 3, 3), type="c64"), I)
    fun = grad_window(nbt.window_sum, (2, 1, 2, 1))
    assert_all_close(
        run(path, fun, x),
        nbt.tensor(
            [
                [[[1.0, 1.0, 1.0], [2.0, 2.0, 2.0], [1.0, 1.0, 1.0]]],
                [[[1.0, 1.0, 1.0], [2.0, 2.0, 2.0], [1.0, 1.0, 1.0]]],
            ]
        ),
    )


def test_window_min_max_rule_works_with_window_max_no_padding_no_stride(path):
    fun = grad_window(nbt.window_max, (1, 2, 1, 2))
    assert_all_close(
        run(path, fun, iota((2, 3, 3, 2))),
        nbt.tensor(
            [
                [
                    [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
                    [[0.0, 1.0], [0.0, 1.0], [0.0, 1.0]],
                    [[0.0, 1.0], [0.0, 1.0], [0.0, 1.0]],
                ],
                [
                    [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
                    [[0.0, 1.0], [0.0, 1.0], [0.0, 1.0]],
                    [[0.0, 1.0], [0.0, 1.0], [0.0, 1.0]],
                ],
            ]
        ),
    )


def test_window_min_max_rule_works_with_window_min_no_padding_no_stride(path):
    fun = grad_window(nbt.window_min, (1, 2, 1, 2))
    assert_all_close(
        run(path, fun, iota((2, 3, 3, 2))),
        nbt.tensor(
            [
                [
                    [[1.0, 0.0], [1.0, 0.0], [1.0, 0.0]],
                    [[1.0, 0.0], [1.0, 0.0], [1.0, 0.0]],
                    [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
                ],
                [
                    [[1.0, 0.0], [1.0, 0.0], [1.0, 0.0]],
                    [[1.0, 0.0], [1.0, 0.0], [1.0, 0.0]],
                    [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
                ],
            ]
        ),
    )


def test_window_min_max_rule_works_with_window_max_inner_function_same_padding_stride(path):
    fun = grad_window(nbt.window_max, (1, 1, 2, 2), inner=nbt.cos, padding="same", strides=[1, 1, 2, 2])
    assert_all_close(
        run(path, fun, iota((1, 4, 4, 2))),
        nbt.tensor(
            [
                [
                    [[-0.0, -0.0], [-0.0, -0.0], [0.0, 0.0], [0.2794155, -0.0]],
                    [[-0.0, -0.0], [0.0, 0.9999902], [0.0, -0.42016703], [-0.0, -0.0]],
                    [[0.0, 0.0], [0.0, -0.1498772], [-0.9129453, -0.0], [0.0, 0.0]],
                    [[0.0, 0.13235176], [-0.0, -0.0], [-0.0, 0.0], [0.0, 0.40403765]],
                ]
            ]
        ),
    )


MAX_SAME_3X3 = grad_window(nbt.window_max, (1, 3, 3, 1), padding="same", strides=[1, 2, 2, 1])


def test_window_min_max_rule_works_with_window_max_same_padding_large_kernel_relative_to_input(path):
    assert_all_close(
        run(path, MAX_SAME_3X3, iota((1, 4, 4, 1))),
        nbt.tensor(
            [
                [
                    [[0.0], [0.0], [0.0], [0.0]],
                    [[0.0], [1.0], [0.0], [1.0]],
                    [[0.0], [0.0], [0.0], [0.0]],
                    [[0.0], [1.0], [0.0], [1.0]],
                ]
            ]
        ),
    )


def test_window_min_max_rule_works_with_window_max_non_linear_composition_same_padding(path):
    fun = grad_window(nbt.window_max, (1, 3, 3, 1), inner=nbt.cos, outer=nbt.sin, padding="same", strides=[1, 2, 2, 1])
    assert_all_close(
        run(path, fun, iota((1, 4, 4, 1))),
        nbt.tensor(
            [
                [
                    [[0.0], [0.0], [0.0], [0.0]],
                    [[0.0], [0.0], [0.32042277], [0.0]],
                    [[0.0], [0.0], [0.0], [0.0]],
                    [[0.0], [-0.25872183], [0.0], [0.0]],
                ]
            ]
        ),
    )


def test_window_min_max_rule_works_with_window_max_same_padding_asymmetric_kernel(path):
    fun = grad_window(nbt.window_max, (1, 2, 3, 1), padding="same", strides=[1, 2, 2, 1])
    assert_all_close(
        run(path, fun, iota((1, 4, 6, 1))),
        nbt.tensor(
            [
                [
                    [[0.0], [0.0], [0.0], [0.0], [0.0], [0.0]],
                    [[0.0], [1.0], [0.0], [1.0], [0.0], [1.0]],
                    [[0.0], [0.0], [0.0], [0.0], [0.0], [0.0]],
                    [[0.0], [1.0], [0.0], [1.0], [0.0], [1.0]],
                ]
            ]
        ),
    )


def test_window_min_max_rule_works_with_window_min_inner_function_same_padding_stride(path):
    fun = grad_window(nbt.window_min, (1, 1, 2, 2), inner=nbt.cos, padding="same", strides=[1, 1, 2, 2])
    assert_all_close(
        run(path, fun, iota((1, 4, 4, 2))),
        nbt.tensor(
            [
                [
                    [[-0.0, -0.0], [-0.0, -0.14112000167369843], [0.756802499294281, 0.0], [0.0, -0.0]],
                    [[-0.0, -0.41211849451065063], [0.0, 0.0], [0.0, -0.0], [-0.0, -0.6502878665924072]],
                    [[0.2879033088684082, 0.0], [0.0, -0.0], [-0.0, -0.0], [0.008851309306919575, 0.0]],
                    [[0.0, 0.0], [-0.0, -0.9563759565353394], [-0.2709057927131653, 0.0], [0.0, 0.0]],
                ]
            ]
        ),
    )


def test_window_min_max_rule_works_with_window_min_same_padding_large_kernel(path):
    fun = grad_window(nbt.window_min, (1, 3, 3, 1), padding="same", strides=[1, 2, 2, 1])
    # Nx: 1.0 at [1][1] alone. Nx's rule scatters with window_scatter_min, which on Nx's binary backend
    # pads with the init value 0 and lets it win the three windows that reach into the padding;
    # DELIBERATE: XLA's select_and_scatter (EXLA) never selects padding, so each of the four windows'
    # minimum (0, 1, 4, 5 of iota) gets its 1: the true derivative (finite differences agree).
    assert_all_close(
        run(path, fun, iota((1, 4, 4, 1))),
        nbt.tensor(
            [
                [
                    [[1.0], [1.0], [0.0], [0.0]],
                    [[1.0], [1.0], [0.0], [0.0]],
                    [[0.0], [0.0], [0.0], [0.0]],
                    [[0.0], [0.0], [0.0], [0.0]],
                ]
            ]
        ),
    )


def test_window_min_max_rule_works_with_window_max_explicit_symmetric_padding(path):
    fun = grad_window(nbt.window_max, (1, 3, 3, 1), padding=[(0, 0), (1, 1), (1, 1), (0, 0)], strides=[1, 2, 2, 1])
    assert_all_close(
        run(path, fun, iota((1, 4, 4, 1))),
        nbt.tensor(
            [
                [
                    [[0.0], [0.0], [0.0], [0.0]],
                    [[0.0], [1.0], [0.0], [1.0]],
                    [[0.0], [0.0], [0.0], [0.0]],
                    [[0.0], [1.0], [0.0], [1.0]],
                ]
            ]
        ),
    )


def test_window_min_max_rule_works_with_window_max_explicit_asymmetric_padding(path):
    fun = grad_window(nbt.window_max, (1, 3, 3, 1), padding=[(0, 0), (2, 0), (0, 2), (0, 0)], strides=[1, 2, 2, 1])
    assert_all_close(
        run(path, fun, iota((1, 4, 4, 1))),
        nbt.tensor(
            [
                [
                    [[0.0], [0.0], [1.0], [1.0]],
                    [[0.0], [0.0], [0.0], [0.0]],
                    [[0.0], [0.0], [1.0], [1.0]],
                    [[0.0], [0.0], [0.0], [0.0]],
                ]
            ]
        ),
    )


MAX_EXTREME_RATIO = grad_window(nbt.window_max, (1, 3, 3, 1), padding="same", strides=[1, 1, 1, 1])


def test_window_min_max_rule_works_with_window_max_kernel_larger_than_input(path):
    assert_all_close(run(path, MAX_EXTREME_RATIO, iota((1, 2, 2, 1))), nbt.tensor([[[[0.0], [0.0]], [[0.0], [4.0]]]]))


def test_window_min_max_rule_works_with_window_max_1x1_input_with_large_kernel(path):
    assert_all_close(run(path, MAX_EXTREME_RATIO, nbt.tensor([[[[5.0]]]])), nbt.tensor([[[[1.0]]]]))


def test_window_min_max_rule_works_with_window_max_kernel_equals_input_size(path):
    fun = grad_window(nbt.window_max, (4, 4), padding="same", strides=[2, 2])
    assert_all_close(
        run(path, fun, iota((4, 4))),
        nbt.tensor([[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0]]),
    )


def test_window_min_max_rule_works_with_window_max_1d_same_padding(path):
    fun = grad_window(nbt.window_max, (3,), padding="same", strides=[2])
    assert_all_close(run(path, fun, iota((8,))), nbt.tensor([0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]))


def test_window_min_max_rule_works_with_window_max_2d_same_padding(path):
    fun = grad_window(nbt.window_max, (3, 3), padding="same", strides=[2, 2])
    assert_all_close(
        run(path, fun, iota((4, 4))),
        nbt.tensor([[0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 1.0]]),
    )


def test_window_min_max_rule_works_with_window_max_stride_larger_than_kernel(path):
    fun = grad_window(nbt.window_max, (1, 2, 2, 1), padding="same", strides=[1, 3, 3, 1])
    assert_all_close(
        run(path, fun, iota((1, 6, 6, 1))),
        nbt.tensor(
            [
                [
                    [[0.0], [0.0], [0.0], [0.0], [0.0], [0.0]],
                    [[0.0], [1.0], [0.0], [0.0], [1.0], [0.0]],
                    [[0.0], [0.0], [0.0], [0.0], [0.0], [0.0]],
                    [[0.0], [0.0], [0.0], [0.0], [0.0], [0.0]],
                    [[0.0], [1.0], [0.0], [0.0], [1.0], [0.0]],
                    [[0.0], [0.0], [0.0], [0.0], [0.0], [0.0]],
                ]
            ]
        ),
    )


def test_window_min_max_rule_works_with_window_sum_same_padding_large_kernel(path):
    fun = grad_window(nbt.window_sum, (1, 3, 3, 1), padding="same", strides=[1, 2, 2, 1])
    assert_all_close(
        run(path, fun, iota((1, 4, 4, 1))),
        nbt.tensor(
            [
                [
                    [[1.0], [2.0], [1.0], [1.0]],
                    [[2.0], [4.0], [2.0], [2.0]],
                    [[1.0], [2.0], [1.0], [1.0]],
                    [[1.0], [2.0], [1.0], [1.0]],
                ]
            ]
        ),
    )


def test_window_min_max_rule_works_with_window_sum_dilations_strides_same_padding(path):
    fun = grad_window(nbt.window_sum, (1, 2, 2, 1), padding="same", strides=[1, 2, 2, 1], window_dilations=[1, 2, 2, 1])
    assert_all_close(
        run(path, fun, iota((1, 4, 4, 1))),
        nbt.tensor(
            [
                [
                    [[0.0], [0.0], [0.0], [0.0]],
                    [[0.0], [4.0], [0.0], [2.0]],
                    [[0.0], [0.0], [0.0], [0.0]],
                    [[0.0], [2.0], [0.0], [1.0]],
                ]
            ]
        ),
    )


def test_window_min_max_rule_works_with_window_sum_dilations_strides_explicit_padding(path):
    fun = grad_window(
        nbt.window_sum,
        (1, 2, 2, 1),
        padding=[(0, 0), (1, 0), (0, 1), (0, 0)],
        strides=[1, 2, 2, 1],
        window_dilations=[1, 2, 2, 1],
    )
    assert_all_close(
        run(path, fun, iota((1, 4, 4, 1))),
        nbt.tensor(
            [
                [
                    [[0.0], [0.0], [0.0], [0.0]],
                    [[2.0], [0.0], [4.0], [0.0]],
                    [[0.0], [0.0], [0.0], [0.0]],
                    [[1.0], [0.0], [2.0], [0.0]],
                ]
            ]
        ),
    )


def test_window_min_max_rule_works_with_window_sum_1d_dilations_gradient(path):
    fun = grad_window(nbt.window_sum, (3,), padding="same", window_dilations=[2])
    assert_all_close(run(path, fun, iota((8,))), nbt.tensor([2.0, 2.0, 3.0, 3.0, 3.0, 3.0, 2.0, 2.0]))


def test_window_min_max_rule_works_with_window_max_same_padding_f64_precision(path):
    assert_all_close(
        run(path, MAX_SAME_3X3, iota((1, 4, 4, 1), "f64")),
        nbt.tensor(
            [
                [
                    [[0.0], [0.0], [0.0], [0.0]],
                    [[0.0], [1.0], [0.0], [1.0]],
                    [[0.0], [0.0], [0.0], [0.0]],
                    [[0.0], [1.0], [0.0], [1.0]],
                ]
            ],
            type="f32",
        ),
    )


def test_window_min_max_rule_works_with_window_max_same_padding_bf16_precision(path):
    assert_all_close(
        run(path, MAX_SAME_3X3, iota((1, 4, 4, 1), "bf16")),
        nbt.tensor(
            [
                [
                    [[0.0], [0.0], [0.0], [0.0]],
                    [[0.0], [1.0], [0.0], [1.0]],
                    [[0.0], [0.0], [0.0], [0.0]],
                    [[0.0], [1.0], [0.0], [1.0]],
                ]
            ],
            type="f32",
        ),
    )


def grad_pad(config, inner=None):
    return lambda t: nbt.grad(lambda t: nbt.sum((inner or (lambda x: x))(nbt.pad(t, 0.0, config))))(t)


def test_window_min_max_rule_works_with_pad_symmetric_padding_gradient(path):
    fun = grad_pad([(1, 1, 0), (2, 2, 0)])
    assert_all_close(run(path, fun, iota((3, 4))), nbt.broadcast(1.0, (3, 4)))


def test_window_min_max_rule_works_with_pad_interior_padding_gradient(path):
    fun = grad_pad([(0, 0, 1), (0, 0, 2)])
    assert_all_close(run(path, fun, iota((3, 4))), nbt.broadcast(1.0, (3, 4)))


def test_window_min_max_rule_works_with_pad_cos_composition_gradient(path):
    fun = grad_pad([(1, 1, 0), (1, 1, 0)], inner=nbt.cos)
    assert_all_close(
        run(path, fun, iota((3, 4))),
        nbt.tensor(
            [
                [-0.0, -0.84147096, -0.9092974, -0.14112],
                [0.7568025, 0.9589243, 0.2794155, -0.6569866],
                [-0.98935825, -0.4121185, 0.5440211, 0.9999902],
            ]
        ),
    )


def grad_sum_conv_dilated_same(t):
    kernel = nbt.broadcast(1.0, (1, 1, 3, 3))
    return nbt.grad(lambda t: nbt.sum(nbt.conv(t, kernel, padding="same", kernel_dilation=[2, 2])))(t)


def test_window_min_max_rule_works_with_conv_gradient_dilated_kernel_same_padding(path):
    assert_all_close(run(path, grad_sum_conv_dilated_same, iota((1, 1, 4, 4))), nbt.broadcast(4.0, (1, 1, 4, 4)))


def test_window_min_max_rule_works_with_conv_gradient_dilated_kernel_same_padding_small_input(path):
    assert_all_close(run(path, grad_sum_conv_dilated_same, iota((1, 1, 2, 2))), nbt.broadcast(1.0, (1, 1, 2, 2)))
