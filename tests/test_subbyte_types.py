"""Nx's sub-byte integer types (s2, s4, u2, u4): parsing, merging, creation, casts, Nx's
binary packing, and one answer on every path (eager NumPy, eager XLA, defn, evaluator)
equal to a NumPy reference computed in int64 and wrapped to the type's bits.

Every value of each type is an input (16 or 4 of them; binary ops: every pair).
"""

from __future__ import annotations

import re

import _differential as d
import ml_dtypes
import numpy as np
import pytest

import numbat as nbt
from numbat._core import _types
from numbat._core._errors import ArgumentError

SUBBYTE = ("s2", "s4", "u2", "u4")


def _all_values(type_name: str) -> np.ndarray:
    info = ml_dtypes.iinfo(_types.parse(type_name).dtype)
    return np.arange(info.min, info.max + 1).astype(_types.parse(type_name).dtype)


def _wrapped(values, type_name: str) -> np.ndarray:
    """int64 `values` wrapped to `type_name`'s bits (Nx's binary backend writes them so)."""
    type_ = _types.parse(type_name)
    values = np.asarray(values, dtype=np.int64) & ((1 << type_.bits) - 1)
    if type_.kind == "s":
        values = np.where(values >= 1 << (type_.bits - 1), values - (1 << type_.bits), values)
    return values


# ---- the type system ------------------------------------------------------------------


@pytest.mark.parametrize("name", SUBBYTE)
def test_parse_and_print(name):
    kind, bits = name[0], int(name[1:])
    assert _types.parse(name) == _types.parse((kind, bits)) == _types.Type(kind, bits)
    assert str(_types.parse(name)) == name
    assert _types.parse(_types.parse(name).dtype) == _types.Type(kind, bits)
    assert str(nbt.tensor([1], type=name).type) == name


def test_unknown_types_list_the_subbyte_ones():
    with pytest.raises(ArgumentError, match="s2, s4, s8, .*u2, u4, u8"):
        _types.parse("u3")


@pytest.mark.parametrize(
    ("name", "number", "merged"),
    [("u4", 0, "u4"), ("u4", 1, "u4"), ("u4", 2, "u8"), ("u2", -1, "s4"), ("u4", -1, "s8")]
    + [("s2", -2, "s2"), ("s2", 1, "s2"), ("s4", 2, "s8"), ("s4", -3, "s8"), ("s4", 1.5, "f32")],
)
def test_merge_number_follows_nx(name, number, merged):
    # Nx.Type.merge_number: unsigned_size/signed_size give 1 bit for 0, 1 (and -1, -2).
    assert str(_types.merge_number(_types.parse(name), number)) == merged
    assert str((nbt.tensor([1], type=name) + number).type) == merged


@pytest.mark.parametrize(("name", "low", "high"), [("s2", -2, 1), ("s4", -8, 7), ("u2", 0, 3), ("u4", 0, 15)])
def test_limits(name, low, high):
    assert nbt.to_number(nbt.constants.min_finite(name)) == low
    assert nbt.to_number(nbt.constants.max_finite(name)) == high
    assert nbt.to_number(nbt.constants.min(name)) == low and nbt.to_number(nbt.constants.max(name)) == high
    assert nbt.constants.max(name).type == _types.parse(name)


# ---- creation, casts, packing ---------------------------------------------------------


@pytest.mark.parametrize("backend", [nbt.NumPyBackend(), nbt.XLABackend()], ids=["numpy", "xla"])
def test_creation_and_printing(backend):
    t = nbt.tensor([[0, 7], [15, 3]], type="u4", names=["x", None], backend=backend)
    assert str(t) == "numbat.Tensor<\n  u4[x: 2][2]\n  [\n    [0, 7],\n    [15, 3]\n  ]\n>"
    assert t.to_numpy().dtype == np.dtype(ml_dtypes.uint4)
    assert nbt.to_flat_list(t) == [0, 7, 15, 3]
    assert nbt.to_flat_list(nbt.tensor([20, -1], type="s4", backend=backend)) == [4, -1]  # the low bits
    assert nbt.to_flat_list(nbt.iota((6,), type="s2", backend=backend)) == [0, 1, -2, -1, 0, 1]
    assert nbt.to_flat_list(nbt.broadcast(nbt.tensor(3, type="u2", backend=backend), (3,))) == [3, 3, 3]
    assert nbt.to_number(nbt.tensor(-2, type="s2", backend=backend)) == -2


