"""Nx 0.13.1's own doctests as numbat's reference (issue 16, item 1).

Every doctest of `Nx` (FFT functions included) and `Nx.LinAlg`, ported by
`translate.py` into `cases_nx.json` / `cases_linalg.json`, runs three ways: on the
NumPy backend (`-numpy`), on the default XLA backend (`-xla`) and with each checked
expression inside `nbt.jit` (`-jit`: the tensors it reads, and the `nbt.tensor(...)`
literals inside it, become the jit's arguments). A case checks the type, shape, names,
vectorized axes and values Nx printed: integers exactly, floats to the printed digits
(one unit in the last printed digit, or a few ulps of the type, whichever is larger),
NaN equal to NaN and the sign of zero aside; an Nx error must be a numbat error.

A case with no tensor result (shapes, numbers, lists) has no `-jit` variant: Nx itself
cannot return those from a defn. Cases that fail today are marked strict xfail from
`known_failures.py`; the excepted ones (no numbat form) are in `exceptions.py`.
"""

from __future__ import annotations

import json
import math
import pathlib
import re

import pytest

import numbat as nbt

from . import exceptions, known_failures

HERE = pathlib.Path(__file__).parent
CASES = [case for name in ("cases_nx.json", "cases_linalg.json") for case in json.loads((HERE / name).read_text())]
PORTED = [case for case in CASES if "exception" not in case]

# Nx's error -> the numbat errors that port it (messages are not compared).
ERRORS = {"ArgumentError": (nbt.ArgumentError,), "RuntimeError": (RuntimeError, nbt.ArgumentError)}

NON_FINITE = {"nan": "nan", "infinity": "inf", "neg_infinity": "-inf"}

# Relative precision of each floating type (the gap from 1.0 to the next value).
EPSILON = {"f8_e4m3fn": 2.0**-3, "f8": 2.0**-2, "bf16": 2.0**-7, "f16": 2.0**-10, "f32": 2.0**-23, "f64": 2.0**-52}
EPSILON |= {"c64": EPSILON["f32"], "c128": EPSILON["f64"]}


def _tensorish(expected) -> bool:
    if not isinstance(expected, dict):
        return False
    if "tensor" in expected:
        return expected["tensor"]["values"] != "template"  # a defn cannot return a template
    if "tuple" in expected or "list" in expected:
        items = expected.get("tuple", expected.get("list"))
        return bool(items) and all(_tensorish(item) for item in items)
    if "map" in expected:
        return bool(expected["map"]) and all(_tensorish(value) for _, value in expected["map"])
    return "error" in expected


# Functions Nx does not run inside a defn: their cases have no -jit variant.
NOT_IN_DEFN = {"Nx.backend_copy/2", "Nx.backend_transfer/2", "Nx.backend_deallocate/1", "Nx.to_batched/3"}


def _has_jit(case) -> bool:
    if case["function"] in NOT_IN_DEFN:
        return False
    return any("jit" in step and _tensorish(step.get("expected")) for step in case["steps"])


def _params():
    known = known_failures.by_test_id()
    for case in PORTED:
        for path in ("numpy", "xla", "jit"):
            if path == "jit" and not _has_jit(case):
                continue
            test_id = f"{case['id']}-{path}"
            reason = known.get(test_id) or known.get(case["id"])
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            yield pytest.param(case, path, id=test_id, marks=marks)


# ---------------------------------------------------------------- comparison


def _number(text: str):
    text = text.replace("Inf", "inf").replace("NaN", "nan")
    if text.endswith("i"):
        match = re.fullmatch(r"(-?[\d.e+-]+|-?inf|nan)([+-])([\d.e+-]+|inf|nan)i", text)
        real, sign, imag = match.groups()
        return complex(float(real), float(imag) * (-1 if sign == "-" else 1))
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return float(text)


def _last_digit(text: str) -> float:
    """One unit in the last printed digit of a float (1.25e-3 -> 1e-5)."""
    mantissa, _, exponent = text.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exponent or 0) - decimals)


def _close_float(actual: float, text: str, type_: str) -> bool:
    expected = _number(text)
    if math.isnan(expected):
        return math.isnan(actual)
    if math.isinf(expected) or math.isinf(actual):
        return actual == expected
    tolerance = max(_last_digit(text), 4 * EPSILON.get(type_, EPSILON["f64"]) * abs(expected))
    return abs(actual - expected) <= tolerance


