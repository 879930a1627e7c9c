"""The worker of tests/test_allocation.py's sweep of the public API: every public numbat
callable (found as the fuzz worker finds them) is called with sizes of about 10**12 bytes,
one argument at a time (an element count, a shape, a zero-stride NumPy view, a vectorized
tensor, a 1 MB tensor whose outer product is 10**12 bytes, and an empty shape whose other
dimensions multiply out past 64 bits), and each outcome is reported as
one JSON line: a result, a numbat error, or a foreign error with its type and message.

Run as `python tests/allocation_worker.py`; it limits its own address space to 64 GiB first,
so an allocation the guard missed fails at once instead of swapping the machine.
"""

from __future__ import annotations

import inspect
import json
import os
import resource
import signal
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import fuzz_worker

import numbat as nbt

CALL_LIMIT_S = 60
ADDRESS_SPACE = 64 << 30
COUNT = 10**12
SHAPE = (10**6, 10**6)
# Keyword parameters that take a count or a shape.
SIZED = {"shape", "samples", "n", "length", "size", "parts", "multiples", "rows", "columns", "m", "k", "num"}
# Needs a process of its own or a network (as in the fuzz worker), or renders a whole tensor on purpose.
SKIPPED = fuzz_worker.SKIPPED


class _Hung(Exception):
    pass


def _alarm(signum, frame):
    raise _Hung(f"no result within {CALL_LIMIT_S} s")


def huge_values() -> dict:
    """Arguments of about 10**12 bytes, each cheap to make."""
    return {
        "count": COUNT,
        "shape": SHAPE,
        "view": np.broadcast_to(np.uint8(1), SHAPE),  # 10**12 bytes that take none
        "vectorized": nbt.vectorize(nbt.iota((10**6, 1), type="u8"), "v"),  # x 10**6 entries of any result
        "empty": (2**33, 2**33, 0),  # no elements, yet XLA multiplies out the rest (and aborted, issue 49)
    }


def _plan(fun):
    """(label, required positional count, position, keyword, huge value's name) for `fun`: every
    required positional parameter a filler tensor; then each of them in turn each huge value;
    then each sized keyword a count and a shape."""
    try:
        parameters = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        return
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    yield "filler", len(required), None, None, None
    for position, parameter in enumerate(required):
        for value in ("count", "shape", "view", "vectorized", "empty"):
            yield f"{parameter.name}={value}", len(required), position, None, value
    for parameter in parameters:
        if parameter.name in SIZED and parameter.default is not parameter.empty:
            for value in ("count", "shape", "empty"):
                yield f"{parameter.name}={value}", len(required), None, parameter.name, value


def _outcome(fun, count: int, position, keyword, value) -> str | None:
    """None, or the foreign error that calling `fun` so ends in (values made fresh per call:
    a sweep calls `deallocate` too)."""
    args = [nbt.iota((10**6,), type="u8") for _ in range(count)]  # outer(filler, filler): 10**12 bytes
    kwargs = {}
    if value is not None:
        if keyword is None:
            args[position] = huge_values()[value]
        else:
            kwargs[keyword] = huge_values()[value]
    signal.alarm(CALL_LIMIT_S)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = fun(*args, **kwargs)
            if inspect.isgenerator(result):
                for _ in zip(range(3), result):
                    pass
    except fuzz_worker.NUMBAT_ERRORS:
        return None
    except BaseException as error:  # noqa: BLE001 - what the sweep looks for
        return f"{type(error).__module__}.{type(error).__name__}: {error}"[:300]
    finally:
        signal.alarm(0)
    return None


def main() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    signal.signal(signal.SIGALRM, _alarm)
    for name, fun in fuzz_worker.public_callables():
        if name in SKIPPED:
            continue
        for label, *plan in _plan(fun):
            print(json.dumps({"start": name, "label": label}), flush=True)
            error = _outcome(fun, *plan)
            print(json.dumps({"call": name, "label": label, "ok": error is None, "error": error}), flush=True)
    print(json.dumps({"done": True}), flush=True)


if __name__ == "__main__":
    main()
