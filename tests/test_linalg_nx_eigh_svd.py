"""nbt.linalg.eigh and svd: LAPACK's, to full precision, when their options are left out;
Nx 0.13.1's Jacobi eigh and QDWH svd (numbat/backends/_families/_linalg_eigh_svd.py) when
they are given, honoured as Nx, on every path (NumPy, XLA, jit, the evaluator), batched,
in every float and complex type."""

import numpy as np
import pytest
from _paths import PATHS, run_on_path

import numbat as nbt

# The paths that run each op as its own XLA kernel, compiled per result and options (the
# evaluator runs a defn's ops on the default XLA backend): the svd's cases with Nx's default
# options run on the others, so that the tests compile less.
EAGER_XLA = ("xla", "evaluator")
# A symmetric matrix that Nx's Jacobi needs two sweeps for (eps 1e-4), and one that QDWH
# needs four iterations for. The tests of the options compute in f32 with the shapes of
# tests/nx/option_behaviours*.py, whose compiled kernels they share in a run of the suite.
A4 = np.array([[4.0, 1.0, 2.0, 0.5], [1.0, 3.0, 0.3, 1.0], [2.0, 0.3, 5.0, 0.7], [0.5, 1.0, 0.7, 2.0]])
M3 = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]])


def _by_magnitude(values):
    return values[np.argsort(-np.abs(values), kind="stable")]


def _eigh_residual(a, values, vectors):
    return np.abs(vectors @ np.diag(values) @ vectors.conj().T - a).max()


@pytest.mark.parametrize("path", PATHS)
def test_left_out_options_give_lapacks_full_precision(path):
    values, vectors = run_on_path(path, nbt.linalg.eigh, A4)
    np.testing.assert_array_equal(values, np.sort(values))  # LAPACK's order: ascending
    assert _eigh_residual(A4, values, vectors) < 1e-14
    u, s, vt = run_on_path(path, nbt.linalg.svd, M3)
    assert np.abs(u @ np.diag(s) @ vt - M3).max() < 1e-13
    np.testing.assert_allclose(s, np.linalg.svd(M3, compute_uv=False), rtol=1e-14)


def _eigh_options(t, d):
    """Nx's eigh of `t` with Nx's defaults, after one sweep, and with eps=0.01; of `d` with eps=0.01."""
    return (
        *nbt.linalg.eigh(t, max_iter=1_000),
        *nbt.linalg.eigh(t, max_iter=1),
        nbt.linalg.eigh(t, eps=0.01)[0],
        nbt.linalg.eigh(d, eps=0.01)[0],
    )


@pytest.mark.parametrize("path", ["numpy", "xla"])
def test_complex_matrices_decompose_in_their_type(path):
    # The real results (eigenvalues, singular values) come from the complex matrix, not its real part.
    rng = np.random.default_rng(20)
    a = rng.normal(size=(3, 3)) + 1j * rng.normal(size=(3, 3))
    h = a + a.conj().T
    np.testing.assert_allclose(run_on_path(path, nbt.linalg.eigh, h, type="c128")[0], np.linalg.eigvalsh(h), rtol=1e-13)
    s = run_on_path(path, nbt.linalg.svd, a, type="c128")[1]
    np.testing.assert_allclose(s, np.linalg.svd(a, compute_uv=False), rtol=1e-13)


