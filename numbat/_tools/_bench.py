"""`numbat bench`: numbat against the library underneath, timed interleaved in one run.

Each suite is a list of comparisons; a comparison times a few callables round-robin
(one call of each per round, so drift in the machine's speed hits all alike) and
reports Benchee's columns: ips, average, deviation, median, 99th percentile, and how
many times slower each is than the fastest. The table ranks by the median, so ips
(1 / median), the order and the "x slower" column agree. The ratio lines compare two
cases round by round, timed as a pair: the median over rounds of their times' ratio in
the same round (`_bench_timing.paired_ratio`), so a burst of load on the machine, which
slows both calls of a round, cancels. They name numbat first, so they cannot be read backwards:
"numbat defn is 1.07x slower than jax.jit". Under each table, each row says what it measures.
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import jax
import jax.numpy as jnp
import numpy as np

import numbat as nbt

from .._defn import _interrupt
from ..notebook import _html, _strip
from . import _bench_kernels
from ._bench_timing import format_time, measure, paired_difference, paired_ratio, samples, summarize

SUITES = ("softmax", "dispatch", "eager", "trace", "notebook", "interrupt", "kernels")
_CALLS_PER_SAMPLE = 10  # calls of a microsecond or two are timed ten in a row (`_bench_timing`)


def _comparison(title: str, cases: dict, ratios: list[tuple[str, str]], rounds: int, calls: int = 1) -> dict:
    times = samples(cases, rounds, calls=calls)
    return {
        "title": title,
        "stats": summarize(times),
        "ratios": [_ratio(cases, times, a, b, rounds, calls) for a, b in ratios],
    }


def _ratio(cases: dict, times: dict, ours: str, theirs: str, rounds: int, calls: int) -> dict:
    """`ours` against `theirs`, paired round by round. In a table of more cases the two are
    timed again on their own: there each case always runs after the same other one, and
    pays for what that one leaves (eager softmax frees four buffers), every round."""
    if len(cases) > 2:
        times = samples({ours: cases[ours], theirs: cases[theirs]}, rounds, calls=calls)
    stats = summarize({ours: times[ours], theirs: times[theirs]})
    return {
        "numbat": ours,
        "reference": theirs,
        "ratio": paired_ratio(times, ours, theirs),
        "extra_us": paired_difference(times, ours, theirs),
        "numbat_us": stats[ours]["median_us"],
        "reference_us": stats[theirs]["median_us"],
    }


def softmax_suite(size: int, rounds: int) -> list[dict]:
    """The seed's table: softmax over `size` values, NumPy ("pure"), XLA eager and defn, f32 and f64."""
    return [_softmax_comparison(type_, size, rounds) for type_ in ("f32", "f64")]


def _softmax_comparison(type_: str, size: int, rounds: int) -> dict:
    x = np.random.default_rng(0).standard_normal(size).astype(type_.replace("f", "float"))
    host = nbt.tensor(x, backend=nbt.NumPyBackend())
    device = nbt.tensor(x, backend=nbt.XLABackend())
    # JAX reads numbat's very buffer: where an input lies in memory moves a memory-bound
    # kernel's time by several percent (the kernel suite's rows do the same).
    x_jax = device.data

    def softmax(t):
        return nbt.exp(t) / nbt.sum(nbt.exp(t))

    compiled = nbt.defn(softmax)

    @jax.jit
    def jax_softmax(v):
        return jnp.exp(v) / jnp.sum(jnp.exp(v))

    def jax_call():
        if type_ == "f32":  # no x64 context to enter on each call
            return jax_softmax(x_jax).block_until_ready()
        with jax.enable_x64(True):
            return jax_softmax(x_jax).block_until_ready()

    expected = np.exp(x.astype(np.float64)) / np.exp(x.astype(np.float64)).sum()
    np.testing.assert_allclose(compiled(device).to_numpy(), expected, rtol=1e-4, atol=1e-12)
    cases = {
        f"numbat pure (NumPy backend) {type_}": lambda: softmax(host),
        f"numbat XLA eager {type_}": lambda: softmax(device).data.block_until_ready(),
        f"numbat defn {type_}": lambda: compiled(device).data.block_until_ready(),
        f"numbat defn + transfer {type_}": lambda: compiled(device).to_numpy(),
        f"jax.jit {type_}": jax_call,
        f"numpy {type_}": lambda: np.exp(x) / np.sum(np.exp(x)),
    }
    ratios = [(f"numbat defn {type_}", f"jax.jit {type_}"), (f"numbat defn {type_}", f"numpy {type_}")]
    return _comparison(f"softmax over {size:,} {type_} values", cases, ratios, rounds)


