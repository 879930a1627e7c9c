"""Every use of JAX's private modules (`jax._src`) in numbat, in one place.

JAX promises nothing about `jax._src`: a release may move or drop any name in it. numbat
reads these names, each because no public API does the job (the comment at each says
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
    # `get`: JAX's own persistent-cache key of a lowered module (its module, jaxlib, platform
    # version, XLA flags, compile options, devices); the disk cache keys entries with it, and
    # JAX exports no function for it. (The compile options it takes are public:
    # `jax.extend.backend.get_compile_options`.)
    from jax._src import cache_key as _cache_key
except ImportError:  # pragma: no cover - a JAX outside the pinned range
    _cache_key = None

try:
    # `runtime_tokens`: the ordered effects' tokens JAX keeps between calls; a stopped loop's
    # token holds its error, and JAX has no public way to forget it (`jax.effects_barrier`
    # raises it again).
    from jax._src import dispatch as _dispatch
except ImportError:  # pragma: no cover - a JAX outside the pinned range
    _dispatch = None

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
    ("jax._src.cache_key", "get"): "the disk cache's key: JAX's own persistent-cache key",
    ("jax._src.dispatch", "runtime_tokens"): "a stopped loop: forgetting the effect token that holds its error",
}
_MODULES = {
    "jax._src.xla_bridge": _xla_bridge,
    "jax._src.core": _jax_core,
    "jax._src.cache_key": _cache_key,
    "jax._src.dispatch": _dispatch,
}


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


def jax_cache_key(module, devices, compile_options, backend) -> str:
    """JAX's persistent-cache key of a lowered `module` (its StableHLO) for `devices`."""
    return _need("jax._src.cache_key", "get")(module, devices, compile_options, backend)


def forget_runtime_tokens() -> None:
    """Drops the effect tokens JAX keeps between calls (a stopped loop's holds its error)."""
    _need("jax._src.dispatch", "runtime_tokens").clear()
