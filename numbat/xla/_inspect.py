"""A look into a portable blob without loading it: `inspect_blob` reads its header, its
export record, the ops and custom calls its module and serialized VJPs use, and its
StableHLO text, in a child process, so a stranger's blob never reaches MLIR's parser in
this one (docs/design.md, decision 14).

The child runs with limits set by `resource.setrlimit` before it reads a byte: address
space (`MEMORY_BYTES`), CPU seconds, the size of the files it writes (its answer), no core
dump; and the parent waits at most `timeout` seconds of wall time. A hostile blob can at
most kill the child: the parent reports that as an `ArgumentError`, and nothing the child
computed is trusted beyond being JSON of bounded size.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile

from .._core._errors import ArgumentError
from ._export import portable_parts

MEMORY_BYTES = 4 << 30  # the child's address space: importing JAX takes about 1 GiB of it
ANSWER_BYTES = 64 << 20  # the most the child may write (the StableHLO text is most of it)
_TEXT_CHARS = 1 << 20  # StableHLO text kept per module

# The child's program: limits first, then JAX, then the blob (a file), then its answer (a file).
LIMITS = r"""
import json, resource, sys
memory, cpu, answer_bytes = (int(v) for v in sys.argv[3:6])
resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
resource.setrlimit(resource.RLIMIT_FSIZE, (answer_bytes, answer_bytes))
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
"""
LOOK = r"""
import jax
from jax.interpreters import mlir  # public: make_ir_context
from jaxlib.mlir import ir  # jaxlib's MLIR bindings (jax._src.lib.mlir.ir is this module)

def look(exported):
    ops, calls = {}, set()
    with mlir.make_ir_context():
        text = exported.mlir_module()
        module = ir.Module.parse(text)  # kept alive while its operations are read
        stack = [module.operation]
        while stack:
            operation = stack.pop()
            ops[operation.name] = ops.get(operation.name, 0) + 1
            if operation.name == "stablehlo.custom_call":
                calls.add(ir.StringAttr(operation.attributes["call_target_name"]).value)
            stack.extend(inner.operation for region in operation.regions for block in region for inner in block)
    return ops, calls, text

with open(sys.argv[1], "rb") as file:
    exported = jax.export.deserialize(bytearray(file.read()))
ops, calls, text = look(exported)
vjp = exported.vjp() if exported.has_vjp() else None
if vjp is not None:
    vjp_ops, vjp_calls, _ = look(vjp)
    calls |= vjp_calls
    for name, count in vjp_ops.items():
        ops[name] = ops.get(name, 0) + count
answer = {
    "platforms": list(exported.platforms),
    "nr_devices": exported.nr_devices,
    "has_vjp": vjp is not None,
    "ops": ops,
    "custom_calls": sorted(calls),
    "stablehlo": text[: int(sys.argv[6])],
}
with open(sys.argv[2], "w") as file:
    json.dump(answer, file)
"""


def inspect_blob(blob: bytes, timeout: float = 60.0) -> dict:
    """What a portable blob from `nbt.xla.serialize` holds, read in a child process with
    memory, CPU and time limits, without loading it: its header (`name`, `inputs`,
    `outputs`), its export record (`platforms`, `nr_devices`), whether it carries a VJP, the
    `ops` its module and VJPs use (counts), their `custom_calls`, and its `stablehlo` text
    (the first MiB). A blob that kills the child, or outlasts `timeout` seconds, is an
    `ArgumentError`. Nothing in the blob is trusted or loaded by looking.

    >>> blob = nbt.xla.serialize(lambda x: x * 2, [nbt.template((2,), "f32")], portable=True)
    >>> found = nbt.xla.inspect_blob(blob)
    >>> found["name"], found["custom_calls"], found["ops"]["stablehlo.multiply"]
    ('<lambda>', [], 1)
    """
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= 3600:
        raise ArgumentError(f"inspect_blob: timeout must be a number of seconds in (0, 3600], got {timeout!r}")
    header, payload = portable_parts(blob)
    with tempfile.TemporaryDirectory(prefix="numbat-inspect-") as directory:
        source, answer = os.path.join(directory, "blob"), os.path.join(directory, "answer.json")
        with open(source, "wb") as file:
            file.write(payload)
        _run_child(source, answer, timeout)
        with open(answer, "rb") as file:
            found = json.loads(file.read(ANSWER_BYTES + 1))
    return {"name": header["name"], "inputs": header["inputs"], "outputs": header["outputs"], **found}


def _run_child(source: str, answer: str, timeout: float) -> None:
    # The CPU limit is a backstop for a child burning several threads; a second or two
    # above the wall-clock timeout, so a loop on one thread is stopped by the timeout (whose
    # message says so) and not killed by the CPU limit first (importing JAX uses threads).
    cpu = int(timeout) + 2
    arguments = [source, answer, str(MEMORY_BYTES), str(cpu), str(ANSWER_BYTES), str(_TEXT_CHARS)]
    environment = {**os.environ, "JAX_PLATFORMS": "cpu"}  # no accelerator for a look
    try:
        done = subprocess.run(
            [sys.executable, "-I", "-c", LIMITS + LOOK, *arguments],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=timeout,
            env=environment,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise ArgumentError(
            f"inspect_blob: reading the blob took longer than {timeout} s; the child process reading it was "
            "stopped (a hostile blob can make the parser or a loop in it run for ever)"
        ) from None
    if done.returncode != 0:
        raise ArgumentError(
            f"inspect_blob: the child process reading the blob {how_the_child_ended(done)}; this process is "
            "untouched. The blob is "
            "damaged or hostile: do not load it"
        )


def how_the_child_ended(done: subprocess.CompletedProcess) -> str:
    """How a reading child that did not succeed ended, for an error message: the signal that
    killed it, or the last line it wrote to stderr.

    >>> how_the_child_ended(subprocess.CompletedProcess([], -9, b"", b""))
    'was killed by SIGKILL'
    >>> how_the_child_ended(subprocess.CompletedProcess([], 1, b"", b"Traceback\\nValueError: bad"))
    'failed (ValueError: bad)'
    """
    if done.returncode < 0:
        return f"was killed by {signal.Signals(-done.returncode).name}"
    last = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
    return f"failed ({last[0][:300]})"
