"""The allocation guard (numbat/backends/_allocation.py): tensors that cannot fit are refused
with numbat.AllocationError before anything is allocated, so the process lives on."""

import io
import json
import pathlib
import struct
import subprocess
import sys
import textwrap
import types
import zipfile
import zlib

import numpy as np
import pytest

import numbat as nbt
from numbat._core import _types
from numbat._tensor._tensor import Template
from numbat.backends import _allocation

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


# Issue 30: the guard's bypasses, each with the public call's name and the whole shape.
BYPASSES = [
    (lambda: nbt.reflect(nbt.iota((4,)), [(0, 10**12)]), r"reflect needs 3.64 TiB .* for s32\[1000000000004\]"),
    (
        lambda: nbt.reflect(nbt.iota((4,), backend=nbt.NumPyBackend()), [(0, 10**12)]),
        r"reflect needs 3.64 TiB",
    ),
    (lambda: nbt.defn(lambda x: nbt.reflect(x, [(0, 10**12)]))(nbt.iota((4,))), r"reflect needs 3.64 TiB"),
    (
        lambda: nbt.broadcast(nbt.vectorize(nbt.iota((10**5,), type="f32"), "x"), (10**6,)),
        r"broadcast needs 373 GiB \(400000000000 bytes\) for vectorized\[x: 100000\] f32\[1000000\]",
    ),
    (
        lambda: nbt.broadcast(nbt.vectorize(nbt.iota((10**5,), type="f32", backend=nbt.NumPyBackend()), "x"), (10**6,)),
        r"broadcast needs 373 GiB .* vectorized\[x: 100000\] f32\[1000000\]",
    ),
    (
        lambda: nbt.defn(lambda v: nbt.broadcast(v, (10**6,)))(nbt.vectorize(nbt.iota((10**5,), type="f32"), "x")),
        r"broadcast needs 373 GiB .* vectorized\[x: 100000\] f32\[1000000\]",
    ),
    (
        lambda: nbt.pad(nbt.vectorize(nbt.iota((10**5, 1), type="f32"), "x"), 0.0, [(0, 10**6, 0)]),
        r"pad needs 373 GiB .* vectorized\[x: 100000\] f32\[1000001\]",
    ),
    (
        lambda: nbt.defn(lambda v: nbt.pad(v, 0.0, [(0, 10**6, 0)]))(
            nbt.vectorize(nbt.iota((10**5, 1), type="f32"), "x")
        ),
        r"pad needs 373 GiB",
    ),
    (
        lambda: nbt.tensor(np.broadcast_to(np.float64(1), (10**6, 10**6))),
        r"tensor needs 7.28 TiB \(8000000000000 bytes\) for f64\[1000000\]\[1000000\]",
    ),
    (
        lambda: nbt.tensor(np.broadcast_to(np.float64(1), (10**6, 10**6)), backend=nbt.NumPyBackend()),
        r"tensor needs 7.28 TiB",
    ),
    (lambda: nbt.add(nbt.iota((3,)), np.broadcast_to(np.int32(1), (10**6, 10**6))), r"add needs 3.64 TiB"),
    (lambda: nbt.random.choice(nbt.random.key(0), nbt.iota((10,)), samples=10**12), r"random.choice needs 3.64 TiB"),
    (lambda: nbt.linspace(0, 1, n=10**12), r"linspace needs 3.64 TiB"),
    (lambda: nbt.tri(10**6, 10**6), r"tri needs 3.64 TiB"),
    (lambda: nbt.outer(nbt.iota((10**6,)), nbt.iota((10**6,))), r"outer needs 3.64 TiB"),
]


@pytest.mark.parametrize("call, message", BYPASSES, ids=[m.split(" ")[0] + str(i) for i, (_, m) in enumerate(BYPASSES)])
def test_every_allocation_passes_the_guard_with_the_public_name_and_the_whole_shape(call, message):
    with pytest.raises(nbt.AllocationError, match=message):
        call()


def _npy_header(shape, descr="<f4") -> bytes:

    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, {"descr": descr, "fortran_order": False, "shape": shape})
    return buffer.getvalue()


