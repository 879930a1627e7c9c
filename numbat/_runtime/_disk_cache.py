"""A persistent cache of compiled executables on disk (EXLA's disk cache).

An entry is keyed by a digest of everything that changes the executable (`key`, docs/design.md
decision 22): JAX's own persistent-cache key of the lowered module (the module stripped of
debug information, jaxlib's version, the platform and its version, the XLA flags in
`XLA_FLAGS`, `LIBTPU_INIT_ARGS` and the command line, the serialized compile options, which
carry the debug options XLA parsed from the flags when the client started and JAX's
optimization settings, and the devices' topology or kinds), computed on the compile options
JAX's compile builds, and beside it the module's text (whose types and dot precisions carry
x64 and the matmul precision), the JAX and jaxlib versions, the platform, its version, and
the kind and id of each device. numbat keeps its own entries rather than turning on JAX's persistent cache: that cache
is process-wide (it would cache the user's own `jax.jit` code and change JAX's settings under
it, decision 11), and JAX reads and deserializes its entries itself, with no place for the
signature check below. The file holds a
magic string, an HMAC-SHA256 made with this user's secret key (`_signing`: 32 random
bytes in `$NUMBAT_DATA_DIR`, `$XDG_DATA_HOME/numbat` or `~/.local/share/numbat`, mode
0600), a one-line JSON header (the key, the compile time it saves) and the executable
as `jax.experimental.serialize_executable` writes it, which is a pickle around native
code. The MAC covers everything after itself and the magic, and it is checked, in
chunks and in constant time, before any of the entry is parsed, unpickled or loaded (an
entry larger than `MAX_ENTRY_BYTES`, the most numbat writes, is refused unread): an entry that
another user wrote, that was edited, truncated or crafted, or that was written for
another module is never loaded. It gives one `CacheWarning`, and the defn compiles and
rewrites the entry.

Faults degrade, never break: an entry that is not a regular file (a directory, a FIFO,
a symbolic link), that cannot be read, a cache directory that cannot be created or
written (under a regular file, read-only, a full disk) and a signing key that cannot
be used each give one `CacheWarning`, and the defn compiles and runs without the
cache. Entries are opened with O_NONBLOCK and O_NOFOLLOW and checked with fstat
before a byte is read, so nothing blocks. Writes go to a temporary file renamed into
place, so a reader never sees half an entry.

The cache is private to one user: entries signed by one user's key do not load for
another. To share a compiled function, use `nbt.xla.serialize(..., portable=True)`.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import logging
import os
import pickle
import tempfile
import time
import warnings

import jax
import jax.extend.backend
import numpy as np
from jax.experimental import serialize_executable

from .._core import _jax_private
from .._core._errors import ArgumentError
from . import _regular_file, _signing

MAGIC = b"numbat-xla-cache-v2\n"
KEY_VERSION = "2"  # what the key digests changed: an entry keyed the old way is a miss
MAX_ENTRY_BYTES = 1 << 29  # larger executables are compiled without the cache
_logger = logging.getLogger("numbat.xla.cache")


class CacheWarning(UserWarning):
    """The disk cache could not be used (an entry, the directory or the signing key): the
    defn compiled without it."""


def _devices(lowered: jax.stages.Lowered) -> list | None:
    """The devices the executable was compiled for (device 2 of several, say); without them,
    XLA would load it for the default device assignment."""
    for sharding in lowered._lowering.compile_args.get("in_shardings", ()):
        assignment = getattr(sharding, "_device_assignment", None)
        if assignment:
            return list(assignment)
    return None


def key(lowered: jax.stages.Lowered) -> str:
    """The entry key for `lowered`: a SHA-256 of everything that changes its executable
    (`key_parts`)."""
    return hashlib.sha256(
        "\n".join(f"{name}={value}" for name, value in key_parts(lowered).items()).encode()
    ).hexdigest()


def key_parts(lowered: jax.stages.Lowered) -> dict[str, str]:
    """What `key` digests, by name: JAX's own persistent-cache key for `lowered` (its module,
    jaxlib, the platform version, the XLA flags in the environment and as XLA parsed them into
    the compile options, JAX's compile settings, the devices' topology), and beside it the
    module's text, the versions, the platform, each device's kind and id, and `XLA_FLAGS`.
    x64 and the matmul precision are in the module: its types and each dot's precision.
    Raises `_Unusable` when JAX cannot key it."""
    devices = _devices(lowered) or [jax.devices()[0]]
    backend = devices[0].client
    try:
        options = jax.extend.backend.get_compile_options(
            num_replicas=1,
            num_partitions=len(devices),
            device_assignment=np.array(devices, dtype=object).reshape(1, len(devices)),
            env_options_overrides={},
            detailed_logging=True,
            backend=backend,
        )
        jax_key = _jax_private.jax_cache_key(
            lowered.compiler_ir("stablehlo"), np.array(devices, dtype=object), options, backend
        )
    except (AttributeError, TypeError, ValueError, RuntimeError) as error:  # JAX's internals moved
        raise _Unusable(f"JAX cannot key it ({type(error).__name__}: {error})") from None
    return {
        "numbat": KEY_VERSION,
        "jax key": jax_key,
        "module": lowered.as_text(),
        "jax": jax.__version__,
        "jaxlib": importlib.metadata.version("jaxlib"),
        **device_facts(devices),
        "XLA_FLAGS": os.environ.get("XLA_FLAGS", ""),
    }


def device_facts(devices: list) -> dict[str, str]:
    """The platform (with its version: the CUDA, ROCm or TPU runtime's) and each device's kind
    and id, as `key` digests them."""
    backend = devices[0].client
    return {
        "platform": f"{backend.platform} {backend.platform_version}",
        "devices": ", ".join(f"{device.device_kind} #{device.id}" for device in devices),
    }


def _path(directory: str, entry_key: str) -> str:
    return os.path.join(directory, f"{entry_key}.xla")


class _Unusable(Exception):
    """An entry or cache location that cannot be used, with the reason."""


def _read(path: str, entry_key: str) -> tuple[bytes, int] | None:
    """The payload of an authentic entry and the compile time it saves; None when there is
    no entry. Raises `_Unusable` for anything else, before parsing any of it: the size is
    checked before a byte is read, then the MAC is checked in chunks (O(chunk) memory, so a
    planted entry of any size costs nothing), and only an authentic entry is read whole (and
    its MAC checked again on what was read, in case the file changed in between)."""
    try:
        with _regular_file.opened(path) as (handle, info):
            head, body = _authentic_body(handle, info.st_size)
    except FileNotFoundError:
        return None
    except _regular_file.NotRegularFile as error:
        raise _Unusable(str(error)) from None
    except OSError as error:
        raise _Unusable(f"it cannot be opened ({error.strerror or error})") from None
    if not _signing.verify_existing((MAGIC, body), head[len(MAGIC) :]):
        raise _Unusable("it changed while it was read")
    header_end = body.find(b"\n")
    header = json.loads(body[:header_end])  # signed by this user: numbat wrote it
    if header["key"] != entry_key:
        raise _Unusable("it was written for another module")
    return body[header_end + 1 :], int(header["compile_time"])


def _authentic_body(handle: int, size: int) -> tuple[bytes, bytes]:
    """The magic and MAC, and the body after them, of the open entry `handle` whose MAC this
    user's key makes: `_Unusable` for any other, from its size or its MAC, before the body is read."""
    if size > MAX_ENTRY_BYTES:
        raise _Unusable(f"it holds {size} bytes, more than an entry numbat writes ({MAX_ENTRY_BYTES})")
    start = len(MAGIC) + _signing.MAC_BYTES
    try:
        head = os.pread(handle, start, 0)
        if len(head) < start or head[: len(MAGIC)] != MAGIC:
            raise _Unusable("it is not a numbat cache entry of this version")
        verifier = _signing.Verifier()
        verifier.update(MAGIC)
        offset = start
        while chunk := os.pread(handle, min(_signing.CHUNK_BYTES, MAX_ENTRY_BYTES + 1 - offset), offset):
            verifier.update(chunk)
            offset += len(chunk)
        if not verifier.matches(head[len(MAGIC) :]):
            raise _Unusable(
                "its signature does not match this user's key (written by another user, edited or truncated)"
            )
        return head, os.pread(handle, offset - start, start)
    except OSError as error:
        raise _Unusable(f"it cannot be read ({error.strerror or error})") from None


def _write(path: str, entry_key: str, payload: bytes, compile_us: int) -> None:
    body = json.dumps({"key": entry_key, "compile_time": compile_us}).encode() + b"\n" + payload
    if len(MAGIC) + _signing.MAC_BYTES + len(body) > MAX_ENTRY_BYTES:
        raise ValueError(f"the executable takes {len(payload)} bytes, more than an entry holds ({MAX_ENTRY_BYTES})")
    mac = _signing.sign(MAGIC + body)
    handle, temporary = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(MAGIC + mac + body)
        os.replace(temporary, path)
    except BaseException:
        if os.path.lexists(temporary):
            os.unlink(temporary)
        raise


def compile(lowered: jax.stages.Lowered, directory: str) -> tuple[object, bool, int]:
    """The compiled executable for `lowered`, loaded from `directory` when an authentic
    entry is there, else compiled and stored. Returns `(compiled, from_disk, compile
    time saved in µs)`. Whatever goes wrong with the cache, at most one `CacheWarning`."""
    if not isinstance(directory, (str, os.PathLike)):
        raise ArgumentError(f"cache must be True, False or a directory path, got {directory!r}")
    directory = os.fspath(directory)
    problem = None
    try:
        os.makedirs(directory, exist_ok=True)
        entry_key = key(lowered)
    except (OSError, _Unusable) as error:
        _warn(f"numbat: the disk cache {directory} cannot be used ({error}); compiling without it")
        return lowered.compile(), False, 0
    path = _path(directory, entry_key)
    try:
        found = _read(path, entry_key)
    except (OSError, _signing.KeyFileError) as error:
        _warn(f"numbat: the disk cache {directory} cannot be used ({error}); compiling without it")
        return lowered.compile(), False, 0
    except _Unusable as error:
        found, problem = None, f"numbat: ignoring disk cache entry {path}: {error}; recompiling"
    if found is not None:
        payload, saved = found
        try:
            compiled = serialize_executable.deserialize_and_load(
                payload, lowered.in_tree, lowered.out_tree, execution_devices=_devices(lowered)
            )
            return compiled, True, saved
        except (RuntimeError, ValueError, TypeError, EOFError, pickle.UnpicklingError) as error:
            problem = f"numbat: ignoring disk cache entry {path}: XLA cannot load it ({error}); recompiling"
    start = time.perf_counter_ns()
    compiled = lowered.compile()
    compile_us = (time.perf_counter_ns() - start) // 1000
    try:
        payload, _, _ = serialize_executable.serialize(compiled)
        _write(path, entry_key, payload, compile_us)
        _logger.debug("stored %s (%d bytes)", path, len(payload))
    except (OSError, ValueError, _signing.KeyFileError) as error:
        problem = problem or f"numbat: the disk cache entry {path} cannot be written ({error}); compiled without it"
    if problem:
        _warn(problem)
    return compiled, False, 0


def is_stored(lowered: jax.stages.Lowered, directory) -> bool:
    """Whether `directory` holds an authentic entry for `lowered`: one that `compile`
    would load rather than compile (checked as `compile` checks it, without loading it)."""
    try:
        entry_key = key(lowered)
        return _read(_path(os.fspath(directory), entry_key), entry_key) is not None
    except (OSError, _Unusable, _signing.KeyFileError):
        return False


def _warn(message: str) -> None:
    warnings.warn(message, CacheWarning, stacklevel=4)
