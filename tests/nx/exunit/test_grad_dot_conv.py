"""Nx 0.13.1 nx/test/nx/defn/grad_test.exs, lines 331-1115: "dot rule" and "conv rule"."""

import numbat as nbt

from ._support import assert_all_close, assert_same, run


def grad_dot_lhs_rule(x, y):
    return nbt.grad(lambda x: nbt.sum(nbt.dot(x, y)))(x)


def grad_dot_rhs_rule(x, y):
    return nbt.grad(lambda y: nbt.sum(nbt.dot(x, y)))(y)


def test_dot_rule_computes_gradient_for_tensors_on_lhs(path):
    assert_same(
        run(path, grad_dot_lhs_rule, nbt.tensor([[1.0], [2.0], [3.0]]), nbt.tensor([[1, 2, 3, 4, 5]])),
        nbt.tensor([[15.0], [15.0], [15.0]]),
    )
    assert_same(
        run(path, grad_dot_lhs_rule, nbt.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), nbt.tensor([1.0, 2.0])),
        nbt.tensor([[1.0, 2.0], [1.0, 2.0], [1.0, 2.0]]),
    )
    assert_same(
        run(path, grad_dot_lhs_rule, nbt.tensor([1.0, 2.0]), nbt.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])),
        nbt.tensor([6.0, 15.0]),
    )
    assert_same(
        run(
            path,
            grad_dot_lhs_rule,
            nbt.tensor([complex(0, 3), -2, complex(0, 1)]),
            nbt.tensor([1.0, complex(0, 2), 3.0]),
        ),
        nbt.tensor([1, complex(0, 2), 3]),
    )


def test_dot_rule_computes_gradient_for_tensors_on_rhs(path):
    assert_same(
        run(path, grad_dot_rhs_rule, nbt.tensor([[1.0], [2.0], [3.0]]), nbt.tensor([[1, 2, 3, 4, 5]])),
        nbt.tensor([[6.0, 6.0, 6.0, 6.0, 6.0]]),
    )
    assert_same(
        run(path, grad_dot_rhs_rule, nbt.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), nbt.tensor([1.0, 2.0])),
        nbt.tensor([9.0, 12.0]),
    )
    assert_same(
        run(path, grad_dot_rhs_rule, nbt.tensor([1.0, 2.0]), nbt.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])),
        nbt.tensor([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]),
    )


def grad_dot_both_rule(x):
    return nbt.grad(lambda x: nbt.sum(nbt.dot(nbt.pow(x, 2), nbt.pow(x, 3))))(x)


def test_dot_rule_computes_gradient_for_tensors_on_both_sides(path):
    assert_same(
        run(path, grad_dot_both_rule, nbt.iota((3, 3, 3))),
        nbt.tensor(
            [
                [[0.0, 83430.0, 263952.0], [198207.0, 410616.0, 759375.0], [533952.0, 884142.0, 1410048.0]],
                [[873828.0, 1330020.0, 1997028.0], [1460592.0, 2057913.0, 2905308.0], [2.268e6, 3016224.0, 4053888.0]],
                [
                    [2639952.0, 3468906.0, 4.6224e6],
                    [3724623.0, 4706856.0, 6052887.0],
                    [5121792.0, 6268050.0, 7817472.0],
                ],
            ]
        ),
    )
    assert_same(run(path, grad_dot_both_rule, nbt.tensor([1, 2, 3])), nbt.tensor([5.0, 80.0, 405.0]))


def grad_dot_dot_rule(x, w1, b1, w2, b2, labels):
    return nbt.grad(lambda x: nbt.sum(nbt.multiply(nbt.add(nbt.dot(nbt.add(nbt.dot(x, w1), b1), w2), b2), labels)))(x)


def test_dot_rule_computes_gradient_with_dot_after_dot(path):
    args = (nbt.iota((5, 4)), nbt.iota((4, 3)), nbt.iota((3,)), nbt.iota((3, 2)), nbt.iota((2,)), nbt.iota((5, 2)))
    assert_same(
        run(path, grad_dot_dot_rule, *args),
        nbt.tensor(
            [
                [13.0, 40.0, 67.0, 94.0],
                [59.0, 176.0, 293.0, 410.0],
                [105.0, 312.0, 519.0, 726.0],
                [151.0, 448.0, 745.0, 1042.0],
                [197.0, 584.0, 971.0, 1358.0],
            ]
        ),
    )


