"""The code style the tests hold (docs/guides/architecture.md, "Code style"): the code, tests and
tutorials pass ruff's lint and format checks, and no function is over 60 lines without its reason."""

import ast
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).parent.parent


@pytest.mark.parametrize("command", [["check"], ["format", "--check"]], ids=["lint", "format"])
def test_ruff(command):
    result = subprocess.run(
        [sys.executable, "-m", "ruff", *command, "numbat", "tests", "notebooks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


MAX_FUNCTION_LINES = 60
# Why a function over MAX_FUNCTION_LINES lines must be one piece: a `# one piece: <reason>`
# comment between its `def` line and its first statement after the docstring.
ONE_PIECE = re.compile(r"#\s*one piece:\s*\S")


def long_functions(source: str, max_lines: int = MAX_FUNCTION_LINES) -> list[tuple[str, int, bool]]:
    """`(name, lines, justified)` of each function of `source` longer than `max_lines`
    lines (its `def` line to its last line); `justified` says it carries a `# one piece:`
    comment between its `def` line and its first statement after the docstring."""
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        length = node.end_lineno - node.lineno + 1
        if length <= max_lines:
            continue
        body = node.body
        has_docstring = isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant)
        first = body[1] if has_docstring and len(body) > 1 else body[0]
        head = lines[node.lineno - 1 : first.lineno]
        found.append((node.name, length, any(ONE_PIECE.search(line) for line in head)))
    return found


def test_the_function_length_check_reads_the_one_piece_comment():
    body = "".join(f"    x{i} = {i}\n" for i in range(60))
    plain = f'def f():\n    """Doc."""\n{body}'
    justified = f'def f():\n    """Doc."""\n    # one piece: a reason\n{body}'
    short = "def f():\n    return 1\n"
    assert long_functions(plain) == [("f", 62, False)]
    assert long_functions(justified) == [("f", 63, True)]
    assert long_functions(short) == [] and long_functions(plain, max_lines=62) == []


def test_no_function_is_over_60_lines_without_its_reason():
    unexplained = []
    for path in sorted((ROOT / "numbat").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        for name, length, justified in long_functions(path.read_text()):
            if not justified:
                unexplained.append(f"{relative}:{name} ({length} lines)")
    assert unexplained == [], "split these, or say why each is one piece (# one piece: ...)"


def tensors_built_past_init(source: str) -> list[int]:
    """The lines of `source` that make a Tensor past its `__init__`: `object.__new__(Tensor)`,
    `Tensor.__new__(Tensor)`, or a call of a name bound to `object.__new__` on `Tensor`."""
    tree = ast.parse(source)
    new_aliases = {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and ast.unparse(node.value) == "object.__new__"
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and [ast.unparse(arg) for arg in node.args] == ["Tensor"]
        and (
            (isinstance(node.func, ast.Attribute) and node.func.attr == "__new__")
            or (isinstance(node.func, ast.Name) and node.func.id in new_aliases)
        )
    ]


def numpy_tags(source: str) -> list[int]:
    """The lines of `source` that put a `numpy` attribute on an object (`f.numpy = ...`,
    `setattr(f, "numpy", ...)`): how a function once told the NumPy backend what it computes."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if (
            isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign))
            and any(isinstance(target, ast.Attribute) and target.attr == "numpy" for target in targets)
            or (
                isinstance(node, ast.Call)
                and ast.unparse(node.func) == "setattr"
                and len(node.args) > 1
                and ast.unparse(node.args[1]) in ("'numpy'", '"numpy"')
            )
        ):
            found.append(node.lineno)
    return found


def test_the_scans_see_a_second_builder_and_a_numpy_tag():
    source = (
        "_new = object.__new__\n"
        "a = _new(Tensor)\n"
        "b = object.__new__(Tensor)\n"
        "c = Tensor.__new__(Tensor)\n"
        "d = object.__new__(Backend)\n"
        "fun.numpy = np.add\n"
        "setattr(fun, 'numpy', np.add)\n"
        "x = t.numpy\n"
    )
    assert tensors_built_past_init(source) == [2, 3, 4]
    assert numpy_tags(source) == [6, 7]


def test_result_tensors_are_built_in_one_place():
    """`numbat._tensor._result.result` is the one place a Tensor is built past its `__init__`
    (every other tensor is built by `Tensor(...)`): the NumPy backend's fast path included."""
    building = {
        f"{path.relative_to(ROOT).as_posix()}:{line}"
        for path in sorted((ROOT / "numbat").rglob("*.py"))
        for line in tensors_built_past_init(path.read_text())
    }
    assert {entry.split(":")[0] for entry in building} == {"numbat/_tensor/_result.py"}, sorted(building)


def test_no_function_carries_a_numpy_attribute():
    """The NumPy backend's fast path reads the element-wise family's table by name; no function
    is tagged with the NumPy function it computes (`binary.numpy = np_fun`, issue 50)."""
    tagged = [
        f"{path.relative_to(ROOT).as_posix()}:{line}"
        for path in sorted((ROOT / "numbat").rglob("*.py"))
        for line in numpy_tags(path.read_text())
    ]
    assert tagged == []
