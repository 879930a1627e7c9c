"""The disk cache's key holds everything that changes the compiled program (docs/design.md,
decision 22): XLA flags, compile options, precision, x64, the platform and its version, the
device kind, the JAX and jaxlib versions. Flipping any of them is a miss, never a silent
wrong answer loaded from disk; flipping it back is a hit again."""

import contextlib
import importlib.metadata
import os
import subprocess
import sys
import textwrap
import types
import warnings

import jax
import pytest
from jax._src import config as jax_config

import numbat as nbt
from numbat._core import _jax_private
from numbat._defn import _signature
from numbat._runtime import _disk_cache

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAST_MATH = "--xla_cpu_enable_fast_math=true --xla_cpu_fast_math_honor_nans=false"

_IS_NAN = """
    import sys
    import numbat as nbt
    events = []
    nbt.telemetry.attach("t", nbt.telemetry.COMPILATION, lambda e, m, meta: events.append(meta["cached_on_disk"]))
    f = nbt.defn(lambda x, y: nbt.is_nan(x / y), cache=sys.argv[1])
    print(f(nbt.tensor([0.0, 1.0]), nbt.tensor([0.0, 1.0])).to_numpy().tolist(), events)
    """


def _is_nan_in_a_new_process(cache, xla_flags: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XLA_", "JAX_"))}
    if xla_flags is not None:
        env["XLA_FLAGS"] = xla_flags
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_IS_NAN), str(cache)],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
        cwd=ROOT,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_an_entry_compiled_under_other_xla_flags_is_never_loaded(tmp_path):
    # The example: fast math without NaNs makes is_nan(0/0) false. Before, the second
    # process loaded that executable and gave [0, 0] too.
    assert _is_nan_in_a_new_process(tmp_path, FAST_MATH) == "[0, 0] [False]"
    assert _is_nan_in_a_new_process(tmp_path, None) == "[1, 0] [False]"  # a miss: compiled again, right
    assert _is_nan_in_a_new_process(tmp_path, "--xla_gpu_deterministic_ops=true") == "[1, 0] [False]"
    assert len(list(tmp_path.glob("*.xla"))) == 3  # one entry a set of flags, each kept
    assert _is_nan_in_a_new_process(tmp_path, FAST_MATH) == "[0, 0] [True]"  # its own entry still loads


def _fun(a, b):
    return nbt.dot(a, b) + 1


def _call(directory, precision="default"):
    """A new defn with the disk cache in `directory`, called once: whether the executable came
    from the disk (no warning is allowed)."""
    events = []
    nbt.telemetry.attach("key", nbt.telemetry.COMPILATION, lambda e, m, meta: events.append(meta["cached_on_disk"]))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            m = nbt.iota((2, 2), type="f32")
            result = nbt.defn(_fun, cache=str(directory), precision=precision)(m, m)
    finally:
        nbt.telemetry.detach("key")
    assert result.to_numpy().tolist() == [[3.0, 4.0], [7.0, 12.0]]
    assert len(events) == 1
    return events[0]


def _facts(devices):
    return {"platform": "cuda 12.8 (driver 570)", "devices": ", ".join(f"NVIDIA H200 #{d.id}" for d in devices)}


def _jaxlib(real):
    return lambda name: "0.0.1" if name == "jaxlib" else real(name)


FLIPS = {
    "compile options": lambda mp: jax_config.exec_time_optimization_effort(0.5),
    "optimization level": lambda mp: jax_config.optimization_level("O1"),
    "matmul precision in force": lambda mp: jax.default_matmul_precision("highest"),  # each dot's, in the module
    "XLA_FLAGS": lambda mp: mp.setenv("XLA_FLAGS", "--xla_cpu_enable_fast_math=true"),
    "jax version": lambda mp: mp.setattr(jax, "__version__", "0.0.1"),
    "jaxlib version": lambda mp: mp.setattr(importlib.metadata, "version", _jaxlib(importlib.metadata.version)),
    "platform version and device kind": lambda mp: mp.setattr(_disk_cache, "device_facts", _facts),
}


@pytest.mark.parametrize("flip", sorted(FLIPS))
def test_flipping_what_changes_the_program_is_a_miss_and_flipping_it_back_a_hit(tmp_path, flip):
    assert _call(tmp_path) is False
    assert _call(tmp_path) is True
    with pytest.MonkeyPatch.context() as mp, FLIPS[flip](mp) or contextlib.nullcontext():
        assert _call(tmp_path) is False
        assert _call(tmp_path) is True  # stored under its own key
    assert len(list(tmp_path.glob("*.xla"))) == 2
    assert _call(tmp_path) is True


def test_a_defns_precision_is_a_miss(tmp_path):
    assert _call(tmp_path) is False
    assert _call(tmp_path, precision="highest") is False
    assert _call(tmp_path, precision="highest") is True and _call(tmp_path) is True


def test_x64_changes_the_key_through_the_module():
    # A defn with a disk cache always lowers under x64 (its types exact); a program lowered
    # without it has other types, so another key.
    def count():
        return jax.numpy.arange(3) * 2

    with jax.enable_x64(False):
        narrow = jax.jit(count).lower()
    with jax.enable_x64(True):
        wide = jax.jit(count).lower()
    assert "i64" in wide.as_text() and "i64" not in narrow.as_text()
    assert _disk_cache.key(narrow) != _disk_cache.key(wide)


def test_the_key_holds_jaxs_own_persistent_cache_key_and_every_named_part():
    f = nbt.defn(lambda x: x + 1)
    signature, _ = _signature.flatten((nbt.tensor([1.0]),), {}, f._convert)
    parts = _disk_cache.key_parts(f.lower(signature)[0])
    assert sorted(parts) == sorted(["numbat", "jax key", "module", "jax", "jaxlib", "platform", "devices", "XLA_FLAGS"])
    assert parts["jax key"].startswith("jit_") and parts["platform"].startswith("cpu")


def test_is_cached_keys_as_the_call_does(tmp_path):
    fun = nbt.defn(_fun, cache=str(tmp_path))
    m = nbt.iota((2, 2), type="f32")
    assert not nbt.is_cached(fun, [m, m])
    fun(m, m)
    assert nbt.is_cached(nbt.defn(_fun, cache=str(tmp_path)), [m, m])
    assert not nbt.is_cached(nbt.defn(_fun, cache=str(tmp_path), precision="highest"), [m, m])


def test_when_jax_cannot_key_a_module_the_defn_compiles_without_the_cache(tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise TypeError("get() got an unexpected keyword argument")

    monkeypatch.setitem(
        _jax_private._MODULES, "jax._src.cache_key", types.SimpleNamespace(get=broken)
    )  # a JAX that moved it
    f = nbt.defn(lambda x: x * 2, cache=str(tmp_path))
    with pytest.warns(_disk_cache.CacheWarning, match="JAX cannot key it"):
        result = f(nbt.tensor([2.0]))
    assert result.to_numpy().tolist() == [4.0]
    assert list(tmp_path.glob("*.xla")) == []
