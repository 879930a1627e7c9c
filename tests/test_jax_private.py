"""numbat's use of JAX's private modules (`jax._src`) is gathered in
`numbat/_core/_jax_private.py`: this JAX has every name it reads, a JAX lacking one gets
numbat's error naming it, no other module imports `jax._src`, and pyproject.toml pins JAX
to the range the module states."""

from __future__ import annotations

import ast
import importlib
import pathlib
import re
import tomllib

import jax
import numpy as np
import pytest

import numbat as nbt
from numbat._core import _jax_private
from numbat._runtime import _client

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("module", "attribute"), sorted(_jax_private.NAMES), ids=lambda v: v)
def test_this_jax_has_each_private_name_numbat_reads(module, attribute):
    """The check that catches a JAX release that moved a name: it imports the private module
    itself (not numbat's copy) and looks the name up."""
    assert hasattr(importlib.import_module(module), attribute), f"jax {jax.__version__} lacks {module}.{attribute}"
    assert _jax_private.missing() == []


def test_a_jax_lacking_a_name_gets_numbats_error_naming_it(monkeypatch):
    monkeypatch.setattr(_jax_private, "_MODULES", dict.fromkeys(_jax_private._MODULES, object()))
    assert _jax_private.missing() == [
        "jax._src.xla_bridge.backends_are_initialized",
        "jax._src.xla_bridge.canonicalize_platform",
        "jax._src.core.pytype_aval_mappings",
        "jax._src.cache_key.get",
        "jax._src.dispatch.runtime_tokens",
    ]
    with pytest.raises(nbt.ClientError, match=r"this JAX \(.*\) lacks jax\._src\.xla_bridge\.backends_are_initial"):
        _client.started()
    with pytest.raises(nbt.ClientError, match=r"lacks jax\._src\.xla_bridge\.canonicalize_platform.*jax>=0\.10,<0\.12"):
        _jax_private.canonical_platform("gpu")


def test_the_private_names_do_their_jobs():
    assert _jax_private.backends_are_initialized() is _client.started()
    assert _jax_private.canonical_platform("cpu") == "cpu"
    lowered = jax.jit(lambda x: x * 2).lower(jax.numpy.zeros(2))
    device = jax.devices()[0]
    options = jax.extend.backend.get_compile_options(num_replicas=1, num_partitions=1)
    devices = np.array([device], dtype=object)
    key = _jax_private.jax_cache_key(lowered.compiler_ir("stablehlo"), devices, options, device.client)
    assert isinstance(key, str) and len(key) > 20
    _jax_private.forget_runtime_tokens()  # with no token kept, nothing to forget: no error
    with pytest.raises(nbt.ArgumentError, match="JAX needs an array here and got a numbat Tensor"):
        jax.grad(lambda a: nbt.sum(a * a))(nbt.tensor([1.0, 2.0]))  # as test_jax_interop's
    with pytest.raises(_jax_private.DuplicateSpecError):
        mesh = jax.sharding.Mesh(jax.devices()[:1], ("a",))
        jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("a", "a"))


def test_no_other_module_imports_jax_private_modules():
    importing = []
    for path in sorted((ROOT / "numbat").rglob("*.py")):
        if path.name == "_jax_private.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            importing += [f"{path.relative_to(ROOT)}:{node.lineno}" for name in names if name.startswith("jax._src")]
        # the child program of nbt.xla.inspect is a string; read the strings too
        text = path.read_text()
        in_strings = re.findall(r"^\s*(?:from|import) jax\._src", text, re.MULTILINE)
        importing += [f"{path.relative_to(ROOT)} (in a string)"] * len(in_strings)
    assert importing == []


def test_pyproject_pins_jax_to_the_range_the_module_states():
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert _jax_private.TESTED in dependencies
    assert _jax_private.TESTED.replace("jax", "jaxlib", 1) in dependencies
    low, high = re.fullmatch(r"jax>=([\d.]+),<([\d.]+)", _jax_private.TESTED).groups()
    version = tuple(int(part) for part in jax.__version__.split(".")[:2])
    assert tuple(map(int, low.split("."))) <= version < tuple(map(int, high.split(".")))
