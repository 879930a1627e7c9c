"""The worker of the fuzz test (tests/test_fuzz.py): calls every public numbat callable
with seeded junk arguments (positional, and keyword options by their names), then the
functions that `defn`, `jit`, `grad`, `value_and_grad` and `vectorize` return, then
`%numbat` magic lines built from random tokens, and reports each call's outcome as one
JSON line on stdout.

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
NUMBAT_ERRORS = (nbt.ArgumentError, nbt.ClientError, nbt.HookError, nbt.AllocationError)
# Keywords not fuzzed yet: junk there still ends in a foreign error or worse, in code the
# semantics work owns (numbat/_ops); each is an open finding, removed here once fixed.
OPEN_KEYWORDS: dict[str, set] = {}
# Values keyword options get besides the junk pool: the names options take, and near misses.
OPTION_VALUES = ["xla", "evaluator", "high", "highest", "low", "always", "never", "host", "cuda", -5, 10**9, "bogus"]


def _modules():
    yield "numbat", nbt, [n for n in dir(nbt) if not n.startswith("_")]
    for name in ("linalg", "random", "telemetry", "constants", "notebook"):
        module = getattr(nbt, name)
        yield f"numbat.{name}", module, [n for n in dir(module) if not n.startswith("_")]
    yield "numbat.xla", nbt.xla, [n for n in dir(nbt.xla) if not n.startswith("_")]
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


def _bindable(fun, args, kwargs=None) -> bool:
    try:
        inspect.signature(fun).bind(*args, **(kwargs or {}))
    except TypeError:
        return False
    except ValueError:  # no signature (a builtin): let the call decide
        return True
    return True


def _keywords(name: str, fun, args: list, rng: random.Random, pool: list) -> dict:
    """Junk for one or two of `fun`'s keyword parameters not given positionally."""
    open_keywords = OPEN_KEYWORDS.get(name, set())
    if "*" in open_keywords:
        return {}
    try:
        parameters = list(inspect.signature(fun).parameters.values())
    except ValueError:
        return {}
    named = [
        p.name
        for position, p in enumerate(parameters)
        if (p.kind is p.KEYWORD_ONLY or (p.kind is p.POSITIONAL_OR_KEYWORD and position >= len(args)))
        and p.name not in open_keywords
    ]
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        named += ["compiler", "client", "precision", "cache", "hooks", "bogus_option"]
    chosen = rng.sample(named, min(len(named), rng.randint(1, 2))) if named else []
    return {key: rng.choice(OPTION_VALUES if rng.random() < 0.4 else pool) for key in chosen}


def _described(args, kwargs) -> list[str]:
    return [_describe(a) for a in args] + [f"{k}={_describe(v)}" for k, v in (kwargs or {}).items()]


def _outcome(name, fun, args, kwargs=None, allowed=NUMBAT_ERRORS) -> dict:
    described = _described(args, kwargs)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            result = fun(*args, **(kwargs or {}))
            if inspect.isgenerator(result):  # to_batched: the work happens on iteration
                for _ in zip(range(3), result):
                    pass
        return {"call": name, "args": described, "ok": True}
    except allowed:
        return {"call": name, "args": described, "ok": True}
    except Exception as error:  # noqa: BLE001 - what the fuzz test is looking for
        if _raised_by_a_body(error):  # the user's own code raised it: passed on as it is, rightly
            return {"call": name, "args": described, "ok": True}
        stack = traceback.extract_tb(error.__traceback__)
        where = f"{stack[-1].filename}:{stack[-1].lineno}" if stack else "?"
        return {
            "call": name,
            "args": described,
            "ok": False,
            "error": f"{type(error).__name__}: {error}"[:300],
            "where": where,
        }


def _raised_by_a_body(error: BaseException) -> bool:
    """Whether `error` (or an exception it was raised from, as JAX re-raises) came from the
    innermost frame of a transform's body: `product`'s `a * b` of a tuple and 2**70 is
    Python's OverflowError in the user's code (seed 67), which numbat passes on unchanged."""
    codes = {body.__code__ for _, body in BODIES}
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        frame = error.__traceback__
        while frame is not None and frame.tb_next is not None:
            frame = frame.tb_next
        if frame is not None and frame.tb_frame.f_code in codes:
            return True
        error = error.__cause__ or error.__context__
    return False


