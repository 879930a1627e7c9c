"""qr follows Nx 0.13.1's Householder algorithm (numbat/backends/_families/_linalg_qr.py):
Nx's signs and eps on every path (NumPy, XLA, jit, the evaluator), batched or not;
triangular_solve's transform_a "conjugate" and singular-matrix error."""

import numpy as np
import pytest
from _paths import PATHS, run_on_path

import numbat as nbt

RNG = np.random.default_rng(16)


def _symmetric(*shape):
    a = RNG.normal(size=shape)
    return a + np.swapaxes(a, -1, -2)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 3, 6, 4)])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr_reconstructs_with_nx_signs_on_every_path(path, shape, mode):
    a = RNG.normal(size=shape)
    q, r = run_on_path(path, lambda t: nbt.linalg.qr(t, mode=mode), a)
    np.testing.assert_allclose(q @ r, a, atol=1e-12)
    np.testing.assert_allclose(
        np.swapaxes(q, -1, -2) @ q, np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2), atol=1e-12
    )
    np.testing.assert_array_equal(np.triu(r), r)
    k = min(shape[-2:])
    # Nx's reflector gives a positive diagonal wherever a column had something below it.
    diagonal = np.diagonal(r, axis1=-2, axis2=-1)[..., : k - 1 if shape[-2] <= shape[-1] else k]
    assert (diagonal > 0).all()


def test_qr_keeps_the_sign_of_a_column_already_reduced():
    # Nx's reflector is the identity when the part below the diagonal is (nearly) zero.
    q, r = nbt.linalg.qr(nbt.tensor([[-3.0, 2.0, 1.0], [0.0, 1.0, 1.0], [0.0, 0.0, -1.0]]))
    assert nbt.to_list(q) == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    assert nbt.to_list(r) == [[-3.0, 2.0, 1.0], [0.0, 1.0, 1.0], [0.0, 0.0, -1.0]]
    # LAPACK's QR of [[-1, 1], [1, 1]] has r = [[1.414, 0], [0, -1.414]]; Nx's has a positive r[0, 0].
    _, r = nbt.linalg.qr(nbt.tensor([[-1.0, 1.0], [1.0, 1.0]], type="f64"))
    np.testing.assert_allclose(r.to_numpy(), [[2**0.5, 0.0], [0.0, 2**0.5]], atol=1e-15)


def test_qr_eps_sets_small_entries_to_zero():
    a = nbt.tensor([[1.0, 0.001], [0.0, 1.0]])
    assert nbt.to_list(nbt.linalg.qr(a, eps=0.01)[1]) == [[1.0, 0.0], [0.0, 1.0]]
    assert nbt.to_list(nbt.linalg.qr(a)[1])[0][1] == pytest.approx(0.001)


@pytest.mark.parametrize("path", PATHS)
def test_batched_qr_is_the_per_matrix_qr(path):
    a = _symmetric(3, 4, 4)
    q, r = run_on_path(path, nbt.linalg.qr, a)
    for i in range(3):
        for batched, single in zip((q, r), run_on_path(path, nbt.linalg.qr, a[i]), strict=True):
            np.testing.assert_allclose(batched[i], single, atol=1e-13)


def test_every_path_gives_the_numpy_backends_qr():
    a = _symmetric(2, 5, 5)
    reference = run_on_path("numpy", nbt.linalg.qr, a, type="f32")
    for path in PATHS[1:]:
        for got, want in zip(run_on_path(path, nbt.linalg.qr, a, type="f32"), reference, strict=True):
            np.testing.assert_allclose(got, want, atol=2e-5)


@pytest.mark.parametrize("path", PATHS)
def test_triangular_solve_conjugate(path):
    a = np.array([[1 + 1j, 0], [1 - 2j, 2j]])
    b = np.array([1 + 0j, 2j])
    got = run_on_path(path, lambda a, b: nbt.linalg.triangular_solve(a, b, transform_a="conjugate"), a, b, type="c128")
    np.testing.assert_allclose(got, np.linalg.solve(np.conj(a), b), atol=1e-14)
    got = run_on_path(
        path,
        lambda a, b: nbt.linalg.triangular_solve(a, b, transform_a="transpose", left_side=False),
        a,
        b,
        type="c128",
    )
    np.testing.assert_allclose(got, np.linalg.solve(a, b), atol=1e-14)  # x @ a.T == b is a @ x == b


@pytest.mark.parametrize("path", ["numpy", "xla", "evaluator"])
def test_triangular_solve_singular_matrix_is_nx_error(path):
    with pytest.raises(nbt.ArgumentError, match="can't solve for singular matrix"):
        run_on_path(path, nbt.linalg.triangular_solve, np.array([[1.0, 0.0], [1.0, 0.0]]), np.array([1.0, 2.0]))