def grad_dot_implicit_bcast_rule(b1, w2, labels):
    return nbt.grad(lambda b1: nbt.sum(nbt.multiply(nbt.dot(b1, w2), labels)))(b1)


def test_dot_rule_computes_gradient_with_dot_with_implicit_broadcast(path):
    assert_same(
        run(path, grad_dot_implicit_bcast_rule, nbt.iota((3,)), nbt.iota((3, 2)), nbt.iota((5, 2))),
        nbt.tensor([25.0, 115.0, 205.0]),
    )


def grad_batched_dot_rule_lhs(t1, t2):
    return nbt.grad(lambda t1: nbt.sum(nbt.dot(t1, t2, contract_axes=([1], [2]), batch_axes=([0], [0]))))(t1)


def test_dot_rule_computes_the_gradient_with_dot_with_batching(path):
    assert_same(
        run(path, grad_batched_dot_rule_lhs, nbt.iota((3, 2, 4), type="f32"), nbt.iota((3, 3, 2), type="f32")),
        nbt.tensor(
            [
                [[6.0, 6.0, 6.0, 6.0], [9.0, 9.0, 9.0, 9.0]],
                [[24.0, 24.0, 24.0, 24.0], [27.0, 27.0, 27.0, 27.0]],
                [[42.0, 42.0, 42.0, 42.0], [45.0, 45.0, 45.0, 45.0]],
            ]
        ),
    )


def grad_sum_conv_x(x, y, **opts):
    return nbt.grad(lambda x: nbt.sum(nbt.conv(x, y, **opts)))(x)


def grad_sum_conv_y(x, y, **opts):
    return nbt.grad(lambda y: nbt.sum(nbt.conv(x, y, **opts)))(y)


def grad_mean_conv_x(x, y, **opts):
    return nbt.grad(lambda x: nbt.mean(nbt.conv(x, y, **opts)))(x)


def grad_mean_conv_y(x, y, **opts):
    return nbt.grad(lambda y: nbt.mean(nbt.conv(x, y, **opts)))(y)


def on(path, fun, x, y, **opts):
    return run(path, lambda x, y: fun(x, y, **opts), x, y)


def test_conv_rule_computes_the_gradient_of_the_both_sides_no_padding_no_stride(path):
    lhs = nbt.iota((1, 3, 2, 2), type="f32")
    rhs = nbt.iota((6, 3, 2, 1), type="f32")
    assert_same(
        on(path, grad_sum_conv_x, lhs, rhs),
        nbt.tensor(
            [[[[90.0, 90.0], [96.0, 96.0]], [[102.0, 102.0], [108.0, 108.0]], [[114.0, 114.0], [120.0, 120.0]]]]
        ),
    )
    assert_same(
        on(path, grad_sum_conv_y, lhs, rhs),
        nbt.tensor(
            [
                [[[1.0], [5.0]], [[9.0], [13.0]], [[17.0], [21.0]]],
                [[[1.0], [5.0]], [[9.0], [13.0]], [[17.0], [21.0]]],
                [[[1.0], [5.0]], [[9.0], [13.0]], [[17.0], [21.0]]],
                [[[1.0], [5.0]], [[9.0], [13.0]], [[17.0], [21.0]]],
                [[[1.0], [5.0]], [[9.0], [13.0]], [[17.0], [21.0]]],
                [[[1.0], [5.0]], [[9.0], [13.0]], [[17.0], [21.0]]],
            ]
        ),
    )


def grad_sum_conv_x_cos_x_sin_y(x, y):
    return nbt.grad(lambda x: nbt.sum(nbt.conv(nbt.cos(x), nbt.sin(y))))(x)


def grad_sum_conv_y_cos_x_sin_y(x, y):
    return nbt.grad(lambda y: nbt.sum(nbt.conv(nbt.cos(x), nbt.sin(y))))(y)


