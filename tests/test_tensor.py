"""Tensor: Nx's text format, operators, conversions, pytree behaviour, bad input."""

import time

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import numbat as nbt

DESIGN_BLOCK = """numbat.Tensor<
  s32[x: 2][y: 2]
  [
    [1, 2],
    [3, 4]
  ]
>"""


def test_print_matches_design_exactly(backend, capsys):
    print(nbt.tensor([[1, 2], [3, 4]], names=["x", "y"]))
    assert capsys.readouterr().out == DESIGN_BLOCK + "\n"


def test_scalar_and_float_format(backend):
    assert repr(nbt.tensor(42)) == "numbat.Tensor<\n  s32\n  42\n>"
    third = nbt.divide(nbt.tensor(1.0), 3)
    assert repr(third).splitlines()[2] == "  0.33333334"
    third64 = nbt.divide(nbt.tensor(1.0, type="f64"), 3)
    assert repr(third64).splitlines()[2] == "  0.3333333333333333"


def test_special_values_and_complex(backend):
    t = nbt.tensor([np.nan, np.inf, -np.inf, 1e-10], type="f32")
    assert repr(t).splitlines()[2] == "  [NaN, Inf, -Inf, 1.0e-10]"
    c = nbt.tensor([1 - 1j, 2.5 + 0j])
    assert repr(c).splitlines()[2] == "  [1.0-1.0i, 2.5+0.0i]"


def test_bf16_prints_shortest_at_its_precision():
    t = nbt.tensor([1 / 3], type="bf16")
    assert repr(t).splitlines()[2] == "  [0.334]"  # bf16(1/3) is 0.333984375


def test_large_tensors_are_cut():
    lines = repr(nbt.iota((100, 100))).splitlines()
    assert lines[1] == "  s32[100][100]"
    assert len(lines) < 10
    assert "..." in lines[-2] or "..." in lines[-3]


def test_properties_and_conversions(backend):
    t = nbt.tensor([[1, 2, 3]], names=["x", "y"])
    assert (t.shape, t.names, t.rank, t.size) == ((1, 3), ("x", "y"), 2, 3)
    assert np.asarray(t).tolist() == [[1, 2, 3]]
    assert jnp.asarray(t).dtype == jnp.int32
    assert nbt.to_number(t[0, 2]) == 3


def test_operators_follow_nx(backend):
    a = nbt.tensor([1, 2, 3])
    assert (a + 1).to_numpy().tolist() == [2, 3, 4]
    assert (1 - a).to_numpy().tolist() == [0, -1, -2]
    assert (a * a).to_numpy().tolist() == [1, 4, 9]
    assert str((a / 2).type) == "f32"
    assert (2**a).to_numpy().tolist() == [2, 4, 8]
    assert (-a).to_numpy().tolist() == [-1, -2, -3]
    assert (a == 2).to_numpy().tolist() == [0, 1, 0]
    assert (a != 2).to_numpy().tolist() == [1, 0, 1]
    assert (a >= 2).to_numpy().tolist() == [0, 1, 1]
    assert (a[1:] @ a[1:]).to_numpy() == 13


def test_numpy_array_on_the_left_defers_to_tensor(backend):
    result = np.array([1, 2], dtype=np.int32) + nbt.tensor([1, 2])
    assert isinstance(result, nbt.Tensor)


def test_indexing_errors_are_clear():
    t = nbt.tensor([[1, 2]])
    with pytest.raises(nbt.ArgumentError, match="out of range for axis 1"):
        t[0, 5]
    with pytest.raises(nbt.ArgumentError, match="too many indices"):
        t[0, 0, 0]


def test_tensor_is_a_pytree_with_static_type_and_names():
    t = nbt.tensor([1.0, 2.0], names=["x"])
    leaves, _ = jax.tree_util.tree_flatten(t)
    assert len(leaves) == 1
    doubled = jax.jit(lambda v: jax.tree_util.tree_map(lambda d: d * 2, v))(t)
    assert isinstance(doubled, nbt.Tensor) and doubled.names == ("x",)


