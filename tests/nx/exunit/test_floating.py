"""Nx 0.13.1 nx/test/nx/floating_test.exs (Nx.FloatingTest): the 8-bit and bf16 float
encodings. Nx.Floating.load_*(<<byte>>) is nbt.from_binary(bytes, type); dump_*(value) is
nbt.to_binary(nbt.tensor(value, type=type))."""

import math
import re

import numpy as np
import pytest

import numbat as nbt

from ._support import nx_inspect

NAN, INF = math.nan, math.inf

# Nx's complete lookup table of the 256 E4M3FN bytes (0x7F and 0xFF are NaN), in byte order
E4M3FN = [
    0.0, 0.001953125, 0.00390625, 0.005859375, 0.0078125, 0.009765625, 0.01171875, 0.013671875,  # 0x00
    0.015625, 0.017578125, 0.01953125, 0.021484375, 0.0234375, 0.025390625, 0.02734375, 0.029296875,  # 0x08
    0.03125, 0.03515625, 0.0390625, 0.04296875, 0.046875, 0.05078125, 0.0546875, 0.05859375,  # 0x10
    0.0625, 0.0703125, 0.078125, 0.0859375, 0.09375, 0.1015625, 0.109375, 0.1171875,  # 0x18
    0.125, 0.140625, 0.15625, 0.171875, 0.1875, 0.203125, 0.21875, 0.234375,  # 0x20
    0.25, 0.28125, 0.3125, 0.34375, 0.375, 0.40625, 0.4375, 0.46875,  # 0x28
    0.5, 0.5625, 0.625, 0.6875, 0.75, 0.8125, 0.875, 0.9375,  # 0x30
    1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875,  # 0x38
    2.0, 2.25, 2.5, 2.75, 3.0, 3.25, 3.5, 3.75,  # 0x40
    4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5,  # 0x48
    8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0,  # 0x50
    16.0, 18.0, 20.0, 22.0, 24.0, 26.0, 28.0, 30.0,  # 0x58
    32.0, 36.0, 40.0, 44.0, 48.0, 52.0, 56.0, 60.0,  # 0x60
    64.0, 72.0, 80.0, 88.0, 96.0, 104.0, 112.0, 120.0,  # 0x68
    128.0, 144.0, 160.0, 176.0, 192.0, 208.0, 224.0, 240.0,  # 0x70
    256.0, 288.0, 320.0, 352.0, 384.0, 416.0, 448.0, NAN,  # 0x78
    -0.0, -0.001953125, -0.00390625, -0.005859375, -0.0078125, -0.009765625, -0.01171875, -0.013671875,  # 0x80
    -0.015625, -0.017578125, -0.01953125, -0.021484375, -0.0234375, -0.025390625, -0.02734375, -0.029296875,  # 0x88
    -0.03125, -0.03515625, -0.0390625, -0.04296875, -0.046875, -0.05078125, -0.0546875, -0.05859375,  # 0x90
    -0.0625, -0.0703125, -0.078125, -0.0859375, -0.09375, -0.1015625, -0.109375, -0.1171875,  # 0x98
    -0.125, -0.140625, -0.15625, -0.171875, -0.1875, -0.203125, -0.21875, -0.234375,  # 0xA0
    -0.25, -0.28125, -0.3125, -0.34375, -0.375, -0.40625, -0.4375, -0.46875,  # 0xA8
    -0.5, -0.5625, -0.625, -0.6875, -0.75, -0.8125, -0.875, -0.9375,  # 0xB0
    -1.0, -1.125, -1.25, -1.375, -1.5, -1.625, -1.75, -1.875,  # 0xB8
    -2.0, -2.25, -2.5, -2.75, -3.0, -3.25, -3.5, -3.75,  # 0xC0
    -4.0, -4.5, -5.0, -5.5, -6.0, -6.5, -7.0, -7.5,  # 0xC8
    -8.0, -9.0, -10.0, -11.0, -12.0, -13.0, -14.0, -15.0,  # 0xD0
    -16.0, -18.0, -20.0, -22.0, -24.0, -26.0, -28.0, -30.0,  # 0xD8
    -32.0, -36.0, -40.0, -44.0, -48.0, -52.0, -56.0, -60.0,  # 0xE0
    -64.0, -72.0, -80.0, -88.0, -96.0, -104.0, -112.0, -120.0,  # 0xE8
    -128.0, -144.0, -160.0, -176.0, -192.0, -208.0, -224.0, -240.0,  # 0xF0
    -256.0, -288.0, -320.0, -352.0, -384.0, -416.0, -448.0, NAN,  # 0xF8
]  # fmt: skip