def test_conv_rule_computes_the_gradient_of_both_sides_no_padding_no_stride_inner_function(path):
    x = nbt.iota((1, 3, 2, 2), type="f32")
    y = nbt.iota((6, 3, 2, 1), type="f32")
    assert_all_close(
        run(path, grad_sum_conv_x_cos_x_sin_y, x, y),
        nbt.tensor(
            [
                [
                    [[0.0, 2.9119823], [-1.3931458, -0.21621169]],
                    [[3.8719478, 4.906042], [1.1166755, -2.625627]],
                    [[0.789102, 0.3287015], [-2.6430445, -4.858301]],
                ]
            ]
        ),
    )
    assert_all_close(
        run(path, grad_sum_conv_y_cos_x_sin_y, x, y),
        nbt.tensor(
            [
                [[[1.5403023], [-0.7597403]], [[0.15396659], [-1.6969188]], [[0.6906596], [-0.23675747]]],
                [[[1.4789524], [-1.0600916]], [[0.05383231], [-1.5617433]], [[0.88658834], [-0.00369389]]],
                [[[1.2997901], [-1.2759967]], [[-0.05059023], [-1.3021601]], [[1.011892], [0.22966394]]],
                [[[1.0170873], [-1.3902565]], [[-0.15098278], [-0.93884766]], [[1.0565889], [0.44472685]]],
                [[[0.6533639], [-1.3937694]], [[-0.23934811], [-0.5007471]], [[1.0171185], [0.62436306]]],
                [[[0.23759387], [-1.2862552]], [[-0.30864716], [-0.02275731]], [[0.89662504], [0.7542629]]],
            ]
        ),
    )


def test_conv_rule_computes_the_gradient_of_both_sides_padding_no_stride(path):
    x = nbt.iota((2, 1, 5, 5), type="f32")
    y = nbt.iota((8, 1, 2, 2), type="f32")
    assert_all_close(
        on(path, grad_sum_conv_x, x, y, padding="same"),
        nbt.tensor(
            [
                [
                    [
                        [112.0, 232.0, 232.0, 232.0, 232.0],
                        [240.0, 496.0, 496.0, 496.0, 496.0],
                        [240.0, 496.0, 496.0, 496.0, 496.0],
                        [240.0, 496.0, 496.0, 496.0, 496.0],
                        [240.0, 496.0, 496.0, 496.0, 496.0],
                    ]
                ],
                [
                    [
                        [112.0, 232.0, 232.0, 232.0, 232.0],
                        [240.0, 496.0, 496.0, 496.0, 496.0],
                        [240.0, 496.0, 496.0, 496.0, 496.0],
                        [240.0, 496.0, 496.0, 496.0, 496.0],
                        [240.0, 496.0, 496.0, 496.0, 496.0],
                    ]
                ],
            ]
        ),
    )
    assert_all_close(
        on(path, grad_sum_conv_y, x, y, padding="same"),
        nbt.tensor(
            [
                [[[1225.0, 1000.0], [1080.0, 880.0]]],
                [[[1225.0, 1000.0], [1080.0, 880.0]]],
                [[[1225.0, 1000.0], [1080.0, 880.0]]],
                [[[1225.0, 1000.0], [1080.0, 880.0]]],
                [[[1225.0, 1000.0], [1080.0, 880.0]]],
                [[[1225.0, 1000.0], [1080.0, 880.0]]],
                [[[1225.0, 1000.0], [1080.0, 880.0]]],
                [[[1225.0, 1000.0], [1080.0, 880.0]]],
            ]
        ),
    )


def test_conv_rule_computes_the_gradient_of_both_sides_general_padding_stride_lhs_dilated(path):
    x = nbt.iota((1, 1, 8, 5), type="f32")
    y = nbt.iota((2, 1, 2, 2), type="f32")
    opts = dict(strides=[1, 2], padding=[(1, 2), (-1, 0)], input_dilation=[2, 1])  # noqa: C408
    assert_all_close(
        on(path, grad_sum_conv_x, x, y, **opts),
        nbt.tensor(
            [
                [
                    [
                        [0.0, 12.0, 16.0, 12.0, 16.0],
                        [0.0, 12.0, 16.0, 12.0, 16.0],
                        [0.0, 12.0, 16.0, 12.0, 16.0],
                        [0.0, 12.0, 16.0, 12.0, 16.0],
                        [0.0, 12.0, 16.0, 12.0, 16.0],
                        [0.0, 12.0, 16.0, 12.0, 16.0],
                        [0.0, 12.0, 16.0, 12.0, 16.0],
                        [0.0, 12.0, 16.0, 12.0, 16.0],
                    ]
                ]
            ]
        ),
    )
    assert_all_close(
        on(path, grad_sum_conv_y, x, y, **opts),
        nbt.tensor([[[[312.0, 328.0], [312.0, 328.0]]], [[[312.0, 328.0], [312.0, 328.0]]]]),
    )