def dispatch_suite(size: int, rounds: int) -> list[dict]:
    """A cached call of a one-line defn against the same `jax.jit` function."""
    t = nbt.tensor(np.arange(size, dtype=np.float32))
    fun = nbt.jit(lambda a: a * 2)
    jitted = jax.jit(lambda a: a * 2)
    fun(t), jitted(t.data)
    cases = {"numbat defn (cached)": lambda: fun(t), "jax.jit (cached)": lambda: jitted(t.data)}
    return [
        _comparison(
            f"cached call, f32[{size}]",
            cases,
            [("numbat defn (cached)", "jax.jit (cached)")],
            rounds * 2,
            _CALLS_PER_SAMPLE,
        )
    ]


def eager_suite(size: int, rounds: int) -> list[dict]:
    """One eager `add` on each backend against `jnp.add` and `np.add`."""
    a, b = nbt.tensor(np.arange(size, dtype=np.float32)), nbt.tensor(np.ones(size, np.float32))
    na, nb = (nbt.backend_copy(v, nbt.NumPyBackend()) for v in (a, b))
    x, y = na.data, nb.data
    xla = {"numbat add (XLA)": lambda: nbt.add(a, b), "jnp.add": lambda: jnp.add(a.data, b.data)}
    host = {"numbat add (NumPy)": lambda: nbt.add(na, nb), "np.add": lambda: np.add(x, y)}
    return [
        _comparison(
            f"eager add, f32[{size}], XLA", xla, [("numbat add (XLA)", "jnp.add")], rounds * 2, _CALLS_PER_SAMPLE
        ),
        _comparison(
            f"eager add, f32[{size}], NumPy", host, [("numbat add (NumPy)", "np.add")], rounds * 2, _CALLS_PER_SAMPLE
        ),
    ]


def trace_suite(size: int, rounds: int) -> list[dict]:
    """Tracing a 300-op defn into its graph against `jax.make_jaxpr` of the same jnp code."""

    def chain(v, ops):
        for i in range(300):
            v = ops[i % 3](v)
        return v

    numbat_ops = (lambda v: v * 1.5, nbt.tanh, lambda v: v + 1.0)
    jnp_ops = (lambda v: v * 1.5, jnp.tanh, lambda v: v + 1.0)
    t = nbt.tensor(np.ones(size, np.float32))
    cases = {
        "numbat debug_expr (300 ops)": lambda: nbt.debug_expr(lambda v: chain(v, numbat_ops))(t),
        "jax.make_jaxpr (300 ops)": lambda: jax.make_jaxpr(lambda v: chain(v, jnp_ops))(t.data),
    }
    return [
        _comparison(
            "tracing a 300-op function", cases, [("numbat debug_expr (300 ops)", "jax.make_jaxpr (300 ops)")], rounds
        )
    ]


_STARTUP = (
    "import time; t0 = time.perf_counter(); import jax; t1 = time.perf_counter(); import numbat; "
    "t2 = time.perf_counter(); from IPython.core.interactiveshell import InteractiveShell; "
    "ip = InteractiveShell.instance(); t3 = time.perf_counter(); ip.run_line_magic('load_ext', 'numbat'); "
    "t4 = time.perf_counter(); print(t1 - t0, t2 - t1, t4 - t3)"
)


