"""Nx's type system: parsing, real 64-bit storage, merging and scalar promotion."""

import numpy as np
import pytest

import numbat as nbt
from numbat._core import _types
from numbat._core._types import Type, merge, merge_number, parse

ALL_TYPES = [
    "s8",
    "s16",
    "s32",
    "s64",
    "u8",
    "u16",
    "u32",
    "u64",
    "f8",
    "f16",
    "f32",
    "f64",
    "bf16",
    "f8_e4m3fn",
    "c64",
    "c128",
]


@pytest.mark.parametrize("name", ALL_TYPES)
def test_every_nx_type_parses_and_round_trips(name, backend):
    type_ = parse(name)
    assert str(type_) == name
    assert type_.dtype.itemsize * 8 == type_.bits
    t = nbt.tensor([1, 2], type=name)
    assert str(t.type) == name
    assert t.to_numpy().dtype == type_.dtype
    assert np.real(t.to_numpy()).astype(np.float64).tolist() == [1.0, 2.0]


@pytest.mark.parametrize("name, value", [("s64", 2**62 + 1), ("u64", 2**64 - 1), ("f64", 1 / 3), ("c128", 1 / 3 + 1j)])
def test_64_bit_types_keep_their_precision(name, value, backend):
    t = nbt.tensor([value], type=name)
    assert t.to_numpy()[0] == value
    assert (t + t).to_numpy().dtype.itemsize * 8 == parse(name).bits


@pytest.mark.parametrize("bad", ["f31", "int", "", "s128"])
def test_unknown_type_strings_raise_naming_the_type(bad):
    with pytest.raises(nbt.ArgumentError, match=repr(bad)):
        parse(bad)


@pytest.mark.parametrize(
    "left, right, expected",
    [
        ("s8", "s8", "s8"),
        ("s8", "u8", "s16"),
        ("u16", "s8", "s32"),
        ("u64", "s8", "s64"),
        ("s64", "f32", "f32"),
        ("u8", "bf16", "bf16"),
        ("f16", "bf16", "f16"),
        ("f32", "bf16", "f32"),
        ("c64", "f64", "c128"),
        ("c128", "c64", "c128"),
        # the sub-byte types: u with s widens to max(2 * u, s)
        ("u4", "u2", "u4"),
        ("s2", "s4", "s4"),
        ("u4", "s4", "s8"),
        ("u2", "s2", "s4"),
        ("u2", "s8", "s8"),
        ("u4", "s16", "s16"),
        ("s4", "u8", "s16"),
        ("u4", "u8", "u8"),
        ("s4", "f32", "f32"),
        ("u2", "bf16", "bf16"),
        ("s2", "c64", "c64"),
    ],
)
def test_merge_follows_nx(left, right, expected):
    assert str(merge(parse(left), parse(right))) == expected
    assert str(merge(parse(right), parse(left))) == expected


@pytest.mark.parametrize(
    "type_, number, expected",
    [
        ("u8", 0, "u8"),
        ("u8", 255, "u8"),
        ("u8", 256, "u16"),
        ("u8", -1, "s16"),
        ("u8", -32769, "s32"),
        ("s8", 127, "s8"),
        ("s8", -129, "s16"),
        ("s32", 1.5, "f32"),
        ("f16", 1.5, "f16"),
        ("u64", -1337, "s64"),
        ("f32", 1j, "c64"),
    ],
)
def test_merge_number_is_value_dependent(type_, number, expected):
    assert str(merge_number(parse(type_), number)) == expected


def test_scalar_promotion_in_ops(backend):
    u8 = nbt.tensor([1, 2], type="u8")
    assert str((u8 + -1).type) == "s16"
    assert (u8 + -1).to_numpy().tolist() == [0, 1]
    assert str((u8 + 256).type) == "u16"
    assert (u8 + 256).to_numpy().tolist() == [257, 258]
    assert str((nbt.tensor([1, 2]) + 1.5).type) == "f32"
    assert str((nbt.tensor([1], type="s64") + nbt.tensor([1.0])).type) == "f32"


def test_inference_defaults():
    assert str(nbt.tensor(1).type) == "s32"
    assert str(nbt.tensor(1.0).type) == "f32"
    assert str(nbt.tensor(True).type) == "u8"
    assert str(nbt.tensor([1, 2, 3.0]).type) == "f32"
    assert str(nbt.tensor(2**40).type) == "s64"
    assert str(nbt.tensor(1 + 2j).type) == "c64"
    assert str(nbt.tensor(np.array([1.0])).type) == "f64"  # never silently downcast


def test_predicates_are_u8(backend):
    assert str((nbt.tensor([1.0]) < 2).type) == "u8"


def test_type_helpers():
    assert _types.to_floating(Type("u", 8)) == Type("f", 32)
    assert _types.to_real(Type("c", 128)) == Type("f", 64)
    assert _types.to_complex(Type("f", 64)) == Type("c", 128)


def _nx_merge(left, right):
    """Nx.Type.merge, transcribed from nx/lib/nx/type.ex as a table-test oracle."""
    rank = {"c": 4, "f": 3, "f8_e4m3fn": 3, "bf": 2, "s": 1, "u": 0}
    if left[0] == right[0]:
        return (left[0], max(left[1], right[1]))
    low, high = (left, right) if rank[left[0]] < rank[right[0]] else (right, left)
    if (low[0], high[0]) == ("u", "s"):
        return ("s", max(min(low[1] * 2, 64), high[1]))
    if (low[0], high[0]) == ("f", "c"):
        return ("c", max(low[1] * 2, high[1]))
    return high


PARSED_TYPES = [_types.parse(name) for name in ALL_TYPES]


@pytest.mark.parametrize("left", PARSED_TYPES, ids=str)
def test_merge_matches_nx_for_every_pair(left):
    for right in PARSED_TYPES:
        expected = _nx_merge((left.kind, left.bits), (right.kind, right.bits))
        assert (_types.merge(left, right).kind, _types.merge(left, right).bits) == expected, (left, right)
    assert str(_types.merge(_types.parse("f64"), _types.parse("c64"))) == "c128"
