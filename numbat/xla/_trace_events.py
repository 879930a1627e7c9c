"""Reading JAX's profiler for `nbt.xla.profile`: a trace of a few calls (`jax.profiler`), read
back in a child process (`_xspace`, plain Python, with memory, CPU and time limits: a trace
the reader cannot handle ends the child, never the kernel),
and each kernel event of one compiled program with its run and device.

Where the kernels are:
- on the CPU client, events of the host plane (`/host:CPU`) that carry `hlo_module`,
  `hlo_op` and `run_id` stats (XLA's thunk executor writes them);
- on a GPU, CUPTI's kernel events on the device's own plane (`/device:GPU:0`, lines such
  as `Stream #7(Kernel)`), each named by the `hlo_op` stat XLA's kernel annotation gives
  it (`XlaModule:#hlo_module=jit_f,...#::Thunk:#hlo_op=fusion.2#`) or, without one, by
  its kernel name, which for a kernel XLA emitted is its instruction's name with `.` and
  `-` written `_` (`loop_add_fusion.1` runs as `loop_add_fusion_1`). A cuBLAS kernel
  (`nvjet_...`, `sm90_xmma_gemm_...`) has only the annotation. A device plane without
  stream lines (a trace XProf already converted) gives its `XLA Ops` line's events.
Each run is marked on the host (`jax.profiler.TraceAnnotation`, "numbat profile run N"): an
event without a run id belongs to the run whose mark holds its midpoint.
"""

from __future__ import annotations

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import jax

from . import _xspace
from ._inspect import how_the_child_ended

MEMORY_BYTES = 4 << 30  # the reader's address space: a trace of many thousand kernels and Python
ANSWER_BYTES = 256 << 20  # the most the reader may write
TIMEOUT = 120.0  # seconds the reader may take

# The child's program: limits first, then the reader (a file of the standard library only).
_CHILD = r"""
import resource, runpy, sys
script, trace, module, answer, memory, cpu, answer_bytes = sys.argv[1:8]
resource.setrlimit(resource.RLIMIT_AS, (int(memory), int(memory)))
resource.setrlimit(resource.RLIMIT_CPU, (int(cpu), int(cpu)))
resource.setrlimit(resource.RLIMIT_FSIZE, (int(answer_bytes), int(answer_bytes)))
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
sys.argv = [script, trace, module, answer]
runpy.run_path(script, run_name="__main__")
"""


class ProfilerError(RuntimeError):
    """The profiler cannot time this call: another trace is active, the trace could not be
    read, or it holds no kernel of the program; the message names the platform and what
    was missing."""

    __module__ = "numbat.xla"


def _options() -> jax.profiler.ProfileOptions:
    """No Python tracer: it times every Python call, which would slow the very calls
    timed here (numbat's checks most); the host tracer's level 1 (its least) records the kernels."""
    options = jax.profiler.ProfileOptions()
    options.python_tracer_level = 0
    options.host_tracer_level = 1
    return options


def trace(call, runs: int, module: str, names, platform: str) -> tuple[list[float], list, list[str]]:
    """Wall times of `runs` calls, the kernel events of `module` the trace recorded (see
    `kernel_events`), and the names of its kernels that no instruction in `names` matched."""
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
            for index in range(runs):
                with jax.profiler.TraceAnnotation(f"{_xspace.RUN_MARK}{index}"):
                    start = time.perf_counter()
                    jax.block_until_ready(call())
                    walls.append(time.perf_counter() - start)
        finally:
            jax.profiler.stop_trace()
        files = glob.glob(os.path.join(directory, "**", "*.xplane.pb"), recursive=True)
        if not files:
            raise ProfilerError(f"JAX's profiler wrote no trace on {platform}, so numbat cannot time its kernels")
        found = read_trace(files[0], module, platform)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    events, unmatched = kernel_events(found, module, names, runs, platform)
    return walls, events, unmatched


