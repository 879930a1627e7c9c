"""Where a defn's time goes: each kernel XLA made of it, timed with JAX's own profiler
(`jax.profiler.trace`, its trace read back in a child process: `_trace_events`), named by the numbat ops
it computes (the fusion report's mapping, so the same names and `#id`s as the graph), with
its bytes and FLOPs from the optimized HLO and the rates it reaches against the machine's
peaks (docs/design.md, decision 16).

The time around the program is a row of its own, "(runtime and dispatch)": per run, the
call's wall time outside its kernels (before the first kernel's start and after the last
one's end): XLA's runtime (argument and result buffers, transfers, the launch) and JAX's
dispatch. numbat's own Python (its checks, the result's tensor) is measured apart, outside
the trace, as the call's dispatch time less that of its compiled program called directly on
the same arrays (the median over interleaved rounds): the "(numbat's Python)" row, where
every argument is a tensor. The gaps between the
kernels inside the program are another row. Every time is the mean over the middle half of the runs, ranked by wall time (the
interquartile mean: as robust as a median to a run the machine slowed, and, unlike per-row
medians, rows that add up to the wall time of the same runs). Rows come longest first. A
loop's kernels are its body's, run once per iteration: the loop's row holds their time, and
each of them says how many times it ran per call.

A kernel faster than a measured ceiling raises that ceiling for this profile, and the
profile says so (`Profile.notes`): a working set that fits in a CPU cache is read at the
cache's speed, not at the memory bandwidth the probe measured past every cache.
"""

from __future__ import annotations

import dataclasses
import statistics
import time
import typing

import jax

from .. import _defn
from .._core._errors import ArgumentError
from .._tensor._tensor import Template, Tensor
from . import _hlo_costs, _hlo_text, _lowering, _peaks, _trace_events

DEFAULT_RUNS = 10
OUTSIDE = "(runtime and dispatch)"
NUMBAT = "(numbat's Python)"
LEGEND = (
    "(between kernels): gaps inside the program, a kernel waiting for its threads or its launch",
    (
        f"{OUTSIDE}: the call outside its kernels: XLA's runtime (buffers, transfers, launch), JAX's dispatch,"
        f" waiting for a core on a busy machine, and numbat's checks where {NUMBAT} is not listed"
    ),
    f"{NUMBAT}: numbat's checks and result: the call's dispatch time less its program's called on the same arrays",
    "times: the mean of the middle half of the runs; xN: runs per call",
)
_OPS_WIDTH = 40  # the numbat ops column: a fusion of many ops lists its first ones and "+N more"


@typing.final
@dataclasses.dataclass(frozen=True)
class KernelTime:
    """One kernel's share of a call: its time per call (the mean over the middle half of the
    runs) and what it moved and computed."""

    name: str
    opcode: str
    kind: str
    numbat_ops: tuple[str, ...]
    nodes: tuple[int, ...]
    seconds: float  # per call, over the middle runs (a loop's: its whole run, its body's kernels included)
    executions: float  # times it ran per call: a loop body's kernels run once per iteration
    bytes_read: int  # per call
    bytes_written: int
    flops: float
    inside: str = ""  # the loop or conditional it runs in, or "" for a kernel of the program's entry
    device: int = 0

    @property
    def bytes(self) -> int:
        return self.bytes_read + self.bytes_written

    @property
    def intensity(self) -> float:
        """FLOPs per byte moved."""
        return self.flops / self.bytes if self.bytes else 0.0

    @property
    def bandwidth(self) -> float:
        """Bytes per second it reached."""
        return self.bytes / self.seconds if self.seconds > 0 else 0.0

    @property
    def flop_rate(self) -> float:
        """FLOPs per second it reached."""
        return self.flops / self.seconds if self.seconds > 0 else 0.0


