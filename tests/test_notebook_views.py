"""Tests for numbat/notebook's views: tensor HTML, statistics, heatmaps, expression SVG, plots, explorer, shards."""

import html
import re
import subprocess
import sys
import textwrap
import types
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from _shell import run

import numbat as nbt
from numbat import telemetry
from numbat.notebook import _heatmap_png, _html, _stats, _svg

SVG = "{http://www.w3.org/2000/svg}"


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
    markup = _heatmap_png.figure(nbt.iota((3, 4, 5), type="f32"))
    assert "0.0 <span" in markup and "</span> 59.0" in markup  # the legend spans every slice
    dark, light = _heatmap_png.png(np.zeros((1, 1)), (0, 59)), _heatmap_png.png(np.full((1, 1), 59.0), (0, 59))
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


def test_the_telemetry_chart_counts_its_compilations_in_words(monkeypatch):
    def records(count):
        record = types.SimpleNamespace(metadata={"function": "f"}, measurements={"eval_time": 10, "compile_time": 20})
        return lambda **_: [record] * count

    for count, title in ((1, "1 compilation)"), (2, "2 compilations)")):  # not "(1 compilations)"
        monkeypatch.setattr(telemetry, "log", records(count))
        assert nbt.notebook.telemetry_chart().axes[0].get_title().endswith(title)
    monkeypatch.setattr(telemetry, "log", records(0))
    empty = nbt.notebook.telemetry_chart().axes[0]  # empty axes said nothing
    assert [text.get_text() for text in empty.texts] == ["no compilations yet: call a defn"]


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


def test_a_heatmap_of_an_empty_tensor_is_a_numbat_error():
    with pytest.raises(nbt.ArgumentError, match="nothing to draw"):
        nbt.notebook.heatmap(nbt.tensor(np.zeros((2, 0))))
