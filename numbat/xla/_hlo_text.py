"""The one reader of XLA's optimized HLO text, shared by the fusion report (`_ir`), the
kernels' costs (`_hlo_costs`), the profile (`_profile`) and `numbat bench kernels`: every
regular expression over HLO text lives here.

A module is computations (the entry one read as "ENTRY") of instructions, one a line:
`%name = shape opcode(operands), attributes, metadata={op_name="..."}`. Every numbat op
runs under `jax.named_scope(op)` while a defn traces, so an instruction's `op_name` reads
`jit(f)/<numbat op>#<node>/<primitive>`; `kernel_ops` reads those names back.

>>> program = computations("ENTRY %main {\\n  ROOT %a = f32[2]{0} add(%x, %y), metadata={op_name=\\"jit(f)/add#3/add\\"}\\n}")
>>> kernel_ops(program, program["ENTRY"][0])
(('add',), (3,))
"""

from __future__ import annotations

import dataclasses
import math
import re
import typing

_INSTRUCTION = re.compile(r"^\s*(?:ROOT )?%(?P<name>[\w.\-]+) = (?P<shape>.+?) (?P<opcode>[\w\-]+)\((?P<rest>.*)$")
_HEADER = re.compile(r"^(?:ENTRY )?%(?P<name>[\w.\-]+) ")
_MODULE = re.compile(r"^HloModule (\S+?),?\s", re.MULTILINE)
_ARRAY = re.compile(r"\b(?P<type>pred|[suf]\d+|bf16|c64|c128|f8\w*|f4\w*)\[(?P<dims>[\d,]*)\]")
_OPERAND = re.compile(r"%(?P<name>[\w.\-]+)")
_CALLED = re.compile(
    r"\b(?:calls|to_apply|body|condition|true_computation|false_computation)=%(?P<one>[\w.\-]+)"
    r"|branch_computations=\{(?P<many>[^}]*)\}"
)
# The computations a kernel runs inside itself: fused ones, and the reducers of its reductions
# (a reduce-window kernel's only numbat op is the reduction its `to_apply` computes).
_INSIDE = re.compile(r"(?:calls|to_apply)=%(?P<callee>[\w.\-]+)")
_BODY = re.compile(r"\bbody=%(?P<body>[\w.\-]+)")
_KIND = re.compile(r"kind=(?P<kind>k\w+)")
_OP_NAME = re.compile(r'op_name="(?P<op_name>[^"]+)"')
_CONTRACTING = re.compile(r"lhs_contracting_dims=\{(?P<dims>[\d,]*)\}")
_WINDOW = re.compile(r"window=\{size=(?P<size>[\dx]+)")
# XLA's GPU compiler writes a dot as a cuBLAS call, its dimensions in the backend config
_GEMM = re.compile(r'custom_call_target="__cublas\$(?:lt\$)?(?:gemm|matmul)')
_GEMM_CONTRACTING = re.compile(r'"lhs_contracting_dimensions":\[(?P<dims>[^\]]*)\]')
# Scopes JAX adds on its own (a cond's branches, a loop's parts): not numbat ops.
_JAX_SCOPE = re.compile(r"^(?:cond|while|body|branch_\d+_fun|checkpoint|remat)$")
_WRAPPED = re.compile(r"^(?P<how>\w+)\((?P<inner>.*)\)$")
_BITS = {"pred": 8, "bf16": 16, "c64": 64, "c128": 128}


@typing.final
@dataclasses.dataclass(frozen=True)
class Instruction:
    """One line of an HLO computation."""

    name: str
    shape: str
    opcode: str
    operands: tuple[str, ...]
    called: tuple[str, ...]  # the computations it runs (fused, reducer, loop body, branches)
    line: str


def parse_instruction(line: str) -> Instruction | None:
    """The instruction on `line`, or None where the line holds none.

    >>> parse_instruction("  %d = f32[4,2]{1,0} dot(%a, %b), lhs_contracting_dims={1}").operands
    ('a', 'b')
    """
    match = _INSTRUCTION.match(line)
    if not match:
        return None
    rest, depth, end = match.group("rest"), 1, 0
    for end, char in enumerate(rest):  # the operand list ends at its closing parenthesis
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            break
    called = []
    for found in _CALLED.finditer(rest[end:]):
        called += [found.group("one")] if found.group("one") else _OPERAND.findall(found.group("many"))
    operands = tuple(_OPERAND.findall(rest[:end]))
    return Instruction(match.group("name"), match.group("shape"), match.group("opcode"), operands, tuple(called), line)


def computations(text: str) -> dict[str, list[Instruction]]:
    """The instructions of each computation of an HLO module (the entry one as "ENTRY")."""
    found, current = {}, None
    for line in text.splitlines():
        header = _HEADER.match(line)
        if header and line.rstrip().endswith("{"):
            current = "ENTRY" if line.startswith("ENTRY") else header.group("name")
            found[current] = []
        elif line.startswith("}"):
            current = None
        elif current is not None:
            instruction = parse_instruction(line)
            if instruction is not None:
                found[current].append(instruction)
    return found


def module_name(text: str) -> str:
    """The name on an HLO module's `HloModule` line ("" if none)."""
    found = _MODULE.search(text)
    return found.group(1) if found else ""


def fusion_kind(instruction: Instruction) -> str:
    """A fusion's kind (kLoop, kInput, kOutput), or "" for any other instruction."""
    kind = _KIND.search(instruction.line)
    return kind.group("kind") if kind and instruction.opcode == "fusion" else ""