@pytest.mark.parametrize("backend", [nbt.NumPyBackend(), nbt.XLABackend()], ids=["numpy", "xla"])
def test_casts(backend):
    floats = nbt.tensor([7.9, 8.0, -8.5, -100.0, float("nan"), float("inf")], backend=backend)
    assert nbt.to_flat_list(nbt.as_type(floats, "s4")) == [7, 7, -8, -8, 0, 7]  # saturating, as XLA's convert
    assert nbt.to_flat_list(nbt.as_type(floats, "u2")) == [3, 3, 0, 0, 0, 3]
    ints = nbt.tensor([7, 8, -9, 255], type="s16", backend=backend)
    assert nbt.to_flat_list(nbt.as_type(ints, "s4")) == [7, -8, 7, -1]  # the low bits
    assert nbt.to_flat_list(nbt.as_type(ints, "u4")) == [7, 8, 7, 15]
    s4 = nbt.tensor([-8, -1, 7], type="s4", backend=backend)
    assert nbt.to_flat_list(nbt.as_type(s4, "f32")) == [-8.0, -1.0, 7.0]
    assert nbt.to_flat_list(nbt.as_type(s4, "u4")) == [8, 15, 7]
    assert nbt.to_flat_list(nbt.as_type(s4, "u64")) == [2**64 - 8, 2**64 - 1, 7]
    assert nbt.to_flat_list(nbt.bitcast(s4, "u4")) == [8, 15, 7]


# Nx's own tests ("quantized types" in nx_test.exs): the binary is the elements' bits in order.
@pytest.mark.parametrize(
    ("name", "values", "binary", "bit_size", "byte_size"),
    [
        ("s2", [-2, -1, 1], bytes([0b10110100]), 6, 0),
        ("s4", [-8, -1, 7], bytes([0x8F, 0x70]), 12, 1),
        ("u2", [1, 2, 3], bytes([0b01101100]), 6, 0),
        ("u4", [0, 7, 15], bytes([0x07, 0xF0]), 12, 1),
        ("s4", [-8, -3, 0, 7, 0, -3, -8], bytes([0x8D, 0x07, 0x0D, 0x80]), 28, 3),
        ("u2", [0, 1, 2, 3, 2, 1, 0], bytes([0b00011011, 0b10010000]), 14, 1),
    ],
)
def test_binary_packing_as_nx(name, values, binary, bit_size, byte_size):
    t = nbt.tensor(values, type=name)
    assert nbt.to_binary(t) == binary
    assert nbt.bit_size(t) == bit_size and nbt.byte_size(t) == byte_size
    back = nbt.from_binary(binary, name)
    assert back.type == t.type and nbt.to_flat_list(back)[: len(values)] == values
    assert nbt.to_binary(t, limit=2) == nbt.to_binary(nbt.tensor(values[:2], type=name))


def test_sub_byte_through_compiled_defn_with_64_bit_values():
    # a defn with 64-bit values inside is called as its compiled executable, except for sub-byte inputs
    f = nbt.jit(lambda t: nbt.as_type(nbt.sum(nbt.as_type(t, "s64")), "u4") + t)
    t = nbt.tensor([15, 1], type="u4", backend=nbt.XLABackend())
    first = f(t)
    assert first.type == _types.parse("u4") and nbt.to_flat_list(first) == [15, 1]
    assert nbt.to_flat_list(f(first)) == [15, 1]


# ---- one answer on every path, equal to the int64 reference wrapped ------------------------

# name -> (function of tensors, reference of int64 arrays, whether the result wraps to the input type)
UNARY = {
    "negate": (nbt.negate, np.negative, True),
    "abs": (nbt.abs, np.abs, True),
    "sign": (nbt.sign, np.sign, True),
    "bitwise_not": (nbt.bitwise_not, np.invert, True),
    "population_count": (nbt.population_count, None, False),
    "count_leading_zeros": (nbt.count_leading_zeros, None, False),
    "sum": (nbt.sum, np.sum, False),
    "product": (nbt.product, np.prod, False),
    "reduce_max": (nbt.reduce_max, np.max, False),
    "reduce_min": (nbt.reduce_min, np.min, False),
    "argmax": (nbt.argmax, np.argmax, False),
    "argmin": (nbt.argmin, np.argmin, False),
    "cumulative_sum": (nbt.cumulative_sum, np.cumsum, True),
    "sort": (nbt.sort, np.sort, False),
    "argsort": (lambda t: nbt.argsort(t, stable=True), lambda x: np.argsort(x, kind="stable"), False),
    "sort_desc": (lambda t: nbt.sort(t, direction="desc"), lambda x: np.sort(x)[::-1], False),
    "reverse": (nbt.reverse, lambda x: x[::-1], False),
    "slice": (lambda t: nbt.slice(t, [1], [2]), lambda x: x[1:3], False),
    "take": (lambda t: nbt.take(t, nbt.tensor([2, 0, 1, 1])), lambda x: x[[2, 0, 1, 1]], False),
    "gather": (lambda t: nbt.gather(t, nbt.tensor([[1], [0]])), lambda x: x[[1, 0]], False),
    "concatenate": (lambda t: nbt.concatenate([t, t]), lambda x: np.concatenate([x, x]), False),
    "stack": (lambda t: nbt.stack([t, t]), lambda x: np.stack([x, x]), False),
    "reshape_transpose": (lambda t: nbt.transpose(nbt.reshape(t, (2, -1))), lambda x: x.reshape(2, -1).T, False),
    "as_type_s32": (lambda t: nbt.as_type(t, "s32"), lambda x: x, False),
    "as_type_f32": (lambda t: nbt.as_type(t, "f32"), lambda x: x.astype(np.float32), False),
    "mean": (nbt.mean, lambda x: np.float32(np.mean(x)), False),
    "dot": (lambda t: nbt.dot(t, t), lambda x: np.dot(x, x), True),
    "exp": (nbt.exp, None, False),  # Nx's floats (f32), as for u8 and s8
    "plus_one": (lambda t: t + 1, lambda x: x + 1, True),
}

