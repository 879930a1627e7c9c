"""Every numbat.xla option does what EXLA documents, or is refused: default_device_id,
preferred_clients, shard_jit's cache and errors, stream's weak chunks and cache, one
lowering for every view, lazy_transfers, the evaluator's client, the defn fast path for
an equal client, freed arguments, memory figures, the doctor's device count, bench sizes."""

import os
import re
import subprocess
import sys
import textwrap

import jax
import numpy as np
import pytest
from _shell import child_env
from jax._src.named_sharding import DuplicateSpecError
from jax.sharding import NamedSharding, PartitionSpec

import numbat as nbt
from numbat import cli
from numbat._defn import _call, _definition
from numbat._runtime import _client, _disk_cache, _signing
from numbat._tools import _bench
from numbat.xla import _export, _lowering, _sharding

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _python(code: str, env: dict | None = None, host: bool = True) -> str:
    """`code`'s output in a child process; `host`: a test about the host client (child_env)."""
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
        cwd=ROOT,
        env=child_env(host=host, **(env or {})),
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_default_device_id_places_new_tensors_and_defn_results():
    out = _python(
        """
        import numbat as nbt
        nbt.xla.configure(clients={"host": {"platform": "host", "device_count": 4, "default_device_id": 2}})
        t = nbt.tensor([1.0, 2.0])
        out = nbt.defn(lambda x: x * 2)(t)
        pinned = nbt.defn(lambda x: x + 1, device_id=1)(t)
        print(t.data.devices(), out.data.devices(), pinned.data.devices(), nbt.XLABackend().device.id)
        """
    )
    assert out.split() == ["{CpuDevice(id=2)}"] * 2 + ["{CpuDevice(id=1)}", "2"]


def test_default_device_id_out_of_range_is_refused_at_configure():
    out = _python(
        """
        import numbat as nbt
        for clients in ({"host": {"platform": "host", "default_device_id": 7}},
                        {"host": {"platform": "host", "device_count": 2, "default_device_id": 2}},
                        {"host": {"default_device_id": -1}}):
            try:
                nbt.xla.configure(clients=clients)
            except nbt.ArgumentError as error:
                print(error)
        print(nbt.xla.started())
        """
    )
    lines = out.splitlines()
    assert "default_device_id 7 of client 'host' is out of range: it has 1 device(s)" in lines[0]
    assert "default_device_id 2 of client 'host' is out of range: it has 2 device(s)" in lines[1]
    assert "default_device_id must be an int from 0 to 1023, got -1" in lines[2]
    assert lines[3] == "False"  # checked without starting the client


def test_preferred_clients_takes_the_first_available_and_requires_none():
    out = _python(
        """
        import os, numbat as nbt
        nbt.xla.configure(preferred_clients=["cuda", "rocm", "tpu", "host"])
        t = nbt.tensor([1, 2]) + 1
        default = [name for name, client in nbt.xla.clients().items() if client["default"]]
        print(os.environ.get("JAX_PLATFORMS"), default, next(iter(t.data.devices())).id)
        """,
        host=False,  # about the machine's first available client: a GPU's where there is one
    )
    first = next(name for name in ("cuda", "rocm", "tpu", "host") if name in _client.present())
    assert out.split() == ["None", f"['{first}']", "0"]


def test_a_client_this_machine_lacks_is_refused_before_it_is_stored_and_changes_nothing():
    """In a process whose XLA has no CUDA client (the child is pinned to the host, so on every
    machine), `%numbat client cuda` and configure name what it has; host still works after."""
    out = _python(
        """
        import numbat as nbt
        from numbat.notebook import _settings
        print(_settings.client(["cuda"]))
        for options in ({"default_client": "cuda"}, {"preferred_clients": ["cuda", "rocm"]}):
            try:
                nbt.xla.configure(**options)
            except nbt.ArgumentError as error:
                print(error)
        print(nbt.xla.started(), nbt.xla.settings()["default client"])
        print(_settings.client(["host"])[0].title, nbt.to_number(nbt.sum(nbt.iota((4,)))))
        """
    )
    lines = out.splitlines()
    assert (
        lines[0] == "numbat: xla.configure: this machine has no cuda client (its JAX plugin or device is missing); "
        "it has host. Nothing was changed"
    ), lines
    assert lines[1].startswith("xla.configure: this machine has no cuda client") and lines[1].endswith(
        "has host. Nothing was changed"
    )
    assert (
        lines[2]
        == "xla.configure: none of the preferred clients ['cuda', 'rocm'] is on this machine; it has host. Nothing was changed"
    )
    assert lines[3] == "False ('(first available)', 'default')"  # nothing stored, nothing started
    assert lines[4] == "XLA client 6"


