"""The Numbat kernel survives every deadly cell of issues 17, 30 and 39: allocations larger
than memory or than 64 bits (vectorized axes, reflect's indices, NumPy views and DLPack
imports included), containers nested 5,000 deep, a list holding itself, 40 levels of shared
sublists, an interrupt inside a hook, a bad global option, a stranger's portable blob that
would corrupt the heap or abort XLA (a custom call in its VJP too), outputs that fit one by
one but not together, a tensor file whose tensors do not fit together or whose axis names
repeat, 10,000 host devices, and a client the machine lacks each end in numbat's own error,
and the good cell after each one still prints the right value. The notebook is built here and run by nbclient under the
installed Numbat kernel; the kernel must never die."""

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient

# A stranger's portable blob, built as an attacker would (never compiled: deserialize must refuse it).
STRANGER = """import dataclasses, json, os, struct
import jax, jax.numpy as jnp
from jax._src.export import _export as jax_export
from jax._src.interpreters import mlir
from jax._src.lib.mlir import ir
from numbat._runtime import _signing
from numbat.backends import _allocation

def export(fun, shape=(4,)):
    return jax.export.export(jax.jit(fun))(jax.ShapeDtypeStruct(shape, "float32"))

def stranger(exported, payload=None, own=False):
    spec = lambda a: [str(a.dtype).replace("float", "f").replace("int", "s"), list(a.shape), [None] * len(a.shape)]
    outputs = exported.out_avals
    header = {"portable": True, "name": "shared", "inputs": [spec(a) for a in exported.in_avals],
              "outputs": [spec(a) for a in outputs], "jax": jax.__version__,
              "structure": 0 if len(outputs) == 1 else {"tuple": list(range(len(outputs)))},
              "jaxlib": jax.__version__, "platform": "cpu", "device_kind": "cpu"}
    encoded = json.dumps(header).encode()
    body = struct.pack("<Q", len(encoded)) + encoded + (payload or bytes(exported.serialize()))
    magic = b"NUMBAT-FUNCTION-3 portable\\n"
    return magic + (_signing.sign(magic + body) if own else os.urandom(32)) + body

@jax.custom_vjp
def double(x):
    return x * 2

double.defvjp(lambda x: (double(x), None), lambda _, g: (jax.lax.linalg.lu(g[:1].reshape(1, 1))[0].reshape(1) * jnp.ones(4),))
vjp_lu = export(double)

lu = export(lambda a: jax.lax.linalg.lu(a)[0], (64, 64))
with mlir.make_ir_context():
    text = lu.mlir_module().replace("tensor<64xi32>", "tensor<1xi32>")
    undersized_lu = dataclasses.replace(lu, mlir_module_serialized=jax_export._module_to_bytecode(ir.Module.parse(text)))
"""
NOT_YOURS = "portable blob is not signed with your numbat key, so it is not from you"
# A tensor file whose header claims what the attacker likes (issue 39).
TENSOR_FILE = """import json, struct, zlib
from numbat.backends import _allocation
size = int(_allocation.capacity_of(nbt.NumPyBackend())[0] * 0.6)

def tensor_file(tensors, compressed):
    header = json.dumps({"structure": {"tuple": [{"tensor": t} for t in tensors]}, "compressed": compressed}).encode()
    payload = zlib.compress(bytes(1 << 20)) if compressed else bytes(2)
    return b"NUMBAT-TENSORS-1\\n" + struct.pack("<Q", len(header)) + header + payload
"""
# `%numbat client cuda` on a machine without CUDA: the magic prints one line; the cell re-raises it
# as the error this test reads, then `%numbat client host` must still work.
CLIENT = """%load_ext numbat
from IPython.utils.capture import capture_output
with capture_output() as said:
    get_ipython().run_line_magic("numbat", "client cuda")
with capture_output() as host:
    get_ipython().run_line_magic("numbat", "client host")
assert "started" not in host.stdout + host.stderr, host.stderr
raise nbt.ArgumentError(said.stdout + said.stderr)"""

