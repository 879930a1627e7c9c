"""qr, eigh and svd follow Nx 0.13.1's algorithms (numbat/backends/_families/_nx_linalg.py):
Nx's signs, order and options on every path (NumPy, XLA, jit, the evaluator), batched or
not; triangular_solve's transform_a "conjugate" and singular-matrix error."""

import numpy as np
import pytest

import numbat as nbt

RNG = np.random.default_rng(16)
PATHS = ["numpy", "xla", "jit", "evaluator"]


def _run(path, fun, *arrays, type="f64"):
    tensors = [nbt.tensor(a, type=type) for a in arrays]
    if path == "jit":
        result = nbt.jit(fun)(*tensors)
    elif path == "evaluator":
        result = nbt.defn(fun, compiler="evaluator")(*tensors)
    else:
        with nbt.default_backend(nbt.NumPyBackend() if path == "numpy" else nbt.XLABackend()):
            result = fun(*[nbt.tensor(a, type=type) for a in arrays])
    return [t.to_numpy() for t in result] if isinstance(result, tuple) else result.to_numpy()


def _eye_like(x):
    return np.broadcast_to(np.eye(x.shape[-1]), x.shape[:-2] + (x.shape[-1],) * 2)


def _symmetric(*shape):
    a = RNG.normal(size=shape)
    return a + np.swapaxes(a, -1, -2)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 3, 6, 4)])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr_reconstructs_with_nx_signs_on_every_path(path, shape, mode):
    a = RNG.normal(size=shape)
    q, r = _run(path, lambda t: nbt.linalg.qr(t, mode=mode), a)
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
def test_batched_results_are_the_per_matrix_results(path):
    a = _symmetric(3, 4, 4)
    values, vectors = _run(path, nbt.linalg.eigh, a)
    u, s, vt = _run(path, nbt.linalg.svd, a[:, :, :3])
    q, r = _run(path, nbt.linalg.qr, a)
    for i in range(3):
        one = _run(path, lambda t: (*nbt.linalg.eigh(t), *nbt.linalg.svd(t[:, :3]), *nbt.linalg.qr(t)), a[i])
        for batched, single in zip((values, vectors, u, s, vt, q, r), one, strict=True):
            np.testing.assert_allclose(batched[i], single, atol=1e-13)


@pytest.mark.parametrize("fun", ["qr", "eigh", "svd"])
def test_every_path_gives_the_numpy_backends_answer(fun):
    a = _symmetric(2, 5, 5)
    reference = _run("numpy", getattr(nbt.linalg, fun), a, type="f32")
    for path in PATHS[1:]:
        for got, want in zip(_run(path, getattr(nbt.linalg, fun), a, type="f32"), reference, strict=True):
            np.testing.assert_allclose(got, want, atol=2e-5)


@pytest.mark.parametrize("path", PATHS)
def test_eigh_orders_by_decreasing_magnitude(path):
    a = _symmetric(2, 6, 6)
    values, vectors = _run(path, nbt.linalg.eigh, a)
    expected = np.linalg.eigvalsh(a)
    expected = np.take_along_axis(expected, np.argsort(-np.abs(expected), axis=-1, kind="stable"), axis=-1)
    # Nx's Jacobi stops once the off-diagonal norm is below eps (1e-4) of the Frobenius norm
    # and neglects entries below 1e-5 of the diagonal's: vectors to about 1e-4, values better.
    np.testing.assert_allclose(values, expected, rtol=1e-5)
    np.testing.assert_allclose(vectors @ (values[..., None] * np.swapaxes(vectors, -1, -2)), a, atol=1e-3)
    np.testing.assert_allclose(vectors @ np.swapaxes(vectors, -1, -2), _eye_like(vectors), atol=1e-12)
    values, vectors = _run(path, lambda t: nbt.linalg.eigh(t, eps=1e-8), a)
    np.testing.assert_allclose(vectors @ (values[..., None] * np.swapaxes(vectors, -1, -2)), a, atol=2e-4)


def test_eigh_of_a_hermitian_matrix():
    a = RNG.normal(size=(4, 4)) + 1j * RNG.normal(size=(4, 4))
    a = a + a.conj().T
    values, vectors = _run("xla", nbt.linalg.eigh, a, type="c128")
    np.testing.assert_allclose(np.abs(values), np.sort(np.abs(np.linalg.eigvalsh(a)))[::-1], rtol=1e-9)
    np.testing.assert_allclose(vectors @ np.diag(values) @ vectors.conj().T, a, atol=1e-4)
    np.testing.assert_allclose(values, _run("numpy", nbt.linalg.eigh, a, type="c128")[0], rtol=1e-12)


def test_eigh_eps_and_max_iter_do_what_they_say():
    m = nbt.tensor([[2.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 1.0]])
    converged = nbt.linalg.eigh(m)[0].to_numpy()
    np.testing.assert_allclose(converged, [3.6889305, 1.5436525, 0.76741713], rtol=1e-6)
    one_sweep = nbt.linalg.eigh(m, max_iter=1)[0].to_numpy()
    assert np.abs(one_sweep - converged).max() > 1e-3  # one Jacobi sweep is not enough here
    assert nbt.to_list(nbt.linalg.eigh(nbt.tensor([[1.0, 0.0], [0.0, 0.001]]), eps=0.01)[0]) == [1.0, 0.0]
    assert nbt.to_list(nbt.linalg.eigh(nbt.tensor([[1.0, 0.0], [0.0, 0.001]]))[0]) == pytest.approx([1.0, 0.001])
    for bad in (0, -1, 1.5, True):
        with pytest.raises(nbt.ArgumentError, match="max_iter must be a positive int"):
            nbt.linalg.eigh(m, max_iter=bad)
    assert nbt.to_list(nbt.linalg.eigh(nbt.tensor([[-3.0]]))[0]) == [-3.0]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
