"""`numbat doctor --check`: a self-check on the machine at hand, in a few minutes (what runs
on a GPU is proven on one). It runs, on the default device (a GPU where there is one):

- `tests`: the GPU-relevant test files (`GPU_TESTS`) with pytest in a child process, where
  the checkout's `tests/` folder is beside the package (an installed package has none);
- `tutorials`: each tutorial notebook executed under the Numbat kernel (`notebooks/`);
- `profile`: `nbt.xla.profile` of a softmax and of a dot layer: every kernel timed (no
  `0.0 µs`, no `x0`), the kernels within each call's time;
- `peaks`: the machine's ceilings, which no kernel of the profiles may beat on a GPU;
- `stop`: an endless interruptible `while_loop` stopped by a SIGINT from a timer thread;
- `memory`: the memory settings applied in a child process (`preallocate=False`,
  `memory_fraction=0.2` on a GPU; a CPU has none, so the child applies the host's
  `device_count` and the item says so);
- `bench`: `numbat bench`'s softmax and cached-call ratios against `jax.jit`.

Each item reports PASS, FAIL or SKIP with its figures; the command exits 1 when an item
fails or the whole took more than `BUDGET` seconds. `quick=True` (`--quick`) skips the tests
and the tutorials and uses small sizes: what CI runs on a CPU.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import threading
import time

import jax

import numbat as nbt

from ..xla import _peaks
from . import _bench

BUDGET = 300.0  # seconds the whole check may take
ROOT = pathlib.Path(__file__).resolve().parents[2]  # a checkout's root: tests/ and notebooks/ beside numbat/
# The test files that exercise what differs on a GPU: numerics per platform, precision, the
# profiler's trace, memory and clients, interrupts, DLPack and JAX interop, the allocator.
GPU_TESTS = (
    "tests/test_profile.py",
    "tests/test_interrupt.py",
    "tests/test_allocation.py",
    "tests/test_options.py",
    "tests/test_jax_interop.py",
    "tests/test_ops_elementwise.py",
    "tests/test_differential_ops.py",
    "tests/test_linalg_conventions.py",
    "tests/test_grad.py",
)
RATIO_LIMIT = 1.3  # numbat defn against jax.jit: slower than this fails, unless by at most EXTRA_LIMIT_US
EXTRA_LIMIT_US = 10.0  # numbat's Python per call: a cached call of a microsecond kernel is mostly dispatch


@dataclasses.dataclass
class Item:
    """One line of the report."""

    name: str
    status: str  # "PASS", "FAIL" or "SKIP"
    detail: str
    seconds: float = 0.0


def run_tests(root: pathlib.Path = ROOT, files=GPU_TESTS, timeout: float = 240.0, workers: int | None = None) -> Item:
    """`files` under `root` run by pytest in a child process (preallocation off)."""
    present = [name for name in files if (root / name).is_file()]
    if not present:
        return Item("tests", "SKIP", f"no test files at {root / 'tests'}: run the check in a checkout to include them")
    workers = workers or min(os.cpu_count() or 1, 8)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider", *present]
    command += ["-n", str(workers)] if workers > 1 else ["-n", "0"]
    environment = {**os.environ, "XLA_PYTHON_CLIENT_PREALLOCATE": "false"}
    try:
        done = subprocess.run(
            command, cwd=root, capture_output=True, text=True, timeout=timeout, env=environment, check=False
        )
    except subprocess.TimeoutExpired:
        return Item("tests", "FAIL", f"{len(present)} files did not finish in {timeout:.0f} s")
    summary = pytest_summary(done.stdout)
    failed = [line[7:] for line in done.stdout.splitlines() if line.startswith("FAILED ")][:5]
    detail = f"{summary} ({len(present)} files: {', '.join(pathlib.Path(n).stem for n in present)})"
    if failed:
        detail += "; first failures: " + "; ".join(failed)
    return Item("tests", "PASS" if done.returncode == 0 else "FAIL", detail)


def pytest_summary(output: str) -> str:
    """pytest's last line, without its decoration.

    >>> pytest_summary("...\\n=== 3 passed, 1 failed in 2.50s ===\\n")
    '3 passed, 1 failed in 2.50s'
    """
    lines = [line.strip("= ") for line in output.strip().splitlines() if re.search(r"\d+ (passed|failed|error)", line)]
    return lines[-1] if lines else "pytest printed no summary"


def run_tutorials(notebooks: list[pathlib.Path] | None = None, timeout: float = 240.0) -> Item:
    """Each tutorial executed under the Numbat kernel, on the default device."""
    if notebooks is None:
        notebooks = sorted((ROOT / "notebooks").glob("0*.ipynb"))
    if not notebooks:
        return Item("tutorials", "SKIP", f"no tutorials at {ROOT / 'notebooks'}: run the check in a checkout")
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    passed, failed, cells = [], [], 0
    start = time.monotonic()
    for path in notebooks:
        left = timeout - (time.monotonic() - start)
        if left <= 0:
            failed.append(f"{path.name}: not run, out of time")
            continue
        notebook = nbformat.read(path, as_version=4)
        client = NotebookClient(
            notebook,
            timeout=max(int(left), 1),
            kernel_name="numbat",
            resources={"metadata": {"path": str(path.parent)}},
        )
        try:
            client.execute()
            passed.append(path.name)
        except CellExecutionError as error:
            failed.append(f"{path.name}: {str(error).strip().splitlines()[-1][:200]}")
        except Exception as error:  # noqa: BLE001 (a kernel that died or timed out is a failure to report)
            failed.append(f"{path.name}: {type(error).__name__}: {str(error)[:200]}")
        cells += sum(cell.cell_type == "code" for cell in notebook.cells)
    detail = f"{len(passed)} of {len(notebooks)} ran clean ({cells} code cells)"
    if failed:
        detail += "; " + "; ".join(failed)
    return Item("tutorials", "FAIL" if failed else "PASS", detail)


@nbt.defn
def _softmax(t):
    return nbt.exp(t - nbt.reduce_max(t)) / nbt.sum(nbt.exp(t - nbt.reduce_max(t)))


@nbt.defn
def _layer(x, w, b):
    return nbt.max(nbt.dot(x, w) + b, 0.0)


def run_profile(quick: bool, peaks: _peaks.Peaks) -> tuple[Item, list]:
    """Profiles a softmax and a dot layer; every kernel must have a time and a count."""
    gpu = jax.default_backend() != "cpu"
    size, n = (1 << 24, 4096) if gpu and not quick else (1 << 16, 256)
    programs = {
        f"softmax f32[{size}]": (_softmax, [nbt.iota((size,), type="f32") / size]),
        f"layer {n}x{n}": (_layer, [nbt.iota((n, n), type="f32") / n**2] * 2 + [nbt.iota((n,), type="f32")]),
    }
    parts, problems, profiles = [], [], []
    for label, (fun, args) in programs.items():
        try:
            profile = nbt.xla.profile(fun, args, runs=5, peaks=peaks)
        except nbt.xla.ProfilerError as error:
            problems.append(f"{label}: {error}")
            continue
        profiles.append(profile)
        kernels = sum(k.seconds for k in profile.top())
        silent = [k.name for k in profile.top() if k.seconds <= 0 or k.executions < 1]
        if silent:
            problems.append(f"{label}: no time or count for {', '.join(silent)}")
        if kernels + profile.between > profile.wall * 1.001:
            problems.append(f"{label}: kernels {kernels * 1e6:.1f} µs exceed the call's {profile.wall * 1e6:.1f} µs")
        top = profile.top(1)[0]
        parts.append(
            f"{label}: {len(profile.top())} kernels, {kernels * 1e6:.1f} of {profile.wall * 1e6:.1f} µs per call; "
            f"longest {top.name} {top.seconds * 1e6:.1f} µs x{top.executions:g}"
        )
    return Item("profile", "FAIL" if problems else "PASS", "; ".join(parts + problems)), profiles


def run_peaks(peaks: _peaks.Peaks, profiles: list) -> Item:
    """The ceilings, and whether a profiled kernel beat them (on a GPU, a probe too small)."""
    detail = f"{peaks.bandwidth / 1e9:.1f} GB/s, {peaks.flops / 1e12:.2f} TFLOP/s ({peaks.detail or peaks.source})"
    beaten = [note for p in profiles for note in p.notes if "above the measured" in note]
    if beaten and jax.default_backend() != "cpu":
        return Item("peaks", "FAIL", f"{detail}; a kernel beat them: {beaten[0]}")
    if beaten:  # a CPU's caches beat its memory: the profile's note names the cache
        detail += f"; {len(beaten)} kernel(s) ran from a CPU cache, faster than memory (the profile says so)"
    return Item("peaks", "PASS", detail)


@nbt.defn(interruptible=True)
def _endless(x):
    return nbt.while_loop(lambda s: s[1] >= 0, lambda s: (s[0] + 1, s[1] * 0.5), (0, x))


def run_stop(after: float = 0.5, limit: float = 10.0) -> Item:
    """An endless interruptible loop, stopped by a SIGINT a timer thread sends."""
    if threading.current_thread() is not threading.main_thread():
        return Item("stop", "SKIP", "SIGINT reaches only the main thread: run the check there")
    timer = threading.Timer(after, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        _endless(nbt.tensor(1.0))
    except nbt.Interrupted as error:
        took = time.monotonic() - start
        status = "PASS" if took < limit else "FAIL"
        message = str(error).split(": interrupted")[0]  # the loop and its count; the advice is for notebooks
        return Item("stop", status, f"{message}, {took - after:.2f} s after the SIGINT")
    finally:
        timer.cancel()
    return Item("stop", "FAIL", "the endless loop returned")


_MEMORY_CHILD = r"""
import json, sys
import numbat as nbt
platform = sys.argv[1]
if platform == "cpu":
    nbt.xla.configure(clients={"host": {"platform": "host", "device_count": 2}})
    print(json.dumps({"devices": len(nbt.xla.devices())}))
