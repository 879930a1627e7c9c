"""`numbat bench all --markdown`: the README's Performance table, generated from one run.

The table names the machine (CPU model and cores, JAX version and client, date), then each
figure of `numbat bench` beside its target and whether it is met, then the kernel table.
"""

from __future__ import annotations

import datetime
import os
import platform
import re

import jax

from . import _bench_kernels
from ._bench_timing import format_time

# Each figure of the Performance table: its name, the suite that measures it, and its target
# (a ratio bound "<=", a bound on a difference in µs, seconds, ms or KB).
TARGETS = {
    "eager_xla": "<= 1.25x",
    "eager_numpy": "<= +2 µs",
    "dispatch": "<= 1.15x",
    "softmax_f32": "<= 1.05x",
    "softmax_f64": "<= 1.05x",
    "softmax_numpy": ">= 2x",
    "trace": "<= 1.3x",
    "import": "<= 0.1 s",
    "load_ext": "<= 0.3 s",
    "hook": "<= 1 ms",
    "view_time": "<= 60 ms",
    "view_bytes": "<= 200 KB",
    "kernels": "<= 1.05x",
}


def _met(value: float, target: str) -> str:
    bound = float(re.sub(r"[^0-9.]", "", target))
    return "yes" if (value >= bound if target.startswith(">=") else value <= bound) else "**no**"


def _paired(result, ours, theirs) -> dict:
    """The comparison's ratio entry of `ours` against `theirs` (per-round, paired)."""
    return next(r for r in result["ratios"] if r["numbat"] == ours and r["reference"] == theirs)


def _ratio_row(key, name, result, ours, theirs, label):
    pair = _paired(result, ours, theirs)
    return (
        key,
        name,
        format_time(pair["numbat_us"]),
        f"{label} {format_time(pair['reference_us'])}",
        f"{pair['ratio']:.2f}x",
        pair["ratio"],
    )


def figures(results: list[dict]) -> list[tuple]:
    """The Performance table's rows `(key, figure, numbat, reference, value, number)` for
    the suites in `results`; `number` is what the target bounds."""
    by_suite: dict[str, list[dict]] = {}
    for result in results:
        by_suite.setdefault(result.get("suite", ""), []).append(result)
    rows = []
    for suite, rows_of in _ROWS:
        for result in by_suite.get(suite, []):
            rows += rows_of(result)
    return rows


def _eager_rows(result: dict) -> list[tuple]:
    size = result["title"].split(", ")[1]
    if "numbat add (XLA)" in result["stats"]:
        return [
            _ratio_row(
                "eager_xla", f"eager `nbt.add`, XLA backend, {size}", result, "numbat add (XLA)", "jnp.add", "`jnp.add`"
            )
        ]
    pair = _paired(result, "numbat add (NumPy)", "np.add")
    return [
        (
            "eager_numpy",
            f"eager `nbt.add`, NumPy backend, {size}",
            format_time(pair["numbat_us"]),
            f"`np.add` {format_time(pair['reference_us'])}",
            f"+{pair['extra_us']:.2f} µs",
            pair["extra_us"],
        )
    ]


def _dispatch_rows(result: dict) -> list[tuple]:
    size = result["title"].split(", ")[1]
    return [
        _ratio_row(
            "dispatch",
            f"cached call of a one-line defn, {size}",
            result,
            "numbat defn (cached)",
            "jax.jit (cached)",
            "`jax.jit`",
        )
    ]


def _softmax_rows(result: dict) -> list[tuple]:
    type_ = result["title"].split()[-2]
    rows = [
        _ratio_row(
            f"softmax_{type_}",
            result["title"].replace("softmax over", "softmax defn over"),
            result,
            f"numbat defn {type_}",
            f"jax.jit {type_}",
            "`jax.jit`",
        )
    ]
    if type_ == "f32":
        pair = _paired(result, "numbat defn f32", "numpy f32")
        rows.append(
            (
                "softmax_numpy",
                "NumPy / softmax defn, f32",
                format_time(pair["numbat_us"]),
                f"NumPy {format_time(pair['reference_us'])}",
                f"{1 / pair['ratio']:.2f}x",
                1 / pair["ratio"],
            )
        )
    return rows


