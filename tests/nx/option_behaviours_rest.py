"""The last of test_honours's checks (see option_behaviours.py): the options of nbt.random,
the FFTs and nbt.linalg that the other two modules leave. Each calls the function with
the option and asserts what Nx documents it does; importing the module registers them
in `BEHAVIOURS`.
"""

from __future__ import annotations

import numpy as np
import pytest

import numbat as nbt

from .option_behaviours import BEHAVIOURS, as_lists, behaviour

R = nbt.random


def _key():
    return R.key(42)


# --- nbt.random: shape, type and names of every sampler -------------------------------------

_SAMPLERS = {
    "Nx.Random.uniform": lambda **o: R.uniform(_key(), **o)[0],
    "Nx.Random.uniform_split": lambda **o: R.uniform_split(_key(), **o),
    "Nx.Random.normal": lambda **o: R.normal(_key(), **o)[0],
    "Nx.Random.normal_split": lambda **o: R.normal_split(_key(), **o),
    "Nx.Random.randint": lambda **o: R.randint(_key(), 0, 100, **o)[0],
    "Nx.Random.randint_split": lambda **o: R.randint_split(_key(), 0, 100, **o),
    "Nx.Random.gumbel": lambda **o: R.gumbel(_key(), **o)[0],
    "Nx.Random.gumbel_split": lambda **o: R.gumbel_split(_key(), **o),
}
_MEAN, _COVARIANCE = [0.0, 10.0], [[1.0, 0.5], [0.5, 2.0]]
_SAMPLERS |= {
    "Nx.Random.multivariate_normal": lambda **o: R.multivariate_normal(
        _key(), nbt.tensor(_MEAN), nbt.tensor(_COVARIANCE), **o
    )[0],
    "Nx.Random.multivariate_normal_split": lambda **o: R.multivariate_normal_split(
        _key(), nbt.tensor(_MEAN), nbt.tensor(_COVARIANCE), **o
    ),
}
_INTEGER = {"Nx.Random.randint", "Nx.Random.randint_split"}
_VECTOR = {"Nx.Random.multivariate_normal", "Nx.Random.multivariate_normal_split"}  # one more axis: the mean's


def check_shape(function):
    sample = _SAMPLERS[function]
    extra = (2,) if function in _VECTOR else ()
    assert sample().shape == (() if function not in _VECTOR else (2,))
    assert sample(shape=(3, 4)).shape == (3, 4, *extra)


def _check_type(function):
    sample = _SAMPLERS[function]
    wanted = "s64" if function in _INTEGER else "f64"
    default = "s32" if function in _INTEGER else "f32"
    assert str(sample(shape=(2,)).type) == default
    assert str(sample(shape=(2,), type=wanted).type) == wanted


def _check_names(function):
    sample = _SAMPLERS[function]
    names = ["a", "b", "d"] if function in _VECTOR else ["a", "b"]
    assert sample(shape=(2, 3), names=names).names == tuple(names)
    assert sample(shape=(2, 3)).names == (None,) * len(names)


_CHECKS = {"shape": check_shape, "type": _check_type, "names": _check_names}
for _function in _SAMPLERS:
    for _option, _check in _CHECKS.items():
        gumbel_names = _option == "names" and "gumbel" in _function  # Nx's gumbel takes no names
        if f"{_function}:{_option}" not in BEHAVIOURS and not gumbel_names:  # option_behaviours.py has a few
            behaviour(_function, _option)(lambda f=_function, check=_check: check(f))


@behaviour("Nx.Random.multivariate_normal_split", "method")
def _():
    mean, cov = nbt.tensor(_MEAN), nbt.tensor(_COVARIANCE)
    draws = {m: as_lists(R.multivariate_normal_split(_key(), mean, cov, method=m)) for m in ("cholesky", "eigh")}
    assert draws["cholesky"] != draws["eigh"]
    with pytest.raises(nbt.ArgumentError):
        R.multivariate_normal_split(_key(), mean, cov, method="qr")