# (deadly cell, the error's class name, a fragment of its message)
DEADLY = [
    (CLIENT, "ArgumentError", "this machine has no cuda client"),  # first: before anything starts the client
    (
        'nbt.xla.configure(clients={"host": {"device_count": 10000}})',
        "ArgumentError",
        "device_count must be an int from 1 to 1024, got 10000",
    ),
    ("nbt.iota((2**62,))", "AllocationError", "iota needs 16 EiB"),
    ("nbt.broadcast(0.0, (2**31, 2**31, 4))", "AllocationError", "broadcast needs 64 EiB"),
    ("nbt.defn(lambda t: nbt.broadcast(t, (2**62,)))(nbt.tensor(1.0))", "AllocationError", "f32[4611686018427387904]"),
    ("nbt.random.uniform(nbt.random.key(0), shape=(10**6, 10**6))", "AllocationError", "random.uniform needs 3.64 TiB"),
    ("nbt.iota((2**32, 2**32))", "AllocationError", "s32[4294967296][4294967296]"),
    ("nbt.reshape(nbt.iota((0,)), (0, 10**20))", "AllocationError", "does not fit in 64 bits"),
    (
        "nested = 1.0\nfor _ in range(5000):\n    nested = [nested]\nnbt.defn(lambda x: x)(nested)",
        "ArgumentError",
        "is nested 5000 levels deep",
    ),
    (
        "def stop(t):\n    raise KeyboardInterrupt\n\nnbt.defn(lambda t: nbt.hook(t * 2, stop))(nbt.tensor(1.0))",
        "KeyboardInterrupt",
        "",
    ),
    (
        'nbt.global_default_defn_options({"compiler": 3})',
        "ArgumentError",
        "unknown defn compiler 3; compilers are xla, evaluator",
    ),
    ("nbt.reflect(nbt.iota((4,)), [(0, 10**12)])", "AllocationError", "reflect needs 3.64 TiB"),
    (
        'nbt.broadcast(nbt.vectorize(nbt.iota((10**5,), type="f32"), "x"), (10**6,))',
        "AllocationError",
        "broadcast needs 373 GiB (400000000000 bytes) for vectorized[x: 100000] f32[1000000]",
    ),
    (
        'nbt.defn(lambda v: nbt.pad(v, 0.0, [(0, 10**6, 0)]))(nbt.vectorize(nbt.iota((10**5, 1), type="f32"), "x"))',
        "AllocationError",
        "pad needs 373 GiB",
    ),
    (
        "import numpy as np\nnbt.tensor(np.broadcast_to(np.float64(1), (10**6, 10**6)))",
        "AllocationError",
        "tensor needs 7.28 TiB",
    ),
    ("nbt.random.choice(nbt.random.key(0), nbt.iota((10,)), samples=10**12)", "AllocationError", "random.choice needs"),
    (STRANGER + "nbt.xla.deserialize(stranger(undersized_lu))", "ArgumentError", NOT_YOURS),
    (
        STRANGER + "nbt.xla.deserialize(stranger(export(lambda x: jnp.broadcast_to(x[0], (2**31,) * 3))))",
        "ArgumentError",
        NOT_YOURS,
    ),
    (
        STRANGER + "nbt.xla.deserialize(stranger(vjp_lu, bytes(vjp_lu.serialize(vjp_order=1))))",
        "ArgumentError",
        NOT_YOURS,
    ),
    (
        STRANGER
        + "n = int(_allocation.capacity_of(nbt.XLABackend())[0] * 0.4) // 4\n"
        + "with jax.enable_x64(True):\n"
        + "    three = export(lambda x: (jnp.broadcast_to(x[0], (n,)),) * 3)\n"
        + "nbt.xla.deserialize(stranger(three, own=True))",
        "AllocationError",
        "for the outputs of shared together",
    ),
    ("a = []\na.append(a)\nnbt.tensor(a)", "ArgumentError", "tensor: data holds itself"),
    ("d = 1.0\nfor _ in range(40):\n    d = [d, d]\nnbt.tensor(d)", "ArgumentError", "holds more than 268435456 items"),
    (
        "import numpy as np\nnbt.from_dlpack(np.broadcast_to(np.float32(1), (2**40,)), backend=nbt.NumPyBackend())",
        "AllocationError",
        "from_dlpack needs 4 TiB",
    ),
    (
        TENSOR_FILE + "nbt.deserialize(tensor_file([['u8', [size], [None], size]] * 2, True))",
        "AllocationError",
        "for the tensors of this file together",
    ),
    (
        TENSOR_FILE + "nbt.deserialize(tensor_file([['u8', [1, 2], ['x', 'x'], 2]], False))",
        "ArgumentError",
        "axis names must be unique",
    ),
]


def _good(index: int) -> str:
    """A cell that must print `ok <index> <6 * index>` after the deadly cell before it."""
    return f"double = nbt.defn(lambda t: nbt.sum(t * 2))\nprint('ok', {index}, nbt.to_number(double(nbt.iota((4,)) * {index} / 2)))"


@pytest.fixture(scope="module")
def cells():
    if "numbat" not in KernelSpecManager().find_kernel_specs():
        pytest.fail("the Numbat kernel is not installed: run `numbat kernel install --sys-prefix`")
    notebook = nbformat.v4.new_notebook()
    notebook.cells.append(nbformat.v4.new_code_cell("import numbat as nbt"))
    for index, (source, _, _) in enumerate(DEADLY, start=1):
        notebook.cells.append(nbformat.v4.new_code_cell(source))
        notebook.cells.append(nbformat.v4.new_code_cell(_good(index)))
    NotebookClient(
        notebook, timeout=240, kernel_name="numbat", allow_errors=True
    ).execute()  # DeadKernelError if it dies
    return notebook.cells


@pytest.mark.parametrize("index", range(1, len(DEADLY) + 1), ids=[d[1] + "-" + d[0][:30] for d in DEADLY])
def test_a_deadly_cell_raises_numbats_error_and_the_next_cell_works(cells, index):
    source, ename, fragment = DEADLY[index - 1]
    deadly, good = cells[2 * index - 1], cells[2 * index]
    assert deadly.source == source
    errors = [output for output in deadly.outputs if output.output_type == "error"]
    assert len(errors) == 1, deadly.outputs
    assert errors[0].ename == ename and fragment in errors[0].evalue, (errors[0].ename, errors[0].evalue)
    assert not [o for o in good.outputs if o.output_type == "error"], good.outputs
    printed = "".join(o.text for o in good.outputs if o.output_type == "stream")  # beside it: the telemetry strip
    assert printed == f"ok {index} {6.0 * index}\n"
