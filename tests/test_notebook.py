"""Tests for numbat/notebook: the extension in a real IPython shell, the
tensor HTML, the expression SVG, the telemetry strip and the magics."""

import doctest
import html
import re
import subprocess
import sys
import textwrap
import time
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
from traitlets.config import Config

import numbat as nbt
from numbat import telemetry
from numbat._runtime import _client
from numbat.notebook import _heatmap, _html, _magics, _stats, _strip, _svg

SVG = "{http://www.w3.org/2000/svg}"


# --- a real IPython shell --------------------------------------------------


@pytest.fixture(scope="module")
def shell():
    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    ip = InteractiveShell.instance(config=config)
    yield ip
    if "numbat" in ip.extension_manager.loaded:
        ip.run_line_magic("unload_ext", "numbat")


@pytest.fixture
def ip(shell):
    """The shell with `%load_ext numbat` run in a cell; unloaded afterwards."""
    run(shell, "%load_ext numbat")
    yield shell
    if "numbat" in shell.extension_manager.loaded:
        run(shell, "%unload_ext numbat")


class Cell:
    def __init__(self, result, captured):
        self.result = result
        self.stdout, self.stderr = captured.stdout, captured.stderr
        self.displays = [output.data for output in captured.outputs]

    def strips(self):
        return [d for d in self.displays if "numbat-strip" in d.get("text/html", "")]


def run(ip, code) -> Cell:
    with capture_output() as captured:
        result = ip.run_cell(textwrap.dedent(code), store_history=True)
    return Cell(result, captured)


def _unique(prefix):
    return f"{prefix}_{time.monotonic_ns()}"


def test_loading_registers_the_magic_and_hooks_once(ip):
    import numbat.notebook as extension

    assert ip.find_line_magic("numbat") is not None
    before = {event: len(ip.events.callbacks[event]) for event in ("pre_run_cell", "post_run_cell")}
    extension.load_ipython_extension(ip)  # a second load registers nothing more
    nbt.load_ipython_extension(ip)
    after = {event: len(ip.events.callbacks[event]) for event in ("pre_run_cell", "post_run_cell")}
    assert before == after
    assert run(ip, "%load_ext numbat").result.success


def test_unloading_removes_the_magic_and_hooks(ip):
    hooks = {event: len(ip.events.callbacks[event]) for event in ("pre_run_cell", "post_run_cell")}
    cell = run(ip, "%unload_ext numbat")
    assert cell.result.success
    assert ip.find_line_magic("numbat") is None
    assert "NumbatMagics" not in ip.magics_manager.registry
    for event, count in hooks.items():
        assert len(ip.events.callbacks[event]) == count - 1
    assert not run(ip, "%numbat info").result.success  # UsageError: magic not found
    assert _client.current_cell is None
    assert run(ip, "%load_ext numbat").result.success
    assert ip.find_line_magic("numbat") is not None


def test_a_cell_that_compiles_shows_the_strip(ip):
    name = _unique("softmax")
    cell = run(
        ip,
        f"""
        import numbat as nbt

        def {name}(t):
            return nbt.exp(t) / nbt.sum(nbt.exp(t))

        {name} = nbt.defn({name})
        {name}(nbt.tensor([1.0, 2.0]))
        """,
    )
    assert cell.result.success, cell.stdout
    (strip,) = cell.strips()
    text = strip["text/plain"]
    assert f"compiled {name} (f32[2])" in text
    assert re.search(r"trace \d+\.\d ms, compile \d+\.\d ms", text)
    assert name in strip["text/html"] and "(f32[2])" in strip["text/html"]

    again = run(ip, f"{name}(nbt.tensor([3.0, 4.0])); {name}(nbt.tensor([5.0, 6.0]))")
    assert again.result.success and again.strips() == []  # cache hits compile nothing

    other = _unique("double")
    mixed = run(
        ip,
        f"""
        {other} = nbt.jit(lambda t: t * 2)
        {name}(nbt.tensor([1.0, 2.0]))
        {name}(nbt.tensor([1.0, 2.0, 3.0]))
        """,
    )
    (strip,) = mixed.strips()
    lines = strip["text/plain"].splitlines()
    assert lines[0].startswith(f"numbat: recompiled {name} (f32[3])")
    assert "input 0 changed from f32[2] to f32[3]" in lines[0]
    assert lines[-1] == f"numbat: cache hits: {name} 1"


def test_the_strip_says_compiled_on_the_first_compile_of_shard_jit_and_stream(ip):
    # shard_jit reported every compile with the reason "first call for this signature and mesh", which the
    # strip read as a recompile ("numbat: recompiled" on the first cell that ran one).
    run(ip, "import numbat as nbt")
    first = run(
        ip,
        """
        doubled = nbt.xla.shard_jit(lambda t: t * 2, nbt.Mesh("one", (1,)), input_shardings=[{0: [0]}])
        doubled([[nbt.tensor([1, 2])]])
        steps = nbt.xla.stream(lambda x, acc: (acc, x + acc), [nbt.template((), "s64"), 0])
        steps.send(1)
        """,
    )
    assert first.result.success, first.result.error_in_exec
    (strip,) = first.strips()
    lines = strip["text/plain"].splitlines()
    assert lines[0].startswith("numbat: compiled <lambda> (s32[2])") and "recompiled" not in strip["text/plain"]
    assert lines[1].startswith("numbat: compiled <lambda> (s64, s64)") and "recompiled" not in strip["text/html"]
    again = run(ip, "doubled([[nbt.tensor([1, 2, 3])]]); doubled([[nbt.tensor([4, 5])]])")
    (strip,) = again.strips()
    assert strip["text/plain"].startswith("numbat: recompiled <lambda> (s32[3])")
    assert "(input 0 changed from s32[2] to s32[3])" in strip["text/plain"]
    assert strip["text/plain"].endswith("numbat: cache hits: <lambda> 1")