@typing.final
@dataclasses.dataclass(frozen=True)
class Profile:
    """The kernels of one call of a compiled function, timed over `runs` runs (see `profile`)."""

    function: str
    device: str
    runs: int
    kept: int  # the middle runs the times are averaged over
    wall: float  # wall time of a call, in seconds, over the middle runs
    overhead: float  # per call, the wall time around the program: dispatch, transfers, numbat's checks
    kernels: tuple[KernelTime, ...]
    peaks: _peaks.Peaks
    iterations: dict = dataclasses.field(default_factory=dict)  # loop name -> iterations per call
    devices: int = 1
    expr: object = dataclasses.field(default=None, repr=False, compare=False)  # the graph the kernels compute
    between: float = 0.0  # per call, the gaps between the program's kernels (waiting for threads, launches)
    notes: tuple[str, ...] = ()  # a ceiling a kernel beat, and why
    numbat: float | None = None  # per call, numbat's own Python within `overhead`; None: not measured

    def outside(self) -> tuple[tuple[str, float], ...]:
        """The rows after the kernels, with their seconds per call: the gaps between
        kernels, the runtime around the program, and numbat's own Python where measured."""
        if self.numbat is None:
            return (("(between kernels)", self.between), (OUTSIDE, self.overhead))
        runtime = max(self.overhead - self.numbat, 0.0)
        return (("(between kernels)", self.between), (OUTSIDE, runtime), (NUMBAT, min(self.numbat, self.overhead)))

    def top(self, count: int | None = None) -> tuple[KernelTime, ...]:
        """The kernels of the program's entry, longest first (a loop's inner kernels are
        within its row); `count` keeps the first `count` of them."""
        entry = sorted((k for k in self.kernels if not k.inside), key=lambda k: -k.seconds)
        return tuple(entry if count is None else entry[:count])

    def ordered(self) -> tuple[KernelTime, ...]:
        """Every kernel in the table's order: the entry's longest first, each loop's or
        branch's kernels (longest first) under it."""
        inner = sorted((k for k in self.kernels if k.inside), key=lambda k: -k.seconds)
        return tuple(
            kernel
            for top in self.top()
            for kernel in (top, *[k for k in inner if k.inside == top.name and k.device == top.device])
        )

    def share(self, kernel: KernelTime) -> float:
        """The part of the wall time `kernel` takes (over its devices, for a sharded call)."""
        return kernel.seconds / self.wall if self.wall > 0 else 0.0

    def bound(self, kernel: KernelTime) -> str:
        """ "memory" or "compute": which ceiling of the roofline limits `kernel` (its FLOPs
        per byte against the peaks' ridge), "-" for a kernel that neither moves nor computes."""
        if kernel.opcode in ("while", "conditional") and not kernel.bytes:
            return "-"
        if not kernel.flops:
            return "memory" if kernel.bytes else "-"
        return "compute" if kernel.intensity >= self.peaks.ridge else "memory"

    def node_shares(self) -> dict[int, tuple[tuple[KernelTime, ...], float]]:
        """For each node of the expression graph: the kernels computing it (the longest
        first) and their share of the call together (`reduce_max` may take three)."""
        found: dict[int, list] = {}
        for kernel in self.top():
            for node in kernel.nodes:
                found.setdefault(node, []).append(kernel)
        return {
            node: (tuple(sorted(kernels, key=lambda k: -k.seconds)), sum(map(self.share, kernels)))
            for node, kernels in found.items()
        }

    def rows(self) -> list[tuple]:
        """The table's rows, the volatile columns (time, share, rates) last."""
        rows = []
        for kernel in self.ordered():
            name = f"  ↳ {kernel.name}" if kernel.inside else kernel.name  # under the loop or branch running it
            if self.devices > 1:
                name = f"{name} @{kernel.device}"
            if kernel.name in self.iterations:
                name = f"{name} ({self.iterations[kernel.name]:g} iterations)"
            if kernel.inside or kernel.executions != 1:
                name = f"{name} x{kernel.executions:g}"
            rows.append(
                (
                    name,
                    _ops(kernel.numbat_ops),
                    _bytes(kernel.bytes_read),
                    _bytes(kernel.bytes_written),
                    _count(kernel.flops),
                    self.bound(kernel),
                    (
                        f"{duration(kernel.seconds)} {100 * self.share(kernel):.1f}% "
                        f"{kernel.bandwidth / 1e9:.1f} GB/s {kernel.flop_rate / 1e9:.1f} GFLOP/s"
                    ),
                )
            )
        rows += [(label, "-", "", "", "", "", _share(seconds, self.wall)) for label, seconds in self.outside()]
        return rows

    HEADER = ("kernel", "numbat ops", "read", "written", "FLOPs", "bound", "time, share, rates")

    def __str__(self) -> str:
        rows = [self.HEADER, *self.rows()]
        widths = [max(len(str(row[i])) for row in rows) for i in range(len(self.HEADER) - 1)]
        lines = [
            (
                f"numbat.Profile<{self.function} on {self.device}, middle {self.kept} of {self.runs} runs: "
                f"{duration(self.wall)} per call"
            )
        ]
        for row in rows:
            fixed = "  ".join(str(cell).ljust(width) for cell, width in zip(row, widths))
            lines.append(f"  {fixed}  {row[-1]}".rstrip())
        lines += [f"  {line}" for line in LEGEND]
        lines.append(f"  peaks: {self.peaks}; ridge at {self.peaks.ridge:.1f} FLOPs/byte")
        lines += [f"  {note}" for note in self.notes]
        return "\n".join(lines) + "\n>"

    __repr__ = __str__


