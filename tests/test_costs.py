"""Costs counted as they are paid (docs/design.md, decision 22): stack and concatenate take
time and memory linear in their inputs, a tensor file's per-tensor overhead counts in its
summed size, and an archive's members are summed before any is read."""

import io
import json
import struct
import subprocess
import sys
import textwrap
import zipfile

import numpy as np
import pytest

import numbat as nbt
from numbat.backends import _allocation


def _run(code: str, timeout: int = 300) -> str:
    """`code` in a process of its own whose address space is limited to 8 GiB, so that a cost
    that grows too fast fails there at once instead of swapping the machine."""
    prelude = "import resource\nresource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))\n"
    result = subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def test_stacking_many_scalars_takes_memory_linear_in_their_count():
    # Issue 49: stack of 20,000 scalars took 53 s and 4.07 GB (a program of 20,000 parameters,
    # whose compile grows faster than n); 50,000 ended in std::bad_alloc. Now the inputs are
    # joined 16 at a time, eagerly: 20,000 in about 2 s and 0.1 GB over the inputs.
    code = """
    import time, numbat as nbt
    def peak():  # this process's own high-water mark (ru_maxrss keeps the parent's across exec)
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmHWM")) * 1024
    made = [nbt.tensor(float(i)) for i in range(20000)]  # the issue's, made once (260 us each)
    for n in (20000, 50000):
        scalars = (made * 3)[:n]
        before, start = peak(), time.perf_counter()
        stacked = nbt.stack(scalars)
        assert stacked.shape == (n,) and nbt.to_number(stacked[n - 1]) == (n - 1) % 20000
        print(n, peak(), peak() - before, time.perf_counter() - start)
    """
    (n1, peak1, growth1, _), (n2, _, growth2, _) = [
        [float(x) for x in line.split()] for line in _run(code).splitlines()
    ]
    assert peak1 < 1.5e9  # the bound, for the whole process
    assert growth1 < 10_000 * n1 and growth2 < 10_000 * n2  # under 10 KB an input (measured: 4 to 5)


def test_concatenating_a_vector_100000_times_completes():
    code = """
    import numbat as nbt
    v = nbt.tensor([1.0, 2.0])
    joined = nbt.concatenate([v] * 100000)
    print(joined.shape, nbt.to_number(nbt.sum(joined)))
    """
    assert _run(code).split() == ["(200000,)", "300000.0"]


@pytest.mark.parametrize("backend", [nbt.NumPyBackend(), nbt.XLABackend()], ids=["numpy", "xla"])
@pytest.mark.parametrize("count", [3, 17, 64, 65, 300])
def test_many_inputs_join_as_numpy_joins_them(backend, count):
    parts = [np.arange(i, i + 2 * (i % 3 + 1), dtype=np.float32).reshape(-1, 2) for i in range(count)]
    tensors = [nbt.tensor(p, backend=backend) for p in parts]
    np.testing.assert_array_equal(nbt.concatenate(tensors).to_numpy(), np.concatenate(parts))
    scalars = [nbt.tensor(i % 100, type="s8" if i % 2 else "f32", backend=backend) for i in range(count)]
    stacked = nbt.stack(scalars, name="n")
    assert stacked.names == ("n",) and str(stacked.type) == "f32"
    np.testing.assert_array_equal(stacked.to_numpy(), np.arange(count, dtype=np.float32) % 100)
    in_defn = nbt.defn(lambda ts: nbt.concatenate(ts, axis=0))(tuple(tensors))
    np.testing.assert_array_equal(in_defn.to_numpy(), np.concatenate(parts))


def test_the_result_of_a_join_is_checked_before_it_is_made(monkeypatch):
    monkeypatch.setattr(_allocation, "capacity_of", lambda backend: (4 << 20, "the host"))
    pieces = [nbt.iota((1 << 16,), type="u8")] * 80  # 64 KiB each: 5 MiB together
    with pytest.raises(nbt.AllocationError, match=r"concatenate needs 5 MiB \(5242880 bytes\) for u8\[5242880\]"):
        nbt.concatenate(pieces)
    with pytest.raises(nbt.AllocationError, match=r"stack needs 5 MiB \(5242880 bytes\) for u8\[80\]\[65536\]"):
        nbt.stack(pieces)


def _tensor_file(count: int) -> bytes:
    """A tensor file listing `count` f32 scalars (about 30 bytes of header each)."""
    structure = {"tuple": [{"tensor": ["f32", [], [], 4]}] * count}
    header = json.dumps({"structure": structure, "compressed": False}).encode()
    return b"NUMBAT-TENSORS-1\n" + struct.pack("<Q", len(header)) + header + bytes(4 * count)


