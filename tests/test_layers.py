"""The package's layers, checked on its source: every import of a numbat module goes to
the same or a lower layer (docs/guides/architecture.md lists them), the import graph has
no cycle, even counting the imports inside functions, the only numbat import inside a
function is the extension's loader, and the only other imports inside a function are of
the optional packages `LAZY_PACKAGES` names; no module imports another's private name.

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
# in this list; the patterns are fnmatch patterns over dotted module names. Each layer is a
# folder (`pkg` and `pkg.*`); the public modules at the top (`numbat.linalg`, ...) are the
# public namespace of their layer, and `numbat._ops`'s own files are the ops' machinery.
LAYERS: list[tuple[str, list[str]]] = [
    ("base", ["numbat._core", "numbat._core.*"]),
    ("tensor", ["numbat._tensor", "numbat._tensor.*"]),
    ("runtime", ["numbat._runtime", "numbat._runtime.*", "numbat.telemetry"]),
    ("backends", ["numbat.backends", "numbat.backends.*"]),
    ("ops machinery", ["numbat._ops._*"]),
    ("primitive ops", ["numbat._ops.primitive", "numbat._ops.primitive.*"]),
    ("composite ops", ["numbat._ops", "numbat._ops.composite", "numbat._ops.composite.*"]),
    (
        "library",
        [
            "numbat._library",
            "numbat._library.*",
            "numbat.linalg",
            "numbat.random",
            "numbat.random.*",
            "numbat.constants",
        ],
    ),
    ("defn", ["numbat._defn", "numbat._defn.*"]),
    ("programs", ["numbat.xla", "numbat.xla.*"]),
    ("notebook", ["numbat.notebook", "numbat.notebook.*"]),
    ("entry", ["numbat", "numbat.cli", "numbat.__main__", "numbat._tools", "numbat._tools.*"]),
]

# The imports written inside a function, each with its reason: only the extension's loader
# (IPython is optional for the core: docs/guides/architecture.md, "What stays lazy"). What a low layer's object needs from a high
# one is installed on it from above (the rich display by numbat.notebook._display, the
# operators by numbat._ops.composite.tensor_methods), never imported from below on first use.
DOCUMENTED_LAZY = {
    ("numbat.notebook", "numbat.notebook._extension"): "IPython loads with %load_ext, not with import numbat",
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


# The packages a function may import on first use, each with why it is not imported with numbat.
# JAX, NumPy and the standard library load at the top of the module, always.
LAZY_PACKAGES = {
    "IPython": "the notebook's and the bench's display; the core runs without IPython",
    "ipywidgets": "the widgets, an optional install (the message says what to install)",
    "matplotlib": "the plots, an optional install (the message says what to install)",
    "pygments": "the graph view's source highlighting, through IPython",
    "ipykernel": "the live chart's Stop button reads the kernel's connection file, inside a kernel only",
    "jupyter_client": "the `numbat kernel` and `numbat doctor` commands' kernel specs only",
    "nbformat": "`numbat doctor --check` runs a notebook; a test extra",
    "nbclient": "`numbat doctor --check` runs a notebook; a test extra",
}


def _third_party_inside_functions():
    """(package, module, line) for each import of a non-numbat module inside a function."""
    found = []
    for module, path in MODULES.items():
        stack = [(node, False) for node in ast.iter_child_nodes(ast.parse(path.read_text()))]
        while stack:
            node, in_function = stack.pop()
            if in_function and isinstance(node, ast.Import):
                found.extend((alias.name.split(".")[0], module, node.lineno) for alias in node.names)
            elif in_function and isinstance(node, ast.ImportFrom) and node.level == 0:
                found.append(((node.module or "").split(".")[0], module, node.lineno))
            inner = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            stack.extend((child, inner) for child in ast.iter_child_nodes(node))
    return [entry for entry in found if entry[0] != "numbat"]


def test_only_optional_packages_load_inside_a_function():
    """jax, numpy and the standard library are imported at the top of each module, never on
    first use (a lazy `import jax` once hid the cost of `jax.extend`, which numbat loads anyway)."""
    found = _third_party_inside_functions()
    wrong = sorted(
        f"{module}:{line} imports {package}" for package, module, line in found if package not in LAZY_PACKAGES
    )
    assert not wrong, "imports inside functions of packages numbat always loads:\n" + "\n".join(wrong)
    assert {package for package, _, _ in found} == set(LAZY_PACKAGES)  # none listed in vain


def test_the_import_graph_has_no_cycle_even_counting_imports_inside_functions():
    """A cycle is looked for among all import statements, at module level or inside a function."""
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


def test_no_module_imports_by_name():
    """No `importlib.import_module` or `__import__`: every import is a statement the walk sees."""
    by_name = [
        module for module, path in MODULES.items() if re.search(r"import_module\(|__import__\(", path.read_text())
    ]
    assert not by_name, f"modules importing by name: {by_name}"


def test_no_private_module_is_loose_in_the_package():
    """The folders are the layers: a private module lives in its layer's folder; the top of
    `numbat/` holds the public namespace only."""
    loose = sorted(p.name for p in PACKAGE.glob("_*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert not loose, f"private modules loose in numbat/: {loose}"


def test_every_layer_is_folders_and_public_modules():
    """A layer's patterns name whole folders (`pkg` with `pkg.*`) or public top-level modules."""
    for name, patterns in LAYERS:
        for pattern in patterns:
            if pattern.endswith(".*") or pattern == "numbat._ops._*":
                assert (ROOT / pattern[:-2].replace(".", "/")).is_dir(), f"{name}: {pattern} is not a folder"
            elif (ROOT / pattern.replace(".", "/")).is_dir():
                folder_pattern = pattern + ".*"
                assert folder_pattern in patterns or pattern in ("numbat", "numbat._ops"), (
                    f"{name}: the package {pattern} without its folder"
                )
            else:
                assert not pattern.split(".")[-1].startswith("_") or pattern == "numbat.__main__", (
                    f"{name}: {pattern} is a private module outside a layer's folder"
                )


