"""Nx 0.13.1 nx/test/nx_test.exs (NxTest), describes "serialize/deserialize", "load_numpy/1",
"load_numpy_archive!/1", "gather", "variance/1", "standard_deviation/1", "covariance/1",
"weighted_mean/3", "median/2", "complex/2", "as_type/2"."""

import io

import numpy as np
import pytest

import numbat as nbt

from ._support import assert_all_close, assert_raises, assert_same, run

# describe "serialize/deserialize"


def test_serialize_containers():
    container = {"a": (nbt.tensor(1), nbt.tensor(2)), "b": {"key": nbt.tensor(3)}}
    assert_same(nbt.deserialize(nbt.serialize(container)), container)


def test_serialize_numbers():
    assert_same(nbt.deserialize(nbt.serialize(123)), nbt.tensor(123))
    assert_same(nbt.deserialize(nbt.serialize(1.2)), nbt.tensor(1.2))


def test_serialize_vectorized():
    tensor = nbt.vectorize(nbt.tensor([[1], [2], [3]]), "x")
    assert_same(nbt.deserialize(nbt.serialize(tensor)), tensor)


# describe "load_numpy/1", "load_numpy_archive!/1": Nx's fixtures hold these arrays; np.save writes them


def npy(array) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def test_load_numpy_loads_array():
    assert_same(nbt.load_numpy(npy(np.int64(123))), nbt.tensor(123, type="s64"))
    assert_same(nbt.load_numpy(npy(np.array([1, 2, 3, 4], np.int64))), nbt.tensor([1, 2, 3, 4], type="s64"))
    assert_same(nbt.load_numpy(npy(np.array([[1, 2], [3, 4], [5, 6]], np.float32))),
                nbt.tensor([[1, 2], [3, 4], [5, 6]], type="f32"))  # fmt: skip
    assert_same(nbt.load_numpy(npy(np.array([1, 2, 3], np.uint8))), nbt.tensor([1, 2, 3], type="u8"))


@pytest.mark.parametrize("save", [np.savez, np.savez_compressed], ids=["archive", "archive_compressed"])
def test_load_numpy_archive_loads_archive(save):
    buffer = io.BytesIO()
    save(buffer, foo=np.array([1, 2, 3], np.int64), bar=np.array([-1, 1], np.float32),
         a_longer_name=np.array([123], np.int64))  # fmt: skip
    loaded = nbt.load_numpy_archive(buffer.getvalue())
    assert list(loaded) == ["foo", "bar", "a_longer_name"]
    assert_same(loaded["foo"], nbt.tensor([1, 2, 3], type="s64"))
    assert_same(loaded["bar"], nbt.tensor([-1, 1], type="f32"))
    assert_same(loaded["a_longer_name"], nbt.tensor([123], type="s64"))


# describe "gather"


def test_gather_out_of_bounds(path):
    # Nx.BinaryBackend raises "index 3 is out of bounds for axis 0 in shape {2, 2}"; DELIBERATE: numbat clamps
    # the indices into the axis on every path, as EXLA (XLA's gather) does
    t = nbt.tensor([[1, 2], [3, 4]])
    assert_same(run(path, nbt.gather, t, nbt.tensor([[3, -10]])), nbt.tensor([3]))
    assert_same(run(path, nbt.gather, t, nbt.tensor([[0, -1]])), nbt.tensor([1]))


def test_gather_raises_correct_error_on_scalar_indices(path):
    assert_raises(path, nbt.gather, nbt.iota((3,)), nbt.tensor(0), match="indices")


# describe "variance/1", "standard_deviation/1", "covariance/1": Nx compares with ==, its values rounded
# by Nx.BinaryBackend's summation order; numbat's paths sum in their own order (XLA's reductions), so
# these compare type, shape and names exactly and the values within 2e-7 relative, an f32 ulp or two
# (DELIBERATE in untranslatable.py)


def assert_same_to_an_ulp(actual, expected):
    assert (str(actual.type), actual.shape, actual.names) == (str(expected.type), expected.shape, expected.names)
    assert_all_close(actual, expected, atol=0, rtol=2.5e-7)


T = [[4, 5], [2, 3], [1, 0]]


def test_variance(path):
    t = nbt.tensor(T)
    assert_same_to_an_ulp(run(path, nbt.variance, t), nbt.tensor(2.9166667461395264))
    assert_same_to_an_ulp(run(path, lambda t: nbt.variance(t, ddof=1), t), nbt.tensor(3.5))
    named = nbt.tensor(T, names=["x", "y"])
    assert_same_to_an_ulp(run(path, lambda t: nbt.variance(t, axes=["x"]), named),
                nbt.tensor([1.5555557012557983, 4.222222328186035], names=["y"]))  # fmt: skip
    assert_same_to_an_ulp(
        run(path, lambda t: nbt.variance(t, axes=["y"]), named), nbt.tensor([0.25, 0.25, 0.25], names=["x"])
    )
    assert_same_to_an_ulp(run(path, lambda t: nbt.variance(t, keep_axes=True), t), nbt.tensor([[2.9166667461395264]]))