def test_shard_jit_compiles_once_reports_it_and_names_a_mesh_axis_used_twice():
    out = _python(
        """
        import numbat as nbt
        nbt.xla.configure(clients={"host": {"platform": "host", "device_count": 4}})
        events = []
        nbt.telemetry.attach("t", [("numbat", "compilation"), ("numbat", "cache_hit")],
                             lambda event, m, meta: events.append((event[-1], meta["function"])))
        def double(t):
            return t * 2
        f = nbt.xla.shard_jit(double, nbt.Mesh("mesh", (2,)), input_shardings=[{0: [0]}])
        for _ in range(4):
            result = f([[nbt.tensor([1, 2, 3])], [nbt.tensor([4, 5, 6])]])
        print(result.to_numpy().tolist())
        print([kind for kind, name in events if name == "double"])
        print(nbt.telemetry.counts()["double"])
        try:
            nbt.xla.shard_jit(double, nbt.Mesh("grid", (2, 2)), input_shardings=[{0: [0, 1], 1: [1]}])
        except nbt.ArgumentError as error:
            print(error)
        """
    )
    lines = out.splitlines()
    assert lines[0] == "[2, 4, 6, 8, 10, 12]"
    assert lines[1] == "['compilation', 'cache_hit', 'cache_hit', 'cache_hit']"
    assert lines[2] == "{'compilations': 1, 'cache_hits': 3}"
    assert "dimensions 0 and 1 over the same mesh axis 1 of mesh 'grid'" in lines[3]


def test_jax_sharding_errors_read_in_mesh_terms():
    mesh = nbt.Mesh("grid", (1,))
    with pytest.raises(DuplicateSpecError) as caught:
        NamedSharding(mesh.jax_mesh(), PartitionSpec("grid_0", "grid_0"))
    message = _sharding._in_mesh_terms(caught.value, mesh)
    assert message.startswith("DuplicateSpecError: ")
    assert "mesh axis 0 of mesh 'grid'" in message and "grid_0" not in message


def test_stream_takes_weak_numbers_and_shares_its_compiled_step():
    def step(x, acc):
        return acc, x + acc

    events = []
    nbt.telemetry.attach("stream-test", ("numbat", "compilation"), lambda e, m, meta: events.append(meta["function"]))
    try:
        template = [nbt.template((), "s64"), 0]
        assert not nbt.xla.is_stream_cached(step, template)
        for _ in range(3):
            s = nbt.xla.stream(step, template)
            assert nbt.xla.is_stream_cached(step, template) == (len(events) == 1)
            for chunk in (1, np.int8(2), np.int64(3)):  # Python and NumPy numbers are weak: s64 chunks
                s.send(chunk)
                s.recv()
            assert nbt.to_number(s.done()) == 6 and nbt.xla.is_stream_cached(step, template)
    finally:
        nbt.telemetry.detach("stream-test")
    assert len(events) == 1  # three streams, one compile
    s = nbt.xla.stream(step, template)
    with pytest.raises(nbt.ArgumentError, match="expected a chunk of s64, got the float 1.5"):
        s.send(1.5)
    f = nbt.xla.stream(step, [nbt.template((), "f32"), 0])
    f.send(2)
    f.recv()
    assert str(f.done().type) == "f32"


def _strip_locations(hlo: str) -> str:
    """Optimized HLO without source locations (they name the Python file that lowered it)."""
    return re.sub(r", metadata=\{[^}]*\}", "", hlo).split("\nFileNames")[0]


