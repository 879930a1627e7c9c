"""Costs counted as they are paid (docs/design.md, decision 22): stack and concatenate take
time and memory linear in their inputs, a tensor file's per-tensor overhead counts in its
summed size, and an archive's members are summed before any is read."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import numbat as nbt


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
    import resource, time, numbat as nbt
    def peak():
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
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
    from numbat.backends import _allocation

    monkeypatch.setattr(_allocation, "capacity_of", lambda backend: (4 << 20, "the host"))
    pieces = [nbt.iota((1 << 16,), type="u8")] * 80  # 64 KiB each: 5 MiB together
    with pytest.raises(nbt.AllocationError, match=r"concatenate needs 5 MiB \(5242880 bytes\) for u8\[5242880\]"):
        nbt.concatenate(pieces)
    with pytest.raises(nbt.AllocationError, match=r"stack needs 5 MiB \(5242880 bytes\) for u8\[80\]\[65536\]"):
        nbt.stack(pieces)