def test_conv_rule_computes_the_gradient_of_both_sides_general_padding_stride_rhs_dilated(path):
    x = nbt.iota((1, 1, 8, 5), type="f32")
    y = nbt.iota((2, 1, 2, 2), type="f32")
    opts = dict(strides=[1, 2], padding=[(1, 2), (-1, 0)], kernel_dilation=[1, 2])  # noqa: C408
    assert_all_close(
        on(path, grad_mean_conv_x, x, y, **opts),
        nbt.tensor(
            [
                [
                    [
                        [0.0, 0.6, 0.0, 0.8, 0.0],
                        [0.0, 0.6, 0.0, 0.8, 0.0],
                        [0.0, 0.6, 0.0, 0.8, 0.0],
                        [0.0, 0.6, 0.0, 0.8, 0.0],
                        [0.0, 0.6, 0.0, 0.8, 0.0],
                        [0.0, 0.6, 0.0, 0.8, 0.0],
                        [0.0, 0.6, 0.0, 0.8, 0.0],
                        [0.0, 0.6, 0.0, 0.8, 0.0],
                    ]
                ]
            ]
        ),
    )
    assert_all_close(
        on(path, grad_mean_conv_y, x, y, **opts),
        nbt.tensor([[[[7.4000006, 8.2], [7.4000006, 8.2]]], [[[7.4000006, 8.2], [7.4000006, 8.2]]]]),
    )


def test_conv_rule_computes_the_gradient_of_both_sides_valid_padding_channels_last(path):
    x = nbt.iota((3, 4, 4, 2), type="f32")
    y = nbt.iota((4, 2, 2, 2), type="f32")
    opts = dict(input_permutation=[0, 3, 1, 2], output_permutation=[0, 3, 1, 2])  # noqa: C408
    assert_all_close(
        on(path, grad_sum_conv_x, x, y, **opts),
        nbt.tensor(
            [
                [
                    [[48.0, 64.0], [100.0, 132.0], [100.0, 132.0], [52.0, 68.0]],
                    [[104.0, 136.0], [216.0, 280.0], [216.0, 280.0], [112.0, 144.0]],
                    [[104.0, 136.0], [216.0, 280.0], [216.0, 280.0], [112.0, 144.0]],
                    [[56.0, 72.0], [116.0, 148.0], [116.0, 148.0], [60.0, 76.0]],
                ],
                [
                    [[48.0, 64.0], [100.0, 132.0], [100.0, 132.0], [52.0, 68.0]],
                    [[104.0, 136.0], [216.0, 280.0], [216.0, 280.0], [112.0, 144.0]],
                    [[104.0, 136.0], [216.0, 280.0], [216.0, 280.0], [112.0, 144.0]],
                    [[56.0, 72.0], [116.0, 148.0], [116.0, 148.0], [60.0, 76.0]],
                ],
                [
                    [[48.0, 64.0], [100.0, 132.0], [100.0, 132.0], [52.0, 68.0]],
                    [[104.0, 136.0], [216.0, 280.0], [216.0, 280.0], [112.0, 144.0]],
                    [[104.0, 136.0], [216.0, 280.0], [216.0, 280.0], [112.0, 144.0]],
                    [[56.0, 72.0], [116.0, 148.0], [116.0, 148.0], [60.0, 76.0]],
                ],
            ]
        ),
    )
    assert_all_close(
        on(path, grad_sum_conv_y, x, y, **opts),
        nbt.tensor(
            [
                [[[1134.0, 1188.0], [1350.0, 1404.0]], [[1161.0, 1215.0], [1377.0, 1431.0]]],
                [[[1134.0, 1188.0], [1350.0, 1404.0]], [[1161.0, 1215.0], [1377.0, 1431.0]]],
                [[[1134.0, 1188.0], [1350.0, 1404.0]], [[1161.0, 1215.0], [1377.0, 1431.0]]],
                [[[1134.0, 1188.0], [1350.0, 1404.0]], [[1161.0, 1215.0], [1377.0, 1431.0]]],
            ]
        ),
    )


