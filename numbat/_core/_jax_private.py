"""Every use of JAX's private modules (`jax._src`) in numbat, in one place.

JAX promises nothing about `jax._src`: a release may move or drop any name in it. numbat
reads four such names, each because no public API does the job (the comment at each says
why); everything else goes through `jax`, `jax.numpy`, `jax.lax`, `jax.export`,
`jax.extend` and `jaxlib.mlir`. pyproject.toml pins `jax` to the releases these names
were run on. A JAX that lacks one of them still imports numbat where it can; the function
that needs the name raises `ClientError` naming the name, the JAX version and the range
numbat was run on. `tests/test_jax_private.py` checks that this JAX has every name, that a
missing one gives that error, and that no other module of `numbat/` imports `jax._src`.

(`numbat/_defn/_interrupt.py` names the logger `"jax._src.callback"` to quiet it; a logger's
name is a string, not an import, and a JAX that renames the logger only lets its message through.)
"""

from __future__ import annotations

import jax

from ._errors import ClientError

# The JAX releases numbat has been run on (pyproject.toml pins the same range).
TESTED = "jax>=0.10,<0.12"

try:
    # `backends_are_initialized`: whether the XLA client has started, without starting it.
    # Public JAX has only calls that start it (jax.devices, jax.extend.backend.get_backend).
    # `canonicalize_platform`: the name jax.export gives a device's platform ("cuda" or
    # "rocm" where the device says "gpu"); jax.export takes it and no public function maps it.
    from jax._src import xla_bridge as _xla_bridge
except ImportError:  # pragma: no cover - a JAX outside the pinned range
    _xla_bridge = None

try:
    # `pytype_aval_mappings`: how JAX reads the type of a value it is handed. JAX 0.10 reads
    # `__jax_array__` only in jax.numpy; registering Tensor here is the one way to put
    # numbat's message where jax.grad reads its function's output.
    from jax._src import core as _jax_core
except ImportError:  # pragma: no cover - a JAX outside the pinned range
    _jax_core = None

try:
    # `DuplicateSpecError`: what NamedSharding raises for a PartitionSpec naming an axis twice.
    # It subclasses Exception (not ValueError), and no public module exports it.
    from jax._src.named_sharding import DuplicateSpecError
except ImportError:  # pragma: no cover - a JAX outside the pinned range

    class DuplicateSpecError(Exception):
        """Stands in for JAX's, which this JAX lacks: never raised, so nothing is caught by it."""


# Each private name numbat reads: (module, attribute), with what numbat uses it for.
NAMES = {
    (
        "jax._src.xla_bridge",
        "backends_are_initialized",
    ): "whether the XLA client has started (configure refuses once it has)",
    ("jax._src.xla_bridge", "canonicalize_platform"): "nbt.xla.serialize/deserialize: jax.export's platform name",
    ("jax._src.core", "pytype_aval_mappings"): "numbat's error for a Tensor where JAX needs an array",
    ("jax._src.named_sharding", "DuplicateSpecError"): "nbt.xla.shard_jit: a spec naming an axis twice",
}
_MODULES = {"jax._src.xla_bridge": _xla_bridge, "jax._src.core": _jax_core}


def _lookup(module: str, attribute: str):
    """The private name, or `None` where this JAX lacks it."""
    if module == "jax._src.named_sharding":
        return None if DuplicateSpecError.__module__ == __name__ else DuplicateSpecError
    return getattr(_MODULES[module], attribute, None)


def missing() -> list[str]:
    """The private names of `NAMES` that this JAX lacks (none on the pinned releases).

    >>> missing()
    []
    """
    return [f"{module}.{attribute}" for module, attribute in NAMES if _lookup(module, attribute) is None]


def _need(module: str, attribute: str):
    found = _lookup(module, attribute)
    if found is None:
        raise ClientError(
            f"this JAX ({jax.__version__}) lacks {module}.{attribute}, a private JAX name numbat uses for "
            f"{NAMES[module, attribute]}; numbat has been run on {TESTED}: pip install '{TESTED}'"
        )
    return found


def backends_are_initialized() -> bool:
    """Whether JAX's backends (and so the XLA client) have started; starts nothing."""
    return _need("jax._src.xla_bridge", "backends_are_initialized")()


def canonical_platform(platform: str) -> str:
    """The name jax.export gives a device's `platform` (cuda or rocm for a GPU).

    >>> canonical_platform("cpu")
    'cpu'
    """
    return _need("jax._src.xla_bridge", "canonicalize_platform")(platform)


def register_not_a_jax_value(cls: type, handler) -> None:
    """Make JAX call `handler(value)` where it reads the type of a `cls` value as an array's."""
    _need("jax._src.core", "pytype_aval_mappings")[cls] = handler
