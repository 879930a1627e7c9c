"""Tests for numbat/notebook in a real IPython shell: loading the extension, the telemetry strip,
the %numbat magics, the dashboard and panel widgets, and one user string through every view."""

import doctest
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from _shell import _unique, run

import numbat as nbt
from numbat import telemetry
from numbat._runtime import _client
from numbat.notebook import _html, _magics, _strip, _svg


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


def test_ir_views_highlight_whole_words(ip):
    # LLVM IR's lexer split `tensor` into letters and the keyword `or`, which it coloured.
    run(ip, "import numbat as nbt\n_exp = nbt.defn(lambda a: nbt.exp(a))\n_v = nbt.iota((3,), type='f32')")
    mlir = run(ip, "%numbat graph _exp _v --mlir").displays[0]["text/html"]
    hlo = run(ip, "%numbat graph _exp _v --hlo").displays[0]["text/html"]
    for markup in (mlir, hlo):
        assert ">or</span>" not in markup
    assert re.search(r"<span[^>]*>tensor</span>", mlir) and re.search(r"<span[^>]*>stablehlo.exponential</span>", mlir)
    assert re.search(r"<span[^>]*>f32</span>", hlo) and re.search(r"<span[^>]*>%[\w.]+</span>", hlo)


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
    from numbat.notebook._strip import loaded_extensions

    return loaded_extensions[id(ip)][1]


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


def test_strip_says_loaded_for_an_executable_from_the_disk_cache():
    """Nothing compiled: the executable was read back (issue 43 found it reported as compiled)."""
    record = telemetry.Record(
        1, 0.0, telemetry.COMPILATION, {"eval_time": 2500, "compile_time": 1200},
        {"function": "fma", "signature": "(f32[3])", "cached_on_disk": True},
    )  # fmt: skip
    bundle = _strip.strip([record], {})
    assert bundle["text/plain"] == "numbat: loaded fma (f32[3]) from the disk cache: trace 2.5 ms, load 1.2 ms"
    assert "compiled" not in bundle["text/plain"] and "compile" not in bundle["text/html"]
