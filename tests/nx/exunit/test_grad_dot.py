"""Nx 0.13.1 nx/test/nx/defn/grad_test.exs, lines 331-471: "dot rule"."""

import numbat as nbt

from ._support import assert_same, run


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
