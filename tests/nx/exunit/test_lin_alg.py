"""Nx 0.13.1 `nx/test/nx/lin_alg_test.exs`, ported (its `doctest Nx.LinAlg` is the doctest
port's). Nx's property tests draw from `Nx.Random.key(System.unique_integer())` and
`:rand`: the port draws from fixed seeds."""

import pytest

import numbat as nbt

from ._support import assert_all_close, assert_raises, assert_same, run

la = nbt.linalg


def bdot(a, b):
    """Nx's `Nx.dot(a, [2], [0], b, [1], [0])`: batched matrix product."""
    return nbt.dot(a, b, contract_axes=([2], [1]), batch_axes=([0], [0]))


# describe "triangular_solve"


def test_triangular_solve_works_with_batched_input(path):
    a = nbt.tensor([[[-1, 0, 0], [1, 1, 0], [1, 1, 1]], [[2, 0, 0], [4, -2, 0], [-5, 1, 3]]])
    b = nbt.tensor([[1.0, 2.0, 3.0], [6, 10, 1]])
    result = run(path, lambda a, b: nbt.dot(a, la.triangular_solve(a, b), ([2], [1]), ([0], [0])), a, b)
    assert_same(result, b)


def test_triangular_solve_works_with_b_that_has_more_columns_than_rows(path):
    a = nbt.tensor([[1, 0], [1, 1]], type="f64")
    b = nbt.tensor([[1, 1, 1], [2, 2, 2]], type="f64")
    assert_same(run(path, la.triangular_solve, a, b), nbt.tensor([[1, 1, 1], [1, 1, 1]], type="f64"))


def test_triangular_solve_property(path):
    a = nbt.tensor([[1, 0, 0], [1, 1, 0], [0, 1, 1]])
    b = nbt.tensor([[1.0, 2.0, 3.0], [2.0, 2.0, 4.0], [2.0, 0.0, 1.0]])
    upper = nbt.transpose(a)
    assert_same(run(path, lambda a, b: nbt.dot(a, la.triangular_solve(a, b)), a, b), b)
    assert_same(run(path, lambda u, b: nbt.dot(u, la.triangular_solve(u, b, lower=False)), upper, b), b)
    right = run(path, lambda u, b: nbt.dot(la.triangular_solve(u, b, left_side=False, lower=False), u), upper, b)
    assert_same(right, b)
    assert_same(
        run(path, lambda a, b: la.triangular_solve(a, b, transform_a="transpose"), a, b),
        run(path, lambda u, b: la.triangular_solve(u, b, lower=False), upper, b),
    )
    transposed = run(
        path, lambda a, b: nbt.dot(nbt.transpose(a), la.triangular_solve(a, b, transform_a="transpose")), a, b
    )
    assert_same(transposed, b)


def test_triangular_solve_transform_a_conjugate_with_real_tensors(path):
    a = nbt.tensor([[1, 0, 0], [1, 1, 0], [0, 1, 1]])
    b = nbt.tensor([[1.0, 2.0, 3.0], [2.0, 2.0, 4.0], [2.0, 0.0, 1.0]])
    upper = nbt.transpose(a)
    for m, options in [(a, {}), (upper, {"lower": False}), (upper, {"left_side": False, "lower": False})]:
        conjugated = run(
            path, lambda m, b, options=options: la.triangular_solve(m, b, transform_a="conjugate", **options), m, b
        )
        assert_same(conjugated, run(path, lambda m, b, options=options: la.triangular_solve(m, b, **options), m, b))


# describe "solve/2"


def test_solve_does_not_preserve_names(path):
    a = nbt.tensor([[1, 0, 1], [1, 1, 0], [1, 1, 1]], names=["x", "y"])
    result = run(path, lambda a, b: nbt.round(la.solve(a, b)), a, nbt.tensor([0, 2, 1], names=["z"]))
    assert_same(result, nbt.tensor([1.0, 1.0, -1.0]))


def test_solve_works_with_batched_input(path):
    a = nbt.tensor([[[1, 3, -2], [3, 5, 6], [2, 4, 3]], [[1, 1, 1], [6, -4, 5], [5, 2, 2]]])
    b = nbt.tensor([[5, 7, 8], [2, 31, 13]])
    assert_all_close(run(path, lambda a, b: nbt.dot(a, la.solve(a, b), ([2], [1]), ([0], [0])), a, b), b)


def test_solve_works_with_complex_tensors(path):
    a = nbt.tensor([[1, 0, 1j], [-1j, 0, 1j], [1, 1, 1]])
    b = nbt.tensor([3 + 1j, 4, 2 - 2j])
    assert_all_close(run(path, la.solve, a, b), nbt.tensor([1j, 2, -3j]))


# describe "invert"


def test_invert_works_with_batched_input(path):
    a = nbt.tensor([[[1, 2], [3, 4]], [[5, 6], [7, 8]]])
    result = run(path, la.invert, a)
    assert_all_close(result, nbt.tensor([[[-2, 1], [1.5, -0.5]], [[-4, 3], [3.5, -2.5]]]))
    eyes = nbt.broadcast(nbt.eye(2), a.shape)
    assert_all_close(run(path, bdot, a, result), eyes)
    assert_all_close(run(path, bdot, result, a), eyes)


def test_invert_works_with_complex_tensors(path):
    a = nbt.tensor([[1, 0, 1j], [0, -1j, 0], [0, 0, 2]])
    result = run(path, la.invert, a)
    assert_all_close(result, nbt.tensor([[1, 0, -0.5j], [0, 1j, 0], [0, 0, 0.5]]))
    assert_all_close(run(path, nbt.dot, a, result), nbt.eye(a.shape))
    assert_all_close(run(path, nbt.dot, result, a), nbt.eye(a.shape))


