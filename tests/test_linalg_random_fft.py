"""nbt.linalg against numpy.linalg (reconstructions in float64), nbt.random against JAX's
original threefry layout (Nx's), and the FFTs against numpy.fft, on both backends and inside defn."""

import jax
import numpy as np
import pytest

import numbat as nbt

RNG = np.random.default_rng(1)
A = RNG.normal(size=(2, 4, 4))
SPD = A @ np.swapaxes(A, -1, -2) + 4 * np.eye(4)
B = RNG.normal(size=(2, 4, 3))
MODES = ["numpy", "xla", "defn"]


def _run(mode, fun, *arrays):
    if mode == "defn":
        return nbt.jit(fun)(*[nbt.tensor(a, type="f64") for a in arrays])
    with nbt.default_backend(nbt.NumPyBackend() if mode == "numpy" else nbt.XLABackend()):
        return fun(*[nbt.tensor(a, type="f64") for a in arrays])


def _np(t):
    return [x.to_numpy() for x in t] if isinstance(t, tuple) else t.to_numpy()


@pytest.mark.parametrize("mode", MODES)
def test_decompositions_reconstruct_their_input(mode):
    q, r = _np(_run(mode, nbt.linalg.qr, A))
    np.testing.assert_allclose(q @ r, A, atol=1e-10)
    np.testing.assert_allclose(np.triu(r), r, atol=1e-12)
    l_ = _np(_run(mode, nbt.linalg.cholesky, SPD))
    np.testing.assert_allclose(l_ @ np.swapaxes(l_, -1, -2), SPD, atol=1e-10)
    u, s, vt = _np(_run(mode, lambda a: nbt.linalg.svd(a, full_matrices=False), B))
    np.testing.assert_allclose(u @ (s[..., None] * vt), B, atol=1e-10)
    values, vectors = _np(_run(mode, nbt.linalg.eigh, SPD))
    np.testing.assert_allclose(vectors @ (values[..., None] * np.swapaxes(vectors, -1, -2)), SPD, atol=1e-9)
    p, lower, upper = _np(_run(mode, nbt.linalg.lu, A))
    np.testing.assert_allclose(p @ lower @ upper, A, atol=1e-10)


@pytest.mark.parametrize("mode", MODES)
def test_solvers_and_inverses_match_numpy(mode):
    np.testing.assert_allclose(_np(_run(mode, nbt.linalg.solve, A, B)), np.linalg.solve(A, B), atol=1e-9)
    np.testing.assert_allclose(_np(_run(mode, nbt.linalg.invert, A)), np.linalg.inv(A), atol=1e-9)
    np.testing.assert_allclose(_np(_run(mode, nbt.linalg.determinant, A)), np.linalg.det(A), rtol=1e-9)
    np.testing.assert_allclose(_np(_run(mode, nbt.linalg.pinv, B)), np.linalg.pinv(B), atol=1e-9)
    lower = np.tril(A) + 4 * np.eye(4)
    x = _np(_run(mode, nbt.linalg.triangular_solve, lower, B))
    np.testing.assert_allclose(lower @ x, B, atol=1e-9)
    np.testing.assert_allclose(
        _np(_run(mode, lambda a: nbt.linalg.matrix_power(a, 3), A)), np.linalg.matrix_power(A, 3), rtol=1e-9
    )


@pytest.mark.parametrize("mode", MODES)
def test_a_singular_matrix_inverts_to_nans_everywhere_as_in_nx(mode):
    # Nx.LinAlg.invert: |det| <= 1000 * the smallest normal gives NaN everywhere; XLA's LU alone
    # leaves a mix of NaN and Inf that depends on the CPU. A batch keeps its regular matrices.
    singular = np.array([[0.0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 1, 1]])
    batch = np.stack([singular, np.array([[1, 2, 3, 4], [2, 4, 6, 8], [0, 1, 0, 1], [1, 0, 0, 0]]), 1e-3 * np.eye(4)])
    inverse = _np(_run(mode, nbt.linalg.invert, batch))
    assert np.isnan(inverse[:2]).all()
    np.testing.assert_allclose(inverse[2], 1e3 * np.eye(4), rtol=1e-12)


@pytest.mark.parametrize("ord", [None, 1, -1, 2, "frobenius", "nuclear", float("inf")])
def test_matrix_norms_match_numpy(ord):
    numpy_ord = {"frobenius": "fro", "nuclear": "nuc"}.get(ord, ord)
    got = nbt.linalg.norm(nbt.tensor(A[0], type="f64"), ord=ord).to_numpy()
    np.testing.assert_allclose(got, np.linalg.norm(A[0], ord=numpy_ord), rtol=1e-12)


