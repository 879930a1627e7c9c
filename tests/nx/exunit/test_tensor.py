"""Nx 0.13.1 nx/test/nx/tensor_test.exs (Nx.TensorTest): backend functions on containers, and
access with stepped ranges. Nx's `..` and `a..b//step` are Python's `:` and `a:b+1:step`."""

import pytest

import numbat as nbt

from ._support import assert_same, run

# describe "tuples", "maps"


@pytest.mark.parametrize("fun", [nbt.backend_transfer, nbt.backend_copy], ids=["backend_transfer", "backend_copy"])
def test_backend_functions_on_containers(fun):
    assert_same(fun((nbt.tensor(1), 2)), (nbt.tensor(1), nbt.tensor(2)))
    assert_same(fun({"foo": nbt.tensor(1), "bar": 2}), {"foo": nbt.tensor(1), "bar": nbt.tensor(2)})


def test_backend_deallocate_on_containers():
    assert nbt.backend_deallocate((nbt.tensor(1), 2)) == "ok"
    assert nbt.backend_deallocate({"foo": nbt.tensor(1), "bar": 2}) == "ok"


# describe "access"


def test_access_works_with_stepped_ranges(path):
    out = run(path, lambda t: t[:, 0::3, 0::2], nbt.iota((2, 3, 5)))  # [.., 0..-1//3, 0..-1//2]
    assert_same(out, nbt.tensor([[[0, 2, 4]], [[15, 17, 19]]]))
    out = run(path, lambda t: t[:, 0::2, 0::2], nbt.iota((2, 3, 5)))  # [.., 0..-1//2, 0..-1//2]
    assert_same(out, nbt.tensor([[[0, 2, 4], [10, 12, 14]], [[15, 17, 19], [25, 27, 29]]]))


def test_access_with_negative_steps(path):
    # Nx raises "range step must be positive, got range: 4..0//-2"; DELIBERATE: numbat indexes with Python
    # slices, whose negative steps walk backwards (as NumPy): iota[0, 4::-2] is [4, 2, 0]
    assert_same(run(path, lambda t: t[0, 4::-2], nbt.iota((2, 5))), nbt.tensor([4, 2, 0]))
