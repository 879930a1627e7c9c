"""numbat as users get it: a wheel that carries the kernel spec, installed on its own.

The wheel is built from this checkout and installed (without dependencies, which the test
environment already has) into a fresh directory; `numbat kernel install` run from that
installation registers a kernel that executes a notebook cell with the extension loaded.
"""

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        check=True,
        timeout=300,
    )
    (built,) = out.glob("numbat_nx-*.whl")  # the distribution numbat-nx: the index's `numbat` is another library
    return built


def test_wheel_ships_the_kernel_spec_in_the_cli_only(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert "numbat/cli.py" in names
    assert [name for name in names if name.endswith(".json")] == []  # the spec's one home: cli.KERNEL_SPEC


def test_kernel_installed_from_the_wheel_runs_a_notebook(wheel, tmp_path, monkeypatch):
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
        check=True,
        timeout=300,
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    prefix = tmp_path / "prefix"
    install = subprocess.run(
        [sys.executable, "-c", "import sys; from numbat import cli; sys.exit(cli.main(sys.argv[1:]))"]
        + ["kernel", "install", "--prefix", str(prefix)],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert install.returncode == 0, install.stderr
    kernels = prefix / "share" / "jupyter" / "kernels"
    spec = json.loads((kernels / "numbat" / "kernel.json").read_text())
    canonical = json.loads((ROOT / "kernel" / "numbat" / "kernel.json").read_text())
    assert spec == {**canonical, "argv": [sys.executable, *canonical["argv"][1:]]}
    spec["env"]["PYTHONPATH"] = str(site)  # the kernel imports the wheel's numbat, not this checkout's
    (kernels / "numbat" / "kernel.json").write_text(json.dumps(spec))

    notebook = nbformat.v4.new_notebook()
    notebook.cells.append(
        nbformat.v4.new_code_cell(
            "import numbat as nbt\n"
            "print(nbt.__file__)\n"
            "print('numbat' in get_ipython().extension_manager.loaded)\n"
            "print(nbt.sum(nbt.tensor([1, 2, 3])))"
        )
    )
    monkeypatch.setenv("JUPYTER_PATH", str(prefix / "share" / "jupyter"))  # found before the checkout's kernel
    assert KernelSpecManager().find_kernel_specs()["numbat"] == str(kernels / "numbat")
    NotebookClient(
        notebook, timeout=120, kernel_name="numbat", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    text = "".join(output.get("text", "") for output in notebook.cells[0].outputs)
    lines = text.splitlines()
    assert lines[0].startswith(str(site))
    assert lines[1] == "True"
    assert "s32\n  6" in text


def test_the_wheel_is_numbat_nx_at_the_modules_version(wheel):
    """The index's `numbat` is an unrelated library: numbat's distribution is numbat-nx."""
    import numbat as nbt

    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = archive.read(name).decode()
    assert "\nName: numbat-nx\n" in metadata and f"\nVersion: {nbt.__version__}\n" in metadata