def test_one_lowering_gives_every_view_the_precision_the_call_runs(tmp_path):
    args = [nbt.iota((4, 4), type="f32")] * 2

    def matmul(a, b):
        return nbt.dot(a, b)

    mlir = nbt.xla.to_mlir_module(matmul, args, precision="highest")
    hlo = nbt.xla.hlo(matmul, args, precision="highest")
    report = nbt.xla.fusion_report(matmul, args, precision="highest")
    blob = nbt.xla.serialize(matmul, args, precision="highest", portable=True)
    call = nbt.defn(matmul, precision="highest")
    call(*args)
    (entry,) = call._cache.values()
    ran = entry.call.as_text()
    assert "precision = [HIGHEST, HIGHEST]" in mlir
    assert "precision = [HIGHEST, HIGHEST]" not in nbt.xla.to_mlir_module(matmul, args)
    for text in (hlo, report.hlo, ran):
        assert "operand_precision={highest,highest}" in text
    assert _strip_locations(hlo) == _strip_locations(ran)
    _, payload = _export._header(memoryview(blob)[len(_export._PORTABLE) + _signing.MAC_BYTES :])
    exported = jax.export.deserialize(bytearray(payload))
    assert "precision = [HIGHEST, HIGHEST]" in exported.mlir_module()
    # The disk cache names its entry by the key of the same lowering the views use.
    nbt.defn(matmul, precision="highest", cache=str(tmp_path))(*args)
    _, lowered = _lowering.lower(matmul, args, precision="highest", cache=str(tmp_path))
    _, default = _lowering.lower(matmul, args, cache=str(tmp_path))
    assert [p.stem for p in tmp_path.glob("*.xla")] == [_disk_cache.key(lowered)]
    assert _disk_cache.key(default) != _disk_cache.key(lowered)


def test_options_given_with_a_defn_merge_over_its_own_in_every_view():
    # Each view dropped the options when handed a defn (nbt.defn(d, **options) merges them).
    args = [nbt.iota((4, 4), type="f32")] * 2
    matmul = nbt.defn(lambda a, b: nbt.dot(a, b))
    mlir = nbt.xla.to_mlir_module(matmul, args, precision="highest")
    hlo = nbt.xla.hlo(matmul, args, precision="highest")
    report = nbt.xla.fusion_report(matmul, args, precision="highest")
    blob = nbt.xla.serialize(matmul, args, precision="highest", portable=True)
    assert "precision = [HIGHEST, HIGHEST]" in mlir
    assert "operand_precision={highest,highest}" in hlo and "operand_precision={highest,highest}" in report.hlo
    _, payload = _export._header(memoryview(blob)[len(_export._PORTABLE) + _signing.MAC_BYTES :])
    exported = jax.export.deserialize(bytearray(payload))
    assert "precision = [HIGHEST, HIGHEST]" in exported.mlir_module()
    # The defn's own options stay where none are given, and are overridden, not dropped, where some are.
    highest = nbt.defn(matmul, precision="highest")
    assert "precision = [HIGHEST, HIGHEST]" in nbt.xla.to_mlir_module(highest, args)
    assert "precision = [HIGHEST, HIGHEST]" not in nbt.xla.to_mlir_module(highest, args, precision="default")
    assert "precision = [HIGHEST, HIGHEST]" not in nbt.xla.to_mlir_module(matmul, args)
    with pytest.raises(nbt.ArgumentError, match="precision"):
        nbt.xla.hlo(matmul, args, precision="fastest")


def test_lazy_transfers_always_is_refused_and_the_evaluator_honours_client_and_device():
    with pytest.raises(nbt.ArgumentError, match='lazy_transfers="always" is not supported'):
        nbt.defn(lambda a: a, lazy_transfers="always")
    host = nbt.tensor([1, 2], backend=nbt.NumPyBackend())
    with pytest.raises(nbt.ArgumentError, match="device_id 5 is out of range"):
        nbt.defn(lambda t: t * 2, compiler="evaluator", device_id=5)(host)
    if "cuda" not in nbt.xla.clients():
        with pytest.raises(nbt.ArgumentError, match="XLA client 'cuda' is not available"):
            nbt.defn(lambda t: t * 2, compiler="evaluator", client="cuda")
    out = nbt.defn(lambda t: t * 2, compiler="evaluator", client="host")(host)
    assert isinstance(out.backend, nbt.XLABackend) and out.to_numpy().tolist() == [2, 4]


def test_a_defn_on_an_equal_client_takes_the_fast_path_without_transfers(monkeypatch):
    transfers = []
    original = _definition._default.transfer
    monkeypatch.setattr(_definition._default, "transfer", lambda *a: transfers.append(a) or original(*a))
    add_one = nbt.defn(lambda x: x + 1, client="host")
    x = nbt.tensor([1.0, 2.0])  # on nbt.XLABackend(): another object naming the same device
    assert x.backend is not add_one.backend
    general = []
    general_path = _call.general  # route 3 (`_call`'s docstring): the one that flattens and compiles
    monkeypatch.setattr(_call, "general", lambda *a: general.append(a) or general_path(*a))
    for _ in range(4):
        out = add_one(x)
    assert out.to_numpy().tolist() == [2.0, 3.0] and out.backend is add_one.backend
    assert transfers == [] and len(general) == 1  # the first call compiled; three took the fast path
    assert add_one.cache_info() == {"compiled": 1, "hits": 3}