def test_the_strip_escapes_function_names(ip):
    cell = run(ip, "nbt.jit(lambda t: t + 1)(nbt.tensor([1]))")
    (strip,) = cell.strips()
    assert "compiled <lambda> (s32[1])" in strip["text/plain"]
    assert "&lt;lambda&gt;" in strip["text/html"] and "<lambda>" not in strip["text/html"]


def test_the_strip_shows_when_the_cell_fails_after_compiling(ip):
    cell = run(ip, "nbt.jit(lambda t: t - 1)(nbt.tensor([1])); 1 / 0")
    assert not cell.result.success
    assert len(cell.strips()) == 1


def test_cells_know_their_number_while_they_run(ip):
    cell = run(ip, "import numbat._runtime._client as client_module; seen = client_module.current_cell")
    assert ip.user_ns["seen"] == cell.result.execution_count
    assert _client.current_cell is None  # between cells, work belongs to no cell


def test_displaying_tensors_and_graphs_is_not_counted_by_telemetry(ip):
    run(ip, "import numbat as nbt\nshown = nbt.tensor([[1.5, 2.5]], names=['x', 'y'])")
    start, counts = telemetry.last_sequence(), telemetry.counts()
    cell = run(ip, "shown")
    graph = run(ip, "nbt.debug_expr(lambda t: nbt.exp(t))(shown)")
    assert cell.result.success and graph.result.success
    assert telemetry.last_sequence() == start and telemetry.counts() == counts
    assert cell.strips() == [] and graph.strips() == []


# --- %numbat -----------------------------------------------------------------


def test_info_lists_host_and_versions(ip):
    run(ip, "import numbat as nbt; nbt.tensor([1]) + 1")  # make sure the client started
    cell = run(ip, "%numbat info")
    assert cell.result.success
    (info,) = cell.displays
    assert "host" in info["text/plain"] and "jax" in info["text/plain"]
    assert "started in cell [" in info["text/plain"] or "started (outside" in info["text/plain"]
    assert "<table" in info["text/html"] and "host" in info["text/html"]
    assert "XLA_FLAGS" in info["text/plain"]
    assert run(ip, "%numbat").displays[0]["text/plain"] == info["text/plain"]  # info is the default


def test_info_does_not_start_the_client(tmp_path):
    script = textwrap.dedent(
        """
        from traitlets.config import Config
        from IPython.core.interactiveshell import InteractiveShell
        from IPython.utils.capture import capture_output
        from jax._src import xla_bridge
        config = Config()
        config.HistoryManager.hist_file = ":memory:"
        ip = InteractiveShell.instance(config=config)
        with capture_output() as captured:
            ip.run_cell("%load_ext numbat", store_history=True)
            ip.run_cell("%numbat info", store_history=True)
        assert not xla_bridge.backends_are_initialized()
        print(captured.outputs[0].data["text/plain"])
        """
    )
    done = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "not started" in done.stdout and "host" in done.stdout


def test_telemetry_lists_compilations_and_clear_hides_them(ip):
    name = _unique("tele")
    run(
        ip,
        f"import numbat as nbt\n{name} = nbt.defn(lambda t: t * 3)\n{name}.name = '{name}'\n{name}(nbt.tensor([1, 2]))",
    )
    (table,) = run(ip, "%numbat telemetry").displays
    assert name in table["text/plain"] and "(s32[2])" in table["text/plain"]
    row = next(line for line in table["text/plain"].splitlines() if name in line)
    assert re.search(r"trace \d+\.\d ms, compile \d+\.\d ms, total \d+\.\d ms$", row)
    assert "first call" in row and "<table" in table["text/html"]
    (short,) = run(ip, "%numbat telemetry -n 1").displays
    assert short["text/plain"].count("\n") <= 4
    cleared = run(ip, "%numbat telemetry clear")
    assert "from here on" in cleared.stdout
    (empty,) = run(ip, "%numbat telemetry").displays
    assert "no compilations yet" in empty["text/plain"]


def test_cache_counts_compilations_and_hits_per_function(ip):
    name = _unique("cached")
    run(ip, f"import numbat as nbt\n{name} = nbt.defn(lambda t: t * 3)\n{name}.name = '{name}'")
    run(ip, f"{name}(nbt.tensor([1])); {name}(nbt.tensor([2])); {name}(nbt.tensor([3]))")
    (table,) = run(ip, "%numbat cache").displays
    row = next(line for line in table["text/plain"].splitlines() if name in line)
    assert row.split() == [name, "1", "2"]
    assert "cache hits" in table["text/html"]


@pytest.mark.parametrize("line", ["%numbat bogus", "%numbat --bogus", "%numbat info extra", "%numbat cache clear"])
def test_a_bad_subcommand_prints_an_error_and_raises_nothing(ip, line):
    cell = run(ip, line)
    assert cell.result.success and cell.result.error_in_exec is None
    assert cell.stderr.startswith("numbat: ") and "%numbat?" in cell.stderr
    assert "Traceback" not in cell.stdout + cell.stderr
    assert cell.displays == []