BINARY = {
    "add": (nbt.add, np.add),
    "subtract": (nbt.subtract, np.subtract),
    "multiply": (nbt.multiply, np.multiply),
    "quotient": (nbt.quotient, lambda a, b: np.where(b == 0, 0, np.trunc(a / np.where(b == 0, 1, b)).astype(np.int64))),
    "remainder": (nbt.remainder, lambda a, b: np.where(b == 0, 0, np.fmod(a, np.where(b == 0, 1, b)))),
    "min": (nbt.min, np.minimum),
    "max": (nbt.max, np.maximum),
    "bitwise_and": (nbt.bitwise_and, np.bitwise_and),
    "bitwise_or": (nbt.bitwise_or, np.bitwise_or),
    "bitwise_xor": (nbt.bitwise_xor, np.bitwise_xor),
    # referenced below, for shifts within the type's bits; a negative amount raises (as Nx), so none is given
    "left_shift": (lambda a, b: nbt.left_shift(a, nbt.max(b, 0)), None),
    "right_shift": (lambda a, b: nbt.right_shift(a, nbt.max(b, 0)), None),
    "equal": (nbt.equal, np.equal),
    "less": (nbt.less, np.less),
    "greater_equal": (nbt.greater_equal, np.greater_equal),
    "divide": (nbt.divide, None),
    "select": (lambda a, b: nbt.select(nbt.greater(a, b), a, b), np.maximum),
    "clip": (lambda a, b: nbt.clip(a, b, b), lambda a, b: b),
}


def _reference_values(values, out_type: str, wraps: bool, in_type: str):
    values = np.asarray(values)
    if out_type == in_type and wraps:
        return _wrapped(values, in_type)
    return values


@pytest.mark.parametrize("type_name", SUBBYTE)
def test_unary_ops_agree_with_the_wrapped_reference(type_name):
    x, failures = _all_values(type_name), []
    expected = d.compare_paths({name: fun for name, (fun, _r, _w) in UNARY.items()}, [x], type_name, failures)
    wide = x.astype(np.int64)
    for name, (_fun, reference, wraps) in UNARY.items():
        outcome = expected[name]
        assert outcome[0] == "ok", (name, outcome)
        if reference is None:
            continue
        got = outcome[4]
        want = _reference_values(reference(wide), outcome[1], wraps, type_name)
        if got.dtype.kind == "V":  # sub-byte: compare the integer values
            got = got.astype(np.int64)
        if not np.array_equal(np.asarray(want, dtype=got.dtype), got):
            failures.append(f"{name}[{type_name}] vs reference: {want} vs {got}")
    bits = _types.parse(type_name).bits
    counts = [(int(v) & ((1 << bits) - 1)).bit_count() for v in wide]
    assert expected["population_count"][4].astype(np.int64).tolist() == _wrapped(counts, type_name).tolist()
    leading = [bits - (int(v) & ((1 << bits) - 1)).bit_length() for v in wide]
    assert expected["count_leading_zeros"][4].astype(np.int64).tolist() == _wrapped(leading, type_name).tolist()
    assert expected["exp"][1] == "f32" and expected["sum"][1] == ("s32" if type_name[0] == "s" else "u32")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("type_name", SUBBYTE)
