"""The tutorials, executed fresh under the installed Numbat kernel, show the rich views.

(nbval, run by the same pytest command, checks their committed text outputs.)
"""

import pathlib

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient

NOTEBOOKS = pathlib.Path(__file__).parent.parent / "notebooks"


@pytest.fixture(scope="module")
def tutorial_outputs():
    if "numbat" not in KernelSpecManager().find_kernel_specs():
        pytest.fail(
            "the Numbat kernel is not installed: run `numbat kernel install --sys-prefix` (the README's set-up does)"
        )
    notebook = nbformat.read(NOTEBOOKS / "01_tensors_and_defn.ipynb", as_version=4)
    NotebookClient(
        notebook, timeout=300, kernel_name="numbat", resources={"metadata": {"path": str(NOTEBOOKS)}}
    ).execute()
    return [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]


def test_tutorial_runs_without_errors(tutorial_outputs):
    assert not [o for o in tutorial_outputs if o.output_type == "error"]


def test_tutorial_shows_html_tensor_views(tutorial_outputs):
    html = [o.data["text/html"] for o in tutorial_outputs if "text/html" in o.get("data", {})]
    assert any("numbat-tensor" in h and "s32[x: 2][y: 2]" in h for h in html)


def test_tutorial_draws_an_svg_expression_graph(tutorial_outputs):
    svgs = [o.data["image/svg+xml"] for o in tutorial_outputs if "image/svg+xml" in o.get("data", {})]
    assert svgs and "<svg" in svgs[0] and "divide" in svgs[0]


def test_tutorial_shows_a_telemetry_strip_after_compiling(tutorial_outputs):
    strips = [o.data["text/html"] for o in tutorial_outputs if "numbat-strip" in o.get("data", {}).get("text/html", "")]
    assert any("softmax" in s and "f32[3]" in s for s in strips)