def test_headers_claiming_huge_sizes_are_refused_before_anything_is_allocated(tmp_path):

    lying = _npy_header((10**12,)) + bytes(12)
    with pytest.raises(nbt.ArgumentError, match=r"claims 4000000000000 bytes of float32 data .* the file holds fewer"):
        nbt.load_numpy(lying)
    (tmp_path / "lying.npy").write_bytes(lying)
    with pytest.raises(nbt.ArgumentError, match=r"lying.npy'\) as NumPy data \(the header claims 4000000000000 bytes"):
        nbt.load_numpy(tmp_path / "lying.npy")
    with zipfile.ZipFile(tmp_path / "lying.npz", "w") as archive:
        archive.writestr("a.npy", lying)
    with pytest.raises(nbt.ArgumentError, match=r"load_numpy_archive \(a\): .* claims 4000000000000 bytes"):
        nbt.load_numpy_archive(tmp_path / "lying.npz")
    # a truthful header that no device could hold (a sparse file: it costs nothing)
    with open(tmp_path / "huge.npy", "wb") as file:
        file.write(_npy_header((10**12,)))
        file.truncate(file.tell() + 4 * 10**12)
    with pytest.raises(nbt.AllocationError, match=r"load_numpy needs 3.64 TiB .* f32\[1000000000000\]"):
        nbt.load_numpy(tmp_path / "huge.npy")
    # nbt.deserialize: a header's claim is checked, and a zlib bomb inflates no further than it
    header = json.dumps({"structure": {"tensor": ["f32", [10**12], [None], 4 * 10**12]}, "compressed": False}).encode()
    with pytest.raises(nbt.AllocationError, match=r"deserialize needs 3.64 TiB"):
        nbt.deserialize(b"NUMBAT-TENSORS-1\n" + struct.pack("<Q", len(header)) + header)
    header = json.dumps({"structure": {"tensor": ["u8", [4], [None], 4]}, "compressed": True}).encode()
    bomb = b"NUMBAT-TENSORS-1\n" + struct.pack("<Q", len(header)) + header + zlib.compress(bytes(1 << 26))
    with pytest.raises(nbt.ArgumentError, match=r"the payload holds 5 bytes where the header says 4"):
        nbt.deserialize(bomb)
    with pytest.raises(nbt.AllocationError, match=r"from_binary needs"):
        nbt.from_binary(memoryview(np.broadcast_to(np.uint8(0), (10**12,))), "s2")  # a view; 4 elements a byte


WORKER = pathlib.Path(__file__).with_name("allocation_worker.py")


def test_the_public_api_with_sizes_of_10_12_bytes_ends_in_numbat_errors():
    """Every public callable, each argument in turn an element count, a shape, a NumPy view
    or a vectorized tensor of about 10**12 bytes (tests/allocation_worker.py), in a process
    whose address space is limited so that a missed allocation fails at once: every call
    ends in a result or a numbat error, never a foreign MemoryError, RESOURCE_EXHAUSTED, a
    hang or a dead process."""
    done = subprocess.run([sys.executable, str(WORKER)], capture_output=True, text=True, timeout=1500, check=False)
    records = [json.loads(line) for line in done.stdout.splitlines() if line.startswith('{"')]  # calls print too
    started = [r for r in records if "start" in r]
    assert records and records[-1] == {"done": True}, (
        f"died in {started[-1] if started else None}: {done.stderr[-2000:]}"
    )
    outcomes = [r for r in records if "call" in r]
    assert len({r["call"] for r in outcomes}) > 250 and len(outcomes) > 1500
    failures = [f"{r['call']}({r['label']}): {r['error']}" for r in outcomes if not r["ok"]]
    assert not failures, "\n".join(failures)


def test_sub_byte_elements_count_a_whole_byte_each(monkeypatch):
    # numbat, NumPy and XLA store an s2/s4/u2/u4 element in a byte: the guard counted its bits,
    # a quarter of a u2 tensor's memory, so from_binary of 8 MiB passed under a 30 MiB limit.
    monkeypatch.setattr(_allocation, "capacity_of", lambda backend: (30 << 20, "the host"))
    with pytest.raises(nbt.AllocationError, match=r"from_binary needs 32 MiB \(33554432 bytes\) for u2\[33554432\]"):
        nbt.from_binary(bytes(8 << 20), "u2")
    assert nbt.from_binary(bytes(4 << 20), "u4").shape == (8 << 20,)  # 8 MiB stored: under the limit


def test_from_binary_of_a_sub_byte_type_peaks_near_its_result():
    # Unpacking took a byte per bit of the input, twice: 5 times the result's memory at the peak.
    code = """
    import numbat as nbt
    def peak():  # this process's own high-water mark (ru_maxrss keeps the parent's across exec)
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmHWM")) * 1024
    data = bytes(range(256)) * (1 << 18)  # 64 MiB: 256 Mi elements of u2
    before = peak()
    t = nbt.from_binary(data, "u2", backend=nbt.NumPyBackend())
    print((peak() - before) / t.data.nbytes)
    """
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert float(result.stdout) < 2.5  # the result and the backend's copy of it


def _tensor_file(tensors: list, payload: bytes, compressed: bool) -> bytes:
    structure = {"tuple": [{"tensor": tensor} for tensor in tensors]}
    header = json.dumps({"structure": structure, "compressed": compressed}).encode()
    return b"NUMBAT-TENSORS-1\n" + struct.pack("<Q", len(header)) + header + payload


def test_a_tensor_files_sizes_are_summed_before_anything_is_inflated():
    # Issue 39: two u8 tensors of 60% of the host's memory each passed one by one, and the
    # file inflated to gigabytes before a raw MemoryError.
    capacity, _ = _allocation.capacity_of(nbt.NumPyBackend())
    size = int(capacity * 0.6)
    bomb = _tensor_file([["u8", [size], [None], size]] * 2, zlib.compress(bytes(1 << 20)), True)
    with pytest.raises(nbt.AllocationError, match=r"deserialize needs .* for the tensors of this file together"):
        nbt.deserialize(bomb, backend=nbt.NumPyBackend())


