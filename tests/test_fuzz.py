"""Every public numbat callable (with junk keyword options too), the Tensor operators,
the functions `defn`, `jit`, `grad`, `value_and_grad` and `vectorize` return, and
`%numbat` lines built from random tokens, called with seeded junk: each call ends in
its result or a numbat error, never a foreign traceback, an escaped warning, a hang
or a dead process.

CI runs `SEEDS`; `pytest -m fuzz_long tests/test_fuzz.py` runs `LONG_SEEDS` with more
calls each (deselected by default, see pyproject.toml).

The calls run in a worker process (tests/fuzz_worker.py) that reports each one before
and after it runs, so a hang names its call (the per-call time limit) and so does a
call that kills the process. Functions are discovered from the package: a new public
function is fuzzed without changing this test.
"""

import collections
import json
import pathlib
import queue
import struct
import subprocess
import sys
import tempfile
import threading

import numpy as np
import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
from traitlets.config import Config

import numbat as nbt

WORKER = pathlib.Path(__file__).with_name("fuzz_worker.py")
CALL_LIMIT_S = 120  # a first call may compile; a hang is far longer
# Seed 3 once hung at nbt.outer(u8[3], inf) after about 400 calls; it runs clean since the
# semantics merges (1,271 calls), so it is back in CI to keep it so.
# Seeds 17, 23 and 67 found issue 49's leaks (detach's TypeError, linalg's truth value,
# ComplexWarning); they run clean since, and stay to keep it so.
SEEDS = (0, 1, 2, 3, 17, 23, 67)
CALLS_PER_FUNCTION = 8
LONG_SEEDS = tuple(range(100, 132))
LONG_CALLS_PER_FUNCTION = 24


def _lines(stream, sink: queue.Queue) -> None:
    for line in stream:
        sink.put(line)
    sink.put(None)


def _fuzz(seed: int, per_function: int) -> None:
    process = subprocess.Popen(
        [sys.executable, str(WORKER), str(seed), str(per_function)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tempfile.mkdtemp(prefix="numbat-fuzz-"),  # a junk `cache="never"` writes there, not in the checkout
    )
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_lines, args=(process.stdout, lines), daemon=True).start()
    failures, current, calls, done = [], None, collections.Counter(), False
    try:
        while True:
            try:
                line = lines.get(timeout=CALL_LIMIT_S)
            except queue.Empty:
                pytest.fail(f"a call hung for over {CALL_LIMIT_S} s: {current}")
            if line is None:
                break
            record = json.loads(line)
            if "start" in record:
                current = f"{record['start']}({', '.join(record['args'])})"
            elif record.get("done"):
                done = True
            else:
                calls[_kind(record["call"])] += 1
                if not record["ok"]:
                    failures.append(f"{record['call']}{tuple(record['args'])}: {record['error']} at {record['where']}")
    finally:
        process.kill()
        stderr = process.communicate()[1]
    assert done, f"the worker died during {current}:\n{stderr[-3000:]}"
    # the discovery found the API, and junk reached every kind of target
    assert calls["function"] > 900 and calls["transformed"] > 50 and calls["magic"] == 4 * per_function, calls
    assert not failures, f"{len(failures)} call(s) ended in a foreign error:\n" + "\n".join(failures[:30])


def _kind(call: str) -> str:
    if call == "%numbat":
        return "magic"
    if "(" in call:
        return "transformed"
    return "operator" if call.startswith(("operator.", "unary.")) else "function"


@pytest.mark.parametrize("seed", SEEDS)
def test_junk_arguments_end_in_numbat_errors(seed):
    _fuzz(seed, CALLS_PER_FUNCTION)


@pytest.mark.fuzz_long
@pytest.mark.parametrize("seed", LONG_SEEDS)
def test_junk_arguments_end_in_numbat_errors_long_run(seed):
    _fuzz(seed, LONG_CALLS_PER_FUNCTION)