def test_unknown_subcommand_names_the_valid_ones(ip):
    assert "unknown subcommand 'bogus'; subcommands are info, telemetry, cache" in run(ip, "%numbat bogus").stderr


def test_help_is_the_docstring(ip):
    cell = run(ip, "%numbat?")
    for word in ("info", "telemetry", "cache", "client", "memory", "precision", "graph", "--fused", "[subcommand]"):
        assert word in cell.stdout


# --- tensor HTML -------------------------------------------------------------


def _text_of(markup):
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def test_tensors_graphs_and_heatmaps_show_richly_without_the_extension(shell):
    """The rich forms come with `import numbat`, installed on the classes by the notebook
    layer (`_display`), not imported by the low layers on first display."""
    assert "numbat" not in shell.extension_manager.loaded
    shown = {
        "text/html": nbt.tensor([[1, 2], [3, 4]]),
        "image/svg+xml": nbt.debug_expr(_softmax)(nbt.tensor([1.0, 2.0])),
    }
    for kind, value in shown.items():
        data, _ = shell.display_formatter.format(value)
        assert kind in data and "text/plain" in data, (type(value).__name__, sorted(data))
    data, _ = shell.display_formatter.format(nbt.to_heatmap(nbt.iota((2, 3)), ansi_enabled=False))
    assert "<img" in data["text/html"]
    for cls, hook in ((nbt.Tensor, "_repr_mimebundle_"), (nbt.Expr, "_repr_mimebundle_"), (nbt.Heatmap, "_repr_html_")):
        assert getattr(cls, hook).__module__ == "numbat.notebook._display", f"{cls.__name__}.{hook}"


def test_tensor_html_shows_header_device_and_a_table():
    t = nbt.tensor([[1, 2], [3, 4]], names=["x", "y"], backend=nbt.NumPyBackend())
    markup = _html.tensor_html(t)
    assert "s32[x: 2][y: 2]" in markup and "NumPy (host)" in markup
    assert markup.count("<td") == 4 and "x \\ y" in markup
    assert "<script" not in markup and "http" not in markup
    assert t._repr_mimebundle_()["text/html"] == markup


@pytest.mark.parametrize("name", ["<script>alert(1)</script>", "<b>x</b>", "a&b", "'\""])
def test_tensor_html_escapes_names(name):
    markup = _html.tensor_html(nbt.tensor([1], names=[name]))
    assert name not in markup
    assert html.escape(name, quote=True) in markup
    assert f"[{name}: 1]" in _text_of(markup)


ODD = {
    "rank 0": lambda: nbt.tensor(7),
    "rank 0 float": lambda: nbt.tensor(2.5, type="f64"),
    "size 0": lambda: nbt.tensor(np.zeros((0,), np.float32)),
    "size 0 rank 2": lambda: nbt.tensor(np.zeros((2, 0), np.int32), names=["x", None]),
    "size 0 rank 4": lambda: nbt.tensor(np.zeros((2, 0, 3, 1), np.float32)),
    "bf16": lambda: nbt.tensor([1.5, -2.25], type="bf16"),
    "f16": lambda: nbt.tensor([[1.5, np.inf]], type="f16"),
    "f8": lambda: nbt.tensor([1.5, -2.0], type="f8"),
    "f8_e4m3fn": lambda: nbt.tensor([1.5, -2.0], type="f8_e4m3fn"),
    "c64": lambda: nbt.tensor([1 + 2j, -1j]),
    "c128": lambda: nbt.tensor(np.array([[1 + 2j, np.nan]], np.complex128)),
    "u8": lambda: nbt.tensor([0, 255], type="u8"),
    "u64": lambda: nbt.tensor(np.array([2**64 - 1], np.uint64)),
    "s64": lambda: nbt.tensor(np.array([-(2**63)], np.int64)),
    "nan and inf": lambda: nbt.tensor([np.nan, np.inf, -np.inf]),
    "rank 3": lambda: nbt.iota((2, 3, 4), names=["a", "b", "c"]),
    "large bf16": lambda: nbt.tensor(np.linspace(-1, 1, 5000), type="bf16"),
    "large f8": lambda: nbt.tensor(np.linspace(-8, 8, 2000), type="f8"),
    "large f8_e4m3fn": lambda: nbt.tensor(np.linspace(-8, 8, 2000), type="f8_e4m3fn"),
    "large c64 with nan": lambda: nbt.tensor(np.where(np.arange(3000) % 7, 1 + 1j, np.nan).astype(np.complex64)),
    "large all nan": lambda: nbt.tensor(np.full((40, 40), np.nan, np.float32)),
    "large u8 rank 3": lambda: nbt.tensor(np.arange(4000).reshape(10, 20, 20) % 256, type="u8"),
    "large s64": lambda: nbt.tensor(np.arange(2000, dtype=np.int64) * 2**40),
}


@pytest.mark.parametrize("backend", [nbt.NumPyBackend, nbt.XLABackend], ids=["numpy", "xla"])
@pytest.mark.parametrize("case", sorted(ODD))
def test_tensor_html_renders_odd_tensors(case, backend):
    with nbt.default_backend(backend()):
        t = ODD[case]()
    markup = _html.tensor_html(t)
    assert str(t.type) in markup
    assert "values unavailable" not in markup and "device unknown" not in markup
    assert markup.startswith("<div class='numbat-tensor'") and markup.endswith("</div>")
    if t.size == 0:
        assert "no elements" in markup
    elif t.size > _html.TABLE_LIMIT:
        assert "first 10 of" in markup
        assert "NaN" in markup or t.type.is_integer