def test_a_tensor_files_repeated_axis_names_are_refused_as_nbt_tensor_refuses_them():
    with pytest.raises(nbt.ArgumentError, match=r"axis names must be unique, got \['x', 'x'\]"):
        nbt.tensor([[1, 2]], names=["x", "x"])
    blob = _tensor_file([["u8", [1, 2], ["x", "x"], 2]], bytes(2), False)
    with pytest.raises(nbt.ArgumentError, match=r"deserialize: .*axis names must be unique, got \['x', 'x'\]"):
        nbt.deserialize(blob)


@pytest.mark.parametrize("backend", BACKENDS, ids=["numpy", "xla"])
def test_from_dlpack_counts_a_views_logical_size(backend):
    # Issue 39: a zero-stride view of 4 TiB was imported, and nbt.sum on it hung.
    view = np.broadcast_to(np.float32(1), (2**40,))
    with pytest.raises(nbt.AllocationError, match=r"from_dlpack needs 4 TiB \(4398046511104 bytes\) for f32\["):
        nbt.from_dlpack(view, backend=backend)
    small = np.broadcast_to(np.float32(2), (3,))
    if isinstance(backend, nbt.NumPyBackend):  # JAX's DLPack import refuses a read-only view
        assert nbt.from_dlpack(small, backend=backend).to_numpy().tolist() == [2.0, 2.0, 2.0]


def test_a_vmap_whose_batched_result_cannot_fit_is_jaxs_resource_exhausted():
    # JAX's limit, written down as JAX's in the security guide: under jax.vmap numbat sees one
    # example's shapes (4 MiB here), and the batched result (4 TiB) is refused by XLA's allocator.
    code = """
    import resource, jax, jax.numpy as jnp, numbat as nbt
    resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))
    batched = jax.vmap(lambda x: (nbt.tensor(x) + nbt.broadcast(0.0, (2**20,))).data)
    try:
        batched(jnp.zeros(2**20, jnp.float32)).block_until_ready()
    except Exception as error:
        print(type(error).__name__, str(error)[:80])
    """
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("JaxRuntimeError RESOURCE_EXHAUSTED: Out of memory allocating 4398046511104")


def test_a_tensor_file_whose_structure_holds_a_string_is_damaged():
    header = json.dumps({"structure": {"tuple": ["abc"]}, "compressed": False}).encode()
    with pytest.raises(nbt.ArgumentError, match=r"deserialize: the data is damaged or truncated"):
        nbt.deserialize(b"NUMBAT-TENSORS-1\n" + struct.pack("<Q", len(header)) + header)


def test_empty_shapes_whose_dimensions_overflow_64_bits_are_numbat_errors_and_the_process_lives():
    # Issue 49: the guard returned early for 0 elements, and XLA aborted the process
    # ("overflow in static extent product") on each of these. A process of its own: on main it died.
    code = """
    import numbat as nbt
    calls = {
        "iota": lambda: nbt.iota((2**33, 2**33, 0), type="f32"),
        "broadcast": lambda: nbt.broadcast(0.0, (2**62, 0, 4)),
        "reshape": lambda: nbt.reshape(nbt.iota((0,), type="f32"), (2**33, 2**33, 0)),
        "reshape in a defn": lambda: nbt.defn(lambda t: nbt.reshape(t, (2**33, 2**33, 0)))(nbt.iota((0,))),
        "iota on NumPy": lambda: nbt.iota((0, 2**62), type="f32", backend=nbt.NumPyBackend()),
        "template": lambda: nbt.compile(lambda t: t, [nbt.template((2**33, 2**33, 0), "f32")]),
        "vectorized": lambda: nbt.iota((2**60, 0), vectorized_axes={"v": 4}),
    }
    for name, call in calls.items():
        try:
            call()
            print(name, "no error")
        except nbt.AllocationError as error:
            print(name, "|", str(error).split(" (at most")[0])
    print("alive", nbt.to_number(nbt.sum(nbt.reshape(nbt.iota((0,)), (0, 2**30)))))
    """
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr[-2000:]
    expected = {
        "iota": ("iota", "f32[8589934592][8589934592][0]", 295147905179352825856),
        "broadcast": ("broadcast", "f32[4611686018427387904][0][4]", 73786976294838206464),
        "reshape": ("reshape", "f32[8589934592][8589934592][0]", 295147905179352825856),
        "reshape in a defn": ("reshape", "s32[8589934592][8589934592][0]", 295147905179352825856),
        "iota on NumPy": ("iota", "f32[0][4611686018427387904]", 18446744073709551616),
        "template": ("template", "f32[8589934592][8589934592][0]", 295147905179352825856),
        "vectorized": ("iota", "s32[4][1152921504606846976][0]", 18446744073709551616),
    }
    assert result.stdout.splitlines() == [
        f"{name} | {op}: the nonzero dimensions of {shape} take {size} bytes multiplied out, more than 64 bits can count"
        for name, (op, shape, size) in expected.items()
    ] + ["alive 0"]
