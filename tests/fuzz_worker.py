"""The worker of the fuzz test (tests/test_fuzz.py): calls every public numbat callable
with seeded junk arguments and reports each call's outcome as one JSON line on stdout.

Run as `python tests/fuzz_worker.py SEED CALLS_PER_FUNCTION`. A call whose arguments
Python itself cannot bind to the signature is not made. Every warning is an error, so a
warning that escapes shows up as a failure.
"""

from __future__ import annotations

import inspect
import json
import math
import operator
import os
import random
import sys
import traceback
import warnings

import numpy as np

import numbat as nbt
import numbat.notebook
import numbat.xla
import numbat.xla.distributed

# Process-wide actions that junk must not perform for real (joining a cluster, leaving it).
SKIPPED = {"numbat.xla.distributed.initialize", "numbat.xla.distributed.shutdown"}
NUMBAT_ERRORS = (nbt.ArgumentError, nbt.ClientError, nbt.HookError)


def _modules():
    lazy = ["to_mlir_module", "hlo", "fusion_report", "stream", "is_stream_cached", "shard_jit", "serialize"]
    yield "numbat", nbt, [n for n in dir(nbt) if not n.startswith("_")]
    for name in ("linalg", "random", "telemetry", "constants", "notebook"):
        module = getattr(nbt, name)
        yield f"numbat.{name}", module, [n for n in dir(module) if not n.startswith("_")]
    yield "numbat.xla", nbt.xla, [n for n in dir(nbt.xla) if not n.startswith("_")] + lazy + ["deserialize"]
    yield "numbat.xla.distributed", nbt.xla.distributed, [n for n in dir(nbt.xla.distributed) if n[0] != "_"]


def public_callables() -> list[tuple[str, object]]:
    """Every public function of numbat's modules (classes and imported names left out)."""
    found, seen = [], set()
    for prefix, module, names in _modules():
        for name in sorted(set(names)):
            value = getattr(module, name)
            if inspect.isclass(value) or inspect.ismodule(value) or not callable(value):
                continue
            if not getattr(value, "__module__", "").startswith("numbat"):
                continue
            qualified = f"{prefix}.{name}"
            if qualified in SKIPPED or id(value) in seen and prefix != "numbat":
                continue
            seen.add(id(value))
            found.append((qualified, value))
    return found


OPERATORS = [
    operator.add,
    operator.sub,
    operator.mul,
    operator.truediv,
    operator.floordiv,
    operator.mod,
    operator.pow,
    operator.matmul,
    operator.and_,
    operator.or_,
    operator.xor,
    operator.lshift,
    operator.rshift,
    operator.lt,
    operator.le,
    operator.gt,
    operator.ge,
    operator.eq,
    operator.ne,
    operator.getitem,
]
UNARY = [operator.neg, operator.pos, abs, operator.invert, bool, float, repr, str]


def junk_pool() -> list:
    """Values a confused user might pass anywhere."""
    numpy_backend = nbt.NumPyBackend()
    return [
        None,
        True,
        0,
        -1,
        3,
        2**70,
        1.5,
        math.nan,
        math.inf,
        -0.0,
        1j,
        "x",
        "",
        "f32",
        "auto",
        b"\x00",
        [],
        [1, 2],
        [[1], [2, 3]],
        [[1.0, 2.0], [3.0, 4.0]],
        (),
        (2, 3),
        (-1,),
        ("x",),
        {},
        {"a": 1},
        {0: [0]},
        object(),
        lambda *a: None,
        print,
        slice(None, 2),
        Ellipsis,
        np.zeros((2, 0)),
        np.ones(3, dtype=object),
        np.float64(2.5),
        nbt.iota((2, 3), names=["x", "y"]),
        nbt.tensor(1.5),
        nbt.tensor([1, 2, 3], type="u8"),
        nbt.iota((0,)),
        nbt.tensor([1 + 2j]),
        nbt.iota((2, 2), type="f64", backend=numpy_backend),
        nbt.template((2,), "f32"),
        numpy_backend,
        nbt.XLABackend(),
    ]


def _describe(value) -> str:
    text = repr(value)
    return text if len(text) < 80 else text[:77] + "..."


def _bindable(fun, args) -> bool:
    try:
        inspect.signature(fun).bind(*args)
    except TypeError:
        return False
    except ValueError:  # no signature (a builtin): let the call decide
        return True
    return True


def _outcome(name, fun, args) -> dict:
    described = [_describe(a) for a in args]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            result = fun(*args)
            if inspect.isgenerator(result):  # to_batched: the work happens on iteration
                for _ in zip(range(3), result):
                    pass
        return {"call": name, "args": described, "ok": True}
    except NUMBAT_ERRORS:
        return {"call": name, "args": described, "ok": True}
    except Exception as error:  # noqa: BLE001 - what the fuzz test is looking for
        stack = traceback.extract_tb(error.__traceback__)
        where = f"{stack[-1].filename}:{stack[-1].lineno}" if stack else "?"
        return {
            "call": name,
            "args": described,
            "ok": False,
            "error": f"{type(error).__name__}: {error}"[:300],
            "where": where,
        }


def main(seed: int, per_function: int) -> None:
    # Records go to the original stdout; whatever the fuzzed calls print goes to stderr.
    records = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def report(record: dict) -> None:
        records.write(json.dumps(record) + "\n")

    rng = random.Random(seed)
    pool = junk_pool()
    targets = public_callables()
    targets += [(f"operator.{op.__name__}", op) for op in OPERATORS]
    targets += [(f"unary.{getattr(op, '__name__', op)}", op) for op in UNARY]
    tensors = [v for v in pool if isinstance(v, nbt.Tensor)]
    for name, fun in targets:
        for _ in range(per_function):
            if name.startswith(("operator.", "unary.")):  # a tensor on one side at least
                args = [rng.choice(tensors)] + ([rng.choice(pool)] if name.startswith("operator.") else [])
                if rng.random() < 0.3 and len(args) == 2 and fun is not operator.getitem:
                    args.reverse()
            else:
                args = [rng.choice(pool) for _ in range(rng.randint(0, 4))]
            if not _bindable(fun, args):
                continue
            report({"start": name, "args": [_describe(a) for a in args]})
            report(_outcome(name, fun, args))
    report({"done": True})


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
