"""`nbt.xla.profile`: each kernel's time from JAX's profiler, named as the fusion report
names it, with bytes and FLOPs from the optimized HLO, and the views of it (text stable
under nbval's sanitizing, HTML, the graph shaded by time, the roofline, the magic).

The machine's peaks are given here (`PEAKS`), so no test pays for measuring them but the
one that checks they are cached.
"""

from __future__ import annotations

import dataclasses
import html
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import textwrap
import time

import jax
import matplotlib
import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
from nbval.plugin import get_sanitize_patterns
from traitlets.config import Config

import numbat as nbt
from numbat.notebook import _profile_view
from numbat.xla import _hlo_costs, _peaks, _profile, _trace_events, _xspace

matplotlib.use("Agg")
PEAKS = nbt.xla.Peaks(bandwidth=20e9, flops=50e9)  # ridge at 2.5 FLOPs per byte


@nbt.defn
def matmul_tail(a, b):
    return nbt.dot(a, b) + 1.0


@nbt.defn
def fma(x, y, z):
    return x + y * z


@nbt.defn
def softmax(t):
    return nbt.exp(t - nbt.reduce_max(t)) / nbt.sum(nbt.exp(t - nbt.reduce_max(t)))


@nbt.defn
def loop(x):
    _, y = nbt.while_loop(lambda s: s[0] < 7, lambda s: (s[0] + 1, nbt.sin(s[1]) * 2.0), (0, x))
    return nbt.exp(y)


def _dot_kernel(profile):
    (kernel,) = [k for k in profile.kernels if "dot" in k.numbat_ops]
    return kernel


def test_a_matmul_with_a_small_tail_spends_most_of_its_time_in_the_matmuls_kernel():
    a = nbt.iota((512, 512), type="f32") / 1e6
    profile = nbt.xla.profile(matmul_tail, [a, a], runs=8, peaks=PEAKS)
    dot = _dot_kernel(profile)
    others = sum(k.seconds for k in profile.top() if k is not dot)
    # Unloaded, the tail takes 1/30 of the matmul; on a loaded 2-core machine its threads wait
    # their turn (XLA splits it over the pool), and the profile says so: "most" is all it promises.
    assert dot.seconds > others, str(profile)
    assert dot.flops == 2 * 512**3
    assert profile.bound(dot) == "compute"
    tail = [k for k in profile.top() if k is not dot]
    assert tail and all(profile.bound(k) == "memory" for k in tail)


def test_a_dots_flops_are_2mnk_and_an_elementwise_kernels_bytes_its_operands_and_result():
    m, k, n = 48, 24, 10
    profile = nbt.xla.profile(
        nbt.dot, [nbt.iota((m, k), type="f32"), nbt.iota((k, n), type="f32")], runs=2, peaks=PEAKS
    )
    dot = _dot_kernel(profile)
    assert dot.flops == 2 * m * n * k
    assert (dot.bytes_read, dot.bytes_written) == (4 * (m * k + k * n), 4 * m * n)
    x = nbt.iota((1000,), type="f32")
    (kernel,) = nbt.xla.profile(fma, [x, x * 2, nbt.iota((1000,), type="f64")], runs=2, peaks=PEAKS).kernels
    assert (kernel.bytes_read, kernel.bytes_written) == (4000 + 4000 + 8000, 8000)  # f64 out
    assert kernel.flops == 2 * 1000 and set(kernel.numbat_ops) == {"multiply", "add"}


def test_every_kernel_of_the_fusion_report_appears_once_with_its_ops_and_nodes():
    t = nbt.iota((1000,), type="f32")
    report = nbt.xla.fusion_report(softmax, [t])
    profile = nbt.xla.profile(softmax, [t], runs=3, peaks=PEAKS)
    names = [k.name for k in profile.top()]
    for kernel in report.kernels:
        assert names.count(kernel.name) == 1, (kernel.name, names)
        (row,) = [k for k in profile.top() if k.name == kernel.name]
        assert (row.numbat_ops, row.nodes) == (kernel.numbat_ops, kernel.nodes)
    assert all(k.executions == 1 for k in profile.top() if k.name in {r.name for r in report.kernels})


def test_kernel_times_and_the_overhead_add_up_to_the_wall_time_of_the_same_runs():
    a = nbt.iota((256, 256), type="f32") / 1e5
    profile = nbt.xla.profile(matmul_tail, [a, a], runs=8, peaks=PEAKS)
    kernels = sum(k.seconds for k in profile.top())
    # no kernel counted twice or from another call: the kernels fit in the program's span, and it in the call
    assert kernels > 0 and profile.between >= 0 and profile.overhead >= 0, str(profile)
    assert abs(kernels + profile.between + profile.overhead - profile.wall) <= 0.1 * profile.wall
    assert profile.kept == 4 and profile.runs == 8


