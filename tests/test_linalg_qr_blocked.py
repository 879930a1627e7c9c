"""qr (numbat/backends/_families/_linalg_qr.py) computes Nx 0.13.1's reflectors blocked, with
q from LAPACK's orgqr: its factors are those of Nx's algorithm as written (each m x m
reflector multiplied into q and r in turn, `nx_qr` below, in f64) to rounding, on matrices
of more than one panel (batched: one compilation for many matrices) and on those where
Nx's reflector is the identity."""

import jax
import numpy as np
import pytest

import numbat as nbt
from numbat.backends._families import _linalg_qr

RNG = np.random.default_rng(23)
N = 21
assert _linalg_qr.BLOCK < N - 1  # two panels


def _reflector(x, i, eps):
    """Nx's `householder_reflector` (qr.ex), with numbat's unitary complex reflector."""
    norm = np.sqrt(np.real(x @ np.conj(x)))
    if np.iscomplexobj(x):
        u = x.copy()
        u[i] += np.exp(1j * np.angle(x[i])) * norm
        v = u / np.sqrt(np.real(u @ np.conj(u)))
        return np.eye(len(x)) - 2 * np.outer(v, np.conj(v))
    norm_sq_1on = norm**2 - x[i] ** 2
    small = norm_sq_1on < eps
    v_0 = x[i] - norm if x[i] <= 0 else -norm_sq_1on / (x[i] + norm)
    v = x.copy()
    v[i] = 1.0 if small else v_0
    v = v / (1.0 if small else v_0)
    return np.eye(len(x)) - (0.0 if small else 2 / (v @ v)) * np.outer(v, v)


def nx_qr(a, mode="reduced", eps=1e-10):
    """Nx's `qr_matrix`, step for step, in f64 (c128)."""
    a = np.asarray(a, np.complex128 if np.iscomplexobj(a) else np.float64)
    m_in, n_in = a.shape
    wide = m_in < n_in
    if wide:
        a = np.pad(a, ((0, n_in - m_in), (0, 0)))
    q, r = np.eye(a.shape[0], dtype=a.dtype), a
    for i in range(n_in if wide or m_in > n_in else n_in - 1):
        x = np.where(np.arange(a.shape[0]) < i, 0, r[:, i])
        h = _reflector(x, i, eps)
        q, r = q @ h, h @ r
    q, r = (np.where(np.abs(t) <= eps, 0, t) for t in (q, r))
    if wide:
        return q[:m_in, :m_in], r[:m_in, :n_in]
    if mode == "reduced" and m_in > n_in:
        return q[:, :n_in], r[:n_in, :n_in]
    return q, r


def _square():
    block_diagonal = np.zeros((N, N))
    block_diagonal[:12, :12], block_diagonal[12:, 12:] = RNG.normal(size=(12, 12)), RNG.normal(size=(N - 12, N - 12))
    x = RNG.normal(size=(N, 10))
    return np.stack(
        [
            RNG.normal(size=(N, N)),
            np.triu(RNG.normal(size=(N, N))),
            np.diag(RNG.normal(size=N) - 3),  # negative entries: Nx leaves each column as it is
            block_diagonal,
            np.concatenate([x, x @ RNG.normal(size=(10, N - 10))], axis=1),  # rank 10
        ]
    )


def _tall():
    kept = RNG.normal(size=(N + 7, N))
    # Column 3 is small below the diagonal but not 0: Nx leaves it, and its r keeps that part.
    kept[4:, 3] = 1e-7 * RNG.normal(size=N + 3)
    x = RNG.normal(size=(N + 7, 10))
    return np.stack([RNG.normal(size=(N + 7, N)), kept, np.concatenate([x, x @ RNG.normal(size=(10, N - 10))], 1)])


def _qr(a, mode):
    with jax.enable_x64(True):  # as numbat runs it: per op, scoped
        return [np.asarray(t) for t in _linalg_qr.batched_qr(a, mode, 1e-10)]


def _assert_nx(a, mode, got, atol):
    for i in range(a.shape[0]):
        for g, want in zip(got, nx_qr(a[i], mode), strict=True):
            np.testing.assert_allclose(np.asarray(g[i]), want, atol=atol * np.abs(a[i]).max() * a.shape[1])


@pytest.mark.parametrize(
    ("make", "mode"),
    [(_square, "reduced"), (_tall, "reduced"), (_tall, "complete"), (lambda: _square()[:, :15, :], "reduced")],
)
def test_qr_is_nx_algorithm_f64(make, mode):
    a = make()
    _assert_nx(a, mode, _qr(a, mode), 1e-13)


def test_qr_is_nx_algorithm_f32_inside_defn():
    a = _square().astype(np.float32)
    _assert_nx(a, "reduced", [np.asarray(t) for t in nbt.jit(nbt.linalg.qr)(nbt.tensor(a, type="f32"))], 1e-6)


def test_complex_qr_is_nx_algorithm():
    a = RNG.normal(size=(1, N + 3, N)) + 1j * RNG.normal(size=(1, N + 3, N))
    _assert_nx(a, "complete", _qr(a, "complete"), 1e-13)


@pytest.mark.parametrize("shape", [(1, 1), (1, 3), (3, 1), (2, 2), (3, 4)])
def test_small_shapes_are_nx_algorithm(shape):
    a = RNG.normal(size=(1, *shape))
    _assert_nx(a, "complete", _qr(a, "complete"), 1e-15)


def test_the_panels_are_one_loop_whatever_the_size():
    """One panel body is compiled for any size (unrolled, each panel took a quarter of a
    second of XLA's time): the lowered program is the same size for 3 and 32 panels."""
    sizes = []
    for n in (3 * _linalg_qr.BLOCK, 32 * _linalg_qr.BLOCK):
        text = _linalg_qr.batched_qr.lower(np.zeros((n, n), np.float32), "reduced", 1e-10).as_text()
        sizes.append((text.count("stablehlo.while"), text.count("\n")))
    assert sizes[0] == sizes[1] and sizes[0][0] <= 2, sizes
