"""The Numbat kernel survives every deadly cell of issue 17: allocations larger than
memory or than 64 bits, containers nested 5,000 deep, an interrupt inside a hook and a
bad global option each end in numbat's own error, and the good cell after each one
still prints the right value. The notebook is built here and run by nbclient under the
installed Numbat kernel; the kernel must never die."""

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient

# (deadly cell, the error's class name, a fragment of its message)
DEADLY = [
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
