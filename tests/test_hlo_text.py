"""One reader of HLO text (issue 42): `numbat/xla/_hlo_text.py` holds every regular
expression over XLA's HLO text, and the modules that read HLO (the fusion report, the
kernels' costs, the profile, the notebook's views, `numbat bench kernels`) share it through
its public names, never a sibling module's private ones."""

from __future__ import annotations

import ast
import pathlib
import re

import numbat as nbt
from numbat.xla import _hlo_costs, _hlo_text

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "numbat"
HOME = PACKAGE / "xla" / "_hlo_text.py"
# What only a pattern over HLO text holds: instruction names, attributes, metadata, headers.
HLO_MARKERS = (
    "%",
    "ROOT",
    "ENTRY",
    "HloModule",
    "op_name",
    "calls=",
    "to_apply",
    "kind=",
    "contracting_dims",
    "window=",
)
REGEX_FUNCTIONS = {"compile", "search", "match", "fullmatch", "findall", "finditer", "sub", "split"}


def _patterns(path: pathlib.Path) -> list[str]:
    """The literal patterns `path` hands to the `re` module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in REGEX_FUNCTIONS
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
            and node.args
        ):
            found += [part.value for part in ast.walk(node.args[0]) if isinstance(part, ast.Constant)]
    return [pattern for pattern in found if isinstance(pattern, str)]


def hlo_patterns_outside_home(paths) -> dict[str, list[str]]:
    """The HLO patterns of each of `paths` but the one reader's, by file name."""
    outside = {}
    for path in paths:
        hlo = [p for p in _patterns(path) if any(marker in p for marker in HLO_MARKERS)]
        if hlo and path != HOME:
            outside[path.name] = hlo
    return outside


def test_every_hlo_pattern_lives_in_the_one_reader():
    assert _patterns(HOME)  # the scan sees the reader's own patterns
    assert hlo_patterns_outside_home(sorted(PACKAGE.rglob("*.py"))) == {}


def test_the_scan_would_see_a_second_parser(tmp_path):
    second = tmp_path / "_second_reader.py"
    second.write_text('import re\n_INSTRUCTION = re.compile(r"^\\s*%(?P<name>\\w+) = ")\n')
    assert list(hlo_patterns_outside_home([HOME, second])) == ["_second_reader.py"]


def _private_uses(path: pathlib.Path) -> list[str]:
    """`module._name` in `path` where `module` is a sibling numbat.xla module it imported."""
    tree = ast.parse(path.read_text())
    xla_modules = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and (node.module or "").split(".")[-1] == "xla"
        or (isinstance(node, ast.ImportFrom) and node.level == 1 and node.module is None and path.parent.name == "xla")
        for alias in node.names
    }
    return [
        f"{path.relative_to(ROOT)}:{node.lineno}: {node.value.id}.{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in xla_modules
        and re.match(r"_[a-z]", node.attr)
    ]


def test_no_module_reaches_into_an_xla_modules_private_names():
    uses = [use for path in sorted(PACKAGE.rglob("*.py")) for use in _private_uses(path)]
    assert uses == []


def test_the_report_and_the_costs_read_the_same_kernels():
    x = nbt.iota((8, 4), type="f32")
    report = nbt.xla.fusion_report(lambda a: nbt.sum(nbt.exp(a) * 2, axes=[1]), [x])
    program = _hlo_costs.Program(report.hlo)
    assert [k.name for k in report.kernels] == [k.name for k in program.kernels]
    assert [k.kind for k in report.kernels] == [k.kind for k in program.kernels]
    entry = _hlo_text.computations(report.hlo)["ENTRY"]
    kernel = next(one for one in entry if one.name == report.kernels[0].name)
    assert _hlo_text.kernel_ops(_hlo_text.computations(report.hlo), kernel)[0] == report.kernels[0].numbat_ops


def test_an_instruction_line_is_read_once():
    line = '  %w = f32[2]{0} while(%t), condition=%c, body=%b, metadata={op_name="jit(f)/while_loop#4/while"}'
    instruction = _hlo_text.parse_instruction(line)
    assert (instruction.name, instruction.opcode, instruction.operands, instruction.called) == (
        "w",
        "while",
        ("t",),
        ("c", "b"),
    )
    assert _hlo_text.loop_body(instruction) == "b"
    assert _hlo_text.parse_instruction("HloModule jit_f") is None
