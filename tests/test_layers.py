"""The package's layers, checked on its source: every import of a numbat module goes to
the same or a lower layer (docs/guides/architecture.md lists them), the import graph has
no cycle, even counting the imports inside functions, and the only import inside a
function is the extension's loader.

The walk reads each module's `ast`; it imports nothing, so it sees the code as written.
"""

from __future__ import annotations

import ast
import fnmatch
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "numbat"

# Lowest first. A module may import modules of its own layer and of the layers above it
# in this list; the patterns are fnmatch patterns over dotted module names.
LAYERS: list[tuple[str, list[str]]] = [
    (
        "base",
        [
            "numbat._core._errors",
            "numbat._core._types",
            "numbat._core._names",
            "numbat._core._shape",
            "numbat._core._format",
            "numbat._core._scoped",
            "numbat._core._packing",
        ],
    ),
    ("tensor", ["numbat._tensor._tensor", "numbat._tensor._check", "numbat._tensor._expr"]),
    ("runtime", ["numbat.telemetry", "numbat._runtime._client"]),
    ("backends", ["numbat.backends", "numbat.backends.*", "numbat.backends._allocation"]),
    (
        "ops machinery",
        ["numbat._ops._convert", "numbat._ops._dispatch", "numbat._ops._vectorized", "numbat._ops._keywords"],
    ),
    ("primitive ops", ["numbat._ops.primitive", "numbat._ops.primitive.*"]),
    (
        "composite ops",
        ["numbat._ops.composite", "numbat._ops.composite.*", "numbat._ops.composite.tensor_methods", "numbat._ops"],
    ),
    (
        "library",
        [
            "numbat.linalg",
            "numbat.random",
            "numbat.random._draw",
            "numbat.random._threefry",
            "numbat.constants",
            "numbat._library._serialize",
            "numbat._library._heatmap",
        ],
    ),
    (
        "xla runtime",
        [
            "numbat.xla",
            "numbat._runtime._config",
            "numbat._runtime._memory",
            "numbat._runtime._signing",
            "numbat._runtime._disk_cache",
            "numbat.xla.distributed",
        ],
    ),
    ("defn", ["numbat._defn", "numbat._defn.*"]),
    (
        "programs",
        [
            "numbat.xla._lowering",
            "numbat.xla._ir",
            "numbat.xla._export",
            "numbat.xla._untrusted",
            "numbat.xla._stream",
            "numbat.xla._sharding",
            "numbat.xla._hlo_costs",
            "numbat.xla._peaks",
            "numbat.xla._profile",
            "numbat.xla._trace_events",
        ],
    ),
    ("notebook", ["numbat.notebook", "numbat.notebook.*"]),
    (
        "entry",
        ["numbat", "numbat.cli", "numbat.__main__", "numbat._tools._bench", "numbat._bench_*", "numbat._tools._demo"],
    ),
]

# The imports written inside a function, each with its reason: only the extension's loader
# (IPython is optional for the core, STYLE 6). What a low layer's object needs from a high
# one is installed on it from above (the rich display by numbat.notebook._display, the
# operators by numbat._ops.composite.tensor_methods), never imported from below on first use.
DOCUMENTED_LAZY = {
    ("numbat.notebook", "numbat.notebook._extension"): "IPython loads with %load_ext, not with import numbat",
}

# A package's PEP 562 `__getattr__` may load public entries from higher layers on first
# use (the entry names a submodule to import); these are the only ones.
LAZY_ENTRIES = {
    "numbat.xla": {
        "numbat.xla._ir",
        "numbat.xla._stream",
        "numbat.xla._sharding",
        "numbat.xla._export",
        "numbat.xla._profile",
        "numbat.xla._peaks",
        "numbat.xla._trace_events",
        "numbat._defn._cache",
    },
}


def _documented(module: str, target: str) -> bool:
    """Whether `module` importing `target` (or the package holding it) is a documented lazy import."""
    return any(
        module == lazy_module and (target == lazy_target or lazy_target.startswith(target + "."))
        for lazy_module, lazy_target in DOCUMENTED_LAZY
    )


def _modules() -> dict[str, pathlib.Path]:
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


MODULES = _modules()


def layer_of(module: str) -> int:
    found = [i for i, (_, patterns) in enumerate(LAYERS) if any(fnmatch.fnmatchcase(module, p) for p in patterns)]
    assert len(found) == 1, f"{module} is in {len(found)} layers: list it in exactly one of LAYERS"
    return found[0]


