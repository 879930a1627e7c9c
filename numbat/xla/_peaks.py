"""The machine's two ceilings for the profile's roofline: how many bytes a second its
memory moves and how many FLOPs a second it computes, per device kind.

Measured once per machine and device kind, best of ten runs of each probe, the fastest
size kept, and cached in numbat's data directory (`peaks.json`, beside the disk cache's
signing key) under the machine's description, so a later process reads them back. They
are what this machine reaches from JAX, not the vendor's datasheet. The probes' sizes
depend on the platform and the device's memory (`probe_sizes`):
- on a CPU, sums of 64 and 128 MiB (past every cache) and f32 matmuls of 256 to 1024 (a
  512x512 product runs at 2.7 times the FLOP rate of a 1024x1024 one here: its blocks stay
  in the caches);
- on a GPU, sums and element-wise products of 1 to 4 GiB (far past its L2, and long enough
  that the launch is a few percent of the time; at most a sixth of the device's memory),
  and bf16 and f32 matmuls of 4096 and 8192. The compute ceiling is the bf16 rate; `detail`
  gives the f32 one, which on NVIDIA GPUs from Ampere on (compute capability 8.0+) is TF32's:
  JAX's default precision for f32 matmuls there, as EXLA's.
A probe on a busy machine measures low, and the CPU's bandwidth probe reads past every
cache: a profile whose kernel goes faster raises the ceiling for itself and says why
(`ceilings`), naming the CPU cache its working set fits in.

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
PROBE = 2  # the probes' version, part of the cache key: figures of other probes are measured again
_MIB, _GIB = 1 << 20, 1 << 30
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
    detail: str = ""  # what the probes measured: sizes, the f32 rate beside the bf16 one, TF32

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
        detail = f"; {self.detail}" if self.detail else ""
        return f"{self.bandwidth / 1e9:.1f} GB/s memory, {self.flops / 1e9:.1f} GFLOP/s compute ({how}{detail})"


def description(device) -> dict:
    """What identifies the machine and device the peaks belong to."""
    return {
        "host": platform.node(),
        "cpu": _cpu_model(),
        "cpus": os.cpu_count(),
        "platform": device.platform,
        "device_kind": device.device_kind,
        "jax": jax.__version__,
        "memory": device_memory(device),
        "tf32": tf32(device),
        "probe": PROBE,
    }


def device_memory(device) -> int:
    """The bytes the device's allocator may hold (0 where JAX does not say: the CPU)."""
    try:
        stats = device.memory_stats() or {}
    except Exception:  # noqa: BLE001 (a platform without memory statistics)
        return 0
    return int(stats.get("bytes_limit", 0) or 0)


def tf32(device) -> bool:
    """Whether f32 matmuls run as TF32 on `device` at JAX's default precision: an NVIDIA GPU
    of compute capability 8.0 or later, unless `jax_default_matmul_precision` asks for more."""
    if device.platform not in ("cuda", "gpu"):
        return False
    try:
        capability = float(getattr(device, "compute_capability", "0") or 0)
    except ValueError:
        return False
    return capability >= 8.0 and jax.config.jax_default_matmul_precision in (
        None,
        "default",
        "bfloat16",
        "tensorfloat32",
    )


