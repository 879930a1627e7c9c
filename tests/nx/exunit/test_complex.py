"""Nx 0.13.1 nx/test/nx/complex_test.exs (Nx.ComplexTest): ops on complex numbers."""

import cmath
import math

import pytest

import numbat as nbt

from ._support import assert_all_close, assert_raises, assert_same, run

NAN = math.nan
ONE, ZERO = nbt.tensor(1, type="u8"), nbt.tensor(0, type="u8")


def arg():
    return nbt.tensor(2 + 3j)  # @arg Complex.new(2, 3)


def arg2():
    return nbt.tensor(-2 + 7j)  # @arg2 Complex.new(-2, 7)


def pair():
    return nbt.tensor([2 + 3j, -2 + 7j])


# describe "unary operations"

UNARY = {
    "exp": -7.315 + 1.042j,
    "expm1": -8.315 + 1.042j,
    "log": 1.2824 + 0.98279j,
    "log1p": 1.4451 + 0.7854j,
    "sigmoid": 1.1541 + 0.0254j,
    "cos": -4.1896 - 9.10925j,
    "sin": 9.1544 - 4.1689j,
    "tan": -0.00376 + 1.00323j,
    "cosh": -3.72454 + 0.51182j,
    "sinh": -3.59056 + 0.53092j,
    "tanh": 0.96538 - 0.00988j,
    "acos": 1.0001 - 1.9833j,
    "asin": 0.57065 + 1.98338j,
    "atan": 1.40992 + 0.22907j,
    "acosh": 1.9833 + 1.0001j,
    "asinh": 1.9686 + 0.96465j,
    "atanh": 0.14694 + 1.3389j,
    "sqrt": 1.6741 + 0.8959j,
    "rsqrt": 0.4643 - 0.2485j,
    "cbrt": 1.4518 + 0.4934j,
}


@pytest.mark.parametrize("fun", sorted(UNARY))
def test_unary(path, fun):
    # Nx.Testing.assert_all_close on complex numbers compares magnitudes, as np.allclose does
    assert_all_close(run(path, getattr(nbt, fun), arg()), nbt.tensor(UNARY[fun]))


def test_conjugate(path):
    assert_same(run(path, nbt.conjugate, arg()), nbt.tensor(2 - 3j))


def test_phase(path):
    assert_all_close(run(path, nbt.phase, arg()), cmath.phase(2 + 3j))


@pytest.mark.parametrize("fun", ["erf", "erfc", "erf_inv", "round", "floor", "ceil"])
def test_no_complex_inputs(path, fun):
    assert_raises(path, getattr(nbt, fun), arg(), match="complex")


# describe "aggregate operations"


def test_all_any_all_close(path):
    assert_same(run(path, nbt.all, pair()), ONE)
    assert_same(run(path, lambda t: nbt.all_close(t, 0), pair()), ZERO)
    assert_same(run(path, nbt.any, pair()), ONE)


def test_mean(path):
    assert_same(run(path, nbt.mean, pair()), run(path, lambda t: nbt.divide(nbt.sum(t), 2), pair()))


def test_product_reduce_sum(path):
    assert_same(run(path, nbt.product, pair()), nbt.multiply(arg(), arg2()))
    assert_same(run(path, lambda t: nbt.reduce(t, 0, nbt.add), pair()), nbt.add(arg(), arg2()))
    assert_same(run(path, nbt.sum, pair()), nbt.add(arg(), arg2()))


# describe "window operations"


@pytest.mark.parametrize(
    ("window_fun", "whole_fun"),
    [
        (lambda t: nbt.window_mean(t, (2,))[0], nbt.mean),
        (lambda t: nbt.window_product(t, (2,))[0], nbt.product),
        (lambda t: nbt.window_reduce(t, 0, (2,), nbt.add)[0], nbt.sum),
        (lambda t: nbt.window_sum(t, (2,))[0], nbt.sum),
    ],
    ids=["window_mean", "window_product", "window_reduce", "window_sum"],
)
def test_window(path, window_fun, whole_fun):
    assert_same(run(path, window_fun, pair()), run(path, whole_fun, pair()))


