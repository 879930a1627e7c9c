"""Reading JAX's profiler for `nbt.xla.profile`: a trace of a few calls (`jax.profiler`,
read back with `jax.profiler.ProfileData`), each kernel event of one compiled program with
its run and device, and each run's span from its first kernel's start to its last one's end.
"""

from __future__ import annotations

import glob
import os
import shutil
import tempfile
import time

import jax


class ProfilerError(RuntimeError):
    """The profiler cannot time this call: another trace is active, or the platform
    records no kernel events."""

    __module__ = "numbat.xla"


def _options() -> jax.profiler.ProfileOptions:
    """No Python tracer: it times every Python call, which would slow the very calls
    timed here (numbat's checks most); the host tracer's level 1 (its least) records the kernels."""
    options = jax.profiler.ProfileOptions()
    options.python_tracer_level = 0
    options.host_tracer_level = 1
    return options


def trace(call, runs: int, module: str) -> tuple[list[float], list]:
    """Wall times of `runs` calls, and the kernel events of `module` the trace recorded."""
    directory = tempfile.mkdtemp(prefix="numbat-profile-")
    walls = []
    try:
        try:
            jax.profiler.start_trace(directory, profiler_options=_options())
        except RuntimeError as error:
            raise ProfilerError(
                f"profile cannot start JAX's profiler ({error}); stop the other trace "
                "(jax.profiler.stop_trace()) and profile again"
            ) from None
        try:
            for _ in range(runs):
                start = time.perf_counter()
                jax.block_until_ready(call())
                walls.append(time.perf_counter() - start)
        finally:
            jax.profiler.stop_trace()
        files = glob.glob(os.path.join(directory, "**", "*.xplane.pb"), recursive=True)
        if not files:
            raise ProfilerError("JAX's profiler wrote no trace: this platform records no kernel events")
        events = kernel_events(jax.profiler.ProfileData.from_file(files[0]), module)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    if not events:
        raise ProfilerError(
            f"JAX's profiler recorded no kernel of {module} on this platform, so numbat cannot time its kernels"
        )
    return walls, events


def kernel_events(data, module: str) -> list:
    """`((run, device), kernel, start, seconds)` for each kernel of `module` the trace holds.
    A device's own planes (`/device:GPU:0`), where there are any, time its kernels; the host's
    (`/host:CPU`) are the CPU client's kernels, or where an accelerator's host threads launch
    its kernels, which the device's planes time instead."""
    by_plane = {}
    for plane in data.planes:
        found = by_plane.setdefault(plane.name.startswith("/device:"), [])
        ordinal = plane.name.rsplit(":", 1)[-1]  # "/device:GPU:1": the plane's own device
        ordinal = int(ordinal) if ordinal.isdigit() else 0
        for line in plane.lines:
            for event in line.events:
                stats = dict(event.stats)
                if stats.get("hlo_module") == module and "hlo_op" in stats:
                    key = (stats.get("run_id"), stats.get("device_ordinal", ordinal))
                    found.append((key, stats["hlo_op"], event.start_ns, event.duration_ns * 1e-9))
    return by_plane.get(True) or by_plane.get(False) or []


def runs_of(events: list, runs: int, name: str) -> dict:
    """Each event's run (0 to `runs` - 1, in time order) per device: by the run id the
    event carries, else (a platform whose events carry none) by splitting each device's
    events, in time order, into `runs` equal parts (each run executes the same kernels)."""
    index = {}
    for device in sorted({key[1] for key, *_ in events}):
        mine = sorted((e for e in events if e[0][1] == device), key=lambda e: e[2])
        ids = list(dict.fromkeys(key[0] for key, *_ in mine))
        if ids == [None] and len(mine) % runs == 0:
            index.update({id(e): position * runs // len(mine) for position, e in enumerate(mine)})
        elif len(ids) == runs and None not in ids:
            ranks = {run: rank for rank, run in enumerate(ids)}
            index.update({id(e): ranks[e[0][0]] for e in mine})
        else:
            raise ProfilerError(f"profile of {name}: expected {runs} runs on device {device} in the trace")
    return index


def spans(events: list, run_of: dict, entry: set, runs: int) -> list[float]:
    """Per run, seconds from the first entry kernel's start to the last one's end (the
    longest over the devices): the program's time, its kernels and the gaps between them."""
    bounds: dict[tuple, list] = {}
    for event in events:
        (_, device), op, start, seconds = event
        if op in entry:
            low, high = bounds.setdefault((run_of[id(event)], device), [start, start])
            bounds[(run_of[id(event)], device)] = [min(low, start), max(high, start + seconds * 1e9)]
    spans = [0.0] * runs
    for (run, _), (low, high) in bounds.items():
        spans[run] = max(spans[run], (high - low) * 1e-9)
    return spans
