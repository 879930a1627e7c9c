"""One answer on every path (docs/design.md, decision 13), over edge values.

Every public element-wise, cast, reduction, window, bitwise and complex op (discovered
from the package: see `tests/_differential.py`), for every Nx type it accepts, on a
tensor of that type's edge values (NaN, +-Inf, -0.0, subnormals, min and max, 0, +-1;
binary ops on every pair of them): eager NumPy, eager XLA, `nbt.defn` on XLA and the
evaluator on NumPy give the same type, shape, names and values, or the same numbat
error; and the NumPy path agrees with a float64 NumPy reference where one exists. The
differences kept on purpose are `_differential.PLATFORM_DIFFERENCES`, one table.

Budget: by default (CI) f32, c64 and s8 and one more type that rotates daily through the
other sixteen (the test ids name it), about 90 s; `NUMBAT_DIFFERENTIAL=full pytest
tests/test_differential.py` checks all nineteen Nx types (about six minutes on a 2-core
machine), `NUMBAT_DIFFERENTIAL=bf16,u64` the types named. The edge-value grid is
deterministic (no random draws); `tests/test_differential_random.py` adds hypothesis's
random shapes and values.
"""

from __future__ import annotations

import warnings

import _differential as d
import numpy as np
import pytest

import numbat as nbt
from numbat._core._op_table import OPS as OPS_TABLE
from numbat.backends._cast import cast

OPS = d.discover()
KINDS = {
    kind: sorted(name for name, (k, _f) in OPS.items() if k == kind)
    for kind in ("unary", "binary", "reduce", "window", "recipe")
}

# float64 NumPy references for real float inputs (the result rounded to the output type):
# the op table's `reference` (numbat/_core/_op_table.py).
REFERENCES = {name: op.reference for name, op in OPS_TABLE.items() if op.reference is not None}
# Disagreements found and not fixed yet, by failure-line prefix, with what is known. Each is
# open work, not a platform difference: a line listed here that stops failing is reported too.
KNOWN_DISAGREEMENTS = {}


def _unexpected(failures):
    """`failures` less the KNOWN_DISAGREEMENTS."""
    return [line for line in failures if not any(line.startswith(known) for known in KNOWN_DISAGREEMENTS)]


FLOATS = ("f8_e4m3fn", "f16", "bf16", "f32", "f64")


def _pairs(type_name):
    x = d.edge_values(type_name)
    if x.dtype.kind == "c":
        x = x[:: max(1, x.size // 25)]
    return np.repeat(x, x.size), np.tile(x, x.size)


def _check_reference(name, arrays, type_name, expected, failures):
    reference = REFERENCES.get(name)
    if reference is None or type_name not in FLOATS or expected[0] != "ok":
        return
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        if type_name in d.READ_AS_ZERO.get(name, ()):  # PLATFORM_DIFFERENCES["atan2, pow and cbrt of subnormals"]
            arrays = [d.flushed(a) for a in arrays]
        wide = reference(*[a.astype(np.float64) for a in arrays])
        want = cast(np, np.asarray(wide, dtype=np.float64), expected[4].dtype)
    bad = d.mismatches(want, expected[4])
    if bad.any():
        where = np.flatnonzero(bad)[:4]
        inputs = [a.reshape(-1)[where].tolist() for a in arrays]
        failures.append(f"{name}[{type_name}] vs float64 reference at {inputs}: {want[where]} vs {expected[4][where]}")


def test_every_op_of_the_families_is_covered():
    unknown = sorted(name for name, (kind, _f) in OPS.items() if kind == "unknown")
    assert not unknown, f"ops with no differential recipe (add one to RECIPES in tests/_differential.py): {unknown}"
    assert len(KINDS["unary"]) >= 40 and len(KINDS["binary"]) >= 25


@pytest.mark.parametrize("type_name", d.TYPES)
def test_unary_ops_agree_on_edge_values(type_name):
    x, failures = d.edge_values(type_name), []
    expected = d.compare_paths({name: OPS[name][1] for name in KINDS["unary"]}, [x], type_name, failures)
    for name in KINDS["unary"]:
        _check_reference(name, [x], type_name, expected[name], failures)
    failures = _unexpected(failures)
    assert not failures, "\n".join(failures)


def _binary_recipes():
    return [n for n in KINDS["recipe"] if OPS[n][1] is not None and OPS[n][1].__code__.co_argcount == 2]


@pytest.mark.parametrize("type_name", d.TYPES)
def test_binary_ops_agree_on_edge_value_pairs(type_name):
    x, y = _pairs(type_name)
    failures, names = [], KINDS["binary"] + _binary_recipes()
    expected = d.compare_paths({name: OPS[name][1] for name in names}, [x, y], type_name, failures)
    for name in names:
        _check_reference(name, [x, y], type_name, expected[name], failures)
    failures = _unexpected(failures)
    assert not failures, "\n".join(failures)


def _along_axis(fun):
    if "axes" in fun.__code__.co_varnames:
        return lambda t: fun(nbt.reshape(t, (2, -1)), axes=[1])
    return lambda t: fun(nbt.reshape(t, (2, -1)), axis=1)


@pytest.mark.parametrize("type_name", d.TYPES)
def test_reductions_and_windows_agree_on_edge_values(type_name):
    x, failures = d.edge_values(type_name), []
    if x.dtype.kind not in "iu":  # +-max cancel in an order-dependent way: summation order is the backend's
        x = x[~np.isin(np.abs(x.astype(np.complex128)), [float(np.abs(x.astype(np.complex128))[np.isfinite(x)].max())])]
    x = x[: x.size - x.size % 2]
    funs = {}
    for name in KINDS["reduce"]:
        funs[name] = OPS[name][1]
        funs[f"{name}(axes=[1])"] = _along_axis(OPS[name][1])
    for name in KINDS["window"]:
        funs[name] = lambda t, f=OPS[name][1]: f(t, (2,))
        funs[f"{name}(padding)"] = lambda t, f=OPS[name][1]: f(t, (3,), padding="same")
    for name in KINDS["recipe"]:
        if OPS[name][1] is not None and OPS[name][1].__code__.co_argcount == 1:
            funs[name] = OPS[name][1]
    with np.errstate(all="ignore"):  # PLATFORM_DIFFERENCES["summation order"]
        magnitudes = np.abs(x.astype(np.complex128))
        terms = float(np.sum(magnitudes[np.isfinite(magnitudes)]))
    d.compare_paths(funs, [x], type_name, failures, terms)
    failures = _unexpected(failures)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("type_name", d.TYPES)
def test_casts_to_every_type_agree(type_name):
    x, failures = d.edge_values(type_name), []
    funs = {f"as_type->{target}": (lambda t, target=target: nbt.as_type(t, target)) for target in d.ALL_TYPES}
    d.compare_paths(funs, [x], type_name, failures)
    failures = _unexpected(failures)
    assert not failures, "\n".join(failures)