@behaviour("Nx.Random.choice", "replace")
def _():
    population = nbt.iota((4,))
    with_replacement, _ = R.choice(_key(), population, samples=6)  # more samples than values: only with replacement
    assert with_replacement.shape == (6,) and set(as_lists(with_replacement)) <= {0, 1, 2, 3}
    without, _ = R.choice(_key(), population, samples=4, replace=False)
    assert sorted(as_lists(without)) == [0, 1, 2, 3]
    with pytest.raises(nbt.ArgumentError):
        R.choice(_key(), population, samples=6, replace=False)


@behaviour("Nx.Random.shuffle", "axis")
def _():
    t = nbt.iota((3, 8))
    shuffled, _ = R.shuffle(_key(), t, axis=1)
    rows = as_lists(shuffled)
    assert [sorted(row) for row in rows] == as_lists(t)  # each row keeps its values
    assert rows != as_lists(t)
    by_column = np.asarray(rows)
    assert (by_column // 8 == np.arange(3)[:, None]).all()


# --- FFTs: axis/axes, length/lengths and eps of every transform -----------------------------

_SIGNAL = np.array([[1.0, 2.0, 0.0, -1.0], [0.5, 0.0, 3.0, 1.0], [2.0, 1.0, 1.0, 1.0]])
_ONE_AXIS = {
    "Nx.fft": (nbt.fft, np.fft.fft),
    "Nx.ifft": (nbt.ifft, np.fft.ifft),
    "Nx.rfft": (nbt.rfft, np.fft.rfft),
    "Nx.irfft": (nbt.irfft, np.fft.irfft),
}
_TWO_AXES = {"Nx.fft2": (nbt.fft2, np.fft.fft2), "Nx.ifft2": (nbt.ifft2, np.fft.ifft2)}


def _signal(function):
    data = _SIGNAL.astype(np.complex128) if function == "Nx.irfft" else _SIGNAL
    return nbt.tensor(data, type="c128" if function == "Nx.irfft" else "f64"), data


def _close(tensor, expected):
    np.testing.assert_allclose(np.asarray(tensor), expected, atol=1e-9)


for _function, (_op, _reference) in _ONE_AXIS.items():

    def _axis(op=_op, reference=_reference, function=_function):
        tensor, data = _signal(function)
        _close(op(tensor, axis=0), reference(data, axis=0))
        _close(op(tensor), reference(data, axis=-1))

    def _length(op=_op, reference=_reference, function=_function):
        tensor, data = _signal(function)
        _close(op(tensor, length=6), reference(data, n=6))
        _close(op(tensor, length=2), reference(data, n=2))

    behaviour(_function, "axis")(_axis)
    behaviour(_function, "length")(_length)

for _function, (_op, _reference) in _TWO_AXES.items():

    def _axes(op=_op, reference=_reference):
        data = np.arange(24.0).reshape(2, 3, 4) % 5
        _close(op(nbt.tensor(data, type="f64"), axes=[0, 2]), reference(data, axes=(0, 2)))

    def _lengths(op=_op, reference=_reference):
        _close(op(nbt.tensor(_SIGNAL, type="f64"), lengths=[4, 2]), reference(_SIGNAL, s=(4, 2)))

    behaviour(_function, "axes")(_axes)
    behaviour(_function, "lengths")(_lengths)


def _eps_zeroes_small_parts(op, tensor):
    """The transform with eps above its smallest non-zero part has a 0 there; by default not."""
    plain = np.asarray(op(tensor, eps=1e-300))
    parts = np.abs(np.concatenate([plain.real.ravel(), np.imag(plain).ravel()]))
    smallest = parts[parts > 0].min()
    cleaned = np.asarray(op(tensor, eps=float(smallest) * 1.5))
    cleaned_parts = np.abs(np.concatenate([cleaned.real.ravel(), np.imag(cleaned).ravel()]))
    assert (cleaned_parts > 0).sum() < (parts > 0).sum()
    kept = cleaned_parts > 0
    np.testing.assert_array_equal(cleaned_parts[kept], parts[kept])


_SMALL_PARTS = [[1.0, 0.999], [0.5, 0.498]]  # transforms with parts far below the others
for _function, _op in {"Nx.ifft": nbt.ifft, "Nx.rfft": nbt.rfft}.items():
    behaviour(_function, "eps")(lambda op=_op: _eps_zeroes_small_parts(op, nbt.tensor(_SMALL_PARTS)))


def _cleaned(x, eps):
    return np.where(np.abs(x.real) <= eps, 0, x.real) + 1j * np.where(np.abs(x.imag) <= eps, 0, x.imag)


def _eps_after_each_axis(op, reference):
    """Nx's fft2/ifft2 clean up after the last axis's transform, then after the first's."""
    data = np.array(_SMALL_PARTS)
    for eps in (1e-300, 0.0015):
        expected = _cleaned(reference(_cleaned(reference(data, axis=1), eps), axis=0), eps)
        np.testing.assert_allclose(np.asarray(op(nbt.tensor(data, type="f64"), eps=eps)), expected, atol=1e-12)
    assert not np.allclose(np.asarray(op(nbt.tensor(data), eps=0.0015)), np.asarray(op(nbt.tensor(data), eps=1e-300)))


behaviour("Nx.fft2", "eps")(lambda: _eps_after_each_axis(nbt.fft2, np.fft.fft))
behaviour("Nx.ifft2", "eps")(lambda: _eps_after_each_axis(nbt.ifft2, np.fft.ifft))
behaviour("Nx.irfft", "eps")(lambda: _eps_zeroes_small_parts(nbt.irfft, nbt.tensor(_SMALL_PARTS, type="c64")))


# --- nbt.linalg ------------------------------------------------------------------------------


@behaviour("Nx.LinAlg.norm", "axes")
def _():
    t = nbt.tensor([[3.0, 4.0], [6.0, 8.0]])
    assert as_lists(nbt.linalg.norm(t, axes=[1])) == [5.0, 10.0]
    assert as_lists(nbt.linalg.norm(t, axes=[0])) == pytest.approx([45**0.5, 80**0.5])


@behaviour("Nx.LinAlg.least_squares", "eps")
def _():
    # dot(pinv(a, eps), b): a singular value below eps counts as 0.
    a, b = nbt.tensor([[1.0, 0.0], [0.0, 0.001]]), nbt.tensor([1.0, 1.0])
    assert as_lists(nbt.linalg.least_squares(a, b)) == pytest.approx([1.0, 1000.0])
    assert as_lists(nbt.linalg.least_squares(a, b, eps=0.01)) == [1.0, 0.0]


@behaviour("Nx.LinAlg.triangular_solve", "left_side")
def _():
    # x a = b with left_side=False: for a = [[1, 0], [1, 1]], x = [1, 1] gives b = [2, 1].
    a, b = nbt.tensor([[1.0, 0.0], [1.0, 1.0]]), nbt.tensor([2.0, 1.0])
    assert as_lists(nbt.linalg.triangular_solve(a, b, left_side=False)) == [1.0, 1.0]
    assert as_lists(nbt.linalg.triangular_solve(a, b)) == [2.0, -1.0]


def _not_converged(result, converged):
    return not np.allclose(np.asarray(result), np.asarray(converged), atol=1e-6)


@behaviour("Nx.LinAlg.eigh", "max_iter")
def _():
    # Nx's Jacobi eigh stops after max_iter sweeps: one sweep leaves a 4x4 matrix unconverged,
    # Nx's 1_000 converge to LAPACK's eigenvalues (in Nx's order: by decreasing magnitude).
    m = nbt.tensor([[4.0, 1.0, 2.0, 0.5], [1.0, 3.0, 0.3, 1.0], [2.0, 0.3, 5.0, 0.7], [0.5, 1.0, 0.7, 2.0]])
    converged = nbt.linalg.eigh(m, max_iter=1_000)[0]
    np.testing.assert_allclose(np.asarray(converged), np.asarray(nbt.linalg.eigh(m)[0])[::-1], rtol=1e-6)
    assert _not_converged(nbt.linalg.eigh(m, max_iter=1)[0], converged)


@behaviour("Nx.LinAlg.svd", "max_iter")
def _():
    # Nx's QDWH svd stops after max_iter iterations: one leaves an ill-conditioned matrix
    # unconverged, Nx's 100 converge to LAPACK's singular values.
    m = nbt.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]])
    converged = nbt.linalg.svd(m, max_iter=100)[1]
    np.testing.assert_allclose(np.asarray(converged), np.asarray(nbt.linalg.svd(m)[1]), rtol=1e-5)
    assert _not_converged(nbt.linalg.svd(m, max_iter=1)[1], converged)
