"""Named axes: normalization, lookup and merging on broadcast."""

import pytest

import numbat as nbt
from numbat._core._names import axes_indices, axis_index, broadcast_names, normalize


def test_normalize_checks_length_and_kinds():
    assert normalize(None, 2) == (None, None)
    with pytest.raises(nbt.ArgumentError, match="got 1 name"):
        normalize(["x"], 2)
    with pytest.raises(nbt.ArgumentError, match="str or None"):
        normalize(["x", 3], 2)
    with pytest.raises(nbt.ArgumentError, match="unique"):
        normalize(["x", "x"], 2)


def test_tensor_with_wrong_number_of_names_raises():
    with pytest.raises(nbt.ArgumentError, match="rank 2"):
        nbt.tensor([[1, 2]], names=["x"])


def test_axis_lookup_by_int_and_name():
    names = ("batch", "x", None)
    assert axis_index(names, "x") == 1
    assert axis_index(names, -1) == 2
    assert axes_indices(names, ["x", 0]) == (0, 1)
    with pytest.raises(nbt.ArgumentError, match="unknown axis name 'y'.*'batch', 'x', None"):
        axis_index(names, "y")
    with pytest.raises(nbt.ArgumentError, match="out of range"):
        axis_index(names, 3)


def test_broadcast_merges_name_with_none():
    assert broadcast_names((2, 3), ("a", None), (2, 3), (None, "b")) == ("a", "b")
    assert broadcast_names((3,), ("b",), (2, 3), ("a", None)) == ("a", "b")


def test_name_conflict_names_both_names_and_the_axis(backend):
    left = nbt.tensor([[1, 2]], names=["batch", "x"])
    right = nbt.tensor([[1, 2]], names=["batch", "y"])
    with pytest.raises(nbt.ArgumentError) as error:
        left + right
    message = str(error.value)
    assert "'x'" in message and "'y'" in message and "axis 1" in message


def test_reductions_accept_names(backend):
    t = nbt.tensor([[1, 2], [3, 4]], names=["x", "y"])
    assert nbt.sum(t, axes=["x"]).names == ("y",)
    assert nbt.argmax(t, axis="y").to_numpy().tolist() == [1, 1]
    with pytest.raises(nbt.ArgumentError, match="unknown axis name 'z'"):
        nbt.sum(t, axes=["z"])