def test_invert_regression_for_numerical_stability(path):
    q = nbt.multiply(
        nbt.tensor([[1, 0.5, 0.5, 0.5], [0.5, 1, 0.5, 0.5], [0.5, 0.5, 1, 0.5], [0.5, 0.5, 0.5, 1]], type="f64"),
        1.0e-10,
    )
    assert_all_close(run(path, lambda q: nbt.dot(la.invert(q), q), q), nbt.eye(q.shape), atol=1.0e-15)


# describe "determinant/1"


def test_determinant_does_not_preserve_names(path):
    two_by_two = nbt.tensor([[1, 2], [3, 4]], names=["x", "y"])
    assert_same(run(path, la.determinant, two_by_two), nbt.tensor(-2.0))
    three_by_three = nbt.tensor([[1.0, 2.0, 3.0], [1.0, -2.0, 3.0], [7.0, 8.0, 9.0]], names=["x", "y"])
    assert_same(run(path, la.determinant, three_by_three), nbt.tensor(48.0))


def test_determinant_supports_batched_matrices(path):
    two_by_two = nbt.tensor([[[2, 3], [4, 5]], [[6, 3], [4, 8]]])
    assert_same(run(path, la.determinant, two_by_two), nbt.tensor([-2.0, 36.0]))
    three_by_three = nbt.tensor(
        [[[1.0, 2.0, 3.0], [1.0, 5.0, 3.0], [7.0, 6.0, 9.0]], [[5.0, 2.0, 3.0], [8.0, 5.0, 4.0], [3.0, 1.0, -9.0]]]
    )
    assert_same(run(path, la.determinant, three_by_three), nbt.tensor([-36.0, -98.0]))
    four_by_four = nbt.tensor(
        [
            [[1.0, 2.0, 3.0, 0.0], [1.0, 5.0, 3.0, 0.0], [7.0, 6.0, 9.0, 0.0], [0.0, -11.0, 2.0, 3.0]],
            [[5.0, 2.0, 3.0, 0.0], [8.0, 5.0, 4.0, 0.0], [3.0, 1.0, -9.0, 0.0], [8.0, 2.0, -4.0, 5.0]],
        ]
    )
    assert_all_close(run(path, la.determinant, four_by_four), nbt.tensor([-108.0, -490]))


@pytest.mark.parametrize("type", ["bf16", "f16", "f32", "f64"])
def test_determinant_returns_0_for_ld_rows(path, type):
    for matrix in [
        [[1.0, 0.0], [3.0, 0.0]],
        [[1.0, 2.0, 3.0], [-1.0, -2.0, -3.0], [4.0, 5.0, 6.0]],
        [[1.0, 2.0, 3.0, 0], [-1.0, -2.0, -3.0, 0], [4.0, 5.0, 6.0, 0], [4.0, 5.0, 6.0, 0]],
        [[1.0, 2.0, 3.0, 4.0]] * 4,
    ]:
        determinant = lambda t: la.determinant(t)
        assert_all_close(run(path, determinant, nbt.tensor(matrix, type=type)), nbt.tensor(0))


def test_determinant_regression(path):
    tensor = nbt.tensor(
        [[-1.0, 1.0, -1.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, 0.0]], type="f64"
    )
    assert_all_close(run(path, la.determinant, tensor), nbt.tensor(1.0, type="f64"))


# describe "norm/2"


def test_norm_raises_for_rank_3_or_greater_tensors(path):
    assert_raises(path, la.norm, nbt.iota((2, 2, 2)), match=r"1 or 2 axes, got axes \[0, 1, 2\] of shape \(2, 2, 2\)")


def test_norm_raises_for_unknown_ord_value(path):
    assert_raises(path, lambda t: la.norm(t, ord="blep"), nbt.iota((2, 2)), match="invalid matrix ord 'blep'")


def test_norm_raises_for_invalid_ord_integer_value(path):
    assert_raises(path, lambda t: la.norm(t, ord=-3), nbt.iota((2, 2)), match="invalid matrix ord -3")


def test_norm_correctly_support_axes_option(path):
    t = nbt.tensor([[-1.0, -1.0], [0.0, 0.0], [1.0, 1.0]])
    result = nbt.tensor([1.4142135381698608, 0.0, 1.4142135381698608])
    assert_same(run(path, lambda t: la.norm(t, axes=[1]), t), result)
    assert_same(run(path, lambda t: la.norm(t, axes=[1], keep_axes=True), t), nbt.reshape(result, (3, 1)))


# describe "matrix_power"


def test_matrix_power_supports_complex_with_positive_exponent(path):
    a = nbt.tensor([[1, 1j], [-1j, 1]])
    assert_all_close(run(path, lambda a: la.matrix_power(a, 5), a), nbt.multiply(2**4, a))


def test_matrix_power_supports_complex_with_0_exponent(path):
    a = nbt.tensor([[1, 1j], [-1j, 1]])
    assert_all_close(run(path, lambda a: la.matrix_power(a, 0), a), nbt.eye(a.shape))


def test_matrix_power_supports_complex_with_negative_exponent(path):
    a = nbt.tensor([[1, -0.5j], [0, 0.5]])
    assert_all_close(run(path, lambda a: la.matrix_power(a, -4), a), nbt.tensor([[1, 15j], [0, 16]]))


def test_matrix_power_supports_batched_matrices(path):
    a = nbt.tensor([[[5, 3], [1, 2]], [[9, 0], [4, 7]]])
    expected = nbt.tensor([[[161, 126], [42, 35]], [[729, 0], [772, 343]]])
    assert_all_close(run(path, lambda a: la.matrix_power(a, 3), a), expected)
