"""Seeing into the compiler: the StableHLO module JAX hands to XLA, and a fusion report
of the optimized program: its kernels, and which numbat ops ended up in each.

Every numbat op runs under `jax.named_scope(op)` while a defn traces, so each
instruction of the optimized HLO carries `op_name="jit(f)/<numbat op>/<primitive>"`;
the report reads those names back with `_hlo_text`, the one reader of HLO text.
"""

from __future__ import annotations

import dataclasses
import typing

from .._core import _op_table
from .._core._errors import ArgumentError
from . import _hlo_text, _lowering

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
    program a call of the defn (with `opts`) runs. For a `shard_jit` function, `args` are
    its pieces (one list per device) and the text is the program each device runs.

    >>> "operand_precision={highest,highest}" in nbt.xla.hlo(nbt.dot, [nbt.iota((2, 2), type="f32")] * 2, precision="highest")
    True
    """
    sharded = getattr(fun, "numbat_sharded", None)  # a shard_jit function (as nbt.xla.profile reads it)
    if sharded is not None:
        if opts:
            raise ArgumentError(f"xla.hlo of a shard_jit function takes no options (given to shard_jit), got {opts}")
        return sharded.compiled(args).as_text()
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


# Ops whose float answer keeps a NaN as Nx's does: on the CPU, a sum of the data decides whether
# the exact, slower path runs (backends/_families/reduction.keeping_nan), a `conditional` kernel.
_NAN_CHECKED = _op_table.NAN_CHECKED  # the op table's


def kernel_note(program: dict, instruction: _hlo_text.Instruction, ops: tuple) -> str:
    """Why `instruction`'s kernel is there, where its ops alone do not say (else "")."""
    checked = [op for op in ops if op in _NAN_CHECKED]
    if instruction.opcode == "conditional" and checked:
        return (
            f"{checked[0]}'s NaN check: XLA's CPU max and min can lose a NaN that Nx keeps, so the kernels "
            "before it sum the data, and this conditional takes the exact, slower branch only if the sum is NaN"
        )
    inner = program.get(_hlo_text.inside(instruction), [])
    if instruction.opcode == "fusion" and any(one.opcode == "reduce-window" for one in inner):
        return (
            "step 1 of a split reduction: XLA's CPU compiler reduces windows of the input here, "
            "and their partial results in a later kernel"
        )
    return ""


def fusion_report(fun, args, **opts) -> FusionReport:
    """The kernels XLA made of `fun` for `args`, in program order, each with the numbat
    ops it computes (the seed example: `x + y * z` is one loop fusion of multiply and add).

    >>> report = nbt.xla.fusion_report(lambda x, y, z: x + y * z, [nbt.iota((8,), type="f32")] * 3)
    >>> [(k.opcode, k.numbat_ops) for k in report.kernels]
    [('fusion', ('multiply', 'add'))]
    """
    target, compiled = _lowering.compiled(fun, args, **opts)
    program = _hlo_text.computations(compiled.as_text())
    kernels = []
    for instruction in program.get("ENTRY", []):
        if instruction.opcode in _SKIPPED:
            continue
        ops, nodes = _hlo_text.kernel_ops(program, instruction)
        kernels.append(
            Kernel(
                instruction.name,
                instruction.opcode,
                _hlo_text.fusion_kind(instruction),
                instruction.shape,
                ops,
                nodes,
                kernel_note(program, instruction, ops),
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