def _trace_rows(result: dict) -> list[tuple]:
    return [
        _ratio_row(
            "trace",
            "tracing a 300-op defn (`debug_expr`)",
            result,
            "numbat debug_expr (300 ops)",
            "jax.make_jaxpr (300 ops)",
            "`jax.make_jaxpr`",
        )
    ]


def _notebook_rows(result: dict) -> list[tuple]:
    figures_, stats = result["figures"], result["stats"]
    view_name = next(name for name in stats if name.startswith("tensor view"))
    view_bytes = next(value for name, value in figures_.items() if name.endswith("bytes"))
    import_s, load_s = (
        figures_["import numbat after import jax (s)"],
        figures_["%load_ext numbat after import jax (s)"],
    )
    hook_ms = stats["post-cell hook (nothing compiled)"]["median_us"] / 1e3
    view_ms = stats[view_name]["median_us"] / 1e3
    return [
        ("import", "`import numbat` after `import jax`", f"{import_s:.3f} s", "", f"{import_s:.3f} s", import_s),
        ("load_ext", "`%load_ext numbat` after `import jax`", f"{load_s:.3f} s", "", f"{load_s:.3f} s", load_s),
        ("hook", "post-cell hook, nothing compiled", f"{hook_ms:.3f} ms", "", f"{hook_ms:.3f} ms", hook_ms),
        ("view_time", f"HTML {view_name}", f"{view_ms:.1f} ms", "", f"{view_ms:.1f} ms", view_ms),
        (
            "view_bytes",
            f"HTML {view_name}, size",
            f"{view_bytes / 1e3:.0f} KB",
            "",
            f"{view_bytes / 1e3:.0f} KB",
            view_bytes / 1e3,
        ),
    ]


def _kernels_rows(result: dict) -> list[tuple]:
    timed = [row for row in result["rows"] if row["ratio"] is not None]
    if not timed:
        return []
    worst = max(timed, key=lambda row: row["ratio"])
    within = sum(row["ratio"] <= 1.05 for row in timed)
    return [
        (
            "kernels",
            f"kernel rows within 1.05x of `jax.jit`: {within} of {len(result['rows'])}; slowest {worst['kernel']}",
            format_time(worst["numbat_us"]),
            f"`jax.jit` {format_time(worst['jax_us'])}",
            f"{worst['ratio']:.2f}x",
            worst["ratio"],
        )
    ]


# Each suite's rows, in the table's order.
_ROWS = (
    ("eager", _eager_rows),
    ("dispatch", _dispatch_rows),
    ("softmax", _softmax_rows),
    ("trace", _trace_rows),
    ("notebook", _notebook_rows),
    ("kernels", _kernels_rows),
)


def machine() -> str:
    """One line naming the machine: CPU model and cores, JAX version and device, date."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as file:
            model = next((line.split(":", 1)[1].strip() for line in file if line.startswith("model name")), model)
    except OSError:
        pass
    device = jax.devices()[0]
    return (
        f"{model}, {os.cpu_count()} cores; JAX {jax.__version__} ({device.platform} client, {device.device_kind}); "
        f"{datetime.date.today().isoformat()}"
    )


def markdown(results: list[dict]) -> str:
    """The README's Performance table for `results`: the machine, each figure with its
    target and whether it is met, then the kernel table when the kernels suite ran."""
    lines = [
        f"Measured by `numbat bench all --markdown` on {machine()}; times are medians, ratios and differences medians of per-round pairs, interleaved.",
        "",
    ]
    lines += ["| figure | numbat | reference | value | target | met |", "|---|---|---|---|---|---|"]
    for key, name, ours, reference, value, number in figures(results):
        lines.append(f"| {name} | {ours} | {reference} | {value} | {TARGETS[key]} | {_met(number, TARGETS[key])} |")
    for result in results:
        if "rows" in result:
            lines += ["", f"{result['title']}; HLO: instructions of the optimized programs", ""]
            lines += _bench_kernels.table_lines(result["rows"], markdown=True)
            lines += ["", _bench_kernels.RATIO_NOTE]
    return "\n".join(lines)