def inside(instruction: Instruction) -> str | None:
    """The computation a kernel runs inside itself (`calls=` or `to_apply=`), if any."""
    found = _INSIDE.search(instruction.line)
    return found.group("callee") if found else None


def loop_body(instruction: Instruction) -> str | None:
    """The body computation of a `while` instruction (None for any other)."""
    found = _BODY.search(instruction.line) if instruction.opcode == "while" else None
    return found.group("body") if found else None


def contracting_dims(instruction: Instruction) -> list[int]:
    """A dot's contracted axes of its left operand."""
    found = _CONTRACTING.search(instruction.line)
    return [int(d) for d in found.group("dims").split(",") if d] if found else []


def gemm_contracting_dims(instruction: Instruction) -> list[int] | None:
    """A cuBLAS GEMM custom call's contracted axes of its left operand; None for any other
    instruction.

    >>> line = '%c = (f32[8,2]{1,0}, s8[4]{0}) custom-call(%a, %b), custom_call_target="__cublas$gemm", '
    >>> line += 'backend_config={"gemm_backend_config":{"dot_dimension_numbers":{"lhs_contracting_dimensions":["1"]}}}'
    >>> gemm_contracting_dims(parse_instruction(line))
    [1]
    """
    if instruction.opcode != "custom-call" or not _GEMM.search(instruction.line):
        return None
    found = _GEMM_CONTRACTING.search(instruction.line)
    return [int(d) for d in re.findall(r"\d+", found.group("dims"))] if found else None


def window_size(instruction: Instruction) -> int:
    """How many elements each window of a `reduce-window` holds (1 if it names no size)."""
    found = _WINDOW.search(instruction.line)
    return math.prod(int(s) for s in found.group("size").split("x")) if found else 1


def array_bytes(shape: str) -> int:
    """The bytes of an HLO shape (a tuple's are its elements' sum).

    >>> array_bytes("f32[512,128]{1,0}"), array_bytes("(s32[], f32[10]{0})"), array_bytes("pred[3]")
    (262144, 44, 3)
    """
    total = 0.0
    for found in _ARRAY.finditer(shape):
        kind = found.group("type")
        bits = _BITS.get(kind) or int(re.sub(r"\D", "", kind.split("e")[0]) or 8)
        total += _elements(found.group("dims")) * bits / 8
    return math.ceil(total)


def dims(shape: str) -> list[int]:
    """The dimensions of a shape's first array (`[]` if none)."""
    found = _ARRAY.search(shape)
    return [int(d) for d in found.group("dims").split(",") if d] if found else []


def elements(shape: str) -> int:
    """How many elements a shape's arrays hold together."""
    return sum(_elements(found.group("dims")) for found in _ARRAY.finditer(shape))


def _elements(dims: str) -> int:
    return math.prod(int(d) for d in dims.split(",") if d)


def _unwrapped(scope: str) -> str:
    """A scope without JAX's transformations around it: "jvp(dot)" is the dot of a grad's
    forward pass, "transpose(jvp(dot))" its gradient, "grad(dot)"; "jit(isinf)" is JAX's."""
    found = _WRAPPED.match(scope)
    if not found:
        return scope
    how, inner = found.group("how"), _unwrapped(found.group("inner"))
    if how == "transpose":
        return f"grad({inner})" if inner else ""
    return inner if how in ("jvp", "vmap", "checkpoint", "remat") else ""


def _scope(op_name: str) -> str:
    """The numbat scope of an HLO op: "add#5" in "jit(f)/add#5/add", "reduce_max#1" in
    "jit(f)/reduce_max#1/cond/branch_0_fun/reduce_max" (JAX's own scopes skipped), "grad(dot)"
    in "jit(f)/transpose(jvp(dot))/dot_general"; none for a bare name (the parameters of a
    reducer carry one)."""
    scopes = [_unwrapped(part) for part in op_name.split("/")[:-1]]
    scopes = [scope for scope in scopes if scope and not _JAX_SCOPE.match(scope)]
    return scopes[-1] if scopes else ""


def _numbat_op(op_name: str) -> str:
    return _scope(op_name).split("#")[0]


def _node(op_name: str) -> int | None:
    _, _, node = _scope(op_name).partition("#")
    return int(node) if node.isdigit() else None


def _op_names(instruction: Instruction) -> list[str]:
    found = _OP_NAME.search(instruction.line)
    return found.group("op_name").split(";") if found else []  # XLA joins the names of ops it merged with ";"


def _ops_in(program: dict, name: str, seen: set) -> list[str]:
    """The op names (metadata `op_name`s) of computation `name` and those it calls."""
    ops = []
    for instruction in program.get(name, []):
        ops.extend(_op_names(instruction))
        called = inside(instruction)
        if called and called not in seen:
            seen.add(called)
            ops.extend(_ops_in(program, called, seen))
    return ops


def kernel_ops(program: dict, instruction: Instruction | None) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The numbat ops (names) and expression-graph nodes (ids) that a kernel of `program`
    (`computations`' answer) computes, read from the `op_name` metadata of its own line or
    of what it runs inside itself."""
    if instruction is None:
        return (), ()
    called = inside(instruction)
    ops = _ops_in(program, called, {called}) if called else _op_names(instruction)
    return (
        tuple(dict.fromkeys(_numbat_op(op) for op in ops if _numbat_op(op))),
        tuple(sorted({node for node in map(_node, ops) if node is not None})),
    )