def test_a_tensor_files_per_tensor_cost_counts_in_its_summed_size(monkeypatch):
    # Issue 49: 200,000 scalars in a 6.4 MB file loaded in 11 s and added 916 MB; only their
    # 800 KB of elements were summed. Each tensor is now charged PER_TENSOR beside its elements.
    monkeypatch.setattr(_allocation, "capacity_of", lambda backend: (1 << 30, "the host"))
    blob = _tensor_file(200_000)
    assert len(blob) < 8e6
    with pytest.raises(
        nbt.AllocationError,
        match=r"deserialize needs 1.53 GiB \(1639200000 bytes\) for the tensors of this file together \(200000 "
        r"tensors, counting 8 KiB for each tensor beside its elements\), more than the host has \(1 GiB",
    ):
        nbt.deserialize(blob, backend=nbt.NumPyBackend())
    assert len(nbt.deserialize(_tensor_file(1000), backend=nbt.NumPyBackend())) == 1000


def test_the_per_tensor_charge_covers_what_a_tensor_costs():
    code = f"""
    import json, struct, numbat as nbt
    from numbat.backends import _allocation
    def resident():
        return int(open("/proc/self/statm").read().split()[1]) * 4096
    structure = {{"tuple": [{{"tensor": ["f32", [], [], 4]}}] * 5000}}
    header = json.dumps({{"structure": structure, "compressed": False}}).encode()
    blob = b"NUMBAT-TENSORS-1\\n" + struct.pack("<Q", len(header)) + header + bytes(4 * 5000)
    nbt.deserialize(blob[:0] + {_tensor_file(10)!r})  # the client started, its code loaded
    before = resident()
    tensors = nbt.deserialize(blob)
    print((resident() - before) / 5000, _allocation.PER_TENSOR)
    """
    cost, charge = (float(x) for x in _run(code).split())
    assert cost < charge, f"a tensor of a file costs {cost} bytes, more than the {charge} charged"


def _npy(shape, data: bytes = b"", descr: str = "<f4") -> bytes:
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, {"descr": descr, "fortran_order": False, "shape": shape})
    return buffer.getvalue() + data


def test_an_archives_members_are_summed_before_any_is_read(monkeypatch, tmp_path):
    # Issue 49: two members of 12 GiB in a 112 MB archive went straight to NumPy's MemoryError;
    # each was checked alone. Here 40 MiB each against 64 MiB: together they cannot fit.
    monkeypatch.setattr(_allocation, "capacity_of", lambda backend: (64 << 20, "the host"))
    read = []
    monkeypatch.setattr(np.lib.format, "read_array", lambda *a, **k: read.append(a) or np.zeros(1))
    path = tmp_path / "two.npz"
    np.savez_compressed(path, a=np.zeros(10 << 20, np.float32), b=np.zeros(10 << 20, np.float32))
    assert path.stat().st_size < 1 << 20
    with pytest.raises(
        nbt.AllocationError,
        match=r"load_numpy_archive needs 80 MiB \(83902464 bytes\) for the members of this archive together "
        r"\(f32\[10485760\] and f32\[10485760\], counting 8 KiB",
    ):
        nbt.load_numpy_archive(path)
    assert read == []  # nothing was read


def test_the_member_vetted_is_the_member_loaded():
    # Issue 49: members "a.npy" (2 floats) and "a" (a header claiming 10**10 floats, no data):
    # numbat vetted "a.npy", and NumPy loaded "a": MemoryError: Unable to allocate 37.3 GiB.
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.npy", _npy((2,), bytes(8)))
        archive.writestr("a", _npy((10**10,)))
    assert len(buffer.getvalue()) < 500
    with pytest.raises(nbt.ArgumentError, match=r"members 'a.npy' and 'a' are both read as 'a'"):
        nbt.load_numpy_archive(buffer.getvalue())
    alone = io.BytesIO()
    with zipfile.ZipFile(alone, "w") as archive:
        archive.writestr("a", _npy((10**10,)))  # the lying member alone, without .npy: it is the one vetted
    with pytest.raises(nbt.ArgumentError, match=r"load_numpy_archive \(a\): .* claims 40000000000 bytes"):
        nbt.load_numpy_archive(alone.getvalue())
    plain = io.BytesIO()
    with zipfile.ZipFile(plain, "w") as archive:
        archive.writestr("w", _npy((2,), np.float32([1.5, 2.5]).tobytes()))
        archive.writestr("notes.txt", b"not an array")
    with pytest.raises(nbt.ArgumentError, match=r"load_numpy_archive \(notes.txt\): cannot read it as NumPy data"):
        nbt.load_numpy_archive(plain.getvalue())