def test_tensor_html_says_what_it_cannot_render():
    class Broken:
        def describe(self):
            raise RuntimeError("device lost")

        def to_numpy(self, tensor):
            raise RuntimeError("buffer deleted")

    t = nbt.tensor([1, 2])
    broken = nbt.Tensor(t.data, t.type, t.names, Broken())
    markup = _html.tensor_html(broken)
    assert "values unavailable: RuntimeError: buffer deleted" in markup
    assert "device unknown" in markup and "s32[2]" in markup


def test_large_tensor_html_summarizes_without_shipping_the_values():
    t = nbt.iota((400, 500), type="f32", names=["rows", "cols"])
    markup = _html.tensor_html(t)
    assert len(markup) < 5000
    numbers = re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", _text_of(markup).replace("f32[rows: 400][cols: 500]", ""))
    assert len(numbers) <= 30, numbers
    stats = dict(_stats.statistics(t.to_numpy(), t.type))
    assert stats["min"] == "0.0" and stats["max"] == "199999.0" and stats["NaN"] == "0"
    for label in ("min", "max", "mean", "std", "NaN", "Inf", "first 10 of 200000"):
        assert label in markup
    assert "199998" not in markup and "12345.0" not in markup and "<td" in markup


def test_statistics_skip_non_finite_values():
    stats = dict(_stats.statistics(np.array([1.0, np.nan, np.inf, 3.0], np.float32), nbt.Type("f", 32)))
    assert stats == {
        "min": "1.0",
        "max": "3.0",
        "mean": "2.0",
        "std": "1.0",
        "NaN": "1",
        "Inf": "1",
    }
    assert dict(_stats.statistics(np.array([np.nan], np.float32), nbt.Type("f", 32))) == {
        "NaN": "1",
        "Inf": "0",
    }


@pytest.mark.parametrize(
    ("shape", "pictures"), [((8, 8), 1), ((3, 4, 5), 3), ((10, 10), 1), ((2, 3), 1), ((20, 2, 2), 8), ((400, 500), 1)]
)
def test_every_tensor_of_rank_two_or_more_has_a_picture_of_its_slices(shape, pictures):
    t = nbt.iota(shape, names=[f"a<{i}>" for i in range(len(shape))], type="f32")
    markup = _html.tensor_html(t)
    assert markup.count("<img") == pictures and markup.count("data:image/png;base64,") == pictures
    assert f"a&lt;{len(shape) - 1}&gt; →" in markup and f"a&lt;{len(shape) - 2}&gt; →" in markup
    assert "a<" not in markup and "<script" not in markup
    if len(shape) == 3 and pictures < shape[0]:
        assert f"first {pictures} of {shape[0]} slices" in markup
    assert len(markup) < 30_000
    assert "<img" not in _html.tensor_html(nbt.iota((12,)))


def test_to_heatmap_pictures_every_slice_with_the_axis_names():
    markup = nbt.to_heatmap(nbt.iota((3, 4, 5), names=["z", "y", "x"]))._repr_html_()
    assert markup.count("<img") == 3 and "x →" in markup and "y →" in markup
    vectorized = nbt.to_heatmap(nbt.vectorize(nbt.iota((2, 3, 3)), "batch"))._repr_html_()
    assert vectorized.count("<img") == 2 and "batch" in vectorized


def test_the_pictures_of_a_volume_share_one_color_scale():
    markup = _heatmap.figure(nbt.iota((3, 4, 5), type="f32"))
    assert "0.0 <span" in markup and "</span> 59.0" in markup  # the legend spans every slice
    dark, light = _heatmap.png(np.zeros((1, 1)), (0, 59)), _heatmap.png(np.full((1, 1), 59.0), (0, 59))
    assert dark != light


def test_the_header_gives_the_bytes():
    assert "256 B" in _html.tensor_html(nbt.iota((8, 8), type="f32"))
    assert "1.9 MiB" in _html.tensor_html(nbt.iota((1000, 1000), type="bf16"))
    assert _html.nbytes(nbt.iota((3,), type="u8")) == "3 B"


@pytest.mark.parametrize("backend", [nbt.NumPyBackend, nbt.XLABackend], ids=["numpy", "xla"])
def test_large_complex_tensors_report_magnitudes(backend):
    values = (np.arange(3000) * (1 - 1j)).astype(np.complex64)
    values[5] = np.nan
    stats = dict(_stats.summary(nbt.tensor(values, backend=backend())))
    assert stats["NaN"] == "1" and stats["max |x|"] == "4241.23"
    assert "mean" not in stats and "min" not in stats and "NaN" not in stats["mean |x|"]
    assert "|x|" in _html.tensor_html(nbt.tensor(values.reshape(30, 100), backend=backend()))


