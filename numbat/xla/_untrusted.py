"""A portable blob that does not carry this user's signature is data until proven harmless:
`vet` reads its StableHLO module, before anything compiles it, and refuses it unless

- it calls no custom call at all: LAPACK, Mosaic GPU, TPU and every other custom call trusts
  the buffer shapes it is given (a `lapack_sgetrf_ffi` with an undersized pivot result
  writes past its buffer), so no name on jax.export's stable list is safe from a stranger;
- it has no host transfers (infeed, outfeed, send, recv: nothing feeds them, so the call
  would wait for ever) and no effects;
- every tensor in it (arguments, every intermediate value, results) has a static shape whose
  element count fits in int64 and whose bytes pass the allocation guard of the device it is
  loaded for (`numbat.backends._allocation`), so XLA never aborts sizing it;
- its entry function takes and returns exactly what the blob's export record says.

What it cannot prove: that a loop ends. A stranger's module may still run for a long time.
"""

from __future__ import annotations

import functools

import jax
from jax._src.interpreters import mlir
from jax._src.lib.mlir import ir

from .._core import _types
from .._core._errors import AllocationError, ArgumentError
from .._tensor._tensor import Template
from ..backends import _allocation

_HOST_TRANSFERS = ("stablehlo.infeed", "stablehlo.outfeed", "stablehlo.send", "stablehlo.recv")


@functools.cache
def _element_types() -> dict[str, _types.Type]:
    """MLIR element type spellings to Nx types (i1, XLA's predicate, takes a byte as u8)."""
    with mlir.make_ir_context():
        found = {str(mlir.dtype_to_ir_type(t.dtype)): t for t in _types._BY_NAME.values()}
    return {**found, "i1": _types.U8}


def vet(exported: jax.export.Exported, backend) -> None:
    """Raises `ArgumentError` saying why `exported` (a stranger's module) is refused."""
    if exported.ordered_effects or exported.unordered_effects or exported.uses_global_constants:
        _refuse("it has effects or symbolic shapes, which numbat never writes")
    problems: list[str] = []
    with mlir.make_ir_context(), ir.Location.unknown():
        try:
            module = exported.mlir_module(serialized=False)
        except Exception as error:  # noqa: BLE001 - a damaged module fails to parse in several ways
            raise ArgumentError(f"deserialize: the exported module cannot be read ({error})") from None
        try:
            _walk(module.operation, backend, problems)
        except RecursionError:
            problems.append("its regions are nested too deeply to check")
        entry = _entry(module)
        if entry is None:
            problems.append("it has no public entry function")
        else:
            _check_entry(exported, entry, problems)
    if problems:
        _refuse("; ".join(dict.fromkeys(problems)))


def _refuse(reason: str) -> None:
    raise ArgumentError(
        f"deserialize: this portable blob is not signed with your numbat key, so numbat checked it as data "
        f"and refuses it: {reason}. Pass trusted=True to load it as code, only for a blob from a source you "
        "trust as you trust code you run"
    )


def _walk(operation, backend, problems: list) -> None:
    name = operation.name
    if name == "stablehlo.custom_call":
        target = ir.StringAttr(operation.attributes["call_target_name"]).value
        problems.append(f"it calls the custom call {target!r} (a custom call trusts the shapes it is given)")
    elif name in _HOST_TRANSFERS:
        problems.append(f"it uses {name} (a host transfer nothing would answer)")
    for result in operation.results:
        _check_type(result.type, name, backend, problems)
    for region in operation.regions:
        for block in region:
            for argument in block.arguments:
                _check_type(argument.type, name, backend, problems)
            for inner in block:
                _walk(inner.operation, backend, problems)


def _check_type(type_, where: str, backend, problems: list) -> None:
    if isinstance(type_, ir.TupleType):
        tuple_type = ir.TupleType(type_)
        for position in range(tuple_type.num_types):
            _check_type(tuple_type.get_type(position), where, backend, problems)
        return
    if isinstance(type_, ir.UnrankedTensorType):
        problems.append(f"{where} has a tensor of unknown rank")
        return
    if not isinstance(type_, ir.RankedTensorType):
        return  # tokens and the like hold no data
    tensor_type = ir.RankedTensorType(type_)
    if not tensor_type.has_static_shape:
        problems.append(f"{where} has a tensor of dynamic shape {tensor_type}")
        return
    element = _element_types().get(str(tensor_type.element_type))
    if element is None:
        problems.append(f"{where} has elements of type {tensor_type.element_type}, which numbat does not know")
        return
    shape = tuple(tensor_type.shape)
    try:
        _allocation.check(f"its {where}", Template(shape, element, (None,) * len(shape)), backend, public=False)
    except AllocationError as error:
        problems.append(str(error))


def _entry(module):
    for operation in module.body:
        if operation.operation.name == "func.func" and ir.StringAttr(operation.sym_name).value == "main":
            return operation
    return None


def _check_entry(exported: jax.export.Exported, entry, problems: list) -> None:
    """The entry function's arguments and results are the export record's (the arguments
    it keeps, after the platform index when the module is for several platforms)."""
    function_type = ir.FunctionType(ir.TypeAttr(entry.attributes["function_type"]).value)
    kept = [exported.in_avals[i] for i in sorted(exported.module_kept_var_idx)]
    wanted_inputs = (["tensor<i32>"] if len(exported.platforms) > 1 else []) + [_spelling(a) for a in kept]
    found_inputs = [str(t) for t in function_type.inputs]
    found_results = [str(t) for t in function_type.results]
    if found_inputs != wanted_inputs or found_results != [_spelling(a) for a in exported.out_avals]:
        problems.append(
            f"its entry function takes {found_inputs} and returns {found_results}, which is not what its "
            "export record says"
        )


def _spelling(aval) -> str:
    element = mlir.dtype_to_ir_type(aval.dtype)
    return str(ir.RankedTensorType.get(tuple(aval.shape), element))