def test_linalg_errors_name_the_function():
    with pytest.raises(nbt.ArgumentError, match="linalg.cholesky needs square matrices"):
        nbt.linalg.cholesky(nbt.iota((2, 3), type="f32"))
    with pytest.raises(nbt.ArgumentError, match="invalid matrix ord 3"):
        nbt.linalg.norm(nbt.iota((2, 2), type="f32"), ord=3)
    with pytest.raises(nbt.ArgumentError, match="does not fit a of shape"):
        nbt.linalg.solve(nbt.eye(3, type="f32"), nbt.iota((2,), type="f32"))


def test_keys_split_fold_in_and_uniform_equal_jax_original_threefry():
    # Nx's counter layout is JAX's original (non-partitionable) one; that JAX setting is
    # scoped to this test as an independent reference, numbat never touches it.
    with jax.threefry_partitionable(False):
        key = jax.random.PRNGKey(42)
        first, second = jax.random.split(key)
        expected = [jax.random.split(key, 3), jax.random.fold_in(key, 7), jax.random.uniform(second, (5,)), first]
    assert nbt.random.key(42).to_numpy().tolist() == np.asarray(jax.random.key_data(key)).tolist()
    np.testing.assert_array_equal(nbt.random.split(nbt.random.key(42), 3).to_numpy(), expected[0])
    np.testing.assert_array_equal(nbt.random.fold_in(nbt.random.key(42), 7).to_numpy(), expected[1])
    sample, next_key = nbt.random.uniform(nbt.random.key(42), shape=(5,))
    np.testing.assert_array_equal(sample.to_numpy(), expected[2])
    np.testing.assert_array_equal(next_key.to_numpy(), expected[3])


@pytest.mark.parametrize("mode", ["numpy", "xla"])
def test_samplers_agree_across_backends_and_defn(mode):
    with nbt.default_backend(nbt.NumPyBackend() if mode == "numpy" else nbt.XLABackend()):
        eager, _ = nbt.random.normal(nbt.random.key(3), shape=(4,))
    compiled, _ = nbt.jit(lambda k: nbt.random.normal(k, shape=(4,)))(nbt.random.key(3))
    np.testing.assert_array_equal(eager.to_numpy(), compiled.to_numpy())
    big, _ = nbt.random.normal(nbt.random.key(3), 2.0, 3.0, shape=(20000,))
    assert abs(big.to_numpy().mean() - 2.0) < 0.1 and abs(big.to_numpy().std() - 3.0) < 0.1


def test_split_samplers_draw_with_the_key_given_inside_a_defn_too():
    with jax.threefry_partitionable(False):
        sample_key = jax.random.split(jax.random.PRNGKey(5))[1]
        expected = jax.random.uniform(sample_key, (3,))
    key = nbt.tensor(np.asarray(jax.random.key_data(sample_key)), type="u32")
    drawn = nbt.jit(lambda k: nbt.random.uniform_split(k, shape=(3,)))(key)
    np.testing.assert_array_equal(drawn.to_numpy(), expected)
    sample, next_key = nbt.random.uniform(key, shape=(3,))  # the unsplit sampler splits the key first
    assert next_key.shape == (2,) and not np.array_equal(sample.to_numpy(), expected)


@pytest.mark.parametrize("mode", MODES)
def test_ffts_match_numpy(mode):
    signal = RNG.normal(size=(3, 8))
    np.testing.assert_allclose(_np(_run(mode, nbt.fft, signal)), np.fft.fft(signal), atol=1e-10)
    np.testing.assert_allclose(
        _np(_run(mode, lambda t: nbt.ifft(t, length=10), signal)), np.fft.ifft(signal, 10), atol=1e-10
    )
    np.testing.assert_allclose(_np(_run(mode, nbt.fft2, signal)), np.fft.fft2(signal), atol=1e-10)
    np.testing.assert_allclose(_np(_run(mode, nbt.rfft, signal)), np.fft.rfft(signal), atol=1e-10)
    spectrum = np.fft.rfft(signal)
    got = nbt.irfft(nbt.tensor(spectrum, type="c128"), length=8).to_numpy()
    np.testing.assert_allclose(got, signal, atol=1e-10)
