"""The EXLA analog: XLA clients, devices and memory, IR and fusion reports, the disk
cache, streaming, sharding, several processes and serialized functions."""

from .._defn._cache import is_cached as is_cached
from .._runtime._client import clients as clients
from .._runtime._client import devices as devices
from .._runtime._client import started as started
from .._runtime._config import configure as configure
from .._runtime._config import settings as settings
from .._runtime._memory import memory as memory
from .._runtime._signing import KeyFileError as KeyFileError
from . import distributed as distributed
from ._export import SerializedFunction as SerializedFunction
from ._export import deserialize as deserialize
from ._export import serialize as serialize
from ._inspect import inspect_blob as inspect_blob
from ._ir import FusionReport as FusionReport
from ._ir import fusion_report as fusion_report
from ._ir import hlo as hlo
from ._ir import to_mlir_module as to_mlir_module
from ._peaks import Peaks as Peaks
from ._profile import Profile as Profile
from ._profile import profile as profile
from ._sharding import shard_jit as shard_jit
from ._stream import is_stream_cached as is_stream_cached
from ._stream import stream as stream
from ._trace_events import ProfilerError as ProfilerError

# The public API: what `help()`, `import *`, tab completion and the API pages list.
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
    "inspect_blob",
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
