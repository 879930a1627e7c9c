"""Differential test for indexing, structure and sorting (issue 16, docs/design.md, decision 13):
for shapes, types and edge values drawn by hypothesis, eager NumPy, eager XLA, a defn on
XLA and the evaluator on NumPy give the same type, shape, names and values (or the same
numbat error), and agree with a NumPy reference where one exists (in-range indexing,
sorts in Nx's NaN order). The budget is fixed and derandomized so CI is deterministic;
`NUMBAT_DIFFERENTIAL_EXAMPLES` raises it on demand."""

import os

import _differential as d
import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import numbat as nbt

TYPES = list(d.ALL_TYPES)
PATHS = ("numpy", "xla", "defn", "evaluator")
EXAMPLES = int(os.environ.get("NUMBAT_DIFFERENTIAL_EXAMPLES", "12"))
SETTINGS = settings(
    max_examples=EXAMPLES, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck), database=None
)
CHECKED = {}  # op -> set of (type, path) combinations compared


def edge_values(type_: str) -> list:
    """The type's edge values: NaN, ±Inf, -0.0, min/max, 0, ±1 and a subnormal."""
    dtype = nbt.Type(*_parse(type_)).dtype
    if dtype.kind in "iu" or dtype in d.SUBBYTE_DTYPES:
        info = ml_dtypes.iinfo(dtype)
        return sorted({0, 1, int(info.min), int(info.max), int(info.max) // 2} | ({-1} if info.min < 0 else set()))
    real = np.float64 if dtype.kind == "c" else dtype
    finfo = ml_dtypes.finfo(real) if dtype.kind == "V" else np.finfo(real)
    values = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, float(finfo.max), float(-finfo.max), float(finfo.tiny) / 2]
    if dtype.kind == "c":
        return [complex(a, b) for a in values[:6] for b in (0.0, 1.0)]
    return values


def _parse(type_: str):
    parsed = nbt.tensor(0, type=type_).type
    return parsed.kind, parsed.bits


@st.composite
def arrays(draw, min_rank=1, max_rank=2, types=TYPES):
    type_ = draw(st.sampled_from(types))
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=min_rank, max_size=max_rank)))
    pool = edge_values(type_)
    flat = draw(st.lists(st.sampled_from(pool), min_size=int(np.prod(shape)), max_size=int(np.prod(shape))))
    dtype = nbt.tensor(0, type=type_).type.dtype
    with np.errstate(all="ignore"):
        integer = dtype.kind in "iu" or dtype in d.SUBBYTE_DTYPES
        data = np.array(flat, dtype=object if integer else None).astype(dtype).reshape(shape)
    return type_, data


def outcome(path, fun, *arrays_):
    backend = nbt.XLABackend() if path in ("xla", "defn") else nbt.NumPyBackend()
    with nbt.default_backend(backend):
        inputs = [nbt.tensor(a) for a in arrays_]
        try:
            if path == "defn":
                result = nbt.defn(fun)(*inputs)
            elif path == "evaluator":
                result = nbt.defn(fun, compiler="evaluator")(*inputs)
            else:
                result = fun(*inputs)
        except nbt.ArgumentError as error:
            return ("error", type(error).__name__)
    return (str(result.type), result.shape, result.names, _comparable(result.to_numpy(), result.type))


def _comparable(array, type_):
    if type_.is_integer:
        return array
    return array.astype(np.complex128 if type_.is_complex else np.float64)


def agree(op: str, type_: str, fun, *arrays_, reference=None):
    """Runs `fun` on every path; all must match the NumPy path, and `reference` if given.
    Where an input is subnormal, XLA's CPU reads it as zero (PLATFORM_DIFFERENCES["subnormals"]
    in _differential.py): an element of XLA's result may instead match NumPy's for the inputs
    read as zero, and floats are compared within the type's smallest normal."""
    results = {path: outcome(path, fun, *arrays_) for path in PATHS}
    first = results["numpy"]
    flushed = None
    if first[0] != "error" and any(d.has_subnormal(a) for a in arrays_):
        flushed = outcome("numpy", fun, *(d.flushed(a) for a in arrays_))
    for path, other in results.items():
        CHECKED.setdefault(op, set()).add((type_, path))
        assert other[:3] == first[:3], f"{op} {type_}: {path} gives {other[:3]}, numpy {first[:3]}"
        if first[0] == "error":
            continue
        if flushed is None:
            np.testing.assert_array_equal(other[3], first[3], err_msg=f"{op} {type_} on {path}")
            continue
        bad = _differ(first[3], other[3], type_)
        if path in ("xla", "defn") and flushed[:3] == other[:3]:
            bad &= _differ(flushed[3], other[3], type_)
        assert not bad.any(), (
            f"{op} {type_} on {path}: {other[3]} vs numpy {first[3]} (inputs read as zero: {flushed[3]})"
        )
    if reference is not None and first[0] != "error":
        np.testing.assert_array_equal(first[3], _comparable(reference, nbt.tensor(0, type=type_).type))