@pytest.mark.parametrize("full", [True, False])
def test_svd_reconstructs_on_every_path(path, shape, full):
    a = RNG.normal(size=shape)
    u, s, vt = _run(path, lambda t: nbt.linalg.svd(t, full_matrices=full), a)
    k = min(shape[-2:])
    np.testing.assert_allclose(s, np.linalg.svd(a, compute_uv=False), rtol=1e-6)
    if full:
        # QDWH's polar factor times eigh's (exactly orthogonal) rotations; eigh's convergence
        # (eps 1e-4, see test_eigh_orders_by_decreasing_magnitude) bounds the reconstruction, as in Nx.
        np.testing.assert_allclose(u[..., :, :k] @ (s[..., :, None] * vt[..., :k, :]), a, atol=1e-3)
        np.testing.assert_allclose(np.swapaxes(u, -1, -2) @ u, _eye_like(u), atol=1e-12)
        np.testing.assert_allclose(vt @ np.swapaxes(vt, -1, -2), _eye_like(vt), atol=1e-12)
    else:
        # Nx's Gram-matrix SVD: v from eigh, u = a @ v / s: exact products, u orthogonal only
        # to eigh's accuracy over the smallest singular value.
        np.testing.assert_allclose(u @ (s[..., :, None] * vt), a, atol=1e-12)
        w = u if shape[-2] >= shape[-1] else np.swapaxes(vt, -1, -2)
        np.testing.assert_allclose(np.swapaxes(w, -1, -2) @ w, _eye_like(w), atol=1e-3)


def test_svd_follows_nx_on_small_singular_values_and_zero_matrices():
    # The reduced SVD is eigh (eps 1e-4) of the Gram matrix: s**2 <= 1e-4 counts as 0, as in Nx.
    t = nbt.tensor([[1.0, 0.0], [0.0, 0.005]])
    assert nbt.to_list(nbt.linalg.svd(t, full_matrices=False)[1]) == [1.0, 0.0]
    assert nbt.to_list(nbt.linalg.svd(t)[1]) == pytest.approx([1.0, 0.005])
    u, s, vt = nbt.linalg.svd(nbt.broadcast(0.0, (3, 2)))
    assert (nbt.to_list(s), nbt.to_list(u), nbt.to_list(vt)) == ([0.0, 0.0], np.eye(3).tolist(), np.eye(2).tolist())


def test_svd_max_iter_bounds_the_iterations():
    a = nbt.tensor(RNG.normal(size=(4, 4)), type="f64")
    s = nbt.linalg.svd(a)[1].to_numpy()
    np.testing.assert_allclose(s, np.linalg.svd(a.to_numpy(), compute_uv=False), rtol=1e-9)
    assert np.abs(nbt.linalg.svd(a, max_iter=1)[1].to_numpy() - s).max() > 1e-3


@pytest.mark.parametrize("path", PATHS)
def test_triangular_solve_conjugate(path):
    a = np.array([[1 + 1j, 0], [1 - 2j, 2j]])
    b = np.array([1 + 0j, 2j])
    got = _run(path, lambda a, b: nbt.linalg.triangular_solve(a, b, transform_a="conjugate"), a, b, type="c128")
    np.testing.assert_allclose(got, np.linalg.solve(np.conj(a), b), atol=1e-14)
    got = _run(
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
        _run(path, nbt.linalg.triangular_solve, np.array([[1.0, 0.0], [1.0, 0.0]]), np.array([1.0, 2.0]))


def test_triangular_solve_singular_matrix_inside_jit_gives_xla_answer():
    # tests/_differential.py PLATFORM_DIFFERENCES["singular triangular matrices inside defn on XLA"]
    got = _run("jit", nbt.linalg.triangular_solve, np.array([[1.0, 0.0], [1.0, 0.0]]), np.array([1.0, 2.0]))
    assert got[0] == 1.0 and np.isinf(got[1])


def test_triangular_solve_refuses_other_transforms():
    with pytest.raises(nbt.ArgumentError, match='"none", "transpose" or "conjugate"'):
        nbt.linalg.triangular_solve(nbt.eye(2), nbt.tensor([1.0, 2.0]), transform_a="adjoint")


def test_complex_qr_reconstructs():
    # Nx's complex reflector multiplies by outer(v, v); numbat's by outer(v, conj(v)), the unitary one.
    a = RNG.normal(size=(4, 3)) + 1j * RNG.normal(size=(4, 3))
    for path in ("numpy", "xla"):
        q, r = _run(path, nbt.linalg.qr, a, type="c128")
        np.testing.assert_allclose(q @ r, a, atol=1e-12)
        np.testing.assert_allclose(q.conj().T @ q, np.eye(3), atol=1e-12)