def load(data: bytes, type_: str) -> float:
    return float(nbt.to_number(nbt.from_binary(data, type_)))


def dump(value, type_: str) -> bytes:
    return nbt.to_binary(nbt.tensor(value, type=type_))


def finite_pairs():
    return [(byte, value) for byte, value in enumerate(E4M3FN) if not math.isnan(value)]


# describe "f8_e4m3fn"


def test_load_f8_e4m3fn():
    for byte, expected in finite_pairs():
        loaded = load(bytes([byte]), "f8_e4m3fn")
        assert loaded == expected and math.copysign(1, loaded) == math.copysign(1, expected), hex(byte)


def test_dump_f8_e4m3fn():
    for byte, value in finite_pairs():
        assert dump(value, "f8_e4m3fn") == bytes([byte]), hex(byte)


def test_f8_e4m3fn_pretty_printing():
    for _byte, value in finite_pairs():
        assert re.search(r"\[-?\d+\.\d+\]", repr(nbt.tensor([value], type="f8_e4m3fn"))), value
    assert repr(nbt.tensor([NAN], type="f8_e4m3fn")) == nx_inspect("#Nx.Tensor<\n  f8_e4m3fn[1]\n  [NaN]\n>")


@pytest.mark.parametrize("type_", ["f8_e4m3fn", "f8", "bf16"])
def test_integers(type_):
    for number in (0, 1, -1):
        assert dump(number, type_) == dump(float(number), type_)


def test_f8_e4m3fn_nan():
    assert dump(NAN, "f8_e4m3fn") == bytes([0x7F])
    assert math.isnan(load(bytes([0x7F]), "f8_e4m3fn")) and math.isnan(load(bytes([0xFF]), "f8_e4m3fn"))


# describe "f8" (E5M2), describe "bf16"


@pytest.mark.parametrize("type_", ["f8", "bf16"])
def test_pretty_printing(type_):
    for value, text in ((0.0, "[0.0]"), (-0.0, "[-0.0]"), (INF, "[Inf]"), (-INF, "[-Inf]"), (NAN, "[NaN]")):
        assert text in repr(nbt.tensor([value], type=type_))


def test_f8_nan():
    assert dump(NAN, "f8") == bytes([0x7E])
    for byte in (0x7D, 0x7E, 0x7F, 0xFD, 0xFE, 0xFF):
        assert math.isnan(load(bytes([byte]), "f8"))


def test_f8_infinity_and_zeroes():
    assert dump(INF, "f8") == bytes([0x7C]) and load(bytes([0x7C]), "f8") == INF
    assert dump(-INF, "f8") == bytes([0xFC]) and load(bytes([0xFC]), "f8") == -INF
    assert dump(0.0, "f8") == bytes([0x00]) and load(bytes([0x00]), "f8") == 0.0
    assert dump(-0.0, "f8") == bytes([0x80]) and math.copysign(1, load(bytes([0x80]), "f8")) == -1


def u16(word: int) -> bytes:
    return np.asarray([word], dtype=np.uint16).tobytes()  # native, as Nx's ::16-native


def test_bf16_nan():
    assert dump(NAN, "bf16") == u16(0x7FC0)
    assert math.isnan(load(u16(0x7FC0), "bf16")) and math.isnan(load(u16(0xFFC0), "bf16"))


def test_bf16_infinity_and_zeroes():
    assert dump(INF, "bf16") == u16(0x7F80) and load(u16(0x7F80), "bf16") == INF
    assert dump(-INF, "bf16") == u16(0xFF80) and load(u16(0xFF80), "bf16") == -INF
    assert dump(0.0, "bf16") == u16(0x0000) and load(u16(0x0000), "bf16") == 0.0
    assert dump(-0.0, "bf16") == u16(0x8000) and math.copysign(1, load(u16(0x8000), "bf16")) == -1