def _close(actual, text: str, type_: str) -> bool:
    if text.endswith("i"):
        real, imag = re.fullmatch(r"(.+?[\d.nfN])([+-].+)i", text).groups()
        actual = complex(actual)
        return _close_float(actual.real, real, type_) and _close_float(actual.imag, imag.lstrip("+"), type_)
    if type_[0] in "su" or re.fullmatch(r"-?\d+", text):
        return float(actual) == float(text) if isinstance(actual, float) else int(actual) == int(text)
    return _close_float(float(actual), text, type_)


def _flat(values):
    if isinstance(values, list):
        return [item for value in values for item in _flat(value)]
    return [values]


def _check_tensor(actual, expected, where):
    assert isinstance(actual, nbt.Tensor) or expected["values"] == "template", (
        f"{where}: expected a tensor, got {actual!r}"
    )
    header = (str(actual.type), tuple(actual.shape), tuple(actual.names))
    assert header == (expected["type"], tuple(expected["shape"]), tuple(expected["names"])), f"{where}: header"
    if expected["values"] == "template":
        return
    vectorized = tuple((name, size) for name, size in getattr(actual, "vectorized_axes", ()))
    assert vectorized == tuple(map(tuple, expected["vectorized"])), f"{where}: vectorized axes {vectorized}"
    array = actual.to_numpy().reshape(-1).tolist()
    printed = _flat(expected["values"])
    assert len(array) == len(printed), f"{where}: {len(array)} values, Nx printed {len(printed)}"
    wrong = [(got, text) for got, text in zip(array, printed, strict=True) if not _close(got, text, expected["type"])]
    assert not wrong, f"{where}: (numbat, Nx) values differ: {wrong[:6]}"


def check(actual, expected, where="result"):
    """Asserts that `actual` is the numbat form of Nx's printed `expected`."""
    if expected is None:
        assert actual is None, f"{where}: expected nil, got {actual!r}"
    elif isinstance(expected, bool):
        assert actual is expected or (isinstance(actual, nbt.Tensor) is False and actual == expected), where
    elif "tensor" in expected:
        _check_tensor(actual, expected["tensor"], where)
    elif "num" in expected:
        assert isinstance(actual, (int, float, complex)) and not isinstance(actual, bool), f"{where}: {actual!r}"
        if re.fullmatch(r"-?\d+", expected["num"]):
            assert isinstance(actual, int) and actual == int(expected["num"]), f"{where}: {actual!r} != {expected}"
        else:
            assert isinstance(actual, float) and _close(actual, expected["num"], "f64"), f"{where}: {actual!r}"
    elif expected.get("atom") in NON_FINITE:  # to_flat_list gives :nan, :infinity, :neg_infinity
        assert isinstance(actual, float) and str(actual) == NON_FINITE[expected["atom"]], f"{where}: {actual!r}"
    elif "atom" in expected:
        assert actual == expected["atom"], f"{where}: {actual!r} != :{expected['atom']}"
    elif "type" in expected:
        assert str(actual) == expected["type"], f"{where}: type {actual} != {expected['type']}"
    elif "str" in expected:
        assert actual == expected["str"], where
    elif "binary" in expected:
        assert bytes(actual) == bytes.fromhex(expected["binary"]), f"{where}: {bytes(actual)!r}"
    elif "tuple" in expected or "list" in expected:
        items = expected.get("tuple", expected.get("list"))
        kinds = tuple if "tuple" in expected else (list, tuple)
        assert isinstance(actual, kinds), f"{where}: expected a {kinds}, got {actual!r}"
        assert len(actual) == len(items), f"{where}: {len(actual)} items, expected {len(items)}"
        for n, (got, want) in enumerate(zip(actual, items, strict=True)):
            check(got, want, f"{where}[{n}]")
    elif "map" in expected:
        assert isinstance(actual, dict), f"{where}: expected a dict, got {actual!r}"
        assert sorted(map(str, actual)) == sorted(key for key, _ in expected["map"]), f"{where}: keys {list(actual)}"
        for key, want in expected["map"]:
            check(actual[key], want, f"{where}[{key!r}]")
    else:
        raise AssertionError(f"unknown expectation {expected}")


# ---------------------------------------------------------------- running


def _is_container_of_tensors(value) -> bool:
    if isinstance(value, nbt.Tensor):
        return True
    if isinstance(value, (tuple, list)):
        return bool(value) and all(_is_container_of_tensors(item) for item in value)
    if isinstance(value, dict):
        return bool(value) and all(_is_container_of_tensors(item) for item in value.values())
    return False