# describe "binary operations"

BINARY = {
    "add": 0 + 10j,
    "subtract": 4 - 4j,
    "multiply": -25 + 8j,
    "pow": 5.90369e-5 + 5.26792e-5j,
    "divide": 0.32075 - 0.37735j,
}


@pytest.mark.parametrize("fun", sorted(BINARY))
def test_binary(path, fun):
    assert_all_close(run(path, getattr(nbt, fun), arg(), arg2()), nbt.tensor(BINARY[fun]))


def test_atan2(path):
    assert_all_close(run(path, nbt.atan2, nbt.tensor(7 + 0j), nbt.tensor(2.0 + 0j)), nbt.tensor(1.2925 + 0j))
    # Nx raises ArithmeticError "Complex.atan2 only accepts real numbers as arguments"; a defn cannot
    # raise on values it traces, and gives NaN+NaN i there
    for left, right in ((nbt.tensor(7), arg()), (arg(), nbt.tensor(7))):
        if path == "jit":
            assert_same(run(path, nbt.atan2, left, right), nbt.tensor(complex(NAN, NAN)))
        else:
            assert_raises(path, nbt.atan2, left, right, match="only accepts real numbers")


@pytest.mark.parametrize(
    "op",
    ["quotient", "remainder", "max", "min", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"],
)
def test_no_complex_binary(path, op):
    assert_raises(path, getattr(nbt, op), arg(), arg2())


ONE_C, ZERO_C = 1 + 0j, 0j

EQUALITIES = [  # (left, right, equal)
    (1, 1, 1),
    (1, 0, 0),
    (ONE_C, ONE_C, 1),
    (ONE_C, ZERO_C, 0),
    (1, ONE_C, 1),
    (0, ONE_C, 0),
    (ONE_C, 1, 1),
    (ONE_C, 0, 0),
    (NAN, 1, 0),
    (NAN, ONE_C, 0),
    (1, NAN, 0),
    (ONE_C, NAN, 0),
]


@pytest.mark.parametrize(("left", "right", "equal"), EQUALITIES)
def test_equal_and_not_equal(path, left, right, equal):
    left, right = nbt.tensor(left), nbt.tensor(right)
    # fresh functions: one nbt.equal compiled for every pair of types would warn of recompilation
    assert_same(run(path, lambda a, b: nbt.equal(a, b), left, right), ONE if equal else ZERO)
    assert_same(run(path, lambda a, b: nbt.not_equal(a, b), left, right), ZERO if equal else ONE)


# describe "LinAlg not yet implemented"


def test_svd_of_complex(path):
    # Nx raises "Nx.LinAlg.svd/2 is not yet implemented for complex inputs"; DELIBERATE: numbat computes it
    # (XLA's complex SVD): u * s * v^H gives the matrix back
    t = nbt.broadcast(nbt.tensor(1, type="c64"), (3, 3))
    u, s, vt = run(path, nbt.linalg.svd, t)
    assert str(u.type) == "c64" and str(s.type) == "f32"
    assert_all_close(nbt.dot(nbt.multiply(u, nbt.as_type(s, "c64")), vt), t, atol=1e-5)


def test_triangular_solve_fails_with_singular_complex_matrix(path):
    t = nbt.broadcast(nbt.tensor(0, type="c64"), (3, 3))
    if path == "jit":  # a defn cannot raise on the values it traces: NaN (tests/_differential.py, PLATFORM_DIFFERENCES)
        assert_same(run(path, nbt.linalg.triangular_solve, t, t), nbt.broadcast(nbt.tensor(complex(NAN, NAN)), (3, 3)))
    else:
        assert_raises(path, nbt.linalg.triangular_solve, t, t, match="singular")
