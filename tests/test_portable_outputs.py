"""The tutorials' committed outputs do not depend on the machine's arithmetic. nbval checks
them a second way: with XLA's CPU compiler told to use other vector units (SSE4.2 only) and
fast math, which change the last bits of transcendental functions and reductions as another
CPU, thread count or library version would. A digit that moved would fail here."""

import os
import pathlib
import subprocess
import sys

import pytest
from _shell import host_kernel_env
from jupyter_client.kernelspec import KernelSpecManager

ROOT = pathlib.Path(__file__).resolve().parent.parent
SECOND_WAY = "--xla_cpu_enable_fast_math=true --xla_cpu_max_isa=SSE4_2"


# Tutorial 06 shows XLA_FLAGS in its memory-settings panel: under the second way it reads
# the flags above, from the environment, in a wider table. These patterns, after
# notebooks/sanitize.cfg's own, read the second way's settings as the recorded ones.
SECOND_WAY_PATTERNS = [
    (SECOND_WAY, "(unset)"),  # the flags' value
    (r"\benvironment\b", "default"),  # where the value came from
    (r"\s+", ""),  # the table's spacing, wider for the longer value
]

PROBE = """
import hashlib, jax, jax.numpy as jnp, numpy as np
x = jnp.asarray(np.random.default_rng(0).standard_normal((1400, 64)), jnp.float32)
print(hashlib.sha256(np.asarray(jax.jit(lambda x: (jnp.tanh(x), jnp.exp(x)))(x)).tobytes()).hexdigest())
"""


def _run(args, xla_flags, timeout):
    env = host_kernel_env()  # the nbval kernels it starts run on the host client, as the outputs' record
    env.pop("XLA_FLAGS", None)
    if xla_flags:
        env["XLA_FLAGS"] = xla_flags
    return subprocess.run(
        [sys.executable, *args], check=False, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )


def test_the_second_way_changes_the_arithmetic():
    default, second = (_run(["-c", PROBE], flags, 120).stdout for flags in ("", SECOND_WAY))
    assert default and second and default != second


def test_tutorials_pass_nbval_when_the_arithmetic_changes(tmp_path):
    """About 40 s on a 2-core machine."""
    if "numbat" not in KernelSpecManager().find_kernel_specs():
        pytest.fail("the Numbat kernel is not installed: run `numbat kernel install --sys-prefix`")
    config = tmp_path / "sanitize.cfg"
    extra = "".join(f"\nregex: {regex}\nreplace: {replace}\n" for regex, replace in SECOND_WAY_PATTERNS)
    config.write_text((ROOT / "notebooks" / "sanitize.cfg").read_text() + extra)
    notebooks = [f"notebooks/{path.name}" for path in sorted((ROOT / "notebooks").glob("0*.ipynb"))]
    result = _run(
        ["-m", "pytest", *notebooks, "-q", "-p", "no:randomly", "--nbval-sanitize-with", str(config)],
        SECOND_WAY,
        540,
    )
    assert result.returncode == 0, result.stdout[-6000:]


def test_nbval_markers_are_spelled_as_nbval_reads_them():
    """nbval honours a marker only when the comment is the marker alone: `# NBVAL_IGNORE_OUTPUT:
    why` was compared in full (06's errors, 05's profiles). The reason goes on the next line."""
    import nbformat
    from nbval.plugin import comment_markers

    for path in sorted((ROOT / "notebooks").glob("0*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            for line in cell.source.splitlines():
                comment = line.strip().lstrip("#").strip()
                if line.strip().startswith("#") and comment.startswith(("NBVAL", "PYTEST_VALIDATE")):
                    assert comment in comment_markers, f"{path.name}: {line!r}"


def test_nbval_runs_the_numbat_kernel_on_the_host(tmp_path):
    """Under the test command, nbval's Numbat kernel runs on the host client (tests/conftest.py's
    plugin and tests/_shell.py's host_kernel_env), on a machine with a GPU as on one without: a
    notebook whose recorded output is the kernel's JAX platforms passes only so."""
    import nbformat

    notebook = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "numbat", "display_name": "Numbat"}})
    cell = nbformat.v4.new_code_cell("import jax\nprint(jax.config.jax_platforms)", execution_count=1)
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="cpu\n")]
    notebook.cells = [cell]
    nbformat.write(notebook, tmp_path / "platform.ipynb")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)])}
    env.pop("JAX_PLATFORMS", None)
    args = ["-m", "pytest", "platform.ipynb", "--nbval", "-p", "conftest", "-p", "no:randomly", "-q"]
    with_pin = subprocess.run(
        [sys.executable, *args], check=False, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert with_pin.returncode == 0, with_pin.stdout[-3000:]
    without = subprocess.run(
        [sys.executable, *args[:4], "-p", "no:randomly", "-q"],
        check=False,
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert without.returncode != 0 and "cpu" in without.stdout  # unpinned, the kernel's setting differs
