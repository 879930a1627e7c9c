"""Ops agree with NumPy (float64 reference where needed) on every backend."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import numbat as nbt

RNG = np.random.default_rng(0)
A = RNG.standard_normal((3, 4)).astype(np.float32)
B = RNG.standard_normal((3, 4)).astype(np.float32)
POS = np.abs(A) + 0.1


@pytest.mark.parametrize(
    "op, reference, inputs",
    [
        (nbt.add, np.add, (A, B)),
        (nbt.subtract, np.subtract, (A, B)),
        (nbt.multiply, np.multiply, (A, B)),
        (nbt.divide, np.divide, (A, B)),
        (nbt.pow, np.power, (POS, B)),
        (nbt.negate, np.negative, (A,)),
        (nbt.abs, np.abs, (A,)),
        (nbt.exp, np.exp, (A,)),
        (nbt.log, np.log, (POS,)),
        (nbt.sin, np.sin, (A,)),
        (nbt.cos, np.cos, (A,)),
        (nbt.tanh, np.tanh, (A,)),
        (nbt.sqrt, np.sqrt, (POS,)),
    ],
)
def test_elementwise_matches_numpy_f64(op, reference, inputs, backend):
    result = op(*[nbt.tensor(x) for x in inputs])
    expected = reference(*[x.astype(np.float64) for x in inputs])
    assert str(result.type) == "f32"
    np.testing.assert_allclose(result.to_numpy(), expected, rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize(
    "op, reference",
    [
        (nbt.equal, np.equal),
        (nbt.not_equal, np.not_equal),
        (nbt.less, np.less),
        (nbt.less_equal, np.less_equal),
        (nbt.greater, np.greater),
        (nbt.greater_equal, np.greater_equal),
    ],
)
def test_comparisons_give_u8(op, reference, backend):
    left, right = np.array([1, 2, 3]), np.array([[3], [2]])
    result = op(nbt.tensor(left), nbt.tensor(right))
    assert str(result.type) == "u8" and result.shape == (2, 3)
    np.testing.assert_array_equal(result.to_numpy(), reference(left, right).astype(np.uint8))


@pytest.mark.parametrize("axes", [None, [0], [1], [0, 1]])
@pytest.mark.parametrize("keep_axes", [False, True])
def test_reductions_match_numpy(axes, keep_axes, backend):
    t = nbt.tensor(A)
    np_axes = None if axes is None else tuple(axes)
    for op, reference in [(nbt.sum, np.sum), (nbt.mean, np.mean), (nbt.reduce_max, np.max), (nbt.reduce_min, np.min)]:
        result = op(t, axes=axes, keep_axes=keep_axes)
        expected = reference(A.astype(np.float64), axis=np_axes, keepdims=keep_axes)
        np.testing.assert_allclose(result.to_numpy(), expected, rtol=1e-5, atol=1e-6)


def test_integer_sum_and_mean_types(backend):
    t = nbt.tensor([[1, 2], [3, 4]], type="u8")
    assert str(nbt.sum(t).type) == "u32" and nbt.to_number(nbt.sum(t)) == 10
    assert str(nbt.mean(t).type) == "f32" and nbt.to_number(nbt.mean(t)) == 2.5


def test_argmax_argmin_tie_break(backend):
    t = nbt.tensor([[1, 3, 3], [4, 0, 4]], names=["x", "y"])
    assert nbt.argmax(t, axis="y").to_numpy().tolist() == [1, 0]
    assert nbt.argmax(t, axis="y", tie_break="high").to_numpy().tolist() == [2, 2]
    assert nbt.argmin(t, axis=0).to_numpy().tolist() == [0, 1, 0]
    assert nbt.argmin(t, axis=0, tie_break="high").to_numpy().tolist() == [0, 1, 0]
    assert nbt.to_number(nbt.argmax(t)) == 3
    with pytest.raises(nbt.ArgumentError, match="tie_break"):
        nbt.argmax(t, tie_break="middle")


def test_shape_ops(backend):
    t = nbt.iota((2, 3), names=["x", "y"])
    assert nbt.reshape(t, (3, 2)).to_numpy().tolist() == [[0, 1], [2, 3], [4, 5]]
    assert nbt.reshape(t, (-1,)).shape == (6,)
    assert nbt.transpose(t).names == ("y", "x")
    np.testing.assert_array_equal(nbt.transpose(t).to_numpy(), np.arange(6).reshape(2, 3).T)
    with pytest.raises(nbt.ArgumentError, match="cannot reshape"):
        nbt.reshape(t, (4, 2))


def test_dot_matches_numpy(backend):
    a, b = RNG.standard_normal((2, 3, 4)), RNG.standard_normal((4, 5))
    result = nbt.dot(nbt.tensor(a, type="f64"), nbt.tensor(b, type="f64"))
    assert result.shape == (2, 3, 5)
    np.testing.assert_allclose(result.to_numpy(), np.dot(a, b), rtol=1e-12)
    with pytest.raises(nbt.ArgumentError, match="cannot contract"):
        nbt.dot(nbt.tensor(a), nbt.tensor(a))


def test_creation(backend):
    assert nbt.eye(3).to_numpy().tolist() == np.eye(3, dtype=int).tolist()
    assert nbt.iota((2, 2), axis=0).to_numpy().tolist() == [[0, 0], [1, 1]]
    b = nbt.broadcast(nbt.tensor([1, 2], names=["y"]), (3, 2))
    assert b.names == (None, None) and b.to_numpy().tolist() == [[1, 2]] * 3  # Nx drops names
    with pytest.raises(nbt.ArgumentError, match="cannot broadcast"):
        nbt.broadcast(nbt.tensor([1, 2, 3]), (2, 2))


@settings(max_examples=40, deadline=None)
@given(
    hnp.arrays(np.int32, hnp.array_shapes(max_dims=3, max_side=4), elements=st.integers(-1000, 1000)),
    st.sampled_from(["numpy", "xla"]),
)
def test_sum_and_add_agree_with_numpy_on_random_int_arrays(array, backend_name):
    backend = nbt.NumPyBackend() if backend_name == "numpy" else nbt.XLABackend()
    t = nbt.tensor(array, backend=backend)
    assert nbt.to_number(nbt.sum(t)) == int(array.astype(np.int64).sum())
    np.testing.assert_array_equal((t + t).to_numpy(), array + array)


def test_backends_agree_and_transfer():
    data = RNG.standard_normal((4, 4)).astype(np.float32)
    host = nbt.tensor(data, backend=nbt.NumPyBackend())
    device = nbt.backend_transfer(host, nbt.XLABackend())
    assert isinstance(device.backend, nbt.XLABackend)
    np.testing.assert_array_equal(host.to_numpy(), device.to_numpy())
    mixed = host + device  # the rule: XLA wins, host data moves to the device
    assert isinstance(mixed.backend, nbt.XLABackend)
    copy = nbt.backend_copy(device, nbt.NumPyBackend())
    assert isinstance(copy.data, np.ndarray)


@pytest.mark.parametrize("move", [nbt.backend_transfer, nbt.backend_copy])
def test_moving_a_template_is_a_numbat_error(move):
    # Found by the fuzz: a Template is a NamedTuple, which the container walk took for a tuple.
    with pytest.raises(nbt.ArgumentError, match="got Template"):
        move(nbt.template((2,), "f32"), nbt.NumPyBackend())


def test_default_backend_scopes_and_global():
    with nbt.default_backend(nbt.NumPyBackend()):
        assert isinstance(nbt.tensor([1]).data, np.ndarray)
    previous = nbt.global_default_backend(nbt.NumPyBackend())
    try:
        assert isinstance(nbt.tensor([1]).backend, nbt.NumPyBackend)
    finally:
        nbt.global_default_backend(previous)
    assert isinstance(nbt.tensor([1]).backend, nbt.XLABackend)
    with pytest.raises(nbt.ArgumentError, match="expected a backend"):
        nbt.default_backend("numpy")


def test_unknown_client_and_device():
    with pytest.raises(nbt.ArgumentError, match="unknown XLA client 'gpu'"):
        nbt.tensor([1], backend=nbt.XLABackend(client="gpu"))
    with pytest.raises(nbt.ArgumentError, match="device_id 7 is out of range"):
        nbt.tensor([1], backend=nbt.XLABackend(client="host", device_id=7))
