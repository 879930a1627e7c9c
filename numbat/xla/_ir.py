"""Seeing into the compiler: the StableHLO module JAX hands to XLA, and a fusion report
of the optimized program: its kernels, and which numbat ops ended up in each.

Every numbat op runs under `jax.named_scope(op)` while a defn traces, so each
instruction of the optimized HLO carries `op_name="jit(f)/<numbat op>/<primitive>"`;
the report reads those names back.
"""

from __future__ import annotations

import dataclasses
import re
import typing

from . import _lowering

_INSTRUCTION = re.compile(r"^\s*(?:ROOT )?%(?P<name>[\w.\-]+) = (?P<shape>.+?) (?P<opcode>[\w\-]+)\(")
# The computations a kernel runs inside itself: fused ones, and the reducers of its reductions
# (a reduce-window kernel's only numbat op is the reduction its `to_apply` computes).
_CALLS = re.compile(r"(?:calls|to_apply)=%(?P<callee>[\w.\-]+)")
_KIND = re.compile(r"kind=(?P<kind>k\w+)")
_OP_NAME = re.compile(r'op_name="(?P<op_name>[^"]+)"')
_HEADER = re.compile(r"^(?:ENTRY )?%(?P<name>[\w.\-]+) ")
_SKIPPED = {"parameter", "tuple", "get-tuple-element", "constant", "bitcast", "copy"}


def to_mlir_module(fun, args, **opts) -> str:
    """The StableHLO (MLIR) text of `fun` traced for `args`, before XLA optimizes it.

    >>> text = nbt.xla.to_mlir_module(lambda x, y: x + y * 2, [nbt.tensor([1.0]), nbt.tensor([2.0])])
    >>> "stablehlo.multiply" in text and "stablehlo.add" in text
    True
    """
    _, lowered = _lowering.lower(fun, args, **opts)
    return lowered.as_text()


def hlo(fun, args, **opts) -> str:
    """The optimized HLO text of `fun` for `args`, after XLA's fusion passes: the
    program a call of the defn (with `opts`) runs.

    >>> "operand_precision={highest,highest}" in nbt.xla.hlo(nbt.dot, [nbt.iota((2, 2), type="f32")] * 2, precision="highest")
    True
    """
    _, compiled = _lowering.compiled(fun, args, **opts)
    return compiled.as_text()


@typing.final
@dataclasses.dataclass(frozen=True)
class Kernel:
    """One instruction of the optimized program's entry computation: a fusion (kernel)
    or a lone op, with the numbat ops it computes."""

    name: str
    opcode: str
    kind: str  # the fusion kind (kLoop, kInput, kOutput), or "" for a lone op
    shape: str
    numbat_ops: tuple[str, ...]
    nodes: tuple[int, ...] = ()  # ids of the expression-graph nodes it computes (debug_expr's graph)
    note: str = ""  # why the kernel is there, where its ops alone do not say


@typing.final
@dataclasses.dataclass(frozen=True)
class FusionReport:
    """The kernels of a compiled defn, with XLA's cost and memory analyses."""

    function: str
    kernels: tuple[Kernel, ...]
    flops: float
    bytes_accessed: float
    argument_bytes: int
    output_bytes: int
    temp_bytes: int
    hlo: str = ""  # the optimized HLO the report reads (the program a call runs)

    def fused_ops(self) -> dict[str, str]:
        """Which kernel computes each numbat op (by op name)."""
        return {op: kernel.name for kernel in self.kernels for op in kernel.numbat_ops}

    def kernel_of_nodes(self) -> dict[int, str]:
        """Which kernel computes each node of the function's expression graph (by node id,
        as `nbt.debug_expr` numbers them for the same arguments)."""
        return {node: kernel.name for kernel in self.kernels for node in kernel.nodes}

    def __str__(self) -> str:
        lines = [f"numbat.FusionReport<{self.function}: {len(self.kernels)} kernel(s)"]
        for kernel in self.kernels:
            label = f"{kernel.opcode} {kernel.kind}".strip()
            lines.append(f"  {kernel.name} ({label}) {kernel.shape}: {', '.join(kernel.numbat_ops) or '-'}")
            if kernel.note:
                lines.append(f"    ({kernel.note})")
        lines.append(f"  flops {self.flops:g}, bytes accessed {self.bytes_accessed:g}")
        lines.append(
            f"  memory: arguments {self.argument_bytes} B, outputs {self.output_bytes} B, temporaries {self.temp_bytes} B"
        )
        return "\n".join(lines) + "\n>"

    __repr__ = __str__