def probe_sizes(machine: dict) -> dict:
    """What the probes measure on a machine `description` gives: `bandwidth`, the bytes of
    each array summed (and, on an accelerator, doubled element-wise); `matmul`, the
    (element type, n) of each square product.

    >>> probe_sizes({"platform": "cpu", "memory": 0})["bandwidth"]
    (67108864, 134217728)
    >>> sizes = probe_sizes({"platform": "cuda", "memory": 16 << 30})
    >>> [size >> 30 for size in sizes["bandwidth"]], sizes["matmul"][-1]
    ([1, 2], ('float32', 8192))
    """
    if machine["platform"] == "cpu":
        return {"bandwidth": (64 * _MIB, 128 * _MIB), "matmul": tuple(("float32", n) for n in (256, 512, 1024))}
    memory = machine.get("memory") or 8 * _GIB  # a device that does not say: assume a small one
    # at most 2**30 f32 elements: past that, XLA's GPU kernels switch to 64-bit indexing
    bandwidth = tuple(size for size in (_GIB, 2 * _GIB, 4 * _GIB) if 6 * size <= memory) or (memory // 6,)
    matmul = tuple(
        (kind, n) for kind in ("bfloat16", "float32") for n in (4096, 8192) if 3 * n * n * 4 * 4 <= memory
    )  # three n x n operands, a quarter of the memory at most
    return {"bandwidth": bandwidth, "matmul": matmul or (("float32", 1024),)}


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
            kind, detail = str(device.device_kind), str(entry.get("detail", ""))
            return Peaks(float(entry["bandwidth"]), float(entry["flops"]), kind, "cached", detail)
        except (KeyError, TypeError, ValueError, ArgumentError):
            pass  # a damaged entry: measure again
    measured = measure(device)
    if isinstance(entry, dict) and remeasure:  # a busy machine measures low: keep the best seen
        try:
            best = (max(measured.bandwidth, float(entry["bandwidth"])), max(measured.flops, float(entry["flops"])))
            measured = Peaks(*best, measured.device, "measured", measured.detail)
        except (KeyError, TypeError, ValueError, ArgumentError):
            pass
    stored[key] = {"bandwidth": measured.bandwidth, "flops": measured.flops, "detail": measured.detail}
    stored[key]["machine"] = machine
    _write(path, stored)
    return measured


def measure(device) -> Peaks:
    """Measures `device`'s bandwidth and matmul rates (best of a few runs of each probe, the
    fastest size kept; `probe_sizes`)."""
    machine = description(device)
    sizes = probe_sizes(machine)
    # A sum reads every byte once and writes nothing: a probe that allocates a 64 MiB result
    # measures the allocator's page faults as much as the memory. On an accelerator an
    # element-wise product (read and written once) is timed too: XLA's reductions there
    # can fall short of the copy rate.
    bandwidth, best_size = 0.0, 0
    for size in sizes["bandwidth"]:
        x = jax.device_put(jnp.zeros((size // 4,), jnp.float32), device)
        probes = [(jnp.sum, x.nbytes)] + ([] if device.platform == "cpu" else [(lambda a: a * 2.0, 2 * x.nbytes)])
        for probe, moved in probes:
            rate = moved / _best(jax.jit(probe), x)
            bandwidth, best_size = max((bandwidth, best_size), (rate, size))
        del x
    rates: dict[str, float] = {}
    for kind, n in sizes["matmul"]:
        m = jax.device_put(jnp.ones((n, n), kind), device)
        rates[kind] = max(rates.get(kind, 0.0), 2 * n**3 / _best(jax.jit(lambda a: a @ a), m))
        del m
    flops = max(rates.values())
    return Peaks(bandwidth, flops, str(device.device_kind), "measured", _detail(best_size, rates, machine["tf32"]))


def _detail(size: int, rates: dict, tf32: bool) -> str:
    """What the probes found, for the peaks' text.

    >>> _detail(4 << 30, {"bfloat16": 7.3e14, "float32": 3.6e14}, True)
    'memory from 4096 MiB; bf16 matmul 730.0 TFLOP/s, f32 360.0 TFLOP/s (f32 runs as TF32 at the default precision)'
    """
    parts = [f"memory from {size // _MIB} MiB"]
    names = {"bfloat16": "bf16", "float32": "f32"}
    matmuls = ", ".join(f"{names.get(kind, kind)}{' matmul' if i == 0 else ''} {rate / 1e12:.1f} TFLOP/s"
                        for i, (kind, rate) in enumerate(sorted(rates.items())))  # fmt: skip
    if tf32 and "float32" in rates:
        matmuls += " (f32 runs as TF32 at the default precision)"
    return "; ".join([*parts, matmuls])


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
    raised = Peaks(bandwidth, flops, peaks.device, "raised", peaks.detail)
    return raised, tuple(f"{note}; raised to it" for note in notes)


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