else:
    options = {"platform": platform, "preallocate": False, "memory_fraction": 0.2}
    nbt.xla.configure(clients={platform: options}, default_client=platform)  # numbat's client name: cuda, rocm
    nbt.iota((1024,), type="f32")  # the client starts with its settings
    row = nbt.xla.memory(platform)[0]
    print(json.dumps({"limit": row["limit"], "in_use": row["in_use"]}))
"""


def run_memory(timeout: float = 120.0) -> Item:
    """The memory settings applied in a fresh child process."""
    device = jax.devices()[0]
    # numbat's name for the default client ("cuda" where JAX's device says "gpu"), or "cpu" for the host
    client = next((name for name, c in nbt.xla.clients().items() if c.get("default")), "host")
    platform = "cpu" if client == "host" else client
    environment = {k: v for k, v in os.environ.items() if not k.startswith("XLA_PYTHON_CLIENT_")}
    try:
        done = subprocess.run(
            [sys.executable, "-c", _MEMORY_CHILD, platform],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=environment,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return Item("memory", "FAIL", f"the child did not finish in {timeout:.0f} s")
    if done.returncode != 0:
        return Item("memory", "FAIL", f"the child failed: {(done.stderr.strip().splitlines() or ['?'])[-1][:300]}")
    found = json.loads(done.stdout.strip().splitlines()[-1])
    if platform == "cpu":
        ok = found["devices"] == 2
        return Item("memory", "PASS" if ok else "FAIL", f"no GPU here: the child applied the host's device_count=2 "
                    f"and has {found['devices']} devices (GPU memory settings not exercised)")  # fmt: skip
    total = _peaks.device_memory(device) / float(os.environ.get("XLA_PYTHON_CLIENT_MEM_FRACTION", "0.75"))
    share = found["limit"] / total if total else 0.0
    ok = abs(share - 0.2) < 0.03 and found["in_use"] < (1 << 30)
    detail = f"memory_fraction=0.2 gave {found['limit'] / 2**30:.1f} GiB ({share:.3f} of {total / 2**30:.0f} GiB)"
    return Item("memory", "PASS" if ok else "FAIL", f"{detail}, {found['in_use'] / 2**20:.0f} MiB in use")


def run_bench(quick: bool) -> Item:
    """`numbat bench`'s softmax (f32) and cached-call ratios of numbat defn to jax.jit."""
    gpu = jax.default_backend() != "cpu"
    size = 1 << 20 if quick else (1 << 26 if gpu else 1 << 20)
    rounds = 12 if quick else 60
    results = _bench.run("softmax", size=size, rounds=rounds) + _bench.run("dispatch", rounds=rounds)
    ratios = [r for result in results for r in result["ratios"] if r["reference"].startswith("jax.jit")]
    ratios = [r for r in ratios if "f64" not in r["numbat"]]
    parts = [f"{r['numbat']} / {r['reference']} = {r['ratio']:.2f}x (+{r['extra_us']:.1f} µs)" for r in ratios]
    slow = [r for r in ratios if r["ratio"] > RATIO_LIMIT and r["extra_us"] > EXTRA_LIMIT_US]
    limit = f"limit {RATIO_LIMIT}x or {EXTRA_LIMIT_US:g} µs more per call; softmax of {size:,}"
    return Item("bench", "FAIL" if slow else "PASS", f"{'; '.join(parts)} ({limit})")