def test_binary_ops_agree_with_the_wrapped_reference(type_name):
    values = _all_values(type_name)
    x, y = np.repeat(values, values.size), np.tile(values, values.size)
    failures = []
    expected = d.compare_paths({name: fun for name, (fun, _r) in BINARY.items()}, [x, y], type_name, failures)
    a, b = x.astype(np.int64), y.astype(np.int64)
    bits = _types.parse(type_name).bits
    for name, (_fun, reference) in BINARY.items():
        outcome = expected[name]
        assert outcome[0] == "ok", (name, outcome)
        got = outcome[4].astype(np.float64 if name == "divide" else np.int64)
        if name == "divide":
            with np.errstate(divide="ignore", invalid="ignore"):
                want = np.divide(a, b, dtype=np.float32)
            assert outcome[1] == "f32" and np.array_equal(got, want.astype(np.float64), equal_nan=True), name
            continue
        if reference is None:  # the shifts, within the type's bits
            within = (b >= 0) & (b < bits)
            shifted = np.left_shift(a, np.where(within, b, 0)) if name == "left_shift" else a >> np.where(within, b, 0)
            want = _wrapped(shifted, type_name)
            got, want = got[within], want[within]
        else:
            want = reference(a, b)
            if outcome[1] == type_name:
                want = _wrapped(want, type_name)
        if not np.array_equal(np.asarray(want, dtype=np.int64), got):
            failures.append(f"{name}[{type_name}] vs reference: {np.flatnonzero(np.asarray(want) != got)[:8]}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("type_name", SUBBYTE)
def test_mixed_with_wider_types_on_every_path(type_name):
    x = _all_values(type_name)
    failures = []
    funs = {
        "plus_s8": lambda t, u: t + u,
        "times_f32": lambda t, u: nbt.multiply(t, nbt.as_type(u, "f32")),
        "concatenate_s16": lambda t, u: nbt.concatenate([t, nbt.as_type(u, "s16")]),
    }
    d.compare_paths(funs, [x, x], type_name, failures)
    assert not failures, "\n".join(failures)


def test_compiled_executables_refuse_sub_byte_inputs_and_portable_serialize_works(tmp_path):
    t = nbt.tensor([1, 2, 15], type="u4", backend=nbt.XLABackend())
    with pytest.raises(ArgumentError, match=r"with a disk cache cannot take sub-byte inputs \(u4\).*cache=True"):
        nbt.jit(lambda a: a + 1, cache=str(tmp_path))(t)
    with pytest.raises(ArgumentError, match=r"serialize \(an executable\) cannot take sub-byte inputs \(u4\)"):
        nbt.xla.serialize(lambda a: a + 1, [t])
    restored = nbt.xla.deserialize(nbt.xla.serialize(lambda a: a + 1, [t], portable=True))
    assert nbt.to_flat_list(restored(t)) == [2, 3, 0]


# ---- one sub-byte type to another: XLA GPU's convert, worked around on every platform ------


@pytest.mark.parametrize("source", SUBBYTE)
def test_casts_between_sub_byte_types_agree_with_the_wrapped_reference(source):
    # On an NVIDIA H200 (jax 0.11.2) XLA gave [0, 1] for a u2 [2, 3] cast to u4 through u8 and a
    # mask; numbat reads such a cast from a table on XLA (backends/_cast.py), on every platform,
    # so this runs on the CPU the code a GPU runs. Every value, every target, every path.
    x, failures = _all_values(source), []
    funs = {target: (lambda t, target=target: nbt.as_type(t, target)) for target in SUBBYTE}
    expected = d.compare_paths(funs, [x], source, failures)
    for target in SUBBYTE:
        want = _wrapped(x.astype(np.int64), target)
        assert expected[target][1] == target and expected[target][4].astype(np.int64).tolist() == want.tolist()
    assert not failures, "\n".join(failures)


def _instructions(hlo_text: str) -> dict:
    """name -> (result type, opcode, operand names) of every instruction in optimized HLO text."""
    found = {}
    for line in hlo_text.splitlines():
        match = re.match(r"\s*(?:ROOT )?%([\w.-]+) = (\w+)\[[^\]]*\]\S* (\w[\w-]*)\(([^)]*)\)", line)
        if match:
            found[match[1]] = (match[2], match[3], re.findall(r"%([\w.-]+)", match[4]))
    return found


@pytest.mark.parametrize(("source", "target"), [(a, b) for a in SUBBYTE for b in SUBBYTE if a != b])
def test_no_kernel_converts_one_sub_byte_type_to_another(source, target):
    # The workaround, as the compiler sees it (on every platform): what is written in the target
    # type is a gathered table entry, never a convert of the source's (widened) value.
    t = nbt.tensor([0, 1], type=source, backend=nbt.XLABackend())
    instructions = _instructions(nbt.xla.hlo(lambda a: nbt.as_type(a, target), [t]))
    assert any(opcode == "gather" for _type, opcode, _ops in instructions.values()), instructions
    into_target = [ops for type_, opcode, ops in instructions.values() if type_ == target and opcode == "convert"]
    for operands in into_target:
        assert [instructions[name][1] for name in operands] == ["gather"], (source, target, instructions)
