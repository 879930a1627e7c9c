"""The documentation site (docs/) and the API's discoverability in the interpreter.

These tests stay at the level of the sources (the autosummary lists, the docstrings, the
pages' text); the full Sphinx build is `.ci/run`'s docs step (`sphinx-build -W --keep-going`),
about a minute and a half, too slow for the normal suite.
"""

import importlib.util
import inspect
import json
import re
import sys
import types
from pathlib import Path

import jax.numpy as jnp
import numpy as np
import pytest

import numbat as nbt
from numbat import cli
from numbat._tools import _bench, _bench_timing

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
MODULES = {
    "numbat.linalg": "linalg",
    "numbat.random": "random",
    "numbat.xla": "xla",
    "numbat.telemetry": "telemetry",
    "numbat.notebook": "notebook",
    "numbat.constants": "constants",
}
BLOCK = re.compile(r"```\{eval-rst\}\n(.*?)```", re.DOTALL)
# The op table's lists (docs/_ext/numbat_op_table.py): the families a page names.
TABLE_OPS = re.compile(r"```\{numbat-table-ops\} (.*)\n```")


def _op_table_extension():
    spec = importlib.util.spec_from_file_location("numbat_op_table", DOCS / "_ext" / "numbat_op_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _autosummaries() -> dict[str, list[str]]:
    """Every name listed in an autosummary on the API pages, by the module it is listed under,
    with the op table's public ops that a page's `numbat-table-ops` lists under `numbat`."""
    listed: dict[str, list[str]] = {}
    for page in sorted((DOCS / "api").glob("*.md")):
        for block in BLOCK.findall(page.read_text()):
            module = re.search(r"\.\. currentmodule:: (\S+)", block).group(1)
            assert ":toctree: generated" in block, f"{page.name}: an autosummary without its own pages"
            body = block.split(".. autosummary::", 1)[1]
            names = [
                line.strip()
                for line in body.splitlines()
                if line.startswith("   ") and not line.strip().startswith(":")
            ]
            listed.setdefault(module, []).extend(name for name in names if name)
        for families in TABLE_OPS.findall(page.read_text()):
            table_ops = _op_table_extension().table_ops
            listed.setdefault("numbat", []).extend(name for family in families.split() for name in table_ops(family))
    return listed


def _public_modules():
    return [nbt] + [importlib.import_module(name) for name in MODULES]


def test_all_lists_every_public_name_of_numbat():
    public = {
        name
        for name, value in vars(nbt).items()
        if not name.startswith("_") and (not isinstance(value, types.ModuleType) or value.__name__ in MODULES)
    }
    assert set(nbt.__all__) == public
    for name in MODULES:  # each submodule's own public functions and classes are in its __all__
        module = importlib.import_module(name)
        defined = {
            key
            for key, value in vars(module).items()
            if not key.startswith("_")
            and callable(value)
            and (getattr(value, "__module__", None) or "").partition("._")[0] == name  # its own or its private modules
        }
        # telemetry.cache_hit, hit_cell and release_cell are defn's plumbing, not API for users.
        assert defined - set(module.__all__) <= {"cache_hit", "hit_cell", "release_cell"}, name
    assert all(hasattr(module, name) for module in _public_modules() for name in module.__all__)


def test_tab_completion_lists_only_the_public_api(ipython_completions):
    # `nbt.linalg.<TAB>` offered abs_, all_, ew, np and the other names the module imports.
    for name in MODULES:
        module = importlib.import_module(name)
        assert {n for n in dir(module) if not n.startswith("_")} == set(module.__all__), name
    offered = set(ipython_completions("nbt.linalg."))
    assert offered == set(nbt.linalg.__all__)


@pytest.fixture
def ipython_completions(shell):
    """What IPython's completer offers for a line of code, after `import numbat as nbt`."""
    from IPython.core.completer import provisionalcompleter

    shell.run_cell("import numbat as nbt")

    def complete(line):
        with provisionalcompleter():
            return [c.text.rsplit(".", 1)[-1] for c in shell.Completer.completions(line, len(line))]

    return complete


def _every_public_module():
    """numbat and each of its modules whose dotted name has no part starting with "_"."""
    import pkgutil

    names = ["numbat"] + [
        info.name
        for info in pkgutil.walk_packages(nbt.__path__, "numbat.")
        if not any(part.startswith("_") for part in info.name.split("."))
    ]
    return [importlib.import_module(name) for name in names]


def test_every_public_module_has_all_with_its_public_names():
    # The README says every public module has __all__: numbat.xla.distributed, numbat.backends and its
    # modules and numbat.cli had none.
    modules = _every_public_module()
    assert {"numbat.cli", "numbat.xla.distributed", "numbat.backends", "numbat.backends.xla_backend"} <= {
        module.__name__ for module in modules
    }
    for module in modules:
        assert isinstance(getattr(module, "__all__", None), list), f"{module.__name__} has no __all__"
        assert all(hasattr(module, name) for name in module.__all__), module.__name__
        own = {
            name
            for name, value in vars(module).items()
            if not name.startswith("_")
            and (inspect.isfunction(value) or inspect.isclass(value))
            and value.__module__ == module.__name__
        }
        assert own <= set(module.__all__) | {"cache_hit", "hit_cell", "release_cell"}, module.__name__


def test_numpy_names_lead_to_numbats_on_the_nx_page():
    # Searching the site for matmul, zeros or arange found nothing that led to dot, broadcast or iota.
    page = (DOCS / "nx_to_numbat.md").read_text()
    section = page.split("## NumPy to numbat", 1)[1].split("\n## ", 1)[0]
    rows = {line.split(" | ")[0]: line for line in section.splitlines() if line.startswith("| `np.")}
    for numpy_name, numbat_name in [("matmul", "nbt.dot"), ("zeros", "nbt.broadcast"), ("arange", "nbt.iota")]:
        row = next(line for key, line in rows.items() if f"np.{numpy_name}(" in key)
        assert numbat_name in row.split(" | ")[1], row
        assert hasattr(nbt, numbat_name.removeprefix("nbt."))


def test_top_level_pages_without_pages_under_them_have_no_empty_section_navigation():
    # The theme's "Section Navigation" was an empty heading on the Nx-to-numbat page.
    spec = importlib.util.spec_from_file_location("numbat_docs_conf", DOCS / "conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    toctree = (DOCS / "index.md").read_text().split("```{toctree}", 1)[1].split("```", 1)[0]
    pages = [line.strip() for line in toctree.splitlines() if line.strip() and not line.startswith(":")]
    leaves = [page for page in pages if "{toctree}" not in (DOCS / f"{page}.md").read_text()]
    assert "nx_to_numbat" in leaves
    assert {page: conf.html_sidebars.get(page) for page in leaves} == {page: [] for page in leaves}


def test_help_and_tab_completion_list_the_api():
    assert "argmax(tensor, axis=None" in _pydoc(nbt)
    assert set(nbt.xla.__all__) <= set(dir(nbt.xla))  # the lazy entries too
    assert "shard_jit" in _pydoc(nbt.xla)


def _pydoc(module) -> str:
    import pydoc

    return pydoc.render_doc(module, renderer=pydoc.plaintext)


def test_every_public_name_has_an_api_page():
    listed = _autosummaries()
    for module in _public_modules():
        expected = set(module.__all__) - ({*MODULES.values()} if module is nbt else set())
        names = listed.get(module.__name__, [])
        assert len(names) == len(set(names)), f"{module.__name__}: a name listed twice"
        assert set(names) == expected, f"{module.__name__}: {set(names) ^ expected}"
    for page in MODULES.values():
        assert (DOCS / "api" / f"{page}.md").is_file()
    for page in ("magics", "cli"):
        assert "{numbat-help}" in (DOCS / "api" / f"{page}.md").read_text()


def _doctests():
    spec = importlib.util.spec_from_file_location("numbat_test_doctests", ROOT / "tests" / "test_doctests.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {test.docstring for test in module.TESTS}


def _documented():
    """Every object whose docstring the API pages show: the listed names, their classes'
    public members, and the module pages' docstrings."""
    for module in _public_modules():
        yield module
        for name in module.__all__:
            value = getattr(module, name)
            yield value
            if isinstance(value, type):
                for member, attribute in vars(value).items():
                    if not member.startswith("_") and isinstance(attribute, (types.FunctionType, property)):
                        yield attribute


def test_every_example_on_the_pages_is_a_doctest_the_suite_runs():
    run = _doctests()
    kinds = (types.FunctionType, types.ModuleType, type, property)
    shown = [value for value in _documented() if isinstance(value, kinds) and ">>>" in (value.__doc__ or "")]
    assert len(shown) > 200
    missed = [getattr(value, "__qualname__", getattr(value, "__name__", repr(value))) for value in shown]
    missed = [name for name, value in zip(missed, shown) if value.__doc__ not in run]
    assert missed == []
    # The hand-written pages' own examples (`>>>` blocks and plain code blocks) are run by
    # tests/test_docs_examples.py, which collects every page under docs/ and the README.
    collector = (ROOT / "tests" / "test_docs_examples.py").read_text()
    assert 'ROOT.joinpath("docs").rglob("*.md"), ROOT / "README.md"' in collector


def test_the_site_includes_the_tutorials_without_a_copy():
    link = DOCS / "tutorials"
    assert link.is_symlink() and link.resolve() == (ROOT / "notebooks").resolve()
    copies = [p for p in DOCS.rglob("*.ipynb") if not {"_build", "tutorials"} & set(p.relative_to(DOCS).parts)]
    assert copies == []
    conf = (DOCS / "conf.py").read_text()
    assert 'nb_execution_mode = "off"' in conf and "nb_ipywidgets_js = {}" in conf
    assert "sphinx.ext.intersphinx" not in conf


def test_the_docs_extra_and_the_ci_step():
    pyproject = (ROOT / "pyproject.toml").read_text()
    extra = re.search(r"^docs = \[(.*?)\]", pyproject, re.DOTALL | re.MULTILINE).group(1)
    assert all(name in extra for name in ("sphinx", "myst-nb", "pydata-sphinx-theme"))
    ci = (ROOT / ".ci" / "run").read_text()
    assert "sphinx-build -W --keep-going -b html docs docs/_build/html" in ci
    readme = (ROOT / "README.md").read_text()
    assert "pip install -e '.[docs]' && .venv/bin/sphinx-build -W -b html docs docs/_build/html" in readme


# The NumPy and JAX spellings: conveniences that work, and errors that name numbat's spelling.


def test_structural_conveniences_work():
    t = nbt.tensor([[1, 2, 3]], names=["x", "y"])
    assert t.T.names == ("y", "x") and t.T.shape == (3, 1)
    assert t.reshape(3).shape == (3,) and t.reshape(3, 1).shape == (3, 1)
    assert t.reshape((3, 1), names=["a", "b"]).names == ("a", "b")
    assert str(t.astype("f64").type) == "f64" and str(t.astype(np.float32).type) == "f32"


@pytest.mark.parametrize(
    "attribute, message",
    [
        ("sum", "nbt.sum(t, axes=None, keep_axes=False)"),
        ("argmax", "nbt.argmax(t, axis=None"),
        ("dtype", "t.type (here s32); t.type.dtype is the NumPy dtype"),
        ("ndim", "numbat spells it t.rank"),
    ],
)
def test_numpy_attributes_name_numbats_spelling(attribute, message):
    t = nbt.tensor([1, 2])
    with pytest.raises(AttributeError, match=re.escape(message)):
        getattr(t, attribute)
    assert not hasattr(t, attribute)  # still an AttributeError: hasattr and getattr defaults keep working


def test_the_spelling_hints_leave_attribute_reads_plain():
    """The hints are one descriptor per NumPy or JAX name, not `Tensor.__getattr__` (which
    sends every attribute read of every tensor through a lookup CPython never specialises),
    and `dir(t)`, so completion, leaves them out."""
    t = nbt.tensor([1, 2])
    assert "__getattr__" not in vars(nbt.Tensor) and type(t).__getattribute__ is object.__getattribute__
    names = dir(t)
    assert {"shape", "names", "type", "reshape", "astype", "T"} <= set(names)
    assert not {"sum", "dtype", "ndim", "argmax"} & set(names)
    assert not hasattr(nbt.Tensor, "sum")
    with pytest.raises(AttributeError, match="'Tensor' object has no attribute 'not_a_name'$"):
        _ = t.not_a_name


@pytest.mark.parametrize(
    "call, hint",
    [
        (lambda t: nbt.sum(t, axis=1), "sum takes axes=[...] (Nx's name: a list of axes), not axis"),
        (lambda t: nbt.argmax(t, axes=[1]), "argmax takes axis=... (one axis), not axes"),
        (lambda t: nbt.mean(t, keepdims=True), "mean takes keep_axes=True (Nx's name), not keepdims"),
        (lambda t: nbt.argmin(t, keepdims=True), "argmin takes keep_axis=True (Nx's name), not keepdims"),
        (lambda t: nbt.iota((2,), dtype="f32"), "iota takes type=..."),
        (lambda t: nbt.linalg.norm(t, axis=0), "linalg.norm takes axes=[...]"),
    ],
)
def test_numpy_keywords_get_a_hint(call, hint):
    with pytest.raises(nbt.ArgumentError, match=re.escape(hint)):
        call(nbt.tensor([[1.0, 2.0], [3.0, 4.0]]))


def test_to_tensor_takes_numpy_and_jax_arrays_but_not_lists():
    assert str(nbt.to_tensor(jnp.ones(3)).type) == "f32"
    assert nbt.to_tensor(np.arange(3, dtype=np.int64)).to_numpy().tolist() == [0, 1, 2]
    with pytest.raises(nbt.ArgumentError, match="build a tensor from nested lists with nbt.tensor"):
        nbt.to_tensor([1, 2])


def test_a_list_of_numbers_given_to_a_defn_is_a_tensor():
    double = nbt.defn(lambda x: x * 2)
    assert double([[1, 2], [3, 4]]).to_numpy().tolist() == [[2, 4], [6, 8]]
    assert nbt.to_number(nbt.defn(lambda x: nbt.sum(x))([1.0, 2.0])) == 3.0
    evaluated = nbt.defn(lambda x: x * 2, compiler="evaluator")
    assert evaluated([1, 2]).to_numpy().tolist() == [2, 4]
    pair = nbt.defn(lambda xs: xs[0] + xs[1])
    assert nbt.to_number(pair([nbt.tensor(1), nbt.tensor(2)])) == 3  # a list of tensors stays a container


# The command line.


def test_numbat_alone_prints_its_help_and_exits_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main([])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "commands:" in err and "kernel" in err and "bench" in err and "the following arguments are required" in err
    with pytest.raises(SystemExit):
        cli.main(["kernel"])
    err = capsys.readouterr().err
    assert all(word in err for word in ("install", "list", "uninstall")), err


def test_kernel_list_and_uninstall(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "share" / "jupyter"))
    assert cli.main(["kernel", "install", "--prefix", str(tmp_path), "--name", "numbat-docs-test"]) == 0
    capsys.readouterr()
    assert cli.main(["kernel", "list"]) == 0
    assert str(tmp_path / "share" / "jupyter" / "kernels" / "numbat-docs-test") in capsys.readouterr().out
    other = tmp_path / "share" / "jupyter" / "kernels" / "plain"
    other.mkdir()
    (other / "kernel.json").write_text(
        json.dumps({"argv": [sys.executable, "-m", "ipykernel_launcher"], "display_name": "p", "language": "python"})
    )
    assert cli.main(["kernel", "uninstall", "--name", "plain"]) == 1
    assert "is not a Numbat kernel" in capsys.readouterr().err and other.is_dir()
    assert cli.main(["kernel", "uninstall", "--name", "numbat-docs-test"]) == 0
    assert not (tmp_path / "share" / "jupyter" / "kernels" / "numbat-docs-test").exists()
    assert cli.main(["kernel", "uninstall", "--name", "numbat-docs-test"]) == 1
    assert "no kernel spec named 'numbat-docs-test'" in capsys.readouterr().err


def test_bench_ips_comes_from_the_median():
    stats = _bench_timing.measure({"a": lambda: None, "b": lambda: sum(range(1000))}, rounds=5, warmup=0)
    for case in stats.values():
        assert case["ips"] == pytest.approx(1e6 / case["median_us"])


@pytest.mark.parametrize("suite", ["softmax", "dispatch", "eager", "trace", "interrupt"])
def test_every_bench_row_says_what_it_measures(suite, capsys):
    results = _bench.run(suite, size=16, rounds=3)
    _bench.print_tables(results)
    out = capsys.readouterr().out
    assert "ips is 1 / median" in out and "not described" not in out
    assert all(_bench.describe(name) for result in results for name in result["stats"])
    assert _bench.describe("post-cell hook (nothing compiled)") and _bench.describe("tensor view f32[32,32]")


def test_design_citations_name_the_projects_own_design_record():
    decisions = re.findall(r"^(\d+)\. \*\*", (DOCS / "design.md").read_text(), re.MULTILINE)
    assert decisions == [str(n) for n in range(1, len(decisions) + 1)] and len(decisions) >= 20
    files = [*ROOT.joinpath("numbat").rglob("*.py"), *ROOT.joinpath("tests").glob("*.py"), *DOCS.rglob("*.md")]
    old_form = set()
    for path in files:
        text = path.read_text()
        name = str(path.relative_to(ROOT))
        if "DESIGN" + " decision" in text:  # spelled in two parts so that this file is not one
            old_form.add(name)
        for number in re.findall(r"design\.md, decision (\d+)|design decision (\d+) <", text):
            assert 1 <= int("".join(number)) <= len(decisions), (name, number)
    assert old_form == set()


def test_search_keeps_the_api_words_that_are_english_stopwords():
    """Sphinx's English search drops stopwords: `where` found nothing, so NumPy's users never
    reached `select`. The site's search language keeps them (CI's docs step also greps the
    built index for `where`)."""
    import sphinx.search

    spec = importlib.util.spec_from_file_location("numbat_docs_conf", DOCS / "conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    language = sphinx.search.languages["en"]({})
    assert all(language.word_filter(word) for word in ("where", "all", "any", "select"))
    assert not language.word_filter("the")  # still an English search
    assert "`np.where(cond, a, b)` | `nbt.select(cond, a, b)`" in (DOCS / "nx_to_numbat.md").read_text()


def test_the_readmes_tutorial_table_says_what_the_tutorials_say():
    import nbformat

    readme = (ROOT / "README.md").read_text()
    words = []
    for path in sorted((ROOT / "notebooks").glob("0*.ipynb")):
        cells = nbformat.read(path, as_version=4).cells
        minutes = re.search(r"\*\*Time:\*\* about (\d+) minutes", cells[0].source).group(1)
        row = next(line for line in readme.splitlines() if line.startswith(f"| [`{path.stem}`]"))
        assert f"| {minutes} min |" in row, (path.stem, minutes, row)
        words.append(sum(len(c.source.split()) for c in cells if c.cell_type == "markdown"))
    assert f"have {min(words):,} to {max(words):,} words" in " ".join(readme.split())
    assert "nbt.xla.profile" in next(line for line in readme.splitlines() if line.startswith("| [`05_inside_xla`]"))


def test_the_readmes_test_command_runs_on_every_core_up_to_four(monkeypatch):
    """README: the test command runs on every core, up to four, each test file on one worker."""
    import tomllib

    addopts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["addopts"]
    assert "-n auto" in addopts and "--dist loadfile" in addopts
    spec = importlib.util.spec_from_file_location("numbat_tests_conftest", ROOT / "tests" / "conftest.py")
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    for cores, workers in ((1, 1), (2, 2), (16, 4)):
        monkeypatch.setattr(conftest.os, "sched_getaffinity", lambda _, n=cores: set(range(n)), raising=False)
        assert conftest.pytest_xdist_auto_num_workers(None) == workers
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "3")
    assert conftest.pytest_xdist_auto_num_workers(None) is None  # pytest-xdist's own hook reads it