def test_standard_deviation(path):
    t = nbt.tensor(T)
    assert_same_to_an_ulp(run(path, nbt.standard_deviation, t), nbt.tensor(1.707825127659933))
    assert_same_to_an_ulp(run(path, lambda t: nbt.standard_deviation(t, ddof=1), t), nbt.tensor(1.8708287477493286))
    assert_same_to_an_ulp(run(path, lambda t: nbt.standard_deviation(t, axes=[0]), t),
                nbt.tensor([1.247219204902649, 2.054804801940918]))  # fmt: skip
    assert_same_to_an_ulp(
        run(path, lambda t: nbt.standard_deviation(t, keep_axes=True), t), nbt.tensor([[1.7078251838684082]])
    )


# describe "covariance/1"

COV = [[1.5555554628372192, 2.444444417953491], [2.444444417953491, 4.222222328186035]]


def test_covariance(path):
    assert_same_to_an_ulp(run(path, nbt.covariance, nbt.tensor(T)), nbt.tensor(COV))


def test_covariance_with_tensor_batch(path):
    t = nbt.tensor([T, [[10, 11], [8, 9], [7, 6]]])
    assert_same_to_an_ulp(run(path, nbt.covariance, t), nbt.tensor([COV, COV]))


def test_covariance_with_mean(path):
    out = run(path, nbt.covariance, nbt.tensor(T), nbt.tensor([3, 2]))
    assert_same_to_an_ulp(out, nbt.tensor([[2.0, 2.0], [2.0, 4.666666507720947]]))


def test_covariance_with_mean_batch(path):
    out = run(path, nbt.covariance, nbt.tensor(T), nbt.tensor([[3, 2], [2, 3]]))
    expected = [
        [[2.0, 2.0], [2.0, 4.666666507720947]],
        [[1.6666666269302368, 2.3333332538604736], [2.3333332538604736, 4.333333492279053]],
    ]
    assert_same_to_an_ulp(out, nbt.tensor(expected))


def test_covariance_uses_optional_ddof(path):
    out = run(path, lambda t: nbt.covariance(t, ddof=1), nbt.tensor(T))
    assert_same_to_an_ulp(
        out, nbt.tensor([[2.3333332538604736, 3.6666667461395264], [3.6666667461395264, 6.333333492279053]])
    )


# describe "weighted_mean/3", "median/2"


def test_weighted_mean_shape_of_input_differs_from_shape_of_weights(path):
    out = run(path, lambda t, w: nbt.weighted_mean(t, w, axes=[0]), nbt.iota((4, 6)), nbt.tensor([1, 2, 3, 4]))
    assert_same(out, nbt.tensor([12.0, 13.0, 14.0, 15.0, 16.0, 17.0]))


def test_median_uses_optional_keep_axis_with_unsorted_tensor(path):
    t = nbt.tensor([[[4, 5, 8], [1, 6, 7]], [[3, 9, 2], [7, 5, 6]]])
    assert_same(run(path, lambda t: nbt.median(t, axis=-1, keep_axis=True), t), nbt.tensor([[[5], [6]], [[3], [6]]]))


# describe "complex/2"


def test_complex_preserves_precision_of_real_and_imaginary_parts(path):
    fun = lambda t: nbt.complex(nbt.real(t), nbt.imag(t))
    assert str(nbt.type(run(path, fun, nbt.tensor(1 + 2j, type="c128")))) == "c128"
    assert str(nbt.type(run(path, fun, nbt.tensor(1 + 3j, type="c64")))) == "c64"


def test_complex_returns_c128_for_64_bit_and_mixed_inputs(path):
    t32, t64 = nbt.tensor(1, type="f32"), nbt.tensor(2, type="f64")
    for left, right in ((t64, t64), (t32, t64), (t64, t32)):
        assert str(nbt.type(run(path, nbt.complex, left, right))) == "c128"


# describe "as_type/2"


def test_as_type_preserves_the_imaginary_part_between_c64_and_c128(path):
    t64, t128 = nbt.tensor(1 + 2j, type="c64"), nbt.tensor(1 + 2j, type="c128")
    assert_same(run(path, lambda t: nbt.as_type(t, "c64"), t128), t64)
    assert_same(run(path, lambda t: nbt.as_type(t, "c128"), t64), t128)


@pytest.mark.parametrize("type_", ["f32", "f64", "s64", "s32", "s16", "s8", "u64", "u32", "u16", "u8"])
def test_as_type_keeps_only_real_part_when_downcasting_complex_to_real(path, type_):
    out = run(path, lambda t: nbt.as_type(t, type_), nbt.tensor(1 + 2j, type="c64"))
    assert_same(out, nbt.tensor(1.0 if type_.startswith("f") else 1, type=type_))
