"""Nx 0.13.1 nx/test/nx/type_test.exs (Nx.TypeTest): the f8_e4m3fn type and its special values.
Nx.Type's functions are numbat's type strings (`nbt.type`) and `nbt.constants`."""

import numbat as nbt

E4M3FN = "f8_e4m3fn"


def tensor_type(name: str):
    return nbt.type(nbt.tensor(0, type=name))


# describe "fp8 E4M3FN type"


def test_normalizes_the_name():
    assert str(tensor_type(E4M3FN)) == E4M3FN  # Nx: normalize!(:f8_e4m3fn) == {:f8_e4m3fn, 8}
    assert tensor_type(E4M3FN).bits == 8


def test_is_a_float_type_not_an_integer_type():
    assert tensor_type(E4M3FN).is_float and not tensor_type(E4M3FN).is_integer


def test_to_floating_and_to_real_preserve_the_type():
    t = nbt.tensor(1, type=E4M3FN)
    assert str(nbt.type(nbt.sqrt(t))) == E4M3FN  # to_floating: a float function keeps it
    assert str(nbt.type(nbt.real(t))) == E4M3FN  # to_real


# describe "fp8 E4M3FN special values (per OFP8 spec)"


def byte(constant) -> bytes:
    return nbt.to_binary(constant(E4M3FN))


def test_special_values():
    assert byte(nbt.constants.max_finite) == bytes([0x7E])  # 448.0
    assert byte(nbt.constants.min_finite) == bytes([0xFE])  # -448.0
    assert byte(nbt.constants.nan) == bytes([0x7F])
    assert byte(nbt.constants.infinity) == bytes([0x7E])  # no infinity: saturates to the max finite
    assert byte(nbt.constants.neg_infinity) == bytes([0xFE])
    assert byte(nbt.constants.max) == bytes([0x7E])
    assert byte(nbt.constants.min) == bytes([0xFE])
    assert byte(nbt.constants.smallest_positive_normal) == bytes([0x08])