def _jit(form, namespace):
    """Runs `form["body"]` inside nbt.jit: hoisted literals and the tensors it reads are arguments."""
    names = [name for name in compile(form["body"], "<jit>", "eval").co_names if name in namespace and name != "nbt"]
    arguments = {f"_h{n}": eval(code, namespace) for n, code in enumerate(form["hoisted"])}
    static = {"nbt": nbt}
    for name in names:
        (arguments if _is_container_of_tensors(namespace[name]) else static)[name] = namespace[name]
    function = eval(f"lambda {', '.join(arguments)}: {form['body']}", static)
    return nbt.jit(function)(*arguments.values())


def run(case, path):
    backend = nbt.NumPyBackend() if path == "numpy" else nbt.XLABackend()
    namespace = {"nbt": nbt}
    with nbt.default_backend(backend):
        for number, step in enumerate(case["steps"]):
            expected = step.get("expected")

            def action(step=step, expected=expected):
                if step.get("assign"):
                    exec(step["python"], namespace)  # noqa: S102
                    return eval(step["result"], namespace)
                if path == "jit" and "jit" in step and _tensorish(expected):
                    return _jit(step["jit"], namespace)
                return eval(step["python"], namespace)

            where = f"step {number} `{step['python']}`"
            if isinstance(expected, dict) and "error" in expected:
                with pytest.raises(ERRORS.get(expected["error"], (nbt.ArgumentError,))):
                    action()
            elif expected is not None or "expected" in step:
                check(action(), expected, where)
            else:
                action()


@pytest.mark.parametrize(("case", "path"), list(_params()))
def test_nx_doctest(case, path):
    run(case, path)


def test_every_exception_is_documented():
    """A case leaves the suite only through a named entry of exceptions.EXCEPTIONS."""
    for case in CASES:
        if "exception" in case:
            assert case["exception"] in (
                exceptions.EXCEPTIONS.get(case["id"]),
                exceptions.EXCEPTIONS.get(case["function"]),
            ), f"{case['id']} is skipped without an entry in exceptions.py: {case['exception']}"


def test_known_failures_name_real_cases():
    """Every entry of known_failures.py names a ported case (or a case and a path)."""
    ids = {case["id"] for case in PORTED}
    ids |= {param.id for param in _params()}
    assert not set(known_failures.by_test_id()) - ids


def test_the_deliberate_integer_difference_is_only_the_literal():
    """known_failures: Nx wraps 0xF0000000 into s32; numbat keeps its value as s64, and
    the same s32 bits give Nx's printed answer."""
    assert str(nbt.tensor([4026531840, 251658240]).type) == "s64"
    wrapped = nbt.tensor([4026531840 - 2**32, 251658240], type="s32")
    assert nbt.to_list(nbt.count_leading_zeros(wrapped)) == [0, 4]


# Nx.LinAlg.eigh's and svd's doctests run LAPACK's algorithms, whose signs and order are not
# Nx's (known_failures.py, "deliberate"); given their options (Nx's defaults here), numbat runs
# Nx's own algorithms, and the same doctests print Nx's results, inside nbt.jit too.
NX_ALGORITHM_OPTIONS = {"eigh": "max_iter=1_000, eps=1.0e-4", "svd": "max_iter=100"}
NX_ALGORITHM_CASES = [f"Nx.LinAlg.eigh/2#{n}" for n in range(1, 5)] + [f"Nx.LinAlg.svd/2#{n}" for n in range(1, 4)]
_DECOMPOSITION = re.compile(r"(.+) = nbt\.linalg\.(eigh|svd)\((.+?)(, full_matrices=False)?\)")


def _with_options(case, path):
    """`case` with its decomposition given Nx's default options (inside nbt.jit on the jit path)."""
    steps = []
    for step in case["steps"]:
        if match := _DECOMPOSITION.fullmatch(step["python"]):
            target, fun, tensor, full = match.groups()
            call = f"nbt.linalg.{fun}(_t{full or ''}, {NX_ALGORITHM_OPTIONS[fun]})"
            run_it = f"nbt.jit(lambda _t: {call})" if path == "jit" else f"(lambda _t: {call})"
            step = {**step, "python": f"{target} = {run_it}({tensor})"}
        steps.append(step)
    return {**case, "steps": steps}


@pytest.mark.parametrize("path", ["numpy", "xla", "jit"])
@pytest.mark.parametrize("case", [c for c in PORTED if c["id"] in NX_ALGORITHM_CASES], ids=lambda c: c["id"])
def test_eigh_and_svd_doctests_with_options_print_nx_results(case, path):
    assert case["id"] in known_failures.by_test_id()  # without options: LAPACK's, a deliberate difference
    rewritten = _with_options(case, path)
    assert sum(a != b for a, b in zip(rewritten["steps"], case["steps"], strict=True)) == 1
    run(rewritten, path)