def test_the_worker_finds_the_whole_public_api():
    sys.path.insert(0, str(WORKER.parent))
    try:
        import fuzz_worker
    finally:
        sys.path.remove(str(WORKER.parent))
    names = {name for name, _ in fuzz_worker.public_callables()}
    for expected in (
        "numbat.add",
        "numbat.window_scatter_max",
        "numbat.linalg.qr",
        "numbat.random.normal",
        "numbat.xla.serialize",
        "numbat.telemetry.attach",
        "numbat.notebook.dashboard",
    ):
        assert expected in names
    assert len(names) > 250


# Calls the fuzz test's deeper seeds (2 to 11) found ending in a foreign error, kept as
# regressions: each must now be a numbat error naming the problem.
FOUND_BY_FUZZING = [
    (lambda: nbt.split(nbt.tensor([1.0, 2.0]), nbt.template((2,))), "must be non-negative ints adding up"),
    (lambda: nbt.split(nbt.tensor(np.zeros(0)), 2**70), "too few to split in two parts"),
    (lambda: nbt.argmax(nbt.iota((2, 3)), 0, False, np.zeros(2)), "tie_break must be one of"),
    (lambda: nbt.argmax(nbt.iota((2, 3)), 0, np.zeros(2)), "keep_axis must be True or False"),
    (lambda: nbt.product(nbt.iota((2, 2)), (-1,), np.zeros((2, 0))), "keep_axes must be True or False"),
    (lambda: nbt.rfft(nbt.tensor([1 + 2j])), "rfft transforms a real signal"),
    (lambda: nbt.fft(nbt.iota((2, 2), type="f64"), 2**70), r"positive ints or \"power_of_two\" below 2\*\*31"),
    (lambda: nbt.gather(float("inf"), nbt.iota((2, 3))), "the tensor has rank 0"),
    (lambda: nbt.broadcast(-0.0, b"\x00", 1j), "a shape is a tuple"),
    (lambda: nbt.broadcast(1.0, (2,), 1j), "must be a list or tuple of axis positions"),
    (lambda: nbt.fori_loop(np.float64(2.5), -1, lambda i, s: s, nbt.tensor(0)), "start must be an int"),
    (lambda: nbt.notebook.heatmap(np.zeros((2, 0))), "nothing to draw"),
    (lambda: nbt.revectorize(nbt.tensor([1]), [("x", 1)], target_shape=(), target_names=3), "target_names"),
    (lambda: nbt.new_axis(True, -1, {"a": 1}), "an axis name is a str or None"),
    (lambda: nbt.notebook.histogram(nbt.tensor([1.0, 2.0]), 2**70), "bins must be an int from 1 to 100000"),
    (lambda: nbt.notebook.heatmap(nbt.iota((2, 3)), np.array([1, 1, 1], dtype=object)), "title must be a str"),
    (
        lambda: nbt.fill(nbt.tensor([1.0]), 1 + 2j, type="f32"),
        r"the complex value \(1\+2j\) does not fit in the f32 tensor",
    ),
    (lambda: nbt.defn(lambda t: t)(t for t in [nbt.tensor(1.0)]), "holds a generator, which can be read only once"),
    (lambda: nbt.vectorize(lambda t: t, client="host"), r"vectorize: unknown option\(s\) \['client'\] for a function"),
    # Seeds 17, 23 and 67 (issue 49): Python's TypeError, NumPy's ValueError and ComplexWarning.
    (lambda: nbt.telemetry.detach(nbt.tensor([1.0])), "telemetry.detach: handler_id must be a str"),
    (lambda: nbt.telemetry.detach(np.zeros(2)), "telemetry.detach: handler_id must be a str"),
    (lambda: nbt.telemetry.detach({"a": 1}), "telemetry.detach: handler_id must be a str"),
    (lambda: nbt.linalg.norm(nbt.tensor([3.0, 4.0]), np.zeros((2, 0))), "ord must be None, a name or a number"),
    (lambda: nbt.linalg.norm(nbt.tensor([3.0, 4.0]), keep_axes=np.zeros((2, 0))), "keep_axes must be True or"),
    (lambda: nbt.linalg.qr(nbt.iota((2, 2), type="f32"), np.zeros((2, 0))), 'mode must be "reduced" or "complete"'),
    (lambda: nbt.linalg.svd(nbt.iota((2, 2), type="f32"), np.zeros((2, 0))), "full_matrices must be True or False"),
    (lambda: nbt.tensor([1j], type="f32"), r"cannot build a f32 tensor from complex values in \[1j\]"),
    (lambda: nbt.tensor(np.array([1 + 2j]), type="s32"), "cannot build a s32 tensor from complex values"),
    # Duplicate vectorized names: every op then failed with JAX's "isn't a permutation".
    (lambda: nbt.vectorize(nbt.iota((2, 2)), ["v", "v"]), r"vectorized axis names must be unique, got \['v', 'v'\]"),
    (lambda: nbt.iota((3,), vectorized_axes=[("v", 2), ("v", 2)]), "iota: vectorized axis names must be unique"),
    (lambda: nbt.deserialize(_vectorized_file(["v", "v"])), r"deserialize: .*names must be unique, got \['v', 'v'\]"),
]