@pytest.mark.parametrize("position", [0, 5_000, 9_999])
@pytest.mark.parametrize("backend", [nbt.NumPyBackend, nbt.XLABackend], ids=["numpy", "xla"])
def test_a_large_view_counts_a_nan_wherever_it_is(backend, position):
    """XLA's CPU min and max can lose a NaN of a large tensor: the view's count does not."""
    values = np.linspace(-1.0, 1.0, 10_000, dtype=np.float32)
    values[position] = -np.float32("nan")
    stats = dict(_stats.summary(nbt.tensor(values, backend=backend())))
    assert stats["NaN"] == "1" and stats["Inf"] == "0" and "nan" not in (stats["min"] + stats["max"]).lower()
    finite = values[~np.isnan(values)]
    assert (stats["min"], stats["max"]) == (str(finite.min()), str(finite.max()))


@pytest.mark.parametrize("type_", ["s64", "u64", "f64", "c128", "bf16", "f16", "u8"])
def test_large_views_agree_on_both_backends_without_warnings(type_):
    values = np.random.default_rng(1).normal(4, 3, (60, 50))
    host = nbt.tensor(values, type=type_, backend=nbt.NumPyBackend())
    device = nbt.tensor(values, type=type_, backend=nbt.XLABackend())
    on_host, on_device = dict(_stats.summary(host)), dict(_stats.summary(device))
    assert on_host.keys() == on_device.keys()
    for label, value in on_host.items():
        assert float(value) == pytest.approx(float(on_device[label]), rel=1e-4), label
    assert "values unavailable" not in _html.tensor_html(device)


def test_a_large_view_on_the_numpy_backend_stays_in_bounded_memory():
    """tracemalloc sees NumPy's allocations: a 50M-element f32 tensor (191 MiB) is
    summarized and pictured with a few MiB more, not a float64 copy (381 MiB)."""
    import tracemalloc

    t = nbt.iota((5000, 10000), type="f32", backend=nbt.NumPyBackend())
    tracemalloc.start()
    try:
        markup = _html.tensor_html(t)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert ">5.0e7<" in markup and "first 10 of 50000000" in markup
    assert peak < 16 * 2**20, f"{peak / 2**20:.1f} MiB"


def test_statistics_of_a_strided_host_array_match_its_contiguous_copy():
    values = np.random.default_rng(2).normal(size=(700, 900)).astype(np.float32)
    values[3, 4] = np.nan
    assert _stats.statistics(values.T, nbt.Type("f", 32)) == _stats.statistics(values.copy(), nbt.Type("f", 32))
    assert _html._leading(values.T).tolist() == values.T.reshape(-1)[:10].tolist()


def test_a_large_view_on_the_xla_backend_stays_on_the_device():
    """The peak resident memory (VmHWM, reset through /proc/self/clear_refs) grows by
    compiling the kernels only, not by a host copy of the 50M-element tensor."""
    script = textwrap.dedent(
        """
        import numbat as nbt
        from numbat.notebook import _html

        def peak():
            with open("/proc/self/status") as f:
                return next(int(line.split()[1]) for line in f if line.startswith("VmHWM")) * 1024

        t = nbt.iota((5000, 10000), type="f32")
        t.data.block_until_ready()
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        before = peak()
        markup = _html.tensor_html(t)
        assert ">5.0e7<" in markup and "first 10 of 50000000" in markup, markup
        print(peak() - before)
        """
    )
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", script], check=False, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    growth = int(done.stdout.split()[-1])
    assert growth < 32 * 2**20, f"{growth / 2**20:.1f} MiB"  # the tensor itself is 191 MiB


# --- expression SVG ------------------------------------------------------------


def _softmax(t):
    return nbt.exp(t) / nbt.sum(nbt.exp(t))


def _parse(svg):
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    assert float(root.get("width")) > 0 and float(root.get("height")) > 0
    return root


def _boxes(root):
    return [r for r in root.iter(SVG + "rect") if "nbt-node" in r.get("class", "").split()]


def _texts(root):
    return [t.text for t in root.iter(SVG + "text")]


def test_expr_svg_draws_the_graph():
    expr = nbt.debug_expr(_softmax)(nbt.tensor([1, 2]))
    svg = _svg.expr_svg(expr)
    root = _parse(svg)
    texts = _texts(root)
    for label in (
        "parameter a:0",
        "b = exp",
        "c = exp",
        "d = sum",
        "e = divide",
        "f32[2]",
        "s32[2]",
        "out 0",
    ):
        assert label in texts
    boxes = _boxes(root)
    assert len(boxes) == 5
    assert sum("param" in b.get("class") for b in boxes) == 1 and sum("out" in b.get("class") for b in boxes) == 1
    assert len([p for p in root.iter(SVG + "path") if p.get("marker-end")]) == 5  # a->b, a->c, c->d, b->e, d->e
    assert "<script" not in svg and "http://www.w3.org/2000/svg" in svg
    assert expr._repr_mimebundle_()["image/svg+xml"] == svg


def test_expr_svg_of_one_node():
    root = _parse(_svg.expr_svg(nbt.debug_expr(lambda t: t)(nbt.tensor([1.0]))))
    (box,) = _boxes(root)
    assert "param" in box.get("class") and "out" in box.get("class")


def test_expr_svg_shows_inline_constants_and_several_outputs():
    expr = nbt.debug_expr(lambda t: (t * 2.5, t + 1.0, 1.0))(nbt.tensor([1.0]))
    texts = _texts(_parse(_svg.expr_svg(expr)))
    assert "a, 2.5" in texts and "out 0" in texts and "out 1" in texts and "out 2" in texts
    assert "constant" in texts


