"""numbat.xla: configuration before the client starts (in fresh processes), memory,
the IR and fusion report, streaming, sharding on several host devices, the disk cache."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from _shell import child_env

import numbat as nbt

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _python(code: str, timeout: int = 180) -> str:
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        cwd=ROOT,
        env=child_env(host=True),  # every child of this file is about the host client
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_configure_reaches_xla_before_the_client_starts():
    out = _python(
        """
        import os, numbat as nbt
        nbt.xla.configure(clients={"cuda": {"platform": "cuda", "preallocate": False, "memory_fraction": 0.5},
                                   "host": {"platform": "host", "device_count": 4}})
        print(os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"], "XLA_PYTHON_CLIENT_MEM_FRACTION" in os.environ,
              os.environ["XLA_CLIENT_MEM_FRACTION"], nbt.xla.started())
        print(nbt.xla.clients()["host"]["devices"], nbt.xla.settings()["XLA_PYTHON_CLIENT_PREALLOCATE"][1])
        try:
            nbt.xla.configure(clients={"host": {"platform": "host", "device_count": 2}})
        except nbt.ClientError as error:
            print(error)
        """
    )
    lines = out.splitlines()
    assert lines[0] == "false False 0.5 False"  # jaxlib refuses both spellings at once
    assert lines[1] == "4 numbat"
    assert "already started" in lines[2] and "Restart the kernel" in lines[2]


@pytest.mark.parametrize(
    "clients, message",
    [
        ({"gpu": {"platform": "opencl"}}, "unknown platform 'opencl'"),
        ({"cuda": {"memory_fraction": 1.5}}, r"memory_fraction must be in \(0, 1\]"),
        ({"host": {"device_count": 0}}, "device_count must be an int from 1 to 1024, got 0"),
        ({"host": {"device_count": 10000}}, "device_count must be an int from 1 to 1024, got 10000"),  # issue 39
        ({"cuda": {"default_device_id": 10**9}}, "default_device_id must be an int from 0 to 1023"),
        ({"host": {"threads": 2}}, "unknown option"),
    ],
)
def test_configure_rejects_bad_options(clients, message):
    with pytest.raises((nbt.ArgumentError, nbt.ClientError), match=message):
        nbt.xla.configure(clients=clients)


@pytest.mark.client("host")
def test_memory_reports_live_bytes_on_the_host():
    before = nbt.xla.memory("host")[0]["in_use"]
    keep = nbt.iota((1000, 1000), type="f32")
    after = nbt.xla.memory("host")[0]["in_use"]
    assert after - before >= 4_000_000 and keep.shape == (1000, 1000)
    with pytest.raises(nbt.ArgumentError, match="unknown XLA client 'gpu'"):
        nbt.xla.memory("gpu")


def test_memory_counts_each_live_buffer_once_however_often_it_is_asked():
    # Reading a shard's data makes a second Array on the same buffer, which stays alive: memory() counted
    # it on the next call (4,000,000 bytes, then 8,000,000, for one f32[1000, 1000]).
    out = _python(
        """
        import gc
        import numbat as nbt
        nbt.xla.configure(clients={"host": {"platform": "host", "device_count": 2}})
        big = nbt.iota((1000, 1000), type="f32")
        mesh = nbt.Mesh("mesh", (2,), client="host")
        data = nbt.iota((8, 4), type="f32")
        split = nbt.xla.shard_jit(lambda t: t * 2, mesh, input_shardings=[{0: [0]}])([[data[0:4]], [data[4:8]]])
        data = None
        gc.collect()
        for _ in range(3):
            print([row["in_use"] for row in nbt.xla.memory("host")])
        """
    )
    # big on device 0; split's two f32[4, 4] halves, one per device; the pieces fed to shard_jit are gone.
    assert out.splitlines() == ["[4000064, 64]"] * 3


def test_fusion_report_puts_the_seed_example_in_one_kernel():
    x = nbt.iota((64,), type="f32")
    report = nbt.xla.fusion_report(lambda x, y, z: x + y * z, [x, x, x])
    assert len(report.kernels) == 1 and report.kernels[0].numbat_ops == ("multiply", "add")
    assert report.flops == 2 * 64 and "1 kernel(s)" in str(report)
    assert report.fused_ops() == {"multiply": report.kernels[0].name, "add": report.kernels[0].name}
    assert "stablehlo.multiply" in nbt.xla.to_mlir_module(lambda x, y: x * y, [x, x])


def test_stream_running_sum():
    s = nbt.xla.stream(lambda x, acc: (acc, x + acc), [nbt.template((), "s64"), 0])
    outputs = []
    for chunk in [1, 2, 3, 4, 5]:
        s.send(nbt.tensor(chunk, type="s64"))
        outputs.append(nbt.to_number(s.recv()))
    assert outputs == [0, 1, 3, 6, 10] and nbt.to_number(s.done()) == 15
    with pytest.raises(nbt.ArgumentError, match="after stream.done"):
        s.send(nbt.tensor(6, type="s64"))
    t = nbt.xla.stream(lambda x, acc: (acc, x + acc), [nbt.template((), "s64"), 0])
    with pytest.raises(nbt.ArgumentError, match="expected a chunk of s64, got f32"):
        t.send(nbt.tensor(1.0))
    t.send(nbt.tensor(1, type="s64"))
    with pytest.raises(nbt.ArgumentError, match="call stream.recv"):
        t.send(nbt.tensor(2, type="s64"))


@pytest.mark.client("host")
def test_shard_jit_reports_why_it_compiles_as_a_defn_does(monkeypatch):
    from numbat import telemetry
    from numbat.xla import _sharding

    monkeypatch.setattr(_sharding, "_CACHE_LIMIT", 1)
    mesh = nbt.Mesh("one", (1,), client="host")
    double = nbt.xla.shard_jit(lambda t: t * 2, mesh, input_shardings=[{0: [0]}])
    triple = nbt.xla.shard_jit(lambda t: t * 3, mesh, input_shardings=[{0: [0]}])
    start = telemetry.last_sequence()
    double([[nbt.tensor([1, 2])]])
    double([[nbt.tensor([1.0, 2.0])]])
    triple([[nbt.tensor([1, 2])]])  # a cache of one program: pushes double's out
    double([[nbt.tensor([1.0, 2.0])]])
    reasons = [record.metadata["reason"] for record in telemetry.log(since=start, event=telemetry.COMPILATION)]
    assert reasons == [
        "first call",
        "input 0 changed from s32[2] to f32[2]",
        "first call",
        "dropped from shard_jit's cache of 1 programs",
    ]


def test_shard_jit_runs_the_seed_example_on_two_host_devices():
    out = _python(
        """
        import numbat as nbt
        nbt.xla.configure(clients={"host": {"platform": "host", "device_count": 4}})
        f = nbt.xla.shard_jit(lambda t: t * 2, nbt.Mesh("mesh", (2,)), input_shardings=[{0: [0]}])
        result = f([[nbt.tensor([1, 2, 3])], [nbt.tensor([4, 5, 6])]])
        print(result.type, result.shape, result.to_numpy().tolist(), len(result.data.sharding.device_set))
        g = nbt.xla.shard_jit(lambda t: t * 10, nbt.Mesh("grid", (2, 2)), input_shardings=[{0: [0], 1: [1]}])
        pieces = [[nbt.tensor([[1, 2]])], [nbt.tensor([[3, 4]])], [nbt.tensor([[5, 6]])], [nbt.tensor([[7, 8]])]]
        print(g(pieces).to_numpy().tolist())
        try:
            f([[nbt.tensor([1, 2, 3])]])
        except nbt.ArgumentError as error:
            print(error)
        import re
        from numbat.notebook import _html
        print(re.search(r"XLA [^<]*", _html.tensor_html(result)).group(0))  # the HTML view's device
        """
    )
    lines = out.splitlines()
    assert lines[0] == "s32 (6,) [2, 4, 6, 8, 10, 12] 2"
    assert lines[1] == "[[10, 20, 30, 40], [50, 60, 70, 80]]"
    assert "one list of arguments per device (2)" in lines[2]
    assert lines[-1] == "XLA host, sharded over 2 devices (cpu)"  # not the first device's name alone


def test_disk_cache_saves_the_compile_in_a_second_process(tmp_path):
    code = f"""
        import numbat as nbt
        events = []
        nbt.telemetry.attach("t", ("numbat", "compilation"), lambda e, m, meta: events.append(meta))
        out = nbt.defn(lambda x: nbt.exp(x) * 2, cache={str(tmp_path)!r})(nbt.tensor([0.0, 1.0]))
        print(out.to_numpy().tolist(), events[0]["cached_on_disk"], events[0]["disk_saved_time"] > 0)
        """
    assert _python(code).split()[-2:] == ["False", "False"]
    second = _python(code).split()
    assert second[-2:] == ["True", "True"] and second[0] == "[2.0,"


def test_corrupt_disk_cache_entries_are_recompiled_with_a_warning(tmp_path):
    fun = lambda x: x + 1
    nbt.defn(fun, cache=str(tmp_path))(nbt.tensor([1.0]))
    (entry,) = tmp_path.glob("*.xla")
    for damage in (lambda b: b[: len(b) // 2], lambda b: b"not numbat" + b, lambda b: b[:-10] + b"0123456789"):
        entry.write_bytes(damage(entry.read_bytes()) if entry.exists() else b"")
        with pytest.warns(nbt._runtime._disk_cache.CacheWarning, match="ignoring disk cache entry"):
            result = nbt.defn(fun, cache=str(tmp_path))(nbt.tensor([1.0]))
        assert result.to_numpy().tolist() == [2.0]
    np.testing.assert_array_equal(nbt.defn(fun, cache=str(tmp_path))(nbt.tensor([2.0])).to_numpy(), [3.0])


def test_disk_cache_loads_for_a_device_other_than_the_first(tmp_path):
    code = f"""
        import numbat as nbt
        nbt.xla.configure(clients={{"host": {{"platform": "host", "device_count": 3}}}})
        events = []
        nbt.telemetry.attach("t", ("numbat", "compilation"), lambda e, m, meta: events.append(meta["cached_on_disk"]))
        x = nbt.tensor([1.0, 2.0], backend=nbt.XLABackend(client="host", device_id=2))
        out = nbt.defn(lambda t: t * 3, client="host", device_id=2, cache={str(tmp_path)!r})(x)
        print(out.to_numpy().tolist(), out.data.devices(), events)
        """
    assert _python(code).split("{")[0].strip() == "[3.0, 6.0]"
    second = _python(code)
    assert "[3.0, 6.0]" in second and "[True]" in second and "id=2" in second


def test_the_fusion_report_names_the_kernel_of_each_graph_node():
    def program(x, y, z):
        return nbt.sum(nbt.exp(x + y * z)) * x

    args = [nbt.iota((8,), type="f32")] * 3
    expr = nbt.debug_expr(program)(*args)
    by_op = {node.id: node.op for node in expr.nodes}
    kernels = nbt.xla.fusion_report(program, args).kernel_of_nodes()
    # Every op node is computed by some kernel; the reduction's inputs fuse with it, and the
    # final multiply (after the reduction) is a kernel of its own.
    assert {by_op[node] for node in kernels} == {"multiply", "add", "exp", "sum"}
    ops = [node for node in expr.nodes if node.op not in ("parameter", "constant")]
    assert {node.id for node in ops} == set(kernels)
    last = ops[-1]
    assert list(kernels.values()).count(kernels[last.id]) == 1
    assert len({kernels[node.id] for node in ops[:-1]}) == 1


@pytest.mark.parametrize("type_name", ["f16", "f32", "f64"])
def test_division_by_a_broadcast_divisor_is_numbats_product_not_xlas_rewrite(type_name):
    # XLA on the CPU rewrites a / broadcast(b) as a * broadcast(1 / b); XLA on an NVIDIA H200 did
    # not, so the NumPy backend (which divides as the CPU's XLA) and the XLA backend disagreed
    # there. numbat writes the product itself: the program XLA receives divides only the divisor.
    t = nbt.iota((2, 3), type=type_name)
    for fun, args in [(lambda a: nbt.divide(a, 7), [t]), (nbt.divide, [t, nbt.tensor([1, 2, 3], type=type_name)])]:
        module = str(nbt.xla.to_mlir_module(fun, args))
        divisions = [line for line in module.splitlines() if "stablehlo.divide" in line]
        assert all("tensor<2x3x" not in line for line in divisions), module
        assert "stablehlo.multiply" in module


@pytest.mark.client("host")
def test_a_test_about_the_host_client_makes_it_the_default():
    # conftest's client marker: on a machine with a GPU, tensors would otherwise go to its client.
    t = nbt.tensor([1.0, 2.0])
    assert t.backend == nbt.XLABackend(client="host") and t.backend != nbt.XLABackend()
    assert t.data.devices() == {nbt.XLABackend(client="host").device} and t.backend.device.platform == "cpu"


def test_a_child_process_starts_without_preallocation_and_a_host_test_pins_the_host(monkeypatch):
    assert "XLA_PYTHON_CLIENT_PREALLOCATE" in os.environ  # tests/conftest.py: the workers' own setting
    monkeypatch.setenv("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
    monkeypatch.setenv("XLA_PYTHON_CLIENT_PREALLOCATE", "true")
    env = child_env(host=True, XLA_FLAGS="--xla_force_host_platform_device_count=2")
    assert (env["XLA_PYTHON_CLIENT_PREALLOCATE"], env["JAX_PLATFORMS"]) == ("false", "cpu")
    assert env["XLA_FLAGS"].endswith("=2") and env["NUMBAT_DATA_DIR"] == os.environ["NUMBAT_DATA_DIR"]
    assert "JAX_PLATFORMS" not in child_env(host=False) and child_env(host=False, strip=False)["XLA_FLAGS"].endswith(
        "=8"
    )
    out = _python("import os, jax; print(os.environ['XLA_PYTHON_CLIENT_PREALLOCATE'], jax.devices()[0].platform)")
    assert out.split() == ["false", "cpu"]