def test_a_loops_body_kernels_count_per_iteration_inside_the_loops_row():
    profile = nbt.xla.profile(loop, [nbt.iota((1000,), type="f32")], runs=3, peaks=PEAKS)
    (whole,) = [k for k in profile.top() if k.opcode == "while"]
    assert profile.iterations[whole.name] == 7
    inner = [k for k in profile.kernels if k.inside == whole.name]
    body = [k for k in inner if "sin" in k.numbat_ops]
    assert body and body[0].executions == 7
    assert body[0].flops == 7 * 2 * 1000  # sin and multiply over 1000 elements, per iteration
    assert whole.seconds >= sum(k.seconds for k in inner) * 0.99
    assert whole.flops == sum(k.flops for k in inner)
    assert "7 iterations" in str(profile)


def test_a_loop_with_three_values_of_state_is_a_kernel_of_the_report_and_profile():
    # XLA writes its instruction as `(s32[], f32[10]{0}, f32[10]{0}) while(...)`: a shape with spaces
    state = lambda s: (s[0] + 1, s[1] * 2.0, s[2] + s[1])
    fun = nbt.defn(lambda x: nbt.while_loop(lambda s: s[0] < 3, state, (0, x, x))[2])
    x = nbt.iota((10,), type="f32")
    report = nbt.xla.fusion_report(fun, [x])
    assert report.kernels  # on this CPU, one `call` kernel that runs the whole loop
    profile = nbt.xla.profile(fun, [x], runs=2, peaks=PEAKS)
    assert {k.name for k in report.kernels} <= {k.name for k in profile.top()}


def test_a_reduce_window_kernel_names_the_reduction_it_computes():
    # XLA's CPU compiler sums 1000 elements as 32 windows (a reduce-window kernel), then the 32
    # partial sums; the first kernel's only numbat op is in its reducer (`to_apply`)
    exercise = nbt.defn(lambda x: nbt.exp(x) / nbt.sum(nbt.exp(x)))
    report = nbt.xla.fusion_report(exercise, [nbt.iota((1000,), type="f32")])
    windows = [k for k in report.kernels if "reduce-window" in k.name]
    assert windows and all(k.numbat_ops == ("sum",) for k in windows)
    assert all(k.numbat_ops for k in report.kernels)


def test_a_shard_jit_function_is_profiled_per_device():
    code = """
    import numbat as nbt
    nbt.xla.configure(clients={"host": {"platform": "host", "device_count": 2}})
    mesh = nbt.Mesh("mesh", (2,), client="host")
    f = nbt.xla.shard_jit(lambda t: nbt.exp(t) * 2, mesh, input_shardings=[{0: [0]}])
    x = nbt.iota((1000,), type="f32")
    p = nbt.xla.profile(f, [[[x], [x]]], runs=2, peaks=nbt.xla.Peaks(1e10, 1e11))
    print(p.devices, sorted((k.device, k.numbat_ops, k.bytes_read, k.flops) for k in p.kernels))
    """
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
        env={k: v for k, v in os.environ.items() if not k.startswith(("XLA_", "JAX_"))},
    )
    assert result.returncode == 0, result.stderr
    each = "('exp', 'multiply'), 4000, 2000.0)"
    assert result.stdout.strip() == f"2 [(0, {each}, (1, {each}]"


FIXTURES = pathlib.Path(__file__).parent / "fixtures"
GPU_TRACE = FIXTURES / "gpu_layer.xplane.pb"  # built from the trace format: no GPU recorded it (make_gpu_trace.py)


def _gpu_profile(module="jit_layer"):
    """The fixture's five calls of jit_layer, read as `profile` reads a trace, on "cuda"."""
    from types import SimpleNamespace

    program = _hlo_costs.Program((FIXTURES / "gpu_layer.hlo").read_text())
    found = _trace_events.read_trace(str(GPU_TRACE), module, "cuda")
    events, unmatched = _trace_events.kernel_events(found, module, program.by_name, 5, "cuda")
    walls = [(end - start) * 1e-12 for _, start, end in found["marks"]]  # each call's time, inside its mark
    device = SimpleNamespace(platform="cuda", id=0)
    return _profile._assemble("layer", program, walls, events, 5, device, PEAKS, None, unmatched), walls


