"""The port's own machinery: the path rotation and the assertions fail when they should."""

import jax
import pytest

import numbat as nbt

from ._support import assert_all_close, assert_equal, assert_same, check_grads
from .conftest import selected_paths


def test_ci_runs_numpy_every_day_and_alternates_xla_and_jit():
    assert selected_paths(None, 0) == ("numpy", "xla")
    assert selected_paths(None, 1) == ("numpy", "jit")
    assert selected_paths("all", 5) == ("numpy", "xla", "jit")
    assert selected_paths("jit", 5) == ("jit",)
    with pytest.raises(pytest.UsageError, match="gpu"):
        selected_paths("numpy,gpu", 0)


def test_the_assertions_fail_on_a_difference():
    assert_same(nbt.tensor([1.0, float("nan")]), nbt.tensor([1.0, float("nan")]))
    with pytest.raises(AssertionError):
        assert_same(nbt.tensor([1, 2]), nbt.tensor([1.0, 2.0]))  # types differ
    with pytest.raises(AssertionError):
        assert_same(nbt.tensor([1, 2], names=["x"]), nbt.tensor([1, 2]))
    assert_equal(nbt.tensor([1, 2]), nbt.tensor([1.0, 2.0]))
    assert_equal(nbt.tensor([2, 2]), 2)
    with pytest.raises(AssertionError):
        assert_equal(nbt.tensor([1, 2]), nbt.tensor([1, 3]))
    with pytest.raises(AssertionError):
        assert_all_close(nbt.tensor([1.0]), nbt.tensor([1.01]))
    with pytest.raises(AssertionError):
        check_grads(nbt.sin, nbt.sin, nbt.tensor([1.0]))  # sin is not sin's derivative
    check_grads(nbt.sin, nbt.cos, nbt.tensor([1.0, 2.0]), atol=1e-3, rtol=1e-2)


def test_every_case_runs_at_the_highest_precision(path):
    # conftest's promised_precision: what a defn with no precision of its own lowers to, on
    # every path, is HIGHEST (TF32, XLA's default on recent NVIDIA GPUs, failed Nx's tolerances).
    a = nbt.iota((2, 2), type="f32")
    assert "precision = [HIGHEST, HIGHEST]" in str(nbt.xla.to_mlir_module(nbt.dot, [a, a]))
    assert jax.config.jax_default_matmul_precision == "highest"
