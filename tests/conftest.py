"""Shared fixtures: the backends every agreeing test runs on, a private data directory
(numbat's signing key) so that tests never touch the real home, and a real IPython shell."""

import os

import jax
import pytest

import numbat as nbt

BACKENDS = {"numpy": nbt.NumPyBackend, "xla": nbt.XLABackend}
MAX_WORKERS = 4

# On a GPU the test command's workers (xdist starts them after this file is read, with this
# environment) and the processes they start take the device memory they use, not 75% of it
# each: a child that preallocated next to the other workers ran out of memory on an H200. A
# value set by whoever runs the tests is kept. tests/_shell.py's child_env sets it for children
# that start from a clean environment.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")


def pytest_configure(config):
    config.pluginmanager.register(_NbvalOnTheHost(), "numbat-nbval-on-the-host")
    config.addinivalue_line(
        "markers",
        "client(name): the XLA client the test is about; while it runs, that client's XLA backend is "
        "the default (so a test about the host holds on a machine with a GPU), and its child processes "
        "take tests/_shell.py's child_env(host=True)",
    )


@pytest.fixture(autouse=True)
def _client_the_test_is_about(request):
    """`@pytest.mark.client("host")`: the host client's XLA backend is the default while the test runs."""
    marker = request.node.get_closest_marker("client")
    if marker is None:
        yield
        return
    with nbt.default_backend(nbt.XLABackend(client=marker.args[0])):
        yield


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config):
    """`-n auto` (the test command's default): a worker per core this process may use, at most
    `MAX_WORKERS`, as each worker is a JAX process compiling thousands of programs;
    PYTEST_XDIST_AUTO_NUM_WORKERS, where set, decides instead (pytest-xdist's own rule)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist's hook reads it
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()  # macOS: no affinity
    return max(1, min(MAX_WORKERS, usable or 1))


class _NbvalOnTheHost:
    """nbval's kernel runs on the host client: the tutorials' outputs were recorded there
    (docs/design.md, decision 21). Its kernel starts in the setup of a notebook's first cell, with this process's
    environment: for that setup the environment is `_shell.host_kernel_env()`'s. A plugin, not a
    hook of this file: a conftest's hooks see only the items under its folder, and the
    notebooks are in notebooks/."""

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_setup(self, item):
        if not type(item).__module__.startswith("nbval"):
            return (yield)
        from _shell import host_kernel_env

        saved = dict(os.environ)
        os.environ.update(host_kernel_env())
        try:
            return (yield)
        finally:
            os.environ.clear()
            os.environ.update(saved)


@pytest.fixture(scope="session", autouse=True)
def _private_data_dir(tmp_path_factory):
    """NUMBAT_DATA_DIR for this session and the processes it starts."""
    previous = os.environ.get("NUMBAT_DATA_DIR")
    os.environ["NUMBAT_DATA_DIR"] = str(tmp_path_factory.mktemp("numbat-data"))
    yield
    if previous is None:
        del os.environ["NUMBAT_DATA_DIR"]
    else:
        os.environ["NUMBAT_DATA_DIR"] = previous


@pytest.fixture(scope="module", autouse=True)
def _jax_caches_emptied_after_each_module():
    """JAX's compilation caches emptied after each test module. The suite compiles tens of
    thousands of small programs (every doctest and ExUnit case on three paths); kept whole, they
    grew the test process by about 300 MB a minute, past 10 GB on this 2-core, 24 GiB machine,
    where a run crashed in XLA's compiler. numbat's own per-defn caches are not touched."""
    yield
    jax.clear_caches()


@pytest.fixture(params=sorted(BACKENDS))
def backend(request):
    """Each backend in turn, made the default for the test."""
    instance = BACKENDS[request.param]()
    with nbt.default_backend(instance):
        yield instance


@pytest.fixture(scope="module")
def shell():
    """The IPython shell (a process-wide singleton); numbat's extension is unloaded after each module."""
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    ip = InteractiveShell.instance(config=config)
    yield ip
    if "numbat" in ip.extension_manager.loaded:
        ip.run_line_magic("unload_ext", "numbat")


@pytest.fixture
def ip(shell):
    """The shell with `%load_ext numbat` run in a cell; unloaded afterwards."""
    from _shell import run

    run(shell, "%load_ext numbat")
    yield shell
    if "numbat" in shell.extension_manager.loaded:
        run(shell, "%unload_ext numbat")
