"""Every public docstring example runs on every backend (as EXLA re-runs Nx's doctests)."""

import doctest
import importlib
import io
import pkgutil

import numpy as np
import pytest

import numbat as nbt

# Examples that legitimately differ on a backend, by doctest name ("numbat._ops._convert.tensor").
EXCLUDED = {
    "numpy": set(),
    "xla": set(),
}
SKIPPED_MODULES = ("numbat.cli", "numbat.__main__", "numbat._tools._bench")
NOTEBOOK_DOCTESTS = (
    "numbat.notebook._plots",
    "numbat.notebook._explorer",
    "numbat.notebook._heatmap_png",
    "numbat.notebook._dashboard",
    "numbat.notebook._panel",
    "numbat.notebook._html",
    "numbat.notebook._stats",
    "numbat.notebook._graph",
    "numbat.notebook._shards",
    "numbat.notebook._display",
    "numbat.notebook._live",
    "numbat.notebook._progress",
)


def _examples():
    names = ["numbat"] + [info.name for info in pkgutil.walk_packages(nbt.__path__, "numbat.")]
    finder = doctest.DocTestFinder(exclude_empty=True)
    seen = set()
    for name in names:
        if name.startswith(SKIPPED_MODULES) or (name.startswith("numbat.notebook") and name not in NOTEBOOK_DOCTESTS):
            continue
        module = importlib.import_module(name)
        for test in finder.find(module, name, extraglobs={"nbt": nbt, "np": np}):
            if test.examples and test.docstring not in seen:
                seen.add(test.docstring)
                yield test


TESTS = sorted(_examples(), key=lambda t: t.name)


@pytest.mark.parametrize("backend_name", ["numpy", "xla"])
@pytest.mark.parametrize("test", TESTS, ids=[t.name for t in TESTS])
def test_docstring(test, backend_name):
    assert test.name not in EXCLUDED[backend_name], "excluded examples are not collected"
    backend = nbt.NumPyBackend() if backend_name == "numpy" else nbt.XLABackend()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report = io.StringIO()
    with nbt.default_backend(backend):
        result = runner.run(test, out=report.write, clear_globs=False)
    assert result.failed == 0, report.getvalue()


def test_doctests_were_found():
    assert len(TESTS) > 60