@pytest.mark.parametrize("type_", ["f32", "f64"])
def test_a_freed_argument_is_a_numbat_error(type_):
    double = nbt.defn(lambda x: x * 2)
    x = nbt.tensor([1, 2], type=type_)
    double(x)
    double(x)  # the fast paths are warm
    nbt.backend_deallocate(x)
    for fun in (double, nbt.defn(lambda x: x + 1), nbt.defn(lambda x: x - 1, client="host")):
        with pytest.raises(nbt.ArgumentError, match="was freed with nbt.backend_deallocate"):
            fun(x)


@pytest.mark.client("host")
def test_memory_on_the_host_reports_the_peak_as_not_tracked():
    rows = nbt.xla.memory("host")
    assert all(row["peak"] is None and "no allocator statistics" in row["source"] for row in rows)
    assert cli._mib(None) == "not tracked"


def test_doctor_reads_the_device_count_xla_has():
    result = subprocess.run(
        [sys.executable, "-m", "numbat", "doctor"],
        capture_output=True,
        check=False,
        text=True,
        timeout=120,
        env=child_env(host=True, strip=False, XLA_FLAGS="--xla_force_host_platform_device_count=2"),
    )
    assert result.returncode == 0, result.stderr
    row = next(line for line in result.stdout.splitlines() if line.startswith("host device_count"))
    assert row.split()[2:] == ["2", "(XLA_FLAGS)"]
    assert "peak not tracked" in result.stdout


def test_cache_info_counts_the_compiles_of_vectorized_calls():
    double = nbt.defn(lambda x: x * 2)
    rows = nbt.vectorize(nbt.tensor([[1, 2], [3, 4]]), "rows")
    double(rows)
    double(rows)
    assert double.cache_info() == {"compiled": 1, "hits": 1}


def test_cache_info_counts_every_compile_when_nothing_is_cached():
    # cache=False compiles on every call: cache_info() said {'compiled': 0, 'hits': 0} after three.
    fresh = nbt.defn(lambda x: x * 2, cache=False)
    for _ in range(3):
        fresh(nbt.tensor([1, 2]))
    assert fresh.cache_info() == {"compiled": 3, "hits": 0}
    assert not nbt.is_cached(fresh, [nbt.tensor([1, 2])])


def test_is_cached_finds_an_authentic_entry_in_the_disk_cache(tmp_path):
    # A defn with a disk cache loads an entry another defn (another process, say) stored: is_cached said False.
    def scale(t):
        return t * 3

    x = nbt.tensor([1.0, 2.0])
    assert not nbt.xla.is_cached(nbt.defn(scale, cache=str(tmp_path)), [x])
    nbt.defn(scale, cache=str(tmp_path))(x)
    reader = nbt.defn(scale, cache=str(tmp_path))
    assert nbt.xla.is_cached(reader, [x]) and nbt.is_cached(reader, [nbt.tensor([5.0, 6.0])])
    assert not nbt.is_cached(reader, [nbt.tensor([1.0, 2.0, 3.0])])
    start = nbt.telemetry.last_sequence()
    reader(x)
    (record,) = nbt.telemetry.log(since=start, event=nbt.telemetry.COMPILATION)
    assert record.metadata["cached_on_disk"]  # what is_cached promised
    (entry,) = tmp_path.glob("*.xla")
    entry.write_bytes(entry.read_bytes()[:-1] + b"!")  # no longer authentic: a call would compile
    assert not nbt.is_cached(nbt.defn(scale, cache=str(tmp_path)), [x])


def test_bench_refuses_a_size_that_cannot_fit_before_allocating(capsys):
    assert cli.main(["bench", "notebook", "--size", "1000000"]) == 2
    assert "bench notebook --size 1000000 needs about 10.9 TiB" in capsys.readouterr().err
    for suite in _bench.SUITES:
        if suite == "interrupt":  # its loop holds two scalars whatever the iteration count: any size fits
            _bench.check_size(suite, 10**15, available=2**30)
            continue
        with pytest.raises(nbt.ArgumentError, match=f"bench {suite} --size"):
            _bench.check_size(suite, 10**15, available=2**30)
        _bench.check_size(suite, _bench.DEFAULT_SIZES[suite], available=2**32)