def test_conv_rule_computes_the_gradient_for_both_sides_feature_grouped(path):
    x = nbt.iota((1, 4, 4, 4))
    y = nbt.iota((2, 2, 2, 2))
    assert_all_close(
        on(path, grad_sum_conv_x, x, y, feature_group_size=2),
        nbt.tensor(
            [
                [
                    [[0.0, 1.0, 1.0, 1.0], [2.0, 6.0, 6.0, 4.0], [2.0, 6.0, 6.0, 4.0], [2.0, 5.0, 5.0, 3.0]],
                    [[4.0, 9.0, 9.0, 5.0], [10.0, 22.0, 22.0, 12.0], [10.0, 22.0, 22.0, 12.0], [6.0, 13.0, 13.0, 7.0]],
                    [
                        [8.0, 17.0, 17.0, 9.0],
                        [18.0, 38.0, 38.0, 20.0],
                        [18.0, 38.0, 38.0, 20.0],
                        [10.0, 21.0, 21.0, 11.0],
                    ],
                    [
                        [12.0, 25.0, 25.0, 13.0],
                        [26.0, 54.0, 54.0, 28.0],
                        [26.0, 54.0, 54.0, 28.0],
                        [14.0, 29.0, 29.0, 15.0],
                    ],
                ]
            ]
        ),
    )
    assert_all_close(
        on(path, grad_sum_conv_y, x, y, feature_group_size=2),
        nbt.tensor(
            [
                [[[45.0, 54.0], [81.0, 90.0]], [[189.0, 198.0], [225.0, 234.0]]],
                [[[333.0, 342.0], [369.0, 378.0]], [[477.0, 486.0], [513.0, 522.0]]],
            ]
        ),
    )


def test_conv_rule_computes_the_gradient_for_both_sides_batch_grouped(path):
    x = nbt.iota((6, 1, 3, 3))
    y = nbt.iota((3, 1, 2, 2))
    opts = dict(batch_group_size=3, padding="same", kernel_dilation=[2, 1])  # noqa: C408
    assert_all_close(
        on(path, grad_sum_conv_x, x, y, **opts),
        nbt.tensor(
            [
                [[[0.0, 1.0, 1.0], [2.0, 6.0, 6.0], [2.0, 5.0, 5.0]]],
                [[[0.0, 1.0, 1.0], [2.0, 6.0, 6.0], [2.0, 5.0, 5.0]]],
                [[[4.0, 9.0, 9.0], [10.0, 22.0, 22.0], [6.0, 13.0, 13.0]]],
                [[[4.0, 9.0, 9.0], [10.0, 22.0, 22.0], [6.0, 13.0, 13.0]]],
                [[[8.0, 17.0, 17.0], [18.0, 38.0, 38.0], [10.0, 21.0, 21.0]]],
                [[[8.0, 17.0, 17.0], [18.0, 38.0, 38.0], [10.0, 21.0, 21.0]]],
            ]
        ),
    )
    assert_all_close(
        on(path, grad_sum_conv_y, x, y, **opts),
        nbt.tensor(
            [[[[84.0, 60.0], [120.0, 84.0]]], [[[300.0, 204.0], [336.0, 228.0]]], [[[516.0, 348.0], [552.0, 372.0]]]]
        ),
    )


