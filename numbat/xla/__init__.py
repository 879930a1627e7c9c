"""The EXLA analog: XLA clients, devices and memory, IR and fusion reports, the disk
cache, streaming, sharding, several processes and serialized functions."""

import importlib

from .._runtime import _disk_cache as _disk_cache
from .._runtime._client import clients as clients
from .._runtime._client import devices as devices
from .._runtime._client import started as started
from .._runtime._config import configure as configure
from .._runtime._config import settings as settings
from .._runtime._memory import memory as memory
from .._runtime._signing import KeyFileError as KeyFileError
from . import distributed as distributed

# The public API: what `help()`, `import *`, tab completion and the API pages list
# (the compiled-function entries load on first use, see `__getattr__`).
__all__ = [
    "FusionReport",
    "KeyFileError",
    "Peaks",
    "Profile",
    "ProfilerError",
    "SerializedFunction",
    "clients",
    "configure",
    "deserialize",
    "devices",
    "distributed",
    "fusion_report",
    "hlo",
    "is_cached",
    "is_stream_cached",
    "memory",
    "profile",
    "serialize",
    "settings",
    "shard_jit",
    "started",
    "stream",
    "to_mlir_module",
]


def __dir__():
    """Tab completion lists the lazy entries too."""
    return sorted(set(globals()) | set(__all__))


def __getattr__(name):
    # These live above the defn layer, which imports this package's runtime modules
    # (config, disk cache): load them on first use (PEP 562).
    lazy = {
        "to_mlir_module": "_ir",
        "hlo": "_ir",
        "fusion_report": "_ir",
        "FusionReport": "_ir",
        "stream": "_stream",
        "is_stream_cached": "_stream",
        "shard_jit": "_sharding",
        "serialize": "_export",
        "deserialize": "_export",
        "SerializedFunction": "_export",
        "is_cached": "numbat._defn._cache",
        "profile": "_profile",
        "Profile": "_profile",
        "ProfilerError": "_trace_events",
        "Peaks": "_peaks",
    }
    if name not in lazy:
        raise AttributeError(f"module 'numbat.xla' has no attribute {name!r}")
    module = lazy[name] if lazy[name].startswith("numbat.") else f"{__name__}.{lazy[name]}"
    return getattr(importlib.import_module(module), name)