def _resolve(module: str, node: ast.ImportFrom, path: pathlib.Path) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if path.name != "__init__.py":
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _targets(module: str, node, path: pathlib.Path) -> list[str]:
    """The numbat modules an import statement loads (a submodule named in `from x import y` too)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name.split(".")[0] == "numbat"]
    source = _resolve(module, node, path)
    if source.split(".")[0] != "numbat":
        return []
    submodules = [f"{source}.{alias.name}" for alias in node.names if f"{source}.{alias.name}" in MODULES]
    if len(submodules) == len(node.names) and source in (module, *_parents(module)):
        return submodules  # `from . import x`: only the submodules, the package is already loading
    return [source, *submodules]


def _parents(module: str) -> list[str]:
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _is_type_checking(node) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(module: str, path: pathlib.Path):
    """(target, line, inside a function) for every numbat import of `module`."""
    tree = ast.parse(path.read_text())
    found = []

    def visit(node, in_function: bool):
        for child in ast.iter_child_nodes(node):
            if _is_type_checking(child):
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.extend((target, child.lineno, in_function) for target in _targets(module, child, path))
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(tree, False)
    return found


IMPORTS = {module: _imports(module, path) for module, path in MODULES.items()}


def test_every_module_is_in_one_layer():
    for module in MODULES:
        layer_of(module)


def test_imports_follow_the_layer_order():
    wrong = [
        f"{module}:{line} imports {target} ({LAYERS[layer_of(target)][0]} is above {LAYERS[layer_of(module)][0]})"
        for module, imports in IMPORTS.items()
        for target, line, in_function in imports
        if target in MODULES
        and layer_of(target) > layer_of(module)
        and not (in_function and _documented(module, target))
    ]
    assert not wrong, "imports against the layer order:\n" + "\n".join(wrong)


def test_the_only_import_inside_a_function_is_the_extensions_loader():
    inside = {(module, target) for module, imports in IMPORTS.items() for target, _, lazy in imports if lazy}
    undocumented = sorted(pair for pair in inside if not _documented(*pair))
    assert not undocumented, "imports inside functions:\n" + "\n".join(f"{m} imports {t}" for m, t in undocumented)
    assert {pair for pair in DOCUMENTED_LAZY if pair in inside} == set(DOCUMENTED_LAZY)  # none listed in vain
    assert len(DOCUMENTED_LAZY) == 1


def test_the_import_graph_has_no_cycle_even_counting_imports_inside_functions():
    """A cycle is looked for among all import statements, at module level or inside a function;
    `numbat.xla`'s PEP 562 entries (LAZY_ENTRIES) are not statements, and are the one detour
    left: they go when the runtime settings leave `numbat/xla/` (issue 32)."""
    edges = {
        module: {target for target, _, _ in imports if target in MODULES and target != module}
        for module, imports in IMPORTS.items()
    }
    state: dict[str, str] = {}

    def visit(module: str, path: list[str]):
        state[module] = "open"
        for target in sorted(edges[module]):
            if state.get(target) == "open":
                cycle = path[path.index(target) :] + [target]
                pytest.fail("an import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target, [*path, target])
        state[module] = "done"

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])


def test_lazy_public_entries_are_listed():
    """A package `__getattr__` that imports by name (PEP 562) names only the listed modules."""
    for module, path in MODULES.items():
        text = path.read_text()
        named = set(re.findall(r"import_module\(f?[\"']([\w.{}]+)[\"']", text))
        if not named:
            continue
        assert path.name == "__init__.py", f"{module}: only a package's __getattr__ may import by name"
        tree = ast.parse(text)
        table = next(
            node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == "__getattr__"
        )
        strings = {c.value for c in ast.walk(table) if isinstance(c, ast.Constant) and isinstance(c.value, str)}
        targets = {
            s if s.startswith("numbat") else f"{module}.{s}"
            for s in strings
            if f"{module}.{s}" in MODULES or s in MODULES
        }
        assert targets <= LAZY_ENTRIES.get(module, set()), f"{module}: unlisted lazy entries {targets}"


def test_the_architecture_guide_lists_these_layers():
    guide = (ROOT / "docs" / "guides" / "architecture.md").read_text()
    block = re.search(r"```text\n(.*?)```", guide, re.DOTALL).group(1)
    listed = [line.split()[0] for line in block.splitlines() if line.strip() and not line.startswith(" ")]
    assert listed == [name.replace(" ", "-") for name, _ in LAYERS], listed
    for _, patterns in LAYERS:
        for pattern in patterns:
            assert pattern in block, f"the guide does not list {pattern}"
