"""The machine's two ceilings for the profile's roofline: how many bytes a second its
memory moves and how many FLOPs a second it computes, per device kind.

Measured once per machine and device kind (bandwidth probes, sums of 64 and 128 MiB, and
matmul probes of a few sizes, best of ten runs each, the fastest size kept: a second or two) and cached in numbat's data
directory (`peaks.json`, beside the disk cache's signing key) under the machine's
description, so a later process reads them back. They are what this machine reaches from
JAX, not the vendor's datasheet. A probe on a busy machine measures low, and the bandwidth
probe reads past every cache: a profile whose kernel goes faster raises the ceiling for
itself and says why (`ceilings`), naming the CPU cache its working set fits in.

`peaks.json` is data: it is read only when the data directory passes the signing key's
check (yours, not writable by group or others), and only if it is a regular file (opened
without following links and without blocking, so a FIFO or a link to `/dev/zero` is never
read) of at most 1 MiB whose JSON nests at most 16 levels. Anything else is ignored with a
`PeaksWarning`, and the peaks are measured again.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import platform
import re
import tempfile
import time
import typing
import warnings

import jax
import jax.numpy as jnp

from .._core._errors import ArgumentError
from .._runtime import _regular_file as _regular
from .._runtime import _signing
from .._runtime._signing import data_dir

_FILE = "peaks.json"
_BANDWIDTH_ELEMENTS = (16 * 1024 * 1024, 32 * 1024 * 1024)  # f32: 64 and 128 MiB read per run, past any cache
# Square matmuls the probe times, the fastest counting: on this CPU a 512x512 product runs at
# 2.7 times the FLOP rate of a 1024x1024 one (its blocks stay in the caches).
_MATMUL_SIZES = {"cpu": (256, 512, 1024)}  # other platforms: (2048, 4096)
_REPEATS = 10  # best of: a loaded machine slows some runs, never speeds one up
_MAX_FILE_BYTES = 1 << 20  # a peaks.json holds a few hundred bytes per machine
_MAX_DEPTH = 16  # levels of JSON nesting (numbat writes 3)


class PeaksWarning(UserWarning):
    """numbat's `peaks.json` was not read (not a regular file, too large, too deeply nested, or
    in a data directory others could write to): the peaks are measured again."""


@typing.final
@dataclasses.dataclass(frozen=True)
class Peaks:
    """A device's memory bandwidth (bytes/s) and compute rate (FLOP/s), and where they come from."""

    bandwidth: float
    flops: float
    device: str = ""
    source: str = "given"  # "measured", "cached", "given", or "raised" (by a profile's kernel)

    def __post_init__(self):
        for name in ("bandwidth", "flops"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise ArgumentError(f"Peaks: {name} must be a positive number, got {value!r}")

    @staticmethod
    def of(device=None, remeasure: bool = False) -> Peaks:
        """This machine's peaks for `device` (the default device if None): cached after the
        first measurement; `remeasure` measures again (on a quiet machine) and keeps the best."""
        return peaks(device if device is not None else jax.devices()[0], remeasure)

    @property
    def ridge(self) -> float:
        """The arithmetic intensity (FLOPs per byte) where the two ceilings meet: below it a
        kernel is bound by memory, above it by compute."""
        return self.flops / self.bandwidth

    def __str__(self) -> str:
        how = {"given": "given", "raised": "raised to this profile's fastest kernels"}.get(
            self.source,
            "measured on this machine",  # now or earlier: `source`
        )
        return f"{self.bandwidth / 1e9:.1f} GB/s memory, {self.flops / 1e9:.1f} GFLOP/s compute ({how})"


def description(device) -> dict:
    """What identifies the machine and device the peaks belong to."""
    return {
        "host": platform.node(),
        "cpu": _cpu_model(),
        "cpus": os.cpu_count(),
        "platform": device.platform,
        "device_kind": device.device_kind,
        "jax": jax.__version__,
    }


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def peaks(device, remeasure: bool = False) -> Peaks:
    """The peaks of `device`'s kind on this machine: from the cache, else measured and cached;
    `remeasure` measures again, and keeps the better of the new and the cached figures."""
    machine = description(device)
    key = hashlib.sha256(json.dumps(machine, sort_keys=True).encode()).hexdigest()[:16]
    path = os.path.join(data_dir(), _FILE)
    stored = _read(path)
    entry = stored.get(key)
    if not remeasure and isinstance(entry, dict):
        try:
            return Peaks(float(entry["bandwidth"]), float(entry["flops"]), str(device.device_kind), "cached")
        except (KeyError, TypeError, ValueError, ArgumentError):
            pass  # a damaged entry: measure again
    measured = measure(device)
    if isinstance(entry, dict) and remeasure:  # a busy machine measures low: keep the best seen
        try:
            best = (max(measured.bandwidth, float(entry["bandwidth"])), max(measured.flops, float(entry["flops"])))
            measured = Peaks(*best, measured.device, "measured")
        except (KeyError, TypeError, ValueError, ArgumentError):
            pass
    stored[key] = {"bandwidth": measured.bandwidth, "flops": measured.flops, "machine": machine}
    _write(path, stored)
    return measured


def measure(device) -> Peaks:
    """Measures `device`'s bandwidth and matmul rate (best of a few runs of each probe)."""
    # A sum reads every byte once and writes nothing: a probe that allocates a 64 MiB result
    # measures the allocator's page faults as much as the memory.
    bandwidth = 0.0
    for elements in _BANDWIDTH_ELEMENTS:
        x = jax.device_put(jnp.zeros((elements,), jnp.float32), device)
        bandwidth = max(bandwidth, x.nbytes / _best(jax.jit(jnp.sum), x))
        del x
    flops = 0.0
    for n in _MATMUL_SIZES.get(device.platform, (2048, 4096)):
        m = jax.device_put(jnp.ones((n, n), jnp.float32), device)
        flops = max(flops, 2 * n**3 / _best(jax.jit(lambda a: a @ a), m))
    return Peaks(bandwidth, flops, str(device.device_kind), "measured")


def ceilings(peaks: Peaks, kernels) -> tuple[Peaks, tuple[str, ...]]:
    """The ceilings a profile draws its kernels under: `peaks`, each raised to the rate of a
    kernel that went faster (given peaks stay as given), and a note for each ceiling beaten.

    >>> class K:
    ...     name, bytes, seconds, flops = "add_fusion", 8000, 1e-7, 1000.0
    ...     bandwidth, flop_rate = 8e10, 1e10
    >>> raised, notes = ceilings(Peaks(2e10, 1e11, "cpu", "cached"), [K()])
    >>> raised.bandwidth, raised.flops, raised.source
    (80000000000.0, 100000000000.0, 'raised')
    >>> notes[0].startswith("add_fusion moved 80.0 GB/s, above the measured memory ceiling of 20.0 GB/s")
    True
    """
    notes = []
    bandwidth, flops = peaks.bandwidth, peaks.flops
    fastest = max(kernels, key=lambda k: k.bandwidth, default=None)
    if fastest is not None and fastest.bandwidth > bandwidth:
        level = cache_level(fastest.bytes)
        why = (
            f"its {fastest.bytes / 1e3:.1f} kB fit in the CPU's {level}, which is faster than memory"
            if level
            else "the probe ran on a busier moment"
        )
        notes.append(
            f"{fastest.name} moved {fastest.bandwidth / 1e9:.1f} GB/s, above the {_verb(peaks)} memory ceiling of "
            f"{bandwidth / 1e9:.1f} GB/s: {why}"
        )
        bandwidth = fastest.bandwidth if peaks.source != "given" else bandwidth
    fastest = max(kernels, key=lambda k: k.flop_rate, default=None)
    if fastest is not None and fastest.flop_rate > flops:
        notes.append(
            f"{fastest.name} computed {fastest.flop_rate / 1e9:.1f} GFLOP/s, above the {_verb(peaks)} compute ceiling "
            f"of {flops / 1e9:.1f} GFLOP/s: the probe's matmuls ran slower than this kernel"
        )
        flops = fastest.flop_rate if peaks.source != "given" else flops
    if peaks.source == "given" or (bandwidth, flops) == (peaks.bandwidth, peaks.flops):
        return peaks, tuple(notes)
    return Peaks(bandwidth, flops, peaks.device, "raised"), tuple(f"{note}; raised to it" for note in notes)


def _verb(peaks: Peaks) -> str:
    return "given" if peaks.source == "given" else "measured"


def cache_level(size: int) -> str:
    """The smallest CPU data cache `size` bytes fit in (as Linux describes the first CPU's
    caches), such as "L2 cache (1024K)"; "" when none holds them or Linux does not say.

    >>> cache_level(1 << 40)
    ''
    """
    found = []
    root = "/sys/devices/system/cpu/cpu0/cache"
    try:
        for index in sorted(os.listdir(root)):
            folder = os.path.join(root, index)
            if not index.startswith("index"):
                continue
            with open(os.path.join(folder, "type"), encoding="ascii") as kind:
                if kind.read().strip() == "Instruction":
                    continue
            with open(os.path.join(folder, "level"), encoding="ascii") as level:
                number = int(level.read())
            with open(os.path.join(folder, "size"), encoding="ascii") as capacity:
                text = capacity.read().strip()
            units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
            found.append((number, int(text.rstrip("KMG")) * units.get(text[-1], 1), text))
    except (OSError, ValueError):
        return ""
    fits = [(number, text) for number, capacity, text in sorted(found) if size <= capacity]
    return f"L{fits[0][0]} cache ({fits[0][1]})" if fits else ""


def _best(fun, *args) -> float:
    jax.block_until_ready(fun(*args))  # compiled and warm
    best = float("inf")
    for _ in range(_REPEATS):
        start = time.perf_counter()
        jax.block_until_ready(fun(*args))
        best = min(best, time.perf_counter() - start)
    return max(best, 1e-9)


def _read(path: str) -> dict:
    """The stored peaks, or {} (with a `PeaksWarning` unless there are none yet)."""
    try:
        _signing.check_directory(os.path.dirname(path))
        text = _regular_file(path)
        if text is None:
            return {}
        if _depth(text) > _MAX_DEPTH:
            raise ValueError(f"its JSON nests more than {_MAX_DEPTH} levels")
        stored = json.loads(text)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, _signing.KeyFileError) as error:
        warnings.warn(f"numbat ignored {path} and measures the peaks again: {error}", PeaksWarning, stacklevel=4)
        return {}
    return stored if isinstance(stored, dict) else {}


