"""A persistent cache of compiled executables on disk (EXLA's disk cache).

An entry is keyed by a digest of everything that determines the executable: the
lowered module's text, the JAX and jaxlib versions, and the device kind. It holds
only the executable's bytes as XLA serializes them, behind a header with a magic
string, the key and a SHA-256 digest of the payload that numbat computed when it
wrote the entry. Nothing is unpickled: the input and output structures come from
the lowered module in hand, not from the file. An entry whose header, key or
digest does not match (corrupt, truncated, foreign, or written by another version)
is ignored with a warning and recompiled. Writes go to a temporary file renamed into
place, so a reader never sees half an entry.

The directory is trusted only to hold what numbat wrote; an executable is machine
code, so do not point `cache=` at a directory others can write to.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import logging
import os
import tempfile
import time
import warnings

import jax
from jax.experimental import serialize_executable

from .._errors import ArgumentError

MAGIC = b"numbat-xla-cache-v1\n"
_logger = logging.getLogger("numbat.xla.cache")


class CacheWarning(UserWarning):
    """A disk-cache entry could not be used and was recompiled."""


def _devices(lowered: jax.stages.Lowered) -> list | None:
    """The devices the executable was compiled for (device 2 of several, say); without them,
    XLA would load it for the default device assignment."""
    for sharding in lowered._lowering.compile_args.get("in_shardings", ()):
        assignment = getattr(sharding, "_device_assignment", None)
        if assignment:
            return list(assignment)
    return None


def key(lowered: jax.stages.Lowered) -> str:
    """The entry key for `lowered`: a SHA-256 of its module text and the toolchain."""
    device = (_devices(lowered) or jax.devices())[0]
    parts = [
        lowered.as_text(),
        jax.__version__,
        importlib.metadata.version("jaxlib"),
        device.platform,
        device.device_kind,
        str(device.id),
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _path(directory: str, entry_key: str) -> str:
    return os.path.join(directory, f"{entry_key}.xla")


def _read(path: str, entry_key: str) -> tuple[bytes, int] | None:
    """The payload and the compile time it saved, or None (with a warning) when unusable."""
    try:
        with open(path, "rb") as file:
            blob = file.read()
    except FileNotFoundError:
        return None
    try:
        if not blob.startswith(MAGIC):
            raise ValueError("not a numbat cache entry")
        header_end = blob.index(b"\n", len(MAGIC))
        header = json.loads(blob[len(MAGIC) : header_end])
        payload = blob[header_end + 1 :]
        if header.get("key") != entry_key:
            raise ValueError("written for another module")
        if hashlib.sha256(payload).hexdigest() != header.get("sha256") or len(payload) != header.get("size"):
            raise ValueError("its digest does not match (corrupt or truncated)")
        return payload, int(header.get("compile_time", 0))
    except (ValueError, TypeError, json.JSONDecodeError) as error:
        warnings.warn(f"numbat: ignoring disk cache entry {path}: {error}; recompiling", CacheWarning, stacklevel=4)
        return None


def _write(path: str, entry_key: str, payload: bytes, compile_us: int) -> None:
    header = json.dumps(
        {
            "key": entry_key,
            "sha256": hashlib.sha256(payload).hexdigest(),
            "size": len(payload),
            "compile_time": compile_us,
        }
    )
    directory = os.path.dirname(path)
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".tmp-")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(MAGIC + header.encode() + b"\n" + payload)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def compile(lowered: jax.stages.Lowered, directory: str) -> tuple[object, bool, int]:
    """The compiled executable for `lowered`, loaded from `directory` when an entry is
    there, else compiled and stored. Returns `(compiled, from_disk, compile time saved in µs)`."""
    if not isinstance(directory, (str, os.PathLike)):
        raise ArgumentError(f"cache must be True, False or a directory path, got {directory!r}")
    os.makedirs(directory, exist_ok=True)
    entry_key = key(lowered)
    path = _path(os.fspath(directory), entry_key)
    found = _read(path, entry_key)
    if found is not None:
        payload, saved = found
        try:
            compiled = serialize_executable.deserialize_and_load(
                payload, lowered.in_tree, lowered.out_tree, execution_devices=_devices(lowered)
            )
            return compiled, True, saved
        except (RuntimeError, ValueError, TypeError) as error:  # XLA refused the bytes: a bad entry
            warnings.warn(f"numbat: ignoring disk cache entry {path}: {error}; recompiling", CacheWarning, stacklevel=3)
    start = time.perf_counter_ns()
    compiled = lowered.compile()
    compile_us = (time.perf_counter_ns() - start) // 1000
    payload, _, _ = serialize_executable.serialize(compiled)
    _write(path, entry_key, payload, compile_us)
    _logger.debug("stored %s (%d bytes)", path, len(payload))
    return compiled, False, 0