def test_expr_svg_escapes_names_and_control_characters():
    names = ["<script>&x", "y\x01\"'"]
    expr = nbt.debug_expr(lambda t: nbt.sum(t, axes=[names[0]]))(nbt.tensor([[1, 2]], names=names))
    svg = _svg.expr_svg(expr)
    texts = _texts(_parse(svg))
    assert "s32[<script>&x: 1][y?\"': 2]" in texts
    assert "<script>" not in svg


def test_expr_svg_of_a_wide_graph_wraps_layers():
    expr = nbt.debug_expr(lambda ts: sum(ts[1:], ts[0]))([nbt.tensor([1.0])] * 40)
    root = _parse(_svg.expr_svg(expr))
    assert len(_boxes(root)) == 40 + 39
    assert float(root.get("width")) < 2500


def test_expr_svg_draws_sub_graphs_in_frames_lettered_as_the_printed_form():
    import re
    import xml.etree.ElementTree as ET

    def program(x):
        def otherwise(a):
            return nbt.while_loop(lambda s: s[1] < 3, lambda s: (s[0] + 1, s[1] + 1), (a, 0))[0]

        return nbt.cond(nbt.sum(x) > 0, lambda a: a * 2, otherwise, x)

    expr = nbt.debug_expr(program)(nbt.tensor([1.0, 2.0]))
    svg = _svg.expr_svg(expr)
    ET.fromstring(svg)
    frames = re.findall(r"<text class='nbt-title'[^>]*>([a-z]+ = [a-z]+: [a-z]+)</text>", svg)
    assert frames == ["d = cond: true", "d = cond: false", "h = while: condition", "h = while: body"]
    printed = str(expr)
    for title in ("parameter e:0", "f = multiply", "n = add", "o = add"):
        assert title in printed and f">{title}<" in svg


def test_expr_svg_counts_sub_graphs_nested_too_deep():
    def nest(x, depth):
        if depth == 0:
            return x + 1
        return nbt.cond(x[0] > 0, lambda a: nest(a, depth - 1), lambda a: a, x)

    svg = _svg.expr_svg(nbt.debug_expr(lambda x: nest(x, _svg.MAX_DEPTH + 1))(nbt.tensor([1.0])))
    assert "nodes, not drawn" in svg


def test_a_large_graph_expands_to_text_and_draws_in_full_with_all(ip):
    run(
        ip,
        "import numbat as nbt\ndef chain(t):\n    for i in range(200):\n        t = nbt.exp(t) if i % 2 else t * 1.5\n    return t\nx = nbt.tensor([1.0])",
    )
    bundle = nbt.debug_expr(ip.user_ns["chain"])(ip.user_ns["x"])._repr_mimebundle_()
    assert "<details><summary>the whole graph as text (201 rows)" in bundle["text/html"]
    assert "%numbat graph FUN ARGS --all" in bundle["text/html"]
    cell = run(ip, "%numbat graph chain x --all")
    drawn = cell.displays[-1]
    assert "text/html" not in drawn and drawn["image/svg+xml"].count("<g><rect") == 201


def test_expr_svg_of_hundreds_of_nodes_is_capped():
    def chain(t):
        for i in range(300):
            t = nbt.exp(t) if i % 2 else t * 1.5
        return t

    expr = nbt.debug_expr(chain)(nbt.tensor([1.0]))
    assert len(expr.nodes) > 300
    root = _parse(_svg.expr_svg(expr))
    assert len(_boxes(root)) == _svg.MAX_NODES
    assert any("showing the" in (t or "") for t in _texts(root))
    assert "out 0" in _texts(root)


# --- strip and doctests ----------------------------------------------------------


def test_strip_escapes_and_counts():
    record = telemetry.Record(
        1,
        0.0,
        telemetry.COMPILATION,
        {"eval_time": 2500, "compile_time": 10},
        {"function": "<i>f</i>", "signature": "(s32[x&y: 1])"},
    )
    bundle = _strip.strip([record] * (_strip.MAX_ROWS + 3), {"<i>f</i>": 4})
    assert (
        bundle["text/plain"].splitlines()[0] == "numbat: compiled <i>f</i> (s32[x&y: 1]): trace 2.5 ms, compile 0.0 ms"
    )
    assert "and 3 more compilation(s)" in bundle["text/plain"]
    assert bundle["text/plain"].endswith("numbat: cache hits: <i>f</i> 4")
    assert "<i>" not in bundle["text/html"] and "&lt;i&gt;f&lt;/i&gt;" in bundle["text/html"]
    assert "x&amp;y" in bundle["text/html"]


