"""One op-family vocabulary on both sides (issue 32): the primitive ops of
`numbat/_ops/primitive/<family>.py` send to the backend only ops declared by
`numbat/backends/_families/<family>.py`'s `Array`, with the same `<family>`, and every
op a family's `Array` implements is sent by that family's front-end module, so a reader
goes from an op to its backend code by name. (The backend contract, `backends/_contract.py`,
declares them all: tests/test_backend_contract.py.)

The op names are read from the front-end's source (`ast`): the first argument of
`_dispatch.run` and `execute_binary`, and of the helpers that pass an `op` parameter on to
them (elementwise's `binary`/`unary`, reduction's `_reduce`, ...), found as such from the
source too, so an op sent through a new helper is still seen; the functions generated from
the op table (`_ops/primitive/_generate.py`) send their own entry's op.
"""

from __future__ import annotations

import ast
import importlib
import pathlib

from numbat._ops.primitive import _generate
from numbat.backends._array import ArrayBackend
from numbat.backends._contract import AbstractBackend

ROOT = pathlib.Path(__file__).resolve().parent.parent
FRONT = ROOT / "numbat" / "_ops" / "primitive"
BACK = ROOT / "numbat" / "backends" / "_families"
# _dispatch.run(op, ...), _dispatch.run_binary(op, ...) (which `_apply.binary` is), backend.execute_binary(op, ...)
SINKS = {"run": 0, "run_binary": 0, "binary": 0, "execute_binary": 0}


def _families(folder: pathlib.Path) -> set[str]:
    return {path.stem for path in folder.glob("*.py") if not path.stem.startswith("_")}


def _trees() -> dict[str, ast.Module]:
    return {path.stem: ast.parse(path.read_text()) for path in sorted(FRONT.glob("*.py"))}


def _callee(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute) and call.func.attr in SINKS:
        return call.func.attr
    return None


def _op_argument(call: ast.Call, sinks: dict[str, int]):
    """The expression a call to a sink or helper passes as its op, or None."""
    name = _callee(call)
    if name not in sinks:
        return None
    index = sinks[name]
    if index < len(call.args):
        return call.args[index]
    return next((keyword.value for keyword in call.keywords if keyword.arg == "op"), None)


def _functions(tree: ast.Module):
    return [node for node in tree.body if isinstance(node, ast.FunctionDef)]


def _helpers(trees: dict[str, ast.Module]) -> dict[str, int]:
    """Sinks and helpers: function name -> the position of its op parameter. A helper passes
    one of its parameters on as the op of a sink or another helper."""
    sinks = dict(SINKS)
    changed = True
    while changed:
        changed = False
        for tree in trees.values():
            for function in _functions(tree):
                params = [arg.arg for arg in function.args.args]
                for call in (node for node in ast.walk(function) if isinstance(node, ast.Call)):
                    op = _op_argument(call, sinks)
                    if isinstance(op, ast.Name) and op.id in params and function.name not in sinks:
                        sinks[function.name] = params.index(op.id)
                        changed = True
    return sinks


def _constants(expression) -> list[str] | None:
    """The op names an op expression can take: a string, or either string of a conditional."""
    if isinstance(expression, ast.Constant) and isinstance(expression.value, str):
        return [expression.value]
    if isinstance(expression, ast.IfExp):
        body, orelse = _constants(expression.body), _constants(expression.orelse)
        return body + orelse if body is not None and orelse is not None else None
    return None


def sent_ops() -> tuple[dict[str, set[str]], list[str]]:
    """Front-end module -> the op names it sends to the backend; and the op arguments
    that are neither a name nor a parameter passed on by a helper (which this test cannot read)."""
    trees = _trees()
    sinks = _helpers(trees)
    sent: dict[str, set[str]] = {module: set() for module in trees}
    unread = []
    for module, tree in trees.items():
        for function in _functions(tree):
            params = {arg.arg for arg in function.args.args}
            for call in (node for node in ast.walk(function) if isinstance(node, ast.Call)):
                op = _op_argument(call, sinks)
                if op is None or (isinstance(op, ast.Name) and op.id in params and function.name in sinks):
                    continue
                names = _constants(op)
                if names is None:
                    unread.append(f"{module}.py:{call.lineno}: {ast.unparse(op)}")
                else:
                    sent[module].update(names)
    for module, ops in sent.items():  # and the functions the op table generates in the module (`_generate.define`)
        ops.update(_generate.generated(module))
    return sent, unread


def declared_ops(family: str) -> set[str]:
    """The contract's methods that the family's `Array` implements (its own public functions)."""
    array = importlib.import_module(f"numbat.backends._families.{family}").Array
    return {name for name, value in vars(array).items() if not name.startswith("_") and callable(value)}


def test_both_sides_name_the_same_families():
    assert _families(FRONT) == _families(BACK)


def test_every_op_is_sent_by_its_own_familys_module():
    sent, unread = sent_ops()
    assert not unread, f"op names this test cannot read (use a string or a helper's op parameter): {unread}"
    assert not [op for module, ops in sent.items() if module.startswith("_") for op in ops], (
        "a private front-end module sends ops; send them from their family's module"
    )
    misplaced = [
        f"_ops/primitive/{family}.py sends {op!r}, not declared by backends/_families/{family}.py"
        for family in sorted(_families(FRONT))
        for op in sorted(sent[family] - (declared_ops(family) if family in _families(BACK) else set()))
    ]
    assert not misplaced, "\n".join(misplaced)


def test_every_declared_op_is_sent_by_the_front_end_of_its_family():
    sent, _ = sent_ops()
    unsent = [
        f"backends/_families/{family}.py declares {op!r}, which _ops/primitive/{family}.py never sends"
        for family in sorted(_families(BACK))
        for op in sorted(declared_ops(family) - sent.get(family, set()))
    ]
    assert not unsent, "\n".join(unsent)


def test_the_backends_combine_every_family():
    families = sorted(_families(BACK))
    modules = [importlib.import_module(f"numbat.backends._families.{family}") for family in families]
    assert [module.Array in ArrayBackend.__bases__ for module in modules] == [True] * len(families)
    assert ArrayBackend.__bases__[-1] is AbstractBackend  # the contract last: the families' methods win


def test_only_primitive_ops_call_the_backend():
    calls = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted((ROOT / "numbat").rglob("*.py"))
        if FRONT not in path.parents and path.name != "_dispatch.py"
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "run"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "_dispatch"
    ]
    assert not calls, f"_dispatch.run outside numbat/_ops/primitive/ (call a primitive op instead): {calls}"
