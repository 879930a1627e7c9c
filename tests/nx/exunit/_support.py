"""What the ported ExUnit tests share: the paths a test runs on and Nx's assertions.

Nx's tests call a function eagerly (on its binary backend) or inside a defn. A port runs
the same function on a path (`run(path, fun, *args)`):

- ``numpy``: eagerly, the tensors on the NumPy backend;
- ``xla``: eagerly, the tensors on the XLA backend;
- ``jit``: ``nbt.jit(fun)(*args)``, compiled by XLA;
- ``evaluator``: ``nbt.defn(fun, compiler="evaluator")(*args)``, where Nx's own test
  runs Nx's evaluator.

The assertions follow Nx's:

- ``assert_same(actual, expected)`` is Elixir's ``assert actual == expected`` on two
  tensors: the same type, shape, names and values (NaN equal to NaN).
- ``assert_equal`` is ``Nx.Testing.assert_equal``: values equal, NaN equal to NaN, a
  scalar compared with every element; types are not compared.
- ``assert_all_close`` is ``Nx.Testing.assert_all_close`` (atol and rtol 1e-4 unless given).
- ``check_grads(fun, grad_fun, x)`` is ``Nx.Helpers.check_grads!``: the gradient against
  central finite differences (step 1e-4, atol 1e-7, rtol 1e-4), at fixed points.
- ``assert_raises(path, fun, *args)``: Nx's ``assert_raise`` becomes a numbat error
  (`nbt.ArgumentError` unless another is named).
"""

from __future__ import annotations

import numpy as np

import numbat as nbt

BACKENDS = {"numpy": nbt.NumPyBackend, "xla": nbt.XLABackend}


def _on_backend(value, backend):
    if isinstance(value, nbt.Tensor):
        return nbt.backend_copy(value, backend)  # the value stays usable on every path
    if isinstance(value, tuple):
        return tuple(_on_backend(item, backend) for item in value)
    if isinstance(value, list):
        return [_on_backend(item, backend) for item in value]
    if isinstance(value, dict):
        return {key: _on_backend(item, backend) for key, item in value.items()}
    return value


def run(path: str, fun, *args, **options):
    """`fun(*args)` on `path` ("numpy", "xla", "jit" or "evaluator"); `options` go to
    the defn on the compiled paths."""
    if path == "jit":
        return nbt.jit(fun, **options)(*args)
    if path == "evaluator":
        return nbt.defn(fun, compiler="evaluator", **options)(*args)
    backend = BACKENDS[path]()
    with nbt.default_backend(backend):
        return fun(*_on_backend(args, backend))


def assert_raises(path: str, fun, *args, error=nbt.ArgumentError, match: str | None = None):
    """Nx's `assert_raise`: `fun(*args)` on `path` raises `error` (a numbat error)."""
    import pytest

    with pytest.raises(error, match=match):
        run(path, fun, *args)


def _tensor(value) -> nbt.Tensor:
    return value if isinstance(value, nbt.Tensor) else nbt.tensor(value)


def _values(tensor: nbt.Tensor) -> np.ndarray:
    return np.asarray(tensor.to_numpy())


def _equal_nan(a: np.ndarray, b: np.ndarray) -> bool:
    if a.shape != b.shape:
        return False
    if np.issubdtype(a.dtype, np.inexact) or np.issubdtype(b.dtype, np.inexact):
        a, b = a.astype(np.complex128), b.astype(np.complex128)
        same = (
            (a == b)
            | (np.isnan(a.real) & np.isnan(b.real))
            | (np.isnan(a.imag) & np.isnan(b.imag) & (a.real == b.real))
        )
        both_nan = np.isnan(a) & np.isnan(b)
        return bool(np.all(same | both_nan))
    return bool(np.array_equal(a, b))


def _walk(actual, expected, check):
    if isinstance(expected, (tuple, list)):
        assert isinstance(actual, (tuple, list)) and len(actual) == len(expected), (actual, expected)
        for a, e in zip(actual, expected):
            _walk(a, e, check)
    elif isinstance(expected, dict):
        assert isinstance(actual, dict) and sorted(actual) == sorted(expected), (actual, expected)
        for key in expected:
            _walk(actual[key], expected[key], check)
    else:
        check(actual, expected)