def startup_times(runs: int = 3) -> tuple[float, float, float]:
    """Seconds for `import jax`, then `import numbat`, then `%load_ext numbat`, each the
    median over `runs` fresh interpreters. Bytecode is cached (in a directory of its own,
    after one untimed run), as in any installed package, even where the environment
    says PYTHONDONTWRITEBYTECODE."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), "numbat-bench-pycache")
    times = []
    for _ in range(runs + 1):
        result = subprocess.run(
            [sys.executable, "-c", _STARTUP], capture_output=True, text=True, check=True, timeout=180, env=env
        )
        times.append(tuple(float(v) for v in result.stdout.split()))
    return tuple(statistics.median(column) for column in zip(*times[1:]))


def notebook_suite(size: int, rounds: int) -> list[dict]:
    """`import numbat` and `%load_ext numbat` beyond `import jax`, the post-cell hook, and the big tensor view."""
    jax_s, import_s, load_s = startup_times(runs=3 if rounds >= 20 else 1)
    from IPython.core.interactiveshell import InteractiveShell

    watcher = _strip.CellWatcher(InteractiveShell.instance())

    def hook():
        watcher.pre_run_cell(None)
        watcher.post_run_cell(None)

    big = nbt.tensor(np.random.default_rng(0).standard_normal((size, size), dtype=np.float32))
    view = _html.tensor_html(big)
    stats = measure(
        {"post-cell hook (nothing compiled)": hook, f"tensor view f32[{size},{size}]": lambda: _html.tensor_html(big)},
        max(rounds // 5, 3),
    )
    return [
        {
            "title": "notebook",
            "stats": stats,
            "ratios": [],
            "figures": {
                "import jax (s)": jax_s,
                "import numbat after import jax (s)": import_s,
                "%load_ext numbat after import jax (s)": load_s,
                f"tensor view f32[{size},{size}] bytes": len(view),
            },
        }
    ]


def interrupt_suite(size: int, rounds: int) -> list[dict]:
    """A while_loop of `size` small iterations with the interrupt check (`interruptible=True`)
    against the same loop without it: the check's cost per iteration; and a loop of one
    iteration, its cost per call."""

    def loop(limit: int, interruptible: bool):
        body = lambda s: (s[0] + 1, s[1] * 0.999 + 1.0)
        fun = nbt.defn(
            lambda x: nbt.while_loop(lambda s: s[0] < limit, body, (nbt.tensor(0), x))[1], interruptible=interruptible
        )
        x = nbt.tensor(1.0)
        fun(x)
        return lambda: fun(x).data.block_until_ready()

    results = []
    for limit, what in ((size, f"{size:,} iterations"), (1, "one iteration")):
        cases = {f"interruptible loop, {what}": loop(limit, True), f"plain loop, {what}": loop(limit, False)}
        names = list(cases)
        calls = 1 if limit > 1000 else _CALLS_PER_SAMPLE
        results.append(_comparison(f"while_loop's interrupt check, {what}", cases, [tuple(names)], rounds, calls))
    extra_us = results[0]["ratios"][0]["extra_us"]
    results[0]["figures"] = {
        "check's cost per iteration (ns)": round(extra_us * 1000 / size, 3),
        "stop latency, SIGINT to numbat.Interrupted (ms, median of 5)": round(_stop_latency(5) * 1000, 1),
    }
    return results


def _stop_latency(stops: int) -> float:
    """The median time (s) from a SIGINT to the `numbat.Interrupted` of a never-ending loop."""
    forever = nbt.defn(
        lambda x, n: nbt.while_loop(
            lambda s: (n < 0) | (s[0] < n), lambda s: (s[0] + 1, s[1] * 0.5), (nbt.tensor(0), x)
        ),
        interruptible=True,
    )
    x = nbt.tensor(1.0)
    forever(x, nbt.tensor(1))
    took = []
    for _ in range(stops):
        sent = []

        def send(sent=sent):
            while _interrupt.current_call(threading.main_thread()) is None:
                time.sleep(0.001)
            time.sleep(0.2)
            sent.append(time.perf_counter())
            os.kill(os.getpid(), signal.SIGINT)

        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        try:
            forever(x, nbt.tensor(-1))
        except nbt.Interrupted:
            took.append(time.perf_counter() - sent[0])
        sender.join()
    return statistics.median(took)


DEFAULT_SIZES = {
    "softmax": 1_000_000,
    "dispatch": 8,
    "eager": 8,
    "trace": 8,
    "notebook": 4096,
    "interrupt": 1_000_000,  # iterations of the loop
    "kernels": 1 << 20,  # elements of the largest operand of a kernel row
}
# Bytes a suite holds at once for a problem size: its arrays (NumPy, device and results)
# over the size's elements (the notebook suite's tensor is size x size f32).
_FOOTPRINT = {
    "softmax": lambda size: 8 * 8 * size,
    "dispatch": lambda size: 4 * 4 * size,
    "eager": lambda size: 6 * 4 * size,
    "trace": lambda size: 4 * 4 * size,
    "notebook": lambda size: 3 * 4 * size * size,
    "interrupt": lambda size: 64,  # two scalars, whatever the iteration count
    "kernels": lambda size: 64 * 4 * size,  # the largest rows' f32 operands, results and JAX's copies
}


def check_size(suite: str, size: int, available: int | None = None) -> None:
    """Refuses a problem size whose arrays cannot fit in the memory available now
    (`available` bytes; default: the machine's free memory), before anything is allocated.

    >>> check_size("notebook", 1_000_000, available=2**34)
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: bench notebook --size 1000000 needs about 10.9 TiB (a 1000000 x 1000000 f32 tensor and its copies); 16.0 GiB is available: choose a size of at most 37837
    """
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise nbt.ArgumentError(f"bench {suite} --size must be a positive int, got {size!r}")
    if available is None:
        available = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES")
    need = _FOOTPRINT[suite](size)
    if need > available:
        largest = 1
        while _FOOTPRINT[suite](largest * 2) <= available:
            largest *= 2
        step = largest
        while step > 1:  # the largest size that fits, by bisection
            step //= 2
            if _FOOTPRINT[suite](largest + step) <= available:
                largest += step
        what = f"a {size} x {size} f32 tensor and its copies" if suite == "notebook" else f"arrays of {size} values"
        raise nbt.ArgumentError(
            f"bench {suite} --size {size} needs about {_human(need)} ({what}); {_human(available)} is available: "
            f"choose a size of at most {largest}"
        )


def _human(count: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if count < 1024 or unit == "TiB":
            return f"{count:.1f} {unit}"
        count /= 1024
    return f"{count:.1f} TiB"


def kernels_suite(size: int, rounds: int, rows: str | None = None) -> list[dict]:
    """Each op family as a defn against the same `jax.jit` code (numbat/_tools/_bench_kernels.py)."""
    return _bench_kernels.kernels_suite(size, rounds, rows)


def run(suite: str = "all", size: int | None = None, rounds: int = 200, rows: str | None = None) -> list[dict]:
    """Runs one suite (or all); `size` overrides each suite's default problem size;
    `rows` (comma-separated kernel keys) picks rows of the kernels suite. A size that cannot fit
    in memory is refused before any suite runs."""
    if suite != "all" and suite not in SUITES:
        raise ValueError(f"unknown suite {suite!r}; suites are {', '.join(SUITES)}, all")
    if rows is not None and suite not in ("kernels", "all"):
        raise ValueError(f"--rows picks rows of the kernels suite, not of {suite!r}")
    _bench_kernels.select(rows)  # an unknown row fails before anything runs
    defaults = DEFAULT_SIZES
    chosen = SUITES if suite == "all" else (suite,)
    for name in chosen:
        check_size(name, size or defaults[name])
    results = []
    for name in chosen:
        suite_rounds = rounds if name not in ("softmax", "trace", "kernels", "interrupt") else max(rounds // 4, 3)
        options = {"rows": rows} if name == "kernels" else {}
        for result in globals()[f"{name}_suite"](size or defaults[name], suite_rounds, **options):
            results.append({"suite": name, **result})
    return results


# What each row times, by its name without the type suffix (" f32", " f64").
ROWS = {
    "numbat pure (NumPy backend)": "softmax as three numbat ops on NumPy-backend tensors, eagerly, on the host",
    "numbat XLA eager": "the same three ops one by one on XLA tensors (one dispatch each), until the result is ready",
    "numbat defn": "the softmax defn, compiled once, called on an XLA tensor, until the result is ready on the device",
    "numbat defn + transfer": "the same call and copying the result back into a NumPy array",
    "jax.jit": "the same softmax in jax.numpy under jax.jit, until the result is ready (the floor numbat sits on)",
    "numpy": "the same softmax in NumPy, on the host",
    "numbat defn (cached)": "a cached call of a one-line defn (t * 2): numbat's dispatch cost plus XLA's",
    "jax.jit (cached)": "the same function under jax.jit, called on the same array",
    "numbat add (XLA)": "one eager nbt.add of two XLA tensors",
    "jnp.add": "jnp.add of the same two jax.Arrays",
    "numbat add (NumPy)": "one eager nbt.add of two NumPy-backend tensors",
    "np.add": "np.add of the same two NumPy arrays",
    "numbat debug_expr (300 ops)": "tracing a 300-op function into numbat's expression graph",
    "jax.make_jaxpr (300 ops)": "tracing the same jax.numpy function into a jaxpr",
    "post-cell hook (nothing compiled)": "the extension's pre- and post-cell hooks for a cell that compiled nothing",
    "interruptible loop": "a defn's while_loop with the interrupt check (interruptible=True), until the result is ready",
    "plain loop": "the same defn and loop without the check",
    "tensor view": "building the HTML view of a large tensor (the summary the notebook shows)",
}


def describe(name: str) -> str | None:
    """What the row `name` measures (None for a row `ROWS` does not know)."""
    for key in (name, name.rsplit(" ", 1)[0], name.split(",")[0]):
        if key in ROWS:
            return ROWS[key]
    return None


def print_tables(results: list[dict]) -> None:
    """Prints each comparison as a Benchee-style table, then its ratio lines and what each row measures."""
    for result in results:
        print(f"\n## {result['title']}\n")
        if "rows" in result:
            print("\n".join(_bench_kernels.table_lines(result["rows"])))
            print(_bench_kernels.RATIO_NOTE)
            continue
        stats = result["stats"]
        width = max(len(name) for name in stats) + 2
        print(f"{'Name':<{width}}{'ips':>12}{'average':>14}{'deviation':>12}{'median':>14}{'99th %':>14}")
        fastest = min(s["median_us"] for s in stats.values())
        for name, s in sorted(stats.items(), key=lambda item: item[1]["median_us"]):
            print(
                f"{name:<{width}}{s['ips']:>12,.1f}{format_time(s['average_us']):>14}{s['deviation_pct']:>11.1f}%"
                f"{format_time(s['median_us']):>14}{format_time(s['p99_us']):>14}"
                + (f"   {s['median_us'] / fastest:.2f}x slower" if s["median_us"] > fastest else "")
            )
        for ratio in result["ratios"]:
            word = "slower" if ratio["ratio"] >= 1 else "faster"
            factor = ratio["ratio"] if ratio["ratio"] >= 1 else 1 / ratio["ratio"]
            print(f"{ratio['numbat']} is {factor:.2f}x {word} than {ratio['reference']}")
        for name, value in result.get("figures", {}).items():
            print(f"{name}: {value:.3f}" if isinstance(value, float) else f"{name}: {value}")
        print(
            "ips is 1 / median; rows are ordered by median; a ratio line times its two cases as a pair: the median of the per-round ratios."
        )
        for name in sorted(stats, key=lambda name: stats[name]["median_us"]):
            print(f"  {name}: {describe(name) or 'not described'}")


def write_json(results: list[dict], path: str) -> None:
    """Writes every figure to `path` as JSON, for tooling."""
    with open(path, "w") as file:
        json.dump(
            {"machine": {"jax": jax.__version__, "devices": [str(d) for d in jax.devices()]}, "results": results},
            file,
            indent=2,
        )