def _ops(names: tuple[str, ...]) -> str:
    """The numbat ops column, at most `_OPS_WIDTH` characters and the count of the rest.

    >>> _ops(("tanh", "multiply", "add"))
    'tanh, multiply, add'
    >>> _ops(tuple(f"op{i}" for i in range(30)))
    'op0, op1, op2, op3, op4, op5 +24 more'
    """
    shown = []
    for name in names:
        if len(", ".join([*shown, name])) > _OPS_WIDTH - 9:  # room for " +NN more"
            return f"{', '.join(shown)} +{len(names) - len(shown)} more"
        shown.append(name)
    return ", ".join(shown) or "-"


def duration(seconds: float) -> str:
    """A time as the profile prints it.

    >>> duration(0.00042), duration(0.25), duration(3.0)
    ('420.0 µs', '250.00 ms', '3.00 s')
    """
    if abs(seconds) < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    return f"{seconds * 1e3:.2f} ms" if abs(seconds) < 1 else f"{seconds:.2f} s"


def _share(seconds: float, wall: float) -> str:
    return f"{duration(seconds)} {100 * seconds / wall if wall > 0 else 0:.1f}%"


def _bytes(count: float) -> str:
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= size:
            return f"{count / size:.1f} {unit}"
    return f"{count:g} B"


def _count(flops: float) -> str:
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if flops >= size:
            return f"{flops / size:.1f}{unit}"
    return f"{flops:g}"


def profile(fun, args, runs: int = DEFAULT_RUNS, peaks: _peaks.Peaks | None = None, **opts) -> Profile:
    """Times each kernel of `fun` (a defn, a function, or a `shard_jit` function) called on
    `args` over `runs` runs (after one warm-up call) and returns a `Profile`: per kernel, its
    time (the mean over the middle half of the runs by wall time) and share of the call, its
    numbat ops, bytes, FLOPs and rates, longest first, and the time outside the kernels.
    `peaks` (an `nbt.xla.Peaks`) replaces the machine's measured ones; a kernel faster than
    a measured ceiling raises it, and `Profile.notes` says why.

    >>> peaks = nbt.xla.Peaks(bandwidth=20e9, flops=100e9)  # or leave out: measured once per machine
    >>> p = nbt.xla.profile(lambda x: nbt.exp(x) * 2, [nbt.iota((1000,), type="f32")], runs=3, peaks=peaks)
    >>> [(k.numbat_ops, k.bytes_read, k.bytes_written, k.flops) for k in p.kernels]
    [(('exp', 'multiply'), 4000, 4000, 2000.0)]
    """
    if isinstance(runs, bool) or not isinstance(runs, int) or runs < 1:
        raise ArgumentError(f"profile: runs must be a positive int, got {runs!r}")
    if peaks is not None and not isinstance(peaks, _peaks.Peaks):
        raise ArgumentError(f"profile: peaks must be an nbt.xla.Peaks, got {peaks!r}")
    if not isinstance(args, (list, tuple)):
        raise ArgumentError(f"profile: args must be a list of arguments, got {args!r}")
    if any(isinstance(a, Template) for a in args):
        raise ArgumentError("profile runs the function: pass tensors, not templates")
    sharded = getattr(fun, "numbat_sharded", None)
    if sharded is not None:
        name, text, call, expr = sharded.name, sharded.compiled(*args).as_text(), lambda: fun(*args), None
    else:
        target = _lowering.as_defn(fun, **opts)
        if target.compiler != "xla":
            raise ArgumentError(
                f"profile times the kernels XLA compiles; {target.name} runs with compiler={target.compiler!r}, "
                "op by op: profile nbt.defn(fun) instead"
            )
        name, text = target.name, _lowering.compiled(target, args)[1].as_text()
        call, expr = lambda: target(*args), _defn.debug_expr(target)(*args)
    program = _hlo_costs.Program(text)
    first = jax.block_until_ready(call())  # warm: compiled, and finished before the trace starts
    device = _device_of(first)
    walls, events, unmatched = _trace_events.trace(call, runs, program.module, program.by_name, device.platform)
    profile = _assemble(name, program, walls, events, runs, device, peaks or _peaks.peaks(device), expr, unmatched)
    numbat = None if sharded is not None else _numbat_python(target, args, runs)
    return dataclasses.replace(profile, numbat=numbat)