def test_conv_rule_computes_the_gradient_of_both_sides_with_arbitrary_permutations(path):
    x = nbt.iota((6, 3, 3, 6))
    y = nbt.iota((3, 2, 6, 3))
    opts = dict(input_permutation=[1, 2, 0, 3], kernel_permutation=[2, 0, 1, 3], output_permutation=[3, 0, 2, 1])  # noqa: C408
    assert_all_close(
        on(path, grad_sum_conv_x, x, y, **opts),
        nbt.tensor(
            [
                [
                    [
                        [45.0, 96.0, 153.0, 153.0, 108.0, 57.0],
                        [261.0, 528.0, 801.0, 801.0, 540.0, 273.0],
                        [477.0, 960.0, 1449.0, 1449.0, 972.0, 489.0],
                    ],
                    [
                        [45.0, 96.0, 153.0, 153.0, 108.0, 57.0],
                        [261.0, 528.0, 801.0, 801.0, 540.0, 273.0],
                        [477.0, 960.0, 1449.0, 1449.0, 972.0, 489.0],
                    ],
                    [
                        [45.0, 96.0, 153.0, 153.0, 108.0, 57.0],
                        [261.0, 528.0, 801.0, 801.0, 540.0, 273.0],
                        [477.0, 960.0, 1449.0, 1449.0, 972.0, 489.0],
                    ],
                ],
                [
                    [
                        [198.0, 408.0, 630.0, 630.0, 432.0, 222.0],
                        [630.0, 1272.0, 1926.0, 1926.0, 1296.0, 654.0],
                        [1062.0, 2136.0, 3222.0, 3222.0, 2160.0, 1086.0],
                    ],
                    [
                        [198.0, 408.0, 630.0, 630.0, 432.0, 222.0],
                        [630.0, 1272.0, 1926.0, 1926.0, 1296.0, 654.0],
                        [1062.0, 2136.0, 3222.0, 3222.0, 2160.0, 1086.0],
                    ],
                    [
                        [198.0, 408.0, 630.0, 630.0, 432.0, 222.0],
                        [630.0, 1272.0, 1926.0, 1926.0, 1296.0, 654.0],
                        [1062.0, 2136.0, 3222.0, 3222.0, 2160.0, 1086.0],
                    ],
                ],
                [
                    [
                        [198.0, 408.0, 630.0, 630.0, 432.0, 222.0],
                        [630.0, 1272.0, 1926.0, 1926.0, 1296.0, 654.0],
                        [1062.0, 2136.0, 3222.0, 3222.0, 2160.0, 1086.0],
                    ],
                    [
                        [198.0, 408.0, 630.0, 630.0, 432.0, 222.0],
                        [630.0, 1272.0, 1926.0, 1926.0, 1296.0, 654.0],
                        [1062.0, 2136.0, 3222.0, 3222.0, 2160.0, 1086.0],
                    ],
                    [
                        [198.0, 408.0, 630.0, 630.0, 432.0, 222.0],
                        [630.0, 1272.0, 1926.0, 1926.0, 1296.0, 654.0],
                        [1062.0, 2136.0, 3222.0, 3222.0, 2160.0, 1086.0],
                    ],
                ],
                [
                    [
                        [198.0, 408.0, 630.0, 630.0, 432.0, 222.0],
                        [630.0, 1272.0, 1926.0, 1926.0, 1296.0, 654.0],
                        [1062.0, 2136.0, 3222.0, 3222.0, 2160.0, 1086.0],
                    ],
                    [
                        [198.0, 408.0, 630.0, 630.0, 432.0, 222.0],
                        [630.0, 1272.0, 1926.0, 1926.0, 1296.0, 654.0],
                        [1062.0, 2136.0, 3222.0, 3222.0, 2160.0, 1086.0],
                    ],
                    [
                        [198.0, 408.0, 630.0, 630.0, 432.0, 222.0],
                        [630.0, 1272.0, 1926.0, 1926.0, 1296.0, 654.0],
                        [1062.0, 2136.0, 3222.0, 3222.0, 2160.0, 1086.0],
                    ],
                ],
                [
                    [
                        [198.0, 408.0, 630.0, 630.0, 432.0, 222.0],
                        [630.0, 1272.0, 1926.0, 1926.0, 1296.0, 654.0],
                        [1062.0, 2136.0, 3222.0, 3222.0, 2160.0, 1086.0],
                    ],
                    [
                        [198.0, 408.0, 630.0, 630.0, 432.0, 222.0],
                        [630.0, 1272.0, 1926.0, 1926.0, 1296.0, 654.0],
                        [1062.0, 2136.0, 3222.0, 3222.0, 2160.0, 1086.0],
                    ],
                    [
                        [198.0, 408.0, 630.0, 630.0, 432.0, 222.0],
                        [630.0, 1272.0, 1926.0, 1926.0, 1296.0, 654.0],
                        [1062.0, 2136.0, 3222.0, 3222.0, 2160.0, 1086.0],
                    ],
                ],
                [
                    [
                        [153.0, 312.0, 477.0, 477.0, 324.0, 165.0],
                        [369.0, 744.0, 1125.0, 1125.0, 756.0, 381.0],
                        [585.0, 1176.0, 1773.0, 1773.0, 1188.0, 597.0],
                    ],
                    [
                        [153.0, 312.0, 477.0, 477.0, 324.0, 165.0],
                        [369.0, 744.0, 1125.0, 1125.0, 756.0, 381.0],
                        [585.0, 1176.0, 1773.0, 1773.0, 1188.0, 597.0],
                    ],
                    [
                        [153.0, 312.0, 477.0, 477.0, 324.0, 165.0],
                        [369.0, 744.0, 1125.0, 1125.0, 756.0, 381.0],
                        [585.0, 1176.0, 1773.0, 1773.0, 1188.0, 597.0],
                    ],
                ],
            ]
        ),
    )
    assert_all_close(
        on(path, grad_sum_conv_y, x, y, **opts),
        nbt.tensor(
            [
                [
                    [
                        [7650.0, 7710.0, 7770.0],
                        [7650.0, 7710.0, 7770.0],
                        [7650.0, 7710.0, 7770.0],
                        [7650.0, 7710.0, 7770.0],
                        [7650.0, 7710.0, 7770.0],
                        [7650.0, 7710.0, 7770.0],
                    ],
                    [
                        [10890.0, 10950.0, 11010.0],
                        [10890.0, 10950.0, 11010.0],
                        [10890.0, 10950.0, 11010.0],
                        [10890.0, 10950.0, 11010.0],
                        [10890.0, 10950.0, 11010.0],
                        [10890.0, 10950.0, 11010.0],
                    ],
                ],
                [
                    [
                        [8010.0, 8070.0, 8130.0],
                        [8010.0, 8070.0, 8130.0],
                        [8010.0, 8070.0, 8130.0],
                        [8010.0, 8070.0, 8130.0],
                        [8010.0, 8070.0, 8130.0],
                        [8010.0, 8070.0, 8130.0],
                    ],
                    [
                        [11250.0, 11310.0, 11370.0],
                        [11250.0, 11310.0, 11370.0],
                        [11250.0, 11310.0, 11370.0],
                        [11250.0, 11310.0, 11370.0],
                        [11250.0, 11310.0, 11370.0],
                        [11250.0, 11310.0, 11370.0],
                    ],
                ],
                [
                    [
                        [8370.0, 8430.0, 8490.0],
                        [8370.0, 8430.0, 8490.0],
                        [8370.0, 8430.0, 8490.0],
                        [8370.0, 8430.0, 8490.0],
                        [8370.0, 8430.0, 8490.0],
                        [8370.0, 8430.0, 8490.0],
                    ],
                    [
                        [11610.0, 11670.0, 11730.0],
                        [11610.0, 11670.0, 11730.0],
                        [11610.0, 11670.0, 11730.0],
                        [11610.0, 11670.0, 11730.0],
                        [11610.0, 11670.0, 11730.0],
                        [11610.0, 11670.0, 11730.0],
                    ],
                ],
            ]
        ),
    )