@pytest.mark.parametrize("module", [_html, _svg, _strip, _magics], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(module, module.__name__, globs={**vars(module), "nbt": nbt, "np": np}):
        runner.run(test)
    assert runner.failures == 0


# --- settings and graph magics -------------------------------------------


def test_settings_after_the_client_started_answer_in_one_line(ip):
    run(ip, "import numbat as nbt\n_ = nbt.tensor([1])")
    for line in ("%numbat memory preallocate=false", "%numbat memory fraction=0.5", "%numbat client host"):
        cell = run(ip, line)
        assert cell.result.error_in_exec is None
        assert cell.stderr.count("\n") == 1 and "already started" in cell.stderr and "Restart the kernel" in cell.stderr
    cell = run(ip, "%numbat memory")
    assert "XLA_PYTHON_CLIENT_PREALLOCATE" in cell.displays[0]["text/plain"]
    assert "device memory" in cell.displays[0]["text/plain"]


def test_bad_settings_arguments_are_one_line_messages(ip):
    for line, message in [
        ("%numbat memory fraction=two", "fraction must be a number"),
        ("%numbat memory threads=2", "takes preallocate=true|false and fraction=F"),
        ("%numbat precision extreme", "precision must be one of default, high, highest"),
        ("%numbat '", "No closing quotation"),
        ("%numbat graph nothing_here", "'nothing_here' is not defined"),
    ]:
        cell = run(ip, line)
        assert cell.result.error_in_exec is None and message in cell.stderr, (line, cell.stderr)


def test_precision_magic_sets_the_default_for_new_defns(ip):
    cell = run(ip, "%numbat precision highest")
    assert "'highest'" in cell.displays[0]["text/plain"]
    run(ip, "import numbat as nbt\n_f = nbt.jit(lambda t: t)")
    assert ip.user_ns["_f"].precision == "highest"
    nbt._defn._options._global.pop("precision")  # leave the process as the test found it


def test_precision_magic_says_what_each_setting_means_per_platform(ip):
    text = run(ip, "%numbat precision").displays[0]["text/plain"]
    rows = [line.replace("*", "").split() for line in text.splitlines()[2:5]]
    assert {row[0]: row[1] for row in rows} == {"default": "float32", "high": "float32", "highest": "float32"}, text
    assert "one bfloat16 pass" in text and "tensorfloat32" in text and "*  default" in text  # never bfloat16 on a CPU


def test_ir_views_leave_out_source_locations_unless_asked(ip):
    run(ip, "import numbat as nbt\n_fma = nbt.defn(lambda a, b: a * b + 1.0)\n_v = nbt.iota((3,), type='f32')")
    for flag in ("--hlo", "--mlir"):
        shown = run(ip, f"%numbat graph _fma _v _v {flag}").displays[0]
        plain = shown["text/plain"]
        assert "#FF0000" not in shown["text/html"]  # no red boxes around tokens the LLVM lexer does not know
        assert ".py" not in plain and "stack_frame_id" not in plain and "loc(" not in plain, plain
        assert ("multiply" in plain) and len(plain) < 2000
    located = run(ip, "%numbat graph _fma _v _v --hlo --locations").displays[0]["text/plain"]
    assert "FileNames" in located and "stack_frame_id" in located


def test_graph_magic_draws_the_expression_the_kernels_and_the_ir(ip):
    run(ip, "import numbat as nbt\nx = nbt.iota((8,), type='f32')\nfma = nbt.defn(lambda x, y, z: x + y * z)")
    drawn = run(ip, "%numbat graph fma x x x").displays[0]
    assert "<svg" in drawn["image/svg+xml"] and "multiply" in drawn["text/plain"]
    fused = run(ip, "%numbat graph fma x x x --fused").displays[0]
    assert (
        "1 kernel(s)" in fused["text/plain"] and "multiply, add" in fused["text/html"] and "<svg" in fused["text/html"]
    )
    mlir = run(ip, "%numbat graph fma x x x --mlir").displays[0]
    assert "stablehlo.multiply" in mlir["text/plain"] and "numbat-ir" in mlir["text/html"]
    hlo = run(ip, "%numbat graph fma x x x --hlo").displays[0]
    assert "fusion" in hlo["text/plain"]


def test_graph_magic_escapes_names(ip):
    run(
        ip,
        "import numbat as nbt\nx = nbt.tensor([1.0], names=['<script>alert(1)</script>'])\nneg = nbt.defn(lambda t: -t)",
    )
    fused = run(ip, "%numbat graph neg x --fused").displays[0]
    assert "<script>" not in fused["text/html"] and "&lt;script&gt;" in fused["text/html"]


# --- plots, explorer and the large-tensor view -------------------------------


def test_large_tensor_view_has_statistics_and_a_heatmap_without_the_values():
    values = np.random.default_rng(0).normal(size=(300, 200)).astype(np.float32)
    values[0, 0], values[1, 1] = np.nan, np.inf
    markup = _html.tensor_html(nbt.tensor(values, names=["<row>", "col"]))
    finite = values[np.isfinite(values)]
    assert f"{finite.min():.4g}"[:4] in markup and "NaN</td><td" in markup
    assert "data:image/png;base64," in markup and "numbat-heatmap" in markup
    assert "&lt;row&gt; →" in markup and "<row>" not in markup
    assert len(markup) < 60_000


def test_plots_return_figures():
    t = nbt.iota((4, 5), names=["row", "col"], type="f32")
    assert nbt.notebook.heatmap(t).axes[0].get_xlabel() == "col"
    assert nbt.notebook.histogram(t, bins=5).axes[0].patches
    assert nbt.notebook.telemetry_chart().axes[0].get_xlabel() == "milliseconds"
    with pytest.raises(nbt.ArgumentError, match="rank 2 or more"):
        nbt.notebook.heatmap(nbt.iota((3,)))


def test_explorer_is_a_widget_with_a_static_fallback():
    explorer = nbt.notebook.explorer(nbt.iota((3, 2, 2), names=["step", "row", "col"]))
    bundle = explorer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle and "numbat-explorer" in bundle["text/html"]
    slider = explorer.widget().children[0]
    assert slider.description == "step" and slider.max == 2
    slider.value = 2
    view = explorer.widget().children[-1].value
    assert "step=2" in view and ">8<" in view and "<img" in view  # the selected slice, as numbers and a picture


def test_shards_view_says_which_device_holds_which_piece():
    t = nbt.tensor([[1, 2], [3, 4]], names=["<r>", "c"], backend=nbt.NumPyBackend())
    view = nbt.notebook.shards(t)
    assert repr(view) == "s32[<r>: 2][c: 2] on 1 device(s)\n  host holds [0:2, 0:2]: [ [1, 2], [3, 4] ]"
    markup = view._repr_html_()
    assert "numbat-shards" in markup and "&lt;r&gt;" in markup and "<r>" not in markup and markup.count("<td") == 4
    with pytest.raises(nbt.ArgumentError, match="at least one axis"):
        nbt.notebook.shards(nbt.tensor(1))


def test_telemetry_strip_can_be_turned_off_and_on(ip):
    run(ip, "import numbat as nbt")
    assert "strip after each cell is off" in run(ip, "%numbat telemetry off").stdout
    assert not run(ip, "nbt.jit(lambda t: t - 7)(nbt.tensor([1]))").strips()
    run(ip, "%numbat telemetry on")
    assert run(ip, "nbt.jit(lambda t: t - 8)(nbt.tensor([1]))").strips()
    assert run(ip, "%numbat telemetry show").displays and run(ip, "%numbat telemetry chart").displays


# --- dashboard and panel widgets ---------------------------------------------------


def test_dashboard_redraws_after_a_cell_that_compiles_and_stops_when_closed(ip):
    import gc

    run(ip, "import numbat as nbt\nboard = nbt.notebook.dashboard()")
    board = ip.user_ns["board"]
    assert "updates after each cell" in board.view.value
    run(ip, "nbt.defn(lambda t: t * 3, )(nbt.iota((4,)))  # compiles <lambda>")
    before = board.view.value
    run(ip, "f_dash = nbt.defn(lambda t: t - 1)\nf_dash.name = 'dash<fn>'\nf_dash(nbt.iota((2,)))")
    assert board.view.value != before and "dash&lt;fn&gt;" in board.view.value and "dash<fn>" not in board.view.value
    watcher = nbt_watcher(ip)
    live = [r for r in watcher._listeners if r() is not None]
    run(ip, "board.close()\ndel board")  # a closed widget leaves ipywidgets' registry
    del board
    gc.collect()
    run(ip, "nbt.defn(lambda t: t + 5)(nbt.iota((3,)))")
    assert len([r for r in watcher._listeners if r() is not None]) == len(live) - 1


def nbt_watcher(ip):
    from numbat.notebook._strip import _loaded

    return _loaded[id(ip)][1]


def test_a_failing_listener_is_removed_and_the_cell_survives(ip):
    watcher = nbt_watcher(ip)

    def broken(records, hits):
        raise RuntimeError("listener bug")

    watcher.listen(broken)
    cell = run(ip, "import numbat as nbt\nnbt.defn(lambda t: t * 7)(nbt.iota((5,)))")
    assert cell.result.success
    assert all(r() is not broken for r in watcher._listeners)


def test_dashboard_and_panel_degrade_to_static_views_without_the_extension():
    import numbat as nbt

    board = nbt.notebook.dashboard()._repr_mimebundle_()
    assert "static view" in board["text/html"] and board["text/plain"].startswith("numbat telemetry:")
    panel = nbt.notebook.panel()
    bundle = panel._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "memory settings" in bundle["text/plain"] and "XLA_PYTHON_CLIENT_PREALLOCATE" in bundle["text/html"]
    panel.refresh.click()  # redraws without starting anything new or raising
    assert "memory settings" in panel.view.value


# --- one user string through every HTML view --------------------------------------

EVIL = "<script>alert('x')</script>&\"'"


def test_a_user_string_is_escaped_in_every_html_view(ip, monkeypatch):
    run(ip, "import numbat as nbt\nnbt.tensor([1])")  # the client starts first: XLA would reject such flags
    monkeypatch.setenv("XLA_FLAGS", EVIL)  # a setting the panel and %numbat memory show
    ip.user_ns["evil"] = EVIL
    cells = [
        "t = nbt.iota((2, 3, 4), type='f32', names=[evil, 'b', 'c'])\nt",
        "f = nbt.defn(lambda v: v * 2)\nf.name = evil\nf(t)",
        "nbt.debug_expr(f)(t)",
        "nbt.notebook.explorer(t)",
        "nbt.notebook.dashboard()",
        "nbt.notebook.panel()",
        "%numbat telemetry",
        "%numbat cache",
        "%numbat memory",
        "%numbat graph f t --fused",
    ]
    html = []
    for code in cells:
        cell = run(ip, code)
        assert cell.result.success, code
        for data in cell.displays + (
            [cell.result.result._repr_mimebundle_()] if hasattr(cell.result.result, "_repr_mimebundle_") else []
        ):
            html.append(data.get("text/html", "") + data.get("image/svg+xml", ""))
    joined = "".join(html)
    assert "<script>" not in joined and "alert('x')</script>" not in joined
    assert "&lt;script&gt;" in joined


def test_a_heatmap_of_an_empty_tensor_is_a_numbat_error():
    with pytest.raises(nbt.ArgumentError, match="nothing to draw"):
        nbt.notebook.heatmap(nbt.tensor(np.zeros((2, 0))))
