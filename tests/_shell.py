"""A real IPython shell for the notebook tests (run a cell and read back what it showed), and
the environment of a test's child process (`child_env`)."""

import os
import pathlib
import tempfile
import textwrap
import time

from IPython.utils.capture import capture_output


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


# What a test about the host client sets in its child process: XLA there has the host client
# alone, on a machine with a GPU as on one without (docs/design.md, decision 21: a test says which client
# it is about).
HOST_ONLY = {"JAX_PLATFORMS": "cpu"}


def child_env(*, host: bool, strip: bool = True, **settings: str) -> dict[str, str]:
    """The environment of a test's child process: this process's (less its XLA_ and JAX_
    settings, with `strip`: the child makes its own), with XLA's preallocation off, so that a
    child next to the other test workers on a GPU takes the memory it uses, not 75% of the
    device (a child that preallocated ran out of memory on an H200); with `host`, a test about
    the host client, `HOST_ONLY`; `settings` last (tests/test_xla.py tests it)."""
    env = {k: v for k, v in os.environ.items() if not (strip and k.startswith(("XLA_", "JAX_")))}
    env["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
    if host:
        env.update(HOST_ONLY)
    env.update(settings)
    return env


# The startup file of a kernel on the host: JAX's platforms set before any cell runs (numbat's
# extension only imports JAX), through JAX's config, not JAX_PLATFORMS, which numbat's settings
# views show (the tutorials' recorded panels read "(unset)"). No name is left in the namespace.
HOST_KERNEL_STARTUP = '__import__("jax").config.update("jax_platforms", "cpu")  # tests/_shell.py: on the host\n'


def host_kernel_env() -> dict[str, str]:
    """The environment of a Jupyter kernel that runs on the host client: this process's, with
    IPYTHONDIR at a profile whose startup file is `HOST_KERNEL_STARTUP` (IPython runs it when
    the kernel starts, before the first cell) and XLA's preallocation off. nbval's kernel
    under the test command (tests/conftest.py) and test_tutorials.py's host runs take it:
    the tutorials' outputs were recorded on the host client."""
    folder = pathlib.Path(tempfile.gettempdir()) / f"numbat-host-kernel-{os.getuid()}"
    startup = folder / "profile_default" / "startup" / "00-numbat-host.py"
    if not startup.exists() or startup.read_text() != HOST_KERNEL_STARTUP:
        startup.parent.mkdir(parents=True, exist_ok=True)
        startup.write_text(HOST_KERNEL_STARTUP)
    return {**os.environ, "IPYTHONDIR": str(folder), "XLA_PYTHON_CLIENT_PREALLOCATE": "false"}