def _vectorized_file(names: list) -> bytes:
    """A tensor file of one u8 tensor vectorized over `names`, each of size 2."""
    node = {"tensor": ["u8", [], [], 2 ** len(names)], "vectorized": [[name, 2] for name in names]}
    header = json.dumps({"structure": node, "compressed": False}).encode()
    return b"NUMBAT-TENSORS-1\n" + struct.pack("<Q", len(header)) + header + bytes(2 ** len(names))


@pytest.mark.parametrize("call, message", FOUND_BY_FUZZING)
def test_calls_the_fuzzing_found_are_numbat_errors(call, message):
    with pytest.raises(nbt.ArgumentError, match=message):
        call()


@pytest.mark.parametrize("backend", [nbt.NumPyBackend(), nbt.XLABackend()], ids=["numpy", "xla"])
def test_a_window_op_over_a_scalar_is_the_scalar_on_both_backends(backend):
    # New seeds 200 and 201 (16 calls a function): NumPy's pad refused the empty widths of a
    # scalar ("`pad_width` must be of integral type"); XLA gave the scalar.
    for op in (nbt.window_sum, nbt.window_min, nbt.window_max, nbt.window_product):
        assert nbt.to_number(op(nbt.tensor(2, backend=backend), (), padding="valid")) == 2


JUNK_LINES = [
    "",
    "'",
    '"',
    "bogus",
    "info extra",
    "telemetry nonsense",
    "telemetry -n x",
    "telemetry -n -5",
    "cache 1",
    "client nowhere",
    "client a b",
    "memory preallocate=maybe",
    "memory fraction=2",
    "memory fraction=x",
    "memory nonsense",
    "precision ultra",
    "precision a b",
    "graph",
    "graph missing_fun",
    "graph 42",
    "graph print 1",
    "graph fun_ok undefined_arg",
    "graph fun_ok x --mlir --hlo",
    "graph fun_bad x",
    "--fused",
    "graph fun_ok '<script>'",
    "\x00",
    "telemetry chart extra",
    "graph fun_ok x --all --fused",
]


@pytest.fixture(scope="module")
def shell():
    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    ip = InteractiveShell.instance(config=config)  # the process's one shell (other test modules share it)
    ip.run_line_magic("load_ext", "numbat")
    ip.run_cell(
        "import numbat as nbt\nfun_ok = nbt.defn(lambda t: t + 1)\nfun_bad = lambda t: t.nonexistent\nx = nbt.iota((2,))"
    )
    yield ip
    ip.run_line_magic("unload_ext", "numbat")


@pytest.mark.parametrize("line", JUNK_LINES)
def test_every_numbat_magic_line_answers_without_a_traceback(shell, line):
    with capture_output() as captured:
        result = shell.run_cell(f"%numbat {line}", store_history=False)
    shown = captured.stdout + captured.stderr + "".join(str(o.data) for o in captured.outputs)
    assert "Traceback" not in shown, shown
    if result.error_in_exec is not None:  # only a user's own function may raise, and as itself
        assert line.startswith("graph fun_bad"), repr(result.error_in_exec)
    html = "".join(o.data.get("text/html", "") + o.data.get("image/svg+xml", "") for o in captured.outputs)
    assert "<script>" not in html  # user strings are escaped in every HTML view
    assert nbt.tensor([1]).shape == (1,)  # the kernel is alive and numbat works