# Bodies for the transforms: a float function of one tensor, of two, and one with a container.
BODIES = [
    ("square_sum", lambda t: nbt.sum(t * t)),
    ("product", lambda a, b: a * b),
    ("first_plus", lambda pair: pair[0] + 1),
]
TRANSFORMS = [
    ("defn", nbt.defn),
    ("jit", nbt.jit),
    ("grad", nbt.grad),
    ("value_and_grad", nbt.value_and_grad),
    ("vectorize", nbt.vectorize),
]


def transformed() -> list[tuple[str, object, int]]:
    """The functions the transforms return, one per transform and body, with the body's arity."""
    return [
        (f"{t}({b})", transform(body), body.__code__.co_argcount)
        for t, transform in TRANSFORMS
        for b, body in BODIES
        if not (t == "vectorize" and b == "first_plus")  # see test_fuzz: vectorize passes a body's errors on
    ]


MAGIC_TOKENS = [
    "info",
    "client",
    "memory",
    "precision",
    "telemetry",
    "graph",
    "profile",
    "--runs",
    "cache",
    "help",
    "host",
    "cuda",
    "high",
    "default",
    "preallocate=true",
    "preallocate=maybe",
    "fraction=0.5",
    "fraction=2",
    "-n",
    "5",
    "-5",
    "--mlir",
    "--hlo",
    "--fused",
    "--all",
    "chart",
    "clear",
    "fun_ok",
    "fun_bad",
    "x",
    "missing",
    "'",
    '"',
    "=",
    "--",
    "\\x00",
    "<script>",
    "1e309",
]


def _shell():
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    shell = InteractiveShell.instance(config=config)
    shell.run_line_magic("load_ext", "numbat")
    shell.run_cell("fun_ok = nbt.defn(lambda t: t + 1)\nfun_bad = lambda t: t.nonexistent\nx = nbt.iota((2,))")
    return shell


def main(seed: int, per_function: int) -> None:
    # Records go to the original stdout; whatever the fuzzed calls print goes to stderr.
    records = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def report(record: dict) -> None:
        records.write(json.dumps(record) + "\n")

    def call(name, fun, args, kwargs=None, allowed=NUMBAT_ERRORS):
        report({"start": name, "args": _described(args, kwargs)})
        report(_outcome(name, fun, args, kwargs, allowed))

    rng = random.Random(seed)
    pool = junk_pool()
    targets = public_callables()
    targets += [(f"operator.{op.__name__}", op) for op in OPERATORS]
    targets += [(f"unary.{getattr(op, '__name__', op)}", op) for op in UNARY]
    tensors = [v for v in pool if isinstance(v, nbt.Tensor)]
    for name, fun in targets:
        for _ in range(per_function):
            kwargs = None
            if name.startswith(("operator.", "unary.")):  # a tensor on one side at least
                args = [rng.choice(tensors)] + ([rng.choice(pool)] if name.startswith("operator.") else [])
                if rng.random() < 0.3 and len(args) == 2 and fun is not operator.getitem:
                    args.reverse()
            else:
                args = [rng.choice(pool) for _ in range(rng.randint(0, 4))]
                if rng.random() < 0.4:
                    kwargs = _keywords(name, fun, args, rng, pool)
            if _bindable(fun, args, kwargs):
                call(name, fun, args, kwargs)
    # The functions the transforms return, called with junk (tensors more often than not).
    for name, fun, arity in transformed():
        for _ in range(per_function):
            count = arity if name.startswith("vectorize") else rng.randint(0, 3)  # vectorize: see test_fuzz
            args = [rng.choice(tensors if rng.random() < 0.6 else pool) for _ in range(count)]
            kwargs = {rng.choice(["axes", "bogus", "compiler"]): rng.choice(pool)} if rng.random() < 0.2 else None
            if _bindable(fun, args, kwargs):
                call(name, fun, args, kwargs)
    # %numbat lines from random tokens: a usage error is how a magic refuses a line.
    from IPython.core.error import UsageError

    shell = _shell()
    for _ in range(per_function * 4):
        line = " ".join(rng.choice(MAGIC_TOKENS) for _ in range(rng.randint(0, 4)))
        call("%numbat", shell.run_line_magic, ["numbat", line], None, (*NUMBAT_ERRORS, UsageError))
    report({"done": True})


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
