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
machine), `NUMBAT_DIFFERENTIAL=bf16,u64` the types named. Besides the edge grid,
every public op of the op table is checked at random points of its operands' domain (the
entry's `domain`) and next to its finite ends, RANDOM_POINTS of each for f32 and f64 (a seeded
draw: the same points every run), where a formula wrong away from the grid shows
(test_a_wrong_formula_fails_off_the_edge_grid); `tests/test_differential_random.py` adds
hypothesis's random shapes and values.
"""

from __future__ import annotations

import warnings
import zlib

import _differential as d
import jax
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


# Disagreements the random points of the ops' domains found (test_table_ops_agree_at_random_points_of_
# their_domains) and not fixed yet, by failure-line prefix: open work, kept out of the edge grid's list. None now:
# XLA's sinh, cosh, asin and atanh that disagreed are computed by formulas of their own (`_core/_op_code.py`).
DOMAIN_DISAGREEMENTS = {}


def _unexpected(failures, known=None):
    """`failures` less the KNOWN_DISAGREEMENTS (or `known`)."""
    known = KNOWN_DISAGREEMENTS if known is None else known
    return [line for line in failures if not any(line.startswith(prefix) for prefix in known)]


FLOATS = ("f8_e4m3fn", "f16", "bf16", "f32", "f64")


def _pairs(type_name):
    x = d.edge_values(type_name)
    if x.dtype.kind == "c":
        x = x[:: max(1, x.size // 25)]
    return np.repeat(x, x.size), np.tile(x, x.size)


def _check_reference(name, arrays, type_name, expected, failures, references=None):
    reference = (REFERENCES if references is None else references).get(name)
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


# Random points in each table op's domain (`_differential.domain_points`): how many per op and
# type, and the types (one of each float width the reference is exact enough for).
RANDOM_POINTS = 256
RANDOM_TYPES = ("f32", "f64")


def _table_ops(arity):
    """The public ops of the op table of `arity` the differential test covers."""
    kinds = ("unary",) if arity == 1 else ("binary",)
    return [name for name, op in OPS_TABLE.items() if op.arity == arity and name in OPS and OPS[name][0] in kinds]


def check_on_domains(names, type_name, funs=None, references=None, table=None):
    """Failures of the ops `names` at random points of their domains: the four paths against
    each other and the NumPy path against the float64 reference. `funs`, `references` and
    `table` replace the package's (a test's wrong formula)."""
    table = OPS_TABLE if table is None else table
    funs = {name: OPS[name][1] for name in names} if funs is None else funs
    groups, failures = {}, []
    for name in names:
        groups.setdefault((table[name].domain, table[name].arity), []).append(name)
    for (domain, arity), group in sorted(groups.items()):
        seed = zlib.crc32(f"{domain} {type_name}".encode())
        arrays = [d.domain_points(domain, type_name, RANDOM_POINTS, seed + i) for i in range(arity)]
        expected = d.compare_paths({name: funs[name] for name in group}, arrays, type_name, failures)
        for name in group:
            _check_reference(name, arrays, type_name, expected[name], failures, references)
    return _unexpected(failures, {**KNOWN_DISAGREEMENTS, **DOMAIN_DISAGREEMENTS})


@pytest.mark.parametrize("type_name", RANDOM_TYPES)
@pytest.mark.parametrize("arity", [1, 2])
def test_table_ops_agree_at_random_points_of_their_domains(arity, type_name):
    names = _table_ops(arity)
    assert len(names) >= (40 if arity == 1 else 20)
    failures = check_on_domains(names, type_name)
    assert not failures, "\n".join(failures)


def test_domain_points_lie_in_the_domain_and_reach_its_ends():
    x = d.domain_points((-1.0, 1.0), "f32", 200, 0).astype(np.float64)
    assert x.dtype == np.float64 and x.size == 200 and np.all((x >= -1) & (x <= 1))
    assert np.sum(1 - np.abs(x) < 1e-5) >= 10 and np.sum(np.abs(x) < 1e-5) >= 5  # next to both ends and to 0
    x = d.domain_points((0.0, np.inf), "f64", 200, 0)
    assert np.all(x >= 0) and x.max() > 1e100 and 0 < x[x > 0].min() < 1e-100
    assert not d.has_subnormal(x)


def test_a_wrong_formula_fails_off_the_edge_grid():
    # log(1 + x) for log1p: right at every value of the edge grid, wrong next to 0 (1 + 1e-20 is 1).
    wrong = {**REFERENCES, "log1p": lambda x: np.log(1 + x)}
    for type_name in RANDOM_TYPES:
        x, grid = d.edge_values(type_name), []
        expected = d.compare_paths({"log1p": nbt.log1p}, [x], type_name, grid)
        _check_reference("log1p", [x], type_name, expected["log1p"], grid, wrong)
        assert not grid, grid  # the edge grid alone lets the wrong formula pass
        failures = check_on_domains(["log1p"], type_name, references=wrong)
        assert any("log1p" in line and "vs float64 reference" in line for line in failures), failures


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


def _ok(values, type_name="c64"):
    return ("ok", type_name, (len(values),), (None,), np.array(values, dtype=np.complex64))


# PLATFORM_DIFFERENCES["complex special values on a GPU"]: the answers an NVIDIA H200 gave
# (jax 0.11.2) where the host's XLA (and so the NumPy backend) gives the first.
H200_COMPLEX_SPECIALS = {
    "divide": (complex(np.nan, np.nan), complex(np.nan, -np.inf)),
    "acos": (complex(np.nan, np.nan), complex(np.nan, -np.inf)),
    "window_product": (complex(np.nan, np.nan), complex(np.inf, np.nan)),
}


@pytest.mark.parametrize("op", sorted(H200_COMPLEX_SPECIALS))
def test_complex_special_values_on_a_gpu_are_a_recorded_difference(op):
    host, gpu = H200_COMPLEX_SPECIALS[op]
    # The rule applies on a non-CPU platform (injected: this machine's may be the CPU), on the XLA
    # paths, to this op (and its variants), and never on the CPU.
    assert d.complex_specials_differ(op, "xla", "cuda") and d.complex_specials_differ(op, "defn", "rocm")
    assert d.complex_specials_differ(f"{op}(padding)", "defn", "cuda")
    assert not d.complex_specials_differ(op, "xla", "cpu") and not d.complex_specials_differ(op, "evaluator", "cuda")
    assert not d.complex_specials_differ("multiply", "xla", "cuda")
    expected, got = _ok([host, 1 + 2j]), _ok([gpu, 1 + 2j])
    assert d.same(expected, got, complex_specials=True) is None
    assert d.same(expected, got) is not None  # on the CPU the answers must be equal
    # only non-finite answers: a finite answer that differs is a failure on every platform
    assert d.same(_ok([host, 1 + 2j]), _ok([gpu, 1 + 3j]), complex_specials=True) is not None
    assert d.same(_ok([1 + 2j]), _ok([gpu]), complex_specials=True) is not None


def test_compare_paths_applies_the_gpu_complex_rule_only_off_the_cpu(monkeypatch):
    # The XLA paths made to give the H200's divide answer (the injected difference); the NumPy
    # path and the evaluator the host's. Off the CPU the comparison accepts it; on the CPU it fails.
    host, gpu = H200_COMPLEX_SPECIALS["divide"]
    real_run_many = d.run_many

    def run_many(path, funs, arrays, type_name):
        results = real_run_many(path, funs, arrays, type_name)
        if path in ("xla", "defn"):
            for name, result in results.items():
                values = result[4].copy()
                values[np.isnan(values)] = gpu
                results[name] = (*result[:4], values)
        return results

    monkeypatch.setattr(d, "run_many", run_many)
    x = np.array([complex(np.nan, 1), 1 + 1j], dtype=np.complex64)
    for platform, failing in (("cuda", 0), ("cpu", 2)):
        failures = []
        d.compare_paths({"divide": nbt.divide}, [x, x], "c64", failures, platform=platform)
        assert len(failures) == failing, failures
    assert np.isnan(host.real) and np.isnan(host.imag)  # the host's answer: NaN+NaN i


def test_compared_paths_run_at_the_precision_they_promise():
    # f32 products in f32 on every path (XLA's default on NVIDIA GPUs since Ampere is TF32)
    seen = []

    def record(t):
        seen.append(jax.config.jax_default_matmul_precision)
        return t

    for path in d.PATHS:
        assert d.run(path, record, [np.ones(2, np.float32)], "f32")[0] == "ok"
    assert len(seen) >= len(d.PATHS) and set(seen) == {"highest"}