@pytest.mark.parametrize("path", PATHS)
def test_eigh_max_iter_and_eps_stop_the_sweeps_as_nx(path):
    lapack = _by_magnitude(np.linalg.eigvalsh(A4))
    diagonal = np.diag([1.0, 0.001, 0.5, 2.0])
    results = run_on_path(path, _eigh_options, A4, diagonal, type="f32")
    converged, vectors, one_sweep, one_sweep_vectors, eps_values, zeroed = results
    np.testing.assert_allclose(converged, lapack, rtol=1e-6)  # Nx's order: by decreasing magnitude
    assert _eigh_residual(A4, converged, vectors) < 1e-4 * np.linalg.norm(A4)  # Nx's Jacobi: within eps of the norm
    assert np.abs(one_sweep - lapack).max() > 1e-4
    assert _eigh_residual(A4, one_sweep, one_sweep_vectors) > 1e-2
    # eps=0.01: the off-diagonal norm is under 0.01 of the matrix's after one sweep, so it stops there.
    np.testing.assert_array_equal(eps_values, one_sweep)
    assert zeroed.tolist() == [2.0, 1.0, 0.5, 0.0]  # entries with |x| <= eps become 0
    for got, want in zip(results, run_on_path("numpy", _eigh_options, A4, diagonal, type="f32"), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("path", PATHS)
def test_svd_max_iter_bounds_qdwh_as_nx(path):
    lapack = np.linalg.svd(M3, compute_uv=False)
    one = run_on_path(path, lambda t: nbt.linalg.svd(t, max_iter=1)[1], M3, type="f32")
    assert np.abs(one - lapack).max() > 0.1  # one QDWH iteration is far from the polar factor
    np.testing.assert_allclose(
        one, run_on_path("numpy", lambda t: nbt.linalg.svd(t, max_iter=1)[1], M3, type="f32"), rtol=1e-6
    )
    if path in EAGER_XLA:
        return
    u, s, vt = run_on_path(path, lambda t: nbt.linalg.svd(t, max_iter=100), M3, type="f32")
    np.testing.assert_allclose(s, lapack, rtol=1e-5)
    # QDWH's polar factor times eigh's rotations: eigh's eps (1e-4) bounds the reconstruction, as in Nx's.
    assert np.abs(u @ np.diag(s) @ vt - M3).max() < 1e-4 * np.linalg.norm(M3)


@pytest.mark.parametrize("path", PATHS)
def test_nx_algorithms_are_batched_per_matrix(path):
    a = np.random.default_rng(21).normal(size=(2, 3, 3))
    a = a + np.swapaxes(a, -1, -2)

    def both(t):
        eigh = nbt.linalg.eigh(t, eps=1e-4)
        return eigh if path in EAGER_XLA else (*eigh, *nbt.linalg.svd(t, max_iter=100))

    batched = run_on_path(path, both, a)
    for i in range(2):
        for got, want in zip(batched, run_on_path("numpy", both, a[i]), strict=True):
            np.testing.assert_allclose(got[i], want, atol=1e-14)


@pytest.fixture
def numpy_backend():
    """The NumPy backend: one compiled Nx algorithm per shape and type, whatever the result
    and the options (an eager XLA op compiles a kernel for each)."""
    with nbt.default_backend(nbt.NumPyBackend()):
        yield


@pytest.mark.usefixtures("numpy_backend")
@pytest.mark.parametrize(("type_", "real"), [("f32", "f32"), ("f64", "f64"), ("c64", "f32"), ("c128", "f64")])
def test_nx_algorithms_in_float_and_complex_types(type_, real):
    rng = np.random.default_rng(22)
    a = rng.normal(size=(3, 3)) + (1j * rng.normal(size=(3, 3)) if type_[0] == "c" else 0)
    h = a + a.conj().T
    values, vectors = nbt.linalg.eigh(nbt.tensor(h, type=type_), eps=1e-4)
    assert (str(values.type), str(vectors.type)) == (type_, type_)  # Nx: complex eigenvalues for complex input
    values, vectors = values.to_numpy(), vectors.to_numpy()
    np.testing.assert_allclose(values, _by_magnitude(np.linalg.eigvalsh(h)), rtol=1e-5)
    assert _eigh_residual(h, values, vectors) < 3e-4 * np.abs(h).max()  # Nx's eps (1e-4) of the norm
    u, s, vt = nbt.linalg.svd(nbt.tensor(a, type=type_), max_iter=100)
    assert [str(t.type) for t in (u, s, vt)] == [type_, real, type_]
    u, s, vt = u.to_numpy(), s.to_numpy(), vt.to_numpy()
    np.testing.assert_allclose(s, np.linalg.svd(a, compute_uv=False), rtol=1e-5)
    assert np.abs(u @ np.diag(s) @ vt - a).max() < 3e-4 * np.abs(a).max()


@pytest.mark.usefixtures("numpy_backend")
@pytest.mark.parametrize("type_", ["f16", "bf16", "s32"])
def test_small_floats_and_integers_compute_in_f32(type_):
    a = [[2, 1, 0], [1, 3, 1], [0, 1, 4]]
    out = "f32" if type_ == "s32" else type_

    def both(t):
        return (*nbt.linalg.eigh(t, max_iter=1_000), *nbt.linalg.svd(t, max_iter=100))

    got, f32 = both(nbt.tensor(a, type=type_)), both(nbt.tensor(a, type="f32"))
    assert [str(t.type) for t in got] == [out] * 5
    assert [nbt.to_list(t) for t in got] == [nbt.to_list(nbt.as_type(t, out)) for t in f32]


@pytest.mark.usefixtures("numpy_backend")
def test_nx_svd_of_zeros_and_small_singular_values():
    # The reduced SVD is eigh (eps 1e-4) of the Gram matrix: s**2 <= 1e-4 counts as 0, as in Nx.
    t = nbt.tensor([[1.0, 0.0, 0.0], [0.0, 0.005, 0.0], [0.0, 0.0, 0.5]])
    assert nbt.to_list(nbt.linalg.svd(t, full_matrices=False, max_iter=100)[1]) == [1.0, 0.5, 0.0]
    assert nbt.to_list(nbt.linalg.svd(t, max_iter=100)[1]) == pytest.approx([1.0, 0.5, 0.005])
    u, s, vt = nbt.linalg.svd(nbt.broadcast(0.0, (3, 3)), max_iter=100)
    assert (nbt.to_list(s), nbt.to_list(u), nbt.to_list(vt)) == ([0.0] * 3, np.eye(3).tolist(), np.eye(3).tolist())
    assert nbt.to_list(nbt.linalg.eigh(nbt.tensor([[-3.0]]), eps=1e-4)[0]) == [-3.0]


def test_options_are_checked_when_given():
    m = nbt.tensor(A4)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(nbt.ArgumentError, match="linalg.eigh: max_iter must be a positive int"):
            nbt.linalg.eigh(m, max_iter=bad)
        with pytest.raises(nbt.ArgumentError, match="linalg.svd: max_iter must be a positive int"):
            nbt.linalg.svd(m, max_iter=bad)
    for bad in (0, -1e-4, "1e-4", True):
        with pytest.raises(nbt.ArgumentError, match="linalg.eigh: eps must be a positive number"):
            nbt.linalg.eigh(m, eps=bad)
    # Any positive int is a bound, as in Nx, beyond the s32 loop counter too.
    big = nbt.linalg.eigh(m, max_iter=2**40)[0]
    assert nbt.to_list(big) == nbt.to_list(nbt.linalg.eigh(m, max_iter=1_000)[0])