def test_the_architecture_guide_lists_these_layers():
    guide = (ROOT / "docs" / "guides" / "architecture.md").read_text()
    block = re.search(r"```text\n(base .*?)```", guide, re.DOTALL).group(1)  # the layer table, after the tree
    listed = [line.split()[0] for line in block.splitlines() if line.strip() and not line.startswith(" ")]
    assert listed == [name.replace(" ", "-") for name, _ in LAYERS], listed
    for _, patterns in LAYERS:
        for pattern in patterns:
            assert pattern in block, f"the guide does not list {pattern}"
    tree = re.search(r"```text\n(numbat/\n.*?)```", guide, re.DOTALL).group(1)
    folders = {p.relative_to(PACKAGE).parts[0] for p in PACKAGE.glob("*/__init__.py")}
    drawn = set(re.findall(r"^[├└]── (\w+)/", tree, re.MULTILINE))
    assert drawn == folders, f"the guide's tree draws {sorted(drawn)}, the package has {sorted(folders)}"


# A name that starts with `_` belongs to its module: another module uses it through a
# public name. (A private *module* is private to its package's layers, which the layer
# order above governs; `from .._core import _types` is fine.)


def _private_uses(module: str, path: pathlib.Path) -> set[str]:
    """The `_`-prefixed names (not modules, not dunders) of other numbat modules that `module`
    imports (`from m import _x`) or reads as an attribute of an imported module (`m._x`)."""
    tree = ast.parse(path.read_text())
    aliases, used = {}, set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = _resolve(module, node, path)
            if source.split(".")[0] != "numbat":
                continue
            for alias in node.names:
                full = f"{source}.{alias.name}"
                if full in MODULES:
                    aliases[alias.asname or alias.name] = full
                elif alias.name.startswith("_") and source != module:
                    used.add(full)
        elif isinstance(node, ast.Import):
            aliases.update({a.asname: a.name for a in node.names if a.asname and a.name.split(".")[0] == "numbat"})
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            full = f"{aliases[node.value.id]}.{node.attr}"
            if node.attr.startswith("_") and not node.attr.startswith("__") and full not in MODULES:
                used.add(full)
    return used


def test_the_private_name_walk_sees_imports_and_attributes(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("from numbat.xla._lowering import _x, as_defn\nfrom numbat._ops import _dispatch\n_dispatch._y\n")
    assert _private_uses("numbat.xla._export", path) == {"numbat.xla._lowering._x", "numbat._ops._dispatch._y"}


def test_no_module_uses_another_modules_private_name():
    found = sorted((module, name) for module, path in MODULES.items() for name in _private_uses(module, path))
    assert not found, "private names used across modules:\n" + "\n".join(f"{m} uses {n}" for m, n in found)