def test_conv_rule_computes_gradient_of_kernel_when_image_is_a_constant_closure_variable(path):
    image = nbt.new_axis(nbt.new_axis(nbt.tensor([[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]), 0), 0)
    kernel = nbt.new_axis(nbt.new_axis(nbt.tensor([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]), 0), 0)

    def grad_k(kernel):
        (k,) = nbt.grad(lambda ks: nbt.sum(nbt.conv(image, ks[0])))((kernel,))
        return k

    assert_all_close(run(path, grad_k, kernel), image)


def test_conv_rule_works_with_complex_numbers(path):
    t = nbt.reshape(nbt.tensor([complex(1, +1), 2, complex(3, -3)]), (1, 1, 3))
    k = nbt.reshape(nbt.tensor([1, complex(0, 2), complex(0, 3)]), (1, 1, 3))
    assert_all_close(
        nbt.reshape(nbt.tensor([1, complex(0, 2), complex(0, 3)]), (1, 1, 3)), on(path, grad_sum_conv_x, t, k)
    )
    assert_all_close(
        nbt.reshape(nbt.tensor([complex(1, +1), 2, complex(3, -3)]), (1, 1, 3)), on(path, grad_sum_conv_y, t, k)
    )
    assert_all_close(
        nbt.reshape(
            nbt.tensor([complex(-1.0926, -0.5343), complex(0, -3.2978), complex(99.3534, -14.2328)]), (1, 1, 3)
        ),
        run(path, grad_sum_conv_x_cos_x_sin_y, t, k),
    )
    assert_all_close(
        nbt.reshape(nbt.tensor([complex(0.45046, -0.5343), -1.56562, complex(-100.3435, +14.2328)]), (1, 1, 3)),
        run(path, grad_sum_conv_y_cos_x_sin_y, t, k),
    )