def check(quick: bool = False, out=None) -> int:
    """Runs every item, prints the report to `out` (stdout), returns the exit code."""
    out = out or sys.stdout
    device = jax.devices()[0]
    print(f"numbat self-check on {device.platform}:{device.id} {device.device_kind} (jax {jax.__version__}; "
          f"{'quick' if quick else 'full'} scope)", file=out, flush=True)  # fmt: skip
    start = time.monotonic()
    items: list[Item] = []

    def timed(fun, *args) -> Item:
        begin = time.monotonic()
        try:
            item = fun(*args)
        except Exception as error:  # noqa: BLE001 (an item that raises is a failed item; the others still run)
            item = Item(
                getattr(fun, "__name__", "item").removeprefix("run_"), "FAIL", f"{type(error).__name__}: {error}"
            )
        item.seconds = time.monotonic() - begin
        items.append(item)
        print(f"  {item.status:<4}  {item.name:<9}  {item.detail} [{item.seconds:.1f} s]", file=out, flush=True)
        return item

    if quick:
        items.append(Item("tests", "SKIP", "quick scope"))
        items.append(Item("tutorials", "SKIP", "quick scope"))
        for item in items:
            print(f"  {item.status:<4}  {item.name:<9}  {item.detail}", file=out)
    else:
        timed(run_tests)
        timed(run_tutorials)
    peaks = _peaks.Peaks.of(device)
    profiles: list = []

    def profile_item() -> Item:
        item, found = run_profile(quick, peaks)
        profiles.extend(found)
        return item

    profile_item.__name__ = "run_profile"
    timed(profile_item)
    timed(run_peaks, peaks, profiles)
    timed(run_stop)
    timed(run_memory)
    timed(run_bench, quick)
    line, code = verdict(items, time.monotonic() - start)
    print(line, file=out)
    return code


def verdict(items: list[Item], took: float) -> tuple[str, int]:
    """The report's last line and the exit code: 1 when an item failed or the check took
    more than `BUDGET` seconds.

    >>> verdict([Item("stop", "PASS", ""), Item("tests", "SKIP", "")], 301.0)
    ('result: 1 passed, 0 failed, 1 skipped in 301.0 s (over the 300 s budget)', 1)
    >>> verdict([Item("stop", "FAIL", "")], 20.0)
    ('result: 0 passed, 1 failed, 0 skipped in 20.0 s', 1)
    """
    counts = {status: sum(i.status == status for i in items) for status in ("PASS", "FAIL", "SKIP")}
    over = took > BUDGET
    line = f"result: {counts['PASS']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped in {took:.1f} s"
    return line + (f" (over the {BUDGET:.0f} s budget)" if over else ""), 1 if counts["FAIL"] or over else 0
