"""Tests for numbat/_tools/_bench_kernels.py and numbat/_tools/_bench_markdown.py (with numbat/_tools/_bench.py):
`numbat bench kernels`, `--rows` and `--markdown`. Structure only: no assertion depends on a time."""

import json
import time

import jax
import numpy as np
import pytest

import numbat as nbt
from numbat import cli
from numbat._tools import _bench as bench
from numbat._tools import _bench_kernels, _bench_markdown, _bench_timing


@pytest.fixture(scope="module")
def all_small(tmp_path_factory):
    """Every suite once, at tiny sizes, with two kernel rows: the JSON and the markdown."""
    path = tmp_path_factory.mktemp("bench") / "bench.json"
    code = cli.main(["bench", "all", "--size", "64", "--rounds", "3", "--rows", "top_k,take", "--json", str(path)])
    assert code == 0
    return json.loads(path.read_text())["results"]


def test_hlo_counts_reads_every_computation():
    text = """%fused (p: f32[4]) -> f32[2,1] {
  %g = f32[2,1]{1,0} gather(%p, %i), offset_dims={1}
}
ENTRY %main (x: f32[4]) -> (f32[2], s32[2]) {
  %f = f32[2,1]{1,0} fusion(%x), kind=kLoop, calls=%fused
  %w = (s64[], f32[16,256]{1,0}, /*index=5*/s64[]) while(%tuple), condition=%c, body=%b
  ROOT %t = (f32[2]{0}, s32[2]{0}) custom-call(%f), custom_call_target="TopK"
}"""
    assert _bench_kernels.hlo_counts(text) == {
        "fusion": 1,
        "custom-call": 1,
        "gather": 1,
        "scatter": 0,
        "sort": 0,
        "while": 1,  # a tuple type with XLA's /*index=5*/ comment in it
    }


def test_kernel_rows_time_both_sides_and_count_their_hlo(capsys):
    rows = "top_k,take,cnn_step"
    assert cli.main(["bench", "kernels", "--size", "4096", "--rounds", "3", "--rows", rows]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if line.startswith("kernel "))
    assert _bench_kernels.RATIO_NOTE in out  # says how the ratio is taken
    assert header.split()[:7] == ["kernel", "numbat", "jax.jit", "ratio", "HLO", "numbat", "HLO"]
    for label in ("top_k k=10 f32[4096]", "take rows f32[256x16]", "CNN step"):
        line = next(line for line in out.splitlines() if line.startswith(label))
        assert "x " in line and "FAILED" not in line  # a ratio, and the numbat side ran


def test_kernel_results_hold_ratios_and_hlo_counts(all_small):
    (kernels,) = [r for r in all_small if r["suite"] == "kernels"]
    assert [row["key"] for row in kernels["rows"]] == ["top_k", "take"]
    for row in kernels["rows"]:
        # the median of per-round ratios: near the ratio of the medians, not equal to it
        assert 0.5 < row["ratio"] / (row["numbat_us"] / row["jax_us"]) < 2
        assert set(row["hlo"]) == {"numbat", "jax"}
        assert all(set(counts) == set(_bench_kernels.COUNTED) for counts in row["hlo"].values())
    top_k, take = kernels["rows"]
    # top_k is a partial selection as JAX's (no sort on the host's TopK), and one more only in the
    # branch that runs when a NaN or a zero calls for Nx's order; take is one gather as jnp.take's
    assert top_k["hlo"]["numbat"]["custom-call"] == top_k["hlo"]["jax"]["custom-call"] + 1
    assert top_k["hlo"]["numbat"]["sort"] == top_k["hlo"]["jax"]["sort"] == 0
    assert take["hlo"]["numbat"]["gather"] == take["hlo"]["jax"]["gather"] == 1
    assert take["hlo"]["numbat"]["fusion"] <= take["hlo"]["jax"]["fusion"]


def test_markdown_has_every_figure_with_its_target(all_small):
    text = _bench_markdown.markdown(all_small)
    assert text.startswith("Measured by `numbat bench all --markdown` on ")
    assert f"JAX {_bench_markdown.jax.__version__}" in text.splitlines()[0]
    table = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    keys = [key for key, *_ in _bench_markdown.figures(all_small)]
    assert sorted(keys) == sorted(_bench_markdown.TARGETS)  # every figure, each once
    for key in _bench_markdown.TARGETS:
        assert sum(f"| {_bench_markdown.TARGETS[key]} |" in line for line in table) >= 1
    figure_lines = [
        line for line in table if any(f"| {target} |" in line for target in _bench_markdown.TARGETS.values())
    ]
    assert figure_lines and all(line.endswith(("| yes |", "| **no** |")) for line in figure_lines)
    assert any(line.startswith("| top_k k=10 f32[64]") for line in table)  # the kernel table follows


