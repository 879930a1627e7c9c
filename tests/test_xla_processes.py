"""What crosses process boundaries: serialized functions loaded in another process,
and two processes running one sharded computation through nbt.xla.distributed."""

import json
import socket
import struct
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from _shell import child_env

import numbat as nbt


def _run(code: str, *args: str, timeout: int = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=child_env(host=True, strip=False),  # the host client's, without preallocation
    )


def _program(x, y):
    return {"scaled": x * y + 1, "total": nbt.sum(nbt.as_type(x, "f64"))}


@pytest.mark.parametrize("portable", [False, True])
def test_a_serialized_function_runs_in_another_process(tmp_path, portable):
    templates = [nbt.template((3,), "f32", names=["i"]), nbt.template((3,), "f32")]
    path = tmp_path / "program.bin"
    path.write_bytes(nbt.xla.serialize(_program, templates, portable=portable))
    result = _run(
        """
        import logging, sys
        import jax, numbat as nbt
        jax.config.update("jax_log_compiles", True)
        logging.basicConfig(level=logging.WARNING, stream=sys.stdout, format="LOG %(message)s")
        f = nbt.xla.deserialize(open(sys.argv[1], "rb").read())
        out = f(nbt.tensor([1.0, 2.0, 3.0]), nbt.tensor([2.0, 2.0, 2.0]))
        print("scaled", nbt.to_flat_list(out["scaled"]), out["scaled"].names, "total", nbt.to_number(out["total"]), str(out["total"].type))
        """,
        str(path),
    )
    assert result.returncode == 0, result.stderr
    assert "scaled [3.0, 5.0, 7.0] ('i',) total 6.0 f64" in result.stdout
    compiles = [line for line in result.stdout.splitlines() if line.startswith("LOG") and "Compiling" in line]
    if not portable:  # the executable loads as it is: nothing is traced or compiled
        assert compiles == [], compiles


def test_serialized_functions_check_their_arguments_and_bytes():
    blob = nbt.xla.serialize(lambda x: x + 1, [nbt.template((2,), "s32")])
    f = nbt.xla.deserialize(blob)
    assert f.inputs == (nbt.template((2,), "s32"),)
    with pytest.raises(nbt.ArgumentError, match="argument 0 is f32\\[2\\], compiled for s32\\[2\\]"):
        f(nbt.tensor([1.0, 2.0]))
    with pytest.raises(nbt.ArgumentError, match="takes 1 tensor"):
        f(nbt.tensor([1, 2]), nbt.tensor([1, 2]))
    with pytest.raises(nbt.ArgumentError, match="not written by nbt.xla.serialize"):
        nbt.xla.deserialize(b"something else")
    # An executable from another JAX version (signed by this user) is refused with what to do instead.
    magic = b"NUMBAT-FUNCTION-2 executable\n"
    body = blob[len(magic) + 32 :]
    (length,) = struct.unpack_from("<Q", body)
    header = json.loads(body[8 : 8 + length])
    header["jax"] = "0.0.1"
    encoded = json.dumps(header).encode()
    body = struct.pack("<Q", len(encoded)) + encoded + body[8 + length :]
    foreign = magic + nbt._runtime._signing.sign(magic + body) + body
    with pytest.raises(nbt.ArgumentError, match="portable=True"):
        nbt.xla.deserialize(foreign)
    with pytest.raises(nbt.ArgumentError, match="not containers"):
        nbt.xla.serialize(lambda pair: pair[0], [(nbt.tensor(1), nbt.tensor(2))])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_two_processes_run_one_sharded_computation():
    port = _free_port()
    worker = """
        import sys
        import numbat as nbt
        nbt.xla.distributed.initialize(f"127.0.0.1:{sys.argv[1]}", num_processes=2, process_id=int(sys.argv[2]))
        mesh = nbt.Mesh("processes", (2,))
        f = nbt.xla.shard_jit(lambda t: nbt.sum(t * 2), mesh, input_shardings=[{0: [0]}])
        shards = [[nbt.tensor([1, 2, 3])], [nbt.tensor([4, 5, 6])]]  # every process passes every device's shard
        print("process", nbt.xla.distributed.process_index(), "of", nbt.xla.distributed.process_count(),
              "devices", len(mesh.jax_mesh().devices.flat), "result", nbt.to_number(f(shards)))
        nbt.xla.distributed.shutdown()
    """
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent(worker), str(port), str(rank)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=child_env(host=True, strip=False),  # two host processes, one device each
        )
        for rank in (0, 1)
    ]
    outputs = [p.communicate(timeout=180) for p in processes]
    for process, (out, err) in zip(processes, outputs):
        assert process.returncode == 0, err[-2000:]
    expected = 2 * np.sum(np.arange(1, 7))
    assert f"process 0 of 2 devices 2 result {expected}" in outputs[0][0]
    assert f"process 1 of 2 devices 2 result {expected}" in outputs[1][0]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"coordinator_address": "nowhere", "num_processes": 2, "process_id": 0}, "host:port"),
        ({"coordinator_address": "127.0.0.1:1", "num_processes": 2, "process_id": 2}, "not one of 2 processes"),
        ({"coordinator_address": "127.0.0.1:1", "num_processes": "2", "process_id": 0}, "num_processes"),
        ({"coordinator_address": "127.0.0.1:1", "num_processes": 1, "process_id": 0, "cpu_collectives": "x"}, "gloo"),
    ],
)
def test_initialize_rejects_bad_arguments(kwargs, message):
    with pytest.raises(nbt.ArgumentError, match=message):
        nbt.xla.distributed.initialize(**kwargs)


def test_initialize_after_the_client_started_says_so():
    nbt.tensor([1])  # starts the client in this process
    with pytest.raises(nbt.ClientError, match="already started"):
        nbt.xla.distributed.initialize("127.0.0.1:1", num_processes=1, process_id=0)