def test_triangular_solve_singular_matrix_inside_jit_gives_xla_answer():
    # tests/_differential.py PLATFORM_DIFFERENCES["singular triangular matrices inside defn on XLA"]
    got = run_on_path("jit", nbt.linalg.triangular_solve, np.array([[1.0, 0.0], [1.0, 0.0]]), np.array([1.0, 2.0]))
    assert got[0] == 1.0 and np.isinf(got[1])


def test_triangular_solve_refuses_other_transforms():
    with pytest.raises(nbt.ArgumentError, match='"none", "transpose" or "conjugate"'):
        nbt.linalg.triangular_solve(nbt.eye(2), nbt.tensor([1.0, 2.0]), transform_a="adjoint")


def test_complex_qr_reconstructs():
    # Nx's complex reflector multiplies by outer(v, v); numbat's by outer(v, conj(v)), the unitary one.
    a = RNG.normal(size=(4, 3)) + 1j * RNG.normal(size=(4, 3))
    for path in ("numpy", "xla"):
        q, r = run_on_path(path, nbt.linalg.qr, a, type="c128")
        np.testing.assert_allclose(q @ r, a, atol=1e-12)
        np.testing.assert_allclose(q.conj().T @ q, np.eye(3), atol=1e-12)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("type_", ["f16", "bf16", "f8_e4m3fn"])
def test_low_precision_floats_decompose_and_solve_in_f32_and_round(path, type_):
    # LAPACK has no f16, bf16 or 8-bit floats: every backend computes in f32 and rounds to the type.
    a = np.array([[4.0, 2.0], [2.0, 3.0]])
    b = np.array([1.0, 2.0])
    rounded = nbt.tensor(np.linalg.solve(a, b), type=type_).to_numpy().astype(np.float64)
    solved = run_on_path(path, nbt.linalg.solve, a, b, type=type_)
    assert solved.dtype == nbt.tensor(0.0, type=type_).to_numpy().dtype
    np.testing.assert_array_equal(solved.astype(np.float64), rounded)
    lower = run_on_path(path, nbt.linalg.cholesky, a, type=type_)
    expected = nbt.tensor(np.linalg.cholesky(a), type=type_).to_numpy().astype(np.float64)
    np.testing.assert_array_equal(lower.astype(np.float64), expected)


@pytest.mark.parametrize("path", PATHS)
def test_singular_indefinite_and_nan_matrices_give_nx_nans_on_every_path(path):
    # Nx computes these with defn algorithms that never raise; NumPy's LAPACK wrappers raise
    # LinAlgError (not positive definite, singular, did not converge). numbat gives XLA's NaNs.
    indefinite = np.array([[0.0, 1.0], [1.0, 0.0]])
    assert np.isnan(run_on_path(path, nbt.linalg.cholesky, indefinite)).any()
    solved = run_on_path(path, nbt.linalg.solve, np.zeros((2, 2)), np.ones(2))
    assert not np.isfinite(solved).all()
    with_nan = np.array([[np.nan, 1.0], [1.0, 2.0]])
    for fun in (nbt.linalg.svd, nbt.linalg.eigh, nbt.linalg.pinv):
        result = run_on_path(path, fun, with_nan)
        assert any(np.isnan(part).any() for part in (result if isinstance(result, list) else [result]))
    assert np.isnan(run_on_path(path, lambda t: nbt.linalg.norm(t, ord=2), with_nan))


@pytest.mark.parametrize("path", PATHS)
def test_cholesky_is_nx_algorithm_for_singular_and_unsymmetric_matrices(path):
    # Nx's Cholesky-Banachiewicz loop (nx/lib/nx/lin_alg/cholesky.ex): a zero pivot gives a zero
    # column (off-diagonal entries divided by `l_jj + eps`, then |x| <= eps is 0), where LAPACK's
    # potrf stops with NaN; only the lower triangle is read (XLA symmetrizes the input).
    def _cholesky(t):  # a fresh function: nbt.jit warns when one keeps recompiling for new types
        return nbt.linalg.cholesky(t)

    singular = np.array([[25.0, 25.0], [25.0, 25.0]])
    np.testing.assert_array_equal(run_on_path(path, _cholesky, singular, type="f32"), [[5, 0], [5, 0]])
    lower_only = np.array([[4.0, 100.0], [2.0, 5.0]])
    np.testing.assert_array_equal(run_on_path(path, _cholesky, lower_only, type="f32"), [[2, 0], [1, 2]])
    rank_one = np.array([[4.0, 2.0, 2.0], [2.0, 1.0, 1.0], [2.0, 1.0, 1.0]])
    lower = run_on_path(path, _cholesky, rank_one, type="f32")
    np.testing.assert_array_equal(lower, [[2, 0, 0], [1, 0, 0], [1, 0, 0]])
