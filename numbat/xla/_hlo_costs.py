"""What each kernel of an optimized HLO program reads, writes and computes, read from the
program's text: the profile's bytes and FLOPs per kernel (XLA's own cost analysis gives
only the module's totals).

A kernel is an instruction of the entry computation (a fusion, a lone op, a loop or a
conditional). Its bytes are its operands plus its result; its FLOPs count one per element
of each arithmetic op it computes, `2*m*n*k` for a dot, and one per input element of a
reduction. A loop's or a conditional's inner kernels run inside it: `nested` maps each of
them to the entry kernel that holds it, so the profiler can charge their time to it.
The text is read by `_hlo_text`, the one reader of HLO text.

>>> program = Program(nbt.xla.hlo(nbt.dot, [nbt.iota((4, 3), type="f32"), nbt.iota((3, 2), type="f32")]))
>>> [(k.flops, k.bytes_read, k.bytes_written) for k in program.kernels if k.flops]
[(48.0, 72, 32)]
"""

from __future__ import annotations

import dataclasses
import math
import typing

from . import _hlo_text

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
        self.computations = _hlo_text.computations(text)
        self.module = _hlo_text.module_name(text)
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
            body = _hlo_text.loop_body(instruction)
            if body:
                runs = self.computations.get(body, [])
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

    def _cost(self, instruction: _hlo_text.Instruction) -> KernelCost:
        # A loop's or a conditional's bytes and FLOPs are its inner kernels' (the profiler times
        # them); a call is one kernel (XLA's CPU compiler runs a small one, a loop included, whole).
        loop = instruction.opcode in ("while", "conditional")
        read = sum(
            _hlo_text.array_bytes(self.shapes.get(operand, "")) for operand in dict.fromkeys(instruction.operands)
        )
        return KernelCost(
            instruction.name,
            instruction.opcode,
            _hlo_text.fusion_kind(instruction),
            instruction.shape,
            0 if loop else read,
            0 if loop else _hlo_text.array_bytes(instruction.shape),
            0.0 if loop else self.flops(instruction, set()),
            loop,
        )

    def flops(self, instruction: _hlo_text.Instruction, seen: set) -> float:
        """The FLOPs of one execution of `instruction` (a fusion's: its fused ops')."""
        opcode = instruction.opcode
        if opcode in ("fusion", "call"):
            return sum(self._computation_flops(name, seen) for name in instruction.called)
        gemm = _hlo_text.gemm_contracting_dims(instruction)  # a dot as XLA's GPU compiler writes it
        if opcode == "dot" or gemm is not None:
            lhs = _hlo_text.dims(self.shapes.get(instruction.operands[0], "")) if instruction.operands else []
            k = math.prod(
                lhs[d] for d in (gemm if gemm is not None else _hlo_text.contracting_dims(instruction)) if d < len(lhs)
            )
            return 2.0 * math.prod(_hlo_text.dims(instruction.shape)) * k  # the result: a GEMM's first array
        if opcode == "convolution":
            rhs = (
                _hlo_text.elements(self.shapes.get(instruction.operands[1], "")) if len(instruction.operands) > 1 else 0
            )
            out_features = _hlo_text.dims(instruction.shape)[-1] if _hlo_text.dims(instruction.shape) else 1
            return 2.0 * _hlo_text.elements(instruction.shape) * rhs / max(out_features, 1)
        if opcode == "reduce":
            inputs = instruction.operands[: len(instruction.operands) // 2]
            return float(sum(_hlo_text.elements(self.shapes.get(name, "")) for name in inputs))
        if opcode == "reduce-window":
            return float(_hlo_text.elements(instruction.shape) * _hlo_text.window_size(instruction))
        if opcode in _NO_FLOPS:
            return 0.0
        return float(_hlo_text.elements(instruction.shape))

    def _computation_flops(self, name: str, seen: set) -> float:
        if name in seen:
            return 0.0
        seen = seen | {name}
        return sum(self.flops(instruction, seen) for instruction in self.computations.get(name, []))
