"""linspace, triangles, diagonals, fill, bitcast, diff, covariance and conversions against NumPy."""

import numpy as np
import pytest

import numbat as nbt

M = np.arange(12, dtype=np.float32).reshape(3, 4)


@pytest.mark.parametrize("mode", ["eager", "defn"])
def test_composed_ops_match_numpy(mode, backend):
    def run(fun, *args):
        return (nbt.jit(fun) if mode == "defn" else fun)(*args).to_numpy()

    t = nbt.tensor(M)
    np.testing.assert_allclose(nbt.linspace(-1, 1, 7).to_numpy(), np.linspace(-1, 1, 7, dtype=np.float32))
    np.testing.assert_array_equal(nbt.tri(3, 4, k=1).to_numpy(), np.tri(3, 4, 1, dtype=np.uint8))
    np.testing.assert_array_equal(run(lambda x: nbt.tril(x, k=1), t), np.tril(M, 1))
    np.testing.assert_array_equal(run(lambda x: nbt.triu(x, k=-1), t), np.triu(M, -1))
    np.testing.assert_array_equal(run(lambda x: nbt.take_diagonal(x, offset=1), t), np.diagonal(M, 1))
    np.testing.assert_array_equal(
        run(lambda v: nbt.make_diagonal(v, offset=-1), nbt.tensor([1, 2])), np.diag([1, 2], -1)
    )
    np.testing.assert_array_equal(run(lambda x: nbt.diff(x, order=2, axis=1), t), np.diff(M, n=2, axis=1))
    np.testing.assert_allclose(run(lambda x: nbt.covariance(x, ddof=1), t), np.cov(M, rowvar=False), rtol=1e-6)
    np.testing.assert_array_equal(run(lambda x: nbt.fill(x, 3), t), np.full_like(M, 3))
    np.testing.assert_array_equal(run(lambda x: nbt.bitcast(x, "s32"), t), M.view(np.int32))


def test_conversions_round_trip():
    t = nbt.tensor([[1.5, -2.0]], type="f64")
    assert nbt.to_list(t) == [[1.5, -2.0]] and nbt.to_flat_list(t) == [1.5, -2.0]
    back = nbt.from_binary(nbt.to_binary(t), "f64")
    assert back.to_numpy().tolist() == [1.5, -2.0] and str(back.type) == "f64"


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: nbt.bitcast(nbt.tensor([1.0]), "s64"), "same width"),
        (lambda: nbt.from_binary(b"\x01\x02\x03", "s16"), "not a whole number"),
        (lambda: nbt.linspace(0, 1, 0), "n must be a positive int"),
        (lambda: nbt.put_diagonal(nbt.iota((2, 2)), nbt.tensor([1, 2, 3])), "has 2 elements"),
        (lambda: nbt.diff(nbt.iota((2,)), order=2), "order must be between"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(nbt.ArgumentError, match=message):
        call()
