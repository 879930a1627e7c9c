"""What each kernel of an optimized HLO program reads, writes and computes, read from the
program's text: the profile's bytes and FLOPs per kernel (XLA's own cost analysis gives
only the module's totals).

A kernel is an instruction of the entry computation (a fusion, a lone op, a loop or a
conditional). Its bytes are its operands plus its result; its FLOPs count one per element
of each arithmetic op it computes, `2*m*n*k` for a dot, and one per input element of a
reduction. A loop's or a conditional's inner kernels run inside it: `nested` maps each of
them to the entry kernel that holds it, so the profiler can charge their time to it.

>>> program = Program(nbt.xla.hlo(nbt.dot, [nbt.iota((4, 3), type="f32"), nbt.iota((3, 2), type="f32")]))
>>> [(k.flops, k.bytes_read, k.bytes_written) for k in program.kernels if k.flops]
[(48.0, 72, 32)]
"""

from __future__ import annotations

import dataclasses
import math
import re
import typing

_INSTRUCTION = re.compile(r"^\s*(?:ROOT )?%(?P<name>[\w.\-]+) = (?P<shape>.+?) (?P<opcode>[\w\-]+)\((?P<rest>.*)$")
_HEADER = re.compile(r"^(?:ENTRY )?%(?P<name>[\w.\-]+) ")
_ARRAY = re.compile(r"\b(?P<type>pred|[suf]\d+|bf16|c64|c128|f8\w*|f4\w*)\[(?P<dims>[\d,]*)\]")
_OPERAND = re.compile(r"%(?P<name>[\w.\-]+)")
_CALLED = re.compile(
    r"\b(?:calls|to_apply|body|condition|true_computation|false_computation)=%(?P<one>[\w.\-]+)"
    r"|branch_computations=\{(?P<many>[^}]*)\}"
)
_CONTRACTING = re.compile(r"lhs_contracting_dims=\{(?P<dims>[\d,]*)\}")
_WINDOW = re.compile(r"window=\{size=(?P<size>[\dx]+)")
_KIND = re.compile(r"kind=(?P<kind>k\w+)")
_BODY = re.compile(r"\bbody=%(?P<body>[\w.\-]+)")

_BITS = {"pred": 8, "bf16": 16, "c64": 64, "c128": 128}
# Data movement and bookkeeping: no arithmetic. Any other op computes one result per element.
_NO_FLOPS = {
    "parameter", "constant", "tuple", "get-tuple-element", "bitcast", "copy", "broadcast", "reshape",
    "transpose", "slice", "dynamic-slice", "dynamic-update-slice", "concatenate", "pad", "iota", "reverse",
    "gather", "scatter", "convert", "bitcast-convert", "fusion", "call", "while", "conditional", "custom-call",
    "copy-start", "copy-done", "after-all", "partition-id", "replica-id", "all-gather", "all-reduce",
    "collective-permute", "all-to-all", "reduce-scatter", "rng-bit-generator", "rng-get-and-update-state",
    "optimization-barrier", "domain", "send", "recv", "send-done", "recv-done", "infeed", "outfeed",
}  # fmt: skip
_NOT_KERNELS = {"parameter", "tuple", "get-tuple-element", "constant", "bitcast"}


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


def _elements(dims: str) -> int:
    return math.prod(int(d) for d in dims.split(",") if d)


def _dims(shape: str) -> list[int]:
    found = _ARRAY.search(shape)
    return [int(d) for d in found.group("dims").split(",") if d] if found else []


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


def _parse(line: str) -> Instruction | None:
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
            instruction = _parse(line)
            if instruction is not None:
                found[current].append(instruction)
    return found


@typing.final
@dataclasses.dataclass(frozen=True)
class KernelCost:
    """One kernel of the entry computation: its bytes and FLOPs for one execution."""

    name: str
    opcode: str
    kind: str
    shape: str
    bytes_read: int
    bytes_written: int
    flops: float
    loop: bool  # a while loop or a conditional: its inner kernels' times are its own