def read_trace(path: str, module: str, platform: str, timeout: float = TIMEOUT, script: str | None = None) -> dict:
    """The trace at `path` read by `script` (`_xspace.py` unless given) in a child process
    with limits: its planes, the events that may be kernels of `module`, and the run marks.
    A child that dies, fails or outlasts `timeout` is a `ProfilerError`; this process is
    untouched."""
    script = script or _xspace.__file__
    with tempfile.TemporaryDirectory(prefix="numbat-trace-") as directory:
        answer = os.path.join(directory, "answer.json")
        arguments = [script, path, module, answer, str(MEMORY_BYTES), str(int(timeout) + 2), str(ANSWER_BYTES)]
        what = f"reading JAX's trace of {module} on {platform}"
        try:
            done = subprocess.run(
                [sys.executable, "-I", "-c", _CHILD, *arguments],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise ProfilerError(
                f"{what} took longer than {timeout} s; the child process reading it was stopped"
            ) from None
        if done.returncode != 0:
            raise ProfilerError(
                f"{what}: the child process reading it {how_the_child_ended(done)}; this process is untouched"
            )
        with open(answer, "rb") as file:
            return json.loads(file.read(ANSWER_BYTES + 1))


def kernel_name(instruction: str) -> str:
    """The name of the kernel XLA's GPU compiler emits for an instruction.

    >>> kernel_name("loop_add_fusion.1"), kernel_name("input_reduce-fusion")
    ('loop_add_fusion_1', 'input_reduce_fusion')
    """
    return re.sub(r"[.\-]", "_", instruction)


def _ordinal(plane: str) -> int:
    tail = plane.rsplit(":", 1)[-1]  # "/device:GPU:1": the plane's own device
    return int(tail) if tail.isdigit() else 0


def kernel_events(found: dict, module: str, names, runs: int, platform: str) -> tuple[list, list[str]]:
    """`((run, device), kernel, start_ns, seconds)` for each kernel of `module` in a read
    trace (`read_trace`), and the kernels of `module` no instruction in `names` matched.

    A device's planes, where they hold kernels of `module`, time them; else the host's (the
    CPU client's kernels), except on an accelerator's trace, whose host events are launches. Runs come from the events' `run_id` stats, else from the run
    marks, else from splitting each device's events in time order into `runs` equal parts."""
    names = set(names)
    base = min([e[3] for e in found["events"]] + [m[1] for m in found["marks"]], default=0)
    nanoseconds = lambda picoseconds: (picoseconds - base) / 1e3  # small floats keep their nanoseconds
    marks = [(name, nanoseconds(start), nanoseconds(end)) for name, start, end in found["marks"]]
    by_kernel = {kernel_name(n): n for n in names}
    chosen: dict[bool, list] = {True: [], False: []}
    unmatched: dict[bool, list] = {True: [], False: []}
    for plane, _, label, start, duration, stats in found["events"]:
        device = plane.startswith("/device:")
        owner = stats.get("hlo_module")
        if owner is not None and owner != module:
            continue  # another program's kernel
        op = stats.get("hlo_op")
        op = op if op in names else by_kernel.get(label, label if label in names else None)
        if op is None:
            if owner == module:
                unmatched[device].append(str(stats.get("hlo_op", label)))
            continue
        ordinal = stats.get("device_ordinal", _ordinal(plane)) if not device else _ordinal(plane)
        chosen[device].append([stats.get("run_id"), ordinal, op, nanoseconds(start), duration / 1e3])
    # An accelerator's kernels are timed on its own planes only: its host events are launches
    device = bool(chosen[True]) or (
        platform != "cpu" and any(p["name"].startswith("/device:") for p in found["planes"])
    )
    events = chosen[device]
    if not events:
        raise ProfilerError(_missing(found, module, platform, unmatched[True] + unmatched[False]))
    return _with_runs(events, marks, runs, module, platform), sorted(set(unmatched[device]))


def _missing(found: dict, module: str, platform: str, unmatched: list) -> str:
    planes = "; ".join(
        f"{p['name']} ({p['events']} events on {len(p['lines'])} lines, stats: {', '.join(p['stats']) or 'none'})"
        for p in found["planes"]
    )
    named = f"; kernels of {module} that name no instruction of it: {', '.join(sorted(set(unmatched))[:8])}"
    return (
        f"JAX's profiler recorded no kernel of {module} on {platform}, so numbat cannot time its kernels: "
        f"no device plane's stream event and no host event named an instruction of it by an hlo_op stat or its "
        f"kernel name. The trace held: {planes or 'no planes'}{named if unmatched else ''}"
    )


def _with_runs(events: list, marks: list, runs: int, module: str, platform: str) -> list:
    marks = sorted((start, end) for _, start, end in marks)
    out = []
    for ordinal in sorted({e[1] for e in events}):
        mine = sorted((e for e in events if e[1] == ordinal), key=lambda e: e[3])
        ids = list(dict.fromkeys(e[0] for e in mine))
        if None not in ids and len(ids) == runs:
            index = {run: rank for rank, run in enumerate(ids)}
            runs_of = [index[e[0]] for e in mine]
        elif len(marks) == runs and _inside(mine, marks):
            runs_of = [_mark_of(e, marks) for e in mine]
            kept = [(e, run) for e, run in zip(mine, runs_of) if run is not None]
            mine, runs_of = [e for e, _ in kept], [run for _, run in kept]
        elif len(mine) % runs == 0:
            runs_of = [position * runs // len(mine) for position in range(len(mine))]
        else:
            raise ProfilerError(
                f"profile of {module} on {platform}: expected {runs} runs on device {ordinal} in the trace; its "
                f"{len(mine)} kernel events carry {len(ids)} run ids and the trace {len(marks)} run marks"
            )
        out += [((run, ordinal), e[2], e[3], e[4] * 1e-9) for e, run in zip(mine, runs_of)]
    return out


def _mark_of(event, marks) -> int | None:
    middle = event[3] + event[4] / 2
    for run, (start, end) in enumerate(marks):
        if start <= middle <= end:
            return run
    return None


def _inside(events: list, marks: list) -> bool:
    """Whether every run mark holds some of `events` (the device's clock agrees with the host's)."""
    held = {_mark_of(e, marks) for e in events}
    return all(run in held for run in range(len(marks)))


def spans(events: list, entry: set, runs: int) -> list[float]:
    """Per run, seconds from the first entry kernel's start to the last one's end (the
    longest over the devices): the program's time, its kernels and the gaps between them."""
    bounds: dict[tuple, list] = {}
    for (run, device), op, start, seconds in events:
        if op in entry:
            low, high = bounds.setdefault((run, device), [start, start])
            bounds[(run, device)] = [min(low, start), max(high, start + seconds * 1e9)]
    spans = [0.0] * runs
    for (run, _), (low, high) in bounds.items():
        spans[run] = max(spans[run], (high - low) * 1e-9)
    return spans
