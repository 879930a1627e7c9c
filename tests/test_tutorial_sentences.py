"""What the tutorials say about numbat itself, checked on numbat (what their cells print is
checked by nbval and tests/test_tutorials.py): the stop's strides (04), what starts the
client and the precision table (06), a sharded function's program (07), the order of a
defn's inputs (08)."""

import os
import subprocess
import sys
import textwrap

import nbformat
import pytest
from test_tutorials import NOTEBOOKS

import numbat as nbt
from numbat import telemetry
from numbat._defn import _interrupt
from numbat.notebook._settings import PRECISION_MEANINGS


def _source(name):
    return "\n".join(cell.source for cell in nbformat.read(NOTEBOOKS / name, as_version=4).cells)


def _python(code):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XLA_", "JAX_"))}
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=180, check=False, env=env
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_04_says_when_an_interruptible_loop_checks():
    text = " ".join(_source("04_automatic_differentiation.ipynb").split())
    assert f"after its first {_interrupt.FIRST_STRIDE} iterations" in text
    assert f"about every {_interrupt.TARGET_SECONDS * 1000:.0f} ms" in text


@pytest.mark.parametrize("call", ["nbt.xla.clients()", "nbt.xla.devices()", "nbt.xla.memory()", "nbt.tensor(1.0)"])
def test_06_what_starts_the_client(call):
    # "starts the first time something needs it: a tensor placed on it, or ... clients(), devices(), memory()"
    assert _python(f"import numbat as nbt\nprint(nbt.xla.started())\n{call}\nprint(nbt.xla.started())") == "False\nTrue"


def test_06_precision_table_is_numbats():
    rows = {}
    for line in _source("06_clients_devices_memory.ipynb").splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if line.startswith('| `"'):
            rows[cells[0].split('"')[1]] = cells[1:]
    assert set(rows) == set(PRECISION_MEANINGS)
    for name, (cpu, gpu, tpu) in PRECISION_MEANINGS.items():
        gpu_word = "TF32" if gpu.startswith("tensorfloat32") else "full float32"
        tpu_word = tpu if "bfloat16" in tpu else "full float32"
        assert rows[name] == [gpu_word, tpu_word, cpu], (name, rows[name])


def test_07_hlo_of_a_shard_jit_function_is_each_devices_program():
    shown = _python("""
    import numbat as nbt
    nbt.xla.configure(clients={"host": {"platform": "host", "device_count": 4}})
    mesh = nbt.Mesh("mesh", (4,), client="host")
    data = nbt.iota((8, 3), names=["sample", "feature"])
    pieces = [[data[2 * d : 2 * d + 2]] for d in range(4)]
    sums = nbt.xla.shard_jit(lambda t: nbt.sum(t, axes=["sample"]), mesh, input_shardings=[{0: [0]}])
    program = nbt.xla.hlo(sums, pieces)
    entry = program[program.index("ENTRY") :].split("\\n}")[0]
    print("(param: s32[2,3])" in entry, "all-reduce(" in entry, "reduce" in entry.replace("all-reduce", ""))
    try:
        nbt.xla.hlo(sums, pieces, precision="highest")
    except nbt.ArgumentError as error:
        print(error)
    """)
    assert shown.splitlines() == [
        "True True True",
        "xla.hlo of a shard_jit function takes no options (given to shard_jit), got {'precision': 'highest'}",
    ]


def test_08_a_dicts_tensors_enter_a_defn_in_sorted_key_order():
    # "the dict's tensors in sorted key order (b1, b2, w1, w2) ... so input 0 is b1"
    events = []
    telemetry.attach(
        "test-08-order", telemetry.COMPILATION, lambda _event, _measurements, metadata: events.append(metadata)
    )
    try:
        step = nbt.defn(lambda params, x: params["w1"] * x + params["b1"])
        step({"w1": nbt.tensor([2.0]), "b1": nbt.tensor([1.0, 1.0], names=["hidden"])}, nbt.tensor(3.0))
    finally:
        telemetry.detach("test-08-order")
    assert events[-1]["signature"] == "(f32[hidden: 2], f32[1], f32)"