def test_the_gpu_trace_fixture_is_what_its_script_writes_and_jaxs_own_reader_reads_it():
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_gpu_trace", FIXTURES / "make_gpu_trace.py")
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    assert maker.build() == GPU_TRACE.read_bytes()
    # JAX's reader (in a child: on an H200 it aborted its process reading a trace's stats)
    code = (
        "import jax, sys\n"
        "data = jax.profiler.ProfileData.from_file(sys.argv[1])\n"
        "for p in data.planes:\n"
        "    for l in p.lines:\n"
        "        for e in l.events:\n"
        "            s = dict(e.stats)\n"
        "            print(p.name, l.name, e.name, e.duration_ns, s.get('hlo_op'), s.get('kernel_details', '')[:8])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(GPU_TRACE)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert f"/device:GPU:0 Stream #7(Kernel) {maker.GEMM} 381250.0 custom-call.1 regs:168" in lines
    assert "/device:GPU:0 Stream #7(Kernel) loop_add_maximum_fusion 97500.0 None regs:16 " in lines


def test_a_gpu_trace_parses_to_real_kernel_times_once_per_call_that_sum_to_within_the_calls_time():
    profile, walls = _gpu_profile()
    rows = {k.name: k for k in profile.kernels}
    assert set(rows) == {"custom-call.1", "loop_add_maximum_fusion"}  # not the copy, nor jit_other's kernel
    # the device's own times (cuBLAS's kernel by its annotation, the fusion by its kernel name), not the
    # host's 2.5 us launches; the middle three calls of five, runs 1 to 3 by wall time
    assert rows["custom-call.1"].seconds == pytest.approx(381.25e-6 + 0.731e-6 * 2)
    assert rows["loop_add_maximum_fusion"].seconds == pytest.approx(97.5e-6 + 0.053e-6 * 2)
    assert all(k.executions == 1 for k in profile.kernels)
    assert rows["custom-call.1"].flops == 2 * 4096**3 and profile.bound(rows["custom-call.1"]) == "compute"  # cuBLAS
    assert profile.between == pytest.approx(3e-6)
    kernels = sum(k.seconds for k in profile.top())
    assert 0 < kernels + profile.between <= profile.wall and profile.overhead > 0
    assert profile.wall == pytest.approx(sorted(walls)[2])
    assert "x0" not in str(profile) and "0.0 µs" not in str(profile)


def test_a_trace_without_the_programs_kernels_names_the_platform_and_what_it_held():
    found = _trace_events.read_trace(str(GPU_TRACE), "jit_missing", "cuda")
    with pytest.raises(nbt.xla.ProfilerError) as error:
        _trace_events.kernel_events(found, "jit_missing", {"add.1", "fusion.2"}, 5, "cuda")
    message = str(error.value)
    assert "recorded no kernel of jit_missing on cuda" in message
    assert "/device:GPU:0 (20 events on 2 lines, stats: context_id, correlation_id, hlo_module, hlo_op," in message


def test_a_gpu_trace_whose_device_kernels_name_nothing_is_an_error_not_the_hosts_launch_times():
    program = _hlo_costs.Program((FIXTURES / "gpu_layer.hlo").read_text())
    found = _trace_events.read_trace(str(GPU_TRACE), "jit_layer", "cuda")
    for event in found["events"]:
        if event[0].startswith("/device:"):
            event[2] = "kernel"  # no kernel name XLA gave, no annotation: nothing names an instruction
            event[5].pop("hlo_op", None)
    with pytest.raises(nbt.xla.ProfilerError, match="recorded no kernel of jit_layer on cuda") as error:
        _trace_events.kernel_events(found, "jit_layer", program.by_name, 5, "cuda")
    assert "kernels of jit_layer that name no instruction of it: kernel" in str(error.value)


def test_a_reader_that_dies_in_its_child_is_a_profiler_error_and_this_process_lives(tmp_path):
    crash = tmp_path / "crash.py"
    crash.write_text("import os\nos.abort()\n")
    with pytest.raises(nbt.xla.ProfilerError, match="trace of jit_layer on cuda: the child process reading it was "
                       "killed by SIGABRT; this process is untouched"):  # fmt: skip
        _trace_events.read_trace(str(GPU_TRACE), "jit_layer", "cuda", script=str(crash))
    hog = tmp_path / "hog.py"
    hog.write_text("while True:\n    pass\n")
    with pytest.raises(nbt.xla.ProfilerError, match="took longer than 2 s; the child process reading it was stopped"):
        _trace_events.read_trace(str(GPU_TRACE), "jit_layer", "cuda", timeout=2, script=str(hog))
    damaged = tmp_path / "damaged.xplane.pb"
    damaged.write_bytes(GPU_TRACE.read_bytes()[:1000])
    with pytest.raises(nbt.xla.ProfilerError, match=r"failed \(numbat.xla._xspace.TraceFormatError|failed \(.*Error"):
        _trace_events.read_trace(str(damaged), "jit_layer", "cuda")
    x = nbt.iota((4,), type="f32")
    assert nbt.xla.profile(fma, [x, x, x], runs=1, peaks=PEAKS).kernels  # and profiling still works here


def test_the_plain_python_reader_reads_a_cpu_trace_as_jax_does(tmp_path):
    x = jax.numpy.ones((64, 64))
    f = jax.jit(lambda a: jax.numpy.exp(a) @ a)
    f(x).block_until_ready()
    jax.profiler.start_trace(str(tmp_path), profiler_options=_trace_events._options())
    f(x).block_until_ready()
    jax.profiler.stop_trace()
    (path,) = tmp_path.glob("**/*.xplane.pb")
    module = f.lower(x).compile().as_text().split()[1].rstrip(",")
    ours = _trace_events.read_trace(str(path), module, "cpu")["events"]
    data = jax.profiler.ProfileData.from_file(str(path))  # a CPU trace: JAX's reader is safe here
    theirs = [
        (e.name, round(e.duration_ns * 1000), dict(e.stats)["hlo_op"])
        for p in data.planes for l in p.lines for e in l.events if dict(e.stats).get("hlo_module") == module
    ]  # fmt: skip
    assert theirs and [(label, duration, stats["hlo_op"]) for _, _, label, _, duration, stats in ours] == theirs


def test_kernels_of_the_program_that_name_no_instruction_of_it_are_a_note_under_the_table():
    from types import SimpleNamespace

    program = _hlo_costs.Program((FIXTURES / "gpu_layer.hlo").read_text())
    found = _trace_events.read_trace(str(GPU_TRACE), "jit_layer", "cuda")
    start = found["marks"][0][1] + 1_000_000  # 1 us into the first call: a thunk XLA's text does not name
    found["events"] += [
        ["/device:GPU:0", "Stream #7(Kernel)", "k", start + 10**9 * run, 10**6, {"hlo_module": "jit_layer", "hlo_op": "cmd"}]
        for run in range(5)
    ]  # fmt: skip
    events, unmatched = _trace_events.kernel_events(found, "jit_layer", program.by_name, 5, "cuda")
    assert unmatched == ["cmd"] and {op for _, op, *_ in events} == {"custom-call.1", "loop_add_maximum_fusion"}
    walls = [(end - begin) * 1e-12 for _, begin, end in found["marks"]]
    profile = _profile._assemble(
        "layer", program, walls, events, 5, SimpleNamespace(platform="cuda", id=0), PEAKS, None, unmatched
    )
    assert profile.notes[-1].startswith(
        "kernels of jit_layer the trace names by no instruction of it"
    ) and "cmd" in str(profile)


def test_a_device_plane_without_streams_gives_its_xla_ops_line_and_with_streams_only_them():
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_gpu_trace", FIXTURES / "make_gpu_trace.py")
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    gpu = maker.Plane(3, "/device:GPU:0")
    ops = gpu.line(1, "XLA Ops")
    gpu.event(ops, "fusion.2", 1000.0, 500.0, {"hlo_module": "jit_f", "hlo_op": "fusion.2"})
    found = _xspace.read(maker.field(1, gpu.encode()), "jit_f")
    assert [(e[1], e[2], e[4]) for e in found["events"]] == [("XLA Ops", "fusion.2", 500_000)]
    stream = gpu.line(7, "Stream #7(Kernel)")
    gpu.event(stream, "fusion_2", 1000.0, 480.0, {})
    found = _xspace.read(maker.field(1, gpu.encode()), "jit_f")
    assert [(e[1], e[2], e[4]) for e in found["events"]] == [("Stream #7(Kernel)", "fusion_2", 480_000)]


def test_without_run_ids_each_event_belongs_to_the_call_whose_host_mark_holds_it(monkeypatch):
    # a GPU's kernel events carry no run id: the profile marks each call on the host; here a
    # real CPU trace with its run ids dropped is split by those marks as by the run ids
    read = _trace_events.read_trace
    seen = {}

    def without_run_ids(path, module, platform):
        found = read(path, module, platform)
        seen["ids"] = [e[5].pop("run_id") for e in found["events"]]
        seen["marks"] = len(found["marks"])
        return found

    mark_of = _trace_events._mark_of
    runs = []
    monkeypatch.setattr(_trace_events, "read_trace", without_run_ids)
    monkeypatch.setattr(_trace_events, "_mark_of", lambda event, marks: runs.append(mark_of(event, marks)) or runs[-1])
    profile = nbt.xla.profile(fma, [nbt.iota((1000,), type="f32")] * 3, runs=4, peaks=PEAKS)
    assert seen["marks"] == 4 and len(set(seen["ids"])) == 4
    assert set(runs) == {0, 1, 2, 3}  # by the marks
    assert [k.executions for k in profile.kernels] == [1] * len(profile.kernels) and profile.kernels[0].seconds > 0


def test_events_without_run_ids_or_marks_are_split_into_equal_runs_in_time_order():
    # what a platform whose kernel events carry no run id and no marks gives: each run's kernels in turn
    events = [[None, 0, name, float(start), 1.0] for start, name in enumerate(["a", "b", "a", "b", "a", "b"])]
    runs = _trace_events._with_runs(events, [], 3, "jit_f", "tpu")
    assert [key[0] for key, *_ in runs] == [0, 0, 1, 1, 2, 2]
    with pytest.raises(nbt.xla.ProfilerError, match="jit_f on tpu: expected 4 runs on device 0"):
        _trace_events._with_runs(events, [], 4, "jit_f", "tpu")


def test_the_fused_view_says_why_reduce_max_has_a_conditional_kernel_and_a_split_reduction():
    from numbat.notebook._graph import graph

    t = nbt.iota((1000,), type="f32")
    report = nbt.xla.fusion_report(softmax, [t])
    (cond,) = [k for k in report.kernels if k.opcode == "conditional"]
    assert cond.numbat_ops == ("reduce_max",) and cond.note.startswith("reduce_max's NaN check")
    assert "reduce_max's NaN check" in str(report)
    shown = graph({"softmax": softmax, "t": t}, ["softmax", "t"], True, None)
    assert f"{cond.name}: reduce_max's NaN check" in shown["text/plain"]
    assert "step 1 of a split reduction" in shown["text/html"]


def test_a_grads_kernels_name_the_ops_they_differentiate_and_merged_ops_each():
    x = nbt.iota((8, 4), type="f32")
    step = nbt.defn(lambda w: nbt.grad(lambda w: nbt.sum(nbt.tanh(nbt.dot(x, w))))(w))
    ops = {op for k in nbt.xla.fusion_report(step, [nbt.iota((4, 3), type="f32")]).kernels for op in k.numbat_ops}
    assert {"dot", "tanh", "grad(dot)", "grad(tanh)"} <= ops, ops  # JAX scopes them jvp(dot), transpose(jvp(dot))
    assert not any("(" in op and not op.startswith("grad(") or ";" in op for op in ops), ops


def test_profile_refuses_bad_arguments_and_an_active_trace_with_numbat_errors():
    x = nbt.iota((4,), type="f32")
    with pytest.raises(nbt.ArgumentError, match="runs must be a positive int"):
        nbt.xla.profile(fma, [x, x, x], runs=0)
    with pytest.raises(nbt.ArgumentError, match="peaks must be"):
        nbt.xla.profile(fma, [x, x, x], peaks=(1, 2))
    with pytest.raises(nbt.ArgumentError, match="not templates"):
        nbt.xla.profile(fma, [nbt.template((4,), "f32")] * 3)
    with pytest.raises(nbt.ArgumentError, match="bandwidth must be a positive"):
        nbt.xla.Peaks(bandwidth=0, flops=1)
    with pytest.raises(nbt.ArgumentError, match="compiler='evaluator', op by op"):
        nbt.xla.profile(nbt.defn(fma.fun, compiler="evaluator"), [x, x, x])
    directory = tempfile.mkdtemp()
    jax.profiler.start_trace(directory)
    try:
        with pytest.raises(nbt.xla.ProfilerError, match="stop the other trace"):
            nbt.xla.profile(fma, [x, x, x], runs=1, peaks=PEAKS)
    finally:
        jax.profiler.stop_trace()
    assert nbt.xla.profile(fma, [x, x, x], runs=1, peaks=PEAKS).kernels  # the profiler works again


def test_a_platform_whose_trace_holds_no_kernel_events_is_a_numbat_error(monkeypatch):
    monkeypatch.setattr(_trace_events, "read_trace", lambda path, module, platform: _xspace.read(b"", module))
    x = nbt.iota((4,), type="f32")
    with pytest.raises(nbt.xla.ProfilerError, match="recorded no kernel of jit_fma on cpu.*The trace held: no planes"):
        nbt.xla.profile(fma, [x, x, x], runs=1, peaks=PEAKS)


def _sanitized(text: str) -> str:
    config = (pathlib.Path(__file__).parent.parent / "notebooks" / "sanitize.cfg").read_text()
    for regex, replace in get_sanitize_patterns(config):
        text = re.sub(regex, replace, text)
    return text


def test_the_text_forms_rows_are_the_same_from_run_to_run_once_nbval_sanitizes_them():
    """Their order follows the times (longest first), and a note says when a kernel beat a
    ceiling: a notebook shows a profile with NBVAL_IGNORE_OUTPUT, as tutorial 05 does."""
    t = nbt.iota((1000,), type="f32")
    first, second = (str(nbt.xla.profile(softmax, [t], runs=3, peaks=PEAKS)) for _ in range(2))
    assert f"{_profile.OUTSIDE}  " in first and "ridge at 2.5 FLOPs/byte" in first
    rows = lambda text: sorted(line for line in _sanitized(text).splitlines() if " above the given " not in line)
    assert re.search(r"\d µs", first) and rows(first) == rows(second)


def test_rows_come_longest_first_and_top_keeps_the_longest():
    a = nbt.iota((256, 256), type="f32") / 1e5
    profile = nbt.xla.profile(matmul_tail, [a, a], runs=3, peaks=PEAKS)
    assert [k.seconds for k in profile.top()] == sorted((k.seconds for k in profile.top()), reverse=True)
    assert profile.top(1) == profile.top()[:1] and len(profile.top(1)) == 1
    names = [row[0] for row in profile.rows()][: len(profile.kernels)]
    assert names == [k.name for k in profile.ordered()]


def test_times_are_described_as_what_they_are():
    # The mean of the middle half of the runs by wall time, not a median.
    for doc in (_profile.__doc__, _profile.profile.__doc__, _profile.KernelTime.__doc__):
        assert "middle half" in doc and "median time" not in doc
    assert any("mean of the middle half" in line for line in _profile.LEGEND)


def test_the_numbat_ops_column_is_capped():
    ops = tuple(f"operation_{i}" for i in range(40))
    assert len(_profile._ops(ops)) <= _profile._OPS_WIDTH and _profile._ops(ops).endswith("more")


def test_a_kernel_faster_than_a_measured_ceiling_raises_it_and_says_why():
    low = nbt.xla.Peaks(bandwidth=1e3, flops=1e3, device="cpu", source="cached")  # beaten by any kernel
    x = nbt.iota((1000,), type="f32")
    profile = nbt.xla.profile(fma, [x, x, x], runs=3, peaks=low)
    assert profile.peaks.source == "raised" and "raised to this profile's fastest kernels" in str(profile)
    assert all(k.bandwidth <= profile.peaks.bandwidth and k.flop_rate <= profile.peaks.flops for k in profile.kernels)
    assert any("above the measured memory ceiling of 0.0 GB/s" in note for note in profile.notes)
    assert "fit in the CPU's L1 cache" in " ".join(profile.notes) or not _peaks.cache_level(24_000)
    given = nbt.xla.profile(fma, [x, x, x], runs=3, peaks=dataclasses.replace(low, source="given"))
    assert given.peaks == dataclasses.replace(low, source="given") and "above the given" in str(given)


def test_peaks_are_measured_once_per_machine_and_then_read_from_the_data_directory(monkeypatch, tmp_path):
    # A data directory of its own: peaks another test measured for real would be kept as the best.
    monkeypatch.setenv("NUMBAT_DATA_DIR", str(tmp_path / "data"))
    measured = []
    monkeypatch.setattr(_peaks, "measure", lambda device: measured.append(device) or nbt.xla.Peaks(3e9, 7e9))
    device = jax.devices()[0]
    first, second = _peaks.peaks(device, remeasure=True), _peaks.peaks(device)
    assert (first.bandwidth, first.flops) == (3e9, 7e9)
    assert len(measured) == 1 and (second.bandwidth, second.flops) == (3e9, 7e9)
    assert second.source == "cached" and "(measured on this machine)" in str(second)
    monkeypatch.setattr(_peaks, "measure", lambda device: nbt.xla.Peaks(1e9, 9e9))  # a busier machine
    again = nbt.xla.Peaks.of(device, remeasure=True)
    assert (again.bandwidth, again.flops) == (3e9, 9e9)  # the best of each figure is kept


def test_peak_probes_on_a_gpu_move_gigabytes_past_its_l2_and_time_bf16_and_f32_products():
    # an H200 as JAX describes it (139 GiB allocator limit, 60 MiB of L2) and a small GPU; on the
    # H200 the old probes (sums of 64 and 128 MiB, f32 products of 4096) measured 1,026 GB/s and
    # 247.7 TFLOP/s while a softmax moved 4.1 TB/s and a bf16 product ran at 736 TFLOP/s
    h200 = _peaks.probe_sizes({"platform": "cuda", "memory": 139 << 30})
    assert [size >> 30 for size in h200["bandwidth"]] == [1, 2, 4]  # each over 16 times the L2
    assert h200["matmul"] == (("bfloat16", 4096), ("bfloat16", 8192), ("float32", 4096), ("float32", 8192))
    small = _peaks.probe_sizes({"platform": "rocm", "memory": 4 << 30})
    assert all(6 * size <= 4 << 30 for size in small["bandwidth"]) and small["bandwidth"]
    assert all(3 * n * n * 4 * 4 <= 4 << 30 for _, n in small["matmul"]) and small["matmul"]
    cpu = _peaks.probe_sizes({"platform": "cpu", "memory": 0})
    assert cpu == {
        "bandwidth": (64 << 20, 128 << 20),
        "matmul": (("float32", 256), ("float32", 512), ("float32", 1024)),
    }


def test_tf32_is_named_where_f32_products_run_as_tf32():
    from types import SimpleNamespace

    def gpu(capability):
        return SimpleNamespace(platform="cuda", compute_capability=capability)

    assert _peaks.tf32(gpu("9.0")) and _peaks.tf32(gpu("8.0")) and not _peaks.tf32(gpu("7.5"))
    assert not _peaks.tf32(jax.devices("cpu")[0])
    with jax.default_matmul_precision("highest"):
        assert not _peaks.tf32(gpu("9.0"))
    text = _peaks._detail(4 << 30, {"bfloat16": 7.3e14, "float32": 3.6e14}, True)
    assert text.endswith("f32 360.0 TFLOP/s (f32 runs as TF32 at the default precision)")


def test_measured_peaks_say_what_the_probes_measured_and_are_keyed_on_the_probe(monkeypatch):
    monkeypatch.setattr(_peaks, "probe_sizes", lambda machine: {"bandwidth": (1 << 20,), "matmul": (("float32", 64),)})
    device = jax.devices("cpu")[0]
    peaks = _peaks.measure(device)
    assert peaks.source == "measured" and peaks.detail.startswith("memory from 1 MiB; f32 matmul ")
    assert "; memory from 1 MiB; f32 matmul" in str(peaks)
    machine = _peaks.description(device)
    assert machine["probe"] == _peaks.PROBE and machine["memory"] == 0 and machine["tf32"] is False


def test_the_views_escape_names_shade_the_graph_and_plot_each_kernel():
    profile = nbt.xla.profile(lambda t: nbt.exp(t) * 2, [nbt.iota((100,), type="f32")], runs=2, peaks=PEAKS)
    profile = dataclasses.replace(profile, function="<b>tricky</b>")  # a defn's name is sanitized; the view is too
    bundle = profile._repr_mimebundle_()
    assert "<b>tricky" not in bundle["text/html"] and "&lt;b&gt;tricky" in bundle["text/html"]
    assert "fill:#e6550d" in bundle["text/html"] and "class='numbat-roofline'" in bundle["text/html"]
    assert bundle["text/plain"] == str(profile)
    assert all(f"{html.escape(line)}<br>" in bundle["text/html"] for line in _profile.LEGEND)
    svg = _profile_view.graph_svg(profile)
    (kernel,) = profile.kernels
    assert f"[{kernel.name} " in svg and svg.count("fill-opacity") == len(kernel.nodes)
    t = nbt.iota((1000,), type="f32")
    stable = nbt.xla.profile(softmax, [t], runs=2, peaks=PEAKS)
    by_node = stable.node_shares()
    (node,) = {n for k in stable.top() if "reduce_max" in k.numbat_ops for n in k.nodes}
    kernels, share = by_node[node]  # reduce_max's node: its three kernels, their shares summed
    assert len(kernels) == 3 and share == pytest.approx(sum(stable.share(k) for k in kernels))
    assert f"[{kernels[0].name} +2 " in _profile_view.graph_svg(stable)
    figure = _profile_view.roofline(profile)
    assert len(figure.axes[0].collections) == 1  # one point per kernel with FLOPs


def test_the_profile_magic_shows_the_table_graph_and_roofline_and_explains_mistakes():
    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    ip = InteractiveShell.instance(config=config)
    code = """
    %load_ext numbat
    import numbat as nbt
    f = nbt.defn(lambda t: nbt.exp(t) + 1)
    x = nbt.iota((100,), type="f32")
    """
    ip.run_cell(textwrap.dedent(code))
    try:
        with capture_output() as shown:
            ip.run_line_magic("numbat", "profile f x --runs 2")
        (output,) = shown.outputs
        assert _profile.OUTSIDE in output.data["text/plain"]
        assert "numbat-roofline" in output.data["text/html"] and "numbat-expr" in output.data["text/html"]
        with capture_output() as wrong:
            ip.run_line_magic("numbat", "profile f missing")
        assert "%numbat profile: 'missing' is not defined" in wrong.stderr
    finally:
        ip.run_line_magic("unload_ext", "numbat")


def test_the_ceilings_are_the_best_of_several_sizes(monkeypatch):
    # Each probe's best time, in the order measure() takes them: the sums of 64 and 128 MiB,
    # then the CPU's three matmul sizes (256, 512, 1024).
    times = iter([1.0, 1.0, 1.0, 1e-3, 1.0])
    monkeypatch.setattr(_peaks, "_best", lambda fun, *args: next(times))
    peaks = _peaks.measure(jax.devices()[0])
    assert peaks.bandwidth == 128 * 2**20  # the larger sum, read in the same second
    assert peaks.flops == 2 * 512**3 / 1e-3 and peaks.source == "measured"


def test_numbats_own_python_is_a_row_apart_from_the_runtime():
    x = nbt.iota((1000,), type="f32")
    profile = nbt.xla.profile(fma, [x, x, x], runs=4, peaks=PEAKS)
    labels = [label for label, _ in profile.outside()]
    assert labels == ["(between kernels)", _profile.OUTSIDE, _profile.NUMBAT]
    assert profile.numbat is not None and profile.numbat >= 0
    assert sum(seconds for _, seconds in profile.outside()) == pytest.approx(profile.between + profile.overhead)
    assert f"{_profile.NUMBAT}  " in str(profile)
    numbers = nbt.xla.profile(lambda x, y: x * y, [x, 2.0], runs=4, peaks=PEAKS)  # not all tensors: not split
    assert numbers.numbat is None and _profile.NUMBAT + "  " not in str(numbers)


def _planted(path):
    return {
        "deeply nested JSON": lambda: path.write_text("[" * 100_000 + "]" * 100_000),
        "a file past 1 MiB": lambda: path.write_bytes(b" " * ((1 << 20) + 1)),
        "a link to /dev/zero": lambda: path.symlink_to("/dev/zero"),
        "a FIFO": lambda: os.mkfifo(path),
    }


@pytest.mark.parametrize("plant", list(_planted(pathlib.Path("x"))))
def test_a_planted_peaks_file_is_ignored_with_a_warning_and_the_peaks_measured_again(plant, monkeypatch, tmp_path):
    # Issue 39: a raw RecursionError, a raw MemoryError, 2.8 GiB eaten, nbt.xla.profile hung.
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    monkeypatch.setenv("NUMBAT_DATA_DIR", str(data))
    monkeypatch.setattr(_peaks, "measure", lambda device: nbt.xla.Peaks(3e9, 7e9, "cpu", "measured"))
    path = data / "peaks.json"
    _planted(path)[plant]()
    start = time.perf_counter()
    with pytest.warns(_peaks.PeaksWarning, match=r"numbat ignored .*peaks.json and measures the peaks again"):
        found = _peaks.peaks(jax.devices()[0])
    assert (found.bandwidth, found.source) == (3e9, "measured") and time.perf_counter() - start < 2


def test_peaks_in_a_data_directory_others_can_write_to_are_not_read(monkeypatch, tmp_path):
    data = tmp_path / "data"
    monkeypatch.setenv("NUMBAT_DATA_DIR", str(data))
    monkeypatch.setattr(_peaks, "measure", lambda device: nbt.xla.Peaks(3e9, 7e9, "cpu", "measured"))
    _peaks.peaks(jax.devices()[0])  # measured and written
    assert _peaks.peaks(jax.devices()[0]).source == "cached"
    data.chmod(0o777)
    with pytest.warns(_peaks.PeaksWarning, match=r"has mode 0o777: others could replace"):
        assert _peaks.peaks(jax.devices()[0]).source == "measured"