# Scopes JAX adds on its own (a cond's branches, a loop's parts): not numbat ops.
_JAX_SCOPE = re.compile(r"^(?:cond|while|body|branch_\d+_fun|checkpoint|remat)$")
_WRAPPED = re.compile(r"^(?P<how>\w+)\((?P<inner>.*)\)$")


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


def _computations(text: str) -> dict[str, list[str]]:
    computations, current = {}, None
    for line in text.splitlines():
        header = _HEADER.match(line)
        if header and line.rstrip().endswith("{"):
            current = "ENTRY" if line.startswith("ENTRY") else header.group("name")
            computations[current] = []
        elif line.startswith("}"):
            current = None
        elif current is not None:
            computations[current].append(line)
    return computations


def _ops_in(computations: dict, name: str, seen: set) -> list[str]:
    """The op names (metadata `op_name`s) of computation `name` and those it calls."""
    ops = []
    for line in computations.get(name, []):
        found = _OP_NAME.search(line)
        if found:  # XLA joins the names of ops it merged with ";"
            ops.extend(found.group("op_name").split(";"))
        called = _CALLS.search(line)
        if called and called.group("callee") not in seen:
            seen.add(called.group("callee"))
            ops.extend(_ops_in(computations, called.group("callee"), seen))
    return ops


# Ops whose float answer keeps a NaN as Nx's does: on the CPU, a sum of the data decides whether
# the exact, slower path runs (backends/_families/reduction.keeping_nan), a `conditional` kernel.
_NAN_CHECKED = ("reduce_max", "reduce_min", "window_max", "window_min", "top_k")


def kernel_note(computations: dict, line: str, opcode: str, ops: tuple) -> str:
    """Why the kernel on `line` is there, where its ops alone do not say (else "")."""
    checked = [op for op in ops if op in _NAN_CHECKED]
    if opcode == "conditional" and checked:
        return (
            f"{checked[0]}'s NaN check: XLA's CPU max and min can lose a NaN that Nx keeps, so the kernels "
            "before it sum the data, and this conditional takes the exact, slower branch only if the sum is NaN"
        )
    called = _CALLS.search(line)
    inside = computations.get(called.group("callee"), []) if called else []
    if opcode == "fusion" and any(" reduce-window(" in instruction for instruction in inside):
        return (
            "step 1 of a split reduction: XLA's CPU compiler reduces windows of the input here, "
            "and their partial results in a later kernel"
        )
    return ""


def kernel_ops(computations: dict, line: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The numbat ops (names) and expression-graph nodes (ids) that the kernel on `line`
    computes, read from the `op_name` metadata of its own line or of what it calls."""
    called = _CALLS.search(line)
    if called:
        ops = _ops_in(computations, called.group("callee"), {called.group("callee")})
    else:
        own = _OP_NAME.search(line)
        ops = own.group("op_name").split(";") if own else []
    return (
        tuple(dict.fromkeys(_numbat_op(op) for op in ops if _numbat_op(op))),
        tuple(sorted({node for node in map(_node, ops) if node is not None})),
    )


def fusion_report(fun, args, **opts) -> FusionReport:
    """The kernels XLA made of `fun` for `args`, in program order, each with the numbat
    ops it computes (the seed example: `x + y * z` is one loop fusion of multiply and add).

    >>> report = nbt.xla.fusion_report(lambda x, y, z: x + y * z, [nbt.iota((8,), type="f32")] * 3)
    >>> [(k.opcode, k.numbat_ops) for k in report.kernels]
    [('fusion', ('multiply', 'add'))]
    """
    target, compiled = _lowering.compiled(fun, args, **opts)
    computations = _computations(compiled.as_text())
    kernels = []
    for line in computations.get("ENTRY", []):
        match = _INSTRUCTION.match(line)
        if not match or match.group("opcode") in _SKIPPED:
            continue
        kind = _KIND.search(line)
        ops, nodes = kernel_ops(computations, line)
        kernels.append(
            Kernel(
                match.group("name"),
                match.group("opcode"),
                kind.group("kind") if kind and match.group("opcode") == "fusion" else "",
                match.group("shape"),
                ops,
                nodes,
                kernel_note(computations, line, match.group("opcode"), ops),
            )
        )
    cost = compiled.cost_analysis() or {}
    if isinstance(cost, list):
        cost = cost[0] if cost else {}
    memory = compiled.memory_analysis()
    return FusionReport(
        target.name,
        tuple(kernels),
        float(cost.get("flops", 0.0)),
        float(cost.get("bytes accessed", 0.0)),
        int(getattr(memory, "argument_size_in_bytes", 0)),
        int(getattr(memory, "output_size_in_bytes", 0)),
        int(getattr(memory, "temp_size_in_bytes", 0)),
        compiled.as_text(),
    )