def test_markdown_from_the_command_line(capsys):
    assert cli.main(["bench", "dispatch", "--size", "8", "--rounds", "3", "--markdown"]) == 0
    out = capsys.readouterr().out
    assert "| cached call of a one-line defn, f32[8] |" in out and "| <= 1.15x |" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bench", "kernels", "--rows", "top_k,warp"], "unknown kernel row(s) 'warp'; rows are elementwise,"),
        (["bench", "eager", "--rows", "top_k"], "--rows picks rows of the kernels suite, not of 'eager'"),
    ],
)
def test_bad_rows_are_usage_errors(argv, message, capsys):
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("row", ["random_uniform", "random_normal"])
def test_the_random_rows_time_nxs_algorithm_on_both_sides(row):
    # The JAX side is Nx's sampler written in jax.lax: numbat's numbers, bit for bit, checked.
    (kernel,) = _bench_kernels.select(row)
    assert kernel.check
    key, like = kernel.inputs(4096)
    ours = nbt.defn(kernel.numbat)(nbt.tensor(key), nbt.tensor(like))
    theirs = jax.jit(kernel.jax)(key, like)
    for a, b in zip(ours, theirs, strict=True):
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()


def test_a_sample_times_several_calls_in_a_row_and_reports_the_time_per_call():
    """`calls` calls of each case make one sample, interleaved with the other case's; the
    time reported is per call."""
    order = []
    times = _bench_timing.samples(
        {"a": lambda: order.append("a"), "b": lambda: (order.append("b"), time.sleep(0.002))},
        rounds=4,
        warmup=0,
        calls=3,
    )
    assert order[:12] == ["a"] * 3 + ["b"] * 3 + ["b"] * 3 + ["a"] * 3 and len(order) == 24
    assert [len(v) for v in times.values()] == [4, 4]
    assert all(2000 <= t < 6000 for t in times["b"])  # µs per call, not per sample of three


def test_the_figures_are_paired_ratios_and_differences():
    """The README's figures compare two cases round by round: a burst that slows only one
    round (the second here, for one case) moves the ratio and difference of the medians, not
    the medians of the per-round ratios and differences."""
    times = {"ours": [1.0, 4.0, 10.0], "theirs": [1.0, 1.0, 10.0]}
    stats = _bench_timing.summarize(times)
    assert stats["ours"]["median_us"] / stats["theirs"]["median_us"] == 4.0
    ratio, extra = (f(times, "ours", "theirs") for f in (_bench_timing.paired_ratio, _bench_timing.paired_difference))
    assert (ratio, extra) == (1.0, 0.0)
    pair = {"numbat": "ours", "reference": "theirs", "ratio": ratio, "extra_us": extra, "numbat_us": 4.0}
    result = {"stats": stats, "ratios": [pair | {"reference_us": 1.0}]}
    assert _bench_markdown._ratio_row("key", "figure", result, "ours", "theirs", "ref")[-1] == 1.0


def test_a_ratio_in_a_larger_table_times_its_pair_on_its_own():
    """In a table of more cases, a ratio's two cases are timed again as a pair, so that
    neither always follows a third case that leaves work behind (eager softmax, freeing
    its buffers): the third does not run in the pair's rounds."""
    order = []
    slow = lambda: (order.append("slow"), time.sleep(0.002))
    cases = {"slow": slow, "a": lambda: order.append("a"), "b": lambda: order.append("b")}
    result = bench._comparison("three", cases, [("a", "b")], rounds=6)
    assert order.count("slow") == 6 + 3  # the table's rounds and the warm-up: none in the pair's run
    assert order[-12:].count("a") == 6 and "slow" not in order[-12:]
    assert set(result["ratios"][0]) == {"numbat", "reference", "ratio", "extra_us", "numbat_us", "reference_us"}


def test_the_timing_helpers_doctests():
    import doctest

    assert doctest.testmod(_bench_timing).failed == 0
