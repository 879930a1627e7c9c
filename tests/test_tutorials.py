"""The tutorials, executed fresh under the installed Numbat kernel, run clean and show the
rich views (nbval, run by the same pytest command, checks their committed text outputs)."""

import pathlib
import re

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient

NOTEBOOKS = pathlib.Path(__file__).parent.parent / "notebooks"
TUTORIALS = sorted(path.name for path in NOTEBOOKS.glob("0*.ipynb"))


@pytest.fixture(scope="module")
def executed():
    if "numbat" not in KernelSpecManager().find_kernel_specs():
        pytest.fail(
            "the Numbat kernel is not installed: run `numbat kernel install --sys-prefix` (the README's set-up does)"
        )
    cache = {}

    def run(name):
        if name not in cache:
            notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
            NotebookClient(
                notebook, timeout=300, kernel_name="numbat", resources={"metadata": {"path": str(NOTEBOOKS)}}
            ).execute()
            cache[name] = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
        return cache[name]

    return run


def _data(outputs, mime):
    return [o.data[mime] for o in outputs if mime in o.get("data", {})]


def _text(outputs):
    return "".join(o.get("text", "") + o.get("data", {}).get("text/plain", "") for o in outputs)


def test_there_are_eight_tutorials():
    assert [name[:2] for name in TUTORIALS] == [f"0{i}" for i in range(1, 9)]


@pytest.mark.parametrize("name", TUTORIALS)
def test_tutorial_runs_without_errors(executed, name):
    assert not [o for o in executed(name) if o.output_type == "error"]


def test_tutorial_01_shows_tensor_views_graph_and_telemetry(executed):
    outputs = executed("01_tensors_and_defn.ipynb")
    assert any("numbat-tensor" in h and "s32[x: 2][y: 2]" in h for h in _data(outputs, "text/html"))
    assert any("numbat-heatmap" in h for h in _data(outputs, "text/html"))
    assert any("<svg" in s and "divide" in s for s in _data(outputs, "image/svg+xml"))
    assert any("numbat-strip" in h and "softmax" in h for h in _data(outputs, "text/html"))


def test_tutorial_03_inlines_a_defn_and_runs_control_flow(executed):
    text = _text(executed("03_defn_and_the_compiler.ipynb"))
    assert "nbt.cond" in text and "111" in text


def test_tutorial_05_shows_one_fused_kernel_and_a_disk_hit(executed):
    outputs = executed("05_inside_xla.ipynb")
    assert "multiply_add_fusion" in _text(outputs) and "[False, True]" in _text(outputs)
    assert any("multiply, add" in h for h in _data(outputs, "text/html"))


def test_tutorial_08_trains_past_90_percent_and_plots(executed):
    outputs = executed("08_training_a_classifier.ipynb")
    accuracy = float(re.search(r"test accuracy: ([\d.]+)%", _text(outputs)).group(1))
    assert accuracy >= 90
    assert len(_data(outputs, "image/png")) >= 3  # the first digit, the loss curve, the confusion matrix
    assert _data(outputs, "application/vnd.jupyter.widget-view+json")  # the explorer, as a widget


def test_static_html_of_the_tutorials_shows_the_widgets_views():
    """nbconvert (as GitHub or a static site would) shows the dashboard and the panel as
    their static HTML, with no widget manager."""
    import nbconvert
    import nbformat

    folder = pathlib.Path(__file__).resolve().parent.parent / "notebooks"
    exporter = nbconvert.HTMLExporter()
    dashboard, _ = exporter.from_notebook_node(nbformat.read(folder / "03_defn_and_the_compiler.ipynb", as_version=4))
    panel, _ = exporter.from_notebook_node(nbformat.read(folder / "06_clients_devices_memory.ipynb", as_version=4))
    assert "numbat-dashboard" in dashboard and "latest compilations" in dashboard
    assert "memory settings" in panel and "XLA_PYTHON_CLIENT_PREALLOCATE" in panel
