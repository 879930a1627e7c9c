"""The allocation guard (numbat/_allocation.py): tensors that cannot fit are refused
with numbat.AllocationError before anything is allocated, so the process lives on."""

import types

import pytest

import numbat as nbt
from numbat import _allocation, _types
from numbat._tensor import Template

BACKENDS = [nbt.NumPyBackend(), nbt.XLABackend()]


@pytest.mark.parametrize("backend", BACKENDS, ids=["numpy", "xla"])
def test_iota_larger_than_memory_is_refused(backend):
    with pytest.raises(nbt.AllocationError) as caught:
        nbt.iota((2**62,), backend=backend)
    message = str(caught.value)
    assert message.startswith("iota needs 16 EiB (18446744073709551616 bytes) for s32[4611686018427387904]")
    assert f"({_allocation._human(_allocation.host_memory())} of physical memory)" in message


def test_size_products_past_int64_are_caught():
    with pytest.raises(nbt.AllocationError, match=r"broadcast needs 64 EiB .* f32\[2147483648\]\[2147483648\]\[4\]"):
        nbt.broadcast(0.0, (2**31, 2**31, 4))
    with pytest.raises(nbt.AllocationError, match=r"iota needs 64 EiB \(73786976294838206464 bytes\)"):
        nbt.iota((2**32, 2**32))


def test_a_dimension_past_int64_is_caught_even_when_empty():
    with pytest.raises(nbt.AllocationError, match=r"reshape: dimension 100000000000000000000 of s32\[0\]"):
        nbt.reshape(nbt.iota((0,)), (0, 10**20))


def test_a_defn_is_refused_while_tracing_and_the_next_call_works():
    big = nbt.defn(lambda t: nbt.broadcast(t, (2**62,)))
    with pytest.raises(nbt.AllocationError, match=r"broadcast needs 16 EiB .* f32\[4611686018427387904\]") as caught:
        big(nbt.tensor(1.0))
    assert any("while numbat traced defn" in note for note in caught.value.__notes__)
    assert nbt.to_number(nbt.sum(nbt.defn(lambda t: nbt.broadcast(t, (3,)))(nbt.tensor(2.0)))) == 6.0


def test_random_samples_are_checked_before_drawing():
    with pytest.raises(nbt.AllocationError, match=r"random.uniform needs 3.64 TiB \(4000000000000 bytes\)"):
        nbt.random.uniform(nbt.random.key(0), shape=(10**6, 10**6))


class _FakeDevice:
    """A device as JAX describes one (hashable, like jax.Device)."""

    def __init__(self, platform, stats):
        self.platform, self.id, self.device_kind, self._stats = platform, 3, "Fake", stats

    def memory_stats(self):
        return self._stats


def test_accelerator_capacity_is_the_allocators_bytes_limit():
    backend = types.SimpleNamespace(device=_FakeDevice("gpu", {"bytes_limit": 2**26}))
    _allocation.check("fill", Template((2**24,), _types.Type("f", 32), (None,)), backend)  # exactly 64 MiB: fits
    too_big = Template((2**24 + 1,), _types.Type("f", 32), ("x",))
    with pytest.raises(
        nbt.AllocationError,
        match=r"fill needs 64 MiB \(67108868 bytes\) for f32\[x: 16777217\], more than "
        r"device gpu:3 \(Fake\) has \(64 MiB of device memory\)",
    ):
        _allocation.check("fill", too_big, backend)


def test_a_device_without_a_limit_still_refuses_int64_overflow():
    backend = types.SimpleNamespace(device=_FakeDevice("tpu", None))
    _allocation.check("iota", Template((2**40,), _types.Type("s", 32), (None,)), backend)  # unknown limit: allowed
    with pytest.raises(nbt.AllocationError, match="more than 64 bits"):
        _allocation.check("iota", Template((2**62,), _types.Type("s", 32), (None,)), backend)
    with pytest.raises(nbt.AllocationError, match=r"s4\[2147483648\]\[4294967296\] has 9223372036854775808 elements"):
        _allocation.check("iota", Template((2**31, 2**32), _types.Type("s", 4), (None, None)), backend)  # 2**62 bytes


def test_a_shape_checked_small_once_costs_a_set_lookup_afterwards(monkeypatch):
    shape = (7, 11, 13)
    _allocation.FINE.discard(shape)
    calls = []
    check = _allocation.check
    monkeypatch.setattr(_allocation, "check", lambda *args: calls.append(args[0]) or check(*args))
    nbt.iota(shape)
    nbt.iota(shape)
    nbt.add(nbt.iota(shape), 1)
    assert calls == ["iota"]
    assert shape in _allocation.FINE
    big = (2**23,)
    nbt.broadcast(nbt.tensor(0, type="u8", backend=nbt.NumPyBackend()), big)
    assert big not in _allocation.FINE  # large shapes are checked on every op
