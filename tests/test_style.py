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


# Where a Tensor is built past its __init__ (`object.__new__(Tensor)`), with why: every other
# result tensor is built by `numbat._tensor._result.result` or by `Tensor(...)`.
BUILT_INLINE = {
    "numbat/_tensor/_result.py": "the one builder",
    "numbat/backends/numpy_backend.py": "NumPyBackend.execute_binary: a call costs 3.5% of nbt.add on NumPy",
}


def test_result_tensors_are_built_in_one_place():
    pattern = re.compile(r"(?:object\.__new__|\b_new)\(Tensor\)")
    building = {
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "numbat").rglob("*.py"))
        if pattern.search(path.read_text())
    }
    assert building == set(BUILT_INLINE), building