class Program:
    """An optimized HLO module's kernels with their costs, and where its inner kernels live."""

    def __init__(self, text: str):
        self.computations = computations(text)
        found = re.search(r"^HloModule (\S+?),?\s", text, re.MULTILINE)
        self.module = found.group(1) if found else ""
        self.shapes = {i.name: i.shape for body in self.computations.values() for i in body}
        self.by_name = {i.name: i for body in self.computations.values() for i in body}
        self.kernels: list[KernelCost] = []
        self.nested: dict[str, str] = {}  # inner kernel name -> the entry kernel running it
        self.inner: dict[str, KernelCost] = {}  # inner kernel name -> its cost
        self.bodies: dict[str, set] = {}  # a loop's name -> the kernels its body runs once per iteration
        for instruction in self.computations.get("ENTRY", []):
            if instruction.opcode in _NOT_KERNELS:
                continue
            self.kernels.append(self._cost(instruction))
            if instruction.opcode in ("while", "conditional", "call"):
                for called in instruction.called:
                    self._nest(called, instruction.name, {called})
        for instruction in self.by_name.values():
            body = _BODY.search(instruction.line) if instruction.opcode == "while" else None
            if body:
                runs = self.computations.get(body.group("body"), [])
                self.bodies[instruction.name] = {i.name for i in runs if i.opcode not in _NOT_KERNELS}

    def _nest(self, computation: str, owner: str, seen: set) -> None:
        for instruction in self.computations.get(computation, []):
            if instruction.opcode in _NOT_KERNELS:
                continue
            self.nested[instruction.name] = owner
            self.inner[instruction.name] = self._cost(instruction)
            if instruction.opcode in ("while", "conditional", "call"):
                for called in instruction.called:
                    if called not in seen:
                        seen.add(called)
                        self._nest(called, owner, seen)

    def _cost(self, instruction: Instruction) -> KernelCost:
        kind = _KIND.search(instruction.line)
        # A loop's or a conditional's bytes and FLOPs are its inner kernels' (the profiler times
        # them); a call is one kernel (XLA's CPU compiler runs a small one, a loop included, whole).
        loop = instruction.opcode in ("while", "conditional")
        read = sum(array_bytes(self.shapes.get(operand, "")) for operand in dict.fromkeys(instruction.operands))
        return KernelCost(
            instruction.name,
            instruction.opcode,
            kind.group("kind") if kind and instruction.opcode == "fusion" else "",
            instruction.shape,
            0 if loop else read,
            0 if loop else array_bytes(instruction.shape),
            0.0 if loop else self.flops(instruction, set()),
            loop,
        )

    def flops(self, instruction: Instruction, seen: set) -> float:
        """The FLOPs of one execution of `instruction` (a fusion's: its fused ops')."""
        opcode = instruction.opcode
        if opcode in ("fusion", "call"):
            return sum(self._computation_flops(name, seen) for name in instruction.called)
        if opcode == "dot":
            lhs = _dims(self.shapes.get(instruction.operands[0], "")) if instruction.operands else []
            found = _CONTRACTING.search(instruction.line)
            contracted = [int(d) for d in found.group("dims").split(",") if d] if found else []
            k = math.prod(lhs[d] for d in contracted if d < len(lhs))
            return 2.0 * _elements_of(instruction.shape) * k
        if opcode == "convolution":
            rhs = _elements_of(self.shapes.get(instruction.operands[1], "")) if len(instruction.operands) > 1 else 0
            out_features = _dims(instruction.shape)[-1] if _dims(instruction.shape) else 1
            return 2.0 * _elements_of(instruction.shape) * rhs / max(out_features, 1)
        if opcode == "reduce":
            inputs = instruction.operands[: len(instruction.operands) // 2]
            return float(sum(_elements_of(self.shapes.get(name, "")) for name in inputs))
        if opcode == "reduce-window":
            window = _WINDOW.search(instruction.line)
            size = math.prod(int(s) for s in window.group("size").split("x")) if window else 1
            return float(_elements_of(instruction.shape) * size)
        if opcode in _NO_FLOPS:
            return 0.0
        return float(_elements_of(instruction.shape))

    def _computation_flops(self, name: str, seen: set) -> float:
        if name in seen:
            return 0.0
        seen = seen | {name}
        return sum(self.flops(instruction, seen) for instruction in self.computations.get(name, []))


def _elements_of(shape: str) -> int:
    return sum(_elements(found.group("dims")) for found in _ARRAY.finditer(shape))
