"""No dead private code: every private function and method of the package is used
somewhere in it (called, assigned, passed, or named in a string for `getattr`).

The walk reads each module's `ast`; it imports nothing. A private method counts as used
when some module reads an attribute of its name (`self._wrap`) or names it in a string,
or its class body names it (`sort = _sort`); a private module-level function, when its
name appears anywhere else (a call, an import, an attribute). Public names are left out:
they are the API, used by whoever imports numbat.
"""

from __future__ import annotations

import ast
import collections
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "numbat"
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _unused() -> list[str]:
    trees = {path: ast.parse(path.read_text()) for path in sorted(PACKAGE.rglob("*.py"))}
    attributes, names, strings = collections.Counter(), collections.Counter(), collections.Counter()
    methods, functions = [], []
    for path, tree in trees.items():
        where = path.relative_to(PACKAGE.parent)
        # A function decorated by another's method (`@_bitcast.defjvp`: a JAX rule) is registered there.
        functions += [
            (item.name, f"{where}:{item.lineno}")
            for item in tree.body
            if isinstance(item, _FUNCTIONS) and not any(isinstance(d, ast.Attribute) for d in item.decorator_list)
        ]
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                attributes[node.attr] += 1
            elif isinstance(node, ast.Name):
                names[node.id] += 1
            elif isinstance(node, ast.alias):
                names[node.name.split(".")[-1]] += 1
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                strings[node.value] += 1
            elif isinstance(node, ast.ClassDef):
                in_body = collections.Counter(
                    name.id
                    for item in node.body
                    if not isinstance(item, _FUNCTIONS)
                    for name in ast.walk(item)
                    if isinstance(name, ast.Name)
                )
                methods += [
                    (item.name, f"{where}:{item.lineno}", in_body[item.name])
                    for item in node.body
                    if isinstance(item, _FUNCTIONS)
                ]
    unused = [
        f"{place} method {name}"
        for name, place, in_body in methods
        if _private(name) and attributes[name] + strings[name] + in_body == 0
    ]
    unused += [
        f"{place} function {name}"
        for name, place in functions
        if _private(name) and names[name] + attributes[name] + strings[name] == 0
    ]
    return unused


def test_every_private_function_and_method_is_used():
    unused = _unused()
    assert not unused, "private code nothing uses:\n" + "\n".join(unused)


def _constant_backend_keywords() -> list[str]:
    """The keywords that every `_dispatch.run(op, ...)` call of an op passes as the same constant."""
    passed = collections.defaultdict(list)
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and ast.unparse(node.func) == "_dispatch.run" and node.args):
                continue
            if isinstance(node.args[0], ast.Constant):
                for keyword in node.keywords:
                    if keyword.arg is not None:
                        constant = isinstance(keyword.value, ast.Constant)
                        passed[node.args[0].value, keyword.arg].append(ast.unparse(keyword.value) if constant else None)
    return [
        f"{op}({keyword}={values[0]})"
        for (op, keyword), values in sorted(passed.items())
        if None not in values and len(set(values)) == 1
    ]


def test_no_backend_argument_is_always_the_same_constant():
    """An argument of a backend callback that every op passes as one constant carries nothing
    (the backend sort's `stable` was always True: numbat's sorts are always stable)."""
    constant = _constant_backend_keywords()
    assert not constant, "backend arguments always passed as one constant: " + ", ".join(constant)