@pytest.mark.parametrize(
    "data, message",
    [
        ([[1, 2], [3]], "ragged nested list"),
        ([1, [2]], "ragged nested list"),
        (["a"], "numbers"),
        ({"a": 1}, "cannot build a tensor"),
    ],
)
def test_bad_data_raises_clearly(data, message):
    with pytest.raises(nbt.ArgumentError, match=message):
        nbt.tensor(data)


def test_ambiguous_truth_value():
    with pytest.raises(ValueError, match="ambiguous"):
        bool(nbt.tensor([1, 2]))
    assert bool(nbt.tensor([1]))


def test_eager_xla_ops_pass_plain_arrays_to_their_jitted_function(monkeypatch):
    """The README's claim: an eager XLA op calls its jitted function with the tensors' arrays
    (types static), so jit's C++ dispatch runs no Python pytree callback per tensor."""
    from numbat.backends import _eager_jit

    calls = []
    jitted = _eager_jit._jitted
    monkeypatch.setattr(_eager_jit, "_jitted", lambda *args: calls.append(args) or jitted(*args))
    a = nbt.tensor([1.0, 2.0], backend=nbt.XLABackend())
    result = nbt.add(a, a)
    (args,) = calls
    assert all(type(x) is not nbt.Tensor for x in args)  # no tensor travels as a pytree
    assert args[4] == (a.type, a.type) and result.names == a.names
    assert result.to_numpy().tolist() == [2.0, 4.0]


def test_backends_are_interned():
    """Equal backends are one object (an op tells "same backend" with `is`, and jit hashes
    a backend by identity), and copies and pickles come back as that object."""
    import copy
    import pickle

    host = nbt.NumPyBackend()
    assert host is nbt.NumPyBackend() is copy.deepcopy(host) is pickle.loads(pickle.dumps(host))
    xla = nbt.XLABackend(client="host")
    assert xla is nbt.XLABackend("host") is nbt.XLABackend("host", None) is copy.copy(xla)
    assert pickle.loads(pickle.dumps(xla)) is xla and xla == nbt.XLABackend(client="host")
    assert nbt.XLABackend() is not xla and nbt.XLABackend() != xla
    assert nbt.XLABackend(device_id=True) is not nbt.XLABackend(device_id=1)  # no shared instance rewritten
    assert nbt.XLABackend(device_id=1).device_id == 1 and type(nbt.XLABackend(device_id=1).device_id) is int
    a = nbt.backend_copy(nbt.tensor([1.0]), nbt.NumPyBackend())
    b = nbt.backend_copy(nbt.tensor([2.0]), nbt.NumPyBackend())
    assert a.backend is b.backend


def _cyclic():
    loop = []
    loop.append(loop)
    return loop


def _shared(levels):
    data = 1.0
    for _ in range(levels):
        data = [data, data]
    return data


@pytest.mark.parametrize(
    "build, message",
    [
        (_cyclic, r"tensor: data holds itself \(a list inside itself\), so it has no end"),
        (lambda: _shared(40), r"tensor: data holds more than 268435456 items, counting a shared sublist each time"),
    ],
    ids=["a list holding itself", "40 levels of shared sublists"],
)
def test_a_walk_over_a_careless_list_ends_at_once_in_a_numbat_error(build, message):
    # Issue 39: both hung nbt.tensor (the walk never ended, or walked 2**40 paths).
    data, start = build(), time.perf_counter()
    with pytest.raises(nbt.ArgumentError, match=message):
        nbt.tensor(data)
    with pytest.raises(nbt.ArgumentError, match=message.replace("tensor: data", "argument 0 of defn .*lambda>")):
        nbt.defn(lambda x: x)(data)
    assert time.perf_counter() - start < 1.0


def test_shared_sublists_that_end_still_build_a_tensor():
    row = [1.0, 2.0]
    assert nbt.tensor([row, row, row]).to_numpy().tolist() == [[1.0, 2.0]] * 3
    assert nbt.tensor(_shared(10)).shape == (2,) * 10