def _differ(expected: np.ndarray, got: np.ndarray, type_: str) -> np.ndarray:
    """Elements of two comparable results that differ by more than the type's smallest normal."""
    if expected.dtype.kind in "iub":
        return expected != got
    real = {"c64": "f32", "c128": "f64"}.get(type_, type_)
    tiny = float(ml_dtypes.finfo(nbt.Type(*_parse(real)).dtype).smallest_normal)
    with np.errstate(invalid="ignore"):
        parts = (
            [(expected.real, got.real), (expected.imag, got.imag)] if expected.dtype.kind == "c" else [(expected, got)]
        )
        bad = np.zeros(expected.shape, bool)
        for a, b in parts:
            bad |= ~((a == b) | (np.isnan(a) & np.isnan(b)) | (np.abs(a - b) <= tiny))
    return bad


def ordered(values: np.ndarray, descending: bool) -> np.ndarray:
    """NumPy's float64 (or exact integer) sort in Nx's order: NaN highest."""
    wide = values if values.dtype.kind in "iu" else values.astype(np.float64)
    result = np.sort(wide, axis=-1)
    return np.flip(result, axis=-1) if descending else result


@SETTINGS
@given(arrays(), st.booleans())
def test_sort(drawn, descending):
    type_, data = drawn
    direction = "desc" if descending else "asc"
    reference = None if data.dtype.kind == "c" else ordered(data, descending)
    agree("sort", type_, lambda t: nbt.sort(t, axis=-1, direction=direction), data, reference=reference)


@SETTINGS
@given(arrays(), st.booleans())
def test_argsort_orders_like_sort(drawn, descending):
    type_, data = drawn
    direction = "desc" if descending else "asc"
    agree("argsort", type_, lambda t: nbt.argsort(t, axis=-1, direction=direction), data)
    if data.dtype.kind != "c":
        order = nbt.argsort(nbt.tensor(data, backend=nbt.NumPyBackend()), axis=-1, direction=direction).to_numpy()
        taken = np.take_along_axis(data, order, axis=-1)
        np.testing.assert_array_equal(
            _comparable(taken, nbt.tensor(data).type), _comparable(ordered(data, descending), nbt.tensor(data).type)
        )


@SETTINGS
@given(arrays(), st.integers(-5, 5), st.integers(-5, 5), st.sampled_from([1, 2, -1, -2]))
def test_getitem_slices(drawn, start, stop, step):
    type_, data = drawn
    index = slice(start, stop, step)
    reference = data[index]
    agree("getitem", type_, lambda t: t[index], data, reference=None if reference.size == 0 else reference)


@SETTINGS
@given(arrays(max_rank=1), st.lists(st.integers(-6, 6), min_size=1, max_size=4))
def test_take_clamps(drawn, indices):
    type_, data = drawn
    index = np.array(indices, dtype=np.int32)
    clamped = np.clip(index, 0, data.shape[0] - 1)
    agree("take", type_, lambda t, i: nbt.take(t, i), data, index, reference=data[clamped])
    agree("gather", type_, lambda t, i: nbt.gather(t, nbt.new_axis(i, 1)), data, index, reference=data[clamped])


@SETTINGS
@given(arrays(max_rank=1), st.lists(st.integers(-6, 6), min_size=1, max_size=4), st.booleans())
def test_indexed_drops_out_of_range(drawn, indices, add):
    type_, data = drawn
    index = np.array(indices, dtype=np.int32)[:, None]
    updates = np.resize(data, index.shape[0])
    if add:
        agree("indexed_add", type_, nbt.indexed_add, data, index, updates)
    else:  # repeated indices write in an unspecified order on XLA: keep them distinct
        index = np.unique(index)[:, None]
        updates = updates[: index.shape[0]]
        expected = data.copy()
        valid = (index[:, 0] >= 0) & (index[:, 0] < data.shape[0])
        expected[index[valid, 0]] = updates[valid]
        agree("indexed_put", type_, nbt.indexed_put, data, index, updates, reference=expected)


@SETTINGS
@given(arrays(), st.integers(1, 3))
def test_structure(drawn, repeats):
    type_, data = drawn
    agree("reverse", type_, nbt.reverse, data, reference=np.flip(data))
    agree("transpose", type_, nbt.transpose, data, reference=data.T)
    agree("tile", type_, lambda t: nbt.tile(t, [repeats]), data, reference=np.tile(data, repeats))
    agree(
        "concatenate",
        type_,
        lambda t: nbt.concatenate((t, (t,)), axis=-1),
        data,
        reference=np.concatenate([data, data], -1),
    )
    agree("split", type_, lambda t: nbt.split(t, 0.5)[0], data) if data.shape[0] > 1 else None


@SETTINGS
@given(arrays(), st.sampled_from(["cumulative_max", "cumulative_min"]))
def test_cumulative_extrema(drawn, op):
    type_, data = drawn
    agree(op, type_, getattr(nbt, op), data)


def test_budget_covered_every_type_and_path():
    """Runs last in this module: the counts of (op, type, path) combinations compared."""
    if not CHECKED:
        pytest.fail("the differential tests above did not run first")
    combinations = sum(len(pairs) for pairs in CHECKED.values())
    types = {t for pairs in CHECKED.values() for t, _ in pairs}
    print(f"differential: {len(CHECKED)} ops, {len(types)} types, {combinations} op x type x path combinations")
    assert {path for pairs in CHECKED.values() for _, path in pairs} == set(PATHS)
    assert len(CHECKED) >= 10