def _numbat_python(target, args, runs: int) -> float | None:
    """numbat's own time per call, outside the trace: the median over interleaved rounds of
    the call's dispatch time less that of its compiled program called directly on the same
    arrays (each timed until it returns, before its result is ready: the program's own run,
    the same in both, stays out of the difference). None unless every argument is a tensor."""
    if not all(isinstance(a, Tensor) for a in args):
        return None
    program = _lowering.compiled(target, args)[1]
    arrays = [jax.numpy.asarray(a) for a in args]
    try:
        jax.block_until_ready(program(*arrays))
    except (TypeError, ValueError):  # the program takes its arguments in another form
        return None
    differences = []
    for _ in range(max(runs, 4)):
        seconds = []
        for call in (lambda: target(*args), lambda: program(*arrays)):
            start = time.perf_counter()
            result = call()
            seconds.append(time.perf_counter() - start)
            jax.block_until_ready(result)
        differences.append(seconds[0] - seconds[1])
    return max(statistics.median(differences), 0.0)


def _device_of(outputs):
    for leaf in jax.tree_util.tree_leaves(outputs):
        if isinstance(leaf, jax.Array):
            return min(leaf.devices(), key=lambda d: d.id)
    return jax.devices()[0]


def middle(walls: list[float]) -> list[int]:
    """The runs an average keeps: the middle half by wall time (all of them below 4 runs).

    >>> middle([5.0, 1.0, 9.0, 2.0, 3.0, 4.0, 100.0, 3.5])
    [4, 7, 5, 0]
    """
    ranked = sorted(range(len(walls)), key=lambda i: walls[i])
    quarter = len(walls) // 4
    return ranked[quarter : len(walls) - quarter] if len(walls) >= 4 else ranked


def _assemble(name, program, walls, events, runs, device, peaks, expr, unmatched=()) -> Profile:
    """The profile of `program` from its kernel events (`_trace_events.kernel_events`), the
    calls' `walls`, and the kernels of it that name no instruction (`unmatched`, a note)."""
    devices = sorted({key[1] for key, *_ in events})
    per_run: dict[tuple, list[float]] = {}  # (kernel, device) -> seconds in each run
    executions: dict[tuple, list[int]] = {}
    for event in events:
        (index, dev), op, _, seconds = event
        per_run.setdefault((op, dev), [0.0] * runs)[index] += seconds
        executions.setdefault((op, dev), [0] * runs)[index] += 1
    kept = middle(walls)
    mean = lambda values: statistics.fmean(values[i] for i in kept)
    kernels, iterations = [], {}
    for dev in devices:
        for cost in program.kernels:
            inner = [n for n, owner in program.nested.items() if owner == cost.name and (n, dev) in per_run]
            rows = [_row(program.inner[n], (n, dev), per_run, executions, mean, program, cost.name, dev)
                    for n in inner]  # fmt: skip
            row = _row(cost, (cost.name, dev), per_run, executions, mean, program, "", dev)
            if rows:
                read = sum(r.bytes_read for r in rows)
                written = sum(r.bytes_written for r in rows)
                row = dataclasses.replace(row, bytes_read=read, bytes_written=written, flops=sum(r.flops for r in rows))
            for loop in (cost.name, *inner):
                if loop in program.bodies:  # a loop's iterations: how often its body's kernels ran
                    counts = [executions.get((n, dev), [0] * runs) for n in program.bodies[loop]]
                    iterations[loop] = max((mean(c) for c in counts), default=0)
            kernels += [row, *rows]
    busy = [max(sum(per_run.get((c.name, d), [0.0] * runs)[i] for c in program.kernels) for d in devices)
            for i in range(runs)]  # fmt: skip
    spans = _trace_events.spans(events, {c.name for c in program.kernels}, runs)
    between = [max(span - b, 0.0) for span, b in zip(spans, busy)]
    overhead = mean([w - b - g for w, b, g in zip(walls, busy, between)])
    label = f"{device.platform}:{device.id}" + (f" and {len(devices) - 1} more" if len(devices) > 1 else "")
    peaks, notes = _peaks.ceilings(peaks, [k for k in kernels if k.seconds > 0])
    if unmatched:
        note = f"kernels of {program.module} the trace names by no instruction of it (their time is in the rows "
        notes += (f"{note}outside the kernels): {', '.join(unmatched[:8])}",)
    return Profile(
        name, label, runs, len(kept), mean(walls), overhead, tuple(kernels), peaks, iterations, len(devices), expr,
        mean(between), notes,
    )  # fmt: skip


def _row(cost, key, per_run, executions, mean, program, inside, device) -> KernelTime:
    ops, nodes = _hlo_text.kernel_ops(program.computations, program.by_name.get(cost.name))
    times = per_run.get(key)
    count = mean(executions[key]) if key in executions else 0
    scale = max(count, 0 if inside else 1)  # an entry kernel that left no event still ran once
    return KernelTime(
        cost.name,
        cost.opcode,
        cost.kind,
        ops,
        nodes if not inside else (),
        mean(times) if times else 0.0,
        count,
        round(cost.bytes_read * scale),
        round(cost.bytes_written * scale),
        cost.flops * scale,
        inside,
        device,
    )