def assert_same(actual, expected):
    """Elixir's `==` on tensors (and containers of them): type, shape, names, vectorized
    axes and values, NaN equal to NaN."""

    def check(a, e):
        a, e = _tensor(a), _tensor(e)
        assert (str(a.type), a.shape, a.names) == (str(e.type), e.shape, e.names), f"\n{a}\n!=\n{e}"
        assert getattr(a, "vectorized_axes", ()) == getattr(e, "vectorized_axes", ()), f"\n{a}\n!=\n{e}"
        assert _equal_nan(_values(a), _values(e)), f"\n{a}\n!=\n{e}"

    _walk(actual, expected, check)


def assert_equal(actual, expected):
    """`Nx.Testing.assert_equal`: equal values (NaN equal to NaN) of the same shape, or one
    side a scalar; types are not compared."""

    def check(a, e):
        a, e = _tensor(a), _tensor(e)
        assert getattr(a, "vectorized_axes", ()) == getattr(e, "vectorized_axes", ()), f"\n{a}\n!=\n{e}"
        av, ev = _values(a), _values(e)
        assert av.shape == ev.shape or av.shape == () or ev.shape == (), f"shapes {av.shape} != {ev.shape}"
        av, ev = np.broadcast_arrays(av, ev)
        assert _equal_nan(np.asarray(av), np.asarray(ev)), f"\n{a}\n!=\n{e}"

    _walk(actual, expected, check)


def assert_all_close(actual, expected, atol=1e-4, rtol=1e-4, equal_nan=False):
    """`Nx.Testing.assert_all_close`: `|a - e| <= atol + rtol * |e|` everywhere (the shapes
    broadcast, as in `Nx.all_close`)."""

    def check(a, e):
        a, e = _tensor(a), _tensor(e)
        av, ev = _values(a), _values(e)
        try:
            np.broadcast_shapes(av.shape, ev.shape)
        except ValueError:
            raise AssertionError(f"shapes {av.shape} and {ev.shape} do not broadcast") from None
        assert np.allclose(av, ev, atol=atol, rtol=rtol, equal_nan=equal_nan), f"\n{a}\nnot close to\n{e}"

    _walk(actual, expected, check)


def check_grads(fun, grad_fun, x, atol=1e-7, rtol=1e-4, step=1e-4):
    """`Nx.Helpers.check_grads!`: `grad_fun(x)` against central finite differences of `fun`."""
    x = _tensor(x)
    estimate = nbt.divide(nbt.subtract(fun(nbt.add(x, step / 2.0)), fun(nbt.subtract(x, step / 2.0))), step)
    assert_all_close(grad_fun(x), estimate, atol=atol, rtol=rtol)


def nx_inspect(text: str) -> str:
    """Nx's `inspect` text of a tensor as numbat's repr prints it (`#Nx.Tensor<` is `numbat.Tensor<`)."""
    return text.replace("#Nx.Tensor<", "numbat.Tensor<")


def assert_same_rounded(actual, expected, rtol=1e-5):
    """Elixir's `==` where Nx compares a computed f32 value exactly: the same type, shape
    and names, the values within `rtol` (Nx's binary backend computes each op in f64 and
    rounds; XLA's f32 kernels round differently). Each use is listed in untranslatable.DELIBERATE."""

    def check(a, e):
        a, e = _tensor(a), _tensor(e)
        assert (str(a.type), a.shape, a.names) == (str(e.type), e.shape, e.names), f"\n{a}\n!=\n{e}"
        assert np.allclose(_values(a), _values(e), rtol=rtol, atol=0), f"\n{a}\nnot within {rtol} of\n{e}"

    _walk(actual, expected, check)


def run_defn(path: str, fun, *args, **options):
    """A defn (Nx's `defn`, which Nx's tests run on the evaluator) on `path`: "jit" compiles
    it with XLA; "numpy" and "xla" run it on the evaluator over that backend, the
    arguments moved there first."""
    if path in ("jit", "evaluator"):
        return run(path, fun, *args, **options)
    backend = BACKENDS[path]()
    with nbt.default_backend(backend):
        return nbt.defn(fun, compiler="evaluator", **options)(*_on_backend(args, backend))