def _regular_file(path: str) -> str | None:
    """The text of `path` if it is a regular file of at most `_MAX_FILE_BYTES` (None if absent)."""
    try:
        with _regular.opened(path) as (handle, info):
            if info.st_size > _MAX_FILE_BYTES:
                raise ValueError(f"it holds {info.st_size} bytes, more than {_MAX_FILE_BYTES}")
            data = os.read(handle, _MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        return None
    if len(data) > _MAX_FILE_BYTES:
        raise ValueError(f"it holds more than {_MAX_FILE_BYTES} bytes")
    return data.decode("utf-8")


def _depth(text: str) -> int:
    """How deeply `text`'s JSON nests arrays and objects (strings skipped), before parsing it.

    >>> _depth('{"a": [1, {"b": "[[["}]}')
    3
    """
    depth = deepest = 0
    for bracket in re.findall(r"[\[\]{}]", re.sub(r'"(?:[^"\\]|\\.)*"', "", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif bracket in "]}":
            depth -= 1
    return deepest


def _write(path: str, stored: dict) -> None:
    """Stores the peaks in a data directory that passes the key's check; one that cannot be
    written only means measuring again next time."""
    directory = os.path.dirname(path)
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        _signing.check_directory(directory)
        handle, partial = tempfile.mkstemp(dir=directory, prefix=".peaks-")  # O_EXCL, mode 0600
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(stored, file, indent=1, sort_keys=True)
        os.replace(partial, path)
    except (OSError, _signing.KeyFileError):
        pass
